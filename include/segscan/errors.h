/* segscan - error kinds, and the problems the library passes up.
 *
 * One list, used by the library, the CLI and the manual. Each kind has a
 * stable name and number; numbers are never reused. The third column says
 * whether meeting this kind in a file means the file holds damaged data
 * (exit code 3) rather than a problem of the environment (exit code 2) or an
 * informational finding (no effect on the exit code).
 *
 * Every problem the library has for the user is an ss_error: a kind, where,
 * the message, and a severity (ss_severity) that says how much it matters:
 *   SS_SEV_NOTICE   information: what was skipped, or how something was read;
 *                   a quiet caller may leave it out
 *   SS_SEV_WARNING  the results are complete but may mislead (replicas given
 *                   together, a file beside the inputs that was not used)
 *   SS_SEV_ERROR    something could not be read or done: the results are
 *                   incomplete
 * An error met in a file gets the severity of its kind (ss_errkind_severity:
 * ERROR for the damage and environment classes, NOTICE for information);
 * the notes of a run set theirs.
 *
 * X(ENUM, number, "stable-name", class, "one-line description")
 * class: D = damage, E = environment / usage, I = information
 */
#ifndef SEGSCAN_ERRORS_H
#define SEGSCAN_ERRORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/export.h"

#define SS_ERROR_LIST(X)                                                                                               \
    X(OK, 0, "ok", I, "no error")                                                                                      \
    X(IO, 1, "io-error", E, "the file could not be opened or read")                                                    \
    X(NOMEM, 2, "out-of-memory", E, "memory could not be allocated")                                                   \
    X(USAGE, 3, "usage", E, "invalid argument")                                                                        \
    X(BAD_LENGTH, 10, "bad-length", D, "entry length below the minimum or inconsistent")                               \
    X(BAD_MAGIC, 11, "bad-magic", D, "magic byte is not 0, 1 or 2")                                                    \
    X(CRC_MISMATCH, 12, "crc-mismatch", D, "stored and computed CRC differ")                                           \
    X(BAD_BATCH, 13, "bad-batch", D, "batch header fields are invalid")                                                \
    X(BAD_RECORD, 14, "bad-record", D, "a record inside the batch cannot be decoded")                                  \
    X(DECOMPRESS, 15, "decompress-failed", D, "the compressed payload cannot be decompressed")                         \
    X(NESTED, 16, "nested-compression", D, "a compressed message inside a compressed wrapper")                         \
    X(GARBAGE, 17, "garbage", D, "bytes skipped while resynchronising")                                                \
    X(BAD_CODEC, 18, "bad-codec", D, "unknown compression codec id")                                                   \
    X(TOO_LARGE, 20, "batch-too-large", I, "decompressed batch exceeds --max-batch-bytes; skipped")                    \
    X(INCOMPLETE_TAIL, 21, "incomplete-tail", I, "the last entry runs past the end of the file")                       \
    X(ZERO_TAIL, 22, "zero-tail", I, "zero bytes after the last batch (preallocated space)")                           \
    X(SHRUNK, 23, "file-shrunk", D, "the file was truncated while it was being read")                                  \
    X(GREW, 24, "file-grew", I, "the file grew while it was read; only the prefix that existed at open was read")      \
    X(CUT_SEGMENT, 25, "cut-segment", D,                                                                               \
      "a segment that is not the last of its partition ends in an incomplete entry (a cut file)")                      \
    X(SEGMENT_OVERLAP, 26, "segment-overlap", I,                                                                       \
      "a segment's first batch is at or below the last offset of the segments before it")                              \
    X(OFFSET_ORDER, 27, "offset-order", D,                                                                             \
      "a batch's base offset is not above the last offset before it in its segment (its offsets repeat)")              \
    X(BAD_INDEX, 30, "bad-index", D, "index file size or entries are invalid")                                         \
    X(BAD_SNAPSHOT, 31, "bad-snapshot", D, "producer snapshot is corrupt")                                             \
    X(BAD_CHECKPOINT, 32, "bad-checkpoint", D,                                                                         \
      "a text file of a log directory (checkpoint, partition.metadata, meta.properties, quorum-state, "                \
      ".kafka_cleanshutdown) is malformed")                                                                            \
    X(BAD_EXPORT, 33, "bad-export", D, "a Parquet export is cut short or corrupt")

#define SS_ERROR_ENUM_(name, num, str, cls, desc) SS_E_##name = num,
typedef enum ss_errkind { SS_ERROR_LIST(SS_ERROR_ENUM_) } ss_errkind;
#undef SS_ERROR_ENUM_

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any message the library writes: the longest are Kafka's
 * CorruptIndexException texts (LazyIndex/OffsetIndex/TimeIndex sanityCheck,
 * TransactionIndex), about 260 bytes around the index file's absolute path,
 * and the notes of segscan/inputs.h, which may name a path and an error's
 * message; 1200 bytes, the room the inputs' notes always had, so paths up
 * to about 900 bytes fit. */
#define SS_ERROR_MSG_SIZE 1200

/* How much a problem matters (see the top of this file). The values are
 * those of enum ss_note_level (segscan/inputs.h), which names the same three. */
typedef enum ss_severity { SS_SEV_NOTICE = 0, SS_SEV_WARNING = 1, SS_SEV_ERROR = 2 } ss_severity;

/* A problem: an error met in a file (its kind, where, and why), or a note of
 * a run (kind SS_E_OK unless a kind of error says what it is about). */
typedef struct ss_error {
    ss_errkind kind;
    ss_severity severity;
    uint64_t position;           /* byte position in the file of the entry concerned */
    int64_t base_offset;         /* base offset of the batch, -1 if unknown */
    uint64_t length;             /* bytes concerned (damaged or skipped), 0 if unknown */
    char msg[SS_ERROR_MSG_SIZE]; /* human readable reason, without file name */
} ss_error;

SS_API const char *ss_errkind_name(ss_errkind k); /* stable name, e.g. "crc-mismatch" */
SS_API const char *ss_errkind_desc(ss_errkind k);
SS_API bool ss_errkind_is_damage(ss_errkind k);
/* The severity of an error of kind k met in a file: SS_SEV_ERROR for the
 * classes D and E, SS_SEV_NOTICE for I (and SS_E_OK). */
SS_API ss_severity ss_errkind_severity(ss_errkind k);
SS_API const char *ss_severity_name(ss_severity s); /* "notice", "warning", "error" */
/* A list of problems (ss_error), in the order they were met: how a run
 * passes its notes and failures up (ss_inputs_problems, ss_analysis_problems,
 * ss_timelines_problems, ss_groups_problems).
 * It belongs to the object that returned it. */
typedef struct ss_problems ss_problems;
SS_API size_t ss_problems_count(const ss_problems *p); /* 0 for NULL */
SS_API const ss_error *ss_problems_at(const ss_problems *p, size_t i);

/* Iterate the error table (for the manual and tests): returns false past the end. */
SS_API bool ss_errkind_at(size_t i, ss_errkind *kind, const char **name, const char **desc, char *cls);

#ifdef __cplusplus
}
#endif

#endif
