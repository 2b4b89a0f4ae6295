/* segscan - consumer groups (internal): the state one reading thread keeps
 * for one __consumer_offsets partition while it replays its records
 * (replay.c: offsets, transactions; members.c: classic and KIP-848
 * membership), the kept commits (commits.c), the run (groups.c) and the
 * public views built from it one group at a time (views.c).
 *
 * Everything a log's replay creates lives in that log's state: strings are
 * interned in its arena (stable pointers, one copy each), groups, partitions,
 * generations, owners and events in its arrays, indexed by uint32. A group
 * lives in one __consumer_offsets partition (the coordinator's), so logs are
 * independent and are read in parallel without locks.
 *
 * Memory: what is kept per (group, topic, partition) is a gpart (the committed
 * offset and counters), its owners (one gownership per ownership), and 4 bytes in
 * each generation's assignment; at the end of a log's replay (g_pack_log) the
 * arrays the views read are packed and the replay's own state is freed; the
 * public structs are filled on demand, from the packed arrays (gv_*). */
#ifndef SS_GROUPS_INT_H
#define SS_GROUPS_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/error_set.h"
#include "format/walker.h"
#include "segscan/decode.h"
#include "segscan/groups.h"
#include "segscan/timeline.h"

/* ---- interned strings ----------------------------------------------------------------------
 * A string is stored once per log: 4 bytes of length, the bytes, a NUL. Its
 * pointer (to the bytes) is its identity: equal strings have equal pointers. */
typedef struct gs_chunk gs_chunk;
typedef struct gstrtab {
    gs_chunk *chunks;
    uint8_t *cur, *end;
    const char **slots; /* open addressing by hash; NULL: empty */
    uint32_t *aux;      /* a number the caller keeps beside a string (a group's index + 1); NULL when the
                         * table's callers never ask for one (with_aux false) */
    size_t cap, n;
    uint64_t bytes; /* arena bytes, for the memory figure */
    bool nomem;
    bool with_aux;
    bool sealed; /* its slots freed (gs_seal): it takes no more strings */
} gstrtab;

const char *gs_intern(gstrtab *t, const uint8_t *s, size_t len, uint32_t **aux);
/* the end of a log's replay: its strings stay, the slots that found them go (nothing
 * interns after glog_end; a string interned later would not be found equal to one before) */
void gs_seal(gstrtab *t);
static inline size_t gs_len(const char *s) {
    uint32_t n;
    memcpy(&n, s - 4, 4);
    return n;
}
void gs_free(gstrtab *t);

#define GROW32(v, n, cap, first) ((n) < (cap) || grow32_(&(v), &(cap), sizeof *(v), (first)))
bool grow32_(void *vp, uint32_t *cap, size_t size, size_t first);
/* Bytes allocated, counted where a limit applies: a log's count adds to the run's (up). */
typedef struct gcount {
    atomic_size_t n;
    struct gcount *up;
} gcount;

/* the same for log L's large arrays (state.c), their bytes counted in L->in_memory:
 * freed with g_vfree only */
#define GVGROW(L, v, n, cap, first) ((n) < (cap) || gvgrow_((L)->in_memory, &(v), &(cap), sizeof *(v), (first)))
bool gvgrow_(gcount *acct, void *vp, uint32_t *cap, size_t size, size_t first);
/* bytes the history allocated (acct: NULL, not counted) */
static inline void g_count(gcount *acct, size_t bytes) {
    for (gcount *k = acct; k && bytes; k = k->up) atomic_fetch_add(&k->n, bytes);
}
static inline void g_uncount(gcount *acct, size_t bytes) {
    for (gcount *k = acct; k && bytes; k = k->up) atomic_fetch_sub(&k->n, bytes);
}
/* the bytes counted by the run (acct's outermost count) */
static inline size_t g_counted(const gcount *acct) {
    while (acct->up) acct = acct->up;
    return atomic_load(&acct->n);
}
void g_vfree(void *p);

/* ---- per (group, topic, partition) ---------------------------------------------------------- */

