/* segscan - what each consumer group received twice, or never: findings on a
 * group's history (segscan/groups.h) and the data partitions beside it
 * (segscan/timeline.h), with __transaction_state when it is among the inputs.
 *
 * Kinds (one table for the text, the JSON, the report and --fail-on):
 *   handover        the owner of a partition changed (the first later
 *                   assignment of it to another member id). The new owner
 *                   resumed from the committed offset then; what the old one
 *                   read past it came twice. `redelivered`: the records at and
 *                   above the resumed offset that were present at the
 *                   handover, a range that certainly holds every record
 *                   delivered twice (certain: false); `likely`: the part of it
 *                   written before the old owner's last commit plus one commit
 *                   interval, only on a sign that it stopped uncleanly (see
 *                   ss_frevoke): never for a revocation acknowledged or a member
 *                   that rejoined.
 *   empty-group     the group had no members between two owners of a partition (an
 *                   empty generation, its last member's tombstone, the group's
 *                   tombstone and its re-creation): not a handover. The new owner
 *                   resumed from the committed offset as it stood then (after what
 *                   happened while the group was empty: a reset, a deletion, listed
 *                   as findings of their own); what the old owner can have read
 *                   past its last commit is what was present when it lost the
 *                   partition, not later: `redelivered` is [the resumed offset or
 *                   its last commit, the higher, .. the log end when it lost it - 1],
 *                   possible; `likely` only on a sign of an unclean stop (see
 *                   ss_frevoke).
 *   rewind, reset   the committed offset moved back while the group had
 *                   members (rewind) or while it was empty (reset,
 *                   kafka-consumer-groups.sh --reset-offsets): the records from
 *                   the new offset to the old one minus one present then are
 *                   possibly delivered again; certain only up to what the group
 *                   had read (read_bound: a reader's commits, the log end when
 *                   the old offset was committed), for a reset once a later
 *                   commit passed them, for a rewind only where later commits
 *                   stepped through them (a late commit moves the offset back
 *                   too, re-reading nothing). A reset forward (a plain commit
 *                   in an empty group that has had members): `skipped`, possible;
 *                   `certain_skipped` the part written after the owner before it
 *                   lost the partition, when the next owner resumed at the new
 *                   offset (no member owned it between).
 *   offsets-deleted an offset tombstone; where the group committed next: below
 *                   the old offset, records delivered again; above it, records
 *                   the group may never have received (`skipped`: a consumer
 *                   that restarted lower and read up to there looks alike in
 *                   the log, so they are possible, not certain). With no
 *                   committed offset the consumer began where auto.offset.reset
 *                   put it when its new generation formed: a first commit below
 *                   the data partition's log end then cannot be `latest`'s
 *                   (earliest, by_duration or a seek): it began at or below that
 *                   commit, so `redelivered` runs from the log start read now
 *                   (the log start then is not on disk and was no higher) to the
 *                   old offset - 1, possible, and `certain_part` holds the part
 *                   from the first commit once a later commit passed the old
 *                   offset. Without the data partition where it began is unknown.
 *   out-of-range    a committed offset past the data partition's log end at the
 *                   commit's time, or (the offset committed at the end) below
 *                   its log start: the consumer resuming from it is reset by
 *                   auto.offset.reset.
 *   aborted-commit  a transactional offset commit whose transaction aborted:
 *                   its input is processed again if the application seeks back
 *                   to the committed offset (possible, never certain); its
 *                   outputs (the same producer's transaction in the partitions
 *                   read) are invisible to read_committed consumers.
 *   open-commit     the same with no marker at the end of the log, hanging or not
 *                   (kafka-transactions.sh find-hanging's rule).
 *   fencing         a producer epoch raised by initTransactions (a new instance;
 *                   a producer still holding the old epoch is fenced; after its
 *                   own abort also the same producer's KIP-360 bump), not by
 *                   transaction version 2's per-transaction bump nor by the
 *                   coordinator's timeout abort.
 * Ranges are inclusive offsets of the data partition; their records are counted
 * when the data partition was read (records -1 otherwise, and the end of a
 * handover's range is then unknown; records -1 also when a batch the range cuts
 * through could not be decoded: a damaged batch, whose count is unknown).
 *
 * The library never prints.
 */
