/* segscan - the Parquet writer's state (internal): for the exports room, which fills each
 * row column by column with the inline appends below (no call and no shape check a value:
 * the export writes millions of rows of 23 cells), and for parquet.c. */
#ifndef SS_PARQUET_WRITER_H
#define SS_PARQUET_WRITER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "parquet/thrift.h"
#include "segscan/parquet.h"

/* a row group also ends when its buffered values pass this */
#define PQ_GROUP_BYTES ((size_t)64 << 20)

typedef struct pq_chunk {
    int64_t page_offset, compressed, uncompressed, nvalues;
    int64_t dict_offset; /* its dictionary page's, or -1: none */
    int32_t encoding, codec;
} pq_chunk;

/* A run of a column kept as runs (pq_col.runs): n rows alike, null (def 0) or the value v
 * (BYTE_ARRAY: v is where its bytes are in the column's vals, len how many). */
typedef struct pq_run {
    uint64_t v;
    uint32_t n, len;
    uint8_t def;
} pq_run;

typedef struct pq_col {
    ss_pqbuf vals; /* the non-null values as PLAIN would hold them (booleans a byte each); a
                    * column of runs: each run's string bytes once */
    ss_pqbuf defs; /* a definition level a row, a byte each (none in a column of runs); only
                    * once a null came (sparse): before, every row has a value and level 1 */
    size_t nvals;
    bool sparse; /* defs holds the levels; else nvals rows, all of level 1, and defs is empty.
                  * Most columns have no null in a row group: a byte a row and cell less to
                  * append, copy at the makers' merge and scan for runs */
    /* a column kept as runs (ss_pqw_set_runs): its values and levels are expanded only into the
     * page, which is the same page; the merge of a team of row makers wrote each batch's
     * fields a row at a time, about 70 bytes a row and their first touch, read back again */
    bool runs;
    ss_pqbuf run; /* pq_run, in order */
    size_t nrows;
} pq_col;

/* The rows a column holds. */
static inline size_t pq_col_rows(const pq_col *c) { return c->runs ? c->nrows : c->sparse ? c->defs.n : c->nvals; }

/* The column's levels made bytes (its nvals levels of 1) before the first null (parquet.c). */
void pq_col_sparse(pq_col *c);

/* One row's definition level appended (0: a null, which makes the levels bytes first). */
static inline void pq_col_level(pq_col *c, uint8_t def) {
    if (!def && !c->sparse) pq_col_sparse(c);
    if (c->sparse) ss_pqbuf_byte(&c->defs, def);
}

/* The column emptied for the next row group (or a maker's next piece). */
static inline void pq_col_clear(pq_col *c) {
    c->vals.n = c->defs.n = c->nvals = c->run.n = c->nrows = 0;
    c->sparse = false;
}

/* The bytes of a value of type t as a column keeps it (PLAIN; a boolean a byte); 0 for
 * BYTE_ARRAY, whose values are a 4-byte length and the bytes. */
static inline size_t pq_width(enum ss_pq_type t) {
    return t == SS_PQ_INT64 ? 8 : t == SS_PQ_INT32 ? 4 : t == SS_PQ_FIXED16 ? 16 : t == SS_PQ_BOOLEAN ? 1 : 0;
}

/* v in 4 bytes little-endian at p: a PLAIN BYTE_ARRAY's length, a v1 page's levels' length, a
 * dictionary index (Encodings.md: the hybrid's RLE value in its bytes, least significant first). */
static inline void pq_le32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* p[one, all) filled with copies of p[0, one), doubling what is filled each time (a run of
 * equal BYTE_ARRAY values, each its length and bytes). */
static inline void pq_repeat(uint8_t *p, size_t one, size_t all) {
    for (size_t have = one; have < all; have *= 2) memcpy(p + have, p, have < all - have ? have : all - have);
}

/* A column chunk encoded and not yet written (write_group): its page header, its page's body
 * (compressed, or the levels of a page of hashes, whose values are written from their column:
 * tail), or why it could not be encoded. */
