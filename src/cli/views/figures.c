/* segscan - the figures of a partition and of the total (figures.h). The lists
 * are in the JSON objects' order; the number is a figure's place among the
 * report's lines (docs/json.md and segscan(1) describe each one); T(...) is
 * its clause in the text summary, in the order of partition_lines. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "views/figures.h"
#include "views/scan.h"

/* a partition whose records a coordinator writes (GroupCoordinator's __consumer_offsets, the transaction
 * coordinator's __transaction_state): without a producer id by design, except transactional offset commits;
 * "idempotence off" is a producer's setting, not theirs */
static bool coordinator_written(const ss_input_partition *ip) {
    return ip && ip->topic && (!strcmp(ip->topic, "__consumer_offsets") || !strcmp(ip->topic, "__transaction_state"));
}

#define U(x) ((struct fig_val){.u = (uint64_t)(x)})
#define S(x) ((struct fig_val){.u = (uint64_t)(int64_t)(x)})
#define STR(x) ((struct fig_val){.s = (x)})
#define CODECS(x) ((struct fig_val){.codecs = (x)})
#define RANGE(n, first, last) ((struct fig_val){.u = (uint64_t)(n), .lo = (first), .hi = (last)})
#define T(line, pos, when, after, sep, sgr, num, phrase)                                                               \
    { line, pos, when, after, sep, sgr, num, phrase }
#define NT                                                                                                             \
    { 0, 0, 0, -1, NULL, NULL, FN_NONE, NULL }
#define NA (-1)
#define PF(id) PF_##id /* the row of a partition's figure */
#define TF(id) TF_##id /* the row of a total's figure */

/* X(id, JSON key, JSON kind, report key, report kind, report rank, HTML column head, HTML kind, HTML column,
 *   value of P and ip, text (T: line, place, when, after, separator, colour, number, phrase; NT: none)) */
