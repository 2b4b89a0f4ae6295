/* segscan - the copies of one partition compared as Kafka's follower compares
 * itself with its leader (see replicas.h).
 *
 * Kafka's followers append the leader's batches as they are, offsets and
 * partitionLeaderEpoch kept (ReplicaFetcherThread.processPartitionData ->
 * UnifiedLog.appendAsFollower), and each log's epoch cache is the first offset
 * of each epoch among its batches (LeaderEpochFileCache.assign on append; the
 * leader-epoch-checkpoint is that cache written out). A follower that comes
 * back asks the leader where its own last epoch ends (OffsetsForLeaderEpoch:
 * LeaderEpochFileCache.endOffsetFor) and truncates there
 * (AbstractFetcherThread.getOffsetTruncationState): what lies past it was
 * never the partition's. The epochs are taken from the batches read, the
 * evidence the records themselves carry, rather than from the checkpoint file,
 * which may be older than the segments copied.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/javaint.h"
#include "inputs/replicas.h"
#include "segscan/segment.h"

void rp_copy_free(rp_copy *c) {
    free(c->b);
    free(c->segs);
    c->b = NULL;
    c->segs = NULL;
}

static void note(rp_note_fn fn, void *ctx, ss_severity sev, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void note(rp_note_fn fn, void *ctx, ss_severity sev, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fn(ctx, sev, buf);
}

/* The batch headers of every segment of a copy. false: out of memory. */
static bool read_copy(rp_copy *c) {
    const ss_input_partition *p = c->p;
    c->segs = calloc(p->nsegments ? p->nsegments : 1, sizeof *c->segs);
    if (!c->segs) return false;
    for (size_t j = 0; j < p->nsegments; j++) {
        rp_seg *sg = &c->segs[j];
        sg->first = sg->last = sg->max_base = -1;
        ss_segment *s;
        ss_errkind ok = c->mem ? ss_segment_from_memory(c->mem, c->memlen, false, &s, &sg->first_damage)
                               : ss_segment_open(p->segments[j].path, &s, &sg->first_damage);
        if (ok != SS_E_OK) {
            sg->damage = 1;
            continue;
        }
        ss_walker *w = ss_walker_new(s, UINT64_MAX);
        if (!w) {
            ss_segment_close(s);
            return false;
        }
        ss_event ev;
        for (ss_event_kind k; (k = ss_walker_next(w, &ev)) != SS_EV_END;) {
            if (k == SS_EV_DAMAGE) {
                if (!sg->damage++) sg->first_damage = ev.err;
                continue;
            }
            const ss_batch *b = &ev.batch;
            if (!b->crc_valid) continue; /* its damage event follows */
            if (!SS_GROW(c->b, c->nb, c->cap, 256)) {
                ss_walker_free(w);
                ss_segment_close(s);
                return false;
            }
            int32_t count = b->count >= 0 ? b->count : (int32_t)(b->last_offset - b->base_offset + 1);
            c->b[c->nb++] = (rp_batch){b->base_offset, b->last_offset, b->magic >= 2 ? b->partition_leader_epoch : -1,
                                       count, b->crc};
            if (sg->first < 0) sg->first = b->base_offset;
            if (b->last_offset > sg->last) sg->last = b->last_offset;
            if (b->base_offset > sg->max_base) sg->max_base = b->base_offset;
        }
        ss_walker_free(w);
        ss_segment_close(s);
    }
    ss_input_replica *r = c->r;
    r->nsegments = p->nsegments;
    r->log_start = c->nb ? c->b[0].base : -1;
    r->log_end = c->nb ? ss_next_offset(c->b[c->nb - 1].last) : -1; /* a last offset of INT64_MAX is legal input */
    r->last_epoch = c->nb ? c->b[c->nb - 1].epoch : -1;
    r->read_from = r->read_to = -1;
    r->diverged_at = -1;
    r->diverged_epoch = r->leader_epoch = -1;
    for (size_t j = 0; j < p->nsegments; j++) r->damage += c->segs[j].damage;
    return true;
}

