/* segscan - the library's allocator for arrays that grow (SS_GROW_BIG in base/grow.h, the
 * analysis's and diff's tables, read windows): a block of 64 KiB or more is a
 * mapping of its own, grown with mremap (no copy); from 256 KiB on it is
 * 2 MiB-aligned on transparent huge pages (a 4 KiB page fault costs far more
 * per byte than a 2 MiB one, on virtual machines most of all: see mem.c).
 * Free such blocks with ss_big_free, never free(). */
#ifndef SEGSCAN_MEM_H
#define SEGSCAN_MEM_H

#include <stddef.h>

void *ss_big_realloc(void *p, size_t n);
void *ss_big_calloc(size_t n, size_t size);
void ss_big_free(void *p);

#endif
