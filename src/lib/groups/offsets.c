/* segscan - consumer groups: the offset records of a __consumer_offsets
 * partition, replayed as OffsetMetadataManager replays them (types 0 and 1,
 * replay(OffsetCommitKey, OffsetCommitValue)) and the transaction markers
 * (replayEndTransactionMarker): the committed offset of each partition, and
 * beside it the history the findings rest on: every move back of it, where a
 * group committed after an offset deletion, commits past the data's end,
 * transactions aborted or left open, producer epochs raised past their markers.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/grow.h"
#include "groups_int.h"

/* ---- Burrow's window (lag.c) ---------------------------------------------------------------------- */

/* A partition's last LAG_WINDOW commits that became its committed offset, as Burrow's in-memory
 * storage keeps a ring of `intervals` offsets per partition (linkedin/Burrow
 * core/internal/storage/inmemory.go, addConsumerOffset; min-distance defaults to 0: every commit
 * takes a slot). An offset tombstone empties it: Kafka's state has no committed offset then. */

void g_lag_note(glog *L, uint32_t ti, int64_t offset, int64_t time) {
    if (!L->opts->data) return; /* no log end to measure the lag against: nothing to keep */
    while (ti >= L->nlagw) {
        uint32_t before = L->nlagw;
        if (!GVGROW(L, L->lagw, ti, L->nlagw, 64)) {
            L->nomem = true;
            return;
        }
        memset(L->lagw + before, 0, (L->nlagw - before) * sizeof *L->lagw);
    }
    glagw *w = &L->lagw[ti];
    w->offset[w->pos] = offset;
    w->time[w->pos] = time;
    w->pos = (uint8_t)((w->pos + 1) % LAG_WINDOW);
    if (w->n < LAG_WINDOW) w->n++;
}

void g_lag_reset(glog *L, uint32_t ti) {
    if (ti < L->nlagw) L->lagw[ti].n = L->lagw[ti].pos = 0;
}

/* ---- the committed offset --------------------------------------------------------------------------- */

/* The partition's committed offset is now `offset` (a plain commit, or a transaction's
 * at its COMMIT marker): a move back is a rewind; the first after a deletion of the
 * partition's offset is where the group restarted. */
static void set_committed(glog *L, uint32_t ti, int64_t offset, int64_t commit_time, int64_t record_offset,
                          int32_t leader_epoch, const char *metadata, bool txn, int64_t step_time,
                          int64_t step_offset) {
    gpart *t = &L->tps[ti];
    bool had = t->flags & TP_COMMITTED;
    int64_t old = t->offset, old_time = t->commit_time;
    ggroup *grp = &L->groups[t->group];
    uint32_t members = grp->nmembers_now;
    /* a reader's commit: an empty group takes only commits without a generation (an admin's, or a
     * consumer's without group management: ClassicGroup.validateOffsetCommit); a transaction's is
     * its producer's; a group without membership records only commits (assign() and commit) */
    bool reader = txn || members > 0 || (!grp->gens.n && !grp->nkmembers);
    int64_t reader_max = t->reader_max;
    if (reader && offset > t->reader_max) t->reader_max = offset;
    /* a commit stepping through what the partition's last rewind sent back (moving forward:
     * not itself a move back) */
    gpart_ext *wx = g_tpx_if(L, t);
    if (wx && wx->watch && had && offset > old) {
        ss_gevent *w = &grp->events.v[wx->watch - 1].e;
        if (w->kind == SS_GEV_REWIND && offset > w->new_offset && offset < w->last_offset && offset > w->step_max)
            w->step_max = offset;
    }
    t->offset = offset;
    t->commit_time = commit_time;
    t->record_offset = record_offset;
    t->leader_epoch = leader_epoch;
    t->metadata = metadata;
    t->flags |= TP_COMMITTED;
    g_lag_note(L, ti, offset, commit_time);
    if (txn) t->flags |= TP_TXN;
    else t->flags &= (uint8_t)~TP_TXN;
    /* what was committed after the partition's last watched event (none: nothing asks) */
    gpart_ext *x = g_tpx_if(L, t);
    if (x && offset > x->run_max) x->run_max = offset;
    if (x && x->del_pending) {
        ss_gevent *d = &L->groups[t->group].events.v[x->del_pending - 1].e;
        d->restart_offset = offset;
        d->restart_time = step_time;
        d->restart_record = step_offset;
        x->del_pending = 0;
    }
    if (had && offset < old) {
        gev *e = g_tp_event(L, ti, SS_GEV_REWIND, step_time, step_offset, true);
        if (e) {
            e->e.last_offset = old;
            e->e.new_offset = offset;
            e->e.had_members = members > 0;
            e->e.transactional = txn;
            e->e.reader_max = reader_max;
            e->e.old_time = old_time;
        }
    } else if (had && offset > old && !reader) {
        gev *e = g_tp_event(L, ti, SS_GEV_ADVANCED, step_time, step_offset, false);
        if (e) {
            e->e.last_offset = old;
            e->e.new_offset = offset;
            e->e.reader_max = reader_max;
            e->e.old_time = old_time;
        }
    }
}

