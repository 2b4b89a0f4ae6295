/* segscan - the v2 record parser, inline (internal).
 *
 * ss_records_next (batch.c) is ss_records_next_inline. The analysis's reader
 * (analysis/units.c) calls the inline form: its record is a local variable there, so
 * the compiler drops what it does not read (the legacy and control fields, the
 * sequence), and the call goes. 2.7% fewer instructions in a scan of lz4.log.
 * Errors are formatted out of line (ss_rec_fail), legacy message sets are read
 * out of line (ss_rec_legacy_next). */
#ifndef SS_RECORDS_H
#define SS_RECORDS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/javaint.h"
#include "base/reader.h"
#include "segscan/record.h"

/* What an ss_rec_iter holds. The caller's ss_rec_iter is read and written
 * through this type (and copied as an ss_rec_iter): may_alias keeps
 * type-based alias analysis from reordering the two. */
typedef struct __attribute__((may_alias)) ss_rec_state {
    ss_decoder *d;
    const ss_batch *b;
    const uint8_t *p, *end; /* the record bytes (mapping or buffer) */
    int32_t read, total;    /* records read, records declared (v2) */
    int64_t legacy_base;    /* absolute offset adjustment for v1 inner messages */
    bool legacy, legacy_single, done;
} ss_rec_state;
_Static_assert(sizeof(ss_rec_state) <= sizeof(ss_rec_iter), "ss_rec_iter is too small for its state");
_Static_assert(_Alignof(ss_rec_state) <= _Alignof(ss_rec_iter), "ss_rec_iter is not aligned for its state");

static inline ss_rec_state *ss_rec_state_of(ss_rec_iter *it) { return (ss_rec_state *)(void *)it; }

/* Fills err (kind, the batch's position and base offset, the message) and
 * ends the iteration: returns -1. */
int ss_rec_fail(ss_rec_state *it, ss_error *err, ss_errkind kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5), cold));
/* The next message of a legacy (magic 0/1) message set, as ss_records_next. */
int ss_rec_legacy_next(ss_rec_state *it, ss_record *rec, ss_error *err);