#ifndef SEGSCAN_FINDINGS_H
#define SEGSCAN_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/groups.h"
#include "segscan/inputs.h"
#include "segscan/timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ss_fkind {
    SS_FK_HANDOVER = 1,
    SS_FK_REWIND,
    SS_FK_RESET,
    SS_FK_OFFSETS_DELETED,
    SS_FK_OUT_OF_RANGE,
    SS_FK_ABORTED_COMMIT,
    SS_FK_OPEN_COMMIT,
    SS_FK_FENCING,
    SS_FK_EMPTY_GROUP,
    SS_FK_COUNT
};
/* "handover", "rewind", "reset", "offsets-deleted", "out-of-range", "aborted-commit",
 * "open-commit", "fencing", "empty-group"; NULL otherwise */
SS_API const char *ss_fkind_name(enum ss_fkind kind);

/* A range of data offsets [from, to]. */
typedef struct ss_frange {
    bool set;        /* false: there is none */
    int64_t from;    /* inclusive */
    int64_t to;      /* inclusive; -1: unknown (the data partition was not read) */
    int64_t records; /* data records in it, -1 when unknown (the data partition was not read, or a
                        batch the range cuts through does not decode) */
    bool certain;    /* true: every record in it was (or will be) delivered again / never received;
                        false: it holds every such record, and may hold others */
} ss_frange;

/* A transaction's output in one partition. */
typedef struct ss_foutput {
    const char *topic;
    int32_t partition;
    int64_t from, to; /* its data offsets */
    uint64_t records;
    enum ss_tl_result result;
    bool by_epoch; /* matched by producer id and epoch alone (transaction version 2: one transaction
                      per epoch); else by producer id, epoch and the marker's time between the
                      producer's neighbouring markers */
} ss_foutput;

/* what raised a producer's epoch (fencing, and the abort of an aborted-commit) */
enum ss_fbump {
    SS_FB_NONE = 0,
    SS_FB_INIT,    /* initTransactions with no transaction open: a new instance (a live old one is fenced) */
    SS_FB_FENCED,  /* initTransactions while a transaction was open: it was aborted, its producer fenced */
    SS_FB_TIMEOUT, /* the coordinator aborted a transaction open past transaction.timeout.ms */
    SS_FB_UNKNOWN, /* the coordinator aborted it: a timeout or another instance, __transaction_state does not say */
    SS_FB_INIT_OR_BUMP, /* after its producer's own abort: a new instance's initTransactions, or the same
                           producer's epoch bump after an abortable error (KIP-360: TransactionManager.
                           beginAbort -> initializeTransactions(producerIdAndEpoch)); the log cannot tell */
};
/* "init", "fenced", "timeout", "fenced-or-timeout", "init-or-bump", NULL */
SS_API const char *ss_fbump_name(enum ss_fbump bump);

/* What the coordinator's records show of how a handover's previous owner let the partition go
 * (ss_finding.revocation). The coordinator writes no record when a rebalance starts, and an
 * OffsetCommit carries no member or generation: these are all the disk can show. */
enum ss_frevoke {
    SS_FR_UNKNOWN = 0,        /* nothing either way */
    SS_FR_ACKED,              /* KIP-848: its current assignment held the partition pending revocation
                           (UNREVOKED_PARTITIONS), it committed, then acknowledged at a later member epoch
                           (ConsumerMembershipManager.maybeAutoCommitSyncBeforeRevocation): clean */
    SS_FR_REJOINED,           /* classic: it is a member of the generation that gave the partition away (it
                           rejoined), its last commit within its rebalanceTimeoutMs before it; where that
                           generation also took the partition from it (eager), its subscription's
                           ownedPartitions is empty: it had revoked everything before joining
                           (ConsumerCoordinator.onJoinPrepare), consistent with a commit in
                           onPartitionsRevoked (onJoinPrepare commits by itself only with
                           enable.auto.commit): clean. Where the partition was unowned for a generation in
                           between (cooperative), the commit timing alone */
    SS_FR_ABSENT,             /* not a member when the partition was given away (it left or was removed) */
    SS_FR_SESSION_TIMEOUT,    /* absent, and its last commit lay at least its sessionTimeoutMs before: the
                              coordinator's removal of a member gone silent, a sign of an unclean stop */
    SS_FR_REJOINED_UNDECIDED, /* as SS_FR_REJOINED (eager), but its subscription carries no ownedPartitions
                                 (ConsumerProtocolSubscription version 0, clients before KIP-429): whether
                                 it had revoked before joining cannot be told */
    SS_FR_REJOINED_OWNING,    /* as SS_FR_REJOINED (eager), but its subscription's ownedPartitions is not
                                 empty: it joined still owning partitions, no eager revocation shown */
};
/* "acknowledged", "rejoined", "absent", "session-timeout", "rejoined-undecided", "rejoined-owning"; NULL
 * for SS_FR_UNKNOWN */
