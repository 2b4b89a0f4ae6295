/* segscan - decompression of Kafka batch payloads.
 *
 * One entry point, ss_decompress(), for the four codecs Kafka uses. Each
 * decoder streams into one output buffer owned by the context, which grows
 * geometrically and never past max_out + 1 bytes: the extra byte is how a
 * streaming decoder tells "exactly max_out" from "more than max_out" without
 * a second pass. A payload that would decompress to more than max_out bytes
 * stops there with SS_E_TOO_LARGE, so a decompression bomb costs at most
 * max_out bytes of memory and the time to produce them.
 *
 * Ownership: the context owns the buffer, the z_stream, the ZSTD_DCtx and the
 * LZ4F context; all are created on first use and reused (reset) by each call.
 * The output of a call points into the buffer (or is `src` itself for codec
 * none) and stays valid until the next call or ss_codec_ctx_free().
 *
 * Kafka quirks kept here (see DESIGN.md section 3):
 *  - gzip: RFC 1952 members may follow each other. Like java.util.zip's
 *    GZIPInputStream, a next member is read only when the bytes after a
 *    member start with the gzip magic 1f 8b, and a next member whose header
 *    is bad or incomplete ends the stream silently; bad data inside a member
 *    is an error.
 *  - snappy: the xerial (snappy-java) stream, or raw snappy when the magic
 *    is absent (librdkafka writes raw snappy).
 *  - lz4: the LZ4 frame format; for message format 0 Kafka wrote a wrong
 *    header checksum (KAFKA-3160) and ignores it when reading, so we repair
 *    the checksum in a copy of the frame header before liblz4 sees it.
 *  - zstd: frames need not declare their content size: always stream.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZLIB_CONST
#include <zlib.h>

#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <xxhash.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "base/error_set.h"
#include "base/grow.h"
#include "format/codec.h"

/* First allocation of the output buffer (unless max_out is smaller). */
#define OUT_MIN_CAP ((size_t)64 * 1024)

struct ss_codec_ctx {
    uint8_t *buf; /* output buffer, `cap` bytes, reused across calls */
    size_t cap;
    z_stream zs; /* valid when zs_ready */
    bool zs_ready;
    ZSTD_DCtx *zd;
    LZ4F_dctx *lz4;
};

/* One decompression call: where the output goes and how far it may grow. */
typedef struct out_state {
    ss_codec_ctx *c;
    size_t len;     /* bytes produced so far, in c->buf */
    size_t max_out; /* the caller's cap */
    size_t limit;   /* max_out + 1 (saturated): the buffer never grows past it */
    ss_error *err;  /* the caller's, or NULL */
} out_state;

ss_codec_ctx *ss_codec_ctx_new(void) { return calloc(1, sizeof(ss_codec_ctx)); }

void ss_codec_ctx_free(ss_codec_ctx *c) {
    if (c == NULL) return;
    if (c->zs_ready) inflateEnd(&c->zs);
    ZSTD_freeDCtx(c->zd);
    if (c->lz4 != NULL) LZ4F_freeDecompressionContext(c->lz4);
    free(c->buf);
    free(c);
}

static ss_errkind too_large(out_state *o, const char *codec) {
    return ss_error_set(o->err, SS_E_TOO_LARGE, 0, -1, "%s: decompressed size exceeds the limit of %zu bytes", codec,
                        o->max_out);
}

/* Make room for at least `need` bytes of output in total (need <= o->limit). */
static ss_errkind reserve(out_state *o, size_t need) {
    ss_codec_ctx *c = o->c;
    size_t n;

    if (need <= c->cap) return SS_E_OK;
    n = c->cap < OUT_MIN_CAP ? OUT_MIN_CAP : c->cap;
    while (n < need) n = n > SIZE_MAX / 2 ? SIZE_MAX : n * 2;
    if (n > o->limit) n = o->limit;
    if (n < need) /* callers never ask past the limit; be safe anyway */
        return ss_error_set(o->err, SS_E_TOO_LARGE, 0, -1, "decompressed size exceeds the limit of %zu bytes",
                            o->max_out);
    if (!SS_FIT(c->buf, n, c->cap))
        return ss_error_set(o->err, SS_E_NOMEM, 0, -1, "out of memory growing the decompression buffer to %zu bytes",
                            n);
    return SS_E_OK;
}

