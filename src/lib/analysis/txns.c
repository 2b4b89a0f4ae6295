/* segscan - the analysis's transactions: a producer's transactional data
 * opens one, its COMMIT or ABORT marker ends it; at the end of a partition
 * the open ones (or of unknown outcome, when a later segment was not given),
 * the last stable offset and what read_committed consumers see; once every
 * partition is read, "now", the age of the open ones and whether they hang,
 * as kafka-transactions.sh find-hanging (TransactionsCommand.java) judges.
 *
 * Every batch counts here whatever the window: a marker outside it still
 * ends its transaction, data outside it still makes an ABORT non-empty; the
 * window only chooses which transactions are listed (a batch of theirs, data
 * or marker, lies in it) and counted into the partitions. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "analysis/analysis.h"
#include "decode/txn_ids.h"

static bool listed_push(ss_analysis *a) {
    uint8_t z = 0;
    SS_VEC_PUSH(a->txn_listed, z, a->nomem = true; return false);
    return true;
}

uint32_t an_txn_for_data(ss_analysis *a, uint32_t part, const ss_batch *b) {
    uint32_t *v = km_get(&a->km_txn, b->producer_id, true, NULL);
    if (!v) {
        a->nomem = true;
        return NONE32;
    }
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
    t.first_record_timestamp = -1;
    t.producer_last_timestamp = b->max_timestamp;
    t.marker_timestamp = -1;
    t.hanging_confirmed = -1;
    if (!listed_push(a)) return NONE32;
    SS_VEC_PUSH(a->txns, t, a->nomem = true; return NONE32);
    *v = (uint32_t)(a->txns.n - 1);
    return *v;
}

/* Segment files of the partition not given, whose base offset is above (or below) `offset`. */
static bool not_given_above(const ss_input_partition *ip, int64_t offset) {
    for (size_t i = 0; i < ip->segments_not_given; i++)
        if (ip->not_given_offsets[i] > offset) return true;
    return false;
}

static bool not_given_below(const ss_input_partition *ip, int64_t offset) {
    return ip->segments_not_given > 0 && ip->not_given_offsets[0] < offset;
}

void an_txn_marker(ss_analysis *a, uint32_t part, const ss_batch *b, const an_mark *r, bool in_window) {
    enum ss_txn_result result = r->type == SS_CTRL_COMMIT ? SS_TXN_COMMIT : SS_TXN_ABORT;
    uint32_t *v = km_get(&a->km_txn, b->producer_id, false, NULL);
    ss_an_txn *t;
    size_t ti;
    if (v && *v != NONE32) {
        ti = *v;
        t = &a->txns.v[ti];
        *v = NONE32;
    } else {
        /* no data of it was read: its data may be below the log start offset (deleteRecords,
         * retention) or in an earlier segment file not given; then it is not empty, its data
         * is not there to read */
        uint32_t *h = km_get(&a->km_hidden, b->producer_id, false, NULL);
        bool hidden = h && *h == 1;
        bool not_read = !hidden && not_given_below(a->parts[part].input, r->offset);
        ss_an_txn e;
        memset(&e, 0, sizeof e);
        e.partition = part;
        e.producer_id = b->producer_id;
        e.producer_epoch = b->producer_epoch;
        e.first_offset = e.last_offset = r->offset;
        e.first_timestamp = b->max_timestamp;
        e.first_record_timestamp = -1;
        e.producer_last_timestamp = b->max_timestamp;
        e.empty = !hidden && !not_read;
        e.below_log_start = hidden;
        e.data_not_read = not_read;
        e.hanging_confirmed = -1;
        if (!listed_push(a)) return;
        SS_VEC_PUSH(a->txns, e, a->nomem = true; return );
        ti = a->txns.n - 1;
        t = &a->txns.v[ti];
    }
    uint32_t *h = km_get(&a->km_hidden, b->producer_id, false, NULL);
    if (h) *h = 0;
    t->marker_offset = r->offset;
    t->marker_epoch = b->producer_epoch;
    t->marker_timestamp = b->max_timestamp;
    t->coordinator_epoch = r->coordinator_epoch;
    t->result = result;
    if (in_window) a->txn_listed.v[ti] = 1;
}

/* The kept records of batch bi that lie in the window. */
static uint64_t window_records(const ss_analysis *a, uint32_t bi) {
    const an_batch *b = &a->batches.v[bi];
    if (b->flags & BF_OUT) return 0;
    if (!(b->flags & BF_PART)) return (uint64_t)b->nrec;
    size_t lo = 0, hi = a->partial.n; /* pushed in batch order */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->partial.v[mid].batch < bi) lo = mid + 1;
        else hi = mid;
    }
    return lo < a->partial.n && a->partial.v[lo].batch == bi ? a->partial.v[lo].nin : 0;
}

