/* segscan CLI - --html FILE: the page's header and its tables (html_int.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "groups/gfindings.h"
#include "groups/glag.h"
#include "html/html_int.h"
#include "views/figures.h"

/* The partition table's figures (views/figures.c's tables, their HTML columns): the column heads,
 * <th>head</th> in column order; a row's cells in the columns of COLS (the partition table's): OF's
 * figure in each, an empty cell where FIGS has none. */
/* the figure of column COL, NULL: none */
static const struct fig *html_col(const struct fig *figs, size_t n, int col) {
    for (size_t i = 0; i < n; i++)
        if (figs[i].hk != FH_NONE && figs[i].hcol == col) return &figs[i];
    return NULL;
}

static void figs_html_head(ss_out *o, const struct fig *figs, size_t n) {
    const struct fig *g;
    for (int col = 1; (g = html_col(figs, n, col)); col++) out_printf(o, "<th>%s</th>", g->html);
}

static void figs_html_row(ss_out *o, const struct fig *cols, size_t ncols, const struct fig *figs, size_t n,
                          const void *of) {
    for (int col = 1; html_col(cols, ncols, col); col++) {
        const struct fig *g = html_col(figs, n, col);
        if (!g) {
            out_lit(o, "<td></td>");
            continue;
        }
        struct fig_val v = g->get(of);
        switch (g->hk) {
        case FH_U64: out_printf(o, "<td class=\"n\">%" PRIu64 "</td>", v.u); break;
        case FH_NAME:
            out_lit(o, "<td>");
            html_esc(o, v.s);
            out_lit(o, "</td>");
            break;
        case FH_RANGE:
            if (v.u) out_printf(o, "<td>%" PRId64 "..%" PRId64 "</td>", v.lo, v.hi);
            else out_lit(o, "<td>-</td>");
            break;
        case FH_TOTAL: out_printf(o, "<th>total (%" PRIu64 ")</th>", v.u); break;
        case FH_NONE: break;
        }
    }
}

/* ---- header and tables --------------------------------------------------------------------- */

static const char *exit_meaning(int rc) {
    switch (rc) {
    case EXIT_OK: return "0: done; nothing --fail-on asked for was found";
    case EXIT_FINDINGS: return "1: a finding named by --fail-on was found";
    case EXIT_TROUBLE: return "2: a usage error or an input that could not be read (the page shows what was read)";
    case EXIT_DAMAGE: return "3: damaged input was met (skipped; the rest was analysed)";
    default: return "?";
    }
}

static void li(ss_out *o, bool bad) { out_printf(o, "<li class=\"%s\">", bad ? "bad" : "ok"); }

