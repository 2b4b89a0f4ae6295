/* segscan - comparing two logs: replicas by offset, mirrors by content.
 *
 * Both sides are read through a record cursor that stitches a partition's
 * segments and skips damaged batches (counting them). Offset mode compares in
 * lockstep and keeps only counts, coalesced ranges and the first listed
 * differences. Content mode counts fingerprints per side in one hash map
 * (base/map.h, 40 bytes a slot, sized from the inputs' sizes, on huge
 * pages; lookups in runs of FP_RUN, prefetched, since the counts do not depend
 * on their order), then reads the sides again only when it has differences to
 * list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "analysis/fingerprint.h"
#include "analysis/units.h"
#include "base/error_set.h"
#include "base/grow.h"
#include "diff/diff_int.h"
#include "inputs/cursor.h"
#include "segscan/analyze.h"
#include "segscan/diff.h"
#include "segscan/files.h"


/* ---- results ------------------------------------------------------------------- */

typedef struct pair_state {
    ss_diff_pair pub;
    ss_diff_range *ranges;
    size_t nranges, capranges;
    bool range_dropped; /* a range was found past MAX_RANGES: the last kept one has ended */
    ss_diff_item *items;
    size_t nitems;
    uint8_t **kept; /* 2 * max_items: the bytes of each listed difference's sides */
    int32_t *epochs_a, *epochs_b;
    int64_t *starts_a, *starts_b;
    /* offset mode: the records one side holds inside the other's range and the
     * other lacks, in the order they were met ([0]: missing from A, [1]: from B),
     * until the rule decides between compacted and lost */
    struct missing {
        int64_t offset;
        uint64_t key;        /* key_hash, 0 for a null key */
        int64_t producer_id; /* of a transactional record, else -1 */
        bool tombstone, legacy;
    } * miss[2];
    size_t nmiss[2], capmiss[2];
} pair_state;

/* What one side's analysis gives a comparison: which transactions were aborted (--read-committed)
 * and the cause of a surplus copy that is a duplicate on its side. The analysis reads the whole side
 * once, at the first pair that needs it, and serves every pair of that side: a pair's comparison
 * runs no analysis of its own. */
typedef struct side_analysis {
    const ss_inputs *in;
    char name;             /* 'A' or 'B' */
    ss_problems *problems; /* the diff's: where a failed analysis is said */
    bool tried;            /* run (or tried) already */
    ss_analysis *an;       /* NULL: not run, or it failed */
    ss_map groups;         /* fingerprint (hi, lo) -> the first duplicate group of it (u32) */
} side_analysis;

struct ss_diff {
    pair_state *pairs;
    size_t npairs;
    const ss_input_partition **unpaired;
    char *unpaired_side;
    size_t nunpaired, capunpaired, capside;
    ss_diff_opts o;
    side_analysis side[2]; /* A, B */
    ss_problems problems;  /* an analysis of a side that failed */
};

#define MAX_RANGES 1000

const char *ss_diff_mode_name(enum ss_diff_mode mode) {
    return mode == SS_DIFF_OFFSET ? "offset" : mode == SS_DIFF_CONTENT ? "content" : "auto";
}

const char *ss_diff_kind_name(enum ss_diff_kind kind) {
    switch (kind) {
    case SS_DK_ONLY_A: return "onlyInA";
    case SS_DK_ONLY_B: return "onlyInB";
    case SS_DK_DIFFER: return "differing";
    case SS_DK_COMPACTED_A: return "compactedInA";
    case SS_DK_COMPACTED_B: return "compactedInB";
    case SS_DK_LOST_A: return "lostInA";
    case SS_DK_LOST_B: return "lostInB";
    default: return "unknown";
    }
}

void ss_diff_opts_default(ss_diff_opts *o) {
    memset(o, 0, sizeof *o);
    o->mode = SS_DIFF_AUTO;
    o->by = SS_BY_VALUE;
    o->max_items = 100;
    o->preview_bytes = 0;
}

/* Extend the last range when it is of the same kind and `offset` follows it on
 * its side (the previous record of that side was its end, and offsets go up: a
 * damaged log can go back), else start one. */
static void add_range(pair_state *ps, enum ss_diff_kind kind, enum ss_diff_where where, int64_t offset,
                      bool continues) {
    ss_diff_range *last = ps->nranges && !ps->range_dropped ? &ps->ranges[ps->nranges - 1] : NULL;
    if (last && continues && last->kind == kind && last->where == where && offset > last->to) {
        last->to = offset;
        last->records++;
        return;
    }
    ps->pub.ranges_total++;
    if (ps->nranges == MAX_RANGES) {
        ps->range_dropped = true;
        return;
    }
    if (!SS_GROW(ps->ranges, ps->nranges, ps->capranges, 16)) return;
    ss_diff_range *r = &ps->ranges[ps->nranges++];
    r->kind = kind;
    r->where = where;
    r->from = r->to = offset;
    r->records = 1;
}

