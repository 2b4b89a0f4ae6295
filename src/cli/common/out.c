/* segscan CLI - buffered output and byte renderings. */
#include "common/out.h"

#include <stdarg.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#define OUT_CAP (256u * 1024u)

void out_init(ss_out *o, FILE *f) {
    memset(o, 0, sizeof *o);
    o->f = f;
    o->cap = OUT_CAP;
    o->buf = malloc(o->cap);
    if (!o->buf) {
        o->cap = 0;
        o->failed = true;
    }
}

void out_flush(ss_out *o) {
    if (o->len && !o->failed) {
        if (fwrite(o->buf, 1, o->len, o->f) != o->len) o->failed = true;
    }
    o->len = 0;
    if (!o->failed && fflush(o->f) != 0) o->failed = true;
}

void out_free(ss_out *o) {
    out_flush(o);
    free(o->buf);
    o->buf = NULL;
}

static inline void reserve(ss_out *o, size_t n) {
    if (o->len + n > o->cap) {
        if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len) o->failed = true;
        o->len = 0;
    }
}

void out_raw(ss_out *o, const void *p, size_t n) {
    if (n > o->cap / 2) {
        reserve(o, o->cap);
        if (!o->failed && n && fwrite(p, 1, n, o->f) != n) o->failed = true;
        return;
    }
    reserve(o, n);
    memcpy(o->buf + o->len, p, n);
    o->len += n;
}

void out_str(ss_out *o, const char *s) { out_raw(o, s, strlen(s)); }

void out_ch(ss_out *o, char c) {
    reserve(o, 1);
    o->buf[o->len++] = c;
}

void out_u64(ss_out *o, uint64_t v) {
    char tmp[24];
    int i = 24;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    out_raw(o, tmp + i, (size_t)(24 - i));
}

void out_i64(ss_out *o, int64_t v) {
    if (v < 0) {
        out_ch(o, '-');
        out_u64(o, (uint64_t)0 - (uint64_t)v);
    } else {
        out_u64(o, (uint64_t)v);
    }
}

void out_bool(ss_out *o, bool v) { out_str(o, v ? "true" : "false"); }

