/* segscan - the figures of a partition and of the total (figures.h). The lists
 * are in the JSON objects' order; the number is a figure's place among the
 * report's lines (docs/json.md and segscan(1) describe each one). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "figures.h"
#include "html_int.h"
#include "scan.h"

#define U(x) ((struct fig_val){.u = (uint64_t)(x)})
#define S(x) ((struct fig_val){.u = (uint64_t)(int64_t)(x)})
#define STR(x) ((struct fig_val){.s = (x)})
#define CODECS(x) ((struct fig_val){.codecs = (x)})
#define RANGE(n, first, last) ((struct fig_val){.u = (uint64_t)(n), .lo = (first), .hi = (last)})

/* X(id, JSON key, JSON kind, report key, report kind, report rank, HTML column head, HTML kind, HTML column,
 *   value of P and ip) */
#define PARTITION_FIGURES(X)                                                                                           \
    X(name, "partition", FJ_STR, NULL, FR_NONE, 0, "partition", FH_NAME, 1, STR(ip->name))                             \
    X(topic, "topic", FJ_STR, "topic", FR_STR, 1, NULL, FH_NONE, 0, STR(ip->topic))                                    \
    X(partno, "partitionNumber", FJ_OPT, "partition", FR_S64, 2, NULL, FH_NONE, 0, S(ip->partition))                   \
    X(path, "path", FJ_STR, NULL, FR_NONE, 0, NULL, FH_NONE, 0, STR(ip->path))                                         \
    X(temp, "temporary", FJ_STR, NULL, FR_NONE, 0, NULL, FH_NONE, 0, STR(ip->temporary))                               \
    X(temp_of, "temporaryOf", FJ_STR, NULL, FR_NONE, 0, NULL, FH_NONE, 0, STR(ip->temporary_of))                       \
    X(segments, "segments", FJ_U64, "segments", FR_U64, 3, NULL, FH_NONE, 0, U(P->segments))                           \
    X(records, "records", FJ_U64, "records", FR_U64, 4, "records", FH_U64, 2, U(P->records))                           \
    X(batches, "batches", FJ_U64, "batches", FR_U64, 5, "batches", FH_U64, 3, U(P->batches))                           \
    X(ctl_recs, "controlRecords", FJ_U64, "control_records", FR_U64, 6, NULL, FH_NONE, 0, U(P->control_records))       \
    X(ctl_batches, "controlBatches", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->control_batches))                \
    X(first_off, "firstOffset", FJ_OPT, "first_offset", FR_S64, 7, NULL, FH_NONE, 0, S(P->first_offset))               \
    X(next_off, "nextOffset", FJ_OPT, "next_offset", FR_S64, 8, NULL, FH_NONE, 0, S(P->next_offset))                   \
    X(offsets, NULL, FJ_NONE, NULL, FR_NONE, 0, "offsets", FH_RANGE, 4,                                                \
      RANGE(P->batches, P->first_offset, P->next_offset - 1))                                                          \
    X(first_ts, "firstTimestamp", FJ_OPT, "first_timestamp", FR_S64, 9, NULL, FH_NONE, 0,                              \
      S(P->has_timestamps ? P->min_timestamp : -1))                                                                    \
    X(last_ts, "lastTimestamp", FJ_OPT, "last_timestamp", FR_S64, 10, NULL, FH_NONE, 0,                                \
      S(P->has_timestamps ? P->max_timestamp : -1))                                                                    \
    X(codecs, "codecs", FJ_CODECS, "codec", FR_CODECS, 11, NULL, FH_NONE, 0, CODECS(P->codec_batches))                 \
    X(dup_groups, "duplicateGroups", FJ_U64, "duplicate_groups", FR_U64, 12, "duplicate groups", FH_U64, 5,            \
      U(P->duplicate_groups))                                                                                          \
    X(dup_records, "duplicateRecords", FJ_U64, "duplicate_records", FR_U64, 13, "extra copies", FH_U64, 6,             \
      U(P->duplicate_records))                                                                                         \
    X(max_copies, "maxCopies", FJ_U64, "max_copies", FR_U64, 14, NULL, FH_NONE, 0, U(P->max_copies))                   \
    X(dups_excluded, "duplicatesExcluded", FJ_BOOL, "duplicates_excluded", FR_U64, 15, NULL, FH_NONE, 0,               \
      U(P->dups_excluded))                                                                                             \
    X(producers, "producers", FJ_U64, "producers", FR_U64, 16, NULL, FH_NONE, 0, U(P->producers))                      \
    X(sessions, "sessions", FJ_U64, "sessions", FR_U64, 17, NULL, FH_NONE, 0, U(P->sessions))                          \
    X(non_idem, "nonIdempotentRecords", FJ_U64, "non_idempotent_records", FR_U64, 18, NULL, FH_NONE, 0,                \
      U(P->non_idempotent_records))                                                                                    \
    X(gaps, "sequenceGaps", FJ_U64, "sequence_gaps", FR_U64, 19, "sequence gaps", FH_U64, 7, U(P->sequence_gaps))      \
    X(gaps_expl, "sequenceGapsExplained", FJ_U64, "sequence_gaps_explained", FR_U64, 20, NULL, FH_NONE, 0,             \
      U(P->sequence_gaps_explained))                                                                                   \
    X(dup_seqs, "duplicateSequences", FJ_U64, "duplicate_sequences", FR_U64, 21, NULL, FH_NONE, 0,                     \
      U(P->duplicate_sequences))                                                                                       \
    X(ooo, "outOfOrderBatches", FJ_U64, "out_of_order_batches", FR_U64, 22, NULL, FH_NONE, 0,                          \
      U(P->out_of_order_batches))                                                                                      \
    X(bumps, "epochBumps", FJ_U64, "epoch_bumps", FR_U64, 23, "epoch bumps", FH_U64, 8, U(P->epoch_bumps))             \
    X(compacted, "compacted", FJ_BOOL, "compacted", FR_U64, 24, NULL, FH_NONE, 0, U(P->compacted))                     \
    X(lso, "lastStableOffset", FJ_OPT, "lso", FR_S64, 30, NULL, FH_NONE, 0, S(P->lso))                                 \
    X(hw, "highWatermark", FJ_OPT, "high_watermark", FR_S64, 33, NULL, FH_NONE, 0, S(ip->high_watermark))              \
    X(log_start, "logStartOffset", FJ_OPT, "log_start_offset", FR_S64, 34, NULL, FH_NONE, 0, S(ip->log_start_offset))  \
    X(rc_records, "readCommittedRecords", FJ_U64, "read_committed_records", FR_U64, 31, NULL, FH_NONE, 0,              \
      U(P->read_committed_records))                                                                                    \
    X(committed, "committed", FJ_U64, "txn_committed", FR_U64, 25, "committed", FH_U64, 9, U(P->txn_committed))        \
    X(aborted, "aborted", FJ_U64, "txn_aborted", FR_U64, 26, "aborted", FH_U64, 10, U(P->txn_aborted))                 \
    X(open, "open", FJ_U64, "txn_open", FR_U64, 27, "open", FH_U64, 11, U(P->txn_open))                                \
    X(hanging, "hanging", FJ_U64, "txn_hanging", FR_U64, 29, "hanging", FH_U64, 12, U(P->txn_hanging))                 \
    X(unknown, "unknown", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->txn_unknown))                               \
    X(age_unknown, "ageUnknown", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->txn_age_unknown))                    \
    X(lso_unknown, "lastStableOffsetUnknown", FJ_BOOL, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->lso_unknown))          \
    X(empty, "empty", FJ_U64, "txn_empty", FR_U64, 28, NULL, FH_NONE, 0, U(P->txn_empty))                              \
    X(ab_records, "abortedRecords", FJ_U64, "aborted_records", FR_U64, 32, NULL, FH_NONE, 0, U(P->aborted_records))    \
    X(now, "now", FJ_OPT, NULL, FR_NONE, 0, NULL, FH_NONE, 0, S(P->now_ms))                                            \
    X(damaged, "damagedBytes", FJ_U64, "damaged_bytes", FR_U64, 35, "damaged bytes", FH_U64, 13, U(P->damaged_bytes))  \
    X(lost, "lostRecords", FJ_OPT, NULL, FR_NONE, 0, NULL, FH_NONE, 0,                                                 \
      S(P->lost_unknown ? -1 : (int64_t)P->lost_records))                                                              \
    X(tail, "tailBytes", FJ_U64, "tail_bytes", FR_U64, 36, NULL, FH_NONE, 0, U(P->tail_bytes))                         \
    X(skipped, "skippedLargeBatches", FJ_U64, "skipped_large_batches", FR_U64, 37, NULL, FH_NONE, 0,                   \
      U(P->skipped_large_batches))                                                                                     \
    X(hidden, "hiddenBelowLogStart", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->hidden_below_log_start))         \
    X(outside, "outsideWindow", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->outside_window))                      \
    X(not_given, "segmentsNotRead", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(ip->segments_not_given))

