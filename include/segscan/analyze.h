/* segscan - forensic analysis of Kafka partitions (public API of libsegscan).
 *
 * ss_analysis (over the partitions of an ss_inputs, segscan/inputs.h): one pass over every partition: per-record fingerprints in an
 *                open-addressing table (fixed size per record, no payload
 *                copies), duplicate groups and the cause of every copy,
 *                producer sessions and sequences, transactions, LSO. Segments
 *                (and large segments in pieces of a few MiB) are read by
 *                opts.threads threads and applied in order by the calling
 *                one, so results never depend on the number of threads.
 *
 * Windows (since/until, from/to offset, producer id) restrict what is listed,
 * never what is known: every batch of every partition is read and counts
 * (markers, the LSO, producer sessions, sequences, "now", fingerprints); the
 * sessions, transactions and groups listed are those with a batch or a copy in
 * the window, with the figures of the whole log, and the partition figures
 * count what is listed.
 *
 * Semantics: DESIGN.md section 4 and the segscan(1) manual. The library never
 * prints; notes for the user are kept as strings the caller may print.
 */
#ifndef SEGSCAN_ANALYZE_H
#define SEGSCAN_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/decode.h"
#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/inputs.h"
#include "segscan/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- options ---------------------------------------------------------------- */

enum ss_by { SS_BY_VALUE = 0, SS_BY_KEY = 1, SS_BY_KEY_VALUE = 2 };
SS_API const char *ss_by_name(enum ss_by by); /* "value", "key", "key+value" */

enum ss_match_kind {
    SS_MATCH_NONE = 0,
    SS_MATCH_VALUE,          /* value equals the bytes */
    SS_MATCH_VALUE_CONTAINS, /* value contains the bytes */
    SS_MATCH_KEY,            /* key equals the bytes */
    SS_MATCH_OFFSET,         /* partition name (or directory name) and offset */
};

/* Progress of a run, for a display (ss_an_opts.progress). */
typedef struct ss_an_progress {
    uint64_t bytes_done, bytes_total; /* segment bytes read (or skipped) and in all */
    uint64_t records;                 /* records read so far */
    const char *file;                 /* the segment just read (NULL with done, or a note) */
    bool done;                        /* the last call: reading is over */
} ss_an_progress;

/* Called by the thread that called ss_analysis_run, after each unit of reading
 * (a segment, or a few MiB of a large one) and once at the end (done). It must
 * not call back into the analysis. */
typedef void (*ss_an_progress_fn)(void *arg, const ss_an_progress *p);

typedef struct ss_an_opts {
    enum ss_by by;
    uint64_t min_bytes;     /* fingerprinted field shorter than this: not grouped */
    bool across_topics;     /* group copies across topics too */
    bool include_internal;  /* fingerprint internal topics found inside a log directory */
    int64_t txn_timeout_ms; /* default 900000 (15 min): Kafka's find-hanging --max-transaction-timeout */
    bool has_now;
    int64_t now_ms;      /* "now" for the age of open transactions; else the newest maxTimestamp of
                          * every batch read, in any partition */
    bool now_wall_clock; /* now_ms is the caller's wall clock (said so in ss_an_now) */
    /* windows: what is listed (INT64_MIN / INT64_MAX: open); every batch is read whatever they are */
    int64_t since_ms, until_ms;
    int64_t from_offset, to_offset;
    bool filter_pid;
    int64_t producer_id;
    size_t max_batch_bytes; /* 0: SS_DEFAULT_MAX_BATCH_BYTES */
    bool no_seek;           /* no effect: the analysis reads every batch, whatever the window */
    /* explain */
    enum ss_match_kind match;
    const uint8_t *match_bytes;
    size_t match_len;
    const char *match_partition;
    int64_t match_offset;
    size_t max_matches; /* 0: 10000 */
    /* speed and size */
    unsigned threads;    /* reading threads, the caller's included; 0: one per online CPU.
                               * Results never depend on it. */
    uint64_t max_memory; /* bytes the fingerprint tables may take before they spill to
                               * temporary files (grouped one bucket at a time afterwards, with
                               * the same results); 0: no limit */
    const char *tmpdir;  /* where spills go; NULL: $TMPDIR, else /tmp */
    /* no value fingerprints: no copy is grouped, so the duplicate figures, the groups, their
     * causes and explain's matches' groups stay empty (0); every other result is the same. For a
     * caller that prints none of them (txns and producers as text): XXH3 of every record and the
     * fingerprint table are the largest part of the reading after decoding. */
    bool no_fingerprints;
    /* the __consumer_offsets and __transaction_state segments read are read whole into memory,
     * up to this many bytes in all, and kept until ss_analysis_free for the consumer-groups study
     * that follows it (ss_study_opts.analysis) and for ss_analysis_txn_state_ids, which read them
     * there: each file is read once. 0 (the default): none kept. A file past the budget is read
     * again. */
    uint64_t keep_offsets_bytes; /* the commands' choice: ss_an_keep_budget(max_memory) */
    ss_an_progress_fn progress;  /* or NULL */
    void *progress_arg;
} ss_an_opts;

