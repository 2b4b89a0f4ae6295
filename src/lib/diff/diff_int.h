/* segscan - comparing two logs: what diff.c and its record cursor (diff_cursor.c) share. */
#ifndef SS_DIFF_INT_H
#define SS_DIFF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xxhash.h>

#include "base/map.h"
#include "inputs/cursor.h"
#include "segscan/diff.h"
#include "segscan/inputs.h"
#include "segscan/record.h"

typedef struct pcursor {
    const ss_inputs *in;
    size_t part;
    const ss_input_partition *p;
    ss_pcursor pc;
    ss_decoder *d;
    ss_diff_side *side;
    /* offset ranges of batches skipped as damaged (header offsets, kept to tell
     * a record missing through damage from one removed by compaction) */
    int64_t (*dmg)[2];
    size_t ndmg, capdmg;
    /* leader epochs seen in batches */
    int32_t *epochs;
    int64_t *starts;
    size_t nep, capep, capstarts;
    /* Evidence of cleaning (see the compaction rule below): the highest offset the
     * log shows cleaned (below its cleaner-offset-checkpoint entry, or the last
     * offset of a batch the cleaner rewrote), -1 none; whether delete horizons are set */
    int64_t cleaned_through;
    bool horizons;
    /* the keys of records the other side holds and this side lacks inside its range,
     * with the last offset this side holds a record of that key at (-1 none):
     * diff_key_hash -> int64_t */
    ss_map keys;
    /* the transaction markers (COMMIT or ABORT) of this side, in offset order: whether a
     * transactional record's transaction was aborted (the data the cleaner discards) */
    struct diff_marker {
        int64_t producer_id, offset;
        bool abort;
    } * marks;
    size_t nmarks, capmarks;
} pcursor;

/* diff_cursor.c */
uint64_t diff_key_hash(const ss_record *r);
int64_t *diff_kt_last(const ss_map *t, uint64_t h);
bool diff_kt_add(ss_map *t, uint64_t h);
bool diff_epochs_push(pcursor *c, int32_t e, int64_t start);
void diff_dmg_push(pcursor *c, const ss_batch *b);
bool diff_in_damage(const pcursor *c, int64_t offset);
ss_errkind diff_pc_open(pcursor *c, const ss_inputs *in, size_t part, size_t max_batch, ss_diff_side *side);
void diff_pc_close(pcursor *c);
int diff_pc_next(pcursor *c, ss_record *r, const ss_batch **b);
XXH128_hash_t diff_record_fp(XXH3_state_t *st, const ss_record *r);

#endif
