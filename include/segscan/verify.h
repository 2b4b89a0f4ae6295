/* segscan - verify: every check that can be made from the files of a
 * partition directory, each finding tied to a file and a byte position.
 *
 * What is checked (DESIGN.md section 3 gives the on-disk facts):
 *   .log         batch CRCs and framing; offsets increasing within a segment
 *                and across segments (compaction gaps are fine, overlaps are
 *                not); each file name <= its first batch's base offset and >
 *                the previous segment's last offset; an incomplete tail.
 *   .index       each entry at a batch boundary whose batch has baseOffset <=
 *                the entry's offset, the offset being the last offset of a
 *                batch at or after that position (the broker indexes whole
 *                appends, several batches on a follower); entries increasing;
 *                no entry past the end of the log.
 *   .timeindex   entries increasing; each (T, O) names an offset O inside a
 *                batch whose maxTimestamp is T (Kafka 2.x-3.x index the record
 *                carrying the maximum timestamp, others the batch's last
 *                offset: both are fine); no entry past the end of the log.
 *                A zero-filled preallocated tail beside the active (last)
 *                segment is not a finding.
 *   .txnindex    every entry matches an ABORT marker of its producer in the
 *                segment and every ABORT marker has its entry (with the
 *                transaction's first offset and the last stable offset).
 *   .snapshot    every producer snapshot's CRC; the newest readable one agrees
 *                with the producer state the log implies at its offset (epoch,
 *                last sequence, last offset, open transaction). Entries the
 *                log cannot explain (data in deleted segments, expired
 *                producers, no batch metadata) are information.
 *   leader-epoch-checkpoint   entries increasing; each batch's
 *                partitionLeaderEpoch is the epoch the checkpoint gives its
 *                offset, and no epoch starts inside a batch.
 *   partition.metadata, quorum-state   readable by Kafka; the quorum's epoch
 *                not below the metadata log's last epoch.
 *   the log directory's checkpoints, meta.properties, .kafka_cleanshutdown
 *                (ss_verify_log_dirs)   readable by Kafka; each checkpoint
 *                entry within its partition's log (segscan/files.h's
 *                ss_textfile_check, which dump runs too).
 *
 * The library never prints: findings are handed to a callback in the order
 * they are found (per partition: the segments in offset order, each .log then
 * its .index, .timeindex and .txnindex; then snapshots; then the
 * leader-epoch-checkpoint, partition.metadata and quorum-state). Files are opened read-only; nothing is created.
 */
#ifndef SEGSCAN_VERIFY_H
#define SEGSCAN_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/inputs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How much a finding weighs, in verify's four words; the exit code follows
 * it (DESIGN.md section 5). It is the problem's severity (segscan/errors.h)
 * and, for an error, its kind's class:
 *   "info"           SS_SEV_NOTICE                                 exit 0
 *   "inconsistency"  SS_SEV_WARNING                                exit 1
 *   "damage"         SS_SEV_ERROR, a damage kind (ss_errkind_is_damage)  exit 3
 *   "error"          SS_SEV_ERROR, another kind (a file could not be read) exit 2 */
SS_API const char *ss_verify_level_name(ss_severity severity, ss_errkind kind);

/* A finding: which check, where (partition, file, Kafka offset), and the
 * problem (an ss_error): the check's kind (ss_vcheck_at), the severity (the
 * check's, or SS_SEV_NOTICE for a check of the producer state on a compacted
 * partition), the byte position in the file, base offset -1, the message
 * (one line, without the file name). */
typedef struct ss_vfinding {
    const char *check;     /* stable name (see ss_vcheck_at) */
    const char *partition; /* the input partition's name */
    const char *file;      /* path of the file concerned */
    int64_t offset;        /* Kafka offset concerned, -1 when none */
    ss_error problem;
} ss_vfinding;

/* The checks, for the manual and --help: false past the end. A check's
 * findings have its kind and, unless said otherwise, its severity. */
SS_API bool ss_vcheck_at(size_t i, const char **name, ss_severity *severity, ss_errkind *kind, const char **desc);

/* What was checked. ss_verify_partition adds to it. */
typedef struct ss_vstats {
    uint64_t partitions;
    uint64_t segments; /* .log files read */
    uint64_t log_bytes;
    uint64_t batches, control_batches, abort_markers;
    uint64_t index_files, index_entries;
    uint64_t timeindex_files, timeindex_entries;
    uint64_t txnindex_files, txnindex_entries;
    uint64_t snapshot_files, snapshot_entries; /* entries of the snapshot compared with the log */
    uint64_t snapshots_compared;               /* snapshots cross-checked with the log (0 or 1 a partition) */
    uint64_t producers;                        /* producer ids the log implies */
    uint64_t epoch_files, epoch_entries;
    uint64_t text_files; /* partition.metadata, quorum-state and the log directories' text files read */
    /* findings by weight (ss_verify_level_name) */
    uint64_t info, inconsistencies, damage, errors;
} ss_vstats;

typedef struct ss_verify_opts {
    size_t max_batch_bytes; /* cap on a decompressed batch (0: SS_DEFAULT_MAX_BATCH_BYTES) */
} ss_verify_opts;

SS_API void ss_verify_opts_default(ss_verify_opts *o);

typedef void (*ss_verify_cb)(void *ctx, const ss_vfinding *f);

/* Verify partition i of `in` (resolved with ss_inputs_finish). Findings are
 * passed to cb (the pointer is valid during the call only); stats are added
 * to. Returns SS_E_OK, or SS_E_NOMEM when the checks could not be completed
 * (an ERROR finding says so too). A partition given as single segment files
 * (not its whole directory) is checked as far as those files allow: the
 * snapshot and leader-epoch checks need every segment and are then left out
 * with an INFO finding. */
SS_API ss_errkind ss_verify_partition(const ss_inputs *in, size_t i, const ss_verify_opts *opts, ss_verify_cb cb,
                                      void *ctx, ss_vstats *stats);

/* The text files of the log directories among the inputs (the directories
 * holding partition directories that were found inside a PATH, not named on
 * their own): recovery-point-offset-checkpoint, replication-offset-checkpoint,
 * log-start-offset-checkpoint, cleaner-offset-checkpoint, meta.properties,
 * .kafka_cleanshutdown, read and checked as segscan/files.h's
 * ss_textfile_check checks them against the partition directories beside them.
 * Findings name the log directory as their partition. Returns SS_E_OK or
 * SS_E_NOMEM. */
SS_API ss_errkind ss_verify_log_dirs(const ss_inputs *in, const ss_verify_opts *opts, ss_verify_cb cb, void *ctx,
                                     ss_vstats *stats);

#ifdef __cplusplus
}
#endif
#endif
