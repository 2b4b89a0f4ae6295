/* segscan - a consumer group's lag and status, as operators read them in
 * kafka-consumer-groups.sh and Burrow, from what is on disk.
 *
 * For each (group, topic, partition) of a group (segscan/groups.h) whose data
 * partition was read (segscan/timeline.h):
 *   - the log end offset at "now" (the first offset not yet present then,
 *     ss_tl_end_at) and the high watermark of replication-offset-checkpoint
 *     when the log directory's root was given (kafka-consumer-groups.sh's LAG
 *     is against the high watermark: the admin client's ListOffsets "latest"
 *     of a read_uncommitted reader; the checkpoint holds it as it was when the
 *     broker last wrote the file, every replica.high.watermark.checkpoint.
 *     interval.ms, not at "now");
 *   - the lag in records (log end - committed offset, 0 when the committed
 *     offset is past it, as Burrow counts it) and in time: the age of the first
 *     unconsumed record, from the maxTimestamp of the batch holding it (under
 *     LogAppendTime its append time, exact; under CreateTime the largest
 *     producer's timestamp of that batch, so the age is a lower bound);
 *   - the same at the last commit (the log end at the commit's time);
 *   - Burrow's status, by linkedin/Burrow core/internal/evaluator/caching.go
 *     (calculatePartitionStatus) over the last SS_LAG_INTERVALS commits that
 *     became the committed offset (Burrow's storage.intervals, default 10;
 *     core/internal/storage/inmemory.go addConsumerOffset stores each commit
 *     with the lag against the broker's offset at its time: here the log end at
 *     the commit's time, which under CreateTime is an upper bound, see
 *     segscan/timeline.h). A deletion of the committed offset starts the window
 *     again (the offsets before it are gone from Kafka's state too).
 * Without the data partition the lag is unknown and so is the status: every
 * rule of Burrow starts from the lag. A "now" before the last commits looks at
 * the window as it stood then, from the commits kept (the log's last
 * SS_LAG_INTERVALS): fewer of them, and unknown before the first kept.
 *
 * Computed on demand, for the group last returned by ss_groups_at, from the
 * commits the history kept while it was read with the data partitions
 * (ss_groups_opts.data): nothing is stored beyond the window.
 * The library never prints.
 */
#ifndef SEGSCAN_LAG_H
#define SEGSCAN_LAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/export.h"
#include "segscan/groups.h"
#include "segscan/timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Burrow's storage.intervals default: the commits its evaluator looks at */
#define SS_LAG_INTERVALS 10

/* Burrow's StatusConstant (core/protocol/evaluator.go) in its order, and UNKNOWN: not evaluated */
enum ss_lag_status {
    SS_LAG_UNKNOWN = 0, /* the lag is unknown (no data partition, no committed offset): no rule applies */
    SS_LAG_OK = 1,
    SS_LAG_WARN = 2,   /* Rule 5: the lag never decreased over the window while the consumer committed */
    SS_LAG_ERR = 3,    /* a group only: a partition is STOP, STALL or REWIND */
    SS_LAG_STOP = 4,   /* Rule 3: no commit for longer than the window spans */
    SS_LAG_STALL = 5,  /* Rule 4: every commit of the window committed the same offset */
    SS_LAG_REWIND = 6, /* Rule 2: a commit of the window moved the offset back */
};
/* "unknown", "OK", "WARN", "ERR", "STOP", "STALL", "REWIND" */
SS_API const char *ss_lag_status_name(int status);

/* Why a partition's lag is unknown (ss_plag.why). */
enum ss_lag_why {
    SS_LAGW_KNOWN = 0,
    SS_LAGW_NO_DATA = 1,   /* the data partition was not among the inputs read */
    SS_LAGW_NO_COMMIT = 2, /* no committed offset stands at the end (never committed, or deleted) */
    SS_LAGW_NO_TOPIC = 3,  /* the topic is known by id only: no data partition can be matched */
    SS_LAGW_NOT_KEPT = 4,  /* no commit kept up to "now": the history was read without the data
                              partitions (opts.data NULL), memory ran out, or "now" is before the
                              last SS_LAG_INTERVALS commits */
};
/* "known", "no-data-partition", "no-committed-offset", "topic-unknown", "not-kept" */
SS_API const char *ss_lag_why_name(int why);

/* One commit of Burrow's window: its commitTimestamp, the offset, the log end at that time and
 * Burrow's lag (log end - offset, 0 when negative). */
typedef struct ss_lag_commit {
    int64_t time, offset, log_end, lag;
} ss_lag_commit;

typedef struct ss_plag {
    int why;                /* enum ss_lag_why */
    int basis;              /* enum ss_tl_basis of the data partition (LogAppendTime: exact) */
    int64_t committed;      /* the committed offset at "now" (-1 none): at the end of the log, or with
                               a "now" before the last commits, the last commit kept up to it (the
                               commits are kept with the data partitions only: without, the end's) */
    int64_t commit_time;    /* its commitTimestamp, -1 none */
    bool before_end;        /* "now" is before commits of the window: the window and the committed
                               offset are those kept up to "now" (the last SS_LAG_INTERVALS of the log
                               only: an earlier commit is not kept) */
    int64_t now;            /* the "now" the lag is at */
    int64_t log_end;        /* at now, -1 unknown */
    int64_t high_watermark; /* replication-offset-checkpoint, -1 when not read */
    int64_t lag;            /* records: log_end - committed, 0 when negative; -1 unknown */
    int64_t lag_hw;         /* high_watermark - committed, 0 when negative; -1 unknown */
    int64_t age_ms;         /* now - timestamp of the first unconsumed record (0: nothing unconsumed); -1 unknown */
    int64_t log_end_at_commit, lag_at_commit, age_at_commit_ms; /* the same at commit_time; -1 unknown */
    size_t ncommits; /* the window, oldest first: the last SS_LAG_INTERVALS commits that became the
                        committed offset since its last deletion */
    ss_lag_commit commits[SS_LAG_INTERVALS];
    int status; /* enum ss_lag_status */
    /* what decided it: 1 rule 1 (the lag was zero in the window or is zero now: OK), 2..5 rules
     * 2..5, 0 none held (OK) or unknown */
    int rule;
} ss_plag;

/* Partition k (of npartitions) of the group ss_groups_at(g, gi) returns, with the data partitions
 * `tl` (NULL: none read) and `now` (ms). False when gi or k is out of range. */
SS_API bool ss_group_lag(ss_groups *g, size_t gi, size_t k, const ss_timelines *tl, int64_t now, ss_plag *out);

/* A group's status as Burrow's evaluator sums it (caching.go, evaluateConsumerStatus): its worst
 * partition, ERR at most. Partitions of unknown status: the group's is ERR when a known one says so
 * (whatever the others), else unknown while any is unknown. */
typedef struct ss_glag {
    int status;          /* enum ss_lag_status: OK, WARN, ERR or UNKNOWN */
    int worst;           /* the worst partition status known (SS_LAG_UNKNOWN: none known) */
    size_t partitions;   /* partitions of the group */
    size_t evaluated;    /* of them, with a known status */
    int64_t total_lag;   /* the sum of the known lags, -1 when none is known */
    int64_t max_lag;     /* the largest known lag, -1 none */
    size_t max_lag_part; /* its partition index */
} ss_glag;
SS_API bool ss_group_lag_sum(ss_groups *g, size_t gi, const ss_timelines *tl, int64_t now, ss_glag *out);

#ifdef __cplusplus
}
#endif
#endif