/* A segment as a note names it: its file, or the export a copy held in memory came from. */
static const char *seg_name(const rp_copy *c, size_t j) {
    if (c->p->segments[j].path) return c->p->segments[j].path;
    return c->p->export_file ? c->p->export_file : c->p->path;
}

/* The batches of c below offset `end`: how many. */
static size_t below(const rp_copy *c, int64_t end) {
    size_t n = c->nb;
    while (n > 0 && c->b[n - 1].base >= end) n--;
    return n;
}

/* LeaderEpochFileCache.endOffsetFor over the first nb batches of c (its log end `end`):
 * the largest epoch at or below `epoch` and the offset where the next higher epoch starts
 * (the log end for its latest epoch); false when it holds no epoch at or below it. */
static bool end_offset_for(const rp_copy *c, size_t nb, int64_t end, int32_t epoch, int32_t *out_epoch,
                           int64_t *out_offset) {
    if (!nb) return false;
    if (c->b[nb - 1].epoch == epoch) {
        *out_epoch = epoch;
        *out_offset = end;
        return true;
    }
    size_t k = nb;
    while (k > 0 && c->b[k - 1].epoch > epoch) k--;
    if (k == 0) return false;
    *out_epoch = c->b[k - 1].epoch;
    *out_offset = k < nb ? c->b[k].base : end;
    return true;
}

/* Where follower f would truncate against leader l (AbstractFetcherThread's
 * getOffsetTruncationState, one round per epoch the follower has that the leader lacks):
 * f's offsets from the result on are not the partition's. */
static int64_t truncation(const rp_copy *l, const rp_copy *f, int32_t *f_epoch) {
    int64_t end = f->r->log_end;
    size_t fnb = f->nb;
    for (int round = 0; round < 1000 && fnb > 0; round++) {
        int32_t fe = f->b[fnb - 1].epoch, le, fe2;
        int64_t lo, fo;
        *f_epoch = fe;
        /* the leader holds no epoch at or below the follower's: Kafka truncates to the
         * follower's high watermark (its initial fetch offset) */
        if (!end_offset_for(l, l->nb, l->r->log_end, fe, &le, &lo)) {
            int64_t hw = f->r->high_watermark;
            return hw >= 0 && hw < end ? hw : f->r->log_start;
        }
        if (!end_offset_for(f, fnb, end, le, &fe2, &fo)) return f->r->log_start;
        if (fe2 != le) { /* an epoch of the follower's the leader does not know: back to below it */
            end = fo < end ? fo : end;
            fnb = below(f, end);
            continue;
        }
        return lo < end ? lo : end;
    }
    return end;
}

/* The leader's epoch at an offset (its batch holding it or the next), -1 when past its end. */
static int32_t epoch_at(const rp_copy *c, int64_t off) {
    for (size_t k = 0; k < c->nb; k++)
        if (c->b[k].last >= off) return c->b[k].epoch;
    return -1;
}

static const char *broker_of(const rp_copy *c, char *buf, size_t cap) {
    if (c->r->node_id >= 0) snprintf(buf, cap, "broker %" PRId32, c->r->node_id);
    else if (c->mem) snprintf(buf, cap, "broker unknown"); /* an export naming none */
    else snprintf(buf, cap, "broker unknown: no meta.properties");
    return buf;
}

/* Whether x and y are copies of one log, by what they hold: a batch alike (the same base offset,
 * leader epoch and CRC, which covers everything after it: a follower appends the leader's
 * batches as they are), or a leader epoch starting at the same offset in their
 * leader-epoch-checkpoints (a follower copies the leader's epochs: LeaderEpochFileCache); and
 * no batch at the same offsets and epoch that holds every one of its offsets in both (so not
 * compacted: the cleaner keeps a v2 batch's base offset and epoch, MemoryRecords.filterTo) with
 * other bytes, which one log cannot hold (*conflict: its base offset). */