/* Is a commit of this partition and time kept in the list (opts.commits and the listing filters)? */
static bool keep_commit(const glog *L, const gpart *t, int64_t time, int64_t offset) {
    const ss_groups_opts *o = L->opts;
    if (!o->commits) return false;
    if (o->topic && (!t->topic || strcmp(o->topic, t->topic) != 0)) return false;
    if (o->partition >= 0 && t->partition != o->partition) return false;
    if (time < o->since_ms || time > o->until_ms) return false;
    if (offset < o->from_offset || offset > o->to_offset) return false;
    return true;
}

/* Committed offsets past the data partition's log end at the commit's time: one
 * event for a run of them. */
static void check_range(glog *L, uint32_t ti, int64_t ctime, int64_t offset, int64_t record_offset) {
    gpart *t = &L->tps[ti];
    const ss_tl_partition *tl = g_tl_of(L, t);
    if (!tl || tl->next_offset < 0) return;
    int64_t end = ss_tl_end_at(tl, ctime);
    gpart_ext *x = g_tpx_if(L, t);
    if (offset <= end) {
        if (x) x->oor = 0;
        return;
    }
    ggroup *g = &L->groups[t->group];
    if (x && x->oor) {
        ss_gevent *e = &g->events.v[x->oor - 1].e;
        e->count++;
        e->last_time = ctime;
        return;
    }
    gev *e = g_tp_event(L, ti, SS_GEV_OUT_OF_RANGE, ctime, record_offset, false);
    if (!e) return;
    e->e.commit_offset = offset;
    e->e.log_start = tl->log_start;
    e->e.log_end = end;
    e->e.count = 1;
    e->e.last_time = ctime;
    x = g_tpx(L, ti);
    if (x) x->oor = L->groups[L->tps[ti].group].events.n;
}

/* ---- producers ------------------------------------------------------------------------------------- */

static gpid *pid_get(glog *L, int64_t pid, bool create) {
    for (uint32_t i = 0; i < L->npids; i++)
        if (L->pids[i].producer_id == pid) return &L->pids[i];
    if (!create) return NULL;
    if (!GROW32(L->pids, L->npids, L->pidcap, 8)) {
        L->nomem = true;
        return NULL;
    }
    gpid *p = &L->pids[L->npids++];
    memset(p, 0, sizeof *p);
    p->producer_id = pid;
    p->producer_epoch = p->marker_epoch = -1;
    p->marker_time = p->marker_record = p->first_time = p->prev_marker_time = -1;
    return p;
}

static void await_marker(glog *L, gpid *p, uint32_t group, uint32_t event) {
    if (!GROW32(p->awaiting, p->nawait, p->capawait, 4)) {
        L->nomem = true;
        return;
    }
    p->awaiting[p->nawait++] = (uint64_t)group << 32 | event;
}

