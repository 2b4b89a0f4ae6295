/* segscan - the analysis's results, once everything is read: the cause of
 * every copy (in the order DESIGN.md section 4 gives; a transaction's
 * outcome is only known at its marker), the groups sorted largest first, the
 * matches of explain with their groups, the totals; and their accessors. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "analysis/analysis.h"
#include "base/mem.h"

/* ---- causes and results ---------------------------------------------------------------- */

/* an_occ.detail bit: the copy's value differs from the original's (--by key) */
#define DETAIL_DIFFERS 0x80u
/* an_occ.detail bit: the copy could not be read back to compare */
#define DETAIL_UNREAD 0x40u

/* A hash of a record's value (with --by key) or key (else), length-prefixed so that
 * null and empty differ; false when the record cannot be read back. */
static bool other_field(ss_analysis *a, const an_occ *o, uint64_t *h) {
    const an_batch *b = &a->batches.v[o->batch];
    ss_record r;
    ss_error err;
    if (ss_an_fetch_offset(a, o->batch, ss_add64(b->base_offset, (int64_t)o->delta), &r, &err) != 1) return false;
    const uint8_t *p = a->o.by == SS_BY_KEY ? r.value : r.key;
    int32_t n = a->o.by == SS_BY_KEY ? r.value_len : r.key_len;
    *h = n < 0 ? 0 : XXH3_64bits_withSeed(p, (size_t)n, (uint64_t)n + 1);
    return true;
}

static void decide_causes(ss_analysis *a, an_dupgroup *g) {
    const an_batch *B = a->batches.v;
    uint32_t orig = g->first;
    for (uint32_t i = g->first; i != NONE32; i = a->occs.v[i].next)
        if (!(B[a->occs.v[i].batch].flags & BF_ABORTED)) {
            orig = i;
            break;
        }
    const an_occ *o = &a->occs.v[orig];
    const an_batch *ob = &B[o->batch];
    /* --by key: the value of each copy against the original's (records read back;
     * the analysis keeps no payload), for the cause update */
    uint64_t ovh = 0;
    bool by_key = a->o.by == SS_BY_KEY && other_field(a, o, &ovh);
    const ss_input_partition *otp = a->parts[ob->part].input;
    int32_t oseq = ob->base_seq >= 0 ? ss_increment_sequence(ob->base_seq, (int32_t)mod_seq(o->delta)) : -1;
    /* the sequence of the copy before, when it is of the original's session (same
     * partition, pid and epoch, not aborted): a copy stored twice by the broker
     * repeats the sequence of the one before it, not always the original's */
    int32_t pseq = -1;
    for (uint32_t i = g->first; i != NONE32; i = a->occs.v[i].next) {
        an_occ *c = &a->occs.v[i];
        const an_batch *cb = &B[c->batch];
        int32_t cseq = cb->base_seq >= 0 ? ss_increment_sequence(cb->base_seq, (int32_t)mod_seq(c->delta)) : -1;
        bool in_session = !(cb->flags & BF_ABORTED) && cb->part == ob->part && cb->pid >= 0 && cb->pid == ob->pid &&
                          cb->epoch == ob->epoch;
        if (i == orig) {
            c->cause = SS_CAUSE_NONE;
            pseq = cseq;
            continue;
        }
        int cause;
        unsigned detail = 0;
        uint64_t vh;
        if (a->o.by == SS_BY_KEY) {
            if (!by_key || !other_field(a, c, &vh)) detail |= DETAIL_UNREAD;
            else if (vh != ovh) detail |= DETAIL_DIFFERS;
        }
        if (cb->flags & BF_ABORTED) cause = SS_CAUSE_ABORTED;
        else if (cb->part != ob->part && strcmp(a->parts[cb->part].input->topic, otp->topic) != 0)
            cause = SS_CAUSE_CROSS_TOPIC; /* --across-topics */
        else if (cb->part != ob->part) cause = SS_CAUSE_CROSS_PARTITION;
        else if (detail & DETAIL_DIFFERS) cause = SS_CAUSE_UPDATE; /* not a copy of the record: its content changed */
        else if (cb->pid < 0) {
            if (ob->pid < 0 && c->batch != o->batch && cb->count == ob->count && cb->content == ob->content)
                cause = SS_CAUSE_RETRY;
            else cause = SS_CAUSE_RESEND;
        } else if (ob->pid < 0 || cb->pid != ob->pid) {
            cause = SS_CAUSE_NEW_SESSION;
            detail = SS_NEWSESS_PID;
        } else if (cb->epoch != ob->epoch) {
            cause = SS_CAUSE_NEW_SESSION;
            detail = SS_NEWSESS_EPOCH;
            if ((cb->flags & BF_TXN) && cb->epoch > ob->epoch) detail |= SS_NEWSESS_TXN_V2_HINT;
        } else {
            cause = cseq >= 0 && (cseq == oseq || cseq == pseq) ? SS_CAUSE_DUP_SEQUENCE : SS_CAUSE_SAME_SESSION;
        }
        c->cause = (uint8_t)cause;
        c->detail = (uint8_t)detail;
        if (in_session) pseq = cseq;
    }
    g->orig = orig;
}

