/* segscan unit tests - decompression (src/lib/format/codec.c).
 *
 * Inputs are made with the codec libraries' own compressors (and by hand for
 * the xerial snappy framing and Kafka's broken LZ4 header checksum), plus a
 * few payloads written by Kafka itself (kafka_samples.h). Covered: round
 * trips, concatenated members / frames / streams, truncation at every byte,
 * garbage and mutated inputs, the output cap (exactly at, one byte over, and
 * 100 MiB bombs against a 1 MiB cap, with bounded memory), reuse of one
 * context across calls and codecs, and the error messages.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define ZLIB_CONST
#include <zlib.h>

#include <lz4frame.h>
#include <snappy-c.h>
#include <xxhash.h>
#include <zstd.h>

#include "check.h"
#include "format/codec.h"
#include "kafka_samples.h"

#define MiB ((size_t)1024 * 1024)

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* ---- small helpers ----------------------------------------------------- */

typedef struct buf {
    uint8_t *p;
    size_t n;
    size_t cap; /* allocated bytes when grown by buf_append, else 0 */
} buf;

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

static buf buf_cat(buf a, buf b) {
    buf r = {xmalloc(a.n + b.n), a.n + b.n, a.n + b.n};
    if (a.n > 0) memcpy(r.p, a.p, a.n);
    if (b.n > 0) memcpy(r.p + a.n, b.p, b.n);
    return r;
}

static void buf_append(buf *b, const void *p, size_t n) {
    if (b->n + n > b->cap) {
        size_t cap = b->cap * 2 > b->n + n ? b->cap * 2 : b->n + n + 4096;
        uint8_t *q = realloc(b->p, cap);
        if (q == NULL) exit(2);
        b->p = q;
        b->cap = cap;
    }
    if (n > 0) memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Compressible data: words from a small vocabulary, numbers, some random bytes. */
static uint8_t *make_data(size_t n, uint64_t seed) {
    static const char *words[] = {"kafka ", "segment ", "offset ", "batch ", "record ", "payments-", "{\"id\":", "\n"};
    uint8_t *p = xmalloc(n);
    uint64_t s = seed | 1;
    size_t i = 0;
    while (i < n) {
        uint64_t r = test_rand(&s);
        if ((r & 15) == 0) {
            p[i++] = (uint8_t)(r >> 40);
            continue;
        }
        const char *w = words[(r >> 8) % 8];
        for (size_t k = 0; w[k] != 0 && i < n; k++) p[i++] = (uint8_t)w[k];
    }
    return p;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const char *codec_label(int codec) {
    switch (codec) {
    case SS_CODEC_GZIP: return "gzip";
    case SS_CODEC_SNAPPY: return "snappy";
    case SS_CODEC_LZ4: return "lz4";
    case SS_CODEC_ZSTD: return "zstd";
    default: return "?";
    }
}

/* ---- compressors --------------------------------------------------------- */

static buf gzip_member(const uint8_t *d, size_t n) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) exit(2);
    size_t cap = deflateBound(&zs, (uLong)n) + 64;
    buf r = {xmalloc(cap), 0, cap};
    zs.next_in = d;
    zs.avail_in = (uInt)n;
    zs.next_out = r.p;
    zs.avail_out = (uInt)cap;
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END) exit(2);
    r.n = zs.total_out;
    deflateEnd(&zs);
    return r;
}

/* A zlib-wrapped (RFC 1950) stream. */
static buf zlib_stream(const uint8_t *d, size_t n) {
    uLongf cap = compressBound((uLong)n);
    buf r = {xmalloc(cap), 0, cap};
    if (compress(r.p, &cap, d, (uLong)n) != Z_OK) exit(2);
    r.n = cap;
    return r;
}

static buf gzip_zeros(size_t total) {
    static const uint8_t zeros[64 * 1024];
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) exit(2);
    buf r = {NULL, 0, 0};
    uint8_t out[64 * 1024];
    size_t left = total;
    int flush;
    do {
        size_t n = left < sizeof zeros ? left : sizeof zeros;
        left -= n;
        flush = left == 0 ? Z_FINISH : Z_NO_FLUSH;
        zs.next_in = zeros;
        zs.avail_in = (uInt)n;
        do {
            zs.next_out = out;
            zs.avail_out = sizeof out;
            deflate(&zs, flush);
            buf_append(&r, out, sizeof out - zs.avail_out);
        } while (zs.avail_out == 0);
    } while (flush != Z_FINISH);
    deflateEnd(&zs);
    return r;
}

static buf snappy_raw(const uint8_t *d, size_t n) {
    size_t cap = snappy_max_compressed_length(n);
    buf r = {xmalloc(cap), cap, cap};
    if (snappy_compress((const char *)d, n, (char *)r.p, &r.n) != SNAPPY_OK) exit(2);
    return r;
}

static void xerial_header(buf *b) {
    static const uint8_t h[16] = {0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1};
    buf_append(b, h, sizeof h);
}

static void xerial_block(buf *b, const uint8_t *d, size_t n) {
    buf blk = snappy_raw(d, n);
    uint8_t len[4];
    put_be32(len, (uint32_t)blk.n);
    buf_append(b, len, 4);
    buf_append(b, blk.p, blk.n);
    free(blk.p);
}

/* snappy-java's framing: the data cut into blocks of `block` bytes. */
static buf xerial(const uint8_t *d, size_t n, size_t block) {
    buf r = {NULL, 0, 0};
    xerial_header(&r);
    for (size_t off = 0; off < n; off += block) xerial_block(&r, d + off, n - off < block ? n - off : block);
    return r;
}

static buf lz4_frame(const uint8_t *d, size_t n, bool linked, bool content_size, bool content_checksum,
                     bool block_checksum) {
    LZ4F_preferences_t prefs;
    memset(&prefs, 0, sizeof prefs);
    prefs.frameInfo.blockSizeID = LZ4F_max64KB; /* as Kafka writes */
    prefs.frameInfo.blockMode = linked ? LZ4F_blockLinked : LZ4F_blockIndependent;
    prefs.frameInfo.contentSize = content_size ? n : 0;
    prefs.frameInfo.contentChecksumFlag = content_checksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum;
    prefs.frameInfo.blockChecksumFlag = block_checksum ? LZ4F_blockChecksumEnabled : LZ4F_noBlockChecksum;
    size_t cap = LZ4F_compressFrameBound(n, &prefs);
    buf r = {xmalloc(cap), 0, cap};
    r.n = LZ4F_compressFrame(r.p, cap, d, n, &prefs);
    if (LZ4F_isError(r.n)) exit(2);
    return r;
}

