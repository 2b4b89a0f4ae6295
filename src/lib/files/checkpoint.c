/* segscan - checkpoint text files of a log directory and of a partition.
 *
 * Offset checkpoints (recovery-point-offset-checkpoint,
 * replication-offset-checkpoint, log-start-offset-checkpoint,
 * cleaner-offset-checkpoint) and leader-epoch-checkpoint are read as Kafka's
 * CheckpointFile.CheckpointReadBuffer reads them:
 *
 *     <version>            Integer.parseInt, must be 0
 *     <count>              Integer.parseInt
 *     <entry>...           split on \s+; "topic partition offset" / "epoch startOffset"
 *
 * A file without a version line, or without a count line, is an empty list.
 * Every line after the count is an entry; their number must equal the count.
 * Lines end at \n, \r or \r\n (BufferedReader.readLine); the text must be UTF-8
 * (Files.newBufferedReader reports malformed input).
 *
 * partition.metadata is read as PartitionMetadataReadBuffer reads it:
 * "version: <int >= 0>" then "topic_id: <base64url UUID>", split on ":\s+".
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "segscan/base.h"
#include "segscan/files.h"

static void ck_err(ss_error *err, ss_errkind k, uint64_t pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void ck_err(ss_error *err, ss_errkind k, uint64_t pos, const char *fmt, ...) {
    if (!err) return;
    memset(err, 0, sizeof *err);
    err->kind = k;
    err->position = pos;
    err->base_offset = -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

/* ---- lines, fields, numbers as Java reads them ------------------------------------ */

typedef struct line_reader {
    const char *base, *p, *end;
} line_reader;

