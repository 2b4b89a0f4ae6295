/* segscan [scan] PATH... - what is in these partitions, and what is duplicated?
 *
 * The summary (text), and the total object of scan --json. scan_run.c parses
 * the options and runs the analysis.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "commands/commands.h"
#include "common/out.h"
#include "views/figures.h"
#include "views/scan.h"

/* ---- text summary -------------------------------------------------------------------- */

/* A partition's block: its figures' lines (figures.c), and what is no list of
 * figures: the temporary copy's sentence (a name and its meaning) and the few
 * sessions named under the producers line (sessions, not figures). */
static void text_partition(struct scan_cli *c, uint32_t i) {
    ss_out *o = c->out;
    const ss_an_partition *P = ss_an_partition_at(c->an, i);
    const ss_input_partition *ip = P->input;
    figs_text(c, partition_lines, PL_HEAD, PL_HEAD, partition_figs, npartition_figs, P);
    if (ip->temporary)
        out_printf(o, "  a temporary copy of %s (%s: %s), read because of --include-temp\n",
                   ip->temporary_of ? ip->temporary_of : "its partition", ip->temporary,
                   scan_temporary_meaning(ip->temporary));
    figs_text(c, partition_lines, PL_NOBATCHES, PL_PRODUCERS, partition_figs, npartition_figs, P);
    if (P->batches && !c->verbose && P->sessions && P->sessions <= 3) {
        /* a few sessions: name them (-v and 'segscan producers' say more) */
        for (size_t k = scan_sessions_from(c->an, i); k < ss_an_session_count(c->an); k++) {
            const ss_an_session *s = ss_an_session_at(c->an, k);
            if (s->partition != i) break;
            out_printf(o, "                pid %" PRId64 " epoch %d%s: %" PRIu64 " %s", s->producer_id,
                       s->producer_epoch, s->transactional ? " (transactional)" : "", s->records,
                       plural(s->records, "record", "records"));
            if (s->nranges) {
                out_str(o, ", sequences");
                for (size_t r = 0; r < s->nranges; r++)
                    out_printf(o, "%s[%" PRId32 ",%" PRId32 "]", r ? "," : " ", s->ranges[r].first, s->ranges[r].last);
            }
            out_ch(o, '\n');
        }
    }
    figs_text(c, partition_lines, PL_DUPS, PL_COUNT - 1, partition_figs, npartition_figs, P);
    scan_holes_text(c, i);
    scan_replicas_text(c, i);
    if (c->verbose) producers_text_partition(c, i);
    out_ch(o, '\n');
}

static bool has_findings(const ss_an_partition *P) {
    return P->duplicate_groups || P->sequence_gaps || P->duplicate_sequences || P->txn_open || P->damage_events ||
           P->holes || P->tail_bytes || P->segments_unreadable || P->skipped_large_batches;
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
    figs_text(c, total_lines, TL_HEAD, TL_COUNT - 1, total_figs, ntotal_figs, ss_an_totals_get(c->an));
    scan_unreadable_text(c);
    scan_groups_summary(c);
    size_t ng = ss_an_dupgroup_count(c->an);
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
        size_t ng = ss_an_dupgroup_count(c->an);
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
    .description = "Summarise partitions: records, producers, duplicate copies and their causes,\n"
                   "sequences, transactions, damage. A partition given from several brokers'\n"
                   "directories is one partition with replicas (each offset read once).",
    .txn_ids = true,
    .print = scan_print,
};

int cmd_scan(int argc, char **argv) { return scan_run(&scan_command, argc, argv); }
