/* segscan - forensic analysis: fingerprints, copies and their causes,
 * producer sessions and sequences, transactions and the LSO.
 *
 * One pass reads every partition (in the order ss_inputs_finish() gave),
 * every segment in offset order, every batch the walker returns with a valid
 * CRC. What is kept is fixed-size: one entry per batch (an_batch); per
 * distinct fingerprint an 8-byte slot of an open-addressing table (a 32-bit tag
 * and an index) and a 24-byte entry in a chunked array (fp_ent: the rest of
 * the fingerprint, where its first copy is), so 35 to 47 bytes whatever the
 * table's load; and one entry per copy of a repeated fingerprint (an_occ). Payloads are never copied; what an
 * output needs from a record later (a value preview, a key) is read back from
 * the segment with ss_an_fetch().
 *
 * Causes are decided once everything is read (a transaction's outcome is only
 * known at its marker), in the order DESIGN.md section 4 gives.
 */
#define _GNU_SOURCE 1
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "fingerprint.h"
#include "segscan/analyze.h"
#include "segscan/index.h"

#define NONE32 UINT32_MAX
#define GROUPED UINT32_MAX
#define SEQ_MOD ((int64_t)1 << 31)
#define MAX_DAMAGE_KEPT 100
#define MAX_GAPS_KEPT 1000

enum { BF_TXN = 1, BF_CTRL = 2, BF_LAT = 4, BF_ABORTED = 8, BF_OPEN = 16, BF_NOPID = 32 };

typedef struct an_batch {
    int64_t base_offset, last_offset;
    int64_t max_ts;
    int64_t pid;
    uint64_t content;         /* XXH3-64 of the records (batches without producer id) */
    uint64_t position;
    uint32_t part, seg;       /* partition index, segment index inside it */
    uint32_t size, txn;
    int32_t base_seq, count, nrec;
    int16_t epoch;
    uint8_t flags, magic;
} an_batch;

/* A distinct fingerprint: the 128-bit hash is (lo, hi); the table slot holds
 * lo's low 32 bits as a tag, the entry the rest. */
typedef struct fp_ent {
    uint64_t hi;
    uint32_t lo_hi;           /* lo >> 32 */
    uint32_t batch;           /* the first copy's batch */
    uint32_t delta;           /* its offset - batch base offset; GROUPED: tsd is the group index */
    int32_t tsd;              /* its timestamp - batch maxTimestamp; TS_FAR: see far_ts */
} fp_ent;

#define TS_FAR INT32_MIN
#define ENT_CHUNK_BITS 16
#define ENT_CHUNK ((size_t)1 << ENT_CHUNK_BITS)

typedef struct far_ts {
    uint32_t ent;
    int64_t ts;
} far_ts;

typedef struct an_occ {
    int64_t ts;
    uint32_t batch, delta, next;
    uint8_t cause, detail;
} an_occ;

typedef struct an_group {
    uint64_t lo, hi;
    uint32_t first, last, count;
    uint32_t orig;            /* the original's occurrence, once causes are decided */
} an_group;

typedef struct km_slot {
    int64_t a, b;
    uint32_t v, used;
} km_slot;

typedef struct keymap {
    km_slot *s;
    size_t cap, n;
} keymap;

typedef struct an_sess {
    ss_an_session pub;
    int64_t *iv;              /* covered linear sequence intervals, sorted, pairs */
    size_t niv, civ;
    ss_an_gap *gaps;
    size_t ngaps, cgaps;
    ss_an_range *ranges;
    size_t nranges;
    int64_t max_lin, prev_end;
    bool have_seq;
    uint64_t holes_seg_at, holes_boundary_at;  /* partition hole counters at its last batch */
    uint8_t *gap_hole;        /* per gap: 1 hole inside a segment, 2 at a segment boundary, 0 none */
    uint64_t more_gaps_hole[3]; /* gaps past MAX_GAPS_KEPT, by gap_hole value */
} an_sess;

typedef struct an_match {
    uint64_t lo, hi;
    int64_t ts;
    uint32_t batch, delta;
    bool fp;
} an_match;

typedef struct scratch_rec {
    uint64_t lo, hi;
    int64_t ts, offset;
    bool fp, match;
} scratch_rec;

#define VEC(T) struct { T *v; size_t n, cap; }
#define VEC_PUSH(vec, item, fail)                                                         \
    do {                                                                                  \
        if ((vec).n == (vec).cap) {                                                       \
            size_t nc_ = (vec).cap ? (vec).cap * 2 : 64;                                  \
            void *nv_ = realloc((vec).v, nc_ * sizeof *(vec).v);                          \
            if (!nv_) { fail; }                                                           \
            else { (vec).v = nv_; (vec).cap = nc_; }                                      \
        }                                                                                 \
        if ((vec).n < (vec).cap) (vec).v[(vec).n++] = (item);                             \
    } while (0)

struct ss_analysis {
    ss_an_opts o;
    const ss_inputs *in;
    bool nomem;
    /* partitions */
    ss_an_partition *parts;
    uint32_t *topic_id;
    size_t nparts;
    size_t *seg_base;         /* global segment index of each partition's first segment */
    size_t nsegs_total;
    /* tables */
    VEC(an_batch) batches;
    uint64_t *slots;          /* tag << 32 | (entry index + 1); 0: empty */
    size_t slot_cap, slot_used;
    fp_ent **ents;            /* chunks of ENT_CHUNK entries */
    size_t nents, ent_chunks;
    VEC(far_ts) far;
    VEC(an_occ) occs;
    VEC(an_group) groups;
    VEC(an_sess *) sess;
    VEC(ss_an_txn) txns;
    VEC(ss_an_damage) damage;
    VEC(char *) unreadable;
    VEC(an_match) matches;
    uint64_t match_total;
    VEC(scratch_rec) scratch;
    keymap km;
    XXH3_state_t *st128, *st64;
    /* results */
    ss_an_group *gpub;        /* sorted */
    uint32_t *gstart;         /* first index in gocc of each sorted group */
    ss_an_copy *gocc;         /* every copy, grouped and ordered */
    uint32_t *gsorted_of;     /* internal group -> sorted index */
    ss_an_match *mpub;
    ss_an_totals totals;
    /* per-partition scan state */
    int64_t prev_last;
    bool track_started;
    uint64_t holes_seg, holes_boundary;
    uint32_t part_first_batch;
    /* fetching */
    ss_segment **segcache;
    size_t segs_open;
    uint64_t fetched_bytes;   /* batch bytes read back since pages were last dropped */
    ss_decoder *fdec;
    ss_batch fbatch;
    ss_rec_iter fit;
};

/* ---- small helpers ------------------------------------------------------------------ */

const char *ss_by_name(int by) {
    switch (by) {
    case SS_BY_KEY: return "key";
    case SS_BY_KEY_VALUE: return "key+value";
    default: return "value";
    }
}

const char *ss_cause_name(int cause) {
    static const char *const names[] = {NULL, "aborted", "cross-partition", "retry", "resend-no-idempotence",
                                        "dup-sequence", "same-session", "new-session"};
    if (cause <= 0 || cause >= SS_CAUSE_COUNT) return NULL;
    return names[cause];
}

const char *ss_txn_result_name(int r) {
    switch (r) {
    case SS_TXN_COMMIT: return "COMMIT";
    case SS_TXN_ABORT: return "ABORT";
    default: return "OPEN";
    }
}

void ss_an_opts_default(ss_an_opts *o) {
    memset(o, 0, sizeof *o);
    o->by = SS_BY_VALUE;
    o->txn_timeout_ms = 15 * 60 * 1000;
    o->since_ms = INT64_MIN;
    o->until_ms = INT64_MAX;
    o->from_offset = INT64_MIN;
    o->to_offset = INT64_MAX;
    o->match_offset = -1;
}

/* Offsets and timestamps come from files and can hold any value (a crafted
 * batch has a valid CRC too): arithmetic on them wraps or saturates, never
 * overflows. */
static inline int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t wsub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t sat_sub(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) return a < b ? INT64_MIN : INT64_MAX;
    return r;
}
/* lastOffsetDelta, from the two offsets the reader derived from it */
static inline int64_t batch_span(const ss_batch *b) {
    int64_t d = wsub(b->last_offset, b->base_offset);
    return d >= 0 && d < INT32_MAX ? d + 1 : 1;
}

static int32_t seq_add(int32_t seq, int64_t inc) {
    int64_t v = ((int64_t)seq + inc) % SEQ_MOD;
    if (v < 0) v += SEQ_MOD;
    return (int32_t)v;
}

