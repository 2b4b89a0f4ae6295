/* segscan - findings (segscan/findings.h): which records each consumer group
 * received twice, or never, judged from the group's history (the owners of
 * each partition, the moves of its committed offset, its transactions) and
 * from what the data partitions held at each moment.
 *
 * The consumer's side of Kafka these rest on:
 *   - a consumer resumes a partition from its group's committed offset
 *     (ConsumerCoordinator.onJoinComplete -> refreshCommittedOffsets, an
 *     OffsetFetch); with none, auto.offset.reset decides (KafkaConsumer: earliest,
 *     latest, none). So whatever a previous owner read past its last commit is
 *     read again by the next owner;
 *   - a consumer commits at its own pace (auto.commit.interval.ms, or where the
 *     application calls commitSync/commitAsync); one stuck in processing stops
 *     committing and is removed from the group once max.poll.interval.ms
 *     passes without a poll (or session.timeout.ms without a heartbeat);
 *   - an exactly-once application commits its input offsets inside its output
 *     transaction (sendOffsetsToTransaction -> TxnOffsetCommit); when the
 *     transaction aborts, so does the commit (OffsetMetadataManager.
 *     replayEndTransactionMarker discards it), and the input is read again if
 *     the application seeks back to the committed offset (Kafka Streams and
 *     Kafka's EOS example do; the consumer itself does not).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/javaint.h"
#include "findings_int.h"
#include "segscan/decode.h"

const char *ss_fkind_name(enum ss_fkind k) {
    static const char *const names[] = {NULL,           "handover",       "rewind",      "reset",   "offsets-deleted",
                                        "out-of-range", "aborted-commit", "open-commit", "fencing", "empty-group"};
    return k > 0 && k < SS_FK_COUNT ? names[k] : NULL;
}

const char *ss_frevoke_name(enum ss_frevoke r) {
    switch (r) {
    case SS_FR_ACKED: return "acknowledged";
    case SS_FR_REJOINED: return "rejoined";
    case SS_FR_ABSENT: return "absent";
    case SS_FR_SESSION_TIMEOUT: return "session-timeout";
    case SS_FR_REJOINED_UNDECIDED: return "rejoined-undecided";
    case SS_FR_REJOINED_OWNING: return "rejoined-owning";
    default: return NULL;
    }
}

const char *ss_fbump_name(enum ss_fbump b) {
    switch (b) {
    case SS_FB_INIT: return "init";
    case SS_FB_FENCED: return "fenced";
    case SS_FB_TIMEOUT: return "timeout";
    case SS_FB_UNKNOWN: return "fenced-or-timeout";
    case SS_FB_INIT_OR_BUMP: return "init-or-bump";
    default: return NULL;
    }
}

void ss_findings_opts_default(ss_findings_opts *o) {
    memset(o, 0, sizeof *o);
    o->txn_timeout_ms = 900000;
}

bool ss_frange_holds(const ss_frange *r, int64_t offset) {
    return r && r->set && offset >= r->from && (r->to < 0 || offset <= r->to);
}

static ss_finding *add(ss_findings *F, enum ss_fkind kind, size_t gi, const ss_group *grp, const ss_gtp_ref *tp,
                       const ss_tl_partition *tl) {
    if (!SS_GROW(F->v, F->n, F->cap, 4)) {
        F->nomem = true;
        return NULL;
    }
    ss_finding *x = &F->v[F->n++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->group = gi;
    x->group_id = grp->id;
    x->group_id_len = grp->id_len;
    x->coordinator_partition = grp->coordinator_partition;
    if (tp) x->tp = *tp;
    x->data_read = tl != NULL;
    x->basis = tl ? tl->basis : SS_TL_NONE;
    x->resumed_offset = x->previous_last_commit = x->previous_last_offset = x->commit_interval_ms = -1;
    x->previous_until = -1;
    x->clean = -1;
    x->from_offset = x->to_offset = x->last_committed = x->restart_offset = x->restart_time = -1;
    x->commit_offset = x->log_start = x->log_end = x->last_time = -1;
    x->producer_id = -1;
    x->producer_epoch = x->marker_epoch = x->old_epoch = -1;
    x->aborted_at = -1;
    x->read_bound = -1;
    x->hanging_confirmed = -1;
    x->age_ms = -1;
    x->empty_since = -1;
    x->restart_generation = x->restart_log_end = -1;
    return x;
}

/* A range [from, to] of the data partition, kept within the records it holds, counted. */
static void range(ss_findings *F, const ss_tl_partition *tl, ss_frange *r, int64_t from, int64_t to, bool certain) {
    memset(r, 0, sizeof *r);
    r->certain = certain;
    r->records = -1;
    if (tl) {
        if (from < tl->log_start) from = tl->log_start;
        if (to < 0 || to >= tl->next_offset) to = tl->next_offset - 1;
        if (from > to) return;
        r->records = ss_tl_records(F->data, tl, from, to);
    } else if (to >= 0 && from > to) {
        return;
    }
    r->set = true;
    r->from = from;
    r->to = to;
}

static const ss_tl_partition *tl_of(const ss_findings *F, const ss_gtp_ref *tp) {
    return F->data && tp->topic ? ss_timelines_find(F->data, tp->topic, tp->topic_len, tp->partition) : NULL;
}

static bool same_str(const char *a, size_t al, const char *b, size_t bl) {
    if (!a || !b) return a == b;
    return al == bl && !memcmp(a, b, al);
}

/* ---- handovers ----------------------------------------------------------------------------------- */

/* A sign that the previous owner stopped uncleanly, the only ground for "likely": removed after its
 * session timeout with no commit since, or gone from the group having stopped committing. Never for
 * a revocation acknowledged or a member that rejoined the next generation. */
