/* segscan - a producer session, in text and as a JSON object: its sequence
 * ranges, gaps and why, repeated sequences, epoch bumps, for producers and the
 * summary. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/out.h"
#include "views/scan.h"

static const char *gap_reason(enum ss_gap_explained e) {
    switch (e) {
    case SS_GAP_COMPACTION: return "compaction";
    case SS_GAP_RETENTION: return "retention";
    case SS_GAP_DAMAGE: return "damage";
    case SS_GAP_MISSING_SEGMENT: return "missing-segment";
    case SS_GAP_HOLE: return "hole";
    default: return NULL;
    }
}

void producers_json_session(struct scan_cli *c, const ss_an_session *s) {
    ss_out *o = c->out;
    out_str(o, "{\"type\":\"session\",\"partition\":");
    out_json_cstr(o, scan_part_name(c, s->partition));
    out_printf(o, ",\"producerId\":%" PRId64 ",\"producerEpoch\":%d,\"transactional\":%s", s->producer_id,
               s->producer_epoch, s->transactional ? "true" : "false");
    out_printf(o,
               ",\"firstOffset\":%" PRId64 ",\"lastOffset\":%" PRId64 ",\"firstTimestamp\":%" PRId64
               ",\"lastTimestamp\":%" PRId64 ",\"records\":%" PRIu64 ",\"batches\":%" PRIu64,
               s->first_offset, s->last_offset, s->first_timestamp, s->last_timestamp, s->records, s->batches);
    if (s->first_sequence >= 0) out_printf(o, ",\"firstSequence\":%" PRId32, s->first_sequence);
    else out_str(o, ",\"firstSequence\":null");
    out_str(o, ",\"sequenceRanges\":[");
    for (size_t k = 0; k < s->nranges; k++)
        out_printf(o, "%s[%" PRId32 ",%" PRId32 "]", k ? "," : "", s->ranges[k].first, s->ranges[k].last);
    out_str(o, "],\"sequenceGaps\":[");
    for (size_t k = 0; k < s->ngaps; k++)
        out_printf(o, "%s[%" PRId32 ",%" PRId32 "]", k ? "," : "", s->gaps[k].from, s->gaps[k].to);
    out_str(o, "],\"gapsExplainedBy\":[");
    size_t unexplained = 0;
    for (size_t k = 0; k < s->ngaps; k++) {
        const char *why = gap_reason(s->gaps[k].explained);
        if (k) out_ch(o, ',');
        if (why) out_json_cstr(o, why);
        else out_str(o, "null");
        /* a missing segment or a hole is named, and still not explained: records lost */
        if (!why || s->gaps[k].explained == SS_GAP_MISSING_SEGMENT || s->gaps[k].explained == SS_GAP_HOLE)
            unexplained++;
    }
    if (s->more_gaps) out_printf(o, "],\"moreGaps\":%" PRIu64 ",\"unexplainedGaps\":%zu,", s->more_gaps, unexplained);
    else out_printf(o, "],\"unexplainedGaps\":%zu,", unexplained);
    out_printf(o, "\"recordsWithRepeatedSequence\":%" PRIu64 ",\"outOfOrderBatches\":%" PRIu64, s->repeated_sequences,
               s->out_of_order_batches);
    out_printf(o, ",\"spansHole\":%s", s->spans_hole ? "true" : "false");
    out_printf(o, ",\"epochBump\":%s", s->epoch_bump ? "true" : "false");
    if (s->epoch_bump) out_printf(o, ",\"previousEpoch\":%d", s->previous_epoch);
    size_t tl;
    const char *tid = scan_txn_id(c, s->producer_id, &tl);
    out_str(o, ",\"transactionalId\":");
    if (tid) out_json_utf8(o, (const uint8_t *)tid, tl);
    else out_str(o, "null");
    scan_json_pid_block(c, s->producer_id);
    out_str(o, "}\n");
}

