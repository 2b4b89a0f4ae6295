/* segscan - the Thrift compact protocol, write side (internal): what the
 * Parquet footer and page headers are made of.
 *
 * Parquet's metadata is Thrift structs (parquet-format, src/main/thrift/
 * parquet.thrift) serialised with TCompactProtocol (the "File format" and
 * "Metadata" sections of parquet-format's README). The encoding, from Thrift's
 * doc/specs/thrift-compact-protocol.md:
 *  - a field header is one byte (delta << 4 | type) when the field id is 1 to
 *    15 above the previous field's id in the same struct, else the type byte
 *    then the id as a zigzag varint (the "long form"); each nested struct
 *    starts again from id 0;
 *  - a bool field has no value byte: its type nibble says it (1 true, 2 false);
 *  - i16/i32/i64 are zigzag ULEB128 varints; binary is a varint length and the
 *    bytes; a list is (size << 4 | element type) when size < 15, else
 *    (0xF0 | element type) then the size as a varint;
 *  - a struct ends with a stop byte (0).
 */
#ifndef SS_PARQUET_THRIFT_H
#define SS_PARQUET_THRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* compact protocol type ids */
enum {
    SS_TC_STOP = 0,
    SS_TC_TRUE = 1,
    SS_TC_FALSE = 2,
    SS_TC_BYTE = 3,
    SS_TC_I16 = 4,
    SS_TC_I32 = 5,
    SS_TC_I64 = 6,
    SS_TC_DOUBLE = 7,
    SS_TC_BINARY = 8,
    SS_TC_LIST = 9,
    SS_TC_SET = 10,
    SS_TC_MAP = 11,
    SS_TC_STRUCT = 12,
};

/* A growable byte buffer; failed is set (and nothing more is added) when memory ran out. */
typedef struct ss_pqbuf {
    uint8_t *p;
    size_t n, cap;
    bool failed;
} ss_pqbuf;

bool ss_pqbuf_reserve(ss_pqbuf *b, size_t more);
void ss_pqbuf_put(ss_pqbuf *b, const void *p, size_t n);
static inline void ss_pqbuf_byte(ss_pqbuf *b, uint8_t c) {
    if (b->n < b->cap || ss_pqbuf_reserve(b, 1)) b->p[b->n++] = c;
}
void ss_pqbuf_free(ss_pqbuf *b);
void ss_pqbuf_uvarint(ss_pqbuf *b, uint64_t v); /* ULEB128 */
void ss_pqbuf_zigzag(ss_pqbuf *b, int64_t v);   /* zigzag, then ULEB128 */

#define SS_TW_DEPTH 8

/* A struct being written: the last field id of each open struct. */
typedef struct ss_tw {
    ss_pqbuf *b;
    int16_t last[SS_TW_DEPTH];
    int depth;
} ss_tw;

void ss_tw_init(ss_tw *t, ss_pqbuf *b);
void ss_tw_field(ss_tw *t, int16_t id, uint8_t type);
void ss_tw_i32(ss_tw *t, int16_t id, int32_t v);
void ss_tw_i64(ss_tw *t, int16_t id, int64_t v);
void ss_tw_bool(ss_tw *t, int16_t id, bool v);
void ss_tw_binary(ss_tw *t, int16_t id, const void *p, size_t n);
void ss_tw_string(ss_tw *t, int16_t id, const char *s);
/* A struct field (id > 0) or a struct element of a list (id 0): its fields follow, then ss_tw_end. */
void ss_tw_begin(ss_tw *t, int16_t id);
void ss_tw_end(ss_tw *t);
/* A list field's header; its n elements follow (ss_tw_begin(t, 0) for structs, ss_tw_elem_* else). */
void ss_tw_list(ss_tw *t, int16_t id, uint8_t elem_type, size_t n);
void ss_tw_elem_i32(ss_tw *t, int32_t v);
void ss_tw_elem_string(ss_tw *t, const char *s);

#endif