void an_finish_partition(ss_analysis *a, uint32_t part, size_t txn_first) {
    ss_an_partition *P = &a->parts[part];
    const ss_input_partition *ip = P->input;
    /* the first offset no read_committed consumer reads past: the earliest transaction
     * whose outcome is not known (DESIGN: the LSO) */
    int64_t unresolved = -1;
    bool begins_unread = false; /* an unresolved one may begin in an earlier segment not given */
    for (size_t i = txn_first; i < a->txns.n; i++) {
        ss_an_txn *t = &a->txns.v[i];
        /* no marker read, and a hole after its first offset: the marker may have been there
         * (incomplete, not open: neither find-hanging's candidate nor the LSO's) */
        if (t->result == SS_TXN_OPEN && an_hole_after(a, part, t->first_offset)) {
            t->result = SS_TXN_UNKNOWN;
            t->spans_hole = true;
        }
        /* no marker read, and a later segment file was not given: it may lie there */
        if (t->result == SS_TXN_OPEN && not_given_above(ip, t->last_offset)) t->result = SS_TXN_UNKNOWN;
        /* an earlier segment file not given may hold more of its data (it may begin there) */
        if (!t->below_log_start && not_given_below(ip, t->first_offset)) t->data_not_read = true;
        if ((t->result == SS_TXN_OPEN || t->result == SS_TXN_UNKNOWN) && t->data_not_read) begins_unread = true;
        if ((t->result == SS_TXN_OPEN || t->result == SS_TXN_UNKNOWN) &&
            (unresolved < 0 || t->first_offset < unresolved))
            unresolved = t->first_offset;
        if (!a->txn_listed.v[i] && a->windowed) continue;
        switch (t->result) {
        case SS_TXN_OPEN:
            P->txn_open++;
            P->open_txn_records += t->records;
            break;
        case SS_TXN_UNKNOWN: P->txn_unknown++; break;
        case SS_TXN_COMMIT: P->txn_committed++; break;
        case SS_TXN_ABORT: P->txn_aborted++; break;
        }
        if (t->empty) {
            P->txn_empty++;
            if (t->result == SS_TXN_ABORT) P->txn_empty_aborted++;
        }
    }
    /* a later segment file not given: the log's end, and so the LSO, is not known */
    P->lso_unknown = a->log_end < 0 ? ip->segments_not_given > 0 : not_given_above(ip, a->log_end - 1);
    if (begins_unread) P->lso_unknown = true;
    int64_t lso = unresolved >= 0 ? unresolved : a->log_end;
    int64_t hw = ip->high_watermark;
    if (hw >= 0 && (lso < 0 || lso > hw)) {
        lso = hw;
        P->lso_bounded_by_hw = true;
    }
    int64_t rc_bound = lso >= 0 ? lso : INT64_MAX;
    if (P->lso_unknown) {
        rc_bound = unresolved >= 0 ? unresolved : INT64_MAX;
        if (hw >= 0 && hw < rc_bound) rc_bound = hw;
        lso = -1;
        P->lso_bounded_by_hw = false;
    }
    P->lso = lso;
    for (size_t i = a->part_first_batch; i < a->batches.n; i++) {
        an_batch *b = &a->batches.v[i];
        if (b->txn != NONE32) {
            enum ss_txn_result res = a->txns.v[b->txn].result;
            if (res == SS_TXN_ABORT) {
                b->flags |= BF_ABORTED;
                P->aborted_records += window_records(a, (uint32_t)i);
                continue;
            }
            if (res == SS_TXN_OPEN) b->flags |= BF_OPEN;
        }
        if (b->flags & (BF_CTRL | BF_OUT)) continue;
        if (b->base_offset >= rc_bound) continue;
        uint64_t nin = window_records(a, (uint32_t)i);
        if (b->last_offset < rc_bound) P->read_committed_records += nin;
        else {
            int64_t below = sat_sub(rc_bound, b->base_offset);
            P->read_committed_records += (uint64_t)below < nin ? (uint64_t)below : nin;
        }
    }
}

/* Is some partition of __transaction_state among the inputs? */
static bool has_txn_state(const ss_analysis *a) {
    for (size_t i = 0; i < a->nparts; i++)
        if (!strcmp(a->parts[i].input->topic, "__transaction_state")) return true;
    return false;
}

/* find-hanging's second step (TransactionsCommand.filterHangingTransactions): a candidate
 * hangs unless the coordinator's current state of the producer's transactional id (found by
 * producer id, as listTransactions' filterProducerIds does) lists the partition - then it will
 * write the marker. Empty and Complete* states list no partition. */