void producers_text_session(struct scan_cli *c, const ss_an_session *s, const char *indent) {
    ss_out *o = c->out;
    out_printf(o, "%spid %" PRId64 " epoch %d%s: %" PRIu64 " %s in %" PRIu64 " %s, offsets %" PRId64 "..%" PRId64,
               indent, s->producer_id, s->producer_epoch, s->transactional ? " (transactional)" : "", s->records,
               plural(s->records, "record", "records"), s->batches, plural(s->batches, "batch", "batches"),
               s->first_offset, s->last_offset);
    size_t tl;
    const char *tid = scan_txn_id(c, s->producer_id, &tl);
    if (tid) {
        out_str(o, ", transactional.id ");
        out_json_utf8(o, (const uint8_t *)tid, tl);
    }
    if (s->nranges) {
        out_str(o, ", sequences");
        for (size_t k = 0; k < s->nranges; k++)
            out_printf(o, "%s[%" PRId32 ",%" PRId32 "]", k ? "," : " ", s->ranges[k].first, s->ranges[k].last);
    } else {
        out_str(o, ", no sequences");
    }
    out_ch(o, '\n');
    if (s->spans_hole)
        out_printf(o,
                   "%s  %sincomplete: spans a hole%s (offsets are missing after its first offset, and batches of it "
                   "may have been among them: its records, sequences and last offset are those read)\n",
                   indent, scan_sgr(c, SGR_YEL), scan_sgr(c, SGR_RST));
    sbuf origin = {0};
    if (scan_pid_origin(c, s->producer_id, &origin))
        out_printf(o, "%s  producer id %" PRId64 " was %s\n", indent, s->producer_id, origin.p ? origin.p : "");
    free(origin.p);
    if (s->epoch_bump)
        out_printf(o,
                   "%s  epoch bump from %d: the producer was fenced or re-initialised (or, for a transactional "
                   "producer under transaction protocol v2, started its next transaction)\n",
                   indent, s->previous_epoch);
    if (s->first_sequence > 0) {
        bool window = c->ao.from_offset != INT64_MIN || c->ao.to_offset != INT64_MAX || c->ao.since_ms != INT64_MIN ||
                      c->ao.until_ms != INT64_MAX;
        out_printf(o,
                   "%s  first sequence %" PRId32 " (not 0): earlier %s before the log start (retention, "
                   "compaction)%s or in segments not given\n",
                   indent, s->first_sequence, window ? "records are" : "batches are",
                   window ? ", outside the window" : "");
    }
    for (size_t k = 0; k < s->ngaps; k++) {
        const ss_an_gap *g = &s->gaps[k];
        const char *why =
            g->explained == SS_GAP_MISSING_SEGMENT || g->explained == SS_GAP_HOLE ? NULL : gap_reason(g->explained);
        out_printf(o,
                   "%s  %sgap%s: sequences %" PRId32 "..%" PRId32 " missing between offsets %" PRId64 " and %" PRId64,
                   indent, why ? "" : scan_sgr(c, SGR_RED), why ? "" : scan_sgr(c, SGR_RST), g->from, g->to,
                   g->after_offset, g->before_offset);
        if (g->explained == SS_GAP_COMPACTION)
            out_str(o, " (consistent with compaction: the log shows cleaning; the missing records' keys are gone, so "
                       "that the cleaner removed them cannot be checked)");
        else if (why) out_printf(o, " (explained by %s)", why);
        else if (g->explained == SS_GAP_MISSING_SEGMENT)
            out_str(o, " (a segment is missing here: the log shows no cleaning there, or files beside it name the "
                       "missing segment; the log start moves past whole segments only at the oldest end)");
        else if (g->explained == SS_GAP_HOLE)
            out_str(o, " (offsets are missing between two batches of a segment there, and no evidence of the cleaner "
                       "was read: records lost, unless the topic is compacted)");
        else
            out_str(
                o,
                " (a leader refuses such a batch: OutOfOrderSequenceException; data were lost or the files are not a leader's)");
        out_ch(o, '\n');
    }
    if (s->more_gaps)
        out_printf(o, "%s  ... and %" PRIu64 " more %s\n", indent, s->more_gaps, plural(s->more_gaps, "gap", "gaps"));
    if (s->repeated_sequences)
        out_printf(o,
                   "%s  %s%" PRIu64 " %s with a sequence already seen%s (stored twice: an idempotent leader refuses "
                   "duplicates, so a broker anomaly or copied files)\n",
                   indent, scan_sgr(c, SGR_RED), s->repeated_sequences,
                   plural(s->repeated_sequences, "record", "records"), scan_sgr(c, SGR_RST));
    if (s->out_of_order_batches)
        out_printf(o,
                   "%s  %" PRIu64 " out-of-order %s (base sequence below the next one expected, not a batch sent "
                   "again)\n",
                   indent, s->out_of_order_batches, plural(s->out_of_order_batches, "batch", "batches"));
}

static uint32_t session_partition(const ss_analysis *an, size_t i) { return ss_an_session_at(an, i)->partition; }

size_t scan_sessions_from(const ss_analysis *an, uint32_t part) {
    return scan_first_of(an, ss_an_session_count(an), session_partition, part);
}

void producers_text_partition(struct scan_cli *c, uint32_t part) {
    size_t n = ss_an_session_count(c->an);
    bool any = false;
    for (size_t i = scan_sessions_from(c->an, part); i < n; i++) {
        const ss_an_session *s = ss_an_session_at(c->an, i);
        if (s->partition != part) break;
        if (!any) out_str(c->out, "  sessions\n");
        any = true;
        producers_text_session(c, s, "    ");
    }
}