/* TP_START_PENDING: its open owner got it while a transactional commit of it was pending (the
 * owner's start_committed is what the commit's marker leaves) */
enum { TP_COMMITTED = 1, TP_TXN = 2, TP_OPEN_OWNER = 4, TP_START_PENDING = 16 };

/* A record that gave partitions to members or took them away: the time and offset
 * every ownership it starts or ends shares. */
typedef struct gpoint {
    int64_t time, offset;
} gpoint;

/* One ownership of a partition (ss_gowner), linked per partition: 72 bytes. */
typedef struct gownership {
    const char *member, *instance;
    int64_t start_committed;                      /* the effective committed offset when it got it */
    int64_t last_commit_time, last_commit_offset; /* its last commit of the partition */
    uint32_t from, to;                            /* gpoint index + 1 (to: 0 while it owns it) */
    int32_t gen_from, gen_to;
    uint32_t commits;
    int32_t interval_ms; /* median of its last intervals, -1: fewer than 2 commits */
    uint32_t prev;       /* the partition's owner before, index + 1 */
    uint32_t empty;      /* the point (index + 1) the group last had no members at, when that came after the
                            owner before lost the partition (the padding's 4 bytes), 0: it had members */
} gownership;

/* the intervals between the current owner's last commits (a partition's commit cadence);
 * how many and where the next goes are in its gpart (ring_n, ring_pos); a free ring's
 * iv[0] is the next free one's index + 1 */
#define CADENCE 8
typedef struct gring {
    uint32_t iv[CADENCE];
} gring;

/* What few partitions need (a gpart's ext): transactional commits, offset deletions, and
 * the events that ask what was committed after them. */
typedef struct gpart_ext {
    uint32_t txn_commits, txn_committed, txn_aborted, txn_open, deletions, pending;
    uint32_t watch;       /* its last event that asks what was committed after it (+1) */
    uint32_t oor;         /* its out-of-range event still growing (+1), 0 none */
    uint32_t del_pending; /* its offsets-deleted event waiting for the next commit (+1) */
    int64_t run_max;      /* the highest committed offset since the watched event, -1 none */
} gpart_ext;

/* 104 bytes: what every partition needs; the rest is in its gpart_ext, made when needed (its data
 * partition is looked up through the log's tl_cache, not kept: 8 bytes less) */
typedef struct gpart {
    uint32_t group;
    int32_t partition;
    const char *topic;                          /* interned; NULL while only a topic id is known */
    const char *topic_id;                       /* interned base64url, or NULL */
    int64_t offset, commit_time, record_offset; /* the committed offset (flags & TP_COMMITTED) */
    const char *metadata;
    int32_t leader_epoch;
    uint8_t flags;
    uint8_t ring_n, ring_pos; /* the current owner's ring: intervals in it, the next one's slot */
    uint8_t named_by;         /* enum ss_gnamed: what mapped its topic id to its name */
    uint8_t commits_hi;       /* commits: a 40-bit count, commits_hi << 32 | commits_lo */
    uint32_t commits_lo;
    uint32_t owner_last; /* its last owner's gownership index + 1 (they are linked back), 0: none */
    uint32_t ring;       /* the current owner's gring index + 1 */
    uint32_t ext;        /* its gpart_ext index + 1, 0: none yet */
    int64_t first_commit_time, last_commit_time;
    int64_t reader_max; /* the highest offset a reader committed (a member, a transaction, or
                                * any commit of a group without membership records), -1 none */
} gpart;

/* ---- generations ------------------------------------------------------------------------------ */

/* a partition named by a member or an assignment: an index into the log's gpart array */
typedef struct gref_v {
    uint32_t *v;
    uint32_t n, cap;
} gref_v;

