/* segscan - record batch v2 and legacy v0/v1 messages.
 *
 * Semantics follow Kafka's DefaultRecordBatch / DefaultRecord (v2) and
 * AbstractLegacyRecordBatch / LegacyRecord (v0/v1) in
 * clients/src/main/java/org/apache/kafka/common/record/. Error messages quote
 * Kafka's where Kafka has one, so a user can match them with broker logs.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error_set.h"
#include "base/reader.h"
#include "format/batch.h"
#include "format/codec.h"
#include "format/kafka_format.h"
#include "format/record.h"
#include "segscan/base.h"
#include "segscan/record.h"
#include "segscan/segment.h"

struct ss_decoder {
    ss_codec_ctx *codec;
    size_t max_batch_bytes;
    /* the decompressed payload currently in the codec buffer: reused only by
     * ss_records_begin right after ss_batch_parse of the same legacy wrapper
     * (a parse resets it; a later mapping may reuse an address, so the key
     * also holds the length and the CRC) */
    const uint8_t *cached_src;
    size_t cached_len;
    uint32_t cached_crc;
    const uint8_t *out;
    size_t out_len;
};

ss_decoder *ss_decoder_new(size_t max_batch_bytes) {
    ss_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->codec = ss_codec_ctx_new();
    if (!d->codec) {
        free(d);
        return NULL;
    }
    d->max_batch_bytes = max_batch_bytes ? max_batch_bytes : SS_DEFAULT_MAX_BATCH_BYTES;
    return d;
}

void ss_decoder_free(ss_decoder *d) {
    if (!d) return;
    ss_codec_ctx_free(d->codec);
    free(d);
}

int ss_rec_fail(ss_rec_state *it, ss_error *err, ss_errkind kind, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ss_error_vset(err, kind, it->b->position, it->b->base_offset, fmt, ap);
    va_end(ap);
    it->done = true;
    return -1;
}

/* Decompress a payload into the decoder's buffer, reusing it when the same
 * payload was decompressed last (legacy wrappers are read twice: once for the
 * batch's base offset, once for the records). */
static ss_errkind decompress_payload(ss_decoder *d, const ss_batch *b, const uint8_t *src, size_t len, ss_error *err) {
    if (d->cached_src == src && d->cached_len == len && d->cached_crc == b->crc && d->out) return SS_E_OK;
    d->cached_src = NULL;
    ss_error why; /* the codec's reason, placed at the batch below */
    ss_errkind k =
        ss_decompress(d->codec, b->codec, b->magic, src, len, d->max_batch_bytes, &d->out, &d->out_len, &why);
    if (k != SS_E_OK) {
        if (k == SS_E_TOO_LARGE)
            ss_error_set(err, k, b->position, b->base_offset,
                         "%s batch decompresses to more than %zu bytes (--max-batch-bytes); skipped",
                         ss_codec_name(b->codec) ? ss_codec_name(b->codec) : "?", d->max_batch_bytes);
        else ss_error_set(err, k, b->position, b->base_offset, "%s", why.msg);
        return k;
    }
    d->cached_src = src;
    d->cached_len = len;
    d->cached_crc = b->crc;
    return SS_E_OK;
}

/* ---- legacy messages --------------------------------------------------- */

typedef struct legacy_msg {
    int64_t offset;
    int32_t size; /* the size field: bytes after offset+size */
    uint32_t crc;
    int8_t magic;
    uint8_t attributes;
    int64_t timestamp; /* -1 for v0 */
    int32_t key_len, value_len;
    const uint8_t *key, *value;
    const uint8_t *start; /* the offset field */
} legacy_msg;

