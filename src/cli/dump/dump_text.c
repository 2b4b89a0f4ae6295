/* segscan dump - the text files of a log directory and of its partition
 * directories: leader-epoch-checkpoint, partition.metadata, quorum-state,
 * recovery-point-offset-checkpoint, replication-offset-checkpoint,
 * log-start-offset-checkpoint, cleaner-offset-checkpoint, meta.properties,
 * .kafka_cleanshutdown.
 *
 * kafka-dump-log.sh has no dumper for them (it prints "Ignoring unknown
 * file"); segscan prints their entries as Kafka's readers read them (the
 * files room reads and checks, this file prints) and runs the checks verify
 * runs on them: a failed check exits 1, a file Kafka's reader refuses exits 3,
 * one that cannot be read 2. Text: the entries on stdout, the findings on
 * stderr ("segscan: FILE: byte P: SEVERITY CHECK: message"); --json: one
 * textfile object, then a finding object per finding (or one error object).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "dump/dump.h"
#include "segscan/decode.h"
#include "segscan/files.h"

static char *parent_dir(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (slash && n == 0) n = 1; /* "/x": the root */
    char *d = malloc(n ? n + 1 : 2);
    if (!d) return NULL;
    if (n) memcpy(d, path, n);
    else d[n++] = '.';
    d[n] = 0;
    return d;
}

typedef struct tctx {
    ss_out *o;
    const char *path;
    bool json;
} tctx;

static void on_finding(void *arg, const ss_text_finding *f) {
    tctx *t = arg;
    ss_out *o = t->o;
    /* verify's words: a failed check is an inconsistency, a notice information */
    const char *level = f->problem.severity == SS_SEV_NOTICE ? "info" : "inconsistency";
    if (t->json) {
        dump_json_head(o, "finding", t->path);
        out_json_key(o, "check");
        out_json_cstr(o, f->check);
        out_json_key(o, "severity");
        out_json_cstr(o, level);
        out_kv_u64(o, "position", f->problem.position);
        out_kv_opt(o, "offset", f->offset);
        out_json_key(o, "message");
        out_json_cstr(o, f->problem.msg);
        out_str(o, "}\n");
        return;
    }
    out_flush(o);
    if (f->offset >= 0)
        warnx_("%s: byte %" PRIu64 " (offset %" PRId64 "): %s %s: %s", t->path, f->problem.position, f->offset, level,
               f->check, f->problem.msg);
    else warnx_("%s: byte %" PRIu64 ": %s %s: %s", t->path, f->problem.position, level, f->check, f->problem.msg);
}

/* ---- text ---------------------------------------------------------------------------------- */

static void text_uuid(ss_out *o, const uint8_t id[16]) {
    char s[23];
    ss_uuid_string(id, s);
    out_str(o, s);
}

