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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error_set.h"
#include "files/javatext.h"
#include "segscan/base.h"
#include "segscan/files.h"

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
        ss_error_set(err, SS_E_USAGE, 0, -1, "unknown checkpoint kind %d", (int)kind);
        return SS_E_USAGE;
    }
    if (!text) text = "", len = 0;
    const char *loc = display_path ? display_path : "?";
    size_t bad = ft_utf8_check((const unsigned char *)text, len);
    if (bad != len) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, bad, -1,
                     "Malformed input in checkpoint file [%s] at byte %zu: not UTF-8", loc, bad);
        return SS_E_BAD_CHECKPOINT;
    }
    ft_lines lr = {text, text, text + len};
    const char *s;
    size_t n;
    if (!ft_next_line(&lr, &s, &n)) {
        out->empty = true;
        return SS_E_OK;
    }
    if (!ft_parse_i32(s, n, &out->version)) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, 0, -1, "Malformed line in checkpoint file [%s]: " LINE_FMT, loc,
                     LINE_ARG(s, n));
        return SS_E_BAD_CHECKPOINT;
    }
    if (out->version != 0) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, 0, -1,
                     "Unrecognised version:%" PRId32 ", expected version: 0 in checkpoint file at: %s", out->version,
                     loc);
        return SS_E_BAD_CHECKPOINT;
    }
    uint64_t count_pos = (uint64_t)(lr.p - text);
    if (!ft_next_line(&lr, &s, &n)) {
        out->empty = true;
        return SS_E_OK;
    }
    if (!ft_parse_i32(s, n, &out->expected)) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, count_pos, -1, "Malformed line in checkpoint file [%s]: " LINE_FMT, loc,
                     LINE_ARG(s, n));
        return SS_E_BAD_CHECKPOINT;
    }
    if (out->expected < 0) {
        /* new ArrayList<>(expectedSize) */
        ss_error_set(err, SS_E_BAD_CHECKPOINT, count_pos, -1,
                     "Illegal Capacity: %" PRId32 " (entry count in checkpoint file [%s])", out->expected, loc);
        return SS_E_BAD_CHECKPOINT;
    }
    /* Size the arrays by the number of lines left. */
    size_t lines = 0;
    ft_lines probe = lr;
    while (ft_next_line(&probe, &s, &n)) lines++;
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
        if (!ft_next_line(&lr, &s, &n)) break;
        ft_field f[4];
        size_t nf = ft_split_spaces(s, n, f, 4);
        bool ok;
        if (kind == SS_CKPT_OFFSETS) {
            ss_ckpt_offset *e = &out->offsets[out->n];
            ok = nf == 3 && ft_parse_i32(f[1].s, f[1].n, &e->partition) && ft_parse_i64(f[2].s, f[2].n, &e->offset) &&
                 memchr(f[0].s, 0, f[0].n) == NULL;
            if (ok) {
                memcpy(out->strings + used, f[0].s, f[0].n);
                out->strings[used + f[0].n] = 0;
                e->topic = out->strings + used; /* the buffer never moves */
                used += f[0].n + 1;
            }
        } else {
            ss_epoch_entry *e = &out->epochs[out->n];
            ok = nf == 2 && ft_parse_i32(f[0].s, f[0].n, &e->epoch) && ft_parse_i64(f[1].s, f[1].n, &e->start_offset);
        }
        if (!ok) {
            ss_error_set(err, SS_E_BAD_CHECKPOINT, line_pos, -1, "Malformed line in checkpoint file [%s]: " LINE_FMT,
                         loc, LINE_ARG(s, n));
            ss_checkpoint_free(out);
            return SS_E_BAD_CHECKPOINT;
        }
        out->n++;
    }
    if (out->n != (size_t)out->expected) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, 0, -1,
                     "Expected [%" PRId32 "] entries in checkpoint file [%s], but found only [%zu]", out->expected, loc,
                     out->n);
        return SS_E_BAD_CHECKPOINT;
    }
    return SS_E_OK;
nomem:
    ss_checkpoint_free(out);
    ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
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
static bool split_colon(const char *s, size_t n, ft_field *key, ft_field *value) {
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] != ':' || !ft_java_space(s[i + 1])) continue;
        size_t j = i + 1;
        while (j < n && ft_java_space(s[j])) j++;
        key->s = s;
        key->n = i;
        value->s = s + j;
        value->n = n - j;
        return true;
    }
    return false;
}

ss_errkind ss_partition_metadata_parse(const char *text, size_t len, const char *display_path,
                                       ss_partition_metadata *out, ss_error *err) {
    memset(out, 0, sizeof *out);
    if (!text) text = "", len = 0;
    const char *loc = display_path ? display_path : "?";
    size_t bad = ft_utf8_check((const unsigned char *)text, len);
    if (bad != len) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, bad, -1,
                     "Malformed input in partition metadata file [%s] at byte %zu: not UTF-8", loc, bad);
        return SS_E_BAD_CHECKPOINT;
    }
    ft_lines lr = {text, text, text + len};
    const char *s;
    size_t n;
    ft_field key, value;
    if (!ft_next_line(&lr, &s, &n)) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, 0, -1, "Malformed line in partition metadata file [%s]: null", loc);
        return SS_E_BAD_CHECKPOINT;
    }
    if (!split_colon(s, n, &key, &value) || key.n != 7 || memcmp(key.s, "version", 7) != 0 ||
        !ft_parse_i32(value.s, value.n, &out->version)) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, 0, -1, "Malformed line in partition metadata file [%s]: " LINE_FMT, loc,
                     LINE_ARG(s, n));
        return SS_E_BAD_CHECKPOINT;
    }
    if (out->version < 0) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, 0, -1, "Unrecognized version of partition metadata file (%s): %" PRId32,
                     loc, out->version);
        return SS_E_BAD_CHECKPOINT;
    }
    uint64_t line2 = (uint64_t)(lr.p - text);
    if (!ft_next_line(&lr, &s, &n)) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, line2, -1, "Malformed line in partition metadata file [%s]: null", loc);
        return SS_E_BAD_CHECKPOINT;
    }
    uint8_t id[18];
    long got = -1;
    if (split_colon(s, n, &key, &value) && key.n == 8 && memcmp(key.s, "topic_id", 8) == 0 && value.n <= 24)
        got = ft_b64url_decode(value.s, value.n, id, sizeof id);
    if (got != 16) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, line2, -1, "Malformed line in partition metadata file [%s]: " LINE_FMT,
                     loc, LINE_ARG(s, n));
        return SS_E_BAD_CHECKPOINT;
    }
    memcpy(out->topic_id, id, 16);
    memcpy(out->topic_id_str, value.s, value.n);
    out->topic_id_str[value.n] = 0;
    static const uint8_t zero[16];
    if (!memcmp(out->topic_id, zero, 16)) {
        ss_error_set(err, SS_E_BAD_CHECKPOINT, line2, -1, "Invalid topic ID in partition metadata file (%s)", loc);
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