/* a member of a generation, as kept (ss_gmember is filled from it) */
typedef struct gmem {
    const char *member_id, *instance_id, *client_id, *client_host;
    const char *process_id, *user_endpoint, *client_tags; /* streams groups */
    const char *active_tasks, *standby_tasks, *warmup_tasks;
    const char *target_active, *target_standby, *target_warmup; /* StreamsGroupTargetAssignmentMember */
    bool has_target;
    int32_t topology_epoch;
    int32_t session_timeout_ms, rebalance_timeout_ms;
    int32_t member_epoch, previous_member_epoch;
    int8_t state;
    bool assignment_known;
    bool assignment_pending;                         /* ss_gmember.assignment_pending */
    int32_t owned_count;                             /* ss_gmember.owned_count */
    uint32_t parts_at, nparts, pending_at, npending; /* in the log's refs */
} gmem;

typedef struct gassign_int {
    int64_t time, offset;
    const char *member_id;
    bool left;
    int32_t member_epoch, previous_member_epoch;
    int8_t state;
    uint32_t parts_at, nparts, pending_at, npending;
} gassign_int;

typedef struct ggen {
    int8_t protocol;
    bool open; /* KIP-848: members are filled when the epoch ends */
    int32_t generation;
    int64_t time, offset, until_time;
    const char *protocol_type, *protocol_name, *leader;
    uint32_t group;
    uint32_t members_at, nmembers; /* in the log's members */
    uint32_t assign_at, nassign;   /* in the log's assigns (contiguous: one open epoch per group) */
} ggen;

/* a KIP-848 member as ConsumerGroupMember holds it */
typedef struct kmember {
    const char *member_id, *instance_id, *client_id, *client_host, *assignor;
    int32_t session_timeout_ms, rebalance_timeout_ms;
    int32_t epoch, previous_epoch;
    int state;
    bool has_metadata, has_assignment;
    bool assignment_read;  /* a current-assignment record of it was read (it has joined) */
    gref_v owned, pending; /* gpart indices */
    /* streams groups (KIP-1071): the member's process, endpoint and topology epoch, and its
     * tasks as text ("0_0,1_2"; pending revocation included), NULL when none */
    const char *process_id, *user_endpoint, *client_tags;
    int32_t topology_epoch;
    const char *active_tasks, *standby_tasks, *warmup_tasks;
    /* its target assignment (StreamsGroupTargetAssignmentMember), as text; has_target: one was read */
    const char *target_active, *target_standby, *target_warmup;
    bool has_target;
} kmember;

/* a streams group's subtopology (StreamsGroupTopology): its id and the topics whose partition p
 * task id_p reads (SourceTopics and RepartitionSourceTopics) */
typedef struct gsubtopo {
    const char *id;
    /* its SourceTopics (the first nsource), its RepartitionSourceTopics (nrepartition), then the
     * topics the group commits that its SourceTopicRegex matches (nmatched) */
    const char **topics;
    uint32_t ntopics, nsource, nrepartition, nmatched;
    const char **regex; /* its SourceTopicRegex: topics the record does not name */
    uint32_t nregex;
    const char **bad; /* those regcomp refused: unresolved */
    uint32_t nbad;
} gsubtopo;

/* an event: the public one and what its replay keeps beside it */
typedef struct gev {
    ss_gevent e;
    uint32_t next_watch; /* the partition's next event that asks what was committed after it (+1) */
    int64_t seg_max;     /* the highest committed offset between this one and next_watch */
} gev;

typedef struct gevent_v {
    gev *v;
    uint32_t n, cap;
} gevent_v;
typedef struct u32_v {
    uint32_t *v;
    uint32_t n, cap;
} u32_v;

/* a topic id named by ConsumerGroupPartitionMetadata */
typedef struct gtopic_name {
    const char *id, *name;
} gtopic_name;

