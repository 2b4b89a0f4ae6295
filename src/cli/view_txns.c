/* segscan - a transaction as a JSON object, and the counts of a partition's
 * transactions in text, for txns and the summary. */
#include <inttypes.h>
#include <stdint.h>

#include "out.h"
#include "scan.h"

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
    out_printf(
        o, ",\"records\":%" PRIu64 ",\"batches\":%" PRIu64 ",\"empty\":%s,\"hanging\":%s,\"firstTimestamp\":%" PRId64,
        t->records, t->batches, t->empty ? "true" : "false", t->hanging ? "true" : "false", t->first_timestamp);
    out_printf(o, ",\"belowLogStart\":%s", t->below_log_start ? "true" : "false");
    out_str(o, "}\n");
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
