/* segscan - consumer groups: lag and status (segscan/lag.h).
 *
 * While a __consumer_offsets partition is replayed (offsets.c), each commit
 * that becomes a partition's committed offset is noted in that partition's
 * window: its last LAG_WINDOW commits, as Burrow's in-memory storage keeps a
 * ring of `intervals` offsets per partition (linkedin/Burrow
 * core/internal/storage/inmemory.go, addConsumerOffset; its min-distance
 * defaults to 0, so every commit takes a slot). An offset tombstone empties
 * the window: Kafka's state has no committed offset then, and the commits
 * before it say nothing of the consumer that commits after.
 *
 * When a group is asked for, each window is evaluated as Burrow's evaluator
 * does (core/internal/evaluator/caching.go): the lag of each commit is the
 * data partition's log end at the commit's time less its offset (Burrow: the
 * broker's offset it last fetched), the current lag the log end at "now" less
 * the last offset, then calculatePartitionStatus's rules in its order.
 */
#include <stdlib.h>
#include <string.h>

#include "base/javaint.h"
#include "groups_int.h"
#include "segscan/lag.h"

/* the ring kept during the replay fills ss_plag.commits */
_Static_assert(LAG_WINDOW == SS_LAG_INTERVALS, "the replay's window is Burrow's intervals");

/* ---- names ---------------------------------------------------------------------------------------- */

const char *ss_lag_status_name(int status) {
    switch (status) {
    case SS_LAG_OK: return "OK";
    case SS_LAG_WARN: return "WARN";
    case SS_LAG_ERR: return "ERR";
    case SS_LAG_STOP: return "STOP";
    case SS_LAG_STALL: return "STALL";
    case SS_LAG_REWIND: return "REWIND";
    default: return "unknown";
    }
}

const char *ss_lag_why_name(int why) {
    switch (why) {
    case SS_LAGW_KNOWN: return "known";
    case SS_LAGW_NO_DATA: return "no-data-partition";
    case SS_LAGW_NO_COMMIT: return "no-committed-offset";
    case SS_LAGW_NO_TOPIC: return "topic-unknown";
    default: return "not-kept";
    }
}

/* ---- the evaluation ------------------------------------------------------------------------------- */

/* The window of view partition p of group `local` of L: the ring of the gpart that names it (commits
 * name their topic; a partition known by id only from the assignments has none). NULL when none. */
static const glagw *window_of(glog *L, uint32_t local, const ss_gpartition *p) {
    if (!p->tp.topic) return NULL;
    const gdone gc = *gv_group(L, local);
    for (uint32_t i = 0; i < gc.ntps; i++) {
        uint32_t idx = gv_list(L, gc.tps_at + i);
        const gpart *t = gv_tp(L, idx);
        if (t->partition != p->tp.partition || !t->topic) continue;
        if (strlen(t->topic) != p->tp.topic_len || memcmp(t->topic, p->tp.topic, p->tp.topic_len) != 0) continue;
        if (idx < L->nlagw && L->lagw[idx].n) return &L->lagw[idx];
    }
    return NULL;
}

static int64_t lag_of(int64_t end, int64_t offset) {
    /* Burrow, addConsumerOffset and fetchConsumer: an offset past the broker's counts as lag 0 */
    return end > offset ? ss_sat_sub64(end, offset) : 0;
}

/* The age at `time` of the first record at or after `offset` (the first unconsumed one), present
 * before `end`: time - the maxTimestamp of the data batch holding it (the record's own timestamp
 * is at most that, so under CreateTime the age is a lower bound). 0 when no record is unconsumed,
 * -1 when the batch has no timestamp. */
