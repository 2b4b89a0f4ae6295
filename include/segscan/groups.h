/* segscan - consumer groups from __consumer_offsets: each group's history of
 * generations (classic) or group epochs (KIP-848), members and the partitions
 * they owned, commits (plain and transactional, with their outcomes), the
 * effective committed offset over time, deletions and protocol conversions.
 *
 * The history is what Kafka's group coordinator rebuilds when it loads a
 * __consumer_offsets partition (CoordinatorLoaderImpl replaying every record
 * into GroupCoordinatorShard.replay / replayEndTransactionMarker):
 *   - an OffsetCommit record of a batch without producer id is the committed
 *     offset at once; one of a transactional batch is pending for its producer
 *     id until that producer's marker: COMMIT makes it the committed offset only
 *     when its record offset is later than the current one's, ABORT discards it
 *     (OffsetMetadataManager.replay, replayEndTransactionMarker);
 *   - an OffsetCommit tombstone removes the committed offset and the pending
 *     ones of the group's open transactions for that partition;
 *   - a GroupMetadata record replaces the classic group whole; its tombstone
 *     removes the group (GroupMetadataManager.replay); the KIP-848 records
 *     update the consumer group piece by piece.
 * Commits carry no member id or generation: the member a commit is attributed
 * to is the owner of the partition at that point of the log, an attribution.
 *
 * Reading: each __consumer_offsets partition is read by one thread (a group
 * lives in one partition); copies of one partition from several brokers (the
 * same partition number under several log directories) are replicas: one is
 * read, the others are compared with it, so nothing is counted twice.
 * __consumer_offsets is compacted: below the cleaner's point only the last
 * record of each key survives. Each partition says from which offset (and
 * time) its history is complete: the first offset after the last hole in its
 * offsets (a record the cleaner removed leaves one) and after its log start.
 *
 * Beside Kafka's state the history keeps what the findings about deliveries
 * (segscan/findings.h) rest on: for each owner of a partition the committed
 * offset it resumed from and its commits (their count, the last one, their
 * cadence); every move back of the committed offset; where a group restarted
 * after its offsets were deleted; committed offsets past the data partition's
 * end at the commit's time (when the data partitions are read, opts.data);
 * transactional offset commits whose transaction aborted or is still open; a
 * producer's epoch raised past its markers (a new initTransactions).
 *
 * The library never prints. Strings are NUL-terminated copies of the bytes
 * stored (they may hold invalid UTF-8) with their length beside them; NULL is
 * Kafka's null. Strings stay valid until ss_groups_free; a group (ss_groups_at:
 * its scalars and its arrays) until the next ss_groups_at of another group.
 */
#ifndef SEGSCAN_GROUPS_H
#define SEGSCAN_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/inputs.h"
#include "segscan/segment.h"
#include "segscan/timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ss_gprotocol {
    SS_GPROTO_NONE = 0,     /* only commits: assign() + commit, stream processors (Kafka's "simple" group) */
    SS_GPROTO_CLASSIC = 1,  /* GroupMetadata records (JoinGroup/SyncGroup) */
    SS_GPROTO_CONSUMER = 2, /* KIP-848 ConsumerGroup* records */
    SS_GPROTO_STREAMS = 3,  /* KIP-1071 StreamsGroup* records (Kafka Streams on the streams rebalance protocol) */
};
/* "none", "classic", "consumer" */
SS_API const char *ss_gprotocol_name(int protocol);

enum ss_goutcome {
    SS_GOUT_PLAIN = 0,     /* not transactional */
    SS_GOUT_COMMITTED = 1, /* its producer's COMMIT marker followed */
    SS_GOUT_ABORTED = 2,   /* its producer's ABORT marker followed */
    SS_GOUT_OPEN = 3,      /* no marker yet */
};
/* "plain", "committed", "aborted", "open" */
SS_API const char *ss_goutcome_name(enum ss_goutcome outcome);

