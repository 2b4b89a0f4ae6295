/* segscan - Kafka's message schemas as tables (internal to the library).
 *
 * kafka_messages.c, written by tools/gen_kafka_messages.py from Kafka's message
 * definitions (*.json), holds one kstruct per struct as it is read in the
 * versions it can be read in, and one kmsg per top-level message. The decoder
 * (internal_topics.c) reads a message with them as Kafka's generated readers
 * do and builds the node tree that the JSON converters' output is rendered
 * from.
 *
 * Version bounds are what the generated code checks at run time (Kafka's
 * VersionConditional): a field is read when lo <= version <= hi, where a bound
 * that Kafka does not check is INT16_MIN or INT16_MAX; lo > hi means never.
 */
#ifndef SEGSCAN_KMSG_H
#define SEGSCAN_KMSG_H

#include <stdint.h>

enum ktype {
    KT_BOOL,
    KT_I8,
    KT_I16,
    KT_U16,
    KT_I32,
    KT_U32,
    KT_I64,
    KT_F64,
    KT_UUID,
    KT_STR,
    KT_BYTES,
    KT_RECORDS,
    KT_STRUCT,
};

#define KF_ARRAY 1u  /* an array of the type */
#define KF_TAGGED 2u /* tagged (in tlo..thi): read from the tagged-field section, written only when not default */

enum kdefault {
    KD_ZERO = 0, /* the type's own default: 0, false, "", empty, the zero uuid, a struct of defaults */
    KD_NULL,     /* null */
    KD_INT,      /* dint (bool: 0/1) */
    KD_STR,      /* dstr */
};

typedef struct kstruct kstruct;

typedef struct kfield {
    const char *name; /* as the JSON converters write it (lowerCaseFirst of the schema's name) */
    uint8_t type;     /* enum ktype (of the elements with KF_ARRAY) */
    uint8_t flags;
    int16_t lo, hi;   /* read in these versions */
    int16_t nlo, nhi; /* null allowed in these versions */
    int16_t xlo, xhi; /* compact (flexible) encoding in these versions */
    int16_t tlo, thi; /* KF_TAGGED: tagged in these versions (read in the body in the others) */
    int16_t tag;      /* KF_TAGGED: its tag */
    uint8_t dkind;    /* the default (enum kdefault): a tagged field equal to it is not written */
    int64_t dint;
    const char *dstr;
    const kstruct *sub; /* KT_STRUCT */
} kfield;

struct kstruct {
    const char *name; /* Kafka's name of the struct */
    const kfield *f;
    uint16_t n;
    int16_t xlo, xhi; /* the tagged-field section is read in these versions */
};

typedef struct kmsg {
    const char *name;      /* e.g. "OffsetCommitValue", "TopicRecord" */
    const char *type_name; /* metadata records: MetadataRecordType's constant, e.g. "TOPIC_RECORD" */
    int16_t api_key;       /* metadata and remote-log-metadata records; -1 otherwise */
    int16_t vlo, vhi;      /* validVersions */
    const kstruct *s;
    /* One version, two layouts (a preview message that Kafka changed without a
     * new version): the name of this layout ("4.1+", "4.0") and the other one,
     * which the decoder tries too; NULL when the message has one layout. */
    const char *layout;
    const struct kmsg *alt;
} kmsg;

/* By record type (the key's version prefix) or apiKey; NULL when unknown. */
const kmsg *kmsg_group_key(int type);
const kmsg *kmsg_group_value(int type);
const kmsg *kmsg_share_key(int type);
const kmsg *kmsg_share_value(int type);
const kmsg *kmsg_txn_key(int type);
const kmsg *kmsg_txn_value(int type);
const kmsg *kmsg_metadata(int api_key);
const kmsg *kmsg_remote(int api_key);

extern const kmsg *const kmsg_ConsumerProtocolSubscription;
extern const kmsg *const kmsg_ConsumerProtocolAssignment;
extern const kmsg *const kmsg_LeaderChangeMessage;
extern const kmsg *const kmsg_SnapshotHeaderRecord;
extern const kmsg *const kmsg_SnapshotFooterRecord;
extern const kmsg *const kmsg_KRaftVersionRecord;
extern const kmsg *const kmsg_VotersRecord;

#endif
