/* segscan - a segscan export read back as partitions (inputs/export_in.h).
 *
 * The rows come in the order the export wrote them: partition after
 * partition (the source column), each in offset order. A batch is rebuilt
 * from the rows that share (source, baseOffset), in Kafka's v2 layout
 * (DefaultRecordBatch: baseOffset, batchLength, partitionLeaderEpoch, magic,
 * crc, attributes, lastOffsetDelta, baseTimestamp, maxTimestamp, producerId,
 * producerEpoch, baseSequence, records count; DefaultRecord: length,
 * attributes, timestampDelta, offsetDelta, key, value, headers, varints
 * zigzag-encoded) with its CRC-32C computed, so that the walker, the records
 * iterator and every reader above them read it unchanged. lastOffsetDelta
 * is the last row's: a batch whose last records were compacted away ends at
 * its last row here.
 */
#include "inputs/export_in.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/crc.h"
#include "base/error_set.h"
#include "parquet/export_schema.h"
#include "parquet/reader.h"
#include "segscan/segment.h"

#define V2_HEADER 61

bool ss_xfile_is_parquet(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char m[4];
    bool yes = fread(m, 1, 4, f) == 4 && !memcmp(m, "PAR1", 4);
    fclose(f);
    return yes;
}

void ss_xfile_free(ss_xfile *x) {
    for (size_t i = 0; i < x->n; i++) {
        free(x->v[i].topic);
        free(x->v[i].topic_id);
        free(x->v[i].mem);
    }
    free(x->v);
    free(x->cluster_id);
    free(x->version);
    memset(x, 0, sizeof *x);
}

/* ---- the metadata's partitions (segscan.partitions: a JSON array of flat objects) ------ */

static const char *json_skip_ws(const char *p) {
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    return p;
}

/* Past a JSON string starting at p ('"'); NULL when it does not end. */
static const char *json_skip_str(const char *p) {
    for (p++; *p; p++) {
        if (*p == '\\') {
            if (!*++p) return NULL;
        } else if (*p == '"') return p + 1;
    }
    return NULL;
}

/* Past any JSON value at p (depth-limited); NULL when malformed. */
static const char *json_skip(const char *p, int depth) {
    p = json_skip_ws(p);
    if (depth > 8) return NULL;
    if (*p == '"') return json_skip_str(p);
    if (*p == '[' || *p == '{') {
        char close = *p == '[' ? ']' : '}';
        p = json_skip_ws(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                if (*p != '"' || !(p = json_skip_str(p))) return NULL;
                p = json_skip_ws(p);
                if (*p++ != ':') return NULL;
            }
            if (!(p = json_skip(p, depth + 1))) return NULL;
            p = json_skip_ws(p);
            if (*p == close) return p + 1;
            if (*p++ != ',') return NULL;
            p = json_skip_ws(p);
        }
    }
    const char *s = p;
    while (*p && *p != ',' && *p != '}' && *p != ']' && *p != ' ') p++;
    return p > s ? p : NULL;
}

/* Room for one more partition (x->n counts it). */
static bool xfile_push(ss_xfile *x) {
    if (x->n == x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 8;
        ss_xpart *v = realloc(x->v, cap * sizeof *v);
        if (!v) return false;
        x->v = v;
        x->cap = cap;
    }
    x->n++;
    return true;
}

