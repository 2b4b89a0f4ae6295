/* segscan - Kafka's internal topics: the records of __consumer_offsets,
 * __transaction_state, __share_group_state, __cluster_metadata (and KRaft
 * snapshots) and __remote_log_metadata; the coordinator partition of a group
 * or transactional id; the transactional ids of producer ids.
 *
 * Records are decoded as Kafka 4.2's kafka-dump-log.sh decodes them
 * (DumpLogSegments' message parsers): coordinator records (CoordinatorRecordSerde)
 * as a key (record type int16 + key message read with that type as its
 * version) and a value (version int16 + value message), a null value being a
 * tombstone; cluster metadata and remote log metadata (AbstractApiMessageSerde)
 * as a frame version, apiKey and version, then the message. Messages are read
 * as Kafka's generated readers read them (every field type, flexible versions,
 * tagged fields) into a small tree in the order Kafka's generated JSON
 * converters write them, which a caller renders (the CLI as Jackson prints
 * it) or reads with the ss_jnode_* functions. For a group whose protocolType
 * is "consumer", each member's subscription and assignment bytes are replaced
 * by their decoded form, as DumpLogSegments does (kept as bytes when that fails).
 *
 * Record types decoded (kafka_records.h names them): __consumer_offsets 0-23
 * (offset commits, classic group metadata, the consumer-group records of
 * KIP-848 with the regular expression record, the share-group records of
 * KIP-932 with Kafka 4.0's type 9, the streams-group records of KIP-1071 with
 * the early type 18), __transaction_state 0, __share_group_state 0-1
 * (ShareSnapshot, ShareUpdate), every MetadataRecordType of Kafka 4.2, the
 * four remote log metadata records and the KRaft control records; the schemas
 * are Kafka 4.2's (tools/kafka-schemas/), with Kafka 4.0's layouts of the
 * messages that changed without a new version. Other types are reported with
 * Kafka's "Unknown record type" text.
 *
 * Decoding allocates nothing per record: the nodes live in the decoder and are
 * reused (valid until the next decode with the same decoder).
 */
#ifndef SEGSCAN_DECODE_H
#define SEGSCAN_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/inputs.h"
#include "segscan/kafka_records.h"
#include "segscan/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- decoded messages ---------------------------------------------------------- */

enum ss_jkind {
    SS_J_NULL = 0,
    SS_J_BOOL,
    SS_J_INT,    /* int8, int16, int32, int64 */
    SS_J_STRING, /* str/len: the bytes as stored; Kafka decodes them as UTF-8 with replacement */
    SS_J_BYTES,  /* str/len: raw bytes; Kafka's JSON writes them in base64 */
    SS_J_ARRAY,
    SS_J_OBJECT,
    SS_J_UUID,  /* str/len: the 16 bytes; Kafka's JSON writes Uuid.toString() (ss_uuid_string) */
    SS_J_FLOAT, /* dbl: a float64 */
};

/* One node of a decoded message. Index 0 of the node array is never a real
 * node, so 0 means "none" in first/next. */
typedef struct ss_jnode {
    int kind;           /* enum ss_jkind */
    const char *name;   /* member name inside an object (camelCase as Kafka's JSON), NULL in an array */
    int64_t num;        /* SS_J_INT, SS_J_BOOL (0/1) */
    double dbl;         /* SS_J_FLOAT */
    const uint8_t *str; /* SS_J_STRING, SS_J_BYTES: points into the record or the decoder */
    size_t len;
    uint32_t first; /* SS_J_ARRAY, SS_J_OBJECT: first child, 0 when empty */
    uint32_t next;  /* next sibling, 0 at the end */
} ss_jnode;

enum ss_ctopic_kind {
    SS_CTOPIC_OFFSETS = 1,             /* __consumer_offsets (--offsets-decoder) */
    SS_CTOPIC_TXN_LOG = 2,             /* __transaction_state (--transaction-log-decoder) */
    SS_CTOPIC_SHARE_STATE = 3,         /* __share_group_state (--share-group-state-decoder) */
    SS_CTOPIC_CLUSTER_METADATA = 4,    /* __cluster_metadata, KRaft snapshots (--cluster-metadata-decoder) */
    SS_CTOPIC_REMOTE_LOG_METADATA = 5, /* __remote_log_metadata (--remote-log-metadata-decoder) */
};

enum ss_cdec_status {
    SS_CDEC_OK = 0,       /* key (and value unless tombstone) decoded */
    SS_CDEC_UNKNOWN_TYPE, /* message: "Unknown record type T at offset O, skipping." */
    SS_CDEC_ERROR,        /* message: "Error at offset O, skipping. <reason>" ("Error at O" for cluster metadata) */
    SS_CDEC_NO_KEY,       /* a record without a key: Kafka's tool dies on it; message says why */
};

