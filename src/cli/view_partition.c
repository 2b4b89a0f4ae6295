/* segscan - the JSON object of a partition (type "partition"): what the
 * analysis found in it, for scan --json and txns --json. */
#include <stdbool.h>

#include "out.h"
#include "scan.h"

void scan_json_partition(struct scan_cli *c, uint32_t i) {
    ss_out *o = c->out;
    const ss_an_partition *P = ss_an_partition_at(c->an, i);
    const ss_input_partition *ip = P->input;
    out_str(o, "{\"type\":\"partition\",\"partition\":");
    out_json_cstr(o, ip->name);
    out_json_key(o, "topic");
    out_json_cstr(o, ip->topic);
    out_kv_opt(o, "partitionNumber", ip->partition);
    out_json_key(o, "path");
    out_json_cstr(o, ip->path);
    out_kv_u64(o, "segments", P->segments);
    out_kv_u64(o, "records", P->records);
    out_kv_u64(o, "batches", P->batches);
    out_kv_u64(o, "controlRecords", P->control_records);
    out_kv_u64(o, "controlBatches", P->control_batches);
    out_kv_opt(o, "firstOffset", P->first_offset);
    out_kv_opt(o, "nextOffset", P->next_offset);
    out_kv_opt(o, "firstTimestamp", P->has_timestamps ? P->min_timestamp : -1);
    out_kv_opt(o, "lastTimestamp", P->has_timestamps ? P->max_timestamp : -1);
    out_str(o, ",\"codecs\":{");
    bool first = true;
    for (int k = 0; k < 8; k++) {
        if (!P->codec_batches[k]) continue;
        if (!first) out_ch(o, ',');
        first = false;
        out_json_cstr(o, ss_codec_label(k));
        out_ch(o, ':');
        out_u64(o, P->codec_batches[k]);
    }
    out_ch(o, '}');
    out_kv_u64(o, "duplicateGroups", P->duplicate_groups);
    out_kv_u64(o, "duplicateRecords", P->duplicate_records);
    out_kv_u64(o, "maxCopies", P->max_copies);
    out_kv_bool(o, "duplicatesExcluded", P->dups_excluded);
    out_kv_u64(o, "producers", P->producers);
    out_kv_u64(o, "sessions", P->sessions);
    out_kv_u64(o, "nonIdempotentRecords", P->non_idempotent_records);
    out_kv_u64(o, "sequenceGaps", P->sequence_gaps);
    out_kv_u64(o, "sequenceGapsExplained", P->sequence_gaps_explained);
    out_kv_u64(o, "duplicateSequences", P->duplicate_sequences);
    out_kv_u64(o, "outOfOrderBatches", P->out_of_order_batches);
    out_kv_u64(o, "epochBumps", P->epoch_bumps);
    out_kv_bool(o, "compacted", P->compacted);
    out_kv_opt(o, "lastStableOffset", P->lso);
    out_kv_opt(o, "highWatermark", ip->high_watermark);
    out_kv_opt(o, "logStartOffset", ip->log_start_offset);
    out_kv_u64(o, "readCommittedRecords", P->read_committed_records);
    out_kv_u64(o, "committed", P->txn_committed);
    out_kv_u64(o, "aborted", P->txn_aborted);
    out_kv_u64(o, "open", P->txn_open);
    out_kv_u64(o, "hanging", P->txn_hanging);
    out_kv_u64(o, "unknown", P->txn_unknown);
    out_kv_u64(o, "ageUnknown", P->txn_age_unknown);
    out_kv_bool(o, "lastStableOffsetUnknown", P->lso_unknown);
    out_kv_u64(o, "empty", P->txn_empty);
    out_kv_u64(o, "abortedRecords", P->aborted_records);
    out_kv_opt(o, "now", P->now_ms);
    out_kv_u64(o, "damagedBytes", P->damaged_bytes);
    out_kv_opt(o, "lostRecords", P->lost_unknown ? -1 : (int64_t)P->lost_records);
    out_kv_u64(o, "tailBytes", P->tail_bytes);
    out_kv_u64(o, "skippedLargeBatches", P->skipped_large_batches);
    out_kv_u64(o, "hiddenBelowLogStart", P->hidden_below_log_start);
    out_kv_u64(o, "outsideWindow", P->outside_window);
    out_kv_u64(o, "segmentsNotRead", ip->segments_not_given);
    out_str(o, "}\n");
}