/* The fields of each partition object the inputs use, by its source index. */
static void apply_part_meta(ss_xfile *x, const char *json) {
    const char *p = json_skip_ws(json ? json : "");
    if (*p++ != '[') return;
    for (p = json_skip_ws(p); *p == '{';) {
        int64_t source = -1, log_start = -1, hwm = -1, ndamage = 0, partition = -1;
        const char *tid = NULL, *topic = NULL;
        size_t tid_n = 0, topic_n = 0;
        p = json_skip_ws(p + 1);
        while (*p == '"') {
            const char *k = p + 1, *ke = json_skip_str(p);
            if (!ke) return;
            size_t kn = (size_t)(ke - 1 - k);
            p = json_skip_ws(ke);
            if (*p++ != ':') return;
            p = json_skip_ws(p);
            const char *v = p;
            if (!(p = json_skip(p, 1))) return;
#define KEY(s) (kn == sizeof(s) - 1 && !memcmp(k, s, kn))
            if (KEY("source")) source = strtoll(v, NULL, 10);
            else if (KEY("logStartOffsetCheckpoint") && *v != 'n') log_start = strtoll(v, NULL, 10);
            else if (KEY("highWatermark") && *v != 'n') hwm = strtoll(v, NULL, 10);
            else if (KEY("topicId") && *v == '"') {
                tid = v + 1;
                tid_n = (size_t)(p - 1 - tid);
            } else if (KEY("topic") && *v == '"') {
                topic = v + 1;
                topic_n = (size_t)(p - 1 - topic);
            } else if (KEY("partition") && *v != 'n') {
                partition = strtoll(v, NULL, 10);
            } else if (KEY("damage") && *v == '[') {
                for (const char *q = v; q < p; q++) ndamage += *q == '{';
            }
#undef KEY
            p = json_skip_ws(p);
            if (*p == ',') p = json_skip_ws(p + 1);
        }
        if (*p++ != '}') return;
        /* a partition that gave no row (an empty log, or one whose every batch was damaged) is
         * one all the same, as its directory was: its topic (Kafka's legal characters need no
         * JSON escape) and number from the metadata */
        bool rows = false;
        for (size_t i = 0; i < x->n && !rows; i++) rows = x->v[i].source == source;
        if (!rows && topic && source >= 0 && source <= INT32_MAX && partition >= -1 && partition <= INT32_MAX &&
            !memchr(topic, '\\', topic_n) && xfile_push(x)) {
            ss_xpart *xp = &x->v[x->n - 1];
            memset(xp, 0, sizeof *xp);
            xp->source = (int32_t)source;
            xp->partition = (int32_t)partition;
            xp->broker = -1;
            if ((xp->topic = malloc(topic_n + 1))) {
                memcpy(xp->topic, topic, topic_n);
                xp->topic[topic_n] = 0;
            }
            if (!xp->topic || !(xp->mem = malloc(1))) x->n--, free(xp->topic);
        }
        for (size_t i = 0; i < x->n; i++) {
            ss_xpart *xp = &x->v[i];
            if (xp->source != source) continue;
            xp->log_start = log_start;
            xp->hwm = hwm;
            xp->damage = (uint64_t)ndamage;
            if (tid && !xp->topic_id && (xp->topic_id = malloc(tid_n + 1))) {
                memcpy(xp->topic_id, tid, tid_n);
                xp->topic_id[tid_n] = 0;
            }
        }
        p = json_skip_ws(p);
        if (*p == ',') p = json_skip_ws(p + 1);
    }
}

/* ---- batches rebuilt -------------------------------------------------------------------- */

typedef struct rebuild {
    ss_pqbuf log;  /* the partition's batches */
    ss_pqbuf recs; /* the batch's records */
    bool open;     /* a batch is being filled */
    int64_t base, base_ts, max_ts, last;
    int32_t count, first_seq, first_delta;
    int16_t attrs;
    int32_t ple;
    int64_t pid;
    int16_t epoch;
} rebuild;

static void put_be(ss_pqbuf *b, uint64_t v, int bytes) {
    uint8_t t[8];
    for (int i = bytes - 1; i >= 0; i--) {
        t[i] = (uint8_t)v;
        v >>= 8;
    }
    ss_pqbuf_put(b, t, (size_t)bytes);
}

static void put_varint(uint8_t *t, size_t *n, int64_t v) { /* Kafka's zigzag varlong */
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    while (u >= 0x80) {
        t[(*n)++] = (uint8_t)(u | 0x80);
        u >>= 7;
    }
    t[(*n)++] = (uint8_t)u;
}

/* Kafka's DefaultRecordBatch.incrementSequence undone: the base sequence of a record's
 * sequence `delta` records into its batch (sequences wrap to 0 after Integer.MAX_VALUE). */