static inline __attribute__((always_inline)) int ss_records_next_inline(ss_rec_iter *iter, ss_record *rec,
                                                                        ss_error *err) {
    ss_rec_state *it = ss_rec_state_of(iter);
    if (it->done) return 0;
    if (it->legacy) {
        /* through a copy: the caller's record is not handed out of line, so what the
         * caller does not read of it need not be stored (the compiler's view) */
        ss_record l;
        int k = ss_rec_legacy_next(it, &l, err);
        *rec = l;
        return k;
    }
    const ss_batch *b = it->b;
    if (it->read >= it->total) {
        it->done = true;
        return 0;
    }
    ss_rd r = ss_rd_make(it->p, (size_t)(it->end - it->p));
    const uint8_t *start = r.p;
    int32_t len = ss_rd_varint(&r);
    if (r.bad || len < 0)
        return ss_rec_fail(it, err, SS_E_BAD_RECORD, "record %" PRId32 " of %" PRId32 ": %s", it->read, it->total,
                           r.bad ? "length varint truncated or too long" : "negative record length");
    ss_rd body = ss_rd_sub(&r, (size_t)len);
    if (body.bad)
        return ss_rec_fail(it, err, SS_E_BAD_RECORD,
                           "record %" PRId32 " of %" PRId32 ": length %" PRId32 " runs past the end of the batch",
                           it->read, it->total, len);
    /* every field zeroed one by one, as memset would (an error below leaves
     * zeros): a memset of the whole record compiles to rep stos, which took a
     * fifth of the time of this function */
    rec->offset = rec->timestamp = 0;
    rec->sequence = rec->key_len = rec->value_len = rec->header_count = rec->coordinator_epoch = 0;
    rec->key = rec->value = rec->headers = NULL;
    rec->headers_len = 0;
    rec->legacy_magic = 0;
    rec->legacy_attributes = 0;
    rec->legacy_crc = 0;
    rec->legacy_crc_valid = false;
    rec->legacy_timestamp_type = 0;
    rec->control_version = rec->control_type = 0;
    rec->size = (int32_t)(r.p - start);
    rec->attributes = ss_rd_u8(&body);
    int64_t ts_delta = ss_rd_varlong(&body);
    int32_t off_delta = ss_rd_varint(&body);
    /* DefaultRecord.readFrom: any negative key or value length is null (its
     * keySize()/valueSize() are then -1), and so is a header value's */
    rec->key_len = ss_rd_varint(&body);
    if (rec->key_len >= 0) rec->key = ss_rd_bytes(&body, (size_t)rec->key_len);
    else rec->key_len = -1;
    rec->value_len = body.bad ? -1 : ss_rd_varint(&body);
    if (rec->value_len >= 0) rec->value = ss_rd_bytes(&body, (size_t)rec->value_len);
    else rec->value_len = -1;
    rec->header_count = body.bad ? 0 : ss_rd_varint(&body);
    const char *why = NULL;
    if (body.bad) why = "truncated or invalid field";
    else if (rec->header_count < 0) why = "Found invalid number of record headers";
    else {
        rec->headers = body.p;
        for (int32_t i = 0; i < rec->header_count && !body.bad; i++) {
            int32_t klen = ss_rd_varint(&body);
            if (klen < 0) {
                why = "Invalid negative header key size";
                break;
            }
            ss_rd_bytes(&body, (size_t)klen);
            int32_t vlen = ss_rd_varint(&body);
            if (vlen >= 0) ss_rd_bytes(&body, (size_t)vlen);
        }
        if (!why && body.bad) why = "header runs past the end of the record";
        if (!why) rec->headers_len = (size_t)(body.p - rec->headers);
        if (!why && ss_rd_left(&body) != 0) why = "Invalid record size: bytes left over after the headers";
    }
    if (why)
        return ss_rec_fail(it, err, SS_E_BAD_RECORD, "record %" PRId32 " of %" PRId32 ": %s", it->read, it->total, why);
    it->p = r.p;
    it->read++;
    rec->offset = ss_add64(b->base_offset, off_delta);
    rec->timestamp = b->timestamp_type == SS_TS_LOG_APPEND ? b->max_timestamp : ss_add64(b->base_timestamp, ts_delta);
    rec->sequence = b->base_sequence >= 0 ? ss_increment_sequence(b->base_sequence, off_delta) : -1;
    rec->legacy_magic = -1;
    rec->control_type = -1;
    rec->coordinator_epoch = -1;
    if (b->control) {
        if (rec->key_len < 4)
            return ss_rec_fail(it, err, SS_E_BAD_RECORD,
                               "Invalid value size found for end control record key. Must have at least 4 bytes, "
                               "but found only %" PRId32,
                               rec->key_len < 0 ? 0 : rec->key_len);
        rec->control_version = (int16_t)ss_be16(rec->key);
        rec->control_type = (int16_t)ss_be16(rec->key + 2);
        if (rec->control_type == SS_CTRL_ABORT || rec->control_type == SS_CTRL_COMMIT) {
            if (rec->value_len < 6)
                return ss_rec_fail(it, err, SS_E_BAD_RECORD,
                                   "Invalid value size found for end transaction marker. Must have at least 6 "
                                   "bytes, but found only %" PRId32,
                                   rec->value_len < 0 ? 0 : rec->value_len);
            rec->coordinator_epoch = (int32_t)ss_be32(rec->value + 2);
        }
    }
    /* DefaultRecordBatch.RecordIterator: ensureNoneRemaining */
    if (it->read == it->total && it->p != it->end)
        return ss_rec_fail(it, err, SS_E_BAD_BATCH, "Incorrect declared batch size, records still remaining in file");
    return 1;
}

#endif
