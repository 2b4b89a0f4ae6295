/* segscan - the files beside a segment: offset index (.index), time index
 * (.timeindex), transaction index (.txnindex), producer-state snapshot
 * (.snapshot), and the text checkpoint files of a partition directory
 * (leader-epoch-checkpoint, partition.metadata) and of a log directory
 * (recovery-point-offset-checkpoint, replication-offset-checkpoint,
 * log-start-offset-checkpoint, cleaner-offset-checkpoint).
 *
 * Semantics are those of Kafka's own readers (storage/.../internals/log/
 * AbstractIndex, OffsetIndex, TimeIndex, TransactionIndex, AbortedTxn,
 * ProducerStateManager.readSnapshot; server-common CheckpointFile) and of
 * kafka-dump-log.sh (DumpLogSegments.scala). Where Kafka throws, these
 * functions return an error kind and fill ss_error with Kafka's message.
 *
 * Every reader opens its file read-only and never creates, truncates or
 * writes anything. File contents are untrusted: every slot read is checked
 * against the file size.
 */
#ifndef SEGSCAN_FILES_H
#define SEGSCAN_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/record.h"
#include "segscan/segment.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- offset index and time index --------------------------------------------- */

typedef enum ss_index_kind {
    SS_INDEX_OFFSET = 1, /* .index: relativeOffset int32, position int32 (8 bytes) */
    SS_INDEX_TIME = 2,   /* .timeindex: timestamp int64, relativeOffset int32 (12 bytes) */
} ss_index_kind;

typedef struct ss_offset_entry {
    int64_t offset;   /* absolute: base offset + relative offset (Java long + int) */
    int32_t position; /* byte position in the .log (Java int; negative only if damaged) */
} ss_offset_entry;

typedef struct ss_time_entry {
    int64_t timestamp;
    int64_t offset; /* absolute */
} ss_time_entry;

/* The entry sizes: OffsetIndex.ENTRY_SIZE (relative offset int32, position
 * int32) and TimeIndex.ENTRY_SIZE (timestamp int64, relative offset int32),
 * storage/src/main/java/org/apache/kafka/storage/internals/log/. */
enum { SS_OFFSET_INDEX_ENTRY = 8, SS_TIME_INDEX_ENTRY = 12 };

typedef struct ss_index {
    ss_index_kind kind;
    int64_t base_offset;
    uint64_t file_size;
    uint32_t entry_size; /* SS_OFFSET_INDEX_ENTRY or SS_TIME_INDEX_ENTRY */
    /* Kafka's entries() for an existing file opened read-only:
     * roundDownToExactMultiple(length, entrySize) / entrySize. */
    uint64_t entries;
    /* kafka-dump-log.sh's view: it stops at the first slot after slot 0 whose
     * offset equals the base offset (the zero-filled tail of a preallocated
     * index). listed = slots before that one; stopped_at_slot = that slot, or -1. */
    uint64_t listed;
    int64_t stopped_at_slot;
    bool zero_tail;      /* stopped, and every byte from the stop slot to the end is zero */
    const uint8_t *data; /* file_size bytes */
    ss_segment *seg;     /* the mapping, or NULL for ss_index_from_memory */
} ss_index;

/* Open (read-only mapping) an index file. base_offset is the segment's base
 * offset (usually ss_offset_from_filename). Fails with SS_E_IO for a missing
 * file, a directory, or a file too large for Kafka to map (> INT32_MAX bytes). */
SS_API ss_errkind ss_index_open(const char *path, ss_index_kind kind, int64_t base_offset, ss_index **out,
                                ss_error *err);
/* The same over bytes in memory (not copied: they must outlive the index). */
SS_API ss_errkind ss_index_from_memory(const uint8_t *data, size_t len, ss_index_kind kind, int64_t base_offset,
                                       ss_index **out, ss_error *err);
SS_API void ss_index_close(ss_index *ix);

/* Slot n (n < entries; a slot past the end reads as zeros, never past the file). */
SS_API ss_offset_entry ss_index_offset_entry(const ss_index *ix, uint64_t n);
SS_API ss_time_entry ss_index_time_entry(const ss_index *ix, uint64_t n);