/* The first offset commit of a producer's transaction, under `epoch`: Kafka's
 * TransactionCoordinator raises a producer's epoch in three ways, and only one
 * of them is a new instance:
 *   - transaction version 2 (KIP-890) raises it at the end of every
 *     transaction: the markers carry epoch + 1 (prepareAbortOrCommit with
 *     supportEpochBump) and its next transaction writes under that epoch;
 *   - a transaction that timed out (abortTimedOutTransactions) or that was
 *     open when another instance called initTransactions (handleInitProducerId
 *     -> prepareFenceProducerEpoch) is aborted with the epoch raised; the
 *     producer that ran it is fenced;
 *   - initTransactions raises it (prepareIncrementProducerEpoch): the
 *     producer writing under the new epoch is a new instance (or the same one
 *     restarted), and a producer still holding the old one is fenced.
 * An epoch past what the last marker allows is the last kind: an epoch-bump
 * event, judged further (timeout or fencing) by the findings from
 * __transaction_state. */
static void txn_begin(glog *L, gpid *p, uint32_t gi, int16_t epoch, const ss_record *r) {
    bool bump = false, open_before = p->open;
    if (p->open) bump = epoch > p->producer_epoch; /* a new epoch while a transaction is open here */
    else if (p->producer_epoch >= 0)
        bump = epoch != p->producer_epoch &&
               !(p->marker && epoch == p->marker_epoch && p->marker_epoch == p->producer_epoch + 1) &&
               epoch > p->producer_epoch && epoch > p->marker_epoch;
    if (bump) {
        ggroup *g = &L->groups[gi];
        gev *e = g_add_event(L, g, SS_GEV_EPOCH_BUMP, r->timestamp, r->offset);
        if (e) {
            e->e.producer_id = p->producer_id;
            e->e.producer_epoch = epoch;
            e->e.old_epoch = p->producer_epoch;
            e->e.marker_epoch = p->marker ? p->marker_epoch : -1;
            e->e.marker_time = p->marker ? p->marker_time : -1;
            e->e.marker_offset = p->marker ? p->marker_record : -1;
            e->e.marker_aborted = p->marker == 2;
            e->e.open_before = open_before;
            e->e.txn_versions = p->tv;
        }
    }
    if (!p->open) {
        p->open = true;
        p->first_time = r->timestamp;
        p->prev_marker_time = p->marker_time;
    }
}

/* A commit of a group that has no group record: Kafka creates an empty classic group
 * without protocol type ("simple consumer group"). */
static void group_exists(glog *L, ggroup *g, int64_t time, int64_t offset) {
    if (g->exists) return;
    if (g->deleted) {
        gev *e = g_add_event(L, g, SS_GEV_CREATED, time, offset);
        if (e) e->e.to_protocol = SS_GPROTO_NONE;
        g->deleted = false;
    }
    g->exists = true;
}

