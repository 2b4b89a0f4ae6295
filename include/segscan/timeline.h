/* segscan - data partitions by time: which offsets a partition held at a given
 * time, how many records lie in a range of offsets, and its transactions,
 * from the headers of its batches.
 *
 * A consumer group's history (segscan/groups.h) says when a partition changed
 * hands or its committed offset moved; what the consumers could have read then
 * is in the data partition itself. Kafka appends batches in offset order, so
 * the records a partition held at time T are a prefix of its offsets: every
 * offset below its log end offset at T. segscan reads that end from each
 * batch's maxTimestamp:
 *   - under LogAppendTime (message.timestamp.type=LogAppendTime) maxTimestamp
 *     is the broker's append time: the end at T is the base offset of the
 *     first batch appended after T, exactly (within the brokers' clock skew);
 *   - under CreateTime (the default) it is the producer's clock. A record is
 *     created before it is appended, so a batch with maxTimestamp > T was
 *     appended after T, and the base offset of the first such batch is an
 *     upper bound of the end at T. It holds while no producer's clock runs
 *     ahead of the brokers'; a batch created before T and appended after it
 *     (linger.ms, retries, up to delivery.timeout.ms) is counted as present.
 * Each partition says which basis its batches gave (ss_tl_partition.basis).
 *
 * Only the batch headers are read (61 bytes each; control batches, whose
 * record says COMMIT or ABORT, and legacy entries whole), not checked against
 * their CRC: `segscan verify` does that. A header that cannot be a batch (bad
 * length or magic, an offset going back) ends the use of that segment, with a
 * note. Of several copies of one partition among the inputs (replicas) the
 * one that reaches furthest is read.
 *
 * The library never prints; notes are kept for the caller.
 */
#ifndef SEGSCAN_TIMELINE_H
#define SEGSCAN_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/analyze.h"
#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/inputs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What "present at time T" rests on. */
enum ss_tl_basis {
    SS_TL_NONE = 0,       /* no batch with a timestamp */
    SS_TL_LOG_APPEND = 1, /* every data batch is LogAppendTime: exact */
    SS_TL_CREATE = 2,     /* some data batch is CreateTime: an upper bound (the producers' clocks) */
};
/* "none", "LogAppendTime", "CreateTime" */
SS_API const char *ss_tl_basis_name(enum ss_tl_basis basis);

typedef struct ss_tl_partition {
    const ss_input_partition *input; /* the copy read */
    const char *topic;
    int32_t partition;
    size_t copies;        /* copies of this partition among the inputs (1: no replica) */
    uint64_t batches;     /* control batches included */
    uint64_t records;     /* data records (control records excluded) */
    int64_t first_offset; /* base offset of its first batch, -1 when none */
    int64_t next_offset;  /* last offset of its last batch + 1, -1 when none */
    int64_t log_start;    /* the first offset present: log-start-offset-checkpoint when above first_offset */
    int64_t max_timestamp;
    enum ss_tl_basis basis;
    bool complete; /* every segment was read to its end */
} ss_tl_partition;

/* A transaction of one producer in one partition: data batches, then a marker (or none yet). */
enum ss_tl_result { SS_TL_OPEN = 0, SS_TL_COMMIT = 1, SS_TL_ABORT = 2 };

typedef struct ss_tl_txn {
    int64_t producer_id;
    int16_t producer_epoch;            /* of its data */
    int16_t marker_epoch;              /* -1 while open */
    int64_t first_offset, last_offset; /* its data batches */
    int64_t marker_offset;             /* -1 while open */
    int64_t first_time;                /* maxTimestamp of its first batch */
    int64_t marker_time;               /* the marker batch's timestamp, -1 while open */
    enum ss_tl_result result;
    uint64_t records;
} ss_tl_txn;

typedef struct ss_timelines ss_timelines;

SS_API ss_timelines *ss_timelines_new(size_t max_batch_bytes);
SS_API void ss_timelines_free(ss_timelines *t);
/* Read the batch headers of every data partition (not internal: its topic does
 * not start with "__") among `in`, which must outlive t, with `threads` threads
 * (0: one per online CPU). Returns SS_E_OK or SS_E_NOMEM. */
SS_API ss_errkind ss_timelines_read(ss_timelines *t, const ss_inputs *in, unsigned threads);
/* The same, after an analysis `an` (which must outlive t) of the same PATHs: a partition whose
 * every batch it read whole (no damage, no tail, nothing skipped, one copy) has its batch
 * headers taken from it, the files not read again; the others are read. The timelines are
 * the same either way. */
SS_API ss_errkind ss_timelines_read_with(ss_timelines *t, const ss_inputs *in, unsigned threads, const ss_analysis *an);

SS_API size_t ss_timelines_count(const ss_timelines *t);
SS_API const ss_tl_partition *ss_timelines_at(const ss_timelines *t, size_t i);
/* The partition `topic`-`partition`, or NULL when it was not among the inputs. */
SS_API const ss_tl_partition *ss_timelines_find(const ss_timelines *t, const char *topic, size_t topic_len,
                                                int32_t partition);
/* The largest timestamp of any batch read, -1 when none. */
SS_API int64_t ss_timelines_max_timestamp(const ss_timelines *t);

/* The log end offset at `time`: the first offset not yet present then (see above;
 * under CreateTime an upper bound). log_start when nothing was, next_offset when
 * everything was. Thread-safe. */
SS_API int64_t ss_tl_end_at(const ss_tl_partition *p, int64_t time);
/* The data records present at offsets [from, to] (control records excluded;
 * records of aborted transactions included: a read_uncommitted consumer, Kafka's
 * default, receives them). Batches with offsets missing (compacted) are read to
 * count them. -1 when a batch could not be read. Not thread-safe (one decoder). */
SS_API int64_t ss_tl_records(ss_timelines *t, const ss_tl_partition *p, int64_t from, int64_t to);

/* One batch header read (in offset order), for a picture of the partition over time. */
typedef struct ss_tl_batch {
    int64_t base_offset, last_offset;
    int64_t max_timestamp; /* -1: none (magic 0) */
    int64_t producer_id;   /* -1: none (and for legacy entries) */
    int16_t producer_epoch;
    int32_t records;  /* data records it holds (0 for a control batch) */
    uint32_t segment; /* index in the partition's segments (input->segments) */
    bool control, transactional, log_append_time;
    bool commit, abort; /* a control batch's marker, when its record was read */
} ss_tl_batch;
SS_API size_t ss_tl_batch_count(const ss_tl_partition *p);
SS_API void ss_tl_batch_at(const ss_tl_partition *p, size_t i, ss_tl_batch *out);

/* Transactions, by producer id then first offset. */
SS_API size_t ss_tl_txn_count(const ss_tl_partition *p);
SS_API const ss_tl_txn *ss_tl_txn_at(const ss_tl_partition *p, size_t i);
/* The transactions of producer `pid`: *first is set to the first, the count is returned. */
SS_API size_t ss_tl_txns_of(const ss_tl_partition *p, int64_t pid, size_t *first);
/* The transaction holding data offset `offset`, or NULL. */
SS_API const ss_tl_txn *ss_tl_txn_holding(const ss_tl_partition *p, int64_t pid, int64_t offset);

/* Notes for the user (a segment whose headers stopped making sense, a file that
 * could not be opened), in partition order: problems (segscan/errors.h) of kind
 * SS_E_OK and their severity. */
SS_API const ss_problems *ss_timelines_problems(const ss_timelines *t);

#ifdef __cplusplus
}
#endif
#endif