static void fill_rec(ss_diff_rec *d, const ss_record *r, const ss_batch *b, uint8_t **keep, size_t pv) {
    d->present = true;
    d->offset = r->offset;
    d->timestamp = r->timestamp;
    d->partition_leader_epoch = b ? b->partition_leader_epoch : -1;
    d->key_len = r->key_len;
    d->value_len = r->value_len;
    d->key = d->value = NULL;
    /* a copy of the key and value (whole unless pv), for the few listed differences */
    size_t nk = r->key_len > 0 ? (size_t)r->key_len : 0, nv = r->value_len > 0 ? (size_t)r->value_len : 0;
    if (pv && nk > pv) nk = pv;
    if (pv && nv > pv) nv = pv;
    uint8_t *buf = malloc(nk + nv + 1);
    *keep = buf;
    if (!buf) { /* listed without its bytes: lengths say what they were */
        d->key_len = d->key_len < 0 ? -1 : 0;
        d->value_len = d->value_len < 0 ? -1 : 0;
        return;
    }
    if (r->key_len >= 0) {
        if (nk) memcpy(buf, r->key, nk);
        d->key = buf;
    }
    if (r->value_len >= 0) {
        if (nv) memcpy(buf + nk, r->value, nv);
        d->value = buf + nk;
    }
}

static void add_item(pair_state *ps, const ss_diff_opts *o, enum ss_diff_kind kind, const ss_record *ra,
                     const ss_batch *ba, const ss_record *rb, const ss_batch *bb) {
    ps->pub.items_total++;
    if (ps->nitems >= o->max_items) return;
    size_t pv = o->preview_bytes;
    ss_diff_item *it = &ps->items[ps->nitems];
    uint8_t **keep = ps->kept + 2 * ps->nitems;
    memset(it, 0, sizeof *it);
    it->kind = kind;
    if (ra) fill_rec(&it->a, ra, ba, &keep[0], pv);
    if (rb) fill_rec(&it->b, rb, bb, &keep[1], pv);
    ps->nitems++;
}

/* Kafka's reconciliation (LeaderEpochFileCache.endOffsetFor): the follower's
 * latest epoch both sides know is E; each side's end of E is the start of its
 * next epoch, or its log end offset; the follower truncates to the smaller. */
static void truncation_point(ss_diff_pair *p) {
    p->shared_epoch = -1;
    p->truncation_offset = -1;
    const ss_diff_side *a = &p->a, *b = &p->b;
    for (size_t i = a->nepochs; i-- > 0;) {
        for (size_t j = b->nepochs; j-- > 0;) {
            if (b->epochs[j] == a->epochs[i]) {
                int64_t end_a = i + 1 < a->nepochs ? a->epoch_starts[i + 1] : a->next_offset;
                int64_t end_b = j + 1 < b->nepochs ? b->epoch_starts[j + 1] : b->next_offset;
                p->shared_epoch = a->epochs[i];
                p->truncation_offset = end_a < end_b ? end_a : end_b;
                return;
            }
            if (b->epochs[j] < a->epochs[i]) break;
        }
    }
}

/* A leader-epoch-checkpoint in the partition directory replaces the epochs
 * seen in batches (it is what the broker reconciles with). */
static void epochs_from_checkpoint(const ss_input_partition *p, ss_diff_side *side, int32_t **ep, int64_t **st) {
    if (!p->is_dir) return;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/leader-epoch-checkpoint", p->path) >= sizeof path) return;
    ss_checkpoint ck;
    ss_error err;
    if (ss_checkpoint_read(path, SS_CKPT_LEADER_EPOCH, &ck, &err) != SS_E_OK) return;
    if (ck.n > 0) {
        int32_t *e = malloc(ck.n * sizeof *e);
        int64_t *s = malloc(ck.n * sizeof *s);
        if (e && s) {
            for (size_t i = 0; i < ck.n; i++) {
                e[i] = ck.epochs[i].epoch;
                s[i] = ck.epochs[i].start_offset;
            }
            free(*ep);
            free(*st);
            *ep = e;
            *st = s;
            side->nepochs = ck.n;
            side->epochs_from_checkpoint = true;
        } else {
            free(e);
            free(s);
        }
    }
    ss_checkpoint_free(&ck);
}

static void keep_epochs(pcursor *c, ss_diff_side *side, int32_t **ep, int64_t **st) {
    *ep = c->epochs;
    *st = c->starts;
    side->nepochs = c->nep;
    c->epochs = NULL;
    c->starts = NULL;
    epochs_from_checkpoint(c->p, side, ep, st);
    side->epochs = *ep;
    side->epoch_starts = *st;
}

/* ---- compacted or lost ----------------------------------------------------------
 *
 * A record one side (the "other") holds inside this side's offset range and this
 * side lacks is explained by compaction only where this log shows cleaning and
 * its cleaner would have removed the record (LogCleaner.scala):
 *  - the log shows cleaning at that offset: the offset is below its
 *    cleaner-offset-checkpoint entry (the cleaner's firstDirtyOffset), or at or
 *    below the last offset of a batch the cleaner rewrote (fewer records than its
 *    offset deltas span, or a delete horizon set);
 *  - Cleaner.shouldRetainRecord drops it: a record without a key ("invalid"
 *    to the cleaner), a record superseded by a later record with the same key in
 *    this log (latestOffsetForKey false), or a tombstone once its batch's delete
 *    horizon passed (v2: seen here only as horizons set on this log's batches; v0/v1:
 *    retainDeletesForLegacyRecords, not knowable, so a legacy tombstone is allowed);
 *  - or Cleaner.shouldDiscardBatch drops its batch: data of an aborted transaction
 *    (CleanedTransactionMetadata: the batch's producer id among the aborted
 *    transactions), known here when the first marker of its producer id after it, on
 *    either side, is an ABORT.
 * Anything else is lost: cut off, in a missing segment, or gone otherwise.
 */
