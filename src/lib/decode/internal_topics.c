/* segscan - records of Kafka's internal topics (__consumer_offsets,
 * __transaction_state, __share_group_state, __cluster_metadata and its KRaft
 * snapshots, __remote_log_metadata) and coordinator partitions; the
 * transactional ids of producer ids are in txn_ids.c.
 *
 * Decoding follows Kafka 4.0's kafka-dump-log.sh (DumpLogSegments' message
 * parsers). The coordinators' records (CoordinatorRecordSerde.deserialize):
 * the key's record type (int16), the key message read with that type as its
 * version, then (unless the value is null, a tombstone) the value's version
 * (int16) and the value message. Cluster metadata and remote log metadata
 * (AbstractApiMessageSerde.read): a frame version, an apiKey and a version
 * (unsigned varints), then the message. Messages are read as Kafka's generated
 * readers read them, with the tables that tools/gen_kafka_messages.py writes
 * from Kafka's message definitions (decode/kafka_messages.c), into a tree of
 * nodes in the order Kafka's JSON converters write them.
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

#include "base/error_set.h"
#include "base/grow.h"
#include "base/reader.h"
#include "format/walker.h"
#include "segscan/decode.h"

#include "decode/kmsg.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_FIELDS 32 /* the generator refuses a struct with more */

/* ---- the decoder ---------------------------------------------------------------- */

struct ss_cdecoder {
    ss_jnode *nodes;
    uint32_t n;
    size_t cap;
    ss_unknown_tag *tags; /* the unknown tagged fields of the record, reused as the nodes are */
    size_t ntags, tagcap;
    bool nomem;
    ss_error err; /* the reason of a failed read (SS_E_BAD_RECORD), the first one met */
};

ss_cdecoder *ss_cdecoder_new(void) { return calloc(1, sizeof(ss_cdecoder)); }

void ss_cdecoder_free(ss_cdecoder *d) {
    if (!d) return;
    free(d->nodes);
    free(d->tags);
    free(d);
}

/* Nodes live in one array reused from record to record: it grows (rarely) and
 * is never freed between records, so decoding allocates nothing per record. */
static uint32_t node_new(ss_cdecoder *d, int kind, const char *name) {
    if (!SS_GROW(d->nodes, d->n, d->cap, 64)) {
        d->nomem = true;
        return 0;
    }
    ss_jnode *x = &d->nodes[d->n];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->name = name;
    return d->n++;
}

/* Record why a read failed, unless a reason is already there: the innermost
 * failure is the exception Kafka's reader throws, the callers' reasons wrap
 * it. Returns false, for "return fail(...)". */