void out_printf(ss_out *o, const char *fmt, ...) {
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) {
        out_raw(o, tmp, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        o->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    out_raw(o, big, (size_t)n);
    free(big);
}

/* ---- Java's UTF-8 decoding ------------------------------------------------
 * One step of java.lang.String's UTF-8 decoder (JDK 17, decodeUTF8_UTF16 with
 * REPLACE): returns the bytes consumed and the code point, or 0xFFFD for a
 * malformed sequence. The lengths differ from Unicode's "maximal subpart" in
 * two places: a 3-byte lead with a continuation second byte but a bad third
 * byte counts 2, and an encoded surrogate (ED A0 80) is one U+FFFD for all
 * three bytes. Checked against JDK 17 on random inputs. */
static inline bool cont(uint8_t b) { return (b & 0xc0) == 0x80; }

static size_t java_utf8_step(const uint8_t *p, size_t n, uint32_t *cp) {
    uint8_t b1 = p[0];
    *cp = 0xFFFD;
    if (b1 < 0x80) {
        *cp = b1;
        return 1;
    }
    if ((b1 >> 5) == 0x6 && (b1 & 0x1e) != 0) {
        if (n >= 2 && cont(p[1])) {
            *cp = (uint32_t)(b1 & 0x1f) << 6 | (p[1] & 0x3f);
            return 2;
        }
        return 1;
    }
    if ((b1 >> 4) == 0xE) {
        if (n >= 3) {
            uint8_t b2 = p[1], b3 = p[2];
            bool len1 = (b1 == 0xE0 && (b2 & 0xe0) == 0x80) || !cont(b2);
            if (len1 || !cont(b3)) return len1 ? 1 : 2;
            uint32_t c = (uint32_t)(b1 & 0x0f) << 12 | (uint32_t)(b2 & 0x3f) << 6 | (b3 & 0x3f);
            if (c >= 0xD800 && c <= 0xDFFF) return 3; /* one U+FFFD for an encoded surrogate */
            *cp = c;
            return 3;
        }
        if (n == 2 && ((b1 == 0xE0 && (p[1] & 0xe0) == 0x80) || !cont(p[1]))) return 1;
        return n; /* truncated at the end: one U+FFFD for the rest */
    }
    if ((b1 >> 3) == 0x1E) {
        if (n >= 4) {
            uint8_t b2 = p[1], b3 = p[2], b4 = p[3];
            uint32_t uc =
                (uint32_t)(b1 & 0x07) << 18 | (uint32_t)(b2 & 0x3f) << 12 | (uint32_t)(b3 & 0x3f) << 6 | (b4 & 0x3f);
            if (!cont(b2) || !cont(b3) || !cont(b4) || uc < 0x10000 || uc > 0x10FFFF) {
                if (b1 > 0xf4 || (b1 == 0xf0 && (b2 < 0x90 || b2 > 0xbf)) || (b1 == 0xf4 && (b2 & 0xf0) != 0x80) ||
                    !cont(b2))
                    return 1;
                return cont(b3) ? 3 : 2;
            }
            *cp = uc;
            return 4;
        }
        if (b1 > 0xf4) return 1;
        if (n >= 2) {
            uint8_t b2 = p[1];
            if ((b1 == 0xf0 && (b2 < 0x90 || b2 > 0xbf)) || (b1 == 0xf4 && (b2 & 0xf0) != 0x80) || !cont(b2)) return 1;
        }
        if (n >= 3 && !cont(p[2])) return 2;
        return n;
    }
    return 1;
}

static const char REPL[3] = {(char)0xEF, (char)0xBF, (char)0xBD};

bool out_java_utf8(ss_out *o, const uint8_t *p, size_t n) {
    bool lossy = false;
    size_t i = 0;
    while (i < n) {
        /* fast path: a run of ASCII */
        size_t j = i;
        while (j < n && p[j] < 0x80) j++;
        if (j > i) {
            out_raw(o, p + i, j - i);
            i = j;
            if (i >= n) break;
        }
        uint32_t cp;
        size_t k = java_utf8_step(p + i, n - i, &cp);
        if (cp == 0xFFFD && !(k == 3 && p[i] == 0xEF && p[i + 1] == 0xBF && p[i + 2] == 0xBD)) {
            out_raw(o, REPL, 3);
            lossy = true;
        } else {
            out_raw(o, p + i, k);
        }
        i += k;
    }
    return lossy;
}

static const char HEXD[] = "0123456789abcdef";

static void json_escape_ascii(ss_out *o, uint8_t c) {
    switch (c) {
    case '"': out_raw(o, "\\\"", 2); break;
    case '\\': out_raw(o, "\\\\", 2); break;
    case '\n': out_raw(o, "\\n", 2); break;
    case '\r': out_raw(o, "\\r", 2); break;
    case '\t': out_raw(o, "\\t", 2); break;
    case '\b': out_raw(o, "\\b", 2); break;
    case '\f': out_raw(o, "\\f", 2); break;
    default:
        if (c < 0x20 || c == 0x7f) {
            char u[6] = {'\\', 'u', '0', '0', HEXD[c >> 4], HEXD[c & 15]};
            out_raw(o, u, 6);
        } else {
            out_ch(o, (char)c);
        }
    }
}

/* True when none of the 8 bytes needs escaping or decoding: all in 0x20..0x7e
 * and none is '"' or '\\'. Exact for the existence test (SWAR zero-byte trick). */
static inline bool json_safe8(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\'), d = w ^ (ones * 0x7f);
    uint64_t bad = (w & high) | ((w - ones * 0x20) & ~w & high) | ((q - ones) & ~q & high) | ((b - ones) & ~b & high) |
                   ((d - ones) & ~d & high);
    return bad == 0;
}

#if defined(__SSE2__)
/* The same test 16 bytes at a time (SSE2 is part of x86-64): how many leading
 * bytes of p[0..n), in whole blocks of 16, need neither escaping nor decoding.
 * Values are mostly such text; this is the JSON writers' inner loop. */
static inline size_t json_safe16(const uint8_t *p, size_t n) {
    const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'),
                  del = _mm_set1_epi8(0x7f);
    size_t j = 0;
    for (; j + 16 <= n; j += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + j));
        /* signed compare: bytes from 0x80 are negative, below 0x20 as the controls are */
        __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, quote)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, bslash), _mm_cmpeq_epi8(v, del)));
        unsigned m = (unsigned)_mm_movemask_epi8(bad);
        if (m) return j + (size_t)__builtin_ctz(m);
    }
    return j;
}
#endif

