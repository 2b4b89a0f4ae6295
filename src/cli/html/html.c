/* segscan CLI - --html FILE: the page (html.h).
 *
 * One self-contained HTML file: inline SVG and CSS, no script, nothing fetched
 * (a Content-Security-Policy of default-src 'none' says so to the browser), so
 * that it opens offline and in a ticket system's attachment viewer. Hover
 * details are SVG <title> elements; zoom is the browser's.
 *
 * Every mark carries data-kind (and data-offset, data-time, ...) attributes, so
 * that a test can count them in the rendered DOM. The page stays under
 * HTML_MAX_BYTES whatever the input: a partition with more batches than a chart
 * has columns is drawn in bins (one column each), marks are capped per chart,
 * tables show their first rows with the totals, and charts past a byte budget
 * are left out with a sentence saying so.
 */
#include "html/html.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "groups/gfindings.h"
#include "html/html_int.h"
#include "views/scan.h"

/* the page's style: legible on paper too */
static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#111;max-width:1200px}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}"
    "table{border-collapse:collapse;margin:.5em 0;font-size:13px}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}th{background:#f3f3f3}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "pre{background:#f7f7f7;border:1px solid #ddd;padding:.6em;white-space:pre-wrap;font-size:12px}"
    ".verdict li{margin:.2em 0}.bad{color:#b00020}.ok{color:#1b5e20}"
    "svg{width:100%;height:auto;max-width:960px;display:block}"
    "svg text{font:11px system-ui,sans-serif}"
    ".plot{fill:#fff;stroke:#999}.grid{stroke:#eee}.ylab{text-anchor:end;fill:#444}.xlab{fill:#444}"
    ".axis{fill:#222;font-weight:600}"
    ".batch{stroke-width:3}.logend{fill:none;stroke:#333;stroke-width:1;stroke-dasharray:4 2}"
    ".seg{stroke:#888;stroke-dasharray:2 3}"
    ".ctl{fill:#555}.ctl.commit{fill:#2e7d32}.ctl.abort{fill:#c62828}"
    ".txn{fill-opacity:.12;stroke-width:1}.txn.commit{fill:#2e7d32;stroke:#2e7d32}"
    ".txn.abort{fill:#c62828;stroke:#c62828}.txn.open{fill:#f9a825;stroke:#f9a825}"
    ".txn.hanging{stroke-width:3;stroke:#d50000;fill-opacity:.25}"
    ".gap{fill:#d50000;fill-opacity:.18}.gap.explained{fill:#777;fill-opacity:.12}"
    ".bump{fill:#6a1b9a}.damage{stroke:#d50000;stroke-width:3;fill:none}"
    ".orig{fill:#fff;stroke:#000;stroke-width:1.5}.copy{stroke:#000;stroke-width:1}.link{stroke:#000;stroke-dasharray:3 2}"
    ".c-retry{fill:#ffeb3b;background:#ffeb3b}.c-new-session{fill:#e53935;background:#e53935}.c-same-session{fill:#fb8c00;background:#fb8c00}.c-aborted{fill:#9e9e9e;background:#9e9e9e}"
    ".c-cross-partition{fill:#29b6f6;background:#29b6f6}.c-resend-no-idempotence{fill:#ab47bc;background:#ab47bc}.c-dup-sequence{fill:#8d6e63;background:#8d6e63}"
    ".match{fill:none;stroke:#d50000;stroke-width:3}"
    ".band{fill:#ff7043;fill-opacity:.18}.band.certain{fill-opacity:.35}.band.skipped{fill:#42a5f5}"
    ".band.likely{fill:#ff7043;fill-opacity:.28}"
    /* explain: the ranges that hold the matched record, outlined */
    ".band[data-covers-match=\"true\"]{stroke:#d50000;stroke-width:2}"
    ".owner{stroke:#0d47a1;stroke-dasharray:1 3}.olab{fill:#0d47a1;font-size:10px}.lane{font-size:10px}"
    ".committed{fill:none;stroke-width:2}"
    ".finding{stroke-width:1.5;stroke:#e65100}.fdot{fill:#e65100}.f-handover{stroke:#0d47a1}"
    ".fdot.f-handover{fill:#0d47a1}.f-rewind,.f-reset{stroke:#c62828}.fdot.f-rewind,.fdot.f-reset{fill:#c62828}"
    ".f-offsets-deleted{stroke:#6a1b9a}.fdot.f-offsets-deleted{fill:#6a1b9a}"
    ".note{fill:#b00020}"
    ".legend{display:flex;flex-wrap:wrap;gap:.3em 1em;list-style:none;padding:0;font-size:12px}"
    ".sw{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:middle;border:1px solid #444}"
    "details{margin:.6em 0}summary{cursor:pointer;font-weight:600}"
    "@media print{details{display:block}body{margin:0}svg{max-width:100%}pre{font-size:9px}}";

/* ---- the text output, captured --------------------------------------------------------- */

static ssize_t capture_write(void *cookie, const char *p, size_t n) {
    struct html_capture *c = cookie;
    c->total += n;
    if (c->len < HTML_TEXT_MAX) {
        size_t k = n < HTML_TEXT_MAX - c->len ? n : HTML_TEXT_MAX - c->len;
        memcpy(c->buf + c->len, p, k);
        c->len += k;
    }
    return (ssize_t)n;
}

FILE *html_capture_open(struct html_capture *c) {
    c->buf = malloc(HTML_TEXT_MAX);
    if (!c->buf) return NULL;
    cookie_io_functions_t io = {.write = capture_write};
    FILE *f = fopencookie(c, "w", io);
    if (!f) {
        free(c->buf);
        c->buf = NULL;
    }
    return f;
}

/* ---- building the charts ------------------------------------------------------------------- */

static int cmp_chart(const void *a, const void *b) {
    const chart *x = a, *y = b;
    if (x->findings != y->findings) return x->findings ? -1 : 1;
    int c = html_natcmp(x->topic, y->topic); /* naturally: topic2 before topic10 */
    if (c) return c;
    return x->partition < y->partition ? -1 : x->partition > y->partition;
}

static chart *find_chart(page *p, const ss_gtp_ref *t) {
    for (size_t i = 0; i < p->nch; i++)
        if (html_same_tp(t, &p->ch[i])) return &p->ch[i];
    return NULL;
}

static bool gl_push(struct gline *gl, int64_t t, int64_t off) {
    /* an item is a pair (time, offset) */
    if (gl->npts == gl->cap && !ss_array_grow(&gl->pts, &gl->cap, 2 * sizeof *gl->pts, 64)) return false;
    gl->pts[2 * gl->npts] = t;
    gl->pts[2 * gl->npts + 1] = off;
    gl->npts++;
    return true;
}

/* the committed offsets of every group over the charts' partitions (the effective commits, with
 * a break at each offset deletion); at most 4 points per column are kept of a line */
static void collect_commits(page *p) {
    const struct html_src *s = p->s;
    if (!s->g) return;
    size_t ng = ss_groups_count(s->g);
    for (size_t gi = 0; gi < ng; gi++) {
        const ss_group *G = ss_groups_at(s->g, gi);
        /* which charts it touches */
        for (size_t k = 0; k < G->npartitions; k++) {
            chart *c = find_chart(p, &G->partitions[k].tp);
            if (!c) continue;
            bool have = false;
            for (size_t l = 0; l < c->ngl; l++) have = have || c->gl[l].group == gi;
            if (have) continue;
            if (c->ngl == MAX_GROUPS) {
                c->groups_more++;
                continue;
            }
            struct gline *gl = &c->gl[c->ngl++];
            memset(gl, 0, sizeof *gl);
            gl->group = gi;
            gl->id = G->id;
            gl->id_len = G->id_len;
        }
    }
    for (size_t gi = 0; gi < ng; gi++) {
        ss_gcommit_iter *it = ss_group_commits(s->g, gi);
        if (!it) continue;
        ss_gcommit cm;
        chart *c = NULL;
        struct gline *gl = NULL;
        int lastcol = -1;
        size_t colfirst = 0;
        /* the commits come by topic and partition: the chart is looked up when they change */
        char cur[256];
        size_t curlen = SIZE_MAX;
        int32_t curpart = -1;
        while (ss_gcommit_next(it, &cm) == 1) {
            size_t tl = cm.tp.topic ? cm.tp.topic_len : 0;
            bool longname = tl > sizeof cur; /* looked up at every commit */
            if (longname) tl = 0;
            if (longname || curlen != tl || curpart != cm.tp.partition || (tl && memcmp(cur, cm.tp.topic, tl))) {
                c = find_chart(p, &cm.tp);
                gl = NULL;
                lastcol = -1;
                if (c)
                    for (size_t l = 0; l < c->ngl; l++)
                        if (c->gl[l].group == gi) gl = &c->gl[l];
                if (tl) memcpy(cur, cm.tp.topic, tl);
                curlen = longname ? SIZE_MAX : tl;
                curpart = cm.tp.partition;
            }
            if (!gl || !cm.effective || cm.effective_time < 0) continue;
            gl->commits++;
            int col = (int)((html_xs(&c->ax, cm.effective_time) - ML) / 2);
            if (col != lastcol) {
                colfirst = gl->npts;
                lastcol = col;
            }
            /* a column keeps its first point, its lowest, its highest and its last */
            if (gl->npts - colfirst >= 4) {
                int64_t *q = gl->pts + 2 * colfirst;
                int64_t lo = q[1], hi = q[1];
                for (size_t k = 1; k < gl->npts - colfirst; k++) {
                    if (q[2 * k + 1] < lo) lo = q[2 * k + 1];
                    if (q[2 * k + 1] > hi) hi = q[2 * k + 1];
                }
                if (cm.offset < lo) lo = cm.offset;
                if (cm.offset > hi) hi = cm.offset;
                q[3] = lo;
                q[5] = hi;
                q[6] = cm.effective_time;
                q[7] = cm.offset;
                q[2] = q[4] = q[0];
                continue;
            }
            gl_push(gl, cm.effective_time, cm.offset);
        }
        ss_gcommit_iter_free(it);
    }
    /* the offset deletions break the lines: inserted at their time */
    for (size_t gi = 0; gi < ng; gi++) {
        const ss_group *G = ss_groups_at(s->g, gi);
        for (size_t e = 0; e < G->nevents; e++) {
            const ss_gevent *ev = &G->events[e];
            if (ev->kind != SS_GEV_OFFSETS_DELETED) continue;
            chart *c = find_chart(p, &ev->tp);
            if (!c) continue;
            for (size_t l = 0; l < c->ngl; l++) {
                struct gline *gl = &c->gl[l];
                if (gl->group != gi) continue;
                size_t at = 0;
                while (at < gl->npts && gl->pts[2 * at] <= ev->time) at++;
                if (!gl_push(gl, 0, 0)) continue;
                memmove(gl->pts + 2 * at + 2, gl->pts + 2 * at, (gl->npts - 1 - at) * 2 * sizeof *gl->pts);
                gl->pts[2 * at] = ev->time;
                gl->pts[2 * at + 1] = -1;
            }
        }
    }
}

static void chart_axes(page *p, chart *c) {
    const struct html_src *s = p->s;
    axes *a = &c->ax;
    a->t0 = INT64_MAX;
    a->t1 = INT64_MIN;
    a->o0 = INT64_MAX;
    a->o1 = INT64_MIN;
    if (c->tl) {
        size_t n = ss_tl_batch_count(c->tl);
        ss_tl_batch b;
        for (size_t i = 0; i < n; i++) {
            ss_tl_batch_at(c->tl, i, &b);
            html_ext_t(a, b.max_timestamp);
        }
        if (n) {
            html_ext_o(a, c->tl->first_offset);
            html_ext_o(a, c->tl->next_offset);
        }
        if (a->t0 == INT64_MAX) {
            a->no_time = true;
            a->t0 = 0;
            a->t1 = n ? (int64_t)n - 1 : 1;
        }
    }
    if (c->an >= 0 && s->an) {
        const ss_an_partition *P = ss_an_partition_at(s->an, (size_t)c->an);
        if (P->batches) {
            html_ext_o(a, P->first_offset);
            html_ext_o(a, P->next_offset);
        }
    }
    if (!a->no_time && s->f) {
        for (size_t i = 0; i < ss_findings_count(s->f); i++) {
            const ss_finding *x = ss_findings_at(s->f, i);
            if (html_same_tp(&x->tp, c)) html_ext_t(a, x->time);
        }
    }
    if (!a->no_time && s->g) {
        for (size_t gi = 0; gi < ss_groups_count(s->g); gi++) {
            const ss_group *G = ss_groups_at(s->g, gi);
            for (size_t k = 0; k < G->npartitions; k++) {
                const ss_gpartition *gp = &G->partitions[k];
                if (!html_same_tp(&gp->tp, c)) continue;
                html_ext_t(a, gp->first_commit_time);
                html_ext_t(a, gp->last_commit_time);
                html_ext_o(a, gp->offset);
                for (size_t w = 0; w < gp->nowners; w++) {
                    html_ext_t(a, gp->owners[w].from_time);
                    html_ext_o(a, gp->owners[w].start_committed);
                    html_ext_o(a, gp->owners[w].last_commit_offset);
                }
            }
        }
    }
    /* nothing to draw (no value came: the ends are as set above; a value of Long.MAX_VALUE is one) */
    if (a->t1 == INT64_MIN) a->t0 = 0, a->t1 = 1;
    if (a->o1 == INT64_MIN) a->o0 = 0, a->o1 = 1;
    /* offsets and timestamps up to Long.MAX_VALUE are legal input: the ends saturate there */
    if (a->t1 <= a->t0) a->t1 = ss_next_offset(a->t0), a->t0 = a->t1 - 1;
    if (a->o1 <= a->o0) a->o1 = ss_next_offset(a->o0), a->o0 = a->o1 - 1;
    /* a little room on each side and at the top, so that no mark sits on an axis */
    int64_t dt = (a->t1 - a->t0) / 50 + 1, dof = (a->o1 - a->o0) / 50 + 1;
    if (!a->no_time && a->t0 >= dt) a->t0 -= dt;
    a->t1 = ss_sat_add64(a->t1, dt);
    a->o1 = ss_sat_add64(a->o1, dof);
}

static bool build_charts(page *p) {
    const struct html_src *s = p->s;
    size_t cap = 0;
    /* the analysis's data partitions, then the timelines' not among them (groups) */
    size_t na = s->an ? ss_an_partition_count(s->an) : 0;
    size_t nt = s->tl ? ss_timelines_count(s->tl) : 0;
    cap = na + nt;
    p->ch = calloc(cap ? cap : 1, sizeof *p->ch);
    if (!p->ch) return false;
    for (size_t i = 0; i < na; i++) {
        const ss_an_partition *P = ss_an_partition_at(s->an, i);
        const ss_input_partition *ip = P->input;
        if (ip->internal) continue;
        chart *c = &p->ch[p->nch++];
        c->topic = ip->topic;
        c->partition = ip->partition;
        c->name = ip->name;
        c->ip = ip;
        c->an = (long)i;
        c->tl = s->tl ? ss_timelines_find(s->tl, ip->topic, strlen(ip->topic), ip->partition) : NULL;
        c->findings = P->duplicate_groups || P->sequence_gaps || P->epoch_bumps || P->txn_open || P->txn_aborted ||
                      P->damage_events || P->tail_bytes;
    }
    for (size_t i = 0; i < nt; i++) {
        const ss_tl_partition *t = ss_timelines_at(s->tl, i);
        ss_gtp_ref ref = {.topic = t->topic, .topic_len = strlen(t->topic), .partition = t->partition};
        if (find_chart(p, &ref)) continue;
        chart *c = &p->ch[p->nch++];
        c->topic = t->topic;
        c->partition = t->partition;
        c->name = t->input->name;
        c->ip = t->input;
        c->an = -1;
        c->tl = t;
    }
    if (s->f)
        for (size_t i = 0; i < ss_findings_count(s->f); i++) {
            chart *c = find_chart(p, &ss_findings_at(s->f, i)->tp);
            if (c) c->findings = true;
        }
    if (s->an && !strcmp(s->command, "explain")) {
        /* the charts of the matched records first */
        for (size_t i = 0; i < p->nch; i++) p->ch[i].findings = false;
        for (size_t m = 0; m < ss_an_match_count(s->an); m++) {
            uint32_t part = ss_an_match_at(s->an, m)->copy.partition;
            for (size_t i = 0; i < p->nch; i++)
                if (p->ch[i].an == (long)part) p->ch[i].findings = true;
        }
    }
    qsort(p->ch, p->nch, sizeof *p->ch, cmp_chart);
    for (size_t i = 0; i < p->nch; i++) chart_axes(p, &p->ch[i]);
    collect_commits(p);
    if (s->an) {
        size_t np = ss_an_partition_count(s->an);
        p->txn_start = calloc(np + 1, sizeof *p->txn_start);
        if (!p->txn_start) return false;
        size_t nt2 = ss_an_txn_count(s->an);
        for (size_t i = 0; i <= np; i++) p->txn_start[i] = nt2;
        for (size_t i = nt2; i-- > 0;) p->txn_start[ss_an_txn_at(s->an, i)->partition] = i;
        size_t ng = ss_an_dupgroup_count(s->an);
        p->match_of = calloc(ng ? ng : 1, sizeof *p->match_of);
        if (!p->match_of) return false;
        for (size_t m = 0; m < ss_an_match_count(s->an); m++) {
            int64_t g = ss_an_match_at(s->an, m)->group;
            if (g >= 0 && (size_t)g < ng) p->match_of[g] = 1;
        }
    }
    return true;
}

/* A partition given from several directories (replicas once): its copies, the broker each came
 * from and what was read of it, in the words of the text's replicas line (escaped here). */
static void replicas_line(ss_out *o, const ss_input_partition *ip) {
    if (!ip || !ip->nreplicas) return;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return;
    ss_out t;
    out_init(&t, m);
    view_replicas_list(&t, ip);
    out_flush(&t);
    bool ok = !t.failed;
    out_free(&t);
    if (fclose(m) == 0 && ok && text) {
        out_printf(o, "<p class=\"replicas\">%zu copies (replicas), read as one partition:", ip->nreplicas);
        html_esc(o, text);
        out_lit(o, "</p>\n");
    }
    free(text);
}


/* ---- sizes ------------------------------------------------------------------------------- */


bool html_write(const struct html_src *s, const char *path) {
    page pg;
    memset(&pg, 0, sizeof pg);
    pg.s = s;
    char *mem = NULL;
    size_t memlen = 0;
    pg.mf = open_memstream(&mem, &memlen);
    if (!pg.mf || !html_scratch_open(&pg.sc)) {
        warnx_("--html: out of memory");
        if (pg.mf) fclose(pg.mf);
        free(mem);
        return false;
    }
    ss_out o;
    out_init(&o, pg.mf);
    pg.o = &o;
    bool ok = build_charts(&pg);
    out_lit(&o,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>segscan ");
    html_esc(&o, s->command);
    out_lit(&o, "</title>\n<style>");
    out_raw(&o, css, sizeof css - 1);
    out_lit(&o, "</style></head>\n<body>\n");
    html_header(&pg);
    bool explain = !strcmp(s->command, "explain");
    if (explain) html_text_block(&pg, "Explanation");
    out_printf(&o, "<h2>Offsets over time</h2>\n<p>%zu data %s%s.</p>\n", pg.nch,
               plural(pg.nch, "partition", "partitions"),
               pg.nch ? ", those with findings first (opened); the others folded" : "");
    size_t drawn = 0;
    for (size_t i = 0; ok && i < pg.nch; i++) {
        chart *c = &pg.ch[i];
        if (drawn >= MAX_CHARTS || html_page_bytes(&pg) > CHART_BUDGET) {
            out_printf(&o,
                       "<p data-kind=\"charts-left-out\" data-count=\"%zu\">%zu more %s not drawn, to keep the "
                       "page under 5 MB; the tables below list them.</p>\n",
                       pg.nch - i, pg.nch - i, plural(pg.nch - i, "partition", "partitions"));
            break;
        }
        drawn++;
        /* those with findings open; a short page opens every chart */
        out_printf(&o, "<details%s data-kind=\"partition\" data-partition=\"",
                   c->findings || pg.nch <= 3 ? " open" : "");
        html_esc(&o, c->name);
        out_lit(&o, "\"><summary>");
        html_esc(&o, c->name);
        /* the analysis's figures (batches that pass their CRC); the chart draws every header read */
        if (c->an >= 0 && s->an) {
            const ss_an_partition *P = ss_an_partition_at(s->an, (size_t)c->an);
            out_printf(&o, " &mdash; %" PRIu64 " %s in %" PRIu64 " %s", P->records,
                       plural(P->records, "record", "records"), P->batches, plural(P->batches, "batch", "batches"));
            if (P->batches) out_printf(&o, ", offsets %" PRId64 "..%" PRId64, P->first_offset, P->next_offset - 1);
        } else if (c->tl) {
            out_printf(&o, " &mdash; %" PRIu64 " %s in %" PRIu64 " %s, offsets %" PRId64 "..%" PRId64, c->tl->records,
                       plural(c->tl->records, "record", "records"), c->tl->batches,
                       plural(c->tl->batches, "batch", "batches"), c->tl->first_offset, c->tl->next_offset - 1);
        }
        if (c->tl) out_printf(&o, ", times by %s", ss_tl_basis_name(c->tl->basis));
        if (!c->findings) out_lit(&o, " (nothing to report)");
        out_lit(&o, "</summary>\n");
        replicas_line(&o, c->ip);
        html_chart_svg(&pg, c);
        out_lit(&o, "</details>\n");
    }
    html_tables(&pg);
    if (!explain) html_text_block(&pg, "The text output");
    out_lit(&o, "<p><small>Written by segscan. Every mark has a title: hover over it.</small></p>\n</body></html>\n");
    out_flush(&o);
    ok = ok && !o.failed;
    out_free(&o);
    fclose(pg.mf);
    html_scratch_close(&pg.sc);
    for (size_t i = 0; i < pg.nch; i++)
        for (size_t l = 0; l < pg.ch[i].ngl; l++) free(pg.ch[i].gl[l].pts);
    free(pg.ch);
    free(pg.txn_start);
    free(pg.match_of);
    if (!ok) {
        warnx_("--html: out of memory building the page");
        free(mem);
        return false;
    }
    FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    if (!f) {
        warnx_("--html: %s: cannot be written", path);
        free(mem);
        return false;
    }
    bool wok = fwrite(mem, 1, memlen, f) == memlen;
    if (f != stdout) wok = (fclose(f) == 0) && wok;
    else wok = (fflush(f) == 0) && wok;
    free(mem);
    if (!wok) warnx_("--html: %s: write failed", path);
    return wok;
}
