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
#include "segscan/files.h"
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
    const char *path;  /* directory (or file) as resolved; "-" for one held in memory (stdin) */
    bool is_dir;       /* a partition directory (else a lone segment file or stdin) */
    bool internal;     /* topic name starts with "__" */
    bool named;        /* given directly on the command line (not found inside a log dir) */
    size_t nsegments;
    const ss_input_segment *segments;
    int64_t high_watermark;   /* replication-offset-checkpoint, -1 when unknown */
    int64_t log_start_offset; /* log-start-offset-checkpoint, -1 when unknown */
    /* What the partition directory and its log directory say beside the segments,
     * for the verdicts of the analysis, verify and diff (defaults when a file is
     * absent or cannot be read; verify reports on the files themselves): */
    int64_t cleaner_offset; /* cleaner-offset-checkpoint: the cleaner's firstDirtyOffset, so
                             * offsets below it were cleaned (LogCleaner); -1 when unknown */
    const char *topic_id;   /* partition.metadata's topic id as written (base64), NULL when absent */
    bool epochs_read;       /* leader-epoch-checkpoint read (it may hold no entry) */
    size_t nepochs;
    const ss_epoch_entry *epochs; /* its entries, in file order */
    /* base offsets named by a .index, .timeindex, .txnindex or .snapshot file beside no
     * .log of that offset (Kafka deletes a segment's files together:
     * LogSegment.deleteIfExists, UnifiedLog.deleteProducerSnapshots), sorted */
    size_t norphans;
    const int64_t *orphans;
    /* a broker temporary read because of include_temp: "-delete", "-future" or "-stray"
     * (the directory's suffix), or ".deleted", ".cleaned" or ".swap" (an input of the
     * partition directory's temporary segment files of that suffix, named "orders-3[.deleted]":
     * they are not segments of its log), NULL otherwise; temporary_of then names the partition
     * it is a temporary copy of ("orders-3") */
    const char *temporary, *temporary_of;
    /* Segment files of a partition directory given one by one: the directory's other segment
     * files (temporaries aside), not read; their base offsets (file names), sorted. 0 and NULL
     * when the directory itself was given, or found in a log directory. */
    size_t segments_not_given;
    const int64_t *not_given_offsets;
    /* A partition read from an export (a Parquet file `segscan export` wrote, given as a PATH):
     * the file (path says it too), NULL for one read from a log; its log is rebuilt from the rows
     * with what they carry (no key or value bytes of a data topic, no record headers, no CRCs
     * or damage positions: "not in the export"). export_broker: the broker its rows name
     * (node.id), -1 when unknown; export_cluster_id: the export's kafka.cluster.id, NULL. */
    const char *export_file;
    int32_t export_broker;
    const char *export_cluster_id;
    /* damaged regions the export's writer met in this partition's log and left out (a note
     * says so; the export's metadata, segscan.partitions, says where and why) */
    uint64_t export_damage;
} ss_input_partition;

/* The level of a note: an ss_severity (segscan/errors.h) under its older names. */
enum ss_note_level { SS_NOTE_INFO = SS_SEV_NOTICE, SS_NOTE_WARN = SS_SEV_WARNING, SS_NOTE_ERROR = SS_SEV_ERROR };

/* include_temp: read broker temporaries (.deleted, .cleaned, .swap files;
 * -delete, -stray directories) instead of skipping them with a note. */
SS_API ss_inputs *ss_inputs_new(bool include_temp);
SS_API void ss_inputs_free(ss_inputs *in);
/* Add a PATH: a segment file, a partition directory, a log directory or an
 * export (a Parquet file of `segscan export`: each partition it holds becomes
 * an input, export_file set), recognised by content. A file is a segment when its name is one
 * (<20 digits>.log, or a broker temporary of one) or when its first bytes are
 * a plausible batch header; the files Kafka keeps beside segments (.index,
 * .snapshot, checkpoints, ...) are skipped with a note; anything else is not a
 * Kafka segment. Returns SS_E_OK, or SS_E_IO when nothing could be read from
 * it (a problem of severity SS_SEV_ERROR says why). */
SS_API ss_errkind ss_inputs_add(ss_inputs *in, const char *path);
/* Is the file at path an export (it starts with Parquet's "PAR1"), which ss_inputs_add reads
 * as partitions? For the commands that need a log's bytes and refuse one. */
