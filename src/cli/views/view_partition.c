/* segscan - the JSON object of a partition (type "partition"): what the
 * analysis found in it, for scan --json and txns --json; its figures are
 * described in figures.c. */
#include <stdbool.h>

#include "common/out.h"
#include "views/figures.h"
#include "views/scan.h"

void scan_json_partition(struct scan_cli *c, uint32_t i) {
    ss_out *o = c->out;
    out_str(o, "{\"type\":\"partition\"");
    figs_json(o, partition_figs, npartition_figs, ss_an_partition_at(c->an, i));
    out_str(o, "}\n");
}
