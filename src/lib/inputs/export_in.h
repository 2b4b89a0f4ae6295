/* segscan - a segscan export read back as partitions (internal, for inputs.c).
 *
 * An export (segscan export --fingerprints, the exports room) holds a row per
 * record. Reading it as an input rebuilds each partition's log in memory as
 * Kafka's v2 record batches, one per (source, baseOffset) of the rows, with
 * every field the rows carry (offsets, timestamps and their type, producer
 * id, epoch and sequence, leader epoch, the transactional and control flags,
 * the markers' type and coordinator epoch), so that every reader of a
 * partition reads it as it reads a directory. What the rows do not carry is
 * not made up:
 *  - a data topic's key and value are not in the export: each record's value
 *    is an export cell (below) holding the fingerprints and sizes the export
 *    carries, which the analysis takes as its fingerprint (ss_xcell_read)
 *    instead of hashing; the key is null;
 *  - the internal topics' records carry their key and value whole;
 *  - record headers are not in the export (none is rebuilt);
 *  - the batch's compression (its `compression` column) is kept in attribute
 *    bits 8-10, which Kafka leaves unused (DefaultRecordBatch: bits 0-6), the
 *    records being stored uncompressed.
 */
#ifndef SS_INPUTS_EXPORT_IN_H
#define SS_INPUTS_EXPORT_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"

/* A data record's value in a rebuilt batch: flags (1: value fingerprint, 2: key fingerprint),
 * the value's XXH3-128 (16 bytes, high then low, big-endian), the key's high 64 bits, the key's
 * and the value's sizes (int32, -1 null), big-endian. */
#define SS_XCELL_SIZE 33
#define SS_XCELL_CODEC_SHIFT 8 /* the batch's codec in its attribute bits 8-10 */

static inline uint64_t ss_xcell_be64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

/* A rebuilt data record's cell: its value fingerprint (false when it has none: a null value),
 * and its value's size. */
static inline bool ss_xcell_read(const uint8_t *v, int32_t n, uint64_t *hi, uint64_t *lo, int32_t *value_size) {
    if (n != SS_XCELL_SIZE || !v) return false;
    *value_size = (int32_t)((uint32_t)v[29] << 24 | (uint32_t)v[30] << 16 | (uint32_t)v[31] << 8 | v[32]);
    if (!(v[0] & 1)) return false;
    *hi = ss_xcell_be64(v + 1);
    *lo = ss_xcell_be64(v + 9);
    return true;
}

/* The temporary file the rebuilt logs of an export read from a file are written to (unlinked:
 * gone when the last mapping goes), mapped read-only: its pages are the page cache's, which the
 * kernel can drop and read back, not the process's anonymous memory. Each partition whose log
 * is in it holds a reference; the last one released unmaps it. One thread releases them. */
typedef struct ss_xmap {
    uint8_t *base;
    size_t len;
    size_t refs;
} ss_xmap;
void ss_xmap_release(ss_xmap *m);

typedef struct ss_xpart {
    char *topic;
    int32_t partition;
    int32_t broker;    /* the rows' broker column, -1 null */
    int32_t source;    /* its index in the export */
    int64_t log_start; /* the export's metadata: logStartOffsetCheckpoint, -1 */
    int64_t hwm;       /* highWatermark, -1 */
    char *topic_id;    /* topicId, NULL */
    uint64_t damage;   /* damaged regions the export's writer met in it (its metadata) */
    uint8_t *mem;      /* the rebuilt log: in map when map is set (read-only), else malloc'd */
    size_t len;
    ss_xmap *map; /* a reference to the mapping holding mem, NULL */
    uint64_t off; /* where in the temporary file (while it is written) */
} ss_xpart;

typedef struct ss_xfile {
    ss_xpart *v;
    size_t n, cap;
    char *cluster_id; /* kafka.cluster.id, NULL */
    int32_t node_id;  /* kafka.node.id, -1 */
    char *version;    /* segscan.version */
} ss_xfile;

/* Does the file start with Parquet's magic ("PAR1")? */
bool ss_xfile_is_parquet(const char *path);
/* Read an export: SS_E_OK, or the error (err: its byte position and why; SS_E_USAGE for a
 * Parquet file that is not a segscan export, SS_E_BAD_EXPORT for one cut short or corrupt,
 * SS_E_IO, also for a temporary file that cannot be written, SS_E_NOMEM) and nothing kept.
 * The file is mapped, not copied, and the rebuilt logs are written to one temporary file in
 * $TMPDIR (else /tmp), as the analysis's spill files, and mapped (ss_xmap): the memory it takes is bounded by one
 * decoded row group (up to its rows' columns), the largest batch and a write buffer, whatever the export's size. */
ss_errkind ss_xfile_read(const char *path, ss_xfile *x, ss_error *err);
/* The same of an export's bytes in memory (len of them; the fuzz target's way in), the rebuilt
 * logs held in memory. */
ss_errkind ss_xfile_from_memory(const uint8_t *buf, size_t len, ss_xfile *x, ss_error *err);
void ss_xfile_free(ss_xfile *x);

#endif
