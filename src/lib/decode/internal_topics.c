/* segscan - records of __consumer_offsets and __transaction_state, coordinator
 * partitions, and the transactional ids of producer ids.
 *
 * Decoding follows Kafka 4.0: DumpLogSegments' OffsetsMessageParser and
 * TransactionLogMessageParser call CoordinatorRecordSerde.deserialize, which
 * reads the key's record type (int16), reads the key message with that type as
 * its version, then (unless the value is null, a tombstone) the value's version
 * (int16) and the value message. Messages are read the way Kafka's generated
 * readers read them; the message definitions (apache/kafka, *.json under
 * group-coordinator/, transaction-coordinator/ and clients/ .../common/message)
 * are transcribed below as tables: field name (as Kafka's JSON converters write
 * it), type, versions, nullable versions, tag.
 *
 * Errors use Kafka's texts where Kafka has them ("Unknown record type T at
 * offset O, skipping.", "Error at offset O, skipping. Could not read record
 * with version V from value's buffer due to: ...", "non-nullable field X was
 * serialized as null", ...); a read past the end is Java's
 * BufferUnderflowException, whose message is null.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/reader.h"
#include "format/walker.h"
#include "segscan/decode.h"

/* ---- message definitions ------------------------------------------------------------ */

enum ftype { T_I8, T_I16, T_I32, T_I64, T_BOOL, T_STR, T_BYTES, T_STRS, T_I32S, T_STRUCTS };

#define VMAX INT16_MAX

typedef struct sdesc sdesc;

typedef struct fdesc {
    const char *name;     /* camelCase, as the JSON converters write it */
    int type;             /* enum ftype */
    int16_t vmin, vmax;   /* versions the field is in */
    int16_t nullable_min; /* nullable from this version on; -1: never */
    int16_t tag;          /* -1: not tagged; else a tagged field in its versions */
    int64_t def;          /* default of a tagged integer field */
    const sdesc *sub;     /* T_STRUCTS */
} fdesc;