static int32_t base_sequence(int32_t seq, int64_t delta) {
    if (seq < 0) return -1;
    int64_t b = (int64_t)seq - delta % ((int64_t)INT32_MAX + 1);
    return (int32_t)(b < 0 ? b + (int64_t)INT32_MAX + 1 : b);
}

static void batch_close(rebuild *rb) {
    if (!rb->open) return;
    rb->open = false;
    ss_pqbuf *b = &rb->log;
    size_t at = b->n;
    uint32_t length = (uint32_t)(V2_HEADER - 12 + rb->recs.n);
    put_be(b, (uint64_t)rb->base, 8);
    put_be(b, length, 4);
    put_be(b, (uint32_t)rb->ple, 4);
    ss_pqbuf_byte(b, 2);
    put_be(b, 0, 4); /* the CRC, below */
    put_be(b, (uint16_t)rb->attrs, 2);
    put_be(b, (uint32_t)(rb->last - rb->base), 4);
    put_be(b, (uint64_t)rb->base_ts, 8);
    put_be(b, (uint64_t)rb->max_ts, 8);
    put_be(b, (uint64_t)rb->pid, 8);
    put_be(b, (uint16_t)rb->epoch, 2);
    put_be(b, (uint32_t)(rb->pid >= 0 ? base_sequence(rb->first_seq, rb->first_delta) : -1), 4);
    put_be(b, (uint32_t)rb->count, 4);
    ss_pqbuf_put(b, rb->recs.p, rb->recs.n);
    rb->recs.n = 0;
    if (b->failed) return;
    uint32_t crc = ss_crc32c(0, b->p + at + 21, b->n - at - 21); /* attributes to the end */
    uint8_t *c = b->p + at + 17;
    c[0] = (uint8_t)(crc >> 24);
    c[1] = (uint8_t)(crc >> 16);
    c[2] = (uint8_t)(crc >> 8);
    c[3] = (uint8_t)crc;
}

static int name_index(const char *s, uint32_t n, const char *(*name)(int), int count) {
    for (int i = 0; i < count; i++) {
        const char *c = name(i);
        if (c && strlen(c) == n && !memcmp(c, s, n)) return i;
    }
    return -1;
}

static const char *codec_name_int(int i) { return ss_codec_name((enum ss_codec)i); }