/* Before a streaming decoder call: make sure at least one byte of output
 * space is free. o->len <= max_out < limit holds here, so growth is possible. */
static ss_errkind reserve_some(out_state *o) {
    if (o->len < o->c->cap) return SS_E_OK;
    return reserve(o, o->len + 1);
}

/* Output space a decoder may fill in this call: up to the buffer's end, but
 * not past the limit (the buffer may be larger, from an earlier call). */
static size_t room(const out_state *o) {
    size_t end = o->c->cap < o->limit ? o->c->cap : o->limit;
    return end - o->len;
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- gzip ------------------------------------------------------------------ */

static ss_errkind dec_gzip(out_state *o, const uint8_t *src, size_t len) {
    ss_codec_ctx *c = o->c;
    z_stream *zs = &c->zs;
    gz_header hd;
    size_t in_pos = 0;
    unsigned members = 0; /* members fully read */
    ss_errkind e;

    if (!c->zs_ready) {
        memset(zs, 0, sizeof *zs);
        /* 15 + 32: 32 KiB window, gzip (or zlib) header detected automatically. */
        int rc = inflateInit2(zs, 15 + 32);
        if (rc != Z_OK)
            return ss_error_set(o->err, rc == Z_MEM_ERROR ? SS_E_NOMEM : SS_E_DECOMPRESS, 0, -1,
                                "gzip: inflateInit2 failed (%d)", rc);
        c->zs_ready = true;
    } else {
        inflateReset(zs);
    }
    /* inflateReset forgets the header record: register it again per member.
     * hd.done tells whether the current member's header has been read in full. */
    memset(&hd, 0, sizeof hd);
    inflateGetHeader(zs, &hd);

    for (;;) {
        if ((e = reserve_some(o)) != SS_E_OK) return e;
        size_t in_left = len - in_pos, out_left = room(o);
        uInt in_n = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
        uInt out_n = out_left > UINT_MAX ? UINT_MAX : (uInt)out_left;
        zs->next_in = src + in_pos;
        zs->avail_in = in_n;
        zs->next_out = c->buf + o->len;
        zs->avail_out = out_n;
        int rc = inflate(zs, Z_NO_FLUSH);
        in_pos += in_n - zs->avail_in;
        o->len += out_n - zs->avail_out;
        if (o->len > o->max_out) return too_large(o, "gzip");

        switch (rc) {
        case Z_STREAM_END:
            members++;
            /* Another member follows only if the gzip magic does (GZIPInputStream). */
            if (len - in_pos >= 2 && src[in_pos] == 0x1f && src[in_pos + 1] == 0x8b) {
                inflateReset(zs);
                memset(&hd, 0, sizeof hd);
                inflateGetHeader(zs, &hd);
                continue;
            }
            return SS_E_OK;
        case Z_OK: continue;
        case Z_BUF_ERROR:                     /* no progress possible */
            if (zs->avail_out == 0) continue; /* output full: grow and go on */
            if (members > 0 && hd.done != 1)
                return SS_E_OK; /* an incomplete header after a member: ignored, as Java does */
            return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "gzip: unexpected end of stream after %zu of %zu bytes",
                                in_pos, len);
        case Z_DATA_ERROR:
            if (members > 0 && hd.done != 1) return SS_E_OK; /* a bad header after a member: ignored, as Java does */
            return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "gzip: %s at payload byte %zu",
                                zs->msg ? zs->msg : "invalid data", in_pos);
        case Z_MEM_ERROR: return ss_error_set(o->err, SS_E_NOMEM, 0, -1, "gzip: out of memory");
        case Z_NEED_DICT: return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "gzip: stream needs a preset dictionary");
        default: return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "gzip: inflate error %d", rc);
        }
    }
}