static bool fail(ss_cdecoder *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(ss_cdecoder *d, const char *fmt, ...) {
    if (d->err.kind != SS_E_OK) return false;
    va_list ap;
    va_start(ap, fmt);
    ss_error_vset(&d->err, SS_E_BAD_RECORD, 0, -1, fmt, ap);
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

static bool in(int16_t v, int16_t lo, int16_t hi) { return v >= lo && v <= hi; }

/* A length: compact (unsigned varint - 1) or int16 / int32. */
static bool read_len(ss_cdecoder *d, ss_rd *r, bool compact, bool wide, int32_t *len) {
    if (compact) {
        bool ok;
        uint32_t u = read_uvarint(d, r, &ok);
        if (!ok) return false;
        *len = (int32_t)(u - 1);
        return true;
    }
    *len = wide ? ss_rd_i32(r) : (int32_t)ss_rd_i16(r);
    return underflow(d, r);
}

static bool read_struct(ss_cdecoder *d, ss_rd *r, const kstruct *s, int16_t version, uint32_t *out);

static bool new_null(ss_cdecoder *d, uint32_t *out) {
    *out = node_new(d, SS_J_NULL, NULL);
    return !d->nomem;
}

static bool new_span(ss_cdecoder *d, int kind, const uint8_t *p, size_t len, uint32_t *out) {
    uint32_t x = node_new(d, kind, NULL);
    if (d->nomem) return false;
    d->nodes[x].str = p;
    d->nodes[x].len = len;
    *out = x;
    return true;
}

/* One value of a field's type (an element, for an array), as the generated read() reads it. */
static bool read_one(ss_cdecoder *d, ss_rd *r, const kfield *f, int16_t v, bool nullable, uint32_t *out) {
    bool compact = in(v, f->xlo, f->xhi);
    int64_t num = 0;
    int kind = SS_J_INT;
    switch (f->type) {
    case KT_BOOL:
        num = ss_rd_u8(r) != 0;
        kind = SS_J_BOOL;
        break;
    case KT_I8: num = (int8_t)ss_rd_u8(r); break;
    case KT_I16: num = ss_rd_i16(r); break;
    case KT_U16: num = ss_rd_u16(r); break;
    case KT_I32: num = ss_rd_i32(r); break;
    case KT_U32: num = ss_rd_u32(r); break;
    case KT_I64: num = ss_rd_i64(r); break;
    case KT_F64: {
        uint64_t bits = ss_rd_u64(r);
        if (!underflow(d, r)) return false;
        uint32_t x = node_new(d, SS_J_FLOAT, NULL);
        if (d->nomem) return false;
        memcpy(&d->nodes[x].dbl, &bits, sizeof bits);
        *out = x;
        return true;
    }
    case KT_UUID: {
        const uint8_t *p = ss_rd_bytes(r, 16);
        if (!underflow(d, r)) return false;
        return new_span(d, SS_J_UUID, p, 16, out);
    }
    case KT_STR: {
        int32_t len;
        if (!read_len(d, r, compact, false, &len)) return false;
        if (len < 0) {
            if (!nullable) return fail(d, "non-nullable field %s was serialized as null", f->name);
            return new_null(d, out);
        }
        if (len > 0x7fff) return fail(d, "string field %s had invalid length %" PRId32, f->name, len);
        size_t left = ss_rd_left(r);
        if ((size_t)len > left)
            return fail(d, "Error reading string of %" PRId32 " byte(s): only %zu byte(s) available", len, left);
        return new_span(d, SS_J_STRING, ss_rd_bytes(r, (size_t)len), (size_t)len, out);
    }
    case KT_BYTES:
    case KT_RECORDS: {
        int32_t len;
        if (!read_len(d, r, compact, true, &len)) return false;
        if (len < 0) {
            if (!nullable) return fail(d, "non-nullable field %s was serialized as null", f->name);
            return new_null(d, out);
        }
        size_t left = ss_rd_left(r);
        if ((size_t)len > left)
            return fail(d, "Error reading byte array of %" PRId32 " byte(s): only %zu byte(s) available", len, left);
        const uint8_t *p = ss_rd_bytes(r, (size_t)len);
        /* records: the JSON converters write an empty byte array in their place
         * (JsonConverterGenerator, write(_object, _version) with _serializeRecords) */
        return new_span(d, SS_J_BYTES, p, f->type == KT_RECORDS ? 0 : (size_t)len, out);
    }
    default: /* KT_STRUCT */
        if (nullable) {
            /* a nullable struct is preceded by a byte: -1 null, 1 present */
            int8_t flag = (int8_t)ss_rd_u8(r);
            if (!underflow(d, r)) return false;
            if (flag < 0) return new_null(d, out);
        }
        return read_struct(d, r, f->sub, v, out);
    }
    if (!underflow(d, r)) return false;
    uint32_t x = node_new(d, kind, NULL);
    if (d->nomem) return false;
    d->nodes[x].num = num;
    *out = x;
    return true;
}

/* One field's value into a new node (not yet linked). */
static bool read_field(ss_cdecoder *d, ss_rd *r, const kfield *f, int16_t v, uint32_t *out) {
    bool nullable = in(v, f->nlo, f->nhi);
    if (!(f->flags & KF_ARRAY)) return read_one(d, r, f, v, nullable, out);
    int32_t count;
    if (!read_len(d, r, in(v, f->xlo, f->xhi), true, &count)) return false;
    if (count < 0) {
        if (!nullable) return fail(d, "non-nullable field %s was serialized as null", f->name);
        return new_null(d, out);
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
        /* elements are never null (a null element fails as Kafka's reader fails) */
        if (!read_one(d, r, f, v, false, &el)) return false;
        if (last) d->nodes[last].next = el;
        else d->nodes[arr].first = el;
        last = el;
    }
    *out = arr;
    return true;
}

/* A tagged field's value: a nullable struct is preceded by an unsigned varint,
 * 0 for null (MessageDataGenerator.generateStructReader, tagged). */
static bool read_tagged(ss_cdecoder *d, ss_rd *r, const kfield *f, int16_t v, uint32_t *out) {
    if (f->type == KT_STRUCT && !(f->flags & KF_ARRAY) && in(v, f->nlo, f->nhi)) {
        bool ok;
        uint32_t flag = read_uvarint(d, r, &ok);
        if (!ok) return false;
        if (flag == 0) return new_null(d, out);
        return read_struct(d, r, f->sub, v, out);
    }
    return read_field(d, r, f, v, out);
}

static bool zero_bytes(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

static bool struct_is_default(const ss_cdecoder *d, uint32_t x, const kstruct *s);

/* Whether a value equals its field's default: the JSON converters leave such a
 * tagged field out (JsonConverterGenerator: generateNonDefaultValueCheck). */
static bool is_default(const ss_cdecoder *d, uint32_t x, const kfield *f) {
    const ss_jnode *n = &d->nodes[x];
    if (f->dkind == KD_NULL) return n->kind == SS_J_NULL;
    if (n->kind == SS_J_NULL) return false;
    if (f->flags & KF_ARRAY) return n->first == 0;
    switch (f->type) {
    case KT_F64: return n->dbl == 0.0;
    case KT_UUID: return zero_bytes(n->str, n->len);
    case KT_BYTES:
    case KT_RECORDS: return n->len == 0;
    case KT_STR: {
        const char *want = f->dkind == KD_STR ? f->dstr : "";
        return n->len == strlen(want) && memcmp(n->str, want, n->len) == 0;
    }
    case KT_STRUCT: return struct_is_default(d, x, f->sub);
    default: return n->num == (f->dkind == KD_INT ? f->dint : 0);
    }
}

/* A struct equals new X() when each of its fields holds its default. */
static bool struct_is_default(const ss_cdecoder *d, uint32_t x, const kstruct *s) {
    for (uint32_t c = d->nodes[x].first; c; c = d->nodes[c].next) {
        const kfield *f = NULL;
        for (size_t i = 0; i < s->n; i++)
            if (s->f[i].name == d->nodes[c].name) f = &s->f[i];
        if (!f || !is_default(d, c, f)) return false;
    }
    return true;
}

/* A struct (or a whole message) as the generated read(): the fields read in
 * this version, then, when the version has one, the tagged-field section. The
 * node lists the fields as the JSON converter writes them: schema order, the
 * fields of this version, tagged fields only when they differ from their
 * default. */
static bool read_struct(ss_cdecoder *d, ss_rd *r, const kstruct *s, int16_t v, uint32_t *out) {
    uint32_t obj = node_new(d, SS_J_OBJECT, NULL);
    if (d->nomem) return false;
    uint32_t vals[MAX_FIELDS] = {0};
    size_t nf = s->n < MAX_FIELDS ? s->n : MAX_FIELDS;
    for (size_t i = 0; i < nf; i++) {
        const kfield *f = &s->f[i];
        if (!in(v, f->lo, f->hi) || in(v, f->tlo, f->thi)) continue; /* not present, or tagged */
        if (!read_field(d, r, f, v, &vals[i])) return false;
    }
    if (in(v, s->xlo, s->xhi)) {
        bool ok;
        uint32_t ntags = read_uvarint(d, r, &ok);
        if (!ok) return false;
        for (uint32_t t = 0; t < ntags; t++) {
            uint32_t tag = read_uvarint(d, r, &ok);
            if (!ok) return false;
            uint32_t size = read_uvarint(d, r, &ok);
            if (!ok) return false;
            size_t k = nf;
            for (size_t i = 0; i < nf; i++)
                if ((s->f[i].flags & KF_TAGGED) && (uint32_t)s->f[i].tag == tag) k = i;
            if (k == nf) {
                /* an unknown tagged field (a newer Kafka's): kept by Kafka's reader, not
                 * written by its JSON converter; listed by segscan */
                size_t left = ss_rd_left(r);
                if (size > left)
                    return fail(d, "Error reading byte array of %" PRIu32 " byte(s): only %zu byte(s) available", size,
                                left);
                const uint8_t *p = ss_rd_bytes(r, size);
                if (!SS_GROW(d->tags, d->ntags, d->tagcap, 8)) {
                    d->nomem = true;
                    return false;
                }
                d->tags[d->ntags++] = (ss_unknown_tag){s->name, tag, p, size};
                continue;
            }
            if (!read_tagged(d, r, &s->f[k], v, &vals[k])) return false;
        }
    }
    uint32_t last = 0;
    for (size_t i = 0; i < nf; i++) {
        const kfield *f = &s->f[i];
        uint32_t x = vals[i];
        if (!x || !in(v, f->lo, f->hi)) continue;
        if (in(v, f->tlo, f->thi) && is_default(d, x, f)) continue;
        d->nodes[x].name = f->name;
        if (last) d->nodes[last].next = x;
        else d->nodes[obj].first = x;
        last = x;
    }
    *out = obj;
    return true;
}

/* ---- reading decoded messages ------------------------------------------------------ */

uint32_t ss_jnode_member(const ss_jnode *nodes, uint32_t obj, const char *name) {
    if (!nodes || !obj || nodes[obj].kind != SS_J_OBJECT) return 0;
    for (uint32_t c = nodes[obj].first; c; c = nodes[c].next)
        if (nodes[c].name && (nodes[c].name == name || !strcmp(nodes[c].name, name))) return c;
    return 0;
}

bool ss_jnode_int(const ss_jnode *nodes, uint32_t x, int64_t *v) {
    if (!nodes || !x || (nodes[x].kind != SS_J_INT && nodes[x].kind != SS_J_BOOL)) return false;
    *v = nodes[x].num;
    return true;
}

bool ss_jnode_str(const ss_jnode *nodes, uint32_t x, const uint8_t **p, size_t *len) {
    if (!nodes || !x || nodes[x].kind != SS_J_STRING) return false;
    *p = nodes[x].str;
    *len = nodes[x].len;
    return true;
}

size_t ss_jnode_count(const ss_jnode *nodes, uint32_t arr) {
    size_t n = 0;
    if (!nodes || !arr || (nodes[arr].kind != SS_J_ARRAY && nodes[arr].kind != SS_J_OBJECT)) return 0;
    for (uint32_t c = nodes[arr].first; c; c = nodes[c].next) n++;
    return n;
}

void ss_uuid_string(const uint8_t id[16], char out[23]) {
    /* Uuid.toString: the 16 bytes in URL-safe base64 without padding */
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t o = 0;
    for (size_t i = 0; i < 16; i += 3) {
        uint32_t v = (uint32_t)id[i] << 16 | (i + 1 < 16 ? (uint32_t)id[i + 1] << 8 : 0) | (i + 2 < 16 ? id[i + 2] : 0);
        out[o++] = b64[v >> 18 & 63];
        out[o++] = b64[v >> 12 & 63];
        if (i + 1 < 16) out[o++] = b64[v >> 6 & 63];
        if (i + 2 < 16) out[o++] = b64[v & 63];
    }
    out[o] = 0;
}

/* ---- embedded consumer protocol ------------------------------------------------------ */

/* DumpLogSegments' prepareGroupMetadataValue: decode each member's subscription
 * and assignment of a "consumer" group (a version prefix, then the message read
 * with that version, as new ConsumerProtocolSubscription(readable, version)
 * reads it: a version above the highest known reads the fields of the highest
 * known); keep the bytes when that fails. */
static void replace_embedded(ss_cdecoder *d, uint32_t member, const char *field, const kmsg *m) {
    uint32_t b = ss_jnode_member(d->nodes, member, field);
    if (!b || d->nodes[b].kind != SS_J_BYTES) return;
    ss_rd r = ss_rd_make(d->nodes[b].str, d->nodes[b].len);
    int16_t version = ss_rd_i16(&r);
    if (r.bad) return;
    ss_error saved = d->err;
    ss_error_clear(&d->err);
    uint32_t n_before = d->n, obj = 0;
    bool ok = read_struct(d, &r, m->s, version, &obj);
    if (!ok || d->nomem) {
        d->n = n_before; /* drop what was built; the bytes stay */
        d->nomem = false;
        d->err = saved;
        return;
    }
    d->err = saved;
    d->nodes[b].kind = SS_J_OBJECT;
    d->nodes[b].first = d->nodes[obj].first;
    d->nodes[b].str = NULL;
    d->nodes[b].len = 0;
}

static void consumer_protocol(ss_cdecoder *d, uint32_t value) {
    uint32_t pt = ss_jnode_member(d->nodes, value, "protocolType");
    if (!pt || d->nodes[pt].kind != SS_J_STRING || d->nodes[pt].len != 8 ||
        memcmp(d->nodes[pt].str, "consumer", 8) != 0)
        return;
    uint32_t members = ss_jnode_member(d->nodes, value, "members");
    if (!members || d->nodes[members].kind != SS_J_ARRAY) return;
    for (uint32_t m = d->nodes[members].first; m; m = d->nodes[m].next) {
        replace_embedded(d, m, "subscription", kmsg_ConsumerProtocolSubscription);
        replace_embedded(d, m, "assignment", kmsg_ConsumerProtocolAssignment);
    }
}

/* ---- records ---------------------------------------------------------------------- */

static void begin(ss_cdecoder *d, ss_cdecoded *out) {
    memset(out, 0, sizeof *out);
    out->record_type = -1;
    out->value_version = -1;
    d->n = 0;
    d->ntags = 0;
    d->nomem = false;
    ss_error_clear(&d->err);
    (void)node_new(d, SS_J_NULL, NULL); /* node 0: "none" */
}

static int finish(ss_cdecoder *d, ss_cdecoded *out, int status) {
    out->status = status;
    out->nodes = d->nodes;
    out->unknown_tags = d->tags;
    out->n_unknown_tags = d->ntags;
    if (status != SS_CDEC_OK) out->key = out->value = 0;
    return status;
}

/* The error text of a decoder, as DumpLogSegments prints it: "Error at offset
 * O, skipping. <exception message>" (ClusterMetadataLogMessageParser says
 * "Error at O" without the word offset). */
static int error(ss_cdecoder *d, int kind, const ss_record *r, ss_cdecoded *out, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int error(ss_cdecoder *d, int kind, const ss_record *r, ss_cdecoded *out, const char *fmt, ...) {
    int n = snprintf(out->message, sizeof out->message, "Error at %s%" PRId64 ", skipping. ",
                     kind == SS_CTOPIC_CLUSTER_METADATA ? "" : "offset ", r->offset);
    if (n > 0 && (size_t)n < sizeof out->message) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(out->message + n, sizeof out->message - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return finish(d, out, SS_CDEC_ERROR);
}

static const char *why(const ss_cdecoder *d) { return d->nomem ? "out of memory" : d->err.msg; }

/* One layout's read of a value: whether it consumed exactly the bytes (the
 * value's object in *obj), else why not in why_not[]. */
static bool try_layout(ss_cdecoder *d, const kmsg *m, ss_rd vr, int16_t vv, uint32_t *obj, char *why_not, size_t n) {
    ss_error_clear(&d->err);
    size_t t = d->ntags;
    if (!read_struct(d, &vr, m->s, vv, obj)) {
        snprintf(why_not, n, "%.150s", d->nomem ? "out of memory" : d->err.msg);
        return false;
    }
    if (ss_rd_left(&vr)) {
        snprintf(why_not, n, "%zu byte(s) left over", ss_rd_left(&vr));
        return false;
    }
    /* Kafka 4.0 wrote no tagged fields in these messages: an unknown one is no fit */
    if (m->alt == NULL && m->layout && d->ntags > t) {
        snprintf(why_not, n, "an unknown tagged field (tag %" PRIu32 ")", d->tags[d->ntags - 1].tag);
        return false;
    }
    return true;
}

/* A value version with two layouts (a preview message that Kafka changed
 * without a new version, e.g. ShareSnapshotValue's uint16 SnapshotEpoch of 4.0
 * against the int32 of 4.1+): read it with each; the one that consumes exactly
 * its bytes is the record's. Both or neither: an error, the bytes are kept
 * (the record's value). Kafka 4.2's reader reads only the newest layout: where
 * that fails, the text is Kafka's message. */
static int two_layouts(ss_cdecoder *d, int kind, const ss_record *r, ss_cdecoded *out, const kmsg *vm, ss_rd *vr,
                       int16_t vv) {
    const kmsg *alt = vm->alt;
    out->layouts[0] = vm->layout;
    out->layouts[1] = alt->layout;
    char why_new[160], why_old[160];
    uint32_t obj_new = 0, obj_old = 0;
    size_t t0 = d->ntags;
    bool ok_new = try_layout(d, vm, *vr, vv, &obj_new, why_new, sizeof why_new);
    ss_error kafka_err = d->err; /* what Kafka's reader says of the newest layout */
    uint32_t n1 = d->n;
    size_t t1 = d->ntags;
    bool ok_old = !d->nomem && try_layout(d, alt, *vr, vv, &obj_old, why_old, sizeof why_old);
    if (d->nomem) return error(d, kind, r, out, "out of memory");
    if (ok_new && !ok_old) {
        d->n = n1; /* drop the other layout's nodes and tags */
        d->ntags = t1;
        out->value = obj_new;
        out->layout = vm->layout;
        out->layout_status = SS_LAYOUT_CHOSEN;
        return finish(d, out, SS_CDEC_OK);
    }
    if (ok_old && !ok_new) {
        /* the nodes of the failed read stay in the array, unlinked: nothing points at them */
        if (t1 > t0) { /* drop the newest layout's tags (d->tags is NULL until a first one) */
            memmove(d->tags + t0, d->tags + t1, (d->ntags - t1) * sizeof *d->tags);
            d->ntags -= t1 - t0;
        }
        out->value = obj_old;
        out->layout = alt->layout;
        out->layout_status = SS_LAYOUT_CHOSEN;
        return finish(d, out, SS_CDEC_OK);
    }
    d->ntags = t0;
    if (ok_new) {
        out->layout_status = SS_LAYOUT_AMBIGUOUS;
        return error(d, kind, r, out,
                     "%s version %d: its %zu bytes read as Kafka %s's layout and as Kafka %s's: "
                     "ambiguous, not decoded",
                     vm->name, (int)vv, (size_t)r->value_len, vm->layout, alt->layout);
    }
    out->layout_status = SS_LAYOUT_NEITHER;
    if (kafka_err.kind != SS_E_OK && kafka_err.msg[0]) /* Kafka's own text, which reads the newest layout only */
        return error(d, kind, r, out, "Could not read record with version %d from value's buffer due to: %s.", (int)vv,
                     kafka_err.msg);
    return error(d, kind, r, out, "%s version %d fits neither Kafka %s's layout (%s) nor Kafka %s's (%s)", vm->name,
                 (int)vv, vm->layout, why_new, alt->layout, why_old);
}

/* CoordinatorRecordSerde.deserialize (coordinator-common): the key's record
 * type (int16), the key message read with that type as its version, then,
 * unless the value is null (a tombstone), the value's version (int16) and the
 * value message. */
static int coordinator(ss_cdecoder *d, int kind, const ss_record *r, ss_cdecoded *out) {
    if (r->key_len < 0) {
        /* DumpLogSegments throws here: the tool stops */
        snprintf(out->message, sizeof out->message,
                 kind == SS_CTOPIC_SHARE_STATE
                     ? "Failed to decode message at offset %" PRId64 " using share group state topic decoder "
                       "(message had a missing key)"
                     : "Failed to decode message at offset %" PRId64 " using the specified decoder (message had a "
                       "missing key)",
                 r->offset);
        return finish(d, out, SS_CDEC_NO_KEY);
    }
    ss_rd kr = ss_rd_make(r->key, (size_t)r->key_len);
    int16_t type = ss_rd_i16(&kr);
    if (kr.bad) return error(d, kind, r, out, "Could not read version from key's buffer.");
    out->record_type = type;
    const kmsg *km, *vm;
    if (kind == SS_CTOPIC_OFFSETS) km = kmsg_group_key(type), vm = kmsg_group_value(type);
    else if (kind == SS_CTOPIC_SHARE_STATE) km = kmsg_share_key(type), vm = kmsg_share_value(type);
    else km = kmsg_txn_key(type), vm = kmsg_txn_value(type);
    if (!km || !vm) {
        snprintf(out->message, sizeof out->message, "Unknown record type %d at offset %" PRId64 ", skipping.",
                 (int)type, r->offset);
        return finish(d, out, SS_CDEC_UNKNOWN_TYPE);
    }
    out->key_name = km->name;
    out->value_name = vm->name;
    if (!read_struct(d, &kr, km->s, type, &out->key))
        return error(d, kind, r, out, "Could not read record with version %d from key's buffer due to: %s.", (int)type,
                     why(d));
    /* Kafka's reader leaves what follows the key unread; segscan does not take such a key as read */
    if (ss_rd_left(&kr))
        return error(d, kind, r, out, "%zu byte(s) after the end of %s (record type %d): not read by its schema",
                     ss_rd_left(&kr), km->name, (int)type);
    if (r->value_len < 0) {
        out->tombstone = true;
        return finish(d, out, SS_CDEC_OK);
    }
    ss_rd vr = ss_rd_make(r->value, (size_t)r->value_len);
    int16_t vv = ss_rd_i16(&vr);
    if (vr.bad) return error(d, kind, r, out, "Could not read version from value's buffer.");
    out->value_version = vv;
    /* Kafka 4.0 refuses a value version its schema does not know
     * (KAFKA-18672, CoordinatorRecordSerde.deserialize: UnknownRecordVersionException),
     * where the reader of October 2024 read the bytes as the highest version. */
    if (vv < vm->vlo || vv > vm->vhi)
        return error(d, kind, r, out, "Found an unknown record version %d for %d type", (int)vv, (int)type);
    if (vm->alt) return two_layouts(d, kind, r, out, vm, &vr, vv);
    if (!read_struct(d, &vr, vm->s, vv, &out->value))
        return error(d, kind, r, out, "Could not read record with version %d from value's buffer due to: %s.", (int)vv,
                     why(d));
    if (ss_rd_left(&vr))
        return error(d, kind, r, out, "%zu byte(s) after the end of %s version %d: not read by its schema",
                     ss_rd_left(&vr), vm->name, (int)vv);
    if (kind == SS_CTOPIC_OFFSETS && type == SS_GROUP_GROUP_METADATA) consumer_protocol(d, out->value);
    return finish(d, out, SS_CDEC_OK);
}

/* AbstractApiMessageSerde.unsignedIntToShort. */
static bool frame_short(ss_cdecoder *d, ss_rd *r, const char *entity, int16_t *v) {
    bool ok;
    uint32_t u = read_uvarint(d, r, &ok);
    if (!ok) {
        ss_error_clear(&d->err);
        return fail(d, "Error while reading %s", entity);
    }
    if (u > INT16_MAX) return fail(d, "Value for %s was too large.", entity);
    *v = (int16_t)u;
    return true;
}

/* AbstractApiMessageSerde.read (server-common), as MetadataRecordSerde and
 * RemoteLogMetadataSerde's BytesApiMessageSerde use it: frame version 1
 * (unsigned varint), apiKey, version, then the message, and nothing after it.
 * The messages are MetadataRecordType's (metadata) or the remote log
 * metadata records (storage). */
static int api_message(ss_cdecoder *d, int kind, const ss_record *r, ss_cdecoded *out) {
    if (r->value_len < 0) {
        /* ClusterMetadataLogMessageParser reads a null value's buffer: a
         * NullPointerException inside unsignedIntToShort; the remote-log
         * parser's record.value.remaining throws it with no message. */
        if (kind == SS_CTOPIC_CLUSTER_METADATA) return error(d, kind, r, out, "Error while reading frame version");
        return error(d, kind, r, out, "null");
    }
    ss_rd vr = ss_rd_make(r->value, (size_t)r->value_len);
    int16_t frame = 0, api = 0, version = 0; /* set by frame_short when it returns true (gcc -O3 cannot tell) */
    if (!frame_short(d, &vr, "frame version", &frame)) return error(d, kind, r, out, "%s", why(d));
    if (frame == 0)
        return error(d, kind, r, out,
                     "Could not deserialize metadata record with frame version 0. Note that upgrades from the preview "
                     "release of KRaft in 2.8 to newer versions are not supported.");
    if (frame != 1)
        return error(d, kind, r, out,
                     "Could not deserialize metadata record due to unknown frame version %d(only frame version 1 is "
                     "supported)",
                     (int)frame);
    if (!frame_short(d, &vr, "type", &api) || !frame_short(d, &vr, "version", &version))
        return error(d, kind, r, out, "%s", why(d));
    out->record_type = api;
    out->value_version = version;
    const kmsg *m = kind == SS_CTOPIC_CLUSTER_METADATA ? kmsg_metadata(api) : kmsg_remote(api);
    if (!m) {
        /* MetadataParseException(e): its message is the cause's toString() */
        return error(d, kind, r, out,
                     "org.apache.kafka.common.errors.UnsupportedVersionException: Unknown metadata id %d", (int)api);
    }
    out->value_name = m->name;
    out->type_name = m->type_name;
    if (!read_struct(d, &vr, m->s, version, &out->value)) {
        if (d->nomem) return error(d, kind, r, out, "out of memory");
        return error(d, kind, r, out, "Failed to deserialize record with type %d", (int)api);
    }
    size_t left = ss_rd_left(&vr);
    if (left > 0) return error(d, kind, r, out, "Found %zu byte(s) of garbage after %d", left, (int)api);
    return finish(d, out, SS_CDEC_OK);
}

int ss_cdecode(ss_cdecoder *d, int kind, const ss_record *r, ss_cdecoded *out) {
    begin(d, out);
    if (d->nomem) {
        out->status = SS_CDEC_ERROR;
        snprintf(out->message, sizeof out->message, "Error at offset %" PRId64 ", skipping. out of memory", r->offset);
        return out->status;
    }
    switch (kind) {
    case SS_CTOPIC_OFFSETS:
    case SS_CTOPIC_TXN_LOG:
    case SS_CTOPIC_SHARE_STATE: return coordinator(d, kind, r, out);
    case SS_CTOPIC_CLUSTER_METADATA:
    case SS_CTOPIC_REMOTE_LOG_METADATA: return api_message(d, kind, r, out);
    default: snprintf(out->message, sizeof out->message, "no decoder %d", kind); return finish(d, out, SS_CDEC_ERROR);
    }
}

/* KRaft control records (ControlRecordUtils.deserialize*: the value read at
 * the current version 0 of its message). */
int ss_cdecode_control(ss_cdecoder *d, const ss_record *r, ss_cdecoded *out) {
    begin(d, out);
    const kmsg *m = NULL;
    switch (r->control_type) {
    case SS_CTRL_LEADER_CHANGE: m = kmsg_LeaderChangeMessage; break;
    case SS_CTRL_SNAPSHOT_HEADER: m = kmsg_SnapshotHeaderRecord; break;
    case SS_CTRL_SNAPSHOT_FOOTER: m = kmsg_SnapshotFooterRecord; break;
    case SS_CTRL_KRAFT_VERSION: m = kmsg_KRaftVersionRecord; break;
    case SS_CTRL_KRAFT_VOTERS: m = kmsg_VotersRecord; break;
    default: break;
    }
    out->record_type = (int16_t)r->control_type;
    if (!m || d->nomem) {
        snprintf(out->message, sizeof out->message, "%s", d->nomem ? "out of memory" : "not a KRaft control record");
        return finish(d, out, SS_CDEC_UNKNOWN_TYPE);
    }
    out->value_name = m->name;
    if (r->value_len < 0) {
        snprintf(out->message, sizeof out->message, "control record at offset %" PRId64 " has no value", r->offset);
        return finish(d, out, SS_CDEC_ERROR);
    }
    ss_rd vr = ss_rd_make(r->value, (size_t)r->value_len);
    if (!read_struct(d, &vr, m->s, 0, &out->value)) {
        /* the reasons fail() writes are short; the bound keeps the name and offset whole */
        snprintf(out->message, sizeof out->message, "%s at offset %" PRId64 " could not be read: %.400s", m->name,
                 r->offset, why(d));
        return finish(d, out, SS_CDEC_ERROR);
    }
    out->value_version = 0;
    return finish(d, out, SS_CDEC_OK);
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
