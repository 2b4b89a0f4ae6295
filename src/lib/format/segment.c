/* segscan - segment files: the read-only mapping (with its SIGBUS guard), the
 * copy of a byte range with pread(2), and the window the copying readers use.
 *
 * Live files. A segment is read as it was when it was opened: its size then
 * bounds the walk (walker.c). The file stays open (read-only) so the walker
 * can fstat it:
 *  - grown (a broker appending): at the end, the END event carries an
 *    SS_E_GREW notice; the bytes added after the open are not read.
 *  - cut (a broker truncating or deleting it): a mapped page past the new end
 *    would raise SIGBUS; platform.c turns that into zero pages and a flag. The
 *    walker checks the flag after every parse (and fstats on every damage
 *    path, since a cut inside a page reads as zeros without a fault), lowers
 *    its limit to the new size, re-reads the entry it was on, and before the
 *    END event reports SS_E_SHRUNK damage at the new size.
 * The walker's test hook (SEGSCAN_TEST_PAUSE_AFTER_BATCHES, walker.c) is read
 * from the environment when a file is opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error_set.h"
#include "base/grow.h"
#include "base/mem.h"
#include "base/platform.h"
#include "base/reader.h"
#include "base/test_hooks.h"
#include "format/kafka_format.h"
#include "format/segment.h"
#include "format/walker.h"
#include "segscan/segment.h"

static uint64_t next_segment_id(void) {
    static _Atomic uint64_t last;
    return ++last;
}

#ifndef O_NOATIME
#define O_NOATIME 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif


ss_errkind ss_segment_open(const char *path, ss_segment **out, ss_error *err) {
    *out = NULL;
    /* O_NOATIME is refused (EPERM) for files we do not own: retry without it. */
    int fd = open(path, O_RDONLY | O_NOATIME | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0 && errno == EPERM) fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        ss_error_set(err, SS_E_IO, 0, -1, "cannot open: %s", strerror(errno));
        return SS_E_IO;
    }
    ss_test_note_open();
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        ss_error_set(err, SS_E_IO, 0, -1, "cannot stat: %s", strerror(e));
        return SS_E_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        ss_error_set(err, SS_E_IO, 0, -1, "not a regular file%s", S_ISDIR(st.st_mode) ? " (a directory)" : "");
        return SS_E_IO;
    }
    ss_segment *s = calloc(1, sizeof *s);
    if (!s) {
        close(fd);
        ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        return SS_E_NOMEM;
    }
    s->fd = -1;
    s->guard = -1;
    s->pause_after = UINT64_MAX;
    s->id = next_segment_id();
    s->size = (uint64_t)st.st_size;
    if (s->size > 0) {
        void *m = mmap(NULL, (size_t)s->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            int e = errno;
            close(fd);
            free(s);
            ss_error_set(err, SS_E_IO, 0, -1, "cannot map: %s", strerror(e));
            return SS_E_IO;
        }
        (void)madvise(m, (size_t)s->size, MADV_SEQUENTIAL);
        s->map = m;
        s->data = m;
        s->guard = ss_guard_register(m, (size_t)s->size);
    }
    s->fd = fd; /* kept to notice a file that grows or shrinks while it is read */
    const ss_test_hooks *h = ss_test_hooks_get();
    if (h->pause_after_batches != UINT64_MAX && h->pause_fifo && (s->pause_fifo = strdup(h->pause_fifo)) != NULL)
        s->pause_after = h->pause_after_batches;
    *out = s;
    return SS_E_OK;
}

ss_errkind ss_segment_from_memory(const uint8_t *data, size_t len, bool copy, ss_segment **out, ss_error *err) {
    *out = NULL;
    ss_segment *s = calloc(1, sizeof *s);
    if (!s) goto nomem;
    s->fd = -1;
    s->guard = -1;
    s->pause_after = UINT64_MAX;
    s->id = next_segment_id();
    s->size = len;
    if (copy && len) {
        s->owned = malloc(len);
        if (!s->owned) {
            free(s);
            goto nomem;
        }
        memcpy(s->owned, data, len);
        s->data = s->owned;
    } else {
        s->data = data;
    }
    *out = s;
    return SS_E_OK;
nomem:
    ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    return SS_E_NOMEM;
}

void ss_segment_close(ss_segment *s) {
    if (!s) return;
    ss_guard_unregister(s->guard);
    if (s->map) munmap(s->map, (size_t)s->size);
    if (s->fd >= 0) close(s->fd);
    free(s->owned);
    free(s->pause_fifo);
    free(s);
}

uint64_t ss_segment_size(const ss_segment *s) { return s->size; }
const uint8_t *ss_segment_data(const ss_segment *s) { return s->data; }

size_t ss_segment_read(const ss_segment *s, uint64_t pos, void *buf, size_t n) {
    if (pos >= s->size) return 0;
    if (n > s->size - pos) n = (size_t)(s->size - pos);
    if (s->fd < 0) {
        memcpy(buf, s->data + pos, n);
        return n;
    }
    /* pread, not the mapping: no page of the mapping is touched */
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(s->fd, (uint8_t *)buf + got, n - got, (off_t)(pos + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    return got;
}

void ss_segment_release(ss_segment *s, uint64_t upto) {
    if (!s->map || upto == 0) return;
    long pg = sysconf(_SC_PAGESIZE);
    uint64_t page = pg > 0 ? (uint64_t)pg : 4096;
    upto -= upto % page;
    if (upto > s->size) upto = s->size - s->size % page;
    if (upto) (void)madvise(s->map, (size_t)upto, MADV_DONTNEED);
}

/* ---- the copying path ------------------------------------------------------------ */

/* See format/walker.h. A small file gets a small window. */
bool ss_window_fill(ss_window *win, const ss_segment *s, uint64_t limit, uint64_t pos, uint64_t need) {
    if (win->seg_id != s->id) {
        win->seg_id = s->id;
        win->at = win->len = 0;
    }
    if (pos >= win->at && pos - win->at + need <= win->len) return true;
    if (need > limit || pos > limit - need) return false;
    uint64_t span = SS_WINDOW_BYTES;
    /* a unit's last entry that runs past its end is read, not a window's worth after it: with
     * units of 1 MiB the export's makers read 46% more than the segment holds */
    if (win->read_to > pos && span > win->read_to - pos) span = win->read_to - pos;
    if (span < need) span = need;
    if (span > limit - pos) span = limit - pos;
    if (!SS_GROW_TO_BIG(win->buf, (size_t)span, win->cap)) return false;
    size_t keep = 0;
    if (pos >= win->at && pos < win->at + win->len) {
        keep = (size_t)(win->at + win->len - pos);
        memmove(win->buf, win->buf + (pos - win->at), keep);
    }
    win->at = pos;
    win->len = keep;
    win->len += ss_segment_read(s, pos + keep, win->buf + keep, (size_t)(span - keep));
    return win->len >= need;
}

void ss_window_free(ss_window *win) {
    ss_big_free(win->buf);
    memset(win, 0, sizeof *win);
}
