/* segscan - consumer groups (internal): the state one reading thread keeps
 * for one __consumer_offsets partition while it replays its records
 * (replay.c), the kept commits (commits.c), and the run (groups.c).
 *
 * Everything a log's replay creates lives in that log's state: strings are
 * interned in its arena (stable pointers, one copy each), groups, partitions,
 * generations and owners in its arrays, indexed by uint32. A group lives in
 * one __consumer_offsets partition (the coordinator's), so logs are
 * independent and are read in parallel without locks. */
#ifndef SS_GROUPS_INT_H
#define SS_GROUPS_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "segscan/groups.h"
#include "segscan/decode.h"
#include "format/walker.h"

/* ---- interned strings ----------------------------------------------------------------------
 * A string is stored once per log: 4 bytes of length, the bytes, a NUL. Its
 * pointer (to the bytes) is its identity: equal strings have equal pointers. */
typedef struct gs_chunk gs_chunk;
typedef struct gstrtab {
    gs_chunk *chunks;
    uint8_t *cur, *end;
    const char **slots;       /* open addressing by hash; NULL: empty */
    uint32_t *aux;            /* a number the caller keeps beside a string (a group's index + 1) */
    size_t cap, n;
    uint64_t bytes;           /* arena bytes, for the memory figure */
    bool nomem;
} gstrtab;

const char *gs_intern(gstrtab *t, const uint8_t *s, size_t len, uint32_t **aux);
static inline size_t gs_len(const char *s) {
    uint32_t n;
    memcpy(&n, s - 4, 4);
    return n;
}
void gs_free(gstrtab *t);

/* ---- per (group, topic, partition) ---------------------------------------------------------- */

typedef struct gowner_v { ss_gowner *v; uint32_t n, cap; } gowner_v;
typedef struct gstep_v { ss_gstep *v; uint32_t n, cap; } gstep_v;

enum { TP_COMMITTED = 1, TP_TXN = 2, TP_OPEN_OWNER = 4 };

typedef struct gtp {
    uint32_t group;
    int32_t partition;
    const char *topic;        /* interned; NULL while only a topic id is known */
    const char *topic_id;     /* interned base64url, or NULL */
    int64_t offset, commit_time, record_offset;   /* the committed offset (flags & TP_COMMITTED) */
    const char *metadata;
    int32_t leader_epoch;
    uint32_t flags;
    uint64_t commits;
    uint32_t txn_commits, txn_committed, txn_aborted, txn_open, deletions, pending;
    int64_t first_commit_time, last_commit_time;
    uint32_t seen;            /* the classic generation stamp that last assigned it */
    gowner_v owners;          /* the last one is open when flags & TP_OPEN_OWNER */
    gstep_v steps;
} gtp;

/* ---- generations ------------------------------------------------------------------------------ */

/* a partition named by a member or an assignment: an index into the log's gtp array */
typedef struct gref_v { uint32_t *v; uint32_t n, cap; } gref_v;

typedef struct gmem {          /* ss_gmember while building: partitions as gtp indices */
    ss_gmember m;
    uint32_t parts_at, nparts, pending_at, npending;   /* in the log's refs */
} gmem;

typedef struct gassign_int {
    ss_gassign a;
    uint32_t parts_at, nparts, pending_at, npending;
} gassign_int;

typedef struct ggen {
    ss_ggeneration g;
    uint32_t group;
    uint32_t members_at, nmembers;    /* in the log's members */
    uint32_t assign_at, nassign;      /* in the log's assigns (contiguous: one open epoch per group) */
    bool open;                        /* KIP-848: members are filled when the epoch ends */
} ggen;

/* a KIP-848 member as ConsumerGroupMember holds it */
typedef struct kmember {
    const char *member_id, *instance_id, *client_id, *client_host, *assignor;
    int32_t session_timeout_ms, rebalance_timeout_ms;
    int32_t epoch, previous_epoch;
    int state;
    bool has_metadata, has_assignment;
    gref_v owned, pending;            /* gtp indices */
} kmember;

typedef struct gevent_v { ss_gevent *v; uint32_t n, cap; } gevent_v;
typedef struct u32_v { uint32_t *v; uint32_t n, cap; } u32_v;

/* a topic id named by ConsumerGroupPartitionMetadata */
typedef struct gtopic_name { const char *id, *name; } gtopic_name;