typedef struct ggroup {
    const char *id;
    int protocol;          /* as it stands (SS_GPROTO_*) */
    int32_t open_gen;      /* index of its open KIP-848 epoch, -1 */
    bool exists;           /* a group record (or a commit) made it and no tombstone removed it since */
    bool deleted;          /* its last group record was a tombstone */
    bool wanted;           /* opts.groups names it (or names none) */
    bool empty_now;        /* it has had no members since empty_pt */
    uint32_t nmembers_now; /* members it has at this point of the log (classic: its last generation's) */
    const char *protocol_type, *assignor;
    u32_v tps;  /* its gpart indices */
    u32_v gens; /* its ggen indices */
    gevent_v events;
    kmember *kmembers;
    uint32_t nkmembers, kcap;
    gtopic_name *names;
    uint32_t nnames, ncap;
    gsubtopo *subs; /* streams groups: the topology */
    uint32_t nsubs;
    int32_t topology_epoch; /* -1 none */
    int64_t first_offset, first_time, last_time;
    uint64_t commits, txn_commits, undecoded;
    uint64_t removed_batch; /* batch number of its last tombstone (a conversion follows in the same batch) */
    uint32_t empty_pt;      /* the point (index + 1) it last had no members at (an empty generation, its last
                               member's tombstone, its own tombstone), 0 none */
} ggroup;                   /* 184 bytes */

/* ---- transactional offsets pending their marker -------------------------------------------- */

typedef struct gpending {
    uint32_t tp;
    bool superseded; /* a later commit of the same partition in the same transaction */
    bool removed;    /* an offset tombstone removed it */
    int64_t record_offset, offset, commit_time;
    int64_t committed_before; /* the effective committed offset when it was written, -1 none */
    int32_t leader_epoch;
    const char *metadata;
    int64_t held; /* index in the commit store's held list, -1 when not kept */
} gpending;

/* A producer id's open transaction (its pending offsets) and what its earlier
 * transactions here said about its epochs (the producer's history is kept for
 * the whole log: a bump of its epoch is judged against its last marker). */
typedef struct gpid {
    int64_t producer_id;
    int16_t producer_epoch; /* of its current (or last) transaction's offset commits */
    int16_t marker_epoch;   /* of its last marker, -1 none */
    int8_t marker;          /* its last marker: 0 none, 1 COMMIT, 2 ABORT */
    uint8_t tv;             /* transaction versions its COMMIT markers showed: bit 1 v1 (epoch kept), bit 2 v2 (+1) */
    bool open;              /* offset commits since its last marker */
    int64_t marker_time, marker_record;
    int64_t first_time;       /* its open transaction's first commit (record timestamp) */
    int64_t prev_marker_time; /* the marker before the open transaction's, -1 none */
    uint32_t group;           /* the group of its last commit */
    gpending *v;
    uint32_t n, cap;
    uint64_t *awaiting; /* events (group << 32 | index) waiting for its next marker's time */
    uint32_t nawait, capawait;
} gpid;

/* ---- kept commits (commits.c) ----------------------------------------------------------------- */

/* a sorted run of commits in a temporary file */
typedef struct grun {
    FILE *f;
    size_t len; /* records in it */
} grun;

typedef struct gcommit {
    uint32_t tp;
    uint8_t outcome; /* enum ss_goutcome */
    uint8_t effective;
    int16_t producer_epoch;
    int32_t leader_epoch;
    int32_t generation;
    int64_t record_offset, time, offset, producer_id, effective_time, expire_time;
    const char *metadata, *member, *instance;
} gcommit;

typedef struct gcommits {
    gcommit *buf; /* resolved commits, not yet sorted */
    size_t n, cap;
    gcommit *held; /* transactional commits waiting for their marker */
    size_t nheld, capheld;
    size_t budget;     /* bytes the history and the kept commits of all logs may take; 0: no limit */
    gcount *in_memory; /* bytes they take now (the log's, and through it the run's) */
    grun *runs;        /* sorted runs in temporary files */
    size_t nruns, runcap;
    FILE *merged;    /* the runs merged, when there were any */
    gcommit *sorted; /* or everything, sorted in memory */
    size_t total;
    uint64_t spilled;
    const char *tmpdir;
    bool failed;
    uint32_t *group_at, *group_n; /* per group: first record and count in the sorted order */
} gcommits;

struct glog;
bool gc_add(struct glog *L, const gcommit *r);     /* a resolved commit */
int64_t gc_hold(struct glog *L, const gcommit *r); /* a transactional one: its held index, -1 on failure */
void gc_resolve(struct glog *L, int64_t held, int outcome, bool effective, int64_t effective_time);
bool gc_finish(struct glog *L); /* open ones resolved, sorted, indexed by group */
void gc_free(gcommits *c);
/* a log's commits kept sorted in memory go to a file (the run ends over --max-memory) */
bool gc_spill_sorted(struct glog *L);
size_t gc_read(const struct glog *L, size_t first, gcommit *out, size_t n);