/* A frame with a dictionary id in its header (the blocks use no dictionary). */
static buf lz4_frame_dict_id(const uint8_t *d, size_t n, bool content_size, unsigned dict_id) {
    LZ4F_preferences_t prefs;
    memset(&prefs, 0, sizeof prefs);
    prefs.frameInfo.blockSizeID = LZ4F_max64KB;
    prefs.frameInfo.contentSize = content_size ? n : 0;
    prefs.frameInfo.dictID = dict_id;
    size_t cap = LZ4F_compressFrameBound(n, &prefs);
    buf r = {xmalloc(cap), 0, cap};
    r.n = LZ4F_compressFrame(r.p, cap, d, n, &prefs);
    if (LZ4F_isError(r.n)) exit(2);
    return r;
}

/* magic, FLG, BD, [content size 8], [dictionary id 4], HC */
static size_t lz4_header_len(const uint8_t *f) { return 7 + ((f[4] & 0x08) ? 8u : 0u) + ((f[4] & 0x01) ? 4u : 0u); }

static uint8_t lz4_hc_correct(const uint8_t *f) {
    return (uint8_t)((XXH32(f + 4, lz4_header_len(f) - 5, 0) >> 8) & 0xff);
}

/* KAFKA-3160: Kafka's magic-0 writer hashed the magic bytes too. */
static uint8_t lz4_hc_kafka(const uint8_t *f) { return (uint8_t)((XXH32(f, lz4_header_len(f) - 1, 0) >> 8) & 0xff); }

static void lz4_break_hc(buf *f) { f->p[lz4_header_len(f->p) - 1] = lz4_hc_kafka(f->p); }

static buf lz4_zeros(size_t total) {
    static const uint8_t zeros[64 * 1024];
    LZ4F_cctx *cc;
    LZ4F_preferences_t prefs;
    memset(&prefs, 0, sizeof prefs);
    prefs.frameInfo.blockSizeID = LZ4F_max64KB;
    prefs.frameInfo.blockMode = LZ4F_blockIndependent;
    if (LZ4F_isError(LZ4F_createCompressionContext(&cc, LZ4F_VERSION))) exit(2);
    size_t cap = LZ4F_compressBound(sizeof zeros, &prefs) + LZ4F_HEADER_SIZE_MAX;
    uint8_t *out = xmalloc(cap);
    buf r = {NULL, 0, 0};
    size_t k = LZ4F_compressBegin(cc, out, cap, &prefs);
    buf_append(&r, out, k);
    for (size_t left = total; left > 0;) {
        size_t n = left < sizeof zeros ? left : sizeof zeros;
        k = LZ4F_compressUpdate(cc, out, cap, zeros, n, NULL);
        if (LZ4F_isError(k)) exit(2);
        buf_append(&r, out, k);
        left -= n;
    }
    k = LZ4F_compressEnd(cc, out, cap, NULL);
    buf_append(&r, out, k);
    free(out);
    LZ4F_freeCompressionContext(cc);
    return r;
}

static buf zstd_simple(const uint8_t *d, size_t n) {
    size_t cap = ZSTD_compressBound(n);
    buf r = {xmalloc(cap), 0, cap};
    r.n = ZSTD_compress(r.p, cap, d, n, 3);
    if (ZSTD_isError(r.n)) exit(2);
    return r;
}

/* Streamed: `d` repeated `repeat` times into one frame. Without `with_size`
 * the frame header has no content size (as zstd-jni's streams write it). */
static buf zstd_stream(const uint8_t *d, size_t n, size_t repeat, bool checksum, bool with_size) {
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, with_size ? 1 : 0);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, checksum ? 1 : 0);
    if (with_size) ZSTD_CCtx_setPledgedSrcSize(cc, (unsigned long long)n * repeat);
    uint8_t out[64 * 1024];
    buf r = {NULL, 0, 0};
    for (size_t i = 0; i < repeat; i++) {
        ZSTD_EndDirective end = i + 1 == repeat ? ZSTD_e_end : ZSTD_e_continue;
        ZSTD_inBuffer in = {d, n, 0};
        size_t rc;
        do {
            ZSTD_outBuffer ob = {out, sizeof out, 0};
            rc = ZSTD_compressStream2(cc, &ob, &in, end);
            if (ZSTD_isError(rc)) exit(2);
            buf_append(&r, out, ob.pos);
        } while (end == ZSTD_e_end ? rc != 0 : in.pos < in.size);
    }
    ZSTD_freeCCtx(cc);
    return r;
}

static buf zstd_nosize(const uint8_t *d, size_t n, bool checksum) { return zstd_stream(d, n, 1, checksum, false); }

/* Raw snappy for `total` zero bytes, written by hand so that no input buffer
 * is needed: one literal zero, then copies of 64 bytes at offset 1. */
static buf snappy_raw_zeros(size_t total) {
    buf r = {NULL, 0, 0};
    uint8_t v[10];
    size_t k = 0;
    for (size_t x = total;; x >>= 7) {
        v[k++] = (uint8_t)((x & 0x7f) | (x >= 0x80 ? 0x80 : 0));
        if (x < 0x80) break;
    }
    buf_append(&r, v, k);
    if (total == 0) return r;
    static const uint8_t literal[2] = {0x00, 0x00}; /* literal of length 1: the byte 0 */
    buf_append(&r, literal, 2);
    uint8_t *ops = xmalloc((total / 64 + 1) * 3);
    size_t nops = 0;
    for (size_t left = total - 1; left > 0;) {
        size_t len = left < 64 ? left : 64;
        ops[nops++] = (uint8_t)(((len - 1) << 2) | 2); /* copy, 2-byte offset */
        ops[nops++] = 1;
        ops[nops++] = 0;
        left -= len;
    }
    buf_append(&r, ops, nops);
    free(ops);
    return r;
}

/* ---- decompression checks ----------------------------------------------- */

static ss_error last_err;