/* One row appended to its batch (opened by the caller). NULL, or why the row cannot be. */
static const char *add_row(rebuild *rb, const ss_pq_reader *r, size_t row, bool internal) {
    int64_t off = ss_pqr_int(r, C_OFFSET, row),
            ts = ss_pqr_null(r, C_TIMESTAMP, row) ? -1 : ss_pqr_int(r, C_TIMESTAMP, row);
    if (off < rb->base || off - rb->base > INT32_MAX) return "an offset below its batch's base offset";
    if (rb->count && off <= rb->last) return "offsets out of order in a batch";
    uint8_t head[64];
    size_t hn = 0;
    bool control = ss_pqr_int(r, C_IS_CONTROL, row) != 0;
    const uint8_t *key = NULL, *val = NULL;
    uint32_t kn = 0, vn = 0;
    bool key_null = true, val_null = true;
    uint8_t ckey[4], cval[6], cell[SS_XCELL_SIZE];
    if (internal || control) {
        if (!ss_pqr_null(r, C_KEY, row)) {
            key = ss_pqr_bytes(r, C_KEY, row, &kn);
            key_null = false;
        }
        if (!ss_pqr_null(r, C_VALUE, row)) {
            val = ss_pqr_bytes(r, C_VALUE, row, &vn);
            val_null = false;
        }
    }
    if (control && key_null) { /* ControlRecordType's key: version 0, the type */
        uint32_t tn = 0;
        const uint8_t *t = ss_pqr_null(r, C_CONTROL_TYPE, row) ? NULL : ss_pqr_bytes(r, C_CONTROL_TYPE, row, &tn);
        int type = t ? name_index((const char *)t, tn, ss_control_type_name, 7) : -1;
        if (type < 0) return "a control row without its control type";
        ckey[0] = ckey[1] = 0;
        ckey[2] = (uint8_t)(type >> 8);
        ckey[3] = (uint8_t)type;
        key = ckey;
        kn = 4;
        key_null = false;
        if (val_null && !ss_pqr_null(r, C_COORDINATOR_EPOCH, row)) { /* EndTransactionMarker: version 0 */
            uint32_t e = (uint32_t)ss_pqr_int(r, C_COORDINATOR_EPOCH, row);
            cval[0] = cval[1] = 0;
            cval[2] = (uint8_t)(e >> 24);
            cval[3] = (uint8_t)(e >> 16);
            cval[4] = (uint8_t)(e >> 8);
            cval[5] = (uint8_t)e;
            val = cval;
            vn = 6;
            val_null = false;
        }
    } else if (!internal && !control) {
        memset(cell, 0, sizeof cell);
        uint32_t n;
        if (!ss_pqr_null(r, C_VALUE_FP, row)) {
            const uint8_t *fp = ss_pqr_bytes(r, C_VALUE_FP, row, &n);
            if (n != 16) return "a value fingerprint not of 16 bytes";
            cell[0] |= 1;
            memcpy(cell + 1, fp, 16);
        }
        if (!ss_pqr_null(r, C_KEY_FP, row)) {
            cell[0] |= 2;
            uint64_t k = (uint64_t)ss_pqr_int(r, C_KEY_FP, row);
            for (int i = 0; i < 8; i++) cell[17 + i] = (uint8_t)(k >> (56 - 8 * i));
        }
        int64_t ks = ss_pqr_null(r, C_KEY_SIZE, row) ? -1 : ss_pqr_int(r, C_KEY_SIZE, row);
        int64_t vs = ss_pqr_null(r, C_VALUE_SIZE, row) ? -1 : ss_pqr_int(r, C_VALUE_SIZE, row);
        for (int i = 0; i < 4; i++) {
            cell[25 + i] = (uint8_t)((uint32_t)ks >> (24 - 8 * i));
            cell[29 + i] = (uint8_t)((uint32_t)vs >> (24 - 8 * i));
        }
        val = cell;
        vn = SS_XCELL_SIZE;
        val_null = false;
    }
    /* DefaultRecord: attributes, timestampDelta, offsetDelta, key, value, headers */
    head[hn++] = 0;
    put_varint(head, &hn, (int64_t)((uint64_t)ts - (uint64_t)rb->base_ts));
    put_varint(head, &hn, off - rb->base);
    put_varint(head, &hn, key_null ? -1 : (int64_t)kn);
    uint8_t mid[16];
    size_t mn = 0;
    put_varint(mid, &mn, val_null ? -1 : (int64_t)vn);
    uint8_t tail[2];
    size_t tn = 0;
    put_varint(tail, &tn, 0);
    uint64_t body = hn + kn + mn + vn + tn;
    if (body > INT32_MAX / 2) return "a record too large to rebuild";
    uint8_t len[16];
    size_t ln = 0;
    put_varint(len, &ln, (int64_t)body);
    ss_pqbuf_put(&rb->recs, len, ln);
    ss_pqbuf_put(&rb->recs, head, hn);
    if (!key_null) ss_pqbuf_put(&rb->recs, key, kn);
    ss_pqbuf_put(&rb->recs, mid, mn);
    if (!val_null) ss_pqbuf_put(&rb->recs, val, vn);
    ss_pqbuf_put(&rb->recs, tail, tn);
    if (!rb->count) {
        rb->first_seq = ss_pqr_null(r, C_SEQUENCE, row) ? -1 : (int32_t)ss_pqr_int(r, C_SEQUENCE, row);
        rb->first_delta = (int32_t)(off - rb->base);
    }
    rb->count++;
    rb->last = off;
    if (ts > rb->max_ts) rb->max_ts = ts;
    return NULL;
}