/* MemberState (KIP-848): 0 STABLE, 1 UNREVOKED_PARTITIONS, 2 UNRELEASED_PARTITIONS, 127 UNKNOWN */
SS_API const char *ss_gmember_state_name(int state);
/* A streams group member's state (streams MemberState: STABLE 1, UNREVOKED_TASKS 2, UNRELEASED_TASKS 3). */
SS_API const char *ss_gstreams_member_state_name(int state);

typedef struct ss_groups_opts {
    const char *const *groups; /* read only these group ids (NULL: every group) */
    size_t ngroups;
    int32_t partitions;       /* offsets.topic.num.partitions for the coordinator check (default 50) */
    bool commits;             /* keep every commit (ss_group_commits_*), listed below */
    const ss_timelines *data; /* the data partitions read (segscan/timeline.h), or NULL: committed offsets
                                    are then not compared with the partitions' offsets */
    /* which commits are kept with `commits` (a window restricts the list, never the history):
     * data topic and partition, commitTimestamp and committed offset windows (inclusive) */
    const char *topic;          /* NULL: all */
    int32_t partition;          /* -1: all */
    int64_t since_ms, until_ms; /* INT64_MIN / INT64_MAX: open */
    int64_t from_offset, to_offset;
    unsigned threads;       /* reading threads, the caller's included; 0: one per online CPU */
    uint64_t max_memory;    /* bytes the run may take: the history and the kept commits take it, less a
                             * reserve for the program (6 MiB) and each thread (2 MiB), before the commits
                             * go to temporary files (the history stays in memory); 0: no limit */
    const char *tmpdir;     /* NULL: $TMPDIR, else /tmp */
    size_t max_batch_bytes; /* 0: SS_DEFAULT_MAX_BATCH_BYTES */
} ss_groups_opts;

SS_API void ss_groups_opts_default(ss_groups_opts *o);

/* What named a data partition's topic (ss_gtp_ref.named_by). A KIP-848 assignment names topics by
 * id only; the id is mapped to a name by the first of these that knows it. */
enum ss_gnamed {
    SS_GNAMED_RECORD = 0,             /* the records name the topic (offset commits, classic assignments, topologies) */
    SS_GNAMED_GROUP_METADATA = 1,     /* the group's ConsumerGroupPartitionMetadata or StreamsGroupPartitionMetadata */
    SS_GNAMED_OFFSET_COMMIT = 2,      /* an OffsetCommitValue (version 4+) of the log carrying that topicId */
    SS_GNAMED_PARTITION_METADATA = 3, /* partition.metadata of a partition directory among the inputs */
    SS_GNAMED_CLUSTER_METADATA = 4,   /* a TopicRecord of a __cluster_metadata partition among the inputs */
    SS_GNAMED_NONE = 5                /* nothing read names the id: topic is NULL */
};

/* A data partition as the group records name it: by name (offset commits, classic
 * assignments) or by topic id (KIP-848 assignments). topic is NULL when a topic id
 * could be mapped to no name (named_by says which source named it). */
typedef struct ss_gtp_ref {
    const char *topic;
    size_t topic_len;
    const char *topic_id; /* base64url UUID as Kafka prints it, or NULL */
    int32_t partition;
    int named_by; /* enum ss_gnamed */
} ss_gtp_ref;

/* "record", "group-metadata", "offset-commit", "partition.metadata", "cluster-metadata", "none" */
SS_API const char *ss_gnamed_name(int named_by);

