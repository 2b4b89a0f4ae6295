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
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/crc.h"
#include "base/error_set.h"
#include "base/platform.h"
#include "parquet/export_schema.h"
#include "parquet/reader.h"
#include "segscan/segment.h"

#define V2_HEADER 61
#define XLOG_WBUF (1u << 20) /* the rebuilt logs' bytes written to their temporary file at a time */

bool ss_xfile_is_parquet(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char m[4];
    bool yes = fread(m, 1, 4, f) == 4 && !memcmp(m, "PAR1", 4);
    fclose(f);
    return yes;
}

void ss_xmap_release(ss_xmap *m) {
    if (!m || --m->refs) return;
    munmap(m->base, m->len);
    free(m);
}

void ss_xfile_free(ss_xfile *x) {
    for (size_t i = 0; i < x->n; i++) {
        free(x->v[i].topic);
        free(x->v[i].topic_id);
        if (x->v[i].map) ss_xmap_release(x->v[i].map);
        else free(x->v[i].mem);
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
    ss_pqbuf log;     /* the partition's batches; with a temporary file, those not yet written to it */
    ss_pqbuf recs;    /* the batch's records */
    int fd;           /* the temporary file, -1: the logs are kept in memory */
    const char *dir;  /* its directory */
    uint64_t written; /* bytes written to it */
    uint64_t part_at; /* where the partition being rebuilt begins in it */
    int werr;         /* the errno of a write that failed, 0 */
    bool open;        /* a batch is being filled */
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

/* The batches rebuilt so far written to the temporary file; false (rb->werr) when they cannot be. */
static bool log_flush(rebuild *rb) {
    const uint8_t *p = rb->log.p;
    size_t n = rb->log.n;
    while (n && !rb->werr) {
        ssize_t k = write(rb->fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) rb->werr = k < 0 ? errno : ENOSPC;
        else p += k, n -= (size_t)k, rb->written += (uint64_t)k;
    }
    rb->log.n = 0;
    return !rb->werr;
}

static ss_errkind write_error(const rebuild *rb, ss_error *err) {
    return ss_error_set(err, SS_E_IO, 0, -1, "cannot write the rebuilt logs to a temporary file in %.200s: %s", rb->dir,
                        strerror(rb->werr));
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
    if (rb->fd >= 0 && b->n >= XLOG_WBUF) log_flush(rb);
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
    /* the batch's (its first row's, batch_open): the record decoder reads a control batch's
     * records as control records; the writer gives every row of a batch the batch's flag */
    bool control = (rb->attrs & 0x20) != 0;
    if ((ss_pqr_int(r, C_IS_CONTROL, row) != 0) != control) return "a row whose isControl is not its batch's";
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
    }
    /* what the record decoder requires of a control record (format/record.h, as Kafka's
     * ControlRecordType.parseTypeId and EndTransactionMarker.deserializeValue): a key of 4
     * bytes at least, and a marker's value of 6 (a key or value given in the row, of an internal
     * topic's marker, is taken as it is) */
    if (control) {
        if (key_null || kn < 4) return "a control row without a control record's key (4 bytes)";
        int16_t type = (int16_t)((uint16_t)key[2] << 8 | key[3]);
        if ((type == SS_CTRL_ABORT || type == SS_CTRL_COMMIT) && (val_null || vn < 6))
            return "a transaction marker's row without its marker (coordinatorEpoch, or a value of 6 bytes)";
    } else if (!internal) {
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

/* The partition's log ended: in memory, or its range of the temporary file (mapped when every
 * partition's is written: ss_xfile_read). */
static ss_errkind part_done(ss_xfile *x, rebuild *rb, ss_xpart *cur, ss_error *err) {
    batch_close(rb);
    if (rb->log.failed) return ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    if (rb->fd >= 0) {
        if (!log_flush(rb)) return write_error(rb, err);
        cur->off = rb->part_at;
        cur->len = (size_t)(rb->written - rb->part_at);
        rb->part_at = rb->written;
    } else {
        cur->mem = rb->log.p;
        cur->len = rb->log.n;
        memset(&rb->log, 0, sizeof rb->log);
    }
    if (!xfile_push(x)) {
        free(cur->mem);
        free(cur->topic);
        memset(cur, 0, sizeof *cur);
        return ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    }
    x->v[x->n - 1] = *cur;
    memset(cur, 0, sizeof *cur);
    return SS_E_OK;
}

/* The rows' columns that must not be null for a batch to be rebuilt. */
static const char *row_check(const ss_pq_reader *r, size_t row) {
    static const int required[] = {C_TOPIC, C_OFFSET, C_BASE_OFFSET, C_IS_CONTROL, C_IS_TRANSACTIONAL, C_SOURCE};
    for (size_t i = 0; i < sizeof required / sizeof *required; i++)
        if (ss_pqr_null(r, (size_t)required[i], row)) return "a row without a column segscan always writes";
    return NULL;
}

static ss_errkind read_rows(ss_pq_reader *r, ss_xfile *x, rebuild *rbp, ss_error *err) {
    rebuild rb = *rbp;
    ss_xpart cur = {0};
    bool have = false;
    ss_errkind k = SS_E_OK;
    for (size_t g = 0; g < r->ngroups && k == SS_E_OK; g++) {
        if ((k = ss_pqr_read_group(r, g, err)) != SS_E_OK) break;
        for (size_t row = 0; row < r->rows && k == SS_E_OK; row++) {
            const char *why = row_check(r, row);
            int64_t src = why ? -1 : ss_pqr_int(r, C_SOURCE, row);
            if (!why && (!have || src != cur.source)) {
                if (have && (k = part_done(x, &rb, &cur, err)) != SS_E_OK) break;
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
    if (k == SS_E_OK && have) k = part_done(x, &rb, &cur, err);
    if (k == SS_E_OK && (rb.log.failed || rb.recs.failed)) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    if (k == SS_E_OK && rb.werr) k = write_error(&rb, err);
    free(cur.topic);
    free(cur.mem);
    ss_pqbuf_free(&rb.log);
    ss_pqbuf_free(&rb.recs);
    *rbp = rb;
    return k;
}

/* The export's bytes read (rb: where its rebuilt logs go). */
static ss_errkind xfile_parse(const uint8_t *buf, size_t len, ss_xfile *x, rebuild *rb, ss_error *err) {
    memset(x, 0, sizeof *x);
    x->node_id = -1;
    ss_pq_reader r;
    ss_errkind k = ss_pqr_open(&r, buf, len, ss_export_columns, C_COUNT, err);
    if (k == SS_E_OK) k = read_rows(&r, x, rb, err);
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

ss_errkind ss_xfile_from_memory(const uint8_t *buf, size_t len, ss_xfile *x, ss_error *err) {
    rebuild rb;
    memset(&rb, 0, sizeof rb);
    rb.fd = -1;
    return xfile_parse(buf, len, x, &rb, err);
}

/* The temporary file the rebuilt logs are written to, unlinked at once (gone when closed and
 * unmapped, whatever happens); its directory chosen as the analysis's spill files' are
 * (analysis/fptable.c): $TMPDIR, else /tmp. */
static int xlog_file(const char **dir, ss_error *err) {
    const char *d = getenv("TMPDIR");
    if (!d || !*d) d = "/tmp";
    *dir = d;
    char path[4096];
    snprintf(path, sizeof path, "%s/segscan-export-XXXXXX", d);
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) {
        ss_error_set(err, SS_E_IO, 0, -1, "cannot create a temporary file for the rebuilt logs in %.200s: %s", d,
                     strerror(errno));
        return -1;
    }
    unlink(path);
    return fd;
}

/* The temporary file's bytes mapped read-only, each partition's log its range of them. Unguarded:
 * unlinked at once, the file is no other process's to cut. */
static ss_errkind xlog_map(ss_xfile *x, const rebuild *rb, ss_error *err) {
    ss_xmap *m = NULL;
    if (rb->written > 0) {
        if (rb->written > SIZE_MAX || !(m = calloc(1, sizeof *m)))
            return ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        void *p = mmap(NULL, (size_t)rb->written, PROT_READ, MAP_PRIVATE, rb->fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            free(m);
            return ss_error_set(err, SS_E_IO, 0, -1, "cannot map the rebuilt logs' temporary file in %.200s: %s",
                                rb->dir, strerror(e));
        }
        m->base = p;
        m->len = (size_t)rb->written;
        m->refs = 1; /* the file's own, released below */
    }
    ss_errkind k = SS_E_OK;
    for (size_t i = 0; i < x->n && k == SS_E_OK; i++) {
        ss_xpart *xp = &x->v[i];
        if (xp->mem) continue; /* a partition without rows (apply_part_meta): its empty log */
        if (xp->len && m && xp->off <= m->len && xp->len <= m->len - xp->off) {
            xp->mem = m->base + xp->off;
            xp->map = m;
            m->refs++;
        } else if (!(xp->mem = malloc(1))) {
            k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        }
    }
    ss_xmap_release(m);
    return k;
}

/* The export is mapped rather than read into memory: its pages are the page cache's. A file cut
 * while it is mapped would raise SIGBUS where a page past its new end is read: the mapping is
 * registered with the SIGBUS guard (base/platform.h) that the segments' mappings use, which
 * turns such pages into zeros the bounds-checked Parquet reader reads as any other bytes, and
 * the guard's flag (and the file's size, for a cut inside a page) is checked once it is read,
 * the result then refused. When the guard has no free slot the file is read into memory with
 * pread instead: a mapping without it could kill the process. The reader only reads the buffer
 * (it holds it const; the mapping is PROT_READ). */
ss_errkind ss_xfile_read(const char *path, ss_xfile *x, ss_error *err) {
    memset(x, 0, sizeof *x);
    x->node_id = -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ss_error_set(err, SS_E_IO, 0, -1, "%s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 || (uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return ss_error_set(err, SS_E_IO, 0, -1, "not a regular file");
    }
    size_t len = (size_t)st.st_size;
    uint8_t *buf = NULL, *map = NULL;
    int guard = -1;
    if (len > 0) {
        void *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED && (guard = ss_guard_register(m, len)) < 0) munmap(m, len);
        else if (m != MAP_FAILED) map = m;
    }
    ss_errkind k = SS_E_OK;
    if (!map) { /* empty, not mappable, or no guard slot: read */
        size_t got = 0;
        if (!(buf = malloc(len ? len : 1))) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        while (k == SS_E_OK && got < len) {
            ssize_t n = pread(fd, buf + got, len - got, (off_t)got);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0)
                k = ss_error_set(err, SS_E_IO, got, -1, "byte %zu: cannot read: %s", got,
                                 n < 0 ? strerror(errno) : "the file was cut while it was read");
            else got += (size_t)n;
        }
    }
    rebuild rb;
    memset(&rb, 0, sizeof rb);
    rb.fd = k == SS_E_OK ? xlog_file(&rb.dir, err) : -1;
    if (k == SS_E_OK && rb.fd < 0) k = SS_E_IO;
    if (k == SS_E_OK) k = xfile_parse(map ? map : buf, len, x, &rb, err);
    if (map) {
        uint64_t fault = ss_guard_fault(guard);
        struct stat now;
        if (fstat(fd, &now) == 0 && now.st_size < st.st_size) fault = (uint64_t)now.st_size; /* its new end */
        if (fault != UINT64_MAX) {
            if (k == SS_E_OK) ss_xfile_free(x);
            k = ss_error_set(err, SS_E_IO, fault, -1, "byte %" PRIu64 ": the file was cut while it was read", fault);
        }
        ss_guard_unregister(guard);
        munmap(map, len);
    }
    free(buf);
    close(fd);
    if (k == SS_E_OK && (k = xlog_map(x, &rb, err)) != SS_E_OK) ss_xfile_free(x);
    if (rb.fd >= 0) close(rb.fd);
    return k;
}