static bool note_missing(pair_state *ps, int side, pcursor *lacking, const ss_record *r, const ss_batch *b) {
    if (!SS_GROW(ps->miss[side], ps->nmiss[side], ps->capmiss[side], 64)) return false;
    struct missing *m = &ps->miss[side][ps->nmiss[side]++];
    m->offset = r->offset;
    m->key = r->key_len >= 0 ? diff_key_hash(r) : 0;
    m->tombstone = r->value_len < 0;
    m->legacy = b->magic < 2;
    m->producer_id = b->transactional && !b->control ? b->producer_id : -1;
    return !m->key || diff_kt_add(&lacking->keys, m->key);
}

/* The first marker of a producer id after an offset in one side's markers, or NULL. */
static const struct diff_marker *next_marker(const pcursor *c, int64_t pid, int64_t offset) {
    size_t lo = 0, hi = c->nmarks;
    while (lo < hi) { /* the first marker past offset: markers are in offset order */
        size_t mid = lo + (hi - lo) / 2;
        if (c->marks[mid].offset <= offset) lo = mid + 1;
        else hi = mid;
    }
    for (size_t i = lo; i < c->nmarks; i++)
        if (c->marks[i].producer_id == pid) return &c->marks[i];
    return NULL;
}

/* Was the transactional record m's transaction aborted, by the markers of either side? */
static bool txn_aborted(const pcursor *x, const pcursor *y, const struct missing *m) {
    if (m->producer_id < 0) return false;
    const struct diff_marker *a = next_marker(x, m->producer_id, m->offset),
                             *b = next_marker(y, m->producer_id, m->offset);
    const struct diff_marker *first = a && (!b || a->offset <= b->offset) ? a : b;
    return first && first->abort;
}

static bool cleaner_removes(const pcursor *lacking, const pcursor *other, const struct missing *m) {
    if (m->offset > lacking->cleaned_through) return false;
    if (txn_aborted(lacking, other, m)) return true;
    if (!m->key) return true;
    const int64_t *last = diff_kt_last(&lacking->keys, m->key);
    if (last && *last > m->offset) return true;
    return m->tombstone && (m->legacy || lacking->horizons);
}

/* Split the provisional compacted ranges and listed differences of the side that
 * lacks the records (0: A, 1: B) into compacted and lost, in the order they were met. */
static void resolve_missing(pair_state *ps, int side, const pcursor *lacking, const pcursor *other) {
    size_t n = ps->nmiss[side];
    if (!n) return;
    ss_diff_pair *p = &ps->pub;
    enum ss_diff_kind comp = side ? SS_DK_COMPACTED_B : SS_DK_COMPACTED_A, lost = side ? SS_DK_LOST_B : SS_DK_LOST_A;
    bool *is_lost = malloc(n);
    if (!is_lost) return; /* left as compacted: out of memory is reported by the caller */
    uint64_t nlost = 0;
    for (size_t i = 0; i < n; i++) {
        is_lost[i] = !cleaner_removes(lacking, other, &ps->miss[side][i]);
        nlost += is_lost[i];
    }
    if (side) p->compacted_b -= nlost, p->lost_b += nlost;
    else p->compacted_a -= nlost, p->lost_a += nlost;
    /* the listed differences are the first ones met: the k-th of kind comp is miss[k] */
    size_t k = 0;
    for (size_t i = 0; i < ps->nitems; i++)
        if (ps->items[i].kind == comp) ps->items[i].kind = is_lost[k++] ? lost : comp;
    /* ranges: each provisional one covers the next r->records missing records */
    if (nlost) {
        ss_diff_range *out = NULL;
        size_t nout = 0, cap = 0;
        k = 0;
        for (size_t i = 0; i < ps->nranges; i++) {
            ss_diff_range r = ps->ranges[i];
            if (r.kind != comp || k >= n) {
                if (SS_GROW(out, nout, cap, 16)) out[nout++] = r;
                continue;
            }
            for (uint64_t j = 0; j < r.records && k < n; j++, k++) {
                enum ss_diff_kind kind = is_lost[k] ? lost : comp;
                if (j && out[nout - 1].kind == kind) {
                    out[nout - 1].to = ps->miss[side][k].offset;
                    out[nout - 1].records++;
                    continue;
                }
                if (j) p->ranges_total++;
                if (!SS_GROW(out, nout, cap, 16)) break;
                out[nout++] = (ss_diff_range){kind, r.where, ps->miss[side][k].offset, ps->miss[side][k].offset, 1};
            }
        }
        free(ps->ranges);
        ps->ranges = out;
        ps->nranges = nout;
        ps->capranges = cap;
    }
    free(is_lost);
}

