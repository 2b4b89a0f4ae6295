/* segscan - the names of Kafka's framing values, one table each: compression
 * codecs (CompressionType.java), timestamp types (TimestampType.java) and
 * control record types (ControlRecordType.java). */
#include "segscan/segment.h"

const char *ss_codec_name(enum ss_codec codec) {
    static const char *const names[] = {"none", "gzip", "snappy", "lz4", "zstd"};
    return codec >= 0 && codec <= 4 ? names[codec] : NULL;
}

const char *ss_codec_label(int codec) {
    const char *n = ss_codec_name((enum ss_codec)codec);
    return n ? n : "unknown";
}

const char *ss_tstype_name(int t) {
    switch (t) {
    case SS_TS_CREATE: return "CreateTime";
    case SS_TS_LOG_APPEND: return "LogAppendTime";
    default: return "NoTimestampType";
    }
}

const char *ss_control_type_name(int type) {
    static const char *const names[] = {"ABORT",           "COMMIT",        "LEADER_CHANGE", "SNAPSHOT_HEADER",
                                        "SNAPSHOT_FOOTER", "KRAFT_VERSION", "KRAFT_VOTERS"};
    return type >= 0 && type <= 6 ? names[type] : "UNKNOWN";
}
