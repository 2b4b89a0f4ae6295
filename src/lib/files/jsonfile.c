/* segscan - the JSON text files of a log directory: quorum-state
 * (raft/.../FileQuorumStateStore.java, QuorumStateData.json) and
 * .kafka_cleanshutdown (storage/.../checkpoint/CleanShutdownFileHandler.java).
 *
 * Kafka reads both with Jackson. The reader here takes the JSON of RFC 8259 as
 * Jackson's defaults take it (no comments, no leading zeros, no NaN, no
 * unescaped control characters in strings; a repeated member: the last one
 * wins, as ObjectNode.set keeps it; what follows the first value is left
 * unread, as readTree leaves it). Its nodes live in one array per file.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error_set.h"
#include "base/grow.h"
#include "files/javatext.h"
#include "segscan/files.h"

/* ---- a small JSON reader ------------------------------------------------------------ */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jnode {
    int kind;
    bool integral; /* J_NUM: no fraction, no exponent, within int64 */
    int64_t i;     /* J_NUM integral, J_BOOL */
    const char *s; /* J_STR: decoded UTF-8 (in the document's buffer), NUL-terminated */
    size_t n;
    const char *key; /* member name inside an object */
    uint32_t first, next;
    uint64_t pos; /* byte position of the value */
} jnode;

typedef struct jdoc {
    jnode *v;
    size_t n, cap;
    char *strs; /* decoded strings: never longer than the text */
    size_t sn;
    const char *text, *p, *end;
    int depth;
    char msg[200];
    uint64_t errpos;
} jdoc;

#define J_MAX_DEPTH 256

static void jd_free(jdoc *d) {
    free(d->v);
    free(d->strs);
    d->v = NULL;
    d->strs = NULL;
}

static uint32_t jd_new(jdoc *d, int kind) {
    if (!SS_GROW(d->v, d->n, d->cap, 32)) return 0;
    jnode *x = &d->v[d->n];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->pos = (uint64_t)(d->p - d->text);
    return (uint32_t)d->n++;
}

static bool jd_fail(jdoc *d, const char *what) {
    if (!d->msg[0]) {
        d->errpos = (uint64_t)(d->p - d->text);
        snprintf(d->msg, sizeof d->msg, "%s at byte %" PRIu64, what, d->errpos);
    }
    return false;
}

static void jd_ws(jdoc *d) {
    while (d->p < d->end && (*d->p == ' ' || *d->p == '\t' || *d->p == '\n' || *d->p == '\r')) d->p++;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static size_t put_utf8(char *o, uint32_t cp) {
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12);
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18);
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static bool hex4(jdoc *d, uint32_t *v) {
    if (d->end - d->p < 4) return false;
    uint32_t x = 0;
    for (int k = 0; k < 4; k++) {
        int h = hexval(d->p[k]);
        if (h < 0) return false;
        x = x << 4 | (uint32_t)h;
    }
    d->p += 4;
    *v = x;
    return true;
}

/* A string after its opening quote, decoded into the document's buffer. */
static bool jd_string(jdoc *d, const char **s, size_t *n) {
    char *o = d->strs + d->sn, *start = o;
    while (d->p < d->end) {
        unsigned char c = (unsigned char)*d->p;
        if (c == '"') {
            d->p++;
            *o = 0;
            *s = start;
            *n = (size_t)(o - start);
            d->sn += *n + 1;
            return true;
        }
        if (c < 0x20) return jd_fail(d, "unescaped control character in a string");
        if (c != '\\') {
            *o++ = (char)c;
            d->p++;
            continue;
        }
        if (++d->p >= d->end) break;
        char e = *d->p++;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            uint32_t cp;
            if (!hex4(d, &cp)) return jd_fail(d, "bad \\u escape");
            if (cp >= 0xD800 && cp < 0xDC00 && d->end - d->p >= 6 && d->p[0] == '\\' && d->p[1] == 'u') {
                const char *save = d->p;
                d->p += 2;
                uint32_t lo;
                if (hex4(d, &lo) && lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else d->p = save;
            }
            if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD; /* a lone surrogate: Java's UTF-8 encoder writes '?' */
            o += put_utf8(o, cp);
            break;
        }
        default: d->p--; return jd_fail(d, "unrecognized character escape");
        }
    }
    return jd_fail(d, "unexpected end-of-input in a string");
}