/* Record r of one side (side 1: B) at an offset the other side (its cursor
 * `other`, other_has: it has records left) lacks: lost to damage there,
 * compacted away there (it holds offsets on both sides of r: until
 * resolve_missing decides), or outside its range. Counted, ranged, listed;
 * *last: the kind of the side's previous range. False when memory ran out. */
static bool one_sided(pair_state *ps, const ss_diff_opts *o, int side, pcursor *other, bool other_has,
                      const ss_record *r, const ss_batch *b, enum ss_diff_kind *last) {
    ss_diff_pair *p = &ps->pub;
    int64_t other_first = side ? p->a.first_offset : p->b.first_offset;
    enum ss_diff_kind kind = side ? SS_DK_ONLY_B : SS_DK_ONLY_A;
    enum ss_diff_where where;
    bool ok = true;
    if (diff_in_damage(other, r->offset)) {
        where = SS_DW_DAMAGED;
    } else if (other_has && other_first >= 0 && other_first <= r->offset) {
        kind = side ? SS_DK_COMPACTED_A : SS_DK_COMPACTED_B;
        where = SS_DW_INSIDE;
    } else {
        where = other_has ? SS_DW_BEFORE : SS_DW_AFTER;
    }
    if (where != SS_DW_INSIDE) {
        if (side) p->only_b++;
        else p->only_a++;
    } else {
        if (side) p->compacted_a++;
        else p->compacted_b++;
        ok = note_missing(ps, !side, other, r, b);
    }
    add_range(ps, kind, where, r->offset, *last == kind);
    if (side) add_item(ps, o, kind, NULL, NULL, r, b);
    else add_item(ps, o, kind, r, b, NULL, NULL);
    *last = kind;
    if (side) p->b.records++;
    else p->a.records++;
    return ok;
}

static ss_errkind diff_offset(const ss_inputs *A, size_t ia, const ss_inputs *B, size_t ib, const ss_diff_opts *o,
                              pair_state *ps) {
    ss_diff_pair *p = &ps->pub;
    pcursor ca, cb;
    if (diff_pc_open(&ca, A, ia, o->max_batch_bytes, &p->a) != SS_E_OK) return SS_E_NOMEM;
    if (diff_pc_open(&cb, B, ib, o->max_batch_bytes, &p->b) != SS_E_OK) {
        diff_pc_close(&ca);
        return SS_E_NOMEM;
    }
    XXH3_state_t *st = XXH3_createState();
    if (!st) {
        diff_pc_close(&ca);
        diff_pc_close(&cb);
        return SS_E_NOMEM;
    }
    p->first_divergent_offset = -1;
    ss_record ra, rb;
    const ss_batch *ba = NULL, *bb = NULL;
    int ha = diff_pc_next(&ca, &ra, &ba), hb = diff_pc_next(&cb, &rb, &bb);
    /* kind of the range the previous record of each side went to (0: none yet) */
    enum ss_diff_kind last_a = 0, last_b = 0;
    bool oom = false;
    while (ha || hb) {
        if (ha && (!hb || ra.offset < rb.offset)) {
            /* A holds an offset B does not */
            if (!one_sided(ps, o, 0, &cb, hb, &ra, ba, &last_a)) oom = true;
            ha = diff_pc_next(&ca, &ra, &ba);
        } else if (hb && (!ha || rb.offset < ra.offset)) {
            if (!one_sided(ps, o, 1, &ca, ha, &rb, bb, &last_b)) oom = true;
            hb = diff_pc_next(&cb, &rb, &bb);
        } else {
            XXH128_hash_t fa = diff_record_fp(st, &ra), fb = diff_record_fp(st, &rb);
            bool same = XXH128_isEqual(fa, fb) && ra.timestamp == rb.timestamp;
            if (!same) {
                if (p->first_divergent_offset < 0) {
                    p->first_divergent_offset = ra.offset;
                    p->divergent_epoch_a = ba->partition_leader_epoch;
                    p->divergent_epoch_b = bb->partition_leader_epoch;
                }
                p->differing++;
                if (ba->partition_leader_epoch >= 0 && ba->partition_leader_epoch == bb->partition_leader_epoch)
                    p->differing_same_epoch++;
                add_range(ps, SS_DK_DIFFER, SS_DW_INSIDE, ra.offset, last_a == SS_DK_DIFFER && last_b == SS_DK_DIFFER);
                add_item(ps, o, SS_DK_DIFFER, &ra, ba, &rb, bb);
                last_a = last_b = SS_DK_DIFFER;
            } else {
                last_a = last_b = 0;
            }
            p->a.records++;
            p->b.records++;
            ha = diff_pc_next(&ca, &ra, &ba);
            hb = diff_pc_next(&cb, &rb, &bb);
        }
    }
    keep_epochs(&ca, &p->a, &ps->epochs_a, &ps->starts_a);
    keep_epochs(&cb, &p->b, &ps->epochs_b, &ps->starts_b);
    resolve_missing(ps, 0, &ca, &cb);
    resolve_missing(ps, 1, &cb, &ca);
    p->identical = p->only_a == 0 && p->only_b == 0 && p->differing == 0 && p->lost_a == 0 && p->lost_b == 0;
    if (!p->identical) truncation_point(p);
    else p->shared_epoch = -1, p->truncation_offset = -1;
    XXH3_freeState(st);
    free(ca.epochs);
    free(ca.starts);
    free(cb.epochs);
    free(cb.starts);
    diff_pc_close(&ca);
    diff_pc_close(&cb);
    return oom ? SS_E_NOMEM : SS_E_OK;
}

