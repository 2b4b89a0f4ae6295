/* Fuzz target: producer-state snapshot reader (.snapshot). Input: the file. */
#include "fuzz_common.h"
#include "segscan/files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *buf = fuzz_dup(data, size);
    ss_snapshot s;
    ss_error err;
    ss_errkind k = ss_snapshot_parse(buf, size, &s, &err);
    if (k == SS_E_OK) {
        FUZZ_CHECK(s.n * SS_SNAPSHOT_ENTRY_SIZE <= size);
        for (size_t i = 0; i < s.n; i++) fuzz_sink += (uint32_t)s.entries[i].first_sequence;
    } else {
        FUZZ_CHECK(memchr(err.msg, 0, sizeof err.msg) != NULL);
    }
    ss_snapshot_free(&s);
    free(buf);
    return 0;
}