static bool jd_number(jdoc *d, uint32_t x) {
    const char *s = d->p;
    if (d->p < d->end && *d->p == '-') d->p++;
    if (d->p >= d->end || *d->p < '0' || *d->p > '9') return jd_fail(d, "unexpected character");
    if (*d->p == '0' && d->p + 1 < d->end && d->p[1] >= '0' && d->p[1] <= '9')
        return jd_fail(d, "invalid numeric value: leading zeroes not allowed");
    while (d->p < d->end && *d->p >= '0' && *d->p <= '9') d->p++;
    bool integral = true;
    if (d->p < d->end && *d->p == '.') {
        integral = false;
        d->p++;
        if (d->p >= d->end || *d->p < '0' || *d->p > '9') return jd_fail(d, "unexpected character in a number");
        while (d->p < d->end && *d->p >= '0' && *d->p <= '9') d->p++;
    }
    if (d->p < d->end && (*d->p == 'e' || *d->p == 'E')) {
        integral = false;
        d->p++;
        if (d->p < d->end && (*d->p == '+' || *d->p == '-')) d->p++;
        if (d->p >= d->end || *d->p < '0' || *d->p > '9') return jd_fail(d, "unexpected character in a number");
        while (d->p < d->end && *d->p >= '0' && *d->p <= '9') d->p++;
    }
    jnode *v = &d->v[x];
    v->s = s;
    v->n = (size_t)(d->p - s);
    int64_t i;
    v->integral = integral && ft_parse_i64(s, v->n, &i);
    if (v->integral) v->i = i;
    return true;
}

static bool jd_lit(jdoc *d, const char *w) {
    size_t n = strlen(w);
    if ((size_t)(d->end - d->p) < n || memcmp(d->p, w, n) != 0) return jd_fail(d, "unrecognized token");
    d->p += n;
    return true;
}

static uint32_t jd_value(jdoc *d);