/* X(id, JSON key, JSON kind, report key, report kind, report rank, HTML column head, HTML kind, HTML column,
 *   value of t); the HTML columns are the partition table's (one the totals lack is an empty cell) */
#define TOTAL_FIGURES(X)                                                                                               \
    X(partitions, "partitions", FJ_U64, "partitions", FR_U64, 1, "partition", FH_TOTAL, 1, U(t->partitions))           \
    X(segments, "segments", FJ_U64, "segments", FR_U64, 2, NULL, FH_NONE, 0, U(t->segments))                           \
    X(records, "records", FJ_U64, "records", FR_U64, 3, "records", FH_U64, 2, U(t->records))                           \
    X(batches, "batches", FJ_U64, "batches", FR_U64, 4, "batches", FH_U64, 3, U(t->batches))                           \
    X(ctl_recs, "controlRecords", FJ_U64, "control_records", FR_U64, 5, NULL, FH_NONE, 0, U(t->control_records))       \
    X(dup_groups, "duplicateGroups", FJ_U64, "duplicate_groups", FR_U64, 6, "duplicate groups", FH_U64, 5,             \
      U(t->duplicate_groups))                                                                                          \
    X(dup_records, "duplicateRecords", FJ_U64, "duplicate_records", FR_U64, 7, "extra copies", FH_U64, 6,              \
      U(t->duplicate_records))                                                                                         \
    X(max_copies, "maxCopies", FJ_U64, "max_copies", FR_U64, 8, NULL, FH_NONE, 0, U(t->max_copies))                    \
    X(producers, "producers", FJ_U64, "producers", FR_U64, 9, NULL, FH_NONE, 0, U(t->producers))                       \
    X(sessions, "sessions", FJ_U64, "sessions", FR_U64, 10, NULL, FH_NONE, 0, U(t->sessions))                          \
    X(non_idem, "nonIdempotentRecords", FJ_U64, "non_idempotent_records", FR_U64, 11, NULL, FH_NONE, 0,                \
      U(t->non_idempotent_records))                                                                                    \
    X(gaps, "sequenceGaps", FJ_U64, "sequence_gaps", FR_U64, 12, "sequence gaps", FH_U64, 7, U(t->sequence_gaps))      \
    X(gaps_expl, "sequenceGapsExplained", FJ_U64, "sequence_gaps_explained", FR_U64, 13, NULL, FH_NONE, 0,             \
      U(t->sequence_gaps_explained))                                                                                   \
    X(dup_seqs, "duplicateSequences", FJ_U64, "duplicate_sequences", FR_U64, 14, NULL, FH_NONE, 0,                     \
      U(t->duplicate_sequences))                                                                                       \
    X(ooo, "outOfOrderBatches", FJ_U64, "out_of_order_batches", FR_U64, 15, NULL, FH_NONE, 0,                          \
      U(t->out_of_order_batches))                                                                                      \
    X(bumps, "epochBumps", FJ_U64, "epoch_bumps", FR_U64, 16, "epoch bumps", FH_U64, 8, U(t->epoch_bumps))             \
    X(rc_records, "readCommittedRecords", FJ_U64, "read_committed_records", FR_U64, 22, NULL, FH_NONE, 0,              \
      U(t->read_committed_records))                                                                                    \
    X(committed, "committed", FJ_U64, "txn_committed", FR_U64, 17, "committed", FH_U64, 9, U(t->txn_committed))        \
    X(aborted, "aborted", FJ_U64, "txn_aborted", FR_U64, 18, "aborted", FH_U64, 10, U(t->txn_aborted))                 \
    X(open, "open", FJ_U64, "txn_open", FR_U64, 19, "open", FH_U64, 11, U(t->txn_open))                                \
    X(hanging, "hanging", FJ_U64, "txn_hanging", FR_U64, 21, "hanging", FH_U64, 12, U(t->txn_hanging))                 \
    X(empty, "empty", FJ_U64, "txn_empty", FR_U64, 20, NULL, FH_NONE, 0, U(t->txn_empty))                              \
    X(unknown, "unknown", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(t->txn_unknown))                               \
    X(damaged, "damagedBytes", FJ_U64, "damaged_bytes", FR_U64, 23, "damaged bytes", FH_U64, 13, U(t->damaged_bytes))  \
    X(tail, "tailBytes", FJ_U64, "tail_bytes", FR_U64, 24, NULL, FH_NONE, 0, U(t->tail_bytes))                         \
    X(skipped, "skippedLargeBatches", FJ_U64, "skipped_large_batches", FR_U64, 25, NULL, FH_NONE, 0,                   \
      U(t->skipped_large_batches))                                                                                     \
    X(open_copies, "copiesInOpenTransactions", FJ_U64, "copies_in_open_transactions", FR_U64, 26, NULL, FH_NONE, 0,    \
      U(t->open_copies))

