/* segscan dump --offsets-decoder / --transaction-log-decoder: the key and
 * value of __consumer_offsets and __transaction_state records, printed as
 * Kafka 4.0's kafka-dump-log.sh prints them.
 *
 * The library (src/lib/internal_topics.c) decodes a record into a tree in
 * schema order; this file writes it as Kafka does: the key as
 * {"type":"<record type>","data":<key>}, the value as
 * {"version":"<version>","data":<value>}, each data object as the generated
 * JSON converters write it and Jackson's ObjectNode.toString() renders it
 * (no spaces; strings escaped as Jackson does: \" \\ \b \t \n \f \r, other
 * control characters as \u00XX with upper-case hex, everything else as is;
 * bytes in base64 with padding). A null value is "<DELETE>". A record Kafka
 * cannot decode prints its message in place of the key and no payload.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "dump/dump.h"
#include "segscan/decode.h"

/* One decoder for the process, created on first use (still reachable at exit). */
static ss_cdecoder *decoder(void) {
    static ss_cdecoder *d;
    if (!d) d = ss_cdecoder_new();
    return d;
}

static void jackson_string(ss_out *o, const uint8_t *p, size_t n) {
    static const char hex[] = "0123456789ABCDEF";
    out_ch(o, '"');
    size_t i = 0;
    while (i < n) {
        if (p[i] >= 0x80) {
            size_t j = i;
            while (j < n && p[j] >= 0x80) j++;
            out_java_utf8(o, p + i, j - i);
            i = j;
            continue;
        }
        size_t j = i;
        while (j < n && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '"' && p[j] != '\\') j++;
        if (j > i) {
            out_raw(o, p + i, j - i);
            i = j;
            continue;
        }
        uint8_t c = p[i++];
        switch (c) {
        case '"': out_lit(o, "\\\""); break;
        case '\\': out_lit(o, "\\\\"); break;
        case '\b': out_lit(o, "\\b"); break;
        case '\t': out_lit(o, "\\t"); break;
        case '\n': out_lit(o, "\\n"); break;
        case '\f': out_lit(o, "\\f"); break;
        case '\r': out_lit(o, "\\r"); break;
        default: {
            char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            out_raw(o, u, 6);
        }
        }
    }
    out_ch(o, '"');
}

/* Java's Double.toString (as Jackson's DoubleNode writes it): the shortest
 * decimal that reads back as the same double; plain notation with at least one
 * digit after the point for 1e-3 <= |d| < 1e7, else d.dddE[-]n. NaN and the
 * infinities are written quoted, as Jackson does by default
 * (QUOTE_NON_NUMERIC_NUMBERS). */
static void java_double(ss_out *o, double v) {
    if (v != v) {
        out_lit(o, "\"NaN\"");
        return;
    }
    if (v == 1.0 / 0.0) {
        out_lit(o, "\"Infinity\"");
        return;
    }
    if (v == -1.0 / 0.0) {
        out_lit(o, "\"-Infinity\"");
        return;
    }
    if (v == 0) {
        out_str(o, signbit(v) ? "-0.0" : "0.0");
        return;
    }
    char buf[40];
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
        if (strtod(buf, NULL) == v) break;
    }
    /* buf: [-]d[.ddd]e[+-]xx: the digits and the decimal exponent */
    char digits[24];
    size_t nd = 0;
    const char *p = buf;
    bool neg = *p == '-';
    if (neg) p++;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') digits[nd++] = *p;
    int exp = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    char outb[64];
    size_t k = 0;
    if (neg) outb[k++] = '-';
    if (exp >= -3 && exp < 7) {
        if (exp < 0) {
            outb[k++] = '0';
            outb[k++] = '.';
            for (int i = -1; i > exp; i--) outb[k++] = '0';
            for (size_t i = 0; i < nd; i++) outb[k++] = digits[i];
        } else {
            for (int i = 0; i <= exp; i++) outb[k++] = (size_t)i < nd ? digits[i] : '0';
            outb[k++] = '.';
            if ((size_t)exp + 1 < nd)
                for (size_t i = (size_t)exp + 1; i < nd; i++) outb[k++] = digits[i];
            else outb[k++] = '0';
        }
        outb[k] = 0;
    } else {
        outb[k++] = digits[0];
        outb[k++] = '.';
        if (nd > 1)
            for (size_t i = 1; i < nd; i++) outb[k++] = digits[i];
        else outb[k++] = '0';
        snprintf(outb + k, sizeof outb - k, "E%d", exp);
    }
    out_str(o, outb);
}