struct sdesc {
    const char *name; /* for "Can't read version" */
    const fdesc *f;
    size_t n;
    int16_t flex_min; /* first flexible version, -1: none */
    int16_t highest;  /* highest version the reader accepts */
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define F(name, type, vmin, vmax)                                                                                      \
    { name, type, vmin, vmax, -1, -1, 0, NULL }
#define FN(name, type, vmin, vmax, nmin)                                                                               \
    { name, type, vmin, vmax, nmin, -1, 0, NULL }
#define FT(name, type, vmin, tag, def)                                                                                 \
    { name, type, vmin, VMAX, -1, tag, def, NULL }
#define FS(name, vmin, vmax, nmin, sub)                                                                                \
    { name, T_STRUCTS, vmin, vmax, nmin, -1, 0, &sub }

/* OffsetCommitKey.json: the key of record types 0 and 1 */
static const fdesc offset_commit_key_f[] = {F("group", T_STR, 0, VMAX), F("topic", T_STR, 0, VMAX),
                                            F("partition", T_I32, 0, VMAX)};
static const sdesc offset_commit_key = {"OffsetCommitKey", offset_commit_key_f, N(offset_commit_key_f), -1, 1};

/* OffsetCommitValue.json: validVersions 0-4, flexibleVersions 4+ */
static const fdesc offset_commit_value_f[] = {
    F("offset", T_I64, 0, VMAX),          F("leaderEpoch", T_I32, 3, VMAX),  F("metadata", T_STR, 0, VMAX),
    F("commitTimestamp", T_I64, 0, VMAX), F("expireTimestamp", T_I64, 1, 1),
};
static const sdesc offset_commit_value = {"OffsetCommitValue", offset_commit_value_f, N(offset_commit_value_f), 4, 4};

/* GroupMetadataKey.json: the key of record type 2 */
static const fdesc group_metadata_key_f[] = {F("group", T_STR, 0, VMAX)};
static const sdesc group_metadata_key = {"GroupMetadataKey", group_metadata_key_f, N(group_metadata_key_f), -1, 2};

/* GroupMetadataValue.json: validVersions 0-4, flexibleVersions 4+; MemberMetadata */
static const fdesc member_metadata_f[] = {
    F("memberId", T_STR, 0, VMAX),       FN("groupInstanceId", T_STR, 3, VMAX, 3), F("clientId", T_STR, 0, VMAX),
    F("clientHost", T_STR, 0, VMAX),     F("rebalanceTimeout", T_I32, 1, VMAX),    F("sessionTimeout", T_I32, 0, VMAX),
    F("subscription", T_BYTES, 0, VMAX), F("assignment", T_BYTES, 0, VMAX),
};
static const sdesc member_metadata = {"MemberMetadata", member_metadata_f, N(member_metadata_f), 4, 4};
static const fdesc group_metadata_value_f[] = {
    F("protocolType", T_STR, 0, VMAX),          F("generation", T_I32, 0, VMAX),
    FN("protocol", T_STR, 0, VMAX, 0),          FN("leader", T_STR, 0, VMAX, 0),
    F("currentStateTimestamp", T_I64, 2, VMAX), FS("members", 0, VMAX, -1, member_metadata),
};
static const sdesc group_metadata_value = {"GroupMetadataValue", group_metadata_value_f, N(group_metadata_value_f), 4,
                                           4};

/* ConsumerProtocolSubscription.json / ConsumerProtocolAssignment.json: validVersions 0-3, not flexible */
static const fdesc owned_partition_f[] = {F("topic", T_STR, 1, VMAX), F("partitions", T_I32S, 1, VMAX)};
static const sdesc owned_partition = {"TopicPartition", owned_partition_f, N(owned_partition_f), -1, VMAX};
static const fdesc subscription_f[] = {
    F("topics", T_STRS, 0, VMAX),
    FN("userData", T_BYTES, 0, VMAX, 0),
    FS("ownedPartitions", 1, VMAX, -1, owned_partition),
    F("generationId", T_I32, 2, VMAX),
    FN("rackId", T_STR, 3, VMAX, 3),
};
static const sdesc subscription = {"ConsumerProtocolSubscription", subscription_f, N(subscription_f), -1, 3};
static const fdesc assigned_partition_f[] = {F("topic", T_STR, 0, VMAX), F("partitions", T_I32S, 0, VMAX)};
static const sdesc assigned_partition = {"TopicPartition", assigned_partition_f, N(assigned_partition_f), -1, VMAX};
static const fdesc assignment_f[] = {FS("assignedPartitions", 0, VMAX, -1, assigned_partition),
                                     FN("userData", T_BYTES, 0, VMAX, 0)};
static const sdesc assignment = {"ConsumerProtocolAssignment", assignment_f, N(assignment_f), -1, 3};

/* TransactionLogKey.json: validVersions 0 */
static const fdesc txn_log_key_f[] = {F("transactionalId", T_STR, 0, VMAX)};
static const sdesc txn_log_key = {"TransactionLogKey", txn_log_key_f, N(txn_log_key_f), -1, 0};

/* TransactionLogValue.json: validVersions 0-1, flexibleVersions 1+ */
static const fdesc partitions_schema_f[] = {F("topic", T_STR, 0, VMAX), F("partitionIds", T_I32S, 0, VMAX)};
static const sdesc partitions_schema = {"PartitionsSchema", partitions_schema_f, N(partitions_schema_f), 1, VMAX};
static const fdesc txn_log_value_f[] = {
    F("producerId", T_I64, 0, VMAX),
    FT("previousProducerId", T_I64, 1, 0, -1),
    FT("nextProducerId", T_I64, 1, 1, -1),
    F("producerEpoch", T_I16, 0, VMAX),
    F("transactionTimeoutMs", T_I32, 0, VMAX),
    F("transactionStatus", T_I8, 0, VMAX),
    FS("transactionPartitions", 0, VMAX, 0, partitions_schema),
    F("transactionLastUpdateTimestampMs", T_I64, 0, VMAX),
    F("transactionStartTimestampMs", T_I64, 0, VMAX),
    FT("clientTransactionVersion", T_I16, 1, 2, 0),
};
static const sdesc txn_log_value = {"TransactionLogValue", txn_log_value_f, N(txn_log_value_f), 1, 1};

/* Record types Kafka 4.0's group coordinator knows beyond 0..2 (KIP-848 consumer groups,
 * KIP-932 share groups): segscan does not decode them. */
#define GROUP_TYPES_KNOWN_TO_KAFKA 16

/* ---- the decoder ---------------------------------------------------------------- */

struct ss_cdecoder {
    ss_jnode *nodes;
    uint32_t n, cap;
    bool nomem;
    char err[400]; /* the reason of a failed read */
};

ss_cdecoder *ss_cdecoder_new(void) { return calloc(1, sizeof(ss_cdecoder)); }

void ss_cdecoder_free(ss_cdecoder *d) {
    if (!d) return;
    free(d->nodes);
    free(d);
}

static uint32_t node_new(ss_cdecoder *d, int kind, const char *name) {
    if (d->n == d->cap) {
        uint32_t nc = d->cap ? d->cap * 2 : 64;
        ss_jnode *nn = realloc(d->nodes, nc * sizeof *nn);
        if (!nn) {
            d->nomem = true;
            return 0;
        }
        d->nodes = nn;
        d->cap = nc;
    }
    ss_jnode *x = &d->nodes[d->n];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->name = name;
    return d->n++;
}

static bool fail(ss_cdecoder *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(ss_cdecoder *d, const char *fmt, ...) {
    if (d->err[0]) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->err, sizeof d->err, fmt, ap);
    va_end(ap);
    return false;
}

/* java.nio.BufferUnderflowException has no message. */
static bool underflow(ss_cdecoder *d, ss_rd *r) {
    if (!r->bad) return true;
    return fail(d, "null");
}

/* ByteBufferAccessor.readUnsignedVarint (ByteUtils.readUnsignedVarint). */
static uint32_t read_uvarint(ss_cdecoder *d, ss_rd *r, bool *ok) {
    uint32_t v = 0;
    for (int i = 0; i < 5; i++) {
        if (!ss_rd_need(r, 1)) {
            *ok = underflow(d, r);
            return 0;
        }
        uint8_t b = *r->p++;
        if (i == 4 && (b & 0xf0)) {
            *ok = fail(d, "Varint is too long, the most significant bit in the 5th byte is set, converted value: %x",
                       v | (uint32_t)b << 28);
            return 0;
        }
        v |= (uint32_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *ok = true;
            return v;
        }
    }
    *ok = true;
    return v;
}

static bool field_in(const fdesc *f, int16_t v) { return v >= f->vmin && v <= f->vmax; }

/* A length-prefixed field: a string or bytes length, or an array length. Sets *null. */
static bool read_len(ss_cdecoder *d, ss_rd *r, bool flex, bool wide, int32_t *len) {
    if (flex) {
        bool ok;
        uint32_t u = read_uvarint(d, r, &ok);
        if (!ok) return false;
        *len = (int32_t)(u - 1);
        return true;
    }
    *len = wide ? ss_rd_i32(r) : (int32_t)ss_rd_i16(r);
    return underflow(d, r);
}

static bool read_struct(ss_cdecoder *d, ss_rd *r, const sdesc *s, int16_t version, const char *name, uint32_t *out);

static bool read_string(ss_cdecoder *d, ss_rd *r, const char *name, bool flex, bool nullable, uint32_t *out) {
    int32_t len;
    if (!read_len(d, r, flex, false, &len)) return false;
    if (len < 0) {
        if (!nullable) return fail(d, "non-nullable field %s was serialized as null", name);
        *out = node_new(d, SS_J_NULL, NULL);
        return !d->nomem;
    }
    if (len > 0x7fff) return fail(d, "string field %s had invalid length %" PRId32, name, len);
    size_t left = ss_rd_left(r);
    if ((size_t)len > left)
        return fail(d, "Error reading string of %" PRId32 " byte(s): only %zu byte(s) available", len, left);
    const uint8_t *p = ss_rd_bytes(r, (size_t)len);
    uint32_t x = node_new(d, SS_J_STRING, NULL);
    if (d->nomem) return false;
    d->nodes[x].str = p;
    d->nodes[x].len = (size_t)len;
    *out = x;
    return true;
}

static bool read_bytes(ss_cdecoder *d, ss_rd *r, const char *name, bool flex, bool nullable, uint32_t *out) {
    int32_t len;
    if (!read_len(d, r, flex, true, &len)) return false;
    if (len < 0) {
        if (!nullable) return fail(d, "non-nullable field %s was serialized as null", name);
        *out = node_new(d, SS_J_NULL, NULL);
        return !d->nomem;
    }
    size_t left = ss_rd_left(r);
    if ((size_t)len > left)
        return fail(d, "Error reading byte array of %" PRId32 " byte(s): only %zu byte(s) available", len, left);
    const uint8_t *p = ss_rd_bytes(r, (size_t)len);
    uint32_t x = node_new(d, SS_J_BYTES, NULL);
    if (d->nomem) return false;
    d->nodes[x].str = p;
    d->nodes[x].len = (size_t)len;
    *out = x;
    return true;
}

static bool read_int(ss_cdecoder *d, ss_rd *r, int type, uint32_t *out) {
    int64_t v = 0;
    switch (type) {
    case T_I8: v = (int8_t)ss_rd_u8(r); break;
    case T_BOOL: v = ss_rd_u8(r) != 0; break;
    case T_I16: v = ss_rd_i16(r); break;
    case T_I32: v = ss_rd_i32(r); break;
    default: v = ss_rd_i64(r); break;
    }
    if (!underflow(d, r)) return false;
    uint32_t x = node_new(d, type == T_BOOL ? SS_J_BOOL : SS_J_INT, NULL);
    if (d->nomem) return false;
    d->nodes[x].num = v;
    *out = x;
    return true;
}

/* One field's value into a new node (not yet linked). */
static bool read_field(ss_cdecoder *d, ss_rd *r, const fdesc *f, int16_t version, bool flex, uint32_t *out) {
    bool nullable = f->nullable_min >= 0 && version >= f->nullable_min;
    switch (f->type) {
    case T_I8:
    case T_I16:
    case T_I32:
    case T_I64:
    case T_BOOL: return read_int(d, r, f->type, out);
    case T_STR: return read_string(d, r, f->name, flex, nullable, out);
    case T_BYTES: return read_bytes(d, r, f->name, flex, nullable, out);
    default: break;
    }
    /* arrays */
    int32_t count;
    if (!read_len(d, r, flex, true, &count)) return false;
    if (count < 0) {
        if (!nullable) return fail(d, "non-nullable field %s was serialized as null", f->name);
        *out = node_new(d, SS_J_NULL, NULL);
        return !d->nomem;
    }
    size_t left = ss_rd_left(r);
    if ((size_t)count > left)
        return fail(d, "Tried to allocate a collection of size %" PRId32 ", but there are only %zu bytes remaining.",
                    count, left);
    uint32_t arr = node_new(d, SS_J_ARRAY, NULL);
    if (d->nomem) return false;
    uint32_t last = 0;
    for (int32_t i = 0; i < count; i++) {
        uint32_t el = 0;
        bool ok;
        if (f->type == T_I32S) ok = read_int(d, r, T_I32, &el);
        else if (f->type == T_STRS) ok = read_string(d, r, f->name, flex, false, &el);
        else ok = read_struct(d, r, f->sub, version, NULL, &el);
        if (!ok) return false;
        if (last) d->nodes[last].next = el;
        else d->nodes[arr].first = el;
        last = el;
    }
    *out = arr;
    return true;
}

/* A struct (or a whole message) as the generated read(): the fields present
 * in this version, then, when flexible, the tagged fields. Tagged fields are
 * kept (in schema order) only when they differ from their default, as the
 * generated JSON converters write them. */
static bool read_struct(ss_cdecoder *d, ss_rd *r, const sdesc *s, int16_t version, const char *name, uint32_t *out) {
    if (version > s->highest) return fail(d, "Can't read version %d of %s", (int)version, s->name);
    int16_t v = version < 0 ? 0 : version;
    bool flex = s->flex_min >= 0 && v >= s->flex_min;
    uint32_t obj = node_new(d, SS_J_OBJECT, name);
    if (d->nomem) return false;
    uint32_t vals[16] = {0};
    bool present[16] = {false};
    for (size_t i = 0; i < s->n && i < 16; i++) {
        const fdesc *f = &s->f[i];
        if (!field_in(f, v)) continue;
        if (f->tag >= 0) {
            if (!flex) continue;
            present[i] = true; /* default until its tag is read */
            continue;
        }
        if (!read_field(d, r, f, v, flex, &vals[i])) return false;
        present[i] = true;
    }
    if (flex) {
        bool ok;
        uint32_t ntags = read_uvarint(d, r, &ok);
        if (!ok) return false;
        for (uint32_t t = 0; t < ntags; t++) {
            uint32_t tag = read_uvarint(d, r, &ok);
            if (!ok) return false;
            uint32_t size = read_uvarint(d, r, &ok);
            if (!ok) return false;
            size_t k = s->n;
            for (size_t i = 0; i < s->n; i++)
                if (s->f[i].tag >= 0 && (uint32_t)s->f[i].tag == tag && present[i]) k = i;
            if (k == s->n) {
                /* an unknown tagged field: kept by Kafka, not written by its JSON converter */
                size_t left = ss_rd_left(r);
                if (size > left)
                    return fail(d, "Error reading byte array of %" PRIu32 " byte(s): only %zu byte(s) available", size,
                                left);
                (void)ss_rd_bytes(r, size);
                continue;
            }
            if (!read_field(d, r, &s->f[k], v, flex, &vals[k])) return false;
        }
    }
    uint32_t last = 0;
    for (size_t i = 0; i < s->n && i < 16; i++) {
        if (!present[i]) continue;
        const fdesc *f = &s->f[i];
        uint32_t x = vals[i];
        if (f->tag >= 0) {
            if (!x) continue; /* not in the tagged section: the default */
            if (d->nodes[x].kind == SS_J_INT && d->nodes[x].num == f->def) continue;
        }
        d->nodes[x].name = f->name;
        if (last) d->nodes[last].next = x;
        else d->nodes[obj].first = x;
        last = x;
    }
    *out = obj;
    return true;
}

/* The child of an object by name, 0 when absent. */
static uint32_t child(const ss_cdecoder *d, uint32_t obj, const char *name) {
    for (uint32_t c = d->nodes[obj].first; c; c = d->nodes[c].next)
        if (d->nodes[c].name && !strcmp(d->nodes[c].name, name)) return c;
    return 0;
}

/* DumpLogSegments' prepareGroupMetadataValue: decode each member's subscription
 * and assignment of a "consumer" group; keep the bytes when that fails. */
static void replace_embedded(ss_cdecoder *d, uint32_t member, const char *field, const sdesc *s) {
    uint32_t b = child(d, member, field);
    if (!b || d->nodes[b].kind != SS_J_BYTES) return;
    ss_rd r = ss_rd_make(d->nodes[b].str, d->nodes[b].len);
    int16_t version = ss_rd_i16(&r);
    if (r.bad) return;
    char saved[sizeof d->err];
    memcpy(saved, d->err, sizeof saved);
    d->err[0] = 0;
    uint32_t n_before = d->n, obj = 0;
    bool ok = read_struct(d, &r, s, version, NULL, &obj);
    if (!ok || d->nomem) {
        d->n = n_before; /* drop what was built; the bytes stay */
        memcpy(d->err, saved, sizeof saved);
        return;
    }
    memcpy(d->err, saved, sizeof saved);
    d->nodes[b].kind = SS_J_OBJECT;
    d->nodes[b].first = d->nodes[obj].first;
    d->nodes[b].str = NULL;
    d->nodes[b].len = 0;
}

static void consumer_protocol(ss_cdecoder *d, uint32_t value) {
    uint32_t pt = child(d, value, "protocolType");
    if (!pt || d->nodes[pt].kind != SS_J_STRING || d->nodes[pt].len != 8 ||
        memcmp(d->nodes[pt].str, "consumer", 8) != 0)
        return;
    uint32_t members = child(d, value, "members");
    if (!members || d->nodes[members].kind != SS_J_ARRAY) return;
    for (uint32_t m = d->nodes[members].first; m; m = d->nodes[m].next) {
        replace_embedded(d, m, "subscription", &subscription);
        replace_embedded(d, m, "assignment", &assignment);
    }
}

int ss_cdecode(ss_cdecoder *d, int kind, const ss_record *r, ss_cdecoded *out) {
    memset(out, 0, sizeof *out);
    out->record_type = -1;
    out->value_version = -1;
    d->n = 0;
    d->nomem = false;
    d->err[0] = 0;
    (void)node_new(d, SS_J_NULL, NULL); /* node 0: "none" */
    if (d->nomem) {
        out->status = SS_CDEC_ERROR;
        snprintf(out->message, sizeof out->message, "Error at offset %" PRId64 ", skipping. out of memory", r->offset);
        return out->status;
    }
    if (r->key_len < 0) {
        out->status = SS_CDEC_NO_KEY;
        snprintf(out->message, sizeof out->message,
                 "Failed to decode message at offset %" PRId64 " using the specified decoder (message had a missing "
                 "key)",
                 r->offset);
        return out->status;
    }
    ss_rd kr = ss_rd_make(r->key, (size_t)r->key_len);
    int16_t type = ss_rd_i16(&kr);
    if (kr.bad) {
        out->status = SS_CDEC_ERROR;
        snprintf(out->message, sizeof out->message,
                 "Error at offset %" PRId64 ", skipping. Could not read version from key's buffer.", r->offset);
        return out->status;
    }
    out->record_type = type;
    const sdesc *ks = NULL, *vs = NULL;
    if (kind == SS_CTOPIC_OFFSETS) {
        if (type == 0 || type == 1) ks = &offset_commit_key, vs = &offset_commit_value;
        else if (type == 2) ks = &group_metadata_key, vs = &group_metadata_value;
        else out->known_to_kafka = type > 2 && type <= GROUP_TYPES_KNOWN_TO_KAFKA;
    } else if (kind == SS_CTOPIC_TXN_LOG) {
        if (type == 0) ks = &txn_log_key, vs = &txn_log_value;
    }
    if (!ks) {
        out->status = SS_CDEC_UNKNOWN_TYPE;
        snprintf(out->message, sizeof out->message, "Unknown record type %d at offset %" PRId64 ", skipping.",
                 (int)type, r->offset);
        return out->status;
    }
    out->key_name = ks->name;
    if (!read_struct(d, &kr, ks, type, NULL, &out->key)) goto failed_key;
    if (r->value_len < 0) {
        out->tombstone = true;
        out->nodes = d->nodes;
        return out->status = SS_CDEC_OK;
    }
    ss_rd vr = ss_rd_make(r->value, (size_t)r->value_len);
    int16_t vv = ss_rd_i16(&vr);
    if (vr.bad) {
        out->status = SS_CDEC_ERROR;
        snprintf(out->message, sizeof out->message,
                 "Error at offset %" PRId64 ", skipping. Could not read version from value's buffer.", r->offset);
        return out->status;
    }
    out->value_version = vv;
    if (!read_struct(d, &vr, vs, vv, NULL, &out->value)) {
        out->status = SS_CDEC_ERROR;
        snprintf(out->message, sizeof out->message,
                 "Error at offset %" PRId64 ", skipping. Could not read record with version %d from value's buffer "
                 "due to: %s.",
                 r->offset, (int)vv, d->nomem ? "out of memory" : d->err);
        out->key = out->value = 0;
        return out->status;
    }
    if (vs == &group_metadata_value) consumer_protocol(d, out->value);
    out->nodes = d->nodes;
    return out->status = SS_CDEC_OK;
failed_key:
    out->status = SS_CDEC_ERROR;
    snprintf(out->message, sizeof out->message,
             "Error at offset %" PRId64 ", skipping. Could not read record with version %d from key's buffer due to: "
             "%s.",
             r->offset, (int)type, d->nomem ? "out of memory" : d->err);
    out->key = 0;
    return out->status;
}

const char *ss_txn_state_name(int id) {
    static const char *const names[] = {"Empty",          "Ongoing",       "PrepareCommit", "PrepareAbort",
                                        "CompleteCommit", "CompleteAbort", "Dead",          "PrepareEpochFence"};
    return id >= 0 && (size_t)id < N(names) ? names[id] : NULL;
}

/* ---- Java's String.hashCode ------------------------------------------------------ */

static bool cont(uint8_t b) { return (b & 0xc0) == 0x80; }

/* One code point of Java's UTF-8 decoding (new String(bytes, UTF_8)): malformed
 * input becomes U+FFFD over the bytes Java's decoder gives up on. Returns the
 * number of bytes used. */
static size_t utf8_step(const uint8_t *p, size_t n, uint32_t *cp) {
    uint8_t b1 = p[0];
    *cp = 0xFFFD;
    if (b1 < 0x80) {
        *cp = b1;
        return 1;
    }
    if (b1 >= 0xC2 && b1 <= 0xDF) {
        if (n >= 2 && cont(p[1])) {
            *cp = (uint32_t)(b1 & 0x1f) << 6 | (p[1] & 0x3fu);
            return 2;
        }
        return 1;
    }
    if (b1 >= 0xE0 && b1 <= 0xEF) {
        if (n < 2) return 1;
        uint8_t b2 = p[1];
        if ((b1 == 0xE0 && (b2 & 0xe0) == 0x80) || !cont(b2)) return 1;
        if (n < 3) return 2; /* a truncated sequence at the end: one U+FFFD */
        if (!cont(p[2])) return 2;
        uint32_t c = (uint32_t)(b1 & 0x0f) << 12 | (uint32_t)(b2 & 0x3f) << 6 | (p[2] & 0x3fu);
        if (c >= 0xD800 && c <= 0xDFFF) return 3; /* an encoded surrogate */
        *cp = c;
        return 3;
    }
    if (b1 >= 0xF0 && b1 <= 0xF4) {
        if (n < 2) return 1;
        uint8_t b2 = p[1];
        if ((b1 == 0xF0 && (b2 < 0x90 || b2 > 0xBF)) || (b1 == 0xF4 && (b2 & 0xf0) != 0x80) || !cont(b2)) return 1;
        if (n < 3) return 2;
        if (!cont(p[2])) return 2;
        if (n < 4) return 3;
        if (!cont(p[3])) return 3;
        *cp = (uint32_t)(b1 & 0x07) << 18 | (uint32_t)(b2 & 0x3f) << 12 | (uint32_t)(p[2] & 0x3f) << 6 | (p[3] & 0x3fu);
        return 4;
    }
    return 1;
}

int32_t ss_java_string_hash(const uint8_t *id, size_t len) {
    uint32_t h = 0; /* int arithmetic: wraps modulo 2^32 */
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        i += utf8_step(id + i, len - i, &cp);
        if (cp >= 0x10000) {
            uint32_t v = cp - 0x10000;
            h = 31u * h + (0xD800u + (v >> 10));
            h = 31u * h + (0xDC00u + (v & 0x3ff));
        } else {
            h = 31u * h + cp;
        }
    }
    return (int32_t)h;
}

