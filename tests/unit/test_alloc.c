/* segscan unit tests - the base room's allocator for big arrays (ss_big_realloc, ss_big_calloc, ss_big_free
 * in src/lib/base/mem.c) and SS_VEC_PUSH (src/lib/base/grow.h) on it; SS_GROW's
 * overflow check; the hash map (src/lib/base/map.h).
 *
 * What it must keep, whatever path a block takes (malloc below 64 KiB, a small
 * mapping grown with mremap, the copy into a 2 MiB-aligned block at 256 KiB,
 * mremap to an aligned address beyond): every byte written before a growth
 * reads back after it, a shrink keeps the prefix, ss_big_calloc's memory is zero.
 * Outside the sanitizers (where every block comes from malloc) a block of
 * 256 KiB or more starts 16 bytes (the header) past a 2 MiB boundary, which is
 * what lets the kernel back it with huge pages, and stays so as it grows.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/units.h"
#include "base/map.h"
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
        uint8_t *q = ss_big_realloc(p, want);
        CHECK(q != NULL);
        if (!q) break;
        CHECK(holds(q, n, 7));
        if (want >= ((size_t)256 << 10) && !MALLOC_ONLY) CHECK(aligned_block(q));
        fill(q, n, want, 7);
        p = q;
        n = want;
    }
    uint8_t *q = ss_big_realloc(p, 1000); /* a shrink keeps the prefix */
    CHECK(q != NULL);
    if (q) {
        CHECK(holds(q, 1000, 7));
        p = q;
    }
    ss_big_free(p);
}

/* A block first asked for above 256 KiB, then grown past several huge pages. */
static void test_calloc_zero_and_huge(void) {
    size_t n = (size_t)3 << 20;
    uint64_t *t = ss_big_calloc(n / 8, 8);
    CHECK(t != NULL);
    if (!t) return;
    bool zero = true;
    for (size_t i = 0; i < n / 8; i++) zero &= t[i] == 0;
    CHECK(zero);
    if (!MALLOC_ONLY) CHECK(aligned_block(t));
    fill((uint8_t *)t, 0, n, 3);
    uint8_t *g = ss_big_realloc(t, (size_t)11 << 20);
    CHECK(g != NULL);
    if (!g) {
        ss_big_free(t);
        return;
    }
    CHECK(holds(g, n, 3));
    if (!MALLOC_ONLY) CHECK(aligned_block(g));
    ss_big_free(g);
    void *small = ss_big_calloc(10, 10);
    CHECK(small != NULL);
    if (small) CHECK(((uint8_t *)small)[99] == 0);
    ss_big_free(small);
    ss_big_free(NULL);
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
    ss_big_free(v.v);
}

/* A size that would overflow is refused before anything is allocated; the array is as it was. */
static void test_grow_overflow(void) {
    uint64_t *v = NULL;
    size_t cap = SIZE_MAX / 8 / 2 + 1; /* doubled: more items than size_t can count the bytes of */
    CHECK(!SS_GROW(v, cap, cap, 8));
    CHECK(v == NULL);
    CHECK_EQ_U(cap, SIZE_MAX / 8 / 2 + 1);
    cap = SIZE_MAX / 2 + 1; /* doubled: wraps to 0 */
    CHECK(!SS_GROW(v, cap, cap, 8));
    CHECK(v == NULL);
    size_t n = 0;
    cap = 0;
    CHECK(SS_GROW(v, n, cap, 8)); /* the first room: `first` items */
    CHECK_EQ_U(cap, 8);
    free(v);
}

static bool str_eq(const void *held, const void *key) {
    return !strcmp(*(const char *const *)held, *(const char *const *)key);
}

