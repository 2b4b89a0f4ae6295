/* segscan - the test hooks as the library reads them (internal; set through
 * segscan/test_hooks.h). */
#ifndef SS_BASE_TEST_HOOKS_H
#define SS_BASE_TEST_HOOKS_H

#include "segscan/test_hooks.h"

/* The hooks set, all off unless a test set them. */
const ss_test_hooks *ss_test_hooks_get(void);
/* A file was opened for reading (ss_test_files_opened counts them). */
void ss_test_note_open(void);

#endif
