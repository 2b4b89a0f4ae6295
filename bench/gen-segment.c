/* gen-segment - write a large, valid Kafka log segment for benchmarks.
 *
 * Standard profile: values of 50-349 random printable bytes,
 * batches of 1-20 records (10% of batches up to 200), 25% null keys, a header
 * on 10% of records, a third of batches idempotent, and 15% of the
 * non-idempotent batches re-appended a few batches later as producer retries
 * (byte-identical batch, new offsets). Every batch is a record batch v2 with a
 * correct CRC-32C, compressed with --codec.
 *
 * It also writes its ground truth (--truth FILE: records, batches, duplicate
 * groups, duplicate records, as key=value) and the uncompressed record
 * sections of all batches concatenated, retried ones again where they are
 * re-appended (--raw FILE), which the benchmark compresses with the codec's own
 * CLI to compare like with like.
 *
 * The output depends only on --seed and the profile options: a smaller --size
 * with the same seed writes a prefix of the larger segment (the same batches,
 * cut at a batch boundary: a follower's copy with its tail cut), and
 * --base-offset N writes the same records at offsets shifted by N (a mirror's
 * rewrite), for the benchmark of 'segscan diff'.
 */
#include <errno.h>
#include <inttypes.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "segscan/segscan.h"

#define GEN_NAME "gen-segment"
#include "genbuf.h"

static size_t varlong_size(int64_t v) {
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    size_t n = 1;
    while (u >= 0x80) {
        n++;
        u >>= 7;
    }
    return n;
}
static void set64(uint8_t *p, uint64_t v) {
    set32(p, (uint32_t)(v >> 32));
    set32(p + 4, (uint32_t)v);
}

/* xorshift64* */
static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}
static uint32_t rndn(uint32_t n) { return (uint32_t)(rnd() % n); }

static int codec_id(const char *s) {
    static const char *names[] = {"none", "gzip", "snappy", "lz4", "zstd"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, names[i])) return i;
    return -1;
}

static void compress_into(int codec, int level, const buf *in, buf *out) {
    out->n = 0;
    switch (codec) {
    case 1: {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit2(&z, level > 0 ? level : 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) exit(2);
        need(out, deflateBound(&z, (uLong)in->n) + 64);
        z.next_in = in->p;
        z.avail_in = (uInt)in->n;
        z.next_out = out->p;
        z.avail_out = (uInt)out->cap;
        if (deflate(&z, Z_FINISH) != Z_STREAM_END) exit(2);
        out->n = z.total_out;
        deflateEnd(&z);
        break;
    }
    case 2: { /* xerial framing, one block per 32 KiB as snappy-java */
        static const uint8_t hdr[16] = {0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1};
        put(out, hdr, 16);
        for (size_t off = 0; off < in->n; off += 32768) {
            size_t chunk = in->n - off < 32768 ? in->n - off : 32768;
            size_t max = snappy_max_compressed_length(chunk);
            need(out, max + 4);
            size_t clen = max;
            if (snappy_compress((const char *)in->p + off, chunk, (char *)out->p + out->n + 4, &clen) != SNAPPY_OK)
                exit(2);
            set32(out->p + out->n, (uint32_t)clen);
            out->n += 4 + clen;
        }
        break;
    }
    case 3: {
        LZ4F_preferences_t pref;
        memset(&pref, 0, sizeof pref);
        pref.frameInfo.blockSizeID = LZ4F_max64KB;
        pref.frameInfo.blockMode = LZ4F_blockIndependent;
        size_t max = LZ4F_compressFrameBound(in->n, &pref);
        need(out, max);
        size_t r = LZ4F_compressFrame(out->p, max, in->p, in->n, &pref);
        if (LZ4F_isError(r)) exit(2);
        out->n = r;
        break;
    }
    case 4: {
        /* as Kafka's producer writes it (ZstdFactory: a 16 KiB BufferedOutputStream
         * over zstd-jni's ZstdOutputStreamNoFinalizer): a streamed frame, fed in
         * 16 KiB pieces and ended without a pledged size, so its header declares
         * no content size and the reader cannot size its output from it */
        static ZSTD_CCtx *cc;
        if (!cc && !(cc = ZSTD_createCCtx())) exit(2);
        ZSTD_CCtx_reset(cc, ZSTD_reset_session_only);
        ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level > 0 ? level : 3);
        ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
        size_t max = ZSTD_compressBound(in->n) + 64;
        need(out, max);
        ZSTD_outBuffer ob = {out->p, max, 0};
        for (size_t off = 0;; off += 16384) {
            size_t chunk = in->n - off < 16384 ? in->n - off : 16384;
            ZSTD_inBuffer ib = {in->p + off, chunk, 0};
            ZSTD_EndDirective end = off + chunk >= in->n ? ZSTD_e_end : ZSTD_e_continue;
            size_t left;
            do {
                left = ZSTD_compressStream2(cc, &ob, &ib, end);
                if (ZSTD_isError(left)) exit(2);
            } while (end == ZSTD_e_end ? left != 0 : ib.pos < ib.size);
            if (end == ZSTD_e_end) break;
        }
        out->n = ob.pos;
        break;
    }
    default: put(out, in->p, in->n);
    }
}

