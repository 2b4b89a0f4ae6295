/* Fuzz target: the text files of a log directory, read and checked. Input:
 * one byte choosing the kind, modulo 9 (0 recovery-point-offset-checkpoint,
 * 1 leader-epoch-checkpoint, 2 partition.metadata, 3 meta.properties,
 * 4 quorum-state, 5 .kafka_cleanshutdown, 6 replication-offset-checkpoint,
 * 7 log-start-offset-checkpoint, 8 cleaner-offset-checkpoint), then the text
 * (not NUL-terminated). A file that reads is then checked, against spans
 * made up from its first bytes. */
#include "fuzz_common.h"
#include "segscan/files.h"

static const ss_text_kind kinds[9] = {
    SS_TEXT_RECOVERY_POINT,     SS_TEXT_LEADER_EPOCH,     SS_TEXT_PARTITION_METADATA,
    SS_TEXT_META_PROPERTIES,    SS_TEXT_QUORUM_STATE,     SS_TEXT_CLEAN_SHUTDOWN,
    SS_TEXT_REPLICATION_OFFSET, SS_TEXT_LOG_START_OFFSET, SS_TEXT_CLEANER_OFFSET,
};

static bool span_of(void *arg, const char *topic, int32_t partition, ss_log_span *out) {
    const uint8_t *seed = arg;
    memset(out, 0, sizeof *out);
    if ((topic[0] ^ partition ^ seed[0]) & 1) return false;
    out->known = true;
    out->start = (int64_t)(seed[1] % 16);
    out->end = out->start + (int64_t)(seed[2] % 64);
    out->last_epoch = (int32_t)(seed[3] % 8) - 1;
    return true;
}

static void on_finding(void *arg, const ss_text_finding *f) {
    (void)arg;
    FUZZ_CHECK(f->check != NULL);
    FUZZ_CHECK(memchr(f->problem.msg, 0, sizeof f->problem.msg) != NULL);
    FUZZ_CHECK(f->problem.severity == SS_SEV_NOTICE || f->problem.severity == SS_SEV_WARNING);
    fuzz_sink += (uint32_t)f->problem.position;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    ss_text_kind kind = kinds[data[0] % 9];
    char *text = (char *)fuzz_dup(data + 1, size - 1);
    ss_error err;
    ss_textfile f;
    ss_errkind k = ss_textfile_parse(text, size - 1, kind, "/fuzz/file", &f, &err);
    if (k == SS_E_OK) {
        if (kind == SS_TEXT_PARTITION_METADATA)
            FUZZ_CHECK(memchr(f.pm.topic_id_str, 0, sizeof f.pm.topic_id_str) != NULL);
        for (size_t i = 0; i < f.ckpt.n; i++) {
            if (f.ckpt.offsets) fuzz_sink += (uint32_t)strlen(f.ckpt.offsets[i].topic);
            else fuzz_sink += (uint32_t)f.ckpt.epochs[i].epoch;
            FUZZ_CHECK(f.line_pos[i] < size);
        }
        for (size_t i = 0; i < f.meta.nprops; i++) {
            fuzz_sink += (uint32_t)strlen(f.meta.props[i].key) + (uint32_t)strlen(f.meta.props[i].value);
            FUZZ_CHECK(f.meta.props[i].position < size);
        }
        uint8_t seed[4] = {0};
        memcpy(seed, data, size < 4 ? size : 4);
        ss_log_span own = {.known = true, .start = seed[1] % 16, .end = seed[2] % 64, .last_epoch = seed[3] % 8};
        ss_textfile_check(&f, &own, span_of, seed, on_finding, NULL);
    } else {
        FUZZ_CHECK(k == SS_E_BAD_CHECKPOINT || k == SS_E_NOMEM);
        FUZZ_CHECK(memchr(err.msg, 0, sizeof err.msg) != NULL);
        FUZZ_CHECK(err.position <= size);
    }
    ss_textfile_free(&f);
    free(text);
    return 0;
}
