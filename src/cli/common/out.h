/* segscan CLI - buffered output and the byte renderings shared by every formatter. */
#ifndef SS_OUT_H
#define SS_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ss_out {
    FILE *f;
    char *buf;
    size_t len, cap;
    bool failed; /* a write failed (e.g. EPIPE) */
} ss_out;

void out_init(ss_out *o, FILE *f);
void out_flush(ss_out *o);
void out_free(ss_out *o);

void out_raw(ss_out *o, const void *p, size_t n);
void out_str(ss_out *o, const char *s);
/* A string literal, without strlen. */
/* "" lit "": only a string literal compiles here (sizeof of a pointer would cut the text silently) */
#define out_lit(o, lit) out_raw((o), "" lit "", sizeof(lit) - 1)
void out_ch(ss_out *o, char c);
void out_i64(ss_out *o, int64_t v);
void out_u64(ss_out *o, uint64_t v);
void out_bool(ss_out *o, bool v);
void out_printf(ss_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The noun for a count in human text: `one` when n is 1, else `many`
 * ("1 batch", "0 batches", "2 batches"). Every "N <noun>" of the text output uses it. */
const char *plural(uint64_t n, const char *one, const char *many);

/* Bytes decoded as Java's new String(bytes, UTF_8) and written as UTF-8:
 * malformed input becomes U+FFFD exactly where Java puts it. Returns true when
 * a replacement happened. */
bool out_java_utf8(ss_out *o, const uint8_t *p, size_t n);
/* The same decoding, written as a JSON string (quotes included). */
bool out_json_utf8(ss_out *o, const uint8_t *p, size_t n);
/* ,"k": (a member name; k needs no escaping) */
void out_json_key(ss_out *o, const char *k);
/* ,"k":v members: a number, a boolean, a number or null when v < 0 */
void out_kv_u64(ss_out *o, const char *k, uint64_t v);
void out_kv_bool(ss_out *o, const char *k, bool v);
void out_kv_opt(ss_out *o, const char *k, int64_t v);
/* A string literal, then a value: "label: value" in the text forms; without
 * strlen (the dump and the JSON writers of a record or copy each use them
 * thousands of times). */
#define LIT_I64(o, lit, v) (out_lit((o), lit), out_i64((o), (v)))
#define LIT_U64(o, lit, v) (out_lit((o), lit), out_u64((o), (v)))
#define LIT_BOOL(o, lit, v) (out_lit((o), lit), out_bool((o), (v)))
/* ,"k":v members for a literal key */
#define KV_I64(o, k, v) LIT_I64((o), ",\"" k "\":", (v))
#define KV_U64(o, k, v) LIT_U64((o), ",\"" k "\":", (v))
#define KV_BOOL(o, k, v) LIT_BOOL((o), ",\"" k "\":", (v))
#define KV_OPT(o, k, v) (out_lit((o), ",\"" k "\":"), (v) >= 0 ? out_i64((o), (v)) : out_lit((o), "null"))
/* JSON string of a NUL-terminated, already valid UTF-8 text. */
void out_json_cstr(ss_out *o, const char *s);
void out_hex(ss_out *o, const uint8_t *p, size_t n);
void out_base64(ss_out *o, const uint8_t *p, size_t n);

/* Bytes for a terminal line: well-formed UTF-8 as is; control characters (C0, DEL,
 * C1), line and paragraph separators, bidirectional marks and overrides, and
 * malformed bytes written as \xNN (\t, \n and \r as such), so that no input can
 * break a line, move the cursor or reorder what is shown. With `quoted`, '"' and
 * '\' are escaped too (the text then goes between quotes). */
void out_text_escaped(ss_out *o, const uint8_t *p, size_t n, bool quoted);
/* The same for a NUL-terminated string. */
void out_text_cstr(ss_out *o, const char *s);
/* A short preview of a key or value: null for len < 0, else "..." holding at most
 * max bytes of p (cut between characters) escaped as above, followed by
 * "... (LEN bytes)" when it was cut. */
void out_preview(ss_out *o, const uint8_t *p, int32_t len, size_t max);

enum bytes_mode { BYTES_UTF8, BYTES_HEX, BYTES_BASE64 };
/* A JSON value for a byte field: null for len < 0, else a string in the chosen
 * rendering. Returns true when a utf8 rendering was lossy. */
bool out_json_bytes(ss_out *o, enum bytes_mode m, const uint8_t *p, int32_t len);
int parse_bytes_mode(const char *s, enum bytes_mode *m);

#endif
