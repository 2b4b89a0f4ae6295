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
#include "html.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "gfindings.h"
#include "out.h"

/* ---- sizes ------------------------------------------------------------------------------- */

enum {
    W = 960,            /* chart width (viewBox units) */
    H = 380,            /* chart height */
    ML = 90,            /* left margin (offset labels) */
    MR = 16,            /* right margin */
    MT = 16,            /* top margin (owners' labels) */
    MB = 44,            /* bottom margin (time labels) */
    MAX_BATCHES = 1200, /* batches drawn one by one; past that, in bins */
    BINS = (W - ML - MR) / 2,
    MAX_COPIES = 400, /* copy marks per chart */
    MAX_TXNS = 300,   /* transaction spans per chart */
    MAX_GAPS = 100,
    MAX_FINDINGS = 300, /* finding marks per chart */
    MAX_OWNERS = 120,
    MAX_GROUPS = 8, /* committed-offset lines per chart */
    MAX_LEGEND = 12,
    MAX_ROWS = 100, /* rows of each table */
    MAX_CHARTS = 60,
};
/* the charts stop here (the tables and the text come after) */
#define CHART_BUDGET (3u * 1024u * 1024u)

static const char *const palette[10] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
                                        "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79"};
static const char *const gpalette[MAX_GROUPS] = {"#000000", "#6b3d00", "#004d40", "#4a148c",
                                                 "#880e4f", "#1a237e", "#33691e", "#3e2723"};

/* ---- escaping ---------------------------------------------------------------------------- */

/* Bytes as HTML text or attribute value: well-formed UTF-8 as is, with & < > " ' as
 * entities; control characters, C1 controls, bidirectional overrides and malformed bytes as
 * \xNN or \u{...} text, so that no group id or member id can break the markup or reorder what
 * is shown. At most max bytes are written, then "...". */
static void esc_lines(ss_out *o, const uint8_t *p, size_t n, size_t max, bool lines) {
    size_t i = 0;
    while (i < n) {
        if (i >= max) {
            out_lit(o, "...");
            return;
        }
        uint8_t b = p[i];
        if (b < 0x80) {
            switch (b) {
            case '&': out_lit(o, "&amp;"); break;
            case '<': out_lit(o, "&lt;"); break;
            case '>': out_lit(o, "&gt;"); break;
            case '"': out_lit(o, "&quot;"); break;
            case '\'': out_lit(o, "&#39;"); break;
            default:
                if (lines && b == '\n') out_ch(o, '\n');
                else if (b < 0x20 || b == 0x7f) out_printf(o, "\\x%02x", b);
                else out_ch(o, (char)b);
            }
            i++;
            continue;
        }
        size_t len = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
        uint32_t cp = 0;
        bool ok = len && i + len <= n;
        if (ok) {
            cp = b & (0x7f >> len);
            for (size_t k = 1; k < len; k++) {
                if ((p[i + k] & 0xc0) != 0x80) ok = false;
                cp = (cp << 6) | (p[i + k] & 0x3f);
            }
            if (ok && ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ||
                       (len == 4 && (cp < 0x10000 || cp > 0x10ffff))))
                ok = false;
        }
        if (!ok) {
            out_printf(o, "\\x%02x", b);
            i++;
            continue;
        }
        if ((cp >= 0x80 && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
            cp == 0x200e || cp == 0x200f || cp == 0x061c)
            out_printf(o, "\\u{%" PRIx32 "}", cp);
        else out_raw(o, p + i, len);
        i += len;
    }
}
static void esc_n(ss_out *o, const uint8_t *p, size_t n, size_t max) { esc_lines(o, p, n, max, false); }
static void esc(ss_out *o, const char *s) {
    if (s) esc_n(o, (const uint8_t *)s, strlen(s), 256);
}
static void esc_len(ss_out *o, const char *s, size_t n) {
    if (s) esc_n(o, (const uint8_t *)s, n, 256);
}

/* A scratch buffer: text written to an ss_out (the text printers' helpers), then escaped. */
typedef struct scratch {
    ss_out o;
    FILE *f;
    char *mem;
    size_t memlen;
} scratch;
static bool scratch_open(scratch *s) {
    memset(s, 0, sizeof *s);
    s->f = open_memstream(&s->mem, &s->memlen);
    if (!s->f) return false;
    out_init(&s->o, s->f);
    return !s->o.failed;
}
/* what was written since the last take, escaped into o */
static void scratch_take(scratch *s, ss_out *o, size_t max) {
    out_flush(&s->o);
    esc_lines(o, (const uint8_t *)s->mem, s->memlen, max, true); /* the text printers' own lines */
    rewind(s->f);
    s->memlen = 0;
    if (s->mem) s->mem[0] = 0;
}
static void scratch_close(scratch *s) {
    out_free(&s->o);
    if (s->f) fclose(s->f);
    free(s->mem);
}

static void tstr(char *buf, size_t n, int64_t ms) {
    if (ms < 0) snprintf(buf, n, "-");
    else cli_format_time(ms, buf, n);
}

/* a tick's label: the time of day ("22:13:20.000Z"), or the day and minute past a day */
static void tick_time(char *buf, size_t n, int64_t ms, bool days) {
    char full[64];
    tstr(full, sizeof full, ms);
    const char *t = strchr(full, 'T');
    if (!t) {
        snprintf(buf, n, "%s", full);
        return;
    }
    if (days) snprintf(buf, n, "%.*s %.5s", (int)(t - full), full, t + 1);
    else snprintf(buf, n, "%s", t + 1);
}

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

