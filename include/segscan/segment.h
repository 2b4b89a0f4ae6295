/* segscan - segment files, framed: the mapping of a file, the walker over its
 * log entries (with damage reports and resync), the batch header.
 *
 * Data flow: ss_segment (a read-only mapped file) -> ss_walker (one batch or
 * legacy entry at a time, with damage reports and resync) -> ss_decoder (the
 * records of one batch, decompressed into a reused buffer; segscan/record.h)
 * -> ss_record (views into the mapping or the buffer; never copies).
 */
#ifndef SEGSCAN_SEGMENT_H
#define SEGSCAN_SEGMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SS_DEFAULT_MAX_BATCH_BYTES (64u * 1024u * 1024u)

/* The decoder of segscan/record.h; the walker and ss_batch_parse may be given one. */
typedef struct ss_decoder ss_decoder;

/* ---- constants -------------------------------------------------------- */

enum ss_codec { SS_CODEC_NONE = 0, SS_CODEC_GZIP = 1, SS_CODEC_SNAPPY = 2, SS_CODEC_LZ4 = 3, SS_CODEC_ZSTD = 4 };
SS_API const char *ss_codec_name(enum ss_codec codec); /* "none", "gzip", ... or NULL */
/* ss_codec_name, or "unknown" for an id the three attribute bits can hold but
 * Kafka's CompressionType does not define (5..7). */
SS_API const char *ss_codec_label(int codec);

/* The versions of the libraries that decompress and hash, for `segscan --version`
 * and bug reports: those this process runs with (each library's own call), but
 * snappy's, whose C API has none: the version libsegscan was built against
 * (pkg-config), "unknown" when the build could not tell. */
typedef struct ss_lib_versions {
    const char *zstd;   /* ZSTD_versionString() */
    const char *lz4;    /* LZ4_versionString() */
    const char *zlib;   /* zlibVersion() */
    char xxhash[16];    /* XXH_versionNumber() as "MAJOR.MINOR.RELEASE" */
    const char *snappy; /* build time */
} ss_lib_versions;
SS_API void ss_lib_versions_get(ss_lib_versions *v);

enum ss_tstype { SS_TS_NONE = -1, SS_TS_CREATE = 0, SS_TS_LOG_APPEND = 1 };
SS_API const char *ss_tstype_name(int t); /* "NoTimestampType", "CreateTime", "LogAppendTime" */

enum ss_control_type {
    SS_CTRL_ABORT = 0,
    SS_CTRL_COMMIT = 1,
    SS_CTRL_LEADER_CHANGE = 2,
    SS_CTRL_SNAPSHOT_HEADER = 3,
    SS_CTRL_SNAPSHOT_FOOTER = 4,
    SS_CTRL_KRAFT_VERSION = 5,
    SS_CTRL_KRAFT_VOTERS = 6
};
/* Kafka's ControlRecordType name ("ABORT", ... ) or "UNKNOWN". */
SS_API const char *ss_control_type_name(int type);

/* ---- batches ---------------------------------------------------------- */

/* One log entry as framed on disk: a v2 record batch, or a v0/v1 message
 * (possibly a compressed wrapper). Field names follow Kafka's RecordBatch. */
typedef struct ss_batch {
    uint64_t position; /* byte position of the entry in the file */
    uint32_t size;     /* sizeInBytes: 12 + length field */
    int8_t magic;
    int64_t base_offset; /* legacy: offset of the first inner message */
    int64_t last_offset;
    int32_t count;       /* recordsCount; -1 for legacy (Kafka's null) */
    int16_t attributes;  /* raw attribute bits (legacy: the attribute byte) */
    enum ss_codec codec; /* or the raw id (0..7) when unknown */
    enum ss_tstype timestamp_type;
    bool transactional, control, has_delete_horizon;
    int64_t delete_horizon_ms;      /* valid when has_delete_horizon */
    int32_t partition_leader_epoch; /* -1 for legacy */
    int64_t producer_id;
    int16_t producer_epoch;
    int32_t base_sequence, last_sequence;
    int64_t base_timestamp; /* v2 only (the stored field) */
    int64_t max_timestamp;  /* legacy: the message timestamp (-1 for v0) */
    uint32_t crc;           /* stored */
    uint32_t crc_computed;
    bool crc_valid;      /* Kafka's isValid() */
    const uint8_t *data; /* the whole entry, `size` bytes */
    /* legacy: the messages an entry holds (1 for an uncompressed one), counted
     * when a compressed wrapper was decompressed to find its first inner
     * offset (a decoder was given; its CRC need not be valid, as in Kafka's
     * DeepRecordsIterator); -1 when not known, and
     * for v2 (count says it) */
    int32_t legacy_inner_count;
} ss_batch;

/* ---- segment files ----------------------------------------------------- */

typedef struct ss_segment ss_segment;