SS_API void ss_an_opts_default(ss_an_opts *o);

/* ---- results -------------------------------------------------------------- */

enum ss_cause {
    SS_CAUSE_NONE = 0, /* the original copy */
    SS_CAUSE_ABORTED,
    SS_CAUSE_CROSS_PARTITION,
    SS_CAUSE_RETRY,
    SS_CAUSE_RESEND, /* resend-no-idempotence */
    SS_CAUSE_DUP_SEQUENCE,
    SS_CAUSE_SAME_SESSION,
    SS_CAUSE_NEW_SESSION,
    SS_CAUSE_UPDATE,      /* --by key: the same key with a different value */
    SS_CAUSE_CROSS_TOPIC, /* --across-topics: a copy in another topic */
    SS_CAUSE_COUNT
};
/* "aborted", "cross-partition", "retry", "resend-no-idempotence", "dup-sequence",
 * "same-session", "new-session", "update", "cross-topic"; NULL for SS_CAUSE_NONE. */
SS_API const char *ss_cause_name(enum ss_cause cause);

/* new-session details (bits) */
enum { SS_NEWSESS_PID = 1, SS_NEWSESS_EPOCH = 2, SS_NEWSESS_TXN_V2_HINT = 4 };

typedef struct ss_an_partition {
    const ss_input_partition *input;
    uint64_t segments, segments_unreadable;
    uint64_t records; /* data records (control records excluded) */
    uint64_t batches; /* control batches included */
    uint64_t control_records, control_batches;
    int64_t first_offset; /* base offset of the first batch read, -1 if none */
    int64_t next_offset;  /* last offset of the last batch + 1, -1 if none */
    bool has_timestamps;
    int64_t min_timestamp, max_timestamp; /* record timestamps (>= 0 only) */
    int64_t max_batch_timestamp;          /* largest maxTimestamp of every batch read (window or not), -1 if none */
    uint64_t codec_batches[8];            /* by codec id 0..4; [7]: unknown */
    uint64_t magic_batches[3];
    uint64_t duplicate_groups;  /* groups with a non-original copy here */
    uint64_t duplicate_records; /* non-original copies here */
    uint64_t max_copies;        /* most copies of one fingerprint here; 1 none repeats; 0 empty */
    uint64_t fingerprinted_records;
    bool dups_excluded; /* internal topic left out of the duplicate analysis */
    uint64_t producers, sessions, non_idempotent_records;
    uint64_t sequence_gaps; /* missing ranges not explained by compaction or retention */
    uint64_t sequence_gaps_explained;
    uint64_t duplicate_sequences; /* records whose pid/epoch/sequence was already seen */
    uint64_t out_of_order_batches, epoch_bumps;
    /* the log shows cleaning: records missing inside batches read whole, empty batches, a
     * delete horizon, or a cleaner-offset-checkpoint entry above the first offset (an offset
     * hole alone is not: records lost leave one too; nor is damage) */
    bool compacted;
    uint64_t offset_gaps;
    /* records in damaged entries whose header is still readable, and the offsets they
     * span (lost_first -1: none); lost_unknown: damage met whose records cannot be counted */
    uint64_t lost_records;
    int64_t lost_first, lost_last;
    bool lost_unknown;
    /* offsets going backwards (offset-order damage): the batches whose base offset is not above
     * the last offset read before them in their segment. Their records repeat offsets already
     * read: not copies, left out of every figure (sessions, transactions, the LSO, duplicates).
     * repeated_first..repeated_last: the offsets they span (-1: none); recovery_keeps_below:
     * the base offset of the first segment holding them, below which Kafka's recovery keeps
     * the log (LogLoader.recoverLog truncates that segment to its base offset), -1 none. */
    uint64_t repeated_batches, repeated_records;
    int64_t repeated_first, repeated_last, recovery_keeps_below;
    /* the holes listed (ss_an_hole_at) and the offsets they miss; cleaner_evidence: evidence of
     * the log cleaner was read (see ss_an_hole) */
    uint64_t holes, hole_records;
    bool cleaner_evidence;
    /* the topic's cleanup.policy as the latest ConfigRecord (resourceType TOPIC) of the
     * __cluster_metadata read says it (among the inputs, or beside a partition directory read),
     * NULL when none was read or the key was deleted; compact_policy: a ConfigRecord read set it
     * with "compact" (the cleaner may have run: a hole is then explained as its work), and the
     * topic was not deleted since */
    const char *cleanup_policy;
    bool compact_policy;
    /* transactions listed, by result; txn_unknown: no marker in the segments read, and a later
     * segment of the partition was not given */
    uint64_t txn_committed, txn_aborted, txn_open, txn_empty, txn_hanging, txn_unknown;
    uint64_t txn_age_unknown;   /* open ones whose age is unknown (nothing later seen, no --now) */
    uint64_t txn_empty_aborted; /* of txn_empty, the aborted ones (the others committed) */
    uint64_t aborted_records;   /* records of the window in aborted transactions */
    uint64_t open_txn_records;  /* records of the open transactions listed */
    int64_t now_ms;             /* the "now" of the run (ss_an_now) */
    int64_t lso;                /* last stable offset, -1 if no batch or unknown (lso_unknown) */
    bool lso_unknown;           /* a later segment of the partition was not given */
    bool lso_bounded_by_hw;
    uint64_t read_committed_records; /* of the window's records (below the first transaction of unknown outcome) */
    uint64_t damaged_bytes;          /* mid-file damage; a CRC-failed batch in full */
    uint64_t damage_events;
    uint64_t tail_bytes; /* incomplete or zero tail of the segments */
    uint64_t skipped_large_batches;
    uint64_t hidden_below_log_start; /* data records below the checkpoint's log start offset */
    uint64_t outside_window;         /* data records outside --since/--until/--from/--to/--producer-id:
                                      * read and known, not listed or counted */
    uint64_t incomplete_tail_bytes;  /* of tail_bytes: a last batch cut short (not zeros) */
} ss_an_partition;

