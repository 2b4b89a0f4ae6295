/* segscan - the figures of a partition and of the total, described once.
 *
 * scan --json's partition and total objects (view_partition.c, views.c),
 * --report's key=value lines (report.c), the --html page's table of
 * partitions (html_tables.c) and the text summary (cmd_scan.c) walk these
 * tables: adding a figure is one row in figures.c. A figure has a JSON key, a
 * report key and an HTML column head (NULL: not in that output), how each
 * output writes it, its place among the report's lines (the report lists the
 * transaction figures in another order than JSON), its column in the HTML
 * table and its clause in the text.
 * The text summary says figures in sentences: a figure in the text has a
 * line, its place in that line, a phrase and when it is said (struct
 * fig_text); figs_text (figures_text.c) writes a range of lines, joining the
 * clauses said. A row may be for the text alone (a figure none of the other
 * outputs has, or another wording of one that appears twice).
 */
#ifndef SEGSCAN_CLI_FIGURES_H
#define SEGSCAN_CLI_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/out.h"

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

/* When a clause is said (struct fig_text.when): a test of its own value, and
 * flags. A clause not said writes nothing, not even its separator. */
enum {
    FT_ALWAYS = 0,  /* whatever the value */
    FT_NONZERO = 1, /* the value is not 0 */
    FT_NONNEG = 2,  /* the value, signed, is not negative */
    FT_GT1 = 3,     /* the value is above 1 */
    FT_LE1 = 4,     /* the value is 0 or 1 */
    FT_TEST = 7,    /* the bits of the test */
    FT_ALONE = 8,   /* only when no clause before it in its line was said */
    FT_SGR_IF = 16, /* its colour only when the value is not 0 */
};

enum fig_tnum {
    FN_NONE,   /* the phrase has no number */
    FN_U64,    /* '#' is the value, unsigned */
    FN_S64,    /* '#' is the value, signed */
    FN_TIME,   /* '#' is the value as a time (scan_time) */
    FN_STR,    /* '#' is the string */
    FN_CODECS, /* " <codec> batches" for each codec seen; no phrase */
    FN_CAUSES, /* " <cause> copies" for each cause, from aborted on; no phrase */
};

/* A figure's clause in the text. The phrase: '#' is the value, {one|many}
 * the word for a value of 1 or another, '@' the --by unit ("record", "key"),
 * '<' and '>' where the colour starts and ends (the colour may run on into the
 * next clause's phrase, which then ends it with '>'). */
struct fig_text {
    int line;          /* the line (the lines table's index), 0: not in the text */
    int pos;           /* its place in the line: 1, 2, ... with no number left out */
    int when;          /* FT_* */
    int after;         /* the clause (its row) that must have been said before it in its line, -1: none */
    const char *sep;   /* before it when a clause before it in its line was said */
    const char *sgr;   /* its colour (SGR_*), NULL: none */
    enum fig_tnum num; /* what '#' is */
    const char *phrase;
};

/* A line of the text: written when its test holds (NULL: when a clause of it is said). */
struct fig_line {
    const char *indent;
    const char *label; /* after the indent, in the line's colour */
    const char *sgr;   /* the whole line's colour after the indent, NULL: none */
    bool (*when)(const void *of);
};

struct fig_val {
    uint64_t u; /* a signed value as its two's complement */
    const char *s;
    /* FJ_CODECS / FR_CODECS / FN_CODECS: batches by codec id 0..7; FN_CAUSES: copies by cause */
    const uint64_t *codecs;
    int64_t lo, hi; /* FH_RANGE */
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
    struct fig_text text;
};

/* The lines of a partition's block in the text summary, and of the total's. */
enum {
    PL_HEAD = 1,  /* name, path and segments */
    PL_NOBATCHES, /* instead of PL_RECORDS .. PL_TXNS when there is no batch */
    PL_RECORDS,
    PL_TIME,
    PL_CODECS,
    PL_PRODUCERS,
    PL_DUPS,
    PL_SEQS,
    PL_TXNS,
    PL_CHECKPOINTS,
    PL_DAMAGED,
    PL_LOST,
    PL_REPEAT,
    PL_TAIL,
    PL_ZEROS,
    PL_SKIPPED,
    PL_WINDOW,
    PL_PART,
    PL_COUNT
};
enum { TL_HEAD = 1, TL_DUPS, TL_SEQS, TL_TXNS, TL_DAMAGED, TL_COUNT };

extern const struct fig_line partition_lines[PL_COUNT];
extern const struct fig_line total_lines[TL_COUNT];
extern const struct fig partition_figs[];
extern const size_t npartition_figs;
extern const struct fig total_figs[];
extern const size_t ntotal_figs;

/* Each figure of the table with a JSON key, as ,"key":value (out_json_key). */
void figs_json(ss_out *o, const struct fig *figs, size_t n, const void *of);
/* Each figure with a report key, in rank order, as PREFIX.key=value lines. */
void figs_report(FILE *f, const char *prefix, const struct fig *figs, size_t n, const void *of);

#define FIG_MAX 128 /* rows of a table, at most (figs_text's arrays) */
struct scan_cli;
/* The lines FROM..TO of LINES (partition_lines and partition_figs with an
 * ss_an_partition, total_lines and total_figs with the ss_an_totals): each
 * line its indent and label and the clauses said, each after its separator. */
void figs_text(struct scan_cli *c, const struct fig_line *lines, int from, int to, const struct fig *figs, size_t n,
               const void *of);

#endif