int32_t ss_coordinator_partition(const uint8_t *id, size_t len, int32_t partitions) {
    if (partitions <= 0) return -1;
    int32_t h = ss_java_string_hash(id, len);
    int32_t a = h == INT32_MIN ? 0 : (h < 0 ? -h : h); /* Utils.abs */
    return a % partitions;
}

/* ---- transactional ids of producer ids ---------------------------------------------- */

struct ss_txn_ids {
    ss_txn_id *v;
    size_t n, cap;
};

size_t ss_txn_ids_count(const ss_txn_ids *t) { return t ? t->n : 0; }
const ss_txn_id *ss_txn_ids_at(const ss_txn_ids *t, size_t i) { return &t->v[i]; }

const ss_txn_id *ss_txn_ids_find(const ss_txn_ids *t, int64_t producer_id) {
    if (!t) return NULL;
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->v[mid].producer_id < producer_id) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->n && t->v[lo].producer_id == producer_id ? &t->v[lo] : NULL;
}

void ss_txn_ids_free(ss_txn_ids *t) {
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) free((char *)t->v[i].transactional_id);
    free(t->v);
    free(t);
}

/* Append an entry; a later one of the same pid wins when they are compacted at the end. */
static bool ids_put(ss_txn_ids *t, int64_t pid, int16_t epoch, const uint8_t *id, size_t len, int state, uint32_t part,
                    int64_t offset) {
    char *copy = malloc(len + 1);
    if (!copy) return false;
    memcpy(copy, id, len);
    copy[len] = 0;
    if (!SS_GROW(t->v, t->n, t->cap, 32)) {
        free(copy);
        return false;
    }
    ss_txn_id *e = &t->v[t->n++];
    e->producer_id = pid;
    e->producer_epoch = epoch;
    e->transactional_id = copy;
    e->transactional_id_len = len;
    e->state = state;
    e->partition = part;
    e->offset = offset;
    return true;
}

