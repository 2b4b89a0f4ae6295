/* segscan - bounds-checked big-endian / varint cursor with a sticky error (internal).
 *
 * A cursor covers [p, end). Every read checks what is left; a failed read sets
 * `bad` and returns 0, and every later read fails too, so a parser can read a
 * whole structure and check once. Narrowing (ss_rd_sub) gives a cursor over
 * exactly the next n bytes, so a record cannot read into the next record. */
#ifndef SS_READER_H
#define SS_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


typedef struct ss_rd {
    const uint8_t *p, *end;
    bool bad;
} ss_rd;

static inline ss_rd ss_rd_make(const uint8_t *p, size_t n) {
    ss_rd r = {p, p + n, false};
    return r;
}
static inline size_t ss_rd_left(const ss_rd *r) { return r->bad ? 0 : (size_t)(r->end - r->p); }

static inline uint16_t ss_be16(const uint8_t *p) { return (uint16_t)((unsigned)p[0] << 8 | p[1]); }
static inline uint32_t ss_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t ss_be64(const uint8_t *p) { return (uint64_t)ss_be32(p) << 32 | ss_be32(p + 4); }

static inline bool ss_rd_need(ss_rd *r, size_t n) {
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return false;
    }
    return true;
}
static inline uint8_t ss_rd_u8(ss_rd *r) {
    if (!ss_rd_need(r, 1)) return 0;
    return *r->p++;
}
static inline uint16_t ss_rd_u16(ss_rd *r) {
    if (!ss_rd_need(r, 2)) return 0;
    uint16_t v = ss_be16(r->p);
    r->p += 2;
    return v;
}
static inline uint32_t ss_rd_u32(ss_rd *r) {
    if (!ss_rd_need(r, 4)) return 0;
    uint32_t v = ss_be32(r->p);
    r->p += 4;
    return v;
}
static inline uint64_t ss_rd_u64(ss_rd *r) {
    if (!ss_rd_need(r, 8)) return 0;
    uint64_t v = ss_be64(r->p);
    r->p += 8;
    return v;
}
static inline int16_t ss_rd_i16(ss_rd *r) { return (int16_t)ss_rd_u16(r); }
static inline int32_t ss_rd_i32(ss_rd *r) { return (int32_t)ss_rd_u32(r); }
static inline int64_t ss_rd_i64(ss_rd *r) { return (int64_t)ss_rd_u64(r); }

/* Skip n bytes, returning a pointer to them (NULL and bad on overrun). */
static inline const uint8_t *ss_rd_bytes(ss_rd *r, size_t n) {
    if (!ss_rd_need(r, n)) return NULL;
    const uint8_t *q = r->p;
    r->p += n;
    return q;
}

/* A cursor over the next n bytes; the parent skips them. */
static inline ss_rd ss_rd_sub(ss_rd *r, size_t n) {
    ss_rd s = {NULL, NULL, true};
    const uint8_t *q = ss_rd_bytes(r, n);
    if (q) {
        s.p = q;
        s.end = q + n;
        s.bad = false;
    }
    return s;
}

/* Unsigned LEB128 of at most maxbytes bytes (5 for int32, 10 for int64), as
 * Kafka's ByteUtils.readUnsignedVarint / readVarlong: a longer one is an error. */
static inline uint64_t ss_rd_uvarint(ss_rd *r, int maxbytes) {
    /* fast paths (the same results): one byte, wherever it is (a record's last
     * field, its header count, is within ten bytes of its end); or ten bytes or
     * more left, no check per byte */
    const uint8_t *p = r->p;
    if (!r->bad && p < r->end) {
        if (p[0] < 0x80) {
            r->p = p + 1;
            return p[0];
        }
        if (r->end - p >= 10) {
            uint64_t f = p[0] & 0x7f;
            for (int i = 1; i < maxbytes; i++) {
                uint8_t b = p[i];
                f |= (uint64_t)(b & 0x7f) << (7 * i);
                if (!(b & 0x80)) {
                    r->p = p + i + 1;
                    return f;
                }
            }
            r->bad = true;
            return 0;
        }
    }
    uint64_t v = 0;
    for (int i = 0; i < maxbytes; i++) {
        if (!ss_rd_need(r, 1)) return 0;
        uint8_t b = *r->p++;
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) return v;
    }
    r->bad = true;
    return 0;
}
/* Zig-zag signed varints. */
static inline int32_t ss_rd_varint(ss_rd *r) {
    uint32_t u = (uint32_t)ss_rd_uvarint(r, 5);
    return (int32_t)((u >> 1) ^ (~(u & 1) + 1));
}
static inline int64_t ss_rd_varlong(ss_rd *r) {
    uint64_t u = ss_rd_uvarint(r, 10);
    return (int64_t)((u >> 1) ^ (~(u & 1) + 1));
}

#endif