/* OffsetIndex.lastOffset: the offset of slot entries-1, or the base offset when empty. */
SS_API int64_t ss_index_last_offset(const ss_index *ix);
/* TimeIndex.lastEntry: slot entries-1, or (-1, base offset) when empty. */
SS_API ss_time_entry ss_index_last_time_entry(const ss_index *ix);

/* OffsetIndex.lookup(target): the entry of the largest offset <= target, found
 * with AbstractIndex's warm-section binary search over all entries() slots (so
 * a zero-filled tail answers as it does in Kafka); (base offset, 0) when no slot
 * qualifies. ix may be NULL (a missing index): then (base_offset, 0). */
SS_API ss_offset_entry ss_index_lookup(const ss_index *ix, int64_t base_offset, int64_t target);

/* Kafka's sanityCheck() of an OffsetIndex or TimeIndex. display_path is the
 * path Kafka would print (its getAbsolutePath()). SS_E_OK when it passes, else
 * SS_E_BAD_INDEX with Kafka's CorruptIndexException message in err->msg. */
SS_API ss_errkind ss_index_sanity_check(const ss_index *ix, const char *display_path, ss_error *err);

/* ---- checking index entries against the .log (as kafka-dump-log.sh does) ------------------------ */

typedef enum ss_icheck_status {
    SS_ICHECK_MATCH = 0, /* the batch found has lastOffset == the entry's offset */
    SS_ICHECK_MISMATCH,  /* a batch was found, its lastOffset differs (log_last_offset) */
    SS_ICHECK_NOT_FOUND, /* time index: no batch at or after the position has lastOffset >= offset */
    SS_ICHECK_NO_BATCH,  /* offset index: no complete batch at the position (Kafka dies) */
    SS_ICHECK_ERROR,     /* the log could not be read there (Kafka dies); err says why */
} ss_icheck_status;

typedef struct ss_icheck {
    ss_icheck_status status;
    int64_t log_last_offset;   /* lastOffset of the batch found, -1 if none */
    uint64_t batch_position;   /* where that batch starts */
    int64_t log_max_timestamp; /* time index, status MATCH: max record timestamp of the batch (-1 none) */
    int64_t lookup_position;   /* time index: the position the offset index gave */
    ss_error err;              /* status NO_BATCH / ERROR */
} ss_icheck;

typedef struct ss_index_checker ss_index_checker;

/* log: the segment's .log; offsets: its .index (for time index checks; may be
 * NULL when missing: lookups then give position 0, as Kafka's empty index);
 * dec: a decoder for reading record timestamps (needed for time index checks). */
SS_API ss_index_checker *ss_index_checker_new(const ss_segment *log, const ss_index *offsets, ss_decoder *dec);
SS_API void ss_index_checker_free(ss_index_checker *c);

/* DumpLogSegments.dumpIndex: the first batch of log.slice(position, max_message_size). */
SS_API ss_icheck_status ss_index_check_offset(ss_index_checker *c, ss_offset_entry e, uint64_t max_message_size,
                                              ss_icheck *out);
/* DumpLogSegments.dumpTimeIndex: position = offsets.lookup(e.offset); the first
 * batch from there with lastOffset >= e.offset; when it ends exactly at
 * e.offset, the largest record timestamp in it. */
SS_API ss_icheck_status ss_index_check_time(ss_index_checker *c, ss_time_entry e, ss_icheck *out);

/* ---- transaction index (.txnindex) ----------------------------------------------- */

enum { SS_ABORTED_TXN_SIZE = 34 };

typedef struct ss_aborted_txn {
    int8_t version;        /* AbortedTxn.version(): Kafka reads the FIRST BYTE only */
    int16_t version_field; /* the int16 as written */
    int64_t producer_id;
    int64_t first_offset;
    int64_t last_offset;
    int64_t last_stable_offset;
} ss_aborted_txn;

typedef struct ss_txnindex {
    int64_t start_offset;
    uint64_t file_size;
    uint64_t entries;    /* whole 34-byte entries */
    uint64_t tail_bytes; /* bytes after them (Kafka ignores them) */
    const uint8_t *data;
    ss_segment *seg;
} ss_txnindex;

SS_API ss_errkind ss_txnindex_open(const char *path, int64_t start_offset, ss_txnindex **out, ss_error *err);
SS_API ss_errkind ss_txnindex_from_memory(const uint8_t *data, size_t len, int64_t start_offset, ss_txnindex **out,
                                          ss_error *err);
