/* segscan - text as Kafka's Java readers see it: lines, fields, numbers,
 * UTF-8, base64 (files/javatext.h says what each follows). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "files/javatext.h"

/* ---- lines, fields, numbers as Java reads them ------------------------------------ */

/* BufferedReader.readLine: false at the end of the text. */
bool ft_next_line(ft_lines *lr, const char **s, size_t *n) {
    if (lr->p >= lr->end) return false;
    const char *q = lr->p;
    while (q < lr->end && *q != '\n' && *q != '\r') q++;
    *s = lr->p;
    *n = (size_t)(q - lr->p);
    if (q < lr->end) q += (*q == '\r' && q + 1 < lr->end && q[1] == '\n') ? 2 : 1;
    lr->p = q;
    return true;
}

/* java.util.regex \s: [ \t\n\x0B\f\r] */
bool ft_java_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\x0b' || c == '\f' || c == '\r'; }

/* String.split("\\s+") (limit 0): a leading separator gives a leading empty
 * ft_field, trailing empty fields are dropped. Fills up to max fields, returns
 * how many there are in all. */
size_t ft_split_spaces(const char *s, size_t n, ft_field *f, size_t max) {
    size_t count = 0, index = 0, i = 0, last_nonempty = 0;
    bool found = false;
    while (i < n) {
        if (!ft_java_space(s[i])) {
            i++;
            continue;
        }
        size_t ms = i;
        while (i < n && ft_java_space(s[i])) i++;
        if (count < max) {
            f[count].s = s + index;
            f[count].n = ms - index;
        }
        count++;
        if (ms > index) last_nonempty = count;
        index = i;
        found = true;
    }
    if (!found) {
        if (max) {
            f[0].s = s;
            f[0].n = n;
        }
        return 1;
    }
    if (count < max) {
        f[count].s = s + index;
        f[count].n = n - index;
    }
    count++;
    if (n > index) last_nonempty = count;
    return last_nonempty;
}

/* Integer.parseInt / Long.parseLong (ASCII digits). */
bool ft_parse_java_int(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *out) {
    size_t i = 0;
    bool neg = false;
    if (n == 0) return false;
    if (s[0] == '-' || s[0] == '+') {
        neg = s[0] == '-';
        if (++i == n) return false;
    }
    uint64_t limit = neg ? (uint64_t)(-(lo + 1)) + 1u : (uint64_t)hi;
    uint64_t v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (limit - d) / 10u) return false;
        v = v * 10u + d;
    }
    *out = neg ? (int64_t)(0u - v) : (int64_t)v;
    return true;
}

bool ft_parse_i32(const char *s, size_t n, int32_t *out) {
    int64_t v;
    if (!ft_parse_java_int(s, n, INT32_MIN, INT32_MAX, &v)) return false;
    *out = (int32_t)v;
    return true;
}

bool ft_parse_i64(const char *s, size_t n, int64_t *out) { return ft_parse_java_int(s, n, INT64_MIN, INT64_MAX, out); }

/* Strict UTF-8 (what Java's decoder accepts): returns the offset of the first
 * malformed sequence, or len when the text is valid. */
size_t ft_utf8_check(const unsigned char *s, size_t len) {
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t need;
        unsigned lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) need = 1;
        else if (c == 0xE0) {
            need = 2;
            lo = 0xA0;
        } else if (c == 0xED) {
            need = 2;
            hi = 0x9F;
        } else if (c >= 0xE1 && c <= 0xEF) need = 2;
        else if (c == 0xF0) {
            need = 3;
            lo = 0x90;
        } else if (c == 0xF4) {
            need = 3;
            hi = 0x8F;
        } else if (c >= 0xF1 && c <= 0xF3) need = 3;
        else return i;
        if (len - i <= need) return i;
        if (s[i + 1] < lo || s[i + 1] > hi) return i;
        for (size_t k = 2; k <= need; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
        i += need + 1;
    }
    return len;
}


static int b64url_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-') return 62;
    if (c == '_') return 63;
    return -1;
}

/* java.util.Base64.getUrlDecoder().decode: returns the number of bytes, or -1. */
long ft_b64url_decode(const char *s, size_t n, uint8_t *out, size_t cap) {
    size_t o = 0, q = 0;
    uint32_t acc = 0;
    size_t i = 0;
    for (; i < n; i++) {
        if (s[i] == '=') break;
        int v = b64url_value(s[i]);
        if (v < 0) return -1;
        acc = acc << 6 | (uint32_t)v;
        if (++q == 4) {
            if (o + 3 > cap) return -1;
            out[o++] = (uint8_t)(acc >> 16);
            out[o++] = (uint8_t)(acc >> 8);
            out[o++] = (uint8_t)acc;
            q = 0;
            acc = 0;
        }
    }
    if (q == 1) return -1;
    if (i < n) {
        /* padding: "==" after two characters, "=" after three, then the end */
        size_t pad = n - i;
        for (size_t k = i; k < n; k++)
            if (s[k] != '=') return -1;
        if (!((q == 2 && pad == 2) || (q == 3 && pad == 1))) return -1;
    }
    if (q == 2) {
        if (o + 1 > cap) return -1;
        out[o++] = (uint8_t)(acc >> 4);
    } else if (q == 3) {
        if (o + 2 > cap) return -1;
        out[o++] = (uint8_t)(acc >> 10);
        out[o++] = (uint8_t)(acc >> 2);
    }
    return (long)o;
}

bool ft_uuid_from_string(const char *s, size_t n, uint8_t out[16], char *msg, size_t msgsz) {
    if (n > 24) {
        snprintf(msg, msgsz, "Input string with prefix `%.24s` is too long to be decoded as a base64 UUID", s);
        return false;
    }
    uint8_t b[18];
    long got = ft_b64url_decode(s, n, b, sizeof b);
    if (got < 0) {
        /* Base64.Decoder's IllegalArgumentException; its exact wording depends on the fault */
        snprintf(msg, msgsz, "Illegal base64 in `%.*s`", (int)n, s);
        return false;
    }
    if (got != 16) {
        snprintf(msg, msgsz,
                 "Input string `%.*s` decoded as %ld bytes, which is not equal to the expected 16 bytes of a "
                 "base64-encoded UUID",
                 (int)n, s, got);
        return false;
    }
    memcpy(out, b, 16);
    return true;
}