typedef struct ss_an_totals {
    uint64_t partitions, segments;
    uint64_t records, batches, control_records;
    uint64_t duplicate_groups, duplicate_records, max_copies;
    uint64_t producers, sessions, non_idempotent_records;
    uint64_t sequence_gaps, sequence_gaps_explained, duplicate_sequences, out_of_order_batches, epoch_bumps;
    uint64_t txn_committed, txn_aborted, txn_open, txn_empty, txn_hanging, txn_unknown, txn_age_unknown;
    uint64_t read_committed_records;
    uint64_t damaged_bytes, tail_bytes, skipped_large_batches;
    uint64_t cause[SS_CAUSE_COUNT];
    uint64_t open_copies;
} ss_an_totals;

/* One copy of a record (an occurrence of a fingerprint). */
typedef struct ss_an_copy {
    uint32_t partition; /* index in the analysis (== inputs index) */
    int64_t offset, timestamp;
    int64_t producer_id;
    int16_t producer_epoch;
    int32_t sequence; /* -1 without producer */
    bool transactional;
    bool aborted; /* inside an aborted transaction */
    bool open;    /* inside a transaction still open */
    enum ss_cause cause;
    unsigned detail; /* SS_NEWSESS_* for new-session */
    uint32_t batch;  /* for ss_an_fetch */
    int64_t batch_base_offset, batch_last_offset;
    uint64_t batch_position;
    uint32_t segment;      /* index in the partition's segments */
    int32_t batch_records; /* records in that batch */
    bool outside_window;   /* outside the window: listed with a group that has a copy inside */
} ss_an_copy;

