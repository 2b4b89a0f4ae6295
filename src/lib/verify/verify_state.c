/* segscan verify - the producer state the log implies, as Kafka's
 * ProducerStateManager keeps it: every batch with a producer id updates its
 * entry, a transactional data batch opens a transaction, a marker closes it;
 * captured at the newest snapshot's offset for the snapshot check. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/javaint.h"
#include "verify/verify.h"

/* ---- producer state -------------------------------------------------------------- */

void vf_capture_snapshot_state(vctx *c) {
    if (c->captured || !c->newest) return;
    c->captured = true;
    if (!vf_pmap_copy(&c->at_snap, &c->ps)) c->nomem = true;
}

/* A data batch with a producer id (ProducerAppendInfo.appendDataBatch). */
void vf_state_data(vctx *c, const ss_batch *b) {
    vproducer *p = vf_pmap_get(&c->ps, b->producer_id);
    if (!p) {
        c->nomem = true;
        return;
    }
    p->epoch = b->producer_epoch;
    p->has_batch = true;
    p->last_seq = b->last_sequence;
    p->last_offset = b->last_offset;
    p->offset_delta = (int32_t)(b->last_offset - b->base_offset);
    p->timestamp = b->max_timestamp;
    if (b->transactional && p->txn_first < 0) p->txn_first = b->base_offset;
}

/* ProducerStateManager.lastStableOffset for a transaction of pid completed at `offset`. */
static int64_t lso_after(const vctx *c, int64_t pid, int64_t offset) {
    int64_t lso = INT64_MAX;
    for (size_t i = 0; i < vf_pmap_slots(&c->ps); i++) {
        const vproducer *p = vf_pmap_at(&c->ps, i);
        if (!p || p->pid == pid || p->txn_first < 0) continue;
        if (p->txn_first < lso) lso = p->txn_first;
    }
    return lso == INT64_MAX ? ss_next_offset(offset) : lso;
}

/* A transaction marker (ProducerAppendInfo.appendEndTxnMarker). */
void vf_state_marker(vctx *c, const ss_batch *b, const ss_record *r, mvec *markers, uint64_t pos) {
    bool abort = r->control_type == SS_CTRL_ABORT;
    vproducer *p = vf_pmap_get(&c->ps, b->producer_id);
    if (!p) {
        c->nomem = true;
        return;
    }
    vmarker m = {.pid = b->producer_id, .offset = b->base_offset, .pos = pos, .abort = abort};
    m.open = p->txn_first >= 0;
    m.first = m.open ? p->txn_first : b->base_offset;
    m.lso = lso_after(c, b->producer_id, b->base_offset);
    if (!vf_mk_push(markers, &m)) c->nomem = true;
    if (p->epoch != b->producer_epoch) {
        p->has_batch = false;
        p->last_seq = -1;
        p->last_offset = -1;
        p->offset_delta = 0;
        p->epoch = b->producer_epoch;
    }
    p->txn_first = -1;
    p->coord_epoch = r->coordinator_epoch;
    p->timestamp = r->timestamp;
}