static bool jd_members(jdoc *d, uint32_t x, bool object) {
    char close = object ? '}' : ']';
    uint32_t last = 0;
    jd_ws(d);
    if (d->p < d->end && *d->p == close) {
        d->p++;
        return true;
    }
    for (;;) {
        const char *key = NULL;
        size_t kn;
        if (object) {
            jd_ws(d);
            if (d->p >= d->end || *d->p != '"') return jd_fail(d, "expected a member name in double quotes");
            d->p++;
            if (!jd_string(d, &key, &kn)) return false;
            jd_ws(d);
            if (d->p >= d->end || *d->p != ':') return jd_fail(d, "expected ':' after a member name");
            d->p++;
        }
        uint32_t c = jd_value(d);
        if (!c) return false;
        d->v[c].key = key;
        if (last) d->v[last].next = c;
        else d->v[x].first = c;
        last = c;
        jd_ws(d);
        if (d->p < d->end && *d->p == ',') {
            d->p++;
            continue;
        }
        if (d->p < d->end && *d->p == close) {
            d->p++;
            return true;
        }
        return jd_fail(d, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

/* A value at d->p; its node, or 0 (d->msg says why). */
static uint32_t jd_value(jdoc *d) {
    jd_ws(d);
    if (d->p >= d->end) {
        jd_fail(d, "unexpected end-of-input");
        return 0;
    }
    char c = *d->p;
    int kind = c == '{'               ? J_OBJ
               : c == '['             ? J_ARR
               : c == '"'             ? J_STR
               : c == 't' || c == 'f' ? J_BOOL
               : c == 'n'             ? J_NULL
                                      : J_NUM;
    uint32_t x = jd_new(d, kind);
    if (!x) {
        jd_fail(d, "out of memory");
        return 0;
    }
    bool ok;
    switch (kind) {
    case J_OBJ:
    case J_ARR:
        if (++d->depth > J_MAX_DEPTH) {
            jd_fail(d, "nesting too deep");
            return 0;
        }
        d->p++;
        ok = jd_members(d, x, kind == J_OBJ);
        d->depth--;
        break;
    case J_STR: {
        d->p++;
        const char *s;
        size_t n;
        ok = jd_string(d, &s, &n);
        if (ok) {
            d->v[x].s = s;
            d->v[x].n = n;
        }
        break;
    }
    case J_BOOL:
        ok = jd_lit(d, c == 't' ? "true" : "false");
        d->v[x].i = c == 't';
        break;
    case J_NULL: ok = jd_lit(d, "null"); break;
    default: ok = jd_number(d, x); break;
    }
    return ok ? x : 0;
}

/* Parse the value at the start of text[0..len); the root node, or 0. */
static uint32_t jd_parse(jdoc *d, const char *text, size_t len) {
    memset(d, 0, sizeof *d);
    d->text = d->p = text;
    d->end = text + len;
    d->strs = malloc(len + 1);
    if (d->strs) (void)jd_new(d, J_NULL); /* node 0: "none" */
    if (!d->strs || d->n != 1) {
        snprintf(d->msg, sizeof d->msg, "out of memory");
        return 0;
    }
    return jd_value(d);
}

/* The member of an object; with several of one name, the last (ObjectNode.set). */
static uint32_t jd_member(const jdoc *d, uint32_t obj, const char *name) {
    uint32_t found = 0;
    if (!obj || d->v[obj].kind != J_OBJ) return 0;
    for (uint32_t c = d->v[obj].first; c; c = d->v[c].next)
        if (!strcmp(d->v[c].key, name)) found = c;
    return found;
}

static const char *jd_type_name(int kind) {
    /* Jackson's JsonNodeType names, as Kafka's messages print them */
    switch (kind) {
    case J_NULL: return "NULL";
    case J_BOOL: return "BOOLEAN";
    case J_NUM: return "NUMBER";
    case J_STR: return "STRING";
    case J_ARR: return "ARRAY";
    default: return "OBJECT";
    }
}

/* ---- quorum-state --------------------------------------------------------------------- */

void ss_quorum_state_free(ss_quorum_state *q) {
    if (!q) return;
    free(q->cluster_id);
    free(q->voters);
    q->cluster_id = NULL;
    q->voters = NULL;
    q->nvoters = 0;
}

/* MessageUtil.jsonNodeToInt / jsonNodeToLong: an integer in range, else NumberFormatException. */
static bool q_int(const jdoc *d, uint32_t x, int64_t lo, int64_t hi, int64_t *v, char *why, size_t whysz) {
    const jnode *n = &d->v[x];
    if (n->kind == J_STR) {
        snprintf(why, whysz, "QuorumStateData: expected an integer or string type, but got STRING");
        return false;
    }
    if (n->kind != J_NUM || !n->integral || n->i < lo || n->i > hi) {
        snprintf(why, whysz, "QuorumStateData: failed to parse number: For input string: \"%.*s\"",
                 n->kind == J_NUM ? (int)(n->n > 40 ? 40 : n->n) : 0, n->kind == J_NUM ? n->s : "");
        return false;
    }
    *v = n->i;
    return true;
}

ss_errkind ss_quorum_state_parse(const char *text, size_t len, const char *display_path, ss_quorum_state *out,
                                 ss_error *err) {
    memset(out, 0, sizeof *out);
    out->leader_id = out->leader_epoch = out->voted_id = -1;
    if (!text) text = "", len = 0;
    const char *loc = display_path ? display_path : "?";
    size_t bad = ft_utf8_check((const unsigned char *)text, len);
    if (bad != len) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, bad, -1,
                     "Error while reading the Quorum status from the file %s: malformed input at byte %zu: not UTF-8",
                     loc, bad);
        return SS_E_BAD_CHECKPOINT;
    }
    ft_lines lr = {text, text, text + len};
    const char *line;
    size_t n;
    if (!ft_next_line(&lr, &line, &n)) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, 0, -1,
                     "Error while reading the Quorum status from the file %s: File ended prematurely.", loc);
        return SS_E_BAD_CHECKPOINT;
    }
    jdoc d;
    char why[240] = "";
    uint64_t where = 0;
    uint32_t root = jd_parse(&d, line, n);
    uint32_t dv = 0;
    if (!root || d.v[root].kind != J_OBJ) {
        if (root || !d.msg[0]) snprintf(why, sizeof why, "Deserialized node is not an object node");
        else snprintf(why, sizeof why, "%s", d.msg);
        where = root ? 0 : d.errpos;
        goto fail;
    }
    dv = jd_member(&d, root, "data_version");
    if (!dv) {
        snprintf(why, sizeof why, "Deserialized node does not have data_version field");
        goto fail;
    }
    /* JsonNode.shortValue(): a number cast to short; 0 for any other node */
    int64_t ver = d.v[dv].kind == J_NUM && d.v[dv].integral ? (int16_t)d.v[dv].i : 0;
    out->data_version = (int16_t)ver;
    where = d.v[dv].pos;
    if (ver < 0 || ver > 1) {
        snprintf(why, sizeof why, "data_version (%d) is not within the min (0) and max (1) supported version",
                 (int)ver);
        goto fail;
    }
    /* QuorumStateDataJsonConverter.read: each field of the message, mandatory in the versions it has */
    static const struct {
        const char *name;
        int v_lo, v_hi; /* versions holding it */
    } fields[] = {{"clusterId", 0, 0},        {"leaderId", 0, 1},      {"leaderEpoch", 0, 1},  {"votedId", 0, 1},
                  {"votedDirectoryId", 1, 1}, {"appliedOffset", 0, 0}, {"currentVoters", 0, 0}};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        uint32_t x = jd_member(&d, root, fields[f].name);
        if (!x) {
            if (ver >= fields[f].v_lo && ver <= fields[f].v_hi) {
                snprintf(why, sizeof why,
                         "QuorumStateData: unable to locate field '%s', which is mandatory in version %d",
                         fields[f].name, (int)ver);
                goto fail;
            }
            continue; /* the default */
        }
        where = d.v[x].pos;
        int64_t v;
        switch (f) {
        case 0:
            if (d.v[x].kind != J_STR) {
                snprintf(why, sizeof why, "QuorumStateData expected a string type, but got %s",
                         jd_type_name(d.v[x].kind));
                goto fail;
            }
            out->cluster_id = malloc(d.v[x].n + 1);
            if (!out->cluster_id) goto nomem;
            memcpy(out->cluster_id, d.v[x].s, d.v[x].n + 1);
            break;
        case 1:
        case 2:
        case 3:
            if (!q_int(&d, x, INT32_MIN, INT32_MAX, &v, why, sizeof why)) goto fail;
            if (f == 1) out->leader_id = (int32_t)v;
            else if (f == 2) out->leader_epoch = (int32_t)v;
            else out->voted_id = (int32_t)v;
            break;
        case 4: {
            char m[200];
            if (d.v[x].kind != J_STR) {
                snprintf(why, sizeof why, "QuorumStateData expected a JSON string type, but got %s",
                         jd_type_name(d.v[x].kind));
                goto fail;
            }
            if (!ft_uuid_from_string(d.v[x].s, d.v[x].n, out->voted_directory_id, m, sizeof m)) {
                snprintf(why, sizeof why, "%s", m);
                goto fail;
            }
            out->has_voted_directory_id = true;
            break;
        }
        case 5:
            if (!q_int(&d, x, INT64_MIN, INT64_MAX, &v, why, sizeof why)) goto fail;
            out->applied_offset = v;
            break;
        default:
            if (d.v[x].kind == J_NULL) {
                out->voters_null = true;
                break;
            }
            if (d.v[x].kind != J_ARR) {
                snprintf(why, sizeof why, "QuorumStateData expected a JSON array, but got %s",
                         jd_type_name(d.v[x].kind));
                goto fail;
            }
            size_t cnt = 0;
            for (uint32_t c = d.v[x].first; c; c = d.v[c].next) cnt++;
            out->voters = calloc(cnt ? cnt : 1, sizeof *out->voters);
            if (!out->voters) goto nomem;
            for (uint32_t c = d.v[x].first; c; c = d.v[c].next) {
                where = d.v[c].pos;
                uint32_t id = d.v[c].kind == J_OBJ ? jd_member(&d, c, "voterId") : 0;
                if (d.v[c].kind != J_OBJ) {
                    snprintf(why, sizeof why, "Voter expected a JSON object, but got %s", jd_type_name(d.v[c].kind));
                    goto fail;
                }
                if (!id) {
                    snprintf(why, sizeof why,
                             "Voter: unable to locate field 'voterId', which is mandatory in version %d", (int)ver);
                    goto fail;
                }
                if (!q_int(&d, id, INT32_MIN, INT32_MAX, &v, why, sizeof why)) goto fail;
                out->voters[out->nvoters++] = (int32_t)v;
            }
            break;
        }
    }
    jd_free(&d);
    return SS_E_OK;
