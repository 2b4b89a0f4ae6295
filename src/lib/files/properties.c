/* segscan - meta.properties, the identity of a log directory: read as
 * PropertiesUtils.readPropertiesFile reads it (java.util.Properties.load over
 * an InputStream), then as MetaProperties.Builder(Properties) takes it
 * (metadata/src/main/java/org/apache/kafka/metadata/properties/).
 *
 * Properties.load: the bytes are ISO-8859-1 characters; a natural line ends
 * at \n, \r or \r\n; blanks (' ', '\t', '\f') before a line are skipped, and
 * blank lines; a line whose first character is '#' or '!' is a comment; a
 * line ending in an odd number of '\' goes on in the next one (whose leading
 * blanks are skipped). The key ends at the first '=', ':' or blank not
 * escaped by '\'; blanks and one '=' or ':' after it are skipped; the rest
 * is the value. In both, \uXXXX is a UTF-16 unit, \t \n \r \f what they
 * name, and '\' before any other character that character. A key given twice:
 * the last value wins (Hashtable.put).
 *
 * MetaProperties: "version" (default 0; Integer.parseInt of its trimmed value;
 * 0 or 1); version 0 has the optional broker.id, version 1 the required
 * node.id (Integer.parseInt); cluster.id (required in version 1); directory.id
 * (Uuid.fromString, KIP-858).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error_set.h"
#include "files/javatext.h"
#include "segscan/files.h"

void ss_meta_properties_free(ss_meta_properties *m) {
    if (!m) return;
    free(m->props);
    free(m->strings);
    m->props = NULL;
    m->strings = NULL;
    m->nprops = 0;
}

static bool blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\f'; }

/* Append the UTF-8 of a UTF-16 code unit (pairing surrogates across calls). */
typedef struct u16out {
    char *o;
    uint32_t hi; /* a pending high surrogate, 0 none */
} u16out;

static void put_cp(u16out *w, uint32_t cp) {
    char *o = w->o;
    if (cp < 0x80) *o++ = (char)cp;
    else if (cp < 0x800) {
        *o++ = (char)(0xC0 | cp >> 6);
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (char)(0xE0 | cp >> 12);
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (char)(0xF0 | cp >> 18);
        *o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    }
    w->o = o;
}

static void put_unit(u16out *w, uint32_t u) {
    if (w->hi) {
        uint32_t hi = w->hi;
        w->hi = 0;
        if (u >= 0xDC00 && u < 0xE000) {
            put_cp(w, 0x10000 + ((hi - 0xD800) << 10) + (u - 0xDC00));
            return;
        }
        put_cp(w, 0xFFFD); /* a lone surrogate */
    }
    if (u >= 0xD800 && u < 0xDC00) {
        w->hi = u;
        return;
    }
    put_cp(w, u >= 0xDC00 && u < 0xE000 ? 0xFFFD : u);
}

static void flush_units(u16out *w) {
    if (w->hi) put_cp(w, 0xFFFD);
    w->hi = 0;
}

static int hexval(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Properties.loadConvert of s[0..n) into w; false on a malformed \uXXXX. */
static bool load_convert(const unsigned char *s, size_t n, u16out *w) {
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i++];
        if (c != '\\') {
            put_unit(w, c);
            continue;
        }
        if (i >= n) break; /* a lone '\' at the end (readLine has dropped a continuation's) */
        c = s[i++];
        if (c == 'u') {
            uint32_t v = 0;
            for (int k = 0; k < 4; k++) {
                int h = i < n ? hexval(s[i]) : -1;
                if (h < 0) return false;
                v = v << 4 | (uint32_t)h;
                i++;
            }
            put_unit(w, v);
            continue;
        }
        put_unit(w, c == 't' ? '\t' : c == 'r' ? '\r' : c == 'n' ? '\n' : c == 'f' ? '\f' : c);
    }
    flush_units(w);
    return true;
}

/* The value of the last property named key, or NULL. */
static const ss_property *find(const ss_meta_properties *m, const char *key) {
    const ss_property *p = NULL;
    for (size_t i = 0; i < m->nprops; i++)
        if (!strcmp(m->props[i].key, key)) p = &m->props[i];
    return p;
}

/* String.trim(): characters <= ' ' off both ends. */
static void trimmed(const char *s, const char **b, size_t *n) {
    size_t len = strlen(s), i = 0;
    while (i < len && (unsigned char)s[i] <= ' ') i++;
    while (len > i && (unsigned char)s[len - 1] <= ' ') len--;
    *b = s + i;
    *n = len - i;
}