static int64_t mod_seq(int64_t lin) {
    int64_t v = lin % SEQ_MOD;
    return v < 0 ? v + SEQ_MOD : v;
}

/* The linear (unwrapped) value of seq closest to ref. */
static int64_t lin_near(int64_t ref, int32_t seq) {
    int64_t c = ref - mod_seq(ref) + seq;
    if (c - ref > SEQ_MOD / 2) c -= SEQ_MOD;
    else if (ref - c > SEQ_MOD / 2) c += SEQ_MOD;
    return c;
}

/* ---- key map: (a, b) -> u32 ----------------------------------------------------------- */

enum { KM_PRODUCER = -1000001, KM_EPOCH = -1000002, KM_TXN = -1000003 };

static uint64_t km_hash(int64_t a, int64_t b) {
    uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ULL;
    h ^= ((uint64_t)b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
}

static bool km_grow(keymap *m) {
    size_t nc = m->cap ? m->cap * 2 : 256;
    km_slot *ns = calloc(nc, sizeof *ns);
    if (!ns) return false;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->s[i].used) continue;
        size_t j = (size_t)km_hash(m->s[i].a, m->s[i].b) & (nc - 1);
        while (ns[j].used) j = (j + 1) & (nc - 1);
        ns[j] = m->s[i];
    }
    free(m->s);
    m->s = ns;
    m->cap = nc;
    return true;
}

/* The value slot for (a, b); created (with value NONE32) when create is set.
 * NULL when absent (or out of memory). */
static uint32_t *km_get(keymap *m, int64_t a, int64_t b, bool create, bool *created) {
    if (created) *created = false;
    if (m->cap == 0 || (m->n + 1) * 4 > m->cap * 3) {
        if (!create && m->cap) goto lookup;
        if (!km_grow(m)) return NULL;
    }
lookup:
    if (!m->cap) return NULL;
    size_t j = (size_t)km_hash(a, b) & (m->cap - 1);
    while (m->s[j].used) {
        if (m->s[j].a == a && m->s[j].b == b) return &m->s[j].v;
        j = (j + 1) & (m->cap - 1);
    }
    if (!create) return NULL;
    m->s[j].used = 1;
    m->s[j].a = a;
    m->s[j].b = b;
    m->s[j].v = NONE32;
    m->n++;
    if (created) *created = true;
    return &m->s[j].v;
}

static void km_clear(keymap *m) {
    if (m->cap > 4096) {
        free(m->s);
        m->s = NULL;
        m->cap = 0;
    } else if (m->n) {
        memset(m->s, 0, m->cap * sizeof *m->s);
    }
    m->n = 0;
}

/* ---- life cycle --------------------------------------------------------------------- */

ss_analysis *ss_analysis_new(const ss_an_opts *opts) {
    ss_analysis *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    if (opts) a->o = *opts;
    else ss_an_opts_default(&a->o);
    if (!a->o.max_batch_bytes) a->o.max_batch_bytes = SS_DEFAULT_MAX_BATCH_BYTES;
    if (!a->o.max_matches) a->o.max_matches = 10000;
    a->st128 = XXH3_createState();
    a->st64 = XXH3_createState();
    if (!a->st128 || !a->st64) {
        ss_analysis_free(a);
        return NULL;
    }
    return a;
}

void ss_analysis_free(ss_analysis *a) {
    if (!a) return;
    free(a->parts);
    free(a->topic_id);
    free(a->seg_base);
    free(a->batches.v);
    free(a->slots);
    for (size_t i = 0; i < a->ent_chunks; i++) free(a->ents[i]);
    free(a->ents);
    free(a->far.v);
    free(a->occs.v);
    free(a->groups.v);
    for (size_t i = 0; i < a->sess.n; i++) {
        an_sess *s = a->sess.v[i];
        free(s->iv);
        free(s->gaps);
        free(s->gap_hole);
        free(s->ranges);
        free(s);
    }
    free(a->sess.v);
    free(a->txns.v);
    free(a->damage.v);
    for (size_t i = 0; i < a->unreadable.n; i++) free(a->unreadable.v[i]);
    free(a->unreadable.v);
    free(a->matches.v);
    free(a->scratch.v);
    free(a->km.s);
    XXH3_freeState(a->st128);
    XXH3_freeState(a->st64);
    free(a->gpub);
    free(a->gstart);
    free(a->gocc);
    free(a->gsorted_of);
    free(a->mpub);
    if (a->segcache) {
        for (size_t i = 0; i < a->nsegs_total; i++) ss_segment_close(a->segcache[i]);
        free(a->segcache);
    }
    ss_decoder_free(a->fdec);
    free(a);
}

/* ---- fingerprint table ----------------------------------------------------------------- */

static uint32_t topic_of_batch(const ss_analysis *a, uint32_t b) { return a->topic_id[a->batches.v[b].part]; }

static inline fp_ent *ent_at(const ss_analysis *a, uint32_t i) {
    return &a->ents[i >> ENT_CHUNK_BITS][i & (ENT_CHUNK - 1)];
}

/* The home slot depends on the tag only, so growing never reads the entries. */
static inline size_t slot_home(uint32_t tag, size_t cap) {
    uint64_t h = (uint64_t)tag * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h >> 24) & (cap - 1);
}

static bool slots_grow(ss_analysis *a) {
    size_t nc = a->slot_cap ? a->slot_cap * 2 : ((size_t)1 << 14);
    uint64_t *ns = calloc(nc, sizeof *ns);
    if (!ns) return false;
    for (size_t i = 0; i < a->slot_cap; i++) {
        uint64_t v = a->slots[i];
        if (!v) continue;
        size_t j = slot_home((uint32_t)(v >> 32), nc);
        while (ns[j]) j = (j + 1) & (nc - 1);
        ns[j] = v;
    }
    free(a->slots);
    a->slots = ns;
    a->slot_cap = nc;
    return true;
}

static int64_t ent_ts(const ss_analysis *a, uint32_t ei) {
    const fp_ent *e = ent_at(a, ei);
    if (e->tsd != TS_FAR) return wadd(a->batches.v[e->batch].max_ts, e->tsd);
    /* far timestamps are appended in entry order: binary search */
    size_t lo = 0, hi = a->far.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a->far.v[mid].ent < ei) lo = mid + 1;
        else hi = mid;
    }
    return lo < a->far.n && a->far.v[lo].ent == ei ? a->far.v[lo].ts : -1;
}

/* The entry of (lo, hi) in the topic (any topic with across_topics), or NONE32. */
static uint32_t fp_find(const ss_analysis *a, uint64_t lo, uint64_t hi, uint32_t topic) {
    if (!a->slot_cap) return NONE32;
    uint32_t tag = (uint32_t)lo;
    size_t j = slot_home(tag, a->slot_cap);
    for (uint64_t v; (v = a->slots[j]) != 0; j = (j + 1) & (a->slot_cap - 1)) {
        if ((uint32_t)(v >> 32) != tag) continue;
        uint32_t ei = (uint32_t)(v & 0xffffffffu) - 1;
        const fp_ent *e = ent_at(a, ei);
        if (e->hi == hi && e->lo_hi == (uint32_t)(lo >> 32) &&
            (a->o.across_topics || topic_of_batch(a, e->batch) == topic))
            return ei;
    }
    return NONE32;
}

