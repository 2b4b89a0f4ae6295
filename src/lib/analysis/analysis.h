/* segscan - the analysis's state (internal): what its files share.
 *
 * One struct ss_analysis holds everything the run keeps (analysis.c says
 * what and why); each file of the room works on a part of it.
 */
#ifndef SS_ANALYSIS_ANALYSIS_H
#define SS_ANALYSIS_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "analysis/units.h"
#include "base/error_set.h"
#include "base/javaint.h"
#include "base/map.h"
#include "inputs/kept.h"
#include "segscan/analyze.h"
#include "segscan/decode.h"

#define NONE32 UINT32_MAX
#define SEQ_MOD ((int64_t)1 << 31)
#define MAX_DAMAGE_KEPT 100
/* batches kept decompressed for ss_an_fetch: the copies of one group, and of
 * the groups printed next to it, are mostly in the same few batches */
#define FETCH_SLOTS 8
#define MAX_GAPS_KEPT 1000
/* a large segment is read in units of about this size */
#define UNIT_BYTES ((uint64_t)4 << 20)

/* BF_OUT: nothing of the batch lies in the window; BF_PART: some of its records do (how many:
 * ss_analysis.partial); neither: all of it. */
enum { BF_TXN = 1, BF_CTRL = 2, BF_LAT = 4, BF_ABORTED = 8, BF_OPEN = 16, BF_NOPID = 32, BF_OUT = 64, BF_PART = 128 };
typedef struct an_batch {
    int64_t base_offset, last_offset;
    int64_t max_ts;
    int64_t pid;
    uint64_t content; /* XXH3-64 of the records (batches without producer id) */
    uint64_t position;
    uint32_t part, seg; /* partition index, segment index inside it */
    uint32_t size, txn;
    /* base_seq: a control batch's (which has no sequence, and no copy to number) is its first
     * record's type instead: SS_CTRL_COMMIT, SS_CTRL_ABORT, AN_CTRL_OTHER (neither, or no record),
     * AN_CTRL_UNKNOWN (not told: a marker outside a transaction, several records of mixed types) */
    int32_t base_seq, count, nrec;
    int16_t epoch;
    uint8_t flags, magic;
} an_batch;
enum { AN_CTRL_UNKNOWN = -1, AN_CTRL_OTHER = -2 };

/* A distinct fingerprint. The 128-bit hash is (lo, hi); the table slot holds
 * lo's low 32 bits as a tag, the entry hi: 96 bits tell fingerprints apart
 * (two of 10^9 distinct ones meet with odds of about 10^-11), and a group
 * keeps the full 128 bits of a copy. Fresh memory is much of the scan's cost
 * (every page is zeroed, and on a VM first backed by the host), hence 16 bytes:
 *  - first copy: batch; delta = its offset - the batch's base offset, tsd = the
 *    batch's maxTimestamp - its timestamp, both 0..65534; else delta == ENT_FAR
 *    and both are in `far` (sorted by entry, as entries are appended);
 *  - once repeated (batch & ENT_GROUPED): the group index is delta | tsd << 16,
 *    batch still the first copy's (its topic). */
typedef struct fp_ent {
    uint64_t hi;
    uint32_t batch;
    uint16_t delta, tsd;
} fp_ent;

#define ENT_GROUPED 0x80000000u
#define ENT_FAR 0xffffu
#define MAX_BATCHES ENT_GROUPED /* batch indexes fit beside the flag */

static inline bool ent_grouped(const fp_ent *e) { return (e->batch & ENT_GROUPED) != 0; }
static inline uint32_t ent_batch(const fp_ent *e) { return e->batch & ~ENT_GROUPED; }
static inline uint32_t ent_group(const fp_ent *e) { return (uint32_t)e->delta | (uint32_t)e->tsd << 16; }
static inline void ent_set_group(fp_ent *e, uint32_t g) {
    e->batch |= ENT_GROUPED;
    e->delta = (uint16_t)g;
    e->tsd = (uint16_t)(g >> 16);
}

typedef struct far_ent {
    uint32_t ent;
    uint32_t delta;
    int64_t ts;
} far_ent;