/* By pid, then by the order they were read (partition, offset): the last of a pid wins. */
static int cmp_id(const void *a, const void *b) {
    const ss_txn_id *x = a, *y = b;
    if (x->producer_id != y->producer_id) return x->producer_id < y->producer_id ? -1 : 1;
    if (x->partition != y->partition) return x->partition < y->partition ? -1 : 1;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void ids_compact(ss_txn_ids *t) {
    if (t->n > 1) qsort(t->v, t->n, sizeof *t->v, cmp_id);
    size_t w = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (i + 1 < t->n && t->v[i + 1].producer_id == t->v[i].producer_id) {
            free((char *)t->v[i].transactional_id);
            continue;
        }
        t->v[w++] = t->v[i];
    }
    t->n = w;
}

static int64_t num_of(const ss_cdecoder *d, uint32_t obj, const char *name, int64_t dflt) {
    uint32_t c = child(d, obj, name);
    return c && d->nodes[c].kind == SS_J_INT ? d->nodes[c].num : dflt;
}

/* One record of __transaction_state. */
static bool txn_record(ss_txn_ids *t, ss_cdecoder *cd, const ss_record *rec, uint32_t part) {
    ss_cdecoded dec;
    if (ss_cdecode(cd, SS_CTOPIC_TXN_LOG, rec, &dec) != SS_CDEC_OK || dec.tombstone) return true;
    uint32_t idn = child(cd, dec.key, "transactionalId");
    if (!idn || cd->nodes[idn].kind != SS_J_STRING) return true;
    const uint8_t *id = cd->nodes[idn].str;
    size_t len = cd->nodes[idn].len;
    int16_t epoch = (int16_t)num_of(cd, dec.value, "producerEpoch", -1);
    int state = (int)num_of(cd, dec.value, "transactionStatus", -1);
    static const char *const pid_fields[] = {"previousProducerId", "nextProducerId", "producerId"};
    for (size_t k = 0; k < N(pid_fields); k++) {
        int64_t pid = num_of(cd, dec.value, pid_fields[k], -1);
        if (pid < 0) continue;
        if (!ids_put(t, pid, k == 2 ? epoch : -1, id, len, state, part, rec->offset)) return false;
    }
    return true;
}

