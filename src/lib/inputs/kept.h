/* segscan - segments kept in memory (internal): the bytes of a segment file
 * read whole once, so that a second reader of the same file in the same run
 * reads them there instead of reading the file again.
 *
 * The analysis keeps the __consumer_offsets segments it reads (ss_an_opts.
 * keep_offsets_bytes); the consumer-groups study that follows (findings/study.c)
 * gives them to its own inputs (ss_inputs_use_kept), and every reader of those
 * inputs (the groups' replay, its walk before the replay, the comparison of a
 * partition's copies) opens a kept file's bytes through ss_inputs_open_segment
 * as it would open the file. A file is found by its path as the inputs name it
 * (two inputs of the same PATHs name a segment alike). Past the budget a file is
 * not kept: its second reader reads it again.
 *
 * A kept segment is what the file held when it was read: a file that grows
 * afterwards (a live broker's active segment) is read as it was then, by both
 * readers alike, and the walker's notice that a file grew while it was read
 * (SS_E_GREW) is not given for a kept file (its copy does not grow). */
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
/* The copy of the file at path (path and data malloc'ed, the kept's from here on), after
 * ss_kept_reserve(k, reserved); when another reader kept the file first, the copy is freed and
 * the first one's bytes are given. *kdata, *klen: the bytes kept. False: out of memory (nothing
 * kept, both freed). */
bool ss_kept_add(ss_kept *k, uint64_t reserved, char *path, uint8_t *data, size_t len, const uint8_t **kdata,
                 size_t *klen);

/* The kept copy of the file at path: its bytes (valid until ss_kept_free) and their length. */
bool ss_kept_find(const ss_kept *k, const char *path, const uint8_t **data, size_t *len);

/* Files kept, and their bytes. */
size_t ss_kept_files(const ss_kept *k);
uint64_t ss_kept_bytes(const ss_kept *k);

/* The inputs open a file kept in k from its copy (ss_inputs_open_segment, ss_inputs_segment_size);
 * k must outlive them. */
void ss_inputs_use_kept(ss_inputs *in, const ss_kept *k);
/* Segment j of input i of `in`, as ss_inputs_open_segment opens it: its kept copy when there
 * is one; else, with `keep`, a file read whole into a copy that is kept (the budget allowing)
 * and that the segment returned reads; else the file. Thread-safe. */
ss_errkind ss_kept_open(ss_kept *k, const ss_inputs *in, size_t i, size_t j, bool keep, ss_segment **out,
                        ss_error *err);

#endif