static ss_errkind dec(ss_codec_ctx *c, int codec, int magic, const uint8_t *in, size_t n, size_t max_out,
                      const uint8_t **out, size_t *out_len) {
    return ss_decompress(c, (enum ss_codec)codec, magic, in, n, max_out, out, out_len, &last_err);
}

static void expect_ok_(int line, ss_codec_ctx *c, int codec, int magic, const uint8_t *in, size_t n,
                       const uint8_t *want, size_t want_n, size_t max_out) {
    const uint8_t *out = NULL;
    size_t out_len = 0;
    ss_errkind e = dec(c, codec, magic, in, n, max_out, &out, &out_len);
    CHECK_MSG(e == SS_E_OK, "line %d: %s magic %d: kind %d (%s)", line, codec_label(codec), magic, e, last_err.msg);
    if (e != SS_E_OK) return;
    CHECK_MSG(out != NULL, "line %d: %s: no output pointer", line, codec_label(codec));
    CHECK_MSG(out_len == want_n, "line %d: %s: %zu bytes, want %zu", line, codec_label(codec), out_len, want_n);
    CHECK_MSG(out_len != want_n || want_n == 0 || memcmp(out, want, want_n) == 0, "line %d: %s: wrong output", line,
              codec_label(codec));
    CHECK_MSG(last_err.msg[0] == 0, "line %d: %s: message on success: %s", line, codec_label(codec), last_err.msg);
}
#define EXPECT_OK(c, codec, magic, in, n, want, want_n, max_out)                                                       \
    expect_ok_(__LINE__, c, codec, magic, in, n, want, want_n, max_out)

static void expect_kind_(int line, ss_codec_ctx *c, int codec, int magic, const uint8_t *in, size_t n, size_t max_out,
                         ss_errkind want, const char *msg_part) {
    const uint8_t *out = (const uint8_t *)"x";
    size_t out_len = 12345;
    ss_errkind e = dec(c, codec, magic, in, n, max_out, &out, &out_len);
    CHECK_MSG(e == want, "line %d: %s magic %d, %zu bytes in: kind %d, want %d (%s)", line, codec_label(codec), magic,
              n, e, want, last_err.msg);
    if (want != SS_E_OK) {
        CHECK_MSG(out == NULL && out_len == 0, "line %d: output set on error", line);
        CHECK_MSG(last_err.msg[0] != 0, "line %d: no message on error", line);
        /* errors.h's classes: batch-too-large is information (I), the others damage or environment */
        ss_severity sev = want == SS_E_TOO_LARGE ? SS_SEV_NOTICE : SS_SEV_ERROR;
        CHECK_MSG(last_err.kind == want && last_err.severity == sev, "line %d: error kind %d severity %d, want %d %d",
                  line, last_err.kind, last_err.severity, want, sev);
    }
    if (msg_part != NULL)
        CHECK_MSG(strstr(last_err.msg, msg_part) != NULL, "line %d: message \"%s\" lacks \"%s\"", line, last_err.msg,
                  msg_part);
}
#define EXPECT_KIND(c, codec, magic, in, n, max_out, want, msg_part)                                                   \
    expect_kind_(__LINE__, c, codec, magic, in, n, max_out, want, msg_part)

/* Every prefix [from, n) of a complete stream must fail as corrupt, without crashing. */
static void expect_prefixes_fail_(int line, ss_codec_ctx *c, int codec, int magic, const uint8_t *in, size_t n,
                                  size_t from) {
    unsigned wrong = 0;
    for (size_t k = from; k < n; k++) {
        if (n > 4096 && k > 256 && k + 256 < n && k % 97 != 0) continue;
        const uint8_t *out;
        size_t out_len;
        /* A copy of exactly k bytes, so that a read past the end is caught by ASan. */
        uint8_t *cut = xmalloc(k);
        memcpy(cut, in, k);
        ss_errkind e = dec(c, codec, magic, cut, k, 64 * MiB, &out, &out_len);
        free(cut);
        if (e != SS_E_DECOMPRESS) {
            if (wrong++ < 5)
                fprintf(stderr, "line %d: %s prefix of %zu/%zu bytes: kind %d (%s)\n", line, codec_label(codec), k, n,
                        e, last_err.msg);
        }
    }
    CHECK_MSG(wrong == 0, "line %d: %s: %u prefixes did not fail", line, codec_label(codec), wrong);
}
#define EXPECT_PREFIXES_FAIL(c, codec, magic, in, n, from) expect_prefixes_fail_(__LINE__, c, codec, magic, in, n, from)

/* ---- tests ---------------------------------------------------------------- */

static void test_none_and_bad_codec(ss_codec_ctx *c) {
    static const uint8_t data[] = "plain records";
    const uint8_t *out = NULL;
    size_t out_len = 0;
    CHECK_EQ_I(dec(c, SS_CODEC_NONE, 2, data, sizeof data, 0, &out, &out_len), SS_E_OK);
    CHECK(out == data);
    CHECK_EQ_U(out_len, sizeof data);
    /* Without a context, codec none still works. */
    CHECK_EQ_I(ss_decompress(NULL, SS_CODEC_NONE, 2, data, 3, 0, &out, &out_len, NULL), SS_E_OK);
    CHECK(out == data && out_len == 3);

    const int bad[] = {5, 6, 7, -1, 100, 8};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        EXPECT_KIND(c, bad[i], 2, data, sizeof data, MiB, SS_E_BAD_CODEC, "codec");
    CHECK_EQ_I(ss_decompress(NULL, SS_CODEC_GZIP, 2, data, sizeof data, MiB, &out, &out_len, NULL), SS_E_USAGE);
}