nomem:
    jd_free(&d);
    ss_quorum_state_free(out);
    ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    return SS_E_NOMEM;
fail:
    jd_free(&d);
    ss_quorum_state_free(out);
    ss_error_set(err, SS_E_BAD_CHECKPOINT, where, -1, "Error while reading the Quorum status from the file %s: %s", loc,
                 why);
    return SS_E_BAD_CHECKPOINT;
}

/* ---- .kafka_cleanshutdown ------------------------------------------------------------- */

ss_errkind ss_clean_shutdown_parse(const char *text, size_t len, const char *display_path, ss_clean_shutdown *out,
                                   ss_error *err) {
    memset(out, 0, sizeof *out);
    if (!text) text = "", len = 0;
    const char *loc = display_path ? display_path : "?";
    if (len == 0) {
        out->empty = true;
        return SS_E_OK;
    }
    size_t bad = ft_utf8_check((const unsigned char *)text, len);
    if (bad != len) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, bad, -1, "%s: malformed input at byte %zu: not UTF-8", loc, bad);
        return SS_E_BAD_CHECKPOINT;
    }
    jdoc d;
    char why[240] = "";
    uint64_t where = 0;
    uint32_t root = jd_parse(&d, text, len);
    if (!root || d.v[root].kind != J_OBJ) {
        if (root || !d.msg[0]) snprintf(why, sizeof why, "not a JSON object");
        else snprintf(why, sizeof why, "%s", d.msg);
        where = root ? 0 : d.errpos;
        goto fail;
    }
    /* Json.parseStringAs(text, Content.class): int version, Long brokerEpoch, other members ignored */
    uint32_t v = jd_member(&d, root, "version"), e = jd_member(&d, root, "brokerEpoch");
    if (v) {
        where = d.v[v].pos;
        if (d.v[v].kind != J_NUM || !d.v[v].integral || d.v[v].i < INT32_MIN || d.v[v].i > INT32_MAX) {
            snprintf(why, sizeof why, "version is not an int");
            goto fail;
        }
        out->version = (int32_t)d.v[v].i;
    }
    if (e && d.v[e].kind != J_NULL) {
        where = d.v[e].pos;
        if (d.v[e].kind != J_NUM || !d.v[e].integral) {
            snprintf(why, sizeof why, "brokerEpoch is not a long");
            goto fail;
        }
        out->has_broker_epoch = true;
        out->broker_epoch = d.v[e].i;
    }
    jd_free(&d);
    return SS_E_OK;
fail:
    jd_free(&d);
    ss_error_set(err, SS_E_BAD_CHECKPOINT, where, -1,
                 "%s: %s (Kafka reads no broker epoch from it; the shutdown still counts as clean)", loc, why);
    return SS_E_BAD_CHECKPOINT;
}
