/* segscan dups PATH... - every duplicate group with every copy (view_groups.c
 * renders a group).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "commands/commands.h"
#include "common/common.h"
#include "common/out.h"
#include "views/scan.h"

static void dups_print(struct scan_cli *c) {
    size_t ng = ss_an_dupgroup_count(c->an);
    size_t show = ng;
    if (c->top_set && c->top < ng) show = (size_t)c->top;
    if (c->json) {
        for (size_t g = 0; g < show; g++) dups_json_group(c, g, false);
        scan_json_total(c); /* the totals, and the scope the groups rest on */
        return;
    }
    ss_out *o = c->out;
    const ss_an_totals *t = ss_an_totals_get(c->an);
    if (!ng) {
        out_printf(o, "no duplicates (by %s) in %" PRIu64 " %s of %" PRIu64 " %s\n", ss_by_name(c->ao.by), t->records,
                   plural(t->records, "record", "records"), t->partitions,
                   plural(t->partitions, "partition", "partitions"));
        return;
    }
    out_printf(o, "%zu duplicate %s (by %s), %" PRIu64 " extra %s:", ng, plural(ng, "group", "groups"),
               ss_by_name(c->ao.by), t->duplicate_records, plural(t->duplicate_records, "copy", "copies"));
    for (enum ss_cause k = SS_CAUSE_ABORTED; k < SS_CAUSE_COUNT; k++)
        if (t->cause[k]) out_printf(o, " %s %" PRIu64, ss_cause_name(k), t->cause[k]);
    out_ch(o, '\n');
    for (size_t g = 0; g < show; g++) {
        out_printf(o, "\ngroup %zu\n", g + 1);
        dups_text_group(c, g, SIZE_MAX, c->verbose);
    }
    if (show < ng) out_printf(o, "\n... %zu more %s (--top)\n", ng - show, plural(ng - show, "group", "groups"));
}

static const struct scan_command dups_command = {
    .name = "dups",
    .usage_args = "",
    .description = "Every duplicate group with every copy (partition, offset, timestamp, producer,\n"
                   "sequence, cause). A partition given from several brokers' directories is\n"
                   "one partition with replicas: each offset counted once, the copies compared.",
    .explain = false,
    .txn_ids = true,
    .print = dups_print,
};

int cmd_dups(int argc, char **argv) { return scan_run(&dups_command, argc, argv); }