SS_API const char *ss_frevoke_name(enum ss_frevoke r);

typedef struct ss_finding {
    enum ss_fkind kind;
    size_t group;         /* index of the group (ss_groups_at) */
    const char *group_id; /* its id (the bytes as stored, NUL-terminated) */
    size_t group_id_len;
    int32_t coordinator_partition;
    ss_gtp_ref tp;          /* the data partition; topic and topic_id NULL for a fencing */
    int64_t time;           /* when it happened (see each kind) */
    int64_t record_offset;  /* the record of __consumer_offsets it rests on */
    bool data_read;         /* the data partition was among the inputs */
    enum ss_tl_basis basis; /* of the data partition: how "present at a time" was decided */
    /* handover */
    int64_t resumed_offset; /* the committed offset when the new owner got it, -1 none (auto.offset.reset decides) */
    const char *previous_owner, *previous_instance, *new_owner, *new_instance;
    bool same_instance;           /* the same group.instance.id under a new member id (a static member) */
    int64_t previous_until;       /* when the previous owner lost it */
    int64_t previous_last_commit; /* its last commit's time, -1 none */
    int64_t previous_last_offset; /* the offset of it, -1 none */
    uint64_t previous_commits;    /* its commits of the partition */
    int64_t commit_interval_ms;   /* its median commit interval, -1 unknown */
    int clean;                    /* 1: its last commit lay within one interval of losing the partition, or it
                                       acknowledged a revocation after committing (SS_FR_ACKED), or it
                                       rejoined having revoked everything (SS_FR_REJOINED, eager); 0: it had
                                       stopped committing, or its last commit was a transactional one that
                                       never took effect (aborted, open: it closes nothing); -1 unknown
                                       (fewer than two commits), or not applicable (no commit of the
                                       partition while it owned it: no commit to be late) */
    enum ss_frevoke revocation;   /* how it let the partition go, as far as the records show; `likely` is set
                                     only on a sign of an unclean stop: SS_FR_SESSION_TIMEOUT, or
                                     SS_FR_ABSENT with clean 0 */
    bool caught_up;               /* nothing present at the handover lay at or above the resumed offset */
    bool shared;                  /* the same record gave the partition to both (two members assigned it in one
                                     generation): not a handover from one to the other, no judgement made */
    /* empty-group (also its handover fields above): when the group went empty, and what happened to the
     * partition's committed offset while it was (SS_FE_* bits) */
    int64_t empty_since;
    unsigned while_empty;
    enum ss_goutcome last_commit_outcome; /* its last commit: SS_GOUT_ABORTED / SS_GOUT_OPEN when a transactional
                                             one that never became the committed offset, else 0 */
    /* rewind, reset */
    int64_t from_offset, to_offset; /* the committed offset before and after */
    /* offsets-deleted */
    int64_t last_committed; /* the committed offset the tombstone removed, -1 none */
    int64_t restart_offset; /* the group's first commit of the partition after it, -1 none */
    int64_t restart_time;
    const char *consistent_with; /* "auto.offset.reset=earliest" / "auto.offset.reset=latest" or NULL */
    int64_t restart_generation;  /* when the group's next owner of the partition got it after the deletion (the
                                    new generation: the consumer looked up where to begin then), -1 none (a group
                                    that only commits) */
    int64_t restart_log_end;     /* the data partition's log end then (-1 unknown): a first commit below it cannot
                                    come of auto.offset.reset=latest */
    /* out-of-range */
    int64_t commit_offset;      /* also aborted-commit, open-commit: the offset committed (or to be) */
    int64_t log_start, log_end; /* the data partition's offsets then (log_end: the first offset not present) */
    bool below;                 /* below the log start (the offset committed at the end) */
    bool past_copy;             /* past even the end of the copy read now: a follower's copy may lag */
    uint64_t commits;           /* commits in a row out of range */
    int64_t last_time;          /* the last of them */
    /* aborted-commit, open-commit, fencing */
    int64_t producer_id;
    int16_t producer_epoch;       /* of the offset commits (fencing: the new epoch) */
    int16_t marker_epoch;         /* aborted-commit: its marker's */
    int16_t old_epoch;            /* fencing */
    const char *transactional_id; /* from __transaction_state, NULL when unknown */
    int txn_version;              /* 1, 2, 0 unknown */
    enum ss_fbump bump;           /* aborted-commit (who aborted: SS_FB_NONE its producer)
                                     and fencing */
    int64_t aborted_at;           /* fencing: the transaction aborted by it (its marker's time), -1 none */
    bool hanging;                 /* open-commit: open longer than the transaction timeout at "now" */
    int hanging_confirmed;        /* open-commit: 1/0 from __transaction_state, -1 not read */
    int64_t age_ms;               /* open-commit: now minus its last offset commit */
    size_t noutputs;
    const ss_foutput *outputs;
    ss_frange redelivered, likely, skipped;
    /* rewind, reset: the part of `redelivered` that is certain when only a part is (set only then):
     * the records up to what a reader of the group had committed before (and present when the old
     * offset was committed), and for a rewind while the group had members what its later commits
     * stepped through; the rest of `redelivered` is possible */
    ss_frange certain_part;
    int64_t read_bound; /* rewind, reset: that bound (the first offset not known read), -1 none */
    bool stepped;       /* rewind: a later commit lay between the new and the old offset */
    /* reset forward: the part of `skipped` certainly never delivered (certain set): the next owner resumed at the
     * offset the reset left (its committed offset when it got the partition), and these records were written
     * after the owner before the reset lost the partition (none owned it in between); unset otherwise */
    ss_frange certain_skipped;
} ss_finding;