static void test_gzip(ss_codec_ctx *c) {
    const size_t sizes[] = {0, 1, 1000, 200000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint8_t *d = make_data(sizes[i], i + 1);
        buf z = gzip_member(d, sizes[i]);
        EXPECT_OK(c, SS_CODEC_GZIP, 2, z.p, z.n, d, sizes[i], 64 * MiB);
        free(z.p);
        free(d);
    }

    /* Two concatenated members. */
    uint8_t *d = make_data(30000, 11);
    buf m1 = gzip_member(d, 20000), m2 = gzip_member(d + 20000, 10000);
    buf both = buf_cat(m1, m2);
    EXPECT_OK(c, SS_CODEC_GZIP, 2, both.p, both.n, d, 30000, 64 * MiB);

    /* After a member: zero padding, or a bad / incomplete next header, is ignored (GZIPInputStream). */
    buf pad = {xmalloc(m1.n + 100), m1.n + 100, m1.n + 100};
    memcpy(pad.p, m1.p, m1.n);
    memset(pad.p + m1.n, 0, 100);
    EXPECT_OK(c, SS_CODEC_GZIP, 2, pad.p, pad.n, d, 20000, 64 * MiB);
    pad.p[m1.n] = 0x1f;
    pad.p[m1.n + 1] = 0x8b;
    pad.p[m1.n + 2] = 0x07; /* not deflate */
    EXPECT_OK(c, SS_CODEC_GZIP, 2, pad.p, pad.n, d, 20000, 64 * MiB);
    EXPECT_OK(c, SS_CODEC_GZIP, 2, both.p, m1.n + 5, d, 20000, 64 * MiB); /* half a header */
    EXPECT_OK(c, SS_CODEC_GZIP, 2, both.p, m1.n + 1, d, 20000, 64 * MiB); /* one stray byte */
    /* ... but a second member cut inside its data is an error. */
    EXPECT_KIND(c, SS_CODEC_GZIP, 2, both.p, both.n - 1, 64 * MiB, SS_E_DECOMPRESS, "gzip: ");
    EXPECT_KIND(c, SS_CODEC_GZIP, 2, both.p, m1.n + m2.n / 2, 64 * MiB, SS_E_DECOMPRESS, "gzip: ");

    /* Every truncation of one member fails. */
    EXPECT_PREFIXES_FAIL(c, SS_CODEC_GZIP, 2, m2.p, m2.n, 0);

    /* Bad trailer CRC and bad data. */
    buf bad = buf_cat(m2, (buf){NULL, 0, 0});
    bad.p[bad.n - 6] ^= 0x01;
    EXPECT_KIND(c, SS_CODEC_GZIP, 2, bad.p, bad.n, 64 * MiB, SS_E_DECOMPRESS, "gzip: incorrect data check");
    memcpy(bad.p, m2.p, m2.n);
    bad.p[12] ^= 0xff;
    {
        const uint8_t *out;
        size_t out_len;
        CHECK(dec(c, SS_CODEC_GZIP, 2, bad.p, bad.n, 64 * MiB, &out, &out_len) == SS_E_DECOMPRESS);
    }
    memcpy(bad.p, m2.p, m2.n);
    bad.p[0] = 0x1e; /* not gzip */
    EXPECT_KIND(c, SS_CODEC_GZIP, 2, bad.p, bad.n, 64 * MiB, SS_E_DECOMPRESS, "gzip: ");

    /* A zlib (RFC 1950) stream is accepted too (inflateInit2 15 + 32, as librdkafka). */
    buf zl = zlib_stream(d, 5000);
    EXPECT_OK(c, SS_CODEC_GZIP, 2, zl.p, zl.n, d, 5000, 64 * MiB);

    EXPECT_KIND(c, SS_CODEC_GZIP, 2, d, 0, 64 * MiB, SS_E_DECOMPRESS, "gzip: ");
    free(zl.p);
    free(bad.p);
    free(pad.p);
    free(both.p);
    free(m1.p);
    free(m2.p);
    free(d);
}

static void test_snappy(ss_codec_ctx *c) {
    const size_t sizes[] = {0, 1, 1000, 200000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint8_t *d = make_data(sizes[i], i + 21);
        buf raw = snappy_raw(d, sizes[i]);
        EXPECT_OK(c, SS_CODEC_SNAPPY, 2, raw.p, raw.n, d, sizes[i], 64 * MiB);
        buf x = xerial(d, sizes[i], 32 * 1024);
        EXPECT_OK(c, SS_CODEC_SNAPPY, 2, x.p, x.n, d, sizes[i], 64 * MiB);
        free(x.p);
        free(raw.p);
        free(d);
    }

    /* xerial with two hand-made blocks. */
    uint8_t *d = make_data(50000, 31);
    buf x = {NULL, 0, 0};
    xerial_header(&x);
    xerial_block(&x, d, 30000);
    size_t second = x.n; /* where the second block's length is */
    xerial_block(&x, d + 30000, 20000);
    EXPECT_OK(c, SS_CODEC_SNAPPY, 2, x.p, x.n, d, 50000, 64 * MiB);

    /* Truncated inside a block body or inside the second length field. */
    EXPECT_KIND(c, SS_CODEC_SNAPPY, 2, x.p, x.n - 1, 64 * MiB, SS_E_DECOMPRESS, "snappy: ");
    EXPECT_KIND(c, SS_CODEC_SNAPPY, 2, x.p, second - 7, 64 * MiB, SS_E_DECOMPRESS, "snappy: ");
    EXPECT_KIND(c, SS_CODEC_SNAPPY, 2, x.p, second + 4 + 10, 64 * MiB, SS_E_DECOMPRESS, "snappy: invalid block length");
    /* snappy-java stops quietly when fewer than 4 bytes are left for a length, or at a block boundary. */
    EXPECT_OK(c, SS_CODEC_SNAPPY, 2, x.p, second + 3, d, 30000, 64 * MiB);
    EXPECT_OK(c, SS_CODEC_SNAPPY, 2, x.p, second, d, 30000, 64 * MiB);
    EXPECT_OK(c, SS_CODEC_SNAPPY, 2, x.p, 16, d, 0, 64 * MiB); /* header only */

    /* A block length past the end: the exact message. */
    buf lie = buf_cat(x, (buf){NULL, 0, 0});
    put_be32(lie.p + second, 4096);
    EXPECT_KIND(c, SS_CODEC_SNAPPY, 2, lie.p, second + 4 + 10, 64 * MiB, SS_E_DECOMPRESS, NULL);
    {
        char want[100];
        snprintf(want, sizeof want, "snappy: invalid block length 4096 at payload byte %zu", second);
        CHECK_MSG(strcmp(last_err.msg, want) == 0, "message \"%s\", want \"%s\"", last_err.msg, want);
    }
    put_be32(lie.p + second, 0xFFFFFFF0u);
    EXPECT_KIND(c, SS_CODEC_SNAPPY, 2, lie.p, lie.n, 64 * MiB, SS_E_DECOMPRESS, "invalid block length 4294967280");
    put_be32(lie.p + second, 0);
    EXPECT_KIND(c, SS_CODEC_SNAPPY, 2, lie.p, lie.n, 64 * MiB, SS_E_DECOMPRESS, "snappy: ");
    /* A corrupt block body. */
    memcpy(lie.p, x.p, x.n);
    memset(lie.p + second + 4 + 3, 0xff, 8);
    EXPECT_KIND(c, SS_CODEC_SNAPPY, 2, lie.p, lie.n, 64 * MiB, SS_E_DECOMPRESS, "snappy: ");

    /* Two xerial streams back to back (snappy-java reads the second header as such). */
    buf xx = buf_cat(x, x);
    uint8_t *dd = xmalloc(100000);
    memcpy(dd, d, 50000);
    memcpy(dd + 50000, d, 50000);
    EXPECT_OK(c, SS_CODEC_SNAPPY, 2, xx.p, xx.n, dd, 100000, 64 * MiB);

    /* Raw snappy: every truncation fails (the empty input is an empty stream). */
    buf raw = snappy_raw(d, 5000);
    EXPECT_PREFIXES_FAIL(c, SS_CODEC_SNAPPY, 2, raw.p, raw.n, 1);
    EXPECT_OK(c, SS_CODEC_SNAPPY, 2, raw.p, 0, d, 0, 64 * MiB);
    /* A block that claims far more than it could hold is rejected before any allocation. */
    static const uint8_t claim[] = {0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x41};
    EXPECT_KIND(c, SS_CODEC_SNAPPY, 2, claim, sizeof claim, SIZE_MAX, SS_E_DECOMPRESS, "claims");

    free(raw.p);
    free(dd);
    free(xx.p);
    free(lie.p);
    free(x.p);
    free(d);
}

