/* segscan CLI - --html FILE: one partition's chart, offsets over time (html_int.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "groups/gfindings.h"
#include "html/html_int.h"

static const char *const palette[10] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
                                        "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79"};
static const char *const gpalette[MAX_GROUPS] = {"#000000", "#6b3d00", "#004d40", "#4a148c",
                                                 "#880e4f", "#1a237e", "#33691e", "#3e2723"};

/* colour of a producer session in a chart: by its rank among the chart's sessions */
typedef struct sess_colours {
    int64_t pid[10];
    int16_t epoch[10];
    size_t n;
} sess_colours;
static const char *colour_of(sess_colours *sc, int64_t pid, int16_t epoch) {
    if (pid < 0) return "#aaaaaa";
    for (size_t k = 0; k < sc->n; k++)
        if (sc->pid[k] == pid && sc->epoch[k] == epoch) return palette[k];
    if (sc->n < 10) {
        sc->pid[sc->n] = pid;
        sc->epoch[sc->n] = epoch;
        return palette[sc->n++];
    }
    return "#cccccc";
}

/* the batches: one vertical stroke each (time, base..last), or one bar per column */
static void draw_batches(page *p, chart *c, sess_colours *sc) {
    ss_out *o = p->o;
    const axes *a = &c->ax;
    size_t n = ss_tl_batch_count(c->tl);
    ss_tl_batch b;
    out_printf(o, "<g data-kind=\"batches\" data-count=\"%zu\" data-binned=\"%s\">\n", n,
               n > MAX_BATCHES ? "true" : "false");
    if (n <= MAX_BATCHES) {
        for (size_t i = 0; i < n; i++) {
            ss_tl_batch_at(c->tl, i, &b);
            int64_t t = a->no_time ? (int64_t)i : b.max_timestamp;
            double x = html_xs(a, t), y0 = html_ys(a, b.base_offset), y1 = html_ys(a, ss_next_offset(b.last_offset));
            if (y0 - y1 < 2) y1 = y0 - 2;
            if (b.control) {
                out_printf(o,
                           "<path data-kind=\"marker\" data-result=\"%s\" data-offset=\"%" PRId64
                           "\" class=\"ctl %s\" d=\"M%.1f %.1fl-3 -5h6z\"><title>",
                           b.commit  ? "commit"
                           : b.abort ? "abort"
                                     : "other",
                           b.base_offset,
                           b.commit  ? "commit"
                           : b.abort ? "abort"
                                     : "",
                           x, y0);
                out_printf(o, "%s marker at offset %" PRId64 ", pid %" PRId64 " epoch %d, ",
                           b.commit  ? "COMMIT"
                           : b.abort ? "ABORT"
                                     : "control",
                           b.base_offset, b.producer_id, b.producer_epoch);
                html_title_time(o, "", b.max_timestamp);
                out_lit(o, "</title></path>\n");
                continue;
            }
            out_printf(o,
                       "<line data-kind=\"batch\" data-offset=\"%" PRId64 "\" data-last=\"%" PRId64
                       "\" data-pid=\"%" PRId64 "\" data-epoch=\"%d\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                       "y2=\"%.1f\" stroke=\"%s\" class=\"batch\"><title>offsets %" PRId64 "..%" PRId64 " (%" PRId32
                       " records), ",
                       b.base_offset, b.last_offset, b.producer_id, b.producer_epoch, x, y0, x, y1,
                       colour_of(sc, b.producer_id, b.producer_epoch), b.base_offset, b.last_offset, b.records);
            if (b.producer_id >= 0) out_printf(o, "pid %" PRId64 " epoch %d, ", b.producer_id, b.producer_epoch);
            else out_lit(o, "no producer id, ");
            html_title_time(o, b.log_append_time ? "LogAppendTime " : "CreateTime ", b.max_timestamp);
            out_lit(o, "</title></line>\n");
        }
    } else {
        /* one bar per column: the offsets of the batches whose time falls in it, the colour of
         * its first batch's session */
        struct bin {
            int64_t lo, hi;
            uint64_t batches;
            int64_t pid;
            int16_t epoch;
        } *bins = calloc(BINS, sizeof *bins);
        if (bins) {
            for (size_t i = 0; i < n; i++) {
                ss_tl_batch_at(c->tl, i, &b);
                if (b.control) continue;
                int64_t t = a->no_time ? (int64_t)i : b.max_timestamp;
                size_t k = (size_t)((html_xs(a, t) - ML) / 2);
                if (k >= BINS) k = BINS - 1;
                struct bin *x = &bins[k];
                if (!x->batches) {
                    x->lo = b.base_offset;
                    x->hi = b.last_offset;
                    x->pid = b.producer_id;
                    x->epoch = b.producer_epoch;
                }
                if (b.base_offset < x->lo) x->lo = b.base_offset;
                if (b.last_offset > x->hi) x->hi = b.last_offset;
                x->batches++;
            }
            for (size_t k = 0; k < BINS; k++) {
                struct bin *x = &bins[k];
                if (!x->batches) continue;
                double y0 = html_ys(a, x->lo), y1 = html_ys(a, ss_next_offset(x->hi));
                if (y0 - y1 < 2) y1 = y0 - 2;
                out_printf(o,
                           "<rect data-kind=\"batch-bin\" data-batches=\"%" PRIu64 "\" data-offset=\"%" PRId64
                           "\" data-last=\"%" PRId64 "\" x=\"%zu\" y=\"%.1f\" width=\"2\" height=\"%.1f\" fill=\"%s\">"
                           "<title>%" PRIu64 " batches, offsets %" PRId64 "..%" PRId64 "</title></rect>\n",
                           x->batches, x->lo, x->hi, (size_t)ML + 2 * k, y1, y0 - y1, colour_of(sc, x->pid, x->epoch),
                           x->batches, x->lo, x->hi);
            }
            free(bins);
        }
    }
    out_lit(o, "</g>\n");
    /* the log end over time, as the findings read it (segscan/timeline.h): at each column's time
     * the first offset not yet present then, a step line */
    out_lit(o, "<polyline data-kind=\"log-end\" class=\"logend\" points=\"");
    if (!a->no_time) {
        double py = -1;
        for (int k = 0; k <= BINS; k++) {
            double x = ML + 2.0 * k;
            int64_t t = a->t0 + (int64_t)((double)(a->t1 - a->t0) * k / BINS);
            double y = html_ys(a, ss_tl_end_at(c->tl, t));
            if (py >= 0 && y != py) out_printf(o, "%.1f,%.1f ", x, py);
            if (py < 0 || y != py || k == BINS) out_printf(o, "%.1f,%.1f ", x, y);
            py = y;
        }
    }
    out_printf(o, "\"><title>the log end offset over time (%s)</title></polyline>\n",
               c->tl->basis == SS_TL_LOG_APPEND ? "LogAppendTime: exact"
                                                : "CreateTime: an upper bound while no producer clock runs ahead");
}