typedef struct ss_gmember {
    const char *member_id;
    size_t member_id_len;
    const char *instance_id; /* group.instance.id, NULL when none */
    size_t instance_id_len;
    const char *client_id, *client_host;
    size_t client_id_len, client_host_len;
    int32_t session_timeout_ms;   /* -1: Kafka has none (a KIP-848 member without classic metadata) */
    int32_t rebalance_timeout_ms; /* -1: none */
    int32_t member_epoch;         /* KIP-848: its current member epoch; -1 classic */
    int32_t previous_member_epoch;
    int state;             /* KIP-848 MemberState, -1 classic */
    bool assignment_known; /* false: the assignment could not be decoded (not protocol type "consumer") */
    size_t nparts;         /* the partitions it owned */
    const ss_gtp_ref *parts;
    size_t npending; /* KIP-848: partitions pending revocation (still owned) */
    const ss_gtp_ref *pending;
    /* streams groups (NULL / -1 otherwise): processId, userEndpoint ("host:port"), clientTags
     * ("k=v,..."), topologyEpoch of its member metadata; its tasks "s_p,..." (active ones pending
     * revocation included; standby and warm-up tasks own no input partition) */
    const char *process_id, *user_endpoint, *client_tags;
    int32_t topology_epoch;
    const char *active_tasks, *standby_tasks, *warmup_tasks;
    /* streams groups: its target assignment (StreamsGroupTargetAssignmentMember) as the epoch ends,
     * the tasks the assignor gave it ("s_p,..."; NULL none); target_known: such a record was read */
    bool target_known;
    const char *target_active_tasks, *target_standby_tasks, *target_warmup_tasks;
    /* assignment_known false because the member had none yet, not because it could not be decoded: a
     * classic member whose assignment is empty (it joined, the leader's SyncGroup had not given it one),
     * a KIP-848 / streams member with no current-assignment record yet (it had not joined) */
    bool assignment_pending;
    /* classic "consumer" members: how many partitions its subscription's ownedPartitions listed (what it
     * still owned when it sent its JoinGroup: an eager member revokes everything first,
     * ConsumerCoordinator.onJoinPrepare; a cooperative one keeps what it owns); -1 not recorded (a
     * ConsumerProtocolSubscription of version 0 has no ownedPartitions; not decoded; not classic) */
    int32_t owned_count;
} ss_gmember;

/* One change of a KIP-848 member's current assignment (ConsumerGroupCurrentMemberAssignment). */
typedef struct ss_gassign {
    int64_t time;   /* the record's timestamp */
    int64_t offset; /* its offset in __consumer_offsets */
    const char *member_id;
    size_t member_id_len;
    bool left; /* a tombstone: the member left (epoch -1, nothing owned) */
    int32_t member_epoch, previous_member_epoch;
    int state;
    size_t nparts;
    const ss_gtp_ref *parts;
    size_t npending;
    const ss_gtp_ref *pending;
} ss_gassign;

/* A classic generation (GroupMetadata record) or a KIP-848 group epoch
 * (ConsumerGroupMetadata record). A classic generation's members are the
 * record's; a group epoch's are the members as they stand when the epoch ends
 * (the next group epoch, a conversion or deletion, or the end of the log), and
 * `assignments` lists each change of a member's assignment during the epoch. */
typedef struct ss_ggeneration {
    int protocol;              /* SS_GPROTO_CLASSIC or SS_GPROTO_CONSUMER */
    int32_t generation;        /* classic generation id, or KIP-848 group epoch */
    int64_t time;              /* the record's timestamp */
    int64_t offset;            /* its offset in __consumer_offsets */
    int64_t until_time;        /* when the next generation/epoch began, -1 if none did */
    const char *protocol_type; /* classic: protocolType ("" for a new group) */
    const char *protocol_name; /* classic: the chosen protocol (the assignor), NULL when none */
    const char *leader;        /* classic: the leader's member id, NULL when none */
    size_t nmembers;
    const ss_gmember *members;
    size_t nassign;
    const ss_gassign *assignments;
} ss_ggeneration;

/* One owner of a data partition: from the generation (or assignment) that gave
 * it the partition to the one that took it away. */