static void test_lz4(ss_codec_ctx *c) {
    uint8_t *d = make_data(300000, 41);

    /* Variants of the frame format, every magic. */
    for (unsigned v = 0; v < 16; v++) {
        buf f = lz4_frame(d, 300000, v & 1, v & 2, v & 4, v & 8);
        for (int magic = 0; magic <= 2; magic++) EXPECT_OK(c, SS_CODEC_LZ4, magic, f.p, f.n, d, 300000, 64 * MiB);
        free(f.p);
    }
    {
        buf f = lz4_frame(d, 0, false, false, false, false);
        EXPECT_OK(c, SS_CODEC_LZ4, 2, f.p, f.n, d, 0, 64 * MiB);
        free(f.p);
    }

    /* Kafka's magic-0 header checksum (KAFKA-3160): accepted for magic 0 only. */
    for (unsigned v = 0; v < 4; v++) {
        buf f = v < 2 ? lz4_frame(d, 100000, false, v == 1, false, false)
                      : lz4_frame_dict_id(d, 100000, v == 3, 0x4B41464Bu);
        static const size_t header_len[4] = {7, 15, 11, 19};
        CHECK_EQ_U(lz4_header_len(f.p), header_len[v]);
        CHECK(lz4_hc_kafka(f.p) != lz4_hc_correct(f.p)); /* else this test proves nothing */
        lz4_break_hc(&f);
        EXPECT_OK(c, SS_CODEC_LZ4, 0, f.p, f.n, d, 100000, 64 * MiB);
        EXPECT_KIND(c, SS_CODEC_LZ4, 2, f.p, f.n, 64 * MiB, SS_E_DECOMPRESS, "lz4: ERROR_headerChecksum_invalid");
        EXPECT_KIND(c, SS_CODEC_LZ4, 1, f.p, f.n, 64 * MiB, SS_E_DECOMPRESS, "lz4: ERROR_");
        /* Our caller's input is never modified. */
        CHECK_EQ_U(f.p[lz4_header_len(f.p) - 1], lz4_hc_kafka(f.p));
        EXPECT_PREFIXES_FAIL(c, SS_CODEC_LZ4, 0, f.p, f.n, 0);
        free(f.p);
    }

    /* Two frames back to back (both with the magic-0 checksum for magic 0). */
    buf f1 = lz4_frame(d, 70000, false, false, false, false);
    buf f2 = lz4_frame(d + 70000, 50000, false, true, true, false);
    buf both = buf_cat(f1, f2);
    EXPECT_OK(c, SS_CODEC_LZ4, 2, both.p, both.n, d, 120000, 64 * MiB);
    lz4_break_hc(&f1);
    lz4_break_hc(&f2);
    buf both0 = buf_cat(f1, f2);
    EXPECT_OK(c, SS_CODEC_LZ4, 0, both0.p, both0.n, d, 120000, 64 * MiB);
    EXPECT_KIND(c, SS_CODEC_LZ4, 2, both0.p, both0.n, 64 * MiB, SS_E_DECOMPRESS, "lz4: ERROR_");
    /* Cut inside the second frame: an error. */
    EXPECT_KIND(c, SS_CODEC_LZ4, 2, both.p, both.n - 3, 64 * MiB, SS_E_DECOMPRESS, "lz4: ");
    EXPECT_KIND(c, SS_CODEC_LZ4, 0, both0.p, f1.n + 9, 64 * MiB, SS_E_DECOMPRESS, "lz4: truncated frame header");

    /* Bytes after a complete frame that are no frame are ignored (Kafka reads one frame). */
    buf tail = buf_cat(f2, (buf){(uint8_t *)"\0\0\0\0\0\0\0\0\0", 9, 0});
    EXPECT_OK(c, SS_CODEC_LZ4, 0, tail.p, tail.n, d + 70000, 50000, 64 * MiB);

    /* Every truncation of one frame fails; so does a bad content checksum. */
    buf f = lz4_frame(d, 150000, false, true, true, true);
    EXPECT_PREFIXES_FAIL(c, SS_CODEC_LZ4, 2, f.p, f.n, 0);
    f.p[f.n - 2] ^= 0x40;
    EXPECT_KIND(c, SS_CODEC_LZ4, 2, f.p, f.n, 64 * MiB, SS_E_DECOMPRESS, "lz4: ERROR_");
    f.p[f.n - 2] ^= 0x40;
    f.p[0] ^= 0x01;
    EXPECT_KIND(c, SS_CODEC_LZ4, 0, f.p, f.n, 64 * MiB, SS_E_DECOMPRESS, "lz4: ERROR_frameType_unknown");

    free(f.p);
    free(tail.p);
    free(both0.p);
    free(both.p);
    free(f1.p);
    free(f2.p);
    free(d);
}