void html_header(page *p) {
    const struct html_src *s = p->s;
    ss_out *o = p->o;
    out_lit(o, "<h1>segscan ");
    html_esc(o, s->command);
    out_lit(o, "</h1>\n<p>Command line: <code>segscan");
    for (int i = 0; i < s->argc; i++) {
        out_ch(o, ' ');
        html_esc(o, s->argv[i]);
    }
    out_lit(o, "</code></p>\n<table><tr><th>read</th><td>");
    size_t npart = ss_inputs_count(s->in), nseg = 0;
    for (size_t i = 0; i < npart; i++) nseg += ss_inputs_at(s->in, i)->nsegments;
    out_printf(o, "%zu %s, %zu %s", npart, plural(npart, "partition", "partitions"), nseg,
               plural(nseg, "segment", "segments"));
    out_lit(o, "</td></tr>\n<tr><th>window</th><td>");
    char t1[64], t2[64];
    bool any = false;
    if (s->since_ms != INT64_MIN || s->until_ms != INT64_MAX) {
        html_tstr(t1, sizeof t1, s->since_ms == INT64_MIN ? -1 : s->since_ms);
        html_tstr(t2, sizeof t2, s->until_ms == INT64_MAX ? -1 : s->until_ms);
        out_printf(o, "time %s .. %s; ", s->since_ms == INT64_MIN ? "(open)" : t1,
                   s->until_ms == INT64_MAX ? "(open)" : t2);
        any = true;
    }
    if (s->from_offset != INT64_MIN || s->to_offset != INT64_MAX) {
        if (s->from_offset != INT64_MIN) out_printf(o, "offsets from %" PRId64 " ", s->from_offset);
        if (s->to_offset != INT64_MAX) out_printf(o, "offsets to %" PRId64 " ", s->to_offset);
        any = true;
    }
    if (!any) out_lit(o, "none: every record read");
    out_lit(o,
            " <small>(the charts draw every batch header of the partitions)</small></td></tr>\n<tr><th>scope</th><td>");
    any = false;
    if (s->filter_pid) {
        out_printf(o, "producer id %" PRId64 "; ", s->producer_id);
        any = true;
    }
    for (size_t i = 0; i < s->ngroup_ids; i++) {
        out_lit(o, "group ");
        html_esc(o, s->group_ids[i]);
        out_lit(o, "; ");
        any = true;
    }
    if (!any) out_lit(o, "every producer and group");
    out_lit(o, "</td></tr>\n<tr><th>exit status</th><td>");
    html_esc(o, exit_meaning(s->rc));
    out_lit(o, "</td></tr></table>\n<h2>Verdict</h2>\n<ul class=\"verdict\">\n");
    if (s->an) {
        const ss_an_totals *t = ss_an_totals_get(s->an);
        li(o, t->duplicate_groups);
        if (t->duplicate_groups) {
            out_printf(o, "%" PRIu64 " duplicate %s (by %s), %" PRIu64 " extra %s:", t->duplicate_groups,
                       plural(t->duplicate_groups, "group", "groups"), ss_by_name(s->by), t->duplicate_records,
                       plural(t->duplicate_records, "copy", "copies"));
            for (enum ss_cause k = SS_CAUSE_ABORTED; k < SS_CAUSE_COUNT; k++)
                if (t->cause[k])
                    out_printf(o,
                               " <span data-kind=\"cause-total\" data-cause=\"%s\" data-count=\"%" PRIu64
                               "\">%s %" PRIu64 "</span>",
                               ss_cause_name(k), t->cause[k], ss_cause_name(k), t->cause[k]);
        } else {
            out_printf(o, "no duplicates (by %s) in %" PRIu64 " %s", ss_by_name(s->by), t->records,
                       plural(t->records, "record", "records"));
        }
        out_lit(o, "</li>\n");
        li(o, t->sequence_gaps || t->duplicate_sequences);
        out_printf(o,
                   "%" PRIu64 " sequence %s (%" PRIu64 " consistent with compaction or explained by damage), %" PRIu64
                   " %s with a repeated sequence, %" PRIu64 " epoch %s</li>\n",
                   t->sequence_gaps, plural(t->sequence_gaps, "gap", "gaps"), t->sequence_gaps_explained,
                   t->duplicate_sequences, plural(t->duplicate_sequences, "record", "records"), t->epoch_bumps,
                   plural(t->epoch_bumps, "bump", "bumps"));
        li(o, t->txn_open);
        out_printf(o,
                   "transactions: %" PRIu64 " committed, %" PRIu64 " aborted, %" PRIu64 " open (%" PRIu64
                   " hanging)</li>\n",
                   t->txn_committed, t->txn_aborted, t->txn_open, t->txn_hanging);
        li(o, t->damaged_bytes);
        out_printf(o, "%" PRIu64 " damaged %s, %" PRIu64 " unread tail %s</li>\n", t->damaged_bytes,
                   plural(t->damaged_bytes, "byte", "bytes"), t->tail_bytes, plural(t->tail_bytes, "byte", "bytes"));
    }
    if (s->f) {
        uint64_t by[SS_FK_COUNT] = {0};
        size_t nf = ss_findings_count(s->f);
        for (size_t i = 0; i < nf; i++) by[ss_findings_at(s->f, i)->kind]++;
        li(o, nf);
        out_printf(o, "consumer groups: %zu %s, %zu %s:", ss_groups_count(s->g),
                   plural(ss_groups_count(s->g), "group", "groups"), nf, plural(nf, "finding", "findings"));
        for (int k = 1; k < SS_FK_COUNT; k++)
            if (by[k]) out_printf(o, " %s %" PRIu64, ss_fkind_name((enum ss_fkind)k), by[k]);
        out_lit(o, "</li>\n");
    } else if (s->an) {
        out_lit(o, "<li>no __consumer_offsets partition among the inputs: nothing is said of the consumer "
                   "groups</li>\n");
    }
    out_lit(o, "</ul>\n");
}