typedef struct an_occ {
    int64_t ts;
    uint32_t batch, delta, next;
    uint8_t cause, detail;
} an_occ;

typedef struct an_dupgroup {
    uint64_t lo, hi;
    uint32_t first, last, count;
    uint32_t orig; /* the original's occurrence, once causes are decided */
    uint64_t seq;  /* when it became a group: the ordinal of its second copy */
} an_dupgroup;

/* km_session's key: (producer id, epoch); the other key maps are keyed by producer id. */
typedef struct km_key {
    int64_t a, b;
} km_key;

#define SEQ_RECENT 5
typedef struct an_sess {
    ss_an_session pub;
    int64_t (*iv)[2]; /* covered linear sequence intervals, sorted */
    size_t niv, civ;
    ss_an_gap *gaps;
    size_t ngaps, cgaps, choles;
    ss_an_range *ranges;
    size_t nranges;
    int64_t max_lin;
    /* the linear sequence ranges of the session's last SEQ_RECENT batches, as a leader keeps
     * them (Kafka's ProducerStateEntry.NUM_BATCHES_TO_RETAIN) to spot a batch sent again */
    int64_t recent[SEQ_RECENT][2];
    uint8_t nrecent, recent_next;
    bool have_seq;
    bool listed;                                               /* a batch of it lies in the window */
    uint64_t holes_seg_at, holes_boundary_at, holes_damage_at; /* partition hole counters at its last batch */
    uint8_t *gap_hole;          /* per gap: 1 hole inside a segment, 2 at a segment boundary, 3 where
                               * damage was skipped, 0 none */
    uint64_t more_gaps_hole[4]; /* gaps past MAX_GAPS_KEPT, by gap_hole value */
} an_sess;

/* A batch partly in the window: how many of its kept records are (batches in order). */
typedef struct an_partial {
    uint32_t batch, nin;
} an_partial;

typedef struct an_match {
    uint64_t lo, hi;
    int64_t ts;
    uint32_t batch, delta;
    bool fp;
} an_match;

/* ---- spilling: fingerprints in bucket files ---------------------------------------------- */

/* One fingerprint occurrence in a bucket file; seq == SPILL_GROUP: the head of
 * a group formed before the spill (ts holds the group index). A bucket is
 * chosen by hi's top bits: the fingerprints written from the table when it
 * spills have only lo's low 32 bits (the tag), all that matching uses. */
typedef struct spill_rec {
    uint64_t lo, hi;
    int64_t ts;
    uint64_t seq;
    uint32_t batch, delta;
} spill_rec;
#define SPILL_GROUP UINT64_MAX

typedef struct bucket {
    int fd;
    uint64_t n; /* records written */
    spill_rec *buf;
    size_t nbuf;
} bucket;

/* A topic's cleanup.policy as the KRaft metadata log read says it (policies.c): its latest value
 * (NULL: none, or deleted) and the offsets of the records that set it, set it with "compact", and
 * removed the topic (-1 none). */
typedef struct an_policy {
    char *topic, *value;
    int64_t value_at, compact_at, removed_at;
} an_policy;
typedef struct an_policies {
    an_policy *v;
    size_t n, cap;
    struct an_topic_uuid {
        uint8_t id[16];
        size_t policy; /* index in v of its topic's name */
    } * ids;
    size_t nids, cids;
} an_policies;
bool an_read_policies(an_policies *t, const ss_inputs *in);
const an_policy *an_policy_find(const an_policies *t, const char *topic);
void an_policies_free(an_policies *t);

