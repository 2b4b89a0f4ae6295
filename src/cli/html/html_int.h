/* segscan CLI - --html FILE: what the page's files share (html.c builds the page
 * and its charts, html_draw.c draws a chart, html_tables.c writes the header and
 * the tables, html_base.c escapes, scales and times for all three). */
#ifndef SS_CLI_HTML_INT_H
#define SS_CLI_HTML_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/out.h"
#include "html/html.h"

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

typedef struct scratch {
    ss_out o;
    FILE *f;
    char *mem;
    size_t memlen;
} scratch;

typedef struct axes {
    int64_t t0, t1; /* time range */
    int64_t o0, o1; /* offset range */
    bool no_time;   /* no timestamps: x is the batch's position */
} axes;

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
    size_t copies; /* copies of this partition (draw_copies): the causes' legend only under a chart with some */
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

/* html_base.c */
void html_esc_lines(ss_out *o, const uint8_t *p, size_t n, size_t max, bool lines);
void html_esc_n(ss_out *o, const uint8_t *p, size_t n, size_t max);
void html_esc(ss_out *o, const char *s);
void html_esc_len(ss_out *o, const char *s, size_t n);
bool html_scratch_open(scratch *s);
void html_scratch_take(scratch *s, ss_out *o, size_t max);
void html_scratch_close(scratch *s);
void html_tstr(char *buf, size_t n, int64_t ms);
void html_tick_time(char *buf, size_t n, int64_t ms, bool days);
double html_xs(const axes *a, int64_t t);
double html_ys(const axes *a, int64_t off);
void html_ext_t(axes *a, int64_t t);
void html_ext_o(axes *a, int64_t o);
void html_draw_axes(ss_out *o, const axes *a);
size_t html_page_bytes(page *p);
bool html_same_tp(const ss_gtp_ref *t, const chart *c);
/* a and b in natural order: runs of digits by their value (topic2 before topic10), the rest by bytes */
int html_natcmp(const char *a, const char *b);
const ss_an_session *html_session_of(const page *p, uint32_t part, int64_t pid, int16_t epoch, size_t *idx);
void html_title_time(ss_out *o, const char *what, int64_t t);

/* html_draw.c */
void html_chart_svg(page *p, chart *c);

/* html_tables.c */
void html_header(page *p);
void html_tables(page *p);
void html_text_block(page *p, const char *title);

#endif
