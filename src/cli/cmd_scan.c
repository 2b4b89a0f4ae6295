/* segscan [scan] PATH... - what is in these partitions, and what is duplicated?
 *
 * The summary (text), and the total object of scan --json. scan_run.c parses
 * the options and runs the analysis.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "commands.h"
#include "out.h"
#include "scan.h"

/* ---- JSON objects ------------------------------------------------------------------ */

/* ---- text summary -------------------------------------------------------------------- */

static void text_partition(struct scan_cli *c, uint32_t i) {
    ss_out *o = c->out;
    const ss_an_partition *P = ss_an_partition_at(c->an, i);
    const ss_input_partition *ip = P->input;
    char t1[64], t2[64];
    out_printf(o, "%s%s%s  %s%s%s (%" PRIu64 " %s)\n", scan_sgr(c, SGR_BOLD), ip->name, scan_sgr(c, SGR_RST),
               scan_sgr(c, SGR_DIM), ip->path, scan_sgr(c, SGR_RST), P->segments,
               plural(P->segments, "segment", "segments"));
    if (ip->temporary)
        out_printf(o, "  a temporary copy of %s (%s: %s), read because of --include-temp\n",
                   ip->temporary_of ? ip->temporary_of : "its partition", ip->temporary,
                   scan_temporary_meaning(ip->temporary));
    if (P->batches == 0) {
        out_str(o, "  no batches");
        if (P->outside_window)
            out_printf(o, " in the window (%" PRIu64 " %s outside)", P->outside_window,
                       plural(P->outside_window, "record", "records"));
        out_ch(o, '\n');
    } else {
        out_printf(o, "  records       %" PRIu64 " in %" PRIu64 " %s", P->records, P->batches,
                   plural(P->batches, "batch", "batches"));
        if (P->control_batches)
            out_printf(o, " (%" PRIu64 " control %s)", P->control_batches,
                       plural(P->control_batches, "batch", "batches"));
        out_printf(o, ", offsets %" PRId64 "..%" PRId64 ", next %" PRId64 "\n", P->first_offset, P->next_offset - 1,
                   P->next_offset);
        if (P->has_timestamps) {
            scan_time(t1, sizeof t1, P->min_timestamp);
            scan_time(t2, sizeof t2, P->max_timestamp);
            out_printf(o, "  time          %s .. %s\n", t1, t2);
        }
        out_str(o, "  codecs       ");
        for (int k = 0; k < 8; k++)
            if (P->codec_batches[k]) out_printf(o, " %s %" PRIu64, ss_codec_label(k), P->codec_batches[k]);
        if (P->magic_batches[0] || P->magic_batches[1])
            out_printf(o, "  (magic 0: %" PRIu64 ", magic 1: %" PRIu64 ", magic 2: %" PRIu64 ")", P->magic_batches[0],
                       P->magic_batches[1], P->magic_batches[2]);
        out_ch(o, '\n');
        out_str(o, "  producers     ");
        if (P->producers)
            out_printf(o, "%" PRIu64 " with a producer id, %" PRIu64 " %s", P->producers, P->sessions,
                       plural(P->sessions, "session", "sessions"));
        if (P->producers && P->non_idempotent_records) out_str(o, "; ");
        if (P->non_idempotent_records)
            out_printf(o, "%" PRIu64 " %s without producer id (idempotence off)", P->non_idempotent_records,
                       plural(P->non_idempotent_records, "record", "records"));
        if (!P->producers && !P->non_idempotent_records) out_str(o, "none");
        if (P->epoch_bumps)
            out_printf(o, "; %" PRIu64 " epoch %s", P->epoch_bumps, plural(P->epoch_bumps, "bump", "bumps"));
        out_ch(o, '\n');
        if (!c->verbose && P->sessions && P->sessions <= 3) {
            /* a few sessions: name them (-v and 'segscan producers' say more) */
            for (size_t k = 0; k < ss_an_session_count(c->an); k++) {
                const ss_an_session *s = ss_an_session_at(c->an, k);
                if (s->partition != i) continue;
                out_printf(o, "                pid %" PRId64 " epoch %d%s: %" PRIu64 " %s", s->producer_id,
                           s->producer_epoch, s->transactional ? " (transactional)" : "", s->records,
                           plural(s->records, "record", "records"));
                if (s->nranges) {
                    out_str(o, ", sequences");
                    for (size_t r = 0; r < s->nranges; r++)
                        out_printf(o, "%s[%" PRId32 ",%" PRId32 "]", r ? "," : " ", s->ranges[r].first,
                                   s->ranges[r].last);
                }
                out_ch(o, '\n');
            }
        }
        out_str(o, "  duplicates    ");
        if (P->dups_excluded) out_str(o, "not analysed (internal topic; --include-internal)");
        else if (P->duplicate_groups) {
            out_printf(o, "%s%" PRIu64 " %s, %" PRIu64 " extra %s%s", scan_sgr(c, SGR_RED), P->duplicate_groups,
                       plural(P->duplicate_groups, "group", "groups"), P->duplicate_records,
                       plural(P->duplicate_records, "copy", "copies"), scan_sgr(c, SGR_RST));
            /* max_copies counts this partition's copies: 1 when each extra copy here is of a
             * record whose other copies lie in other partitions */
            if (P->max_copies > 1)
                out_printf(o, ", at most %" PRIu64 " copies of one %s", P->max_copies, ss_by_name(c->ao.by));
            else out_printf(o, ", each %s once here (its other copies in other partitions)", ss_by_name(c->ao.by));
        } else out_printf(o, "%snone%s", scan_sgr(c, SGR_GRN), scan_sgr(c, SGR_RST));
        out_ch(o, '\n');
        out_str(o, "  sequences     ");
        bool any = false;
        if (P->sequence_gaps) {
            out_printf(o, "%s%" PRIu64 " %s%s", scan_sgr(c, SGR_RED), P->sequence_gaps,
                       plural(P->sequence_gaps, "gap", "gaps"), scan_sgr(c, SGR_RST));
            any = true;
        }
        if (P->sequence_gaps_explained) {
            out_printf(o, "%s%" PRIu64 " %s consistent with compaction or explained by damage", any ? ", " : "",
                       P->sequence_gaps_explained, plural(P->sequence_gaps_explained, "gap", "gaps"));
            any = true;
        }
        if (P->duplicate_sequences) {
            out_printf(o, "%s%s%" PRIu64 " %s with a sequence already seen%s", any ? ", " : "", scan_sgr(c, SGR_RED),
                       P->duplicate_sequences, plural(P->duplicate_sequences, "record", "records"),
                       scan_sgr(c, SGR_RST));
            any = true;
        }
        if (P->out_of_order_batches) {
            out_printf(o, "%s%" PRIu64 " out-of-order %s", any ? ", " : "", P->out_of_order_batches,
                       plural(P->out_of_order_batches, "batch", "batches"));
            any = true;
        }
        if (!any) out_str(o, P->sessions ? "in order" : "-");
        if (P->compacted) out_str(o, "  (compacted log)");
        out_ch(o, '\n');
        out_str(o, "  transactions  ");
        if (P->txn_committed || P->txn_aborted || P->txn_open) {
            txns_text_counts(c, i);
            out_printf(o, ", %s%" PRIu64 " open%s", P->txn_open ? scan_sgr(c, SGR_YEL) : "", P->txn_open,
                       P->txn_open ? scan_sgr(c, SGR_RST) : "");
            if (P->txn_hanging)
                out_printf(o, " (%s%" PRIu64 " hanging%s)", scan_sgr(c, SGR_RED), P->txn_hanging, scan_sgr(c, SGR_RST));
            out_str(o, "; ");
        } else {
            out_str(o, "none; ");
        }
        out_printf(o, "LSO %" PRId64 "%s, read_committed sees %" PRIu64 " %s\n", P->lso,
                   P->lso_bounded_by_hw ? " (bounded by the high watermark)" : "", P->read_committed_records,
                   plural(P->read_committed_records, "record", "records"));
    }
    if (ip->high_watermark >= 0 || ip->log_start_offset >= 0) {
        out_str(o, "  checkpoints  ");
        if (ip->high_watermark >= 0)
            out_printf(o, " high watermark %" PRId64 " (replication-offset-checkpoint)", ip->high_watermark);
        if (ip->log_start_offset >= 0)
            out_printf(o, " log start %" PRId64 " (log-start-offset-checkpoint, %" PRIu64 " %s below it not shown)",
                       ip->log_start_offset, P->hidden_below_log_start,
                       plural(P->hidden_below_log_start, "record", "records"));
        out_ch(o, '\n');
    }
    if (P->damaged_bytes || P->damage_events)
        out_printf(o, "  %sdamaged       %" PRIu64 " %s in %" PRIu64 " %s (skipped; the rest was analysed)%s\n",
                   scan_sgr(c, SGR_RED), P->damaged_bytes, plural(P->damaged_bytes, "byte", "bytes"), P->damage_events,
                   plural(P->damage_events, "place", "places"), scan_sgr(c, SGR_RST));
    if (P->lost_records)
        out_printf(o,
                   "                %" PRIu64 " %s in the damaged batches at offsets %" PRId64 "..%" PRId64
                   " could not be read%s\n",
                   P->lost_records, plural(P->lost_records, "record", "records"), P->lost_first, P->lost_last,
                   P->lost_unknown ? ", and more in damage whose offsets are unknown" : "");
    else if (P->lost_unknown)
        out_str(o, "                the records in the damaged bytes are unknown: their headers cannot be read\n");
    /* An incomplete tail is said as verify's incomplete-tail says it: LogSegment.recover, run by
     * LogLoader.recoverLog after an unclean shutdown, truncates a segment after its last valid
     * batch. Zeros are a preallocated file's (log.preallocate), trimmed at a clean close. */
    if (P->incomplete_tail_bytes)
        out_printf(o,
                   "  tail          %" PRIu64 " %s after the last complete batch %s not form a complete batch "
                   "(unclean shutdown or a cut copy; Kafka's recovery would truncate %s)\n",
                   P->incomplete_tail_bytes, plural(P->incomplete_tail_bytes, "byte", "bytes"),
                   P->incomplete_tail_bytes == 1 ? "does" : "do", P->incomplete_tail_bytes == 1 ? "it" : "them");
    if (P->tail_bytes > P->incomplete_tail_bytes)
        out_printf(o, "  tail          %" PRIu64 " zero %s at the end (preallocated)\n",
                   P->tail_bytes - P->incomplete_tail_bytes,
                   plural(P->tail_bytes - P->incomplete_tail_bytes, "byte", "bytes"));
    if (P->skipped_large_batches)
        out_printf(o, "  skipped       %" PRIu64 " %s larger than --max-batch-bytes\n", P->skipped_large_batches,
                   plural(P->skipped_large_batches, "batch", "batches"));
    if (P->outside_window)
        out_printf(o, "  window        %" PRIu64 " %s outside the window: read and known, not listed\n",
                   P->outside_window, plural(P->outside_window, "record", "records"));
    if (P->input->segments_not_given)
        out_printf(o,
                   "  part          %zu other segment %s of the partition's directory not given: their markers, "
                   "sessions and copies are not known\n",
                   P->input->segments_not_given, plural(P->input->segments_not_given, "file", "files"));
    if (c->verbose) producers_text_partition(c, i);
    out_ch(o, '\n');
}