#define PARTITION_FIGURES(X)                                                                                           \
    X(name, "partition", FJ_STR, NULL, FR_NONE, 0, "partition", FH_NAME, 1, STR(ip->name),                             \
      T(PL_HEAD, 1, FT_ALWAYS, NA, NULL, SGR_BOLD, FN_STR, "<#>"))                                                     \
    X(topic, "topic", FJ_STR, "topic", FR_STR, 1, NULL, FH_NONE, 0, STR(ip->topic), NT)                                \
    X(partno, "partitionNumber", FJ_OPT, "partition", FR_S64, 2, NULL, FH_NONE, 0, S(ip->partition), NT)               \
    X(path, "path", FJ_STR, NULL, FR_NONE, 0, NULL, FH_NONE, 0, STR(ip->path),                                         \
      T(PL_HEAD, 2, FT_ALWAYS, NA, "  ", SGR_DIM, FN_STR, "<#>"))                                                      \
    X(temp, "temporary", FJ_STR, NULL, FR_NONE, 0, NULL, FH_NONE, 0, STR(ip->temporary), NT)                           \
    X(temp_of, "temporaryOf", FJ_STR, NULL, FR_NONE, 0, NULL, FH_NONE, 0, STR(ip->temporary_of), NT)                   \
    X(segments, "segments", FJ_U64, "segments", FR_U64, 3, NULL, FH_NONE, 0, U(P->segments),                           \
      T(PL_HEAD, 3, FT_ALWAYS, NA, " ", NULL, FN_U64, "(# {segment|segments})"))                                       \
    X(records, "records", FJ_U64, "records", FR_U64, 4, "records", FH_U64, 2, U(P->records),                           \
      T(PL_RECORDS, 1, FT_ALWAYS, NA, NULL, NULL, FN_U64, "#"))                                                        \
    X(batches, "batches", FJ_U64, "batches", FR_U64, 5, "batches", FH_U64, 3, U(P->batches),                           \
      T(PL_RECORDS, 2, FT_ALWAYS, NA, " in ", NULL, FN_U64, "# {batch|batches}"))                                      \
    X(nb_outside, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->outside_window),                             \
      T(PL_NOBATCHES, 1, FT_NONZERO, NA, NULL, NULL, FN_U64, " in the window (# {record|records} outside)"))           \
    X(ctl_recs, "controlRecords", FJ_U64, "control_records", FR_U64, 6, NULL, FH_NONE, 0, U(P->control_records), NT)   \
    X(ctl_batches, "controlBatches", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->control_batches),                \
      T(PL_RECORDS, 3, FT_NONZERO, NA, " ", NULL, FN_U64, "(# control {batch|batches})"))                              \
    X(first_off, "firstOffset", FJ_OPT, "first_offset", FR_S64, 7, NULL, FH_NONE, 0, S(P->first_offset),               \
      T(PL_RECORDS, 4, FT_ALWAYS, NA, ", ", NULL, FN_S64, "offsets #"))                                                \
    X(last_off, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, S(P->next_offset - 1),                              \
      T(PL_RECORDS, 5, FT_ALWAYS, NA, "..", NULL, FN_S64, "#"))                                                        \
    X(next_off, "nextOffset", FJ_OPT, "next_offset", FR_S64, 8, NULL, FH_NONE, 0, S(P->next_offset),                   \
      T(PL_RECORDS, 6, FT_ALWAYS, NA, ", ", NULL, FN_S64, "next #"))                                                   \
    X(offsets, NULL, FJ_NONE, NULL, FR_NONE, 0, "offsets", FH_RANGE, 4,                                                \
      RANGE(P->batches, P->first_offset, P->next_offset - 1), NT)                                                      \
    X(first_ts, "firstTimestamp", FJ_OPT, "first_timestamp", FR_S64, 9, NULL, FH_NONE, 0,                              \
      S(P->has_timestamps ? P->min_timestamp : -1), T(PL_TIME, 1, FT_ALWAYS, NA, NULL, NULL, FN_TIME, "#"))            \
    X(last_ts, "lastTimestamp", FJ_OPT, "last_timestamp", FR_S64, 10, NULL, FH_NONE, 0,                                \
      S(P->has_timestamps ? P->max_timestamp : -1), T(PL_TIME, 2, FT_ALWAYS, NA, " .. ", NULL, FN_TIME, "#"))          \
    X(codecs, "codecs", FJ_CODECS, "codec", FR_CODECS, 11, NULL, FH_NONE, 0, CODECS(P->codec_batches),                 \
      T(PL_CODECS, 1, FT_ALWAYS, NA, NULL, NULL, FN_CODECS, NULL))                                                     \
    X(old_magic, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->magic_batches[0] || P->magic_batches[1]),     \
      T(PL_CODECS, 2, FT_NONZERO, NA, NULL, NULL, FN_NONE, ""))                                                        \
    X(magic0, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->magic_batches[0]),                               \
      T(PL_CODECS, 3, FT_ALWAYS, PF(old_magic), NULL, NULL, FN_U64, "  (magic 0: #"))                                  \
    X(magic1, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->magic_batches[1]),                               \
      T(PL_CODECS, 4, FT_ALWAYS, PF(old_magic), NULL, NULL, FN_U64, ", magic 1: #"))                                   \
    X(magic2, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->magic_batches[2]),                               \
      T(PL_CODECS, 5, FT_ALWAYS, PF(old_magic), NULL, NULL, FN_U64, ", magic 2: #)"))                                  \
    X(dup_groups, "duplicateGroups", FJ_U64, "duplicate_groups", FR_U64, 12, "duplicate groups", FH_U64, 5,            \
      U(P->duplicate_groups), T(PL_DUPS, 2, FT_NONZERO | FT_ALONE, NA, NULL, SGR_RED, FN_U64, "<# {group|groups}"))    \
    X(dup_records, "duplicateRecords", FJ_U64, "duplicate_records", FR_U64, 13, "extra copies", FH_U64, 6,             \
      U(P->duplicate_records), T(PL_DUPS, 3, FT_ALWAYS, PF(dup_groups), ", ", NULL, FN_U64, "# extra {copy|copies}>")) \
    X(max_copies, "maxCopies", FJ_U64, "max_copies", FR_U64, 14, NULL, FH_NONE, 0, U(P->max_copies),                   \
      T(PL_DUPS, 4, FT_GT1, PF(dup_groups), ", ", NULL, FN_U64, "at most # copies of one @"))                          \
    X(each_once, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->max_copies),                                  \
      T(PL_DUPS, 5, FT_LE1, PF(dup_groups), ", ", NULL, FN_NONE,                                                       \
        "each @ once here (its other copies in other partitions)"))                                                    \
    X(dups_none, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(1),                                              \
      T(PL_DUPS, 6, FT_ALWAYS | FT_ALONE, NA, NULL, SGR_GRN, FN_NONE, "<none>"))                                       \
    X(dups_excluded, "duplicatesExcluded", FJ_BOOL, "duplicates_excluded", FR_U64, 15, NULL, FH_NONE, 0,               \
      U(P->dups_excluded),                                                                                             \
      T(PL_DUPS, 1, FT_NONZERO, NA, NULL, NULL, FN_NONE, "not analysed (internal topic; --include-internal)"))         \
    X(producers, "producers", FJ_U64, "producers", FR_U64, 16, NULL, FH_NONE, 0, U(P->producers),                      \
      T(PL_PRODUCERS, 1, FT_NONZERO, NA, NULL, NULL, FN_U64, "# with a producer id"))                                  \
    X(sessions, "sessions", FJ_U64, "sessions", FR_U64, 17, NULL, FH_NONE, 0, U(P->sessions),                          \
      T(PL_PRODUCERS, 2, FT_ALWAYS, PF(producers), ", ", NULL, FN_U64, "# {session|sessions}"))                        \
    X(non_idem, "nonIdempotentRecords", FJ_U64, "non_idempotent_records", FR_U64, 18, NULL, FH_NONE, 0,                \
      U(P->non_idempotent_records), NT)                                                                                \
    X(non_idem_producer, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0,                                            \
      U(coordinator_written(ip) ? 0 : P->non_idempotent_records),                                                      \
      T(PL_PRODUCERS, 3, FT_NONZERO, NA, "; ", NULL, FN_U64,                                                           \
        "# {record|records} without producer id (idempotence off)"))                                                   \
    X(non_idem_coordinator, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0,                                         \
      U(coordinator_written(ip) ? P->non_idempotent_records : 0),                                                      \
      T(PL_PRODUCERS, 4, FT_NONZERO, NA, "; ", NULL, FN_U64,                                                           \
        "# {record|records} without producer id (written by the coordinator, which uses none)"))                       \
    X(prod_none, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(1),                                              \
      T(PL_PRODUCERS, 5, FT_ALWAYS | FT_ALONE, NA, NULL, NULL, FN_NONE, "none"))                                       \
    X(gaps, "sequenceGaps", FJ_U64, "sequence_gaps", FR_U64, 19, "sequence gaps", FH_U64, 7, U(P->sequence_gaps),      \
      T(PL_SEQS, 1, FT_NONZERO, NA, NULL, SGR_RED, FN_U64, "<# {gap|gaps}>"))                                          \
    X(gaps_expl, "sequenceGapsExplained", FJ_U64, "sequence_gaps_explained", FR_U64, 20, NULL, FH_NONE, 0,             \
      U(P->sequence_gaps_explained),                                                                                   \
      T(PL_SEQS, 2, FT_NONZERO, NA, ", ", NULL, FN_U64,                                                                \
        "# {gap|gaps} consistent with compaction or explained by damage"))                                             \
    X(dup_seqs, "duplicateSequences", FJ_U64, "duplicate_sequences", FR_U64, 21, NULL, FH_NONE, 0,                     \
      U(P->duplicate_sequences),                                                                                       \
      T(PL_SEQS, 3, FT_NONZERO, NA, ", ", SGR_RED, FN_U64, "<# {record|records} with a sequence already seen>"))       \
    X(ooo, "outOfOrderBatches", FJ_U64, "out_of_order_batches", FR_U64, 22, NULL, FH_NONE, 0,                          \
      U(P->out_of_order_batches), T(PL_SEQS, 4, FT_NONZERO, NA, ", ", NULL, FN_U64, "# out-of-order {batch|batches}")) \
    X(in_order, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->sessions),                                     \
      T(PL_SEQS, 5, FT_NONZERO | FT_ALONE, NA, NULL, NULL, FN_NONE, "in order"))                                       \
    X(no_seqs, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->sessions == 0),                                 \
      T(PL_SEQS, 6, FT_NONZERO | FT_ALONE, NA, NULL, NULL, FN_NONE, "-"))                                              \
    X(bumps, "epochBumps", FJ_U64, "epoch_bumps", FR_U64, 23, "epoch bumps", FH_U64, 8, U(P->epoch_bumps),             \
      T(PL_PRODUCERS, 6, FT_NONZERO, NA, "; ", NULL, FN_U64, "# epoch {bump|bumps}"))                                  \
    X(compacted, "compacted", FJ_BOOL, "compacted", FR_U64, 24, NULL, FH_NONE, 0, U(P->compacted),                     \
      T(PL_SEQS, 7, FT_NONZERO, NA, NULL, NULL, FN_NONE, "  (compacted log)"))                                         \
    X(lso, "lastStableOffset", FJ_OPT, "lso", FR_S64, 30, NULL, FH_NONE, 0, S(P->lso),                                 \
      T(PL_TXNS, 9, FT_ALWAYS, NA, "; ", NULL, FN_S64, "LSO #"))                                                       \
    X(lso_hw, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->lso_bounded_by_hw),                              \
      T(PL_TXNS, 10, FT_NONZERO, NA, NULL, NULL, FN_NONE, " (bounded by the high watermark)"))                         \
    X(hw, "highWatermark", FJ_OPT, "high_watermark", FR_S64, 33, NULL, FH_NONE, 0, S(ip->high_watermark),              \
      T(PL_CHECKPOINTS, 1, FT_NONNEG, NA, NULL, NULL, FN_S64, " high watermark # (replication-offset-checkpoint)"))    \
    X(log_start, "logStartOffset", FJ_OPT, "log_start_offset", FR_S64, 34, NULL, FH_NONE, 0, S(ip->log_start_offset),  \
      T(PL_CHECKPOINTS, 2, FT_NONNEG, NA, NULL, NULL, FN_S64, " log start # (log-start-offset-checkpoint, "))          \
    X(rc_records, "readCommittedRecords", FJ_U64, "read_committed_records", FR_U64, 31, NULL, FH_NONE, 0,              \
      U(P->read_committed_records),                                                                                    \
      T(PL_TXNS, 11, FT_ALWAYS, NA, ", ", NULL, FN_U64, "read_committed sees # {record|records}"))                     \
    X(txn_any, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0,                                                      \
      U(P->txn_committed || P->txn_aborted || P->txn_open), T(PL_TXNS, 1, FT_NONZERO, NA, NULL, NULL, FN_NONE, ""))    \
    X(committed, "committed", FJ_U64, "txn_committed", FR_U64, 25, "committed", FH_U64, 9, U(P->txn_committed),        \
      T(PL_TXNS, 2, FT_ALWAYS, PF(txn_any), NULL, NULL, FN_U64, "# committed"))                                        \
    X(empty_commit, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->txn_empty - P->txn_empty_aborted),         \
      T(PL_TXNS, 3, FT_NONZERO, PF(txn_any), NULL, NULL, FN_U64, " (# empty)"))                                        \
    X(aborted, "aborted", FJ_U64, "txn_aborted", FR_U64, 26, "aborted", FH_U64, 10, U(P->txn_aborted),                 \
      T(PL_TXNS, 4, FT_ALWAYS, PF(txn_any), ", ", NULL, FN_U64, "# aborted"))                                          \
    X(empty_abort, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->txn_empty_aborted),                         \
      T(PL_TXNS, 5, FT_NONZERO, PF(txn_any), NULL, NULL, FN_U64, " (# empty)"))                                        \
    X(open, "open", FJ_U64, "txn_open", FR_U64, 27, "open", FH_U64, 11, U(P->txn_open),                                \
      T(PL_TXNS, 6, FT_ALWAYS | FT_SGR_IF, PF(txn_any), ", ", SGR_YEL, FN_U64, "<# open>"))                            \
    X(hanging, "hanging", FJ_U64, "txn_hanging", FR_U64, 29, "hanging", FH_U64, 12, U(P->txn_hanging),                 \
      T(PL_TXNS, 7, FT_NONZERO, PF(txn_any), " ", SGR_RED, FN_U64, "(<# hanging>)"))                                   \
    X(txn_none, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(1),                                               \
      T(PL_TXNS, 8, FT_ALWAYS | FT_ALONE, NA, NULL, NULL, FN_NONE, "none"))                                            \
    X(unknown, "unknown", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->txn_unknown), NT)                           \
    X(age_unknown, "ageUnknown", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->txn_age_unknown), NT)                \
    X(lso_unknown, "lastStableOffsetUnknown", FJ_BOOL, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->lso_unknown), NT)      \
    X(empty, "empty", FJ_U64, "txn_empty", FR_U64, 28, NULL, FH_NONE, 0, U(P->txn_empty), NT)                          \
    X(ab_records, "abortedRecords", FJ_U64, "aborted_records", FR_U64, 32, NULL, FH_NONE, 0, U(P->aborted_records),    \
      NT)                                                                                                              \
    X(now, "now", FJ_OPT, NULL, FR_NONE, 0, NULL, FH_NONE, 0, S(P->now_ms), NT)                                        \
    X(damaged, "damagedBytes", FJ_U64, "damaged_bytes", FR_U64, 35, "damaged bytes", FH_U64, 13, U(P->damaged_bytes),  \
      T(PL_DAMAGED, 1, FT_ALWAYS, NA, NULL, NULL, FN_U64, "# {byte|bytes}"))                                           \
    X(damage_events, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->damage_events),                           \
      T(PL_DAMAGED, 2, FT_ALWAYS, NA, " in ", NULL, FN_U64, "# {place|places} (skipped; the rest was analysed)"))      \
    X(lost, "lostRecords", FJ_OPT, NULL, FR_NONE, 0, NULL, FH_NONE, 0,                                                 \
      S(P->lost_unknown ? -1 : (int64_t)P->lost_records), NT)                                                          \
    X(lost_n, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->lost_records),                                   \
      T(PL_LOST, 1, FT_NONZERO, NA, NULL, NULL, FN_U64, "# {record|records} in the damaged batches at offsets "))      \
    X(lost_first, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, S(P->lost_first),                                 \
      T(PL_LOST, 2, FT_ALWAYS, PF(lost_n), NULL, NULL, FN_S64, "#"))                                                   \
    X(lost_last, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, S(P->lost_last),                                   \
      T(PL_LOST, 3, FT_ALWAYS, PF(lost_n), "..", NULL, FN_S64, "# could not be read"))                                 \
    X(lost_more, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->lost_unknown),                                \
      T(PL_LOST, 4, FT_NONZERO, PF(lost_n), NULL, NULL, FN_NONE, ", and more in damage whose offsets are unknown"))    \
    X(lost_unknown, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->lost_unknown),                             \
      T(PL_LOST, 5, FT_NONZERO | FT_ALONE, NA, NULL, NULL, FN_NONE,                                                    \
        "the records in the damaged bytes are unknown: their headers cannot be read"))                                 \
    X(rep_batches, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->repeated_batches),                          \
      T(PL_REPEAT, 1, FT_NONZERO, NA, NULL, NULL, FN_U64, "# {batch|batches} at offsets "))                            \
    X(rep_first, "repeatedFirstOffset", FJ_OPT, NULL, FR_NONE, 0, NULL, FH_NONE, 0, S(P->repeated_first),              \
      T(PL_REPEAT, 2, FT_ALWAYS, PF(rep_batches), NULL, NULL, FN_S64, "#"))                                            \
    X(rep_last, "repeatedLastOffset", FJ_OPT, NULL, FR_NONE, 0, NULL, FH_NONE, 0, S(P->repeated_last),                 \
      T(PL_REPEAT, 3, FT_ALWAYS, PF(rep_batches), "..", NULL, FN_S64, "# repeat offsets read before them"))            \
    X(rep_records, "repeatedRecords", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->repeated_records),              \
      T(PL_REPEAT, 4, FT_ALWAYS, PF(rep_batches), " ", NULL, FN_U64, "(# {record|records}: not copies, left out)"))    \
    X(rep_keep, "recoveryKeepsBelow", FJ_OPT, NULL, FR_NONE, 0, NULL, FH_NONE, 0, S(P->recovery_keeps_below),          \
      T(PL_REPEAT, 5, FT_NONNEG, PF(rep_batches), "; ", NULL, FN_S64,                                                  \
        "Kafka's recovery would keep the offsets below #"))                                                            \
    X(holes, NULL, FJ_NONE, "holes", FR_U64, 38, NULL, FH_NONE, 0, U(P->holes), NT)                                    \
    X(tail, "tailBytes", FJ_U64, "tail_bytes", FR_U64, 36, NULL, FH_NONE, 0, U(P->tail_bytes), NT)                     \
    X(incomplete, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->incomplete_tail_bytes),                      \
      T(PL_TAIL, 1, FT_NONZERO, NA, NULL, NULL, FN_U64,                                                                \
        "# {byte|bytes} after the last complete batch {does|do} not form a complete batch "                            \
        "(unclean shutdown or a cut copy; Kafka's recovery would truncate {it|them})"))                                \
    X(zeros, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0,                                                        \
      U(P->tail_bytes > P->incomplete_tail_bytes ? P->tail_bytes - P->incomplete_tail_bytes : 0),                      \
      T(PL_ZEROS, 1, FT_NONZERO, NA, NULL, NULL, FN_U64, "# zero {byte|bytes} at the end (preallocated)"))             \
    X(skipped, "skippedLargeBatches", FJ_U64, "skipped_large_batches", FR_U64, 37, NULL, FH_NONE, 0,                   \
      U(P->skipped_large_batches),                                                                                     \
      T(PL_SKIPPED, 1, FT_NONZERO, NA, NULL, NULL, FN_U64, "# {batch|batches} larger than --max-batch-bytes"))         \
    X(hidden, "hiddenBelowLogStart", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->hidden_below_log_start),         \
      T(PL_CHECKPOINTS, 3, FT_ALWAYS, PF(log_start), NULL, NULL, FN_U64, "# {record|records} below it not shown)"))    \
    X(outside, "outsideWindow", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(P->outside_window),                      \
      T(PL_WINDOW, 1, FT_NONZERO, NA, NULL, NULL, FN_U64,                                                              \
        "# {record|records} outside the window: read and known, not listed"))                                          \
    X(not_given, "segmentsNotRead", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(ip->segments_not_given),             \
      T(PL_PART, 1, FT_NONZERO, NA, NULL, NULL, FN_U64,                                                                \
        "# other segment {file|files} of the partition's directory not given: "                                        \
        "their markers, sessions and copies are not known"))