/* A duplicate group: the copies of one fingerprint (not a consumer group: segscan/groups.h). */
typedef struct ss_an_dupgroup {
    uint64_t fp_hi, fp_lo; /* XXH3-128 of the fingerprinted field */
    uint32_t copies;
    uint32_t original;  /* index of the original among the copies */
    uint32_t partition; /* the original's partition */
    uint32_t causes;    /* bit (1 << cause) for every cause present */
    bool has_open;
    /* copies (the original among them) whose other field is byte-identical to the
     * original's: the value with --by key, the key with --by value; -1 when not
     * looked at (--by value) or a copy could not be read back; copies with --by key+value */
    int64_t identical_copies;
    bool cross_topic; /* copies in more than one topic */
} ss_an_dupgroup;

typedef struct ss_an_range {
    int32_t first, last;
} ss_an_range;

/* COMPACTION: consistent with compaction (the log shows cleaning; the missing records'
 * keys are gone, so whether the cleaner removed them cannot be known); RETENTION is no
 * longer given (retention removes the oldest segments, never records between two
 * batches the log still holds); MISSING_SEGMENT: at a segment boundary where the log
 * shows no cleaning there, or where files beside it name the missing segment: an
 * inconsistency, counted as unexplained; HOLE: over offsets missing between two batches
 * of one segment (a hole, ss_an_hole) that no evidence of the cleaner explains: records
 * lost unless the topic is compacted, counted as unexplained. */
enum ss_gap_explained {
    SS_GAP_UNEXPLAINED = 0,
    SS_GAP_COMPACTION = 1,
    SS_GAP_RETENTION = 2,
    SS_GAP_DAMAGE = 3,
    SS_GAP_MISSING_SEGMENT = 4,
    SS_GAP_HOLE = 5
};

typedef struct ss_an_gap {
    int32_t from, to; /* missing sequences (split at the wrap) */
    enum ss_gap_explained explained;
    int64_t after_offset;  /* last offset of the batch before the gap */
    int64_t before_offset; /* base offset of the batch after the gap */
} ss_an_gap;

typedef struct ss_an_session {
    uint32_t partition;
    int64_t producer_id;
    int16_t producer_epoch;
    bool transactional;
    int64_t first_offset, last_offset;
    int64_t first_timestamp, last_timestamp; /* batch maxTimestamps */
    uint64_t records, batches;
    const ss_an_range *ranges; /* sequence ranges, split at the wrap */
    size_t nranges;
    const ss_an_gap *gaps; /* the first 1000 */
    size_t ngaps;
    uint64_t more_gaps;          /* gaps past those (counted in the partition's figures) */
    uint64_t repeated_sequences; /* records whose sequence was already seen */
    uint64_t out_of_order_batches;
    bool epoch_bump; /* an earlier epoch of this pid is in the partition */
    /* a hole (ss_an_hole, not the cleaner's) lies after its first offset: batches of the session
     * may have been there, so it is incomplete (its records, sequences and last offset are those
     * read) */
    bool spans_hole;
    int16_t previous_epoch;
    int32_t first_sequence; /* -1 when no batch had a sequence */
} ss_an_session;

/* SS_TXN_UNKNOWN: no marker in the segments read, and a later segment of the partition was
 * not given (the marker may lie there). */
enum ss_txn_result { SS_TXN_OPEN = 0, SS_TXN_COMMIT = 1, SS_TXN_ABORT = 2, SS_TXN_UNKNOWN = 3 };
SS_API const char *ss_txn_result_name(enum ss_txn_result r); /* "OPEN", "COMMIT", "ABORT", "UNKNOWN" */

/* Why an open transaction hangs or not: Kafka's kafka-transactions.sh find-hanging
 * (TransactionsCommand.java) offline. A candidate when now - the producer's last write in the
 * partition exceeds the timeout; then hanging for sure when the transaction coordinator does
 * not know it, as __transaction_state says (when it was read). */
enum ss_hang_rule {
    SS_HANG_NOT_OPEN = 0,     /* committed, aborted, or of unknown outcome */
    SS_HANG_AGE_UNKNOWN,      /* nothing later than the producer's last write was seen, and no --now */
    SS_HANG_WITHIN_TIMEOUT,   /* its age is within the timeout: not a candidate */
    SS_HANG_TIMEOUT,          /* older than the timeout; __transaction_state not read: a candidate */
    SS_HANG_COORD_LISTS,      /* the coordinator's latest state lists the partition: it will end it */
    SS_HANG_COORD_COMPLETE,   /* the id's state is Empty, CompleteCommit, CompleteAbort or Dead */
    SS_HANG_COORD_NOT_LISTED, /* the id's transaction does not list the partition */
    SS_HANG_COORD_PARTIAL,    /* no transactional id read has the producer id: it may lie in a
                               * partition of __transaction_state not read (segscan cannot know
                               * it read them all, so Kafka's "no id: hanging" stays unconfirmed) */
};
/* "not-open", "age-unknown", "within-timeout", "timeout", "coordinator-lists-partition",
 * "coordinator-complete", "coordinator-partition-not-listed", "coordinator-partly-read" */
