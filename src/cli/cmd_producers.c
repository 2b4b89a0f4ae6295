/* segscan producers PATH...  - producer sessions, sequences, gaps, repeats.
 * segscan txns PATH...       - transactions, last stable offset, read_committed view.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "out.h"
#include "scan.h"

#define BOLD "\033[1m"
#define RED "\033[31m"
#define YEL "\033[33m"
#define RST "\033[0m"

static const char *gap_reason(int e) {
    switch (e) {
    case SS_GAP_COMPACTION: return "compaction";
    case SS_GAP_RETENTION: return "retention";
    case SS_GAP_DAMAGE: return "damage";
    default: return NULL;
    }
}

/* ---- sessions -------------------------------------------------------------------------- */

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
        else {
            out_str(o, "null");
            unexplained++;
        }
    }
    if (s->more_gaps) out_printf(o, "],\"moreGaps\":%" PRIu64 ",\"unexplainedGaps\":%zu,", s->more_gaps, unexplained);
    else out_printf(o, "],\"unexplainedGaps\":%zu,", unexplained);
    out_printf(o, "\"recordsWithRepeatedSequence\":%" PRIu64 ",\"outOfOrderBatches\":%" PRIu64, s->repeated_sequences,
               s->out_of_order_batches);
    out_printf(o, ",\"epochBump\":%s", s->epoch_bump ? "true" : "false");
    if (s->epoch_bump) out_printf(o, ",\"previousEpoch\":%d", s->previous_epoch);
    size_t tl;
    const char *tid = scan_txn_id(c, s->producer_id, &tl);
    out_str(o, ",\"transactionalId\":");
    if (tid) out_json_utf8(o, (const uint8_t *)tid, tl);
    else out_str(o, "null");
    out_str(o, "}\n");
}

static void text_session(struct scan_cli *c, const ss_an_session *s, const char *indent) {
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
        const char *why = gap_reason(g->explained);
        out_printf(o,
                   "%s  %sgap%s: sequences %" PRId32 "..%" PRId32 " missing between offsets %" PRId64 " and %" PRId64,
                   indent, why ? "" : scan_sgr(c, RED), why ? "" : scan_sgr(c, RST), g->from, g->to, g->after_offset,
                   g->before_offset);
        if (why) out_printf(o, " (explained by %s)", why);
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
                   indent, scan_sgr(c, RED), s->repeated_sequences, plural(s->repeated_sequences, "record", "records"),
                   scan_sgr(c, RST));
    if (s->out_of_order_batches)
        out_printf(o,
                   "%s  %" PRIu64 " out-of-order %s (base sequence below the next one expected, not a batch sent "
                   "again)\n",
                   indent, s->out_of_order_batches, plural(s->out_of_order_batches, "batch", "batches"));
}

void producers_text_partition(struct scan_cli *c, uint32_t part) {
    size_t n = ss_an_session_count(c->an);
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        const ss_an_session *s = ss_an_session_at(c->an, i);
        if (s->partition != part) continue;
        if (!any) out_str(c->out, "  sessions\n");
        any = true;
        text_session(c, s, "    ");
    }
}

void producers_print(struct scan_cli *c) {
    size_t n = ss_an_session_count(c->an);
    if (c->json) {
        for (size_t i = 0; i < n; i++) producers_json_session(c, ss_an_session_at(c->an, i));
        return;
    }
    ss_out *o = c->out;
    size_t np = ss_an_partition_count(c->an);
    for (uint32_t p = 0; p < np; p++) {
        const ss_an_partition *P = ss_an_partition_at(c->an, p);
        out_printf(o, "%s%s%s: %" PRIu64 " %s, %" PRIu64 " %s", scan_sgr(c, BOLD), P->input->name, scan_sgr(c, RST),
                   P->producers, plural(P->producers, "producer", "producers"), P->sessions,
                   plural(P->sessions, "session", "sessions"));
        if (P->non_idempotent_records)
            out_printf(o, ", %" PRIu64 " %s without producer id", P->non_idempotent_records,
                       plural(P->non_idempotent_records, "record", "records"));
        if (P->sequence_gaps)
            out_printf(o, ", %s%" PRIu64 " sequence %s%s", scan_sgr(c, RED), P->sequence_gaps,
                       plural(P->sequence_gaps, "gap", "gaps"), scan_sgr(c, RST));
        if (P->duplicate_sequences)
            out_printf(o, ", %s%" PRIu64 " repeated %s%s", scan_sgr(c, RED), P->duplicate_sequences,
                       plural(P->duplicate_sequences, "sequence", "sequences"), scan_sgr(c, RST));
        out_ch(o, '\n');
        for (size_t i = 0; i < n; i++) {
            const ss_an_session *s = ss_an_session_at(c->an, i);
            if (s->partition == p) text_session(c, s, "  ");
        }
    }
}

