/* segscan - platform services (internal): the SIGBUS guard of mapped files.
 *
 * A file mapped read-only can be truncated by someone else (a broker deleting
 * or truncating a segment) while it is mapped. Touching a mapped page past the
 * new end of file then raises SIGBUS, which would kill the process. The guard
 * catches it: each mapping registers its address range; the SIGBUS handler,
 * for an address inside a registered range, replaces the pages from the
 * faulting one to the end of that range with anonymous zero pages (so the
 * faulting read, and any later read, sees zeros instead of crashing), records
 * the offset of the first faulting page, and returns. The owner of the mapping
 * polls ss_guard_fault() and reports the truncation. A SIGBUS outside every
 * registered range goes to the handler that was installed before.
 *
 * This file and platform.c hold the library's only global state: the handler
 * and a fixed table of registered ranges (lock-free, async-signal-safe).
 */
#ifndef SS_PLATFORM_H
#define SS_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* Register [addr, addr + len) (a whole mapping). Installs the handler on
 * first use. Returns a slot number, or -1 when the table is full (the mapping
 * then stays unguarded). */
int ss_guard_register(void *addr, size_t len);
/* Forget a slot (before the mapping is unmapped). */
void ss_guard_unregister(int slot);
/* Offset (from addr) of the first page that faulted, or UINT64_MAX if none. */
uint64_t ss_guard_fault(int slot);

#endif
