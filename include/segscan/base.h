/* segscan - what every room of libsegscan shares: checksums, the offset in a
 * Kafka file name and Java's absolute path, times and durations, the version.
 */
#ifndef SEGSCAN_BASE_H
#define SEGSCAN_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- checksums ---------------------------------------------------------- */

SS_API uint32_t ss_crc32c(uint32_t crc, const void *buf, size_t len);    /* best available */
SS_API uint32_t ss_crc32c_sw(uint32_t crc, const void *buf, size_t len); /* portable tables */
SS_API bool ss_crc32c_hw_available(void);
SS_API uint32_t ss_crc32(uint32_t crc, const void *buf, size_t len); /* IEEE, zlib */

/* ---- file names ------------------------------------------------------------ */

/* The offset a Kafka file name starts with, as Java's
 * Long.parseLong(name.split("\\.")(0)): the base name up to its first '.',
 * an optional sign and decimal digits that fit an int64. Returns false when
 * the name does not start with such a number (Kafka's tool would die). */
SS_API bool ss_offset_from_filename(const char *path, int64_t *offset);

/* The offset a segment, index or snapshot file name starts with: 20 ASCII digits,
 * as Kafka's LogFileUtils.filenamePrefixFromOffset writes them ("%020d"). -1 when
 * the name does not start so, or the value is too large for a long. */
SS_API int64_t ss_name_offset20(const char *name);

/* "dir/name" (no second '/' when dir ends in one), malloc'd; NULL when memory runs out. */
SS_API char *ss_path_join(const char *dir, const char *name);

/* ---- arrays that grow -------------------------------------------------------- */

/* Room for one more item of an array from malloc: vp is the address of the array's
 * pointer, *cap its room in items of `size` bytes, doubled (from `first` items when
 * empty). False when memory runs out or the size would overflow, with the array and
 * *cap as they were. The library's own arrays grow the same way (base/grow.h);
 * SS_ARRAY_GROW(v, n, cap, first) is the call for an lvalue pointer v holding n items. */
SS_API bool ss_array_grow(void *vp, size_t *cap, size_t size, size_t first);
#define SS_ARRAY_GROW(v, n, cap, first) ((n) < (cap) || ss_array_grow(&(v), &(cap), sizeof *(v), (first)))

/* Java's File.getAbsolutePath(): path itself when absolute, else the working
 * directory, '/', path; repeated '/' collapsed and a trailing '/' dropped,
 * "." and ".." kept (no symlink resolution). Returns a malloc'd string, or
 * NULL when out of memory or the working directory is unknown. */
SS_API char *ss_java_absolute_path(const char *path);

/* ---- times ------------------------------------------------------------------ */

/* Parse a time: epoch milliseconds (digits, optional '-') or ISO-8601
 * (YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|+HH:MM|-HH:MM], 'T' or ' '; UTC when no zone).
 * Returns true on success. */
SS_API bool ss_parse_time(const char *s, int64_t *ms);
/* Parse a duration: a number with unit ms, s, m, h or d (no unit: ms). */
SS_API bool ss_parse_duration(const char *s, int64_t *ms);
/* ISO-8601 UTC with milliseconds, e.g. "2023-11-14T22:13:20.000Z"; buf >= 32 bytes. */
SS_API void ss_format_time(int64_t ms, char *buf, size_t bufsz);

/* ---- offsets and times at the ends of long ------------------------------------ */

/* The offset after `last`. Offsets up to Long.MAX_VALUE are legal in a file (a batch's base
 * offset is any long; DefaultRecordBatch.lastOffset() = baseOffset + lastOffsetDelta), and
 * none comes after Long.MAX_VALUE: the next offset saturates there instead of wrapping to a
 * negative one (found by fuzzing: a log ending at Long.MAX_VALUE). */
static inline int64_t ss_next_offset(int64_t last) { return last == INT64_MAX ? INT64_MAX : last + 1; }

/* a - b and a + b saturating at the ends of long: for differences and sums of timestamps and
 * offsets a log holds (a commit's timestamp may be Long.MIN_VALUE or MAX_VALUE), where a wrapped
 * value would mean nothing (a time since, an interval added to a time). */
static inline int64_t ss_sat_sub64(int64_t a, int64_t b) {
    if (b < 0 && a > INT64_MAX + b) return INT64_MAX;
    if (b > 0 && a < INT64_MIN + b) return INT64_MIN;
    return a - b;
}
static inline int64_t ss_sat_add64(int64_t a, int64_t b) {
    if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
    return a + b;
}

/* ---- version ------------------------------------------------------------ */
SS_API const char *ss_version(void);

#ifdef __cplusplus
}
#endif
#endif