SS_API bool ss_inputs_is_export(const char *path);
/* Add one segment held in memory (stdin); the bytes are copied. `name` names
 * the partition: "-" for stdin, or a partition name ("orders-3": topic orders,
 * partition 3) that the user gave it (segscan's --stdin-name). Its path is "-"
 * either way. */
SS_API ss_errkind ss_inputs_add_memory(ss_inputs *in, const char *name, const uint8_t *data, size_t len);
/* Resolve names, merge duplicates, sort, read checkpoints. Call once, after the adds. */
SS_API void ss_inputs_finish(ss_inputs *in);
SS_API size_t ss_inputs_count(const ss_inputs *in);
SS_API const ss_input_partition *ss_inputs_at(const ss_inputs *in, size_t i);
/* The notes about the inputs (skipped files, temporaries, paths that could not
 * be read, replicas given together), in the order they were made: problems of
 * kind SS_E_OK, their severity the note's level. */
SS_API const ss_problems *ss_inputs_problems(const ss_inputs *in);
/* Add the coordinators' partitions beside a path: the __consumer_offsets-N and
 * __transaction_state-N directories of the log directory that holds it (a partition
 * directory's parent; a segment's, two levels up). For a command given data partitions
 * whose consumer groups and transactions it explains. Returns how many were added;
 * a directory that cannot be listed adds none, silently (the path itself says more). */
SS_API size_t ss_inputs_add_coordinators(ss_inputs *in, const char *path);

/* The partition directories of the topics read that sit beside the partition
 * directories read (in the directories holding them), hold segment files and
 * are not among the inputs: what a verdict about "the log" did not see.
 * Looked for (read-only) by the first call; sorted by topic, partition number,
 * name. */
typedef struct ss_input_sibling {
    const char *topic;
    int32_t partition;
    const char *name; /* the directory's name, "orders-4" */
    const char *path;
} ss_input_sibling;
SS_API size_t ss_inputs_sibling_count(ss_inputs *in);
SS_API const ss_input_sibling *ss_inputs_sibling_at(const ss_inputs *in, size_t i);
/* The inputs that could not be read, in the order met: a PATH given that is missing, not a
 * segment (neither named <20 digits>.log nor starting with a plausible batch header), or a
 * directory holding none; an entry of a directory read that cannot be (a dangling symbolic
 * link, a directory without permission). Each also made a note of severity SS_SEV_ERROR; a
 * partition-named one beside a partition read is a sibling not read (ss_inputs_sibling_at). */
typedef struct ss_input_unreadable {
    const char *path;   /* as given or found */
    const char *reason; /* "No such file or directory", "not a Kafka segment ...", ... */
    bool given;         /* a PATH of the command line (else an entry found in a directory) */
} ss_input_unreadable;
SS_API size_t ss_inputs_unreadable_count(const ss_inputs *in);
SS_API const ss_input_unreadable *ss_inputs_unreadable_at(const ss_inputs *in, size_t i);
/* What a note is about, for a caller that words it otherwise or has no use for it: a
 * command that reads one copy of a partition given several times (replicas) and
 * compares the others leaves out SS_INOTE_REPLICAS, whatever its text says. */
enum ss_input_note_kind {
    SS_INOTE_OTHER = 0,
    SS_INOTE_REPLICAS = 1, /* two inputs hold the same topic and partition (replicas?) */
};
SS_API enum ss_input_note_kind ss_inputs_note_kind(const ss_inputs *in, size_t i); /* of problem i */
/* Open segment j of partition i read-only. */
SS_API ss_errkind ss_inputs_open_segment(const ss_inputs *in, size_t i, size_t j, ss_segment **out, ss_error *err);
/* Bytes of segment j of partition i now (0 when it cannot be read). */
SS_API uint64_t ss_inputs_segment_size(const ss_inputs *in, size_t i, size_t j);
/* KRaft snapshots of the metadata log (<offset>-<epoch>.checkpoint in a
 * partition directory, or a .checkpoint given as a PATH, bootstrap.checkpoint
 * included): not segments of a partition; the analysis reads their
 * producer-id blocks (ss_pid_blocks_read). Paths as given or found, each file once. */
SS_API size_t ss_inputs_kraft_snapshot_count(const ss_inputs *in);
SS_API const char *ss_inputs_kraft_snapshot(const ss_inputs *in, size_t i);

#ifdef __cplusplus
}
#endif
#endif