static void td_n(ss_out *o, uint64_t v) { out_printf(o, "<td class=\"n\">%" PRIu64 "</td>", v); }
static void td_i(ss_out *o, int64_t v) { out_printf(o, "<td class=\"n\">%" PRId64 "</td>", v); }

/* the partitions and the total, a row each */
static void table_partitions(ss_out *o, ss_analysis *an) {
    size_t np = ss_an_partition_count(an);
    out_printf(o, "<h2>Partitions</h2>\n<table data-kind=\"table-partitions\" data-rows=\"%zu\"><tr>",
               np < MAX_ROWS ? np : (size_t)MAX_ROWS);
    figs_html_head(o, partition_figs, npartition_figs);
    out_lit(o, "</tr>\n");
    for (size_t i = 0; i < np && i < MAX_ROWS; i++) {
        out_lit(o, "<tr>");
        figs_html_row(o, partition_figs, npartition_figs, partition_figs, npartition_figs, ss_an_partition_at(an, i));
        out_lit(o, "</tr>\n");
    }
    out_lit(o, "<tr>");
    figs_html_row(o, partition_figs, npartition_figs, total_figs, ntotal_figs, ss_an_totals_get(an));
    out_lit(o, "</tr></table>\n");
    if (np > MAX_ROWS)
        out_printf(o, "<p>%zu of %zu partitions listed; the total counts all.</p>\n", (size_t)MAX_ROWS, np);
}

/* the duplicate groups, a row a copy, largest first */
static void table_dupgroups(ss_out *o, ss_analysis *an) {
    char ts[64];
    size_t ng = ss_an_dupgroup_count(an);
    if (ng) {
        size_t rows = 0;
        out_printf(o,
                   "<h2>Duplicate groups</h2>\n<p>%zu %s, largest first.</p>\n<table data-kind=\"table-groups\">"
                   "<tr><th>group</th><th>partition</th><th>offset</th><th>time</th><th>producer</th>"
                   "<th>sequence</th><th>cause</th></tr>\n",
                   ng, plural(ng, "group", "groups"));
        size_t g;
        for (g = 0; g < ng && rows < MAX_ROWS; g++) {
            const ss_an_dupgroup *G = ss_an_dupgroup_at(an, g);
            for (uint32_t j = 0; j < G->copies && rows < MAX_ROWS; j++, rows++) {
                ss_an_copy cp;
                ss_an_dupgroup_copy(an, g, j, &cp);
                out_printf(o, "<tr data-kind=\"copy-row\" data-cause=\"%s\"><td class=\"n\">%zu</td><td>",
                           j == G->original ? "original" : ss_cause_name(cp.cause), g + 1);
                html_esc(o, ss_an_partition_at(an, cp.partition)->input->name);
                out_lit(o, "</td>");
                td_i(o, cp.offset);
                html_tstr(ts, sizeof ts, cp.timestamp);
                out_printf(o, "<td>%s</td>", ts);
                if (cp.producer_id >= 0)
                    out_printf(o, "<td>pid %" PRId64 " epoch %d</td>", cp.producer_id, cp.producer_epoch);
                else out_lit(o, "<td>none</td>");
                td_i(o, cp.sequence);
                out_printf(o, "<td>%s%s%s</td></tr>\n", j == G->original ? "original" : ss_cause_name(cp.cause),
                           cp.aborted ? " (aborted)" : "", cp.open ? " (open)" : "");
            }
        }
        out_lit(o, "</table>\n");
        if (g < ng || rows >= MAX_ROWS)
            out_printf(o, "<p>The first %zu rows; 'segscan dups' lists all %zu groups.</p>\n", rows, ng);
    }
}

