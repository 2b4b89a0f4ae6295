/* segscan - decompression of Kafka batch payloads (internal).
 *
 * One context per thread holds the zlib / zstd / lz4 decompression state and
 * one reused output buffer, grown on demand up to the caller's cap.
 */
#ifndef SS_CODEC_H
#define SS_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/segment.h"

typedef struct ss_codec_ctx ss_codec_ctx;

ss_codec_ctx *ss_codec_ctx_new(void);
void ss_codec_ctx_free(ss_codec_ctx *c);

/* Decompress src[0..len) written with `codec` (enum ss_codec) by a producer of
 * message format `magic` (0 selects Kafka's broken LZ4 header checksum,
 * KAFKA-3160). The output lands in the context's buffer and stays valid until
 * the next call. At most max_out bytes are produced: a larger output returns
 * SS_E_TOO_LARGE. Errors: SS_E_DECOMPRESS (corrupt or truncated input),
 * SS_E_BAD_CODEC (unknown id), SS_E_NOMEM, SS_E_USAGE (no context). *err
 * (when not NULL) gets the kind and a short reason, with position 0 and base
 * offset -1: the caller knows where the payload is; cleared on success. */
ss_errkind ss_decompress(ss_codec_ctx *c, enum ss_codec codec, int magic, const uint8_t *src, size_t len,
                         size_t max_out, const uint8_t **out, size_t *out_len, ss_error *err);

#endif
