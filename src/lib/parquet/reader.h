/* segscan - the Parquet reader (internal): a file of the fixed schema the
 * writer writes (segscan/parquet.h), read back from bytes in memory that are
 * untrusted. The footer is parsed and checked against the columns expected
 * (names, physical types, every one OPTIONAL and flat); then one row group at
 * a time is decoded whole into arrays a row each, so that a caller walks rows
 * with plain indexing. Memory holds one row group.
 *
 * Only what the writer writes is read (parquet.c's top comment): v1 data
 * pages (no dictionary page), compressed with zstd or not at all, definition
 * levels in the RLE/bit-packed hybrid of bit width 1, values PLAIN or
 * DELTA_BINARY_PACKED for INT32 and INT64. Anything else is refused with its
 * byte position, not guessed at.
 */
#ifndef SS_PARQUET_READER_H
#define SS_PARQUET_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parquet/thrift.h"
#include "segscan/errors.h"
#include "segscan/parquet.h"

/* The Thrift compact protocol, read side (thrift.h says the encoding). Every
 * read is bounds-checked; the first failure sets bad and the position, and
 * later reads return zeros. */
#define SS_TR_DEPTH 16
typedef struct ss_tr {
    const uint8_t *base, *p, *end; /* base: byte 0 of the file */
    bool bad;
    uint64_t bad_at;
    const char *why;
    int depth;
} ss_tr;

void ss_tr_init(ss_tr *t, const uint8_t *file, size_t from, size_t to);
/* The next field header of the struct being read: false at its stop byte (or on failure).
 * *last: the previous field id of this struct (0 at its start). */
bool ss_tr_field(ss_tr *t, int16_t *last, int16_t *id, uint8_t *type);
int64_t ss_tr_int(ss_tr *t, uint8_t type); /* i16/i32/i64 field (zigzag varint); a bool field's value */
/* binary: pointer into the file and length */
const uint8_t *ss_tr_binary(ss_tr *t, size_t *n);
/* a list header: element type and count (the count checked against the bytes left) */
bool ss_tr_list(ss_tr *t, uint8_t *etype, size_t *n);
void ss_tr_skip(ss_tr *t, uint8_t type);
uint64_t ss_tr_pos(const ss_tr *t);

/* A column of the row group read: a row each. */
typedef struct ss_pqr_col {
    uint8_t *defs; /* 1 a value, 0 null */
    int64_t *iv;   /* BOOLEAN, INT32, INT64 */
    uint32_t *off; /* BYTE_ARRAY, FIXED16: the value's bytes at data + off[i] */
    uint32_t *len; /* ... of len[i] bytes */
    uint8_t *data; /* the decompressed pages' bytes */
    size_t data_n, data_cap;
    size_t cap; /* rows the arrays hold */
} ss_pqr_col;

typedef struct ss_pqr_kv {
    char *key, *value;
} ss_pqr_kv;

typedef struct ss_pqr_chunk {
    int64_t start, size; /* the chunk's bytes: first page header, total_compressed_size */
    int64_t nvalues;
    int64_t dict; /* its dictionary page (dictionary_page_offset, = start), or -1: none */
    int32_t codec;
} ss_pqr_chunk;

/* The dictionary of the chunk being read: each value's bytes in its column's data. */
typedef struct ss_pqr_dict {
    uint32_t *off, *len;
    size_t n, cap;
} ss_pqr_dict;

typedef struct ss_pq_reader {
    const uint8_t *file;
    size_t len;
    const ss_pq_column *cols;
    size_t ncols;
    char *created_by;
    int64_t num_rows;
    ss_pqr_kv *kv;
    size_t nkv;
    size_t ngroups;
    int64_t *group_rows;  /* ngroups */
    ss_pqr_chunk *chunks; /* ngroups * ncols */
    ss_pqr_col *col;      /* ncols: the row group read last */
    size_t rows;          /* its rows */
    ss_pqbuf page;        /* a page decompressed */
    ss_pqr_dict dict;     /* the dictionary of the chunk read last */
    void *zd;             /* ZSTD_DCtx */
} ss_pq_reader;

/* Parse the footer of the file's bytes (file..file+len, which must outlive the reader) and
 * check its schema against cols[0..ncols) in order. SS_E_OK; SS_E_USAGE for a Parquet file
 * that is not of this schema or not segscan's (created_by); SS_E_BAD_EXPORT for one that is
 * not Parquet, cut short or corrupt; SS_E_NOMEM. err names the byte position. */
ss_errkind ss_pqr_open(ss_pq_reader *r, const uint8_t *file, size_t len, const ss_pq_column *cols, size_t ncols,
                       ss_error *err);
void ss_pqr_close(ss_pq_reader *r);
/* The footer's key-value metadata for key, NULL when absent. */
const char *ss_pqr_meta(const ss_pq_reader *r, const char *key);
/* n values of bw bits (32 at most) in the RLE/bit-packed hybrid (Encodings.md) from *p (moved past
 * them, below end) into out: NULL, or why not (a dictionary page's indices; for tests). */
const char *ss_pqr_hybrid(const uint8_t **p, const uint8_t *end, unsigned bw, int64_t *out, size_t n);
/* Decode row group g into r->col (r->rows rows). */
ss_errkind ss_pqr_read_group(ss_pq_reader *r, size_t g, ss_error *err);

static inline bool ss_pqr_null(const ss_pq_reader *r, size_t c, size_t row) { return !r->col[c].defs[row]; }
static inline int64_t ss_pqr_int(const ss_pq_reader *r, size_t c, size_t row) { return r->col[c].iv[row]; }
static inline const uint8_t *ss_pqr_bytes(const ss_pq_reader *r, size_t c, size_t row, uint32_t *n) {
    *n = r->col[c].len[row];
    return r->col[c].data + r->col[c].off[row];
}

#endif
