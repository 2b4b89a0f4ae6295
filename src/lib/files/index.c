/* segscan - offset index (.index) and time index (.timeindex) files, read as
 * Kafka's AbstractIndex / OffsetIndex / TimeIndex read them, and the checks
 * kafka-dump-log.sh (DumpLogSegments.dumpIndex / dumpTimeIndex) makes of an
 * index against its .log.
 *
 * Files are mapped read-only through ss_segment; nothing is ever created or
 * written (Kafka's tool creates a missing .index: we treat it as empty).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error_set.h"
#include "base/javaint.h"
#include "base/reader.h"
#include "format/kafka_format.h"
#include "segscan/files.h"

/* AbstractIndex.warmEntries(): 8192 / entrySize. */
#define WARM_BYTES 8192u

/* ---- offset and time index ------------------------------------------------------ */

static int32_t slot_rel(const ss_index *ix, uint64_t n) {
    uint64_t at = n * ix->entry_size + (ix->kind == SS_INDEX_TIME ? 8u : 0u);
    if (at + 4 > ix->file_size) return 0;
    return (int32_t)ss_be32(ix->data + at);
}

static void index_scan(ss_index *ix) {
    ix->listed = ix->entries;
    ix->stopped_at_slot = -1;
    ix->zero_tail = false;
    for (uint64_t i = 1; i < ix->entries; i++) {
        if (slot_rel(ix, i) == 0) {
            ix->listed = i;
            ix->stopped_at_slot = (int64_t)i;
            break;
        }
    }
    if (ix->stopped_at_slot >= 0) {
        bool zero = true;
        for (uint64_t p = (uint64_t)ix->stopped_at_slot * ix->entry_size; p < ix->file_size; p++)
            if (ix->data[p]) {
                zero = false;
                break;
            }
        ix->zero_tail = zero;
    }
}

static ss_errkind index_init(ss_index *ix, ss_index_kind kind, int64_t base_offset, const uint8_t *data, uint64_t len,
                             ss_error *err) {
    if (kind != SS_INDEX_OFFSET && kind != SS_INDEX_TIME) {
        ss_error_set(err, SS_E_USAGE, 0, -1, "unknown index kind %d", (int)kind);
        return SS_E_USAGE;
    }
    if (len > (uint64_t)INT32_MAX) {
        /* FileChannel.map refuses more than Integer.MAX_VALUE bytes. */
        ss_error_set(err, SS_E_IO, 0, -1, "index file of %" PRIu64 " bytes: Size exceeds Integer.MAX_VALUE", len);
        return SS_E_IO;
    }
    ix->kind = kind;
    ix->base_offset = base_offset;
    ix->file_size = len;
    ix->entry_size = kind == SS_INDEX_OFFSET ? SS_OFFSET_INDEX_ENTRY : SS_TIME_INDEX_ENTRY;
    ix->entries = len / ix->entry_size;
    ix->data = data;
    index_scan(ix);
    return SS_E_OK;
}

ss_errkind ss_index_open(const char *path, ss_index_kind kind, int64_t base_offset, ss_index **out, ss_error *err) {
    *out = NULL;
    ss_segment *seg = NULL;
    ss_errkind k = ss_segment_open(path, &seg, err);
    if (k != SS_E_OK) return k;
    ss_index *ix = calloc(1, sizeof *ix);
    if (!ix) {
        ss_segment_close(seg);
        ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        return SS_E_NOMEM;
    }
    ix->seg = seg;
    k = index_init(ix, kind, base_offset, ss_segment_data(seg), ss_segment_size(seg), err);
    if (k != SS_E_OK) {
        ss_index_close(ix);
        return k;
    }
    *out = ix;
    return SS_E_OK;
}

ss_errkind ss_index_from_memory(const uint8_t *data, size_t len, ss_index_kind kind, int64_t base_offset,
                                ss_index **out, ss_error *err) {
    *out = NULL;
    ss_index *ix = calloc(1, sizeof *ix);
    if (!ix) {
        ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        return SS_E_NOMEM;
    }
    ss_errkind k = index_init(ix, kind, base_offset, data, len, err);
    if (k != SS_E_OK) {
        free(ix);
        return k;
    }
    *out = ix;
    return SS_E_OK;
}

void ss_index_close(ss_index *ix) {
    if (!ix) return;
    ss_segment_close(ix->seg);
    free(ix);
}

