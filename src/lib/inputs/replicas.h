/* segscan - the copies of one partition read from several directories
 * (replicas on several brokers), compared as a follower is with its leader
 * (internal; inputs.c makes one input of them).
 *
 * Each copy's batch headers are read once (the walker, no records); the leader
 * is the copy with the latest leader epoch, then the furthest log end; each
 * other copy is truncated as Kafka's follower would truncate it, and the
 * offsets are given, range by range, by the copy that holds them: the leader
 * where it does, below its log start the copy reaching lowest. */
#ifndef SS_INPUTS_REPLICAS_H
#define SS_INPUTS_REPLICAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/inputs.h"

typedef struct rp_batch {
    int64_t base, last;
    int32_t epoch, count;
    uint32_t crc;
} rp_batch;

typedef struct rp_seg {
    int64_t first, last, max_base; /* of its valid batches; -1 when none */
    uint64_t damage;               /* damaged entries, or 1 when it cannot be opened */
    ss_error first_damage;
} rp_seg;

typedef struct rp_copy {
    const ss_input_partition *p; /* the copy as an input of its own (its segments) */
    /* a copy held in memory (a partition of an export, its log rebuilt as one segment: p's
     * segments have no path): those bytes, owned by the caller; NULL for files */
    const uint8_t *mem;
    size_t memlen;
    ss_input_replica *r; /* what is learnt of it (name, path, node_id, high_watermark the caller's) */
    rp_batch *b;         /* its valid batches in file order */
    size_t nb, cap;
    rp_seg *segs;      /* one a segment of p */
    int64_t valid_end; /* the offset after what a follower keeps of it */
    bool apart;        /* nothing read shows it a copy of the first copy's log: not merged */
    int64_t conflict;  /* where it differs from that log within a leader epoch both hold, -1 */
} rp_copy;

/* A range of offsets [from, to) given by segment seg of copy `copy`. */
typedef struct rp_read {
    size_t copy, seg;
    int64_t from, to;
    bool bounded; /* the segment holds batches outside [from, to) */
} rp_read;

typedef void (*rp_note_fn)(void *ctx, ss_severity sev, const char *msg);

/* Reads every copy's batch headers; the copies shown to be of the first copy's log (a batch
 * alike, or a leader epoch in common, and no batch that differs within an epoch both hold) are
 * compared (the others are `apart`, out of it): chooses the leader, truncates the others as a
 * follower would, and plans the segments to read in offset order (*reads, malloc'd). Notes
 * through `note` about the partition `name`. false: out of memory (nothing planned). */
bool rp_reconcile(rp_copy *c, size_t n, const char *name, rp_read **reads, size_t *nreads, rp_note_fn note, void *ctx);
void rp_copy_free(rp_copy *c);

#endif