static void make_copy(const ss_analysis *a, uint32_t batch, uint32_t delta, int64_t ts, ss_an_copy *c) {
    const an_batch *b = &a->batches.v[batch];
    memset(c, 0, sizeof *c);
    c->partition = b->part;
    c->offset = ss_add64(b->base_offset, (int64_t)delta);
    c->timestamp = ts;
    c->producer_id = b->pid;
    c->producer_epoch = b->epoch;
    c->sequence = b->base_seq >= 0 ? ss_increment_sequence(b->base_seq, (int32_t)mod_seq(delta)) : -1;
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
    int64_t offset; /* the first copy's */
    uint64_t seq;   /* the group's (unique) */
    uint32_t count, part, idx, pad;
} group_key;

/* Largest first; then by the first copy's position; then by when the group
 * formed (its second copy), which is the same with or without spilling. */
static inline int cmp_group(const group_key *g, const group_key *h) {
    if (g->count != h->count) return g->count > h->count ? -1 : 1;
    if (g->part != h->part) return g->part < h->part ? -1 : 1;
    if (g->offset != h->offset) return g->offset < h->offset ? -1 : 1;
    return g->seq < h->seq ? -1 : g->seq > h->seq;
}

/* Natural merge sort of v (n keys; tmp as large; bounds n + 1 entries): runs
 * already in order are found first, so keys that arrive nearly sorted (groups
 * form in the order of their copies) take few passes. Returns the sorted array
 * (v or tmp). */