/* what happened while a group was empty (ss_finding.while_empty) */
enum {
    SS_FE_RESET = 1,           /* the committed offset moved (kafka-consumer-groups.sh --reset-offsets) */
    SS_FE_OFFSETS_DELETED = 2, /* the committed offset was deleted (expiry, admin deletion) */
    SS_FE_GROUP_DELETED = 4,   /* the group itself was removed (its tombstone) and made again */
};

typedef struct ss_findings_opts {
    int64_t txn_timeout_ms; /* the hanging rule (default 900000: transaction.max.timeout.ms) */
    bool has_now;
    int64_t now_ms; /* default: the newest timestamp read anywhere */
    bool per_group; /* build no finding yet: ss_findings_select builds one group's at a time (for a
                       caller that lists one group at a time: the findings then take the memory of
                       one group's, not of all) */
} ss_findings_opts;

SS_API void ss_findings_opts_default(ss_findings_opts *o);

typedef struct ss_findings ss_findings;

/* The findings of every group of g (its run done), with the data partitions of
 * `data` (may be NULL: none read) and the __transaction_state partitions of `in`
 * (may be NULL). g, data and in must outlive the findings. NULL when memory ran out. */
SS_API ss_findings *ss_findings_build(ss_groups *g, ss_timelines *data, const ss_inputs *in,
                                      const ss_findings_opts *opts);
SS_API void ss_findings_free(ss_findings *f);

/* With opts.per_group: replace the findings held by those of group gi (ss_groups_at's index).
 * False when memory ran out (the findings held are then incomplete). */
SS_API bool ss_findings_select(ss_findings *f, size_t gi);

/* Findings by group, then data partition, then time; fencings of a group after its partitions'. */
SS_API size_t ss_findings_count(const ss_findings *f);
SS_API const ss_finding *ss_findings_at(const ss_findings *f, size_t i);
/* "now" of the hanging rule, and where it came from ("--now" or "the newest timestamp read") */
SS_API int64_t ss_findings_now(const ss_findings *f);
/* __transaction_state was among the inputs */
SS_API bool ss_findings_txn_state_read(const ss_findings *f);

/* Does a range hold `offset`? (to -1, the end unknown: every offset from `from` on) */
SS_API bool ss_frange_holds(const ss_frange *r, int64_t offset);