#define PART_GETTER(id, jkey, jk, rkey, rk, rank, hhead, hk, hcol, val)                                                \
    static struct fig_val pf_##id(const void *of) {                                                                    \
        const ss_an_partition *P = of;                                                                                 \
        const ss_input_partition *ip = P->input;                                                                       \
        (void)ip;                                                                                                      \
        return val;                                                                                                    \
    }
#define TOTAL_GETTER(id, jkey, jk, rkey, rk, rank, hhead, hk, hcol, val)                                               \
    static struct fig_val tf_##id(const void *of) {                                                                    \
        const ss_an_totals *t = of;                                                                                    \
        return val;                                                                                                    \
    }
PARTITION_FIGURES(PART_GETTER)
TOTAL_FIGURES(TOTAL_GETTER)

#define PART_ENTRY(id, jkey, jk, rkey, rk, rank, hhead, hk, hcol, val)                                                 \
    {jkey, jk, rkey, rk, rank, hhead, hk, hcol, pf_##id},
#define TOTAL_ENTRY(id, jkey, jk, rkey, rk, rank, hhead, hk, hcol, val)                                                \
    {jkey, jk, rkey, rk, rank, hhead, hk, hcol, tf_##id},

const struct fig partition_figs[] = {PARTITION_FIGURES(PART_ENTRY)};
const size_t npartition_figs = sizeof partition_figs / sizeof *partition_figs;
const struct fig total_figs[] = {TOTAL_FIGURES(TOTAL_ENTRY)};
const size_t ntotal_figs = sizeof total_figs / sizeof *total_figs;

void figs_json(ss_out *o, const struct fig *figs, size_t n, const void *of) {
    for (size_t i = 0; i < n; i++) {
        const struct fig *g = &figs[i];
        if (g->jk == FJ_NONE) continue;
        struct fig_val v = g->get(of);
        out_json_key(o, g->json);
        switch (g->jk) {
        case FJ_U64: out_u64(o, v.u); break;
        case FJ_OPT:
            if ((int64_t)v.u < 0) out_str(o, "null");
            else out_i64(o, (int64_t)v.u);
            break;
        case FJ_BOOL: out_bool(o, v.u != 0); break;
        case FJ_STR: /* null: none (a partition that is no temporary) */
            if (v.s) out_json_cstr(o, v.s);
            else out_str(o, "null");
            break;
        case FJ_CODECS: {
            out_ch(o, '{');
            bool first = true;
            for (int k = 0; k < 8; k++) {
                if (!v.codecs[k]) continue;
                if (!first) out_ch(o, ',');
                first = false;
                out_json_cstr(o, ss_codec_label(k));
                out_ch(o, ':');
                out_u64(o, v.codecs[k]);
            }
            out_ch(o, '}');
            break;
        }
        case FJ_NONE: break;
        }
    }
}

static void report_one(FILE *f, const char *prefix, const struct fig *g, const void *of) {
    struct fig_val v = g->get(of);
    switch (g->rk) {
    case FR_U64: fprintf(f, "%s.%s=%" PRIu64 "\n", prefix, g->report, v.u); break;
    case FR_S64: fprintf(f, "%s.%s=%" PRId64 "\n", prefix, g->report, (int64_t)v.u); break;
    case FR_STR: fprintf(f, "%s.%s=%s\n", prefix, g->report, v.s); break;
    case FR_CODECS:
        for (int k = 0; k < 8; k++)
            if (v.codecs[k]) fprintf(f, "%s.%s.%s=%" PRIu64 "\n", prefix, g->report, ss_codec_label(k), v.codecs[k]);
        break;
    case FR_NONE: break;
    }
}

void figs_report(FILE *f, const char *prefix, const struct fig *figs, size_t n, const void *of) {
    /* a few dozen figures: finding each rank by a scan costs nothing beside the fprintf */
    for (int rank = 1;; rank++) {
        bool found = false;
        for (size_t i = 0; i < n; i++)
            if (figs[i].rk != FR_NONE && figs[i].rank == rank) {
                report_one(f, prefix, &figs[i], of);
                found = true;
            }
        if (!found) break;
    }
}

/* the figure of column COL, NULL: none */
static const struct fig *html_col(const struct fig *figs, size_t n, int col) {
    for (size_t i = 0; i < n; i++)
        if (figs[i].hk != FH_NONE && figs[i].hcol == col) return &figs[i];
    return NULL;
}

void figs_html_head(ss_out *o, const struct fig *figs, size_t n) {
    const struct fig *g;
    for (int col = 1; (g = html_col(figs, n, col)); col++) out_printf(o, "<th>%s</th>", g->html);
}

void figs_html_row(ss_out *o, const struct fig *cols, size_t ncols, const struct fig *figs, size_t n, const void *of) {
    for (int col = 1; html_col(cols, ncols, col); col++) {
        const struct fig *g = html_col(figs, n, col);
        if (!g) {
            out_lit(o, "<td></td>");
            continue;
        }
        struct fig_val v = g->get(of);
        switch (g->hk) {
        case FH_U64: out_printf(o, "<td class=\"n\">%" PRIu64 "</td>", v.u); break;
        case FH_NAME:
            out_lit(o, "<td>");
            html_esc(o, v.s);
            out_lit(o, "</td>");
            break;
        case FH_RANGE:
            if (v.u) out_printf(o, "<td>%" PRId64 "..%" PRId64 "</td>", v.lo, v.hi);
            else out_lit(o, "<td>-</td>");
            break;
        case FH_TOTAL: out_printf(o, "<th>total (%" PRIu64 ")</th>", v.u); break;
        case FH_NONE: break;
        }
    }
}
