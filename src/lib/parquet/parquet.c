/* segscan - a fixed-schema Parquet writer (segscan/parquet.h).
 *
 * Written from the Apache Parquet format specification (apache/parquet-format:
 * README.md "File format", "Metadata", "Column chunks", "Data Pages",
 * "Nulls"; Encodings.md; src/main/thrift/parquet.thrift for the structs and
 * field ids) rather than linked: no Parquet library is packaged in Debian 12,
 * and the one schema we write needs a small part of the format.
 *
 * The file: "PAR1", then for each row group and each column one column chunk
 * of one v1 data page (PageHeader, then the page compressed with zstd or not: see
 * hashes below), then
 * the FileMetaData in the Thrift compact protocol (thrift.h), its length as a
 * 4-byte little-endian integer, and "PAR1" again ("File format").
 *
 * A page (the "Data Pages" section): every column is OPTIONAL and not nested,
 * so the page holds no repetition levels and its definition levels (0 null,
 * 1 a value) in the RLE/bit-packed hybrid with bit width 1 (Encodings.md "Run
 * Length Encoding / Bit-Packing Hybrid (RLE = 3)"), prefixed in a v1 page by
 * their length in 4 bytes little-endian; then the non-null values:
 *  - INT32 and INT64: DELTA_BINARY_PACKED (Encodings.md, = 5): offsets,
 *    timestamps and sequences step by small amounts, a few bits a value;
 *  - BOOLEAN: PLAIN, bit-packed, least significant bit first;
 *  - BYTE_ARRAY: PLAIN, a 4-byte little-endian length before each value;
 *  - FIXED_LEN_BYTE_ARRAY: PLAIN, the bytes;
 *  - a column of hashes (ss_pq_column.hash: the export's fingerprints): PLAIN,
 *    and its pages not compressed (ColumnMetaData.codec UNCOMPRESSED, which
 *    parquet.thrift lets each column chunk choose): random bits give delta
 *    encoding and zstd nothing to take out, and took a fifth of the writer's
 *    time to find that out.
 * A column the caller fills in runs (ss_pqw_set_runs: a batch's fields on
 * each of its records) is kept as runs and expanded only into its page, the
 * same page; but a column of runs of strings marked dict (ss_pq_column.dict:
 * topic, timestampType, compression, controlType) is dictionary encoded (Encodings.md "Dictionary
 * Encoding", README.md "Column chunks": a dictionary page first, at the
 * chunk's dictionary_page_offset, then the data page, at its
 * data_page_offset): its distinct values once, PLAIN, and the rows' indices
 * in the RLE/bit-packed hybrid after a byte of bit width, a run of rows one
 * RLE run. Both pages stay uncompressed (the chunk's codec UNCOMPRESSED):
 * there is nothing left for zstd. Written PLAIN, a million rows of the
 * bench's segment made about 50 MB of those strings for zstd to take out
 * again, a tenth of the export's time. A dictionary past SS_PQ_DICT_MAX_BYTES
 * (a row group of many topics) is not made: that column is PLAIN and zstd,
 * as before.
 *
 * No Statistics are written: a reader trusts min/max to skip row groups, and
 * wrong ones lose rows silently; without them every reader reads every page.
 * Every column chunk's ColumnMetaData lists each encoding its pages use (the
 * values' and RLE for the levels), and its total_compressed_size and
 * total_uncompressed_size count the page headers, as parquet.thrift says.
 */
#include "segscan/parquet.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include "base/error_set.h"
#include "parquet/thrift.h"
#include "parquet/writer.h"

/* parquet.thrift's enums, the values we use */
enum { PQ_PLAIN = 0, PQ_RLE = 3, PQ_DELTA_BINARY_PACKED = 5, PQ_RLE_DICTIONARY = 8 };
enum { PQ_CODEC_NONE = 0, PQ_CODEC_ZSTD = 6 };
enum { PQ_PAGE_DATA = 0, PQ_PAGE_DICTIONARY = 2 };
enum { PQ_OPTIONAL = 1 };
enum { PQ_CONVERTED_UTF8 = 0 };

#define PQ_RESERVE_ROWS ((size_t)1 << 17)
#define PQ_DELTA_BLOCK 128
#define PQ_DELTA_MINIBLOCKS 4
#define PQ_DELTA_MINI (PQ_DELTA_BLOCK / PQ_DELTA_MINIBLOCKS)

static ss_errkind write_bytes(ss_pq_writer *w, const void *p, size_t n, ss_error *err) {
    if (n && fwrite(p, 1, n, w->f) != n) {
        w->wfailed = true;
        return ss_error_set(err, SS_E_IO, (uint64_t)w->pos, -1, "cannot write: %s", strerror(errno));
    }
    w->pos += (int64_t)n;
    return SS_E_OK;
}

static void *writer_thread(void *arg);
static void *helper_thread(void *arg);

ss_pq_writer *ss_pq_create(const char *path, const ss_pq_column *cols, size_t ncols, size_t rows_per_group,
                           const char *created_by, ss_error *err) {
    if (!ncols || !rows_per_group) {
        ss_error_set(err, SS_E_USAGE, 0, -1, "a Parquet file needs a column and a row group size");
        return NULL;
    }
    ss_pq_writer *w = calloc(1, sizeof *w);
    if (w) {
        w->c = calloc(ncols, sizeof *w->c);
        w->path = strdup(path);
        w->created_by = strdup(created_by ? created_by : "segscan");
        w->out = calloc(ncols, sizeof *w->out);
        w->enc[0].zc = ZSTD_createCCtx();
    }
    if (!w || !w->c || !w->out || !w->path || !w->created_by || !w->enc[0].zc) {
        if (w) {
            free(w->c);
            free(w->out);
            free(w->path);
            free(w->created_by);
            ZSTD_freeCCtx(w->enc[0].zc);
            free(w);
        }
        ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        return NULL;
    }
    w->cols = cols;
    w->ncols = ncols;
    w->rows_per_group = rows_per_group;
    w->f = fopen(path, "wb");
    if (!w->f) {
        ss_error_set(err, SS_E_IO, 0, -1, "cannot create: %s", strerror(errno));
        free(w->c);
        free(w->out);
        free(w->path);
        free(w->created_by);
        ZSTD_freeCCtx(w->enc[0].zc);
        free(w);
        return NULL;
    }
    /* a failed export removes what it wrote: a regular file only (never /dev/stdout or a FIFO) */
    struct stat st;
    w->regular = fstat(fileno(w->f), &st) == 0 && S_ISREG(st.st_mode);
    if (write_bytes(w, "PAR1", 4, err) != SS_E_OK) {
        ss_pq_abort(w);
        return NULL;
    }
    /* the writing thread, with a second set of columns; without them the caller writes */
    w->spare = calloc(ncols, sizeof *w->spare);
    /* a row group's fixed-width values reserved at once: grown by doubling, each buffer was
     * copied on the way up and its pages touched twice (the levels are bytes only once a null
     * comes, pq_col_sparse: most columns never have them) */
    size_t rows = rows_per_group < PQ_RESERVE_ROWS ? rows_per_group : PQ_RESERVE_ROWS;
    for (int set = 0; set < 2; set++) {
        pq_col *cs = set ? w->spare : w->c;
        for (size_t i = 0; cs && i < ncols; i++) {
            size_t width = pq_width(cols[i].type);
            if (width) ss_pqbuf_reserve(&cs[i].vals, rows * width);
        }
    }
    if (w->spare && pthread_mutex_init(&w->mu, NULL) == 0) {
        if (pthread_cond_init(&w->cv, NULL) == 0) {
            if (pthread_create(&w->th, NULL, writer_thread, w) == 0) w->thread_started = true;
            else pthread_cond_destroy(&w->cv);
        }
        if (!w->thread_started) pthread_mutex_destroy(&w->mu);
    }
    /* its helper, with a compression context of its own */
    if (w->thread_started && (w->enc[1].zc = ZSTD_createCCtx()) && pthread_cond_init(&w->hcv, NULL) == 0) {
        if (pthread_create(&w->hth, NULL, helper_thread, w) == 0) w->helper_started = true;
        else pthread_cond_destroy(&w->hcv);
    }
    return w;
}

