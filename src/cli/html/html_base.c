/* segscan CLI - --html FILE: escaping, scratch text, times and a chart's scales (html_int.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "groups/gfindings.h"
#include "html/html_int.h"

/* ---- escaping ---------------------------------------------------------------------------- */

/* Bytes as HTML text or attribute value: well-formed UTF-8 as is, with & < > " ' as
 * entities; control characters, C1 controls, bidirectional overrides and malformed bytes as
 * \xNN or \u{...} text, so that no group id or member id can break the markup or reorder what
 * is shown. At most max bytes are written, then "...". */
void html_esc_lines(ss_out *o, const uint8_t *p, size_t n, size_t max, bool lines) {
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
void html_esc_n(ss_out *o, const uint8_t *p, size_t n, size_t max) { html_esc_lines(o, p, n, max, false); }
void html_esc(ss_out *o, const char *s) {
    if (s) html_esc_n(o, (const uint8_t *)s, strlen(s), 256);
}
void html_esc_len(ss_out *o, const char *s, size_t n) {
    if (s) html_esc_n(o, (const uint8_t *)s, n, 256);
}

/* A scratch buffer: text written to an ss_out (the text printers' helpers), then escaped. */
bool html_scratch_open(scratch *s) {
    memset(s, 0, sizeof *s);
    s->f = open_memstream(&s->mem, &s->memlen);
    if (!s->f) return false;
    out_init(&s->o, s->f);
    return !s->o.failed;
}
/* what was written since the last take, escaped into o */
void html_scratch_take(scratch *s, ss_out *o, size_t max) {
    out_flush(&s->o);
    html_esc_lines(o, (const uint8_t *)s->mem, s->memlen, max, true); /* the text printers' own lines */
    rewind(s->f);
    s->memlen = 0;
    if (s->mem) s->mem[0] = 0;
}
void html_scratch_close(scratch *s) {
    out_free(&s->o);
    if (s->f) fclose(s->f);
    free(s->mem);
}

void html_tstr(char *buf, size_t n, int64_t ms) {
    if (ms < 0) snprintf(buf, n, "-");
    else cli_format_time(ms, buf, n);
}

/* a tick's label: the time of day ("22:13:20.000Z"), or the day and minute past a day */
void html_tick_time(char *buf, size_t n, int64_t ms, bool days) {
    char full[64];
    html_tstr(full, sizeof full, ms);
    const char *t = strchr(full, 'T');
    if (!t) {
        snprintf(buf, n, "%s", full);
        return;
    }
    if (days) snprintf(buf, n, "%.*s %.5s", (int)(t - full), full, t + 1);
    else snprintf(buf, n, "%s", t + 1);
}

/* ---- a chart's axes ---------------------------------------------------------------------- */


double html_xs(const axes *a, int64_t t) {
    if (t < a->t0) t = a->t0;
    if (t > a->t1) t = a->t1;
    return ML + (double)(t - a->t0) * (W - ML - MR) / (double)(a->t1 - a->t0);
}
double html_ys(const axes *a, int64_t off) {
    if (off < a->o0) off = a->o0;
    if (off > a->o1) off = a->o1;
    return H - MB - (double)(off - a->o0) * (H - MT - MB) / (double)(a->o1 - a->o0);
}
void html_ext_t(axes *a, int64_t t) {
    if (t < 0) return;
    if (t < a->t0) a->t0 = t;
    if (t > a->t1) a->t1 = t;
}
void html_ext_o(axes *a, int64_t o) {
    if (o < 0) return;
    if (o < a->o0) a->o0 = o;
    if (o > a->o1) a->o1 = o;
}

/* The k-th of n ticks from lo to hi (0 <= lo <= hi): (hi - lo) * k overflows for a range past
 * Long.MAX_VALUE / n, which offsets and timestamps near Long.MAX_VALUE make. */
static int64_t tick(int64_t lo, int64_t hi, int k, int n) {
    int64_t r = hi - lo;
    return lo + (r <= INT64_MAX / n ? r * k / n : r / n * k);
}

void html_draw_axes(ss_out *o, const axes *a) {
    out_printf(o, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", ML, MT, W - ML - MR,
               H - MT - MB);
    for (int k = 0; k <= 4; k++) {
        int64_t off = tick(a->o0, a->o1, k, 4);
        double y = html_ys(a, off);
        out_printf(o,
                   "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/><text class=\"ylab\" x=\"%d\" "
                   "y=\"%.1f\">%" PRId64 "</text>\n",
                   ML, y, W - MR, y, ML - 4, y + 4, off);
    }
    char prev[64] = "";
    for (int k = 0; k <= 4; k++) {
        int64_t t = tick(a->t0, a->t1, k, 4);
        double x = html_xs(a, t);
        char ts[64];
        if (a->no_time) snprintf(ts, sizeof ts, "batch %" PRId64, t);
        else html_tick_time(ts, sizeof ts, t, a->t1 - a->t0 > 86400000);
        if (!strcmp(ts, prev)) continue; /* a range of a few milliseconds: each label once */
        snprintf(prev, sizeof prev, "%s", ts);
        const char *anchor = k == 0 ? "start" : k == 4 ? "end" : "middle";
        out_printf(o,
                   "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"xlab\" "
                   "text-anchor=\"%s\" x=\"%.1f\" y=\"%d\">%s</text>\n",
                   x, MT, x, H - MB, anchor, x, H - MB + 16, ts);
    }
    char from[64];
    html_tstr(from, sizeof from, a->t0);
    out_printf(o, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s%s</text>\n", (ML + W - MR) / 2,
               H - 8, a->no_time ? "batches in log order (no timestamps)" : "time (batch maxTimestamp) from ",
               a->no_time ? "" : from);
    out_printf(
        o,
        "<text class=\"axis\" x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">offset</text>\n",
        (MT + H - MB) / 2, (MT + H - MB) / 2);
}

/* ---- the page ---------------------------------------------------------------------------- */


size_t html_page_bytes(page *p) {
    out_flush(p->o);
    long n = ftell(p->mf);
    return n < 0 ? 0 : (size_t)n;
}

int html_natcmp(const char *a, const char *b) {
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            /* a run of digits against a run of digits: by value (leading zeros aside), then by length */
            const char *za = a, *zb = b;
            while (*za == '0') za++;
            while (*zb == '0') zb++;
            size_t la = 0, lb = 0;
            while (za[la] >= '0' && za[la] <= '9') la++;
            while (zb[lb] >= '0' && zb[lb] <= '9') lb++;
            if (la != lb) return la < lb ? -1 : 1;
            int c = memcmp(za, zb, la);
            if (c) return c;
            size_t ra = (size_t)(za - a) + la, rb = (size_t)(zb - b) + lb;
            if (ra != rb) return ra < rb ? -1 : 1;
            a += ra;
            b += rb;
            continue;
        }
        if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

bool html_same_tp(const ss_gtp_ref *t, const chart *c) {
    return t->topic && t->partition == c->partition && strlen(c->topic) == t->topic_len &&
           !memcmp(t->topic, c->topic, t->topic_len);
}

const ss_an_session *html_session_of(const page *p, uint32_t part, int64_t pid, int16_t epoch, size_t *idx) {
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


void html_title_time(ss_out *o, const char *what, int64_t t) {
    char ts[64];
    html_tstr(ts, sizeof ts, t);
    out_printf(o, "%s%s", what, ts);
}