static void test_zstd(ss_codec_ctx *c) {
    uint8_t *d = make_data(300000, 51);

    buf z = zstd_simple(d, 300000);
    CHECK_EQ_U(ZSTD_getFrameContentSize(z.p, z.n), 300000);
    EXPECT_OK(c, SS_CODEC_ZSTD, 2, z.p, z.n, d, 300000, 64 * MiB);

    buf s = zstd_nosize(d, 300000, true);
    CHECK(ZSTD_getFrameContentSize(s.p, s.n) == ZSTD_CONTENTSIZE_UNKNOWN);
    EXPECT_OK(c, SS_CODEC_ZSTD, 2, s.p, s.n, d, 300000, 64 * MiB);

    /* Two frames. */
    buf z1 = zstd_simple(d, 1000), z2 = zstd_nosize(d + 1000, 99000, false);
    buf both = buf_cat(z1, z2);
    EXPECT_OK(c, SS_CODEC_ZSTD, 2, both.p, both.n, d, 100000, 64 * MiB);
    /* A skippable frame between them. */
    static const uint8_t skip[12] = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 'k', 'a', 'f', 'k'};
    buf t = buf_cat(z1, (buf){(uint8_t *)skip, sizeof skip, 0});
    buf three = buf_cat(t, z2);
    EXPECT_OK(c, SS_CODEC_ZSTD, 2, three.p, three.n, d, 100000, 64 * MiB);

    /* Truncations, trailing garbage, checksum, bad magic. */
    EXPECT_PREFIXES_FAIL(c, SS_CODEC_ZSTD, 2, s.p, s.n, 0);
    EXPECT_KIND(c, SS_CODEC_ZSTD, 2, both.p, both.n - 1, 64 * MiB, SS_E_DECOMPRESS, "zstd: truncated");
    buf junk = buf_cat(z1, (buf){(uint8_t *)"\0\0\0\0\0\0", 6, 0});
    EXPECT_KIND(c, SS_CODEC_ZSTD, 2, junk.p, junk.n, 64 * MiB, SS_E_DECOMPRESS, "zstd: ");
    s.p[s.n - 1] ^= 0x01;
    EXPECT_KIND(c, SS_CODEC_ZSTD, 2, s.p, s.n, 64 * MiB, SS_E_DECOMPRESS, "zstd: ");
    z.p[0] ^= 0x01;
    EXPECT_KIND(c, SS_CODEC_ZSTD, 2, z.p, z.n, 64 * MiB, SS_E_DECOMPRESS, "zstd: Unknown frame descriptor");

    free(junk.p);
    free(three.p);
    free(t.p);
    free(both.p);
    free(z1.p);
    free(z2.p);
    free(s.p);
    free(z.p);
    free(d);
}

/* Output exactly at the cap is fine; one byte more is TOO_LARGE; also a cap of 0. */
static void test_cap_edges(ss_codec_ctx *c) {
    const size_t n = 100000;
    uint8_t *d = make_data(n, 61);
    buf in[4] = {gzip_member(d, n), xerial(d, n, 32 * 1024), lz4_frame(d, n, false, false, false, false),
                 zstd_nosize(d, n, false)};
    buf raw = snappy_raw(d, n);
    for (int codec = 1; codec <= 4; codec++) {
        buf b = in[codec - 1];
        EXPECT_OK(c, codec, 2, b.p, b.n, d, n, n);
        EXPECT_KIND(c, codec, 2, b.p, b.n, n - 1, SS_E_TOO_LARGE, "exceeds the limit of 99999 bytes");
        EXPECT_KIND(c, codec, 2, b.p, b.n, 0, SS_E_TOO_LARGE, NULL);
        EXPECT_KIND(c, codec, 2, b.p, b.n, 1, SS_E_TOO_LARGE, NULL);
        EXPECT_OK(c, codec, 2, b.p, b.n, d, n, SIZE_MAX);
    }
    EXPECT_OK(c, SS_CODEC_SNAPPY, 2, raw.p, raw.n, d, n, n);
    EXPECT_KIND(c, SS_CODEC_SNAPPY, 2, raw.p, raw.n, n - 1, SS_E_TOO_LARGE, NULL);

    /* Empty output under a cap of 0. */
    buf e[4] = {gzip_member(d, 0), xerial(d, 0, 1), lz4_frame(d, 0, false, false, false, false), zstd_simple(d, 0)};
    for (int codec = 1; codec <= 4; codec++) {
        EXPECT_OK(c, codec, 2, e[codec - 1].p, e[codec - 1].n, d, 0, 0);
        free(e[codec - 1].p);
    }
    for (int i = 0; i < 4; i++) free(in[i].p);
    free(raw.p);
    free(d);
}