/* ---- snappy ---------------------------------------------------------------- */

static const uint8_t xerial_magic[8] = {0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
#define XERIAL_HEADER_LEN 16u         /* magic, int32 version, int32 compatible version */
#define XERIAL_MAGIC_HEAD 0x82534E41u /* the first 4 magic bytes read as a block length */

/* One raw snappy block of n bytes found at payload byte `at`, appended to the output. */
static ss_errkind snappy_block(out_state *o, const uint8_t *p, size_t n, size_t at) {
    size_t ulen, got;
    ss_errkind e;

    if (snappy_uncompressed_length((const char *)p, n, &ulen) != SNAPPY_OK)
        return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "snappy: invalid block header at payload byte %zu", at);
    /* Snappy expands at most ~21x (a 3-byte copy yields 64 bytes): a larger
     * claim is garbage, not a bomb, and must not make us allocate. */
    if (n <= SIZE_MAX / 32 && ulen > n * 32)
        return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1,
                            "snappy: block at payload byte %zu claims %zu bytes from %zu compressed bytes", at, ulen,
                            n);
    if (ulen > o->max_out - o->len) return too_large(o, "snappy");
    /* one byte more than the block needs: a block of 0 bytes (a valid snappy block) then still has
     * a buffer to point into, never a null pointer plus 0 (undefined behaviour) */
    if ((e = reserve(o, o->len + ulen + 1)) != SS_E_OK) return e;
    got = ulen;
    if (snappy_uncompress((const char *)p, n, (char *)o->c->buf + o->len, &got) != SNAPPY_OK || got != ulen)
        return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "snappy: corrupt block of %zu bytes at payload byte %zu", n,
                            at);
    o->len += ulen;
    return SS_E_OK;
}

static ss_errkind dec_snappy(out_state *o, const uint8_t *src, size_t len) {
    size_t pos;
    ss_errkind e;

    if (len == 0) return SS_E_OK; /* snappy-java reads an empty stream as empty */
    if (len < XERIAL_HEADER_LEN || memcmp(src, xerial_magic, sizeof xerial_magic) != 0)
        return snappy_block(o, src, len, 0); /* raw snappy (librdkafka) */

    /* xerial: the 16-byte header, then [int32 BE length][raw snappy block]...
     * The version fields are not checked (snappy-java writes 1 and 1). */
    pos = XERIAL_HEADER_LEN;
    while (len - pos >= 4) {
        uint32_t blen = be32(src + pos);
        size_t at = pos;
        if (blen == XERIAL_MAGIC_HEAD && len - pos >= XERIAL_HEADER_LEN &&
            memcmp(src + pos, xerial_magic, sizeof xerial_magic) == 0) {
            pos += XERIAL_HEADER_LEN; /* a concatenated stream: its header, then its blocks */
            continue;
        }
        pos += 4;
        if (blen > len - pos)
            return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1,
                                "snappy: invalid block length %" PRIu32 " at payload byte %zu", blen, at);
        if ((e = snappy_block(o, src + pos, blen, pos)) != SS_E_OK) return e;
        pos += blen;
    }
    /* Fewer than 4 bytes left: snappy-java stops reading there without an error. */
    return SS_E_OK;
}

/* ---- lz4 ------------------------------------------------------------------- */

#define LZ4_FRAME_MAGIC 0x184D2204u
#define LZ4_SKIPPABLE_MAGIC 0x184D2A50u /* low 4 bits free */

