/* segscan - the batch walker over a segment.
 *
 * The walker follows Kafka's FileLogInputStream.nextBatch() framing and adds
 * what Kafka lacks: after mid-file damage it reports the damaged range and
 * resynchronises on the next plausible entry (sane length, known magic and a
 * matching CRC) instead of giving up on the rest of the file.
 *
 * Live files (segment.c says more): a file grown while it is read ends with an
 * SS_E_GREW notice; a file cut while it is read (a SIGBUS turned into zero
 * pages by base/platform.c, or fstat on the damage paths) lowers the walk's
 * limit to the new size, the entry it was on is read again, and SS_E_SHRUNK
 * damage is reported at the new size before the END event.
 * Test hook (deterministic live-file tests, tests/hostile/live.py; set through
 * segscan/test_hooks.h): with pause_after_batches N and pause_fifo PATH, a
 * walker over an opened file blocks after N batch events until it has read one
 * byte from the FIFO at PATH.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error_set.h"
#include "base/platform.h"
#include "base/reader.h"
#include "format/batch.h"
#include "format/kafka_format.h"
#include "format/segment.h"
#include "format/walker.h"
#include "segscan/base.h"
#include "segscan/segment.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* pages of the mapping behind the walk are dropped every RELEASE_STEP bytes,
 * all but the last RELEASE_KEEP */
#define RELEASE_STEP ((uint64_t)32 << 20)
#define RELEASE_KEEP ((uint64_t)4 << 20)

/* ---- walker --------------------------------------------------------------- */

void ss_walker_init(ss_walker *w, const ss_segment *s, uint64_t limit) {
    memset(w, 0, sizeof *w);
    w->seg = s;
    w->base = s->data;
    w->limit = limit < s->size ? limit : s->size;
    w->shrunk_at = UINT64_MAX;
}

ss_walker *ss_walker_new(const ss_segment *s, uint64_t limit) {
    ss_walker *w = malloc(sizeof *w);
    if (w) ss_walker_init(w, s, limit);
    return w;
}

void ss_walker_free(ss_walker *w) { free(w); }

uint64_t ss_walker_damaged_bytes(const ss_walker *w) { return w->damaged_bytes; }

/* ---- live files ------------------------------------------------------------- */

/* The file's size now, or UINT64_MAX when unknown (not an opened file). */
static uint64_t size_now(const ss_segment *s) {
    struct stat st;
    if (s->fd < 0 || fstat(s->fd, &st) != 0) return UINT64_MAX;
    return (uint64_t)st.st_size;
}

/* Has the file been cut below the walk's limit? A SIGBUS-guarded fault says so
 * at no cost; with_stat also asks the file system (on damage paths and at the
 * end: a cut inside a page reads as zeros without a fault). On a new cut the
 * limit drops to the new size (not below what was already read) and true is
 * returned: the caller re-reads from w->pos. */
static bool check_shrunk(ss_walker *w, bool with_stat) {
    const ss_segment *s = w->seg;
    if (!s->map) return false;
    uint64_t at = ss_guard_fault(s->guard);
    if (with_stat || at != UINT64_MAX) {
        uint64_t now = size_now(s);
        if (now < at) at = now;
    }
    if (at >= w->limit || (w->shrunk_at != UINT64_MAX && at >= w->shrunk_at)) return false;
    uint64_t keep = at > w->pos ? at : w->pos;
    w->shrunk_lost += w->limit - keep;
    w->shrunk_at = at;
    w->limit = keep;
    return true;
}