static void draw_segments(page *p, chart *c) {
    ss_out *o = p->o;
    const ss_input_partition *ip = c->ip;
    if (!ip) return;
    for (size_t j = 0; j < ip->nsegments; j++) {
        int64_t base = ip->segments[j].name_offset;
        if (base < 0 || base < c->ax.o0 || base > c->ax.o1) continue;
        double y = html_ys(&c->ax, base);
        out_printf(o,
                   "<line data-kind=\"segment\" data-offset=\"%" PRId64 "\" class=\"seg\" x1=\"%d\" y1=\"%.1f\" "
                   "x2=\"%d\" y2=\"%.1f\"><title>segment ",
                   base, ML, y, W - MR, y);
        html_esc(o, ip->segments[j].path ? ip->segments[j].path : "-");
        out_lit(o, "</title></line>\n");
    }
}

static void draw_txns(page *p, chart *c) {
    ss_analysis *an = p->s->an;
    ss_out *o = p->o;
    const axes *a = &c->ax;
    size_t drawn = 0, all = 0;
    size_t nt = ss_an_txn_count(an);
    /* open and aborted ones first, then committed */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = p->txn_start[c->an]; i < nt; i++) {
            const ss_an_txn *t = ss_an_txn_at(an, i);
            if (t->partition != (uint32_t)c->an) break;
            if ((pass == 0) != (t->result != SS_TXN_COMMIT)) continue;
            all++;
            if (drawn >= MAX_TXNS) continue;
            drawn++;
            int64_t t0 = t->first_timestamp, t1 = t->result == SS_TXN_OPEN ? a->t1 : t->marker_timestamp;
            int64_t last = t->marker_offset >= 0 ? t->marker_offset : t->last_offset;
            if (a->no_time) t0 = a->t0, t1 = a->t1;
            double x0 = html_xs(a, t0), x1 = html_xs(a, t1), y0 = html_ys(a, t->first_offset),
                   y1 = html_ys(a, ss_next_offset(last));
            if (x1 - x0 < 3) x1 = x0 + 3;
            if (y0 - y1 < 3) y1 = y0 - 3;
            const char *res = t->result == SS_TXN_COMMIT ? "commit" : t->result == SS_TXN_ABORT ? "abort" : "open";
            out_printf(o,
                       "<rect data-kind=\"txn\" data-result=\"%s\" data-hanging=\"%s\" data-pid=\"%" PRId64
                       "\" data-offset=\"%" PRId64 "\" data-last=\"%" PRId64 "\" class=\"txn %s%s\" x=\"%.1f\" "
                       "y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>transaction of pid %" PRId64
                       " epoch %d: %s, offsets %" PRId64 "..%" PRId64 ", %" PRIu64 " records",
                       res, t->hanging ? "true" : "false", t->producer_id, t->first_offset, last, res,
                       t->hanging ? " hanging" : "", x0, y1, x1 - x0, y0 - y1, t->producer_id, t->producer_epoch,
                       t->result == SS_TXN_COMMIT  ? "committed"
                       : t->result == SS_TXN_ABORT ? "aborted"
                       : t->hanging                ? "open, HANGING"
                                                   : "open",
                       t->first_offset, last, t->records);
            if (t->marker_offset >= 0) out_printf(o, ", marker at %" PRId64, t->marker_offset);
            out_lit(o, "</title></rect>\n");
        }
    }
    if (all > drawn)
        out_printf(o, "<text class=\"note\" x=\"%d\" y=\"%d\">%zu of %zu transactions drawn</text>\n", ML + 4, MT + 12,
                   drawn, all);
}

