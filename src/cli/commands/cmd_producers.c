/* segscan producers PATH... - producer sessions, sequences, gaps, repeats (view_sessions.c
 * renders a session). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "commands/commands.h"
#include "common/common.h"
#include "common/out.h"
#include "views/scan.h"

static void producers_print(struct scan_cli *c) {
    size_t n = ss_an_session_count(c->an);
    if (c->json) {
        for (size_t i = 0; i < n; i++) producers_json_session(c, ss_an_session_at(c->an, i));
        scan_json_total(c); /* the sums: sequence gaps, repeats, batches out of order */
        return;
    }
    ss_out *o = c->out;
    size_t np = ss_an_partition_count(c->an);
    for (uint32_t p = 0; p < np; p++) {
        const ss_an_partition *P = ss_an_partition_at(c->an, p);
        out_printf(o, "%s%s%s: %" PRIu64 " %s, %" PRIu64 " %s", scan_sgr(c, SGR_BOLD), P->input->name,
                   scan_sgr(c, SGR_RST), P->producers, plural(P->producers, "producer", "producers"), P->sessions,
                   plural(P->sessions, "session", "sessions"));
        if (P->non_idempotent_records)
            out_printf(o, ", %" PRIu64 " %s without producer id", P->non_idempotent_records,
                       plural(P->non_idempotent_records, "record", "records"));
        if (P->sequence_gaps)
            out_printf(o, ", %s%" PRIu64 " sequence %s%s", scan_sgr(c, SGR_RED), P->sequence_gaps,
                       plural(P->sequence_gaps, "gap", "gaps"), scan_sgr(c, SGR_RST));
        if (P->duplicate_sequences)
            out_printf(o, ", %s%" PRIu64 " repeated %s%s", scan_sgr(c, SGR_RED), P->duplicate_sequences,
                       plural(P->duplicate_sequences, "sequence", "sequences"), scan_sgr(c, SGR_RST));
        out_ch(o, '\n');
        for (size_t i = scan_sessions_from(c->an, p); i < n; i++) {
            const ss_an_session *s = ss_an_session_at(c->an, i);
            if (s->partition != p) break;
            producers_text_session(c, s, "  ");
        }
    }
}

static const struct scan_command producers_command = {
    .name = "producers",
    .usage_args = "",
    .description = "The producer sessions: (producer id, epoch) per partition with sequence ranges,\n"
                   "gaps and repeats.",
    .explain = false,
    .txn_ids = true,
    .text_has_no_copies = true,
    .print = producers_print,
};

int cmd_producers(int argc, char **argv) { return scan_run(&producers_command, argc, argv); }