/* ---- content mode ------------------------------------------------------------- */

/* The fingerprint table: a base/map.h map from the 128-bit fingerprint (hi,
 * lo; lo is its hash, the home is lo's low bits) to the copies on each side,
 * its tables from ss_big_calloc (huge pages): 40 bytes a slot. */
typedef struct fp_key {
    uint64_t hi, lo;
} fp_key;

typedef struct fp_entry {
    uint32_t na, nb; /* copies on each side */
    uint32_t seen;   /* listing pass: copies of the current side met so far */
} fp_entry;

/* A table for the fingerprints of partitions of about `bytes` each (a mirror's
 * sides share theirs): ~256 bytes a record on disk, at most 70% full, and at
 * first no more than 2^23 slots: a table far larger than its records would
 * have all its pages touched by a few of them. At least 64 slots, not more: the
 * table grows as it fills, and every slot is read once to count and once per
 * side to list: a 1024-slot floor (40 KiB) made a partition of a few records
 * read a thousand empty slots three times. */
static void fpt_init(ss_map *t, uint64_t bytes) {
    uint64_t want = bytes / 256 * 10 / 7;
    size_t cap = 64;
    while (cap < want && cap < ((size_t)1 << 23)) cap <<= 1;
    ss_map_init(t, sizeof(fp_key), sizeof(fp_entry), cap, 70);
    t->big = true;
}

/* Bytes of a partition's segments. */
static uint64_t partition_bytes(const ss_inputs *in, size_t part) {
    uint64_t n = 0;
    for (size_t j = 0; j < ss_inputs_at(in, part)->nsegments; j++) n += ss_inputs_segment_size(in, part, j);
    return n;
}

/* What the side's analysis would have told, said unknown: part is the partition that first
 * needed it (by its path). */
static void side_an_failed(side_analysis *s, size_t part, ss_errkind kind, const char *why) {
    const ss_input_partition *ip = ss_inputs_at(s->in, part);
    (void)ss_problems_add(s->problems, SS_SEV_ERROR, kind,
                          "%c: %s: its analysis failed (%s): the aborted transactions --read-committed leaves "
                          "out and the causes of surplus copies are unknown on this side",
                          s->name, ip->path ? ip->path : ip->name, why);
}

/* The side's analysis, run at its first use (for the pair of its partition `part`): NULL when it
 * cannot be had, which the diff's problems say. */
static ss_analysis *side_an(side_analysis *s, size_t part, const ss_diff_opts *o) {
    if (s->tried) return s->an;
    s->tried = true;
    ss_an_opts ao;
    ss_an_opts_default(&ao);
    ao.by = o->by;
    ao.max_batch_bytes = o->max_batch_bytes;
    ss_map_init(&s->groups, 2 * sizeof(uint64_t), sizeof(uint32_t), 64, 70);
    s->an = ss_analysis_new(&ao);
    bool ok = s->an && ss_analysis_run(s->an, s->in) == SS_E_OK;
    for (size_t g = 0; ok && g < ss_an_dupgroup_count(s->an); g++) {
        const ss_an_dupgroup *gr = ss_an_dupgroup_at(s->an, g);
        uint64_t key[2] = {gr->fp_hi, gr->fp_lo};
        bool created;
        uint32_t *v = ss_map_put(&s->groups, key, gr->fp_lo, &created);
        if (!v) ok = false;
        else if (created) *v = (uint32_t)g;
    }
    if (!ok) {
        const ss_error *e = s->an ? ss_analysis_failure(s->an) : NULL;
        side_an_failed(s, part, e ? e->kind : SS_E_NOMEM, e ? e->msg : "out of memory");
        ss_analysis_free(s->an);
        s->an = NULL;
    }
    return s->an;
}

static void side_an_free(side_analysis *s) {
    ss_analysis_free(s->an);
    s->an = NULL;
    if (s->tried) ss_map_free(&s->groups);
    s->tried = false;
}

/* An aborted transaction of one partition: its producer, first offset and ABORT marker. */
typedef struct aborted_txn {
    int64_t producer_id, first_offset, marker_offset;
} aborted_txn;

typedef struct aborted_set {
    aborted_txn *v;
    size_t n;
} aborted_set;

/* false when they are unknown (the side's analysis failed, or memory ran out) */
static bool aborted_of(side_analysis *s, size_t part, const ss_diff_opts *o, aborted_set *out) {
    out->v = NULL;
    out->n = 0;
    const ss_analysis *a = side_an(s, part, o);
    if (!a) return false;
    size_t n = ss_an_txn_count(a), k = 0;
    out->v = calloc(n ? n : 1, sizeof *out->v);
    if (!out->v) {
        (void)ss_problems_add(s->problems, SS_SEV_ERROR, SS_E_NOMEM,
                              "%c: %s: out of memory: its aborted transactions are not left out", s->name,
                              ss_inputs_at(s->in, part)->path ? ss_inputs_at(s->in, part)->path
                                                              : ss_inputs_at(s->in, part)->name);
        return false;
    }
    for (size_t i = 0; out->v && i < n; i++) {
        const ss_an_txn *t = ss_an_txn_at(a, i);
        if (t->partition != part || t->result != SS_TXN_ABORT) continue;
        out->v[k++] = (aborted_txn){t->producer_id, t->first_offset, t->marker_offset};
    }
    out->n = k;
    return true;
}