/* Parse one legacy message at r (offset, size, then the message). */
static ss_errkind legacy_parse(ss_rd *r, legacy_msg *m, char *why, size_t whysz) {
    m->start = r->p;
    m->offset = ss_rd_i64(r);
    m->size = ss_rd_i32(r);
    if (r->bad) {
        snprintf(why, whysz, "message header truncated");
        return SS_E_BAD_LENGTH;
    }
    if (m->size < LEGACY_OVERHEAD_V0) {
        snprintf(why, whysz, "Found record size %" PRId32 " smaller than minimum record overhead (%d)", m->size,
                 LEGACY_OVERHEAD_V0);
        r->bad = true;
        return SS_E_BAD_LENGTH;
    }
    ss_rd body = ss_rd_sub(r, (size_t)m->size);
    if (body.bad) {
        snprintf(why, whysz, "message of %" PRId32 " bytes runs past its container", m->size);
        return SS_E_BAD_LENGTH;
    }
    m->crc = ss_rd_u32(&body);
    m->magic = (int8_t)ss_rd_u8(&body);
    m->attributes = ss_rd_u8(&body);
    if (m->magic != 0 && m->magic != 1) {
        snprintf(why, whysz, "Invalid magic found in record: %d", m->magic);
        r->bad = true;
        return SS_E_BAD_MAGIC;
    }
    if (m->magic == 1 && m->size < LEGACY_OVERHEAD_V1) {
        snprintf(why, whysz, "Found record size %" PRId32 " smaller than minimum record overhead (%d)", m->size,
                 LEGACY_OVERHEAD_V1);
        r->bad = true;
        return SS_E_BAD_LENGTH;
    }
    m->timestamp = m->magic == 1 ? ss_rd_i64(&body) : -1;
    /* LegacyRecord: a negative key or value size is null, no bytes. (Its
     * keySize() returns the field as stored; here null is always -1.) */
    m->key_len = ss_rd_i32(&body);
    m->key = NULL;
    if (m->key_len >= 0) m->key = ss_rd_bytes(&body, (size_t)m->key_len);
    else m->key_len = -1;
    m->value_len = ss_rd_i32(&body);
    m->value = NULL;
    if (m->value_len >= 0) m->value = ss_rd_bytes(&body, (size_t)m->value_len);
    else m->value_len = -1;
    if (body.bad) {
        snprintf(why, whysz, "key or value runs past the end of the legacy message");
        r->bad = true;
        return SS_E_BAD_LENGTH;
    }
    if (ss_rd_left(&body) != 0) {
        snprintf(why, whysz, "%zu bytes left over after the value of a legacy message", ss_rd_left(&body));
        r->bad = true;
        return SS_E_BAD_LENGTH;
    }
    return SS_E_OK;
}

/* Walk the inner messages of a decompressed wrapper to learn how many there
 * are, the first and the last stored offsets. */
static bool legacy_inner_scan(const uint8_t *p, size_t n, int32_t *count, int64_t *first, int64_t *last, char *why,
                              size_t whysz) {
    ss_rd r = ss_rd_make(p, n);
    int32_t c = 0;
    legacy_msg m;
    *first = *last = -1;
    while (ss_rd_left(&r) > 0) {
        if (legacy_parse(&r, &m, why, whysz) != SS_E_OK) return false;
        if (c == 0) *first = m.offset;
        *last = m.offset;
        c++;
    }
    *count = c;
    return true;
}

/* What the inner offsets of compressed wrapper m are relative to, the last
 * inner one being `last` (AbstractLegacyRecordBatch.DeepRecordsIterator): a
 * v1 wrapper holds the absolute offset of its last inner message, or 0 (as
 * some librdkafka versions produced: then the inner offsets are absolute); a
 * v0 wrapper's inner offsets are absolute. False (why set) for a v1 wrapper
 * offset below the last inner one, which Kafka's reader rejects. */
static bool legacy_base(const legacy_msg *m, int64_t last, int64_t *base, char *why, size_t whysz) {
    *base = 0;
    if (m->magic == 0 || m->offset == 0) return true;
    if (m->offset < last) {
        snprintf(why, whysz,
                 "Found invalid wrapper offset in compressed v1 message set, wrapper offset '%" PRId64
                 "' is less than the last inner message offset '%" PRId64 "' and it is not zero.",
                 m->offset, last);
        return false;
    }
    *base = m->offset - last;
    return true;
}