/* ---- values --------------------------------------------------------------------------- */

static pq_col *value_col(ss_pq_writer *w, enum ss_pq_type t) {
    if (w->col >= w->ncols || w->cols[w->col].type != t) {
        w->bad_shape = true;
        return NULL;
    }
    pq_col *c = &w->c[w->col++];
    pq_col_level(c, 1);
    c->nvals++;
    return c;
}

void pq_col_sparse(pq_col *c) {
    c->sparse = true;
    uint8_t *d = ss_pqw_grow(&c->defs, c->nvals);
    if (d) memset(d, 1, c->nvals);
}

void ss_pq_null(ss_pq_writer *w) {
    if (w->col >= w->ncols) {
        w->bad_shape = true;
        return;
    }
    pq_col_level(&w->c[w->col++], 0);
}

void ss_pq_bool(ss_pq_writer *w, bool v) {
    pq_col *c = value_col(w, SS_PQ_BOOLEAN);
    if (c) ss_pqbuf_byte(&c->vals, v ? 1 : 0);
}

void ss_pq_i32(ss_pq_writer *w, int32_t v) {
    pq_col *c = value_col(w, SS_PQ_INT32);
    if (c) ss_pqbuf_put(&c->vals, &v, sizeof v);
}

void ss_pq_i64(ss_pq_writer *w, int64_t v) {
    pq_col *c = value_col(w, SS_PQ_INT64);
    if (c) ss_pqbuf_put(&c->vals, &v, sizeof v);
}