static int64_t age_at(const ss_tl_partition *tp, int64_t offset, int64_t end, int64_t time) {
    if (offset >= end) return 0;
    size_t n = ss_tl_batch_count(tp), lo = 0, hi = n;
    ss_tl_batch b;
    while (lo < hi) { /* the first batch whose last offset is at or after `offset` */
        size_t mid = lo + (hi - lo) / 2;
        ss_tl_batch_at(tp, mid, &b);
        if (b.last_offset < offset) lo = mid + 1;
        else hi = mid;
    }
    for (; lo < n; lo++) {
        ss_tl_batch_at(tp, lo, &b);
        if (b.base_offset >= end) return 0; /* only markers before the end: nothing to read */
        if (b.control || b.records == 0) continue;
        if (b.max_timestamp < 0) return -1;
        return time > b.max_timestamp ? ss_sat_sub64(time, b.max_timestamp) : 0;
    }
    return 0;
}

/* linkedin/Burrow core/internal/evaluator/caching.go, calculatePartitionStatus: the rules in its
 * order, the first that holds decides. */
static int burrow_status(const ss_lag_commit *w, size_t n, int64_t current_lag, int64_t now, int *rule) {
    *rule = 1;
    /* Rule 1 (isLagAlwaysNotZero): a lag of zero anywhere in the window, or now, is OK */
    if (current_lag <= 0) return SS_LAG_OK;
    for (size_t i = 0; i < n; i++)
        if (w[i].lag == 0) return SS_LAG_OK;
    /* Rule 2 (checkIfOffsetsRewind): an offset lower than the one before */
    *rule = 2;
    for (size_t i = 1; i < n; i++)
        if (w[i].offset < w[i - 1].offset) return SS_LAG_REWIND;
    /* Rule 3 (checkIfOffsetsStopped): the time since the last commit is more than the window spans */
    *rule = 3;
    if (ss_sat_sub64(now, w[n - 1].time) > ss_sat_sub64(w[n - 1].time, w[0].time)) return SS_LAG_STOP;
    /* Rule 4 (checkIfOffsetsStalled): every commit of the window the same offset */
    *rule = 4;
    bool same = true;
    for (size_t i = 1; i < n && same; i++) same = w[i].offset == w[i - 1].offset;
    if (same) return SS_LAG_STALL;
    /* Rule 5 (checkIfLagNotDecreasing): the lag never went down from one commit to the next */
    *rule = 5;
    for (size_t i = 1; i < n; i++)
        if (w[i].lag < w[i - 1].lag) {
            *rule = 0;
            return SS_LAG_OK;
        }
    return SS_LAG_WARN;
}

