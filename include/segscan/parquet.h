/* segscan - a Parquet file written with a fixed schema: flat, every column
 * OPTIONAL, rows added one value a column at a time and streamed out in row
 * groups of a fixed number of rows (memory bounded by one row group), zstd
 * pages, no statistics. Follows the Apache Parquet format specification
 * (parquet-format: README "File format", "Metadata", "Data Pages";
 * Encodings.md; parquet.thrift). The library writes the file; it prints
 * nothing.
 */
#ifndef SEGSCAN_PARQUET_H
#define SEGSCAN_PARQUET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* parquet.thrift's Type (physical types); SS_PQ_FIXED16 is FIXED_LEN_BYTE_ARRAY(16). */
enum ss_pq_type {
    SS_PQ_BOOLEAN = 0,
    SS_PQ_INT32 = 1,
    SS_PQ_INT64 = 2,
    SS_PQ_BYTE_ARRAY = 6,
    SS_PQ_FIXED16 = 7,
};

typedef struct ss_pq_column {
    const char *name;
    enum ss_pq_type type;
    bool utf8; /* a BYTE_ARRAY of UTF-8 text (ConvertedType UTF8, LogicalType STRING) */
    bool hash; /* the values are hashes (uniformly random bits): written PLAIN and uncompressed,
                * as neither DELTA_BINARY_PACKED nor zstd makes them smaller */
    bool dict; /* a BYTE_ARRAY of few distinct, short values (a batch's strings): dictionary
                * encoded where the writer keeps it as runs (its dictionary at most
                * SS_PQ_DICT_MAX_BYTES, else PLAIN); a reader takes a dictionary only here */
} ss_pq_column;

/* A dictionary's size (its values PLAIN) past which the writer writes a chunk PLAIN (parquet-mr's
 * writers fall back from 1 MiB too: parquet.dictionary.page.size) and the reader refuses one. */
#define SS_PQ_DICT_MAX_BYTES ((size_t)1 << 20)

typedef struct ss_pq_writer ss_pq_writer;

/* Create (truncate) path for columns cols[0..ncols) (the array and its names must outlive the
 * writer), row groups of rows_per_group rows (a row group also ends when its buffered values pass
 * 64 MiB). created_by: FileMetaData.created_by. NULL with err filled (SS_E_IO, SS_E_NOMEM). */
SS_API ss_pq_writer *ss_pq_create(const char *path, const ss_pq_column *cols, size_t ncols, size_t rows_per_group,
                                  const char *created_by, ss_error *err);
/* A row: one value for each column, in column order, then ss_pq_row_end. */
SS_API void ss_pq_null(ss_pq_writer *w);
SS_API void ss_pq_bool(ss_pq_writer *w, bool v);
SS_API void ss_pq_i32(ss_pq_writer *w, int32_t v);
SS_API void ss_pq_i64(ss_pq_writer *w, int64_t v);
/* BYTE_ARRAY (any length below 2 GiB) or FIXED16 (n must be 16) */
SS_API void ss_pq_bytes(ss_pq_writer *w, const void *p, size_t n);
SS_API void ss_pq_str(ss_pq_writer *w, const char *s); /* NULL: null */
/* A whole row at once, one value a column (the fast way: one call a row). For BOOLEAN, INT32
 * and INT64 the value is i; for BYTE_ARRAY and FIXED16 the n bytes at p (n must be 16 for
 * FIXED16). */
typedef struct ss_pq_value {
    int64_t i;
    const void *p;
    size_t n;
    bool null;
} ss_pq_value;
SS_API ss_errkind ss_pq_row(ss_pq_writer *w, const ss_pq_value *values, ss_error *err);
/* The row is complete: SS_E_OK, or an error (SS_E_USAGE a row of the wrong shape, SS_E_IO,
 * SS_E_NOMEM) after which the writer only accepts ss_pq_abort. */
SS_API ss_errkind ss_pq_row_end(ss_pq_writer *w, ss_error *err);
/* A key-value pair of the footer (FileMetaData.key_value_metadata); copied. */
SS_API ss_errkind ss_pq_meta(ss_pq_writer *w, const char *key, const char *value, ss_error *err);
SS_API uint64_t ss_pq_rows(const ss_pq_writer *w);
/* Write the last row group and the footer, close and free the writer (on an error the file is
 * removed, as ss_pq_abort does). A thread writes each row group while the next is filled. */
SS_API ss_errkind ss_pq_finish(ss_pq_writer *w, ss_error *err);
/* Close and free the writer, and remove the incomplete file (a regular file: not a device). */
SS_API void ss_pq_abort(ss_pq_writer *w);

#ifdef __cplusplus
}
#endif
#endif