/* a data partition looked up by (topic, partition): the log's groups mostly read the same few */
typedef struct gtl_slot {
    const char *topic; /* interned; NULL: empty */
    int32_t partition;
    const ss_tl_partition *tl; /* NULL: not read */
} gtl_slot;
#define GTL_SLOTS 256

/* ---- a read log's arrays, packed (pack.c) ------------------------------------------------------- */

/* An array of entries of whole 32-bit words, stored as blocks of GP_BLOCK entries, each
 * entry as its differences from the entry before; or, when packing it failed, the array
 * itself (raw: not owned). gp_at's entry is valid until the next gp_at of the same array. */
#define GP_BLOCK 16
/* a block decoded: its first `ready` entries */
typedef struct gpslot {
    uint8_t *cache;
    uint32_t block;   /* + 1 (0: none) */
    uint32_t ready;   /* entries decoded */
    uint32_t next_at; /* the next one's first byte */
} gpslot;
typedef struct gpack {
    uint8_t *bytes;
    uint32_t *block_at; /* each block's first byte, and the end */
    uint8_t *base;      /* the first entry, as it is */
    const uint8_t *raw; /* the array unpacked (two blocks or less, or packing failed), NULL */
    uint32_t n, size;
    gpslot slot[2]; /* two blocks decoded: a group's entries can straddle two */
    unsigned last;  /* the slot read last */
} gpack;

bool gp_pack(gpack *p, const void *v, uint32_t n, size_t size, gcount *acct);
const void *gp_at_slow(gpack *p, uint32_t i);
static inline const void *gp_at(gpack *p, uint32_t i) {
    if (p->raw) return p->raw + (size_t)i * p->size;
    uint32_t b = i / GP_BLOCK + 1, j = i % GP_BLOCK;
    for (unsigned s = 0; s < 2; s++)
        if (p->slot[s].block == b && j < p->slot[s].ready) {
            p->last = s;
            return p->slot[s].cache + (size_t)j * p->size;
        }
    return gp_at_slow(p, i);
}
void gp_free(gpack *p);

/* a group once its log is read: what its view needs (a ggroup less the replay's state) */
typedef struct gdone {
    const char *id, *protocol_type, *assignor;
    gev *events; /* the ggroup's, moved */
    int64_t first_offset, first_time, last_time;
    uint64_t commits, txn_commits, undecoded;
    int32_t protocol;
    uint32_t nevents;
    uint32_t tps_at, ntps, gens_at, ngens; /* in the log's lists: gpart and ggen indices */
    uint8_t deleted, wanted;
    gsubtopo *subs; /* a streams group's last topology (the ggroup's, moved) */
    uint32_t nsubs;
    int32_t topology_epoch;
} gdone;

/* ---- lag (lag.c) -------------------------------------------------------------------------------- */

/* A partition's last commits that became its committed offset, Burrow's window (segscan/lag.h):
 * kept only when the data partitions are read (opts.data), in a ring; 168 bytes a partition that
 * committed. */
#define LAG_WINDOW 10
typedef struct glagw {
    int64_t offset[LAG_WINDOW], time[LAG_WINDOW];
    uint8_t n, pos; /* commits in it, the next one's slot */
} glagw;
struct glog;
void g_lag_note(struct glog *L, uint32_t ti, int64_t offset, int64_t time); /* a commit took effect */
void g_lag_reset(struct glog *L, uint32_t ti);                              /* its offset was deleted */

/* ---- one __consumer_offsets partition ----------------------------------------------------------- */