SS_API void ss_txnindex_close(ss_txnindex *t);
/* Entry n (< entries). Fails with SS_E_BAD_INDEX when its version is above 0,
 * with Kafka's KafkaException message (display_path as Kafka prints it). */
SS_API ss_errkind ss_txnindex_entry(const ss_txnindex *t, uint64_t n, const char *display_path, ss_aborted_txn *out,
                                    ss_error *err);
/* TransactionIndex.sanityCheck(): every entry's version is known and its
 * lastOffset >= the start offset; messages as ss_txnindex_entry. */
SS_API ss_errkind ss_txnindex_sanity_check(const ss_txnindex *t, const char *display_path, ss_error *err);
/* AbortedTxn.toString(): "AbortedTxn(version=0, producerId=..., ...)". Returns snprintf's result. */
SS_API int ss_aborted_txn_format(const ss_aborted_txn *a, char *buf, size_t size);

/* ---- producer-state snapshot (.snapshot) --------------------------------------------- */

enum { SS_SNAPSHOT_VERSION = 1, SS_SNAPSHOT_ENTRY_SIZE = 46 };

typedef struct ss_producer_entry {
    int64_t producer_id;
    int16_t producer_epoch;
    int32_t last_sequence;
    int64_t last_offset;
    int32_t offset_delta;
    int64_t timestamp;
    int32_t coordinator_epoch;
    int64_t current_txn_first_offset; /* as stored; -1: none */
    /* Kafka's reading of the entry */
    bool has_txn;           /* current_txn_first_offset >= 0 (OptionalLong present) */
    bool has_batch;         /* last_offset >= 0: the entry carries batch metadata */
    int32_t first_sequence; /* BatchMetadata.firstSeq(): decrementSequence(lastSeq, offsetDelta) */
} ss_producer_entry;

typedef struct ss_snapshot {
    uint64_t file_size;
    int16_t version;
    uint32_t crc;            /* stored */
    uint32_t crc_computed;   /* CRC-32C of bytes 6..end */
    int32_t count;           /* declared number of entries */
    uint64_t trailing_bytes; /* bytes after the entries (covered by the CRC, otherwise ignored) */
    size_t n;
    ss_producer_entry *entries;
} ss_snapshot;

/* ProducerStateManager.readSnapshot: the schema is read first (version, crc,
 * entries), then the version must be 1, then the CRC must match; each failure
 * is SS_E_BAD_SNAPSHOT with Kafka's CorruptSnapshotException message. On
 * failure, the fields read so far stay in out (entries only on success).
 * Free with ss_snapshot_free in every case. */
SS_API ss_errkind ss_snapshot_parse(const uint8_t *data, size_t len, ss_snapshot *out, ss_error *err);
SS_API ss_errkind ss_snapshot_read(const char *path, ss_snapshot *out, ss_error *err);
SS_API void ss_snapshot_free(ss_snapshot *s);

/* ---- checkpoint text files -------------------------------------------------------- */

typedef enum ss_checkpoint_kind {
    /* recovery-point-offset-checkpoint, replication-offset-checkpoint,
     * log-start-offset-checkpoint, cleaner-offset-checkpoint:
     * "0\n<count>\n" then "<topic> <partition> <offset>" lines */
    SS_CKPT_OFFSETS = 1,
    /* leader-epoch-checkpoint: "0\n<count>\n" then "<epoch> <startOffset>" lines */
    SS_CKPT_LEADER_EPOCH = 2,
} ss_checkpoint_kind;

typedef struct ss_ckpt_offset {
    const char *topic; /* NUL-terminated, points into the checkpoint's storage */
    int32_t partition;
    int64_t offset;
} ss_ckpt_offset;

typedef struct ss_epoch_entry {
    int32_t epoch;
    int64_t start_offset;
} ss_epoch_entry;

typedef struct ss_checkpoint {
    ss_checkpoint_kind kind;
    bool empty; /* no version line (or no count line): Kafka reads an empty list */
    int32_t version;
    int32_t expected; /* the count line */
    size_t n;
    ss_ckpt_offset *offsets; /* SS_CKPT_OFFSETS */
    ss_epoch_entry *epochs;  /* SS_CKPT_LEADER_EPOCH */
    char *strings;           /* topic names */
} ss_checkpoint;

