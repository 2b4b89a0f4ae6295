/* Fuzz target: an export read back as an input (src/lib/parquet/reader.c: the footer in the
 * Thrift compact protocol, pages, levels, DELTA_BINARY_PACKED, PLAIN, zstd; then
 * src/lib/inputs/export_in.c: the rows rebuilt as record batches).
 *
 * Input: the bytes of a .parquet file (the seeds: exports segscan wrote of small scenarios,
 * and Parquet files of another writer's or another schema).
 * Invariants: a refusal has a message; every partition rebuilt is a run of whole v2 batches,
 * each CRC-valid, whose records all decode and lie in the batch's offsets (the rebuilder
 * computes what the walker checks). */
#include "fuzz_common.h"
#include "inputs/export_in.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ss_decoder *dec;
    if (!dec && !(dec = ss_decoder_new(1u << 24))) abort();
    uint8_t *buf = fuzz_dup(data, size);
    ss_xfile x;
    ss_error err;
    ss_errkind k = ss_xfile_from_memory(buf, size, &x, &err);
    if (k != SS_E_OK) {
        FUZZ_CHECK(k == SS_E_BAD_EXPORT || k == SS_E_USAGE || k == SS_E_NOMEM);
        FUZZ_CHECK(memchr(err.msg, 0, sizeof err.msg) != NULL && err.msg[0]);
        free(buf);
        return 0;
    }
    for (size_t i = 0; i < x.n; i++) {
        const ss_xpart *p = &x.v[i];
        FUZZ_CHECK(p->topic != NULL);
        for (uint64_t pos = 0; pos < p->len;) {
            ss_batch b;
            FUZZ_CHECK(ss_batch_parse(p->mem + pos, p->len - pos, pos, true, dec, &b, &err) == SS_E_OK);
            FUZZ_CHECK(b.crc_valid && b.magic == 2 && b.size <= p->len - pos);
            ss_rec_iter it;
            ss_record r;
            FUZZ_CHECK(ss_records_begin(dec, &b, &it, &err) == SS_E_OK);
            int n, count = 0;
            while ((n = ss_records_next(&it, &r, &err)) == 1) {
                FUZZ_CHECK(r.offset >= b.base_offset && r.offset <= b.last_offset);
                fuzz_touch(r.key, r.key_len);
                fuzz_touch(r.value, r.value_len);
                count++;
            }
            FUZZ_CHECK(n == 0 && count == b.count);
            pos += b.size;
        }
    }
    ss_xfile_free(&x);
    free(buf);
    return 0;
}