/* A tagged field that the schema does not know (a newer Kafka's field): kept by
 * Kafka's reader, left out by its JSON converters; segscan lists it. */
typedef struct ss_unknown_tag {
    const char *in; /* the struct it was read in, e.g. "ShareUpdateValue", "TopicPartitions" */
    uint32_t tag;
    const uint8_t *bytes; /* points into the record */
    size_t len;
} ss_unknown_tag;

/* Where one value version has two layouts (preview messages Kafka changed
 * without a new version: ShareGroupMetadataValue, ShareGroupStatePartitionMetadataValue,
 * ShareSnapshotValue, ShareUpdateValue of Kafka 4.0 against 4.1+), which one read the value. */
enum ss_layout_status {
    SS_LAYOUT_ONE = 0,   /* the message has one layout */
    SS_LAYOUT_CHOSEN,    /* exactly one layout consumed the value's bytes: layout names it */
    SS_LAYOUT_AMBIGUOUS, /* both did: the record is an error, its bytes are kept */
    SS_LAYOUT_NEITHER,   /* neither did: the record is an error, its bytes are kept */
};

typedef struct ss_cdecoded {
    int status;             /* enum ss_cdec_status */
    int16_t record_type;    /* coordinator records: the key's first int16, -1 when the key is shorter;
                                 cluster / remote log metadata: the apiKey; control records: the control type */
    bool known_to_kafka;    /* unused: every record type Kafka 4.0 decodes is decoded (always false) */
    const char *key_name;   /* the key message, e.g. "OffsetCommitKey"; NULL when none */
    const char *value_name; /* the value message, e.g. "OffsetCommitValue", "TopicRecord"; NULL when none */
    const char *type_name;  /* cluster metadata: MetadataRecordType's name, e.g. "TOPIC_RECORD"; else NULL */
    bool tombstone;         /* null value: Kafka prints <DELETE> */
    int16_t value_version;  /* the value's version; -1 for a tombstone */
    const ss_jnode *nodes;  /* valid until the next decode with the same decoder */
    uint32_t key;           /* the key message object, 0 when none */
    uint32_t value;         /* the value message object, 0 when none */
    int layout_status;      /* enum ss_layout_status */
    const char *layout;     /* SS_LAYOUT_CHOSEN: the layout read, e.g. "4.0", "4.1+"; else NULL */
    const char *layouts[2]; /* SS_LAYOUT_CHOSEN/AMBIGUOUS/NEITHER: the two layouts' names, the newest first */
    const ss_unknown_tag *unknown_tags; /* tagged fields the schema does not know, in read order */
    size_t n_unknown_tags;
    char message[512];
} ss_cdecoded;

typedef struct ss_cdecoder ss_cdecoder;

SS_API ss_cdecoder *ss_cdecoder_new(void);
SS_API void ss_cdecoder_free(ss_cdecoder *d);
/* Decode one record of an internal topic (kind: enum ss_ctopic_kind). Returns
 * out->status. Running out of memory is reported as SS_CDEC_ERROR with an "out
 * of memory" message. A record whose value Kafka refuses for its version
 * (KAFKA-18672) is SS_CDEC_ERROR with Kafka's message. A key or value whose
 * bytes its schema does not consume exactly is SS_CDEC_ERROR too (Kafka's
 * reader ignores what follows); so is a value of two layouts that both or
 * neither read exactly (layout_status). */
SS_API int ss_cdecode(ss_cdecoder *d, int kind, const ss_record *r, ss_cdecoded *out);

/* Decode the value of a KRaft control record (a record of a control batch
 * whose control_type is LEADER_CHANGE, SNAPSHOT_HEADER, SNAPSHOT_FOOTER,
 * KRAFT_VERSION or KRAFT_VOTERS) into out->value, as ControlRecordUtils reads
 * it (LeaderChangeMessage, SnapshotHeaderRecord, SnapshotFooterRecord,
 * KRaftVersionRecord, VotersRecord at version 0). SS_CDEC_UNKNOWN_TYPE for
 * other control types; SS_CDEC_ERROR when the value cannot be read. */
SS_API int ss_cdecode_control(ss_cdecoder *d, const ss_record *r, ss_cdecoded *out);

/* Reading a decoded message. Node 0 means "none"; every function accepts it
 * (and a node of another kind) and then returns 0 / false.
 *   ss_jnode_member: the member of an object by its name (as Kafka's JSON
 *     writes it, e.g. "groupId"), 0 when absent (a tagged field at its default
 *     is absent, as in Kafka's JSON);
 *   ss_jnode_int: an integer or boolean node's value;
 *   ss_jnode_str: a string node's bytes (not NUL-terminated, as stored);
 *   ss_jnode_count: the elements of an array (members of an object).
 * Arrays and objects are walked with nodes[x].first / nodes[c].next. */