static group_key *sort_groups(group_key *v, group_key *tmp, size_t n, uint32_t *bounds) {
    if (n < 2) return v;
    size_t nb = 0;
    bounds[nb++] = 0;
    for (size_t i = 1; i < n; i++)
        if (cmp_group(&v[i - 1], &v[i]) > 0) bounds[nb++] = (uint32_t)i;
    bounds[nb] = (uint32_t)n;
    group_key *src = v, *dst = tmp;
    while (nb > 1) {
        size_t w = 0;
        for (size_t r = 0; r < nb; r += 2) {
            size_t lo = bounds[r], mid = bounds[r + 1], hi = r + 2 <= nb ? bounds[r + 2] : mid;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = cmp_group(&src[j], &src[i]) < 0 ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
            bounds[w++] = (uint32_t)lo;
        }
        bounds[w] = (uint32_t)n;
        nb = w;
        group_key *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

/* Memory for the results: carved from the arena (the fingerprint entries'
 * pages, resident already and no longer needed) while it lasts. */
static void *arena_get(ss_analysis *a, size_t bytes, bool zero) {
    size_t at = (a->arena_used + 63) & ~(size_t)63;
    if (a->arena && at <= a->arena_cap && bytes <= a->arena_cap - at) {
        a->arena_used = at + bytes;
        if (zero) memset(a->arena + at, 0, bytes);
        return a->arena + at;
    }
    void *p = zero ? ss_big_calloc(bytes ? bytes : 1, 1) : ss_big_realloc(NULL, bytes ? bytes : 1);
    if (p && a->nowned < sizeof a->owned / sizeof a->owned[0]) a->owned[a->nowned++] = p;
    else if (p) {
        ss_big_free(p);
        p = NULL;
    }
    return p;
}

void an_finish_groups(ss_analysis *a) {
    size_t ng = a->groups.n;
    group_key *keys = arena_get(a, (ng ? ng : 1) * sizeof *keys, false);
    group_key *tmp = arena_get(a, (ng ? ng : 1) * sizeof *tmp, false);
    uint32_t *bounds = arena_get(a, (ng + 1) * sizeof *bounds, false);
    a->gpub = arena_get(a, (ng ? ng : 1) * sizeof *a->gpub, true);
    a->gstart = arena_get(a, (ng + 1) * sizeof *a->gstart, false);
    a->gsorted_of = arena_get(a, (ng ? ng : 1) * sizeof *a->gsorted_of, false);
    a->gidx = arena_get(a, (a->occs.n ? a->occs.n : 1) * sizeof *a->gidx, false);
    if (!keys || !tmp || !bounds || !a->gpub || !a->gstart || !a->gsorted_of || !a->gidx) {
        a->gpub = NULL;
        a->nomem = true;
        return;
    }
    for (uint32_t p = 0; p < a->nparts; p++) a->parts[p].max_copies = a->parts[p].records > 0 ? 1 : 0;
    /* One pass over the groups (each pass is a walk of the copies and their
     * batches, from memory): causes, from every copy, in the window or not;
     * the groups listed (a copy in the window); per partition, runs of
     * copies (copies arrive in partition order); the sort key. */
    uint32_t nl = 0;
    for (uint32_t i = 0; i < ng; i++) {
        an_dupgroup *g = &a->groups.v[i];
        decide_causes(a, g);
        a->gsorted_of[i] = NONE32;
        if (a->windowed) {
            bool listed = false;
            for (uint32_t k = g->first; k != NONE32 && !listed; k = a->occs.v[k].next) {
                const an_occ *o = &a->occs.v[k];
                listed = an_copy_in_window(a, o->batch, o->delta, o->ts);
            }
            if (!listed) continue;
        }
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
        /* sorted order: largest first, then by the first copy's position */
        const an_occ *o = &a->occs.v[g->first];
        const an_batch *b = &a->batches.v[o->batch];
        keys[nl].count = g->count;
        keys[nl].part = b->part;
        keys[nl].offset = ss_add64(b->base_offset, o->delta);
        keys[nl].seq = g->seq;
        keys[nl].idx = i;
        keys[nl].pad = 0;
        nl++;
    }
    a->nlisted = nl;
    const group_key *order = sort_groups(keys, tmp, nl, bounds);
    uint32_t w = 0;
    for (uint32_t si = 0; si < nl; si++) {
        an_dupgroup *g = &a->groups.v[order[si].idx];
        a->gsorted_of[order[si].idx] = si;
        a->gstart[si] = w;
        ss_an_dupgroup *pg = &a->gpub[si];
        pg->fp_lo = g->lo;
        pg->fp_hi = g->hi;
        pg->copies = g->count;
        pg->identical_copies = a->o.by == SS_BY_KEY_VALUE ? (int64_t)g->count : a->o.by == SS_BY_KEY ? 1 : -1;
        uint32_t j = 0;
        for (uint32_t k = g->first; k != NONE32; k = a->occs.v[k].next, j++) {
            const an_occ *o = &a->occs.v[k];
            const an_batch *b = &a->batches.v[o->batch];
            bool open = (b->flags & BF_OPEN) != 0;
            a->gidx[w++] = k;
            if (a->o.by == SS_BY_KEY && k != g->orig && pg->identical_copies >= 0) {
                if (o->detail & DETAIL_UNREAD) pg->identical_copies = -1;
                else if (!(o->detail & DETAIL_DIFFERS)) pg->identical_copies++;
            }
            if (o->cause == SS_CAUSE_CROSS_TOPIC) pg->cross_topic = true;
            if (k == g->orig) {
                pg->original = j;
                pg->partition = b->part;
            } else {
                pg->causes |= 1u << o->cause;
                a->totals.cause[o->cause]++;
                if (open) a->totals.open_copies++;
            }
            if (open) pg->has_open = true;
        }
    }
    a->gstart[nl] = w;
}

/* Groups by fingerprint and topic (to find a match's group). */
typedef struct fp_key {
    uint64_t lo, hi;
    uint32_t topic, idx;
} fp_key;

static int cmp_fp(const void *x, const void *y) {
    const fp_key *g = x, *h = y;
    if (g->lo != h->lo) return g->lo < h->lo ? -1 : 1;
    if (g->hi != h->hi) return g->hi < h->hi ? -1 : 1;
    return g->topic < h->topic ? -1 : g->topic > h->topic;
}

void an_finish_matches(ss_analysis *a) {
    size_t n = a->matches.n, ng = a->groups.n;
    a->mpub = calloc(n ? n : 1, sizeof *a->mpub);
    if (!a->mpub) {
        a->nomem = true;
        return;
    }
    fp_key *byfp = NULL;
    if (n && ng) {
        byfp = malloc(ng * sizeof *byfp);
        if (!byfp) {
            a->nomem = true;
            return;
        }
        for (uint32_t i = 0; i < ng; i++) {
            const an_dupgroup *g = &a->groups.v[i];
            byfp[i].lo = g->lo;
            byfp[i].hi = g->hi;
            byfp[i].topic = a->o.across_topics ? 0 : topic_of_batch(a, a->occs.v[g->first].batch);
            byfp[i].idx = i;
        }
        qsort(byfp, ng, sizeof *byfp, cmp_fp);
    }
    for (size_t i = 0; i < n; i++) {
        const an_match *m = &a->matches.v[i];
        ss_an_match *pm = &a->mpub[i];
        make_copy(a, m->batch, m->delta, m->ts, &pm->copy);
        pm->fingerprinted = m->fp;
        pm->group = -1;
        if (!m->fp || !byfp) continue;
        fp_key want = {m->lo, m->hi, a->o.across_topics ? 0 : topic_of_batch(a, m->batch), 0};
        size_t lo = 0, hi = ng;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cmp_fp(&byfp[mid], &want) < 0) lo = mid + 1;
            else hi = mid;
        }
        if (lo >= ng || cmp_fp(&byfp[lo], &want) != 0) continue;
        uint32_t si = a->gsorted_of[byfp[lo].idx];
        if (si == NONE32) continue; /* not listed (a match lies in the window: not met) */
        pm->group = si;
        /* the copy's cause, as decided for its group */
        for (uint32_t k = a->gstart[si]; k < a->gstart[si + 1]; k++) {
            const an_occ *o = &a->occs.v[a->gidx[k]];
            if (o->batch == m->batch && o->delta == m->delta) {
                pm->copy.cause = o->cause;
                pm->copy.detail = o->detail;
            }
        }
    }
    free(byfp);
}

