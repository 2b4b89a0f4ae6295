/* --report FILE: the analysis as key=value lines, one figure a line.
 *
 * A block per partition, every key prefixed by the partition name P, then the
 * totals under "total.". Names are stable; segscan(1) documents each one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "scan.h"

static void kv(FILE *f, const char *p, const char *k, uint64_t v) { fprintf(f, "%s.%s=%" PRIu64 "\n", p, k, v); }
static void kvs(FILE *f, const char *p, const char *k, int64_t v) { fprintf(f, "%s.%s=%" PRId64 "\n", p, k, v); }

bool report_write(const struct scan_cli *c, const char *path) {
    bool to_stdout = !strcmp(path, "-");
    FILE *f = to_stdout ? stdout : fopen(path, "w");
    if (!f) {
        warnx_("--report %s: %s", path, strerror(errno));
        return false;
    }
    size_t np = ss_an_partition_count(c->an);
    for (size_t i = 0; i < np; i++) {
        const ss_an_partition *P = ss_an_partition_at(c->an, i);
        const ss_input_partition *ip = P->input;
        const char *n = ip->name;
        fprintf(f, "%s.topic=%s\n", n, ip->topic);
        kvs(f, n, "partition", ip->partition);
        kv(f, n, "segments", P->segments);
        kv(f, n, "records", P->records);
        kv(f, n, "batches", P->batches);
        kv(f, n, "control_records", P->control_records);
        kvs(f, n, "first_offset", P->first_offset);
        kvs(f, n, "next_offset", P->next_offset);
        kvs(f, n, "first_timestamp", P->has_timestamps ? P->min_timestamp : -1);
        kvs(f, n, "last_timestamp", P->has_timestamps ? P->max_timestamp : -1);
        for (int k = 0; k < 8; k++) {
            if (!P->codec_batches[k]) continue;
            fprintf(f, "%s.codec.%s=%" PRIu64 "\n", n, ss_codec_label(k), P->codec_batches[k]);
        }
        kv(f, n, "duplicate_groups", P->duplicate_groups);
        kv(f, n, "duplicate_records", P->duplicate_records);
        kv(f, n, "max_copies", P->max_copies);
        kv(f, n, "duplicates_excluded", P->dups_excluded);
        kv(f, n, "producers", P->producers);
        kv(f, n, "sessions", P->sessions);
        kv(f, n, "non_idempotent_records", P->non_idempotent_records);
        kv(f, n, "sequence_gaps", P->sequence_gaps);
        kv(f, n, "sequence_gaps_explained", P->sequence_gaps_explained);
        kv(f, n, "duplicate_sequences", P->duplicate_sequences);
        kv(f, n, "out_of_order_batches", P->out_of_order_batches);
        kv(f, n, "epoch_bumps", P->epoch_bumps);
        kv(f, n, "compacted", P->compacted);
        kv(f, n, "txn_committed", P->txn_committed);
        kv(f, n, "txn_aborted", P->txn_aborted);
        kv(f, n, "txn_open", P->txn_open);
        kv(f, n, "txn_empty", P->txn_empty);
        kv(f, n, "txn_hanging", P->txn_hanging);
        kvs(f, n, "lso", P->lso);
        kv(f, n, "read_committed_records", P->read_committed_records);
        kv(f, n, "aborted_records", P->aborted_records);
        kvs(f, n, "high_watermark", ip->high_watermark);
        kvs(f, n, "log_start_offset", ip->log_start_offset);
        kv(f, n, "damaged_bytes", P->damaged_bytes);
        kv(f, n, "tail_bytes", P->tail_bytes);
        kv(f, n, "skipped_large_batches", P->skipped_large_batches);
    }
    const ss_an_totals *t = ss_an_totals_get(c->an);
    const char *n = "total";
    kv(f, n, "partitions", t->partitions);
    kv(f, n, "segments", t->segments);
    kv(f, n, "records", t->records);
    kv(f, n, "batches", t->batches);
    kv(f, n, "control_records", t->control_records);
    kv(f, n, "duplicate_groups", t->duplicate_groups);
    kv(f, n, "duplicate_records", t->duplicate_records);
    kv(f, n, "max_copies", t->max_copies);
    kv(f, n, "producers", t->producers);
    kv(f, n, "sessions", t->sessions);
    kv(f, n, "non_idempotent_records", t->non_idempotent_records);
    kv(f, n, "sequence_gaps", t->sequence_gaps);
    kv(f, n, "sequence_gaps_explained", t->sequence_gaps_explained);
    kv(f, n, "duplicate_sequences", t->duplicate_sequences);
    kv(f, n, "out_of_order_batches", t->out_of_order_batches);
    kv(f, n, "epoch_bumps", t->epoch_bumps);
    kv(f, n, "txn_committed", t->txn_committed);
    kv(f, n, "txn_aborted", t->txn_aborted);
    kv(f, n, "txn_open", t->txn_open);
    kv(f, n, "txn_empty", t->txn_empty);
    kv(f, n, "txn_hanging", t->txn_hanging);
    kv(f, n, "read_committed_records", t->read_committed_records);
    kv(f, n, "damaged_bytes", t->damaged_bytes);
    kv(f, n, "tail_bytes", t->tail_bytes);
    kv(f, n, "skipped_large_batches", t->skipped_large_batches);
    kv(f, n, "copies_in_open_transactions", t->open_copies);
    for (enum ss_cause k = SS_CAUSE_ABORTED; k < SS_CAUSE_COUNT; k++)
        fprintf(f, "total.cause.%s=%" PRIu64 "\n", ss_cause_name(k), t->cause[k]);
    scan_groups_report(c, f);
    bool ok = !ferror(f);
    if (to_stdout) ok = fflush(f) == 0 && ok;
    else ok = fclose(f) == 0 && ok;
    if (!ok) warnx_("--report %s: write failed", path);
    return ok;
}