static void render(ss_out *o, const ss_jnode *nodes, uint32_t x) {
    const ss_jnode *n = &nodes[x];
    switch (n->kind) {
    case SS_J_UUID: {
        char u[23];
        ss_uuid_string(n->str, u);
        out_ch(o, '"');
        out_str(o, u);
        out_ch(o, '"');
        break;
    }
    case SS_J_FLOAT: java_double(o, n->dbl); break;
    case SS_J_NULL: out_lit(o, "null"); break;
    case SS_J_BOOL: out_str(o, n->num ? "true" : "false"); break;
    case SS_J_INT: out_i64(o, n->num); break;
    case SS_J_STRING: jackson_string(o, n->str, n->len); break;
    case SS_J_BYTES:
        out_ch(o, '"');
        out_base64(o, n->str, n->len);
        out_ch(o, '"');
        break;
    case SS_J_ARRAY:
        out_ch(o, '[');
        for (uint32_t c = n->first; c; c = nodes[c].next) {
            if (c != n->first) out_ch(o, ',');
            render(o, nodes, c);
        }
        out_ch(o, ']');
        break;
    default:
        out_ch(o, '{');
        for (uint32_t c = n->first; c; c = nodes[c].next) {
            if (c != n->first) out_ch(o, ',');
            jackson_string(o, (const uint8_t *)nodes[c].name, strlen(nodes[c].name));
            out_ch(o, ':');
            render(o, nodes, c);
        }
        out_ch(o, '}');
        break;
    }
}

static void render_key(ss_out *o, const ss_cdecoded *d) {
    LIT_I64(o, "{\"type\":\"", d->record_type);
    out_lit(o, "\",\"data\":");
    render(o, d->nodes, d->key);
    out_ch(o, '}');
}

/* The value of a coordinator record: {"version":"V","data":...}.
 * ShareGroupStateMessageParser of Kafka 4.0 (October 2024) labels the value's
 * version "type" too (its jsonString helper); 4.1+ parses as the other
 * coordinators do (CoordinatorRecordMessageParser.prepareValue: "version"),
 * which --kafka-version 4.0 undoes. The JSON form always says "version". */
static void render_value(ss_out *o, const ss_cdecoded *d, const char *label) {
    out_lit(o, "{\"");
    out_str(o, label);
    LIT_I64(o, "\":\"", d->value_version);
    out_lit(o, "\",\"data\":");
    render(o, d->nodes, d->value);
    out_ch(o, '}');
}

/* ClusterMetadataLogMessageParser: {"type":"<MetadataRecordType>","version":V,"data":...}
 * (the version an IntNode); the remote log metadata records the same way in JSON. */
static void render_api_message(ss_out *o, const ss_cdecoded *d) {
    out_lit(o, "{\"type\":");
    if (d->type_name) {
        out_ch(o, '"');
        out_str(o, d->type_name);
        out_ch(o, '"');
    } else {
        out_json_cstr(o, d->value_name);
    }
    LIT_I64(o, ",\"version\":", d->value_version);
    out_lit(o, ",\"data\":");
    render(o, d->nodes, d->value);
    out_ch(o, '}');
}

void dump_jnode(ss_out *o, const ss_jnode *nodes, uint32_t x) { render(o, nodes, x); }

/* ---- remote log metadata: the toString() of RemoteLogMetadataSerde.deserialize ---------- */

static int64_t num(const ss_jnode *n, uint32_t obj, const char *name) {
    int64_t v = 0;
    (void)ss_jnode_int(n, ss_jnode_member(n, obj, name), &v);
    return v;
}

static void uuid_of(ss_out *o, const ss_jnode *n, uint32_t x) {
    char u[23] = "";
    if (x && n[x].kind == SS_J_UUID) ss_uuid_string(n[x].str, u);
    out_str(o, u);
}

/* TopicIdPartition.toString: topicId:topic-partition */
static void topic_id_partition(ss_out *o, const ss_jnode *n, uint32_t tip) {
    uuid_of(o, n, ss_jnode_member(n, tip, "id"));
    out_ch(o, ':');
    uint32_t name = ss_jnode_member(n, tip, "name");
    if (name && n[name].kind == SS_J_STRING) out_java_utf8(o, n[name].str, n[name].len);
    else out_lit(o, "null");
    out_ch(o, '-');
    out_i64(o, num(n, tip, "partition"));
}