static void draw_sessions_marks(page *p, chart *c) {
    ss_analysis *an = p->s->an;
    ss_out *o = p->o;
    const axes *a = &c->ax;
    size_t gaps = 0;
    size_t i0 = 0;
    /* the first session of the partition */
    size_t lo = 0, hi = ss_an_session_count(an);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ss_an_session_at(an, mid)->partition < (uint32_t)c->an) lo = mid + 1;
        else hi = mid;
    }
    i0 = lo;
    for (size_t i = i0; i < ss_an_session_count(an); i++) {
        const ss_an_session *s = ss_an_session_at(an, i);
        if (s->partition != (uint32_t)c->an) break;
        if (s->epoch_bump) {
            double x = a->no_time ? ML : html_xs(a, s->first_timestamp), y = html_ys(a, s->first_offset);
            out_printf(o,
                       "<path data-kind=\"epoch-bump\" data-pid=\"%" PRId64
                       "\" data-epoch=\"%d\" data-offset=\"%" PRId64
                       "\" class=\"bump\" d=\"M%.1f %.1fl6 -10l6 10z\"><title>epoch bump of pid %" PRId64
                       ": epoch %d after %d, from offset %" PRId64 "</title></path>\n",
                       s->producer_id, s->producer_epoch, s->first_offset, x - 6, y, s->producer_id, s->producer_epoch,
                       s->previous_epoch, s->first_offset);
        }
        for (size_t g = 0; g < s->ngaps && gaps < MAX_GAPS; g++, gaps++) {
            const ss_an_gap *x = &s->gaps[g];
            double y0 = html_ys(a, ss_next_offset(x->after_offset)), y1 = html_ys(a, x->before_offset);
            if (y0 - y1 < 3) y1 = y0 - 3;
            /* a missing segment is counted as unexplained (a gap between segments is lost records
             * unless the log shows cleaning there) */
            const char *why = x->explained == SS_GAP_COMPACTION        ? "compaction"
                              : x->explained == SS_GAP_RETENTION       ? "retention"
                              : x->explained == SS_GAP_DAMAGE          ? "damage"
                              : x->explained == SS_GAP_MISSING_SEGMENT ? "missing-segment"
                              : x->explained == SS_GAP_HOLE            ? "hole"
                                                                       : "unexplained";
            bool explained =
                x->explained == SS_GAP_COMPACTION || x->explained == SS_GAP_RETENTION || x->explained == SS_GAP_DAMAGE;
            out_printf(o,
                       "<rect data-kind=\"gap\" data-pid=\"%" PRId64 "\" data-explained=\"%s\" data-after=\"%" PRId64
                       "\" data-before=\"%" PRId64 "\" class=\"gap%s\" x=\"%d\" y=\"%.1f\" width=\"%d\" "
                       "height=\"%.1f\"><title>sequence gap of pid %" PRId64 " epoch %d: sequences %" PRId32
                       "..%" PRId32 " missing between offsets %" PRId64 " and %" PRId64 " (%s)</title></rect>\n",
                       s->producer_id, why, x->after_offset, x->before_offset, explained ? " explained" : "", ML, y1,
                       W - ML - MR, y0 - y1, s->producer_id, s->producer_epoch, x->from, x->to, x->after_offset,
                       x->before_offset, why);
        }
    }
}