static bool unclean_sign(const ss_finding *x) {
    return x->revocation == SS_FR_SESSION_TIMEOUT || (x->revocation == SS_FR_ABSENT && x->clean == 0);
}

/* The group had no members from o->empty_offset until o got the partition. What happened to the
 * partition's committed offset meanwhile: the group's events between (a reset: the offset moved by
 * a commit while the group was empty; a deletion; the group's tombstone). Nobody read the partition
 * meanwhile: what the old owner can have read past its last commit was present when it lost the
 * partition (the coordinator removed it then, or it had left), and the new owner resumed from the
 * committed offset as the group left it (ConsumerCoordinator.onJoinComplete ->
 * refreshCommittedOffsets). Records below the old owner's last commit that come again come of the
 * reset, which says so itself: here only [max(resumed, last commit), log end when it lost it - 1],
 * possible (it may have stopped anywhere from its last commit on); likely up to one commit interval
 * after its last commit only when it had stopped committing (clean 0: a sign of an unclean stop). */
static void empty_group(ss_findings *F, ss_finding *x, const ss_group *grp, const ss_gpartition *p, const ss_gowner *o,
                        const ss_tl_partition *tl) {
    x->empty_since = o->empty_time;
    /* (a transactional event carries its commit's record offset, added at its marker: the events are
     * not in record-offset order, so every one is looked at) */
    for (size_t k = 0; k < grp->nevents; k++) {
        const ss_gevent *e = &grp->events[k];
        if (e->offset < o->empty_offset || e->offset > o->from_offset) continue;
        if (e->kind == SS_GEV_DELETED) {
            x->while_empty |= SS_FE_GROUP_DELETED;
            continue;
        }
        if (e->tp.partition != p->tp.partition || !same_str(e->tp.topic, e->tp.topic_len, p->tp.topic, p->tp.topic_len))
            continue;
        if (e->kind == SS_GEV_OFFSETS_DELETED) x->while_empty |= SS_FE_OFFSETS_DELETED;
        else if ((e->kind == SS_GEV_REWIND && !e->had_members) || e->kind == SS_GEV_ADVANCED)
            x->while_empty |= SS_FE_RESET;
    }
    if (x->resumed_offset < 0) return; /* no committed offset: auto.offset.reset decided */
    int64_t from = x->resumed_offset;
    if (x->previous_last_offset > from) from = x->previous_last_offset;
    int64_t end = tl ? ss_tl_end_at(tl, x->previous_until) : -1;
    if (tl && from >= end) {
        x->caught_up = true;
        return;
    }
    range(F, tl, &x->redelivered, from, tl ? end - 1 : -1, false);
    if (!x->redelivered.set) x->caught_up = tl != NULL;
    if (tl && x->redelivered.set && unclean_sign(x) && x->previous_last_commit >= 0 && x->commit_interval_ms >= 0) {
        int64_t lend = ss_tl_end_at(tl, ss_sat_add64(x->previous_last_commit, x->commit_interval_ms));
        if (lend > end) lend = end;
        range(F, tl, &x->likely, from, lend - 1, false);
    }
}

static bool same_tp(const ss_gtp_ref *a, const ss_gtp_ref *b) {
    if (a->partition != b->partition) return false;
    if (a->topic && b->topic) return same_str(a->topic, a->topic_len, b->topic, b->topic_len);
    return a->topic_id && b->topic_id && !strcmp(a->topic_id, b->topic_id);
}

static bool holds_tp(const ss_gtp_ref *v, size_t n, const ss_gtp_ref *tp) {
    for (size_t i = 0; i < n; i++)
        if (same_tp(&v[i], tp)) return true;
    return false;
}