static void segment_id(ss_out *o, const ss_jnode *n, uint32_t id) {
    out_lit(o, "RemoteLogSegmentId{topicIdPartition=");
    topic_id_partition(o, n, ss_jnode_member(n, id, "topicIdPartition"));
    out_lit(o, ", id=");
    uuid_of(o, n, ss_jnode_member(n, id, "id"));
    out_ch(o, '}');
}

/* Optional<CustomMetadata>: Optional.empty or Optional[CustomMetadata{N bytes}] */
static void custom_metadata(ss_out *o, const ss_jnode *n, uint32_t obj) {
    uint32_t c = ss_jnode_member(n, obj, "customMetadata");
    if (!c || n[c].kind != SS_J_BYTES) {
        out_lit(o, "Optional.empty");
        return;
    }
    LIT_U64(o, "Optional[CustomMetadata{", n[c].len);
    out_lit(o, " bytes}]");
}

static const char *segment_state(int64_t id) {
    static const char *const names[] = {"COPY_SEGMENT_STARTED", "COPY_SEGMENT_FINISHED", "DELETE_SEGMENT_STARTED",
                                        "DELETE_SEGMENT_FINISHED"};
    return id >= 0 && id < 4 ? names[id] : NULL;
}

static const char *partition_delete_state(int64_t id) {
    static const char *const names[] = {"DELETE_PARTITION_MARKED", "DELETE_PARTITION_STARTED",
                                        "DELETE_PARTITION_FINISHED"};
    return id >= 0 && id < 3 ? names[id] : NULL;
}

/* segmentLeaderEpochs: a HashMap (a later entry of an epoch wins) printed as a
 * TreeMap, {epoch=offset, ...} by epoch. Returns false when empty. */
static bool leader_epochs(ss_out *o, const ss_jnode *n, uint32_t obj) {
    uint32_t arr = ss_jnode_member(n, obj, "segmentLeaderEpochs");
    size_t cnt = ss_jnode_count(n, arr);
    if (!cnt) return false;
    int64_t prev = INT64_MIN;
    out_ch(o, '{');
    bool first = true;
    for (;;) {
        /* the next epoch above prev, its last entry: entries are few */
        int64_t best = INT64_MAX, off = 0;
        bool found = false;
        for (uint32_t e = n[arr].first; e; e = n[e].next) {
            int64_t ep = num(n, e, "leaderEpoch");
            if (ep > prev && ep <= best) {
                if (ep < best || !found) off = num(n, e, "offset");
                else off = num(n, e, "offset");
                best = ep;
                found = true;
            }
        }
        if (!found) break;
        if (!first) out_lit(o, ", ");
        first = false;
        out_i64(o, best);
        out_ch(o, '=');
        out_i64(o, off);
        prev = best;
    }
    out_ch(o, '}');
    return true;
}

/* Whether the record can be turned into its object as the transforms and the
 * constructors do (RemoteLogSegmentMetadataTransform and the others), and if
 * not the exception's message. */
static const char *remote_invalid(const ss_cdecoded *d, char *buf, size_t n) {
    const ss_jnode *nd = d->nodes;
    uint32_t v = d->value;
    switch (d->record_type) {
    case SS_RLM_REMOTE_LOG_SEGMENT_METADATA_RECORD:
    case SS_RLM_REMOTE_LOG_SEGMENT_METADATA_SNAPSHOT_RECORD: {
        if (d->record_type == SS_RLM_REMOTE_LOG_SEGMENT_METADATA_RECORD) {
            int64_t start = num(nd, v, "startOffset"), end = num(nd, v, "endOffset");
            if (start < 0) {
                snprintf(buf, n, "Unexpected start offset = %lld. StartOffset for a remote segment cannot be negative",
                         (long long)start);
                return buf;
            }
            if (end < start) {
                snprintf(buf, n,
                         "Unexpected end offset = %lld. EndOffset for a remote segment cannot be less than "
                         "startOffset = %lld",
                         (long long)end, (long long)start);
                return buf;
            }
        }
        if (!ss_jnode_count(nd, ss_jnode_member(nd, v, "segmentLeaderEpochs")))
            return "segmentLeaderEpochs can not be null or empty";
        if (!segment_state(num(nd, v, "remoteLogSegmentState"))) return "state can not be null";
        return NULL;
    }
    case SS_RLM_REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD:
        return segment_state(num(nd, v, "remoteLogSegmentState")) ? NULL : "state can not be null";
    case SS_RLM_REMOTE_PARTITION_DELETE_METADATA_RECORD:
        return partition_delete_state(num(nd, v, "remotePartitionDeleteState")) ? NULL : "null";
    default: return "null";
    }
}