/* ---- the net answer per (group, data partition) ----------------------------------------------------
 * One answer per group and data partition, its findings' ranges merged (overlaps and neighbours joined,
 * each record counted once per level). The levels nest: certain is within likely, likely within possible
 * (each holds the ones before); skipped within skipped_possible.
 *   certain          ranges certain (`certain` set) of redelivered and certain_part
 *   likely           certain, and every `likely` range (an unclean stop's)
 *   possible         likely, and every redelivered / certain_part range (possible)
 *   skipped          the certain skips (certain_skipped, a skipped range marked certain)
 *   skipped_possible skipped, and every skipped range
 */
enum ss_fnet_level {
    SS_FN_CERTAIN = 0,
    SS_FN_LIKELY,
    SS_FN_POSSIBLE,
    SS_FN_SKIPPED,
    SS_FN_SKIPPED_POSSIBLE,
    SS_FN_LEVELS
};
/* "certain", "likely", "possible", "skipped", "skippedPossible" */
SS_API const char *ss_fnet_level_name(enum ss_fnet_level l);

/* A merged range [from, to] of data offsets: to -1 when its end is unknown (the data partition was not read and a
 * handover's end is not known); records -1 when unknown (the data partition was not read, or a batch in it did
 * not decode). */
typedef struct ss_fnet_range {
    int64_t from, to, records;
} ss_fnet_range;

typedef struct ss_fnet {
    size_t group; /* ss_groups_at's index */
    const char *group_id;
    size_t group_id_len;
    ss_gtp_ref tp;
    bool data_read;
    size_t first, nfindings; /* its findings: ss_findings_at(first .. first + nfindings - 1); 0 none */
    const ss_fnet_range *ranges[SS_FN_LEVELS]; /* nranges[l] merged ranges by offset; NULL when none */
    size_t nranges[SS_FN_LEVELS];
    int64_t records[SS_FN_LEVELS];       /* records in the level's ranges, each once; -1 unknown (a range's count is) */
    int64_t offsets[SS_FN_LEVELS];       /* offsets they span; -1 when a range's end is unknown */
    int64_t offsets_known[SS_FN_LEVELS]; /* the offsets known to lie in them: as offsets, a range whose end is
                                            unknown counted up to the highest known end merged into it (what a
                                            count without the data partition can say) */
} ss_fnet;

/* The net answers of the findings held (every data partition of each group built, those without a finding
 * too), in the findings' order: by group, then topic, then partition. */
SS_API size_t ss_findings_net_count(const ss_findings *f);
SS_API const ss_fnet *ss_findings_net_at(const ss_findings *f, size_t i);
/* The net answer of group gi (ss_groups_at's index) for topic-partition, NULL none. */
SS_API const ss_fnet *ss_findings_net_of(const ss_findings *f, size_t gi, const char *topic, size_t topic_len,
                                         int32_t partition);
/* The strongest level of n that holds `offset`: certain, likely, possible, else skipped, skipped_possible;
 * SS_FN_LEVELS when none. */
SS_API enum ss_fnet_level ss_fnet_level_of(const ss_fnet *n, int64_t offset);
/* The range of level l of n holding offset, NULL none. */
SS_API const ss_fnet_range *ss_fnet_range_at(const ss_fnet *n, enum ss_fnet_level l, int64_t offset);

/* Why nothing can be said of a data partition's record at `time`, when no finding covers it. */
enum ss_fwhy {
    SS_FW_NOTHING = 0, /* the history was read and no finding covers it */
    SS_FW_NO_HISTORY,  /* no __consumer_offsets partition was read */
    SS_FW_NOT_READ,    /* the group's coordinator partition was not among those read */
    SS_FW_NO_GROUP,    /* no group read committed or owned this partition */
    SS_FW_COMPACTED,   /* the history of a group of it is complete only from a later time */
};
/* For the partition topic-partition and a record of it at `time`: why no finding
 * covers it. group_id (or NULL: every group) narrows to one group;
 * *coordinator is set to the __consumer_offsets partition concerned (-1 none) and
 * *complete_from to the time the history is complete from (COMPACTED). */
SS_API enum ss_fwhy ss_findings_why_none(ss_findings *f, const char *topic, size_t topic_len, int32_t partition,
                                         int64_t time, const char *group_id, int32_t *coordinator,
                                         int64_t *complete_from);

#ifdef __cplusplus
}
#endif
#endif