static bool is_aborted(const aborted_set *s, const ss_batch *b, int64_t offset) {
    if (!b->transactional || b->control) return false;
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].producer_id == b->producer_id && offset >= s->v[i].first_offset && offset <= s->v[i].marker_offset)
            return true;
    return false;
}

static bool fingerprintable(const ss_record *r, const ss_batch *b, enum ss_by by) {
    if (b->control) return false;
    if (by == SS_BY_KEY) return r->key_len >= 0;
    if (by == SS_BY_VALUE) return r->value_len >= 0;
    return true;
}

/* The cause of the copy at offset of the group of (hi, lo), if the side's analysis gave it one;
 * false when that analysis failed (the cause unknown). */
static bool copy_cause(side_analysis *s, size_t part, const ss_diff_opts *o, uint64_t hi, uint64_t lo, int64_t offset,
                       ss_diff_rec *dr) {
    const ss_analysis *an = side_an(s, part, o);
    if (!an) return false;
    uint64_t key[2] = {hi, lo};
    const uint32_t *g = ss_map_find(&s->groups, key, lo);
    if (!g) return true;
    const ss_an_dupgroup *gr = ss_an_dupgroup_at(an, *g);
    for (size_t j = 0; j < gr->copies; j++) {
        ss_an_copy cp;
        ss_an_dupgroup_copy(an, *g, j, &cp);
        if (cp.offset == offset && cp.cause) {
            dr->cause = cp.cause;
            dr->cause_detail = cp.detail;
        }
    }
    return true;
}

static ss_errkind diff_content(const ss_inputs *A, size_t ia, const ss_inputs *B, size_t ib, const ss_diff_opts *o,
                               side_analysis *sides /* A's, B's */, pair_state *ps) {
    ss_diff_pair *p = &ps->pub;
    ss_map t;
    aborted_set ab[2] = {{0}, {0}};
    XXH3_state_t *st = XXH3_createState();
    if (!st) return SS_E_NOMEM;
    if (o->read_committed) {
        p->analysis_failed_a = !aborted_of(&sides[0], ia, o, &ab[0]);
        p->analysis_failed_b = !aborted_of(&sides[1], ib, o, &ab[1]);
    }
    ss_errkind rc = SS_E_OK;
    uint64_t bytes_a = partition_bytes(A, ia), bytes_b = partition_bytes(B, ib);
    fpt_init(&t, bytes_a > bytes_b ? bytes_a : bytes_b);
    for (int side = 0; side < 2 && rc == SS_E_OK; side++) {
        pcursor c;
        ss_diff_side *sd = side ? &p->b : &p->a;
        if (diff_pc_open(&c, side ? B : A, side ? ib : ia, o->max_batch_bytes, sd) != SS_E_OK) {
            rc = SS_E_NOMEM;
            break;
        }
        ss_record r;
        const ss_batch *b;
        /* a run of fingerprints: their slots are prefetched before they are counted */
        enum { FP_RUN = 32 };
        uint64_t run[FP_RUN][2];
        size_t nrun = 0;
        bool more = true;
        while (more && rc == SS_E_OK) {
            more = diff_pc_next(&c, &r, &b);
            if (more) {
                sd->records++;
                if (!fingerprintable(&r, b, o->by)) continue;
                if (o->read_committed && is_aborted(&ab[side], b, r.offset)) {
                    if (side) p->ignored_aborted_b++;
                    else p->ignored_aborted_a++;
                    continue;
                }
                if (!ss_fp_record(st, &r, o->by, 0, &run[nrun][0], &run[nrun][1])) continue;
                /* room for the whole run before its first prefetch: no growing under it */
                if (nrun == 0 && !ss_map_reserve(&t, t.n + FP_RUN)) {
                    rc = SS_E_NOMEM;
                    break;
                }
                ss_map_prefetch(&t, run[nrun][1]);
                if (++nrun < FP_RUN) continue;
            }
            for (size_t k = 0; k < nrun; k++) {
                fp_key key = {run[k][0], run[k][1]};
                fp_entry *e = ss_map_put_sized(&t, &key, key.lo, sizeof key, sizeof(fp_entry), NULL);
                if (!e) {
                    rc = SS_E_NOMEM;
                    break;
                }
                if (side) {
                    if (e->nb < UINT32_MAX) e->nb++;
                } else if (e->na < UINT32_MAX) e->na++;
            }
            nrun = 0;
        }
        free(c.epochs);
        free(c.starts);
        diff_pc_close(&c);
    }
    for (size_t i = 0; i < t.cap; i++) {
        const fp_entry *e = ss_map_slot(&t, i, NULL);
        if (!e) continue;
        if (e->na) p->distinct_a++;
        if (e->nb) p->distinct_b++;
        if (e->na > e->nb) {
            p->missing_in_b += e->na - e->nb;
            if (e->nb == 0) p->values_missing_in_b++;
            else p->values_more_copies_a++;
        } else if (e->nb > e->na) {
            p->only_in_b += e->nb - e->na;
            if (e->na == 0) p->values_only_in_b++;
            else p->values_more_copies_b++;
        }
    }
    p->identical = p->missing_in_b == 0 && p->only_in_b == 0;
    p->first_divergent_offset = -1;
    p->truncation_offset = -1;
    p->shared_epoch = -1;

    /* Second pass, only to list: every copy beyond the other side's count. */
    if (rc == SS_E_OK && !p->identical && o->max_items > 0) {
        for (int side = 0; side < 2; side++) {
            for (size_t i = 0; i < t.cap; i++) {
                fp_entry *e = ss_map_slot(&t, i, NULL);
                if (e) e->seen = 0;
            }
            pcursor c;
            ss_diff_side scratch;
            memset(&scratch, 0, sizeof scratch);
            if (diff_pc_open(&c, side ? B : A, side ? ib : ia, o->max_batch_bytes, &scratch) != SS_E_OK) break;
            ss_record r;
            const ss_batch *b;
            while (diff_pc_next(&c, &r, &b)) {
                if (!fingerprintable(&r, b, o->by)) continue;
                if (o->read_committed && is_aborted(&ab[side], b, r.offset)) continue;
                uint64_t hi, lo;
                if (!ss_fp_record(st, &r, o->by, 0, &hi, &lo)) continue;
                fp_key key = {hi, lo};
                fp_entry *e = ss_map_find(&t, &key, lo);
                if (!e) continue;
                /* the first `other` copies are matched by the other side; the
                 * later ones are the surplus (the extra copies of a duplicate) */
                uint32_t mine = side ? e->nb : e->na, other = side ? e->na : e->nb;
                if (mine <= other) continue;
                if (e->seen++ < other) continue;
                ss_diff_item *before = ps->nitems < o->max_items ? &ps->items[ps->nitems] : NULL;
                if (side) add_item(ps, o, SS_DK_ONLY_B, NULL, NULL, &r, b);
                else add_item(ps, o, SS_DK_ONLY_A, &r, b, NULL, NULL);
                if (before) {
                    ss_diff_rec *dr = side ? &before->b : &before->a;
                    dr->copies = mine;
                    /* the cause of surplus copies that are duplicates on this side */
                    if (mine > 1 && !copy_cause(&sides[side], side ? ib : ia, o, hi, lo, r.offset, dr)) {
                        if (side) p->analysis_failed_b = true;
                        else p->analysis_failed_a = true;
                    }
                }
                if (ps->nitems >= o->max_items) break;
            }
            free(c.epochs);
            free(c.starts);
            diff_pc_close(&c);
            if (ps->nitems >= o->max_items) break;
        }
        p->items_total = p->missing_in_b + p->only_in_b;
    }
    free(ab[0].v);
    free(ab[1].v);
    ss_map_free(&t);
    XXH3_freeState(st);
    return rc;
}