/* What RemoteLogSegmentMetadata.toString and RemoteLogSegmentMetadataSnapshot.toString
 * share: the offsets, and everything from the leader epochs to the end (the custom
 * metadata and state of which RemoteLogSegmentMetadataUpdate.toString says too). */
static void segment_offsets(ss_out *o, const ss_jnode *n, uint32_t v) {
    LIT_I64(o, ", startOffset=", num(n, v, "startOffset"));
    LIT_I64(o, ", endOffset=", num(n, v, "endOffset"));
}

static void custom_and_state(ss_out *o, const ss_jnode *n, uint32_t v) {
    out_lit(o, ", customMetadata=");
    custom_metadata(o, n, v);
    out_lit(o, ", state=");
    out_str(o, segment_state(num(n, v, "remoteLogSegmentState")));
}

/* Kafka 4.1+ ends RemoteLogSegmentMetadata.toString and
 * RemoteLogSegmentMetadataSnapshot.toString with txnIdxEmpty (KIP-1058; the
 * tagged TxnIndexEmpty, false when absent); 4.0 did not have it. */
static void segment_tail(ss_out *o, const ss_jnode *n, uint32_t v, int kafka_version) {
    out_lit(o, ", segmentLeaderEpochs=");
    (void)leader_epochs(o, n, v);
    LIT_I64(o, ", segmentSizeInBytes=", num(n, v, "segmentSizeInBytes"));
    custom_and_state(o, n, v);
    if (kafka_version != 40) LIT_BOOL(o, ", txnIdxEmpty=", num(n, v, "txnIndexEmpty") != 0);
    out_ch(o, '}');
}

/* the end of RemoteLogSegmentMetadataUpdate.toString and RemotePartitionDeleteMetadata.toString */
static void event_broker_tail(ss_out *o, const ss_jnode *n, uint32_t v) {
    LIT_I64(o, ", eventTimestampMs=", num(n, v, "eventTimestampMs"));
    LIT_I64(o, ", brokerId=", num(n, v, "brokerId"));
    out_ch(o, '}');
}

static void remote_text(ss_out *o, const ss_cdecoded *d, int kafka_version) {
    const ss_jnode *n = d->nodes;
    uint32_t v = d->value;
    switch (d->record_type) {
    case SS_RLM_REMOTE_LOG_SEGMENT_METADATA_RECORD: /* RemoteLogSegmentMetadata.toString, after createWithUpdates */
        out_lit(o, "RemoteLogSegmentMetadata{remoteLogSegmentId=");
        segment_id(o, n, ss_jnode_member(n, v, "remoteLogSegmentId"));
        segment_offsets(o, n, v);
        LIT_I64(o, ", brokerId=", num(n, v, "brokerId"));
        LIT_I64(o, ", maxTimestampMs=", num(n, v, "maxTimestampMs"));
        LIT_I64(o, ", eventTimestampMs=", num(n, v, "eventTimestampMs"));
        segment_tail(o, n, v, kafka_version);
        break;
    case SS_RLM_REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD: /* RemoteLogSegmentMetadataUpdate.toString */
        out_lit(o, "RemoteLogSegmentMetadataUpdate{remoteLogSegmentId=");
        segment_id(o, n, ss_jnode_member(n, v, "remoteLogSegmentId"));
        custom_and_state(o, n, v);
        event_broker_tail(o, n, v);
        break;
    case SS_RLM_REMOTE_PARTITION_DELETE_METADATA_RECORD: /* RemotePartitionDeleteMetadata.toString */
        out_lit(o, "RemotePartitionDeleteMetadata{topicPartition=");
        topic_id_partition(o, n, ss_jnode_member(n, v, "topicIdPartition"));
        out_lit(o, ", state=");
        out_str(o, partition_delete_state(num(n, v, "remotePartitionDeleteState")));
        event_broker_tail(o, n, v);
        break;
    default: /* 3: RemoteLogSegmentMetadataSnapshot.toString */
        out_lit(o, "RemoteLogSegmentMetadataSnapshot{segmentId=");
        uuid_of(o, n, ss_jnode_member(n, v, "segmentId"));
        segment_offsets(o, n, v);
        LIT_I64(o, ", maxTimestampMs=", num(n, v, "maxTimestampMs"));
        segment_tail(o, n, v, kafka_version);
        break;
    }
}

/* ---- records ---------------------------------------------------------------------- */

