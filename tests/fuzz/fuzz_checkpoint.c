/* Fuzz target: checkpoint text parsers. Input: one byte (0 offsets checkpoint,
 * 1 leader-epoch-checkpoint, 2 partition.metadata, modulo 3), then the text
 * (not NUL-terminated). */
#include "fuzz_common.h"
#include "segscan/files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    int which = data[0] % 3;
    char *text = (char *)fuzz_dup(data + 1, size - 1);
    ss_error err;
    if (which == 2) {
        ss_partition_metadata pm;
        if (ss_partition_metadata_parse(text, size - 1, "/fuzz/partition.metadata", &pm, &err) == SS_E_OK)
            FUZZ_CHECK(memchr(pm.topic_id_str, 0, sizeof pm.topic_id_str) != NULL);
    } else {
        ss_checkpoint c;
        ss_checkpoint_kind kind = which == 0 ? SS_CKPT_OFFSETS : SS_CKPT_LEADER_EPOCH;
        ss_errkind k = ss_checkpoint_parse(text, size - 1, kind, "/fuzz/checkpoint", &c, &err);
        if (k == SS_E_OK) {
            for (size_t i = 0; i < c.n; i++) {
                if (kind == SS_CKPT_OFFSETS) fuzz_sink += (uint32_t)strlen(c.offsets[i].topic);
                else fuzz_sink += (uint32_t)c.epochs[i].epoch;
            }
        } else {
            FUZZ_CHECK(k == SS_E_BAD_CHECKPOINT || k == SS_E_NOMEM);
            FUZZ_CHECK(memchr(err.msg, 0, sizeof err.msg) != NULL);
        }
        ss_checkpoint_free(&c);
    }
    free(text);
    return 0;
}