/* ---- pairing and mode choice ----------------------------------------------------- */

/* First and last offsets of a partition from its batches (no record decoding); -1 when none.
 * The last offset, not the next: a log may end at Long.MAX_VALUE, after which there is none. */
static void offset_range(const ss_inputs *in, size_t part, int64_t *first, int64_t *last) {
    *first = *last = -1;
    ss_pcursor c;
    ss_pcursor_open(&c, in, part, NULL, UINT64_MAX);
    for (ss_pc_kind k; (k = ss_pcursor_next(&c)) != SS_PC_END;) {
        if (k != SS_PC_BATCH || !c.ev.batch.crc_valid) continue;
        if (*first < 0) *first = c.ev.batch.base_offset;
        if (c.ev.batch.last_offset > *last) *last = c.ev.batch.last_offset;
    }
    ss_pcursor_close(&c);
}

static ss_errkind diff_pair(const ss_inputs *A, size_t ia, const ss_inputs *B, size_t ib, const ss_diff_opts *o,
                            side_analysis *sides, pair_state *ps) {
    const ss_input_partition *pa = ss_inputs_at(A, ia), *pb = ss_inputs_at(B, ib);
    ps->pub.partition = pa->name;
    enum ss_diff_mode mode = o->mode;
    if (mode == SS_DIFF_AUTO) {
        ps->pub.mode_auto = true;
        bool same_name = strcmp(pa->name, pb->name) == 0 ||
                         (pa->topic && pb->topic && !strcmp(pa->topic, pb->topic) && pa->partition == pb->partition);
        mode = SS_DIFF_CONTENT;
        if (same_name) { /* the offsets are read only when they can decide */
            int64_t fa, la, fb, lb;
            offset_range(A, ia, &fa, &la);
            offset_range(B, ib, &fb, &lb);
            bool overlap = fa >= 0 && fb >= 0 && fa <= lb && fb <= la;
            bool both_empty = fa < 0 && fb < 0;
            if (overlap || both_empty) mode = SS_DIFF_OFFSET;
        }
    }
    ps->pub.mode = mode;
    if (o->max_items) {
        ps->items = calloc(o->max_items, sizeof *ps->items);
        ps->kept = calloc(o->max_items * 2, sizeof *ps->kept);
        if (!ps->items || !ps->kept) return SS_E_NOMEM;
    }
    ss_errkind rc =
        mode == SS_DIFF_OFFSET ? diff_offset(A, ia, B, ib, o, ps) : diff_content(A, ia, B, ib, o, sides, ps);
    ps->pub.a.topic_id = pa->topic_id;
    ps->pub.b.topic_id = pb->topic_id;
    bool ids_differ = pa->topic_id && pb->topic_id && strcmp(pa->topic_id, pb->topic_id) != 0;
    ps->pub.looks_like_mirror =
        ps->pub.mode_auto && mode == SS_DIFF_OFFSET && (ids_differ || ps->pub.differing_same_epoch > 0);
    ps->pub.ranges = ps->ranges;
    ps->pub.nranges = ps->nranges;
    ps->pub.items = ps->items;
    ps->pub.nitems = ps->nitems;
    return rc;
}

