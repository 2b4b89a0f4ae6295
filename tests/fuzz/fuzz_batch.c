/* Fuzz target: one log entry - ss_batch_parse, then every record of it.
 *
 * Built twice: FUZZ_LEGACY=0 (target batch_v2: the v2 record batch decoder)
 * and FUZZ_LEGACY=1 (target legacy: v0/v1 messages and compressed wrappers).
 *
 * Input: one flags byte, then the entry.
 *   bit 0: rewrite the length field to the input's size (so inserted or removed
 *          bytes keep a consistent frame and the fuzzer reaches the records)
 *   bit 1: check the CRC (the records are decoded either way)
 *   bit 2: legacy target: magic 1 (else 0)
 *   bit 3: a 200-byte cap on the decompressed size (the too-large path)
 * The magic byte is forced to the target's format.
 */
#include "fuzz_common.h"

#ifndef FUZZ_LEGACY
#define FUZZ_LEGACY 0
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ss_decoder *dec_big, *dec_small;
    if (!dec_big) {
        dec_big = ss_decoder_new(1u << 20);
        dec_small = ss_decoder_new(200);
        if (!dec_big || !dec_small) abort();
    }
    if (size < 1) return 0;
    uint8_t flags = data[0];
    size_t n = size - 1;
    uint8_t *buf = fuzz_dup(data + 1, n);
    if (n >= 17) {
        buf[16] = FUZZ_LEGACY ? ((flags & 4) ? 1 : 0) : 2;
        if ((flags & 1) && n - 12 <= INT32_MAX) fuzz_put_be32(buf + 8, (uint32_t)(n - 12));
    }
    ss_decoder *d = (flags & 8) ? dec_small : dec_big;
    ss_batch b;
    ss_error err;
    ss_errkind k = ss_batch_parse(buf, n, 7, (flags & 2) != 0, d, &b, &err);
    if (k == SS_E_OK) {
        FUZZ_CHECK(b.size >= 14 && b.size <= n);
        FUZZ_CHECK(b.position == 7 && b.data == buf);
        FUZZ_CHECK(b.magic >= 0 && b.magic <= 2);
        fuzz_records(d, &b);
        /* a second pass gives the same records (decoder cache) */
        fuzz_records(d, &b);
    } else {
        FUZZ_CHECK(err.kind == k && err.position == 7);
        FUZZ_CHECK(memchr(err.msg, 0, sizeof err.msg) != NULL);
    }
    free(buf);
    return 0;
}