static const char *batch_open(rebuild *rb, const ss_pq_reader *r, size_t row) {
    rb->open = true;
    rb->count = 0;
    rb->base = ss_pqr_int(r, C_BASE_OFFSET, row);
    rb->base_ts = ss_pqr_null(r, C_TIMESTAMP, row) ? -1 : ss_pqr_int(r, C_TIMESTAMP, row);
    rb->max_ts = INT64_MIN;
    rb->ple = ss_pqr_null(r, C_LEADER_EPOCH, row) ? -1 : (int32_t)ss_pqr_int(r, C_LEADER_EPOCH, row);
    rb->pid = ss_pqr_null(r, C_PRODUCER_ID, row) ? -1 : ss_pqr_int(r, C_PRODUCER_ID, row);
    rb->epoch = ss_pqr_null(r, C_PRODUCER_EPOCH, row) ? -1 : (int16_t)ss_pqr_int(r, C_PRODUCER_EPOCH, row);
    int16_t a = 0;
    uint32_t n;
    if (!ss_pqr_null(r, C_COMPRESSION, row)) {
        const uint8_t *s = ss_pqr_bytes(r, C_COMPRESSION, row, &n);
        int codec = name_index((const char *)s, n, codec_name_int, 5);
        if (codec > 0) a |= (int16_t)(codec << SS_XCELL_CODEC_SHIFT);
    }
    if (!ss_pqr_null(r, C_TIMESTAMP_TYPE, row)) {
        const uint8_t *s = ss_pqr_bytes(r, C_TIMESTAMP_TYPE, row, &n);
        if (n == 13 && !memcmp(s, "LogAppendTime", 13)) a |= 0x08;
    }
    if (ss_pqr_int(r, C_IS_TRANSACTIONAL, row)) a |= 0x10;
    if (ss_pqr_int(r, C_IS_CONTROL, row)) a |= 0x20;
    rb->attrs = a;
    return NULL;
}

static bool part_done(ss_xfile *x, rebuild *rb, ss_xpart *cur) {
    batch_close(rb);
    if (rb->log.failed) return false;
    cur->mem = rb->log.p;
    cur->len = rb->log.n;
    memset(&rb->log, 0, sizeof rb->log);
    if (!xfile_push(x)) {
        free(cur->mem);
        free(cur->topic);
        return false;
    }
    x->v[x->n - 1] = *cur;
    memset(cur, 0, sizeof *cur);
    return true;
}

/* The rows' columns that must not be null for a batch to be rebuilt. */
static const char *row_check(const ss_pq_reader *r, size_t row) {
    static const int required[] = {C_TOPIC, C_OFFSET, C_BASE_OFFSET, C_IS_CONTROL, C_IS_TRANSACTIONAL, C_SOURCE};
    for (size_t i = 0; i < sizeof required / sizeof *required; i++)
        if (ss_pqr_null(r, (size_t)required[i], row)) return "a row without a column segscan always writes";
    return NULL;
}

