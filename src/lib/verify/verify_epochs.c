/* segscan verify - the leader-epoch-checkpoint against the log: the checks of
 * the file (its entries increasing, none past the log end: the files room's
 * ss_textfile_check, which dump runs too), each batch's partitionLeaderEpoch
 * the epoch the checkpoint gives its offset, no epoch starting inside a batch
 * (LeaderEpochFileCache). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/verify.h"

void vf_epoch_path_init(vctx *c) {
    const ss_input_partition *ip = c->ip;
    if (!ip->is_dir) return;
    c->epoch_path = ss_path_join(ip->path, "leader-epoch-checkpoint");
    if (!c->epoch_path) {
        c->nomem = true;
        return;
    }
}

void vf_load_epochs(vctx *c) {
    if (!c->epoch_path || !c->complete || !vf_file_exists(c->epoch_path)) return;
    ss_error err;
    c->st->epoch_files++;
    ss_errkind k = ss_textfile_read(c->epoch_path, SS_TEXT_LEADER_EPOCH, &c->epoch_file, &err);
    if (k == SS_E_IO || k == SS_E_NOMEM) {
        FIND(c, "unreadable", c->epoch_path, 0, -1, "%s", err.msg);
        return;
    }
    if (k != SS_E_OK) {
        FIND(c, "leader-epoch-damage", c->epoch_path, err.position, -1, "%s", err.msg);
        return;
    }
    c->have_epochs = true;
    c->epochs = &c->epoch_file.ckpt;
    c->st->epoch_entries += c->epochs->n;
    c->epi = calloc(c->epochs->n ? c->epochs->n : 1, sizeof *c->epi);
    if (!c->epi) {
        c->nomem = true;
        c->have_epochs = false;
    }
}

/* The entry covering offset o: the last one whose start offset is <= o; -1 when none. */
static long epoch_entry_for(const ss_checkpoint *e, int64_t o) {
    size_t lo = 0, hi = e->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (e->epochs[mid].start_offset <= o) lo = mid + 1;
        else hi = mid;
    }
    return (long)lo - 1;
}

void vf_epoch_batch(vctx *c, const char *file, const vbatch *b) {
    if (!c->have_epochs || b->magic < 2 || b->ple < 0 || !(b->flags & VB_VALID)) return;
    const ss_checkpoint *e = c->epochs;
    long k = epoch_entry_for(e, b->base);
    /* an epoch (other than the first) starting inside this batch */
    size_t nx = (size_t)(k + 1);
    if (nx > 0 && nx < e->n && e->epochs[nx].start_offset <= b->last && !c->epi[nx].inside) {
        c->epi[nx].inside = true;
        c->epi[nx].inside_pos = b->pos;
        c->epi[nx].inside_file = file;
        c->epi[nx].inside_base = b->base;
        c->epi[nx].inside_last = b->last;
    }
    if (k < 0) {
        /* Before the first entry: data below a log start offset the cache was truncated to. */
        if (e->n && b->ple <= e->epochs[0].epoch) return;
        if (!c->noentry_batches++) {
            c->noentry_pos = b->pos;
            c->noentry_offset = b->base;
            c->noentry_epoch = b->ple;
            c->noentry_file = file;
        }
        return;
    }
    if (e->epochs[k].epoch == b->ple) return;
    epinfo *x = &c->epi[k];
    if (!x->bad++) {
        x->first_bad_pos = b->pos;
        x->first_bad_offset = b->base;
        x->first_bad_epoch = b->ple;
        x->first_bad_file = file;
    }
}

void vf_finish_epochs(vctx *c) {
    if (!c->have_epochs) return;
    const ss_checkpoint *e = c->epochs;
    /* the checks of the file itself (increasing entries, none past the log end), as dump runs them */
    int64_t leo = c->log_end > c->active_offset ? c->log_end : c->active_offset;
    ss_log_span span = {.known = leo >= 0, .start = c->log_first, .end = leo, .last_epoch = -1};
    c->text_path = c->epoch_path;
    ss_textfile_check(&c->epoch_file, &span, NULL, NULL, vf_text_finding, c);
    c->text_path = NULL;
    for (size_t i = 0; i < e->n; i++) {
        const epinfo *x = &c->epi[i];
        const ss_epoch_entry *en = &e->epochs[i];
        uint64_t line_pos = c->epoch_file.line_pos ? c->epoch_file.line_pos[i] : 0;
        if (x->bad)
            FIND(c, "leader-epoch", c->epoch_path, line_pos, en->start_offset,
                 "entry (epoch %" PRId32 ", start offset %" PRId64 ") covers %" PRIu64
                 " batch(es) of another epoch; the first: baseOffset %" PRId64 " with partitionLeaderEpoch %" PRId32
                 " at byte %" PRIu64 " of %s",
                 en->epoch, en->start_offset, x->bad, x->first_bad_offset, x->first_bad_epoch, x->first_bad_pos,
                 x->first_bad_file);
        if (x->inside && i > 0)
            FIND(c, "leader-epoch", c->epoch_path, line_pos, en->start_offset,
                 "epoch %" PRId32 " starts at offset %" PRId64 ", inside the batch %" PRId64 "..%" PRId64
                 " at byte %" PRIu64 " of %s",
                 en->epoch, en->start_offset, x->inside_base, x->inside_last, x->inside_pos, x->inside_file);
    }
    /* an empty checkpoint is said to be one (Kafka reads it as no entries; its recovery of a
     * segment assigns the batches' epochs again: LogSegment.recover -> LeaderEpochFileCache.assign) */
    if (c->noentry_batches && e->n == 0)
        FIND(c, "leader-epoch", c->noentry_file, c->noentry_pos, c->noentry_offset,
             "the leader-epoch-checkpoint is empty (no entries), but %" PRIu64
             " batch(es) have a partitionLeaderEpoch; the first: baseOffset %" PRId64 " with epoch %" PRId32 " (%s)",
             c->noentry_batches, c->noentry_offset, c->noentry_epoch, c->epoch_path);
    else if (c->noentry_batches)
        FIND(c, "leader-epoch", c->noentry_file, c->noentry_pos, c->noentry_offset,
             "%" PRIu64 " batch(es) have a partitionLeaderEpoch no leader-epoch-checkpoint entry covers; the first: "
             "baseOffset %" PRId64 " with epoch %" PRId32 " (%s)",
             c->noentry_batches, c->noentry_offset, c->noentry_epoch, c->epoch_path);
}