static int kind_of(const struct dump_opts *opt) {
    switch (opt->decoder) {
    case DUMP_DEC_OFFSETS: return SS_CTOPIC_OFFSETS;
    case DUMP_DEC_TXN_LOG: return SS_CTOPIC_TXN_LOG;
    case DUMP_DEC_CLUSTER_METADATA: return SS_CTOPIC_CLUSTER_METADATA;
    case DUMP_DEC_REMOTE_LOG_METADATA: return SS_CTOPIC_REMOTE_LOG_METADATA;
    default: return SS_CTOPIC_SHARE_STATE;
    }
}

/* A record decoded, with a remote log metadata record that its transform
 * refuses turned into the error DumpLogSegments prints. */
static int decode(const struct dump_opts *opt, const ss_record *r, ss_cdecoded *d) {
    ss_cdecoder *cd = decoder();
    if (!cd) {
        memset(d, 0, sizeof *d);
        d->record_type = -1;
        snprintf(d->message, sizeof d->message, "Error at offset %lld, skipping. out of memory", (long long)r->offset);
        return d->status = SS_CDEC_ERROR;
    }
    int kind = kind_of(opt);
    int st = ss_cdecode(cd, kind, r, d);
    if (st == SS_CDEC_OK && kind == SS_CTOPIC_REMOTE_LOG_METADATA) {
        char buf[200];
        const char *bad = remote_invalid(d, buf, sizeof buf);
        if (bad) {
            snprintf(d->message, sizeof d->message, "Error at offset %lld, skipping. %s", (long long)r->offset, bad);
            st = d->status = SS_CDEC_ERROR;
        }
    }
    return st;
}

void dump_internal_text(ss_out *o, const struct dump_opts *opt, const char *file, const ss_record *r,
                        const char *prefix) {
    ss_cdecoded d;
    int st = decode(opt, r, &d);
    int kind = kind_of(opt);
    if (kind == SS_CTOPIC_CLUSTER_METADATA || kind == SS_CTOPIC_REMOTE_LOG_METADATA) {
        /* no key; the payload is the decoded record or the error */
        out_lit(o, " payload: ");
        if (st != SS_CDEC_OK) out_str(o, d.message);
        else if (kind == SS_CTOPIC_CLUSTER_METADATA) render_api_message(o, &d);
        else remote_text(o, &d, opt->kafka_version);
        return;
    }
    if (st == SS_CDEC_NO_KEY) {
        /* Kafka's tool throws here and stops; segscan says so and goes on. */
        out_flush(o);
        if (file) warnx_("%s: %s (kafka-dump-log.sh stops here)", file, d.message);
        else warnx_("%s (kafka-dump-log.sh stops here)", d.message);
        return;
    }
    out_str(o, prefix);
    out_lit(o, "key: ");
    if (st != SS_CDEC_OK) {
        out_str(o, d.message);
        return;
    }
    render_key(o, &d);
    out_lit(o, " payload: ");
    if (d.tombstone) out_lit(o, "<DELETE>");
    else render_value(o, &d, kind == SS_CTOPIC_SHARE_STATE && opt->kafka_version == 40 ? "type" : "version");
}

static const char *layout_status_name(int st) {
    switch (st) {
    case SS_LAYOUT_CHOSEN: return "chosen";
    case SS_LAYOUT_AMBIGUOUS: return "ambiguous";
    case SS_LAYOUT_NEITHER: return "neither";
    default: return NULL;
    }
}

/* Where the value's version has two layouts: which one read it ("layout"), or,
 * when both or neither fit, that ("layoutStatus") with the two names and the
 * value's bytes. */
static void json_layout(ss_out *o, const ss_cdecoded *d, const ss_record *r) {
    if (d->layout_status == SS_LAYOUT_ONE) return;
    if (d->layout) {
        out_lit(o, ",\"layout\":");
        out_json_cstr(o, d->layout);
    }
    out_lit(o, ",\"layoutStatus\":");
    out_json_cstr(o, layout_status_name(d->layout_status));
    out_lit(o, ",\"layouts\":[");
    out_json_cstr(o, d->layouts[0]);
    out_ch(o, ',');
    out_json_cstr(o, d->layouts[1]);
    out_ch(o, ']');
    if (d->layout_status != SS_LAYOUT_CHOSEN && r->value_len >= 0) {
        out_lit(o, ",\"valueHex\":\"");
        out_hex(o, r->value, (size_t)r->value_len);
        out_ch(o, '"');
    }
}