static ss_errkind read_rows(ss_pq_reader *r, ss_xfile *x, ss_error *err) {
    rebuild rb;
    memset(&rb, 0, sizeof rb);
    ss_xpart cur = {0};
    bool have = false;
    ss_errkind k = SS_E_OK;
    for (size_t g = 0; g < r->ngroups && k == SS_E_OK; g++) {
        if ((k = ss_pqr_read_group(r, g, err)) != SS_E_OK) break;
        for (size_t row = 0; row < r->rows && k == SS_E_OK; row++) {
            const char *why = row_check(r, row);
            int64_t src = why ? -1 : ss_pqr_int(r, C_SOURCE, row);
            if (!why && (!have || src != cur.source)) {
                if (have && !part_done(x, &rb, &cur)) {
                    k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
                    break;
                }
                for (size_t i = 0; i < x->n && !why; i++)
                    if (x->v[i].source == src) why = "a partition's rows in two places (not as segscan writes them)";
                uint32_t tn;
                const uint8_t *t = ss_pqr_bytes(r, C_TOPIC, row, &tn);
                cur.source = (int32_t)src;
                cur.topic = malloc(tn + 1);
                if (!cur.topic) {
                    k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
                    break;
                }
                memcpy(cur.topic, t, tn);
                cur.topic[tn] = 0;
                if (strlen(cur.topic) != tn) why = "a topic name holding a NUL byte";
                cur.partition = ss_pqr_null(r, C_PARTITION, row) ? -1 : (int32_t)ss_pqr_int(r, C_PARTITION, row);
                cur.broker = ss_pqr_null(r, C_BROKER, row) ? -1 : (int32_t)ss_pqr_int(r, C_BROKER, row);
                cur.log_start = cur.hwm = -1;
                have = true;
            }
            if (!why && (!rb.open || ss_pqr_int(r, C_BASE_OFFSET, row) != rb.base || (int64_t)rb.count >= INT32_MAX)) {
                batch_close(&rb);
                why = batch_open(&rb, r, row);
            }
            if (!why) why = add_row(&rb, r, row, cur.topic && !strncmp(cur.topic, "__", 2));
            if (why) /* the row group's position: the rows are not where a byte of them is */
                k = ss_error_set(err, SS_E_BAD_EXPORT, (uint64_t)r->chunks[g * r->ncols].start, -1,
                                 "byte %" PRId64 ": row %zu of row group %zu: %s", r->chunks[g * r->ncols].start, row,
                                 g, why);
        }
    }
    if (k == SS_E_OK && have && !part_done(x, &rb, &cur)) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    if (k == SS_E_OK && (rb.log.failed || rb.recs.failed)) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    free(cur.topic);
    free(cur.mem);
    ss_pqbuf_free(&rb.log);
    ss_pqbuf_free(&rb.recs);
    return k;
}

ss_errkind ss_xfile_from_memory(const uint8_t *buf, size_t len, ss_xfile *x, ss_error *err) {
    memset(x, 0, sizeof *x);
    x->node_id = -1;
    ss_pq_reader r;
    ss_errkind k = ss_pqr_open(&r, buf, len, ss_export_columns, C_COUNT, err);
    if (k == SS_E_OK) k = read_rows(&r, x, err);
    if (k == SS_E_OK) {
        apply_part_meta(x, ss_pqr_meta(&r, "segscan.partitions"));
        const char *cid = ss_pqr_meta(&r, "kafka.cluster.id"), *nid = ss_pqr_meta(&r, "kafka.node.id");
        const char *ver = ss_pqr_meta(&r, "segscan.version");
        if (cid && !(x->cluster_id = strdup(cid))) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        if (ver && !(x->version = strdup(ver))) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        if (nid) {
            char *e;
            long v = strtol(nid, &e, 10);
            if (!*e && v >= 0 && v <= INT32_MAX) x->node_id = (int32_t)v;
        }
    }
    ss_pqr_close(&r);
    if (k != SS_E_OK) ss_xfile_free(x);
    return k;
}

ss_errkind ss_xfile_read(const char *path, ss_xfile *x, ss_error *err) {
    memset(x, 0, sizeof *x);
    x->node_id = -1;
    FILE *f = fopen(path, "rb");
    if (!f) return ss_error_set(err, SS_E_IO, 0, -1, "%s", strerror(errno));
    struct stat st;
    uint8_t *buf = NULL;
    size_t len = 0;
    ss_errkind k = SS_E_OK;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0)
        k = ss_error_set(err, SS_E_IO, 0, -1, "not a regular file");
    else if (!(buf = malloc((size_t)st.st_size ? (size_t)st.st_size : 1)))
        k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    else if ((len = fread(buf, 1, (size_t)st.st_size, f)) != (size_t)st.st_size)
        k = ss_error_set(err, SS_E_IO, len, -1, "byte %zu: cannot read: %s", len, strerror(errno));
    fclose(f);
    if (k == SS_E_OK) k = ss_xfile_from_memory(buf, len, x, err);
    free(buf);
    return k;
}
