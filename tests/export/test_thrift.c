/* The Thrift compact protocol writer of the parquet room, byte for byte against encodings
 * derived by hand from Thrift's doc/specs/thrift-compact-protocol.md ("Struct encoding": the
 * short form delta<<4|type for a field id 1..15 above the last, else the long form, type then
 * zigzag varint id; "Boolean encoding": the value in the type nibble; "List and Set": size<<4|type
 * below 15, else 0xF|type and a varint size; integers zigzag varints; a struct ends with 0). */
#include <stdio.h>
#include <string.h>

#include "parquet/thrift.h"

static int failures;

static void expect(const char *what, const ss_pqbuf *b, const uint8_t *want, size_t n) {
    if (b->failed || b->n != n || memcmp(b->p, want, n)) {
        failures++;
        printf("FAIL %s:", what);
        for (size_t i = 0; i < b->n; i++) printf(" %02x", b->p[i]);
        printf("\n");
    } else {
        printf("ok %s\n", what);
    }
}

int main(void) {
    ss_pqbuf b = {0};
    ss_tw t;

    /* field 1 i32 5: short form 0x15, zigzag(5) = 10; field 20 i64 -1: delta 19 > 15, long
     * form 0x06, zigzag(20) = 40, zigzag(-1) = 1; field 21 bool true: 0x11; stop */
    ss_tw_init(&t, &b);
    ss_tw_i32(&t, 1, 5);
    ss_tw_i64(&t, 20, -1);
    ss_tw_bool(&t, 21, true);
    ss_tw_end(&t);
    expect("short and long field headers, bool in the type", &b,
           (const uint8_t[]){0x15, 0x0a, 0x06, 0x28, 0x01, 0x11, 0x00}, 7);

    /* ids going down (5 then 3) take the long form: 0x55 0x00 (i32 0), then 0x02 (false) 0x06 */
    b.n = 0;
    ss_tw_init(&t, &b);
    ss_tw_i32(&t, 5, 0);
    ss_tw_bool(&t, 3, false);
    expect("a smaller id in the long form", &b, (const uint8_t[]){0x55, 0x00, 0x02, 0x06}, 4);

    /* a nested struct starts from id 0 again and the outer one goes on from its id: field 2
     * struct (0x2c) { field 1 i32 -2 (0x15 0x03) } stop, field 3 binary "ab" (0x18 0x02 'a' 'b') */
    b.n = 0;
    ss_tw_init(&t, &b);
    ss_tw_begin(&t, 2);
    ss_tw_i32(&t, 1, -2);
    ss_tw_end(&t);
    ss_tw_binary(&t, 3, "ab", 2);
    expect("nested struct ids", &b, (const uint8_t[]){0x2c, 0x15, 0x03, 0x00, 0x18, 0x02, 'a', 'b'}, 8);

    /* lists: 2 i32 (0x19 0x25, then zigzag 1 = 2), 20 structs (0x19 0xfc 0x14); 300 as a two-byte varint
     * (zigzag 600 = 0xd8 0x04) */
    b.n = 0;
    ss_tw_init(&t, &b);
    ss_tw_list(&t, 1, SS_TC_I32, 2);
    ss_tw_elem_i32(&t, 1);
    ss_tw_elem_i32(&t, 300);
    expect("short list header, varint elements", &b, (const uint8_t[]){0x19, 0x25, 0x02, 0xd8, 0x04}, 5);
    b.n = 0;
    ss_tw_init(&t, &b);
    ss_tw_list(&t, 1, SS_TC_STRUCT, 20);
    expect("long list header", &b, (const uint8_t[]){0x19, 0xfc, 0x14}, 3);

    /* a large i64: 2^40 zigzag = 2^41, ULEB128 = 80 80 80 80 80 40 */
    b.n = 0;
    ss_tw_init(&t, &b);
    ss_tw_i64(&t, 1, (int64_t)1 << 40);
    expect("i64 varint", &b, (const uint8_t[]){0x16, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}, 7);

    ss_pqbuf_free(&b);
    return failures ? 1 : 0;
}
