/* segscan - memory for arrays that grow: see mem.h. */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/grow.h"
#include "base/mem.h"
#include "segscan/base.h"

/* Blocks of 64 KiB and more are mapped on their own; from 256 KiB on they are
 * 2 MiB-aligned mappings that ask for transparent huge pages. Smaller blocks
 * come from malloc. A 16-byte header says which.
 *
 * Why: the first touch of a 4 KiB page is a fault, and on a virtual machine
 * with shadow or nested paging each one costs 7-15 us (measured on the
 * benchmark's PVM guest: 16 MiB touched page by page in 62 ms, on huge pages in
 * 1.2 ms; MADV_POPULATE_WRITE beforehand does not help, the cost is in the
 * first user access). A vector that doubles from 256 KiB to 8 MiB touches 2,000
 * pages; on huge pages, four faults. A huge block grows with mremap(2) to a
 * 2 MiB-aligned address (page tables move, huge pages stay whole, nothing is
 * copied); a small one that becomes huge is copied once (at most 256 KiB). */

typedef struct an_hdr {
    size_t size;   /* bytes asked for */
    size_t mapped; /* bytes mapped, header included; 0: from malloc */
} an_hdr;

#if defined(__SANITIZE_THREAD__)
#define SS_NO_MREMAP 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SS_NO_MREMAP 1
#endif
#endif
#ifndef SS_NO_MREMAP
#define SS_NO_MREMAP 0
#endif

/* Under AddressSanitizer every block comes from malloc: ASan does not watch mappings
 * of our own (no bounds, use-after-free or leak checks there), and the fuzz targets
 * and the sanitized test run are there to have every array checked. */
#if defined(__SANITIZE_ADDRESS__)
#define SS_MALLOC_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SS_MALLOC_ONLY 1
#endif
#endif
#ifndef SS_MALLOC_ONLY
#define SS_MALLOC_ONLY 0
#endif

#define MAP_MIN ((size_t)64 << 10)
#define HUGE_MIN ((size_t)256 << 10)
#define HUGE_PAGE ((size_t)2 << 20)

static size_t map_size(size_t n) {
    size_t unit = n >= HUGE_MIN ? HUGE_PAGE : 4096;
    return (n + sizeof(an_hdr) + unit - 1) / unit * unit;
}

/* The whole mapping, never a part: a part would split it, and mremap needs one piece. */
static void advise_huge(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
    if (n >= HUGE_MIN) (void)madvise(p, n, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

/* A 2 MiB-aligned range of m bytes (m a multiple of 2 MiB), mapped, not yet touched. */
static void *map_aligned(size_t m) {
    size_t extra = HUGE_PAGE;
    void *q = mmap(NULL, m + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED) return NULL;
    uintptr_t a = ((uintptr_t)q + extra - 1) & ~(uintptr_t)(extra - 1);
    if (a > (uintptr_t)q) munmap(q, a - (uintptr_t)q);
    uintptr_t end = (uintptr_t)q + m + extra;
    if (end > a + m) munmap((void *)(a + m), end - (a + m));
    return (void *)a;
}

/* A new mapping for n bytes and the header; from HUGE_MIN on 2 MiB-aligned, so
 * that all of it can sit on huge pages. */
static an_hdr *map_block(size_t n) {
    size_t m = map_size(n);
    void *q;
    if (m >= HUGE_MIN) {
        q = map_aligned(m);
        if (!q) return NULL;
        advise_huge(q, m);
    } else {
        q = mmap(NULL, m, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (q == MAP_FAILED) return NULL;
    }
    an_hdr *h = (an_hdr *)q;
    h->mapped = m;
    return h;
}

/* Mapped block h moved by copying into a new block for n bytes. */
static void *map_copy(an_hdr *h, size_t n) {
    an_hdr *nh = map_block(n);
    if (!nh) return NULL;
    memcpy(nh + 1, h + 1, h->size);
    munmap(h, h->mapped);
    nh->size = n;
    return nh + 1;
}

void *ss_big_realloc(void *p, size_t n) {
    an_hdr *h = p ? (an_hdr *)p - 1 : NULL;
    if (h && h->mapped) {
        if (n + sizeof *h <= h->mapped) {
            h->size = n;
            return p;
        }
#if SS_NO_MREMAP
        /* ThreadSanitizer does not follow memory that mremap moves (the old
         * range's history would stay with its next user): copy instead */
        return map_copy(h, n);
#else
        size_t m = map_size(n);
        void *q;
        if (m < HUGE_MIN) {
            q = mremap(h, h->mapped, m, MREMAP_MAYMOVE);
        } else if (h->mapped < HUGE_MIN) {
            return map_copy(h, n); /* becoming huge: a copy (below HUGE_MIN bytes) into an aligned block */
        } else {
            /* to an aligned address, or its huge pages would be split on the move */
            void *dst = map_aligned(m);
            if (!dst) return NULL;
            q = mremap(h, h->mapped, m, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
            if (q == MAP_FAILED) munmap(dst, m);
        }
        if (q == MAP_FAILED) return NULL;
        advise_huge(q, m);
        h = q;
        h->mapped = m;
        h->size = n;
        return h + 1;
#endif
    }
    if (n < MAP_MIN || SS_MALLOC_ONLY) {
        an_hdr *nh = realloc(h, n + sizeof *nh);
        if (!nh) return NULL;
        nh->size = n;
        nh->mapped = 0;
        return nh + 1;
    }
    an_hdr *nh = map_block(n);
    if (!nh) return NULL;
    if (h) {
        memcpy(nh + 1, h + 1, h->size < n ? h->size : n);
        free(h);
    }
    nh->size = n;
    return nh + 1;
}

void *ss_big_calloc(size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    if (bytes >= MAP_MIN && !SS_MALLOC_ONLY) {
        an_hdr *h = map_block(bytes); /* zero-filled by the kernel, page by page when touched */
        if (!h) return NULL;
        h->size = bytes;
        return h + 1;
    }
    an_hdr *h = calloc(1, bytes + sizeof *h);
    if (!h) return NULL;
    h->size = bytes;
    return h + 1;
}

void ss_big_free(void *p) {
    if (!p) return;
    an_hdr *h = (an_hdr *)p - 1;
    if (h->mapped) munmap(h, h->mapped);
    else free(h);
}

/* The public form of SS_GROW (segscan/base.h), for the CLI's arrays. */
bool ss_array_grow(void *vp, size_t *cap, size_t size, size_t first) { return ss_grow_(vp, cap, size, first, realloc); }