static ss_errkind parse_legacy(const uint8_t *data, uint64_t position, bool check_crc, ss_decoder *d, ss_batch *b,
                               ss_error *err) {
    ss_rd r = ss_rd_make(data, b->size);
    legacy_msg m;
    char why[200];
    ss_errkind k = legacy_parse(&r, &m, why, sizeof why);
    if (k != SS_E_OK) return ss_error_set(err, k, position, m.offset, "%s", why);
    b->attributes = m.attributes;
    b->codec = m.attributes & ATTR_CODEC_MASK;
    b->timestamp_type = m.magic == 0                            ? SS_TS_NONE
                        : (m.attributes & ATTR_LOG_APPEND_TIME) ? SS_TS_LOG_APPEND
                                                                : SS_TS_CREATE;
    b->max_timestamp = m.timestamp;
    b->base_timestamp = -1;
    b->partition_leader_epoch = -1;
    b->producer_id = -1;
    b->producer_epoch = -1;
    b->base_sequence = b->last_sequence = -1;
    b->count = -1;
    b->crc = m.crc;
    b->last_offset = m.offset;
    b->base_offset = m.offset;
    b->legacy_inner_count = 1;
    if (check_crc) {
        b->crc_computed = ss_crc32(0, data + 16, b->size - 16);
        b->crc_valid = b->crc_computed == b->crc;
    }
    if (b->codec != SS_CODEC_NONE) {
        b->legacy_inner_count = -1;
        /* Kafka's baseOffset() of a wrapper is the first inner offset
         * (AbstractLegacyRecordBatch.baseOffset: iterator().next().offset()), and its
         * DeepRecordsIterator decompresses without checking the wrapper's CRC: so a
         * wrapper whose CRC fails still has its first inner offset when its payload
         * decompresses. */
        if (d && m.value && b->codec <= SS_CODEC_ZSTD) {
            if (decompress_payload(d, b, m.value, (size_t)m.value_len, NULL) == SS_E_OK) {
                int32_t c;
                int64_t first, last;
                if (legacy_inner_scan(d->out, d->out_len, &c, &first, &last, why, sizeof why) && c > 0) {
                    int64_t base;
                    b->legacy_inner_count = c;
                    if (legacy_base(&m, last, &base, why, sizeof why)) b->base_offset = ss_add64(base, first);
                }
            }
        }
    }
    return SS_E_OK;
}

/* ---- batch header --------------------------------------------------------- */

/* See reader.h. */
bool ss_entry_plausible(const uint8_t *p, size_t avail, uint64_t room, uint64_t *size) {
    if (avail < HEADER_UP_TO_MAGIC || p[ENTRY_MAGIC_OFF] > 2 || (int64_t)ss_be64(p) < 0) return false;
    int32_t len = (int32_t)ss_be32(p + ENTRY_SIZE_OFF);
    if (len < MIN_ENTRY || (uint64_t)len + LOG_OVERHEAD > room) return false;
    *size = (uint64_t)len + LOG_OVERHEAD;
    if (p[ENTRY_MAGIC_OFF] == 2) {
        if (*size < V2_OVERHEAD) return false;
        if (avail < V2_OVERHEAD) return true;
        uint16_t attrs = ss_be16(p + V2_ATTR_OFF);
        int32_t last_delta = (int32_t)ss_be32(p + V2_LAST_DELTA_OFF);
        int32_t count = (int32_t)ss_be32(p + V2_COUNT_OFF);
        return !(attrs & 0xff80) && (attrs & 7) <= 4 && last_delta >= 0 && count >= 0 &&
               (int64_t)count <= (int64_t)last_delta + 1 && (int64_t)ss_be64(p + V2_PID_OFF) >= -1 &&
               (int16_t)ss_be16(p + V2_EPOCH_OFF) >= -1 && (int32_t)ss_be32(p + V2_BASE_SEQ_OFF) >= -1;
    }
    uint64_t head = p[ENTRY_MAGIC_OFF] == 1 ? LOG_OVERHEAD + LEGACY_OVERHEAD_V1 : LOG_OVERHEAD + LEGACY_OVERHEAD_V0;
    if (*size < head) return false;
    if (avail > LEGACY_ATTR_OFF && ((p[LEGACY_ATTR_OFF] & 0xf0) || (p[LEGACY_ATTR_OFF] & ATTR_CODEC_MASK) > 4 ||
                                    (p[ENTRY_MAGIC_OFF] == 0 && (p[LEGACY_ATTR_OFF] & ATTR_LOG_APPEND_TIME))))
        return false;
    size_t kat = (size_t)head - 8; /* the key length, after offset, size, crc, magic, attributes, [timestamp] */
    if (avail < kat + 4) return true;
    int32_t klen = (int32_t)ss_be32(p + kat);
    uint64_t kbytes = klen < 0 ? 0 : (uint64_t)klen;
    if (klen < -1 || kbytes > *size - head) return false;
    size_t vat = kat + 4 + (size_t)kbytes;
    if (avail < vat + 4) return true;
    int32_t vlen = (int32_t)ss_be32(p + vat);
    return vlen >= -1 && (vlen < 0 ? 0 : (uint64_t)vlen) == *size - head - kbytes;
}