typedef struct pq_out {
    ss_pqbuf dict; /* a dictionary page, header and values (written first), or empty */
    ss_pqbuf hdr, body;
    const ss_pqbuf *tail;
    ss_errkind k;
    ss_error err;
} pq_out;

/* What one thread encoding column chunks needs of its own. */
typedef struct pq_enc {
    ss_pqbuf page; /* the page before compression */
    ZSTD_CCtx *zc;
    /* a column of runs' dictionary (parquet.c dict_build): each run's index, the open-addressed
     * slots (an entry + 1, 0 empty), each entry's first run */
    ss_pqbuf idx, slots, first;
} pq_enc;

typedef struct pq_group {
    int64_t rows, offset, compressed, uncompressed;
} pq_group;

struct ss_pq_writer {
    FILE *f;
    char *path;
    const ss_pq_column *cols;
    size_t ncols, rows_per_group;
    char *created_by;
    pq_col *c;
    size_t col;     /* the column the next value is for */
    bool bad_shape; /* a value of the wrong type, or too many */
    size_t group_rows, group_bytes;
    uint64_t rows;
    int64_t pos; /* bytes written */
    pq_group *groups;
    pq_chunk *chunks; /* ngroups * ncols */
    size_t ngroups, groups_cap;
    char **meta; /* key, value, key, value... */
    size_t nmeta, meta_cap;
    pq_enc enc[2]; /* the writing thread's (or the caller's), the helper's */
    pq_out *out;   /* a column's chunk encoded: ncols */
    bool failed;   /* the caller's side: a row refused, or the thread's error seen */
    bool wfailed;  /* the writing side (the thread while it runs) */
    bool regular;  /* the file is a regular file (removed when the export fails) */
    /* the thread that writes a row group while the next one is filled (parquet.c) */
    pq_col *spare; /* the other set of columns: the thread's while a job runs */
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool thread_started, job, quit;
    size_t job_rows;
    ss_errkind job_kind;
    ss_error job_err;
    /* a helper encoding a row group's column chunks beside the writing thread (parquet.c), the
     * next column to encode and how many are: under mu */
    pthread_t hth;
    pthread_cond_t hcv;
    bool helper_started, hjob, hquit;
    pq_col *hcols;
    pq_chunk *hchunks;
    size_t hnext, hdone;
};

static inline bool ss_pq_put_fixed(ss_pqbuf *b, const void *p, size_t n) {
    if (b->cap - b->n < n && !ss_pqbuf_reserve(b, n)) return false;
    memcpy(b->p + b->n, p, n);
    b->n += n;
    return true;
}

/* Column i's value of the row being filled: the caller gives every column once, in order, each
 * of its type (the exports room's fixed schema), then ss_pqw_row_done. */
static inline void ss_pqw_null(ss_pq_writer *w, size_t i) { pq_col_level(&w->c[i], 0); }

static inline pq_col *ss_pqw_value(ss_pq_writer *w, size_t i) {
    pq_col *c = &w->c[i];
    pq_col_level(c, 1);
    c->nvals++;
    return c;
}

static inline void ss_pqw_i64(ss_pq_writer *w, size_t i, int64_t v) {
    ss_pq_put_fixed(&ss_pqw_value(w, i)->vals, &v, 8);
}

static inline void ss_pqw_i32(ss_pq_writer *w, size_t i, int32_t v) {
    ss_pq_put_fixed(&ss_pqw_value(w, i)->vals, &v, 4);
}

static inline void ss_pqw_bool(ss_pq_writer *w, size_t i, bool v) {
    ss_pqbuf_byte(&ss_pqw_value(w, i)->vals, v ? 1 : 0);
}

static inline void ss_pqw_fixed16(ss_pq_writer *w, size_t i, const uint8_t *p) {
    ss_pq_put_fixed(&ss_pqw_value(w, i)->vals, p, 16);
}

