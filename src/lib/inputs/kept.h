/* segscan - segments kept in memory (internal): the bytes of a segment file
 * read whole once, so that a second reader of the same file in the same run
 * reads them there instead of reading the file again.
 *
 * The analysis keeps the __consumer_offsets and __transaction_state segments it
 * reads (ss_an_opts.keep_offsets_bytes); the consumer-groups study that follows
 * (findings/study.c) gives them to its own inputs (ss_inputs_use_kept), and every
 * reader of those inputs (the groups' replay, its walk before the replay, the
 * comparison of a partition's copies, the transactional ids, the findings'
 * transaction states) opens a kept file's bytes through ss_inputs_open_segment
 * as it would open the file. A study that follows no analysis keeps the
 * __transaction_state segments itself (keep_txn_state) for its two readers.
 * The analysis's own readers (an_open_segment, and the transactional ids read
 * over its inputs: ss_txn_state_ids_kept, through the partition cursor's
 * ss_kept_open_read) take a copy whatever the file holds now: they read the
 * listing the copy was made for, and the copy is what the analysis read. A file is found by its path as the inputs name it
 * (two inputs of the same PATHs name a segment alike). Past the budget a file is
 * not kept: its second reader reads it again.
 *
 * A kept segment is what the file held when it was read. The second reader
 * (the study's inputs) takes the copy only while the file at that path is still
 * the one read (device and inode) with the size read: a live broker's active
 * segment that grew since (and may have rolled into a new segment the second
 * reader lists), or a segment the log cleaner swapped in under the same name
 * (a new file, renamed over the old one, holding what were several segments),
 * is read from the file again, as if nothing had been kept; the copy of it
 * would leave out records the second reader's listing no longer holds
 * anywhere else. */
#ifndef SS_INPUTS_KEPT_H
#define SS_INPUTS_KEPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/inputs.h"
#include "segscan/segment.h"

typedef struct ss_kept ss_kept;

/* budget: the bytes kept in all, at most */
ss_kept *ss_kept_new(uint64_t budget);
void ss_kept_free(ss_kept *k);

/* Room for size bytes more in the budget, taken (ss_kept_add or ss_kept_unreserve give it
 * back); false: none. */
bool ss_kept_reserve(ss_kept *k, uint64_t size);
void ss_kept_unreserve(ss_kept *k, uint64_t size);
/* The copy of the file at path (path and data malloc'ed, the kept's from here on), read from
 * the file of device dev and inode ino, after ss_kept_reserve(k, reserved); when another reader
 * kept the file first, the copy is freed and the first one's bytes are given. *kdata, *klen: the
 * bytes kept. False: out of memory (nothing kept, both freed). */
bool ss_kept_add(ss_kept *k, uint64_t reserved, char *path, uint8_t *data, size_t len, uint64_t dev, uint64_t ino,
                 const uint8_t **kdata, size_t *klen);

/* The kept copy of the file at path: its bytes (valid until ss_kept_free) and their length. */
bool ss_kept_find(const ss_kept *k, const char *path, const uint8_t **data, size_t *len);
/* The same, only while the file at path is still the one read, of the size read (a stat of
 * it): the copy is what the file holds now. */
bool ss_kept_find_same(const ss_kept *k, const char *path, const uint8_t **data, size_t *len);

/* Files kept, and their bytes. */
size_t ss_kept_files(const ss_kept *k);
uint64_t ss_kept_bytes(const ss_kept *k);

/* The inputs open a file kept in k from its copy (ss_inputs_open_segment, ss_inputs_segment_size)
 * while it is unchanged (ss_kept_find_same); k must outlive them. */
void ss_inputs_use_kept(ss_inputs *in, const ss_kept *k);
/* Segment j of input i of `in`, as ss_inputs_open_segment opens it: its kept copy when there
 * is one; else, with `keep`, a file read whole into a copy that is kept (the budget allowing)
 * and that the segment returned reads; else the file. Thread-safe. */
ss_errkind ss_kept_open(ss_kept *k, const ss_inputs *in, size_t i, size_t j, bool keep, ss_segment **out,
                        ss_error *err);
/* The same without keeping: its kept copy (ss_kept_find: even when the file changed since, for
 * a reader of the listing the copy was made for), else as ss_inputs_open_segment opens it. */
ss_errkind ss_kept_open_read(const ss_kept *k, const ss_inputs *in, size_t i, size_t j, ss_segment **out,
                             ss_error *err);

#endif