/* How prev let partition p go before o got it, from the membership records (ss_frevoke). */
/* The generations at or before a record: how many have an offset <= `offset` (they are in log order). */
static size_t gens_upto(const ss_group *grp, int64_t offset) {
    size_t lo = 0, hi = grp->ngenerations;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (grp->generations[mid].offset <= offset) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static const ss_gmember *member_in(const ss_ggeneration *gen, const ss_gowner *w) {
    for (size_t m = 0; m < gen->nmembers; m++) {
        const ss_gmember *mm = &gen->members[m];
        if (same_str(mm->member_id, mm->member_id_len, w->member_id, w->member_id_len)) return mm;
    }
    return NULL;
}

/* How prev let partition p go before o got it, from the membership records (ss_frevoke); only the
 * generations from prev's ownership to o's are looked at (a group's history can be long). */
static enum ss_frevoke revocation(const ss_group *grp, const ss_gpartition *p, const ss_gowner *prev,
                                  const ss_gowner *o, int64_t last) {
    size_t end = gens_upto(grp, o->from_offset);
    /* classic: the generation that gave it to o */
    if (end && grp->generations[end - 1].protocol == SS_GPROTO_CLASSIC &&
        grp->generations[end - 1].offset == o->from_offset) {
        const ss_ggeneration *gen = &grp->generations[end - 1];
        const ss_gmember *mm = member_in(gen, prev);
        if (!mm) return SS_FR_ABSENT; /* SS_FR_SESSION_TIMEOUT decided by the caller */
        /* a commit in onPartitionsRevoked comes before its JoinGroup, and the coordinator completes the
         * join within the rebalance timeout (ClassicGroup: the join phase waits at most
         * rebalanceTimeoutMs for its members) */
        if (last < 0 || mm->rebalance_timeout_ms < 0 || gen->time - last > mm->rebalance_timeout_ms)
            return SS_FR_UNKNOWN;
        /* cooperative: taken from it a generation before (KIP-429: revoked in onJoinComplete, then a
         * rejoin); its subscription then lists what it keeps */
        if (prev->to_offset != o->from_offset) return SS_FR_REJOINED;
        /* eager: ConsumerCoordinator.onJoinPrepare revokes every partition before the JoinGroup, and
         * the subscription it sends lists what it still owns (ownedPartitions, version 1+): empty */
        if (mm->owned_count < 0) return SS_FR_REJOINED_UNDECIDED;
        return mm->owned_count ? SS_FR_REJOINED_OWNING : SS_FR_REJOINED;
    }
    const ss_gassign *pending = NULL, *ack = NULL;
    bool left = false;
    size_t start = gens_upto(grp, prev->from_offset);
    for (size_t gi = start ? start - 1 : 0; gi < end; gi++) {
        const ss_ggeneration *gen = &grp->generations[gi];
        for (size_t a = 0; a < gen->nassign; a++) {
            const ss_gassign *as = &gen->assignments[a];
            if (as->offset > o->from_offset || as->offset < prev->from_offset ||
                !same_str(as->member_id, as->member_id_len, prev->member_id, prev->member_id_len))
                continue;
            if (as->left) {
                if (as->offset <= prev->to_offset || prev->to_offset < 0) left = true;
                continue;
            }
            if (holds_tp(as->pending, as->npending, &p->tp)) pending = as;
            else if (pending && !ack && !holds_tp(as->parts, as->nparts, &p->tp) &&
                     as->member_epoch > pending->member_epoch)
                ack = as;
        }
    }
    /* KIP-848: revoked, committed in between, acknowledged */
    if (pending && ack && last >= pending->time && last <= ack->time) return SS_FR_ACKED;
    if (grp->protocol == SS_GPROTO_CONSUMER && !left) return SS_FR_UNKNOWN;
    return SS_FR_ABSENT;
}

/* The member entry of prev (its session timeout) last seen before o got the partition: in the
 * generations from the one that gave prev the partition on. */
static int32_t session_timeout_of(const ss_group *grp, const ss_gowner *prev, const ss_gowner *o) {
    size_t end = gens_upto(grp, ss_sat_sub64(o->from_offset, 1)), start = gens_upto(grp, prev->from_offset);
    for (size_t gi = end; gi-- > (start ? start - 1 : 0);) {
        const ss_gmember *mm = member_in(&grp->generations[gi], prev);
        if (mm) return mm->session_timeout_ms;
    }
    return -1;
}

static void handovers(ss_findings *F, size_t gi, const ss_group *grp, const ss_gpartition *p,
                      const ss_tl_partition *tl) {
    for (size_t j = 1; j < p->nowners; j++) {
        const ss_gowner *prev = &p->owners[j - 1], *o = &p->owners[j];
        /* the same member again (a partition unowned for a generation, or a member that
         * got it back) is no handover */
        if (same_str(o->member_id, o->member_id_len, prev->member_id, prev->member_id_len)) continue;
        /* the previous owner: the last member whose assignment held it, over all its
         * ownerships in a row */
        uint64_t commits = 0;
        int64_t last = -1, last_offset = -1, interval = -1;
        bool have_last = false;
        for (size_t k = j; k-- > 0;) {
            const ss_gowner *q = &p->owners[k];
            if (!same_str(q->member_id, q->member_id_len, prev->member_id, prev->member_id_len)) break;
            commits += q->commits;
            /* its latest ownership with a commit (a commit's time may be -1: taken by its count) */
            if (!have_last && q->commits) {
                have_last = true;
                last = q->last_commit_time;
                last_offset = q->last_commit_offset;
            }
            if (interval < 0) interval = q->commit_interval_ms;
        }
        /* the group had no members between them: no handover from one to the other */
        bool empty = o->empty_offset >= 0;
        ss_finding *x = add(F, empty ? SS_FK_EMPTY_GROUP : SS_FK_HANDOVER, gi, grp, &p->tp, tl);
        if (!x) return;
        /* the same record gave the partition to both (two members assigned it in one generation:
         * a faulty or custom assignor): no handover from one to the other, a note */
        if (o->from_offset == prev->from_offset && o->from_time == prev->from_time) x->shared = true;
        /* its last commit, a transactional one whose transaction aborted (or is still open): never
         * the committed offset, though it shows the owner at work then */
        if (have_last && last_offset >= 0)
            for (size_t k = 0; k < grp->nevents; k++) {
                const ss_gevent *e = &grp->events[k];
                if ((e->kind != SS_GEV_TXN_ABORTED && e->kind != SS_GEV_TXN_OPEN) || e->commit_offset != last_offset ||
                    e->tp.partition != p->tp.partition ||
                    !same_str(e->tp.topic, e->tp.topic_len, p->tp.topic, p->tp.topic_len) ||
                    (e->first_time >= 0 && last >= 0 && e->first_time > last) ||
                    (e->kind == SS_GEV_TXN_ABORTED && last >= 0 && e->time < last))
                    continue;
                x->last_commit_outcome = e->kind == SS_GEV_TXN_ABORTED ? SS_GOUT_ABORTED : SS_GOUT_OPEN;
            }
        x->time = o->from_time;
        x->record_offset = o->from_offset;
        x->resumed_offset = o->start_committed;
        x->previous_owner = prev->member_id;
        x->previous_instance = prev->instance_id;
        x->new_owner = o->member_id;
        x->new_instance = o->instance_id;
        x->same_instance = prev->instance_id && o->instance_id &&
                           same_str(prev->instance_id, prev->instance_id_len, o->instance_id, o->instance_id_len);
        x->previous_until = prev->to_time;
        x->previous_last_commit = last;
        x->previous_last_offset = last_offset;
        x->previous_commits = commits;
        x->commit_interval_ms = interval;
        if (x->shared) continue;
        /* clean or not is said of a commit that could be late: an owner that never committed the partition
         * has none (clean stays unknown; the text says it never committed) */
        if (!commits) x->clean = -1;
        else if (interval >= 0 && prev->to_time >= 0 && last >= 0) x->clean = prev->to_time - last <= interval;
        /* a transactional commit closes the window only once its COMMIT marker is in
         * __consumer_offsets (OffsetMetadataManager.replayEndTransactionMarker): an aborted or open one
         * left the committed offset behind the owner's work */
        bool closed = x->last_commit_outcome != SS_GOUT_ABORTED && x->last_commit_outcome != SS_GOUT_OPEN;
        if (!closed && commits) x->clean = 0;
        x->revocation = empty ? SS_FR_ABSENT : revocation(grp, p, prev, o, last);
        bool revoked = x->revocation == SS_FR_ACKED || x->revocation == SS_FR_REJOINED;
        if (revoked && !closed) x->revocation = SS_FR_UNKNOWN;
        /* a revocation acknowledged, or an eager one (the generation that took it gave it away): the
         * owner's last commit can be its position when it let the partition go */
        if (x->revocation == SS_FR_ACKED || (x->revocation == SS_FR_REJOINED && prev->to_offset == o->from_offset))
            x->clean = 1;
        if (x->revocation == SS_FR_ABSENT && last >= 0) {
            int32_t st = session_timeout_of(grp, prev, o);
            if (st > 0 && ss_sat_sub64(o->from_time, last) >= st) x->revocation = SS_FR_SESSION_TIMEOUT;
        }
        if (empty) {
            empty_group(F, x, grp, p, o, tl);
            continue;
        }
        if (x->resumed_offset < 0) continue; /* no committed offset: auto.offset.reset decides */
        /* what the previous owner can have read: records present when the new owner got
         * the partition (the previous one lost it then or before) */
        int64_t end = tl ? ss_tl_end_at(tl, o->from_time) : -1;
        if (tl && x->resumed_offset >= end) {
            x->caught_up = true;
            continue;
        }
        range(F, tl, &x->redelivered, x->resumed_offset, tl ? end - 1 : -1, false);
        if (!x->redelivered.set) x->caught_up = tl != NULL;
        /* what it had read if it went on committing at its pace: records written before
         * one more interval after its last commit */
        if (tl && x->redelivered.set && last >= 0 && interval >= 0 && unclean_sign(x)) {
            int64_t lend = ss_tl_end_at(tl, ss_sat_add64(last, interval));
            if (lend > end) lend = end;
            range(F, tl, &x->likely, x->resumed_offset, lend - 1, false);
        }
    }
}

/* ---- transactions -------------------------------------------------------------------------------- */

static int txn_version(const ss_findings *F, int64_t pid, uint8_t seen, const tid **tidp) {
    const tid *t = F->ts.read ? ts_of_pid(&F->ts, pid) : NULL;
    if (tidp) *tidp = t;
    if (t && t->n) return t->r[t->n - 1].client_version >= 2 ? 2 : 1;
    if (seen & 2) return 2;
    if (seen & 1) return 1;
    return 0;
}

/* Why a producer's epoch went past `data_epoch` at an abort (or by `to_epoch`): the
 * records of its transactional id in __transaction_state, when read. */
static enum ss_fbump why_raised(const tid *t, int64_t pid, int16_t data_epoch, int16_t to_epoch) {
    if (!t) return SS_FB_UNKNOWN;
    for (size_t k = 0; k < t->n; k++) {
        const trec *r = &t->r[k];
        if (r->producer_id != pid || r->epoch <= data_epoch || (to_epoch >= 0 && r->epoch > to_epoch)) continue;
        if (r->state != 3 && r->state != 5) continue; /* PrepareAbort, CompleteAbort */
        /* abortTimedOutTransactions: txnStartTimestamp + txnTimeoutMs has passed
         * (TransactionStateManager.timedOutTransactions) */
        if (r->start >= 0 && r->update >= 0 && r->timeout_ms >= 0 && r->update - r->start >= r->timeout_ms)
            return SS_FB_TIMEOUT;
        return SS_FB_FENCED;
    }
    return SS_FB_UNKNOWN;
}

static void *keep(ss_findings *F, size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p || !SS_GROW(F->blocks, F->nblocks, F->blockcap, 16)) {
        free(p);
        F->nomem = true;
        return NULL;
    }
    F->blocks[F->nblocks++] = p;
    return p;
}