static void test_map(void) {
    /* 100,000 keys, each with a value: every one found, no other key found */
    ss_map m;
    ss_map_init(&m, sizeof(int64_t), sizeof(uint64_t), 64, 75);
    bool ok = true;
    for (int64_t k = 0; k < 100000; k++) {
        bool created;
        uint64_t *v = ss_map_put(&m, &k, (uint64_t)k * 0x9E3779B97F4A7C15ULL, &created);
        ok &= v && created && *v == 0; /* a new value is zeroed */
        if (v) *v = (uint64_t)k * 3;
    }
    CHECK(ok);
    CHECK_EQ_U(m.n, 100000);
    /* 64 doubled until 100,000 keys are at most 75%: 2^17 slots would be 76%, so 2^18 */
    CHECK_EQ_U(m.cap, 262144);
    for (int64_t k = 0; k < 100000; k++) {
        bool created;
        const uint64_t *v = ss_map_find(&m, &k, (uint64_t)k * 0x9E3779B97F4A7C15ULL);
        ok &= v && *v == (uint64_t)k * 3;
        ok &= ss_map_put(&m, &k, (uint64_t)k * 0x9E3779B97F4A7C15ULL, &created) == v && !created;
    }
    CHECK(ok);
    for (int64_t k = 100000; k < 110000; k++) ok &= !ss_map_find(&m, &k, (uint64_t)k * 0x9E3779B97F4A7C15ULL);
    CHECK(ok);
    /* a copy holds the same keys in the same slots */
    ss_map c;
    CHECK(ss_map_copy(&c, &m));
    CHECK(c.cap == m.cap && !memcmp(c.s, m.s, m.cap * m.size));
    ss_map_free(&c);
    /* cleared but kept (cap <= keep): empty, the table still there */
    ss_map_clear(&m, m.cap);
    int64_t k0 = 5;
    CHECK(m.n == 0 && m.cap == 262144 && !ss_map_find(&m, &k0, 5));
    ss_map_clear(&m, 0);
    CHECK(m.cap == 0 && m.s == NULL);

    /* where keys go: the home is hash & (cap - 1), then the next slot; every key of one
     * hash is told apart by its bytes */
    ss_map_init(&m, sizeof(int64_t), sizeof(int32_t), 64, 50);
    int64_t a = 1, b = 2, z = 3;
    *(int32_t *)ss_map_put(&m, &a, 5, NULL) = 10;
    *(int32_t *)ss_map_put(&m, &b, 5 + 64, NULL) = 20; /* the same home, 5: slot 6 */
    *(int32_t *)ss_map_put(&m, &z, 63, NULL) = 30;     /* slot 63 */
    const void *key;
    const int32_t *v5 = ss_map_slot(&m, 5, &key);
    CHECK(v5 && *v5 == 10 && *(const int64_t *)key == 1);
    const int32_t *v6 = ss_map_slot(&m, 6, &key);
    CHECK(v6 && *v6 == 20 && *(const int64_t *)key == 2);
    CHECK(ss_map_slot(&m, 7, NULL) == NULL);
    CHECK(ss_map_index(&m, v6) == 6);
    /* the same hash, another key: absent; then a third key of hash 5 goes past 6 and 7 is free */
    int64_t d = 4;
    CHECK(ss_map_find(&m, &d, 5) == NULL);
    CHECK(ss_map_index(&m, ss_map_put(&m, &d, 5, NULL)) == 7);
    /* 50%: 32 keys fit 64 slots, the 33rd doubles the table and keys move to hash & 127 */
    for (int64_t k = 100; m.n < 32; k++) ss_map_put(&m, &k, (uint64_t)k, NULL);
    CHECK_EQ_U(m.cap, 64);
    int64_t k33 = 1000;
    ss_map_put(&m, &k33, 1000, NULL);
    CHECK_EQ_U(m.cap, 128);
    const int32_t *w = ss_map_find(&m, &z, 63);
    CHECK(w && *w == 30 && ss_map_index(&m, w) == 63);
    w = ss_map_find(&m, &b, 5 + 64);
    CHECK(w && *w == 20 && ss_map_index(&m, w) == 69); /* 69 & 127 */
    ss_map_free(&m);

    /* keys that point at strings: compared with eq */
    ss_map_init(&m, sizeof(const char *), sizeof(int), 64, 75);
    m.eq = str_eq;
    char s1[] = "orders", s2[] = "orders";
    const char *p1 = s1, *p2 = s2;
    *(int *)ss_map_put(&m, &p1, 42, NULL) = 7;
    const int *x = ss_map_find(&m, &p2, 42);
    CHECK(x && *x == 7);
    ss_map_free(&m);
}

int main(void) {
    test_grow_keeps_bytes();
    test_calloc_zero_and_huge();
    test_vec_push();
    test_grow_overflow();
    test_map();
    return check_exit("alloc");
}
