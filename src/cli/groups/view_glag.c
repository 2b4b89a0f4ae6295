/* segscan CLI - a consumer group's lag and Burrow status (segscan/lag.h): the
 * text lines of `groups`, its group-lag and group-status JSON objects, the
 * --report keys and the HTML page's table. What rests on an approximation says
 * so where it is printed: under CreateTime the log end at a time is an upper
 * bound (a producer's clock, not the broker's append time), so the lags at past
 * times are upper bounds and the ages lower bounds (segscan/timeline.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "groups/glag.h"
#include "groups/groups_cli.h"
#include "segscan/findings.h"
#include "segscan/lag.h"

int64_t gl_now(const gcli *c) {
    if (c->f) return ss_findings_now(c->f);
    if (c->fo.has_now) return c->fo.now_ms;
    return c->tl ? ss_timelines_max_timestamp(c->tl) : -1;
}

/* why the status is what it is, in words (p: the partition's history, whose commit, when there is
 * one, says why no committed offset stands: ss_group_lag finds one only negative then) */
static void text_reason(ss_out *o, const ss_gpartition *p, const ss_plag *l) {
    size_t n = l->ncommits;
    switch (l->status) {
    case SS_LAG_UNKNOWN:
        switch (l->why) {
        case SS_LAGW_NO_DATA:
            out_lit(o, "the data partition was not read: lag unknown, and every rule of Burrow's starts from it");
            break;
        case SS_LAGW_NO_COMMIT:
            if (p->committed)
                out_lit(o, "the offset committed at \"now\" is negative, which is no position: no lag to measure "
                           "(auto.offset.reset decides where a consumer starts)");
            else
                out_lit(o, "no committed offset stands: no lag to measure (auto.offset.reset decides where a consumer "
                           "starts)");
            break;
        case SS_LAGW_NO_TOPIC: out_lit(o, "the topic is known by id only: its data partition cannot be matched"); break;
        default:
            out_lit(o, "no commit kept up to \"now\" (the log's last 10 are kept: \"now\" is before them), or "
                       "memory ran out");
            break;
        }
        return;
    case SS_LAG_OK:
        if (l->rule == 1 && l->lag == 0) out_lit(o, "no lag (Burrow rule 1)");
        else if (l->rule == 1) out_lit(o, "the lag was zero at a commit of the window (Burrow rule 1)");
        else
            out_printf(o, "the lag went down within the last %zu %s (Burrow rules 2-5 do not hold)", n,
                       plural(n, "commit", "commits"));
        break;
    case SS_LAG_REWIND:
        out_printf(o, "a commit of the last %zu moved the committed offset back (Burrow rule 2)", n);
        break;
    case SS_LAG_STOP: {
        int64_t since = ss_sat_sub64(l->now, l->commits[n - 1].time),
                span = ss_sat_sub64(l->commits[n - 1].time, l->commits[0].time);
        out_printf(o, "no commit for %" PRId64 " ms, longer than the last %zu %s span (%" PRId64 " ms; Burrow rule 3)",
                   since, n, plural(n, "commit", "commits"), span);
        break;
    }
    case SS_LAG_STALL:
        out_printf(o, "the last %zu %s committed offset %" PRId64 " while the lag stayed (Burrow rule 4)", n,
                   plural(n, "commit", "commits"), l->commits[n - 1].offset);
        break;
    case SS_LAG_WARN:
        out_printf(o, "the lag never went down over the last %zu %s (Burrow rule 5)", n,
                   plural(n, "commit", "commits"));
        break;
    default: break;
    }
    if (n < SS_LAG_INTERVALS) out_printf(o, "; %zu of Burrow's %d intervals", n, SS_LAG_INTERVALS);
}