SS_API const char *ss_hang_rule_name(enum ss_hang_rule r);

typedef struct ss_an_txn {
    uint32_t partition;
    int64_t producer_id;
    int16_t producer_epoch;            /* epoch of its data (of the marker when empty) */
    int16_t marker_epoch;              /* -1 while open */
    int64_t first_offset, last_offset; /* data; the marker's offset when empty */
    int64_t marker_offset;             /* -1 while open */
    enum ss_txn_result result;
    int32_t coordinator_epoch; /* -1 while open */
    uint64_t records, batches;
    int64_t first_timestamp;         /* maxTimestamp of its first batch */
    int64_t first_record_timestamp;  /* its first record's (the maxTimestamp under LogAppendTime); -1: none read */
    int64_t producer_last_timestamp; /* maxTimestamp of the producer's last batch in the partition
                                      * (Kafka's ProducerStateEntry.lastTimestamp) */
    int64_t marker_timestamp;
    bool empty;           /* marker without data */
    bool below_log_start; /* marker whose data is below the log start offset (not read; not empty) */
    bool spans_hole;      /* SS_TXN_UNKNOWN because a hole (ss_an_hole) lies after its first offset:
                           * incomplete, its marker may have been in the offsets missing */
    bool data_not_read;   /* some of its data may lie in an earlier segment file not given (its first
                           * offset and records are those read); a marker without data read is then
                           * not empty */
    /* open transactions: age = now - producer_last_timestamp (find-hanging's duration) */
    bool age_known;
    int64_t age_ms;
    bool hanging;                    /* the age is known and exceeds the timeout (Kafka's candidate rule) */
    int8_t hanging_confirmed;        /* 1: hanging and unknown to the coordinator; 0: no; -1: unknown */
    enum ss_hang_rule rule;          /* what decided */
    const ss_txn_state *coordinator; /* the transactional id's latest state, when one has its producer id */
} ss_an_txn;

typedef struct ss_an_damage {
    uint32_t partition;
    uint32_t segment;
    ss_error err;
    /* the offsets the damaged entry covered and the records it held, when its header
     * is still readable (a CRC mismatch, records that cannot be decoded); -1 unknown */
    int64_t first_offset, last_offset;
    int64_t records;
} ss_an_damage;

typedef struct ss_an_match {
    ss_an_copy copy;    /* cause fields unset unless grouped */
    int64_t group;      /* index in the sorted groups, -1: single copy */
    bool fingerprinted; /* false: null (or too short, or internal topic): never grouped */
} ss_an_match;

typedef struct ss_analysis ss_analysis;

SS_API ss_analysis *ss_analysis_new(const ss_an_opts *opts);
/* The bytes of __consumer_offsets and __transaction_state segments a run bounded by max_memory
 * (0: no bound) keeps for their second readers (ss_an_opts.keep_offsets_bytes, and a study
 * without an analysis): 64 MiB, or a quarter of max_memory when that is less. */
SS_API uint64_t ss_an_keep_budget(uint64_t max_memory);
SS_API void ss_analysis_free(ss_analysis *a);
/* Read every partition of `in` (which must outlive the analysis) and compute
 * everything. Returns SS_E_OK, SS_E_NOMEM, or SS_E_IO (a spill file could not
 * be written or read back). Damage is recorded, not fatal. */
SS_API ss_errkind ss_analysis_run(ss_analysis *a, const ss_inputs *in);
/* The problems of the run (segscan/errors.h), in the order they were met: the
 * segments that could not be opened (SS_SEV_ERROR, exit code 2; the message
 * names the file), then, last, why the run failed (SS_SEV_ERROR, kind
 * SS_E_NOMEM or SS_E_IO) when it did. Damage met in a file is not among
 * them: ss_an_damage_at lists it. */
