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

typedef struct pq_chunk {
    int64_t page_offset, compressed, uncompressed, nvalues;
    int32_t encoding;
} pq_chunk;

typedef struct pq_col {
    ss_pqbuf vals; /* the non-null values as PLAIN would hold them (booleans a byte each) */
    ss_pqbuf defs; /* a definition level a row, a byte each */
    size_t nvals;
} pq_col;

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
    ss_pqbuf page, z, hdr;
    ZSTD_CCtx *zc;
    bool failed;  /* the caller's side: a row refused, or the thread's error seen */
    bool wfailed; /* the writing side (the thread while it runs) */
    bool regular; /* the file is a regular file (removed when the export fails) */
    /* the thread that writes a row group while the next one is filled (parquet.c) */
    pq_col *spare; /* the other set of columns: the thread's while a job runs */
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool thread_started, job, quit;
    size_t job_rows;
    ss_errkind job_kind;
    ss_error job_err;
};

static inline bool ss_pq_put_fixed(ss_pqbuf *b, const void *p, size_t n) {
    if (b->cap - b->n < n && !ss_pqbuf_reserve(b, n)) return false;
    memcpy(b->p + b->n, p, n);
    b->n += n;
    return true;
}

/* Column i's value of the row being filled: the caller gives every column once, in order, each
 * of its type (the exports room's fixed schema), then ss_pqw_row_done. */
static inline void ss_pqw_null(ss_pq_writer *w, size_t i) { ss_pqbuf_byte(&w->c[i].defs, 0); }

static inline pq_col *ss_pqw_value(ss_pq_writer *w, size_t i) {
    pq_col *c = &w->c[i];
    ss_pqbuf_byte(&c->defs, 1);
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

#endif