void ss_pq_bytes(ss_pq_writer *w, const void *p, size_t n) {
    if (w->col < w->ncols && w->cols[w->col].type == SS_PQ_FIXED16) {
        if (n != 16) {
            w->bad_shape = true;
            return;
        }
        pq_col *c = value_col(w, SS_PQ_FIXED16);
        if (c) ss_pqbuf_put(&c->vals, p, 16);
        return;
    }
    if (n > INT32_MAX) {
        w->bad_shape = true;
        return;
    }
    pq_col *c = value_col(w, SS_PQ_BYTE_ARRAY);
    if (!c) return;
    uint8_t len[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
    ss_pqbuf_put(&c->vals, len, 4);
    ss_pqbuf_put(&c->vals, p, n);
    w->group_bytes += n;
}

void ss_pq_str(ss_pq_writer *w, const char *s) {
    if (s) ss_pq_bytes(w, s, strlen(s));
    else ss_pq_null(w);
}

/* ---- pages ----------------------------------------------------------------------------- */

static unsigned bit_width(uint64_t v) { return v ? 64u - (unsigned)__builtin_clzll(v) : 0; }

static void put_le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* A miniblock's 32 values of width bits (1-64), bit-packed least significant bit first into
 * 4 * width bytes. The bits gather in a 64-bit accumulator, stored 8 bytes at a time: 0 or 32
 * bits are left over at the end. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
pack32(uint8_t *o, const uint64_t *d, unsigned width) {
    uint64_t acc = 0; /* nbits (< 64) bits waiting */
    unsigned nbits = 0;
#if defined(__GNUC__)
#pragma GCC unroll 32
#endif
    for (size_t j = 0; j < PQ_DELTA_MINI; j++) {
        uint64_t u = d[j];
        acc |= u << nbits;
        if (nbits + width < 64) {
            nbits += width;
            continue;
        }
        put_le64(o, acc);
        o += 8;
        acc = nbits ? u >> (64 - nbits) : 0; /* the bits of u that did not fit */
        nbits = nbits + width - 64;
    }
    for (; nbits; nbits -= 8, acc >>= 8) *o++ = (uint8_t)acc;
}

/* pack32 with the width a constant in each case, so that the compiler unrolls the loop and
 * folds its shifts and tests (the loop with a variable width took most of delta_block's
 * time). The same bytes. */
static void pack_mini(uint8_t *o, const uint64_t *d, unsigned width) {
#define PQ_W(n)                                                                                                        \
    case n:                                                                                                            \
        pack32(o, d, n);                                                                                               \
        return;
#define PQ_W8(n) PQ_W(n) PQ_W(n + 1) PQ_W(n + 2) PQ_W(n + 3) PQ_W(n + 4) PQ_W(n + 5) PQ_W(n + 6) PQ_W(n + 7)
    switch (width) {
        PQ_W8(1)
        PQ_W8(9)
        PQ_W8(17)
        PQ_W8(25)
        PQ_W8(33)
        PQ_W8(41)
        PQ_W8(49)
        PQ_W8(57)
    default: pack32(o, d, width); return;
    }
#undef PQ_W8
#undef PQ_W
}

/* One block of k deltas (k <= 128; deltas[k..128) any): its smallest delta, its widths, its
 * miniblocks. */
static void delta_block(ss_pqbuf *out, uint64_t *deltas, size_t k, int64_t min) {
    for (size_t j = 0; j < k; j++) deltas[j] -= (uint64_t)min;
    for (size_t j = k; j < PQ_DELTA_BLOCK; j++) deltas[j] = 0; /* the last miniblock's padding */
    ss_pqbuf_zigzag(out, min);
    unsigned widths[PQ_DELTA_MINIBLOCKS];
    for (size_t m = 0; m < PQ_DELTA_MINIBLOCKS; m++) {
        uint64_t any = 0;
        for (size_t j = m * PQ_DELTA_MINI; j < (m + 1) * PQ_DELTA_MINI; j++) any |= deltas[j];
        widths[m] = m * PQ_DELTA_MINI < k ? bit_width(any) : 0;
        ss_pqbuf_byte(out, (uint8_t)widths[m]);
    }
    for (size_t m = 0; m < PQ_DELTA_MINIBLOCKS && m * PQ_DELTA_MINI < k; m++) {
        unsigned width = widths[m];
        size_t bytes = (size_t)width * PQ_DELTA_MINI / 8;
        if (!bytes) continue;
        if (!ss_pqbuf_reserve(out, bytes)) return;
        pack_mini(out->p + out->n, deltas + m * PQ_DELTA_MINI, width);
        out->n += bytes;
    }
}

static void delta_header(ss_pqbuf *out, size_t n, int64_t first) {
    ss_pqbuf_uvarint(out, PQ_DELTA_BLOCK);
    ss_pqbuf_uvarint(out, PQ_DELTA_MINIBLOCKS);
    ss_pqbuf_uvarint(out, n);
    ss_pqbuf_zigzag(out, first);
}

/* Encodings.md "Delta Encoding (DELTA_BINARY_PACKED = 5)": a header (block size,
 * miniblocks a block, value count, first value zigzag), then blocks of 128 deltas: the
 * smallest delta (zigzag), a bit width a miniblock, and each miniblock's 32 deltas less
 * the smallest, bit-packed least significant bit first (the last miniblock padded with
 * zeros; the widths of the last block's unused miniblocks written as 0, their bodies not
 * written). Deltas wrap in the column's type (32 or 64 bits), as the reader adds them back. */
static void delta_encode(ss_pqbuf *out, const pq_col *c, bool wide) {
    size_t n = c->nvals;
    const uint8_t *v = c->vals.p;
    int64_t prev = 0;
    if (n && wide) memcpy(&prev, v, 8);
    else if (n) {
        int32_t x;
        memcpy(&x, v, 4);
        prev = x;
    }
    delta_header(out, n, prev);
    uint64_t deltas[PQ_DELTA_BLOCK];
    for (size_t i = 1; i < n;) {
        size_t k = n - i < PQ_DELTA_BLOCK ? n - i : PQ_DELTA_BLOCK;
        int64_t min = INT64_MAX;
        /* two loops, one per width, rather than a test of the width per value */
        if (wide) {
            for (size_t j = 0; j < k; j++) {
                int64_t b;
                memcpy(&b, v + (i + j) * 8, 8);
                int64_t d = (int64_t)((uint64_t)b - (uint64_t)prev);
                prev = b;
                deltas[j] = (uint64_t)d;
                min = d < min ? d : min;
            }
        } else {
            for (size_t j = 0; j < k; j++) {
                int32_t b;
                memcpy(&b, v + (i + j) * 4, 4);
                int64_t d = (int32_t)((uint32_t)b - (uint32_t)prev);
                prev = b;
                deltas[j] = (uint64_t)d;
                min = d < min ? d : min;
            }
        }
        i += k;
        delta_block(out, deltas, k, min);
    }
}

/* The same encoding of a column of runs' values, from the runs: a block whose values all lie in
 * the run of the value before it has deltas of 0 (its smallest delta 0, widths 0, no
 * miniblocks: five zero bytes), as delta_block would write them; the others as above. A column
 * of a batch's fields is mostly such blocks. */
static void delta_encode_runs(ss_pqbuf *out, const pq_col *c, bool wide) {
    const pq_run *r = (const pq_run *)(const void *)c->run.p;
    size_t nr = c->run.n / sizeof *r, n = c->nvals;
    size_t ri = 0, left = 0; /* the run of the next value, its values left after it */
    while (ri < nr && !r[ri].def) ri++;
    if (ri < nr) left = r[ri].n;
    int64_t prev = ri < nr ? (wide ? (int64_t)r[ri].v : (int32_t)(int64_t)r[ri].v) : 0;
    delta_header(out, n, prev);
    if (n) left--; /* the first value is the header's */
    uint64_t deltas[PQ_DELTA_BLOCK];
    for (size_t i = 1; i < n;) {
        size_t k = n - i < PQ_DELTA_BLOCK ? n - i : PQ_DELTA_BLOCK;
        i += k;
        if (left >= k) { /* every delta 0 */
            left -= k;
            static const uint8_t zeros[1 + PQ_DELTA_MINIBLOCKS];
            ss_pqbuf_put(out, zeros, sizeof zeros);
            continue;
        }
        int64_t min = INT64_MAX;
        for (size_t j = 0; j < k;) {
            if (left) { /* the rest of the run: deltas of 0 */
                size_t m = left < k - j ? left : k - j;
                memset(deltas + j, 0, m * sizeof *deltas);
                min = min < 0 ? min : 0;
                j += m;
                left -= m;
                continue;
            }
            ri++; /* the next run of values (n counts them: there is one) */
            while (ri < nr && !r[ri].def) ri++;
            if (ri >= nr) { /* fewer values than nvals: not from the appends */
                memset(deltas + j, 0, (k - j) * sizeof *deltas);
                min = min < 0 ? min : 0;
                break;
            }
            left = r[ri].n - 1;
            int64_t b = wide ? (int64_t)r[ri].v : (int32_t)(int64_t)r[ri].v;
            int64_t d = wide ? (int64_t)((uint64_t)b - (uint64_t)prev) : (int32_t)((uint32_t)b - (uint32_t)prev);
            prev = b;
            deltas[j++] = (uint64_t)d;
            min = d < min ? d : min;
        }
        delta_block(out, deltas, k, min);
    }
}

/* The definition levels, RLE runs of the hybrid encoding (bit width 1: a level a byte); a run
 * is found 8 levels at a time. */
static void levels_encode(ss_pqbuf *out, const pq_col *c) {
    if (!c->sparse) { /* every row a value: one run of level 1 */
        if (c->nvals) {
            ss_pqbuf_uvarint(out, (uint64_t)c->nvals << 1);
            ss_pqbuf_byte(out, 1);
        }
        return;
    }
    const uint8_t *p = c->defs.p;
    size_t n = c->defs.n;
    for (size_t i = 0; i < n;) {
        uint64_t eight = 0x0101010101010101ull * p[i], x;
        size_t j = i;
        while (j + 8 <= n && (memcpy(&x, p + j, 8), x == eight)) j += 8;
        while (j < n && p[j] == p[i]) j++;
        ss_pqbuf_uvarint(out, (uint64_t)(j - i) << 1);
        ss_pqbuf_byte(out, p[i]);
        i = j;
    }
}

/* The definition levels of a column of runs: the same RLE runs as levels_encode finds in the
 * levels a byte each (runs alike merged: each run of the hybrid is as long as it can be). */
static void levels_encode_runs(ss_pqbuf *out, const pq_col *c) {
    const pq_run *r = (const pq_run *)(const void *)c->run.p;
    size_t nr = c->run.n / sizeof *r;
    for (size_t i = 0; i < nr;) {
        uint64_t n = 0;
        size_t j = i;
        for (; j < nr && r[j].def == r[i].def; j++) n += r[j].n;
        ss_pqbuf_uvarint(out, n << 1);
        ss_pqbuf_byte(out, r[i].def);
        i = j;
    }
}

/* A column of runs' values into the page as the column of values would be encoded (below): INT32
 * and INT64 from the runs (delta_encode_runs), BOOLEAN bit-packed, BYTE_ARRAY PLAIN (a 4-byte
 * length, the bytes: a run doubled in place, as ss_pqw_bytes_run). The encoding. */
static int32_t runs_values(ss_pqbuf *pg, const pq_col *c, enum ss_pq_type t) {
    const pq_run *r = (const pq_run *)(const void *)c->run.p;
    size_t nr = c->run.n / sizeof *r;
    if (t == SS_PQ_INT32 || t == SS_PQ_INT64) {
        if (!c->nvals) return PQ_PLAIN;
        delta_encode_runs(pg, c, t == SS_PQ_INT64);
        return PQ_DELTA_BINARY_PACKED;
    }
    if (t == SS_PQ_BOOLEAN) {
        size_t bytes = (c->nvals + 7) / 8, at = 0;
        if (!ss_pqbuf_reserve(pg, bytes)) return PQ_PLAIN;
        uint8_t *dst = pg->p + pg->n;
        memset(dst, 0, bytes);
        for (size_t i = 0; i < nr; i++) {
            if (!r[i].def) continue;
            if (r[i].v)
                for (size_t k = at; k < at + r[i].n; k++) dst[k >> 3] |= (uint8_t)(1u << (k & 7));
            at += r[i].n;
        }
        pg->n += bytes;
        return PQ_PLAIN;
    }
    for (size_t i = 0; i < nr; i++) {
        if (!r[i].def) continue;
        uint32_t len = r[i].len;
        size_t one = 4 + (size_t)len, all = r[i].n * one;
        uint8_t *p = ss_pqw_grow(pg, all);
        if (!p) break;
        pq_le32(p, len);
        if (len) memcpy(p + 4, c->vals.p + r[i].v, len);
        pq_repeat(p, one, all);
    }
    return PQ_PLAIN;
}

/* ---- a dictionary for a column of runs of strings ---- */

/* A run's string (one of no bytes may have none kept: not an offset from a null pointer). */
static inline const uint8_t *run_str(const pq_col *c, const pq_run *r) {
    return r->len ? c->vals.p + r->v : (const uint8_t *)"";
}

static uint32_t dict_hash(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

/* The slots of a table of nslots, the entries 0..n-1 (each its first run's value) put in again. */
static bool dict_slots(pq_enc *e, const pq_col *c, size_t nslots, size_t n) {
    e->slots.n = 0;
    if (!ss_pqbuf_reserve(&e->slots, nslots * sizeof(uint32_t))) return false;
    uint32_t *slots = (uint32_t *)(void *)e->slots.p;
    const uint32_t *first = (const uint32_t *)(const void *)e->first.p;
    const pq_run *r = (const pq_run *)(const void *)c->run.p;
    memset(slots, 0, nslots * sizeof *slots);
    for (size_t k = 0; k < n; k++) {
        const pq_run *f = &r[first[k]];
        size_t at = dict_hash(run_str(c, f), f->len) & (nslots - 1);
        while (slots[at]) at = (at + 1) & (nslots - 1);
        slots[at] = (uint32_t)k + 1;
    }
    return true;
}

/* Each run of values its entry in the dictionary (e->idx, a uint32_t a run; 0 for a null run),
 * the entries in the order of their first use (e->first: the run that first holds each); *bytes
 * their PLAIN size. The number of entries; 0 when the dictionary would pass SS_PQ_DICT_MAX_BYTES or
 * memory ran out: the column is written PLAIN. */
static size_t dict_build(pq_enc *e, const pq_col *c, size_t *bytes) {
    const pq_run *r = (const pq_run *)(const void *)c->run.p;
    size_t nr = c->run.n / sizeof *r, n = 0, nslots = 0;
    *bytes = 0;
    e->idx.n = e->first.n = 0;
    if (!ss_pqbuf_reserve(&e->idx, nr * sizeof(uint32_t))) return 0;
    uint32_t *idx = (uint32_t *)(void *)e->idx.p;
    for (size_t i = 0; i < nr; i++) {
        idx[i] = 0;
        if (!r[i].def) continue;
        const uint8_t *v = run_str(c, &r[i]);
        if (2 * (n + 1) > nslots) {
            nslots = nslots ? 2 * nslots : 64;
            if (!dict_slots(e, c, nslots, n)) return 0;
        }
        uint32_t *slots = (uint32_t *)(void *)e->slots.p;
        size_t at = dict_hash(v, r[i].len) & (nslots - 1);
        for (;; at = (at + 1) & (nslots - 1)) {
            uint32_t k = slots[at];
            if (!k) { /* a new entry */
                *bytes += 4 + (size_t)r[i].len;
                if (*bytes > SS_PQ_DICT_MAX_BYTES || !ss_pqbuf_reserve(&e->first, sizeof(uint32_t))) return 0;
                uint32_t run = (uint32_t)i;
                memcpy(e->first.p + e->first.n, &run, sizeof run);
                e->first.n += sizeof run;
                slots[at] = (uint32_t)++n;
                idx[i] = (uint32_t)(n - 1);
                break;
            }
            uint32_t f;
            memcpy(&f, e->first.p + (k - 1) * sizeof f, sizeof f);
            if (r[f].len == r[i].len && !memcmp(run_str(c, &r[f]), v, r[i].len)) {
                idx[i] = k - 1;
                break;
            }
        }
    }
    return n;
}

/* The dictionary page (its header, then the n entries PLAIN: a 4-byte length, the bytes) into
 * o->dict; the indices into the data page pg after its levels: the bit width in a byte (1 at
 * least), then an RLE run of the hybrid for each stretch of rows of one entry. */
static void dict_pages(const pq_enc *e, const pq_col *c, size_t n, size_t bytes, ss_pqbuf *pg, pq_out *o) {
    const pq_run *r = (const pq_run *)(const void *)c->run.p;
    const uint32_t *idx = (const uint32_t *)(const void *)e->idx.p;
    size_t nr = c->run.n / sizeof *r;
    ss_tw t;
    ss_tw_init(&t, &o->dict);
    ss_tw_i32(&t, 1, PQ_PAGE_DICTIONARY);
    ss_tw_i32(&t, 2, (int32_t)bytes);
    ss_tw_i32(&t, 3, (int32_t)bytes);
    ss_tw_begin(&t, 7); /* DictionaryPageHeader: num_values, encoding */
    ss_tw_i32(&t, 1, (int32_t)n);
    ss_tw_i32(&t, 2, PQ_PLAIN);
    ss_tw_end(&t);
    ss_tw_end(&t);
    for (size_t k = 0; k < n; k++) {
        uint32_t f;
        memcpy(&f, e->first.p + k * sizeof f, sizeof f);
        uint32_t len = r[f].len;
        uint8_t le[4];
        pq_le32(le, len);
        ss_pqbuf_put(&o->dict, le, 4);
        ss_pqbuf_put(&o->dict, run_str(c, &r[f]), len);
    }
    unsigned bw = 1;
    while (bw < 32 && ((size_t)1 << bw) < n) bw++;
    ss_pqbuf_byte(pg, (uint8_t)bw);
    for (size_t i = 0; i < nr;) {
        if (!r[i].def) {
            i++;
            continue;
        }
        uint64_t rows = 0;
        size_t j = i;
        for (; j < nr; j++)
            if (r[j].def) {
                if (idx[j] != idx[i]) break;
                rows += r[j].n;
            }
        ss_pqbuf_uvarint(pg, rows << 1);
        uint8_t le[4];
        pq_le32(le, idx[i]);
        ss_pqbuf_put(pg, le, (bw + 7) / 8);
        i = j;
    }
}

/* Column ci's chunk encoded into o (a page: its levels, its values, compressed with enc's
 * context unless they are hashes or a dictionary's indices; a dictionary page before it), and
 * ch's sizes; its place in the file is write_out's. */
static void encode_chunk(const ss_pq_writer *w, pq_enc *e, const pq_col *cols, size_t ci, pq_chunk *ch, pq_out *o) {
    const pq_col *c = &cols[ci];
    enum ss_pq_type t = w->cols[ci].type;
    ss_pqbuf *pg = &e->page;
    size_t rows = pq_col_rows(c);
    o->k = SS_E_OK;
    o->tail = NULL;
    o->dict.n = o->hdr.n = o->body.n = 0;
    ch->dict_offset = -1;
    /* a value or level that could not be kept leaves nvals past the buffers: encode none of them */
    if (c->vals.failed || c->defs.failed || c->run.failed) {
        o->k = ss_error_set(&o->err, SS_E_NOMEM, 0, -1, "out of memory for a page");
        return;
    }
    pg->n = 0;
    ss_pqbuf_put(pg, "\0\0\0\0", 4);
    if (c->runs) levels_encode_runs(pg, c);
    else levels_encode(pg, c);
    if (!pg->failed) { pq_le32(pg->p, (uint32_t)(pg->n - 4)); }
    int32_t enc = PQ_PLAIN;
    bool hash = w->cols[ci].hash;
    size_t ndict = 0, dbytes = 0;
    if (c->runs && w->cols[ci].dict && t == SS_PQ_BYTE_ARRAY && c->nvals) ndict = dict_build(e, c, &dbytes);
    if (ndict) {
        enc = PQ_RLE_DICTIONARY;
        dict_pages(e, c, ndict, dbytes, pg, o);
    } else if (c->runs) {
        enc = runs_values(pg, c, t);
    } else if ((t == SS_PQ_INT32 || t == SS_PQ_INT64) && c->nvals && !hash) {
        enc = PQ_DELTA_BINARY_PACKED;
        delta_encode(pg, c, t == SS_PQ_INT64);
    } else if (t == SS_PQ_BOOLEAN) {
        size_t bytes = (c->nvals + 7) / 8;
        if (ss_pqbuf_reserve(pg, bytes)) {
            uint8_t *dst = pg->p + pg->n;
            memset(dst, 0, bytes);
            for (size_t i = 0; i < c->nvals; i++)
                if (c->vals.p[i]) dst[i >> 3] |= (uint8_t)(1u << (i & 7));
            pg->n += bytes;
        }
    } else if (!hash) {
        ss_pqbuf_put(pg, c->vals.p, c->vals.n); /* PLAIN: as the values were kept */
    }
    /* an uncompressed page of hashes: its levels, then its PLAIN values written from where
     * they were kept (not copied into the page first) */
    const ss_pqbuf *tail = hash && t != SS_PQ_BOOLEAN ? &c->vals : NULL;
    size_t psize = pg->n + (tail ? tail->n : 0);
    if (pg->failed || c->vals.failed || c->defs.failed || o->dict.failed || psize > INT32_MAX) {
        o->k = ss_error_set(&o->err, SS_E_NOMEM, 0, -1, "out of memory for a page");
        return;
    }
    /* hashes are left uncompressed (CompressionCodec UNCOMPRESSED, a chunk's own choice in
     * ColumnMetaData.codec): zstd would spend its time to find nothing to take out */
    size_t zn = pg->n;
    bool raw = tail || ndict;
    if (!raw) {
        size_t bound = ZSTD_compressBound(pg->n);
        if (!ss_pqbuf_reserve(&o->body, bound)) {
            o->k = ss_error_set(&o->err, SS_E_NOMEM, 0, -1, "out of memory for a page");
            return;
        }
        zn = ZSTD_compressCCtx(e->zc, o->body.p, bound, pg->p, pg->n, 1);
        if (ZSTD_isError(zn) || zn > INT32_MAX) {
            o->k = ss_error_set(&o->err, SS_E_NOMEM, 0, -1, "zstd: %s",
                                ZSTD_isError(zn) ? ZSTD_getErrorName(zn) : "page too large");
            return;
        }
        o->body.n = zn;
    } else {
        ss_pqbuf_put(&o->body, pg->p, pg->n);
        if (o->body.failed) {
            o->k = ss_error_set(&o->err, SS_E_NOMEM, 0, -1, "out of memory for a page");
            return;
        }
    }
    /* PageHeader (parquet.thrift): type, uncompressed_page_size, compressed_page_size,
     * data_page_header (num_values counts the nulls: "Data Pages") */
    ss_tw t2;
    ss_tw_init(&t2, &o->hdr);
    ss_tw_i32(&t2, 1, PQ_PAGE_DATA);
    ss_tw_i32(&t2, 2, (int32_t)psize);
    ss_tw_i32(&t2, 3, (int32_t)(raw ? psize : zn));
    ss_tw_begin(&t2, 5);
    ss_tw_i32(&t2, 1, (int32_t)rows);
    ss_tw_i32(&t2, 2, enc);
    ss_tw_i32(&t2, 3, PQ_RLE);
    ss_tw_i32(&t2, 4, PQ_RLE);
    ss_tw_end(&t2);
    ss_tw_end(&t2);
    if (o->hdr.failed) {
        o->k = ss_error_set(&o->err, SS_E_NOMEM, 0, -1, "out of memory for a page header");
        return;
    }
    ch->nvalues = (int64_t)rows;
    ch->encoding = enc;
    ch->codec = raw ? PQ_CODEC_NONE : PQ_CODEC_ZSTD;
    ch->compressed = (int64_t)(o->dict.n + o->hdr.n + (raw ? psize : zn));
    ch->uncompressed = (int64_t)(o->dict.n + o->hdr.n + psize);
    o->tail = tail;
}

/* An encoded chunk written where the file has got to (or why it could not be encoded, at that
 * byte). */
static ss_errkind write_out(ss_pq_writer *w, pq_chunk *ch, const pq_out *o, ss_error *err) {
    if (o->k != SS_E_OK) {
        w->wfailed = true;
        if (err) {
            *err = o->err;
            err->position = (uint64_t)w->pos;
        }
        return o->k;
    }
    if (o->dict.n) {
        ch->dict_offset = w->pos;
        if (write_bytes(w, o->dict.p, o->dict.n, err) != SS_E_OK) return err ? err->kind : SS_E_IO;
    }
    ch->page_offset = w->pos;
    if (write_bytes(w, o->hdr.p, o->hdr.n, err) != SS_E_OK) return err ? err->kind : SS_E_IO;
    if (write_bytes(w, o->body.p, o->body.n, err) != SS_E_OK) return err ? err->kind : SS_E_IO;
    return o->tail ? write_bytes(w, o->tail->p, o->tail->n, err) : SS_E_OK;
}

/* Columns taken in turn and encoded with e, until none is left (mu held; let go meanwhile). */
static void encode_some(ss_pq_writer *w, pq_enc *e) {
    while (w->hjob && w->hnext < w->ncols) {
        size_t i = w->hnext++;
        pthread_mutex_unlock(&w->mu);
        encode_chunk(w, e, w->hcols, i, &w->hchunks[i], &w->out[i]);
        pthread_mutex_lock(&w->mu);
        if (++w->hdone == w->ncols) pthread_cond_broadcast(&w->hcv);
    }
}

/* The helper: it encodes column chunks of each row group beside the writing thread (the pages
 * are independent of each other; only their places in the file are not, and those are the
 * writing thread's). At the end of an export no row is left to make while the last row groups
 * are written, and this halves that wait. */
static void *helper_thread(void *arg) {
    ss_pq_writer *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!(w->hjob && w->hnext < w->ncols) && !w->hquit) pthread_cond_wait(&w->hcv, &w->mu);
        if (!(w->hjob && w->hnext < w->ncols)) break;
        encode_some(w, &w->enc[1]);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Every column chunk of a row group encoded (with the helper, when there is one). */
static void encode_group(ss_pq_writer *w, const pq_col *cols, pq_chunk *chunks) {
    if (!w->helper_started) {
        for (size_t i = 0; i < w->ncols; i++) encode_chunk(w, &w->enc[0], cols, i, &chunks[i], &w->out[i]);
        return;
    }
    pthread_mutex_lock(&w->mu);
    w->hcols = (pq_col *)cols;
    w->hchunks = chunks;
    w->hnext = w->hdone = 0;
    w->hjob = true;
    pthread_cond_broadcast(&w->hcv);
    encode_some(w, &w->enc[0]);
    while (w->hdone < w->ncols) pthread_cond_wait(&w->hcv, &w->mu);
    w->hjob = false;
    pthread_mutex_unlock(&w->mu);
}

/* A row group's column chunks encoded, compressed and written (by the writer's thread, or by
 * the caller when there is none); the columns are emptied for reuse. */
static ss_errkind write_group(ss_pq_writer *w, pq_col *cols, size_t rows, ss_error *err) {
    if (w->ngroups == w->groups_cap) {
        size_t cap = w->groups_cap ? w->groups_cap * 2 : 16;
        pq_group *g = realloc(w->groups, cap * sizeof *g);
        if (g) w->groups = g;
        pq_chunk *ch = g ? realloc(w->chunks, cap * w->ncols * sizeof *ch) : NULL;
        if (!g || !ch) {
            w->wfailed = true;
            return ss_error_set(err, SS_E_NOMEM, (uint64_t)w->pos, -1, "out of memory");
        }
        w->chunks = ch;
        w->groups_cap = cap;
    }
    pq_group *g = &w->groups[w->ngroups];
    g->rows = (int64_t)rows;
    g->offset = w->pos;
    g->compressed = g->uncompressed = 0;
    encode_group(w, cols, &w->chunks[w->ngroups * w->ncols]);
    for (size_t i = 0; i < w->ncols; i++) {
        pq_chunk *ch = &w->chunks[w->ngroups * w->ncols + i];
        if (!cols[i].defs.failed && pq_col_rows(&cols[i]) != rows) { /* a caller's runs and rows out of step */
            w->wfailed = true;
            return ss_error_set(err, SS_E_USAGE, (uint64_t)w->pos, -1, "column %zu holds %zu values for %zu rows", i,
                                pq_col_rows(&cols[i]), rows);
        }
        ss_errkind k = write_out(w, ch, &w->out[i], err);
        if (k != SS_E_OK) return k;
        g->compressed += ch->compressed;
        g->uncompressed += ch->uncompressed;
        pq_col_clear(&cols[i]);
    }
    w->ngroups++;
    return SS_E_OK;
}

/* The writer's thread: a row group handed over (job) is written while the caller fills the
 * next one in the other set of columns: encoding and zstd cost about as much as filling. */
static void *writer_thread(void *arg) {
    ss_pq_writer *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->job && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
        if (!w->job) break;
        pthread_mutex_unlock(&w->mu);
        ss_errkind k = w->job_kind == SS_E_OK ? write_group(w, w->spare, w->job_rows, &w->job_err) : w->job_kind;
        pthread_mutex_lock(&w->mu);
        w->job_kind = k;
        w->job = false;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Wait for the row group handed over to be written: its error, if any. */
static ss_errkind wait_idle(ss_pq_writer *w, ss_error *err) {
    if (!w->thread_started) return SS_E_OK;
    pthread_mutex_lock(&w->mu);
    while (w->job) pthread_cond_wait(&w->cv, &w->mu);
    ss_errkind k = w->job_kind;
    pthread_mutex_unlock(&w->mu);
    if (k != SS_E_OK) {
        w->failed = true;
        if (err) *err = w->job_err;
    }
    return k;
}

static ss_errkind flush_group(ss_pq_writer *w, ss_error *err) {
    if (!w->group_rows) return SS_E_OK;
    size_t rows = w->group_rows;
    w->group_rows = w->group_bytes = 0;
    if (!w->thread_started) {
        ss_errkind k = write_group(w, w->c, rows, err);
        if (k != SS_E_OK) w->failed = true;
        return k;
    }
    ss_errkind k = wait_idle(w, err);
    if (k != SS_E_OK) return k;
    pq_col *t = w->c; /* the filled set to the thread, its emptied set to the caller */
    w->c = w->spare;
    w->spare = t;
    pthread_mutex_lock(&w->mu);
    w->job_rows = rows;
    w->job = true;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return SS_E_OK;
}

/* The thread stopped (after its last row group). */
static ss_errkind stop_thread(ss_pq_writer *w, ss_error *err) {
    if (!w->thread_started) return SS_E_OK;
    ss_errkind k = wait_idle(w, err);
    pthread_mutex_lock(&w->mu);
    w->quit = true;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->th, NULL);
    if (w->helper_started) {
        pthread_mutex_lock(&w->mu);
        w->hquit = true;
        pthread_cond_broadcast(&w->hcv);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->hth, NULL);
        pthread_cond_destroy(&w->hcv);
        w->helper_started = false;
    }
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    w->thread_started = false;
    return k;
}

ss_errkind ss_pq_row_end(ss_pq_writer *w, ss_error *err) {
    /* w->pos is the writer thread's while a row group is being written: these errors are of the
     * caller's rows, not of a byte of the file */
    if (w->failed) return ss_error_set(err, SS_E_IO, 0, -1, "the writer failed before");
    if (w->bad_shape || w->col != w->ncols) {
        w->failed = true;
        return ss_error_set(err, SS_E_USAGE, 0, -1, "a row does not match the columns (column %zu)", w->col);
    }
    w->col = 0;
    return ss_pqw_rows_done(w, 1, err);
}

ss_errkind ss_pqw_rows_done(ss_pq_writer *w, size_t n, ss_error *err) {
    if (w->failed) return ss_error_set(err, SS_E_IO, 0, -1, "the writer failed before");
    w->group_rows += n;
    w->rows += n;
    w->group_bytes += w->ncols * 8 * n;
    if (w->group_rows >= w->rows_per_group || w->group_bytes >= PQ_GROUP_BYTES) return flush_group(w, err);
    return SS_E_OK;
}

ss_errkind ss_pq_row(ss_pq_writer *w, const ss_pq_value *v, ss_error *err) {
    if (w->failed || w->col) return ss_pq_row_end(w, err); /* says why */
    for (size_t i = 0; i < w->ncols; i++) {
        pq_col *c = &w->c[i];
        pq_col_level(c, v[i].null ? 0 : 1);
        if (v[i].null) continue;
        c->nvals++;
        switch (w->cols[i].type) {
        case SS_PQ_BOOLEAN: ss_pqbuf_byte(&c->vals, v[i].i ? 1 : 0); break;
        case SS_PQ_INT32: {
            int32_t x = (int32_t)v[i].i;
            ss_pq_put_fixed(&c->vals, &x, 4);
            break;
        }
        case SS_PQ_INT64: ss_pq_put_fixed(&c->vals, &v[i].i, 8); break;
        case SS_PQ_FIXED16:
            if (v[i].n != 16) w->bad_shape = true;
            else ss_pq_put_fixed(&c->vals, v[i].p, 16);
            break;
        default: { /* BYTE_ARRAY */
            if (v[i].n > INT32_MAX) {
                w->bad_shape = true;
                break;
            }
            uint32_t n = (uint32_t)v[i].n;
            uint8_t len[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
            ss_pq_put_fixed(&c->vals, len, 4);
            ss_pqbuf_put(&c->vals, v[i].p, n);
            w->group_bytes += n;
            break;
        }
        }
    }
    w->col = w->ncols;
    return ss_pq_row_end(w, err);
}

void ss_pqw_set_runs(ss_pq_writer *w, size_t i) {
    enum ss_pq_type t = w->cols[i].type;
    if (t == SS_PQ_FIXED16 || w->cols[i].hash) return; /* PLAIN as kept, or written from where kept */
    w->c[i].runs = true;
    if (w->spare) w->spare[i].runs = true;
}

/* Rows of a column of values (s) appended to a column of runs (d) a row at a time: a run of one
 * each, merged with the run before when alike (the rows of a legacy or control batch, an
 * internal topic's). */
static bool copy_to_runs(const ss_pq_writer *w, pq_col *d, size_t i, const pq_col *s, size_t *row, size_t *at,
                         size_t *vat, size_t n) {
    enum ss_pq_type t = w->cols[i].type;
    for (size_t r = *row; r < *row + n; r++) {
        if (s->sparse && !s->defs.p[r]) {
            pq_run_add(d, 0, 0, NULL, 0, 1);
            continue;
        }
        size_t need = t == SS_PQ_BYTE_ARRAY ? 4 : pq_width(t); /* a string: its length first */
        if (*at + need > s->vals.n || *vat >= s->nvals) {
            d->vals.failed = true;
            return false;
        }
        const uint8_t *p = s->vals.p + *at;
        if (t == SS_PQ_INT64) {
            int64_t v;
            memcpy(&v, p, 8);
            pq_run_add(d, 1, (uint64_t)v, NULL, 0, 1);
        } else if (t == SS_PQ_INT32) {
            int32_t v;
            memcpy(&v, p, 4);
            pq_run_add(d, 1, (uint64_t)(int64_t)v, NULL, 0, 1);
        } else if (t == SS_PQ_BOOLEAN) {
            pq_run_add(d, 1, p[0], NULL, 0, 1);
        } else {
            uint32_t len = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            if (len > s->vals.n - *at - 4) {
                d->vals.failed = true;
                return false;
            }
            pq_run_add(d, 1, 0, p + 4, len, 1);
            need += len;
        }
        *at += need;
        ++*vat;
    }
    *row += n;
    return !d->run.failed && !d->vals.failed;
}

bool ss_pqw_copy_col(ss_pq_writer *w, size_t i, const pq_col *s, size_t *row, size_t *at, size_t *vat, size_t n) {
    pq_col *d = &w->c[i];
    if (!n) return true;
    size_t srows = pq_col_rows(s);
    if (s->defs.failed || s->vals.failed || *row > srows || srows - *row < n) {
        d->defs.failed = true;
        return false;
    }
    if (d->runs) return copy_to_runs(w, d, i, s, row, at, vat, n);
    size_t nv = 0, bytes; /* the values among the rows (their levels of 1), their bytes */
    if (*row + n == srows) {
        nv = s->nvals - *vat;
        bytes = s->vals.n - *at;
    } else {
        if (!s->sparse) nv = n;
        else
            for (size_t r = *row; r < *row + n; r++) nv += s->defs.p[r];
        enum ss_pq_type t = w->cols[i].type;
        if (t != SS_PQ_BYTE_ARRAY) {
            bytes = nv * pq_width(t);
        } else { /* each value's 4-byte length, then its bytes */
            size_t p = *at;
            for (size_t k = 0; k < nv && p + 4 <= s->vals.n; k++)
                p += 4 + ((size_t)s->vals.p[p] | (size_t)s->vals.p[p + 1] << 8 | (size_t)s->vals.p[p + 2] << 16 |
                          (size_t)s->vals.p[p + 3] << 24);
            bytes = p - *at;
        }
    }
    if (*at + bytes > s->vals.n || *vat + nv > s->nvals) {
        d->vals.failed = true;
        return false;
    }
    if (!s->sparse) { /* every row a value */
        pq_col_levels(d, 1, n);
    } else {
        if (nv < n && !d->sparse) pq_col_sparse(d); /* a null among the rows */
        if (d->sparse) ss_pqbuf_put(&d->defs, s->defs.p + *row, n);
    }
    ss_pqbuf_put(&d->vals, s->vals.p + *at, bytes);
    d->nvals += nv;
    *row += n;
    *at += bytes;
    *vat += nv;
    return !d->defs.failed && !d->vals.failed;
}

uint64_t ss_pq_rows(const ss_pq_writer *w) { return w->rows; }

ss_errkind ss_pq_meta(ss_pq_writer *w, const char *key, const char *value, ss_error *err) {
    if (w->nmeta + 2 > w->meta_cap) {
        size_t cap = w->meta_cap ? w->meta_cap * 2 : 16;
        char **m = realloc(w->meta, cap * sizeof *m);
        if (!m) return ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        w->meta = m;
        w->meta_cap = cap;
    }
    char *k = strdup(key), *v = strdup(value ? value : "");
    if (!k || !v) {
        free(k);
        free(v);
        return ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    }
    w->meta[w->nmeta++] = k;
    w->meta[w->nmeta++] = v;
    return SS_E_OK;
}

/* ---- footer ---------------------------------------------------------------------------- */

/* FileMetaData (parquet.thrift): the required version, schema, num_rows, row_groups;
 * key_value_metadata and created_by. */
static void footer(ss_pq_writer *w, ss_pqbuf *b) {
    ss_tw t;
    ss_tw_init(&t, b);
    ss_tw_i32(&t, 1, 1);
    /* schema: the root (a name and its number of children), then a leaf per column */
    ss_tw_list(&t, 2, SS_TC_STRUCT, w->ncols + 1);
    ss_tw_begin(&t, 0);
    ss_tw_string(&t, 4, "schema");
    ss_tw_i32(&t, 5, (int32_t)w->ncols);
    ss_tw_end(&t);
    for (size_t i = 0; i < w->ncols; i++) {
        const ss_pq_column *col = &w->cols[i];
        ss_tw_begin(&t, 0);
        ss_tw_i32(&t, 1, (int32_t)col->type);
        if (col->type == SS_PQ_FIXED16) ss_tw_i32(&t, 2, 16);
        ss_tw_i32(&t, 3, PQ_OPTIONAL);
        ss_tw_string(&t, 4, col->name);
        if (col->utf8) {
            ss_tw_i32(&t, 6, PQ_CONVERTED_UTF8);
            ss_tw_begin(&t, 10); /* logicalType: LogicalType union, STRING = 1 (StringType) */
            ss_tw_begin(&t, 1);
            ss_tw_end(&t);
            ss_tw_end(&t);
        }
        ss_tw_end(&t);
    }
    ss_tw_i64(&t, 3, (int64_t)w->rows);
    ss_tw_list(&t, 4, SS_TC_STRUCT, w->ngroups);
    for (size_t g = 0; g < w->ngroups; g++) {
        const pq_group *gr = &w->groups[g];
        ss_tw_begin(&t, 0);
        ss_tw_list(&t, 1, SS_TC_STRUCT, w->ncols);
        for (size_t i = 0; i < w->ncols; i++) {
            const pq_chunk *ch = &w->chunks[g * w->ncols + i];
            bool dict = ch->dict_offset >= 0;
            ss_tw_begin(&t, 0); /* ColumnChunk: file_offset (required: where the chunk begins), meta_data */
            ss_tw_i64(&t, 2, dict ? ch->dict_offset : ch->page_offset);
            ss_tw_begin(&t, 3); /* ColumnMetaData: every field it requires */
            ss_tw_i32(&t, 1, (int32_t)w->cols[i].type);
            ss_tw_list(&t, 2, SS_TC_I32, dict ? 3 : 2);
            if (dict) ss_tw_elem_i32(&t, PQ_PLAIN); /* the dictionary page's */
            ss_tw_elem_i32(&t, ch->encoding);
            ss_tw_elem_i32(&t, PQ_RLE);
            ss_tw_list(&t, 3, SS_TC_BINARY, 1);
            ss_tw_elem_string(&t, w->cols[i].name);
            ss_tw_i32(&t, 4, ch->codec);
            ss_tw_i64(&t, 5, ch->nvalues);
            ss_tw_i64(&t, 6, ch->uncompressed);
            ss_tw_i64(&t, 7, ch->compressed);
            ss_tw_i64(&t, 9, ch->page_offset);
            if (dict) ss_tw_i64(&t, 11, ch->dict_offset);
            ss_tw_end(&t);
            ss_tw_end(&t);
        }
        ss_tw_i64(&t, 2, gr->uncompressed);
        ss_tw_i64(&t, 3, gr->rows);
        ss_tw_i64(&t, 5, gr->offset);
        ss_tw_i64(&t, 6, gr->compressed);
        ss_tw_end(&t);
    }
    if (w->nmeta) {
        ss_tw_list(&t, 5, SS_TC_STRUCT, w->nmeta / 2);
        for (size_t i = 0; i < w->nmeta; i += 2) {
            ss_tw_begin(&t, 0);
            ss_tw_string(&t, 1, w->meta[i]);
            ss_tw_string(&t, 2, w->meta[i + 1]);
            ss_tw_end(&t);
        }
    }
    ss_tw_string(&t, 6, w->created_by);
    ss_tw_end(&t);
}

static void writer_free(ss_pq_writer *w) {
    for (size_t i = 0; i < w->ncols; i++) {
        ss_pqbuf_free(&w->c[i].vals);
        ss_pqbuf_free(&w->c[i].defs);
        ss_pqbuf_free(&w->c[i].run);
        if (w->spare) {
            ss_pqbuf_free(&w->spare[i].vals);
            ss_pqbuf_free(&w->spare[i].defs);
            ss_pqbuf_free(&w->spare[i].run);
        }
    }
    free(w->spare);
    for (size_t i = 0; i < w->nmeta; i++) free(w->meta[i]);
    free(w->meta);
    free(w->c);
    free(w->groups);
    free(w->chunks);
    free(w->created_by);
    free(w->path);
    for (size_t i = 0; i < w->ncols; i++) {
        ss_pqbuf_free(&w->out[i].dict);
        ss_pqbuf_free(&w->out[i].hdr);
        ss_pqbuf_free(&w->out[i].body);
    }
    free(w->out);
    for (size_t i = 0; i < 2; i++) {
        ss_pqbuf_free(&w->enc[i].page);
        ss_pqbuf_free(&w->enc[i].idx);
        ss_pqbuf_free(&w->enc[i].slots);
        ss_pqbuf_free(&w->enc[i].first);
        ZSTD_freeCCtx(w->enc[i].zc);
    }
    free(w);
}

ss_errkind ss_pq_finish(ss_pq_writer *w, ss_error *err) {
    ss_errkind k =
        w->failed ? ss_error_set(err, SS_E_IO, (uint64_t)w->pos, -1, "the writer failed before") : flush_group(w, err);
    ss_errkind ks = stop_thread(w, err);
    if (k == SS_E_OK) k = ks;
    if (k == SS_E_OK) {
        ss_pqbuf b = {0};
        footer(w, &b);
        if (b.failed || b.n > UINT32_MAX) {
            k = ss_error_set(err, SS_E_NOMEM, (uint64_t)w->pos, -1, "out of memory for the footer");
        } else {
            uint32_t n = (uint32_t)b.n;
            uint8_t tail[8] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24), 'P', 'A', 'R',
                               '1'};
            k = write_bytes(w, b.p, b.n, err);
            if (k == SS_E_OK) k = write_bytes(w, tail, 8, err);
        }
        ss_pqbuf_free(&b);
    }
    if (fclose(w->f) != 0 && k == SS_E_OK)
        k = ss_error_set(err, SS_E_IO, (uint64_t)w->pos, -1, "cannot write: %s", strerror(errno));
    w->f = NULL;
    if (k != SS_E_OK && w->regular) remove(w->path);
    writer_free(w);
    return k;
}

void ss_pq_abort(ss_pq_writer *w) {
    if (!w) return;
    stop_thread(w, NULL);
    if (w->f) fclose(w->f);
    if (w->regular) remove(w->path);
    writer_free(w);
}