/* OffsetCommitKey/Value (record types 0 and 1): OffsetMetadataManager.replay. */
void o_offset_commit(glog *L, const ss_batch *b, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    uint32_t gn = j_child(c, dec->key, "group");
    if (!gn || c.n[gn].kind != SS_J_STRING) return;
    uint32_t gi = g_group_get(L, c.n[gn].str, c.n[gn].len, r->offset, r->timestamp);
    if (gi == UINT32_MAX) return;
    const char *topic = j_str(L, c, dec->key, "topic");
    int32_t part = (int32_t)j_num(c, dec->key, "partition", -1);
    if (!topic) return;
    uint32_t ti = g_tp_get(L, gi, topic, NULL, part);
    if (ti == UINT32_MAX) return;
    ggroup *g = &L->groups[gi];
    gpart *t = &L->tps[ti];
    if (r->timestamp > g->last_time) g->last_time = r->timestamp;
    if (dec->tombstone) {
        /* offsets.remove(group, topic, partition), and the pending offsets of the
         * group's open transactions for it */
        int64_t last = t->flags & TP_COMMITTED ? t->offset : -1;
        uint64_t removed = 0;
        gpart_ext *x = g_tpx(L, ti);
        if (!x) return;
        t = &L->tps[ti];
        if (x->pending) {
            for (uint32_t i = 0; i < L->npids; i++)
                for (uint32_t k = 0; k < L->pids[i].n; k++) {
                    gpending *pe = &L->pids[i].v[k];
                    if (pe->tp == ti && !pe->removed) {
                        pe->removed = true;
                        removed++;
                    }
                }
            x->pending = 0;
        }
        if ((t->flags & TP_START_PENDING) && (t->flags & TP_OPEN_OWNER))
            L->owners[t->owner_last - 1].start_committed = -1; /* stable now, and nothing committed */
        t->flags &= (uint8_t) ~(TP_COMMITTED | TP_TXN | TP_START_PENDING);
        t->offset = -1;
        x->deletions++;
        x->oor = 0;
        g_lag_reset(L, ti);
        gev *e = g_tp_event(L, ti, SS_GEV_OFFSETS_DELETED, r->timestamp, r->offset, true);
        if (e) {
            e->e.last_offset = last;
            e->e.pending_removed = removed;
            L->tpx[L->tps[ti].ext - 1].del_pending = L->groups[gi].events.n;
        }
        return;
    }
    group_exists(L, &L->groups[gi], r->timestamp, r->offset);
    g = &L->groups[gi];
    t = &L->tps[ti];
    int64_t offset = j_num(c, dec->value, "offset", -1);
    int32_t leader_epoch = (int32_t)j_num(c, dec->value, "leaderEpoch", -1);
    int64_t ctime = j_num(c, dec->value, "commitTimestamp", r->timestamp);
    int64_t expire = j_num(c, dec->value, "expireTimestamp", -1);
    const char *metadata = j_str(L, c, dec->value, "metadata");
    bool txn = b->producer_id != -1; /* RecordBatch.NO_PRODUCER_ID */
    t = &L->tps[ti];
    if (++t->commits_lo == 0) t->commits_hi++;
    g->commits++;
    if (t->first_commit_time < 0) t->first_commit_time = ctime;
    t->last_commit_time = ctime;
    g_owner_commit(L, t, ctime, offset);
    check_range(L, ti, ctime, offset, r->offset);
    t = &L->tps[ti];
    gcommit cr;
    bool keep = keep_commit(L, t, ctime, offset);
    if (keep) {
        memset(&cr, 0, sizeof cr);
        cr.tp = ti;
        cr.record_offset = r->offset;
        cr.time = ctime;
        cr.offset = offset;
        cr.leader_epoch = leader_epoch;
        cr.metadata = metadata;
        cr.expire_time = expire;
        cr.producer_id = txn ? b->producer_id : -1;
        cr.producer_epoch = txn ? b->producer_epoch : -1;
        cr.generation = -1;
        cr.effective_time = -1;
        if (t->flags & TP_OPEN_OWNER) {
            const gownership *o = &L->owners[t->owner_last - 1];
            cr.member = o->member;
            cr.instance = o->instance;
            cr.generation = o->gen_to;
        }
    }
    if (!txn) {
        set_committed(L, ti, offset, ctime, r->offset, leader_epoch, metadata, false, ctime, r->offset);
        if (keep) {
            cr.outcome = SS_GOUT_PLAIN;
            cr.effective = 1;
            cr.effective_time = ctime;
            if (!gc_add(L, &cr)) L->nomem = true;
        }
        return;
    }
    /* pendingTransactionalOffsets[producerId].put(group, topic, partition, ...) */
    gpart_ext *x = g_tpx(L, ti);
    if (!x) return;
    x->txn_commits++;
    L->groups[gi].txn_commits++;
    gpid *p = pid_get(L, b->producer_id, true);
    if (!p) return;
    txn_begin(L, p, gi, b->producer_epoch, r);
    p->producer_epoch = b->producer_epoch;
    p->group = gi;
    for (uint32_t k = 0; k < p->n; k++)
        if (p->v[k].tp == ti) p->v[k].superseded = true;
    if (!GROW32(p->v, p->n, p->cap, 4)) {
        L->nomem = true;
        return;
    }
    gpending *pe = &p->v[p->n++];
    memset(pe, 0, sizeof *pe);
    t = &L->tps[ti];
    pe->tp = ti;
    pe->record_offset = r->offset;
    pe->offset = offset;
    pe->commit_time = ctime;
    pe->committed_before = t->flags & TP_COMMITTED ? t->offset : -1;
    pe->leader_epoch = leader_epoch;
    pe->metadata = metadata;
    pe->held = -1;
    L->tpx[t->ext - 1].pending++;
    if (keep) {
        cr.outcome = SS_GOUT_OPEN;
        pe->held = gc_hold(L, &cr);
        if (pe->held < 0) L->nomem = true;
    }
}