static ss_errkind dec_lz4(out_state *o, int magic, const uint8_t *src, size_t len) {
    ss_codec_ctx *c = o->c;
    size_t pos = 0;
    bool frame_start = true;
    ss_errkind e;

    if (c->lz4 == NULL) {
        LZ4F_errorCode_t rc = LZ4F_createDecompressionContext(&c->lz4, LZ4F_VERSION);
        if (LZ4F_isError(rc)) {
            c->lz4 = NULL;
            return ss_error_set(o->err, SS_E_NOMEM, 0, -1, "lz4: %s", LZ4F_getErrorName(rc));
        }
    } else {
        LZ4F_resetDecompressionContext(c->lz4);
    }

    for (;;) {
        if ((e = reserve_some(o)) != SS_E_OK) return e;

        if (frame_start && magic == 0 && len - pos >= 7 && le32(src + pos) == LZ4_FRAME_MAGIC) {
            /* KAFKA-3160: Kafka's magic-0 writer computed the header checksum
             * over the 4 magic bytes too, and its reader ignores it. liblz4
             * always checks it: give liblz4 a copy of the header (magic, FLG,
             * BD, optional 8-byte content size, optional 4-byte dictionary id,
             * HC) with the checksum redone as the format defines it (second
             * byte of xxh32 of FLG..end of descriptor), then the rest as is. */
            uint8_t hdr[23];
            uint8_t flg = src[pos + 4];
            size_t hlen = 7 + ((flg & 0x08) ? 8u : 0u) + ((flg & 0x01) ? 4u : 0u);
            if (len - pos < hlen)
                return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "lz4: truncated frame header at payload byte %zu",
                                    pos);
            memcpy(hdr, src + pos, hlen);
            hdr[hlen - 1] = (uint8_t)((XXH32(hdr + 4, hlen - 5, 0) >> 8) & 0xff);
            size_t dst_n = room(o), src_n = hlen;
            size_t rc = LZ4F_decompress(c->lz4, c->buf + o->len, &dst_n, hdr, &src_n, NULL);
            if (LZ4F_isError(rc))
                return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "lz4: %s at payload byte %zu",
                                    LZ4F_getErrorName(rc), pos);
            if (src_n != hlen || dst_n != 0) /* a header yields no output and is consumed whole */
                return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "lz4: unexpected frame header at payload byte %zu",
                                    pos);
            pos += hlen;
            frame_start = false;
            continue;
        }
        frame_start = false;

        size_t dst_cap = room(o);
        size_t dst_n = dst_cap, src_n = len - pos;
        size_t rc = LZ4F_decompress(c->lz4, c->buf + o->len, &dst_n, src + pos, &src_n, NULL);
        if (LZ4F_isError(rc))
            return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "lz4: %s near payload byte %zu", LZ4F_getErrorName(rc),
                                pos);
        pos += src_n;
        o->len += dst_n;
        if (o->len > o->max_out) return too_large(o, "lz4");
        if (rc == 0) {
            /* End of a frame (liblz4 is ready for the next one). Kafka's
             * reader stops after one frame; we also read following frames,
             * but only when they start with a frame magic: anything else
             * after a complete frame is ignored, as Kafka does. */
            if (len - pos >= 4) {
                uint32_t m = le32(src + pos);
                if (m == LZ4_FRAME_MAGIC || (m & 0xFFFFFFF0u) == LZ4_SKIPPABLE_MAGIC) {
                    frame_start = true;
                    continue;
                }
            }
            return SS_E_OK;
        }
        if (pos == len && dst_n < dst_cap)
            return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "lz4: truncated frame (input ended after %zu bytes)",
                                len);
        if (src_n == 0 && dst_n == 0 && dst_cap > 0)
            return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "lz4: decoder made no progress at payload byte %zu",
                                pos);
    }
}

/* ---- zstd ------------------------------------------------------------------ */

