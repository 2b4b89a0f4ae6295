/* segscan - records to a Parquet file, a row each (segscan/exports.h).
 *
 * Each partition is walked with the partition cursor as every reader of a log
 * is (inputs/cursor.h), its records written as rows through the parquet
 * room's writer, which streams a row group out every SS_EXPORT_ROWS_PER_GROUP
 * rows: memory holds one row group, whatever the size of the input. Nothing
 * is allocated per record.
 *
 * The column names are those Kafka Connect's and Spark's Kafka source use for
 * the same fields (topic, partition, offset, timestamp, timestampType), and
 * Kafka's RecordBatch names for the batch's fields. A batch whose CRC does not
 * match gives no rows: its bytes are not what the producer sent, and the
 * damage is in the file's metadata and the problems.
 *
 * The fingerprints: valueFingerprint is the analysis's XXH3-128 of the value
 * (analysis/fingerprint.h, the `fingerprint` of `dups --json`) as 16 bytes in
 * the order of its 32 hex digits (the high 64 bits big-endian, then the low);
 * keyFingerprint is the high 64 bits of the XXH3-128 of the key (the first 16
 * hex digits of the `--by key` fingerprint), as a signed 64-bit integer. A
 * null key or value has none; a control record has none (a marker is not a
 * message: two COMMIT markers of one coordinator epoch hold the same bytes).
 */
#include "segscan/exports.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fingerprint.h"
#include "base/error_set.h"
#include "base/javaint.h"
#include "inputs/cursor.h"
#include "parquet/export_schema.h"
#include "parquet/thrift.h"
#include "parquet/writer.h"
#include "segscan/base.h"
#include "segscan/files.h"
#include "segscan/parquet.h"

size_t ss_export_column_count(void) { return C_COUNT; }
const char *ss_export_column_name(size_t i) { return i < C_COUNT ? ss_export_columns[i].name : NULL; }

struct ss_export {
    ss_export_stats st;
    ss_problems problems;
};

ss_export *ss_export_new(void) { return calloc(1, sizeof(ss_export)); }

void ss_export_free(ss_export *x) {
    if (!x) return;
    ss_problems_free(&x->problems);
    free(x);
}

const ss_export_stats *ss_export_stats_get(const ss_export *x) { return &x->st; }
const ss_problems *ss_export_problems(const ss_export *x) { return &x->problems; }

/* ---- the metadata's JSON --------------------------------------------------------------- */

static void json_str(ss_pqbuf *b, const char *s) {
    ss_pqbuf_byte(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            ss_pqbuf_byte(b, '\\');
            ss_pqbuf_byte(b, *p);
        } else if (*p < 0x20) {
            char e[8];
            snprintf(e, sizeof e, "\\u%04x", *p);
            ss_pqbuf_put(b, e, 6);
        } else {
            ss_pqbuf_byte(b, *p);
        }
    }
    ss_pqbuf_byte(b, '"');
}

static void json_lit(ss_pqbuf *b, const char *s) { ss_pqbuf_put(b, s, strlen(s)); }

static void json_i64(ss_pqbuf *b, int64_t v) {
    char t[24];
    int n = snprintf(t, sizeof t, "%" PRId64, v);
    ss_pqbuf_put(b, t, (size_t)n);
}

static void json_opt_i64(ss_pqbuf *b, int64_t v) {
    if (v < 0) json_lit(b, "null");
    else json_i64(b, v);
}

/* ---- a partition ----------------------------------------------------------------------- */

/* The log directory's meta.properties (KRaft's MetaProperties: node.id, cluster.id): the
 * directory holding a partition directory (a segment file's, two levels up). */
static void broker_of(const ss_input_partition *p, ss_textfile *tf, bool *read) {
    *read = false;
    if (!strcmp(p->path, "-")) return;
    char *dir = strdup(p->path);
    if (!dir) return;
    for (int up = p->is_dir ? 1 : 2; up > 0; up--) {
        char *slash = strrchr(dir, '/');
        if (slash == dir) slash[1] = '\0';
        else if (slash) *slash = '\0';
        else strcpy(dir, ".");
    }
    char *path = ss_path_join(dir, "meta.properties");
    free(dir);
    if (!path) return;
    ss_error e;
    memset(tf, 0, sizeof *tf);
    if (ss_textfile_read(path, SS_TEXT_META_PROPERTIES, tf, &e) == SS_E_OK) *read = true;
    else ss_textfile_free(tf);
    free(path);
}

typedef struct part_state {
    int64_t first, end; /* offsets seen: the first, and the one after the last */
    uint64_t rows, damage;
} part_state;

/* What the whole file says of its brokers: one node.id and one cluster.id when every
 * partition's log directory agrees. */