bool out_json_utf8(ss_out *o, const uint8_t *p, size_t n) {
    bool lossy = false;
    out_ch(o, '"');
    size_t i = 0;
    while (i < n) {
        size_t j = i;
#if defined(__SSE2__)
        j += json_safe16(p + j, n - j);
#endif
        while (j + 8 <= n && json_safe8(p + j)) j += 8;
        while (j < n && p[j] >= 0x20 && p[j] < 0x7f && p[j] != '"' && p[j] != '\\') j++;
        if (j > i) {
            out_raw(o, p + i, j - i);
            i = j;
            if (i >= n) break;
        }
        if (p[i] < 0x80) {
            json_escape_ascii(o, p[i]);
            i++;
            continue;
        }
        uint32_t cp;
        size_t k = java_utf8_step(p + i, n - i, &cp);
        if (cp == 0xFFFD && !(k == 3 && p[i] == 0xEF && p[i + 1] == 0xBF && p[i + 2] == 0xBD)) {
            out_raw(o, REPL, 3);
            lossy = true;
        } else if (cp == 0x2028 || cp == 0x2029 || cp == 0x85) {
            /* valid in JSON, but line breaks to many line-oriented readers (NEL too:
             * Python's str.splitlines splits there) */
            out_raw(o, cp == 0x2028 ? "\\u2028" : cp == 0x2029 ? "\\u2029" : "\\u0085", 6);
        } else {
            out_raw(o, p + i, k);
        }
        i += k;
    }
    out_ch(o, '"');
    return lossy;
}

void out_json_cstr(ss_out *o, const char *s) { (void)out_json_utf8(o, (const uint8_t *)s, strlen(s)); }

void out_hex(ss_out *o, const uint8_t *p, size_t n) {
    char tmp[512];
    size_t t = 0;
    for (size_t i = 0; i < n; i++) {
        tmp[t++] = HEXD[p[i] >> 4];
        tmp[t++] = HEXD[p[i] & 15];
        if (t == sizeof tmp) {
            out_raw(o, tmp, t);
            t = 0;
        }
    }
    out_raw(o, tmp, t);
}

void out_base64(ss_out *o, const uint8_t *p, size_t n) {
    static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char tmp[512];
    size_t t = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        tmp[t++] = B64[v >> 18];
        tmp[t++] = B64[(v >> 12) & 63];
        tmp[t++] = B64[(v >> 6) & 63];
        tmp[t++] = B64[v & 63];
        if (t + 4 > sizeof tmp) {
            out_raw(o, tmp, t);
            t = 0;
        }
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)p[i] << 16;
        tmp[t++] = B64[v >> 18];
        tmp[t++] = B64[(v >> 12) & 63];
        tmp[t++] = '=';
        tmp[t++] = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
        tmp[t++] = B64[v >> 18];
        tmp[t++] = B64[(v >> 12) & 63];
        tmp[t++] = B64[(v >> 6) & 63];
        tmp[t++] = '=';
    }
    out_raw(o, tmp, t);
}

bool out_json_bytes(ss_out *o, enum bytes_mode m, const uint8_t *p, int32_t len) {
    if (len < 0) {
        out_str(o, "null");
        return false;
    }
    switch (m) {
    case BYTES_HEX:
        out_ch(o, '"');
        out_hex(o, p, (size_t)len);
        out_ch(o, '"');
        return false;
    case BYTES_BASE64:
        out_ch(o, '"');
        out_base64(o, p, (size_t)len);
        out_ch(o, '"');
        return false;
    default: return out_json_utf8(o, p, (size_t)len);
    }
}

int parse_bytes_mode(const char *s, enum bytes_mode *m) {
    if (!strcmp(s, "utf8")) *m = BYTES_UTF8;
    else if (!strcmp(s, "hex")) *m = BYTES_HEX;
    else if (!strcmp(s, "base64")) *m = BYTES_BASE64;
    else return -1;
    return 0;
}

