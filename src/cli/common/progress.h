/* segscan CLI - the progress line of the analysis commands (progress.c).
 *
 * One line on stderr, redrawn with \r. The library calls progress_cb from the
 * thread that runs the analysis after each unit it reads; it draws at most 10
 * times a second, in auto mode only once a second has passed (and only when
 * stderr is a terminal, not in CI, TERM not dumb), and progress_clear()
 * blanks the line at the end. */
#ifndef SS_CLI_PROGRESS_H
#define SS_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "segscan/analyze.h"

enum { PROGRESS_AUTO, PROGRESS_ALWAYS, PROGRESS_NEVER };

struct progress {
    int mode;
    bool enabled;    /* the callback is installed */
    double t0, last; /* seconds (monotonic): start, last drawn */
    size_t drawn;    /* width of the line on screen, 0: none */
    size_t width;    /* the terminal's columns */
};

/* Decide whether to draw (p->mode set), and start the clock. */
void progress_start(struct progress *p);
/* The analysis's progress callback (ss_an_opts.progress, with p as its argument). */
void progress_cb(void *arg, const ss_an_progress *pr);
/* Blank the line if one is shown. */
void progress_clear(struct progress *p);

#endif
