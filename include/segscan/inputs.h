/* segscan - the PATHs given by the user, resolved into partitions (a
 * partition directory's segments in offset order, stitched), named, sorted by
 * (topic, partition number, path), with the log directory's checkpoint
 * figures when present. The analysis, verify, diff and the decoders of the
 * internal topics read their inputs through it.
 */
#ifndef SEGSCAN_INPUTS_H
#define SEGSCAN_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/segment.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- inputs ---------------------------------------------------------------- */

typedef struct ss_inputs ss_inputs;

typedef struct ss_input_segment {
    const char *path;    /* NULL for an in-memory input (stdin) */
    int64_t name_offset; /* offset in the 20-digit file name, -1 if none */
    bool temporary;      /* a .deleted/.cleaned/.swap file read because of include_temp */
} ss_input_segment;

typedef struct ss_input_partition {
    const char *name;  /* P: directory name, or the shortest distinguishing path suffix */
    const char *topic; /* name without "-<n>"; a stray file is a topic of its own */
    int32_t partition; /* the <n>, or -1 */
    const char *path;  /* directory (or file) as resolved */
    bool is_dir;       /* a partition directory (else a lone segment file or stdin) */
    bool internal;     /* topic name starts with "__" */
    bool named;        /* given directly on the command line (not found inside a log dir) */
    size_t nsegments;
    const ss_input_segment *segments;
    int64_t high_watermark;   /* replication-offset-checkpoint, -1 when unknown */
    int64_t log_start_offset; /* log-start-offset-checkpoint, -1 when unknown */
    /* Segment files of a partition directory given one by one: the directory's other segment
     * files (temporaries aside), not read; their base offsets (file names), sorted. 0 and NULL
     * when the directory itself was given, or found in a log directory. */
    size_t segments_not_given;
    const int64_t *not_given_offsets;
} ss_input_partition;

enum ss_note_level { SS_NOTE_INFO = 0, SS_NOTE_WARN = 1, SS_NOTE_ERROR = 2 };

/* include_temp: read broker temporaries (.deleted, .cleaned, .swap files;
 * -delete, -stray directories) instead of skipping them with a note. */
SS_API ss_inputs *ss_inputs_new(bool include_temp);
SS_API void ss_inputs_free(ss_inputs *in);
/* Add a PATH: a segment file, a partition directory or a log directory,
 * recognised by content. Returns SS_E_OK, or SS_E_IO when nothing could be
 * read from it (a note with level SS_NOTE_ERROR says why). */
SS_API ss_errkind ss_inputs_add(ss_inputs *in, const char *path);
/* Add one segment held in memory (stdin); the bytes are copied. `name` names
 * the partition ("-" for stdin). */
SS_API ss_errkind ss_inputs_add_memory(ss_inputs *in, const char *name, const uint8_t *data, size_t len);
/* Resolve names, merge duplicates, sort, read checkpoints. Call once, after the adds. */
SS_API void ss_inputs_finish(ss_inputs *in);
SS_API size_t ss_inputs_count(const ss_inputs *in);
SS_API const ss_input_partition *ss_inputs_at(const ss_inputs *in, size_t i);
SS_API size_t ss_inputs_note_count(const ss_inputs *in);
SS_API const char *ss_inputs_note(const ss_inputs *in, size_t i, enum ss_note_level *level);
/* Open segment j of partition i read-only. */
SS_API ss_errkind ss_inputs_open_segment(const ss_inputs *in, size_t i, size_t j, ss_segment **out, ss_error *err);
/* Bytes of segment j of partition i now (0 when it cannot be read). */
SS_API uint64_t ss_inputs_segment_size(const ss_inputs *in, size_t i, size_t j);

#ifdef __cplusplus
}
#endif
#endif