struct ss_analysis {
    ss_an_opts o;
    an_policies policies; /* cleanup.policy of the topics, from __cluster_metadata */
    const ss_inputs *in;
    ss_kept *kept; /* o.keep_offsets_bytes: the __consumer_offsets segments read, kept (inputs/kept.h) */
    bool nomem, io_error;
    ss_error io_err; /* with io_error: why (SS_E_IO), the last one met */
    /* partitions */
    ss_an_partition *parts;
    an_pinfo *pinfo;
    uint32_t *topic_id;     /* grouping domain: the topic, and with replicas the log directory */
    bool replicas;          /* replicas given together: topic_id is not contiguous (same_topic asks the batches) */
    uint32_t replica_of[2]; /* the first pair of replicas found (partition indexes), for the note */
    bool split_domains;     /* replicas or temporaries among the inputs: a topic's domains are not
                             * contiguous (same_topic asks the batches) */
    size_t nparts;
    size_t *seg_base; /* global segment index of each partition's first segment */
    size_t nsegs_total;
    uint64_t *seg_size; /* size of every segment (0 when it cannot be read) */
    uint64_t bytes_total, bytes_done, records_read;
    uint64_t unit_bytes; /* UNIT_BYTES; SEGSCAN_TEST_UNIT_BYTES sets it for tests */
    bool force_resync;   /* test hook: every unit but a segment's first starts at a guess */
    /* tables */
    SS_VEC(an_batch) batches;
    uint64_t *slots; /* tag << 32 | (entry index + 1); 0: empty */
    size_t slot_cap, slot_used, slot_grow_at;
    fp_ent *ents;
    size_t nents, ents_cap;
    SS_VEC(far_ent) far;
    SS_VEC(an_occ) occs;
    SS_VEC(an_dupgroup) groups;
    uint64_t fp_seq;        /* fingerprinted records so far */
    uint32_t topic_first;   /* first batch of the topic being read */
    bool by_topic_of_batch; /* buckets: compare topics through the batches */
    /* spilling */
    bool spilled;
    uint64_t spilled_records; /* fingerprint occurrences written to buckets */
    bucket *buckets;
    unsigned nbuckets, bucket_shift;
    SS_VEC(an_sess *) sess;
    SS_VEC(ss_an_txn) txns;
    SS_VEC(uint8_t) txn_listed; /* per transaction: a batch of it (data or marker) lies in the window */
    SS_VEC(an_partial) partial;
    uint32_t nlisted; /* groups listed (gpub): those with a copy in the window */
    bool windowed;    /* a window or --producer-id: what is listed is chosen (else everything is) */
    enum ss_now_source now_source;
    int64_t now_ms;
    uint32_t now_part;   /* SS_NOW_NEWEST: the partition holding it */
    ss_txn_ids *txn_ids; /* __transaction_state, read when an open transaction needs it */
    bool txn_state_read;
    SS_VEC(ss_an_damage) damage;
    SS_VEC(ss_an_hole) holes; /* candidates while reading; those evidence explains dropped at the end */
    ss_problems problems;     /* the segments that could not be opened, then the run's failure */
    size_t failure;           /* the failure's index in problems; SIZE_MAX: none */
    SS_VEC(an_match) matches;
    uint64_t match_total;
    /* per partition (cleared as each begins): */
    ss_map km_session;  /* (producer id, epoch) -> its session's index in sess */
    ss_map km_epoch;    /* producer id -> the highest epoch met */
    ss_map km_producer; /* producer id -> met (a producer of the partition) */
    ss_map km_txn;      /* producer id -> its open transaction's index in txns */
    ss_map km_hidden;   /* producer id -> 1: its open transaction's data lies below the log start offset */
    /* results */
    ss_an_dupgroup *gpub; /* sorted */
    uint32_t *gstart;     /* first index in gidx of each sorted group */
    uint32_t *gidx;       /* every copy's occurrence, grouped and ordered */
    uint32_t *gsorted_of; /* internal group -> sorted index */
    ss_an_match *mpub;
    ss_an_totals totals;
    uint8_t *arena; /* the entries' memory, reused for the results */
    size_t arena_cap, arena_used;
    void *owned[8]; /* result arrays that did not fit in the arena */
    size_t nowned;
    /* the coordinator's position */
    int64_t cur_part; /* partition being applied, -1 before the first */
    int64_t prev_last;
    int64_t log_end; /* the partition's last offset + 1 over every batch read, -1 before one */
    uint64_t holes_seg, holes_boundary;
    uint64_t holes_damage;             /* offset holes where damaged bytes were skipped */
    uint64_t damage_seen, damage_mark; /* damage events in the partition; at the last batch */
    uint32_t part_first_batch;
    size_t txn_first;
    bool seg_first;
    int64_t seg_max_last; /* the largest last offset of the segment's batches so far, -1 none */
    bool in_repeat;       /* the last batch went backwards (one offset-order event per run) */
    /* fetching */
    ss_segment **segcache;
    size_t segs_open;
    struct fetched { /* batches read back lately, decompressed, by batch index */
        ss_decoder *dec;
        uint8_t *buf; /* the batch's bytes, copied with pread (not read through the mapping) */
        size_t cap;
        uint32_t batch; /* NONE32: empty */
        uint64_t used;  /* when last asked for */
        ss_batch b;
        ss_rec_iter it;       /* the records from the first */
        ss_rec_iter after;    /* ... and from the one after the last asked for */
        int64_t after_offset; /* that record's offset (INT64_MAX: none) */
    } fetched[FETCH_SLOTS];
    uint64_t fetch_tick;
};