static ss_errkind dec_zstd(out_state *o, const uint8_t *src, size_t len) {
    ss_codec_ctx *c = o->c;
    ZSTD_inBuffer in = {src, len, 0};
    ss_errkind e;

    if (c->zd == NULL) {
        c->zd = ZSTD_createDCtx();
        if (c->zd == NULL)
            return ss_error_set(o->err, SS_E_NOMEM, 0, -1, "zstd: cannot create a decompression context");
    } else {
        ZSTD_DCtx_reset(c->zd, ZSTD_reset_session_only);
    }

    for (;;) {
        if ((e = reserve_some(o)) != SS_E_OK) return e;
        ZSTD_outBuffer out = {c->buf, o->len + room(o), o->len};
        size_t in_before = in.pos, out_before = out.pos;
        size_t rc = ZSTD_decompressStream(c->zd, &out, &in);
        if (ZSTD_isError(rc)) {
            if (ZSTD_getErrorCode(rc) == ZSTD_error_memory_allocation)
                return ss_error_set(o->err, SS_E_NOMEM, 0, -1, "zstd: %s", ZSTD_getErrorName(rc));
            return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1, "zstd: %s near payload byte %zu", ZSTD_getErrorName(rc),
                                in.pos);
        }
        o->len = out.pos;
        if (o->len > o->max_out) return too_large(o, "zstd");
        if (rc == 0) {
            /* A frame is complete and flushed; another may follow. */
            if (in.pos == in.size) return SS_E_OK;
            continue;
        }
        if (out.pos < out.size) {
            /* Output space left, yet the frame is not finished: more input is needed. */
            if (in.pos == in.size)
                return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1,
                                    "zstd: truncated frame (input ended after %zu bytes)", len);
            if (in.pos == in_before && out.pos == out_before)
                return ss_error_set(o->err, SS_E_DECOMPRESS, 0, -1,
                                    "zstd: decoder made no progress at payload byte %zu", in.pos);
        }
    }
}

/* ---- entry point ----------------------------------------------------------- */

ss_errkind ss_decompress(ss_codec_ctx *c, enum ss_codec codec, int magic, const uint8_t *src, size_t len,
                         size_t max_out, const uint8_t **out, size_t *out_len, ss_error *err) {
    out_state o = {c, 0, max_out, max_out == SIZE_MAX ? SIZE_MAX : max_out + 1, err};
    ss_errkind e;

    if (err != NULL) ss_error_clear(err);
    *out = NULL;
    *out_len = 0;

    if (codec == SS_CODEC_NONE) {
        *out = src;
        *out_len = len;
        return SS_E_OK;
    }
    if (codec < SS_CODEC_NONE || codec > SS_CODEC_ZSTD)
        return ss_error_set(o.err, SS_E_BAD_CODEC, 0, -1, "unknown compression codec id %d", codec);
    if (c == NULL || (src == NULL && len > 0))
        return ss_error_set(o.err, SS_E_USAGE, 0, -1, "ss_decompress: no context or no input");

    switch (codec) {
    case SS_CODEC_GZIP: e = dec_gzip(&o, src, len); break;
    case SS_CODEC_SNAPPY: e = dec_snappy(&o, src, len); break;
    case SS_CODEC_LZ4: e = dec_lz4(&o, magic, src, len); break;
    default: e = dec_zstd(&o, src, len); break;
    }
    if (e != SS_E_OK) return e;
    /* Empty output still gets a valid pointer. */
    if (c->buf == NULL && (e = reserve(&o, 1)) != SS_E_OK) return e;
    *out = c->buf;
    *out_len = o.len;
    return SS_E_OK;
}

/* ---- the libraries' versions ---------------------------------------------- */

#ifndef SS_SNAPPY_BUILD_VERSION
#define SS_SNAPPY_BUILD_VERSION "unknown"
#endif

void ss_lib_versions_get(ss_lib_versions *v) {
    v->zstd = ZSTD_versionString();
    v->lz4 = LZ4_versionString();
    v->zlib = zlibVersion();
    /* XXH_VERSION_NUMBER's encoding: MAJOR*100*100 + MINOR*100 + RELEASE (xxhash.h) */
    unsigned n = XXH_versionNumber();
    snprintf(v->xxhash, sizeof v->xxhash, "%u.%u.%u", n / 10000, n / 100 % 100, n % 100);
    v->snappy = SS_SNAPPY_BUILD_VERSION;
}