/* ---- transactions ------------------------------------------------------------------------ */

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

static void txns_json_partition(struct scan_cli *c, uint32_t p) { scan_json_partition(c, p); }

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

void txns_print(struct scan_cli *c) {
    ss_out *o = c->out;
    size_t np = ss_an_partition_count(c->an), nt = ss_an_txn_count(c->an);
    if (c->json) {
        for (uint32_t p = 0; p < np; p++) {
            txns_json_partition(c, p);
            for (size_t i = 0; i < nt; i++) {
                const ss_an_txn *t = ss_an_txn_at(c->an, i);
                if (t->partition == p) txns_json_txn(c, t);
            }
        }
        return;
    }
    char tm[64];
    for (uint32_t p = 0; p < np; p++) {
        const ss_an_partition *P = ss_an_partition_at(c->an, p);
        out_printf(o, "%s%s%s: LSO %" PRId64 "%s, read_committed sees %" PRIu64 " of %" PRIu64 " %s; ",
                   scan_sgr(c, BOLD), P->input->name, scan_sgr(c, RST), P->lso,
                   P->lso_bounded_by_hw ? " (the high watermark)" : "", P->read_committed_records, P->records,
                   plural(P->records, "record", "records"));
        txns_text_counts(c, p);
        out_printf(o, ", %" PRIu64 " open", P->txn_open);
        if (P->txn_hanging)
            out_printf(o, ", %s%" PRIu64 " hanging%s", scan_sgr(c, RED), P->txn_hanging, scan_sgr(c, RST));
        out_ch(o, '\n');
        for (size_t i = 0; i < nt; i++) {
            const ss_an_txn *t = ss_an_txn_at(c->an, i);
            if (t->partition != p) continue;
            out_printf(o, "  pid %" PRId64 " epoch %d  ", t->producer_id, t->producer_epoch);
            if (t->empty) out_str(o, "no data (empty transaction)");
            else if (t->below_log_start) out_str(o, "its data is below the log start offset (not read)");
            else
                out_printf(o, "offsets %" PRId64 "..%" PRId64 ", %" PRIu64 " %s in %" PRIu64 " %s", t->first_offset,
                           t->last_offset, t->records, plural(t->records, "record", "records"), t->batches,
                           plural(t->batches, "batch", "batches"));
            if (t->result == SS_TXN_OPEN) {
                scan_time(tm, sizeof tm, t->first_timestamp);
                out_printf(o, "  %sOPEN%s since %s", scan_sgr(c, YEL), scan_sgr(c, RST), tm);
                if (t->hanging) {
                    /* the abort command as it is to be typed, as far as the files tell */
                    char part[16] = "...";
                    if (P->input->partition >= 0) snprintf(part, sizeof part, "%" PRId32, P->input->partition);
                    out_printf(o,
                               " %sHANGING%s (older than --txn-timeout; read_committed consumers are stuck at the "
                               "LSO until it is aborted: kafka-transactions.sh --bootstrap-server ... abort "
                               "--topic %s --partition %s --start-offset %" PRId64 ")",
                               scan_sgr(c, RED), scan_sgr(c, RST), P->input->topic, part, t->first_offset);
                }
            } else {
                out_printf(o, "  %s at offset %" PRId64 " (coordinator epoch %" PRId32, ss_txn_result_name(t->result),
                           t->marker_offset, t->coordinator_epoch);
                if (t->marker_epoch != t->producer_epoch)
                    out_printf(o, ", marker epoch %d: transaction protocol v2 bumps the epoch at the end",
                               t->marker_epoch);
                out_ch(o, ')');
            }
            out_ch(o, '\n');
        }
    }
}