void an_finish_totals(ss_analysis *a) {
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
        t->txn_unknown += P->txn_unknown;
        t->txn_age_unknown += P->txn_age_unknown;
        t->read_committed_records += P->read_committed_records;
        t->damaged_bytes += P->damaged_bytes;
        t->tail_bytes += P->tail_bytes;
        t->skipped_large_batches += P->skipped_large_batches;
    }
    t->duplicate_groups = a->gpub ? a->nlisted : 0;
    for (size_t i = 0; t->duplicate_groups && i < a->nlisted; i++)
        if (a->gpub[i].copies > t->max_copies) t->max_copies = a->gpub[i].copies;
}

/* ---- accessors -------------------------------------------------------------------------- */

size_t ss_an_partition_count(const ss_analysis *a) { return a->nparts; }
const ss_an_partition *ss_an_partition_at(const ss_analysis *a, size_t i) { return &a->parts[i]; }
const ss_an_totals *ss_an_totals_get(const ss_analysis *a) { return &a->totals; }
size_t ss_an_dupgroup_count(const ss_analysis *a) { return a->gpub ? a->nlisted : 0; }
const ss_an_dupgroup *ss_an_dupgroup_at(const ss_analysis *a, size_t i) { return &a->gpub[i]; }
void ss_an_dupgroup_copy(const ss_analysis *a, size_t i, size_t j, ss_an_copy *out) {
    const an_occ *o = &a->occs.v[a->gidx[a->gstart[i] + j]];
    make_copy(a, o->batch, o->delta, o->ts, out);
    out->outside_window = a->windowed && !an_copy_in_window(a, o->batch, o->delta, o->ts);
    out->cause = o->cause;
    out->detail = o->detail & ~(DETAIL_DIFFERS | DETAIL_UNREAD);
}
size_t ss_an_session_count(const ss_analysis *a) { return a->sess.n; }
const ss_an_session *ss_an_session_at(const ss_analysis *a, size_t i) { return &a->sess.v[i]->pub; }
size_t ss_an_txn_count(const ss_analysis *a) { return a->txns.n; }
const ss_an_txn *ss_an_txn_at(const ss_analysis *a, size_t i) { return &a->txns.v[i]; }
size_t ss_an_damage_count(const ss_analysis *a) { return a->damage.n; }
size_t ss_an_hole_count(const ss_analysis *a) { return a->holes.n; }
const ss_an_hole *ss_an_hole_at(const ss_analysis *a, size_t i) { return &a->holes.v[i]; }
const ss_an_damage *ss_an_damage_at(const ss_analysis *a, size_t i) { return &a->damage.v[i]; }
size_t ss_an_match_count(const ss_analysis *a) { return a->mpub ? a->matches.n : 0; }
const ss_an_match *ss_an_match_at(const ss_analysis *a, size_t i) { return &a->mpub[i]; }
uint64_t ss_an_match_total(const ss_analysis *a) { return a->match_total; }