/* the pending offset of a transaction that is about a partition's last commit in it */
static bool last_of_txn(const gpending *pe) { return !pe->removed && !pe->superseded; }

static void txn_event(glog *L, gpid *p, const gpending *pe, enum ss_gevent_kind kind, int64_t time, int64_t record) {
    gev *e = g_tp_event(L, pe->tp, kind, time, record, kind == SS_GEV_TXN_ABORTED);
    if (!e) return;
    e->e.commit_offset = pe->offset;
    e->e.producer_id = p->producer_id;
    e->e.producer_epoch = p->producer_epoch;
    e->e.committed_before = pe->committed_before;
    e->e.first_time = p->first_time;
    e->e.prev_marker_time = p->prev_marker_time;
    e->e.txn_versions = p->tv;
    uint32_t gi = L->tps[pe->tp].group;
    if (kind == SS_GEV_TXN_ABORTED) await_marker(L, p, gi, L->groups[gi].events.n - 1);
}

/* A COMMIT or ABORT marker of a producer: OffsetMetadataManager.replayEndTransactionMarker. */
void glog_marker(glog *L, const ss_batch *b, const ss_record *r) {
    if (r->control_type != SS_CTRL_COMMIT && r->control_type != SS_CTRL_ABORT) return;
    gpid *p = pid_get(L, b->producer_id, false);
    if (!p) return; /* "no pending offsets are present. Ignoring it." */
    bool commit = r->control_type == SS_CTRL_COMMIT;
    int64_t mtime = b->max_timestamp;
    /* the producer's earlier aborted transactions learn when its next marker came */
    for (uint32_t i = 0; i < p->nawait; i++) {
        uint32_t gi = (uint32_t)(p->awaiting[i] >> 32), ei = (uint32_t)p->awaiting[i];
        if (gi < L->ngroups && ei < L->groups[gi].events.n) L->groups[gi].events.v[ei].e.next_marker_time = mtime;
    }
    p->nawait = 0;
    if (p->open && commit) {
        /* what the COMMIT marker's epoch says of the producer's transaction version */
        if (b->producer_epoch == p->producer_epoch) p->tv |= 1;
        else if (b->producer_epoch == p->producer_epoch + 1) p->tv |= 2;
    }
    for (uint32_t k = 0; k < p->n; k++) {
        gpending *pe = &p->v[k];
        gpart *t = &L->tps[pe->tp];
        bool effective = false;
        if (!pe->removed) {
            gpart_ext *x = g_tpx(L, pe->tp); /* made by the offset commit */
            if (x && x->pending) x->pending--;
            if (x && commit) x->txn_committed++;
            else if (x) x->txn_aborted++;
        }
        /* "We always keep the most recent committed offset when we have a mix of
         * transactional and regular offset commits": only a record offset later
         * than the current committed offset's record offset replaces it. */
        if (commit && !pe->removed && !pe->superseded &&
            (!(t->flags & TP_COMMITTED) || pe->record_offset > t->record_offset)) {
            set_committed(L, pe->tp, pe->offset, pe->commit_time, pe->record_offset, pe->leader_epoch, pe->metadata,
                          true, mtime, r->offset);
            effective = true;
        }
        if (!commit && last_of_txn(pe)) {
            txn_event(L, p, pe, SS_GEV_TXN_ABORTED, mtime, r->offset);
            ggroup *g = &L->groups[L->tps[pe->tp].group];
            ss_gevent *e = &g->events.v[g->events.n - 1].e;
            e->marker_epoch = b->producer_epoch;
            e->marker_time = mtime;
            e->marker_offset = r->offset;
        }
        if (pe->held >= 0)
            gc_resolve(L, pe->held, commit ? SS_GOUT_COMMITTED : SS_GOUT_ABORTED, effective, effective ? mtime : -1);
        t = &L->tps[pe->tp];
        const gpart_ext *tx = g_tpx_if(L, t);
        if ((t->flags & TP_START_PENDING) && !(tx && tx->pending)) {
            /* its owner's OffsetFetch is answered now: the committed offset the marker left */
            t->flags &= (uint8_t)~TP_START_PENDING;
            if (t->flags & TP_OPEN_OWNER)
                L->owners[t->owner_last - 1].start_committed = t->flags & TP_COMMITTED ? t->offset : -1;
        }
    }
    p->n = 0;
    p->open = false;
    p->marker = commit ? 1 : 2;
    p->marker_epoch = b->producer_epoch;
    p->marker_time = mtime;
    p->marker_record = r->offset;
}

