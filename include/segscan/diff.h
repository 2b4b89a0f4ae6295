/* segscan - comparing two logs (public API of libsegscan).
 *
 * Two modes:
 *   offset   replicas of one partition: both sides are walked by offset in
 *            lockstep; records at one offset are compared by a fingerprint of
 *            key, value and headers, and by timestamp. Offsets held by one
 *            side only are sorted into ranges: before the other side's first
 *            offset (retention), after its end (a tail the other side lacks),
 *            or inside its range: compacted away when that side shows
 *            cleaning and its cleaner would have removed the record (not a
 *            difference in content), lost otherwise (a difference). The point where a follower would
 *            truncate follows Kafka's leader-epoch reconciliation.
 *   content  a topic and its mirror, at any offsets: the multisets of record
 *            fingerprints (--by value|key|key+value, as the analysis) are
 *            compared: records missing from B, records only in B, records
 *            with more copies on one side.
 * Both sides are streamed; content mode keeps one fixed-size entry per
 * distinct fingerprint and reads the sides a second time only to list the
 * differences it reports.
 */
#ifndef SEGSCAN_DIFF_H
#define SEGSCAN_DIFF_H

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

enum ss_diff_mode { SS_DIFF_AUTO = 0, SS_DIFF_OFFSET = 1, SS_DIFF_CONTENT = 2 };
SS_API const char *ss_diff_mode_name(enum ss_diff_mode mode); /* "offset", "content" */

typedef struct ss_diff_opts {
    enum ss_diff_mode mode;
    enum ss_by by;          /* content mode */
    bool read_committed;    /* content mode: leave out records of aborted transactions */
    size_t max_items;       /* differences kept for listing (0: none) */
    size_t preview_bytes;   /* bytes of key/value kept per listed difference (0: whole) */
    size_t max_batch_bytes; /* 0: SS_DEFAULT_MAX_BATCH_BYTES */
} ss_diff_opts;

SS_API void ss_diff_opts_default(ss_diff_opts *o);

enum ss_diff_kind {
    SS_DK_ONLY_A = 1,  /* offset mode: offset held by A only; content: a copy missing from B */
    SS_DK_ONLY_B,      /* offset mode: offset held by B only; content: a copy only B holds */
    SS_DK_DIFFER,      /* offset mode: both hold the offset, the records differ */
    SS_DK_COMPACTED_A, /* offset mode: B holds it, A compacted it away */
    SS_DK_COMPACTED_B, /* offset mode: A holds it, B compacted it away */
    SS_DK_LOST_A,      /* offset mode: B holds it inside A's range, and A's cleaner would have kept it */
    SS_DK_LOST_B,      /* offset mode: A holds it inside B's range, and B's cleaner would have kept it */
};
/* "onlyInA", "onlyInB", "differing", "compactedInA", "compactedInB", "lostInA", "lostInB" */
SS_API const char *ss_diff_kind_name(enum ss_diff_kind kind);

/* Where a one-sided range lies relative to the other side. */
/* DAMAGED: the other side's batch holding this offset failed its CRC or could not be decoded. */
enum ss_diff_where { SS_DW_INSIDE = 0, SS_DW_BEFORE = 1, SS_DW_AFTER = 2, SS_DW_DAMAGED = 3 };

typedef struct ss_diff_range {
    enum ss_diff_kind kind;
    enum ss_diff_where where; /* offset mode */
    int64_t from, to;         /* record offsets, inclusive */
    uint64_t records;
} ss_diff_range;

/* One side of a listed difference: a record as read, with a preview. */
typedef struct ss_diff_rec {
    bool present;
    int64_t offset, timestamp;
    int32_t partition_leader_epoch;
    int32_t key_len, value_len; /* full lengths; -1 null */
    const uint8_t *key, *value; /* whole, or the first preview_bytes bytes (owned by the result) */
    uint32_t copies;            /* content mode: copies on this side */
    enum ss_cause cause;        /* content mode: the cause of the extra copies, 0 unknown */
    unsigned cause_detail;
} ss_diff_rec;

typedef struct ss_diff_item {
    enum ss_diff_kind kind;
    ss_diff_rec a, b;
} ss_diff_item;