/* The kind of a checkpoint file from its base name; false for other names. */
SS_API bool ss_checkpoint_kind_for_name(const char *path, ss_checkpoint_kind *kind);

/* CheckpointFile.CheckpointReadBuffer.read(): lines split as BufferedReader
 * does (\n, \r or \r\n), numbers as Integer.parseInt / Long.parseLong, fields
 * split on runs of whitespace. display_path is used in messages (Kafka prints
 * the absolute path). SS_E_BAD_CHECKPOINT with Kafka's message on failure. */
SS_API ss_errkind ss_checkpoint_parse(const char *text, size_t len, ss_checkpoint_kind kind, const char *display_path,
                                      ss_checkpoint *out, ss_error *err);
SS_API ss_errkind ss_checkpoint_read(const char *path, ss_checkpoint_kind kind, ss_checkpoint *out, ss_error *err);
SS_API void ss_checkpoint_free(ss_checkpoint *c);

/* partition.metadata: "version: 0\ntopic_id: <base64url UUID>". */
typedef struct ss_partition_metadata {
    int32_t version;
    uint8_t topic_id[16];
    char topic_id_str[25]; /* as written: 22 characters of URL-safe base64 (24 with padding) */
} ss_partition_metadata;

SS_API ss_errkind ss_partition_metadata_parse(const char *text, size_t len, const char *display_path,
                                              ss_partition_metadata *out, ss_error *err);
SS_API ss_errkind ss_partition_metadata_read(const char *path, ss_partition_metadata *out, ss_error *err);


/* ---- meta.properties -------------------------------------------------------------- */

/* One line of a properties file as java.util.Properties.load reads it. */
typedef struct ss_property {
    const char *key, *value; /* NUL-terminated UTF-8 (the file is ISO-8859-1 with \uXXXX escapes) */
    uint64_t position;       /* byte position of its (first) line */
} ss_property;

/* meta.properties as MetaProperties.Builder(Properties) reads it. */
typedef struct ss_meta_properties {
    int32_t version; /* MetaPropertiesVersion: 0 (ZooKeeper era; also when the file has no version) or 1 (KRaft) */
    bool has_version;
    bool has_node_id; /* v0: broker.id when present; v1: node.id (required) */
    int32_t node_id;
    const char *cluster_id; /* cluster.id, NULL when absent (allowed in v0 only) */
    bool has_directory_id;
    uint8_t directory_id[16]; /* directory.id (KIP-858) */
    size_t nprops;            /* every property, in the order of the file (a key repeated: the last wins in Kafka) */
    ss_property *props;
    char *strings;
} ss_meta_properties;

/* Properties.load(InputStream) (ISO-8859-1, '#'/'!' comments, '\' line
 * continuations, key separators '=', ':' or blanks, \uXXXX escapes), then
 * MetaProperties.Builder: SS_E_BAD_CHECKPOINT with Kafka's message for a
 * version that is not 0 or 1, an unreadable broker.id or node.id, a v1 file
 * without node.id or cluster.id, a directory.id that is not a Uuid, a
 * malformed \uXXXX. Free with ss_meta_properties_free in every case. */
SS_API ss_errkind ss_meta_properties_parse(const char *text, size_t len, const char *display_path,
                                           ss_meta_properties *out, ss_error *err);
SS_API void ss_meta_properties_free(ss_meta_properties *m);

/* ---- quorum-state and .kafka_cleanshutdown (JSON) --------------------------------------- */

/* quorum-state (__cluster_metadata-0): QuorumStateData as FileQuorumStateStore reads it. */
typedef struct ss_quorum_state {
    int16_t data_version;           /* 0 or 1 (KRaftVersion.quorumStateVersion) */
    char *cluster_id;               /* v0 (""), NULL when absent */
    int32_t leader_id;              /* -1: no leader known */
    int32_t leader_epoch;           /* the quorum's epoch */
    int32_t voted_id;               /* -1: not voted in this epoch */
    uint8_t voted_directory_id[16]; /* v1 (zeros when absent) */
    bool has_voted_directory_id;
    int64_t applied_offset; /* v0, 0 */
    bool voters_null;       /* v0: currentVoters was null */
    size_t nvoters;         /* v0: currentVoters */
    int32_t *voters;
} ss_quorum_state;

