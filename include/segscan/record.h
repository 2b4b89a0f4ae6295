/* segscan - the records of a batch: the decoder (codec contexts and a reused
 * buffer), the iteration over a batch's records, their headers.
 */
#ifndef SEGSCAN_RECORD_H
#define SEGSCAN_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/segment.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- records ---------------------------------------------------------- */

typedef struct ss_record {
    int64_t offset;
    int64_t timestamp;
    int32_t sequence; /* -1 without producer */
    int32_t size;     /* Kafka's sizeInBytes */
    uint8_t attributes;
    int32_t key_len; /* -1: null */
    const uint8_t *key;
    int32_t value_len; /* -1: null */
    const uint8_t *value;
    int32_t header_count;
    const uint8_t *headers; /* raw header bytes, iterate with ss_header_next */
    size_t headers_len;
    /* legacy (magic 0/1) */
    int8_t legacy_magic; /* -1 for v2 records */
    uint8_t legacy_attributes;
    uint32_t legacy_crc;
    bool legacy_crc_valid;
    enum ss_tstype legacy_timestamp_type;
    /* control records (control batches) */
    int16_t control_version;   /* key version */
    int16_t control_type;      /* -1 when not a control record */
    int32_t coordinator_epoch; /* ABORT/COMMIT only, else -1 */
} ss_record;

typedef struct ss_header {
    int32_t key_len;
    const uint8_t *key;
    int32_t value_len; /* -1: null */
    const uint8_t *value;
} ss_header;

/* Iterate headers: *pos starts at 0. Returns 1 with a header, 0 at the end.
 * Headers were validated when the record was decoded. */
SS_API int ss_header_next(const ss_record *r, size_t *pos, ss_header *h);

/* ---- decoder: records of one batch ----------------------------------- */

typedef struct ss_decoder ss_decoder;

/* A decoder owns the codec contexts and the reused decompression buffer.
 * One per thread. max_batch_bytes caps the decompressed size of a batch. */
SS_API ss_decoder *ss_decoder_new(size_t max_batch_bytes);
SS_API void ss_decoder_free(ss_decoder *d);

/* The iteration over one batch's records. The caller holds it (nothing is
 * allocated per batch; it may be copied to resume from a record later);
 * what it holds is the library's. */
typedef struct ss_rec_iter {
    void *opaque_[8];
} ss_rec_iter;

/* Prepare to iterate the records of b (decompressing if needed).
 * Returns SS_E_OK or an error (err filled: DECOMPRESS, TOO_LARGE, BAD_BATCH, ...). */
SS_API ss_errkind ss_records_begin(ss_decoder *d, const ss_batch *b, ss_rec_iter *it, ss_error *err);
/* Returns 1 and fills r, 0 at the end, -1 on error (err filled; iteration stops). */
SS_API int ss_records_next(ss_rec_iter *it, ss_record *r, ss_error *err);

#ifdef __cplusplus
}
#endif
#endif
