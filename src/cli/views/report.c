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
        /* a partition given from several directories: each copy and where it came from */
        const ss_input_partition *ip = P->input;
        if (ip->nreplicas) fprintf(f, "%s.replicas=%zu\n", ip->name, ip->nreplicas);
        for (size_t k = 0; k < ip->nreplicas; k++) {
            const ss_input_replica *r = &ip->replicas[k];
            fprintf(f, "%s.replica.%zu.path=%s\n", ip->name, k + 1, r->path);
            if (r->node_id >= 0) fprintf(f, "%s.replica.%zu.broker=%" PRId32 "\n", ip->name, k + 1, r->node_id);
            else fprintf(f, "%s.replica.%zu.broker=unknown\n", ip->name, k + 1);
            fprintf(f, "%s.replica.%zu.leader=%d\n", ip->name, k + 1, r->leader ? 1 : 0);
            if (r->diverged_at >= 0)
                fprintf(f, "%s.replica.%zu.diverged_at=%" PRId64 "\n", ip->name, k + 1, r->diverged_at);
            fprintf(f, "%s.replica.%zu.behind=%" PRId64 "\n", ip->name, k + 1, r->behind);
        }
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