typedef struct ss_gowner {
    const char *member_id;
    size_t member_id_len;
    const char *instance_id; /* NULL when none */
    size_t instance_id_len;
    int64_t from_time, from_offset;         /* __consumer_offsets record that gave it */
    int64_t to_time, to_offset;             /* record that took it away; -1: still owned at the end */
    int32_t generation_from, generation_to; /* classic generations / KIP-848 member epochs */
    int64_t start_committed;                /* the effective committed offset when it got the partition (where a
                                    consumer resumes, ConsumerCoordinator.onJoinComplete -> OffsetFetch; with a
                                    transactional commit pending then, what its marker left: the OffsetFetch asks
                                    for stable offsets, KIP-447); -1 none */
    uint64_t commits;                       /* commits of the partition while it owned it (attributed to it);
                                               one while nobody owned it (a cooperative revocation's, from
                                               onPartitionsRevoked) counts for its last owner */
    int64_t last_commit_time;               /* commitTimestamp of the last of them, -1 none */
    int64_t last_commit_offset;             /* the offset it committed, -1 none */
    int64_t commit_interval_ms;             /* median interval between its last commits (up to 8 intervals), -1 with
                                    fewer than two */
    int64_t empty_time, empty_offset;       /* the group had no members from this record (its last going empty
                                    after the owner before lost the partition: an empty generation, its last
                                    member's tombstone, the group's tombstone) until this owner got it; -1: it
                                    had members throughout (or there was no owner before) */
} ss_gowner;

enum ss_gevent_kind {
    SS_GEV_DELETED = 1,         /* group tombstone: the group was removed (its offsets only by their own tombstones) */
    SS_GEV_OFFSETS_DELETED = 2, /* offset tombstone: expiry, admin deletion and topic deletion look alike */
    SS_GEV_PROTOCOL_CHANGE = 3, /* an online conversion classic <-> consumer: offsets kept */
    SS_GEV_CREATED = 4,         /* the first record of the group in the log (or the first after a deletion) */
    SS_GEV_REWIND = 5,          /* the effective committed offset moved back */
    SS_GEV_OUT_OF_RANGE = 6,    /* committed offsets past the data partition's log end at their time (opts.data) */
    SS_GEV_TXN_ABORTED = 7,     /* a transactional offset commit whose transaction was aborted */
    SS_GEV_TXN_OPEN = 8,        /* a transactional offset commit whose transaction has no marker at the end */
    SS_GEV_EPOCH_BUMP = 9,      /* a producer committing offsets under an epoch its markers do not explain */
    SS_GEV_ADVANCED = 10,       /* the committed offset moved forward by a plain commit while the group, which
                                   has had members, had none (an admin's kafka-consumer-groups.sh --reset-offsets) */
};
/* "deleted", "offsets-deleted", "protocol-change", "created", "rewind", "out-of-range",
 * "transaction-aborted", "transaction-open", "epoch-bump", "advanced" */
SS_API const char *ss_gevent_kind_name(enum ss_gevent_kind kind);

