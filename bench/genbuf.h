/* The byte buffer the benchmark's generators build segments in (gen-segment.c,
 * gen-groups.c): Kafka's big-endian integers and zig-zag varints (DefaultRecord's
 * varlong). A generator defines GEN_NAME, its name for messages, before this. */
#ifndef SEGSCAN_BENCH_GENBUF_H
#define SEGSCAN_BENCH_GENBUF_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *p;
    size_t n, cap;
} buf;

static inline void need(buf *b, size_t n) {
    if (b->n + n <= b->cap) return;
    size_t c = b->cap ? b->cap : 4096;
    while (c < b->n + n) c *= 2;
    b->p = realloc(b->p, c);
    if (!b->p) {
        fprintf(stderr, "%s: out of memory\n", GEN_NAME);
        exit(2);
    }
    b->cap = c;
}
static inline void put(buf *b, const void *p, size_t n) {
    need(b, n);
    memcpy(b->p + b->n, p, n);
    b->n += n;
}
static inline void put8(buf *b, uint8_t v) { put(b, &v, 1); }
static inline void put16(buf *b, uint16_t v) {
    uint8_t t[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    put(b, t, 2);
}
static inline void put32(buf *b, uint32_t v) {
    uint8_t t[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, t, 4);
}
static inline void put64(buf *b, uint64_t v) {
    put32(b, (uint32_t)(v >> 32));
    put32(b, (uint32_t)v);
}
static inline void putvarlong(buf *b, int64_t v) {
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    while (u >= 0x80) {
        put8(b, (uint8_t)(u | 0x80));
        u >>= 7;
    }
    put8(b, (uint8_t)u);
}
static inline void set32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
