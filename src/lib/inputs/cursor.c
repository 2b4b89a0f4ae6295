/* segscan - the partition cursor (see cursor.h). */
#include <string.h>

#include "inputs/cursor.h"
#include "inputs/kept.h"
#include "segscan/inputs.h"

void ss_pcursor_open(ss_pcursor *c, const ss_inputs *in, size_t part, ss_decoder *dec, uint64_t limit) {
    memset(c, 0, sizeof *c);
    c->in = in;
    c->part = part;
    c->p = ss_inputs_at(in, part);
    c->nsegs = c->p->nsegments;
    c->dec = dec;
    c->limit = limit;
}

void ss_pcursor_open_file(ss_pcursor *c, const char *path, ss_decoder *dec) {
    memset(c, 0, sizeof *c);
    c->path = path;
    c->nsegs = 1;
    c->dec = dec;
    c->limit = UINT64_MAX;
}

void ss_pcursor_close(ss_pcursor *c) {
    if (c->s) ss_segment_close(c->s);
    c->s = NULL;
    c->in_batch = false;
    ss_window_free(&c->win);
}

ss_errkind ss_pcursor_records(ss_pcursor *c) {
    ss_errkind k = ss_records_begin(c->dec, &c->ev.batch, &c->it, &c->err);
    c->in_batch = k == SS_E_OK;
    return k;
}

ss_pc_kind ss_pcursor_next_walk(ss_pcursor *c) {
    if (!c->s || c->seg_ended) {
        if (c->s) {
            ss_segment_close(c->s);
            c->s = NULL;
        }
        c->seg_ended = false;
        if (c->next_seg >= c->nsegs) return SS_PC_END;
        c->seg = c->next_seg++;
        ss_errkind k = !c->in    ? ss_segment_open(c->path, &c->s, &c->err)
                       : c->kept ? ss_kept_open_read(c->kept, c->in, c->part, c->seg, &c->s, &c->err)
                                 : ss_inputs_open_segment(c->in, c->part, c->seg, &c->s, &c->err);
        if (k != SS_E_OK) {
            c->s = NULL;
            return SS_PC_UNREADABLE;
        }
        ss_walker_init(&c->w, c->s, c->limit);
        if (c->dec) ss_walker_set_decoder(&c->w, c->dec);
        return SS_PC_SEGMENT;
    }
    for (;;) switch (ss_walker_next_copy(&c->w, &c->win, &c->ev)) {
        case SS_EV_BATCH:
            /* offsets another copy of the partition gives (replicas read once) */
            if (c->p && !ss_input_segment_reads(&c->p->segments[c->seg], c->ev.batch.base_offset)) continue;
            return SS_PC_BATCH;
        case SS_EV_DAMAGE: return SS_PC_DAMAGE;
        default: c->seg_ended = true; return SS_PC_SEGMENT_END;
        }
}
