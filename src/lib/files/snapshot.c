/* segscan - producer-state snapshot files (<offset>.snapshot).
 *
 * Read as Kafka's ProducerStateManager.readSnapshot reads them: the whole
 * file is parsed with the schema
 *   version int16, crc uint32, producer_entries [producer_id int64, epoch int16,
 *   last_sequence int32, last_offset int64, offset_delta int32, timestamp int64,
 *   coordinator_epoch int32, current_txn_first_offset int64]
 * (Schema.read: a field that does not fit is "Error reading field 'name': ..."),
 * then the version must be 1, then the CRC-32C of bytes 6..end must equal the
 * stored one. Bytes after the entries are covered by the CRC and otherwise
 * ignored, as in Kafka.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error_set.h"
#include "base/javaint.h"
#include "base/reader.h"
#include "segscan/base.h"
#include "segscan/files.h"

#define SCHEMA_PREFIX "Snapshot failed schema validation: "
#define UNDERFLOW "java.nio.BufferUnderflowException"

/* The entry schema's fields and their sizes, in order. */
static const struct {
    const char *name;
    unsigned size;
} entry_fields[] = {
    {"producer_id", 8},  {"epoch", 2},     {"last_sequence", 4},     {"last_offset", 8},
    {"offset_delta", 4}, {"timestamp", 8}, {"coordinator_epoch", 4}, {"current_txn_first_offset", 8},
};

ss_errkind ss_snapshot_parse(const uint8_t *data, size_t len, ss_snapshot *out, ss_error *err) {
    static const uint8_t none[1];
    memset(out, 0, sizeof *out);
    if (!data) data = none, len = 0;
    out->file_size = len;
    if (len >= 6) out->crc_computed = ss_crc32c(0, data + 6, len - 6);
    ss_rd r = ss_rd_make(data, len);
    if (ss_rd_left(&r) < 2) {
        ss_error_set(err, SS_E_BAD_SNAPSHOT, 0, -1, SCHEMA_PREFIX "Error reading field 'version': " UNDERFLOW);
        return SS_E_BAD_SNAPSHOT;
    }
    out->version = ss_rd_i16(&r);
    if (ss_rd_left(&r) < 4) {
        ss_error_set(err, SS_E_BAD_SNAPSHOT, 2, -1, SCHEMA_PREFIX "Error reading field 'crc': " UNDERFLOW);
        return SS_E_BAD_SNAPSHOT;
    }
    out->crc = ss_rd_u32(&r);
    if (ss_rd_left(&r) < 4) {
        ss_error_set(err, SS_E_BAD_SNAPSHOT, 6, -1, SCHEMA_PREFIX "Error reading field 'producer_entries': " UNDERFLOW);
        return SS_E_BAD_SNAPSHOT;
    }
    out->count = ss_rd_i32(&r);
    size_t left = ss_rd_left(&r);
    if (out->count < 0) {
        ss_error_set(err, SS_E_BAD_SNAPSHOT, 6, -1,
                     SCHEMA_PREFIX "Error reading field 'producer_entries': Array size %" PRId32 " cannot be negative",
                     out->count);
        return SS_E_BAD_SNAPSHOT;
    }
    if ((uint64_t)out->count > left) {
        ss_error_set(err, SS_E_BAD_SNAPSHOT, 6, -1,
                     SCHEMA_PREFIX "Error reading field 'producer_entries': Error reading array of size %" PRId32
                                   ", only %zu bytes available",
                     out->count, left);
        return SS_E_BAD_SNAPSHOT;
    }
    uint64_t need = (uint64_t)out->count * SS_SNAPSHOT_ENTRY_SIZE;
    if (need > left) {
        /* The entry, then the field, where the bytes run out. */
        uint64_t whole = left / SS_SNAPSHOT_ENTRY_SIZE, rest = left % SS_SNAPSHOT_ENTRY_SIZE, end = 0;
        const char *field = entry_fields[0].name;
        for (size_t i = 0; i < sizeof entry_fields / sizeof entry_fields[0]; i++) {
            end += entry_fields[i].size;
            if (end > rest) {
                field = entry_fields[i].name;
                break;
            }
        }
        ss_error_set(err, SS_E_BAD_SNAPSHOT, 10 + whole * SS_SNAPSHOT_ENTRY_SIZE, -1,
                     SCHEMA_PREFIX "Error reading field 'producer_entries': Error reading field '%s': " UNDERFLOW,
                     field);
        return SS_E_BAD_SNAPSHOT;
    }
    out->trailing_bytes = left - need;
    if (out->version != SS_SNAPSHOT_VERSION) {
        ss_error_set(err, SS_E_BAD_SNAPSHOT, 0, -1, "Snapshot contained an unknown file version %d", (int)out->version);
        return SS_E_BAD_SNAPSHOT;
    }
    if (out->crc != out->crc_computed) {
        ss_error_set(err, SS_E_BAD_SNAPSHOT, 2, -1,
                     "Snapshot is corrupt (CRC is no longer valid). Stored crc: %" PRIu32 ". Computed crc: %" PRIu32,
                     out->crc, out->crc_computed);
        return SS_E_BAD_SNAPSHOT;
    }
    if (out->count > 0) {
        out->entries = calloc((size_t)out->count, sizeof *out->entries);
        if (!out->entries) {
            return ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory for %" PRId32 " snapshot entries", out->count);
        }
    }
    for (int32_t i = 0; i < out->count; i++) {
        ss_producer_entry *e = &out->entries[i];
        e->producer_id = ss_rd_i64(&r);
        e->producer_epoch = ss_rd_i16(&r);
        e->last_sequence = ss_rd_i32(&r);
        e->last_offset = ss_rd_i64(&r);
        e->offset_delta = ss_rd_i32(&r);
        e->timestamp = ss_rd_i64(&r);
        e->coordinator_epoch = ss_rd_i32(&r);
        e->current_txn_first_offset = ss_rd_i64(&r);
        e->has_txn = e->current_txn_first_offset >= 0;
        e->has_batch = e->last_offset >= 0;
        e->first_sequence = ss_decrement_sequence(e->last_sequence, e->offset_delta);
    }
    /* cannot happen: the sizes were checked above */
    if (r.bad) {
        ss_error_set(err, SS_E_BAD_SNAPSHOT, 0, -1, SCHEMA_PREFIX "internal: entries overran the file");
        ss_snapshot_free(out);
        return SS_E_BAD_SNAPSHOT;
    }
    out->n = (size_t)out->count;
    return SS_E_OK;
}

ss_errkind ss_snapshot_read(const char *path, ss_snapshot *out, ss_error *err) {
    memset(out, 0, sizeof *out);
    ss_segment *seg = NULL;
    ss_errkind k = ss_segment_open(path, &seg, err);
    if (k != SS_E_OK) return k;
    k = ss_snapshot_parse(ss_segment_data(seg), (size_t)ss_segment_size(seg), out, err);
    ss_segment_close(seg);
    return k;
}

void ss_snapshot_free(ss_snapshot *s) {
    if (!s) return;
    free(s->entries);
    s->entries = NULL;
    s->n = 0;
}