SS_API const ss_problems *ss_analysis_problems(const ss_analysis *a);
/* The entry of ss_analysis_problems that says why the run failed; NULL when it
 * did not fail, or failed before it began reading (out of memory). */
SS_API const ss_error *ss_analysis_failure(const ss_analysis *a);
/* ss_txn_state_ids (segscan/decode.h) over the inputs the analysis ran on, after
 * ss_analysis_run: the __transaction_state segments it kept (ss_an_opts.keep_offsets_bytes)
 * are read from their copies, not from the files again. */
SS_API ss_errkind ss_analysis_txn_state_ids(const ss_analysis *a, ss_txn_ids **out, ss_error *err);
/* Fingerprints written to temporary files because the tables reached
 * opts.max_memory (0: none were). */
SS_API uint64_t ss_analysis_spilled(const ss_analysis *a);
/* Replicas of one partition among the inputs (the same topic and partition in two
 * directories, sharing a leader epoch, no differing topic ids): each replica was grouped
 * on its own, a record in both being one record. True with the first such pair. */
SS_API bool ss_analysis_replicas(const ss_analysis *a, size_t *first, size_t *second);

SS_API size_t ss_an_partition_count(const ss_analysis *a);
SS_API const ss_an_partition *ss_an_partition_at(const ss_analysis *a, size_t i);
SS_API const ss_an_totals *ss_an_totals_get(const ss_analysis *a);

/* Groups, largest first (ties: the original's position). */
SS_API size_t ss_an_dupgroup_count(const ss_analysis *a);
SS_API const ss_an_dupgroup *ss_an_dupgroup_at(const ss_analysis *a, size_t i);
/* Copy j of group i, in partition order then offset order. */
SS_API void ss_an_dupgroup_copy(const ss_analysis *a, size_t i, size_t j, ss_an_copy *out);

/* Sessions sorted by (partition, producer id, epoch). */
SS_API size_t ss_an_session_count(const ss_analysis *a);
SS_API const ss_an_session *ss_an_session_at(const ss_analysis *a, size_t i);

/* Transactions in partition order, then by first offset. */
SS_API size_t ss_an_txn_count(const ss_analysis *a);
SS_API const ss_an_txn *ss_an_txn_at(const ss_analysis *a, size_t i);

/* The "now" of the run, for the age of open transactions, and where it came from; with
 * SS_NOW_NEWEST, *partition is the partition holding that timestamp. */
enum ss_now_source {
    SS_NOW_NONE = 0,   /* no batch was read and none was given */
    SS_NOW_GIVEN,      /* opts.now_ms (--now TIME) */
    SS_NOW_WALL_CLOCK, /* opts.now_ms, the caller's wall clock (--now now) */
    SS_NOW_NEWEST,     /* the newest maxTimestamp of every batch read, in any partition */
};
SS_API int64_t ss_an_now(const ss_analysis *a, enum ss_now_source *source, uint32_t *partition);
/* Was __transaction_state read to judge hanging transactions (some partition of it among the
 * inputs, and an open transaction to judge)? */
SS_API bool ss_an_txn_state_read(const ss_analysis *a);

/* Holes: offsets missing between two segments, or between two batches of one segment, that
 * no evidence of the log cleaner explains. Not damage's (the offsets damaged bytes held are
 * said as damage and lost records). Evidence of cleaning read: a v2 batch read whole holding
 * fewer records than lastOffsetDelta + 1 (LogCleaner.cleanInto keeps a batch's last offset),
 * a delete horizon (KIP-534), a cleaner-offset-checkpoint entry above the first offset (the
 * cleaner's firstDirtyOffset), an internal topic Kafka creates compacted (__consumer_offsets,
 * __transaction_state: cleanup.policy=compact), or a cleanup.policy holding compact read in
 * __cluster_metadata (ss_an_partition.compact_policy); with it a hole below the checkpoint entry is the
 * cleaner's, unless a file beside names a segment there (a missing segment). Without it a hole
 * is listed: the cleaner can also drop whole batches and leave nothing else, so it is lost
 * records unless the topic is compacted (evidence not on this disk: its configuration).
 * In partition order, then offset order. */