static void fp_insert(ss_analysis *a, uint64_t lo, uint64_t hi, uint32_t batch, uint32_t delta, int64_t ts) {
    if ((a->slot_used + 1) * 10 > a->slot_cap * 7) {
        if (!slots_grow(a)) { a->nomem = true; return; }
    }
    uint32_t topic = topic_of_batch(a, batch);
    uint32_t tag = (uint32_t)lo;
    size_t j = slot_home(tag, a->slot_cap);
    for (uint64_t v; (v = a->slots[j]) != 0; j = (j + 1) & (a->slot_cap - 1)) {
        if ((uint32_t)(v >> 32) != tag) continue;
        uint32_t ei = (uint32_t)(v & 0xffffffffu) - 1;
        fp_ent *e = ent_at(a, ei);
        if (e->hi != hi || e->lo_hi != (uint32_t)(lo >> 32) ||
            (!a->o.across_topics && topic_of_batch(a, e->batch) != topic))
            continue;
        an_occ occ = {ts, batch, delta, NONE32, 0, 0};
        uint32_t oi = (uint32_t)a->occs.n;
        if (e->delta != GROUPED) {
            an_occ first = {ent_ts(a, ei), e->batch, e->delta, oi + 1, 0, 0};
            VEC_PUSH(a->occs, first, a->nomem = true; return);
            VEC_PUSH(a->occs, occ, a->nomem = true; return);
            an_group g = {lo, hi, oi, oi + 1, 2, oi};
            VEC_PUSH(a->groups, g, a->nomem = true; return);
            e->delta = GROUPED;
            e->tsd = (int32_t)(a->groups.n - 1);
        } else {
            an_group *g = &a->groups.v[(uint32_t)e->tsd];
            VEC_PUSH(a->occs, occ, a->nomem = true; return);
            a->occs.v[g->last].next = oi;
            g->last = oi;
            g->count++;
        }
        return;
    }
    /* a new fingerprint */
    if (a->nents >= (size_t)UINT32_MAX - 1) { a->nomem = true; return; }
    if ((a->nents >> ENT_CHUNK_BITS) >= a->ent_chunks) {
        fp_ent **nc = realloc(a->ents, (a->ent_chunks + 1) * sizeof *nc);
        if (!nc) { a->nomem = true; return; }
        a->ents = nc;
        a->ents[a->ent_chunks] = malloc(ENT_CHUNK * sizeof **a->ents);
        if (!a->ents[a->ent_chunks]) { a->nomem = true; return; }
        a->ent_chunks++;
    }
    uint32_t ei = (uint32_t)a->nents++;
    fp_ent *e = ent_at(a, ei);
    e->hi = hi;
    e->lo_hi = (uint32_t)(lo >> 32);
    e->batch = batch;
    e->delta = delta;
    int64_t d = sat_sub(ts, a->batches.v[batch].max_ts);
    if (d > INT32_MIN && d <= INT32_MAX) {
        e->tsd = (int32_t)d;
    } else {
        e->tsd = TS_FAR;
        far_ts f = {ei, ts};
        VEC_PUSH(a->far, f, a->nomem = true);
    }
    a->slots[j] = (uint64_t)tag << 32 | (ei + 1);
    a->slot_used++;
}

/* ---- per batch ---------------------------------------------------------------------- */

static void add_damage(ss_analysis *a, uint32_t part, uint32_t seg, const ss_error *e) {
    ss_an_partition *p = &a->parts[part];
    if (ss_errkind_is_damage(e->kind)) p->damage_events++;
    size_t kept = 0;
    for (size_t i = a->damage.n; i > 0 && a->damage.v[i - 1].partition == part; i--) kept++;
    if (kept >= MAX_DAMAGE_KEPT) return;
    ss_an_damage d = {part, seg, *e};
    VEC_PUSH(a->damage, d, a->nomem = true);
}

static bool in_time_window(const ss_an_opts *o, int64_t ts) { return ts >= o->since_ms && ts <= o->until_ms; }
static bool in_offset_window(const ss_an_opts *o, int64_t off) { return off >= o->from_offset && off <= o->to_offset; }

static void hash_be32(XXH3_state_t *st, int32_t v) {
    uint8_t b[4] = {(uint8_t)((uint32_t)v >> 24), (uint8_t)((uint32_t)v >> 16), (uint8_t)((uint32_t)v >> 8),
                    (uint8_t)v};
    XXH3_64bits_update(st, b, 4);
}

static void hash_be64(XXH3_state_t *st, int64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)((uint64_t)v >> (56 - 8 * i));
    XXH3_64bits_update(st, b, 8);
}

static void fingerprint(ss_analysis *a, const ss_record *r, scratch_rec *s) {
    s->fp = ss_fp_record(a->st128, r, a->o.by, a->o.min_bytes, &s->hi, &s->lo);
}

static bool record_matches(const ss_analysis *a, const ss_record *r, bool part_match) {
    const ss_an_opts *o = &a->o;
    switch (o->match) {
    case SS_MATCH_VALUE:
        return r->value_len >= 0 && (size_t)r->value_len == o->match_len &&
               (o->match_len == 0 || !memcmp(r->value, o->match_bytes, o->match_len));
    case SS_MATCH_VALUE_CONTAINS:
        return r->value_len >= 0 && (o->match_len == 0 ||
                                     memmem(r->value, (size_t)r->value_len, o->match_bytes, o->match_len) != NULL);
    case SS_MATCH_KEY:
        return r->key_len >= 0 && (size_t)r->key_len == o->match_len &&
               (o->match_len == 0 || !memcmp(r->key, o->match_bytes, o->match_len));
    case SS_MATCH_OFFSET:
        return part_match && r->offset == o->match_offset;
    default:
        return false;
    }
}

static an_sess *session_for(ss_analysis *a, uint32_t part, const ss_batch *b) {
    bool created;
    uint32_t *v = km_get(&a->km, b->producer_id, b->producer_epoch, true, &created);
    if (!v) { a->nomem = true; return NULL; }
    if (!created) return a->sess.v[*v];
    an_sess *s = calloc(1, sizeof *s);
    if (!s) { a->nomem = true; return NULL; }
    s->pub.partition = part;
    s->pub.producer_id = b->producer_id;
    s->pub.producer_epoch = b->producer_epoch;
    s->pub.first_offset = b->base_offset;
    s->pub.first_timestamp = b->max_timestamp;
    s->pub.first_sequence = -1;
    s->pub.previous_epoch = -1;
    VEC_PUSH(a->sess, s, a->nomem = true; free(s); return NULL);
    *v = (uint32_t)(a->sess.n - 1);
    a->parts[part].sessions++;
    /* epoch bump: an earlier, lower epoch of this pid in the partition */
    bool ecreated;
    uint32_t *e = km_get(&a->km, b->producer_id, KM_EPOCH, true, &ecreated);
    if (e) {
        if (!ecreated && (int32_t)*e < b->producer_epoch) {
            s->pub.epoch_bump = true;
            s->pub.previous_epoch = (int16_t)*e;
            a->parts[part].epoch_bumps++;
        }
        if (ecreated || (int32_t)*e < b->producer_epoch) *e = (uint32_t)(uint16_t)b->producer_epoch;
    }
    return s;
}