ss_offset_entry ss_index_offset_entry(const ss_index *ix, uint64_t n) {
    ss_offset_entry e = {ix->base_offset, 0};
    uint64_t at = n * SS_OFFSET_INDEX_ENTRY;
    if (ix->kind != SS_INDEX_OFFSET || n >= ix->entries || at + SS_OFFSET_INDEX_ENTRY > ix->file_size) return e;
    e.offset = ss_add64(ix->base_offset, (int32_t)ss_be32(ix->data + at));
    e.position = (int32_t)ss_be32(ix->data + at + 4);
    return e;
}

ss_time_entry ss_index_time_entry(const ss_index *ix, uint64_t n) {
    ss_time_entry e = {0, ix->base_offset};
    uint64_t at = n * SS_TIME_INDEX_ENTRY;
    if (ix->kind != SS_INDEX_TIME || n >= ix->entries || at + SS_TIME_INDEX_ENTRY > ix->file_size) return e;
    e.timestamp = (int64_t)ss_be64(ix->data + at);
    e.offset = ss_add64(ix->base_offset, (int32_t)ss_be32(ix->data + at + 8));
    return e;
}

int64_t ss_index_last_offset(const ss_index *ix) {
    if (ix->entries == 0) return ix->base_offset;
    return ss_add64(ix->base_offset, slot_rel(ix, ix->entries - 1));
}

ss_time_entry ss_index_last_time_entry(const ss_index *ix) {
    if (ix->entries == 0) {
        ss_time_entry e = {-1, ix->base_offset};
        return e;
    }
    return ss_index_time_entry(ix, ix->entries - 1);
}

/* The key AbstractIndex searches on (IndexSearchType.KEY): the offset for an
 * offset index, the timestamp for a time index. */
static int64_t slot_key(const ss_index *ix, uint64_t n) {
    if (ix->kind == SS_INDEX_OFFSET) return ss_index_offset_entry(ix, n).offset;
    return ss_index_time_entry(ix, n).timestamp;
}

static int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b ? 1 : 0; }

/* AbstractIndex.binarySearch for LARGEST_LOWER_BOUND. */
static uint64_t binary_search(const ss_index *ix, int64_t target, uint64_t lo, uint64_t hi) {
    while (lo < hi) {
        uint64_t mid = (lo + hi + 1) >> 1;
        int c = cmp_i64(slot_key(ix, mid), target);
        if (c > 0) hi = mid - 1;
        else if (c < 0) lo = mid;
        else return mid;
    }
    return lo;
}

/* AbstractIndex.largestLowerBoundSlotFor, -1 for none. */
static int64_t largest_lower_bound(const ss_index *ix, int64_t target) {
    if (ix->entries == 0) return -1;
    uint64_t warm = WARM_BYTES / ix->entry_size;
    uint64_t first_hot = ix->entries - 1 > warm ? ix->entries - 1 - warm : 0;
    if (cmp_i64(slot_key(ix, first_hot), target) < 0)
        return (int64_t)binary_search(ix, target, first_hot, ix->entries - 1);
    if (cmp_i64(slot_key(ix, 0), target) > 0) return -1;
    return (int64_t)binary_search(ix, target, 0, first_hot);
}

ss_offset_entry ss_index_lookup(const ss_index *ix, int64_t base_offset, int64_t target) {
    ss_offset_entry none = {base_offset, 0};
    if (!ix || ix->kind != SS_INDEX_OFFSET) return none;
    none.offset = ix->base_offset;
    int64_t slot = largest_lower_bound(ix, target);
    if (slot < 0) return none;
    return ss_index_offset_entry(ix, (uint64_t)slot);
}