static void usage(void) {
    fputs("usage: gen-segment --out FILE.log [--size BYTES] [--codec none|gzip|snappy|lz4|zstd] [--level N]\n"
          "                   [--seed N] [--retry-rate PCT] [--idempotent-rate PCT] [--base-offset N]\n"
          "                   [--truth FILE] [--raw FILE]\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv) {
    const char *out_path = NULL, *truth_path = NULL, *raw_path = NULL;
    uint64_t target = 200ull << 20;
    int codec = 0, level = 0;
    unsigned retry_pct = 15, idem_pct = 33;
    int64_t base_offset = 0;
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        if (!strcmp(a, "--out")) out_path = v;
        else if (!strcmp(a, "--truth")) truth_path = v;
        else if (!strcmp(a, "--raw")) raw_path = v;
        else if (!strcmp(a, "--size")) target = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--codec")) {
            codec = codec_id(v);
            if (codec < 0) usage();
        } else if (!strcmp(a, "--level")) level = atoi(v);
        else if (!strcmp(a, "--seed")) rng_state ^= strtoull(v, NULL, 10) * 0x9E3779B97F4A7C15ull;
        else if (!strcmp(a, "--retry-rate")) retry_pct = (unsigned)atoi(v);
        else if (!strcmp(a, "--idempotent-rate")) idem_pct = (unsigned)atoi(v);
        else if (!strcmp(a, "--base-offset")) base_offset = strtoll(v, NULL, 10);
        else usage();
    }
    if (!out_path) usage();
    FILE *f = fopen(out_path, "wb");
    FILE *raw = raw_path ? fopen(raw_path, "wb") : NULL;
    if (!f || (raw_path && !raw)) {
        fprintf(stderr, "gen-segment: %s\n", strerror(errno));
        return 2;
    }

    buf recs = {0}, comp = {0}, batch = {0};
    /* pending retries: copies of earlier batches to re-append a few batches later */
    enum { MAXPEND = 16 };
    buf pend[MAXPEND] = {{0}}, pend_raw[MAXPEND] = {{0}};
    int pend_due[MAXPEND];
    int npend = 0;
    uint64_t written = 0, records = 0, batches = 0, dup_records = 0, dup_groups = 0;
    int64_t next_offset = base_offset;
    int64_t ts = 1700000000000;
    int64_t pid = 5000;
    int32_t seq = 0;
    int batch_no = 0;
    while (written < target) {
        /* a due retry goes first: the same batch bytes at a new base offset */
        int due = -1;
        for (int i = 0; i < npend; i++)
            if (pend_due[i] <= batch_no) {
                due = i;
                break;
            }
        if (due >= 0) {
            uint8_t *p = pend[due].p;
            size_t len = pend[due].n;
            int32_t last_delta =
                (int32_t)(((uint32_t)p[23] << 24) | ((uint32_t)p[24] << 16) | ((uint32_t)p[25] << 8) | p[26]);
            set64(p, (uint64_t)next_offset);
            fwrite(p, 1, len, f);
            if (raw) fwrite(pend_raw[due].p, 1, pend_raw[due].n, raw);
            written += len;
            next_offset += last_delta + 1;
            records += (uint64_t)last_delta + 1;
            dup_records += (uint64_t)last_delta + 1;
            dup_groups += (uint64_t)last_delta + 1;
            batches++;
            free(p);
            free(pend_raw[due].p);
            pend[due] = pend[npend - 1];
            pend_raw[due] = pend_raw[npend - 1];
            pend_due[due] = pend_due[npend - 1];
            npend--;
            batch_no++;
            continue;
        }
        int n = rndn(10) == 0 ? 1 + (int)rndn(200) : 1 + (int)rndn(20);
        bool idem = rndn(100) < idem_pct;
        recs.n = 0;
        for (int r = 0; r < n; r++) {
            char key[24];
            int klen = -1;
            if (rndn(4) != 0) klen = snprintf(key, sizeof key, "key-%" PRIu32, rndn(1000000));
            uint8_t value[400];
            int vlen = 50 + (int)rndn(300);
            for (int j = 0; j < vlen; j++) value[j] = (uint8_t)(32 + rndn(95));
            bool hdr = rndn(10) == 0;
            int64_t tsd = r;
            /* body: attributes, timestampDelta, offsetDelta, key, value, headers */
            size_t body = 1 + varlong_size(tsd) + varlong_size(r) + varlong_size(klen) + (klen > 0 ? (size_t)klen : 0) +
                          varlong_size(vlen) + (size_t)vlen + varlong_size(hdr ? 1 : 0) +
                          (hdr ? varlong_size(8) + 8 + varlong_size(6) + 6 : 0);
            putvarlong(&recs, (int64_t)body);
            put8(&recs, 0);
            putvarlong(&recs, tsd);
            putvarlong(&recs, r);
            putvarlong(&recs, klen);
            if (klen > 0) put(&recs, key, (size_t)klen);
            putvarlong(&recs, vlen);
            put(&recs, value, (size_t)vlen);
            putvarlong(&recs, hdr ? 1 : 0);
            if (hdr) {
                putvarlong(&recs, 8);
                put(&recs, "trace-id", 8);
                putvarlong(&recs, 6);
                put(&recs, "abc123", 6);
            }
        }
        if (raw) fwrite(recs.p, 1, recs.n, raw);
        compress_into(codec, level, &recs, &comp);
        batch.n = 0;
        put64(&batch, (uint64_t)next_offset);
        put32(&batch, (uint32_t)(49 + comp.n));
        put32(&batch, 0); /* partitionLeaderEpoch */
        put8(&batch, 2);  /* magic */
        put32(&batch, 0); /* crc, set below */
        put16(&batch, (uint16_t)codec);
        put32(&batch, (uint32_t)(n - 1));
        put64(&batch, (uint64_t)ts);
        put64(&batch, (uint64_t)(ts + n - 1));
        put64(&batch, (uint64_t)(idem ? pid : -1));
        put16(&batch, (uint16_t)(idem ? 0 : -1));
        put32(&batch, (uint32_t)(idem ? seq : -1));
        put32(&batch, (uint32_t)n);
        put(&batch, comp.p, comp.n);
        set32(batch.p + 17, ss_crc32c(0, batch.p + 21, batch.n - 21));
        fwrite(batch.p, 1, batch.n, f);
        written += batch.n;
        next_offset += n;
        records += (uint64_t)n;
        batches++;
        ts += n;
        if (idem) seq += n;
        if (!idem && rndn(100) < retry_pct && npend < MAXPEND) {
            pend[npend] = (buf){0};
            put(&pend[npend], batch.p, batch.n);
            pend_raw[npend] = (buf){0};
            if (raw) put(&pend_raw[npend], recs.p, recs.n);
            pend_due[npend] = batch_no + 1 + (int)rndn(5);
            npend++;
        }
        batch_no++;
    }
    fclose(f);
    if (raw) fclose(raw);
    if (truth_path) {
        FILE *t = fopen(truth_path, "w");
        if (!t) {
            fprintf(stderr, "gen-segment: %s\n", strerror(errno));
            return 2;
        }
        fprintf(t,
                "bytes=%" PRIu64 "\nrecords=%" PRIu64 "\nbatches=%" PRIu64 "\nduplicate_groups=%" PRIu64
                "\nduplicate_records=%" PRIu64 "\nnext_offset=%" PRId64 "\nbase_offset=%" PRId64 "\n",
                written, records, batches, dup_groups, dup_records, next_offset, base_offset);
        fclose(t);
    }
    for (int i = 0; i < npend; i++) {
        free(pend[i].p);
        free(pend_raw[i].p);
    }
    free(recs.p);
    free(comp.p);
    free(batch.p);
    return 0;
}
