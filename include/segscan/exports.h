/* segscan - a partition's records exported to a Parquet file (segscan/parquet.h):
 * a row per record, transaction markers as control rows, with the value's
 * fingerprint (the analysis's XXH3-128) so that duplicates can be counted
 * over many brokers' exports by any Parquet reader. The columns are
 * SS_EXPORT_COLUMNS' (docs: man/segscan.1, export). The internal topics'
 * records carry their key and value bytes whole.
 */
#ifndef SEGSCAN_EXPORTS_H
#define SEGSCAN_EXPORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/inputs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ss_export_opts {
    const char *command_line; /* for the file's metadata (segscan.command); NULL: none */
    bool has_broker_id;       /* broker_id given (--broker-id): it wins over meta.properties */
    int32_t broker_id;
    size_t rows_per_group;  /* 0: SS_EXPORT_ROWS_PER_GROUP */
    size_t max_batch_bytes; /* decompressed size of a batch at most; 0: 256 MiB */
} ss_export_opts;

#define SS_EXPORT_ROWS_PER_GROUP ((size_t)1 << 17)

typedef struct ss_export_stats {
    uint64_t rows;       /* records and markers written */
    uint64_t markers;    /* of them, control records */
    uint64_t partitions; /* partitions read */
    uint64_t damage;     /* damaged regions, unreadable segments, batches whose records could not be read */
} ss_export_stats;

typedef struct ss_export ss_export;

SS_API ss_export *ss_export_new(void);
SS_API void ss_export_free(ss_export *x);
/* Write every partition of in to path (created or truncated). SS_E_OK when the file was
 * written (damage in the inputs is reported as problems, and skipped); else the error
 * (SS_E_IO, SS_E_NOMEM: err says why and where) and no file is left. */
SS_API ss_errkind ss_export_write(ss_export *x, const ss_inputs *in, const char *path, const ss_export_opts *o,
                                  ss_error *err);
SS_API const ss_export_stats *ss_export_stats_get(const ss_export *x);
/* The damage met, each naming its file and byte position, in the order met. */
SS_API const ss_problems *ss_export_problems(const ss_export *x);
/* The columns, in file order (name and Parquet type as ss_pq_column says). */
SS_API size_t ss_export_column_count(void);
SS_API const char *ss_export_column_name(size_t i);

#ifdef __cplusplus
}
#endif
#endif