typedef struct ss_gevent {
    enum ss_gevent_kind kind;
    int64_t time;             /* the record's (a transactional change: its marker's) */
    int64_t offset;           /* the record in __consumer_offsets */
    ss_gtp_ref tp;            /* offsets-deleted, rewind, out-of-range, transaction-*; topic NULL otherwise */
    int64_t last_offset;      /* offsets-deleted: the committed offset it removed; rewind: the one before; -1 none */
    uint64_t pending_removed; /* offsets-deleted: pending transactional offsets it removed */
    int from_protocol, to_protocol; /* protocol-change, created (to) */
    /* rewind */
    int64_t new_offset; /* the committed offset after it */
    bool had_members;   /* the group had members then (classic: its last generation's; KIP-848: its
                                    members); false: an empty group (kafka-consumer-groups.sh --reset-offsets
                                    needs one) */
    bool transactional; /* the new offset came from a transaction's COMMIT */
    /* offsets-deleted: the first committed offset of the partition after it, -1 when none followed */
    int64_t restart_offset, restart_time, restart_record;
    /* rewind, offsets-deleted, transaction-aborted: the highest committed offset of the partition after
     * it (-1 none): past the old offset, what lay between was delivered again */
    int64_t later_max;
    /* rewind, advanced: the highest offset a reader committed before it (a commit while the group had
     * members, a transaction's, or any commit of a group without membership records; -1 none), and
     * when the offset it moved from was committed */
    int64_t reader_max, old_time;
    /* rewind: the highest committed offset strictly between the new and the old one before the
     * partition's next rewind or deletion (-1 none): commits stepping through what it sent back */
    int64_t step_max;
    /* out-of-range: the committed offset, the data partition's offsets at its time (log_end: the first
     * offset not yet present then, see segscan/timeline.h), and the commits of that partition in a row
     * that were past it (count, the last one's time) */
    int64_t commit_offset; /* also transaction-*: the offset it would have committed */
    int64_t log_start, log_end;
    uint64_t count;
    int64_t last_time;
    /* transaction-*, epoch-bump: the producer and its transaction */
    int64_t producer_id;
    int16_t producer_epoch; /* of its offset commits (epoch-bump: the new epoch) */
    int16_t marker_epoch;   /* transaction-aborted: its ABORT marker's; epoch-bump: the last marker's, -1 none */
    int64_t marker_time, marker_offset; /* transaction-aborted, epoch-bump: that marker in __consumer_offsets */
    int64_t committed_before;           /* transaction-*: the committed offset when it was written, -1 none */
    int64_t first_time; /* transaction-*: the transaction's first offset commit here (record timestamp) */
    int64_t prev_marker_time, next_marker_time; /* transaction-*: the producer's markers here before and after */
    int16_t old_epoch;                          /* epoch-bump: the epoch of its offset commits before */
    bool marker_aborted;                        /* epoch-bump: its last marker was an ABORT */
    bool open_before;                           /* epoch-bump: a transaction of the old epoch had no marker yet */
    uint8_t txn_versions; /* transaction-*, epoch-bump: what the producer's COMMIT markers here showed:
                                    bit 1 transaction version 1 (marker epoch = data epoch), bit 2 version 2
                                    (KIP-890: marker epoch = data epoch + 1); 0 none seen */
} ss_gevent;

/* A (group, topic, partition) the group committed or owned. */
typedef struct ss_gpartition {
    ss_gtp_ref tp;
    bool committed;        /* a committed offset stands at the end */
    int64_t offset;        /* the committed offset at the end (the next offset to read), -1 when none */
    int64_t commit_time;   /* its commitTimestamp */
    int64_t record_offset; /* the record that committed it */
    int32_t leader_epoch;
    const char *metadata;
    size_t metadata_len;
    bool transactional; /* the committed offset came from a transaction */
    uint64_t commits;   /* commit records read (plain and transactional) */
    uint64_t txn_commits, txn_committed, txn_aborted, txn_open;
    uint64_t deletions;                          /* offset tombstones */
    int64_t first_commit_time, last_commit_time; /* -1 when none */
    size_t nowners;
    const ss_gowner *owners;
} ss_gpartition;

/* A subtopology of a streams group's topology (StreamsGroupTopology, KIP-1071): task id_p reads
 * partition p of each of its source and repartition-source topics, and of each topic its
 * SourceTopicRegex matches (which the record does not name: those the group commits are found). */
typedef struct ss_gsubtopology {
    const char *id;
    size_t nsource;
    const char *const *source_topics;
    size_t nrepartition;
    const char *const *repartition_source_topics;
    size_t nregex;
    const char *const *source_topic_regex;
    /* the topics the group commits that a SourceTopicRegex matches whole (POSIX extended
     * expressions, an approximation of java.util.regex), its tasks' inputs too */
    size_t nmatched;
    const char *const *regex_matched;
    size_t nunresolved; /* the expressions regcomp refused: their topics are unknown */
    const char *const *unresolved_regex;
} ss_gsubtopology;

