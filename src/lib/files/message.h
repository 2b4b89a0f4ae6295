/* segscan - the files room's error messages (internal): an ss_error, and
 * Kafka's message in full when the caller wants it (err->msg has a fixed size
 * and Kafka's messages hold paths). */
#ifndef SS_FILES_MESSAGE_H
#define SS_FILES_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "segscan/errors.h"

static inline void set_msg(ss_error *err, ss_errkind k, uint64_t pos, char *full, size_t fullsz, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static inline void set_msg(ss_error *err, ss_errkind k, uint64_t pos, char *full, size_t fullsz, const char *fmt, ...) {
    va_list ap;
    if (err) {
        memset(err, 0, sizeof *err);
        err->kind = k;
        err->position = pos;
        err->base_offset = -1;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    if (full && fullsz) {
        va_start(ap, fmt);
        vsnprintf(full, fullsz, fmt, ap);
        va_end(ap);
    }
}

#endif