/* X(id, JSON key, JSON kind, report key, report kind, report rank, HTML column head, HTML kind, HTML column,
 *   value of t, text); the HTML columns are the partition table's (one the totals lack is an empty cell) */
#define TOTAL_FIGURES(X)                                                                                               \
    X(label, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(0),                                                  \
      T(TL_HEAD, 1, FT_ALWAYS, NA, NULL, SGR_BOLD, FN_NONE, "<total>"))                                                \
    X(partitions, "partitions", FJ_U64, "partitions", FR_U64, 1, "partition", FH_TOTAL, 1, U(t->partitions),           \
      T(TL_HEAD, 2, FT_ALWAYS, NA, "  ", NULL, FN_U64, "# {partition|partitions}"))                                    \
    X(segments, "segments", FJ_U64, "segments", FR_U64, 2, NULL, FH_NONE, 0, U(t->segments),                           \
      T(TL_HEAD, 3, FT_ALWAYS, NA, ", ", NULL, FN_U64, "# {segment|segments}"))                                        \
    X(records, "records", FJ_U64, "records", FR_U64, 3, "records", FH_U64, 2, U(t->records),                           \
      T(TL_HEAD, 4, FT_ALWAYS, NA, ", ", NULL, FN_U64, "# {record|records}"))                                          \
    X(batches, "batches", FJ_U64, "batches", FR_U64, 4, "batches", FH_U64, 3, U(t->batches),                           \
      T(TL_HEAD, 5, FT_ALWAYS, NA, " in ", NULL, FN_U64, "# {batch|batches}"))                                         \
    X(ctl_recs, "controlRecords", FJ_U64, "control_records", FR_U64, 5, NULL, FH_NONE, 0, U(t->control_records), NT)   \
    X(dup_groups, "duplicateGroups", FJ_U64, "duplicate_groups", FR_U64, 6, "duplicate groups", FH_U64, 5,             \
      U(t->duplicate_groups), T(TL_DUPS, 1, FT_NONZERO, NA, NULL, SGR_RED, FN_U64, "<# {group|groups}"))               \
    X(dup_records, "duplicateRecords", FJ_U64, "duplicate_records", FR_U64, 7, "extra copies", FH_U64, 6,              \
      U(t->duplicate_records), T(TL_DUPS, 2, FT_ALWAYS, TF(dup_groups), ", ", NULL, FN_U64, "# extra {copy|copies}>")) \
    X(causes, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, CODECS(t->cause),                                     \
      T(TL_DUPS, 3, FT_ALWAYS, TF(dup_groups), ":", NULL, FN_CAUSES, NULL))                                            \
    X(max_copies, "maxCopies", FJ_U64, "max_copies", FR_U64, 8, NULL, FH_NONE, 0, U(t->max_copies), NT)                \
    X(producers, "producers", FJ_U64, "producers", FR_U64, 9, NULL, FH_NONE, 0, U(t->producers), NT)                   \
    X(sessions, "sessions", FJ_U64, "sessions", FR_U64, 10, NULL, FH_NONE, 0, U(t->sessions), NT)                      \
    X(non_idem, "nonIdempotentRecords", FJ_U64, "non_idempotent_records", FR_U64, 11, NULL, FH_NONE, 0,                \
      U(t->non_idempotent_records), NT)                                                                                \
    X(gaps, "sequenceGaps", FJ_U64, "sequence_gaps", FR_U64, 12, "sequence gaps", FH_U64, 7, U(t->sequence_gaps),      \
      T(TL_SEQS, 1, FT_ALWAYS, NA, NULL, NULL, FN_U64, "# {gap|gaps}"))                                                \
    X(gaps_expl, "sequenceGapsExplained", FJ_U64, "sequence_gaps_explained", FR_U64, 13, NULL, FH_NONE, 0,             \
      U(t->sequence_gaps_explained), T(TL_SEQS, 2, FT_ALWAYS, NA, ", ", NULL, FN_U64, "# explained"))                  \
    X(dup_seqs, "duplicateSequences", FJ_U64, "duplicate_sequences", FR_U64, 14, NULL, FH_NONE, 0,                     \
      U(t->duplicate_sequences),                                                                                       \
      T(TL_SEQS, 3, FT_ALWAYS, NA, ", ", NULL, FN_U64, "# {record|records} with a repeated sequence"))                 \
    X(ooo, "outOfOrderBatches", FJ_U64, "out_of_order_batches", FR_U64, 15, NULL, FH_NONE, 0,                          \
      U(t->out_of_order_batches), NT)                                                                                  \
    X(bumps, "epochBumps", FJ_U64, "epoch_bumps", FR_U64, 16, "epoch bumps", FH_U64, 8, U(t->epoch_bumps), NT)         \
    X(rc_records, "readCommittedRecords", FJ_U64, "read_committed_records", FR_U64, 22, NULL, FH_NONE, 0,              \
      U(t->read_committed_records), NT)                                                                                \
    X(committed, "committed", FJ_U64, "txn_committed", FR_U64, 17, "committed", FH_U64, 9, U(t->txn_committed),        \
      T(TL_TXNS, 1, FT_ALWAYS, NA, NULL, NULL, FN_U64, "# committed"))                                                 \
    X(aborted, "aborted", FJ_U64, "txn_aborted", FR_U64, 18, "aborted", FH_U64, 10, U(t->txn_aborted),                 \
      T(TL_TXNS, 2, FT_ALWAYS, NA, ", ", NULL, FN_U64, "# aborted"))                                                   \
    X(open, "open", FJ_U64, "txn_open", FR_U64, 19, "open", FH_U64, 11, U(t->txn_open),                                \
      T(TL_TXNS, 3, FT_ALWAYS, NA, ", ", NULL, FN_U64, "# open"))                                                      \
    X(hanging, "hanging", FJ_U64, "txn_hanging", FR_U64, 21, "hanging", FH_U64, 12, U(t->txn_hanging),                 \
      T(TL_TXNS, 4, FT_ALWAYS, NA, " ", NULL, FN_U64, "(# hanging)"))                                                  \
    X(empty, "empty", FJ_U64, "txn_empty", FR_U64, 20, NULL, FH_NONE, 0, U(t->txn_empty), NT)                          \
    X(unknown, "unknown", FJ_U64, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(t->txn_unknown), NT)                           \
    X(damaged, "damagedBytes", FJ_U64, "damaged_bytes", FR_U64, 23, "damaged bytes", FH_U64, 13, U(t->damaged_bytes),  \
      T(TL_DAMAGED, 1, FT_ALWAYS, NA, NULL, NULL, FN_U64, "# {byte|bytes}"))                                           \
    X(tail, "tailBytes", FJ_U64, "tail_bytes", FR_U64, 24, NULL, FH_NONE, 0, U(t->tail_bytes), NT)                     \
    X(skipped, "skippedLargeBatches", FJ_U64, "skipped_large_batches", FR_U64, 25, NULL, FH_NONE, 0,                   \
      U(t->skipped_large_batches), NT)                                                                                 \
    X(open_copies, "copiesInOpenTransactions", FJ_U64, "copies_in_open_transactions", FR_U64, 26, NULL, FH_NONE, 0,    \
      U(t->open_copies), T(TL_DUPS, 4, FT_NONZERO, TF(dup_groups), " ", NULL, FN_U64, "(# in open transactions)"))     \
    X(dups_none, NULL, FJ_NONE, NULL, FR_NONE, 0, NULL, FH_NONE, 0, U(1),                                              \
      T(TL_DUPS, 5, FT_ALWAYS | FT_ALONE, NA, NULL, NULL, FN_NONE, "none"))