typedef struct glog {
    const ss_groups_opts *opts;
    gcount *in_memory; /* the bytes of this log's history and kept commits, counted in the run's too
                          (NULL: not counted) */
    uint32_t input;    /* index in the inputs of the copy read */
    int32_t partition;
    gstrtab groups_tab; /* group ids (aux: index + 1) */
    gstrtab strs;       /* every other string */
    ggroup *groups;
    uint32_t ngroups, gcap;
    gpart *tps;
    uint32_t ntps, tcap;
    uint32_t *tp_slots; /* hash of (group, topic, topic id, partition) -> index + 1 */
    size_t tp_slot_cap;
    gownership *owners;
    uint32_t nowners, owncap;
    gpoint *points;
    uint32_t npoints, pointcap;
    gring *rings;
    uint32_t nrings, ringcap, ring_free; /* ring_free: a free ring's index + 1 */
    gpart_ext *tpx;
    uint32_t ntpx, tpxcap;
    gtl_slot *tl_cache; /* GTL_SLOTS, direct-mapped (g_tl_of), made when the data partitions were read */
    u32_v scratch;      /* a record's partitions, sorted (members.c) */
    ggen *gens;
    uint32_t ngens, gencap;
    gmem *members;
    uint32_t nmembers, memcap;
    gassign_int *assigns;
    uint32_t nassigns, assigncap;
    gref_v refs; /* partitions of members and assignments */
    gpid *pids;
    uint32_t npids, pidcap;
    gcommits commits;
    glagw *lagw;    /* by gpart index (opts.data only), NULL until a commit took effect */
    uint32_t nlagw; /* its room (GVGROW) */
    const ss_txn_ids *txn_ids;
    /* a topic id's name from partition.metadata of the inputs (NULL when none) */
    const char *(*input_name)(const void *ctx, const char *topic_id, int *named_by);
    const void *input_name_ctx;
    /* topic ids named by this log's own offset commits (OffsetCommitValue version 4's topicId beside
     * the key's topic name, Kafka 4.1+), read before the replay: the assignments of KIP-848 groups
     * name topics by id only, and Kafka 4.1+ writes no ConsumerGroupPartitionMetadata */
    gtopic_name *commit_names;
    uint32_t ncommit_names, commit_names_cap;
    /* streams groups whose topology reads by regular expression (SourceTopicRegex), and the topics
     * each of them commits ({group, topic}), read before the replay when there are such groups */
    const char **rx_groups;
    uint32_t nrx_groups, rx_groups_cap;
    gtopic_name *rx_topics;
    uint32_t nrx_topics, rx_topics_cap;
    /* One pass instead of the walk before the replay (groups.c, read_log): the names above are
     * gathered as the replay goes. A topic id an assignment could not name yet (missed) that a
     * later commit names, or a topology read by regular expression, would make the replay's
     * answer differ from the one with every name known first: `redo` says so, and the log is
     * read again the other way. */
    bool one_pass, redo;
    gcount own; /* the bytes this log counted (in_memory), in the run's too (own.up): a log read
                   again takes its first reading's off */
    const char **missed;
    uint32_t nmissed, missed_cap;
    /* reading */
    uint64_t batch_no;
    int64_t batch_time;
    ss_glog info;
    int64_t expect_next;   /* the offset after the last one read, -1 before the first */
    int64_t last_hole_end; /* first offset after the last hole, -1 when none */
    bool nomem;
    ss_problems notes; /* at most 100; moved into the groups' problems at the end */
    uint64_t notes_dropped;
    uint64_t unreadable;
    uint64_t skipped_records; /* records of groups opts.groups does not name, not replayed */
    /* after the replay (g_pack_log): what the views read, packed; the arrays it was packed
     * from are freed (a raw one stays where it is: a short one, or one whose packing failed) */
    gdone *done;     /* the groups as the views need them (not packed: see g_pack_log) */
    uint32_t *lists; /* the groups' partitions and generations (freed once packed in p_lists) */
    gpack p_lists, p_tps, p_owners, p_points, p_tpx, p_gens, p_members, p_assigns, p_refs;
} glog;