/* The first line, as Jackson's ObjectMapper.readTree reads it (what follows
 * the JSON value is ignored), then data_version (0..1) and
 * QuorumStateDataJsonConverter.read: SS_E_BAD_CHECKPOINT with a message in
 * Kafka's words for an empty file ("File ended prematurely."), a line that
 * is not a JSON object, no data_version, a version out of range, a mandatory
 * field missing or of the wrong type. Free with ss_quorum_state_free. */
SS_API ss_errkind ss_quorum_state_parse(const char *text, size_t len, const char *display_path, ss_quorum_state *out,
                                        ss_error *err);
SS_API void ss_quorum_state_free(ss_quorum_state *q);

/* .kafka_cleanshutdown (a log directory): the broker shut down cleanly
 * (CleanShutdownFileHandler). Brokers before KIP-966 leave it empty; later
 * ones write {"version":0,"brokerEpoch":N}. */
typedef struct ss_clean_shutdown {
    bool empty;      /* no bytes */
    int32_t version; /* the content's version (CURRENT_VERSION 0) */
    bool has_broker_epoch;
    int64_t broker_epoch; /* the broker epoch of the shutdown, for its next registration */
} ss_clean_shutdown;

/* SS_E_BAD_CHECKPOINT when the content is not that JSON object (Kafka then
 * reads no broker epoch from it, and the shutdown still counts as clean). */
SS_API ss_errkind ss_clean_shutdown_parse(const char *text, size_t len, const char *display_path,
                                          ss_clean_shutdown *out, ss_error *err);


/* ---- the text files, read and checked ------------------------------------------------ */

/* The text files Kafka keeps beside the segments. */
typedef enum ss_text_kind {
    SS_TEXT_NONE = 0,
    /* in a partition directory */
    SS_TEXT_LEADER_EPOCH = 1,       /* leader-epoch-checkpoint (LeaderEpochCheckpointFile) */
    SS_TEXT_PARTITION_METADATA = 2, /* partition.metadata (PartitionMetadataFile) */
    SS_TEXT_QUORUM_STATE = 3,       /* quorum-state, in __cluster_metadata-0 (FileQuorumStateStore) */
    /* in a log directory (OffsetCheckpointFile, MetaProperties, CleanShutdownFileHandler) */
    SS_TEXT_RECOVERY_POINT = 4,     /* recovery-point-offset-checkpoint */
    SS_TEXT_REPLICATION_OFFSET = 5, /* replication-offset-checkpoint: high watermarks */
    SS_TEXT_LOG_START_OFFSET = 6,   /* log-start-offset-checkpoint */
    SS_TEXT_CLEANER_OFFSET = 7,     /* cleaner-offset-checkpoint: the log cleaner's first dirty offsets */
    SS_TEXT_META_PROPERTIES = 8,    /* meta.properties */
    SS_TEXT_CLEAN_SHUTDOWN = 9,     /* .kafka_cleanshutdown */
} ss_text_kind;
enum { SS_TEXT_KIND_COUNT = 10 };

/* The kind of a file from its base name (SS_TEXT_NONE for another name). */
SS_API ss_text_kind ss_text_kind_of(const char *path);
/* The file name of a kind ("leader-epoch-checkpoint", ...); NULL for SS_TEXT_NONE. */
SS_API const char *ss_text_kind_name(ss_text_kind kind);
/* True for the kinds that live in a log directory (not in a partition directory). */
SS_API bool ss_text_kind_in_log_dir(ss_text_kind kind);

/* One text file as Kafka's reader of its kind reads it. */
typedef struct ss_textfile {
    ss_text_kind kind;
    uint64_t size;
    /* No bytes; for the checkpoints also a file without its count line, which
     * Kafka reads as no entries (CheckpointReadBuffer). */
    bool empty;
    ss_checkpoint ckpt;         /* the four offset checkpoints and leader-epoch-checkpoint */
    uint64_t *line_pos;         /* ckpt: byte position of entry i's line */
    ss_partition_metadata pm;   /* partition.metadata */
    ss_meta_properties meta;    /* meta.properties */
    ss_quorum_state quorum;     /* quorum-state */
    ss_clean_shutdown shutdown; /* .kafka_cleanshutdown */
} ss_textfile;

/* Read a text file of the given kind (SS_TEXT_NONE: from its name). Returns
 * SS_E_OK, SS_E_IO (cannot be opened or read), SS_E_USAGE (not one of the
 * kinds) or SS_E_BAD_CHECKPOINT (malformed: Kafka's reader refuses it; err
 * says why, with Kafka's message, and where). Free with ss_textfile_free in
 * every case. */
