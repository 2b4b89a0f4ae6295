/* segscan CLI - --html FILE: one self-contained page (inline SVG and CSS, no
 * script, no external resource) that draws what the analysis commands and
 * groups found, partition by partition: offsets over time (html.c, with the
 * SVG writer of svg.c). */
#ifndef SS_CLI_HTML_H
#define SS_CLI_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "segscan/segscan.h"

/* What the page is drawn from: the results the text and JSON printers use. */
struct html_src {
    const char *command; /* "scan", "dups", "explain", "producers", "txns", "groups" */
    int argc;            /* the command line, for the header */
    char **argv;
    const ss_inputs *in; /* the PATHs */
    ss_analysis *an;     /* the analysis; NULL for groups */
    enum ss_by by;       /* what identifies a copy */
    ss_timelines *tl;    /* the data partitions' batch headers; NULL: none read */
    ss_groups *g;        /* the consumer groups (read with opts.commits), NULL when none */
    ss_findings *f;      /* their findings, NULL when none */
    int64_t since_ms, until_ms, from_offset, to_offset; /* the window (INT64_MIN/MAX open) */
    bool filter_pid;
    int64_t producer_id;
    const char *const *group_ids; /* --group */
    size_t ngroup_ids;
    const char *text; /* the command's text output, shown on the page (its first text_len bytes) */
    size_t text_len;
    size_t text_total; /* its length */
    int rc;            /* the exit status */
};

/* Largest page: charts aggregated into bins and tables cut to their top rows keep it below. */
#define HTML_MAX_BYTES (5u * 1024u * 1024u)

/* The command's text output for the page, printed into memory: its first HTML_TEXT_MAX bytes are
 * kept, the others counted (dups of a large input prints far more than a page shows). */
#define HTML_TEXT_MAX (700u * 1024u)
struct html_capture {
    char *buf;
    size_t len;   /* kept */
    size_t total; /* written */
};
/* A stream writing into c (zero-initialise it); NULL when memory ran out. fclose it, then free(c->buf). */
FILE *html_capture_open(struct html_capture *c);

/* Write the page to path ('-': standard output); false (after a message) when it cannot be written. */
bool html_write(const struct html_src *s, const char *path);

#endif