/* One context, many calls: results stay right across sizes, codecs and errors. */
static void test_reuse(ss_codec_ctx *c) {
    uint8_t *big = make_data(3 * MiB, 71), *small = make_data(777, 72);
    buf bg[4] = {gzip_member(big, 3 * MiB), xerial(big, 3 * MiB, 32 * 1024),
                 lz4_frame(big, 3 * MiB, false, false, false, false), zstd_nosize(big, 3 * MiB, false)};
    buf sm[4] = {gzip_member(small, 777), snappy_raw(small, 777), lz4_frame(small, 777, true, true, true, true),
                 zstd_simple(small, 777)};
    static const uint8_t garbage[64] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
    for (int round = 0; round < 3; round++) {
        for (int codec = 1; codec <= 4; codec++) {
            EXPECT_OK(c, codec, 2, bg[codec - 1].p, bg[codec - 1].n, big, 3 * MiB, 64 * MiB);
            EXPECT_OK(c, codec, 2, sm[codec - 1].p, sm[codec - 1].n, small, 777, 64 * MiB);
            /* An error half way through a big stream, then the small one again. */
            EXPECT_KIND(c, codec, 2, bg[codec - 1].p, bg[codec - 1].n, MiB, SS_E_TOO_LARGE, NULL);
            EXPECT_OK(c, codec, 2, sm[codec - 1].p, sm[codec - 1].n, small, 777, 64 * MiB);
            EXPECT_KIND(c, codec, 2, bg[codec - 1].p, bg[codec - 1].n / 2, 64 * MiB, SS_E_DECOMPRESS, NULL);
            EXPECT_OK(c, codec, 2, sm[codec - 1].p, sm[codec - 1].n, small, 777, 64 * MiB);
            {
                const uint8_t *out;
                size_t out_len;
                (void)dec(c, codec, 0, garbage, sizeof garbage, 64 * MiB, &out, &out_len);
            }
            EXPECT_OK(c, codec, 0, sm[codec - 1].p, sm[codec - 1].n, small, 777, 64 * MiB);
        }
    }
    /* The same call twice: the second result is right too. */
    for (int codec = 1; codec <= 4; codec++) {
        EXPECT_OK(c, codec, 2, bg[codec - 1].p, bg[codec - 1].n, big, 3 * MiB, 64 * MiB);
        EXPECT_OK(c, codec, 2, bg[codec - 1].p, bg[codec - 1].n, big, 3 * MiB, 64 * MiB);
    }
    /* A fresh context per call works as well (and frees cleanly). */
    for (int codec = 1; codec <= 4; codec++) {
        ss_codec_ctx *c2 = ss_codec_ctx_new();
        CHECK(c2 != NULL);
        EXPECT_OK(c2, codec, 2, sm[codec - 1].p, sm[codec - 1].n, small, 777, 64 * MiB);
        ss_codec_ctx_free(c2);
    }
    ss_codec_ctx_free(NULL);
    for (int i = 0; i < 4; i++) {
        free(bg[i].p);
        free(sm[i].p);
    }
    free(big);
    free(small);
}

/* Random bytes: never accepted by gzip, lz4, zstd (magic); snappy may accept
 * a few short ones (raw snappy has no magic). Nothing crashes. */
static void test_garbage(ss_codec_ctx *c) {
    uint8_t g[1000];
    uint64_t s = 0x9E3779B97F4A7C15ULL;
    unsigned accepted[5] = {0};
    for (int round = 0; round < 300; round++) {
        size_t n = (size_t)(round < 200 ? round % 40 : 40 + round * 3);
        for (size_t i = 0; i < n; i++) g[i] = (uint8_t)(test_rand(&s) >> 56);
        for (int codec = 1; codec <= 4; codec++) {
            for (int magic = 0; magic <= 2; magic += 2) {
                const uint8_t *out;
                size_t out_len;
                ss_errkind e = dec(c, codec, magic, g, n, MiB, &out, &out_len);
                CHECK(e == SS_E_OK || e == SS_E_DECOMPRESS || e == SS_E_TOO_LARGE);
                if (e == SS_E_OK) accepted[codec]++;
            }
        }
    }
    CHECK_EQ_U(accepted[SS_CODEC_GZIP], 0);
    CHECK_EQ_U(accepted[SS_CODEC_LZ4], 0);
    CHECK_EQ_U(accepted[SS_CODEC_ZSTD], 0);
    printf("garbage: snappy accepted %u of 600 random inputs (raw snappy has no magic)\n", accepted[SS_CODEC_SNAPPY]);

    static const uint8_t text[] = "this is not compressed at all, just text";
    EXPECT_KIND(c, SS_CODEC_GZIP, 2, text, sizeof text, MiB, SS_E_DECOMPRESS, "gzip: ");
    EXPECT_KIND(c, SS_CODEC_SNAPPY, 2, text, sizeof text, MiB, SS_E_DECOMPRESS, "snappy: ");
    EXPECT_KIND(c, SS_CODEC_LZ4, 0, text, sizeof text, MiB, SS_E_DECOMPRESS, "lz4: ERROR_");
    EXPECT_KIND(c, SS_CODEC_ZSTD, 2, text, sizeof text, MiB, SS_E_DECOMPRESS, "zstd: ");
}

/* Valid streams with bytes flipped, cut or appended: any result but a crash,
 * and never more than the cap. Run under ASan/UBSan to mean something. */
static void test_mutations(ss_codec_ctx *c) {
    const size_t n = 20000, cap = 64 * 1024;
    uint8_t *d = make_data(n, 81);
    buf in[5] = {gzip_member(d, n), xerial(d, n, 4096), lz4_frame(d, n, false, true, false, false),
                 zstd_nosize(d, n, false), snappy_raw(d, n)};
    const int codecs[5] = {1, 2, 3, 4, 2};
    uint64_t s = 12345;
    unsigned bad = 0;
    for (int k = 0; k < 5; k++) {
        uint8_t *m = xmalloc(in[k].n + 16);
        for (int round = 0; round < 1500; round++) {
            size_t mn = in[k].n;
            memcpy(m, in[k].p, mn);
            uint64_t r = test_rand(&s);
            int flips = 1 + (int)(r & 3);
            for (int f = 0; f < flips; f++) {
                uint64_t q = test_rand(&s);
                /* mostly near the start, where the headers and lengths are */
                size_t at = (q & 1) ? (size_t)(q >> 8) % (mn < 64 ? mn : 64) : (size_t)(q >> 8) % mn;
                m[at] ^= (uint8_t)(1u << ((q >> 4) & 7));
            }
            if ((r >> 8) % 4 == 0) mn = (size_t)(r >> 16) % mn;
            else if ((r >> 8) % 4 == 1) {
                memset(m + mn, (int)(r >> 24) & 0xff, 16);
                mn += 16;
            }
            const uint8_t *out;
            size_t out_len;
            ss_errkind e = dec(c, codecs[k], (int)(r >> 40) % 3, m, mn, cap, &out, &out_len);
            if (!(e == SS_E_OK || e == SS_E_DECOMPRESS || e == SS_E_TOO_LARGE) || (e == SS_E_OK && out_len > cap))
                bad++;
        }
        free(m);
        free(in[k].p);
    }
    CHECK_EQ_U(bad, 0);
    free(d);
}