/* the producer sessions, the notable ones first */
static void table_sessions(ss_out *o, ss_analysis *an) {
    size_t nsess = ss_an_session_count(an);
    if (nsess) {
        out_printf(o,
                   "<h2>Producer sessions</h2>\n<p>%zu %s; those with gaps, repeated sequences or an epoch bump "
                   "first.</p>\n<table data-kind=\"table-sessions\"><tr><th>partition</th><th>producer</th>"
                   "<th>offsets</th><th>records</th><th>sequences</th><th>gaps</th><th>repeated</th>"
                   "<th>epoch bump</th></tr>\n",
                   nsess, plural(nsess, "session", "sessions"));
        size_t rows = 0;
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < nsess && rows < MAX_ROWS; i++) {
                const ss_an_session *x = ss_an_session_at(an, i);
                bool notable = x->ngaps || x->repeated_sequences || x->epoch_bump || x->out_of_order_batches;
                if ((pass == 0) != notable) continue;
                rows++;
                out_lit(o, "<tr><td>");
                html_esc(o, ss_an_partition_at(an, x->partition)->input->name);
                out_printf(o, "</td><td>pid %" PRId64 " epoch %d%s</td><td>%" PRId64 "..%" PRId64 "</td>",
                           x->producer_id, x->producer_epoch, x->transactional ? " (transactional)" : "",
                           x->first_offset, x->last_offset);
                td_n(o, x->records);
                out_lit(o, "<td>");
                for (size_t r = 0; r < x->nranges && r < 8; r++)
                    out_printf(o, "%s[%" PRId32 ",%" PRId32 "]", r ? " " : "", x->ranges[r].first, x->ranges[r].last);
                if (x->nranges > 8) out_lit(o, " ...");
                out_lit(o, "</td>");
                td_n(o, x->ngaps + x->more_gaps);
                td_n(o, x->repeated_sequences);
                if (x->epoch_bump) out_printf(o, "<td>from epoch %d</td></tr>\n", x->previous_epoch);
                else out_lit(o, "<td></td></tr>\n");
            }
        out_lit(o, "</table>\n");
        if (rows < nsess) out_printf(o, "<p>%zu of %zu sessions listed.</p>\n", rows, nsess);
    }
}

/* the transactions, open and aborted ones first */
static void table_txns(ss_out *o, ss_analysis *an) {
    char ts[64];
    size_t ntx = ss_an_txn_count(an);
    if (ntx) {
        out_printf(o,
                   "<h2>Transactions</h2>\n<p>%zu; open and aborted ones first.</p>\n<table data-kind=\"table-txns\">"
                   "<tr><th>partition</th><th>producer</th><th>offsets</th><th>records</th><th>result</th>"
                   "<th>marker</th><th>began</th><th>ended</th></tr>\n",
                   ntx);
        size_t rows = 0;
        for (int pass = 0; pass < 3; pass++)
            for (size_t i = 0; i < ntx && rows < MAX_ROWS; i++) {
                const ss_an_txn *x = ss_an_txn_at(an, i);
                int rank = x->result == SS_TXN_OPEN ? 0 : x->result == SS_TXN_ABORT ? 1 : 2;
                if (rank != pass) continue;
                rows++;
                out_lit(o, "<tr><td>");
                html_esc(o, ss_an_partition_at(an, x->partition)->input->name);
                out_printf(o, "</td><td>pid %" PRId64 " epoch %d</td><td>%" PRId64 "..%" PRId64 "</td>", x->producer_id,
                           x->producer_epoch, x->first_offset, x->last_offset);
                td_n(o, x->records);
                out_printf(o, "<td class=\"%s\">%s%s%s</td>", rank < 2 ? "bad" : "ok", ss_txn_result_name(x->result),
                           x->hanging ? " (hanging)" : "", x->empty ? " (empty)" : "");
                td_i(o, x->marker_offset);
                html_tstr(ts, sizeof ts, x->first_timestamp);
                out_printf(o, "<td>%s</td>", ts);
                html_tstr(ts, sizeof ts, x->result == SS_TXN_OPEN ? -1 : x->marker_timestamp);
                out_printf(o, "<td>%s</td></tr>\n", ts);
            }
        out_lit(o, "</table>\n");
        if (rows < ntx) out_printf(o, "<p>%zu of %zu transactions listed ('segscan txns' lists all).</p>\n", rows, ntx);
    }
}