/* ---- a chart's axes ---------------------------------------------------------------------- */

typedef struct axes {
    int64_t t0, t1; /* time range */
    int64_t o0, o1; /* offset range */
    bool no_time;   /* no timestamps: x is the batch's position */
} axes;

static double xs(const axes *a, int64_t t) {
    if (t < a->t0) t = a->t0;
    if (t > a->t1) t = a->t1;
    return ML + (double)(t - a->t0) * (W - ML - MR) / (double)(a->t1 - a->t0);
}
static double ys(const axes *a, int64_t off) {
    if (off < a->o0) off = a->o0;
    if (off > a->o1) off = a->o1;
    return H - MB - (double)(off - a->o0) * (H - MT - MB) / (double)(a->o1 - a->o0);
}
static void ext_t(axes *a, int64_t t) {
    if (t < 0) return;
    if (t < a->t0) a->t0 = t;
    if (t > a->t1) a->t1 = t;
}
static void ext_o(axes *a, int64_t o) {
    if (o < 0) return;
    if (o < a->o0) a->o0 = o;
    if (o > a->o1) a->o1 = o;
}

static void draw_axes(ss_out *o, const axes *a) {
    out_printf(o, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", ML, MT, W - ML - MR,
               H - MT - MB);
    for (int k = 0; k <= 4; k++) {
        int64_t off = a->o0 + (a->o1 - a->o0) * k / 4;
        double y = ys(a, off);
        out_printf(o,
                   "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/><text class=\"ylab\" x=\"%d\" "
                   "y=\"%.1f\">%" PRId64 "</text>\n",
                   ML, y, W - MR, y, ML - 4, y + 4, off);
    }
    char prev[64] = "";
    for (int k = 0; k <= 4; k++) {
        int64_t t = a->t0 + (a->t1 - a->t0) * k / 4;
        double x = xs(a, t);
        char ts[64];
        if (a->no_time) snprintf(ts, sizeof ts, "batch %" PRId64, t);
        else tick_time(ts, sizeof ts, t, a->t1 - a->t0 > 86400000);
        if (!strcmp(ts, prev)) continue; /* a range of a few milliseconds: each label once */
        snprintf(prev, sizeof prev, "%s", ts);
        const char *anchor = k == 0 ? "start" : k == 4 ? "end" : "middle";
        out_printf(o,
                   "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"xlab\" "
                   "text-anchor=\"%s\" x=\"%.1f\" y=\"%d\">%s</text>\n",
                   x, MT, x, H - MB, anchor, x, H - MB + 16, ts);
    }
    char from[64];
    tstr(from, sizeof from, a->t0);
    out_printf(o, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s%s</text>\n", (ML + W - MR) / 2,
               H - 8, a->no_time ? "batches in log order (no timestamps)" : "time (batch maxTimestamp) from ",
               a->no_time ? "" : from);
    out_printf(
        o,
        "<text class=\"axis\" x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">offset</text>\n",
        (MT + H - MB) / 2, (MT + H - MB) / 2);
}

/* ---- the page ---------------------------------------------------------------------------- */

/* one chart: a data partition */
typedef struct chart {
    const char *topic;
    int32_t partition;
    const char *name;
    const ss_input_partition *ip;
    long an;                   /* the analysis's partition index, -1 none */
    const ss_tl_partition *tl; /* its batch headers, NULL none */
    bool findings;             /* something to show: opened, drawn first */
    /* the committed offsets of the groups, binned by column */
    size_t ngl;
    struct gline {
        size_t group;
        const char *id;
        size_t id_len;
        int64_t *pts; /* (time, offset) pairs, -1 offset: a break (offsets deleted) */
        size_t npts, cap;
        uint64_t commits;
    } gl[MAX_GROUPS];
    size_t groups_more;
    axes ax;
} chart;

typedef struct page {
    const struct html_src *s;
    ss_out *o;
    FILE *mf; /* the page is written to memory first (its size is checked) */
    chart *ch;
    size_t nch;
    size_t *txn_start; /* per analysis partition: its first transaction */
    size_t *match_of;  /* explain: per group, 1 when a match is in it */
    scratch sc;
} page;

static size_t page_bytes(page *p) {
    out_flush(p->o);
    long n = ftell(p->mf);
    return n < 0 ? 0 : (size_t)n;
}

static bool same_tp(const ss_gtp_ref *t, const chart *c) {
    return t->topic && t->partition == c->partition && strlen(c->topic) == t->topic_len &&
           !memcmp(t->topic, c->topic, t->topic_len);
}