typedef struct ss_an_hole {
    uint32_t partition;
    int64_t from, to;      /* the offsets missing, inclusive */
    uint64_t records;      /* to - from + 1: Kafka gives each record an offset of its own */
    bool between_segments; /* between two segments (else between two batches of one segment) */
    bool segment_named;    /* an index or snapshot file without its .log, or a leader-epoch-checkpoint
                              entry, names an offset in it: a segment is missing there */
} ss_an_hole;
SS_API size_t ss_an_hole_count(const ss_analysis *a);
SS_API const ss_an_hole *ss_an_hole_at(const ss_analysis *a, size_t i);

/* Damage met (at most 100 kept per partition; ss_an_partition.damage_events counts all). */
SS_API size_t ss_an_damage_count(const ss_analysis *a);
SS_API const ss_an_damage *ss_an_damage_at(const ss_analysis *a, size_t i);

/* explain: the records that matched opts.match (at most max_matches kept). */
SS_API size_t ss_an_match_count(const ss_analysis *a);
SS_API const ss_an_match *ss_an_match_at(const ss_analysis *a, size_t i);
SS_API uint64_t ss_an_match_total(const ss_analysis *a);

/* Read a copy's record back from its segment (for values, keys, previews).
 * Returns 1 and fills r (views valid until the next fetch or free), 0 when the
 * record is not there any more, -1 on error (err filled). */
SS_API int ss_an_fetch(ss_analysis *a, const ss_an_copy *c, ss_record *r, ss_error *err);
/* The same for the first record at `offset` of a batch index (ss_an_copy.batch). */
SS_API int ss_an_fetch_offset(ss_analysis *a, uint32_t batch, int64_t offset, ss_record *r, ss_error *err);

/* ---- which broker a producer id came from ------------------------------------------------- */

/* A producer-id block of the KRaft metadata log: a ProducerIdsRecord
 * (ProducerIdControlManager.generateNextProducerId gives the broker the 1000
 * ids below its NextProducerId). */
typedef struct ss_pid_block {
    int64_t first, end;   /* the block [first, end) = [NextProducerId - 1000, NextProducerId) */
    int32_t broker_id;    /* the broker it was allocated to; -1: not recorded (a snapshot's record) */
    int64_t broker_epoch; /* that broker's epoch; -1 unknown */
    int64_t timestamp;    /* the record's timestamp: when the controller appended it */
    int64_t offset;       /* the record's offset (in the log, or the snapshot's) */
    uint32_t partition;   /* the inputs' __cluster_metadata partition; UINT32_MAX for a snapshot file */
    const char *file;     /* the segment or snapshot it was read from */
    bool from_snapshot;
} ss_pid_block;

typedef struct ss_pid_blocks ss_pid_blocks;

/* Read the ProducerIdsRecords of every __cluster_metadata partition among
 * the inputs and of their KRaft snapshots (ss_inputs_kraft_snapshot). The
 * same record read from several replicas counts once. Returns SS_E_OK
 * (possibly with no block) or SS_E_NOMEM; *out is always set and must be
 * freed with ss_pid_blocks_free. */
SS_API ss_errkind ss_pid_blocks_read(const ss_inputs *in, ss_pid_blocks **out, ss_error *err);
SS_API void ss_pid_blocks_free(ss_pid_blocks *b);
/* A __cluster_metadata partition or a KRaft snapshot was among the inputs. */
SS_API bool ss_pid_blocks_have_metadata(const ss_pid_blocks *b);
/* The blocks, by their end. */
SS_API size_t ss_pid_blocks_count(const ss_pid_blocks *b);
SS_API const ss_pid_block *ss_pid_blocks_at(const ss_pid_blocks *b, size_t i);

enum ss_pid_origin {
    SS_PID_NO_METADATA = 0, /* no metadata log among the inputs: nothing to say */
    SS_PID_BLOCK,           /* *block holds the id and names its broker */
    /* the id is below a NextProducerId read, but no record of the log names its
     * block's broker: allocated before the records read (a snapshot replaced its
     * record, or its segment was not given); *block is the nearest block above
     * it, when there is one (allocated later) */
    SS_PID_UNKNOWN_EARLIER,
    /* no block read holds it: allocated after the metadata read ends (an older
     * copy of the log), or not by this metadata quorum */
    SS_PID_NOT_FOUND,
};
/* Where producer id pid came from. */
SS_API enum ss_pid_origin ss_pid_blocks_find(const ss_pid_blocks *b, int64_t pid, const ss_pid_block **block);

#ifdef __cplusplus
}
#endif
#endif