/* pack.c: the end of the replay: the groups' views' arrays packed, the rest freed */
void g_pack_log(glog *L);
void g_pack_free(glog *L);
/* the packed arrays' entries (valid until the next of the same array) */
static inline const gdone *gv_group(glog *L, uint32_t i) { return &L->done[i]; }
static inline uint32_t gv_list(glog *L, uint32_t i) { return *(const uint32_t *)gp_at(&L->p_lists, i); }
static inline const gpart *gv_tp(glog *L, uint32_t i) { return gp_at(&L->p_tps, i); }
static inline const gownership *gv_owner(glog *L, uint32_t i) { return gp_at(&L->p_owners, i); }
static inline const gpoint *gv_point(glog *L, uint32_t i) { return gp_at(&L->p_points, i); }
static inline const gpart_ext *gv_tpx(glog *L, const gpart *t) { return t->ext ? gp_at(&L->p_tpx, t->ext - 1) : NULL; }
static inline const ggen *gv_gen(glog *L, uint32_t i) { return gp_at(&L->p_gens, i); }
static inline const gmem *gv_member(glog *L, uint32_t i) { return gp_at(&L->p_members, i); }
static inline const gassign_int *gv_assign(glog *L, uint32_t i) { return gp_at(&L->p_assigns, i); }
static inline uint32_t gv_ref(glog *L, uint32_t i) { return *(const uint32_t *)gp_at(&L->p_refs, i); }

/* replay.c (and state.c: glog_init, glog_note, glog_wanted_key; offsets.c: glog_marker) */
void glog_init(glog *L, const ss_groups_opts *opts, uint32_t input, int32_t partition);
void glog_free(glog *L);
/* one data record of a batch, decoded (dec) */
void glog_record(glog *L, const ss_batch *b, const ss_record *r, const ss_cdecoded *dec);
/* a control record (transaction marker) of producer b->producer_id */
void glog_marker(glog *L, const ss_batch *b, const ss_record *r);
/* the end of the log: open epochs closed, ids named, commits sorted */
void glog_end(glog *L);
/* a record of a type Kafka decodes and segscan does not: counted against its group (the
 * keys of types 3..15 begin with the group id) */