/* The test hook: block until one byte is read from the FIFO (see the top). */
static void test_pause(ss_walker *w) {
    const ss_segment *s = w->seg;
    if (s->pause_after == UINT64_MAX || w->test_paused || w->batches != s->pause_after) return;
    w->test_paused = true;
    int fd = open(s->pause_fifo, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    char c;
    while (read(fd, &c, 1) < 0 && errno == EINTR) {}
    close(fd);
}

static bool all_zero(const uint8_t *p, uint64_t n) {
    for (uint64_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

/* Could an entry (or the end) follow at q? The limit, zeros up to it, or an
 * entry header as Kafka writes them, whose length may pass the limit (a cut
 * tail). Header checks only, no CRC. */
static bool successor_at(const ss_walker *w, uint64_t q) {
    if (q >= w->limit) return q == w->limit;
    uint64_t n = w->limit - q, size;
    if (all_zero(w->base + q, n)) return true;
    return ss_entry_plausible(w->base + q, (size_t)(n < V2_OVERHEAD ? n : V2_OVERHEAD), UINT64_MAX, &size);
}

/* Candidates larger than this must also have a plausible successor before
 * their CRC is computed (see plausible_at). */
#define RESYNC_CHEAP_ENTRY ((uint64_t)1 << 20)

/* Is there a complete, CRC-valid entry at q? The cheap checks come first, so
 * that scanning damaged bytes does not checksum a large candidate at every
 * position: a header as Kafka writes them, and for a candidate over 1 MiB what
 * follows it too (successor_at). A valid batch between two damaged ranges is
 * found whatever follows it, unless it is that large. */
static bool plausible_at(const ss_walker *w, uint64_t q) {
    if (w->limit - q < HEADER_UP_TO_MAGIC) return false;
    const uint8_t *p = w->base + q;
    uint64_t size, n = w->limit - q;
    if (!ss_entry_plausible(p, (size_t)(n < V2_OVERHEAD ? n : V2_OVERHEAD), n, &size)) return false;
    if (size > RESYNC_CHEAP_ENTRY && !successor_at(w, q + size)) return false;
    if (p[ENTRY_MAGIC_OFF] == 2) return ss_crc32c(0, p + V2_ATTR_OFF, size - V2_ATTR_OFF) == ss_be32(p + V2_CRC_OFF);
    return ss_crc32(0, p + ENTRY_MAGIC_OFF, size - ENTRY_MAGIC_OFF) == ss_be32(p + LEGACY_CRC_OFF);
}

/* First plausible entry at or after `from`, or limit. */
static uint64_t resync(const ss_walker *w, uint64_t from) {
    if (w->limit < HEADER_UP_TO_MAGIC) return w->limit;
    for (uint64_t q = from; q + HEADER_UP_TO_MAGIC <= w->limit; q++) {
        uint8_t m = w->base[q + 16];
        if (m > 2) continue;
        if (plausible_at(w, q)) return q;
    }
    return w->limit;
}

static ss_event_kind end_event(ss_walker *w, ss_event *ev, uint64_t tail_from) {
    if (!w->done && w->seg->map && !w->shrink_reported) {
        /* Changed under us? A cut is damage and comes first; growth is a notice. */
        if (check_shrunk(w, true) && tail_from > w->limit) tail_from = w->limit;
        uint64_t now = size_now(w->seg);
        if (now != UINT64_MAX && now > ss_segment_size(w->seg)) w->grew_to = now;
    }
    if (w->shrunk_at != UINT64_MAX && !w->shrink_reported) {
        w->shrink_reported = true;
        w->pos = tail_from;
        ev->kind = SS_EV_DAMAGE;
        ss_error_set(&ev->err, SS_E_SHRUNK, w->shrunk_at, -1,
                     "the file was truncated to %" PRIu64 " bytes while it was read (it had %" PRIu64
                     " bytes when opened); %" PRIu64 " bytes from byte %" PRIu64 " on could not be read",
                     w->shrunk_at, ss_segment_size(w->seg), w->shrunk_lost, w->limit);
        ev->err.length = w->shrunk_lost;
        w->damaged_bytes += w->shrunk_lost;
        return SS_EV_DAMAGE;
    }
    w->done = true;
    w->tail_from = tail_from;
    ev->kind = SS_EV_END;
    ev->file_size = ss_segment_size(w->seg);
    ev->end_of_last_batch = w->end_of_last_batch;
    ev->tail_bytes = w->limit - tail_from;
    ev->tail_kind = ev->tail_bytes == 0                             ? SS_E_OK
                    : all_zero(w->base + tail_from, ev->tail_bytes) ? SS_E_ZERO_TAIL
                                                                    : SS_E_INCOMPLETE_TAIL;
    if (w->grew_to) {
        uint64_t size = ss_segment_size(w->seg);
        ss_error_set(&ev->err, SS_E_GREW, size, -1,
                     "the file grew from %" PRIu64 " to %" PRIu64 " bytes while it was read; only the %" PRIu64
                     " bytes it had when opened were read",
                     size, w->grew_to, size);
        ev->err.length = w->grew_to - size;
    }
    return SS_EV_END;
}

static ss_event_kind damage_event(ss_walker *w, ss_event *ev, uint64_t from, uint64_t to) {
    ev->kind = SS_EV_DAMAGE;
    ev->err.position = from;
    ev->err.length = to - from;
    w->damaged_bytes += to - from;
    w->pos = to;
    return SS_EV_DAMAGE;
}

static void maybe_release(ss_walker *w) {
    if (w->pos > w->released + RELEASE_STEP + RELEASE_KEEP) {
        w->released = w->pos - RELEASE_KEEP;
        ss_segment_release((ss_segment *)w->seg, w->released);
    }
}

ss_event_kind ss_walker_next(ss_walker *w, ss_event *ev) {
    ss_error_clear(&ev->err);
    if (w->done) return end_event(w, ev, w->tail_from);
    if (w->pending_damage) {
        /* The previous batch failed its CRC: trust its length, as Kafka's
         * reader does, when what follows could be an entry (valid or not, or
         * cut short) or the end (zeros up to it); otherwise the length itself
         * may be damaged: resync byte by byte. */
        w->pending_damage = false;
        ev->err = w->pending;
        uint64_t next = w->pending.position + w->pending.length;
        if (!successor_at(w, next)) next = resync(w, w->pending.position + 1);
        w->damaged_bytes += next - w->pending.position;
        ev->err.length = next - w->pending.position;
        w->pos = next;
        ev->kind = SS_EV_DAMAGE;
        return SS_EV_DAMAGE;
    }
    test_pause(w);
    maybe_release(w);
    (void)check_shrunk(w, false);
again:;
    uint64_t pos = w->pos;
    uint64_t avail = w->limit - pos;
    if (avail == 0 || avail < HEADER_UP_TO_MAGIC) return end_event(w, ev, pos);

    ss_errkind k = ss_batch_parse(w->base + pos, avail, pos, true, w->decoder, &ev->batch, &ev->err);
    /* Cut while it was parsed? Then what was read may be zeros: read it again
     * within the new limit. */
    if (check_shrunk(w, k != SS_E_OK || !ev->batch.crc_valid)) {
        ss_error_clear(&ev->err);
        goto again;
    }
    if (k == SS_E_OK) {
        if (!ev->batch.crc_valid) {
            w->pending_damage = true;
            ss_error_set(&w->pending, SS_E_CRC_MISMATCH, pos, ev->batch.base_offset,
                         "Record is corrupt (stored crc = %" PRIu32 ", computed crc = %" PRIu32 ")", ev->batch.crc,
                         ev->batch.crc_computed);
            w->pending.length = ev->batch.size;
            w->end_of_last_batch = pos + ev->batch.size;
        } else {
            w->pos = pos + ev->batch.size;
            w->end_of_last_batch = w->pos;
        }
        w->batches++;
        ev->kind = SS_EV_BATCH;
        return SS_EV_BATCH;
    }
    /* Zeros from here to the end: preallocated space, not damage. */
    if (all_zero(w->base + pos, avail)) return end_event(w, ev, pos);
    if (k == SS_E_INCOMPLETE_TAIL) {
        /* A length past the end is a cut tail, unless a valid entry follows
         * (then the length field itself was damaged). */
        uint64_t next = resync(w, pos + 1);
        if (next == w->limit) return end_event(w, ev, pos);
        ss_error_rekind(&ev->err, SS_E_BAD_LENGTH);
        return damage_event(w, ev, pos, next);
    }
    return damage_event(w, ev, pos, resync(w, pos + 1));
}

void ss_walker_set_decoder(ss_walker *w, ss_decoder *d) { w->decoder = d; }

/* ---- the copying path ------------------------------------------------------------ */

bool ss_window_batch(ss_window *win, const ss_segment *s, uint64_t limit, uint64_t pos, ss_decoder *dec, ss_batch *b) {
    if (pos >= limit || !ss_window_fill(win, s, limit, pos, HEADER_UP_TO_MAGIC)) return false;
    const uint8_t *p = win->buf + (pos - win->at);
    int32_t len = (int32_t)ss_be32(p + ENTRY_SIZE_OFF);
    uint64_t size = (uint64_t)len + LOG_OVERHEAD;
    if (len < MIN_ENTRY || size > limit - pos || size > SS_COPY_MAX_ENTRY || !ss_window_fill(win, s, limit, pos, size))
        return false;
    ss_error err;
    return ss_batch_parse(win->buf + (pos - win->at), size, pos, true, dec, b, &err) == SS_E_OK && b->crc_valid;
}

ss_event_kind ss_walker_next_copy(ss_walker *w, ss_window *win, ss_event *ev) {
    uint64_t pos = w->pos;
    if (w->done || w->pending_damage || w->seg->pause_after != UINT64_MAX ||
        !ss_window_batch(win, w->seg, w->limit, pos, w->decoder, &ev->batch))
        return ss_walker_next(w, ev);
    ss_error_clear(&ev->err);
    ev->kind = SS_EV_BATCH;
    w->pos = pos + ev->batch.size;
    w->end_of_last_batch = w->pos;
    w->batches++;
    return SS_EV_BATCH;
}