/* the damage met, a row an event */
static void table_damage(ss_out *o, ss_analysis *an) {
    size_t nd = ss_an_damage_count(an);
    if (nd) {
        out_printf(o, "<h2>Damage</h2>\n<table data-kind=\"table-damage\"><tr><th>file</th><th>byte</th>"
                      "<th>base offset</th><th>kind</th><th>reason</th></tr>\n");
        for (size_t i = 0; i < nd && i < MAX_ROWS; i++) {
            const ss_an_damage *d = ss_an_damage_at(an, i);
            const ss_input_partition *ip = ss_an_partition_at(an, d->partition)->input;
            out_lit(o, "<tr><td>");
            html_esc(o, ip->segments[d->segment].path ? ip->segments[d->segment].path : "-");
            out_lit(o, "</td>");
            td_n(o, d->err.position);
            td_i(o, d->err.base_offset);
            out_printf(o, "<td>%s</td><td>", ss_errkind_name(d->err.kind));
            html_esc(o, d->err.msg);
            out_lit(o, "</td></tr>\n");
        }
        out_lit(o, "</table>\n");
        if (nd > MAX_ROWS) out_printf(o, "<p>%d of %zu listed.</p>\n", MAX_ROWS, nd);
    }
}

/* the consumer groups' findings, a row each with its text */
static void table_findings(page *p, ss_findings *f) {
    ss_out *o = p->o;
    char ts[64];
    size_t nf = ss_findings_count(f);
    out_printf(o, "<h2>Consumer groups' findings</h2>\n<p>%zu %s.</p>\n", nf, plural(nf, "finding", "findings"));
    if (nf) {
        out_lit(o, "<table data-kind=\"table-findings\"><tr><th>group</th><th>partition</th><th>time</th>"
                   "<th>kind</th><th>what it says</th></tr>\n");
        for (size_t i = 0; i < nf && i < MAX_ROWS; i++) {
            const ss_finding *x = ss_findings_at(f, i);
            out_printf(o, "<tr data-kind=\"finding-row\" data-finding=\"%s\"><td>", ss_fkind_name(x->kind));
            html_esc_len(o, x->group_id, x->group_id_len);
            out_lit(o, "</td><td>");
            if (x->tp.topic || x->tp.topic_id) {
                gf_tp_text(&p->sc.o, &x->tp);
                html_scratch_take(&p->sc, o, 300);
            }
            html_tstr(ts, sizeof ts, x->time);
            out_printf(o, "</td><td>%s</td><td>%s</td><td><pre>", ts, ss_fkind_name(x->kind));
            gf_text(&p->sc.o, x, "");
            html_scratch_take(&p->sc, o, 4000);
            out_lit(o, "</pre></td></tr>\n");
        }
        out_lit(o, "</table>\n");
        if (nf > MAX_ROWS)
            out_printf(o, "<p>%d of %zu findings listed ('segscan groups' lists all).</p>\n", MAX_ROWS, nf);
    }
}

void html_tables(page *p) {
    const struct html_src *s = p->s;
    ss_out *o = p->o;
    ss_analysis *an = s->an;
    if (an) {
        table_partitions(o, an);
        table_dupgroups(o, an);
        table_sessions(o, an);
        table_txns(o, an);
        table_damage(o, an);
    }
    if (s->f) table_findings(p, s->f);
    if (s->g && s->f) gl_html_table(o, s->g, s->tl, ss_findings_now(s->f), s->group_ids, s->ngroup_ids);
}

void html_text_block(page *p, const char *title) {
    const struct html_src *s = p->s;
    ss_out *o = p->o;
    if (!s->text) return;
    out_printf(o, "<h2>%s</h2>\n<pre data-kind=\"text-output\">", title);
    size_t n = s->text_len;
    /* the text printers wrote it for a terminal (escaped already): only the markup's characters */
    for (size_t i = 0; i < n; i++) {
        char ch = s->text[i];
        if (ch == '&') out_lit(o, "&amp;");
        else if (ch == '<') out_lit(o, "&lt;");
        else if (ch == '>') out_lit(o, "&gt;");
        else out_ch(o, ch);
    }
    out_lit(o, "</pre>\n");
    if (n < s->text_total)
        out_printf(o, "<p>The first %zu of %zu bytes; the command without --html prints all.</p>\n", n, s->text_total);
}
