/* segscan - a segment file as the format room sees it (internal): the
 * mapping, the opened file and the test hook, for the walker (walker.c). */
#ifndef SS_FORMAT_SEGMENT_H
#define SS_FORMAT_SEGMENT_H

#include <stdint.h>

#include "segscan/segment.h"

struct ss_segment {
    const uint8_t *data;
    uint64_t size;
    void *map;            /* mmap base, or NULL */
    uint8_t *owned;       /* private copy, or NULL */
    int fd;               /* the opened file (read-only), or -1 */
    int guard;            /* SIGBUS guard slot of the mapping, or -1 */
    uint64_t pause_after; /* test hook: UINT64_MAX when off */
    char *pause_fifo;
    uint64_t id; /* unique in the process (from 1): which segment a window holds */
};

#endif