typedef struct file_ids {
    int64_t node;     /* -1 none yet, -2 several or a partition without one */
    ss_pqbuf cluster; /* empty: none yet */
    bool clusters_differ, cluster_missing;
} file_ids;

static void damage(ss_export *x, part_state *ps, ss_pqbuf *dj, const char *file, const ss_error *e) {
    ps->damage++;
    x->st.damage++;
    ss_error *p =
        ss_problems_add(&x->problems, SS_SEV_WARNING, e->kind, "%s: byte %" PRIu64 ": %s", file, e->position, e->msg);
    if (p) {
        p->position = e->position;
        p->base_offset = e->base_offset;
        p->length = e->length;
    }
    if (dj->n > 1) ss_pqbuf_byte(dj, ',');
    json_lit(dj, "{\"file\":");
    json_str(dj, file);
    json_lit(dj, ",\"position\":");
    json_i64(dj, (int64_t)e->position);
    json_lit(dj, ",\"kind\":");
    json_str(dj, ss_errkind_name(e->kind));
    json_lit(dj, ",\"reason\":");
    json_str(dj, e->msg);
    ss_pqbuf_byte(dj, '}');
}

static void put_be64(uint8_t *p, uint64_t v) {
    for (int i = 7; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

/* What is the same on every row of a partition. */
typedef struct row_fixed {
    const char *topic;
    uint32_t topic_len;
    int32_t partition, broker, source; /* partition, broker: -1 null */
    bool internal;
} row_fixed;

static inline void put_str(ss_pq_writer *w, size_t col, const char *s) {
    if (s) ss_pqw_bytes(w, col, s, (uint32_t)strlen(s));
    else ss_pqw_null(w, col);
}

static inline void put_opt_i32(ss_pq_writer *w, size_t col, int32_t v) {
    if (v >= 0) ss_pqw_i32(w, col, v);
    else ss_pqw_null(w, col);
}

static ss_errkind row(ss_pq_writer *w, const row_fixed *f, const ss_batch *b, const ss_record *r, XXH3_state_t *st,
                      ss_error *err) {
    ss_pqw_bytes(w, C_TOPIC, f->topic, f->topic_len);
    put_opt_i32(w, C_PARTITION, f->partition);
    ss_pqw_i64(w, C_OFFSET, r->offset);
    ss_pqw_i64(w, C_TIMESTAMP, r->timestamp);
    put_str(w, C_TIMESTAMP_TYPE,
            ss_tstype_name(b->magic >= 2 ? (int)b->timestamp_type : (int)r->legacy_timestamp_type));
    ss_pqw_i64(w, C_PRODUCER_ID, b->producer_id);
    ss_pqw_i32(w, C_PRODUCER_EPOCH, b->producer_epoch);
    ss_pqw_i32(w, C_SEQUENCE, r->sequence);
    ss_pqw_i64(w, C_BASE_OFFSET, b->base_offset);
    ss_pqw_i32(w, C_LEADER_EPOCH, b->partition_leader_epoch);
    ss_pqw_bool(w, C_IS_TRANSACTIONAL, b->transactional);
    ss_pqw_bool(w, C_IS_CONTROL, b->control);
    if (b->control) put_str(w, C_CONTROL_TYPE, ss_control_type_name(r->control_type));
    else ss_pqw_null(w, C_CONTROL_TYPE);
    if (b->control && (r->control_type == SS_CTRL_ABORT || r->control_type == SS_CTRL_COMMIT))
        ss_pqw_i32(w, C_COORDINATOR_EPOCH, r->coordinator_epoch);
    else ss_pqw_null(w, C_COORDINATOR_EPOCH);
    put_str(w, C_COMPRESSION, ss_codec_name(b->codec));
    ss_pqw_i32(w, C_KEY_SIZE, r->key_len);
    ss_pqw_i32(w, C_VALUE_SIZE, r->value_len);
    uint64_t hi, lo;
    if (!b->control && ss_fp_record(st, r, SS_BY_KEY, 0, &hi, &lo)) ss_pqw_i64(w, C_KEY_FP, (int64_t)hi);
    else ss_pqw_null(w, C_KEY_FP);
    if (!b->control && ss_fp_record(st, r, SS_BY_VALUE, 0, &hi, &lo)) {
        uint8_t fp[16];
        put_be64(fp, hi);
        put_be64(fp + 8, lo);
        ss_pqw_fixed16(w, C_VALUE_FP, fp);
    } else {
        ss_pqw_null(w, C_VALUE_FP);
    }
    put_opt_i32(w, C_BROKER, f->broker);
    ss_pqw_i32(w, C_SOURCE, f->source);
    if (f->internal && r->key_len >= 0) ss_pqw_bytes(w, C_KEY, r->key, (uint32_t)r->key_len);
    else ss_pqw_null(w, C_KEY);
    if (f->internal && r->value_len >= 0) ss_pqw_bytes(w, C_VALUE, r->value, (uint32_t)r->value_len);
    else ss_pqw_null(w, C_VALUE);
    return ss_pqw_row_done(w, err);
}

static void part_json(ss_pqbuf *pj, size_t i, const ss_input_partition *p, bool has_broker, int32_t broker,
                      const char *cluster_id, const part_state *ps, const ss_pqbuf *dj) {
    if (pj->n > 1) ss_pqbuf_byte(pj, ',');
    json_lit(pj, "{\"source\":");
    json_i64(pj, (int64_t)i);
    json_lit(pj, ",\"topic\":");
    json_str(pj, p->topic);
    json_lit(pj, ",\"partition\":");
    json_i64(pj, p->partition);
    json_lit(pj, ",\"path\":");
    json_str(pj, p->path);
    json_lit(pj, ",\"broker\":");
    if (has_broker) json_i64(pj, broker);
    else json_lit(pj, "null");
    json_lit(pj, ",\"clusterId\":");
    if (cluster_id) json_str(pj, cluster_id);
    else json_lit(pj, "null");
    json_lit(pj, ",\"topicId\":");
    if (p->topic_id) json_str(pj, p->topic_id);
    else json_lit(pj, "null");
    json_lit(pj, ",\"firstSegmentOffset\":");
    json_opt_i64(pj, p->nsegments ? p->segments[0].name_offset : -1);
    json_lit(pj, ",\"logStartOffsetCheckpoint\":");
    json_opt_i64(pj, p->log_start_offset);
    json_lit(pj, ",\"highWatermark\":");
    json_opt_i64(pj, p->high_watermark);
    json_lit(pj, ",\"firstOffset\":");
    json_opt_i64(pj, ps->first);
    json_lit(pj, ",\"logEndOffset\":");
    json_opt_i64(pj, ps->end);
    json_lit(pj, ",\"rows\":");
    json_i64(pj, (int64_t)ps->rows);
    json_lit(pj, ",\"damage\":");
    ss_pqbuf_put(pj, dj->p, dj->n);
    json_lit(pj, ",\"segmentsNotGiven\":");
    json_i64(pj, (int64_t)p->segments_not_given);
    ss_pqbuf_byte(pj, '}');
}

static ss_errkind export_partition(ss_export *x, ss_pq_writer *w, const ss_inputs *in, size_t i, ss_decoder *dec,
                                   XXH3_state_t *st, const ss_export_opts *o, ss_pqbuf *pj, file_ids *ids,
                                   ss_error *err) {
    const ss_input_partition *p = ss_inputs_at(in, i);
    ss_textfile tf;
    bool meta_read;
    broker_of(p, &tf, &meta_read);
    bool has_broker = o->has_broker_id || (meta_read && tf.meta.has_node_id);
    int32_t broker = o->has_broker_id ? o->broker_id : meta_read ? tf.meta.node_id : -1;
    if (!has_broker) ids->node = -2;
    else if (ids->node == -1) ids->node = broker;
    else if (ids->node != broker) ids->node = -2;
    const char *cid = meta_read ? tf.meta.cluster_id : NULL;
    if (!cid) ids->cluster_missing = true;
    else if (!ids->cluster.n) json_lit(&ids->cluster, cid);
    else if (ids->cluster.n != strlen(cid) || memcmp(ids->cluster.p, cid, ids->cluster.n)) ids->clusters_differ = true;
    row_fixed rf = {.topic = p->topic,
                    .topic_len = (uint32_t)strlen(p->topic),
                    .partition = p->partition,
                    .broker = has_broker ? broker : -1,
                    .source = (int32_t)i,
                    .internal = p->internal};
    part_state ps = {.first = -1, .end = -1};
    ss_pqbuf dj = {0};
    ss_pqbuf_byte(&dj, '[');
    ss_errkind k = SS_E_OK;
    ss_pcursor c;
    ss_pcursor_open(&c, in, i, dec, UINT64_MAX);
    for (ss_pc_kind ev; k == SS_E_OK && (ev = ss_pcursor_next(&c)) != SS_PC_END;) {
        const char *file = c.seg < p->nsegments && p->segments[c.seg].path ? p->segments[c.seg].path : p->path;
        switch (ev) {
        case SS_PC_UNREADABLE: damage(x, &ps, &dj, file, &c.err); break;
        case SS_PC_DAMAGE: damage(x, &ps, &dj, file, &c.ev.err); break;
        case SS_PC_BATCH:
            if (!c.ev.batch.crc_valid) break; /* its damage event follows */
            if (ss_pcursor_records(&c) != SS_E_OK) damage(x, &ps, &dj, file, &c.err);
            break;
        case SS_PC_RECORD:
            k = row(w, &rf, &c.ev.batch, &c.rec, st, err);
            if (ps.first < 0) ps.first = c.rec.offset;
            ps.end = ss_next_offset(c.rec.offset); /* an offset of INT64_MAX is legal input */
            ps.rows++;
            x->st.rows++;
            if (c.ev.batch.control) x->st.markers++;
            break;
        case SS_PC_RECORDS_END:
            if (c.rec_failed) damage(x, &ps, &dj, file, &c.err);
            break;
        default: break;
        }
    }
    ss_pcursor_close(&c);
    ss_pqbuf_byte(&dj, ']');
    x->st.partitions++;
    part_json(pj, i, p, has_broker, broker, cid, &ps, &dj);
    if (dj.failed && k == SS_E_OK) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    ss_pqbuf_free(&dj);
    if (meta_read) ss_textfile_free(&tf);
    return k;
}

/* The file's key-value metadata. */
static ss_errkind file_meta(ss_pq_writer *w, const ss_inputs *in, const ss_export_opts *o, ss_pqbuf *pj, file_ids *ids,
                            ss_error *err) {
    ss_pqbuf notes = {0};
    /* what was not read: the inputs' notes (files skipped, paths unreadable) */
    ss_pqbuf_byte(&notes, '[');
    const ss_problems *np = ss_inputs_problems(in);
    for (size_t i = 0; i < ss_problems_count(np); i++) {
        if (i) ss_pqbuf_byte(&notes, ',');
        json_str(&notes, ss_problems_at(np, i)->msg);
    }
    ss_pqbuf_byte(&notes, ']');
    ss_pqbuf_byte(&notes, 0);
    ss_pqbuf_byte(pj, 0);
    ss_pqbuf_byte(&ids->cluster, 0);
    ss_errkind k = SS_E_OK;
    if (pj->failed || ids->cluster.failed || notes.failed) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    if (k == SS_E_OK) k = ss_pq_meta(w, "segscan.version", ss_version(), err);
    if (k == SS_E_OK && o->command_line) k = ss_pq_meta(w, "segscan.command", o->command_line, err);
    if (k == SS_E_OK) k = ss_pq_meta(w, "segscan.partitions", (const char *)pj->p, err);
    if (k == SS_E_OK) k = ss_pq_meta(w, "segscan.notRead", (const char *)notes.p, err);
    if (k == SS_E_OK && ids->cluster.n > 1 && !ids->clusters_differ && !ids->cluster_missing)
        k = ss_pq_meta(w, "kafka.cluster.id", (const char *)ids->cluster.p, err);
    if (k == SS_E_OK && ids->node >= 0) {
        char id[24];
        snprintf(id, sizeof id, "%" PRId64, ids->node);
        k = ss_pq_meta(w, "kafka.node.id", id, err);
    }
    ss_pqbuf_free(&notes);
    return k;
}

ss_errkind ss_export_write(ss_export *x, const ss_inputs *in, const char *path, const ss_export_opts *o,
                           ss_error *err) {
    char created_by[96];
    snprintf(created_by, sizeof created_by, "segscan version %s", ss_version());
    size_t rows = o->rows_per_group ? o->rows_per_group : SS_EXPORT_ROWS_PER_GROUP;
    ss_pq_writer *w = ss_pq_create(path, ss_export_columns, C_COUNT, rows, created_by, err);
    if (!w) return err ? err->kind : SS_E_IO;
    ss_decoder *dec = ss_decoder_new(o->max_batch_bytes ? o->max_batch_bytes : (size_t)256 << 20);
    XXH3_state_t *st = XXH3_createState();
    ss_pqbuf pj = {0};
    file_ids ids = {.node = -1};
    ss_errkind k = SS_E_OK;
    if (!dec || !st) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    ss_pqbuf_byte(&pj, '[');
    for (size_t i = 0; k == SS_E_OK && i < ss_inputs_count(in); i++)
        k = export_partition(x, w, in, i, dec, st, o, &pj, &ids, err);
    ss_pqbuf_byte(&pj, ']');
    if (k == SS_E_OK) k = file_meta(w, in, o, &pj, &ids, err);
    if (k == SS_E_OK) k = ss_pq_finish(w, err);
    else ss_pq_abort(w);
    ss_pqbuf_free(&pj);
    ss_pqbuf_free(&ids.cluster);
    if (st) XXH3_freeState(st);
    ss_decoder_free(dec);
    return k;
}
