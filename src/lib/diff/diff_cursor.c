/* segscan - comparing two logs: the record cursor over one partition (its
 * segments stitched, damaged batches skipped and counted, the leader epochs and
 * the evidence of cleaning kept for the compaction rule) and the fingerprint of
 * a whole record (diff_int.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "analysis/fingerprint.h"
#include "analysis/units.h"
#include "base/grow.h"
#include "base/javaint.h"
#include "diff/diff_int.h"
#include "inputs/cursor.h"
#include "segscan/analyze.h"
#include "segscan/diff.h"
#include "segscan/files.h"

uint64_t diff_key_hash(const ss_record *r) {
    uint64_t h = XXH3_64bits(r->key, (size_t)r->key_len);
    return h ? h : 1;
}

/* The last offset of a key's hash in the table, NULL when it is not there. */
int64_t *diff_kt_last(const ss_map *t, uint64_t h) { return ss_map_find(t, &h, h); }

bool diff_kt_add(ss_map *t, uint64_t h) {
    bool created;
    int64_t *last = ss_map_put(t, &h, h, &created);
    if (last && created) *last = -1;
    return last != NULL;
}

bool diff_epochs_push(pcursor *c, int32_t e, int64_t start) {
    if (!SS_GROW(c->epochs, c->nep, c->capep, 16) || !SS_GROW(c->starts, c->nep, c->capstarts, 16)) return false;
    c->epochs[c->nep] = e;
    c->starts[c->nep] = start;
    c->nep++;
    return true;
}

void diff_dmg_push(pcursor *c, const ss_batch *b) {
    if (b->last_offset < b->base_offset || c->ndmg >= 4096) return;
    if (!SS_GROW(c->dmg, c->ndmg, c->capdmg, 16)) return;
    c->dmg[c->ndmg][0] = b->base_offset;
    c->dmg[c->ndmg][1] = b->last_offset;
    c->ndmg++;
}

bool diff_in_damage(const pcursor *c, int64_t offset) {
    for (size_t i = c->ndmg; i-- > 0;)
        if (offset >= c->dmg[i][0] && offset <= c->dmg[i][1]) return true;
    return false;
}

ss_errkind diff_pc_open(pcursor *c, const ss_inputs *in, size_t part, size_t max_batch, ss_diff_side *side) {
    memset(c, 0, sizeof *c);
    ss_map_init(&c->keys, sizeof(uint64_t), sizeof(int64_t), 1024, 70);
    c->in = in;
    c->part = part;
    c->p = ss_inputs_at(in, part);
    c->side = side;
    c->d = ss_decoder_new(max_batch);
    if (!c->d) return SS_E_NOMEM;
    ss_pcursor_open(&c->pc, in, part, c->d, UINT64_MAX);
    side->path = c->p->path;
    side->partition = c->p->name;
    side->first_offset = side->next_offset = -1;
    c->cleaned_through = c->p->cleaner_offset > 0 ? c->p->cleaner_offset - 1 : -1;
    return SS_E_OK;
}

void diff_pc_close(pcursor *c) {
    ss_pcursor_close(&c->pc);
    ss_decoder_free(c->d);
    free(c->dmg);
    ss_map_free(&c->keys);
    free(c->marks);
    c->marks = NULL;
    c->dmg = NULL;
    c->d = NULL;
}

/* A batch of the partition: its figures, its epoch, the evidence of cleaning;
 * its records come next when it holds data that decodes. */
