/* segscan - the error kind table, generated from SS_ERROR_LIST. */
#include "segscan/errors.h"
#include "segscan/segment.h"

typedef struct {
    ss_errkind kind;
    const char *name;
    const char *desc;
    char cls;
} errinfo;

#define SS_ERROR_ROW_(name, num, str, cls, desc) {SS_E_##name, str, desc, #cls[0]},
static const errinfo error_table[] = {SS_ERROR_LIST(SS_ERROR_ROW_)};
#undef SS_ERROR_ROW_

static const errinfo *find(ss_errkind k) {
    for (size_t i = 0; i < sizeof error_table / sizeof error_table[0]; i++)
        if (error_table[i].kind == k) return &error_table[i];
    return NULL;
}

const char *ss_errkind_name(ss_errkind k) {
    const errinfo *e = find(k);
    return e ? e->name : "unknown";
}
const char *ss_errkind_desc(ss_errkind k) {
    const errinfo *e = find(k);
    return e ? e->desc : "unknown error";
}
bool ss_errkind_is_damage(ss_errkind k) {
    const errinfo *e = find(k);
    return e && e->cls == 'D';
}

bool ss_errkind_at(size_t i, ss_errkind *kind, const char **name, const char **desc, char *cls) {
    if (i >= sizeof error_table / sizeof error_table[0]) return false;
    if (kind) *kind = error_table[i].kind;
    if (name) *name = error_table[i].name;
    if (desc) *desc = error_table[i].desc;
    if (cls) *cls = error_table[i].cls;
    return true;
}

const char *ss_codec_name(int codec) {
    static const char *const names[] = {"none", "gzip", "snappy", "lz4", "zstd"};
    return codec >= 0 && codec <= 4 ? names[codec] : NULL;
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
