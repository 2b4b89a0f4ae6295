/* segscan - the progress line of the analysis commands: one line on stderr,
 * redrawn with \r (see progress.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "common/progress.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void progress_start(struct progress *p) {
    p->width = 0; /* not a terminal: no limit */
    if (p->mode == PROGRESS_NEVER) return;
    if (p->mode == PROGRESS_AUTO) {
        const char *ci = getenv("CI"), *term = getenv("TERM");
        if (!isatty(STDERR_FILENO) || (ci && *ci && strcmp(ci, "false") != 0) || (term && !strcmp(term, "dumb")))
            return;
    }
    struct winsize ws;
    if (isatty(STDERR_FILENO)) {
        p->width = 80;
        if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) p->width = ws.ws_col;
    }
    p->enabled = true;
    p->t0 = now_s();
    p->last = -1;
}

static void human_bytes(char *buf, size_t n, uint64_t b) {
    if (b >= 1000000000ull) snprintf(buf, n, "%.2f GB", (double)b / 1e9);
    else snprintf(buf, n, "%.1f MB", (double)b / 1e6);
}

void progress_cb(void *arg, const ss_an_progress *pr) {
    struct progress *p = arg;
    if (pr->done) return; /* progress_clear() blanks the line */
    double t = now_s(), el = t - p->t0;
    if (p->mode == PROGRESS_AUTO && el < 1.0) return;
    if (p->last >= 0 && t - p->last < 0.1) return;
    p->last = t;
    char done[32], total[32], eta[32] = "-", line[512];
    human_bytes(done, sizeof done, pr->bytes_done);
    human_bytes(total, sizeof total, pr->bytes_total);
    double rate = el > 0 ? (double)pr->bytes_done / el : 0;
    if (rate > 0 && pr->bytes_total >= pr->bytes_done) {
        unsigned long s = (unsigned long)((double)(pr->bytes_total - pr->bytes_done) / rate + 0.5);
        snprintf(eta, sizeof eta, "%lu:%02lu", s / 60, s % 60);
    }
    int pct = pr->bytes_total ? (int)(100.0 * (double)pr->bytes_done / (double)pr->bytes_total) : 100;
    const char *file = pr->file ? pr->file : "";
    const char *slash = strrchr(file, '/');
    if (slash && slash[1]) file = slash + 1;
    int n = snprintf(line, sizeof line, "segscan: %3d%% %s of %s, %.2fM records, %.0f MB/s, ETA %s  %s", pct, done,
                     total, (double)pr->records / 1e6, rate / 1e6, eta, file);
    if (n < 0) return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (p->width && len > p->width - 1) len = p->width - 1; /* never wrap: \r must reach the line's start */
    fputc('\r', stderr);
    fwrite(line, 1, len, stderr);
    for (size_t i = len; i < p->drawn; i++) fputc(' ', stderr);
    fflush(stderr);
    p->drawn = len;
}

/* Blank the line if one is shown. */
void progress_clear(struct progress *p) {
    if (!p->drawn) return;
    fputc('\r', stderr);
    for (size_t i = 0; i < p->drawn; i++) fputc(' ', stderr);
    fputc('\r', stderr);
    fflush(stderr);
    p->drawn = 0;
}
