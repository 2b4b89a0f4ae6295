/* segscan - test hooks: deterministic runs of what is otherwise timing- or
 * size-dependent. For tests only: the library reads no environment variable;
 * segscan's CLI passes SEGSCAN_TEST_PAUSE_AFTER_BATCHES, SEGSCAN_TEST_PAUSE_FIFO,
 * SEGSCAN_TEST_UNIT_BYTES, SEGSCAN_TEST_EXPORT_SLOT_BYTES, SEGSCAN_TEST_EXPORT_THREADS,
 * SEGSCAN_TEST_EXPORT_ROWS_PER_GROUP and SEGSCAN_TEST_FAIL_ANALYSIS=1 here
 * (src/cli/main.c), and the fuzz targets set
 * them (and groups_two_pass and groups_pack_all, which the CLI does not pass) directly. Set before anything is read; not thread-safe. */
#ifndef SEGSCAN_TEST_HOOKS_H
#define SEGSCAN_TEST_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

#include "segscan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ss_test_hooks {
    /* A walker over an opened file blocks after this many batch events until
     * it has read one byte from the FIFO at pause_fifo (tests/hostile/live.py);
     * UINT64_MAX: never. The path is copied by each segment opened. */
    uint64_t pause_after_batches;
    const char *pause_fifo;
    /* Every batch through the walker (no copying fast path), so that the
     * pause counts every batch. */
    bool walker_only;
    /* The analysis's units this many bytes (at least 64), each but a
     * segment's first starting at a guessed boundary; 0: the default. */
    uint64_t unit_bytes;
    /* The export's slots of batches between its walk and its one rows' thread this many bytes
     * (a slot handed over after each batch past it); its row makers' units of a segment this
     * many bytes (at least 64; each but a segment's first starting at a guessed boundary), and
     * their pieces merged as soon as they hold this many rows, when that is fewer than their
     * default; 0: the defaults. */
    uint64_t export_slot_bytes;
    /* The export's row makers this many (1: the one rows' thread; at most 4), and its row
     * groups this many rows (ss_export_opts.rows_per_group when that is 0); 0: the defaults. */
    uint64_t export_threads;
    uint64_t export_rows_per_group;
    /* ss_analysis_run fails at its start as when memory runs out (SS_E_NOMEM, its failure
     * said): what a caller does with an analysis that failed, which otherwise takes memory
     * running out at the right moment. */
    bool fail_analysis;
    /* The groups' replay reads every log of __consumer_offsets in two passes (its topic ids
     * gathered first, then the replay), as it does only when one pass could give another
     * answer: the fuzz target compares the two ways (tests/fuzz/fuzz_groups.c). */
    bool groups_two_pass;
    /* The groups' replay packs every array of a read log, however short (an array of at
     * most two blocks' entries is otherwise read as it is: groups/pack.c): the fuzz target
     * compares the two ways. */
    bool groups_pack_all;
} ss_test_hooks;

/* Set the hooks (copied); NULL turns them all off, as at the start. */
SS_API void ss_test_hooks_set(const ss_test_hooks *h);

/* Segment files opened for reading (ss_segment_open) since the process started:
 * a test counts how often a run reads its inputs' segments (not their indexes or
 * the log directory's text files). Thread-safe. */
SS_API uint64_t ss_test_files_opened(void);

#ifdef __cplusplus
}
#endif
#endif
