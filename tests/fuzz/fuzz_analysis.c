/* Fuzz target: the analysis (include/segscan/analyze.h) of one walked segment.
 *
 * Input: a whole .log segment, analysed as partition "t-0" held in memory
 * (ss_inputs_add_memory), with duplicates by value, key or key+value (the last
 * byte picks) and an explain match on a value containing the first byte. Every
 * result is read back, and every copy of every group is fetched from the
 * segment again (ss_an_fetch).
 */
#include "fuzz_common.h"
#include "segscan/analyze.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ss_inputs *in = ss_inputs_new(false);
    if (!in) abort();
    if (ss_inputs_add_memory(in, "t-0", data, size) != SS_E_OK) { ss_inputs_free(in); return 0; }
    ss_inputs_finish(in);
    ss_an_opts o;
    ss_an_opts_default(&o);
    o.by = size ? data[size - 1] % 3 : SS_BY_VALUE;
    o.max_batch_bytes = 1u << 20;
    uint8_t needle = size ? data[0] : 0;
    o.match = SS_MATCH_VALUE_CONTAINS;
    o.match_bytes = &needle;
    o.match_len = 1;
    o.max_matches = 50;
    ss_analysis *a = ss_analysis_new(&o);
    if (!a) abort();
    ss_errkind k = ss_analysis_run(a, in);
    FUZZ_CHECK(k == SS_E_OK || k == SS_E_NOMEM);
    const ss_an_totals *t = ss_an_totals_get(a);
    FUZZ_CHECK(t->damaged_bytes + t->tail_bytes <= size);
    for (size_t p = 0; p < ss_an_partition_count(a); p++) {
        const ss_an_partition *P = ss_an_partition_at(a, p);
        FUZZ_CHECK(P->damaged_bytes <= size);
    }
    size_t ng = ss_an_group_count(a);
    for (size_t g = 0; g < ng && g < 64; g++) {
        const ss_an_group *G = ss_an_group_at(a, g);
        FUZZ_CHECK(G->copies >= 2 && G->original < G->copies);
        for (size_t j = 0; j < G->copies && j < 16; j++) {
            ss_an_copy c;
            ss_record r;
            ss_error err;
            ss_an_group_copy(a, g, j, &c);
            if (ss_an_fetch(a, &c, &r, &err) == 1) {
                fuzz_touch(r.key, r.key_len);
                fuzz_touch(r.value, r.value_len);
            }
        }
    }
    for (size_t i = 0; i < ss_an_session_count(a); i++) {
        const ss_an_session *s = ss_an_session_at(a, i);
        for (size_t j = 0; j < s->nranges; j++) fuzz_sink += (uint32_t)s->ranges[j].first;
        for (size_t j = 0; j < s->ngaps; j++) fuzz_sink += (uint32_t)s->gaps[j].from;
    }
    for (size_t i = 0; i < ss_an_txn_count(a); i++) fuzz_sink += (uint32_t)ss_an_txn_at(a, i)->result;
    for (size_t i = 0; i < ss_an_damage_count(a); i++)
        FUZZ_CHECK(memchr(ss_an_damage_at(a, i)->err.msg, 0, sizeof ss_an_damage_at(a, i)->err.msg) != NULL);
    for (size_t i = 0; i < ss_an_match_count(a); i++) {
        const ss_an_match *m = ss_an_match_at(a, i);
        ss_record r;
        ss_error err;
        if (ss_an_fetch(a, &m->copy, &r, &err) == 1) fuzz_touch(r.value, r.value_len);
    }
    ss_analysis_free(a);
    ss_inputs_free(in);
    return 0;
}