static bool same_log(const rp_copy *x, const rp_copy *y, int64_t *conflict) {
    bool shared = false;
    *conflict = -1;
    for (size_t a = 0, b = 0; a < x->nb && b < y->nb;) {
        const rp_batch *p = &x->b[a], *q = &y->b[b];
        if (p->base < q->base) a++;
        else if (q->base < p->base) b++;
        else {
            if (p->epoch == q->epoch && p->crc == q->crc) shared = true;
            else if (p->epoch == q->epoch && p->last == q->last && p->count == p->last - p->base + 1 &&
                     q->count == q->last - q->base + 1) {
                *conflict = p->base;
                return false;
            }
            a++, b++;
        }
    }
    for (size_t a = 0; a < x->p->nepochs && !shared; a++)
        for (size_t b = 0; b < y->p->nepochs && !shared; b++)
            shared = x->p->epochs[a].epoch == y->p->epochs[b].epoch &&
                     x->p->epochs[a].start_offset == y->p->epochs[b].start_offset;
    return shared;
}

bool rp_reconcile(rp_copy *c, size_t nall, const char *name, rp_read **reads, size_t *nreads, rp_note_fn fn,
                  void *ctx) {
    *reads = NULL;
    *nreads = 0;
    for (size_t i = 0; i < nall; i++)
        if (!read_copy(&c[i])) return false;
    /* the copies of the first copy's log, found from it and from those found (apart: the rest),
     * moved to the front */
    for (size_t i = 0; i < nall; i++) c[i].apart = i > 0, c[i].conflict = -1;
    for (bool more = true; more;) {
        more = false;
        for (size_t i = 1; i < nall; i++) {
            if (!c[i].apart) continue;
            for (size_t k = 0; k < nall && c[i].apart; k++) {
                int64_t cf;
                if (c[k].apart) continue;
                if (same_log(&c[k], &c[i], &cf)) c[i].apart = false, more = true;
                else if (cf >= 0) c[i].conflict = cf;
            }
        }
    }
    size_t n = 0;
    for (size_t i = 0; i < nall; i++)
        if (!c[i].apart) {
            rp_copy t = c[n];
            c[n++] = c[i];
            c[i] = t;
        }
    if (n < 2) return true;
    /* the leader: the latest epoch a copy ends in (a follower truncates to the copy that was
     * leader in it), then the furthest log end, then the first path */
    size_t L = n;
    for (size_t i = 0; i < n; i++) {
        if (!c[i].nb) continue;
        if (L == n || c[i].r->last_epoch > c[L].r->last_epoch ||
            (c[i].r->last_epoch == c[L].r->last_epoch && c[i].r->log_end > c[L].r->log_end))
            L = i;
    }
    if (L == n) L = 0; /* no copy holds a batch */
    rp_copy *l = &c[L];
    l->r->leader = true;
    l->valid_end = l->r->log_end;
    char b1[64], b2[64];
    for (size_t i = 0; i < n; i++) {
        rp_copy *f = &c[i];
        if (i == L) continue;
        f->valid_end = f->r->log_end;
        if (!f->nb || !l->nb) continue;
        int32_t fe = -1;
        int64_t t = truncation(l, f, &fe);
        if (t < f->r->log_end) {
            f->valid_end = t;
            f->r->diverged_at = t;
            f->r->diverged_epoch = epoch_at(f, t);
            f->r->leader_epoch = epoch_at(l, t);
            uint64_t nb = 0, nr = 0;
            for (size_t k = 0; k < f->nb; k++)
                if (f->b[k].base >= t) nb++, nr += (uint64_t)f->b[k].count;
            f->r->diverged_batches = nb;
            char lep[32];
            if (f->r->leader_epoch >= 0) snprintf(lep, sizeof lep, "%" PRId32, f->r->leader_epoch);
            else snprintf(lep, sizeof lep, "none (its log ends at %" PRId64 ")", l->r->log_end);
            note(fn, ctx, SS_SEV_WARNING,
                 "%s: the replica from %s (%s) diverges at offset %" PRId64 ": leader epochs %s and %" PRId32
                 " (the leader %s holds epoch %s there): its %" PRIu64 " batch%s, %" PRIu64 " record%s at %" PRId64
                 "..%" PRId64 " were never the partition's (a follower truncates them, "
                 "AbstractFetcherThread) and are not read",
                 name, f->r->name, broker_of(f, b1, sizeof b1), t, lep, f->r->diverged_epoch, l->r->name, lep, nb,
                 nb == 1 ? "" : "es", nr, nr == 1 ? "" : "s", t, f->r->log_end - 1);
        }
        if (f->valid_end < l->r->log_end) {
            uint64_t nr = 0;
            for (size_t k = 0; k < l->nb; k++)
                if (l->b[k].base >= f->valid_end) nr += (uint64_t)l->b[k].count;
            f->r->behind = l->r->log_end - f->valid_end;
            if (f->r->diverged_at < 0)
                note(fn, ctx, SS_SEV_NOTICE,
                     "%s: the replica from %s (%s) ends %" PRIu64 " record%s earlier: at offset %" PRId64
                     ", the leader %s (%s) at %" PRId64 " (a follower behind: not divergence)",
                     name, f->r->name, broker_of(f, b1, sizeof b1), nr, nr == 1 ? "" : "s", f->valid_end, l->r->name,
                     broker_of(l, b2, sizeof b2), l->r->log_end);
        }
    }
    /* the ranges: from the lowest offset any copy holds, the leader where it holds it, below
     * its log start the copy that keeps the most; offsets no copy holds are skipped (holes) */
    size_t cap = 0, nr = 0;
    rp_read *v = NULL;
    int64_t cur = INT64_MAX;
    for (size_t i = 0; i < n; i++)
        if (c[i].nb && c[i].r->log_start < cur && c[i].r->log_start < c[i].valid_end) cur = c[i].r->log_start;
    while (cur != INT64_MAX) {
        size_t pick = n;
        for (size_t i = 0; i < n; i++) {
            if (!c[i].nb || c[i].r->log_start > cur || c[i].valid_end <= cur) continue;
            if (i == L) {
                pick = i;
                break;
            }
            if (pick == n || c[i].valid_end > c[pick].valid_end) pick = i;
        }
        if (pick == n) { /* the next offset a copy holds */
            int64_t next = INT64_MAX;
            for (size_t i = 0; i < n; i++)
                if (c[i].nb && c[i].r->log_start > cur && c[i].r->log_start < c[i].valid_end &&
                    c[i].r->log_start < next)
                    next = c[i].r->log_start;
            cur = next;
            continue;
        }
        int64_t to = c[pick].valid_end;
        if (pick != L && l->nb && l->r->log_start > cur && l->r->log_start < to) to = l->r->log_start;
        c[pick].r->read_from = cur;
        c[pick].r->read_to = to;
        for (size_t j = 0; j < c[pick].p->nsegments; j++) {
            const rp_seg *sg = &c[pick].segs[j];
            int64_t nm = c[pick].p->segments[j].name_offset;
            bool in = sg->first >= 0 ? sg->last >= cur && sg->first < to : nm >= cur && nm <= to;
            if (!in) continue;
            if (!SS_GROW(v, nr, cap, 16)) {
                free(v);
                return false;
            }
            v[nr++] = (rp_read){pick, j, cur, to, sg->first >= 0 && (sg->first < cur || sg->max_base >= to)};
        }
        cur = to;
    }
    /* no copy holds a batch (empty, or all damaged): the leader's files are read as they are */
    bool none = nr == 0;
    for (size_t j = 0; none && j < l->p->nsegments; j++) {
        if (!SS_GROW(v, nr, cap, 16)) {
            free(v);
            return false;
        }
        v[nr++] = (rp_read){L, j, INT64_MIN, INT64_MAX, false};
    }
    /* damage in files no range reads (the analysis reports what it reads) */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < c[i].p->nsegments; j++) {
            const rp_seg *sg = &c[i].segs[j];
            if (!sg->damage) continue;
            bool read = false;
            for (size_t k = 0; k < nr && !read; k++) read = v[k].copy == i && v[k].seg == j;
            if (read) continue;
            note(fn, ctx, SS_SEV_WARNING, "%s: the replica from %s: %s: %" PRIu64 " damaged entr%s (not read: %s)",
                 name, c[i].r->name, seg_name(&c[i], j), sg->damage, sg->damage == 1 ? "y" : "ies",
                 sg->first_damage.msg);
        }
    *reads = v;
    *nreads = nr;
    return true;
}