typedef struct ss_diff_side {
    const char *path;
    const char *partition;     /* partition name */
    uint64_t records, batches; /* data records (control records are counted apart) */
    uint64_t control_records;
    int64_t first_offset, next_offset; /* -1 when empty */
    uint64_t damaged_bytes, damage_events, unreadable;
    size_t nepochs;
    const int32_t *epochs;       /* leader epochs in order ... */
    const int64_t *epoch_starts; /* ... and their start offsets */
    bool epochs_from_checkpoint; /* leader-epoch-checkpoint was read */
    const char *topic_id;        /* partition.metadata's topic id as written, NULL when absent */
} ss_diff_side;

typedef struct ss_diff_pair {
    const char *partition;  /* name used for pairing */
    enum ss_diff_mode mode; /* the mode used */
    bool mode_auto;         /* chosen automatically */
    bool identical;
    ss_diff_side a, b;
    /* offset mode */
    int64_t first_divergent_offset; /* -1: none */
    int32_t divergent_epoch_a, divergent_epoch_b;
    /* compacted_*: missing inside that side's range where the log shows cleaning and
     * the cleaner would have removed the record (superseded by a later record with
     * its key on that side, a null key, a tombstone where delete horizons are set);
     * lost_*: missing inside that side's range otherwise (not counted in only_*) */
    uint64_t only_a, only_b, differing, compacted_a, compacted_b, lost_a, lost_b;
    int64_t truncation_offset; /* -1: none or unknown */
    int32_t shared_epoch;      /* the last leader epoch both hold, -1 none */
    /* content mode */
    uint64_t distinct_a, distinct_b;
    uint64_t missing_in_b; /* copies A holds more of than B */
    uint64_t only_in_b;    /* copies B holds more of than A */
    uint64_t values_missing_in_b, values_only_in_b, values_more_copies_a, values_more_copies_b;
    uint64_t ignored_aborted_a, ignored_aborted_b;
    /* ranges (offset mode) and listed differences */
    size_t nranges;
    const ss_diff_range *ranges;
    uint64_t ranges_total; /* ranges found (only the first ones are kept) */
    size_t nitems;
    const ss_diff_item *items;
    uint64_t items_total;
    /* offset mode: offsets whose records differ where both batches carry one leader epoch
     * (>= 0). Replicas cannot differ there: a follower appends the leader's batches of an
     * epoch as they are, and reconciliation truncates at an epoch's end (KIP-101, KIP-279);
     * two clusters (a mirror) each number their own epochs. */
    uint64_t differing_same_epoch;
    /* offset mode chosen automatically, yet the evidence says these are not replicas of one
     * partition: both topic ids known and different (KIP-516: a topic's id is fixed at its
     * creation, so a mirror or a topic created again), or differing_same_epoch > 0 */
    bool looks_like_mirror;
    /* content mode: the pair needed that side's analysis and it failed (ss_diff_problems says
     * it). With read_committed, the aborted transactions left out of that side are unknown:
     * its ignored_aborted and distinct count, and every count comparing the two sides
     * (missing_in_b, only_in_b, values_*, identical), counted its records of aborted
     * transactions in, and are not what was asked. Without it, only the causes of that side's
     * listed surplus copies are unknown (0). */
    bool analysis_failed_a, analysis_failed_b;
} ss_diff_pair;

typedef struct ss_diff ss_diff;

/* Compare a and b (each: resolved inputs, one or more partitions). Log
 * directories are paired by partition name; partitions present on one side
 * only are listed by ss_diff_unpaired. */
SS_API ss_errkind ss_diff_run(const ss_inputs *a, const ss_inputs *b, const ss_diff_opts *o, ss_diff **out);
SS_API void ss_diff_free(ss_diff *d);
SS_API size_t ss_diff_pair_count(const ss_diff *d);
SS_API const ss_diff_pair *ss_diff_pair_at(const ss_diff *d, size_t i);
/* Partitions on one side only: side 'A' or 'B' and the partition's input. */
SS_API size_t ss_diff_unpaired_count(const ss_diff *d);
SS_API const ss_input_partition *ss_diff_unpaired_at(const ss_diff *d, size_t i, char *side);
/* What the comparison could not learn, each an error naming the side and the partition: a side's
 * analysis (--read-committed's aborted transactions, a surplus copy's cause) that failed. */
SS_API const ss_problems *ss_diff_problems(const ss_diff *d);

#ifdef __cplusplus
}
#endif
#endif