/* Open a file read-only and map it. Never creates or writes. */
SS_API ss_errkind ss_segment_open(const char *path, ss_segment **out, ss_error *err);
/* Wrap bytes in memory (stdin, fuzzing). The memory must outlive the segment;
 * copy=true makes the segment own a private copy. */
SS_API ss_errkind ss_segment_from_memory(const uint8_t *data, size_t len, bool copy, ss_segment **out, ss_error *err);
SS_API void ss_segment_close(ss_segment *s);
SS_API uint64_t ss_segment_size(const ss_segment *s);
SS_API const uint8_t *ss_segment_data(const ss_segment *s);
/* Drop mapped pages below `upto` from memory (they are re-read from the page cache if touched again). */
SS_API void ss_segment_release(ss_segment *s, uint64_t upto);
/* Copy up to n bytes from byte `pos` of the segment (as it was when opened) into buf,
 * with pread(2) for an opened file (no page of the mapping is touched: sequential reading
 * through a small reused buffer costs far less than mapping every page) and memcpy for
 * one in memory. Returns the bytes copied: fewer than n past the size at open, or when
 * the file was cut (then the walker over the mapping reports the cut). Thread-safe. */
SS_API size_t ss_segment_read(const ss_segment *s, uint64_t pos, void *buf, size_t n);

/* ---- walker ------------------------------------------------------------ */

typedef enum ss_event_kind {
    SS_EV_BATCH = 1, /* ev.batch is valid (crc_valid may be false) */
    SS_EV_DAMAGE,    /* ev.err: mid-file damage; the walker has resynced past it */
    SS_EV_END        /* ev.end_* valid; walking is over */
} ss_event_kind;

typedef struct ss_event {
    ss_event_kind kind;
    ss_batch batch;
    /* DAMAGE: the damage (SS_E_SHRUNK: the file was cut while it was read, at
     * err.position); END: a notice or kind SS_E_OK (SS_E_GREW: the file grew
     * while it was read, only the err.position bytes it had at open were read) */
    ss_error err;
    /* END */
    uint64_t file_size;
    uint64_t end_of_last_batch;
    uint64_t tail_bytes;  /* unread bytes after the last batch */
    ss_errkind tail_kind; /* SS_E_OK, SS_E_INCOMPLETE_TAIL or SS_E_ZERO_TAIL */
} ss_event;

/* The walker over one segment: where it is, what it met. Opaque; one walker
 * per segment read (no allocation per batch). */
typedef struct ss_walker ss_walker;

/* A walker over s from its start. limit: read at most this many bytes of the
 * file (kafka-dump-log's --max-bytes); UINT64_MAX for all. NULL when out of
 * memory. The segment must outlive the walker. */
SS_API ss_walker *ss_walker_new(const ss_segment *s, uint64_t limit);
SS_API void ss_walker_free(ss_walker *w);
/* Next event. After SS_EV_END, keeps returning SS_EV_END. */
SS_API ss_event_kind ss_walker_next(ss_walker *w, ss_event *ev);
/* Give the walker a decoder (needed for the base offset of legacy compressed wrappers). */
SS_API void ss_walker_set_decoder(ss_walker *w, ss_decoder *d);
/* Bytes of the damage events returned so far (their lengths summed). */
SS_API uint64_t ss_walker_damaged_bytes(const ss_walker *w);

/* The walker's copying path, for reading a whole file in order (dump, verify,
 * diff): a batch that is whole and passes its CRC is copied with pread(2) into
 * the window and parsed there, without touching the mapping, whose first touch
 * of every page costs more than copying it (several times more on a virtual
 * machine). Anything else (damage, a tail, the end, a file cut or grown while
 * it is read) is ss_walker_next's, over the mapping, reported exactly as it
 * would be, and so is every event when the walker's test hook
 * (segscan/test_hooks.h) is set. The events are those of
 * ss_walker_next; a batch event's data points into the window and stays valid
 * until the next call. Zero-initialise the window; free it with ss_window_free. */
typedef struct ss_window {
    uint8_t *buf; /* bytes [at, at + len) of the segment numbered seg_id */
    size_t cap, len;
    uint64_t at;
    uint64_t seg_id; /* a window may go on to another segment */
    /* 0, or where the reader's part of the segment ends (a unit of the analysis or the export):
     * a fill below it reads no further than it, unless the entry needs more (the bytes past it
     * are the next unit's, read by another thread) */
    uint64_t read_to;
} ss_window;
SS_API ss_event_kind ss_walker_next_copy(ss_walker *w, ss_window *win, ss_event *ev);
SS_API void ss_window_free(ss_window *win);

/* Parse a batch header at data[0..avail). Fills b (without CRC check when check_crc is false).
 * Returns SS_E_OK, or an error kind with err filled. Used by the walker and by index checks. */
SS_API ss_errkind ss_batch_parse(const uint8_t *data, uint64_t avail, uint64_t position, bool check_crc, ss_decoder *d,
                                 ss_batch *b, ss_error *err);

#ifdef __cplusplus
}
#endif
#endif