static int64_t dist(int64_t a, int64_t b) { return a > b ? a - b : b - a; }

/* The transaction's outputs: in every data partition read, the producer's
 * transaction of the same epoch that ended with the same marker (or is still
 * open). Under transaction version 2 an epoch is one transaction; under version 1
 * the producer runs them one after another under one epoch, and the one whose
 * marker lies between this transaction's neighbouring markers here is it: a
 * transaction's markers are all written before the coordinator lets the producer
 * add a partition to its next one (TransactionCoordinator: CONCURRENT_TRANSACTIONS
 * until CompleteCommit/CompleteAbort). */
static void outputs(ss_findings *F, ss_finding *x, const ss_gevent *e, bool open) {
    if (!F->data) return;
    size_t np = ss_timelines_count(F->data);
    ss_foutput *out = NULL;
    size_t n = 0, cap = 0;
    bool by_epoch = x->txn_version == 2;
    for (size_t i = 0; i < np; i++) {
        const ss_tl_partition *p = ss_timelines_at(F->data, i);
        size_t first, k = ss_tl_txns_of(p, x->producer_id, &first);
        const ss_tl_txn *best = NULL;
        for (size_t j = first; j < first + k; j++) {
            const ss_tl_txn *t = ss_tl_txn_at(p, j);
            if (t->producer_epoch != x->producer_epoch) continue;
            if (open ? t->result != SS_TL_OPEN : (t->result != SS_TL_ABORT || t->marker_epoch != x->marker_epoch))
                continue;
            if (!open && !by_epoch) {
                if (e->prev_marker_time >= 0 && t->marker_time <= e->prev_marker_time) continue;
                if (e->next_marker_time >= 0 && t->marker_time >= e->next_marker_time) continue;
            }
            if (!best || (!open && dist(t->marker_time, e->marker_time) < dist(best->marker_time, e->marker_time)))
                best = t;
        }
        if (!best) continue;
        if (!SS_GROW(out, n, cap, 4)) {
            F->nomem = true;
            break;
        }
        ss_foutput *o = &out[n++];
        o->topic = p->topic;
        o->partition = p->partition;
        o->from = best->first_offset;
        o->to = best->last_offset;
        o->records = best->records;
        o->result = best->result;
        o->by_epoch = by_epoch;
    }
    if (n) {
        ss_foutput *kept = keep(F, n, sizeof *kept);
        if (kept) {
            memcpy(kept, out, n * sizeof *kept);
            x->outputs = kept;
            x->noutputs = n;
        }
    }
    free(out);
}