static void text_entries(ss_out *o, const ss_textfile *f) {
    const char *name = ss_text_kind_name(f->kind);
    const ss_checkpoint *c = &f->ckpt;
    switch (f->kind) {
    case SS_TEXT_PARTITION_METADATA:
        out_printf(o, "%s version: %" PRId32 " topicId: ", name, f->pm.version);
        out_text_cstr(o, f->pm.topic_id_str);
        out_ch(o, '\n');
        return;
    case SS_TEXT_META_PROPERTIES: {
        const ss_meta_properties *m = &f->meta;
        if (f->empty) out_printf(o, "%s: empty file (Kafka reads it as version 0 without ids)\n", name);
        /* MetaProperties.toString() */
        out_printf(o, "MetaProperties(version=%" PRId32, m->version);
        if (m->cluster_id) {
            out_str(o, ", clusterId=");
            out_text_cstr(o, m->cluster_id);
        }
        if (m->has_node_id) out_printf(o, ", nodeId=%" PRId32, m->node_id);
        if (m->has_directory_id) {
            out_str(o, ", directoryId=");
            text_uuid(o, m->directory_id);
        }
        out_str(o, ")\n");
        for (size_t i = 0; i < m->nprops; i++) {
            out_str(o, "property: ");
            out_text_cstr(o, m->props[i].key);
            out_ch(o, '=');
            out_text_cstr(o, m->props[i].value);
            out_ch(o, '\n');
        }
        return;
    }
    case SS_TEXT_QUORUM_STATE: {
        const ss_quorum_state *q = &f->quorum;
        out_printf(o, "%s data_version: %d leaderId: %" PRId32 " leaderEpoch: %" PRId32 " votedId: %" PRId32, name,
                   q->data_version, q->leader_id, q->leader_epoch, q->voted_id);
        if (q->has_voted_directory_id) {
            out_str(o, " votedDirectoryId: ");
            text_uuid(o, q->voted_directory_id);
        }
        if (q->cluster_id) {
            out_str(o, " clusterId: \"");
            out_text_escaped(o, (const uint8_t *)q->cluster_id, strlen(q->cluster_id), true);
            out_ch(o, '"');
        }
        if (q->data_version == 0) {
            out_printf(o, " appliedOffset: %" PRId64 " currentVoters: ", q->applied_offset);
            if (q->voters_null) out_str(o, "null");
            else {
                out_ch(o, '[');
                for (size_t i = 0; i < q->nvoters; i++) out_printf(o, "%s%" PRId32, i ? "," : "", q->voters[i]);
                out_ch(o, ']');
            }
        }
        out_ch(o, '\n');
        return;
    }
    case SS_TEXT_CLEAN_SHUTDOWN:
        if (f->shutdown.empty)
            out_printf(o,
                       "%s: empty file (a clean shutdown without the broker epoch, as brokers wrote it before "
                       "KIP-966)\n",
                       name);
        else {
            out_printf(o, "%s version: %" PRId32 " brokerEpoch: ", name, f->shutdown.version);
            if (f->shutdown.has_broker_epoch) out_i64(o, f->shutdown.broker_epoch);
            else out_str(o, "null");
            out_ch(o, '\n');
        }
        return;
    default: break;
    }
    /* the checkpoints */
    if (f->empty) {
        if (f->size == 0) out_printf(o, "%s: empty file (Kafka reads no entries)\n", name);
        else if (c->version == 0 && f->size > 0)
            out_printf(o, "%s version: 0, no entry count (Kafka reads no entries)\n", name);
        return;
    }
    out_printf(o, "%s version: %" PRId32 " entries: %" PRId32 "\n", name, c->version, c->expected);
    for (size_t i = 0; i < c->n; i++) {
        if (f->kind == SS_TEXT_LEADER_EPOCH) {
            out_printf(o, "epoch: %" PRId32 " startOffset: %" PRId64 "\n", c->epochs[i].epoch,
                       c->epochs[i].start_offset);
        } else {
            out_str(o, "topic: ");
            out_text_cstr(o, c->offsets[i].topic);
            out_printf(o, " partition: %" PRId32 " offset: %" PRId64 "\n", c->offsets[i].partition,
                       c->offsets[i].offset);
        }
    }
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static void json_uuid(ss_out *o, const char *k, bool has, const uint8_t id[16]) {
    out_json_key(o, k);
    if (!has) {
        out_str(o, "null");
        return;
    }
    char s[23];
    ss_uuid_string(id, s);
    out_json_cstr(o, s);
}

static void json_text(ss_out *o, const char *k, const char *s) {
    out_json_key(o, k);
    if (s) out_json_utf8(o, (const uint8_t *)s, strlen(s));
    else out_str(o, "null");
}

static void json_textfile(ss_out *o, const char *path, const ss_textfile *f) {
    dump_json_head(o, "textfile", path);
    out_json_key(o, "kind");
    out_json_cstr(o, ss_text_kind_name(f->kind));
    out_kv_u64(o, "size", f->size);
    out_kv_bool(o, "empty", f->empty);
    const ss_checkpoint *c = &f->ckpt;
    switch (f->kind) {
    case SS_TEXT_PARTITION_METADATA:
        out_json_key(o, "version");
        out_i64(o, f->pm.version);
        json_text(o, "topicId", f->pm.topic_id_str);
        break;
    case SS_TEXT_META_PROPERTIES: {
        const ss_meta_properties *m = &f->meta;
        out_json_key(o, "version");
        out_i64(o, m->version);
        out_json_key(o, "nodeId");
        if (m->has_node_id) out_i64(o, m->node_id);
        else out_str(o, "null");
        json_text(o, "clusterId", m->cluster_id);
        json_uuid(o, "directoryId", m->has_directory_id, m->directory_id);
        out_str(o, ",\"properties\":[");
        for (size_t i = 0; i < m->nprops; i++) {
            out_str(o, i ? ",{" : "{");
            out_str(o, "\"key\":");
            out_json_utf8(o, (const uint8_t *)m->props[i].key, strlen(m->props[i].key));
            json_text(o, "value", m->props[i].value);
            out_kv_u64(o, "position", m->props[i].position);
            out_ch(o, '}');
        }
        out_ch(o, ']');
        break;
    }
    case SS_TEXT_QUORUM_STATE: {
        const ss_quorum_state *q = &f->quorum;
        out_json_key(o, "dataVersion");
        out_i64(o, q->data_version);
        out_json_key(o, "leaderId");
        out_i64(o, q->leader_id);
        out_json_key(o, "leaderEpoch");
        out_i64(o, q->leader_epoch);
        out_json_key(o, "votedId");
        out_i64(o, q->voted_id);
        json_uuid(o, "votedDirectoryId", q->has_voted_directory_id, q->voted_directory_id);
        json_text(o, "clusterId", q->cluster_id);
        out_json_key(o, "appliedOffset");
        if (q->data_version == 0) out_i64(o, q->applied_offset);
        else out_str(o, "null");
        out_json_key(o, "currentVoters");
        if (q->data_version != 0 || q->voters_null) out_str(o, "null");
        else {
            out_ch(o, '[');
            for (size_t i = 0; i < q->nvoters; i++) out_printf(o, "%s%" PRId32, i ? "," : "", q->voters[i]);
            out_ch(o, ']');
        }
        break;
    }
    case SS_TEXT_CLEAN_SHUTDOWN:
        out_json_key(o, "version");
        if (f->shutdown.empty) out_str(o, "null");
        else out_i64(o, f->shutdown.version);
        out_json_key(o, "brokerEpoch");
        if (f->shutdown.has_broker_epoch) out_i64(o, f->shutdown.broker_epoch);
        else out_str(o, "null");
        break;
    default:
        out_json_key(o, "version");
        if (f->size) out_i64(o, c->version);
        else out_str(o, "null");
        out_json_key(o, "count");
        if (!f->empty) out_i64(o, c->expected);
        else out_str(o, "null");
        out_str(o, ",\"entries\":[");
        for (size_t i = 0; i < c->n; i++) {
            out_str(o, i ? ",{" : "{");
            if (f->kind == SS_TEXT_LEADER_EPOCH) {
                out_printf(o, "\"epoch\":%" PRId32 ",\"startOffset\":%" PRId64, c->epochs[i].epoch,
                           c->epochs[i].start_offset);
            } else {
                out_str(o, "\"topic\":");
                out_json_utf8(o, (const uint8_t *)c->offsets[i].topic, strlen(c->offsets[i].topic));
                out_printf(o, ",\"partition\":%" PRId32 ",\"offset\":%" PRId64, c->offsets[i].partition,
                           c->offsets[i].offset);
            }
            out_kv_u64(o, "position", f->line_pos ? f->line_pos[i] : 0);
            out_ch(o, '}');
        }
        out_ch(o, ']');
        break;
    }
    out_str(o, "}\n");
}

static void json_error(ss_out *o, const char *path, const ss_error *e) {
    dump_json_head(o, "error", path);
    out_json_key(o, "kind");
    out_json_cstr(o, ss_errkind_name(e->kind));
    out_kv_u64(o, "position", e->position);
    out_json_key(o, "message");
    out_json_cstr(o, e->msg);
    out_str(o, "}\n");
}

/* ---- one file ------------------------------------------------------------------------------- */

bool dump_is_text_file(const char *path) { return ss_text_kind_of(path) != SS_TEXT_NONE; }

int dump_text_file(const char *path, const struct dump_opts *opt, ss_out *o) {
    ss_textfile f;
    ss_error err;
    ss_errkind k = ss_textfile_read(path, SS_TEXT_NONE, &f, &err);
    if (k != SS_E_OK) {
        if (opt->json) json_error(o, path, &err);
        else {
            out_flush(o);
            if (k == SS_E_BAD_CHECKPOINT) report_error(path, &err);
            else warnx_("%s: %s", path, err.msg);
        }
        ss_textfile_free(&f);
        return k == SS_E_BAD_CHECKPOINT ? EXIT_DAMAGE : EXIT_TROUBLE;
    }
    if (opt->json) json_textfile(o, path, &f);
    else text_entries(o, &f);
    /* the checks, against the logs segscan can see: the file's own partition
     * directory, or the partition directories beside a log directory's file */
    char *dir = parent_dir(path);
    ss_log_span own;
    bool have_own = false;
    ss_log_dir_spans *spans = NULL;
    if (dir) {
        if (ss_text_kind_in_log_dir(f.kind)) spans = ss_log_dir_spans_new(dir);
        else have_own = ss_log_span_read(dir, &own);
    }
    tctx t = {o, path, opt->json};
    size_t failed =
        ss_textfile_check(&f, have_own ? &own : NULL, spans ? ss_log_dir_span : NULL, spans, on_finding, &t);
    ss_log_dir_spans_free(spans);
    free(dir);
    ss_textfile_free(&f);
    return failed ? EXIT_FINDINGS : EXIT_OK;
}
