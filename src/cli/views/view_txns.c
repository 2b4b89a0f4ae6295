/* segscan - a transaction as a JSON object, and the counts of a partition's
 * transactions in text, for txns and the summary. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "common/out.h"
#include "views/scan.h"

static uint32_t txn_partition(const ss_analysis *an, size_t i) { return ss_an_txn_at(an, i)->partition; }

size_t scan_txns_from(const ss_analysis *an, uint32_t part) {
    return scan_first_of(an, ss_an_txn_count(an), txn_partition, part);
}

void txns_json_txn(struct scan_cli *c, const ss_an_txn *t) {
    ss_out *o = c->out;
    out_str(o, "{\"type\":\"transaction\",\"partition\":");
    out_json_cstr(o, scan_part_name(c, t->partition));
    out_printf(o,
               ",\"producerId\":%" PRId64 ",\"producerEpoch\":%d,\"firstOffset\":%" PRId64 ",\"lastOffset\":%" PRId64,
               t->producer_id, t->producer_epoch, t->first_offset, t->last_offset);
    if (t->marker_offset >= 0)
        out_printf(o, ",\"markerOffset\":%" PRId64 ",\"markerEpoch\":%d,\"coordinatorEpoch\":%" PRId32,
                   t->marker_offset, t->marker_epoch, t->coordinator_epoch);
    else out_str(o, ",\"markerOffset\":null,\"markerEpoch\":null,\"coordinatorEpoch\":null");
    out_str(o, ",\"result\":");
    out_json_cstr(o, ss_txn_result_name(t->result));
    bool open = t->result == SS_TXN_OPEN;
    out_printf(o, ",\"records\":%" PRIu64 ",\"batches\":%" PRIu64 ",\"empty\":%s", t->records, t->batches,
               t->empty ? "true" : "false");
    /* hanging: Kafka's find-hanging candidate rule (open longer than --txn-timeout); null
     * when the age is not known. hangingConfirmed: from __transaction_state. */
    out_str(o, ",\"hanging\":");
    out_str(o, open && !t->age_known ? "null" : t->hanging ? "true" : "false");
    out_str(o, ",\"hangingConfirmed\":");
    out_str(o, t->hanging_confirmed < 0 ? "null" : t->hanging_confirmed ? "true" : "false");
    out_str(o, ",\"hangingRule\":");
    out_json_cstr(o, ss_hang_rule_name(t->rule));
    out_kv_opt(o, "ageMs", open && t->age_known ? t->age_ms : -1);
    enum ss_now_source src;
    int64_t now = ss_an_now(c->an, &src, NULL);
    out_kv_opt(o, "now", src == SS_NOW_NONE ? -1 : now);
    out_printf(o, ",\"firstTimestamp\":%" PRId64, t->first_timestamp);
    out_kv_opt(o, "firstRecordTimestamp", t->first_record_timestamp);
    out_kv_opt(o, "producerLastTimestamp", t->producer_last_timestamp);
    out_printf(o, ",\"belowLogStart\":%s", t->below_log_start ? "true" : "false");
    out_printf(o, ",\"dataNotRead\":%s", t->data_not_read ? "true" : "false");
    out_printf(o, ",\"spansHole\":%s", t->spans_hole ? "true" : "false");
    out_str(o, "}\n");
}

const char *txns_now_text(struct scan_cli *c, char *buf, size_t n) {
    enum ss_now_source src;
    uint32_t part;
    int64_t now = ss_an_now(c->an, &src, &part);
    char tm[64];
    scan_time(tm, sizeof tm, now);
    switch (src) {
    case SS_NOW_GIVEN: snprintf(buf, n, "%s (--now)", tm); break;
    case SS_NOW_WALL_CLOCK: snprintf(buf, n, "%s (--now now: the wall clock)", tm); break;
    case SS_NOW_NEWEST:
        snprintf(buf, n, "%s (the newest timestamp read, in %s; --now to change)", tm, scan_part_name(c, part));
        break;
    default: snprintf(buf, n, "unknown (no timestamp read; give --now)"); break;
    }
    return buf;
}

void txns_text_counts(struct scan_cli *c, uint32_t part) {
    const ss_an_partition *P = ss_an_partition_at(c->an, part);
    /* an empty transaction (a marker without data) is also counted as committed or aborted:
     * say how many of each kind were empty, next to that kind */
    uint64_t empty_abort = P->txn_empty_aborted, empty_commit = P->txn_empty - empty_abort;
    ss_out *o = c->out;
    out_printf(o, "%" PRIu64 " committed", P->txn_committed);
    if (empty_commit) out_printf(o, " (%" PRIu64 " empty)", empty_commit);
    out_printf(o, ", %" PRIu64 " aborted", P->txn_aborted);
    if (empty_abort) out_printf(o, " (%" PRIu64 " empty)", empty_abort);
}