/* ---- the batch headers, for the timelines ---------------------------------------------------- */

bool an_batches_whole(const ss_analysis *a, size_t part, const an_batch **v, size_t *n) {
    *v = NULL;
    *n = 0;
    if (a->nomem || a->io_error || part >= a->nparts) return false;
    const ss_an_partition *P = &a->parts[part];
    const ss_input_partition *ip = P->input;
    if (ip->export_file || P->segments != ip->nsegments || P->segments_unreadable || P->damaged_bytes ||
        P->damage_events || P->tail_bytes || P->skipped_large_batches || P->hidden_below_log_start ||
        P->repeated_batches)
        return false;
    for (size_t j = 0; j < ip->nsegments; j++)
        if (!ip->segments[j].path || ip->segments[j].read_from != INT64_MIN || ip->segments[j].read_to != INT64_MAX)
            return false;
    /* the batches are applied in partition order */
    size_t lo = 0, hi = a->batches.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->batches.v[mid].part < part) lo = mid + 1;
        else hi = mid;
    }
    size_t end = lo;
    while (end < a->batches.n && a->batches.v[end].part == part) end++;
    /* a batch wholly below the log start is not kept (nor counted when it is empty): only when
     * no batch can lie before the first one kept */
    const an_pinfo *pi = &a->pinfo[part];
    if (pi->log_start >= 0 && (end == lo || a->batches.v[lo].seg != 0 || a->batches.v[lo].position != 0)) return false;
    *v = end > lo ? a->batches.v + lo : NULL; /* none kept at all: v is NULL, no offset is added to it */
    *n = end - lo;
    return true;
}
