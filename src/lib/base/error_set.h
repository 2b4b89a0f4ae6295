/* segscan - the library's one way to fill an ss_error (internal). */
#ifndef SEGSCAN_ERROR_SET_H
#define SEGSCAN_ERROR_SET_H

#include <stdarg.h>

#include "segscan/errors.h"

/* Fill *err (when not NULL): its kind and the kind's severity
 * (ss_errkind_severity), the file position and batch base
 * offset concerned (-1 if unknown), length 0, and the message formatted once
 * into err->msg. Returns kind either way, so that callers that were not given
 * an ss_error decide the same as those that were. */
ss_errkind ss_error_set(ss_error *err, ss_errkind kind, uint64_t position, int64_t base_offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
ss_errkind ss_error_vset(ss_error *err, ss_errkind kind, uint64_t position, int64_t base_offset, const char *fmt,
                         va_list ap) __attribute__((format(printf, 5, 0)));
/* Add to the end of err->msg (when err is not NULL), within its size: a
 * caller that knows more than the reader that set the error. */
void ss_error_append(ss_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The list behind segscan/errors.h's ss_problems, kept by value in the
 * object that owns it (zeroed: empty). */
struct ss_problems {
    ss_error *v;
    size_t n, cap;
};
/* Add a problem: severity, kind (SS_E_OK for a note about no error), position
 * 0, base offset -1, the message formatted. Returns the entry, or NULL (and
 * nothing added) when out of memory. */
ss_error *ss_problems_add(ss_problems *p, ss_severity severity, ss_errkind kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
ss_error *ss_problems_vadd(ss_problems *p, ss_severity severity, ss_errkind kind, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
/* Add a copy of *e (its kind, place, severity and message). Returns the
 * entry, or NULL when out of memory. */
ss_error *ss_problems_push(ss_problems *p, const ss_error *e);
void ss_problems_free(ss_problems *p); /* frees the entries; p is empty after */

/* Call an error of kind `kind` from here on (message and place kept): a
 * caller that knows better than the reader what it met. */
void ss_error_rekind(ss_error *err, ss_errkind kind);

/* No error: kind SS_E_OK, severity notice, base offset -1, empty message. Cheaper than a
 * memset of the whole struct (the message buffer is large) where it runs for
 * each batch. */
static inline void ss_error_clear(ss_error *err) {
    err->kind = SS_E_OK;
    err->severity = SS_SEV_NOTICE;
    err->position = 0;
    err->base_offset = -1;
    err->length = 0;
    err->msg[0] = '\0';
}

#endif
