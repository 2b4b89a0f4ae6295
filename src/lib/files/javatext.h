/* segscan - text as Kafka's Java readers see it (internal to the files room):
 * BufferedReader's lines, String.split("\\s+"), Integer.parseInt and
 * Long.parseLong, the UTF-8 that Files.newBufferedReader accepts, URL-safe
 * base64 (Uuid.fromString), and an ss_error filled with a message. The text
 * files' readers (checkpoint.c, properties.c, jsonfile.c) share them. */
#ifndef SS_FILES_JAVATEXT_H
#define SS_FILES_JAVATEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"

/* The lines of text[0..len): BufferedReader.readLine (ends \n, \r or \r\n). */
typedef struct ft_lines {
    const char *base, *p, *end;
} ft_lines;
/* The next line (without its end) in s/n; false at the end of the text. */
bool ft_next_line(ft_lines *lr, const char **s, size_t *n);

/* java.util.regex \s: [ \t\n\x0B\f\r] */
bool ft_java_space(char c);

typedef struct ft_field {
    const char *s;
    size_t n;
} ft_field;
/* String.split("\\s+") (limit 0): fills up to max fields, returns how many there are. */
size_t ft_split_spaces(const char *s, size_t n, ft_field *f, size_t max);

/* Integer.parseInt / Long.parseLong of s[0..n) (optional sign, ASCII digits, in [lo, hi]). */
bool ft_parse_java_int(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *out);
bool ft_parse_i32(const char *s, size_t n, int32_t *out);
bool ft_parse_i64(const char *s, size_t n, int64_t *out);

/* Strict UTF-8: the offset of the first malformed sequence, or len. */
size_t ft_utf8_check(const unsigned char *s, size_t len);

/* java.util.Base64.getUrlDecoder().decode: the number of bytes written, or -1. */
long ft_b64url_decode(const char *s, size_t n, uint8_t *out, size_t cap);

/* Uuid.fromString(s[0..n)): false with Kafka's IllegalArgumentException
 * message in msg when it is not the base64 of 16 bytes. */
bool ft_uuid_from_string(const char *s, size_t n, uint8_t out[16], char *msg, size_t msgsz);

/* A line quoted in a message: at most 80 bytes of it. */
#define LINE_FMT "%.*s"
#define LINE_ARG(s, n) (int)((n) > 80 ? 80 : (n)), (s)

#endif