ss_errkind ss_batch_parse(const uint8_t *data, uint64_t avail, uint64_t position, bool check_crc, ss_decoder *d,
                          ss_batch *b, ss_error *err) {
    memset(b, 0, sizeof *b);
    if (d) d->cached_src = NULL;
    b->position = position;
    b->data = data;
    if (avail < HEADER_UP_TO_MAGIC) {
        ss_error_set(err, SS_E_INCOMPLETE_TAIL, position, -1, "%" PRIu64 " bytes left, less than an entry header",
                     avail);
        return SS_E_INCOMPLETE_TAIL;
    }
    int64_t offset = (int64_t)ss_be64(data);
    int32_t length = (int32_t)ss_be32(data + V2_LENGTH_OFF);
    b->base_offset = b->last_offset = offset;
    if (length < LEGACY_OVERHEAD_V0) {
        ss_error_set(err, SS_E_BAD_LENGTH, position, offset,
                     "Found record size %" PRId32 " smaller than minimum record overhead (%d)", length,
                     LEGACY_OVERHEAD_V0);
        return SS_E_BAD_LENGTH;
    }
    if ((uint64_t)length + LOG_OVERHEAD > avail) {
        ss_error_set(err, SS_E_INCOMPLETE_TAIL, position, offset,
                     "entry of %" PRIu64 " bytes runs past the end of the file (%" PRIu64 " bytes left)",
                     (uint64_t)length + LOG_OVERHEAD, avail);
        return SS_E_INCOMPLETE_TAIL;
    }
    b->size = (uint32_t)length + LOG_OVERHEAD;
    b->magic = (int8_t)data[V2_MAGIC_OFF];
    if (b->magic < 0 || b->magic > 2) {
        ss_error_set(err, SS_E_BAD_MAGIC, position, offset, "Invalid magic found in record: %d", b->magic);
        return SS_E_BAD_MAGIC;
    }
    b->crc_valid = !check_crc; /* unknown unless checked */
    if (b->magic < 2) return parse_legacy(data, position, check_crc, d, b, err);

    if (b->size < V2_OVERHEAD) {
        ss_error_set(err, SS_E_BAD_LENGTH, position, offset,
                     "Record batch is corrupt (the size %" PRIu32 " is smaller than the minimum allowed overhead %d)",
                     b->size, V2_OVERHEAD);
        return SS_E_BAD_LENGTH;
    }
    b->partition_leader_epoch = (int32_t)ss_be32(data + V2_PLE_OFF);
    b->crc = ss_be32(data + V2_CRC_OFF);
    b->attributes = (int16_t)ss_be16(data + V2_ATTR_OFF);
    int32_t last_delta = (int32_t)ss_be32(data + V2_LAST_DELTA_OFF);
    b->last_offset = ss_add64(offset, last_delta);
    b->base_timestamp = (int64_t)ss_be64(data + V2_BASE_TS_OFF);
    b->max_timestamp = (int64_t)ss_be64(data + V2_MAX_TS_OFF);
    b->producer_id = (int64_t)ss_be64(data + V2_PID_OFF);
    b->producer_epoch = (int16_t)ss_be16(data + V2_EPOCH_OFF);
    b->base_sequence = (int32_t)ss_be32(data + V2_BASE_SEQ_OFF);
    b->last_sequence = b->base_sequence == -1 ? -1 : ss_increment_sequence(b->base_sequence, last_delta);
    b->count = (int32_t)ss_be32(data + V2_COUNT_OFF);
    b->codec = b->attributes & ATTR_CODEC_MASK;
    b->timestamp_type = (b->attributes & ATTR_LOG_APPEND_TIME) ? SS_TS_LOG_APPEND : SS_TS_CREATE;
    b->transactional = (b->attributes & ATTR_TRANSACTIONAL) != 0;
    b->control = (b->attributes & ATTR_CONTROL) != 0;
    b->has_delete_horizon = (b->attributes & ATTR_DELETE_HORIZON) != 0;
    b->delete_horizon_ms = b->has_delete_horizon ? b->base_timestamp : -1;
    b->legacy_inner_count = -1;
    if (check_crc) {
        b->crc_computed = ss_crc32c(0, data + V2_ATTR_OFF, b->size - V2_ATTR_OFF);
        b->crc_valid = b->crc_computed == b->crc;
    }
    return SS_E_OK;
}

