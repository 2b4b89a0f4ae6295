/* Fuzz target: offset and time index readers (include/segscan/files.h).
 *
 * Input: one byte, then the index file; when bit 7 is set, two more bytes give
 * the index part's length (big-endian) and the bytes after it are a .log that
 * the entries are checked against, as `dump --verify-index-only` does.
 *   bit 0: time index (else offset index)
 *   bits 1-6: base offset = that value * 1000
 */
#include "fuzz_common.h"
#include "segscan/files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ss_decoder *dec;
    if (!dec && !(dec = ss_decoder_new(1u << 20))) abort();
    if (size < 1) return 0;
    uint8_t flags = data[0];
    ss_index_kind kind = (flags & 1) ? SS_INDEX_TIME : SS_INDEX_OFFSET;
    int64_t base = (int64_t)((flags >> 1) & 0x3f) * 1000;
    const uint8_t *ixp = data + 1, *logp = NULL;
    size_t ixn = size - 1, logn = 0;
    if (flags & 0x80) {
        if (size < 3) return 0;
        size_t n = (size_t)data[1] << 8 | data[2];
        if (n > size - 3) n = size - 3;
        ixp = data + 3;
        ixn = n;
        logp = data + 3 + n;
        logn = size - 3 - n;
    }
    uint8_t *ixb = fuzz_dup(ixp, ixn);
    uint8_t *logb = logp ? fuzz_dup(logp, logn) : NULL;
    ss_index *ix;
    ss_error err;
    if (ss_index_from_memory(ixb, ixn, kind, base, &ix, &err) != SS_E_OK) {
        FUZZ_CHECK(memchr(err.msg, 0, sizeof err.msg) != NULL);
        free(ixb);
        free(logb);
        return 0;
    }
    FUZZ_CHECK(ix->entries * ix->entry_size <= ixn);
    FUZZ_CHECK(ix->listed <= ix->entries);
    uint64_t lim = ix->entries < 4096 ? ix->entries : 4096;
    for (uint64_t i = 0; i < lim; i++) {
        if (kind == SS_INDEX_OFFSET) {
            ss_offset_entry e = ss_index_offset_entry(ix, i);
            ss_offset_entry l = ss_index_lookup(ix, base, e.offset);
            fuzz_sink += (uint32_t)l.position;
        } else {
            ss_time_entry e = ss_index_time_entry(ix, i);
            fuzz_sink += (uint32_t)e.offset;
        }
    }
    /* a slot past the end reads as zeros */
    if (kind == SS_INDEX_OFFSET) {
        (void)ss_index_offset_entry(ix, ix->entries + 5);
        (void)ss_index_last_offset(ix);
        (void)ss_index_lookup(ix, base, INT64_MAX);
        (void)ss_index_lookup(ix, base, INT64_MIN);
        (void)ss_index_lookup(NULL, base, 5);
    } else {
        (void)ss_index_time_entry(ix, ix->entries + 5);
        (void)ss_index_last_time_entry(ix);
    }
    ss_errkind sk = ss_index_sanity_check(ix, "/fuzz/00000000000000000000.index", &err);
    FUZZ_CHECK(sk == SS_E_OK || sk == SS_E_BAD_INDEX);
    if (sk != SS_E_OK) FUZZ_CHECK(memchr(err.msg, 0, sizeof err.msg) != NULL);

    if (logb) {
        ss_segment *log;
        if (ss_segment_from_memory(logb, logn, false, &log, &err) != SS_E_OK) abort();
        ss_index_checker *c = ss_index_checker_new(log, kind == SS_INDEX_OFFSET ? ix : NULL, dec);
        if (!c) abort();
        uint64_t n = ix->listed < 256 ? ix->listed : 256;
        for (uint64_t i = 0; i < n; i++) {
            ss_icheck out;
            if (kind == SS_INDEX_OFFSET) (void)ss_index_check_offset(c, ss_index_offset_entry(ix, i), 1u << 20, &out);
            else (void)ss_index_check_time(c, ss_index_time_entry(ix, i), &out);
        }
        ss_index_checker_free(c);
        ss_segment_close(log);
    }
    ss_index_close(ix);
    free(ixb);
    free(logb);
    return 0;
}
