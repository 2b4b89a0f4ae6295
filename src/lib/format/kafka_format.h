/* segscan - Kafka's on-disk framing constants (internal), written once for
 * every room that reads a log entry's header.
 *
 * From clients/src/main/java/org/apache/kafka/common/record/: Records.java
 * (LOG_OVERHEAD, the offset and size every entry starts with, and the magic
 * after them), DefaultRecordBatch.java (the v2 header's fields and
 * RECORD_BATCH_OVERHEAD; the attribute bits) and LegacyRecord.java (the v0/v1
 * message's RECORD_OVERHEAD). The index files' entry sizes are public:
 * SS_OFFSET_INDEX_ENTRY and SS_TIME_INDEX_ENTRY in segscan/files.h. */
#ifndef SEGSCAN_KAFKA_FORMAT_H
#define SEGSCAN_KAFKA_FORMAT_H

enum {
    /* Records.OFFSET_OFFSET .. LOG_OVERHEAD: baseOffset (int64), length (int32),
     * then Records.MAGIC_OFFSET, in both formats */
    ENTRY_SIZE_OFF = 8,
    LOG_OVERHEAD = 12,
    ENTRY_MAGIC_OFF = 16,
    /* LOG_OVERHEAD, then partitionLeaderEpoch (v2) or crc (v0/v1), then magic:
     * the bytes to read before the magic says which format follows */
    HEADER_UP_TO_MAGIC = 17,
    /* LegacyRecord.RECORD_OVERHEAD_V0 / _V1: crc, magic, attributes, [timestamp,]
     * key length, value length */
    LEGACY_OVERHEAD_V0 = 14,
    LEGACY_OVERHEAD_V1 = 22,
    /* a v0/v1 message after LOG_OVERHEAD: crc (covering magic onwards), magic,
     * attributes (LegacyRecord.CRC_OFFSET, MAGIC_OFFSET, ATTRIBUTES_OFFSET) */
    LEGACY_CRC_OFF = 12,
    LEGACY_ATTR_OFF = 17,
    /* the smallest length field: a v0 message with null key and value */
    MIN_ENTRY = LEGACY_OVERHEAD_V0,
};

/* the v2 header's fields, offsets from the entry's start (DefaultRecordBatch's
 * *_OFFSET constants) */
enum {
    V2_LENGTH_OFF = ENTRY_SIZE_OFF,
    V2_PLE_OFF = 12,
    V2_MAGIC_OFF = ENTRY_MAGIC_OFF,
    V2_CRC_OFF = 17,
    V2_ATTR_OFF = 21,
    V2_LAST_DELTA_OFF = 23,
    V2_BASE_TS_OFF = 27,
    V2_MAX_TS_OFF = 35,
    V2_PID_OFF = 43,
    V2_EPOCH_OFF = 51,
    V2_BASE_SEQ_OFF = 53,
    V2_COUNT_OFF = 57,
    /* RECORD_BATCH_OVERHEAD: the header up to and with recordsCount */
    V2_OVERHEAD = 61,
};

/* the attribute bits: DefaultRecordBatch's COMPRESSION_CODEC_MASK,
 * TIMESTAMP_TYPE_MASK, TRANSACTIONAL_FLAG_MASK, CONTROL_FLAG_MASK,
 * DELETE_HORIZON_FLAG_MASK (v2); LegacyRecord's codec and timestamp type bits
 * are the first two */
enum {
    ATTR_CODEC_MASK = 0x07,
    ATTR_LOG_APPEND_TIME = 0x08,
    ATTR_TRANSACTIONAL = 0x10,
    ATTR_CONTROL = 0x20,
    ATTR_DELETE_HORIZON = 0x40,
};

#endif