/* ---- records ------------------------------------------------------------- */

ss_errkind ss_records_begin(ss_decoder *d, const ss_batch *b, ss_rec_iter *iter, ss_error *err) {
    ss_rec_state *it = ss_rec_state_of(iter);
    memset(iter, 0, sizeof *iter);
    it->d = d;
    it->b = b;
    if (b->magic < 2) {
        it->legacy = true;
        legacy_msg m;
        char why[200];
        ss_rd r = ss_rd_make(b->data, b->size);
        if (legacy_parse(&r, &m, why, sizeof why) != SS_E_OK) {
            ss_error_set(err, SS_E_BAD_RECORD, b->position, b->base_offset, "%s", why);
            return SS_E_BAD_RECORD;
        }
        if (b->codec == SS_CODEC_NONE) {
            it->legacy_single = true;
            it->p = b->data;
            it->end = b->data + b->size;
            return SS_E_OK;
        }
        if (b->codec > SS_CODEC_ZSTD) {
            ss_error_set(err, SS_E_BAD_CODEC, b->position, b->base_offset, "Unknown compression type id: %d", b->codec);
            return SS_E_BAD_CODEC;
        }
        if (!m.value) {
            ss_error_set(err, SS_E_BAD_RECORD, b->position, b->base_offset,
                         "compressed wrapper message has a null value");
            return SS_E_BAD_RECORD;
        }
        ss_errkind k = decompress_payload(d, b, m.value, (size_t)m.value_len, err);
        if (k != SS_E_OK) return k;
        it->p = d->out;
        it->end = d->out + d->out_len;
        int32_t c;
        int64_t first, last;
        if (!legacy_inner_scan(it->p, d->out_len, &c, &first, &last, why, sizeof why) ||
            (c == 0 && snprintf(why, sizeof why, "Found invalid compressed record set with no inner records")) ||
            !legacy_base(&m, last, &it->legacy_base, why, sizeof why)) {
            ss_error_set(err, SS_E_BAD_RECORD, b->position, b->base_offset, "%s", why);
            return SS_E_BAD_RECORD;
        }
        return SS_E_OK;
    }
    if (b->count < 0) {
        ss_error_set(err, SS_E_BAD_BATCH, b->position, b->base_offset,
                     "Found invalid record count %" PRId32 " in magic v2 batch", b->count);
        return SS_E_BAD_BATCH;
    }
    it->total = b->count;
    const uint8_t *payload = b->data + V2_OVERHEAD;
    size_t plen = b->size - V2_OVERHEAD;
    if (b->count == 0) {
        /* DefaultRecordBatch.iterator(): no records, the payload is not looked at (nor its codec) */
        it->p = it->end = payload;
        return SS_E_OK;
    }
    if (b->codec == SS_CODEC_NONE) {
        it->p = payload;
        it->end = payload + plen;
        return SS_E_OK;
    }
    if (b->codec > SS_CODEC_ZSTD) {
        ss_error_set(err, SS_E_BAD_CODEC, b->position, b->base_offset, "Unknown compression type id: %d", b->codec);
        return SS_E_BAD_CODEC;
    }
    d->cached_src = NULL;
    ss_errkind k = decompress_payload(d, b, payload, plen, err);
    if (k != SS_E_OK) return k;
    it->p = d->out;
    it->end = d->out + d->out_len;
    return SS_E_OK;
}