SS_API uint32_t ss_jnode_member(const ss_jnode *nodes, uint32_t obj, const char *name);
SS_API bool ss_jnode_int(const ss_jnode *nodes, uint32_t x, int64_t *v);
SS_API bool ss_jnode_str(const ss_jnode *nodes, uint32_t x, const uint8_t **p, size_t *len);
SS_API size_t ss_jnode_count(const ss_jnode *nodes, uint32_t arr);
/* Kafka's Uuid.toString(): URL-safe base64 of the 16 bytes, no padding (22 characters + NUL). */
SS_API void ss_uuid_string(const uint8_t id[16], char out[23]);

/* The name Kafka gives a transaction state id (TransactionState), or NULL. */
SS_API const char *ss_txn_state_name(int id);

/* ---- coordinators ----------------------------------------------------------------- */

/* Java's String.hashCode of the UTF-8 text id[0..len): s[0]*31^(n-1) + ... +
 * s[n-1] over UTF-16 code units, int arithmetic. Malformed UTF-8 decodes to
 * U+FFFD as Java's decoder does. */
SS_API int32_t ss_java_string_hash(const uint8_t *id, size_t len);
/* Kafka's Utils.abs(id.hashCode()) % partitions (Utils.abs maps
 * Integer.MIN_VALUE to 0). partitions must be > 0; -1 otherwise. */
SS_API int32_t ss_coordinator_partition(const uint8_t *id, size_t len, int32_t partitions);

/* ---- transactional ids of producer ids ----------------------------------------------- */

typedef struct ss_txn_id {
    int64_t producer_id;
    int16_t producer_epoch;       /* the epoch of the latest record naming this pid */
    const char *transactional_id; /* NUL-terminated copy of the stored bytes (may contain invalid UTF-8) */
    size_t transactional_id_len;
    int state;          /* TransactionState id of that record (ss_txn_state_name) */
    uint32_t partition; /* index of the __transaction_state input partition */
    int64_t offset;     /* offset of that record */
} ss_txn_id;

typedef struct ss_txn_ids ss_txn_ids;

/* Read every __transaction_state partition among the inputs (topic name
 * "__transaction_state") and collect producer id -> transactional.id: the
 * producerId of each transaction metadata record, and its previousProducerId /
 * nextProducerId when set. When several records name one pid, the latest
 * (partition order, then offset) wins; a tombstone does not remove a pid.
 * Damaged batches are skipped. Returns SS_E_OK (possibly with no entries) or
 * SS_E_NOMEM; *out is always set and must be freed with ss_txn_ids_free. */
SS_API ss_errkind ss_txn_state_ids(const ss_inputs *in, ss_txn_ids **out, ss_error *err);
SS_API size_t ss_txn_ids_count(const ss_txn_ids *t);
/* Entries sorted by producer id. */
SS_API const ss_txn_id *ss_txn_ids_at(const ss_txn_ids *t, size_t i);
/* The entry of a producer id, or NULL. */
SS_API const ss_txn_id *ss_txn_ids_find(const ss_txn_ids *t, int64_t producer_id);
SS_API void ss_txn_ids_free(ss_txn_ids *t);

/* What the transaction coordinator knows of a transactional id: the latest record of its key
 * among the __transaction_state partitions read (partition order, then offset), as
 * TransactionStateManager loads them (a tombstone removes the id). */
typedef struct ss_txn_partition {
    const char *topic; /* NUL-terminated copy of the stored bytes */
    int32_t partition;
} ss_txn_partition;

typedef struct ss_txn_state {
    const char *transactional_id; /* NUL-terminated copy of the stored bytes */
    size_t transactional_id_len;
    int64_t producer_id; /* its current producer id */
    int16_t producer_epoch;
    int state; /* TransactionState id (ss_txn_state_name), -1 when the record has none */
    /* transactionPartitions: the partitions of its transaction (empty once it is complete) */
    const ss_txn_partition *partitions;
    size_t npartitions;
    uint32_t partition; /* index of the __transaction_state input partition */
    int64_t offset;     /* offset of that record */
} ss_txn_state;

/* The transactional id whose latest state has producer_id as its current producer id (what
 * the Admin client's listTransactions finds with filterProducerIds), or NULL. */
SS_API const ss_txn_state *ss_txn_ids_state(const ss_txn_ids *t, int64_t producer_id);
/* Does the state list topic-partition among its transaction's partitions? */
SS_API bool ss_txn_state_lists(const ss_txn_state *s, const char *topic, int32_t partition);

#ifdef __cplusplus
}
#endif
#endif