static bool lists_partition(const tid *t, int32_t co_partition) {
    char want[48];
    snprintf(want, sizeof want, "__consumer_offsets-%" PRId32, co_partition);
    for (size_t i = 0; i < t->nparts; i++)
        if (!strcmp(t->parts[i], want)) return true;
    return false;
}

static void txn_finding(ss_findings *F, size_t gi, const ss_group *grp, const ss_gevent *e, const ss_tl_partition *tl) {
    bool open = e->kind == SS_GEV_TXN_OPEN;
    ss_finding *x = add(F, open ? SS_FK_OPEN_COMMIT : SS_FK_ABORTED_COMMIT, gi, grp, &e->tp, tl);
    if (!x) return;
    const tid *t;
    x->time = e->time;
    x->record_offset = e->offset;
    x->commit_offset = e->commit_offset;
    x->producer_id = e->producer_id;
    x->producer_epoch = e->producer_epoch;
    x->marker_epoch = e->marker_epoch;
    x->txn_version = txn_version(F, e->producer_id, e->txn_versions, &t);
    x->transactional_id = t ? t->id : NULL;
    if (!open) {
        /* who aborted it: its producer (abortTransaction) leaves the epoch of its data on
         * the marker (version 2: that epoch + 1); the coordinator raises it first
         * (prepareFenceProducerEpoch) */
        int raised = x->txn_version == 2   ? x->marker_epoch > x->producer_epoch + 1
                     : x->txn_version == 1 ? x->marker_epoch > x->producer_epoch
                                           : x->marker_epoch > x->producer_epoch + 1;
        bool unsure = x->txn_version == 0 && x->marker_epoch == x->producer_epoch + 1;
        if (raised) x->bump = why_raised(t, x->producer_id, x->producer_epoch, -1);
        else if (unsure) x->bump = SS_FB_UNKNOWN;
        /* its input was read; it is read again only if the application seeks back to the
         * committed offset: the consumer's position does not move on abortTransaction (Kafka
         * Streams revives its tasks from the committed offsets; examples/ExactlyOnceMessage-
         * Processor.maybeRetry: "the consumer fetch position needs to be restored to the
         * committed offset"). One that does not goes on past it, and what the aborted
         * transaction produced for these records is lost. Possible, never certain: a later
         * commit past them is what either would commit. */
        if (e->committed_before >= 0 && e->committed_before < e->commit_offset)
            range(F, tl, &x->redelivered, e->committed_before, e->commit_offset - 1, false);
    } else {
        x->age_ms = F->now >= 0 && e->time >= 0 ? F->now - e->time : -1;
        x->hanging = x->age_ms > F->opts.txn_timeout_ms;
        if (F->ts.read) {
            /* find-hanging: the coordinator does not know it, or its current transaction does
             * not hold this __consumer_offsets partition */
            const trec *last = t && t->n ? &t->r[t->n - 1] : NULL;
            x->hanging_confirmed = !last || t->deleted || last->producer_id != e->producer_id || last->state == 0 ||
                                   last->state >= 4 || !lists_partition(t, grp->coordinator_partition);
        }
    }
    outputs(F, x, e, open);
}

static void fencing(ss_findings *F, size_t gi, const ss_group *grp, const ss_gevent *e) {
    const tid *t;
    int tv = txn_version(F, e->producer_id, e->txn_versions, &t);
    enum ss_fbump bump;
    if (e->marker_aborted || e->open_before) {
        /* the transaction before it was aborted: by the coordinator for this initTransactions
         * (fenced), or on its timeout (then not a fencing: the new instance came after) */
        bump = e->marker_aborted ? why_raised(t, e->producer_id, e->old_epoch, e->producer_epoch) : SS_FB_FENCED;
        if (bump == SS_FB_UNKNOWN && e->marker_aborted) {
            /* version 2's own abort leaves epoch + 1 on the marker and goes on under it: an
             * epoch past that is an InitProducerId after a producer's own abort - a new
             * instance's initTransactions, or the same producer bumping its epoch after an
             * abortable error (KIP-360: TransactionManager.beginAbort sends EndTxn, then
             * initializeTransactions(producerIdAndEpoch) when epochBumpRequired; under either
             * version). __transaction_state cannot tell them apart either: both go through
             * prepareIncrementProducerEpoch to Empty at epoch + 1. */
            bool own = tv == 2   ? e->marker_epoch == e->old_epoch + 1
                       : tv == 1 ? e->marker_epoch == e->old_epoch
                                 : false;
            if (own) bump = SS_FB_INIT_OR_BUMP;
        }
    } else {
        bump = SS_FB_INIT;
    }
    if (bump == SS_FB_TIMEOUT) return; /* reported with the aborted commit */
    ss_finding *x = add(F, SS_FK_FENCING, gi, grp, NULL, NULL);
    if (!x) return;
    x->time = e->time;
    x->record_offset = e->offset;
    x->producer_id = e->producer_id;
    x->producer_epoch = e->producer_epoch;
    x->old_epoch = e->old_epoch;
    x->marker_epoch = e->marker_epoch;
    x->txn_version = tv;
    x->transactional_id = t ? t->id : NULL;
    x->bump = bump;
    if (e->marker_aborted && bump != SS_FB_INIT && bump != SS_FB_INIT_OR_BUMP) x->aborted_at = e->marker_time;
}