static const ss_an_session *session_of(const page *p, uint32_t part, int64_t pid, int16_t epoch, size_t *idx) {
    ss_analysis *an = p->s->an;
    if (!an) return NULL;
    size_t lo = 0, hi = ss_an_session_count(an);
    while (lo < hi) { /* sorted by (partition, producer id, epoch) */
        size_t mid = lo + (hi - lo) / 2;
        const ss_an_session *x = ss_an_session_at(an, mid);
        int c = x->partition != part         ? (x->partition < part ? -1 : 1)
                : x->producer_id != pid      ? (x->producer_id < pid ? -1 : 1)
                : x->producer_epoch != epoch ? (x->producer_epoch < epoch ? -1 : 1)
                                             : 0;
        if (c == 0) {
            if (idx) *idx = mid;
            return x;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

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

static void title_time(ss_out *o, const char *what, int64_t t) {
    char ts[64];
    tstr(ts, sizeof ts, t);
    out_printf(o, "%s%s", what, ts);
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
            double x = xs(a, t), y0 = ys(a, b.base_offset), y1 = ys(a, b.last_offset + 1);
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
                title_time(o, "", b.max_timestamp);
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
            title_time(o, b.log_append_time ? "LogAppendTime " : "CreateTime ", b.max_timestamp);
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
                size_t k = (size_t)((xs(a, t) - ML) / 2);
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
                double y0 = ys(a, x->lo), y1 = ys(a, x->hi + 1);
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
            double y = ys(a, ss_tl_end_at(c->tl, t));
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
        double y = ys(&c->ax, base);
        out_printf(o,
                   "<line data-kind=\"segment\" data-offset=\"%" PRId64 "\" class=\"seg\" x1=\"%d\" y1=\"%.1f\" "
                   "x2=\"%d\" y2=\"%.1f\"><title>segment ",
                   base, ML, y, W - MR, y);
        esc(o, ip->segments[j].path ? ip->segments[j].path : "-");
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
            double x0 = xs(a, t0), x1 = xs(a, t1), y0 = ys(a, t->first_offset), y1 = ys(a, last + 1);
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
            double x = a->no_time ? ML : xs(a, s->first_timestamp), y = ys(a, s->first_offset);
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
            double y0 = ys(a, x->after_offset + 1), y1 = ys(a, x->before_offset);
            if (y0 - y1 < 3) y1 = y0 - 3;
            static const char *const why[] = {"unexplained", "compaction", "retention", "damage"};
            out_printf(o,
                       "<rect data-kind=\"gap\" data-pid=\"%" PRId64 "\" data-explained=\"%s\" data-after=\"%" PRId64
                       "\" data-before=\"%" PRId64 "\" class=\"gap%s\" x=\"%d\" y=\"%.1f\" width=\"%d\" "
                       "height=\"%.1f\"><title>sequence gap of pid %" PRId64 " epoch %d: sequences %" PRId32
                       "..%" PRId32 " missing between offsets %" PRId64 " and %" PRId64 " (%s)</title></rect>\n",
                       s->producer_id, why[x->explained & 3], x->after_offset, x->before_offset,
                       x->explained ? " explained" : "", ML, y1, W - ML - MR, y0 - y1, s->producer_id,
                       s->producer_epoch, x->from, x->to, x->after_offset, x->before_offset, why[x->explained & 3]);
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
        double y = ys(&c->ax, off < 0 ? c->ax.o0 : off);
        out_printf(o,
                   "<path data-kind=\"damage\" data-damage=\"%s\" data-segment=\"%" PRIu32 "\" data-position=\"%" PRIu64
                   "\" data-offset=\"%" PRId64 "\" class=\"damage\" d=\"M%d %.1fl8 -8m0 8l-8 -8\"><title>",
                   ss_errkind_is_damage(d->err.kind) ? "damage" : "notice", d->segment, d->err.position, off, ML + 2,
                   y + 4);
        esc(o, c->ip && d->segment < c->ip->nsegments ? c->ip->segments[d->segment].path : "-");
        out_printf(o, ": byte %" PRIu64 ": ", d->err.position);
        esc(o, d->err.msg);
        out_printf(o, " [%s]</title></path>\n", ss_errkind_name(d->err.kind));
    }
}

static void draw_copies(page *p, chart *c) {
    ss_analysis *an = p->s->an;
    ss_out *o = p->o;
    const axes *a = &c->ax;
    size_t ng = ss_an_group_count(an), drawn = 0, all = 0, seen = 0;
    bool explain = !strcmp(p->s->command, "explain");
    /* more groups than marks: every stride-th group of the partition, so that the marks drawn
     * spread over the partition (the groups come largest first, then by their original's place) */
    uint64_t here = ss_an_partition_at(an, (size_t)c->an)->duplicate_groups;
    size_t stride = explain || here <= MAX_COPIES / 2 ? 1 : (size_t)((here + MAX_COPIES / 2 - 1) / (MAX_COPIES / 2));
    for (size_t g = 0; g < ng; g++) {
        const ss_an_group *G = ss_an_group_at(an, g);
        if (explain && !(p->match_of && p->match_of[g])) continue;
        ss_an_copy orig;
        ss_an_group_copy(an, g, G->original, &orig);
        size_t in_here = 0;
        for (uint32_t j = 0; j < G->copies; j++) {
            ss_an_copy cp;
            ss_an_group_copy(an, g, j, &cp);
            if (cp.partition == (uint32_t)c->an && j != G->original) in_here++;
        }
        if (!in_here) continue;
        all += in_here;
        bool pick = seen++ % stride == 0 && drawn < MAX_COPIES;
        for (uint32_t j = 0; pick && j < G->copies; j++) {
            ss_an_copy cp;
            ss_an_group_copy(an, g, j, &cp);
            if (cp.partition != (uint32_t)c->an) continue;
            if (j != G->original) drawn++;
            double x = a->no_time ? ML + 8 : xs(a, cp.timestamp), y = ys(a, cp.offset);
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
                double ox = a->no_time ? ML + 8 : xs(a, orig.timestamp), oy = ys(a, orig.offset);
                out_printf(o,
                           "<line data-kind=\"copy-link\" class=\"link\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                           "y2=\"%.1f\"/>\n",
                           ox, oy, x, y);
            }
            out_printf(o,
                       "<circle data-kind=\"copy\" data-group=\"%zu\" data-cause=\"%s\" data-offset=\"%" PRId64
                       "\" data-original=\"%" PRId64 "\" data-original-partition=\"",
                       g + 1, cause ? cause : "", cp.offset, orig.offset);
            esc(o, ss_an_partition_at(an, orig.partition)->input->name);
            out_printf(
                o,
                "\" class=\"copy c-%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"><title>group %zu: copy at offset %" PRId64
                ", cause %s; original at ",
                cause ? cause : "", x, y, g + 1, cp.offset, cause ? cause : "");
            esc(o, ss_an_partition_at(an, orig.partition)->input->name);
            out_printf(o, " offset %" PRId64 "</title></circle>\n", orig.offset);
        }
    }
    if (all > drawn)
        out_printf(o, "<text class=\"note\" x=\"%d\" y=\"%d\">%zu of %zu copies drawn (one group in %zu)</text>\n",
                   ML + 4, MT + 26, drawn, all, stride);
    /* explain: the matched records */
    size_t nm = ss_an_match_count(an);
    for (size_t i = 0; i < nm; i++) {
        const ss_an_match *m = ss_an_match_at(an, i);
        if (m->copy.partition != (uint32_t)c->an) continue;
        double x = a->no_time ? ML + 8 : xs(a, m->copy.timestamp), y = ys(a, m->copy.offset);
        out_printf(o,
                   "<circle data-kind=\"match\" data-offset=\"%" PRId64 "\" class=\"match\" cx=\"%.1f\" cy=\"%.1f\" "
                   "r=\"10\"><title>the record explained: offset %" PRId64 "</title></circle>\n",
                   m->copy.offset, x, y, m->copy.offset);
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
        if (!same_tp(&x->tp, c)) continue;
        const struct {
            const char *kind;
            const ss_frange *r;
        } rs[3] = {{"redelivered", &x->redelivered}, {"likely", &x->likely}, {"skipped", &x->skipped}};
        for (int k = 0; k < 3; k++) {
            const ss_frange *r = rs[k].r;
            if (!r->set) continue;
            int64_t to = r->to < 0 ? a->o1 - 1 : r->to;
            double y0 = ys(a, r->from), y1 = ys(a, to + 1), x1 = xs(a, x->time);
            if (y0 - y1 < 3) y1 = y0 - 3;
            if (x1 - ML < 4) x1 = ML + 4;
            bool covers = false;
            if (!strcmp(s->command, "explain") && s->an)
                for (size_t m = 0; m < ss_an_match_count(s->an); m++) {
                    const ss_an_match *mm = ss_an_match_at(s->an, m);
                    if ((long)mm->copy.partition == c->an && ss_frange_holds(r, mm->copy.offset)) covers = true;
                }
            out_printf(o, "<rect data-kind=\"%s\" data-finding=\"%s\" data-group=\"", rs[k].kind,
                       ss_fkind_name(x->kind));
            esc_len(o, x->group_id, x->group_id_len);
            out_printf(o,
                       "\" data-from=\"%" PRId64 "\" data-to=\"%" PRId64
                       "\" data-certain=\"%s\" data-covers-match=\"%s\" "
                       "class=\"band %s%s\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>",
                       r->from, r->to, r->certain ? "true" : "false", covers ? "true" : "false", rs[k].kind,
                       r->certain ? " certain" : "", ML, y1, x1 - ML, y0 - y1);
            out_printf(o, "%s: offsets %" PRId64 "..",
                       k == 2       ? (r->certain ? "never received" : "possibly never received")
                       : r->certain ? "certainly delivered again"
                       : k == 1     ? "likely delivered twice"
                                    : "possibly delivered twice",
                       r->from);
            if (r->to < 0) out_lit(o, "(end unknown)");
            else out_i64(o, r->to);
            out_lit(o, " (group ");
            esc_len(o, x->group_id, x->group_id_len);
            out_printf(o, ", %s)</title></rect>\n", ss_fkind_name(x->kind));
            drawn++;
        }
    }
    /* owners: a tick at the top when one got the partition, its member id beside */
    size_t owners = 0;
    if (s->g) {
        for (size_t l = 0; l < c->ngl; l++) {
            const ss_group *G = ss_groups_at(s->g, c->gl[l].group);
            for (size_t k = 0; k < G->npartitions; k++) {
                const ss_gpartition *gp = &G->partitions[k];
                if (!same_tp(&gp->tp, c)) continue;
                for (size_t w = 0; w < gp->nowners && owners < MAX_OWNERS; w++, owners++) {
                    const ss_gowner *ow = &gp->owners[w];
                    double x = xs(a, ow->from_time);
                    out_lit(o, "<g data-kind=\"owner\" data-group=\"");
                    esc_len(o, G->id, G->id_len);
                    out_lit(o, "\" data-member=\"");
                    esc_len(o, ow->member_id, ow->member_id_len);
                    out_printf(o,
                               "\" data-time=\"%" PRId64 "\" data-generation=\"%" PRId32 "\"><line class=\"owner\" "
                               "x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"olab\" x=\"%.1f\" y=\"%d\">"
                               "g%" PRId32 " ",
                               ow->from_time, ow->generation_from, x, MT, x, H - MB, x + 2, MT + 10 + (int)(w % 3) * 10,
                               ow->generation_from);
                    esc_n(o, (const uint8_t *)ow->member_id, ow->member_id_len, 18);
                    out_lit(o, "</text><title>");
                    title_time(o, "", ow->from_time);
                    out_printf(o, ": generation %" PRId32 " gives it to ", ow->generation_from);
                    esc_len(o, ow->member_id, ow->member_id_len);
                    if (ow->instance_id) {
                        out_lit(o, " (instance ");
                        esc_len(o, ow->instance_id, ow->instance_id_len);
                        out_ch(o, ')');
                    }
                    out_lit(o, ", group ");
                    esc_len(o, G->id, G->id_len);
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
        esc_len(o, gl->id, gl->id_len);
        out_printf(o, "\" data-commits=\"%" PRIu64 "\" class=\"committed\" stroke=\"%s\" points=\"", gl->commits,
                   gpalette[l]);
        double py = -1;
        for (size_t k = 0; k < gl->npts; k++) {
            int64_t t = gl->pts[2 * k], off = gl->pts[2 * k + 1];
            if (off < 0) {
                /* offsets deleted: the line ends here; a new one starts at the next commit */
                out_lit(o, "\"/>\n<polyline data-kind=\"committed\" data-group=\"");
                esc_len(o, gl->id, gl->id_len);
                out_printf(o, "\" data-commits=\"0\" class=\"committed\" stroke=\"%s\" points=\"", gpalette[l]);
                py = -1;
                continue;
            }
            double x = xs(a, t), y = ys(a, off);
            if (py >= 0) out_printf(o, "%.1f,%.1f ", x, py);
            out_printf(o, "%.1f,%.1f ", x, y);
            py = y;
        }
        if (py >= 0) out_printf(o, "%.1f,%.1f", (double)(W - MR), py);
        out_lit(o, "\"><title>committed offset of group ");
        esc_len(o, gl->id, gl->id_len);
        out_lit(o, "</title></polyline>\n");
    }
    /* the findings' marks: a vertical line at their time */
    drawn = 0;
    for (size_t i = 0; i < nf && drawn < MAX_FINDINGS; i++) {
        const ss_finding *x = ss_findings_at(s->f, i);
        if (!same_tp(&x->tp, c)) continue;
        drawn++;
        double fx = xs(a, x->time);
        int64_t off = x->kind == SS_FK_HANDOVER                           ? x->resumed_offset
                      : x->kind == SS_FK_REWIND || x->kind == SS_FK_RESET ? x->to_offset
                      : x->kind == SS_FK_OFFSETS_DELETED                  ? x->last_committed
                      : x->kind == SS_FK_OUT_OF_RANGE || x->kind == SS_FK_ABORTED_COMMIT || x->kind == SS_FK_OPEN_COMMIT
                          ? x->commit_offset
                          : -1;
        out_printf(o, "<g data-kind=\"%s\" data-group=\"", ss_fkind_name(x->kind));
        esc_len(o, x->group_id, x->group_id_len);
        out_printf(o, "\" data-time=\"%" PRId64 "\" data-offset=\"%" PRId64 "\"", x->time, off);
        if (x->kind == SS_FK_REWIND || x->kind == SS_FK_RESET)
            out_printf(o, " data-from-offset=\"%" PRId64 "\"", x->from_offset);
        out_printf(o, "><line class=\"finding f-%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
                   ss_fkind_name(x->kind), fx, MT, fx, H - MB);
        if (off >= 0)
            out_printf(o, "<circle class=\"fdot f-%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>", ss_fkind_name(x->kind), fx,
                       ys(a, off));
        out_lit(o, "<title>");
        gf_text(&p->sc.o, x, "");
        scratch_take(&p->sc, o, 2000);
        out_lit(o, "</title></g>\n");
    }
}

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
    ".owner{stroke:#0d47a1;stroke-dasharray:1 3}.olab{fill:#0d47a1;font-size:10px}"
    ".committed{fill:none;stroke-width:2}"
    ".finding{stroke-width:1.5;stroke:#e65100}.fdot{fill:#e65100}.f-handover{stroke:#0d47a1}"
    ".fdot.f-handover{fill:#0d47a1}.f-rewind,.f-reset{stroke:#c62828}.fdot.f-rewind,.fdot.f-reset{fill:#c62828}"
    ".f-offsets-deleted{stroke:#6a1b9a}.fdot.f-offsets-deleted{fill:#6a1b9a}"
    ".note{fill:#b00020}"
    ".legend{display:flex;flex-wrap:wrap;gap:.3em 1em;list-style:none;padding:0;font-size:12px}"
    ".sw{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:middle;border:1px solid #444}"
    "details{margin:.6em 0}summary{cursor:pointer;font-weight:600}"
    "@media print{details{display:block}body{margin:0}svg{max-width:100%}pre{font-size:9px}}";

static void legend(page *p, chart *c, const sess_colours *sc) {
    ss_out *o = p->o;
    out_lit(o, "<ul class=\"legend\">");
    for (size_t k = 0; k < sc->n && k < MAX_LEGEND; k++) {
        out_printf(o,
                   "<li data-kind=\"session\" data-pid=\"%" PRId64 "\" data-epoch=\"%d\"><span class=\"sw\" "
                   "style=\"background:%s\"></span>pid %" PRId64 " epoch %d",
                   sc->pid[k], sc->epoch[k], palette[k], sc->pid[k], sc->epoch[k]);
        const ss_an_session *s = c->an >= 0 ? session_of(p, (uint32_t)c->an, sc->pid[k], sc->epoch[k], NULL) : NULL;
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
        esc_len(o, c->gl[l].id, c->gl[l].id_len);
        out_lit(o, "</li>");
    }
    if (c->groups_more) out_printf(o, "<li>%zu more groups not drawn</li>", c->groups_more);
    out_lit(o, "</ul>\n<ul class=\"legend\"><li>&#9679; copies by cause: <span class=\"sw c-retry\"></span>retry "
               "<span class=\"sw c-new-session\"></span>new-session <span class=\"sw c-same-session\"></span>"
               "same-session <span class=\"sw c-aborted\"></span>aborted <span class=\"sw c-cross-partition\"></span>"
               "cross-partition <span class=\"sw c-resend-no-idempotence\"></span>resend-no-idempotence "
               "<span class=\"sw c-dup-sequence\"></span>dup-sequence; &#9675; the original</li>"
               "<li>boxes: transactions (green committed, red aborted, yellow open, thick red: hanging)</li>"
               "<li>bands: records delivered twice (orange) or possibly never received (blue)</li>"
               "<li>dashed: the log end; dotted: segment starts</li></ul>\n");
}

static void chart_svg(page *p, chart *c) {
    ss_out *o = p->o;
    sess_colours sc;
    memset(&sc, 0, sizeof sc);
    out_printf(o, "<svg data-kind=\"chart\" data-partition=\"");
    esc(o, c->name);
    out_printf(
        o, "\" viewBox=\"0 0 %d %d\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\"><title>offsets over time of ", W,
        H);
    esc(o, c->name);
    out_lit(o, "</title>\n");
    draw_axes(o, &c->ax);
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

/* ---- building the charts ------------------------------------------------------------------- */

static int cmp_chart(const void *a, const void *b) {
    const chart *x = a, *y = b;
    if (x->findings != y->findings) return x->findings ? -1 : 1;
    int c = strcmp(x->topic, y->topic);
    if (c) return c;
    return x->partition < y->partition ? -1 : x->partition > y->partition;
}

static chart *find_chart(page *p, const ss_gtp_ref *t) {
    for (size_t i = 0; i < p->nch; i++)
        if (same_tp(t, &p->ch[i])) return &p->ch[i];
    return NULL;
}

static bool gl_push(struct gline *gl, int64_t t, int64_t off) {
    if (gl->npts == gl->cap) {
        size_t cap = gl->cap ? 2 * gl->cap : 64;
        int64_t *n = realloc(gl->pts, cap * 2 * sizeof *n);
        if (!n) return false;
        gl->pts = n;
        gl->cap = cap;
    }
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
            int col = (int)((xs(&c->ax, cm.effective_time) - ML) / 2);
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
            ext_t(a, b.max_timestamp);
        }
        if (n) {
            ext_o(a, c->tl->first_offset);
            ext_o(a, c->tl->next_offset);
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
            ext_o(a, P->first_offset);
            ext_o(a, P->next_offset);
        }
    }
    if (!a->no_time && s->f) {
        for (size_t i = 0; i < ss_findings_count(s->f); i++) {
            const ss_finding *x = ss_findings_at(s->f, i);
            if (same_tp(&x->tp, c)) ext_t(a, x->time);
        }
    }
    if (!a->no_time && s->g) {
        for (size_t gi = 0; gi < ss_groups_count(s->g); gi++) {
            const ss_group *G = ss_groups_at(s->g, gi);
            for (size_t k = 0; k < G->npartitions; k++) {
                const ss_gpartition *gp = &G->partitions[k];
                if (!same_tp(&gp->tp, c)) continue;
                ext_t(a, gp->first_commit_time);
                ext_t(a, gp->last_commit_time);
                ext_o(a, gp->offset);
                for (size_t w = 0; w < gp->nowners; w++) {
                    ext_t(a, gp->owners[w].from_time);
                    ext_o(a, gp->owners[w].start_committed);
                    ext_o(a, gp->owners[w].last_commit_offset);
                }
            }
        }
    }
    if (a->t0 == INT64_MAX) a->t0 = 0, a->t1 = 1;
    if (a->o0 == INT64_MAX) a->o0 = 0, a->o1 = 1;
    if (a->t1 <= a->t0) a->t1 = a->t0 + 1;
    if (a->o1 <= a->o0) a->o1 = a->o0 + 1;
    /* a little room on each side and at the top, so that no mark sits on an axis */
    int64_t dt = (a->t1 - a->t0) / 50 + 1;
    if (!a->no_time && a->t0 >= dt) a->t0 -= dt;
    a->t1 += dt;
    a->o1 += (a->o1 - a->o0) / 50 + 1;
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
        size_t ng = ss_an_group_count(s->an);
        p->match_of = calloc(ng ? ng : 1, sizeof *p->match_of);
        if (!p->match_of) return false;
        for (size_t m = 0; m < ss_an_match_count(s->an); m++) {
            int64_t g = ss_an_match_at(s->an, m)->group;
            if (g >= 0 && (size_t)g < ng) p->match_of[g] = 1;
        }
    }
    return true;
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

static void header(page *p) {
    const struct html_src *s = p->s;
    ss_out *o = p->o;
    out_lit(o, "<h1>segscan ");
    esc(o, s->command);
    out_lit(o, "</h1>\n<p>Command line: <code>segscan");
    for (int i = 0; i < s->argc; i++) {
        out_ch(o, ' ');
        esc(o, s->argv[i]);
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
        tstr(t1, sizeof t1, s->since_ms == INT64_MIN ? -1 : s->since_ms);
        tstr(t2, sizeof t2, s->until_ms == INT64_MAX ? -1 : s->until_ms);
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
        esc(o, s->group_ids[i]);
        out_lit(o, "; ");
        any = true;
    }
    if (!any) out_lit(o, "every producer and group");
    out_lit(o, "</td></tr>\n<tr><th>exit status</th><td>");
    esc(o, exit_meaning(s->rc));
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
                   "%" PRIu64 " sequence %s (%" PRIu64 " explained by compaction, retention or damage), %" PRIu64
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

static void tables(page *p) {
    const struct html_src *s = p->s;
    ss_out *o = p->o;
    ss_analysis *an = s->an;
    char ts[64];
    if (an) {
        size_t np = ss_an_partition_count(an);
        out_printf(o,
                   "<h2>Partitions</h2>\n<table data-kind=\"table-partitions\" data-rows=\"%zu\"><tr><th>partition</th>"
                   "<th>records</th><th>batches</th><th>offsets</th><th>duplicate groups</th><th>extra copies</th>"
                   "<th>sequence gaps</th><th>epoch bumps</th><th>committed</th><th>aborted</th><th>open</th>"
                   "<th>hanging</th><th>damaged bytes</th></tr>\n",
                   np < MAX_ROWS ? np : (size_t)MAX_ROWS);
        for (size_t i = 0; i < np && i < MAX_ROWS; i++) {
            const ss_an_partition *P = ss_an_partition_at(an, i);
            out_lit(o, "<tr><td>");
            esc(o, P->input->name);
            out_lit(o, "</td>");
            td_n(o, P->records);
            td_n(o, P->batches);
            if (P->batches) out_printf(o, "<td>%" PRId64 "..%" PRId64 "</td>", P->first_offset, P->next_offset - 1);
            else out_lit(o, "<td>-</td>");
            td_n(o, P->duplicate_groups);
            td_n(o, P->duplicate_records);
            td_n(o, P->sequence_gaps);
            td_n(o, P->epoch_bumps);
            td_n(o, P->txn_committed);
            td_n(o, P->txn_aborted);
            td_n(o, P->txn_open);
            td_n(o, P->txn_hanging);
            td_n(o, P->damaged_bytes);
            out_lit(o, "</tr>\n");
        }
        const ss_an_totals *t = ss_an_totals_get(an);
        out_printf(o, "<tr><th>total (%" PRIu64 ")</th>", t->partitions);
        td_n(o, t->records);
        td_n(o, t->batches);
        out_lit(o, "<td></td>");
        td_n(o, t->duplicate_groups);
        td_n(o, t->duplicate_records);
        td_n(o, t->sequence_gaps);
        td_n(o, t->epoch_bumps);
        td_n(o, t->txn_committed);
        td_n(o, t->txn_aborted);
        td_n(o, t->txn_open);
        td_n(o, t->txn_hanging);
        td_n(o, t->damaged_bytes);
        out_lit(o, "</tr></table>\n");
        if (np > MAX_ROWS)
            out_printf(o, "<p>%zu of %zu partitions listed; the total counts all.</p>\n", (size_t)MAX_ROWS, np);

        size_t ng = ss_an_group_count(an);
        if (ng) {
            size_t rows = 0;
            out_printf(o,
                       "<h2>Duplicate groups</h2>\n<p>%zu %s, largest first.</p>\n<table data-kind=\"table-groups\">"
                       "<tr><th>group</th><th>partition</th><th>offset</th><th>time</th><th>producer</th>"
                       "<th>sequence</th><th>cause</th></tr>\n",
                       ng, plural(ng, "group", "groups"));
            size_t g;
            for (g = 0; g < ng && rows < MAX_ROWS; g++) {
                const ss_an_group *G = ss_an_group_at(an, g);
                for (uint32_t j = 0; j < G->copies && rows < MAX_ROWS; j++, rows++) {
                    ss_an_copy cp;
                    ss_an_group_copy(an, g, j, &cp);
                    out_printf(o, "<tr data-kind=\"copy-row\" data-cause=\"%s\"><td class=\"n\">%zu</td><td>",
                               j == G->original ? "original" : ss_cause_name(cp.cause), g + 1);
                    esc(o, ss_an_partition_at(an, cp.partition)->input->name);
                    out_lit(o, "</td>");
                    td_i(o, cp.offset);
                    tstr(ts, sizeof ts, cp.timestamp);
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
                    esc(o, ss_an_partition_at(an, x->partition)->input->name);
                    out_printf(o, "</td><td>pid %" PRId64 " epoch %d%s</td><td>%" PRId64 "..%" PRId64 "</td>",
                               x->producer_id, x->producer_epoch, x->transactional ? " (transactional)" : "",
                               x->first_offset, x->last_offset);
                    td_n(o, x->records);
                    out_lit(o, "<td>");
                    for (size_t r = 0; r < x->nranges && r < 8; r++)
                        out_printf(o, "%s[%" PRId32 ",%" PRId32 "]", r ? " " : "", x->ranges[r].first,
                                   x->ranges[r].last);
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

        size_t ntx = ss_an_txn_count(an);
        if (ntx) {
            out_printf(
                o,
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
                    esc(o, ss_an_partition_at(an, x->partition)->input->name);
                    out_printf(o, "</td><td>pid %" PRId64 " epoch %d</td><td>%" PRId64 "..%" PRId64 "</td>",
                               x->producer_id, x->producer_epoch, x->first_offset, x->last_offset);
                    td_n(o, x->records);
                    out_printf(o, "<td class=\"%s\">%s%s%s</td>", rank < 2 ? "bad" : "ok",
                               ss_txn_result_name(x->result), x->hanging ? " (hanging)" : "",
                               x->empty ? " (empty)" : "");
                    td_i(o, x->marker_offset);
                    tstr(ts, sizeof ts, x->first_timestamp);
                    out_printf(o, "<td>%s</td>", ts);
                    tstr(ts, sizeof ts, x->result == SS_TXN_OPEN ? -1 : x->marker_timestamp);
                    out_printf(o, "<td>%s</td></tr>\n", ts);
                }
            out_lit(o, "</table>\n");
            if (rows < ntx)
                out_printf(o, "<p>%zu of %zu transactions listed ('segscan txns' lists all).</p>\n", rows, ntx);
        }

        size_t nd = ss_an_damage_count(an);
        if (nd) {
            out_printf(o, "<h2>Damage</h2>\n<table data-kind=\"table-damage\"><tr><th>file</th><th>byte</th>"
                          "<th>base offset</th><th>kind</th><th>reason</th></tr>\n");
            for (size_t i = 0; i < nd && i < MAX_ROWS; i++) {
                const ss_an_damage *d = ss_an_damage_at(an, i);
                const ss_input_partition *ip = ss_an_partition_at(an, d->partition)->input;
                out_lit(o, "<tr><td>");
                esc(o, ip->segments[d->segment].path ? ip->segments[d->segment].path : "-");
                out_lit(o, "</td>");
                td_n(o, d->err.position);
                td_i(o, d->err.base_offset);
                out_printf(o, "<td>%s</td><td>", ss_errkind_name(d->err.kind));
                esc(o, d->err.msg);
                out_lit(o, "</td></tr>\n");
            }
            out_lit(o, "</table>\n");
            if (nd > MAX_ROWS) out_printf(o, "<p>%d of %zu listed.</p>\n", MAX_ROWS, nd);
        }
    }
    if (s->f) {
        size_t nf = ss_findings_count(s->f);
        out_printf(o, "<h2>Consumer groups' findings</h2>\n<p>%zu %s.</p>\n", nf, plural(nf, "finding", "findings"));
        if (nf) {
            out_lit(o, "<table data-kind=\"table-findings\"><tr><th>group</th><th>partition</th><th>time</th>"
                       "<th>kind</th><th>what it says</th></tr>\n");
            for (size_t i = 0; i < nf && i < MAX_ROWS; i++) {
                const ss_finding *x = ss_findings_at(s->f, i);
                out_printf(o, "<tr data-kind=\"finding-row\" data-finding=\"%s\"><td>", ss_fkind_name(x->kind));
                esc_len(o, x->group_id, x->group_id_len);
                out_lit(o, "</td><td>");
                if (x->tp.topic || x->tp.topic_id) {
                    gf_tp_text(&p->sc.o, &x->tp);
                    scratch_take(&p->sc, o, 300);
                }
                tstr(ts, sizeof ts, x->time);
                out_printf(o, "</td><td>%s</td><td>%s</td><td><pre>", ts, ss_fkind_name(x->kind));
                gf_text(&p->sc.o, x, "");
                scratch_take(&p->sc, o, 4000);
                out_lit(o, "</pre></td></tr>\n");
            }
            out_lit(o, "</table>\n");
            if (nf > MAX_ROWS)
                out_printf(o, "<p>%d of %zu findings listed ('segscan groups' lists all).</p>\n", MAX_ROWS, nf);
        }
    }
}

static void text_block(page *p, const char *title) {
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

bool html_write(const struct html_src *s, const char *path) {
    page pg;
    memset(&pg, 0, sizeof pg);
    pg.s = s;
    char *mem = NULL;
    size_t memlen = 0;
    pg.mf = open_memstream(&mem, &memlen);
    if (!pg.mf || !scratch_open(&pg.sc)) {
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
    esc(&o, s->command);
    out_lit(&o, "</title>\n<style>");
    out_lit(&o, css);
    out_lit(&o, "</style></head>\n<body>\n");
    header(&pg);
    bool explain = !strcmp(s->command, "explain");
    if (explain) text_block(&pg, "Explanation");
    out_printf(&o, "<h2>Offsets over time</h2>\n<p>%zu data %s%s.</p>\n", pg.nch,
               plural(pg.nch, "partition", "partitions"),
               pg.nch ? ", those with findings first (opened); the others folded" : "");
    size_t drawn = 0;
    for (size_t i = 0; ok && i < pg.nch; i++) {
        chart *c = &pg.ch[i];
        if (drawn >= MAX_CHARTS || page_bytes(&pg) > CHART_BUDGET) {
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
        esc(&o, c->name);
        out_lit(&o, "\"><summary>");
        esc(&o, c->name);
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
        chart_svg(&pg, c);
        out_lit(&o, "</details>\n");
    }
    tables(&pg);
    if (!explain) text_block(&pg, "The text output");
    out_lit(&o, "<p><small>Written by segscan. Every mark has a title: hover over it.</small></p>\n</body></html>\n");
    out_flush(&o);
    ok = ok && !o.failed;
    out_free(&o);
    fclose(pg.mf);
    scratch_close(&pg.sc);
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
