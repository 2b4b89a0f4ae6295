/* segscan - transaction index (.txnindex) files, read as Kafka's
 * TransactionIndex and AbortedTxn read them: 34-byte entries (version int16,
 * producerId, firstOffset, lastOffset, lastStableOffset), of which Kafka reads
 * the version's first byte only; bytes after the last whole entry are ignored.
 *
 * Files are mapped read-only through ss_segment; nothing is ever created or
 * written.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error_set.h"
#include "base/reader.h"
#include "segscan/files.h"

static void txnindex_init(ss_txnindex *t, int64_t start_offset, const uint8_t *data, uint64_t len) {
    t->start_offset = start_offset;
    t->file_size = len;
    t->entries = len / SS_ABORTED_TXN_SIZE;
    t->tail_bytes = len % SS_ABORTED_TXN_SIZE;
    t->data = data;
}

ss_errkind ss_txnindex_open(const char *path, int64_t start_offset, ss_txnindex **out, ss_error *err) {
    *out = NULL;
    ss_segment *seg = NULL;
    ss_errkind k = ss_segment_open(path, &seg, err);
    if (k != SS_E_OK) return k;
    ss_txnindex *t = calloc(1, sizeof *t);
    if (!t) {
        ss_segment_close(seg);
        ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        return SS_E_NOMEM;
    }
    t->seg = seg;
    txnindex_init(t, start_offset, ss_segment_data(seg), ss_segment_size(seg));
    *out = t;
    return SS_E_OK;
}

ss_errkind ss_txnindex_from_memory(const uint8_t *data, size_t len, int64_t start_offset, ss_txnindex **out,
                                   ss_error *err) {
    *out = NULL;
    ss_txnindex *t = calloc(1, sizeof *t);
    if (!t) {
        ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
        return SS_E_NOMEM;
    }
    txnindex_init(t, start_offset, data, len);
    *out = t;
    return SS_E_OK;
}

void ss_txnindex_close(ss_txnindex *t) {
    if (!t) return;
    ss_segment_close(t->seg);
    free(t);
}

ss_errkind ss_txnindex_entry(const ss_txnindex *t, uint64_t n, const char *display_path, ss_aborted_txn *out,
                             ss_error *err) {
    memset(out, 0, sizeof *out);
    if (n >= t->entries) {
        ss_error_set(err, SS_E_USAGE, 0, -1, "entry %" PRIu64 " of %" PRIu64, n, t->entries);
        return SS_E_USAGE;
    }
    uint64_t at = n * SS_ABORTED_TXN_SIZE;
    ss_rd r = ss_rd_make(t->data + at, SS_ABORTED_TXN_SIZE);
    out->version_field = ss_rd_i16(&r);
    out->version = (int8_t)t->data[at];
    out->producer_id = ss_rd_i64(&r);
    out->first_offset = ss_rd_i64(&r);
    out->last_offset = ss_rd_i64(&r);
    out->last_stable_offset = ss_rd_i64(&r);
    if (out->version > 0) {
        ss_error_set(err, SS_E_BAD_INDEX, at, -1,
                     "Unexpected aborted transaction version %d in transaction index %s, current version is 0",
                     (int)out->version, display_path);
        return SS_E_BAD_INDEX;
    }
    return SS_E_OK;
}

int ss_aborted_txn_format(const ss_aborted_txn *a, char *buf, size_t size) {
    return snprintf(buf, size,
                    "AbortedTxn(version=%d, producerId=%" PRId64 ", firstOffset=%" PRId64 ", lastOffset=%" PRId64
                    ", lastStableOffset=%" PRId64 ")",
                    (int)a->version, a->producer_id, a->first_offset, a->last_offset, a->last_stable_offset);
}

ss_errkind ss_txnindex_sanity_check(const ss_txnindex *t, const char *display_path, ss_error *err) {
    for (uint64_t i = 0; i < t->entries; i++) {
        ss_aborted_txn a;
        ss_errkind k = ss_txnindex_entry(t, i, display_path, &a, err);
        if (k != SS_E_OK) return k;
        if (a.last_offset < t->start_offset) {
            char txt[200];
            ss_aborted_txn_format(&a, txt, sizeof txt);
            ss_error_set(err, SS_E_BAD_INDEX, i * SS_ABORTED_TXN_SIZE, -1,
                         "Last offset of aborted transaction %s in index %s is less than start offset %" PRId64, txt,
                         display_path, t->start_offset);
            return SS_E_BAD_INDEX;
        }
    }
    return SS_E_OK;
}