/* The end of the log: transactions still open, the cadence of the owners that still
 * own their partitions, what was committed after each event that asks. */
void o_end(glog *L) {
    /* transactions still open: their offsets stay pending */
    for (uint32_t i = 0; i < L->npids; i++) {
        gpid *p = &L->pids[i];
        for (uint32_t k = 0; k < p->n; k++) {
            gpending *pe = &p->v[k];
            gpart_ext *x = pe->removed ? NULL : g_tpx(L, pe->tp);
            if (x) x->txn_open++;
            if (last_of_txn(pe)) txn_event(L, p, pe, SS_GEV_TXN_OPEN, pe->commit_time, pe->record_offset);
            if (pe->held >= 0) gc_resolve(L, pe->held, SS_GOUT_OPEN, false, -1);
        }
    }
    /* the cadence of the owners that still own their partitions; what was committed after
     * each event that asks (the chain of its partition's events, from its end) */
    for (uint32_t i = 0; i < L->ntps; i++) {
        gpart *t = &L->tps[i];
        if ((t->flags & TP_OPEN_OWNER) && t->ring)
            L->owners[t->owner_last - 1].interval_ms = g_ring_median(&L->rings[t->ring - 1], t->ring_n);
        t->ring = 0; /* the rings go at the end of the log (glog_end) */
        t->ring_n = t->ring_pos = 0;
        const gpart_ext *x = g_tpx_if(L, t);
        if (x && x->watch) L->groups[t->group].events.v[x->watch - 1].seg_max = x->run_max;
    }
    for (uint32_t i = 0; i < L->ngroups; i++) {
        gevent_v *ev = &L->groups[i].events;
        for (uint32_t k = ev->n; k-- > 0;) {
            gev *e = &ev->v[k];
            int64_t m = e->seg_max;
            if (e->next_watch && ev->v[e->next_watch - 1].e.later_max > m) m = ev->v[e->next_watch - 1].e.later_max;
            e->e.later_max = m;
        }
    }
}

void o_free(glog *L) {
    for (uint32_t i = 0; i < L->npids; i++) {
        free(L->pids[i].v);
        free(L->pids[i].awaiting);
    }
    free(L->pids);
}
