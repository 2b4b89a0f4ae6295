/* segscan - the figures of a partition and of the total, described once.
 *
 * scan --json's partition and total objects (view_partition.c, views.c),
 * --report's key=value lines (report.c) and the --html page's table of
 * partitions (html_tables.c) walk these tables: adding a figure is one line in
 * figures.c. A figure has a JSON key, a report key and an HTML column head
 * (NULL: not in that output), how each output writes it, its place among the
 * report's lines (the report lists the transaction figures in another order
 * than JSON) and its column in the HTML table.
 * The text summary (cmd_scan.c) says figures in sentences, and stays written
 * out by hand.
 */
#ifndef SEGSCAN_CLI_FIGURES_H
#define SEGSCAN_CLI_FIGURES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "out.h"

enum fig_json {
    FJ_NONE,   /* not in the JSON object */
    FJ_U64,    /* a number */
    FJ_OPT,    /* a number, null when negative */
    FJ_BOOL,   /* true / false */
    FJ_STR,    /* a string, null when NULL */
    FJ_CODECS, /* {"<codec>":batches,...} of the codecs seen */
};

enum fig_rep {
    FR_NONE,   /* not in the report */
    FR_U64,    /* KEY=unsigned */
    FR_S64,    /* KEY=signed */
    FR_STR,    /* KEY=string */
    FR_CODECS, /* KEY.<codec>=batches, a line per codec seen */
};

enum fig_html {
    FH_NONE,  /* not in the HTML table */
    FH_U64,   /* <td class="n">unsigned</td> */
    FH_NAME,  /* <td>escaped string</td> */
    FH_RANGE, /* <td>lo..hi</td>, <td>-</td> when u (the count) is 0 */
    FH_TOTAL, /* <th>total (unsigned)</th> */
};

struct fig_val {
    uint64_t u; /* a signed value as its two's complement */
    const char *s;
    const uint64_t *codecs; /* FJ_CODECS / FR_CODECS: batches by codec id 0..7 */
    int64_t lo, hi;         /* FH_RANGE */
};

struct fig {
    const char *json;
    enum fig_json jk;
    const char *report;
    enum fig_rep rk;
    int rank; /* the report's order: 1, 2, ... with no number left out (0: not in the report) */
    const char *html;
    enum fig_html hk;
    int hcol;                              /* the HTML table's column: 1, 2, ... (0: not in the table) */
    struct fig_val (*get)(const void *of); /* of: an ss_an_partition or an ss_an_totals */
};

extern const struct fig partition_figs[];
extern const size_t npartition_figs;
extern const struct fig total_figs[];
extern const size_t ntotal_figs;

/* Each figure of the table with a JSON key, as ,"key":value (out_json_key). */
void figs_json(ss_out *o, const struct fig *figs, size_t n, const void *of);
/* Each figure with a report key, in rank order, as PREFIX.key=value lines. */
void figs_report(FILE *f, const char *prefix, const struct fig *figs, size_t n, const void *of);

/* The HTML table's column heads, <th>head</th> in column order. */
void figs_html_head(ss_out *o, const struct fig *figs, size_t n);
/* A row's cells in the columns of COLS (the partition table's): OF's figure in
 * each, an empty cell where FIGS has none. */
void figs_html_row(ss_out *o, const struct fig *cols, size_t ncols, const struct fig *figs, size_t n, const void *of);

#endif