typedef struct ss_group {
    const char *id;
    size_t id_len;
    uint32_t log;                  /* index of its __consumer_offsets partition (ss_groups_log_at) */
    int32_t coordinator_partition; /* the partition it was read from */
    int32_t expected_partition;    /* Utils.abs(groupId.hashCode()) % opts.partitions */
    int protocol;                  /* as it stands at the end (the last one it had when deleted) */
    const char *protocol_type;     /* "consumer", "connect", ...; NULL: none (a group that only commits, or KIP-848) */
    const char *assignor;          /* classic: the protocol of its last generation that had one; KIP-848: the
                                    server assignor its members named last; NULL when none */
    bool deleted;                  /* its last group record was a tombstone */
    size_t ngenerations;
    const ss_ggeneration *generations;
    size_t nmembers_distinct; /* distinct member ids over all generations */
    size_t nevents;
    const ss_gevent *events; /* in log order */
    size_t npartitions;
    const ss_gpartition *partitions; /* by topic, then partition */
    uint64_t commits, txn_commits;
    uint64_t undecoded_records; /* its records of types Kafka 4.0 decodes and segscan's decoder flags as not
                                    decoded (none since every type of Kafka 4.0 is): membership unknown */
    int64_t first_offset;       /* its first record in __consumer_offsets */
    int64_t first_time, last_time;
    /* a streams group: its last topology record's epoch (-1: none read, or a tombstone) and subtopologies */
    int32_t topology_epoch;
    size_t nsubtopologies;
    const ss_gsubtopology *subtopologies;
} ss_group;

/* A copy of a __consumer_offsets partition (one per log directory that holds it). */
typedef struct ss_glog_copy {
    const ss_input_partition *input;
    bool read; /* the copy the history was built from */
    int64_t first_offset, next_offset;
    uint64_t records;
    uint64_t same;            /* offsets holding the same record in this copy and the one read */
    uint64_t only_here;       /* offsets only in this copy */
    uint64_t only_read;       /* offsets only in the copy read */
    uint64_t differing;       /* offsets holding different records */
    int64_t first_difference; /* first offset that differs or is in only one copy (within both ranges), -1 */
} ss_glog_copy;

#define SS_GLOG_UNKNOWN_TYPES 16

/* One __consumer_offsets partition. */
typedef struct ss_glog {
    int32_t partition;
    const ss_input_partition *input; /* the copy read */
    uint64_t batches, records, control_records, tombstones;
    uint64_t unknown_records; /* record types segscan does not decode (notices) */
    /* unknown_records by record type: the first SS_GLOG_UNKNOWN_TYPES types met, by count of
     * records; the records of further types in unknown_other_types */
    struct {
        int16_t type;
        uint64_t count;
    } unknown_types[SS_GLOG_UNKNOWN_TYPES];
    uint32_t n_unknown_types;
    uint64_t unknown_other_types;
    uint64_t bad_records;              /* records whose bytes could not be read (damage) */
    uint64_t damage_events;            /* damaged batches met by the walker */
    int64_t first_offset, next_offset; /* -1 when empty */
    int64_t complete_from;             /* offset from which no record is missing */
    int64_t complete_from_time;        /* timestamp of the first record there, -1 when none */
    int64_t cleaner_checkpoint;        /* cleaner-offset-checkpoint of its log directory, -1 when none */
    uint64_t missing_offsets;          /* offsets below complete_from not in the log (holes) */
    bool compacted;                    /* holes, or batches the cleaner rewrote (delete horizon) */
    size_t ncopies;                    /* 1 when no replica was given */
    const ss_glog_copy *copies;
} ss_glog;

typedef struct ss_groups ss_groups;

