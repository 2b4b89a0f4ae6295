/* segscan unit tests - the analysis's allocator (an_realloc, an_calloc, an_free
 * in src/lib/base/mem.c) and SS_VEC_PUSH (src/lib/base/grow.h) on it.
 *
 * What it must keep, whatever path a block takes (malloc below 64 KiB, a small
 * mapping grown with mremap, the copy into a 2 MiB-aligned block at 256 KiB,
 * mremap to an aligned address beyond): every byte written before a growth
 * reads back after it, a shrink keeps the prefix, an_calloc's memory is zero.
 * Outside the sanitizers (where every block comes from malloc) a block of
 * 256 KiB or more starts 16 bytes (the header) past a 2 MiB boundary, which is
 * what lets the kernel back it with huge pages, and stays so as it grows.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/units.h"
#include "check.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MALLOC_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MALLOC_ONLY 1
#endif
#endif
#ifndef MALLOC_ONLY
#define MALLOC_ONLY 0
#endif

#define HUGE ((uintptr_t)2 << 20)

static uint8_t pattern(size_t i, uint64_t seed) { return (uint8_t)((i * 2654435761u) >> 13 ^ seed); }

static bool holds(const uint8_t *p, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != pattern(i, seed)) return false;
    return true;
}

static void fill(uint8_t *p, size_t from, size_t to, uint64_t seed) {
    for (size_t i = from; i < to; i++) p[i] = pattern(i, seed);
}

static bool aligned_block(const void *p) { return ((uintptr_t)p - 16) % HUGE == 0; }

/* Growth through every size class, by factors of 1.5 (not only doubling), and
 * back down. */
static void test_grow_keeps_bytes(void) {
    uint8_t *p = NULL;
    size_t n = 0;
    for (size_t want = 100; want <= ((size_t)48 << 20); want = want + want / 2 + 7) {
        uint8_t *q = an_realloc(p, want);
        CHECK(q != NULL);
        if (!q) break;
        CHECK(holds(q, n, 7));
        if (want >= ((size_t)256 << 10) && !MALLOC_ONLY) CHECK(aligned_block(q));
        fill(q, n, want, 7);
        p = q;
        n = want;
    }
    uint8_t *q = an_realloc(p, 1000); /* a shrink keeps the prefix */
    CHECK(q != NULL);
    if (q) {
        CHECK(holds(q, 1000, 7));
        p = q;
    }
    an_free(p);
}

/* A block first asked for above 256 KiB, then grown past several huge pages. */
static void test_calloc_zero_and_huge(void) {
    size_t n = (size_t)3 << 20;
    uint64_t *t = an_calloc(n / 8, 8);
    CHECK(t != NULL);
    if (!t) return;
    bool zero = true;
    for (size_t i = 0; i < n / 8; i++) zero &= t[i] == 0;
    CHECK(zero);
    if (!MALLOC_ONLY) CHECK(aligned_block(t));
    fill((uint8_t *)t, 0, n, 3);
    uint8_t *g = an_realloc(t, (size_t)11 << 20);
    CHECK(g != NULL);
    if (!g) {
        an_free(t);
        return;
    }
    CHECK(holds(g, n, 3));
    if (!MALLOC_ONLY) CHECK(aligned_block(g));
    an_free(g);
    void *small = an_calloc(10, 10);
    CHECK(small != NULL);
    if (small) CHECK(((uint8_t *)small)[99] == 0);
    an_free(small);
    an_free(NULL);
}

/* SS_VEC_PUSH of 3 million 24-byte items: every item where it was put. */
typedef struct item {
    uint64_t a, b;
    uint32_t c, d;
} item;

static void test_vec_push(void) {
    SS_VEC(item) v = {0};
    bool failed = false;
    for (uint32_t i = 0; i < 3000000; i++) {
        item it = {i, (uint64_t)i * i, i ^ 0x5a5a5a5au, ~i};
        SS_VEC_PUSH(v, it, failed = true);
    }
    CHECK(!failed);
    CHECK_EQ_U(v.n, 3000000);
    bool ok = true;
    for (uint32_t i = 0; i < v.n; i++)
        ok &= v.v[i].a == i && v.v[i].b == (uint64_t)i * i && v.v[i].c == (i ^ 0x5a5a5a5au) && v.v[i].d == ~i;
    CHECK(ok);
    an_free(v.v);
}

int main(void) {
    test_grow_keeps_bytes();
    test_calloc_zero_and_huge();
    test_vec_push();
    return check_exit("alloc");
}