/* First interval whose end is >= x - 1 (intervals are sorted and disjoint). */
static size_t iv_search(const an_sess *s, int64_t x) {
    size_t lo = 0, hi = s->niv;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->iv[2 * mid + 1] + 1 < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void iv_insert(ss_analysis *a, an_sess *s, int64_t lo, int64_t hi) {
    /* merge [lo,hi] into the sorted, disjoint, non-adjacent interval list;
     * in order (the usual case) it extends or follows the last interval */
    size_t n = s->niv;
    int64_t *iv = s->iv;
    size_t i = iv_search(s, lo);
    size_t j = i;
    while (j < n && iv[2 * j] <= hi + 1) {
        if (iv[2 * j] < lo) lo = iv[2 * j];
        if (iv[2 * j + 1] > hi) hi = iv[2 * j + 1];
        j++;
    }
    size_t nn = n - (j - i) + 1;
    if (nn > s->civ) {
        size_t nc = s->civ ? s->civ * 2 : 4;
        while (nc < nn) nc *= 2;
        int64_t *nv = realloc(s->iv, nc * 2 * sizeof *nv);
        if (!nv) { a->nomem = true; return; }
        s->iv = iv = nv;
        s->civ = nc;
    }
    memmove(iv + 2 * (i + 1), iv + 2 * j, (n - j) * 2 * sizeof *iv);
    iv[2 * i] = lo;
    iv[2 * i + 1] = hi;
    s->niv = nn;
}

static uint64_t iv_overlap(const an_sess *s, int64_t lo, int64_t hi) {
    uint64_t c = 0;
    for (size_t i = iv_search(s, lo + 1); i < s->niv && s->iv[2 * i] <= hi; i++) {
        int64_t a0 = s->iv[2 * i] > lo ? s->iv[2 * i] : lo;
        int64_t a1 = s->iv[2 * i + 1] < hi ? s->iv[2 * i + 1] : hi;
        if (a1 >= a0) c += (uint64_t)(a1 - a0 + 1);
    }
    return c;
}

static void add_gap(ss_analysis *a, an_sess *s, int64_t from_lin, int64_t to_lin, int64_t after, int64_t before,
                    uint8_t hole) {
    /* split at the wrap */
    while (from_lin <= to_lin) {
        int64_t seg_end = from_lin - mod_seq(from_lin) + SEQ_MOD - 1;
        int64_t e = to_lin < seg_end ? to_lin : seg_end;
        if (s->ngaps >= MAX_GAPS_KEPT) {
            /* counted, not kept */
            s->pub.more_gaps++;
            s->more_gaps_hole[hole]++;
            from_lin = e + 1;
            continue;
        }
        if (s->ngaps == s->cgaps) {
            size_t nc = s->cgaps ? s->cgaps * 2 : 4;
            ss_an_gap *ng = realloc(s->gaps, nc * sizeof *ng);
            uint8_t *nh = realloc(s->gap_hole, nc);
            if (ng) s->gaps = ng;
            if (nh) s->gap_hole = nh;
            if (!ng || !nh) { a->nomem = true; return; }
            s->cgaps = nc;
        }
        ss_an_gap g = {(int32_t)mod_seq(from_lin), (int32_t)mod_seq(e), SS_GAP_UNEXPLAINED, after, before};
        s->gaps[s->ngaps] = g;
        s->gap_hole[s->ngaps] = hole;
        s->ngaps++;
        from_lin = e + 1;
    }
}

static void session_batch(ss_analysis *a, uint32_t part, const ss_batch *b, int32_t nrec) {
    an_sess *s = session_for(a, part, b);
    if (!s) return;
    ss_an_session *p = &s->pub;
    int64_t prev_last_offset = p->batches ? p->last_offset : -1;
    p->batches++;
    p->records += (uint64_t)nrec;
    p->last_offset = b->last_offset;
    p->last_timestamp = b->max_timestamp;
    if (b->transactional) p->transactional = true;
    if (b->base_sequence >= 0) {
        int64_t span = batch_span(b);
        if (!s->have_seq) {
            int64_t L = b->base_sequence, E = L + span - 1;
            p->first_sequence = b->base_sequence;
            s->have_seq = true;
            s->max_lin = E;
            s->prev_end = E;
            iv_insert(a, s, L, E);
        } else {
            int64_t L = lin_near(s->max_lin + 1, b->base_sequence), E = L + span - 1;
            if (L != s->prev_end + 1) p->out_of_order_batches++;
            if (L > s->max_lin + 1) {
                uint8_t hole = 0;
                if (a->holes_boundary > s->holes_boundary_at) hole = 2;
                else if (a->holes_seg > s->holes_seg_at) hole = 1;
                add_gap(a, s, s->max_lin + 1, L - 1, prev_last_offset, b->base_offset, hole);
            }
            uint64_t ov = iv_overlap(s, L, E);
            if (ov) p->repeated_sequences += ov < (uint64_t)nrec ? ov : (uint64_t)nrec;
            iv_insert(a, s, L, E);
            if (E > s->max_lin) s->max_lin = E;
            s->prev_end = E;
        }
    }
    s->holes_seg_at = a->holes_seg;
    s->holes_boundary_at = a->holes_boundary;
}

/* ---- transactions ------------------------------------------------------------------ */

static uint32_t txn_for_data(ss_analysis *a, uint32_t part, const ss_batch *b) {
    uint32_t *v = km_get(&a->km, b->producer_id, KM_TXN, true, NULL);
    if (!v) { a->nomem = true; return NONE32; }
    if (*v != NONE32) return *v;
    ss_an_txn t;
    memset(&t, 0, sizeof t);
    t.partition = part;
    t.producer_id = b->producer_id;
    t.producer_epoch = b->producer_epoch;
    t.marker_epoch = -1;
    t.first_offset = b->base_offset;
    t.last_offset = b->last_offset;
    t.marker_offset = -1;
    t.result = SS_TXN_OPEN;
    t.coordinator_epoch = -1;
    t.first_timestamp = b->max_timestamp;
    t.marker_timestamp = -1;
    VEC_PUSH(a->txns, t, a->nomem = true; return NONE32);
    *v = (uint32_t)(a->txns.n - 1);
    return *v;
}

static void txn_marker(ss_analysis *a, uint32_t part, const ss_batch *b, const ss_record *r, bool in_window) {
    ss_an_partition *P = &a->parts[part];
    int result = r->control_type == SS_CTRL_COMMIT ? SS_TXN_COMMIT : SS_TXN_ABORT;
    if (r->offset > a->o.to_offset) return; /* past the window: its transactions stay open */
    uint32_t *v = km_get(&a->km, b->producer_id, KM_TXN, false, NULL);
    ss_an_txn *t;
    if (v && *v != NONE32) {
        t = &a->txns.v[*v];
        *v = NONE32;
    } else {
        if (!in_window) return;
        ss_an_txn e;
        memset(&e, 0, sizeof e);
        e.partition = part;
        e.producer_id = b->producer_id;
        e.producer_epoch = b->producer_epoch;
        e.first_offset = e.last_offset = r->offset;
        e.first_timestamp = b->max_timestamp;
        e.empty = true;
        VEC_PUSH(a->txns, e, a->nomem = true; return);
        t = &a->txns.v[a->txns.n - 1];
        P->txn_empty++;
    }
    t->marker_offset = r->offset;
    t->marker_epoch = b->producer_epoch;
    t->marker_timestamp = b->max_timestamp;
    t->coordinator_epoch = r->coordinator_epoch;
    t->result = result;
    if (result == SS_TXN_COMMIT) P->txn_committed++;
    else P->txn_aborted++;
}

/* ---- one batch ------------------------------------------------------------------------ */

static void count_batch(ss_an_partition *P, const ss_batch *b) {
    P->batches++;
    P->codec_batches[b->codec >= 0 && b->codec <= 4 ? b->codec : 7]++;
    if (b->magic >= 0 && b->magic <= 2) P->magic_batches[b->magic]++;
    if (P->first_offset < 0) P->first_offset = b->base_offset;
    if (b->last_offset < INT64_MAX && b->last_offset + 1 > P->next_offset) P->next_offset = b->last_offset + 1;
    if (b->max_timestamp > P->max_batch_timestamp) P->max_batch_timestamp = b->max_timestamp;
}

static void note_producer(ss_analysis *a, ss_an_partition *P, int64_t pid) {
    if (pid < 0) return;
    bool created;
    uint32_t *v = km_get(&a->km, pid, KM_PRODUCER, true, &created);
    if (!v) { a->nomem = true; return; }
    if (created) P->producers++;
}

static bool push_batch(ss_analysis *a, uint32_t part, uint32_t seg, const ss_batch *b, int32_t nrec, uint64_t content) {
    an_batch ab;
    memset(&ab, 0, sizeof ab);
    ab.base_offset = b->base_offset;
    ab.last_offset = b->last_offset;
    ab.max_ts = b->max_timestamp;
    ab.pid = b->producer_id;
    ab.content = content;
    ab.position = b->position;
    ab.part = part;
    ab.seg = seg;
    ab.size = b->size;
    ab.txn = NONE32;
    ab.base_seq = b->base_sequence;
    ab.count = b->count;
    ab.nrec = nrec;
    ab.epoch = b->producer_epoch;
    ab.magic = (uint8_t)b->magic;
    ab.flags = (uint8_t)((b->transactional ? BF_TXN : 0) | (b->control ? BF_CTRL : 0) |
                         (b->timestamp_type == SS_TS_LOG_APPEND ? BF_LAT : 0) | (b->producer_id < 0 ? BF_NOPID : 0));
    size_t before = a->batches.n;
    VEC_PUSH(a->batches, ab, a->nomem = true);
    return a->batches.n > before;
}

/* Compaction evidence (offset holes between batches, records missing inside a
 * batch, an empty batch, a delete horizon). It is gathered from the first
 * batch inside the window on, and not past its end, so that a window gives
 * the same results whether the index files let segscan skip to it or not.
 * track_hole() runs before the batch is processed (a sequence gap after a hole
 * is explained by it), track_batch() after. */
static void track_hole(ss_analysis *a, ss_an_partition *P, const ss_batch *b, bool seg_first) {
    if (!a->track_started || b->base_offset > a->o.to_offset) return;
    if (a->prev_last >= 0 && a->prev_last < INT64_MAX && b->base_offset > a->prev_last + 1) {
        P->offset_gaps++;
        P->compacted = true;
        if (seg_first) a->holes_boundary++;
        else a->holes_seg++;
    }
}

static void track_batch(ss_analysis *a, ss_an_partition *P, const ss_batch *b, bool in_window) {
    if (!a->track_started) {
        if (!in_window) return;
        a->track_started = true;
    }
    if (b->base_offset > a->o.to_offset) return;
    if (b->last_offset > a->prev_last) a->prev_last = b->last_offset;
    if (b->magic >= 2 && !b->control &&
        ((int64_t)b->count < batch_span(b) || b->has_delete_horizon))
        P->compacted = true;
}

/* Returns true when the batch is inside the window (it was counted). */
static bool process_batch(ss_analysis *a, uint32_t part, uint32_t seg, ss_decoder *dec, const ss_batch *b,
                          bool part_match) {
    ss_an_partition *P = &a->parts[part];
    const ss_an_opts *o = &a->o;
    bool pid_ok = !o->filter_pid || b->producer_id == o->producer_id;
    int64_t ls = P->input->log_start_offset;
    bool off_any = b->last_offset >= o->from_offset && b->base_offset <= o->to_offset;
    bool below_ls = ls >= 0 && b->last_offset < ls;
    ss_error err;
    ss_rec_iter it;
    ss_record r;

    if (b->control) {
        if (!pid_ok) return false;
        bool in_window = off_any && !below_ls && in_time_window(o, b->max_timestamp);
        if (ss_records_begin(dec, b, &it, &err) != SS_E_OK) {
            if (err.kind != SS_E_TOO_LARGE) P->damaged_bytes += b->size;
            else P->skipped_large_batches++;
            err.length = b->size;
            add_damage(a, part, seg, &err);
            return false;
        }
        uint64_t n = 0;
        int k;
        while ((k = ss_records_next(&it, &r, &err)) == 1) {
            n++;
            if (b->transactional && b->producer_id >= 0 &&
                (r.control_type == SS_CTRL_ABORT || r.control_type == SS_CTRL_COMMIT))
                txn_marker(a, part, b, &r, in_window);
        }
        if (k < 0) {
            P->damaged_bytes += b->size;
            err.length = b->size;
            add_damage(a, part, seg, &err);
            return false;
        }
        if (!in_window) return false;
        count_batch(P, b);
        P->control_batches++;
        P->control_records += n;
        note_producer(a, P, b->producer_id);
        push_batch(a, part, seg, b, 0, 0);
        return true;
    }

    int32_t declared = b->count > 0 ? b->count : (b->magic < 2 ? 1 : 0);
    if (!pid_ok || !off_any) {
        P->outside_window += (uint64_t)declared;
        return false;
    }
    if (below_ls) {
        P->hidden_below_log_start += (uint64_t)declared;
        return false;
    }
    if (ss_records_begin(dec, b, &it, &err) != SS_E_OK) {
        if (err.kind == SS_E_TOO_LARGE) P->skipped_large_batches++;
        else P->damaged_bytes += b->size;
        err.length = b->size;
        add_damage(a, part, seg, &err);
        return false;
    }
    bool nopid = b->producer_id < 0;
    /* The content of a batch without producer id, to recognise a retry. v2:
     * the record bytes (keys, values, headers, timestamp and offset deltas)
     * and the base timestamp, i.e. the stored producer timestamps; what the
     * broker rewrites (maxTimestamp, CRC, offsets, attributes) is outside.
     * Legacy: field by field (each message carries its offset and CRC). */
    uint64_t content = 0;
    bool field_hash = nopid && b->magic < 2;
    if (nopid && !field_hash)
        content = XXH3_64bits_withSeed(it.p, (size_t)(it.end - it.p), (uint64_t)b->base_timestamp) ^
                  (uint64_t)(uint32_t)b->count * 0x9E3779B97F4A7C15ULL;
    if (field_hash) XXH3_64bits_reset(a->st64);
    a->scratch.n = 0;
    uint64_t outside = 0, hidden = 0;
    int32_t total = 0;
    int k;
    for (;;) {
        k = ss_records_next(&it, &r, &err);
        if (k != 1) break;
        total++;
        if (field_hash) {
            int64_t sts = r.timestamp; /* legacy: the message's own timestamp */
            hash_be32(a->st64, r.key_len);
            if (r.key_len > 0) XXH3_64bits_update(a->st64, r.key, (size_t)r.key_len);
            hash_be32(a->st64, r.value_len);
            if (r.value_len > 0) XXH3_64bits_update(a->st64, r.value, (size_t)r.value_len);
            hash_be32(a->st64, r.header_count);
            if (r.headers_len) XXH3_64bits_update(a->st64, r.headers, r.headers_len);
            hash_be64(a->st64, sts);
        }
        if (!in_offset_window(o, r.offset) || !in_time_window(o, r.timestamp)) { outside++; continue; }
        if (ls >= 0 && r.offset < ls) { hidden++; continue; }
        scratch_rec s;
        s.ts = r.timestamp;
        s.offset = r.offset;
        s.fp = false;
        int64_t delta = wsub(r.offset, b->base_offset);
        if (!P->dups_excluded && delta >= 0 && delta < (int64_t)UINT32_MAX - 1) fingerprint(a, &r, &s);
        s.match = o->match != SS_MATCH_NONE && record_matches(a, &r, part_match);
        VEC_PUSH(a->scratch, s, a->nomem = true; return false);
    }
    if (k < 0) {
        P->damaged_bytes += b->size;
        err.length = b->size;
        add_damage(a, part, seg, &err);
        return false;
    }
    P->outside_window += outside;
    P->hidden_below_log_start += hidden;
    int32_t nrec = (int32_t)a->scratch.n;
    if (nrec == 0 && total > 0) return false; /* every record filtered out */
    if (field_hash) {
        hash_be32(a->st64, total);
        content = XXH3_64bits_digest(a->st64);
    }
    if (!push_batch(a, part, seg, b, nrec, content)) return false;
    uint32_t bi = (uint32_t)(a->batches.n - 1);
    count_batch(P, b);
    P->records += (uint64_t)nrec;
    for (int32_t i = 0; i < nrec; i++) {
        int64_t ts = a->scratch.v[i].ts;
        if (ts < 0) continue;
        if (!P->has_timestamps || ts < P->min_timestamp) P->min_timestamp = ts;
        if (!P->has_timestamps || ts > P->max_timestamp) P->max_timestamp = ts;
        P->has_timestamps = true;
    }
    if (b->producer_id >= 0) {
        note_producer(a, P, b->producer_id);
        session_batch(a, part, b, nrec);
    } else {
        P->non_idempotent_records += (uint64_t)nrec;
    }
    if (b->transactional && b->producer_id >= 0) {
        uint32_t ti = txn_for_data(a, part, b);
        if (ti != NONE32) {
            ss_an_txn *t = &a->txns.v[ti];
            t->records += (uint64_t)nrec;
            t->batches++;
            if (b->last_offset > t->last_offset) t->last_offset = b->last_offset;
            a->batches.v[bi].txn = ti;
        }
    }
    for (int32_t i = 0; i < nrec; i++) {
        scratch_rec *s = &a->scratch.v[i];
#if defined(__GNUC__)
        /* the table is larger than the caches: ask for a later record's slot early */
        if (i + 4 < nrec && a->slot_cap && a->scratch.v[i + 4].fp)
            __builtin_prefetch(&a->slots[slot_home((uint32_t)a->scratch.v[i + 4].lo, a->slot_cap)]);
#endif
        uint32_t delta = (uint32_t)wsub(s->offset, b->base_offset);
        if (s->fp) {
            P->fingerprinted_records++;
            fp_insert(a, s->lo, s->hi, bi, delta, s->ts);
        }
        if (s->match) {
            a->match_total++;
            if (a->matches.n < a->o.max_matches) {
                an_match m = {s->lo, s->hi, s->ts, bi, delta, s->fp};
                VEC_PUSH(a->matches, m, a->nomem = true);
            }
        }
    }
    return true;
}

/* ---- partitions ----------------------------------------------------------------------- */

static bool partition_matches(const ss_an_opts *o, const ss_input_partition *ip) {
    if (o->match != SS_MATCH_OFFSET || !o->match_partition) return false;
    const char *want = o->match_partition;
    if (!strcmp(ip->name, want)) return true;
    const char *slash = strrchr(ip->name, '/');
    if (slash && !strcmp(slash + 1, want)) return true;
    return false;
}

static void finish_partition(ss_analysis *a, uint32_t part, size_t txn_first) {
    ss_an_partition *P = &a->parts[part];
    int64_t now = a->o.has_now ? a->o.now_ms : P->max_batch_timestamp;
    P->now_ms = now;
    int64_t lso = -1;
    for (size_t i = txn_first; i < a->txns.n; i++) {
        ss_an_txn *t = &a->txns.v[i];
        if (t->result != SS_TXN_OPEN) continue;
        P->txn_open++;
        P->open_txn_records += t->records;
        if (sat_sub(now, t->first_timestamp) > a->o.txn_timeout_ms) {
            t->hanging = true;
            P->txn_hanging++;
        }
        if (lso < 0 || t->first_offset < lso) lso = t->first_offset;
    }
    if (lso < 0) lso = P->next_offset;
    int64_t hw = P->input->high_watermark;
    if (hw >= 0 && (lso < 0 || lso > hw)) {
        lso = hw;
        P->lso_bounded_by_hw = true;
    }
    P->lso = lso;
    for (size_t i = a->part_first_batch; i < a->batches.n; i++) {
        an_batch *b = &a->batches.v[i];
        if (b->txn != NONE32) {
            int res = a->txns.v[b->txn].result;
            if (res == SS_TXN_ABORT) {
                b->flags |= BF_ABORTED;
                P->aborted_records += (uint64_t)b->nrec;
                continue;
            }
            if (res == SS_TXN_OPEN) b->flags |= BF_OPEN;
        }
        if (b->flags & BF_CTRL) continue;
        if (lso < 0 || b->base_offset >= lso) continue;
        if (b->last_offset < lso) P->read_committed_records += (uint64_t)b->nrec;
        else {
            int64_t below = sat_sub(lso, b->base_offset);
            P->read_committed_records += (uint64_t)(below < b->nrec ? below : b->nrec);
        }
    }
}

/* Where to start reading segment j for the window: a batch position found
 * with the segment's .index (and .timeindex for --since), checked to be a
 * valid batch at or before the window's start; 0 when there is no index or
 * it cannot be trusted. */
static uint64_t seek_position(ss_analysis *a, const ss_input_partition *ip, size_t j, const ss_segment *seg,
                              ss_decoder *dec) {
    const ss_an_opts *o = &a->o;
    const ss_input_segment *sg = &ip->segments[j];
    if (o->no_seek || !sg->path || sg->name_offset < 0 || sg->temporary) return 0;
    int64_t target = o->from_offset;
    if (ip->log_start_offset > target) target = ip->log_start_offset;
    size_t n = strlen(sg->path);
    if (n < 4 || strcmp(sg->path + n - 4, ".log") != 0) return 0;
    char *ipath = malloc(n + 8);
    if (!ipath) return 0;
    memcpy(ipath, sg->path, n - 4);
    ss_index *ix;
    ss_error err;
    if (o->since_ms != INT64_MIN) {
        strcpy(ipath + n - 4, ".timeindex");
        if (ss_index_open(ipath, SS_INDEX_TIME, sg->name_offset, &ix, &err) == SS_E_OK) {
            /* every record up to the offset of an entry has a timestamp <= the
             * entry's: the last entry older than --since is a safe start */
            uint64_t lo = 0, hi = ix->listed;
            while (lo < hi) {
                uint64_t mid = lo + (hi - lo) / 2;
                if (ss_index_time_entry(ix, mid).timestamp < o->since_ms) lo = mid + 1;
                else hi = mid;
            }
            if (lo > 0) {
                ss_time_entry e = ss_index_time_entry(ix, lo - 1);
                if (e.offset > target) target = e.offset;
            }
            ss_index_close(ix);
        }
    }
    uint64_t pos = 0;
    if (target > sg->name_offset) {
        strcpy(ipath + n - 4, ".index");
        if (ss_index_open(ipath, SS_INDEX_OFFSET, sg->name_offset, &ix, &err) == SS_E_OK) {
            ss_offset_entry e = ss_index_lookup(ix, sg->name_offset, target);
            if (e.position > 0) pos = (uint64_t)e.position;
            ss_index_close(ix);
        }
    }
    free(ipath);
    if (pos == 0) return 0;
    uint64_t size = ss_segment_size(seg);
    ss_batch b;
    if (pos >= size || ss_batch_parse(ss_segment_data(seg) + pos, size - pos, pos, true, dec, &b, &err) != SS_E_OK ||
        !b.crc_valid || b.base_offset > target || b.base_offset < sg->name_offset)
        return 0;
    return pos;
}

static void scan_partition(ss_analysis *a, uint32_t part) {
    ss_an_partition *P = &a->parts[part];
    const ss_input_partition *ip = P->input;
    const ss_an_opts *o = &a->o;
    bool part_match = partition_matches(o, ip);
    km_clear(&a->km);
    a->prev_last = -1;
    a->track_started = false;
    a->holes_seg = a->holes_boundary = 0;
    a->part_first_batch = (uint32_t)a->batches.n;
    size_t txn_first = a->txns.n;
    int64_t low = o->from_offset > ip->log_start_offset ? o->from_offset : ip->log_start_offset;
    bool window_done = false;
    for (size_t j = 0; j < ip->nsegments && !a->nomem && !window_done; j++) {
        /* segments wholly outside the offset window: their names bound their offsets */
        if (!o->no_seek && ip->segments[j].name_offset >= 0) {
            if (ip->segments[j].name_offset > o->to_offset) { P->segments_skipped += ip->nsegments - j; break; }
            if (j + 1 < ip->nsegments && ip->segments[j + 1].name_offset >= 0 &&
                ip->segments[j + 1].name_offset <= low && !ip->segments[j].temporary) {
                P->segments_skipped++;
                continue;
            }
        }
        ss_segment *seg;
        ss_error err;
        if (ss_inputs_open_segment(a->in, part, j, &seg, &err) != SS_E_OK) {
            P->segments_unreadable++;
            const char *path = ip->segments[j].path ? ip->segments[j].path : ip->name;
            size_t n = strlen(path) + strlen(err.msg) + 3;
            char *m = malloc(n);
            if (m) {
                snprintf(m, n, "%s: %s", path, err.msg);
                VEC_PUSH(a->unreadable, m, free(m));
            }
            continue;
        }
        P->segments++;
        /* a decoder per segment: its cache is keyed by payload address, and a
         * later mapping may reuse the addresses of a closed one */
        ss_decoder *dec = ss_decoder_new(o->max_batch_bytes);
        if (!dec) { ss_segment_close(seg); a->nomem = true; break; }
        ss_walker w;
        ss_walker_init(&w, seg, UINT64_MAX);
        ss_walker_set_decoder(&w, dec);
        uint64_t start = 0;
        if (low > INT64_MIN || o->since_ms != INT64_MIN) start = seek_position(a, ip, j, seg, dec);
        if (start) {
            w.pos = start;
            w.end_of_last_batch = start;
            P->bytes_skipped += start;
        }
        ss_event ev;
        bool seg_first = true;
        for (;;) {
            ss_event_kind k = ss_walker_next(&w, &ev);
            if (k == SS_EV_END) {
                P->tail_bytes += ev.tail_bytes;
                /* a notice: the file grew while it was read (other kinds there are left over from
                 * the parse that found the tail) */
                if (ev.err.kind == SS_E_GREW) add_damage(a, part, (uint32_t)j, &ev.err);
                break;
            }
            if (k == SS_EV_DAMAGE) {
                P->damaged_bytes += ev.err.length;
                add_damage(a, part, (uint32_t)j, &ev.err);
                continue;
            }
            if (!ev.batch.crc_valid) continue; /* its damage event follows */
            if (!o->no_seek && ev.batch.base_offset > o->to_offset) {
                /* past the window (offsets grow within a partition) */
                P->bytes_skipped += ss_segment_size(seg) - ev.batch.position;
                window_done = true;
                break;
            }
            track_hole(a, P, &ev.batch, seg_first);
            bool in = process_batch(a, part, (uint32_t)j, dec, &ev.batch, part_match);
            track_batch(a, P, &ev.batch, in);
            seg_first = false;
            if (a->nomem) break;
        }
        ss_decoder_free(dec);
        ss_segment_close(seg);
        if (window_done) P->segments_skipped += ip->nsegments - j - 1;
    }
    finish_partition(a, part, txn_first);
}

/* ---- causes and results ---------------------------------------------------------------- */

static void decide_causes(ss_analysis *a, an_group *g) {
    const an_batch *B = a->batches.v;
    uint32_t orig = g->first;
    for (uint32_t i = g->first; i != NONE32; i = a->occs.v[i].next)
        if (!(B[a->occs.v[i].batch].flags & BF_ABORTED)) { orig = i; break; }
    const an_occ *o = &a->occs.v[orig];
    const an_batch *ob = &B[o->batch];
    int32_t oseq = ob->base_seq >= 0 ? seq_add(ob->base_seq, o->delta) : -1;
    for (uint32_t i = g->first; i != NONE32; i = a->occs.v[i].next) {
        an_occ *c = &a->occs.v[i];
        if (i == orig) { c->cause = SS_CAUSE_NONE; continue; }
        const an_batch *cb = &B[c->batch];
        int cause;
        unsigned detail = 0;
        if (cb->flags & BF_ABORTED) cause = SS_CAUSE_ABORTED;
        else if (cb->part != ob->part) cause = SS_CAUSE_CROSS_PARTITION;
        else if (cb->pid < 0) {
            if (ob->pid < 0 && c->batch != o->batch && cb->count == ob->count && cb->content == ob->content)
                cause = SS_CAUSE_RETRY;
            else
                cause = SS_CAUSE_RESEND;
        } else if (ob->pid < 0 || cb->pid != ob->pid) {
            cause = SS_CAUSE_NEW_SESSION;
            detail = SS_NEWSESS_PID;
        } else if (cb->epoch != ob->epoch) {
            cause = SS_CAUSE_NEW_SESSION;
            detail = SS_NEWSESS_EPOCH;
            if ((cb->flags & BF_TXN) && cb->epoch > ob->epoch) detail |= SS_NEWSESS_TXN_V2_HINT;
        } else {
            int32_t cseq = cb->base_seq >= 0 ? seq_add(cb->base_seq, c->delta) : -1;
            cause = cseq == oseq ? SS_CAUSE_DUP_SEQUENCE : SS_CAUSE_SAME_SESSION;
        }
        c->cause = (uint8_t)cause;
        c->detail = (uint8_t)detail;
    }
    g->orig = orig;
}

static void make_copy(const ss_analysis *a, uint32_t batch, uint32_t delta, int64_t ts, ss_an_copy *c) {
    const an_batch *b = &a->batches.v[batch];
    memset(c, 0, sizeof *c);
    c->partition = b->part;
    c->offset = wadd(b->base_offset, (int64_t)delta);
    c->timestamp = ts;
    c->producer_id = b->pid;
    c->producer_epoch = b->epoch;
    c->sequence = b->base_seq >= 0 ? seq_add(b->base_seq, delta) : -1;
    c->transactional = (b->flags & BF_TXN) != 0;
    c->aborted = (b->flags & BF_ABORTED) != 0;
    c->open = (b->flags & BF_OPEN) != 0;
    c->batch = batch;
    c->batch_base_offset = b->base_offset;
    c->batch_last_offset = b->last_offset;
    c->batch_position = b->position;
    c->segment = b->seg;
    c->batch_records = b->nrec;
}

typedef struct group_key {
    uint32_t count, part, idx;
    int64_t offset;
} group_key;

static int cmp_group(const void *x, const void *y) {
    const group_key *g = x, *h = y;
    if (g->count != h->count) return g->count > h->count ? -1 : 1;
    if (g->part != h->part) return g->part < h->part ? -1 : 1;
    if (g->offset != h->offset) return g->offset < h->offset ? -1 : 1;
    return g->idx < h->idx ? -1 : g->idx > h->idx;
}

static int cmp_sess(const void *x, const void *y) {
    const an_sess *s = *(an_sess *const *)x, *t = *(an_sess *const *)y;
    if (s->pub.partition != t->pub.partition) return s->pub.partition < t->pub.partition ? -1 : 1;
    if (s->pub.producer_id != t->pub.producer_id) return s->pub.producer_id < t->pub.producer_id ? -1 : 1;
    if (s->pub.producer_epoch != t->pub.producer_epoch) return s->pub.producer_epoch < t->pub.producer_epoch ? -1 : 1;
    return s->pub.first_offset < t->pub.first_offset ? -1 : s->pub.first_offset > t->pub.first_offset;
}

static void finish_sessions(ss_analysis *a) {
    for (size_t i = 0; i < a->sess.n; i++) {
        an_sess *s = a->sess.v[i];
        ss_an_partition *P = &a->parts[s->pub.partition];
        /* ranges: the covered intervals, split at the wrap */
        size_t cap = 0;
        for (size_t k = 0; k < s->niv; k++) {
            int64_t lo = s->iv[2 * k], hi = s->iv[2 * k + 1];
            while (lo <= hi) {
                int64_t end = lo - mod_seq(lo) + SEQ_MOD - 1;
                int64_t e = hi < end ? hi : end;
                if (s->nranges == cap) {
                    size_t nc = cap ? cap * 2 : 4;
                    ss_an_range *nr = realloc(s->ranges, nc * sizeof *nr);
                    if (!nr) { a->nomem = true; break; }
                    s->ranges = nr;
                    cap = nc;
                }
                s->ranges[s->nranges].first = (int32_t)mod_seq(lo);
                s->ranges[s->nranges].last = (int32_t)mod_seq(e);
                s->nranges++;
                lo = e + 1;
            }
        }
        for (size_t k = 0; k < s->ngaps; k++) {
            ss_an_gap *g = &s->gaps[k];
            if (s->gap_hole[k] == 2) g->explained = SS_GAP_RETENTION;
            else if (s->gap_hole[k] == 1 || P->compacted) g->explained = SS_GAP_COMPACTION;
            else g->explained = SS_GAP_UNEXPLAINED;
            if (g->explained == SS_GAP_UNEXPLAINED) P->sequence_gaps++;
            else P->sequence_gaps_explained++;
        }
        P->sequence_gaps_explained += s->more_gaps_hole[1] + s->more_gaps_hole[2];
        if (P->compacted) P->sequence_gaps_explained += s->more_gaps_hole[0];
        else P->sequence_gaps += s->more_gaps_hole[0];
        P->duplicate_sequences += s->pub.repeated_sequences;
        P->out_of_order_batches += s->pub.out_of_order_batches;
        s->pub.ranges = s->ranges;
        s->pub.nranges = s->nranges;
        s->pub.gaps = s->gaps;
        s->pub.ngaps = s->ngaps;
    }
    if (a->sess.n > 1) qsort(a->sess.v, a->sess.n, sizeof *a->sess.v, cmp_sess);
}

static void finish_groups(ss_analysis *a) {
    size_t ng = a->groups.n;
    for (size_t i = 0; i < ng; i++) decide_causes(a, &a->groups.v[i]);
    for (uint32_t p = 0; p < a->nparts; p++) a->parts[p].max_copies = a->parts[p].records > 0 ? 1 : 0;
    /* per partition: runs of copies (copies arrive in partition order) */
    for (size_t i = 0; i < ng; i++) {
        an_group *g = &a->groups.v[i];
        uint32_t run_part = NONE32;
        uint64_t run = 0, run_dups = 0;
        for (uint32_t k = g->first;; k = a->occs.v[k].next) {
            uint32_t p = k == NONE32 ? NONE32 : a->batches.v[a->occs.v[k].batch].part;
            if (p != run_part) {
                if (run_part != NONE32) {
                    ss_an_partition *P = &a->parts[run_part];
                    if (run > P->max_copies) P->max_copies = run;
                    if (run_dups) {
                        P->duplicate_groups++;
                        P->duplicate_records += run_dups;
                    }
                }
                run_part = p;
                run = run_dups = 0;
            }
            if (k == NONE32) break;
            run++;
            if (k != g->orig) run_dups++;
        }
    }
    /* sorted order: largest first, then by the first copy's position */
    group_key *order = malloc((ng ? ng : 1) * sizeof *order);
    a->gpub = calloc(ng ? ng : 1, sizeof *a->gpub);
    a->gstart = malloc((ng + 1) * sizeof *a->gstart);
    a->gsorted_of = malloc((ng ? ng : 1) * sizeof *a->gsorted_of);
    a->gocc = malloc((a->occs.n ? a->occs.n : 1) * sizeof *a->gocc);
    if (!order || !a->gpub || !a->gstart || !a->gsorted_of || !a->gocc) {
        free(order);
        a->nomem = true;
        return;
    }
    for (uint32_t i = 0; i < ng; i++) {
        const an_group *g = &a->groups.v[i];
        const an_occ *o = &a->occs.v[g->first];
        const an_batch *b = &a->batches.v[o->batch];
        order[i].count = g->count;
        order[i].part = b->part;
        order[i].offset = wadd(b->base_offset, o->delta);
        order[i].idx = i;
    }
    if (ng > 1) qsort(order, ng, sizeof *order, cmp_group);
    uint32_t w = 0;
    for (uint32_t si = 0; si < ng; si++) {
        an_group *g = &a->groups.v[order[si].idx];
        a->gsorted_of[order[si].idx] = si;
        a->gstart[si] = w;
        ss_an_group *pg = &a->gpub[si];
        pg->fp_lo = g->lo;
        pg->fp_hi = g->hi;
        pg->copies = g->count;
        uint32_t j = 0;
        for (uint32_t k = g->first; k != NONE32; k = a->occs.v[k].next, j++) {
            const an_occ *o = &a->occs.v[k];
            ss_an_copy *c = &a->gocc[w++];
            make_copy(a, o->batch, o->delta, o->ts, c);
            c->cause = o->cause;
            c->detail = o->detail;
            if (k == g->orig) {
                pg->original = j;
                pg->partition = c->partition;
            } else {
                pg->causes |= 1u << o->cause;
                a->totals.cause[o->cause]++;
                if (c->open) a->totals.open_copies++;
            }
            if (c->open) pg->has_open = true;
        }
    }
    a->gstart[ng] = w;
    free(order);
}

static void finish_matches(ss_analysis *a) {
    size_t n = a->matches.n;
    a->mpub = calloc(n ? n : 1, sizeof *a->mpub);
    if (!a->mpub) { a->nomem = true; return; }
    for (size_t i = 0; i < n; i++) {
        const an_match *m = &a->matches.v[i];
        ss_an_match *pm = &a->mpub[i];
        make_copy(a, m->batch, m->delta, m->ts, &pm->copy);
        pm->fingerprinted = m->fp;
        pm->group = -1;
        if (!m->fp) continue;
        uint32_t ei = fp_find(a, m->lo, m->hi, topic_of_batch(a, m->batch));
        if (ei != NONE32 && ent_at(a, ei)->delta == GROUPED) {
            uint32_t si = a->gsorted_of[(uint32_t)ent_at(a, ei)->tsd];
            pm->group = si;
            /* the copy's cause, as decided for its group */
            for (uint32_t k = a->gstart[si]; k < a->gstart[si + 1]; k++)
                if (a->gocc[k].batch == m->batch && a->gocc[k].offset == pm->copy.offset) {
                    pm->copy.cause = a->gocc[k].cause;
                    pm->copy.detail = a->gocc[k].detail;
                }
        }
    }
}

static void finish_totals(ss_analysis *a) {
    ss_an_totals *t = &a->totals;
    t->partitions = a->nparts;
    for (size_t i = 0; i < a->nparts; i++) {
        const ss_an_partition *P = &a->parts[i];
        t->segments += P->segments;
        t->records += P->records;
        t->batches += P->batches;
        t->control_records += P->control_records;
        t->duplicate_records += P->duplicate_records;
        if (P->max_copies > t->max_copies) t->max_copies = P->max_copies;
        t->producers += P->producers;
        t->sessions += P->sessions;
        t->non_idempotent_records += P->non_idempotent_records;
        t->sequence_gaps += P->sequence_gaps;
        t->sequence_gaps_explained += P->sequence_gaps_explained;
        t->duplicate_sequences += P->duplicate_sequences;
        t->out_of_order_batches += P->out_of_order_batches;
        t->epoch_bumps += P->epoch_bumps;
        t->txn_committed += P->txn_committed;
        t->txn_aborted += P->txn_aborted;
        t->txn_open += P->txn_open;
        t->txn_empty += P->txn_empty;
        t->txn_hanging += P->txn_hanging;
        t->read_committed_records += P->read_committed_records;
        t->damaged_bytes += P->damaged_bytes;
        t->tail_bytes += P->tail_bytes;
        t->skipped_large_batches += P->skipped_large_batches;
    }
    t->duplicate_groups = a->groups.n;
    for (size_t i = 0; i < a->groups.n; i++)
        if (a->groups.v[i].count > t->max_copies) t->max_copies = a->groups.v[i].count;
}

ss_errkind ss_analysis_run(ss_analysis *a, const ss_inputs *in) {
    a->in = in;
    a->nparts = ss_inputs_count(in);
    size_t np = a->nparts ? a->nparts : 1;
    a->parts = calloc(np, sizeof *a->parts);
    a->topic_id = calloc(np, sizeof *a->topic_id);
    a->seg_base = calloc(np + 1, sizeof *a->seg_base);
    if (!a->parts || !a->topic_id || !a->seg_base) return SS_E_NOMEM;
    uint32_t tid = 0;
    for (size_t i = 0; i < a->nparts; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (i > 0 && strcmp(ip->topic, ss_inputs_at(in, i - 1)->topic) != 0) tid++;
        a->topic_id[i] = tid;
        a->seg_base[i + 1] = a->seg_base[i] + ip->nsegments;
        ss_an_partition *P = &a->parts[i];
        P->input = ip;
        P->first_offset = P->next_offset = P->lso = -1;
        P->max_batch_timestamp = -1;
        P->dups_excluded = ip->internal && !ip->named && !a->o.include_internal;
    }
    a->nsegs_total = a->seg_base[a->nparts];
    for (uint32_t i = 0; i < a->nparts && !a->nomem; i++) scan_partition(a, i);
    if (!a->nomem) finish_sessions(a);
    if (!a->nomem) finish_groups(a);
    if (!a->nomem) finish_matches(a);
    finish_totals(a);
    return a->nomem ? SS_E_NOMEM : SS_E_OK;
}

/* ---- accessors -------------------------------------------------------------------------- */

size_t ss_an_partition_count(const ss_analysis *a) { return a->nparts; }
const ss_an_partition *ss_an_partition_at(const ss_analysis *a, size_t i) { return &a->parts[i]; }
const ss_an_totals *ss_an_totals_get(const ss_analysis *a) { return &a->totals; }
size_t ss_an_group_count(const ss_analysis *a) { return a->gpub ? a->groups.n : 0; }
const ss_an_group *ss_an_group_at(const ss_analysis *a, size_t i) { return &a->gpub[i]; }
void ss_an_group_copy(const ss_analysis *a, size_t i, size_t j, ss_an_copy *out) { *out = a->gocc[a->gstart[i] + j]; }
size_t ss_an_session_count(const ss_analysis *a) { return a->sess.n; }
const ss_an_session *ss_an_session_at(const ss_analysis *a, size_t i) { return &a->sess.v[i]->pub; }
size_t ss_an_txn_count(const ss_analysis *a) { return a->txns.n; }
const ss_an_txn *ss_an_txn_at(const ss_analysis *a, size_t i) { return &a->txns.v[i]; }
size_t ss_an_damage_count(const ss_analysis *a) { return a->damage.n; }
const ss_an_damage *ss_an_damage_at(const ss_analysis *a, size_t i) { return &a->damage.v[i]; }
size_t ss_an_unreadable_count(const ss_analysis *a) { return a->unreadable.n; }
const char *ss_an_unreadable_at(const ss_analysis *a, size_t i) { return a->unreadable.v[i]; }
size_t ss_an_match_count(const ss_analysis *a) { return a->mpub ? a->matches.n : 0; }
const ss_an_match *ss_an_match_at(const ss_analysis *a, size_t i) { return &a->mpub[i]; }
uint64_t ss_an_match_total(const ss_analysis *a) { return a->match_total; }

/* ---- reading a record back ---------------------------------------------------------------- */

#define MAX_OPEN_FETCH 256

int ss_an_fetch_offset(ss_analysis *a, uint32_t batch, int64_t offset, ss_record *r, ss_error *err) {
    if (batch >= a->batches.n) return 0;
    const an_batch *b = &a->batches.v[batch];
    if (!a->segcache) {
        a->segcache = calloc(a->nsegs_total ? a->nsegs_total : 1, sizeof *a->segcache);
        if (!a->segcache) return -1;
    }
    size_t gi = a->seg_base[b->part] + b->seg;
    if (!a->segcache[gi]) {
        if (a->segs_open >= MAX_OPEN_FETCH) {
            /* close them all, and drop the decoder whose cache may point into them */
            for (size_t i = 0; i < a->nsegs_total; i++) {
                ss_segment_close(a->segcache[i]);
                a->segcache[i] = NULL;
            }
            a->segs_open = 0;
            ss_decoder_free(a->fdec);
            a->fdec = NULL;
        }
        if (ss_inputs_open_segment(a->in, b->part, b->seg, &a->segcache[gi], err) != SS_E_OK) return -1;
        a->segs_open++;
    }
    if (!a->fdec) {
        a->fdec = ss_decoder_new(a->o.max_batch_bytes);
        if (!a->fdec) return -1;
    }
    /* drop the pages read back now and then: the mappings are not to grow resident */
    a->fetched_bytes += b->size;
    if (a->fetched_bytes > ((uint64_t)32 << 20)) {
        for (size_t i = 0; i < a->nsegs_total; i++)
            if (a->segcache[i]) ss_segment_release(a->segcache[i], ss_segment_size(a->segcache[i]));
        a->fetched_bytes = 0;
    }
    const ss_segment *seg = a->segcache[gi];
    uint64_t size = ss_segment_size(seg);
    if (b->position >= size) return 0;
    if (ss_batch_parse(ss_segment_data(seg) + b->position, size - b->position, b->position, false, a->fdec,
                       &a->fbatch, err) != SS_E_OK)
        return -1;
    if (ss_records_begin(a->fdec, &a->fbatch, &a->fit, err) != SS_E_OK) return -1;
    int k;
    while ((k = ss_records_next(&a->fit, r, err)) == 1)
        if (r->offset == offset) return 1;
    return k < 0 ? -1 : 0;
}

int ss_an_fetch(ss_analysis *a, const ss_an_copy *c, ss_record *r, ss_error *err) {
    return ss_an_fetch_offset(a, c->batch, c->offset, r, err);
}
