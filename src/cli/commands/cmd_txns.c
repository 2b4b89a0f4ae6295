/* segscan txns PATH... - transactions, last stable offset, read_committed view (view_txns.c
 * renders a transaction). */
#include <inttypes.h>
#include <stdio.h>

#include "commands/commands.h"
#include "common/out.h"
#include "views/scan.h"

static void txns_json_partition(struct scan_cli *c, uint32_t p) { scan_json_partition(c, p); }

static void txns_print(struct scan_cli *c) {
    ss_out *o = c->out;
    size_t np = ss_an_partition_count(c->an), nt = ss_an_txn_count(c->an);
    if (c->json) {
        for (uint32_t p = 0; p < np; p++) {
            txns_json_partition(c, p);
            for (size_t i = scan_txns_from(c->an, p); i < nt; i++) {
                const ss_an_txn *t = ss_an_txn_at(c->an, i);
                if (t->partition != p) break;
                txns_json_txn(c, t);
            }
        }
        return;
    }
    char tm[64], nowbuf[160];
    bool any_open = false;
    for (size_t i = 0; i < nt; i++) any_open = any_open || ss_an_txn_at(c->an, i)->result == SS_TXN_OPEN;
    if (any_open) out_printf(o, "now: %s\n", txns_now_text(c, nowbuf, sizeof nowbuf));
    for (uint32_t p = 0; p < np; p++) {
        const ss_an_partition *P = ss_an_partition_at(c->an, p);
        out_printf(o, "%s%s%s: LSO ", scan_sgr(c, SGR_BOLD), P->input->name, scan_sgr(c, SGR_RST));
        if (P->lso_unknown) out_str(o, "unknown (segments of the partition were not given)");
        else out_printf(o, "%" PRId64 "%s", P->lso, P->lso_bounded_by_hw ? " (the high watermark)" : "");
        out_printf(o, ", read_committed sees %" PRIu64 " of %" PRIu64 " %s; ", P->read_committed_records, P->records,
                   plural(P->records, "record", "records"));
        txns_text_counts(c, p);
        out_printf(o, ", %" PRIu64 " open", P->txn_open);
        if (P->txn_hanging)
            out_printf(o, ", %s%" PRIu64 " hanging%s", scan_sgr(c, SGR_RED), P->txn_hanging, scan_sgr(c, SGR_RST));
        if (P->txn_unknown) out_printf(o, ", %" PRIu64 " of unknown outcome", P->txn_unknown);
        out_ch(o, '\n');
        if (P->input->segments_not_given)
            out_printf(o,
                       "  only part of the partition was read: %zu other segment %s of its directory not given (their "
                       "markers, sessions and copies are not known)\n",
                       P->input->segments_not_given, plural(P->input->segments_not_given, "file", "files"));
        for (size_t i = scan_txns_from(c->an, p); i < nt; i++) {
            const ss_an_txn *t = ss_an_txn_at(c->an, i);
            if (t->partition != p) break;
            out_printf(o, "  pid %" PRId64 " epoch %d  ", t->producer_id, t->producer_epoch);
            if (t->empty) out_str(o, "no data (empty transaction)");
            else if (t->below_log_start) out_str(o, "its data is below the log start offset (not read)");
            else if (t->data_not_read)
                out_str(o, "no data in the segments read (it may lie in an earlier one not given)");
            else
                out_printf(o, "offsets %" PRId64 "..%" PRId64 ", %" PRIu64 " %s in %" PRIu64 " %s", t->first_offset,
                           t->last_offset, t->records, plural(t->records, "record", "records"), t->batches,
                           plural(t->batches, "batch", "batches"));
            if (t->result == SS_TXN_UNKNOWN && t->spans_hole) {
                out_printf(o,
                           "  %sincomplete: spans a hole%s (no marker read; offsets are missing after it, and its "
                           "marker may have been among them: its outcome is not known)",
                           scan_sgr(c, SGR_YEL), scan_sgr(c, SGR_RST));
            } else if (t->result == SS_TXN_UNKNOWN) {
                out_printf(o,
                           "  %sno marker in the segments read%s (a later segment of the partition was not given: "
                           "its outcome is not known)",
                           scan_sgr(c, SGR_YEL), scan_sgr(c, SGR_RST));
            } else if (t->result == SS_TXN_OPEN) {
                scan_time(tm, sizeof tm,
                          t->first_record_timestamp >= 0 ? t->first_record_timestamp : t->first_timestamp);
                out_printf(o, "  %sOPEN%s since %s", scan_sgr(c, SGR_YEL), scan_sgr(c, SGR_RST), tm);
                scan_time(tm, sizeof tm, t->producer_last_timestamp);
                out_printf(o, "\n    its producer's last write %s; ", tm);
                if (!t->age_known) out_str(o, "age unknown: no later activity seen; give --now");
                else {
                    out_printf(o, "idle %" PRId64 " ms", t->age_ms);
                    if (!t->hanging) out_str(o, ", within --txn-timeout");
                }
                if (t->hanging && t->rule == SS_HANG_COORD_LISTS)
                    out_str(o, ", longer than --txn-timeout, but its transactional id's transaction in "
                               "__transaction_state lists the partition: the coordinator will end it (not hanging "
                               "by find-hanging's rule)");
                else if (t->hanging) {
                    /* the abort command as it is to be typed, as far as the files tell */
                    char part[16] = "...";
                    if (P->input->partition >= 0) snprintf(part, sizeof part, "%" PRId32, P->input->partition);
                    const char *why = "";
                    switch (t->rule) {
                    case SS_HANG_COORD_COMPLETE:
                        why = "; confirmed: its transactional id's state in __transaction_state is complete";
                        break;
                    case SS_HANG_COORD_NOT_LISTED:
                        why = "; confirmed: its transactional id's transaction in __transaction_state does not list "
                              "the partition";
                        break;
                    case SS_HANG_COORD_PARTIAL:
                        why = "; not confirmed: no transactional id with this producer id in the __transaction_state "
                              "read (it may lie in a partition not read)";
                        break;
                    default: why = "; not confirmed: __transaction_state not read"; break;
                    }
                    out_printf(o,
                               "  %sHANGING%s (idle longer than --txn-timeout%s; read_committed consumers are stuck "
                               "at the LSO until it is aborted: kafka-transactions.sh --bootstrap-server ... abort "
                               "--topic %s --partition %s --start-offset %" PRId64 ")",
                               scan_sgr(c, SGR_RED), scan_sgr(c, SGR_RST), why, P->input->topic, part, t->first_offset);
                }
            } else {
                out_printf(o, "  %s at offset %" PRId64 " (coordinator epoch %" PRId32, ss_txn_result_name(t->result),
                           t->marker_offset, t->coordinator_epoch);
                if (t->marker_epoch != t->producer_epoch)
                    out_printf(o, ", marker epoch %d: transaction protocol v2 bumps the epoch at the end",
                               t->marker_epoch);
                out_ch(o, ')');
            }
            out_ch(o, '\n');
        }
    }
}

static const struct scan_command txns_command = {
    .name = "txns",
    .usage_args = "",
    .description = "The transactions per producer and partition, the last stable offset and\n"
                   "read_committed counts; open ones with their age and whether they hang, as\n"
                   "kafka-transactions.sh find-hanging judges.",
    .explain = false,
    .txn_ids = false,
    .text_has_no_copies = true,
    .print = txns_print,
};

int cmd_txns(int argc, char **argv) { return scan_run(&txns_command, argc, argv); }