ss_errkind ss_index_sanity_check(const ss_index *ix, const char *display_path, ss_error *err) {
    if (ix->kind == SS_INDEX_OFFSET) {
        int64_t last = ss_index_last_offset(ix);
        if (ix->entries != 0 && last < ix->base_offset) {
            ss_error_set(err, SS_E_BAD_INDEX, 0, -1,
                         "Corrupt index found, index file %s has non-zero size but the last offset is %" PRId64
                         " which is less than the base offset %" PRId64,
                         display_path, last, ix->base_offset);
            return SS_E_BAD_INDEX;
        }
        if (ix->file_size % SS_OFFSET_INDEX_ENTRY != 0) {
            ss_error_set(err, SS_E_BAD_INDEX, 0, -1,
                         "Index file %s is corrupt, found %" PRIu64
                         " bytes which is neither positive nor a multiple of %d",
                         display_path, ix->file_size, SS_OFFSET_INDEX_ENTRY);
            return SS_E_BAD_INDEX;
        }
        return SS_E_OK;
    }
    ss_time_entry last = ss_index_last_time_entry(ix);
    if (ix->entries != 0) {
        int64_t first_ts = ss_index_time_entry(ix, 0).timestamp;
        if (last.timestamp < first_ts) {
            ss_error_set(
                err, SS_E_BAD_INDEX, 0, -1,
                "Corrupt time index found, time index file (%s) has non-zero size but the last timestamp is %" PRId64
                " which is less than the first timestamp %" PRId64,
                display_path, last.timestamp, first_ts);
            return SS_E_BAD_INDEX;
        }
        if (last.offset < ix->base_offset) {
            ss_error_set(
                err, SS_E_BAD_INDEX, 0, -1,
                "Corrupt time index found, time index file (%s) has non-zero size but the last offset is %" PRId64
                " which is less than the first offset %" PRId64,
                display_path, last.offset, ix->base_offset);
            return SS_E_BAD_INDEX;
        }
    }
    if (ix->file_size % SS_TIME_INDEX_ENTRY != 0) {
        ss_error_set(err, SS_E_BAD_INDEX, 0, -1,
                     "Time index file %s is corrupt, found %" PRIu64
                     " bytes which is neither positive nor a multiple of %d",
                     display_path, ix->file_size, SS_TIME_INDEX_ENTRY);
        return SS_E_BAD_INDEX;
    }
    return SS_E_OK;
}

/* ---- index entries against the log -------------------------------------------------- */

struct ss_index_checker {
    const uint8_t *log;
    uint64_t log_size;
    const ss_index *offsets;
    ss_decoder *dec;
    /* Resume point of the last time-index search: a search from the same start
     * for a target >= the last one can skip the batches the last one skipped
     * (they all ended below the last target). Keeps a log without an .index linear. */
    bool have_resume;
    uint64_t resume_start;
    int64_t resume_target;
    uint64_t resume_pos;
};

ss_index_checker *ss_index_checker_new(const ss_segment *log, const ss_index *offsets, ss_decoder *dec) {
    ss_index_checker *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->log = ss_segment_data(log);
    c->log_size = ss_segment_size(log);
    c->offsets = offsets;
    c->dec = dec;
    return c;
}

void ss_index_checker_free(ss_index_checker *c) { free(c); }

/* FileLogInputStream.nextBatch over [pos, end): 1 with a batch, 0 at the end
 * (fewer than 18 bytes left, or a batch running past end), -1 on an error
 * (Kafka throws: CorruptRecordException for a size below 14, ...). */
static int next_batch(const ss_index_checker *c, uint64_t pos, uint64_t end, ss_batch *b, ss_error *err) {
    if (pos + HEADER_UP_TO_MAGIC >= end) return 0;
    int32_t size = (int32_t)ss_be32(c->log + pos + ENTRY_SIZE_OFF);
    if (size < MIN_ENTRY) {
        ss_error_set(err, SS_E_BAD_LENGTH, pos, -1,
                     "Found record size %" PRId32 " smaller than minimum record overhead (%d)", size, MIN_ENTRY);
        err->base_offset = (int64_t)ss_be64(c->log + pos);
        return -1;
    }
    if (pos + LOG_OVERHEAD + (uint64_t)size > end) return 0;
    ss_errkind k = ss_batch_parse(c->log + pos, end - pos, pos, false, NULL, b, err);
    if (k == SS_E_OK) return 1;
    if (k == SS_E_INCOMPLETE_TAIL) return 0;
    return -1;
}

static void check_init(ss_icheck *out) {
    memset(out, 0, sizeof *out);
    out->log_last_offset = -1;
    out->log_max_timestamp = -1;
    out->lookup_position = -1;
    out->err.base_offset = -1;
}