static void text_partition(gcli *c, const ss_gpartition *p, const ss_plag *l) {
    ss_out *o = c->o;
    char t[64];
    out_lit(o, "    ");
    gc_text_tp(o, &p->tp);
    out_printf(o, "  %s: ", ss_lag_status_name(l->status));
    text_reason(o, p, l);
    if (l->log_end < 0) {
        /* nothing measured: what stands, on the same line */
        if (l->committed >= 0) out_printf(o, " (committed %" PRId64 ")", l->committed);
        out_ch(o, '\n');
        return;
    }
    out_ch(o, '\n');
    out_lit(o, "      ");
    if (l->committed >= 0) out_printf(o, "committed %" PRId64, l->committed);
    else out_lit(o, "no committed offset");
    if (l->before_end) out_lit(o, " (at \"now\": the last commit up to it; later ones left out)");
    if (l->log_end >= 0) out_printf(o, ", log end %" PRId64, l->log_end);
    else out_lit(o, ", log end unknown");
    if (l->high_watermark >= 0)
        out_printf(o, " (high watermark %" PRId64 " in replication-offset-checkpoint)", l->high_watermark);
    if (l->lag >= 0) {
        out_printf(o, ", lag %" PRId64 " %s", l->lag, plural((uint64_t)l->lag, "record", "records"));
        if (l->lag_hw >= 0) out_printf(o, " (%" PRId64 " to the high watermark)", l->lag_hw);
        if (l->age_ms > 0) out_printf(o, ", the first unconsumed one %" PRId64 " ms old", l->age_ms);
        else if (l->age_ms < 0) out_lit(o, ", its age unknown (no timestamp)");
    } else {
        out_lit(o, ", lag unknown");
    }
    out_ch(o, '\n');
    if (l->lag_at_commit >= 0) {
        gc_tstr(t, sizeof t, l->commit_time);
        out_printf(o, "      at the last commit (%s): log end %" PRId64 ", lag %" PRId64, t, l->log_end_at_commit,
                   l->lag_at_commit);
        if (l->age_at_commit_ms > 0)
            out_printf(o, ", the first unconsumed record %" PRId64 " ms old", l->age_at_commit_ms);
        out_ch(o, '\n');
    }
}

void gl_text(gcli *c, size_t gi) {
    const ss_group *g = ss_groups_at(c->g, gi);
    size_t n = g->npartitions;
    if (!n) return;
    int64_t now = gl_now(c);
    ss_out *o = c->o;
    char t[64];
    gc_tstr(t, sizeof t, now);
    out_printf(o, "  lag at %s (%s), Burrow's status over each partition's last %d commits:\n", t,
               c->fo.has_now ? "--now" : "the newest timestamp read; --now to change", SS_LAG_INTERVALS);
    bool create = false;
    for (size_t k = 0; k < n; k++) {
        ss_plag l;
        if (!ss_group_lag(c->g, gi, k, c->tl, now, &l)) return;
        g = ss_groups_at(c->g, gi);
        if (l.basis == SS_TL_CREATE && l.status != SS_LAG_UNKNOWN) create = true;
        if (gc_tp_selected(c, &g->partitions[k].tp)) text_partition(c, &g->partitions[k], &l);
    }
    if (create)
        out_lit(o, "    (CreateTime: the log end at a past time is an upper bound, so the lags at the commits are "
                   "upper bounds and the ages lower bounds: the producers' clocks, not the brokers' append times)\n");
    ss_glag s;
    if (!ss_group_lag_sum(c->g, gi, c->tl, now, &s)) return;
    out_printf(o, "  status %s", ss_lag_status_name(s.status));
    if (s.status == SS_LAG_UNKNOWN && s.evaluated)
        out_printf(o, " (%zu of %zu partitions evaluated, the worst %s; the others' lag is unknown)", s.evaluated,
                   s.partitions, ss_lag_status_name(s.worst));
    else if (s.status == SS_LAG_UNKNOWN) out_lit(o, " (no partition's lag is known)");
    else out_lit(o, " (Burrow: its worst partition, ERR at most)");
    if (s.total_lag >= 0)
        out_printf(o, ", total lag %" PRId64 "%s", s.total_lag,
                   s.evaluated < s.partitions ? " (of the partitions evaluated)" : "");
    out_ch(o, '\n');
}

static void json_tp(ss_out *o, const ss_gtp_ref *t) {
    out_json_key(o, "topic");
    gc_json_bytes(o, t->topic, t->topic_len);
    out_json_key(o, "partition");
    out_i64(o, t->partition);
}