/* BufferedReader.readLine: false at the end of the text. */
static bool next_line(line_reader *lr, const char **s, size_t *n) {
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
static bool java_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\x0b' || c == '\f' || c == '\r'; }

typedef struct field {
    const char *s;
    size_t n;
} field;

/* String.split("\\s+") (limit 0): a leading separator gives a leading empty
 * field, trailing empty fields are dropped. Fills up to max fields, returns
 * how many there are in all. */
static size_t split_spaces(const char *s, size_t n, field *f, size_t max) {
    size_t count = 0, index = 0, i = 0, last_nonempty = 0;
    bool found = false;
    while (i < n) {
        if (!java_space(s[i])) {
            i++;
            continue;
        }
        size_t ms = i;
        while (i < n && java_space(s[i])) i++;
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
static bool parse_java_int(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *out) {
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

static bool parse_i32(const char *s, size_t n, int32_t *out) {
    int64_t v;
    if (!parse_java_int(s, n, INT32_MIN, INT32_MAX, &v)) return false;
    *out = (int32_t)v;
    return true;
}

static bool parse_i64(const char *s, size_t n, int64_t *out) { return parse_java_int(s, n, INT64_MIN, INT64_MAX, out); }

/* Strict UTF-8 (what Java's decoder accepts): returns the offset of the first
 * malformed sequence, or len when the text is valid. */
static size_t utf8_check(const unsigned char *s, size_t len) {
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

/* A line quoted in a message: at most 80 bytes of it. */
#define LINE_FMT "%.*s"
#define LINE_ARG(s, n) (int)((n) > 80 ? 80 : (n)), (s)

/* ---- checkpoint files ---------------------------------------------------------------- */

bool ss_checkpoint_kind_for_name(const char *path, ss_checkpoint_kind *kind) {
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    static const char *const offsets[] = {"recovery-point-offset-checkpoint", "replication-offset-checkpoint",
                                          "log-start-offset-checkpoint", "cleaner-offset-checkpoint"};
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++)
        if (!strcmp(name, offsets[i])) {
            *kind = SS_CKPT_OFFSETS;
            return true;
        }
    if (!strcmp(name, "leader-epoch-checkpoint")) {
        *kind = SS_CKPT_LEADER_EPOCH;
        return true;
    }
    return false;
}

void ss_checkpoint_free(ss_checkpoint *c) {
    if (!c) return;
    free(c->offsets);
    free(c->epochs);
    free(c->strings);
    c->offsets = NULL;
    c->epochs = NULL;
    c->strings = NULL;
    c->n = 0;
}

ss_errkind ss_checkpoint_parse(const char *text, size_t len, ss_checkpoint_kind kind, const char *display_path,
                               ss_checkpoint *out, ss_error *err) {
    memset(out, 0, sizeof *out);
    out->kind = kind;
    if (kind != SS_CKPT_OFFSETS && kind != SS_CKPT_LEADER_EPOCH) {
        ck_err(err, SS_E_USAGE, 0, "unknown checkpoint kind %d", (int)kind);
        return SS_E_USAGE;
    }
    if (!text) text = "", len = 0;
    const char *loc = display_path ? display_path : "?";
    size_t bad = utf8_check((const unsigned char *)text, len);
    if (bad != len) {
        ck_err(err, SS_E_BAD_CHECKPOINT, bad, "Malformed input in checkpoint file [%s] at byte %zu: not UTF-8", loc,
               bad);
        return SS_E_BAD_CHECKPOINT;
    }
    line_reader lr = {text, text, text + len};
    const char *s;
    size_t n;
    if (!next_line(&lr, &s, &n)) {
        out->empty = true;
        return SS_E_OK;
    }
    if (!parse_i32(s, n, &out->version)) {
        ck_err(err, SS_E_BAD_CHECKPOINT, 0, "Malformed line in checkpoint file [%s]: " LINE_FMT, loc, LINE_ARG(s, n));
        return SS_E_BAD_CHECKPOINT;
    }
    if (out->version != 0) {
        ck_err(err, SS_E_BAD_CHECKPOINT, 0,
               "Unrecognised version:%" PRId32 ", expected version: 0 in checkpoint file at: %s", out->version, loc);
        return SS_E_BAD_CHECKPOINT;
    }
    uint64_t count_pos = (uint64_t)(lr.p - text);
    if (!next_line(&lr, &s, &n)) {
        out->empty = true;
        return SS_E_OK;
    }
    if (!parse_i32(s, n, &out->expected)) {
        ck_err(err, SS_E_BAD_CHECKPOINT, count_pos, "Malformed line in checkpoint file [%s]: " LINE_FMT, loc,
               LINE_ARG(s, n));
        return SS_E_BAD_CHECKPOINT;
    }
    if (out->expected < 0) {
        /* new ArrayList<>(expectedSize) */
        ck_err(err, SS_E_BAD_CHECKPOINT, count_pos,
               "Illegal Capacity: %" PRId32 " (entry count in checkpoint file [%s])", out->expected, loc);
        return SS_E_BAD_CHECKPOINT;
    }
    /* Size the arrays by the number of lines left. */
    size_t lines = 0;
    line_reader probe = lr;
    while (next_line(&probe, &s, &n)) lines++;
    if (lines) {
        if (kind == SS_CKPT_OFFSETS) {
            out->offsets = calloc(lines, sizeof *out->offsets);
            out->strings = malloc(len + 1);
            if (!out->offsets || !out->strings) goto nomem;
        } else {
            out->epochs = calloc(lines, sizeof *out->epochs);
            if (!out->epochs) goto nomem;
        }
    }
    size_t used = 0;
    while (true) {
        uint64_t line_pos = (uint64_t)(lr.p - text);
        if (!next_line(&lr, &s, &n)) break;
        field f[4];
        size_t nf = split_spaces(s, n, f, 4);
        bool ok;
        if (kind == SS_CKPT_OFFSETS) {
            ss_ckpt_offset *e = &out->offsets[out->n];
            ok = nf == 3 && parse_i32(f[1].s, f[1].n, &e->partition) && parse_i64(f[2].s, f[2].n, &e->offset) &&
                 memchr(f[0].s, 0, f[0].n) == NULL;
            if (ok) {
                memcpy(out->strings + used, f[0].s, f[0].n);
                out->strings[used + f[0].n] = 0;
                e->topic = out->strings + used; /* the buffer never moves */
                used += f[0].n + 1;
            }
        } else {
            ss_epoch_entry *e = &out->epochs[out->n];
            ok = nf == 2 && parse_i32(f[0].s, f[0].n, &e->epoch) && parse_i64(f[1].s, f[1].n, &e->start_offset);
        }
        if (!ok) {
            ck_err(err, SS_E_BAD_CHECKPOINT, line_pos, "Malformed line in checkpoint file [%s]: " LINE_FMT, loc,
                   LINE_ARG(s, n));
            ss_checkpoint_free(out);
            return SS_E_BAD_CHECKPOINT;
        }
        out->n++;
    }
    if (out->n != (size_t)out->expected) {
        ck_err(err, SS_E_BAD_CHECKPOINT, 0,
               "Expected [%" PRId32 "] entries in checkpoint file [%s], but found only [%zu]", out->expected, loc,
               out->n);
        return SS_E_BAD_CHECKPOINT;
    }
    return SS_E_OK;
nomem:
    ss_checkpoint_free(out);
    ck_err(err, SS_E_NOMEM, 0, "out of memory");
    return SS_E_NOMEM;
}

/* Map a whole (small) text file read-only. */
static ss_errkind with_file(const char *path, ss_error *err, const char **text, size_t *len, ss_segment **seg) {
    ss_errkind k = ss_segment_open(path, seg, err);
    if (k != SS_E_OK) return k;
    *text = (const char *)ss_segment_data(*seg);
    *len = (size_t)ss_segment_size(*seg);
    return SS_E_OK;
}

ss_errkind ss_checkpoint_read(const char *path, ss_checkpoint_kind kind, ss_checkpoint *out, ss_error *err) {
    memset(out, 0, sizeof *out);
    ss_segment *seg = NULL;
    const char *text;
    size_t len;
    ss_errkind k = with_file(path, err, &text, &len, &seg);
    if (k != SS_E_OK) return k;
    char *abs = ss_java_absolute_path(path);
    k = ss_checkpoint_parse(text, len, kind, abs ? abs : path, out, err);
    free(abs);
    ss_segment_close(seg);
    return k;
}

/* ---- partition.metadata ----------------------------------------------------------- */

/* Pattern.compile(":\\s+").split(line, 2): key and value around the first
 * ':' followed by whitespace. false when there is no such separator. */
static bool split_colon(const char *s, size_t n, field *key, field *value) {
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] != ':' || !java_space(s[i + 1])) continue;
        size_t j = i + 1;
        while (j < n && java_space(s[j])) j++;
        key->s = s;
        key->n = i;
        value->s = s + j;
        value->n = n - j;
        return true;
    }
    return false;
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
static long b64url_decode(const char *s, size_t n, uint8_t *out, size_t cap) {
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

ss_errkind ss_partition_metadata_parse(const char *text, size_t len, const char *display_path,
                                       ss_partition_metadata *out, ss_error *err) {
    memset(out, 0, sizeof *out);
    if (!text) text = "", len = 0;
    const char *loc = display_path ? display_path : "?";
    size_t bad = utf8_check((const unsigned char *)text, len);
    if (bad != len) {
        ck_err(err, SS_E_BAD_CHECKPOINT, bad, "Malformed input in partition metadata file [%s] at byte %zu: not UTF-8",
               loc, bad);
        return SS_E_BAD_CHECKPOINT;
    }
    line_reader lr = {text, text, text + len};
    const char *s;
    size_t n;
    field key, value;
    if (!next_line(&lr, &s, &n)) {
        ck_err(err, SS_E_BAD_CHECKPOINT, 0, "Malformed line in partition metadata file [%s]: null", loc);
        return SS_E_BAD_CHECKPOINT;
    }
    if (!split_colon(s, n, &key, &value) || key.n != 7 || memcmp(key.s, "version", 7) != 0 ||
        !parse_i32(value.s, value.n, &out->version)) {
        ck_err(err, SS_E_BAD_CHECKPOINT, 0, "Malformed line in partition metadata file [%s]: " LINE_FMT, loc,
               LINE_ARG(s, n));
        return SS_E_BAD_CHECKPOINT;
    }
    if (out->version < 0) {
        ck_err(err, SS_E_BAD_CHECKPOINT, 0, "Unrecognized version of partition metadata file (%s): %" PRId32, loc,
               out->version);
        return SS_E_BAD_CHECKPOINT;
    }
    uint64_t line2 = (uint64_t)(lr.p - text);
    if (!next_line(&lr, &s, &n)) {
        ck_err(err, SS_E_BAD_CHECKPOINT, line2, "Malformed line in partition metadata file [%s]: null", loc);
        return SS_E_BAD_CHECKPOINT;
    }
    uint8_t id[18];
    long got = -1;
    if (split_colon(s, n, &key, &value) && key.n == 8 && memcmp(key.s, "topic_id", 8) == 0 && value.n <= 24)
        got = b64url_decode(value.s, value.n, id, sizeof id);
    if (got != 16) {
        ck_err(err, SS_E_BAD_CHECKPOINT, line2, "Malformed line in partition metadata file [%s]: " LINE_FMT, loc,
               LINE_ARG(s, n));
        return SS_E_BAD_CHECKPOINT;
    }
    memcpy(out->topic_id, id, 16);
    memcpy(out->topic_id_str, value.s, value.n);
    out->topic_id_str[value.n] = 0;
    static const uint8_t zero[16];
    if (!memcmp(out->topic_id, zero, 16)) {
        ck_err(err, SS_E_BAD_CHECKPOINT, line2, "Invalid topic ID in partition metadata file (%s)", loc);
        return SS_E_BAD_CHECKPOINT;
    }
    return SS_E_OK;
}

ss_errkind ss_partition_metadata_read(const char *path, ss_partition_metadata *out, ss_error *err) {
    memset(out, 0, sizeof *out);
    ss_segment *seg = NULL;
    const char *text;
    size_t len;
    ss_errkind k = with_file(path, err, &text, &len, &seg);
    if (k != SS_E_OK) return k;
    char *abs = ss_java_absolute_path(path);
    k = ss_partition_metadata_parse(text, len, abs ? abs : path, out, err);
    free(abs);
    ss_segment_close(seg);
    return k;
}