/* v's bytes, most significant first, as one 64-bit store writes them */
static inline uint64_t ss_pq_be64(uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return __builtin_bswap64(v);
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return v;
#else
    uint64_t r;
    uint8_t b[8];
    for (int k = 7; k >= 0; k--, v >>= 8) b[k] = (uint8_t)v;
    memcpy(&r, b, 8);
    return r;
#endif
}

/* A 128-bit hash as FIXED16, big-endian (the order of its hex digits: hi's first), stored
 * straight into the column by two 8-byte stores. Built in a local and copied (or left for the
 * compiler to merge), its 16-byte load waited on the stores before it: a store-forwarding
 * stall, the one instruction that took 28% of the samples of the rows' thread's own code. */
static inline void ss_pqw_hash128(ss_pq_writer *w, size_t i, uint64_t hi, uint64_t lo) {
    ss_pqbuf *b = &ss_pqw_value(w, i)->vals;
    if (b->cap - b->n < 16 && !ss_pqbuf_reserve(b, 16)) return;
    uint64_t h = ss_pq_be64(hi), l = ss_pq_be64(lo);
#if defined(__GNUC__)
    __asm__("" : "+r"(h), "+r"(l)); /* two scalar stores, not one vector store of a spilled pair */
#endif
    memcpy(b->p + b->n, &h, 8);
    memcpy(b->p + b->n + 8, &l, 8);
    b->n += 16;
}