static void draw_damage(page *p, chart *c) {
    ss_analysis *an = p->s->an;
    ss_out *o = p->o;
    size_t nd = ss_an_damage_count(an);
    for (size_t i = 0; i < nd; i++) {
        const ss_an_damage *d = ss_an_damage_at(an, i);
        if (d->partition != (uint32_t)c->an) continue;
        int64_t off = d->err.base_offset;
        if (off < 0 && c->ip && d->segment < c->ip->nsegments) off = c->ip->segments[d->segment].name_offset;
        double y = html_ys(&c->ax, off < 0 ? c->ax.o0 : off);
        out_printf(o,
                   "<path data-kind=\"damage\" data-damage=\"%s\" data-segment=\"%" PRIu32 "\" data-position=\"%" PRIu64
                   "\" data-offset=\"%" PRId64 "\" class=\"damage\" d=\"M%d %.1fl8 -8m0 8l-8 -8\"><title>",
                   ss_errkind_is_damage(d->err.kind) ? "damage" : "notice", d->segment, d->err.position, off, ML + 2,
                   y + 4);
        html_esc(o, c->ip && d->segment < c->ip->nsegments ? c->ip->segments[d->segment].path : "-");
        out_printf(o, ": byte %" PRIu64 ": ", d->err.position);
        html_esc(o, d->err.msg);
        out_printf(o, " [%s]</title></path>\n", ss_errkind_name(d->err.kind));
    }
}