/* Payloads written by Kafka (see kafka_samples.h). */
static void test_kafka_samples(ss_codec_ctx *c) {
    for (size_t i = 0; i < sizeof kafka_samples / sizeof kafka_samples[0]; i++) {
        const kafka_sample *k = &kafka_samples[i];
        const uint8_t *out = NULL;
        size_t out_len = 0;
        ss_errkind e = dec(c, k->codec, k->magic, k->in, k->in_len, SS_DEFAULT_MAX_BATCH_BYTES, &out, &out_len);
        CHECK_MSG(e == SS_E_OK, "%s: kind %d (%s)", k->name, e, last_err.msg);
        CHECK_MSG(e != SS_E_OK || (out_len == k->out_len && memcmp(out, k->out, out_len) == 0), "%s: wrong output",
                  k->name);
        if (k->codec == SS_CODEC_LZ4) {
            /* Kafka wrote the broken checksum for magic 0, the right one since magic 1. */
            uint8_t hc = k->in[lz4_header_len(k->in) - 1];
            if (k->magic == 0) {
                CHECK_MSG(hc == lz4_hc_kafka(k->in) && hc != lz4_hc_correct(k->in), "%s: HC 0x%02x", k->name, hc);
                EXPECT_KIND(c, SS_CODEC_LZ4, 2, k->in, k->in_len, MiB, SS_E_DECOMPRESS,
                            "lz4: ERROR_headerChecksum_invalid");
            } else {
                CHECK_MSG(hc == lz4_hc_correct(k->in), "%s: HC 0x%02x", k->name, hc);
            }
        }
    }
}

static long max_rss_kib(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* 100 MiB of zeros per codec against a 1 MiB cap: TOO_LARGE, fast, small memory. */
static void test_bombs(ss_codec_ctx *c) {
    const size_t total = 100 * MiB;
    buf bombs[6];
    const int codecs[6] = {SS_CODEC_GZIP, SS_CODEC_SNAPPY, SS_CODEC_SNAPPY, SS_CODEC_LZ4, SS_CODEC_ZSTD, SS_CODEC_ZSTD};
    const char *names[6] = {"gzip", "snappy xerial (3200 blocks)", "snappy raw",
                            "lz4",  "zstd (content size)",         "zstd (streamed)"};
    static const uint8_t zeros[32 * 1024];

    /* Built piece by piece: this process never holds 100 MiB. */
    bombs[0] = gzip_zeros(total);
    {
        buf blk = snappy_raw(zeros, sizeof zeros);
        uint8_t len[4];
        put_be32(len, (uint32_t)blk.n);
        bombs[1] = (buf){NULL, 0, 0};
        xerial_header(&bombs[1]);
        for (size_t i = 0; i < total / sizeof zeros; i++) {
            buf_append(&bombs[1], len, 4);
            buf_append(&bombs[1], blk.p, blk.n);
        }
        free(blk.p);
    }
    bombs[2] = snappy_raw_zeros(total);
    bombs[3] = lz4_zeros(total);
    bombs[4] = zstd_stream(zeros, sizeof zeros, total / sizeof zeros, false, true);
    bombs[5] = zstd_stream(zeros, sizeof zeros, total / sizeof zeros, false, false);
    CHECK_EQ_U(ZSTD_getFrameContentSize(bombs[4].p, bombs[4].n), total);
    CHECK(ZSTD_getFrameContentSize(bombs[5].p, bombs[5].n) == ZSTD_CONTENTSIZE_UNKNOWN);
    {
        /* The hand-made raw snappy is valid: a small one decodes to zeros. */
        buf small = snappy_raw_zeros(100000);
        uint8_t *want = calloc(1, 100000);
        EXPECT_OK(c, SS_CODEC_SNAPPY, 2, small.p, small.n, want, 100000, 100000);
        free(want);
        free(small.p);
    }

    long rss_before = max_rss_kib();
    for (int i = 0; i < 6; i++) {
        double t0 = now_ms();
        EXPECT_KIND(c, codecs[i], 2, bombs[i].p, bombs[i].n, MiB, SS_E_TOO_LARGE, "exceeds the limit of 1048576");
        double t1 = now_ms();
        printf("bomb %-28s %8zu bytes -> 100 MiB, cap 1 MiB, %6.2f ms: %s\n", names[i], bombs[i].n, t1 - t0,
               last_err.msg);
        CHECK_MSG(t1 - t0 < 2000, "%s took %.0f ms", names[i], t1 - t0);
    }
    long rss_after = max_rss_kib();
    printf("max RSS %ld KiB before the bombs, %ld KiB after\n", rss_before, rss_after);
#ifndef UNDER_ASAN
    /* Uncapped, the first bomb alone would take 100 MiB. */
    CHECK_MSG(rss_after - rss_before < 16 * 1024, "max RSS grew by %ld KiB", rss_after - rss_before);
#endif

    /* With room for all of it, the streamed zstd bomb decodes in full, exactly at the cap. */
    {
        const uint8_t *out;
        size_t out_len;
        ss_errkind e = dec(c, SS_CODEC_ZSTD, 2, bombs[5].p, bombs[5].n, total, &out, &out_len);
        CHECK_EQ_I(e, SS_E_OK);
        CHECK_EQ_U(out_len, total);
        size_t nonzero = 0;
        for (size_t i = 0; e == SS_E_OK && i < out_len; i++) nonzero += out[i] != 0;
        CHECK_EQ_U(nonzero, 0);
        EXPECT_KIND(c, SS_CODEC_ZSTD, 2, bombs[5].p, bombs[5].n, total - 1, SS_E_TOO_LARGE, NULL);
    }
    for (int i = 0; i < 6; i++) free(bombs[i].p);
}

int main(void) {
    ss_codec_ctx *c = ss_codec_ctx_new();
    CHECK(c != NULL);
    if (c == NULL) return check_exit("test_codec");

    test_bombs(c); /* first, while the process is small, to measure memory */
    ss_codec_ctx_free(c);
    c = ss_codec_ctx_new();

    test_none_and_bad_codec(c);
    test_gzip(c);
    test_snappy(c);
    test_lz4(c);
    test_zstd(c);
    test_cap_edges(c);
    test_reuse(c);
    test_garbage(c);
    test_mutations(c);
    test_kafka_samples(c);

    ss_codec_ctx_free(c);
    return check_exit("test_codec");
}