ss_icheck_status ss_index_check_offset(ss_index_checker *c, ss_offset_entry e, uint64_t max_message_size,
                                       ss_icheck *out) {
    check_init(out);
    out->lookup_position = e.position;
    if (e.position < 0 || (uint64_t)e.position > c->log_size) {
        ss_error_set(&out->err, SS_E_BAD_INDEX, e.position < 0 ? 0 : (uint64_t)e.position, -1,
                     "position %" PRId32 " is outside the log (%" PRIu64 " bytes)", e.position, c->log_size);
        return out->status = SS_ICHECK_ERROR;
    }
    uint64_t pos = (uint64_t)e.position;
    uint64_t end = c->log_size - pos > max_message_size ? pos + max_message_size : c->log_size;
    ss_batch b;
    int r = next_batch(c, pos, end, &b, &out->err);
    if (r < 0) return out->status = SS_ICHECK_ERROR;
    if (r == 0) {
        if (end < c->log_size && pos + HEADER_UP_TO_MAGIC < end)
            ss_error_set(&out->err, SS_E_BAD_INDEX, pos, -1,
                         "the batch at position %" PRIu64 " is larger than the maximum message size %" PRIu64, pos,
                         max_message_size);
        else
            ss_error_set(&out->err, SS_E_BAD_INDEX, pos, -1,
                         "no complete batch at position %" PRIu64 " (log of %" PRIu64 " bytes)", pos, c->log_size);
        return out->status = SS_ICHECK_NO_BATCH;
    }
    out->batch_position = pos;
    out->log_last_offset = b.last_offset;
    return out->status = b.last_offset == e.offset ? SS_ICHECK_MATCH : SS_ICHECK_MISMATCH;
}

/* The largest record timestamp of a batch, as Kafka's `for (record <- batch) max(...)`. */
static ss_errkind batch_max_timestamp(ss_decoder *d, const ss_batch *b, int64_t *max_ts, ss_error *err) {
    ss_rec_iter it;
    ss_record r;
    int64_t m = -1;
    ss_errkind k = ss_records_begin(d, b, &it, err);
    if (k != SS_E_OK) return k;
    int n;
    while ((n = ss_records_next(&it, &r, err)) == 1)
        if (r.timestamp > m) m = r.timestamp;
    if (n < 0) return err->kind ? err->kind : SS_E_BAD_RECORD;
    *max_ts = m;
    return SS_E_OK;
}

ss_icheck_status ss_index_check_time(ss_index_checker *c, ss_time_entry e, ss_icheck *out) {
    check_init(out);
    /* A missing .index answers as Kafka's empty one: position 0. */
    ss_offset_entry at = ss_index_lookup(c->offsets, 0, e.offset);
    out->lookup_position = at.position;
    if (at.position < 0 || (uint64_t)at.position > c->log_size) {
        ss_error_set(&out->err, SS_E_BAD_INDEX, at.position < 0 ? 0 : (uint64_t)at.position, -1,
                     "the offset index gives position %" PRId32 " for offset %" PRId64 ", outside the log (%" PRIu64
                     " bytes)",
                     at.position, e.offset, c->log_size);
        return out->status = SS_ICHECK_ERROR;
    }
    uint64_t start = (uint64_t)at.position, pos = start;
    if (c->have_resume && c->resume_start == start && e.offset >= c->resume_target) pos = c->resume_pos;
    ss_batch b;
    for (;;) {
        int r = next_batch(c, pos, c->log_size, &b, &out->err);
        if (r < 0) {
            c->have_resume = false;
            return out->status = SS_ICHECK_ERROR;
        }
        if (r == 0) {
            c->have_resume = true;
            c->resume_start = start;
            c->resume_target = e.offset;
            c->resume_pos = pos;
            return out->status = SS_ICHECK_NOT_FOUND;
        }
        if (b.last_offset >= e.offset) break;
        pos += b.size;
    }
    c->have_resume = true;
    c->resume_start = start;
    c->resume_target = e.offset;
    c->resume_pos = pos;
    out->batch_position = pos;
    out->log_last_offset = b.last_offset;
    if (b.last_offset != e.offset) return out->status = SS_ICHECK_MISMATCH;
    if (!c->dec) {
        ss_error_set(&out->err, SS_E_USAGE, pos, -1, "no decoder to read record timestamps");
        return out->status = SS_ICHECK_ERROR;
    }
    int64_t m;
    if (batch_max_timestamp(c->dec, &b, &m, &out->err) != SS_E_OK) return out->status = SS_ICHECK_ERROR;
    out->log_max_timestamp = m;
    return out->status = SS_ICHECK_MATCH;
}