/* ---- the moves of the committed offset ------------------------------------------------------------ */

/* The committed offset moved back from A (e->last_offset) to B (e->new_offset). The records
 * B..A-1 come again only where the group had read them: up to what a reader of it committed
 * (an admin's commit moving the offset forward is no read; ClassicGroup.validateOffsetCommit
 * takes commits without a generation only in an empty group) and to what was present when A
 * was committed (a commit past the log end reads nothing). While the group has members a
 * rewind can also be a late commit (a commitAsync of an older position landing after a newer
 * one, or a second consumer of the partition): the member's position did not move, and
 * nothing is read again. Only the group's later commits stepping through B..A show it read
 * them again. The rest of the range is possible. */
static void rewind_finding(ss_findings *F, size_t gi, const ss_group *grp, const ss_gevent *e,
                           const ss_tl_partition *tl) {
    ss_finding *x = add(F, e->had_members ? SS_FK_REWIND : SS_FK_RESET, gi, grp, &e->tp, tl);
    if (!x) return;
    x->time = e->time;
    x->record_offset = e->offset;
    x->from_offset = e->last_offset;
    x->to_offset = e->new_offset;
    int64_t A = e->last_offset, B = e->new_offset;
    /* what can come again was present at the rewind (a record written later is read once) */
    if (tl) {
        int64_t end = ss_tl_end_at(tl, e->time);
        if (end < A) A = end;
    }
    int64_t bound = A;
    if (e->reader_max < bound) bound = e->reader_max;
    if (tl && e->old_time >= 0) {
        int64_t end = ss_tl_end_at(tl, e->old_time);
        if (end < bound) bound = end;
    }
    if (bound < B) bound = B;
    x->read_bound = bound;
    int64_t sure = bound;
    bool passed;
    if (e->had_members) {
        /* a commit at S between them puts the member's position there, after the rewind; a
         * later one past the old offset then read on through it */
        x->stepped = e->step_max > B;
        if (!x->stepped) sure = B;
        else if (e->later_max < A && e->step_max < sure) sure = e->step_max;
        passed = true; /* what a later commit stepped through was read again */
    } else {
        passed = e->later_max >= sure; /* an empty group: its next consumer resumes at B */
    }
    if (A <= B) return; /* nothing present then lay between them */
    if (sure >= A) {
        range(F, tl, &x->redelivered, B, A - 1, passed);
        return;
    }
    range(F, tl, &x->redelivered, B, A - 1, false);
    if (sure > B) range(F, tl, &x->certain_part, B, sure - 1, passed);
}

static const ss_gpartition *part_of(const ss_group *grp, const ss_gtp_ref *tp);

/* A reset forward's certain part: the next owner of the partition got it with the committed offset this reset
 * left (ss_gowner.start_committed: it resumed there, ConsumerCoordinator.onJoinComplete -> OffsetFetch, no reset
 * policy involved), so it read nothing below it; the records below it written after the owner before the reset lost
 * the partition (the log end then, ss_tl_end_at) were delivered to no member: none owned the partition between
 * those two. What that owner read past its last commit before it lost the partition stays possible. Nothing
 * without an owner on both sides (a group that only commits, or none since). */
static void certain_skip(ss_findings *F, ss_finding *x, const ss_tl_partition *tl, const ss_gpartition *p,
                         const ss_gevent *e) {
    const ss_gowner *before = NULL, *next = NULL;
    for (size_t k = 0; p && k < p->nowners; k++) {
        const ss_gowner *o = &p->owners[k];
        if (o->from_offset <= e->offset) before = o;
        else if (!next || o->from_offset < next->from_offset) next = o;
    }
    if (!before || !next || before->to_offset < 0 || before->to_offset > e->offset || before->to_time < 0) return;
    if (next->start_committed != e->new_offset || e->new_offset == INT64_MIN) return; /* new_offset - 1 below */
    int64_t from = ss_tl_end_at(tl, before->to_time);
    if (from < e->last_offset) from = e->last_offset;
    range(F, tl, &x->certain_skipped, from, e->new_offset - 1, true);
}

/* The committed offset moved forward while the group was empty (a plain commit without a
 * generation: an admin's): the records between the old and the new offset may never be
 * received - possible, not certain: a former member may have read past its last commit. */
static void advanced_finding(ss_findings *F, size_t gi, const ss_group *grp, const ss_gevent *e,
                             const ss_tl_partition *tl) {
    ss_finding *x = add(F, SS_FK_RESET, gi, grp, &e->tp, tl);
    if (!x) return;
    x->time = e->time;
    x->record_offset = e->offset;
    x->from_offset = e->last_offset;
    x->to_offset = e->new_offset;
    range(F, tl, &x->skipped, e->last_offset, e->new_offset - 1, false);
    if (tl && e->new_offset == ss_tl_end_at(tl, e->time))
        x->consistent_with = "kafka-consumer-groups.sh --reset-offsets --to-latest";
    if (tl) certain_skip(F, x, tl, part_of(grp, &e->tp), e);
}