ss_errkind ss_meta_properties_parse(const char *text, size_t len, const char *display_path, ss_meta_properties *out,
                                    ss_error *err) {
    memset(out, 0, sizeof *out);
    if (!text) text = "", len = 0;
    const char *loc = display_path ? display_path : "?";
    const unsigned char *t = (const unsigned char *)text;
    /* Each byte becomes at most 2 bytes of UTF-8 (a \uXXXX of 6 bytes at most 3, a
     * pair of 12 bytes 4), plus a NUL for the key and the value of each line. */
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        if (t[i] == '\n' || t[i] == '\r') lines++;
    out->props = calloc(lines, sizeof *out->props);
    out->strings = malloc(2 * len + 2 * lines + 2);
    unsigned char *logical = malloc(len + 1);
    if (!out->props || !out->strings || !logical) {
        free(logical);
        ss_meta_properties_free(out);
        ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        return SS_E_NOMEM;
    }
    u16out w = {out->strings, 0};
    size_t pos = 0;
    while (pos < len) {
        /* the start of a natural line: blanks and blank lines skipped, comments */
        while (pos < len && blank(t[pos])) pos++;
        if (pos >= len) break;
        if (t[pos] == '\n' || t[pos] == '\r') {
            pos++;
            continue;
        }
        if (t[pos] == '#' || t[pos] == '!') {
            while (pos < len && t[pos] != '\n' && t[pos] != '\r') pos++;
            continue;
        }
        uint64_t line_pos = pos;
        size_t ln = 0;
        for (;;) {
            size_t run = 0; /* the backslashes just before the line's end */
            while (pos < len && t[pos] != '\n' && t[pos] != '\r') {
                run = t[pos] == '\\' ? run + 1 : 0;
                logical[ln++] = t[pos++];
            }
            bool more = run % 2 == 1;
            if (more) ln--; /* the continuation's '\' */
            if (pos < len) pos += (t[pos] == '\r' && pos + 1 < len && t[pos + 1] == '\n') ? 2 : 1;
            if (!more || pos >= len) break;
            while (pos < len && blank(t[pos])) pos++;
        }
        /* the key ends at an unescaped '=', ':' or blank */
        size_t key_len = 0, value_start = ln;
        bool has_sep = false, esc = false;
        while (key_len < ln) {
            unsigned char c = logical[key_len];
            if ((c == '=' || c == ':') && !esc) {
                value_start = key_len + 1;
                has_sep = true;
                break;
            }
            if (blank(c) && !esc) {
                value_start = key_len + 1;
                break;
            }
            esc = c == '\\' ? !esc : false;
            key_len++;
        }
        while (value_start < ln) {
            unsigned char c = logical[value_start];
            if (!blank(c)) {
                if (!has_sep && (c == '=' || c == ':')) has_sep = true;
                else break;
            }
            value_start++;
        }
        ss_property *p = &out->props[out->nprops];
        p->position = line_pos;
        p->key = w.o;
        bool ok = load_convert(logical, key_len, &w);
        *w.o++ = 0;
        p->value = w.o;
        ok = ok && load_convert(logical + value_start, ln - value_start, &w);
        *w.o++ = 0;
        if (!ok) {
            free(logical);
            ss_meta_properties_free(out);
            ss_error_set(err, SS_E_BAD_CHECKPOINT, line_pos, -1,
                         "Error while reading meta.properties file %s: Malformed \\uxxxx encoding.", loc);
            return SS_E_BAD_CHECKPOINT;
        }
        out->nprops++;
    }
    free(logical);

    /* MetaProperties.Builder(Properties) */
    const ss_property *v = find(out, "version");
    uint64_t at = v ? v->position : 0;
    out->version = 0;
    if (v) {
        const char *b;
        size_t n;
        trimmed(v->value, &b, &n);
        out->has_version = true;
        if (!ft_parse_i32(b, n, &out->version)) {
            ss_error_set(err, SS_E_BAD_CHECKPOINT, at, -1,
                         "Error while reading meta.properties file %s: Invalid meta.properties version string '%.80s'",
                         loc, v->value);
            return SS_E_BAD_CHECKPOINT;
        }
        if (out->version != 0 && out->version != 1) {
            ss_error_set(err, SS_E_BAD_CHECKPOINT, at, -1,
                         "Error while reading meta.properties file %s: Unknown meta.properties version number %" PRId32,
                         loc, out->version);
            return SS_E_BAD_CHECKPOINT;
        }
    }
    const char *id_key = out->version == 0 ? "broker.id" : "node.id";
    const ss_property *id = find(out, id_key);
    if (!id && out->version == 1) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, 0, -1,
                     "Error while reading meta.properties file %s: Failed to find node.id", loc);
        return SS_E_BAD_CHECKPOINT;
    }
    if (id) {
        if (!ft_parse_i32(id->value, strlen(id->value), &out->node_id)) {
            ss_error_set(err, SS_E_BAD_CHECKPOINT, id->position, -1,
                         "Error while reading meta.properties file %s: Unable to read %s as a base-10 number.", loc,
                         id_key);
            return SS_E_BAD_CHECKPOINT;
        }
        out->has_node_id = true;
    }
    const ss_property *cid = find(out, "cluster.id");
    out->cluster_id = cid ? cid->value : NULL;
    const ss_property *did = find(out, "directory.id");
    if (did) {
        char m[200];
        if (!ft_uuid_from_string(did->value, strlen(did->value), out->directory_id, m, sizeof m)) {
            ss_error_set(err, SS_E_BAD_CHECKPOINT, did->position, -1,
                         "Error while reading meta.properties file %s: Unable to read directory.id as a Uuid: %s", loc,
                         m);
            return SS_E_BAD_CHECKPOINT;
        }
        out->has_directory_id = true;
    }
    if (out->version == 1 && !cid) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, 0, -1,
                     "Error while reading meta.properties file %s: cluster.id was not found.", loc);
        return SS_E_BAD_CHECKPOINT;
    }
    return SS_E_OK;
}