void glog_undecoded(glog *L, const ss_record *r);
void glog_note(glog *L, ss_severity severity, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Is the record's group one opts.groups names? Read from the key's bytes (every group
 * record's key is its type, then the group id as a string of int16 length) before it
 * is decoded; true when the key is not of that form. */
bool glog_wanted_key(const glog *L, const ss_record *r);

/* state.c: what offsets.c and members.c share */
const char *g_intern(glog *L, const uint8_t *s, size_t len);
uint32_t g_group_get(glog *L, const uint8_t *id, size_t len, int64_t offset, int64_t time);
uint32_t g_tp_get(glog *L, uint32_t group, const char *topic, const char *topic_id, int32_t partition);
void g_owner_close(glog *L, uint32_t tp, int64_t time, int64_t offset);
/* the group has no members from this record on */
void g_group_emptied(glog *L, ggroup *g, int64_t time, int64_t offset);
void g_owner_set(glog *L, uint32_t tp, const char *member, const char *instance, int32_t gen, int64_t time,
                 int64_t offset);
gev *g_add_event(glog *L, ggroup *g, enum ss_gevent_kind kind, int64_t time, int64_t offset);
/* an event of partition ti (watch: it asks what the partition committed after it, later_max) */
gev *g_tp_event(glog *L, uint32_t ti, enum ss_gevent_kind kind, int64_t time, int64_t offset, bool watch);
void g_set_tp(const gpart *t, ss_gtp_ref *r);
/* the data partition of a group's partition, when the data partitions were read */
const ss_tl_partition *g_tl_of(glog *L, const gpart *t);
/* a commit of a partition, for its owner's cadence */
void g_owner_commit(glog *L, gpart *t, int64_t ctime, int64_t offset);
int32_t g_ring_median(const gring *r, unsigned n);
/* a partition's gpart_ext: made when missing (NULL when memory ran out), or NULL when it has none */
gpart_ext *g_tpx(glog *L, uint32_t tp);
static inline gpart_ext *g_tpx_if(const glog *L, const gpart *t) { return t->ext ? &L->tpx[t->ext - 1] : NULL; }
bool g_u32_push(glog *L, u32_v *v, uint32_t x);

/* decoded messages: the node tree of ss_cdecoded */
typedef struct jctx {
    const ss_jnode *n;
} jctx;
uint32_t j_child(jctx c, uint32_t obj, const char *name);
int64_t j_num(jctx c, uint32_t obj, const char *name, int64_t dflt);
const char *j_str(glog *L, jctx c, uint32_t obj, const char *name);
const char *j_uuid(glog *L, jctx c, uint32_t x);

/* offsets.c */
void o_offset_commit(glog *L, const ss_batch *b, const ss_record *r, jctx c, const ss_cdecoded *dec);
void o_end(glog *L);
void o_free(glog *L);

/* members.c */
void m_group_metadata(glog *L, const ss_record *r, jctx c, const ss_cdecoded *dec);
void m_consumer_group_record(glog *L, const ss_record *r, jctx c, const ss_cdecoded *dec);
void m_streams_group_record(glog *L, const ss_record *r, jctx c, const ss_cdecoded *dec);
void m_close_open_epoch(glog *L, ggroup *g);
const char *m_topic_name_of(const ggroup *g, const char *topic_id);
const char *g_commit_topic_name(const glog *L, const char *topic_id);
/* One pass (glog.one_pass): an assignment's topic id that no commit read so far names. */
void g_commit_name_missed(glog *L, const char *topic_id);
void m_free_group(ggroup *g);
void m_free_subs(gsubtopo *subs, uint32_t n);

/* ---- the run (groups.c) and its views (views.c) ------------------------------------------------- */

/* a piece of work for a thread: read a copy (and replay it), or compare a copy with the one read */
typedef struct gwork {
    uint32_t log;
    uint32_t input;
    size_t copy; /* index in the log's copies (compare only) */
    bool compare;
    uint64_t bytes;
} gwork;

typedef struct glog_slot {
    glog L;
    uint32_t input; /* the copy read (L.input), for the comparisons of the others: they run while L
                       is read, and L is started again when read_log reads it again */
    ss_glog_copy *copies;
    size_t ncopies;
    atomic_bool done;     /* read: its state is no thread's any more */
    atomic_bool spilling; /* claimed by the thread that writes its sorted commits out */
} glog_slot;

/* a group in the sorted order: its log and its index there (its public view is built when it
 * is asked for: 8 bytes a group kept, not the 168 of an ss_group) */
struct gpub {
    uint32_t log, local;
};

struct ss_groups {
    ss_groups_opts opts;
    char **group_filter; /* copies of opts.groups */
    const ss_inputs *in;
    glog_slot *logs;
    size_t nlogs;
    ss_glog *pub_logs;
    ss_txn_ids *txn_ids;
    /* topic id -> name from partition.metadata of the inputs, then __cluster_metadata's TopicRecords
     * (id_src: SS_GNAMED_PARTITION_METADATA or SS_GNAMED_CLUSTER_METADATA, whose names are copies) */
    char (*ids)[25];
    const char **id_names;
    uint8_t *id_src;
    size_t nids, idcap;
    /* public views: one group at a time, its scalars and its arrays (views.c) */
    struct gpub *groups; /* sorted by id, then coordinator partition */
    size_t ngroups;
    ss_group cur;  /* the group asked for last */
    size_t built;  /* that group, + 1 (0: none) */
    void **blocks; /* the arrays built for it */
    size_t nblocks, blockcap;
    ss_problems problems; /* the logs' notes, in log order (ss_groups_problems) */
    uint64_t damage, unreadable;
    char failure[256];
    gwork *work;
    size_t nwork;
    atomic_size_t next_work;
    gcount in_memory; /* bytes all logs' histories and kept commits have allocated */
    size_t budget;    /* what they may take: --max-memory less the reserve (0: no limit) */
};

/* views.c: the scalars of group gi of log S (its arrays are built by ss_groups_at) */
void v_group_head(const ss_groups *G, glog_slot *S, uint32_t gi, ss_group *out);
void v_free(ss_groups *G);
const char *v_input_topic_name(const ss_groups *G, const char *topic_id, int *named_by);

#endif
