/* segscan - the walker's copying window (internal): segment.c fills it, the
 * walker's copying path and the analysis's reader frame batches in it. */
#ifndef SS_FORMAT_WALKER_H
#define SS_FORMAT_WALKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/segment.h"

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

#endif