/* n below 2 GiB */
static inline void ss_pqw_bytes(ss_pq_writer *w, size_t i, const void *p, uint32_t n) {
    pq_col *c = ss_pqw_value(w, i);
    uint8_t len[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
    ss_pq_put_fixed(&c->vals, len, 4);
    ss_pqbuf_put(&c->vals, p, n);
    w->group_bytes += n;
}

static inline ss_errkind ss_pqw_row_done(ss_pq_writer *w, ss_error *err) {
    w->col = w->ncols;
    return ss_pq_row_end(w, err);
}

/* Runs: column i's next n values all alike (or null), for the columns whose value is the same
 * on many rows in a row (a batch's fields on each of its records), appended in one go rather
 * than a row at a time. The caller gives each column the same number of values, then
 * ss_pqw_rows_done(n); at most ss_pqw_room rows at a time. */
static inline uint8_t *ss_pqw_grow(ss_pqbuf *b, size_t n) {
    if (b->cap - b->n < n && !ss_pqbuf_reserve(b, n)) return NULL;
    uint8_t *p = b->p + b->n;
    b->n += n;
    return p;
}

/* n rows' definition levels alike (0: nulls, which make the levels bytes first). */
static inline void pq_col_levels(pq_col *c, uint8_t def, size_t n) {
    if (!def && n && !c->sparse) pq_col_sparse(c);
    if (!c->sparse) return;
    uint8_t *d = ss_pqw_grow(&c->defs, n);
    if (d) memset(d, def, n);
}

/* A run appended to a column of runs (merged with the run before when alike); len: BYTE_ARRAY's
 * bytes at s (their place in vals when the run is new). n below 4 Gi. */
static inline void pq_run_add(pq_col *c, uint8_t def, uint64_t v, const void *s, uint32_t len, size_t n) {
    if (!n) return;
    c->nrows += n;
    if (def) c->nvals += n;
    if (c->run.n) {
        pq_run *l = (pq_run *)(void *)(c->run.p + c->run.n - sizeof *l);
        if (l->def == def &&
            (!def ||
             (s ? l->len == len && !c->vals.failed && (!len || !memcmp(c->vals.p + l->v, s, len)) : l->v == v)) &&
            (uint64_t)l->n + n <= UINT32_MAX) {
            l->n += (uint32_t)n;
            return;
        }
    }
    if (s) {
        v = c->vals.n;
        ss_pqbuf_put(&c->vals, s, len);
    }
    pq_run r = {.v = v, .n = (uint32_t)n, .len = len, .def = def};
    ss_pq_put_fixed(&c->run, &r, sizeof r);
}

static inline void ss_pqw_null_run(ss_pq_writer *w, size_t i, size_t n) {
    if (w->c[i].runs) {
        pq_run_add(&w->c[i], 0, 0, NULL, 0, n);
        return;
    }
    pq_col_levels(&w->c[i], 0, n);
}

static inline pq_col *ss_pqw_value_run(ss_pq_writer *w, size_t i, size_t n) {
    pq_col *c = &w->c[i];
    pq_col_levels(c, 1, n);
    c->nvals += n;
    return c;
}

static inline void ss_pqw_i64_run(ss_pq_writer *w, size_t i, int64_t v, size_t n) {
    if (w->c[i].runs) {
        pq_run_add(&w->c[i], 1, (uint64_t)v, NULL, 0, n);
        return;
    }
    uint8_t *p = ss_pqw_grow(&ss_pqw_value_run(w, i, n)->vals, n * 8);
    if (p)
        for (size_t k = 0; k < n; k++) memcpy(p + k * 8, &v, 8);
}

static inline void ss_pqw_i32_run(ss_pq_writer *w, size_t i, int32_t v, size_t n) {
    if (w->c[i].runs) {
        pq_run_add(&w->c[i], 1, (uint64_t)(int64_t)v, NULL, 0, n);
        return;
    }
    uint8_t *p = ss_pqw_grow(&ss_pqw_value_run(w, i, n)->vals, n * 4);
    if (p)
        for (size_t k = 0; k < n; k++) memcpy(p + k * 4, &v, 4);
}

static inline void ss_pqw_bool_run(ss_pq_writer *w, size_t i, bool v, size_t n) {
    if (w->c[i].runs) {
        pq_run_add(&w->c[i], 1, v ? 1 : 0, NULL, 0, n);
        return;
    }
    uint8_t *p = ss_pqw_grow(&ss_pqw_value_run(w, i, n)->vals, n);
    if (p) memset(p, v ? 1 : 0, n);
}

/* len below 2 GiB */
static inline void ss_pqw_bytes_run(ss_pq_writer *w, size_t i, const void *s, uint32_t len, size_t n) {
    if (w->c[i].runs) {
        pq_run_add(&w->c[i], 1, 0, s, len, n);
        w->group_bytes += n * len;
        return;
    }
    uint8_t *p = ss_pqw_grow(&ss_pqw_value_run(w, i, n)->vals, n * (4 + (size_t)len));
    if (!p || !n) return;
    size_t one = 4 + (size_t)len, all = n * one;
    pq_le32(p, len);
    memcpy(p + 4, s, len);
    pq_repeat(p, one, all);
    w->group_bytes += n * len;
}

/* Column i kept as runs from now on (before its first value): only the run appends above give
 * it values (a run of one for a single value), and ss_pqw_copy_col. */
void ss_pqw_set_runs(ss_pq_writer *w, size_t i);

/* n rows of column i from s (a column of the same type filled through the appends above by
 * another writer) appended to the row group being filled, as if they had been appended here:
 * s's rows from *row, whose values start at byte *at and are its *vat-th; the three moved past
 * the rows copied. Neither group_bytes nor the rows are counted: the caller adds the bytes and
 * calls ss_pqw_rows_done as the appends would have. False when memory ran out (the column's
 * buffers are then marked failed, as an append's would be). */
bool ss_pqw_copy_col(ss_pq_writer *w, size_t i, const pq_col *s, size_t *row, size_t *at, size_t *vat, size_t n);

/* How many rows the row group being filled takes before it is written (at least 1). */
static inline size_t ss_pqw_room(const ss_pq_writer *w) {
    if (w->group_bytes >= PQ_GROUP_BYTES || w->group_rows >= w->rows_per_group) return 1;
    return w->rows_per_group - w->group_rows;
}

/* n rows complete (each column given n values since the last call): the row group is written
 * when it is full, as ss_pq_row_end does for one row. */
ss_errkind ss_pqw_rows_done(ss_pq_writer *w, size_t n, ss_error *err);

#endif
