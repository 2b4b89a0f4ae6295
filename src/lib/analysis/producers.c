/* segscan - the analysis's producer sessions: per (partition, producer id,
 * epoch) the batches and records, the sequence ranges covered (linear,
 * unwrapped at 2^31), the gaps between them and what explains them
 * (compaction, retention, damage), sequences met twice, batches out of order
 * and epoch bumps, as a leader's ProducerStateManager would see them. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

static an_sess *session_for(ss_analysis *a, uint32_t part, const ss_batch *b) {
    bool created;
    uint32_t *v = km_session_get(&a->km_session, b->producer_id, b->producer_epoch, true, &created);
    if (!v) {
        a->nomem = true;
        return NULL;
    }
    if (!created) return a->sess.v[*v];
    an_sess *s = calloc(1, sizeof *s);
    if (!s) {
        a->nomem = true;
        return NULL;
    }
    s->pub.partition = part;
    s->pub.producer_id = b->producer_id;
    s->pub.producer_epoch = b->producer_epoch;
    s->pub.first_offset = b->base_offset;
    s->pub.first_timestamp = b->max_timestamp;
    s->pub.first_sequence = -1;
    s->pub.previous_epoch = -1;
    SS_VEC_PUSH(a->sess, s, a->nomem = true; free(s); return NULL);
    *v = (uint32_t)(a->sess.n - 1);
    /* epoch bump: an earlier, lower epoch of this pid in the partition */
    bool ecreated;
    uint32_t *e = km_get(&a->km_epoch, b->producer_id, true, &ecreated);
    if (e) {
        if (!ecreated && (int32_t)*e < b->producer_epoch) {
            s->pub.epoch_bump = true;
            s->pub.previous_epoch = (int16_t)*e;
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
        if (s->iv[mid][1] + 1 < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void iv_insert(ss_analysis *a, an_sess *s, int64_t lo, int64_t hi) {
    /* merge [lo,hi] into the sorted, disjoint, non-adjacent interval list;
     * in order (the usual case) it extends or follows the last interval */
    size_t n = s->niv;
    int64_t(*iv)[2] = s->iv;
    size_t i = iv_search(s, lo);
    size_t j = i;
    while (j < n && iv[j][0] <= hi + 1) {
        if (iv[j][0] < lo) lo = iv[j][0];
        if (iv[j][1] > hi) hi = iv[j][1];
        j++;
    }
    size_t nn = n - (j - i) + 1;
    /* nn <= n + 1: one doubling at most */
    if (!SS_GROW(s->iv, nn - 1, s->civ, 4)) {
        a->nomem = true;
        return;
    }
    iv = s->iv;
    memmove(iv + i + 1, iv + j, (n - j) * sizeof *iv);
    iv[i][0] = lo;
    iv[i][1] = hi;
    s->niv = nn;
}

static uint64_t iv_overlap(const an_sess *s, int64_t lo, int64_t hi) {
    uint64_t c = 0;
    for (size_t i = iv_search(s, lo + 1); i < s->niv && s->iv[i][0] <= hi; i++) {
        int64_t a0 = s->iv[i][0] > lo ? s->iv[i][0] : lo;
        int64_t a1 = s->iv[i][1] < hi ? s->iv[i][1] : hi;
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
        if (!SS_GROW(s->gaps, s->ngaps, s->cgaps, 4) || !SS_GROW(s->gap_hole, s->ngaps, s->choles, 4)) {
            a->nomem = true;
            return;
        }
        ss_an_gap g = {(int32_t)mod_seq(from_lin), (int32_t)mod_seq(e), SS_GAP_UNEXPLAINED, after, before};
        s->gaps[s->ngaps] = g;
        s->gap_hole[s->ngaps] = hole;
        s->ngaps++;
        from_lin = e + 1;
    }
}

/* A batch with the sequences [L,E] of one of the session's last SEQ_RECENT batches: stored again
 * (a leader answers DUPLICATE_SEQUENCE and does not store it). */
static bool seq_recent(const an_sess *s, int64_t L, int64_t E) {
    for (unsigned k = 0; k < s->nrecent; k++)
        if (s->recent[k][0] == L && s->recent[k][1] == E) return true;
    return false;
}

static void seq_remember(an_sess *s, int64_t L, int64_t E) {
    s->recent[s->recent_next][0] = L;
    s->recent[s->recent_next][1] = E;
    s->recent_next = (uint8_t)((s->recent_next + 1) % SEQ_RECENT);
    if (s->nrecent < SEQ_RECENT) s->nrecent++;
}

void an_session_batch(ss_analysis *a, uint32_t part, const ss_batch *b, int32_t nrec, bool in_window) {
    an_sess *s = session_for(a, part, b);
    if (!s) return;
    if (in_window) s->listed = true;
    ss_an_session *p = &s->pub;
    int64_t prev_last_offset = p->batches ? p->last_offset : -1;
    p->batches++;
    p->records += (uint64_t)nrec;
    p->last_offset = b->last_offset;
    p->last_timestamp = b->max_timestamp;
    if (b->transactional) p->transactional = true;
    /* A coordinator writes the batches of __consumer_offsets and __transaction_state, some
     * with a producer's id: a transactional offset commit carries the transactional
     * producer's id and epoch with baseSequence 0 every time (the group coordinator's
     * CoordinatorRuntime appends it as the producer's, unsequenced). Those sequences are no
     * producer's: no gaps, repeats or batches out of order are counted there. */
    if (b->base_sequence >= 0 && !a->pinfo[part].coordinator) {
        int64_t span = batch_span(b);
        if (!s->have_seq) {
            int64_t L = b->base_sequence, E = L + span - 1;
            p->first_sequence = b->base_sequence;
            s->have_seq = true;
            s->max_lin = E;
            seq_remember(s, L, E);
            iv_insert(a, s, L, E);
        } else {
            int64_t L = lin_near(s->max_lin + 1, b->base_sequence), E = L + span - 1;
            /* out of order: the base sequence is below the next one expected (max + 1) and the
             * batch is not a duplicate of a recent one (whose records count as repeated
             * sequences below). A jump forward is a gap, not out of order: compaction and
             * retention leave those (explained at the end). */
            bool dup = seq_recent(s, L, E);
            if (L <= s->max_lin && !dup) p->out_of_order_batches++;
            if (!dup) seq_remember(s, L, E);
            if (L > s->max_lin + 1) {
                uint8_t hole = 0;
                if (a->holes_damage > s->holes_damage_at) hole = 3;
                else if (a->holes_boundary > s->holes_boundary_at) hole = 2;
                else if (a->holes_seg > s->holes_seg_at) hole = 1;
                add_gap(a, s, s->max_lin + 1, L - 1, prev_last_offset, b->base_offset, hole);
            }
            uint64_t ov = iv_overlap(s, L, E);
            if (ov) p->repeated_sequences += ov < (uint64_t)nrec ? ov : (uint64_t)nrec;
            iv_insert(a, s, L, E);
            if (E > s->max_lin) s->max_lin = E;
        }
    }
    s->holes_seg_at = a->holes_seg;
    s->holes_boundary_at = a->holes_boundary;
    s->holes_damage_at = a->holes_damage;
}

static int cmp_sess(const void *x, const void *y) {
    const an_sess *s = *(an_sess *const *)x, *t = *(an_sess *const *)y;
    if (s->pub.partition != t->pub.partition) return s->pub.partition < t->pub.partition ? -1 : 1;
    if (s->pub.producer_id != t->pub.producer_id) return s->pub.producer_id < t->pub.producer_id ? -1 : 1;
    if (s->pub.producer_epoch != t->pub.producer_epoch) return s->pub.producer_epoch < t->pub.producer_epoch ? -1 : 1;
    return s->pub.first_offset < t->pub.first_offset ? -1 : s->pub.first_offset > t->pub.first_offset;
}

static void sess_free(an_sess *s) {
    free(s->iv);
    free(s->gaps);
    free(s->gap_hole);
    free(s->ranges);
    free(s);
}

/* Do the files beside the log name a segment between offsets after and before (exclusive)?
 * An index, time index, transaction index or producer snapshot without its .log (Kafka
 * deletes a segment's files together: LogSegment.deleteIfExists), or a
 * leader-epoch-checkpoint entry starting there (a batch was appended there:
 * LeaderEpochFileCache.assign). */
static bool files_name_segment(const ss_input_partition *ip, int64_t after, int64_t before) {
    for (size_t k = 0; k < ip->norphans; k++)
        if (ip->orphans[k] > after && ip->orphans[k] < before) return true;
    for (size_t k = 0; k < ip->nepochs; k++)
        if (ip->epochs[k].start_offset > after && ip->epochs[k].start_offset < before) return true;
    return false;
}

/* Kafka creates these compacted (cleanup.policy=compact: GroupCoordinator's and
 * TransactionStateManager's topic configs) */
static bool compacted_by_name(const char *topic) {
    return topic && (!strcmp(topic, "__consumer_offsets") || !strcmp(topic, "__transaction_state"));
}

/* Does evidence of the cleaner explain hole h (ss_an_hole)? Sets h->segment_named. */
static bool hole_explained(const ss_analysis *a, ss_an_hole *h) {
    const ss_an_partition *P = &a->parts[h->partition];
    const ss_input_partition *ip = P->input;
    h->segment_named = files_name_segment(ip, h->from - 1, h->to + 1);
    bool checkpoint = ip->cleaner_offset > 0 && P->first_offset >= 0 && ip->cleaner_offset > P->first_offset;
    bool evidence = P->cleaner_evidence || checkpoint || compacted_by_name(ip->topic) || P->compact_policy;
    bool below_checkpoint = ip->cleaner_offset < 0 || h->from < ip->cleaner_offset;
    return evidence && below_checkpoint && !h->segment_named;
}

/* Is a hole not the cleaner's above `offset` in partition part (read to its end)? */
bool an_hole_after(const ss_analysis *a, uint32_t part, int64_t offset) {
    for (size_t i = a->holes.n; i > 0 && a->holes.v[i - 1].partition == part; i--) {
        ss_an_hole h = a->holes.v[i - 1];
        if (h.from > offset && !hole_explained(a, &h)) return true;
    }
    return false;
}

/* The holes of a->holes (sorted by partition, then offset), judged before those the cleaner
 * explains are dropped: per partition its first hole (first[part]..first[part + 1]), and over
 * the holes, counts of those evidence does not explain before hole i: missing[i] where a segment
 * is missing (between two segments, or a file beside names a segment there), lost[i] between two
 * batches of one segment. */
typedef struct hole_judged {
    size_t *first;
    uint32_t *missing, *lost;
} hole_judged;

static bool judge_holes(ss_analysis *a, hole_judged *j) {
    size_t n = a->holes.n;
    j->first = calloc(a->nparts + 1, sizeof *j->first);
    j->missing = malloc((n + 1) * sizeof *j->missing);
    j->lost = malloc((n + 1) * sizeof *j->lost);
    if (!j->first || !j->missing || !j->lost) return false;
    j->missing[0] = j->lost[0] = 0;
    size_t i = 0;
    for (size_t p = 0; p < a->nparts; p++) {
        j->first[p] = i;
        while (i < n && a->holes.v[i].partition == p) i++;
    }
    j->first[a->nparts] = n;
    for (i = 0; i < n; i++) {
        ss_an_hole h = a->holes.v[i];
        bool explained = hole_explained(a, &h);
        j->missing[i + 1] = j->missing[i] + (!explained && (h.between_segments || h.segment_named));
        j->lost[i + 1] = j->lost[i] + (!explained && !h.between_segments && !h.segment_named);
    }
    return true;
}

static void hole_judged_free(hole_judged *j) {
    free(j->first);
    free(j->missing);
    free(j->lost);
}

/* The first hole of partition part in lo..hi (indexes) whose first offset is above `offset`. */
static size_t hole_above(const ss_analysis *a, size_t lo, size_t hi, int64_t offset) {
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->holes.v[mid].from <= offset) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* A sequence gap over offset holes (kind 1: between two batches of one segment; 2: at a segment
 * boundary): consistent with compaction only where evidence of the cleaner explains every hole
 * between the session's two batches (hole_explained: the log shows cleaning, below its
 * cleaner-offset-checkpoint entry when it has one, and no file names a segment there); a segment
 * is missing where a hole between segments is not explained; the records are lost (unless the
 * topic is compacted) where a hole between batches is not. Never retention: retention deletes the
 * oldest segments only (UnifiedLog.deleteOldSegments moves the log start). */
static enum ss_gap_explained hole_gap(const ss_analysis *a, const hole_judged *j, uint32_t part, const ss_an_gap *g,
                                      uint8_t kind) {
    size_t lo = hole_above(a, j->first[part], j->first[part + 1], g->after_offset);
    size_t hi = hole_above(a, lo, j->first[part + 1], g->before_offset - 1);
    if (lo == hi) /* no hole kept between them (out of memory when it was met) */
        return a->parts[part].compacted ? SS_GAP_COMPACTION : kind == 2 ? SS_GAP_MISSING_SEGMENT : SS_GAP_HOLE;
    if (j->missing[hi] > j->missing[lo]) return SS_GAP_MISSING_SEGMENT;
    if (j->lost[hi] > j->lost[lo]) return SS_GAP_HOLE;
    return SS_GAP_COMPACTION;
}

/* The holes evidence of the cleaner explains are dropped; the others stay listed (ss_an_hole). */
static void an_finish_holes(ss_analysis *a) {
    size_t w = 0;
    for (size_t i = 0; i < a->holes.n; i++) {
        ss_an_hole h = a->holes.v[i];
        ss_an_partition *P = &a->parts[h.partition];
        if (hole_explained(a, &h)) continue; /* the cleaner's */
        P->holes++;
        P->hole_records += h.records;
        a->holes.v[w++] = h;
    }
    a->holes.n = w;
}

/* Sequence gaps past those kept (their offsets are not): of a kind of hole, explained when the
 * partition lists no hole of that kind that evidence leaves unexplained. */
static bool more_gaps_explained(const hole_judged *j, uint32_t part, uint8_t kind) {
    const uint32_t *c = kind == 2 ? j->missing : j->lost;
    return c[j->first[part + 1]] == c[j->first[part]];
}

void an_finish_sessions(ss_analysis *a) {
    for (size_t p = 0; p < a->nparts; p++) /* the cleaner has cleaned up to its checkpoint entry */
        if (a->parts[p].input->cleaner_offset > 0 && a->parts[p].first_offset >= 0 &&
            a->parts[p].input->cleaner_offset > a->parts[p].first_offset)
            a->parts[p].compacted = a->parts[p].cleaner_evidence = true;
    hole_judged hj;
    if (!judge_holes(a, &hj)) {
        hole_judged_free(&hj);
        a->nomem = true;
        return;
    }
    /* the window lists the sessions with a batch in it, with the whole log's figures */
    size_t w = 0;
    for (size_t i = 0; i < a->sess.n; i++) {
        an_sess *s = a->sess.v[i];
        if (!s->listed && a->windowed) sess_free(s);
        else a->sess.v[w++] = s;
    }
    a->sess.n = w;
    for (size_t i = 0; i < a->sess.n; i++) {
        an_sess *s = a->sess.v[i];
        ss_an_partition *P = &a->parts[s->pub.partition];
        P->sessions++;
        if (s->pub.epoch_bump) P->epoch_bumps++;
        /* ranges: the covered intervals, split at the wrap */
        size_t cap = 0;
        for (size_t k = 0; k < s->niv; k++) {
            int64_t lo = s->iv[k][0], hi = s->iv[k][1];
            while (lo <= hi) {
                int64_t end = lo - mod_seq(lo) + SEQ_MOD - 1;
                int64_t e = hi < end ? hi : end;
                if (!SS_GROW(s->ranges, s->nranges, cap, 4)) {
                    a->nomem = true;
                    break;
                }
                s->ranges[s->nranges].first = (int32_t)mod_seq(lo);
                s->ranges[s->nranges].last = (int32_t)mod_seq(e);
                s->nranges++;
                lo = e + 1;
            }
        }
        for (size_t k = 0; k < s->ngaps; k++) {
            ss_an_gap *g = &s->gaps[k];
            if (s->gap_hole[k] == 3) g->explained = SS_GAP_DAMAGE;
            else if (s->gap_hole[k] != 0) g->explained = hole_gap(a, &hj, s->pub.partition, g, s->gap_hole[k]);
            else if (P->compacted) g->explained = SS_GAP_COMPACTION;
            else g->explained = SS_GAP_UNEXPLAINED;
            if (g->explained == SS_GAP_UNEXPLAINED || g->explained == SS_GAP_MISSING_SEGMENT ||
                g->explained == SS_GAP_HOLE)
                P->sequence_gaps++;
            else P->sequence_gaps_explained++;
        }
        P->sequence_gaps_explained += s->more_gaps_hole[3];
        for (uint8_t kind = 0; kind < 3; kind++) {
            bool explained = kind == 0 ? P->compacted : more_gaps_explained(&hj, s->pub.partition, kind);
            if (explained) P->sequence_gaps_explained += s->more_gaps_hole[kind];
            else P->sequence_gaps += s->more_gaps_hole[kind];
        }
        P->duplicate_sequences += s->pub.repeated_sequences;
        P->out_of_order_batches += s->pub.out_of_order_batches;
        s->pub.ranges = s->ranges;
        s->pub.nranges = s->nranges;
        s->pub.gaps = s->gaps;
        s->pub.ngaps = s->ngaps;
    }
    hole_judged_free(&hj);
    an_finish_holes(a);
    /* a hole left after the session's first offset: batches of it may have been there (a
     * partition's last hole has the largest offsets) */
    int64_t *last_from = malloc((a->nparts ? a->nparts : 1) * sizeof *last_from);
    if (!last_from) {
        a->nomem = true;
        return;
    }
    for (size_t p = 0; p < a->nparts; p++) last_from[p] = -1;
    for (size_t k = 0; k < a->holes.n; k++) last_from[a->holes.v[k].partition] = a->holes.v[k].from;
    for (size_t i = 0; i < a->sess.n; i++) {
        ss_an_session *p = &a->sess.v[i]->pub;
        p->spans_hole = last_from[p->partition] > p->first_offset;
    }
    free(last_from);
    if (a->sess.n > 1) qsort(a->sess.v, a->sess.n, sizeof *a->sess.v, cmp_sess);
}
