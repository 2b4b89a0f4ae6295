/* segscan - the analysis's transactions: a producer's transactional data
 * opens one, its COMMIT or ABORT marker ends it; at the end of a partition
 * the open ones, the hanging ones (older than --txn-timeout against "now"),
 * the last stable offset and what read_committed consumers see. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "analysis/analysis.h"

uint32_t an_txn_for_data(ss_analysis *a, uint32_t part, const ss_batch *b) {
    uint32_t *v = km_get(&a->km_txn, b->producer_id, 0, true, NULL);
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
    t.marker_timestamp = -1;
    VEC_PUSH(a->txns, t, a->nomem = true; return NONE32);
    *v = (uint32_t)(a->txns.n - 1);
    return *v;
}

void an_txn_marker(ss_analysis *a, uint32_t part, const ss_batch *b, const an_mark *r, bool in_window) {
    ss_an_partition *P = &a->parts[part];
    enum ss_txn_result result = r->type == SS_CTRL_COMMIT ? SS_TXN_COMMIT : SS_TXN_ABORT;
    if (r->offset > a->o.to_offset) return; /* past the window: its transactions stay open */
    uint32_t *v = km_get(&a->km_txn, b->producer_id, 0, false, NULL);
    ss_an_txn *t;
    if (v && *v != NONE32) {
        t = &a->txns.v[*v];
        *v = NONE32;
    } else {
        if (!in_window) return;
        /* its data may be below the log start offset (deleteRecords, retention): then it
         * is not empty, its data is not there to read */
        uint32_t *h = km_get(&a->km_hidden, b->producer_id, 0, false, NULL);
        bool hidden = h && *h == 1;
        ss_an_txn e;
        memset(&e, 0, sizeof e);
        e.partition = part;
        e.producer_id = b->producer_id;
        e.producer_epoch = b->producer_epoch;
        e.first_offset = e.last_offset = r->offset;
        e.first_timestamp = b->max_timestamp;
        e.empty = !hidden;
        e.below_log_start = hidden;
        VEC_PUSH(a->txns, e, a->nomem = true; return );
        t = &a->txns.v[a->txns.n - 1];
        if (!hidden) P->txn_empty++;
    }
    uint32_t *h = km_get(&a->km_hidden, b->producer_id, 0, false, NULL);
    if (h) *h = 0;
    t->marker_offset = r->offset;
    t->marker_epoch = b->producer_epoch;
    t->marker_timestamp = b->max_timestamp;
    t->coordinator_epoch = r->coordinator_epoch;
    t->result = result;
    if (result == SS_TXN_COMMIT) P->txn_committed++;
    else P->txn_aborted++;
    if (t->empty && result == SS_TXN_ABORT) P->txn_empty_aborted++;
}

void an_finish_partition(ss_analysis *a, uint32_t part, size_t txn_first) {
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
            enum ss_txn_result res = a->txns.v[b->txn].result;
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
