/* --report FILE: the analysis as key=value lines, one figure a line.
 *
 * A block per partition, every key prefixed by the partition name P, then the
 * totals under "total.". Names are stable; segscan(1) documents each one,
 * figures.c lists them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/common.h"
#include "views/figures.h"
#include "views/scan.h"

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
        figs_report(f, P->input->name, partition_figs, npartition_figs, P);
    }
    const ss_an_totals *t = ss_an_totals_get(c->an);
    figs_report(f, "total", total_figs, ntotal_figs, t);
    for (enum ss_cause k = SS_CAUSE_ABORTED; k < SS_CAUSE_COUNT; k++)
        fprintf(f, "total.cause.%s=%" PRIu64 "\n", ss_cause_name(k), t->cause[k]);
    scan_groups_report(c, f);
    bool ok = !ferror(f);
    if (to_stdout) ok = fflush(f) == 0 && ok;
    else ok = fclose(f) == 0 && ok;
    if (!ok) warnx_("--report %s: write failed", path);
    return ok;
}