static void draw_copies(page *p, chart *c) {
    ss_analysis *an = p->s->an;
    ss_out *o = p->o;
    const axes *a = &c->ax;
    size_t ng = ss_an_dupgroup_count(an), drawn = 0, all = 0, seen = 0;
    bool explain = !strcmp(p->s->command, "explain");
    /* more groups than marks: every stride-th group of the partition, so that the marks drawn
     * spread over the partition (the groups come largest first, then by their original's place) */
    uint64_t here = ss_an_partition_at(an, (size_t)c->an)->duplicate_groups;
    size_t stride = explain || here <= MAX_COPIES / 2 ? 1 : (size_t)((here + MAX_COPIES / 2 - 1) / (MAX_COPIES / 2));
    for (size_t g = 0; g < ng; g++) {
        const ss_an_dupgroup *G = ss_an_dupgroup_at(an, g);
        if (explain && !(p->match_of && p->match_of[g])) continue;
        ss_an_copy orig;
        ss_an_dupgroup_copy(an, g, G->original, &orig);
        size_t in_here = 0;
        for (uint32_t j = 0; j < G->copies; j++) {
            ss_an_copy cp;
            ss_an_dupgroup_copy(an, g, j, &cp);
            if (cp.partition == (uint32_t)c->an && j != G->original) in_here++;
        }
        if (!in_here) continue;
        all += in_here;
        bool pick = seen++ % stride == 0 && drawn < MAX_COPIES;
        for (uint32_t j = 0; pick && j < G->copies; j++) {
            ss_an_copy cp;
            ss_an_dupgroup_copy(an, g, j, &cp);
            if (cp.partition != (uint32_t)c->an) continue;
            if (j != G->original) drawn++;
            double x = a->no_time ? ML + 8 : html_xs(a, cp.timestamp), y = html_ys(a, cp.offset);
            if (j == G->original) {
                out_printf(
                    o,
                    "<circle data-kind=\"original\" data-group=\"%zu\" data-offset=\"%" PRId64
                    "\" class=\"orig\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>group %zu: the original, offset %" PRId64
                    " (%" PRIu32 " copies)</title></circle>\n",
                    g + 1, cp.offset, x, y, g + 1, cp.offset, G->copies);
                continue;
            }
            const char *cause = ss_cause_name(cp.cause);
            if (orig.partition == cp.partition) {
                double ox = a->no_time ? ML + 8 : html_xs(a, orig.timestamp), oy = html_ys(a, orig.offset);
                out_printf(o,
                           "<line data-kind=\"copy-link\" class=\"link\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                           "y2=\"%.1f\"/>\n",
                           ox, oy, x, y);
            }
            out_printf(o,
                       "<circle data-kind=\"copy\" data-group=\"%zu\" data-cause=\"%s\" data-offset=\"%" PRId64
                       "\" data-original=\"%" PRId64 "\" data-original-partition=\"",
                       g + 1, cause ? cause : "", cp.offset, orig.offset);
            html_esc(o, ss_an_partition_at(an, orig.partition)->input->name);
            out_printf(
                o,
                "\" class=\"copy c-%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"><title>group %zu: copy at offset %" PRId64
                ", cause %s; original at ",
                cause ? cause : "", x, y, g + 1, cp.offset, cause ? cause : "");
            html_esc(o, ss_an_partition_at(an, orig.partition)->input->name);
            out_printf(o, " offset %" PRId64 "</title></circle>\n", orig.offset);
        }
    }
    c->copies = all;
    if (all > drawn)
        out_printf(o, "<text class=\"note\" x=\"%d\" y=\"%d\">%zu of %zu copies drawn (one group in %zu)</text>\n",
                   ML + 4, MT + 26, drawn, all, stride);
    /* explain: the matched records */
    size_t nm = ss_an_match_count(an);
    for (size_t i = 0; i < nm; i++) {
        const ss_an_match *m = ss_an_match_at(an, i);
        if (m->copy.partition != (uint32_t)c->an) continue;
        double x = a->no_time ? ML + 8 : html_xs(a, m->copy.timestamp), y = html_ys(a, m->copy.offset);
        out_printf(o,
                   "<circle data-kind=\"match\" data-offset=\"%" PRId64 "\" class=\"match\" cx=\"%.1f\" cy=\"%.1f\" "
                   "r=\"10\"><title>the record explained: offset %" PRId64 "</title></circle>\n",
                   m->copy.offset, x, y, m->copy.offset);
    }
}

/* the lane of group gi on chart c: its place among the chart's groups (its committed line's colour); groups that
 * share a partition each get their own, so that their owners' labels and their bands do not overprint and blend;
 * 0 for a group past MAX_GROUPS (not drawn as a line) */
static size_t lane_of(const chart *c, size_t gi) {
    for (size_t l = 0; l < c->ngl; l++)
        if (c->gl[l].group == gi) return l;
    return 0;
}

/* the lanes' labels: the group id of each, at the left of its row of owners' labels */
static void lane_labels(page *p, chart *c) {
    ss_out *o = p->o;
    if (c->ngl < 2) return;
    for (size_t l = 0; l < c->ngl; l++) {
        out_printf(o, "<text data-kind=\"lane\" data-lane=\"%zu\" data-group=\"", l);
        html_esc_len(o, c->gl[l].id, c->gl[l].id_len);
        out_printf(o, "\" class=\"lane\" fill=\"%s\" x=\"2\" y=\"%d\">", gpalette[l], MT + 10 + (int)l * 10);
        html_esc_n(o, (const uint8_t *)c->gl[l].id, c->gl[l].id_len, 14);
        out_lit(o, "</text>\n");
    }
}