/* Tagged fields the schema does not know (a newer Kafka's): Kafka's JSON
 * converters leave them out, as the text does; the JSON lists them. */
static void json_unknown_tags(ss_out *o, const ss_cdecoded *d) {
    if (!d->n_unknown_tags) return;
    out_lit(o, ",\"unknownTaggedFields\":[");
    for (size_t i = 0; i < d->n_unknown_tags; i++) {
        const ss_unknown_tag *t = &d->unknown_tags[i];
        if (i) out_ch(o, ',');
        out_lit(o, "{\"in\":");
        out_json_cstr(o, t->in);
        LIT_U64(o, ",\"tag\":", t->tag);
        out_lit(o, ",\"bytes\":\"");
        out_hex(o, t->bytes, t->len);
        out_lit(o, "\"}");
    }
    out_ch(o, ']');
}

void dump_internal_json(ss_out *o, const struct dump_opts *opt, const ss_record *r) {
    ss_cdecoded d;
    int st = decode(opt, r, &d);
    int kind = kind_of(opt);
    out_lit(o, ",\"decoded\":{");
    if (st != SS_CDEC_OK) {
        out_lit(o, "\"error\":");
        out_json_cstr(o, d.message);
        out_lit(o, ",\"recordType\":");
        if (d.record_type >= 0) out_i64(o, d.record_type);
        else out_lit(o, "null");
        if (st == SS_CDEC_UNKNOWN_TYPE) out_lit(o, ",\"unknownType\":true");
        json_layout(o, &d, r);
        out_ch(o, '}');
        return;
    }
    if (kind == SS_CTOPIC_CLUSTER_METADATA || kind == SS_CTOPIC_REMOTE_LOG_METADATA) {
        out_lit(o, "\"value\":");
        render_api_message(o, &d);
        if (kind == SS_CTOPIC_REMOTE_LOG_METADATA) {
            /* what kafka-dump-log.sh prints: the object's toString() */
            out_lit(o, ",\"text\":");
            char *buf = NULL;
            size_t len = 0;
            FILE *mem = open_memstream(&buf, &len);
            ss_out t;
            if (mem) {
                out_init(&t, mem);
                remote_text(&t, &d, opt->kafka_version);
                out_flush(&t);
                out_free(&t);
                fclose(mem);
            }
            if (buf) (void)out_json_utf8(o, (const uint8_t *)buf, len);
            else out_lit(o, "null");
            free(buf);
        }
        json_unknown_tags(o, &d);
        out_ch(o, '}');
        return;
    }
    out_lit(o, "\"key\":");
    render_key(o, &d);
    out_lit(o, ",\"value\":");
    if (d.tombstone) out_lit(o, "null");
    else render_value(o, &d, "version");
    json_layout(o, &d, r);
    json_unknown_tags(o, &d);
    out_ch(o, '}');
}

/* ---- KRaft control records ------------------------------------------------------------- */

bool dump_kraft_control(ss_out *o, const ss_record *r, bool json, int kafka_version) {
    ss_cdecoder *cd = decoder();
    if (!cd) return false;
    ss_cdecoded d;
    if (ss_cdecode_control(cd, r, &d) != SS_CDEC_OK) return false;
    if (json) {
        out_lit(o, ",\"kraftControl\":{\"type\":");
        out_json_cstr(o, d.value_name);
        out_lit(o, ",\"data\":");
        render(o, d.nodes, d.value);
        out_ch(o, '}');
        return true;
    }
    /* DumpLogSegments prints a name and the JSON converter's output, written at
     * the record's own Version field; Kafka 4.0 prints LEADER_CHANGE by its
     * type only (its message is printed from KAFKA-19069, Kafka 4.1, on:
     * printControlRecord, " LeaderChange: " + LeaderChangeMessageJsonConverter). */
    const char *label = NULL;
    switch (r->control_type) {
    case SS_CTRL_LEADER_CHANGE:
        if (kafka_version == 40) return false;
        label = " LeaderChange: ";
        break;
    case SS_CTRL_SNAPSHOT_HEADER: label = " SnapshotHeader "; break;
    case SS_CTRL_SNAPSHOT_FOOTER: label = " SnapshotFooter "; break;
    case SS_CTRL_KRAFT_VERSION: label = " KRaftVersion "; break;
    case SS_CTRL_KRAFT_VOTERS: label = " KRaftVoters "; break;
    default: return false;
    }
    out_str(o, label);
    render(o, d.nodes, d.value);
    return true;
}