/* ---- text for a terminal ---------------------------------------------------------------- */

/* The length of the well-formed UTF-8 sequence at p (shortest form, no
 * surrogates, at most U+10FFFF), or 0; *cp gets its code point. */
static size_t utf8_seq(const uint8_t *p, size_t n, uint32_t *cp) {
    uint8_t b = p[0];
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    size_t len;
    uint32_t c, min;
    if ((b & 0xe0) == 0xc0) {
        len = 2;
        c = b & 0x1fu;
        min = 0x80;
    } else if ((b & 0xf0) == 0xe0) {
        len = 3;
        c = b & 0x0fu;
        min = 0x800;
    } else if ((b & 0xf8) == 0xf0) {
        len = 4;
        c = b & 0x07u;
        min = 0x10000;
    } else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if (!cont(p[i])) return 0;
        c = c << 6 | (p[i] & 0x3fu);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    *cp = c;
    return len;
}

/* Characters that must not reach a terminal as they are. */
static bool unsafe_cp(uint32_t c) {
    return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) ||           /* C0, DEL, C1 */
           c == 0x2028 || c == 0x2029 ||                                 /* line, paragraph separator */
           c == 0x061c || c == 0x200e || c == 0x200f ||                  /* bidi marks */
           (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069); /* embeddings, overrides, isolates */
}

static void escape_bytes(ss_out *o, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        switch (p[i]) {
        case '\t': out_raw(o, "\\t", 2); break;
        case '\n': out_raw(o, "\\n", 2); break;
        case '\r': out_raw(o, "\\r", 2); break;
        default: {
            char x[4] = {'\\', 'x', HEXD[p[i] >> 4], HEXD[p[i] & 15]};
            out_raw(o, x, 4);
        }
        }
    }
}

void out_text_escaped(ss_out *o, const uint8_t *p, size_t n, bool quoted) {
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && p[j] >= 0x20 && p[j] < 0x7f && !(quoted && (p[j] == '"' || p[j] == '\\'))) j++;
        if (j > i) {
            out_raw(o, p + i, j - i);
            i = j;
            if (i >= n) break;
        }
        if (p[i] == '"' || p[i] == '\\') {
            out_ch(o, '\\');
            out_ch(o, (char)p[i]);
            i++;
            continue;
        }
        uint32_t c;
        size_t k = utf8_seq(p + i, n - i, &c);
        if (k == 0) k = 1, c = 0; /* a malformed byte: escaped alone */
        if (c == 0 || unsafe_cp(c)) escape_bytes(o, p + i, k);
        else out_raw(o, p + i, k);
        i += k;
    }
}

void out_text_cstr(ss_out *o, const char *s) { out_text_escaped(o, (const uint8_t *)s, strlen(s), false); }

void out_preview(ss_out *o, const uint8_t *p, int32_t len, size_t max) {
    if (len < 0) {
        out_lit(o, "null");
        return;
    }
    size_t n = (size_t)len, shown = 0;
    while (shown < n) {
        uint32_t c;
        size_t k = utf8_seq(p + shown, n - shown, &c);
        if (k == 0) k = 1;
        if (shown + k > max) break;
        shown += k;
    }
    out_ch(o, '"');
    out_text_escaped(o, p, shown, true);
    out_ch(o, '"');
    if (shown < n) out_printf(o, "... (%zu %s)", n, plural(n, "byte", "bytes"));
}

const char *plural(uint64_t n, const char *one, const char *many) { return n == 1 ? one : many; }

void out_json_key(ss_out *o, const char *k) {
    out_str(o, ",\"");
    out_str(o, k);
    out_str(o, "\":");
}

void out_kv_u64(ss_out *o, const char *k, uint64_t v) {
    out_json_key(o, k);
    out_u64(o, v);
}

void out_kv_bool(ss_out *o, const char *k, bool v) {
    out_json_key(o, k);
    out_bool(o, v);
}

void out_kv_opt(ss_out *o, const char *k, int64_t v) {
    out_json_key(o, k);
    if (v < 0) out_str(o, "null");
    else out_i64(o, v);
}