int ss_rec_legacy_next(ss_rec_state *it, ss_record *rec, ss_error *err) {
    const ss_batch *b = it->b;
    if (it->p >= it->end) {
        it->done = true;
        return 0;
    }
    ss_rd r = ss_rd_make(it->p, (size_t)(it->end - it->p));
    legacy_msg m;
    char why[200];
    if (legacy_parse(&r, &m, why, sizeof why) != SS_E_OK) {
        ss_error_set(err, SS_E_BAD_RECORD, b->position, b->base_offset, "inner message %" PRId32 ": %s", it->read, why);
        it->done = true;
        return -1;
    }
    if (!it->legacy_single && (m.attributes & ATTR_CODEC_MASK) != 0) {
        ss_error_set(err, SS_E_NESTED, b->position, b->base_offset,
                     "Compressed message inside a compressed wrapper (inner message %" PRId32 ")", it->read);
        it->done = true;
        return -1;
    }
    it->p = r.p;
    it->read++;
    memset(rec, 0, sizeof *rec);
    rec->offset = it->legacy_single ? m.offset : ss_add64(it->legacy_base, m.offset);
    rec->size = m.size + LOG_OVERHEAD;
    rec->attributes = m.attributes;
    rec->sequence = -1;
    rec->key_len = m.key_len;
    rec->key = m.key;
    rec->value_len = m.value_len;
    rec->value = m.value;
    rec->legacy_magic = m.magic;
    rec->legacy_attributes = m.attributes;
    rec->legacy_crc = m.crc;
    rec->legacy_crc_valid = it->legacy_single ? b->crc_valid : ss_crc32(0, m.start + 16, (size_t)m.size - 4) == m.crc;
    rec->control_type = -1;
    rec->coordinator_epoch = -1;
    /* LegacyRecord: an inner v1 message takes its wrapper's timestamp type, and
     * under LogAppendTime the wrapper's time too. */
    if (!it->legacy_single && m.magic >= 1) {
        rec->timestamp = b->timestamp_type == SS_TS_LOG_APPEND ? b->max_timestamp : m.timestamp;
        rec->legacy_timestamp_type = b->timestamp_type;
    } else {
        rec->timestamp = m.timestamp;
        rec->legacy_timestamp_type = m.magic == 0                            ? SS_TS_NONE
                                     : (m.attributes & ATTR_LOG_APPEND_TIME) ? SS_TS_LOG_APPEND
                                                                             : SS_TS_CREATE;
    }
    return 1;
}

int ss_records_next(ss_rec_iter *it, ss_record *rec, ss_error *err) { return ss_records_next_inline(it, rec, err); }

int ss_header_next(const ss_record *r, size_t *pos, ss_header *h) {
    if (!r->headers || *pos >= r->headers_len) return 0;
    ss_rd rd = ss_rd_make(r->headers + *pos, r->headers_len - *pos);
    h->key_len = ss_rd_varint(&rd);
    h->key = ss_rd_bytes(&rd, (size_t)(h->key_len < 0 ? 0 : h->key_len));
    h->value_len = ss_rd_varint(&rd);
    if (h->value_len < 0) h->value_len = -1; /* null, whatever the negative length */
    h->value = h->value_len >= 0 ? ss_rd_bytes(&rd, (size_t)h->value_len) : NULL;
    if (rd.bad) return 0;
    *pos = (size_t)(rd.p - r->headers);
    return 1;
}
