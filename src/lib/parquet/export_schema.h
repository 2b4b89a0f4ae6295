/* segscan - the columns of a segscan export (internal): written by the exports
 * room (exports.c says what each holds), read back by the inputs room
 * (inputs/export_in.c), so that both sides name one schema. Their names are
 * those Kafka Connect's and Spark's Kafka source use for the same fields. */
#ifndef SS_PARQUET_EXPORT_SCHEMA_H
#define SS_PARQUET_EXPORT_SCHEMA_H

#include "segscan/parquet.h"

enum {
    C_TOPIC,
    C_PARTITION,
    C_OFFSET,
    C_TIMESTAMP,
    C_TIMESTAMP_TYPE,
    C_PRODUCER_ID,
    C_PRODUCER_EPOCH,
    C_SEQUENCE,
    C_BASE_OFFSET,
    C_LEADER_EPOCH,
    C_IS_TRANSACTIONAL,
    C_IS_CONTROL,
    C_CONTROL_TYPE,
    C_COORDINATOR_EPOCH,
    C_COMPRESSION,
    C_KEY_SIZE,
    C_VALUE_SIZE,
    C_KEY_FP,
    C_VALUE_FP,
    C_BROKER,
    C_SOURCE,
    C_KEY,
    C_VALUE,
    C_COUNT
};

static const ss_pq_column ss_export_columns[C_COUNT] = {
    [C_TOPIC] = {"topic", SS_PQ_BYTE_ARRAY, true, false, true},
    [C_PARTITION] = {"partition", SS_PQ_INT32, false, false, false},
    [C_OFFSET] = {"offset", SS_PQ_INT64, false, false, false},
    [C_TIMESTAMP] = {"timestamp", SS_PQ_INT64, false, false, false},
    [C_TIMESTAMP_TYPE] = {"timestampType", SS_PQ_BYTE_ARRAY, true, false, true},
    [C_PRODUCER_ID] = {"producerId", SS_PQ_INT64, false, false, false},
    [C_PRODUCER_EPOCH] = {"producerEpoch", SS_PQ_INT32, false, false, false},
    [C_SEQUENCE] = {"sequence", SS_PQ_INT32, false, false, false},
    [C_BASE_OFFSET] = {"baseOffset", SS_PQ_INT64, false, false, false},
    [C_LEADER_EPOCH] = {"leaderEpoch", SS_PQ_INT32, false, false, false},
    [C_IS_TRANSACTIONAL] = {"isTransactional", SS_PQ_BOOLEAN, false, false, false},
    [C_IS_CONTROL] = {"isControl", SS_PQ_BOOLEAN, false, false, false},
    [C_CONTROL_TYPE] = {"controlType", SS_PQ_BYTE_ARRAY, true, false, true},
    [C_COORDINATOR_EPOCH] = {"coordinatorEpoch", SS_PQ_INT32, false, false, false},
    [C_COMPRESSION] = {"compression", SS_PQ_BYTE_ARRAY, true, false, true},
    [C_KEY_SIZE] = {"keySize", SS_PQ_INT32, false, false, false},
    [C_VALUE_SIZE] = {"valueSize", SS_PQ_INT32, false, false, false},
    [C_KEY_FP] = {"keyFingerprint", SS_PQ_INT64, false, true, false},
    [C_VALUE_FP] = {"valueFingerprint", SS_PQ_FIXED16, false, true, false},
    [C_BROKER] = {"broker", SS_PQ_INT32, false, false, false},
    [C_SOURCE] = {"source", SS_PQ_INT32, false, false, false},
    [C_KEY] = {"key", SS_PQ_BYTE_ARRAY, false, false, false},
    [C_VALUE] = {"value", SS_PQ_BYTE_ARRAY, false, false, false},
};

#endif
