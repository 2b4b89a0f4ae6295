/* segscan CLI - the handovers of one rebalance as one block of text: a
 * rebalance that moves twelve partitions is one event (one record of
 * __consumer_offsets gave them their new owners), said once with a line per
 * partition, not as twelve near-identical findings. The JSON keeps one
 * group-finding per partition.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/common.h"
#include "groups/gfindings.h"

static bool blockable(const ss_finding *x) { return x->kind == SS_FK_HANDOVER && !x->shared; }

size_t gb_run(const ss_finding *const *x, size_t n) {
    if (!n || !blockable(x[0])) return n ? 1 : 0;
    size_t k = 1;
    while (k < n && blockable(x[k]) && x[k]->group == x[0]->group && x[k]->record_offset == x[0]->record_offset &&
           x[k]->coordinator_partition == x[0]->coordinator_partition)
        k++;
    return k;
}

static bool same_str(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

static bool same_owners(const ss_finding *a, const ss_finding *b) {
    return same_str(a->previous_owner, b->previous_owner) && same_str(a->new_owner, b->new_owner) &&
           same_str(a->previous_instance, b->previous_instance) && same_str(a->new_instance, b->new_instance);
}

/* a partition's line: where its new owner resumed, what its previous owner had committed, its ranges */
static void part_line(ss_out *o, const ss_finding *x, bool owners, bool revocation, const char *indent) {
    char t[64];
    out_printf(o, "%s    ", indent);
    gf_tp_text(o, &x->tp);
    out_str(o, ": ");
    if (owners) {
        gf_owner_text(o, x->previous_owner, x->previous_instance);
        out_str(o, " -> ");
        gf_owner_text(o, x->new_owner, x->new_instance);
        out_str(o, "; ");
    }
    if (x->resumed_offset >= 0) out_printf(o, "resumed at %" PRId64, x->resumed_offset);
    else out_str(o, "no committed offset: auto.offset.reset decided where it began");
    if (!x->previous_commits) {
        out_str(o, "; previous owner: no commit of it (neither clean nor unclean)");
    } else {
        if (x->previous_last_commit < 0) snprintf(t, sizeof t, "-");
        else cli_format_time(x->previous_last_commit, t, sizeof t);
        out_printf(o, "; previous owner: %" PRIu64 " %s, the last at %s (offset %" PRId64 "%s), ", x->previous_commits,
                   plural(x->previous_commits, "commit", "commits"), t, x->previous_last_offset,
                   x->last_commit_outcome == SS_GOUT_ABORTED ? ", its transaction aborted"
                   : x->last_commit_outcome == SS_GOUT_OPEN  ? ", its transaction still open"
                                                             : "");
        out_str(o, x->clean == 1   ? "clean"
                   : x->clean == 0 ? "it had stopped committing (not clean)"
                                   : "its pace unknown (one commit)");
    }
    if (revocation && ss_frevoke_name(x->revocation)) out_printf(o, "; revocation %s", ss_frevoke_name(x->revocation));
    if (x->caught_up) {
        out_str(o, "; nothing to deliver twice");
    } else if (x->redelivered.set) {
        out_str(o, "; possibly delivered twice: ");
        gf_range_text(o, &x->redelivered);
        if (x->likely.set) {
            out_str(o, "; likely: ");
            gf_range_text(o, &x->likely);
        }
    }
    out_ch(o, '\n');
}

void gb_text(ss_out *o, const ss_finding *const *x, size_t n, const char *indent) {
    char t[64];
    bool owners = false, revocations = false, basis = false, ranges = false, likely = false, unread = false;
    for (size_t i = 1; i < n; i++) {
        owners = owners || !same_owners(x[0], x[i]);
        revocations = revocations || x[i]->revocation != x[0]->revocation;
        basis = basis || x[i]->basis != x[0]->basis;
    }
    for (size_t i = 0; i < n; i++) {
        ranges = ranges || (!x[i]->caught_up && x[i]->redelivered.set && x[i]->data_read);
        likely = likely || x[i]->likely.set;
        unread = unread || !x[i]->data_read;
    }
    cli_format_time(x[0]->time, t, sizeof t);
    out_printf(o, "%s%s  handovers of %zu partitions in one rebalance", indent, t, n);
    if (!owners) {
        out_str(o, ": ");
        gf_owner_text(o, x[0]->previous_owner, x[0]->previous_instance);
        out_str(o, " -> ");
        gf_owner_text(o, x[0]->new_owner, x[0]->new_instance);
        if (x[0]->same_instance)
            out_str(o, " (the same group.instance.id under a new member id: a static member came back)");
    }
    out_printf(o, "  [record %" PRId64 "]\n", x[0]->record_offset);
    for (size_t i = 0; i < n; i++) part_line(o, x[i], owners, revocations, indent);
    if (!revocations) gf_revocation_text(o, x[0], indent);
    out_printf(o, "%s    (commits carry no member id: attributed to the owner then", indent);
    if (unread) out_str(o, "; where the data partition was not read: offsets only");
    out_str(o, ")\n");
    if (ranges)
        out_printf(o,
                   "%s    possibly delivered twice: the records at and above the resumed offset present at the "
                   "handover (%s): every record delivered twice is among them, if the previous owner had stopped "
                   "reading by then\n",
                   indent, basis ? "by each partition's time basis" : gf_basis_words(x[0]));
    if (likely)
        out_printf(o,
                   "%s    likely: written before the previous owner's last commit plus one interval (assuming it "
                   "committed at that pace; a consumer stuck in processing goes on longer, up to "
                   "max.poll.interval.ms)\n",
                   indent);
}