void gl_json(gcli *c, size_t gi) {
    ss_out *o = c->o;
    int64_t now = gl_now(c);
    const ss_group *g = ss_groups_at(c->g, gi);
    for (size_t k = 0; k < g->npartitions; k++) {
        ss_plag l;
        if (!ss_group_lag(c->g, gi, k, c->tl, now, &l)) return;
        g = ss_groups_at(c->g, gi);
        const ss_gpartition *p = &g->partitions[k];
        if (!gc_tp_selected(c, &p->tp)) continue;
        out_lit(o, "{\"type\":\"group-lag\",\"group\":");
        gc_json_bytes(o, g->id, g->id_len);
        json_tp(o, &p->tp);
        out_json_key(o, "status");
        out_json_cstr(o, ss_lag_status_name(l.status));
        out_json_key(o, "rule");
        if (l.status == SS_LAG_UNKNOWN) out_lit(o, "null");
        else out_i64(o, l.rule);
        out_json_key(o, "lagKnown");
        out_json_cstr(o, ss_lag_why_name(l.why));
        out_json_key(o, "basis");
        out_json_cstr(o, ss_tl_basis_name((enum ss_tl_basis)l.basis));
        out_json_key(o, "now");
        gc_json_i64_or_null(o, l.now);
        out_kv_opt(o, "committed", l.committed);
        out_kv_bool(o, "nowBeforeEnd", l.before_end);
        out_json_key(o, "commitTime");
        gc_json_i64_or_null(o, l.commit_time);
        out_kv_opt(o, "logEnd", l.log_end);
        out_kv_opt(o, "highWatermark", l.high_watermark);
        out_kv_opt(o, "lag", l.lag);
        out_kv_opt(o, "lagHighWatermark", l.lag_hw);
        out_kv_opt(o, "ageMs", l.age_ms);
        out_kv_opt(o, "logEndAtCommit", l.log_end_at_commit);
        out_kv_opt(o, "lagAtCommit", l.lag_at_commit);
        out_kv_opt(o, "ageAtCommitMs", l.age_at_commit_ms);
        out_json_key(o, "window");
        out_ch(o, '[');
        for (size_t i = 0; i < l.ncommits; i++) {
            const ss_lag_commit *w = &l.commits[i];
            out_printf(o, "%s{\"time\":%" PRId64 ",\"offset\":%" PRId64 ",\"logEnd\":%" PRId64 ",\"lag\":%" PRId64 "}",
                       i ? "," : "", w->time, w->offset, w->log_end, w->lag);
        }
        out_lit(o, "]}\n");
    }
    ss_glag s;
    if (!ss_group_lag_sum(c->g, gi, c->tl, now, &s)) return;
    g = ss_groups_at(c->g, gi);
    out_lit(o, "{\"type\":\"group-status\",\"group\":");
    gc_json_bytes(o, g->id, g->id_len);
    out_json_key(o, "status");
    out_json_cstr(o, ss_lag_status_name(s.status));
    out_json_key(o, "worst");
    out_json_cstr(o, ss_lag_status_name(s.worst));
    out_kv_u64(o, "partitions", s.partitions);
    out_kv_u64(o, "evaluated", s.evaluated);
    out_kv_opt(o, "totalLag", s.total_lag);
    out_kv_opt(o, "maxLag", s.max_lag);
    out_json_key(o, "maxLagPartition");
    if (s.max_lag >= 0) {
        out_ch(o, '{');
        const ss_gtp_ref *t = &g->partitions[s.max_lag_part].tp;
        out_lit(o, "\"topic\":");
        gc_json_bytes(o, t->topic, t->topic_len);
        out_printf(o, ",\"partition\":%" PRId32 "}", t->partition);
    } else {
        out_lit(o, "null");
    }
    out_json_key(o, "now");
    gc_json_i64_or_null(o, now);
    out_lit(o, "}\n");
}

void gl_report(FILE *f, ss_groups *g, size_t gi, const ss_timelines *tl, int64_t now,
               void (*key)(FILE *, const char *, size_t)) {
    const ss_group *grp = ss_groups_at(g, gi);
    for (size_t k = 0; k < grp->npartitions; k++) {
        ss_plag l;
        if (!ss_group_lag(g, gi, k, tl, now, &l)) return;
        grp = ss_groups_at(g, gi);
        const ss_gtp_ref *t = &grp->partitions[k].tp;
        if (!t->topic) continue;
        const struct {
            const char *name;
            int64_t v;
        } kv[] = {{"log_end", l.log_end}, {"lag", l.lag}, {"lag_high_watermark", l.lag_hw}, {"lag_ms", l.age_ms}};
        for (size_t i = 0; i < sizeof kv / sizeof *kv; i++) {
            fputs("group.", f);
            key(f, grp->id, grp->id_len);
            fprintf(f, ".%s-%" PRId32 ".%s=", t->topic, t->partition, kv[i].name);
            fprintf(f, "%" PRId64 "\n", kv[i].v < 0 ? (int64_t)-1 : kv[i].v); /* the report's unknown */
        }
        fputs("group.", f);
        key(f, grp->id, grp->id_len);
        fprintf(f, ".%s-%" PRId32 ".status=%s\n", t->topic, t->partition, ss_lag_status_name(l.status));
    }
    ss_glag s;
    if (!ss_group_lag_sum(g, gi, tl, now, &s)) return;
    grp = ss_groups_at(g, gi);
    fputs("group.", f);
    key(f, grp->id, grp->id_len);
    fprintf(f, ".status=%s\n", ss_lag_status_name(s.status));
}