static void judge_by_coordinator(ss_analysis *a, ss_an_txn *t) {
    const ss_txn_state *s = ss_txn_ids_state(a->txn_ids, t->producer_id);
    t->coordinator = s;
    if (!s) {
        t->rule = SS_HANG_COORD_PARTIAL;
        return;
    }
    const ss_an_partition *P = &a->parts[t->partition];
    const ss_input_partition *ip = P->input;
    if (ss_txn_state_lists(s, ip->topic, ip->partition)) {
        t->rule = SS_HANG_COORD_LISTS;
        t->hanging_confirmed = 0;
        return;
    }
    /* TransactionState.java: Empty 0, CompleteCommit 4, CompleteAbort 5, Dead 6 */
    t->rule = s->state == 0 || s->state == 4 || s->state == 5 || s->state == 6 ? SS_HANG_COORD_COMPLETE
                                                                               : SS_HANG_COORD_NOT_LISTED;
    t->hanging_confirmed = 1;
}

void an_finish_txns(ss_analysis *a) {
    /* "now": given, else the newest maxTimestamp of every batch read, in any partition */
    a->now_source = SS_NOW_NONE;
    a->now_ms = -1;
    if (a->o.has_now) {
        a->now_ms = a->o.now_ms;
        a->now_source = a->o.now_wall_clock ? SS_NOW_WALL_CLOCK : SS_NOW_GIVEN;
    } else {
        for (uint32_t p = 0; p < a->nparts; p++)
            if (a->parts[p].max_batch_timestamp > a->now_ms) {
                a->now_ms = a->parts[p].max_batch_timestamp;
                a->now_part = p;
                a->now_source = SS_NOW_NEWEST;
            }
    }
    for (uint32_t p = 0; p < a->nparts; p++) a->parts[p].now_ms = a->now_ms;
    bool need_state = false;
    for (size_t i = 0; i < a->txns.n; i++) {
        ss_an_txn *t = &a->txns.v[i];
        if (t->result != SS_TXN_OPEN) continue;
        /* find-hanging's duration: now - ProducerStateEntry.lastTimestamp, the maxTimestamp of
         * the producer's last batch in the partition; a candidate past the timeout. Nothing
         * later seen anywhere (and no --now): the age is not known. */
        if (a->now_source == SS_NOW_NONE ||
            (a->now_source == SS_NOW_NEWEST && a->now_ms <= t->producer_last_timestamp) ||
            t->producer_last_timestamp < 0) {
            t->rule = SS_HANG_AGE_UNKNOWN;
            continue;
        }
        t->age_known = true;
        t->age_ms = sat_sub(a->now_ms, t->producer_last_timestamp);
        if (t->age_ms > a->o.txn_timeout_ms) {
            t->hanging = true;
            t->rule = SS_HANG_TIMEOUT;
            need_state = true;
        } else {
            t->rule = SS_HANG_WITHIN_TIMEOUT;
            t->hanging_confirmed = 0;
        }
    }
    if (need_state && has_txn_state(a)) {
        ss_error err;
        if (ss_txn_state_ids_kept(a->in, a->kept, &a->txn_ids, &err) == SS_E_NOMEM) {
            a->nomem = true;
            return;
        }
        a->txn_state_read = a->txn_ids != NULL;
    }
    for (size_t i = 0; i < a->txns.n; i++) {
        ss_an_txn *t = &a->txns.v[i];
        if (t->hanging && a->txn_state_read) judge_by_coordinator(a, t);
        if (!a->txn_listed.v[i] && a->windowed) continue;
        ss_an_partition *P = &a->parts[t->partition];
        if (t->hanging) P->txn_hanging++;
        if (t->rule == SS_HANG_AGE_UNKNOWN) P->txn_age_unknown++;
    }
    /* the window lists the transactions with a batch in it (the batches' indexes into
     * the transactions are not used past the partitions' end) */
    if (a->windowed) {
        size_t w = 0;
        for (size_t i = 0; i < a->txns.n; i++)
            if (a->txn_listed.v[i]) a->txns.v[w++] = a->txns.v[i];
        a->txns.n = w;
    }
}

int64_t ss_an_now(const ss_analysis *a, enum ss_now_source *source, uint32_t *partition) {
    if (source) *source = a->now_source;
    if (partition) *partition = a->now_part;
    return a->now_ms;
}

bool ss_an_txn_state_read(const ss_analysis *a) { return a->txn_state_read; }

ss_errkind ss_analysis_txn_state_ids(const ss_analysis *a, ss_txn_ids **out, ss_error *err) {
    return ss_txn_state_ids_kept(a->in, a->kept, out, err);
}
