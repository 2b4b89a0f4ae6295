/* Fuzz target: transaction index reader (.txnindex).
 * Input: one byte (start offset = byte * 100), then the file. */
#include "fuzz_common.h"
#include "segscan/files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    int64_t start = (int64_t)data[0] * 100;
    uint8_t *buf = fuzz_dup(data + 1, size - 1);
    ss_txnindex *t;
    ss_error err;
    char line[256];
    if (ss_txnindex_from_memory(buf, size - 1, start, &t, &err) == SS_E_OK) {
        FUZZ_CHECK(t->entries * SS_ABORTED_TXN_SIZE + t->tail_bytes == size - 1);
        uint64_t lim = t->entries < 4096 ? t->entries : 4096;
        for (uint64_t i = 0; i < lim; i++) {
            ss_aborted_txn a;
            if (ss_txnindex_entry(t, i, "/fuzz/0.txnindex", &a, &err) == SS_E_OK) {
                int n = ss_aborted_txn_format(&a, line, sizeof line);
                FUZZ_CHECK(n > 0);
            } else {
                FUZZ_CHECK(memchr(err.msg, 0, sizeof err.msg) != NULL);
            }
        }
        (void)ss_txnindex_sanity_check(t, "/fuzz/0.txnindex", &err);
        ss_txnindex_close(t);
    }
    free(buf);
    return 0;
}