/* text in an HTML cell */
static void html_esc(ss_out *o, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '<': out_lit(o, "&lt;"); break;
        case '>': out_lit(o, "&gt;"); break;
        case '&': out_lit(o, "&amp;"); break;
        case '"': out_lit(o, "&quot;"); break;
        default: out_ch(o, s[i]); break;
        }
    }
}

static bool id_selected(const ss_group *g, const char *const *ids, size_t nids) {
    if (!ids || !nids) return true;
    for (size_t i = 0; i < nids; i++)
        if (strlen(ids[i]) == g->id_len && !memcmp(ids[i], g->id, g->id_len)) return true;
    return false;
}

#define GL_HTML_MAX_ROWS 500

void gl_html_table(ss_out *o, ss_groups *g, const ss_timelines *tl, int64_t now, const char *const *ids, size_t nids) {
    size_t rows = 0, total = 0;
    for (size_t gi = 0; gi < ss_groups_count(g); gi++) total += ss_groups_at(g, gi)->npartitions;
    if (!total) return;
    out_printf(o,
               "<h2>Consumer lag and status</h2>\n<p>The lag at the newest timestamp read (or --now); the status "
               "by Burrow's evaluator over each partition's last %d commits (a group: its worst partition, ERR "
               "at most).</p>\n<table data-kind=\"table-lag\"><tr><th>group</th><th>group status</th>"
               "<th>partition</th><th>status</th><th>committed</th><th>log end</th><th>lag</th><th>age (ms)</th>"
               "<th>why</th></tr>\n",
               SS_LAG_INTERVALS);
    for (size_t gi = 0; gi < ss_groups_count(g) && rows < GL_HTML_MAX_ROWS; gi++) {
        const ss_group *grp = ss_groups_at(g, gi);
        if (!id_selected(grp, ids, nids)) continue;
        ss_glag s;
        if (!ss_group_lag_sum(g, gi, tl, now, &s)) continue;
        for (size_t k = 0; k < s.partitions && rows < GL_HTML_MAX_ROWS; k++, rows++) {
            ss_plag l;
            if (!ss_group_lag(g, gi, k, tl, now, &l)) break;
            grp = ss_groups_at(g, gi);
            const ss_gtp_ref *t = &grp->partitions[k].tp;
            out_printf(o, "<tr data-kind=\"lag-row\" data-status=\"%s\"><td>", ss_lag_status_name(l.status));
            html_esc(o, grp->id, grp->id_len);
            out_printf(o, "</td><td>%s</td><td>", ss_lag_status_name(s.status));
            if (t->topic) html_esc(o, t->topic, t->topic_len);
            else if (t->topic_id) html_esc(o, t->topic_id, strlen(t->topic_id));
            out_printf(o, "-%" PRId32 "</td><td>%s</td>", t->partition, ss_lag_status_name(l.status));
            const int64_t v[] = {l.committed, l.log_end, l.lag, l.age_ms};
            for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
                if (v[i] < 0) out_lit(o, "<td class=\"n\">-</td>");
                else out_printf(o, "<td class=\"n\">%" PRId64 "</td>", v[i]);
            }
            out_printf(o, "<td>%s</td></tr>\n", ss_lag_why_name(l.why));
        }
    }
    out_lit(o, "</table>\n");
    if (rows >= GL_HTML_MAX_ROWS)
        out_printf(o, "<p>%d of %zu partitions listed ('segscan groups' lists all).</p>\n", GL_HTML_MAX_ROWS, total);
}