#define PART_ID(id, jkey, jk, rkey, rk, rank, hhead, hk, hcol, val, txt) PF_##id,
#define TOTAL_ID(id, jkey, jk, rkey, rk, rank, hhead, hk, hcol, val, txt) TF_##id,
enum { PARTITION_FIGURES(PART_ID) PF_COUNT };
enum { TOTAL_FIGURES(TOTAL_ID) TF_COUNT };

#define PART_GETTER(id, jkey, jk, rkey, rk, rank, hhead, hk, hcol, val, txt)                                           \
    static struct fig_val pf_##id(const void *of) {                                                                    \
        const ss_an_partition *P = of;                                                                                 \
        const ss_input_partition *ip = P->input;                                                                       \
        (void)ip;                                                                                                      \
        return val;                                                                                                    \
    }
#define TOTAL_GETTER(id, jkey, jk, rkey, rk, rank, hhead, hk, hcol, val, txt)                                          \
    static struct fig_val tf_##id(const void *of) {                                                                    \
        const ss_an_totals *t = of;                                                                                    \
        (void)t;                                                                                                       \
        return val;                                                                                                    \
    }
PARTITION_FIGURES(PART_GETTER)
TOTAL_FIGURES(TOTAL_GETTER)

#define PART_ENTRY(id, jkey, jk, rkey, rk, rank, hhead, hk, hcol, val, txt)                                            \
    {jkey, jk, rkey, rk, rank, hhead, hk, hcol, pf_##id, txt},
#define TOTAL_ENTRY(id, jkey, jk, rkey, rk, rank, hhead, hk, hcol, val, txt)                                           \
    {jkey, jk, rkey, rk, rank, hhead, hk, hcol, tf_##id, txt},

static bool has_batches(const void *of) { return ((const ss_an_partition *)of)->batches != 0; }
static bool no_batches(const void *of) { return ((const ss_an_partition *)of)->batches == 0; }
static bool has_times(const void *of) {
    const ss_an_partition *P = of;
    return P->batches && P->has_timestamps;
}
static bool has_damage(const void *of) {
    const ss_an_partition *P = of;
    return P->damaged_bytes || P->damage_events;
}

/* indent, label, colour, when */
const struct fig_line partition_lines[PL_COUNT] = {
    [PL_HEAD] = {"", "", NULL, NULL},
    [PL_NOBATCHES] = {"  ", "no batches", NULL, no_batches},
    [PL_RECORDS] = {"  ", "records       ", NULL, has_batches},
    [PL_TIME] = {"  ", "time          ", NULL, has_times},
    [PL_CODECS] = {"  ", "codecs       ", NULL, has_batches},
    [PL_PRODUCERS] = {"  ", "producers     ", NULL, has_batches},
    [PL_DUPS] = {"  ", "duplicates    ", NULL, has_batches},
    [PL_SEQS] = {"  ", "sequences     ", NULL, has_batches},
    [PL_TXNS] = {"  ", "transactions  ", NULL, has_batches},
    [PL_CHECKPOINTS] = {"  ", "checkpoints  ", NULL, NULL},
    [PL_DAMAGED] = {"  ", "damaged       ", SGR_RED, has_damage},
    [PL_LOST] = {"                ", "", NULL, NULL},
    [PL_REPEAT] = {"  ", "offset order  ", SGR_RED, NULL},
    [PL_TAIL] = {"  ", "tail          ", NULL, NULL},
    [PL_ZEROS] = {"  ", "tail          ", NULL, NULL},
    [PL_SKIPPED] = {"  ", "skipped       ", NULL, NULL},
    [PL_WINDOW] = {"  ", "window        ", NULL, NULL},
    [PL_PART] = {"  ", "part          ", NULL, NULL},
};
const struct fig_line total_lines[TL_COUNT] = {
    [TL_HEAD] = {"", "", NULL, NULL},
    [TL_DUPS] = {"  ", "duplicates    ", NULL, NULL},
    [TL_SEQS] = {"  ", "sequences     ", NULL, NULL},
    [TL_TXNS] = {"  ", "transactions  ", NULL, NULL},
    [TL_DAMAGED] = {"  ", "damaged       ", NULL, NULL},
};

const struct fig partition_figs[] = {PARTITION_FIGURES(PART_ENTRY)};
const size_t npartition_figs = sizeof partition_figs / sizeof *partition_figs;
const struct fig total_figs[] = {TOTAL_FIGURES(TOTAL_ENTRY)};
const size_t ntotal_figs = sizeof total_figs / sizeof *total_figs;
_Static_assert(sizeof partition_figs / sizeof *partition_figs <= FIG_MAX, "FIG_MAX");
_Static_assert(sizeof total_figs / sizeof *total_figs <= FIG_MAX, "FIG_MAX");

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
