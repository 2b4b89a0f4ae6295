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
    /* A partition read from several directories (replicas, ss_inputs_replicas_once): the
     * offsets this segment gives, [read_from, read_to) by batch base offset; its batches
     * outside it are another copy's to give (ss_input_segment_reads). INT64_MIN and
     * INT64_MAX otherwise: every batch. */
    int64_t read_from, read_to;
    uint32_t replica; /* the copy it is a file of (ss_input_partition.replicas), 0 when one */
} ss_input_segment;

/* Whether a reader of the segment reads the batch at base_offset (else another copy of the
 * partition gives those offsets). read_to is exclusive, and INT64_MAX stands for "to the
 * end": an end computed as last offset + 1 saturates there, and a batch whose base offset
 * is INT64_MAX (legal input) is still read. */
static inline bool ss_offset_range_has(int64_t read_from, int64_t read_to, int64_t base_offset) {
    return base_offset >= read_from && (base_offset < read_to || read_to == INT64_MAX);
}
static inline bool ss_input_segment_reads(const ss_input_segment *s, int64_t base_offset) {
    return ss_offset_range_has(s->read_from, s->read_to, base_offset);
}

/* One copy of a partition given from several directories (a replica on each broker),
 * compared with the others as a follower is with its leader (ss_inputs_replicas_once). */
typedef struct ss_input_replica {
    const char *name;           /* the directory as told apart from the others: "b2/orders-0" */
    const char *path;           /* as given or found */
    int32_t node_id;            /* node.id (broker.id) of its log directory's meta.properties, -1 unknown */
    bool leader;                /* the copy the others are compared with: the latest leader epoch, then
                         * the furthest log end (a follower truncates to it) */
    size_t nsegments;           /* its segment files */
    int64_t log_start;          /* the first offset it holds (a batch's base), -1 when it holds none */
    int64_t log_end;            /* the offset after its last batch, -1 when it holds none */
    int32_t last_epoch;         /* partitionLeaderEpoch of its last batch, -1 unknown (legacy, none) */
    int64_t high_watermark;     /* its log directory's replication-offset-checkpoint, -1 unknown */
    int64_t read_from, read_to; /* the offsets read from it, [from, to); from == to: none */
    int64_t behind;             /* offsets the leader holds past its end (a follower behind), 0 none */
    /* a suffix that a follower would truncate (AbstractFetcherThread's truncation by leader
     * epoch): from offset diverged_at (-1: none) to its log end, at its leader epoch
     * diverged_epoch where the leader's log holds leader_epoch (-1: the leader holds nothing
     * there); its records are not read */
    int64_t diverged_at;
    int32_t diverged_epoch, leader_epoch;
    uint64_t diverged_batches;
    uint64_t damage; /* damaged entries and unreadable files met in it */
} ss_input_replica;

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
    /* Copies of the partition from several directories read as one (ss_inputs_replicas_once):
     * every copy, the leader among them, in the order of their paths; 0 and NULL when the
     * partition was given once. path, high_watermark, epochs, cleaner_offset and topic_id are
     * then the leader's; log_start_offset the lowest known. */
    size_t nreplicas;
    const ss_input_replica *replicas;
    /* ss_inputs_replicas_once compared it with the other inputs of its name and found it not
     * a copy of their log (another topic id, batches that differ within a leader epoch, or
     * nothing in common): its records and theirs are records of other partitions */
    bool not_a_replica;
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
/* The same partition (topic and number, and topic id where partition.metadata names one)
 * found in several directories becomes one input with replicas (ss_input_partition.replicas):
 * each offset read once, from the copy a follower would keep (its segments' read_from and
 * read_to), the others compared with it in notes. Call before ss_inputs_finish. Without it
 * (verify, diff, dump, export read files as they are) each copy is an input of its own;
 * except_topic (or NULL): a topic whose copies stay inputs of their own (the groups study
 * compares __consumer_offsets copies record by record itself). */
SS_API void ss_inputs_replicas_once(ss_inputs *in, bool once, const char *except_topic);
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
 * whose consumer groups and transactions it explains. A log directory, or a tree of them,
 * adds none: its coordinators' partitions are read with it. Returns how many were added;
 * a directory that cannot be listed adds none, silently (the path itself says more); a
 * partition found there that cannot be read is noted as found, not as a PATH given. */
SS_API size_t ss_inputs_add_coordinators(ss_inputs *in, const char *path);
/* Might ss_inputs_add_coordinators(path) add a __consumer_offsets partition: does the log
 * directory beside path hold an entry named __consumer_offsets-<something>? Reads nothing
 * else (a cheap test before building inputs for the consumer groups). */
SS_API bool ss_inputs_offsets_beside(const char *path);

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
    SS_INOTE_REPLICA = 2,  /* a partition read from several copies: how they compare */
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