static void deleted_finding(ss_findings *F, size_t gi, const ss_group *grp, const ss_gevent *e,
                            const ss_tl_partition *tl, const ss_gpartition *p) {
    ss_finding *x = add(F, SS_FK_OFFSETS_DELETED, gi, grp, &e->tp, tl);
    if (!x) return;
    x->time = e->time;
    x->record_offset = e->offset;
    x->last_committed = e->last_offset;
    x->restart_offset = e->restart_offset;
    x->restart_time = e->restart_time;
    int64_t L = e->last_offset, R = e->restart_offset;
    /* the new generation: the first ownership of the partition after the tombstone, up to the first
     * commit (the consumer's OffsetFetch found nothing and auto.offset.reset put its position at the
     * log start or end then: KafkaConsumer, SubscriptionState.resetInitializingPositions) */
    for (size_t k = 0; p && k < p->nowners; k++) {
        const ss_gowner *o = &p->owners[k];
        if (o->from_offset <= e->offset || (e->restart_record >= 0 && o->from_offset > e->restart_record)) continue;
        x->restart_generation = o->from_time;
        break;
    }
    if (tl && x->restart_generation >= 0) x->restart_log_end = ss_tl_end_at(tl, x->restart_generation);
    if (L < 0 || R < 0 || R == L) return;
    /* a first commit below the log end when the generation formed: not latest's; the consumer began at
     * or below it (earliest, by_duration (KIP-1106) or a seek), down to the log start then, which is not
     * on disk: the log start read now bounds it from above, so the range runs from there (possible) */
    bool below_end = x->restart_log_end >= 0 && R < x->restart_log_end;
    if (R < L) {
        /* committed lower than before: what lies between is read again */
        if (below_end && tl && tl->log_start < R) {
            range(F, tl, &x->redelivered, tl->log_start, L - 1, false);
            range(F, tl, &x->certain_part, R, L - 1, e->later_max >= L);
        } else {
            range(F, tl, &x->redelivered, R, L - 1, e->later_max >= L);
        }
        if (tl && (R <= tl->log_start || below_end)) x->consistent_with = "auto.offset.reset=earliest";
    } else if (below_end && R < x->restart_log_end) {
        /* committed higher, yet below the log end when it began: not latest either; if it began at the
         * log start, the records up to the old offset came again, and it read those above */
        range(F, tl, &x->redelivered, tl->log_start, L - 1, false);
        range(F, tl, &x->skipped, L, R - 1, false);
        x->consistent_with = "auto.offset.reset=earliest";
    } else {
        /* committed higher: records the group may never have received. Possible, not
         * certain: the log shows where the group committed, not where it restarted (a
         * consumer that restarted lower and read up to there commits the same) */
        range(F, tl, &x->skipped, L, R - 1, false);
        if (tl && R == (x->restart_log_end >= 0 ? x->restart_log_end : ss_tl_end_at(tl, e->restart_time)))
            x->consistent_with = "auto.offset.reset=latest";
    }
}

static void range_finding(ss_findings *F, size_t gi, const ss_group *grp, const ss_gevent *e,
                          const ss_tl_partition *tl) {
    ss_finding *x = add(F, SS_FK_OUT_OF_RANGE, gi, grp, &e->tp, tl);
    if (!x) return;
    x->time = e->time;
    x->record_offset = e->offset;
    x->commit_offset = e->commit_offset;
    x->log_start = e->log_start;
    x->log_end = e->log_end;
    x->commits = e->count;
    x->last_time = e->last_time;
    x->past_copy = tl && e->commit_offset > tl->next_offset;
}

/* ---- the whole ------------------------------------------------------------------------------------ */

static int cmp_finding(const void *a, const void *b) {
    const ss_finding *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    bool xp = x->tp.topic || x->tp.topic_id, yp = y->tp.topic || y->tp.topic_id;
    if (xp != yp) return xp ? -1 : 1;
    if (xp) {
        int c = strcmp(x->tp.topic ? x->tp.topic : "", y->tp.topic ? y->tp.topic : "");
        if (!c) c = strcmp(x->tp.topic_id ? x->tp.topic_id : "", y->tp.topic_id ? y->tp.topic_id : "");
        if (c) return c;
        if (x->tp.partition != y->tp.partition) return x->tp.partition < y->tp.partition ? -1 : 1;
    }
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    if (x->record_offset != y->record_offset) return x->record_offset < y->record_offset ? -1 : 1;
    return x->kind < y->kind ? -1 : x->kind > y->kind;
}

/* the group's partition of an event */
static const ss_gpartition *part_of(const ss_group *grp, const ss_gtp_ref *tp) {
    for (size_t k = 0; k < grp->npartitions; k++) {
        const ss_gpartition *p = &grp->partitions[k];
        if (p->tp.partition == tp->partition && same_str(p->tp.topic, p->tp.topic_len, tp->topic, tp->topic_len))
            return p;
    }
    return NULL;
}

