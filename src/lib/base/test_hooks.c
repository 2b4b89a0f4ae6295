/* segscan - the test hooks (segscan/test_hooks.h). */
#include <stdatomic.h>
#include <stddef.h>

#include "base/test_hooks.h"

static ss_test_hooks hooks = {.pause_after_batches = UINT64_MAX};

void ss_test_hooks_set(const ss_test_hooks *h) {
    static const ss_test_hooks off = {.pause_after_batches = UINT64_MAX};
    hooks = h ? *h : off;
}

const ss_test_hooks *ss_test_hooks_get(void) { return &hooks; }

static _Atomic uint64_t files_opened;

void ss_test_note_open(void) { atomic_fetch_add_explicit(&files_opened, 1, memory_order_relaxed); }

uint64_t ss_test_files_opened(void) { return atomic_load(&files_opened); }