bool ss_group_lag(ss_groups *G, size_t gi, size_t k, const ss_timelines *tl, int64_t now, ss_plag *out) {
    memset(out, 0, sizeof *out);
    if (gi >= G->ngroups) return false;
    const ss_group *g = ss_groups_at(G, gi);
    if (k >= g->npartitions) return false;
    const ss_gpartition *p = &g->partitions[k];
    /* a negative offset is no position (OffsetAndMetadata refuses one; -1 is Kafka's "no offset"):
     * no lag is measured from it (decided below on the offset that stands at "now") */
    bool at_end = p->committed && p->offset >= 0;
    out->committed = at_end ? p->offset : -1;
    out->commit_time = at_end ? p->commit_time : -1;
    out->now = now;
    out->log_end = out->high_watermark = out->lag = out->lag_hw = out->age_ms = -1;
    out->log_end_at_commit = out->lag_at_commit = out->age_at_commit_ms = -1;
    const ss_tl_partition *tp =
        tl && p->tp.topic ? ss_timelines_find(tl, p->tp.topic, p->tp.topic_len, p->tp.partition) : NULL;
    if (!p->tp.topic) out->why = SS_LAGW_NO_TOPIC;
    else if (!tp || tp->next_offset < 0) out->why = SS_LAGW_NO_DATA;
    else if (!p->committed) out->why = SS_LAGW_NO_COMMIT;
    else if (!G->opts.data) out->why = SS_LAGW_NOT_KEPT;
    if (tp) {
        out->basis = (int)tp->basis;
        out->high_watermark = tp->input ? tp->input->high_watermark : -1;
        if (tp->next_offset >= 0) out->log_end = ss_tl_end_at(tp, now);
    }
    if (out->why != SS_LAGW_KNOWN) {
        out->status = SS_LAG_UNKNOWN;
        return true;
    }
    /* Burrow's window: the ring, oldest first; with a "now" before some of its commits, the
     * window as it stood then: the kept commits up to it */
    const struct gpub *x = &G->groups[gi];
    glog *L = &G->logs[x->log].L;
    const glagw *w = window_of(L, x->local, p);
    bool cut = false;
    if (w) {
        size_t start = w->n < LAG_WINDOW ? 0 : w->pos;
        for (size_t i = 0; i < w->n; i++) {
            size_t s = (start + i) % LAG_WINDOW;
            if (w->time[s] > now) {
                cut = true;
                continue;
            }
            ss_lag_commit *e = &out->commits[out->ncommits++];
            e->time = w->time[s];
            e->offset = w->offset[s];
            e->log_end = ss_tl_end_at(tp, e->time);
            e->lag = lag_of(e->log_end, e->offset);
        }
    }
    if (!out->ncommits) {
        /* the committed offset came from a commit the window did not keep (memory ran out), or
         * "now" is before every commit kept: what was committed then is not known */
        out->why = SS_LAGW_NOT_KEPT;
        out->status = SS_LAG_UNKNOWN;
        out->committed = out->commit_time = -1;
        return true;
    }
    if (cut) {
        /* the committed offset at "now": the last commit kept up to it */
        out->committed = out->commits[out->ncommits - 1].offset;
        out->commit_time = out->commits[out->ncommits - 1].time;
        out->before_end = true;
    }
    if (out->committed < 0) { /* the offset standing at "now" is no position (above) */
        out->why = SS_LAGW_NO_COMMIT;
        out->status = SS_LAG_UNKNOWN;
        out->committed = out->commit_time = -1;
        out->ncommits = 0;
        out->before_end = false;
        return true;
    }
    int64_t c = out->committed;
    out->lag = lag_of(out->log_end, c);
    if (out->high_watermark >= 0) out->lag_hw = lag_of(out->high_watermark, c);
    out->age_ms = age_at(tp, c, out->log_end, now);
    out->log_end_at_commit = ss_tl_end_at(tp, out->commit_time);
    out->lag_at_commit = lag_of(out->log_end_at_commit, c);
    out->age_at_commit_ms = age_at(tp, c, out->log_end_at_commit, out->commit_time);
    out->status = burrow_status(out->commits, out->ncommits, out->lag, now, &out->rule);
    return true;
}

bool ss_group_lag_sum(ss_groups *G, size_t gi, const ss_timelines *tl, int64_t now, ss_glag *out) {
    memset(out, 0, sizeof *out);
    out->total_lag = out->max_lag = -1;
    if (gi >= G->ngroups) return false;
    size_t n = ss_groups_at(G, gi)->npartitions;
    out->partitions = n;
    bool unknown = false;
    for (size_t k = 0; k < n; k++) {
        ss_plag pl;
        if (!ss_group_lag(G, gi, k, tl, now, &pl)) return false;
        if (pl.status == SS_LAG_UNKNOWN) {
            unknown = true;
            continue;
        }
        out->evaluated++;
        if (pl.status > out->worst) out->worst = pl.status;
        out->total_lag = ss_sat_add64(out->total_lag < 0 ? 0 : out->total_lag, pl.lag); /* lags up to Long.MAX_VALUE */
        if (pl.lag > out->max_lag) {
            out->max_lag = pl.lag;
            out->max_lag_part = k;
        }
    }
    /* caching.go, evaluateConsumerStatus: the worst partition, a status past ERR counted as ERR */
    int st = out->worst > SS_LAG_ERR ? SS_LAG_ERR : out->worst;
    if (st != SS_LAG_ERR && unknown) st = SS_LAG_UNKNOWN;
    out->status = st;
    return true;
}
