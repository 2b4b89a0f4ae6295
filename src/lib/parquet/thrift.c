/* segscan - the Thrift compact protocol, write side (see thrift.h). */
#include "parquet/thrift.h"

#include <stdlib.h>
#include <string.h>

bool ss_pqbuf_reserve(ss_pqbuf *b, size_t more) {
    if (b->failed) return false;
    if (b->cap - b->n >= more) return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->n < more) {
        if (cap > SIZE_MAX / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

void ss_pqbuf_put(ss_pqbuf *b, const void *p, size_t n) {
    if (!n || !ss_pqbuf_reserve(b, n)) return;
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

void ss_pqbuf_free(ss_pqbuf *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}

void ss_pqbuf_uvarint(ss_pqbuf *b, uint64_t v) {
    uint8_t tmp[10];
    size_t n = 0;
    while (v >= 0x80) {
        tmp[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    tmp[n++] = (uint8_t)v;
    ss_pqbuf_put(b, tmp, n);
}

void ss_pqbuf_zigzag(ss_pqbuf *b, int64_t v) { ss_pqbuf_uvarint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }

void ss_tw_init(ss_tw *t, ss_pqbuf *b) {
    memset(t, 0, sizeof *t);
    t->b = b;
}

void ss_tw_field(ss_tw *t, int16_t id, uint8_t type) {
    int delta = id - t->last[t->depth];
    if (delta > 0 && delta <= 15) {
        ss_pqbuf_byte(t->b, (uint8_t)(delta << 4 | type));
    } else { /* the long form: the type alone, then the id */
        ss_pqbuf_byte(t->b, type);
        ss_pqbuf_zigzag(t->b, id);
    }
    t->last[t->depth] = id;
}

void ss_tw_i32(ss_tw *t, int16_t id, int32_t v) {
    ss_tw_field(t, id, SS_TC_I32);
    ss_pqbuf_zigzag(t->b, v);
}

void ss_tw_i64(ss_tw *t, int16_t id, int64_t v) {
    ss_tw_field(t, id, SS_TC_I64);
    ss_pqbuf_zigzag(t->b, v);
}

void ss_tw_bool(ss_tw *t, int16_t id, bool v) { ss_tw_field(t, id, v ? SS_TC_TRUE : SS_TC_FALSE); }

void ss_tw_binary(ss_tw *t, int16_t id, const void *p, size_t n) {
    ss_tw_field(t, id, SS_TC_BINARY);
    ss_pqbuf_uvarint(t->b, n);
    ss_pqbuf_put(t->b, p, n);
}

void ss_tw_string(ss_tw *t, int16_t id, const char *s) { ss_tw_binary(t, id, s, strlen(s)); }

void ss_tw_begin(ss_tw *t, int16_t id) {
    if (id > 0) ss_tw_field(t, id, SS_TC_STRUCT);
    if (t->depth + 1 >= SS_TW_DEPTH) { /* deeper than any Parquet struct: a caller's bug */
        t->b->failed = true;
        return;
    }
    t->last[++t->depth] = 0;
}

void ss_tw_end(ss_tw *t) {
    ss_pqbuf_byte(t->b, SS_TC_STOP);
    if (t->depth > 0) t->depth--;
}

void ss_tw_list(ss_tw *t, int16_t id, uint8_t elem_type, size_t n) {
    ss_tw_field(t, id, SS_TC_LIST);
    if (n < 15) {
        ss_pqbuf_byte(t->b, (uint8_t)(n << 4 | elem_type));
    } else {
        ss_pqbuf_byte(t->b, (uint8_t)(0xF0 | elem_type));
        ss_pqbuf_uvarint(t->b, n);
    }
}

void ss_tw_elem_i32(ss_tw *t, int32_t v) { ss_pqbuf_zigzag(t->b, v); }

void ss_tw_elem_string(ss_tw *t, const char *s) {
    size_t n = strlen(s);
    ss_pqbuf_uvarint(t->b, n);
    ss_pqbuf_put(t->b, s, n);
}
