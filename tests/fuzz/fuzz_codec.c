/* Fuzz target: one codec of ss_decompress (src/lib/format/codec.c).
 *
 * Built once per codec (FUZZ_CODEC = 1 gzip, 2 snappy, 3 lz4, 4 zstd).
 * Input: one byte (bits 0-1: the message format magic, 0..2, which selects the
 * KAFKA-3160 lz4 header fix for magic 0; bit 2: a 100-byte output cap instead
 * of 1 MiB), then the compressed payload. The same context is reused across
 * inputs, as a decoder reuses it across batches.
 */
#include "format/codec.h"
#include "fuzz_common.h"

#ifndef FUZZ_CODEC
#define FUZZ_CODEC 1
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ss_codec_ctx *ctx;
    if (!ctx && !(ctx = ss_codec_ctx_new())) abort();
    if (size < 1) return 0;
    int magic = (data[0] & 3) % 3;
    size_t cap = (data[0] & 4) ? 100 : (size_t)1 << 20;
    uint8_t *src = fuzz_dup(data + 1, size - 1);
    const uint8_t *out;
    size_t out_len;
    ss_error err;
    ss_errkind k = ss_decompress(ctx, FUZZ_CODEC, magic, src, size - 1, cap, &out, &out_len, &err);
    FUZZ_CHECK(memchr(err.msg, 0, sizeof err.msg) != NULL && err.kind == k);
    if (k == SS_E_OK) {
        FUZZ_CHECK(out != NULL && out_len <= cap);
        fuzz_touch(out, (int64_t)out_len);
    } else {
        FUZZ_CHECK(k == SS_E_DECOMPRESS || k == SS_E_TOO_LARGE);
        FUZZ_CHECK(err.msg[0] != 0);
    }
    free(src);
    return 0;
}