static bool has_findings(const ss_an_partition *P) {
    return P->duplicate_groups || P->sequence_gaps || P->duplicate_sequences || P->txn_open || P->damage_events ||
           P->tail_bytes || P->segments_unreadable || P->skipped_large_batches;
}

static void text_summary(struct scan_cli *c) {
    ss_out *o = c->out;
    size_t np = ss_an_partition_count(c->an);
    /* many partitions: one line for each without findings (-v: every block) */
    bool compact = np > 20 && !c->verbose;
    size_t quiet = 0;
    for (uint32_t i = 0; i < np; i++) {
        const ss_an_partition *P = ss_an_partition_at(c->an, i);
        if (compact && !has_findings(P)) {
            quiet++;
            out_printf(o, "%s%s%s  %" PRIu64 " %s", scan_sgr(c, SGR_BOLD), P->input->name, scan_sgr(c, SGR_RST),
                       P->records, plural(P->records, "record", "records"));
            if (P->batches) out_printf(o, ", offsets %" PRId64 "..%" PRId64, P->first_offset, P->next_offset - 1);
            out_str(o, ", nothing to report\n");
            continue;
        }
        text_partition(c, i);
    }
    if (quiet) out_ch(o, '\n');
    const ss_an_totals *t = ss_an_totals_get(c->an);
    out_printf(o, "%stotal%s  %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s in %" PRIu64 " %s\n",
               scan_sgr(c, SGR_BOLD), scan_sgr(c, SGR_RST), t->partitions,
               plural(t->partitions, "partition", "partitions"), t->segments,
               plural(t->segments, "segment", "segments"), t->records, plural(t->records, "record", "records"),
               t->batches, plural(t->batches, "batch", "batches"));
    out_str(o, "  duplicates    ");
    if (t->duplicate_groups) {
        out_printf(o, "%s%" PRIu64 " %s, %" PRIu64 " extra %s%s:", scan_sgr(c, SGR_RED), t->duplicate_groups,
                   plural(t->duplicate_groups, "group", "groups"), t->duplicate_records,
                   plural(t->duplicate_records, "copy", "copies"), scan_sgr(c, SGR_RST));
        for (enum ss_cause k = SS_CAUSE_ABORTED; k < SS_CAUSE_COUNT; k++)
            if (t->cause[k]) out_printf(o, " %s %" PRIu64, ss_cause_name(k), t->cause[k]);
        if (t->open_copies) out_printf(o, " (%" PRIu64 " in open transactions)", t->open_copies);
    } else {
        out_str(o, "none");
    }
    out_ch(o, '\n');
    out_printf(o, "  sequences     %" PRIu64 " %s, %" PRIu64 " explained, %" PRIu64 " %s with a repeated sequence\n",
               t->sequence_gaps, plural(t->sequence_gaps, "gap", "gaps"), t->sequence_gaps_explained,
               t->duplicate_sequences, plural(t->duplicate_sequences, "record", "records"));
    out_printf(o,
               "  transactions  %" PRIu64 " committed, %" PRIu64 " aborted, %" PRIu64 " open (%" PRIu64 " hanging)\n",
               t->txn_committed, t->txn_aborted, t->txn_open, t->txn_hanging);
    out_printf(o, "  damaged       %" PRIu64 " %s\n", t->damaged_bytes, plural(t->damaged_bytes, "byte", "bytes"));
    scan_groups_summary(c);
    size_t ng = ss_an_group_count(c->an);
    if (ng) {
        size_t show = ng < c->top ? ng : (size_t)c->top;
        out_printf(o, "\n%sduplicate groups%s (largest first; %zu of %zu shown", scan_sgr(c, SGR_BOLD),
                   scan_sgr(c, SGR_RST), show, ng);
        if (show < ng) out_str(o, "; --top N or 'segscan dups' for more");
        out_str(o, ")\n");
        for (size_t g = 0; g < show; g++) dups_text_group(c, g, c->verbose ? SIZE_MAX : 5, false);
    }
}

/* scan: the summary, or (--json) every partition, group, session and transaction and the total */
static void scan_print(struct scan_cli *c) {
    size_t np = ss_an_partition_count(c->an);
    if (c->json) {
        for (uint32_t i = 0; i < np; i++) scan_json_partition(c, i);
        size_t ng = ss_an_group_count(c->an);
        if (c->top_set && c->top < ng) ng = (size_t)c->top;
        for (size_t g = 0; g < ng; g++) dups_json_group(c, g, false);
        for (size_t s = 0; s < ss_an_session_count(c->an); s++) producers_json_session(c, ss_an_session_at(c->an, s));
        for (size_t t = 0; t < ss_an_txn_count(c->an); t++) txns_json_txn(c, ss_an_txn_at(c->an, t));
        scan_groups_json(c);
        scan_json_total(c);
    } else {
        text_summary(c);
    }
}

static const struct scan_command scan_command = {
    .name = "scan",
    .usage_args = "",
    .description = "Summarise partitions: records, producers, duplicate copies and their causes, sequences,\n"
                   "transactions, damage.",
    .txn_ids = true,
    .print = scan_print,
};

int cmd_scan(int argc, char **argv) { return scan_run(&scan_command, argc, argv); }