SS_API ss_errkind ss_textfile_read(const char *path, ss_text_kind kind, ss_textfile *out, ss_error *err);
SS_API ss_errkind ss_textfile_parse(const char *text, size_t len, ss_text_kind kind, const char *display_path,
                                    ss_textfile *out, ss_error *err);
SS_API void ss_textfile_free(ss_textfile *f);

/* What segscan sees of a partition's log, from its directory's segment files:
 * the log start offset Kafka's LogLoader takes from them (the first
 * segment's base offset, its file name) and the log end offset (the offset
 * after the last batch of the last segment, LogSegment.readNextOffset, or its
 * base offset when it holds none), read from the batch headers alone. */
typedef struct ss_log_span {
    bool known;         /* false: no segment (or no directory) */
    int64_t start;      /* the first segment's base offset */
    int64_t end;        /* the log end offset */
    int32_t last_epoch; /* partitionLeaderEpoch of the last batch, -1 when none (or a legacy batch) */
    bool cut;           /* the last segment's framing ends before its end (a tail, or damage): end is where it ends */
} ss_log_span;

/* The span of the partition directory dir. False (known unset) when the
 * directory holds no segment. The last segment's .index, when it is sound,
 * says where to start reading its batch headers. */
SS_API bool ss_log_span_read(const char *dir, ss_log_span *out);

/* The span of a partition of the log directory a checkpoint is in, for the
 * checks of that checkpoint: false when segscan cannot see it. */
typedef bool (*ss_span_fn)(void *arg, const char *topic, int32_t partition, ss_log_span *out);

/* The spans of the partition directories <log_dir>/<topic>-<partition>, each
 * read once (ss_log_span_read) and kept: a ss_span_fn with this as its arg. */
typedef struct ss_log_dir_spans ss_log_dir_spans;
SS_API ss_log_dir_spans *ss_log_dir_spans_new(const char *log_dir);
SS_API void ss_log_dir_spans_free(ss_log_dir_spans *s);
SS_API bool ss_log_dir_span(void *spans, const char *topic, int32_t partition, ss_log_span *out);

/* A finding of the checks of a text file: the check, the Kafka offset concerned,
 * and the problem (segscan/errors.h's ss_error): kind SS_E_OK, severity
 * SS_SEV_WARNING for a failed check (an inconsistency), SS_SEV_NOTICE for
 * information (not a failed check), position the byte position in the file of
 * the line concerned, base offset -1, and the message. */
typedef struct ss_text_finding {
    const char *check; /* stable name: "leader-epoch-order", "checkpoint-offset", ... (verify's table) */
    int64_t offset;    /* the Kafka offset concerned, -1 none */
    ss_error problem;
} ss_text_finding;
typedef void (*ss_text_finding_fn)(void *arg, const ss_text_finding *f);

/* The checks of a text file Kafka's reader accepts (ss_textfile_read gave
 * SS_E_OK), beyond what that reader checks:
 *   leader-epoch-checkpoint  epochs and start offsets increasing
 *                            (LeaderEpochFileCache keeps both increasing);
 *                            no start offset past the log end offset;
 *   quorum-state             its epoch not below the log's last epoch
 *                            (QuorumState.initialize);
 *   the offset checkpoints   one entry a partition; each entry within its
 *                            partition's log: a recovery point, high
 *                            watermark or cleaner offset not past the log
 *                            end, a log start offset not past it either
 *                            (LogLoader deletes every segment then); a cleaner
 *                            offset below the log start, an entry without a
 *                            partition directory: information;
 *   meta.properties          no reserved directory.id (DirectoryId.reserved).
 * dir_span: the span of the file's own partition (leader-epoch-checkpoint,
 * quorum-state), NULL when unknown; span/span_arg: the spans of a log
 * directory's partitions (offset checkpoints), span NULL when unknown.
 * Returns the number of failed checks (info findings not counted). */
SS_API size_t ss_textfile_check(const ss_textfile *f, const ss_log_span *dir_span, ss_span_fn span, void *span_arg,
                                ss_text_finding_fn cb, void *cb_arg);

#ifdef __cplusplus
}
#endif
#endif