static bool add_unpaired(ss_diff *d, const ss_input_partition *p, char side) {
    if (!SS_GROW(d->unpaired, d->nunpaired, d->capunpaired, 8) ||
        !SS_GROW(d->unpaired_side, d->nunpaired, d->capside, 8))
        return false;
    d->unpaired[d->nunpaired] = p;
    d->unpaired_side[d->nunpaired] = side;
    d->nunpaired++;
    return true;
}

/* The name partitions are paired by: topic-partition when known, else the name. */
static bool same_partition(const ss_input_partition *a, const ss_input_partition *b) {
    if (a->partition >= 0 && b->partition >= 0 && a->topic && b->topic)
        return a->partition == b->partition && !strcmp(a->topic, b->topic);
    return !strcmp(a->name, b->name);
}

ss_errkind ss_diff_run(const ss_inputs *A, const ss_inputs *B, const ss_diff_opts *o, ss_diff **out) {
    *out = NULL;
    ss_diff *d = calloc(1, sizeof *d);
    if (!d) return SS_E_NOMEM;
    d->o = *o;
    d->side[0].in = A;
    d->side[1].in = B;
    d->side[0].name = 'A';
    d->side[1].name = 'B';
    d->side[0].problems = d->side[1].problems = &d->problems;
    size_t na = ss_inputs_count(A), nb = ss_inputs_count(B);
    d->pairs = calloc(na + nb + 1, sizeof *d->pairs);
    if (!d->pairs) {
        free(d);
        return SS_E_NOMEM;
    }
    ss_errkind rc = SS_E_OK;
    if (na == 1 && nb == 1) {
        /* two single partitions are compared whatever their names */
        rc = diff_pair(A, 0, B, 0, &d->o, d->side, &d->pairs[d->npairs++]);
    } else {
        bool *used = calloc(nb + 1, 1);
        if (!used) {
            ss_diff_free(d);
            return SS_E_NOMEM;
        }
        for (size_t i = 0; i < na && rc == SS_E_OK; i++) {
            const ss_input_partition *pa = ss_inputs_at(A, i);
            size_t j;
            for (j = 0; j < nb; j++)
                if (!used[j] && same_partition(pa, ss_inputs_at(B, j))) break;
            if (j == nb) {
                add_unpaired(d, pa, 'A');
                continue;
            }
            used[j] = true;
            rc = diff_pair(A, i, B, j, &d->o, d->side, &d->pairs[d->npairs++]);
        }
        for (size_t j = 0; j < nb; j++)
            if (!used[j]) add_unpaired(d, ss_inputs_at(B, j), 'B');
        free(used);
    }
    /* the pairs keep nothing of the analyses */
    side_an_free(&d->side[0]);
    side_an_free(&d->side[1]);
    if (rc != SS_E_OK) {
        ss_diff_free(d);
        return rc;
    }
    *out = d;
    return SS_E_OK;
}

void ss_diff_free(ss_diff *d) {
    if (!d) return;
    for (size_t i = 0; i < d->npairs; i++) {
        pair_state *ps = &d->pairs[i];
        free(ps->ranges);
        free(ps->items);
        for (size_t k = 0; ps->kept && k < 2 * d->o.max_items; k++) free(ps->kept[k]);
        free(ps->kept);
        free(ps->miss[0]);
        free(ps->miss[1]);
        free(ps->epochs_a);
        free(ps->epochs_b);
        free(ps->starts_a);
        free(ps->starts_b);
    }
    free(d->pairs);
    free(d->unpaired);
    free(d->unpaired_side);
    ss_problems_free(&d->problems);
    free(d);
}

const ss_problems *ss_diff_problems(const ss_diff *d) { return &d->problems; }

size_t ss_diff_pair_count(const ss_diff *d) { return d->npairs; }
const ss_diff_pair *ss_diff_pair_at(const ss_diff *d, size_t i) { return &d->pairs[i].pub; }
size_t ss_diff_unpaired_count(const ss_diff *d) { return d->nunpaired; }
const ss_input_partition *ss_diff_unpaired_at(const ss_diff *d, size_t i, char *side) {
    if (side) *side = d->unpaired_side[i];
    return d->unpaired[i];
}