static void diff_pc_batch(pcursor *c, const ss_batch *bb) {
    if (!bb->crc_valid) {
        diff_dmg_push(c, bb);
        return;
    } /* its damage event follows */
    c->side->batches++;
    if (c->side->first_offset < 0) c->side->first_offset = bb->base_offset;
    if (ss_next_offset(bb->last_offset) > c->side->next_offset) c->side->next_offset = ss_next_offset(bb->last_offset);
    /* The producer numbers a batch's records 0..lastOffsetDelta; fewer records
     * than that (or a delete horizon, KIP-534) is a batch the cleaner rewrote
     * (LogCleaner.cleanInto keeps a batch's offsets while dropping records). */
    if (bb->magic >= 2 &&
        (bb->has_delete_horizon || (uint64_t)(uint32_t)bb->count < ss_offset_span(bb->base_offset, bb->last_offset))) {
        if (bb->last_offset > c->cleaned_through) c->cleaned_through = bb->last_offset;
        if (bb->has_delete_horizon) c->horizons = true;
    }
    if (bb->magic >= 2 && bb->partition_leader_epoch >= 0 &&
        (c->nep == 0 || bb->partition_leader_epoch > c->epochs[c->nep - 1]))
        diff_epochs_push(c, bb->partition_leader_epoch, bb->base_offset);
    if (bb->control) { /* markers are not data records: counted apart, never compared */
        c->side->control_records += bb->count > 0 ? (uint64_t)bb->count : 0;
        ss_rec_iter it;
        ss_record m;
        ss_error err;
        if (bb->producer_id >= 0 && ss_records_begin(c->d, bb, &it, &err) == SS_E_OK &&
            ss_records_next(&it, &m, &err) == 1 &&
            (m.control_type == SS_CTRL_ABORT || m.control_type == SS_CTRL_COMMIT) &&
            SS_GROW(c->marks, c->nmarks, c->capmarks, 16))
            c->marks[c->nmarks++] =
                (struct diff_marker){bb->producer_id, bb->base_offset, m.control_type == SS_CTRL_ABORT};
        return;
    }
    if (ss_pcursor_records(&c->pc) != SS_E_OK) {
        if (c->pc.err.kind != SS_E_TOO_LARGE) {
            c->side->damage_events++;
            c->side->damaged_bytes += bb->size;
        }
        diff_dmg_push(c, bb);
    }
}

/* Next record of the partition; 1 with r and *b, 0 at the end. */
int diff_pc_next(pcursor *c, ss_record *r, const ss_batch **b) {
    ss_pcursor *pc = &c->pc;
    for (;;) {
        switch (ss_pcursor_next(pc)) {
        case SS_PC_END: return 0;
        case SS_PC_RECORD:
            *r = pc->rec;
            *b = &pc->ev.batch;
            if (c->keys.n && r->key_len >= 0) { /* a later record of a key the other side lacks */
                int64_t *last = diff_kt_last(&c->keys, diff_key_hash(r));
                if (last && r->offset > *last) *last = r->offset;
            }
            return 1;
        case SS_PC_RECORDS_END:
            if (pc->rec_failed) {
                c->side->damage_events++;
                c->side->damaged_bytes += pc->ev.batch.size;
                diff_dmg_push(c, &pc->ev.batch);
            }
            break;
        case SS_PC_SEGMENT: break;
        case SS_PC_UNREADABLE: c->side->unreadable++; break;
        case SS_PC_SEGMENT_END:
            /* only the last segment may end in a batch being written: an older one
             * that does was cut, and that tail is damage (as the analysis says) */
            if (pc->ev.tail_bytes && pc->ev.tail_kind == SS_E_INCOMPLETE_TAIL && pc->seg + 1 < c->p->nsegments) {
                c->side->damage_events++;
                c->side->damaged_bytes += pc->ev.tail_bytes;
            }
            break;
        case SS_PC_DAMAGE:
            c->side->damage_events++;
            c->side->damaged_bytes += pc->ev.err.length;
            break;
        case SS_PC_BATCH: diff_pc_batch(c, &pc->ev.batch); break;
        }
    }
}

/* Fingerprint of a whole record: key, value and headers, length-prefixed so
 * that neither null and empty nor a shifted boundary can collide. */
static void fp_len(XXH3_state_t *st, int32_t v) {
    uint8_t len[4] = {(uint8_t)((uint32_t)v >> 24), (uint8_t)((uint32_t)v >> 16), (uint8_t)((uint32_t)v >> 8),
                      (uint8_t)v};
    XXH3_128bits_update(st, len, 4);
}

XXH128_hash_t diff_record_fp(XXH3_state_t *st, const ss_record *r) {
    XXH3_128bits_reset(st);
    fp_len(st, r->key_len);
    if (r->key_len > 0) XXH3_128bits_update(st, r->key, (size_t)r->key_len);
    fp_len(st, r->value_len);
    if (r->value_len > 0) XXH3_128bits_update(st, r->value, (size_t)r->value_len);
    fp_len(st, r->header_count);
    if (r->headers_len) XXH3_128bits_update(st, r->headers, r->headers_len);
    return XXH3_128bits_digest(st);
}