/* The findings of group i, added to F's. */
static void build_group(ss_findings *F, size_t i) {
    ss_groups *g = F->g;
    const ss_group *grp = ss_groups_at(g, i);
    for (size_t k = 0; k < grp->npartitions; k++) {
        const ss_gpartition *p = &grp->partitions[k];
        const ss_tl_partition *tl = tl_of(F, &p->tp);
        handovers(F, i, grp, p, tl);
        /* the committed offset at the end below the data's log start: a consumer
         * resuming there gets OFFSET_OUT_OF_RANGE, and auto.offset.reset decides */
        if (tl && p->committed && tl->next_offset >= 0 && p->offset < tl->log_start) {
            ss_finding *x = add(F, SS_FK_OUT_OF_RANGE, i, grp, &p->tp, tl);
            if (!x) break;
            x->time = p->commit_time;
            x->record_offset = p->record_offset;
            x->commit_offset = p->offset;
            x->log_start = tl->log_start;
            x->log_end = tl->next_offset;
            x->below = true;
            x->commits = 1;
            x->last_time = p->commit_time;
        }
    }
    for (size_t k = 0; k < grp->nevents; k++) {
        const ss_gevent *e = &grp->events[k];
        const ss_tl_partition *tl = tl_of(F, &e->tp);
        switch (e->kind) {
        case SS_GEV_REWIND: rewind_finding(F, i, grp, e, tl); break;
        case SS_GEV_ADVANCED: advanced_finding(F, i, grp, e, tl); break;
        case SS_GEV_OFFSETS_DELETED: deleted_finding(F, i, grp, e, tl, part_of(grp, &e->tp)); break;
        case SS_GEV_OUT_OF_RANGE: range_finding(F, i, grp, e, tl); break;
        case SS_GEV_TXN_ABORTED:
        case SS_GEV_TXN_OPEN: txn_finding(F, i, grp, e, tl); break;
        case SS_GEV_EPOCH_BUMP: fencing(F, i, grp, e); break;
        default: break;
        }
    }
}

ss_findings *ss_findings_build(ss_groups *g, ss_timelines *data, const ss_inputs *in, const ss_findings_opts *opts) {
    ss_findings *F = calloc(1, sizeof *F);
    if (!F) return NULL;
    F->g = g;
    F->data = data;
    if (opts) F->opts = *opts;
    else ss_findings_opts_default(&F->opts);
    if (!ts_read(&F->ts, in)) F->nomem = true;
    /* "now": given, or the newest timestamp read anywhere */
    int64_t now = data ? ss_timelines_max_timestamp(data) : -1;
    if (F->ts.max_ts > now) now = F->ts.max_ts;
    size_t ng = ss_groups_count(g);
    for (size_t i = 0; i < ng; i++) {
        const ss_group *grp = ss_groups_at(g, i);
        if (grp->last_time > now) now = grp->last_time;
    }
    F->now = F->opts.has_now ? F->opts.now_ms : now;
    if (!F->opts.per_group)
        for (size_t i = 0; i < ng && !F->nomem; i++) build_group(F, i);
    if (F->n > 1) qsort(F->v, F->n, sizeof *F->v, cmp_finding);
    if (!F->nomem && !net_build(F, 0, F->opts.per_group ? 0 : ng)) F->nomem = true;
    if (F->nomem) {
        ss_findings_free(F);
        return NULL;
    }
    return F;
}

void ss_findings_free(ss_findings *f) {
    if (!f) return;
    free(f->v);
    for (size_t i = 0; i < f->nblocks; i++) free(f->blocks[i]);
    free(f->blocks);
    net_free(f);
    ts_free(&f->ts);
    free(f);
}

bool ss_findings_select(ss_findings *f, size_t gi) {
    f->n = 0;
    for (size_t i = 0; i < f->nblocks; i++) free(f->blocks[i]);
    f->nblocks = 0;
    f->nomem = false;
    build_group(f, gi);
    if (f->n > 1) qsort(f->v, f->n, sizeof *f->v, cmp_finding);
    if (!f->nomem && !net_build(f, gi, gi + 1)) f->nomem = true;
    return !f->nomem;
}

size_t ss_findings_count(const ss_findings *f) { return f ? f->n : 0; }
const ss_finding *ss_findings_at(const ss_findings *f, size_t i) { return &f->v[i]; }
int64_t ss_findings_now(const ss_findings *f) { return f->now; }
bool ss_findings_txn_state_read(const ss_findings *f) { return f->ts.read; }

enum ss_fwhy ss_findings_why_none(ss_findings *f, const char *topic, size_t topic_len, int32_t partition, int64_t time,
                                  const char *group_id, int32_t *coordinator, int64_t *complete_from) {
    ss_groups *g = f->g;
    if (coordinator) *coordinator = -1;
    if (complete_from) *complete_from = -1;
    size_t nl = ss_groups_log_count(g);
    if (!nl) return SS_FW_NO_HISTORY;
    int32_t want = -1;
    if (group_id) {
        want = ss_coordinator_partition((const uint8_t *)group_id, strlen(group_id), ss_groups_partition_count(g));
        if (coordinator) *coordinator = want;
        bool read = false;
        for (size_t i = 0; i < nl; i++) read = read || ss_groups_log_at(g, i)->partition == want;
        if (!read) return SS_FW_NOT_READ;
    }
    bool any = false;
    for (size_t i = 0; i < ss_groups_count(g); i++) {
        const ss_group *grp = ss_groups_at(g, i);
        if (group_id && !same_str(grp->id, grp->id_len, group_id, strlen(group_id))) continue;
        bool has = false;
        for (size_t k = 0; k < grp->npartitions && !has; k++) {
            const ss_gtp_ref *t = &grp->partitions[k].tp;
            has = t->partition == partition && same_str(t->topic, t->topic_len, topic, topic_len);
        }
        if (!has) continue;
        any = true;
        const ss_glog *l = ss_groups_log_at(g, grp->log);
        if (grp->first_offset < l->complete_from && l->complete_from_time > time) {
            if (coordinator) *coordinator = grp->coordinator_partition;
            if (complete_from) *complete_from = l->complete_from_time;
            return SS_FW_COMPACTED;
        }
    }
    if (any) return SS_FW_NOTHING;
    if (!group_id && (int64_t)nl < ss_groups_partition_count(g)) return SS_FW_NOT_READ;
    return SS_FW_NO_GROUP;
}