/* the groups: owners, findings and their ranges, committed offsets */
static void draw_groups(page *p, chart *c) {
    const struct html_src *s = p->s;
    ss_out *o = p->o;
    const axes *a = &c->ax;
    if (!s->f) return;
    size_t nf = ss_findings_count(s->f), drawn = 0;
    /* the ranges first (under the marks) */
    for (size_t i = 0; i < nf && drawn < MAX_FINDINGS; i++) {
        const ss_finding *x = ss_findings_at(s->f, i);
        if (!html_same_tp(&x->tp, c)) continue;
        const struct {
            const char *kind;
            const ss_frange *r;
        } rs[3] = {{"redelivered", &x->redelivered}, {"likely", &x->likely}, {"skipped", &x->skipped}};
        for (int k = 0; k < 3; k++) {
            const ss_frange *r = rs[k].r;
            if (!r->set) continue;
            int64_t to = r->to < 0 ? a->o1 - 1 : r->to;
            double y0 = html_ys(a, r->from), y1 = html_ys(a, ss_next_offset(to)), x1 = html_xs(a, x->time);
            if (y0 - y1 < 3) y1 = y0 - 3;
            if (x1 - ML < 4) x1 = ML + 4;
            /* groups sharing the partition: each its lane, a slice of the band's width in its colour */
            size_t lane = lane_of(c, x->group), nl = c->ngl > 1 ? c->ngl : 1;
            double lw = (x1 - ML) / (double)nl, bx = ML + lw * (double)(lane < nl ? lane : 0);
            bool covers = false;
            if (!strcmp(s->command, "explain") && s->an)
                for (size_t m = 0; m < ss_an_match_count(s->an); m++) {
                    const ss_an_match *mm = ss_an_match_at(s->an, m);
                    if ((long)mm->copy.partition == c->an && ss_frange_holds(r, mm->copy.offset)) covers = true;
                }
            out_printf(o, "<rect data-kind=\"%s\" data-finding=\"%s\" data-group=\"", rs[k].kind,
                       ss_fkind_name(x->kind));
            html_esc_len(o, x->group_id, x->group_id_len);
            out_printf(o,
                       "\" data-from=\"%" PRId64 "\" data-to=\"%" PRId64
                       "\" data-certain=\"%s\" data-covers-match=\"%s\" data-lane=\"%zu\" "
                       "class=\"band %s%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"",
                       r->from, r->to, r->certain ? "true" : "false", covers ? "true" : "false", lane, rs[k].kind,
                       r->certain ? " certain" : "", bx, y1, lw, y0 - y1);
            if (c->ngl > 1) out_printf(o, " stroke=\"%s\"", gpalette[lane]);
            out_lit(o, "><title>");
            out_printf(o, "%s: offsets %" PRId64 "..",
                       k == 2       ? (r->certain ? "never received" : "possibly never received")
                       : r->certain ? "certainly delivered again"
                       : k == 1     ? "likely delivered twice"
                                    : "possibly delivered twice",
                       r->from);
            if (r->to < 0) out_lit(o, "(end unknown)");
            else out_i64(o, r->to);
            out_lit(o, " (group ");
            html_esc_len(o, x->group_id, x->group_id_len);
            out_printf(o, ", %s)</title></rect>\n", ss_fkind_name(x->kind));
            drawn++;
        }
    }
    /* owners: a tick at the top when one got the partition, its member id beside (in its group's lane) */
    lane_labels(p, c);
    size_t owners = 0;
    if (s->g) {
        for (size_t l = 0; l < c->ngl; l++) {
            const ss_group *G = ss_groups_at(s->g, c->gl[l].group);
            for (size_t k = 0; k < G->npartitions; k++) {
                const ss_gpartition *gp = &G->partitions[k];
                if (!html_same_tp(&gp->tp, c)) continue;
                for (size_t w = 0; w < gp->nowners && owners < MAX_OWNERS; w++, owners++) {
                    const ss_gowner *ow = &gp->owners[w];
                    double x = html_xs(a, ow->from_time);
                    out_lit(o, "<g data-kind=\"owner\" data-group=\"");
                    html_esc_len(o, G->id, G->id_len);
                    out_lit(o, "\" data-member=\"");
                    html_esc_len(o, ow->member_id, ow->member_id_len);
                    out_printf(o,
                               "\" data-time=\"%" PRId64 "\" data-generation=\"%" PRId32 "\"><line class=\"owner\" "
                               "x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"olab\" x=\"%.1f\" y=\"%d\">"
                               "g%" PRId32 " ",
                               ow->from_time, ow->generation_from, x, MT, x, H - MB, x + 2,
                               /* one group: its labels staggered over three rows; several: a row (lane) each */
                               MT + 10 + (c->ngl > 1 ? (int)l : (int)(w % 3)) * 10, ow->generation_from);
                    html_esc_n(o, (const uint8_t *)ow->member_id, ow->member_id_len, 18);
                    out_lit(o, "</text><title>");
                    html_title_time(o, "", ow->from_time);
                    out_printf(o, ": generation %" PRId32 " gives it to ", ow->generation_from);
                    html_esc_len(o, ow->member_id, ow->member_id_len);
                    if (ow->instance_id) {
                        out_lit(o, " (instance ");
                        html_esc_len(o, ow->instance_id, ow->instance_id_len);
                        out_ch(o, ')');
                    }
                    out_lit(o, ", group ");
                    html_esc_len(o, G->id, G->id_len);
                    if (ow->start_committed >= 0) out_printf(o, "; resumes from %" PRId64, ow->start_committed);
                    out_lit(o, "</title></g>\n");
                }
            }
        }
    }
    /* committed offsets: a step line per group */
    for (size_t l = 0; l < c->ngl; l++) {
        struct gline *gl = &c->gl[l];
        out_lit(o, "<polyline data-kind=\"committed\" data-group=\"");
        html_esc_len(o, gl->id, gl->id_len);
        out_printf(o, "\" data-commits=\"%" PRIu64 "\" class=\"committed\" stroke=\"%s\" points=\"", gl->commits,
                   gpalette[l]);
        double py = -1;
        for (size_t k = 0; k < gl->npts; k++) {
            int64_t t = gl->pts[2 * k], off = gl->pts[2 * k + 1];
            if (off < 0) {
                /* offsets deleted: the line ends here; a new one starts at the next commit */
                out_lit(o, "\"/>\n<polyline data-kind=\"committed\" data-group=\"");
                html_esc_len(o, gl->id, gl->id_len);
                out_printf(o, "\" data-commits=\"0\" class=\"committed\" stroke=\"%s\" points=\"", gpalette[l]);
                py = -1;
                continue;
            }
            double x = html_xs(a, t), y = html_ys(a, off);
            if (py >= 0) out_printf(o, "%.1f,%.1f ", x, py);
            out_printf(o, "%.1f,%.1f ", x, y);
            py = y;
        }
        if (py >= 0) out_printf(o, "%.1f,%.1f", (double)(W - MR), py);
        out_lit(o, "\"><title>committed offset of group ");
        html_esc_len(o, gl->id, gl->id_len);
        out_lit(o, "</title></polyline>\n");
    }
    /* the findings' marks: a vertical line at their time */
    drawn = 0;
    for (size_t i = 0; i < nf && drawn < MAX_FINDINGS; i++) {
        const ss_finding *x = ss_findings_at(s->f, i);
        if (!html_same_tp(&x->tp, c)) continue;
        drawn++;
        double fx = html_xs(a, x->time);
        int64_t off = x->kind == SS_FK_HANDOVER                           ? x->resumed_offset
                      : x->kind == SS_FK_REWIND || x->kind == SS_FK_RESET ? x->to_offset
                      : x->kind == SS_FK_OFFSETS_DELETED                  ? x->last_committed
                      : x->kind == SS_FK_OUT_OF_RANGE || x->kind == SS_FK_ABORTED_COMMIT || x->kind == SS_FK_OPEN_COMMIT
                          ? x->commit_offset
                          : -1;
        out_printf(o, "<g data-kind=\"%s\" data-group=\"", ss_fkind_name(x->kind));
        html_esc_len(o, x->group_id, x->group_id_len);
        out_printf(o, "\" data-time=\"%" PRId64 "\" data-offset=\"%" PRId64 "\"", x->time, off);
        if (x->kind == SS_FK_REWIND || x->kind == SS_FK_RESET)
            out_printf(o, " data-from-offset=\"%" PRId64 "\"", x->from_offset);
        out_printf(o, "><line class=\"finding f-%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
                   ss_fkind_name(x->kind), fx, MT, fx, H - MB);
        if (off >= 0)
            out_printf(o, "<circle class=\"fdot f-%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>", ss_fkind_name(x->kind), fx,
                       html_ys(a, off));
        out_lit(o, "<title>");
        gf_text(&p->sc.o, x, "");
        html_scratch_take(&p->sc, o, 2000);
        out_lit(o, "</title></g>\n");
    }
}