/* Offsets and timestamps come from files and can hold any value (a crafted
 * batch has a valid CRC too): arithmetic on them wraps (base/javaint.h) or
 * saturates, never overflows. A record's sequence is
 * ss_increment_sequence(base, mod_seq(delta)): a delta is below 2^32, and a
 * sequence >= 0 plus a delta reduced mod 2^31 wraps as Kafka's does. */
static inline int64_t sat_sub(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) return a < b ? INT64_MIN : INT64_MAX;
    return r;
}
/* lastOffsetDelta, from the two offsets the reader derived from it */
static inline int64_t batch_span(const ss_batch *b) {
    int64_t d = ss_sub64(b->last_offset, b->base_offset);
    return d >= 0 && d < INT32_MAX ? d + 1 : 1;
}

static inline int64_t mod_seq(int64_t lin) {
    int64_t v = lin % SEQ_MOD;
    return v < 0 ? v + SEQ_MOD : v;
}

/* The linear (unwrapped) value of seq closest to ref. */
static inline int64_t lin_near(int64_t ref, int32_t seq) {
    int64_t c = ref - mod_seq(ref) + seq;
    if (c - ref > SEQ_MOD / 2) c -= SEQ_MOD;
    else if (ref - c > SEQ_MOD / 2) c += SEQ_MOD;
    return c;
}

static inline uint32_t topic_of_batch(const ss_analysis *a, uint32_t b) { return a->topic_id[a->batches.v[b].part]; }

/* Segment seg of partition part, as the analysis reads it: through a->kept when it keeps
 * segments (a __consumer_offsets or __transaction_state segment read whole, once, and kept:
 * the groups' replay and the readers of transactional ids read it again), else the file. */
static inline ss_errkind an_open_segment(ss_analysis *a, uint32_t part, uint32_t seg, ss_segment **out, ss_error *err) {
    if (!a->kept) return ss_inputs_open_segment(a->in, part, seg, out, err);
    const char *t = a->parts[part].input->topic;
    bool keep = !strcmp(t, "__consumer_offsets") || !strcmp(t, "__transaction_state");
    return ss_kept_open(a->kept, a->in, part, seg, keep, out, err);
}

/* ---- the key maps (keymap.c, on base/map.h) ---- */
void km_init(ss_map *m, bool with_epoch);
/* The value slot for pid (or pid and epoch); created (with value NONE32) when
 * create is set. NULL when absent (or out of memory). */
uint32_t *km_get(ss_map *m, int64_t pid, bool create, bool *created);
uint32_t *km_session_get(ss_map *m, int64_t pid, int64_t epoch, bool create, bool *created);
void km_clear(ss_map *m);

/* ---- the fingerprint table and spilling (fptable.c) ---- */
/* Empty tables sized for about `n` distinct fingerprints. */
bool an_table_reset(ss_analysis *a, uint64_t n);
void an_table_free(ss_analysis *a);
/* The kept records of a unit's batches, in order: fingerprints into the table
 * (or the buckets, after a spill), matches kept. */
void an_apply_records(ss_analysis *a, ss_an_partition *P, const an_unit *u);
/* After the last partition: group every bucket. */
void an_buckets_group(ss_analysis *a);
void an_buckets_close(ss_analysis *a);