typedef struct ggroup {
    const char *id;
    int protocol;                     /* as it stands (SS_GPROTO_*) */
    bool exists;                      /* a group record (or a commit) made it and no tombstone removed it since */
    bool deleted;                     /* its last group record was a tombstone */
    const char *protocol_type, *assignor;
    u32_v tps;                        /* its gtp indices */
    u32_v gens;                       /* its ggen indices */
    gevent_v events;
    kmember *kmembers;
    uint32_t nkmembers, kcap;
    gtopic_name *names;
    uint32_t nnames, ncap;
    int64_t first_offset, first_time, last_time;
    uint64_t commits, txn_commits, undecoded;
    uint64_t removed_batch;           /* batch number of its last tombstone (a conversion follows in the same batch) */
    uint32_t stamp;                   /* classic generation stamp */
    int32_t open_gen;                 /* index of its open KIP-848 epoch, -1 */
} ggroup;

/* ---- transactional offsets pending their marker -------------------------------------------- */

typedef struct gpending {
    uint32_t tp;
    bool superseded;                  /* a later commit of the same partition in the same transaction */
    bool removed;                     /* an offset tombstone removed it */
    int64_t record_offset, offset, commit_time;
    int32_t leader_epoch;
    const char *metadata;
    int64_t held;                     /* index in the commit store's held list, -1 when not kept */
} gpending;

typedef struct gpid {
    int64_t producer_id;
    int16_t producer_epoch;
    gpending *v;
    uint32_t n, cap;
} gpid;

/* ---- kept commits (commits.c) ----------------------------------------------------------------- */

typedef struct gcrec {
    uint32_t tp;
    uint8_t outcome;                  /* enum ss_goutcome */
    uint8_t effective;
    int16_t producer_epoch;
    int32_t leader_epoch;
    int32_t generation;
    int64_t record_offset, time, offset, producer_id, effective_time, expire_time;
    const char *metadata, *member, *instance;
} gcrec;

typedef struct gcommits {
    gcrec *buf;                       /* resolved commits, not yet sorted */
    size_t n, cap;
    gcrec *held;                      /* transactional commits waiting for their marker */
    size_t nheld, capheld;
    size_t budget;                    /* records all logs may allocate at once; 0: no limit */
    atomic_size_t *in_memory;         /* records all logs have allocated now (shared by the logs) */
    FILE **runs;                      /* sorted runs in temporary files */
    size_t *runlen;
    size_t nruns;
    FILE *merged;                     /* the runs merged, when there were any */
    gcrec *sorted;                    /* or everything, sorted in memory */
    size_t total;
    uint64_t spilled;
    const char *tmpdir;
    bool failed;
    uint32_t *group_at, *group_n;     /* per group: first record and count in the sorted order */
} gcommits;

struct glog;
bool gc_add(struct glog *L, const gcrec *r);          /* a resolved commit */
int64_t gc_hold(struct glog *L, const gcrec *r);      /* a transactional one: its held index, -1 on failure */
void gc_resolve(struct glog *L, int64_t held, int outcome, bool effective, int64_t effective_time);
bool gc_finish(struct glog *L);                       /* open ones resolved, sorted, indexed by group */
void gc_free(gcommits *c);

/* ---- one __consumer_offsets partition ----------------------------------------------------------- */

typedef struct glog {
    const ss_groups_opts *opts;
    uint32_t input;                   /* index in the inputs of the copy read */
    int32_t partition;
    gstrtab groups_tab;               /* group ids (aux: index + 1) */
    gstrtab strs;                     /* every other string */
    ggroup *groups;
    uint32_t ngroups, gcap;
    gtp *tps;
    uint32_t ntps, tcap;
    uint32_t *tp_slots;               /* hash of (group, topic, topic id, partition) -> index + 1 */
    size_t tp_slot_cap;
    ggen *gens;
    uint32_t ngens, gencap;
    gmem *members;
    uint32_t nmembers, memcap;
    gassign_int *assigns;
    uint32_t nassigns, assigncap;
    gref_v refs;                      /* partitions of members and assignments */
    gpid *pids;
    uint32_t npids, pidcap;
    gcommits commits;
    const ss_txn_ids *txn_ids;
    /* a topic id's name from partition.metadata of the inputs (NULL when none) */
    const char *(*input_name)(const void *ctx, const char *topic_id);
    const void *input_name_ctx;
    /* reading */
    uint64_t batch_no;
    int64_t batch_time;
    ss_glog info;
    int64_t expect_next;              /* the offset after the last one read, -1 before the first */
    int64_t last_hole_end;            /* first offset after the last hole, -1 when none */
    bool nomem;
    char **notes;
    int *note_levels;
    size_t nnotes, notecap;
    uint64_t notes_dropped;
    uint64_t unreadable;
} glog;

/* replay.c */
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
void glog_note(glog *L, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