ss_errkind ss_txn_state_ids(const ss_inputs *in, ss_txn_ids **out, ss_error *err) {
    ss_txn_ids *t = calloc(1, sizeof *t);
    *out = t;
    if (err) {
        memset(err, 0, sizeof *err);
        err->base_offset = -1;
    }
    ss_cdecoder *cd = ss_cdecoder_new();
    ss_decoder *dec = ss_decoder_new(SS_DEFAULT_MAX_BATCH_BYTES);
    ss_window win = {0};
    ss_errkind rc = SS_E_OK;
    if (!t || !cd || !dec) {
        rc = SS_E_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < ss_inputs_count(in) && rc == SS_E_OK; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (strcmp(ip->topic, "__transaction_state") != 0) continue;
        for (size_t j = 0; j < ip->nsegments && rc == SS_E_OK; j++) {
            ss_segment *seg;
            ss_error e;
            if (ss_inputs_open_segment(in, i, j, &seg, &e) != SS_E_OK) continue;
            ss_walker w;
            ss_walker_init(&w, seg, UINT64_MAX);
            ss_walker_set_decoder(&w, dec);
            ss_event ev;
            ss_event_kind k;
            while ((k = ss_walker_next_copy(&w, &win, &ev)) != SS_EV_END && rc == SS_E_OK) {
                if (k != SS_EV_BATCH || !ev.batch.crc_valid || ev.batch.control) continue;
                ss_rec_iter it;
                ss_record r;
                if (ss_records_begin(dec, &ev.batch, &it, &e) != SS_E_OK) continue;
                while (ss_records_next(&it, &r, &e) == 1)
                    if (!txn_record(t, cd, &r, (uint32_t)i)) {
                        rc = SS_E_NOMEM;
                        break;
                    }
            }
            ss_segment_close(seg);
        }
    }
    if (t) ids_compact(t);
done:
    ss_window_free(&win);
    if (rc == SS_E_NOMEM && err) {
        err->kind = SS_E_NOMEM;
        snprintf(err->msg, sizeof err->msg, "out of memory reading __transaction_state");
    }
    ss_cdecoder_free(cd);
    ss_decoder_free(dec);
    return rc;
}