static void legend(page *p, chart *c, const sess_colours *sc) {
    ss_out *o = p->o;
    out_lit(o, "<ul class=\"legend\">");
    for (size_t k = 0; k < sc->n && k < MAX_LEGEND; k++) {
        out_printf(o,
                   "<li data-kind=\"session\" data-pid=\"%" PRId64 "\" data-epoch=\"%d\"><span class=\"sw\" "
                   "style=\"background:%s\"></span>pid %" PRId64 " epoch %d",
                   sc->pid[k], sc->epoch[k], palette[k], sc->pid[k], sc->epoch[k]);
        const ss_an_session *s =
            c->an >= 0 ? html_session_of(p, (uint32_t)c->an, sc->pid[k], sc->epoch[k], NULL) : NULL;
        if (s) {
            out_printf(o, " (%" PRIu64 " records%s%s", s->records, s->transactional ? ", transactional" : "",
                       s->epoch_bump ? ", epoch bump" : "");
            if (s->ngaps) out_printf(o, ", %zu %s", s->ngaps, plural(s->ngaps, "gap", "gaps"));
            out_ch(o, ')');
        }
        out_lit(o, "</li>");
    }
    out_lit(o, "<li><span class=\"sw\" style=\"background:#aaaaaa\"></span>no producer id</li>");
    if (sc->n >= 10) out_lit(o, "<li><span class=\"sw\" style=\"background:#cccccc\"></span>other sessions</li>");
    for (size_t l = 0; l < c->ngl; l++) {
        out_printf(o, "<li><span class=\"sw\" style=\"background:%s\"></span>committed offset of group ", gpalette[l]);
        html_esc_len(o, c->gl[l].id, c->gl[l].id_len);
        out_lit(o, "</li>");
    }
    if (c->groups_more) out_printf(o, "<li>%zu more groups not drawn</li>", c->groups_more);
    out_lit(o, "</ul>\n<ul class=\"legend\">");
    if (c->copies)
        out_lit(o, "<li data-kind=\"causes\">&#9679; copies by cause: <span class=\"sw c-retry\"></span>retry "
                   "<span class=\"sw c-new-session\"></span>new-session <span class=\"sw c-same-session\"></span>"
                   "same-session <span class=\"sw c-aborted\"></span>aborted <span class=\"sw c-cross-partition\">"
                   "</span>cross-partition <span class=\"sw c-resend-no-idempotence\"></span>resend-no-idempotence "
                   "<span class=\"sw c-dup-sequence\"></span>dup-sequence; &#9675; the original</li>");
    out_lit(o, "<li>boxes: transactions (green committed, red aborted, yellow open, thick red: hanging)</li>"
               "<li>bands: records delivered twice (orange) or possibly never received (blue)</li>"
               "<li>dashed: the log end; dotted: segment starts</li></ul>\n");
}

void html_chart_svg(page *p, chart *c) {
    ss_out *o = p->o;
    sess_colours sc;
    memset(&sc, 0, sizeof sc);
    out_printf(o, "<svg data-kind=\"chart\" data-partition=\"");
    html_esc(o, c->name);
    out_printf(
        o, "\" viewBox=\"0 0 %d %d\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\"><title>offsets over time of ", W,
        H);
    html_esc(o, c->name);
    out_lit(o, "</title>\n");
    html_draw_axes(o, &c->ax);
    draw_segments(p, c);
    if (c->an >= 0 && p->s->an) draw_txns(p, c);
    draw_groups(p, c);
    if (c->an >= 0 && p->s->an) draw_sessions_marks(p, c);
    if (c->tl) draw_batches(p, c, &sc);
    if (c->an >= 0 && p->s->an) {
        draw_copies(p, c);
        draw_damage(p, c);
    }
    out_lit(o, "</svg>\n");
    legend(p, c, &sc);
}
