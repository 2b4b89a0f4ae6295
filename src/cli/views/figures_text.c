/* segscan - the text summary's lines of a partition's and the total's figures
 * (figures.h): figures.c describes each clause, this writes them. Apart from
 * figures.c because it writes with views.c's colours and times, and views.c
 * walks figures.c's tables. */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "views/figures.h"
#include "views/scan.h"

/* the row at place POS of line LINE, or n */
static size_t text_at(const struct fig *figs, size_t n, int line, int pos) {
    for (size_t i = 0; i < n; i++)
        if (figs[i].text.line == line && figs[i].text.pos == pos) return i;
    return n;
}

static bool text_test(int when, struct fig_val v) {
    switch (when & FT_TEST) {
    case FT_NONZERO: return v.u != 0;
    case FT_NONNEG: return (int64_t)v.u >= 0;
    case FT_GT1: return v.u > 1;
    case FT_LE1: return v.u <= 1;
    default: return true;
    }
}

static void text_number(struct scan_cli *c, const struct fig *g, struct fig_val v) {
    ss_out *o = c->out;
    char t[64];
    switch (g->text.num) {
    case FN_U64: out_u64(o, v.u); break;
    case FN_S64: out_i64(o, (int64_t)v.u); break;
    case FN_TIME:
        scan_time(t, sizeof t, (int64_t)v.u);
        out_str(o, t);
        break;
    case FN_STR: out_str(o, v.s); break;
    case FN_NONE:
    case FN_CODECS:
    case FN_CAUSES: break;
    }
}

/* a clause's phrase: '#' the value, {one|many}, '@' the --by unit, '<' '>' its colour */
static void text_phrase(struct scan_cli *c, const struct fig *g, struct fig_val v) {
    ss_out *o = c->out;
    bool colour = !(g->text.when & FT_SGR_IF) || v.u;
    if (g->text.num == FN_CODECS)
        for (int k = 0; k < 8; k++)
            if (v.codecs[k]) out_printf(o, " %s %" PRIu64, ss_codec_label(k), v.codecs[k]);
    if (g->text.num == FN_CAUSES)
        for (enum ss_cause k = SS_CAUSE_ABORTED; k < SS_CAUSE_COUNT; k++)
            if (v.codecs[k]) out_printf(o, " %s %" PRIu64, ss_cause_name(k), v.codecs[k]);
    for (const char *p = g->text.phrase; p && *p;) {
        size_t lit = strcspn(p, "#{@<>");
        out_raw(o, p, lit);
        p += lit;
        switch (*p) {
        case '#': text_number(c, g, v); break;
        case '@': out_str(o, ss_by_name(c->ao.by)); break;
        case '<':
            if (colour && g->text.sgr) out_str(o, scan_sgr(c, g->text.sgr));
            break;
        case '>':
            if (colour) out_str(o, scan_sgr(c, SGR_RST));
            break;
        case '{': {
            const char *bar = strchr(p, '|'), *end = bar ? strchr(bar, '}') : NULL;
            if (!end) return; /* a table's typo: figs_text's test finds it */
            if (v.u == 1) out_raw(o, p + 1, (size_t)(bar - p - 1));
            else out_raw(o, bar + 1, (size_t)(end - bar - 1));
            p = end;
            break;
        }
        default: return; /* the end */
        }
        p++;
    }
}

void figs_text(struct scan_cli *c, const struct fig_line *lines, int from, int to, const struct fig *figs, size_t n,
               const void *of) {
    ss_out *o = c->out;
    bool said[FIG_MAX] = {false};
    struct fig_val vals[FIG_MAX];
    size_t order[FIG_MAX];
    if (n > FIG_MAX) n = FIG_MAX; /* figures.c asserts that its tables fit */
    for (int l = from; l <= to; l++) {
        const struct fig_line *L = &lines[l];
        if (L->when && !L->when(of)) continue;
        /* which clauses are said: a clause's test can depend on those before it */
        size_t nsaid = 0, i;
        for (int pos = 1; (i = text_at(figs, n, l, pos)) < n; pos++) {
            const struct fig_text *t = &figs[i].text;
            vals[i] = figs[i].get(of);
            if (!text_test(t->when, vals[i])) continue;
            if ((t->when & FT_ALONE) && nsaid) continue;
            if (t->after >= 0 && !said[t->after]) continue;
            said[i] = true;
            order[nsaid++] = i;
        }
        if (!L->when && !nsaid) continue;
        out_str(o, L->indent);
        if (L->sgr) out_str(o, scan_sgr(c, L->sgr));
        out_str(o, L->label);
        for (size_t k = 0; k < nsaid; k++) {
            const struct fig *g = &figs[order[k]];
            if (k && g->text.sep) out_str(o, g->text.sep);
            text_phrase(c, g, vals[order[k]]);
        }
        if (L->sgr) out_str(o, scan_sgr(c, SGR_RST));
        out_ch(o, '\n');
    }
}
