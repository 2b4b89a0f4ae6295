/* segscan - the walker's state and its copying window (internal).
 *
 * The library's readers hold their walker in place (a struct of their own or
 * the stack) and set it up with ss_walker_init; callers of the public API get
 * one from ss_walker_new. The analysis's reader reads parts of a segment
 * through the window and hands a walker the rest (ss_walker_seek: units.c).
 * segment.c fills the window; the walker's copying path and the analysis's
 * reader frame batches in it. */
#ifndef SS_FORMAT_WALKER_H
#define SS_FORMAT_WALKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/segment.h"

struct ss_walker {
    const ss_segment *seg;
    const uint8_t *base;
    uint64_t pos, limit;
    uint64_t end_of_last_batch;
    uint64_t damaged_bytes; /* sum of damage lengths so far */
    uint64_t tail_from;     /* where the tail starts, once done */
    uint64_t released;      /* pages below this were dropped from memory */
    ss_decoder *decoder;    /* optional: lets legacy wrappers report their first inner offset */
    bool done;
    bool pending_damage; /* a CRC-failed batch was returned; its damage event comes next */
    ss_error pending;
    /* live files: a file cut or grown while it is read */
    uint64_t shrunk_at;   /* UINT64_MAX, or the size the file was cut to */
    uint64_t shrunk_lost; /* bytes of the walk's range that could no longer be read */
    bool shrink_reported;
    uint64_t grew_to; /* size found at the end when larger than at open, else 0 */
    uint64_t batches; /* batch events returned (test hook) */
    bool test_paused;
};

/* A walker in place over s (see ss_walker_new). */
void ss_walker_init(ss_walker *w, const ss_segment *s, uint64_t limit);

/* Go on from byte pos (an entry's start, below the limit), as if the entry
 * before it ended there: for a reader that framed the bytes before pos itself.
 * Between events only, never after SS_EV_END. */
static inline void ss_walker_seek(ss_walker *w, uint64_t pos) {
    w->pos = pos;
    w->end_of_last_batch = pos;
}
/* Where the next event starts reading. */
static inline uint64_t ss_walker_pos(const ss_walker *w) { return w->pos; }
/* The walk's limit: lower than at the start once the file was found cut. */
static inline uint64_t ss_walker_limit(const ss_walker *w) { return w->limit; }

/* Bytes [pos, pos + need) of segment s, below limit, in the window (pread, or
 * a copy from memory): a window's worth (SS_WINDOW_BYTES), or the entry if it is
 * larger, but no more than the segment holds from pos. False when fewer exist
 * (the limit, or a file cut while it is read). A window moves on to another
 * segment by itself. */
#define SS_WINDOW_BYTES ((size_t)512 << 10)
bool ss_window_fill(ss_window *win, const ss_segment *s, uint64_t limit, uint64_t pos, uint64_t need);
/* Entries larger than this are not copied into a window but read through the
 * mapping: a damaged length field must not make a window of up to 2 GiB (and
 * its pages resident) before the CRC tells it is wrong. */
#define SS_COPY_MAX_ENTRY ((uint64_t)16 << 20)
/* The entry at pos whole in the window (at most SS_COPY_MAX_ENTRY, below limit), parsed into b
 * (its data in the window), with a valid CRC: what the copying path takes as a batch
 * (ss_walker_next_copy), and the readers that frame their own units as it does (the analysis's,
 * the export's row makers). False for anything else: the walker's to tell (damage, resync, a
 * cut or grown file, the tail). */
bool ss_window_batch(ss_window *win, const ss_segment *s, uint64_t limit, uint64_t pos, ss_decoder *dec, ss_batch *b);

#endif