/* ---- producer sessions (producers.c) ---- */
/* A batch of a producer (nrec records kept) in partition part, in order; in_window: it has
 * something in the window (its session is listed). */
void an_session_batch(ss_analysis *a, uint32_t part, const ss_batch *b, int32_t nrec, bool in_window);
/* Once everything is read: ranges and gaps explained, the listed sessions counted into the
 * partitions and kept (the others freed), sorted. */
void an_finish_sessions(ss_analysis *a);

/* ---- the window (apply.c) ---- */
/* Is the copy at batch/delta with timestamp ts inside the window? */
bool an_copy_in_window(const ss_analysis *a, uint32_t batch, uint32_t delta, int64_t ts);

/* ---- transactions (txns.c) ---- */
/* The transaction a transactional data batch belongs to (opened by it when
 * none is open for its producer), or NONE32 when memory ran out. */
uint32_t an_txn_for_data(ss_analysis *a, uint32_t part, const ss_batch *b);
/* A COMMIT or ABORT marker of control batch b (in_window: the batch lies in the window). */
void an_txn_marker(ss_analysis *a, uint32_t part, const ss_batch *b, const an_mark *r, bool in_window);
/* The end of partition part: open transactions (or of unknown outcome), the
 * LSO, read_committed counts, aborted and open batches flagged, the listed
 * transactions counted. */
void an_finish_partition(ss_analysis *a, uint32_t part, size_t txn_first);
/* Once every partition is read: "now", the age of every open transaction and
 * whether it hangs (against __transaction_state when it was read); then only
 * the listed transactions are kept. */
void an_finish_txns(ss_analysis *a);

/* ---- results (results.c) ---- */
/* Causes decided, groups sorted, counted into the partitions and the totals. */
void an_finish_groups(ss_analysis *a);
/* explain's matches, with their groups and causes. */
void an_finish_matches(ss_analysis *a);
void an_finish_totals(ss_analysis *a);

/* ---- each batch, in order (apply.c) ---- */
/* An error or notice met in partition part, segment seg: kept for the output
 * (MAX_DAMAGE_KEPT a partition), counted when it is damage. */
/* hdr: the damaged entry's header when it is readable, else NULL */
void an_add_damage(ss_analysis *a, uint32_t part, uint32_t seg, const ss_error *e, const ss_batch *hdr);
/* An error or notice of the analysis itself (not of the reader), for an_add_damage. */
ss_error an_error(ss_errkind kind, uint64_t position, int64_t base_offset, uint64_t length, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Damaged bytes met: counted, kept, and remembered for the offset hole after them. */
void an_met_damage(ss_analysis *a, uint32_t part, uint32_t seg, const ss_error *e, const ss_batch *hdr);
/* Compaction evidence before a batch is applied (an offset hole), and after. */
void an_track_hole(ss_analysis *a, ss_an_partition *P, const ss_batch *b, bool seg_first);
void an_offset_order(ss_analysis *a, uint32_t part, uint32_t seg, const ss_batch *b, int64_t before);
bool an_hole_after(const ss_analysis *a, uint32_t part, int64_t offset);
void an_track_batch(ss_analysis *a, ss_an_partition *P, const ss_batch *b, bool damaged);
/* The decisions on one batch read by a unit. */
void an_apply_batch(ss_analysis *a, uint32_t part, uint32_t seg, an_ev *e, const an_unit *u);
/* Finish the partitions before `upto`, beginning each next one in turn. */
void an_advance_to(ss_analysis *a, int64_t upto);

/* ---- the pipeline (pipeline.c) ---- */
/* Read every partition and apply what was read, in order. */
void an_pipeline_run(ss_analysis *a);
/* The headers of every batch of partition part's segments, in log order, as a reader of the
 * headers alone meets them (the timeline room): true when the analysis kept every one of them
 * whole - no damage, no unreadable segment, no tail of zeros or cut short, no batch skipped for
 * its size, left below the log start or going back in offsets, no copy read from another
 * directory - and then *v, *n its batches (the analysis's inputs partition part). */
bool an_batches_whole(const ss_analysis *a, size_t part, const an_batch **v, size_t *n);

#endif
