/* segscan - the test hooks (segscan/test_hooks.h). */
#include <stddef.h>

#include "base/test_hooks.h"

static ss_test_hooks hooks = {.pause_after_batches = UINT64_MAX};

void ss_test_hooks_set(const ss_test_hooks *h) {
    static const ss_test_hooks off = {.pause_after_batches = UINT64_MAX};
    hooks = h ? *h : off;
}

const ss_test_hooks *ss_test_hooks_get(void) { return &hooks; }