SS_API ss_groups *ss_groups_new(const ss_groups_opts *opts);
SS_API void ss_groups_free(ss_groups *g);
/* Read every __consumer_offsets partition of `in` (which must outlive g): a partition
 * directory of that name, segments inside one, or a segment held in memory given its name
 * (ss_inputs_add_memory), and build the histories; __transaction_state partitions among the inputs give the
 * transactional ids. Returns SS_E_OK, SS_E_NOMEM or SS_E_IO (a temporary file
 * failed); damage is recorded, not fatal. */
SS_API ss_errkind ss_groups_run(ss_groups *g, const ss_inputs *in);
SS_API const char *ss_groups_failure(const ss_groups *g);

SS_API size_t ss_groups_log_count(const ss_groups *g);
/* opts.partitions: the __consumer_offsets partition count of the coordinator check */
SS_API int32_t ss_groups_partition_count(const ss_groups *g);
SS_API const ss_glog *ss_groups_log_at(const ss_groups *g, size_t i);

/* Groups sorted by id (then coordinator partition). A group's view (its scalars and
 * its arrays: generations, their members and assignments, events, partitions and
 * owners) is built when it is asked for and stays valid until another group is
 * asked for: the pointer returned is the same for every group, so a caller that
 * needs two groups at once copies what it needs of the first (its strings stay
 * valid until ss_groups_free). */
SS_API size_t ss_groups_count(const ss_groups *g);
SS_API const ss_group *ss_groups_at(ss_groups *g, size_t i);

/* Notices and damage, for the user, in the order of the logs (segscan/errors.h's
 * ss_problems; kind SS_E_OK, each message names the file): SS_SEV_NOTICE (a
 * record type segscan does not decode: the first 10 records of a log, then one note
 * "and N more"; ss_glog counts them by type), SS_SEV_WARNING (the transactional ids
 * could not be read, notes left out past 100 a log), SS_SEV_ERROR (damage:
 * unreadable bytes or records, a file that could not be opened). */
SS_API const ss_problems *ss_groups_problems(const ss_groups *g);
/* Damage was met (exit 3), and files that could not be opened (exit 2). */
SS_API uint64_t ss_groups_damage(const ss_groups *g);
SS_API uint64_t ss_groups_unreadable(const ss_groups *g);

/* ---- commits (opts.commits) ---------------------------------------------------------- */

typedef struct ss_gcommit {
    ss_gtp_ref tp;
    int64_t time;          /* commitTimestamp */
    int64_t record_offset; /* the record in __consumer_offsets */
    int64_t offset;        /* the committed offset (next to read) */
    int32_t leader_epoch;  /* -1: none */
    const char *metadata;
    size_t metadata_len;
    int64_t expire_time; /* value version 1 only, else -1 */
    bool transactional;
    int64_t producer_id; /* -1 for a plain commit */
    int16_t producer_epoch;
    const char *transactional_id; /* from __transaction_state when read, else NULL */
    enum ss_goutcome outcome;
    bool effective;            /* it became the committed offset (a later commit may replace it) */
    int64_t effective_time;    /* when (a transactional one: its marker's time), -1 when never */
    const char *attributed_to; /* member id of the partition's owner then; NULL when none owned it */
    const char *attributed_instance;
    int32_t attributed_generation; /* -1 when none */
} ss_gcommit;

typedef struct ss_gcommit_iter ss_gcommit_iter;
/* Commits kept of group i, by topic, partition, then log order. Returns NULL when
 * memory runs out. Each commit stays valid until the next call. */
SS_API ss_gcommit_iter *ss_group_commits(ss_groups *g, size_t i);
/* 1 with a commit, 0 at the end, -1 when a temporary file could not be read. */
SS_API int ss_gcommit_next(ss_gcommit_iter *it, ss_gcommit *out);
SS_API void ss_gcommit_iter_free(ss_gcommit_iter *it);
/* Commits written to temporary files because of opts.max_memory (0: none). */
SS_API uint64_t ss_groups_spilled(const ss_groups *g);

#ifdef __cplusplus
}
#endif
#endif
