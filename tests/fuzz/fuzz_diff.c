/* Fuzz target: comparing two logs (include/segscan/diff.h).
 *
 * Input: FLAGS SPLIT[2] DATA. DATA is cut at le16(SPLIT) modulo its length +
 * 1: the bytes before are side A's segment, the rest side B's, each held in
 * memory (ss_inputs_add_memory). A plain segment as a seed compares its first
 * bytes with the rest: a follower cut short, or two halves of one log.
 *
 * FLAGS: bits 0-1 mode (0 auto, 1 offset, 2 and 3 content); 2-3 by (% 3);
 * 4 read_committed; 5 both sides named "t-0" (else A "t-0" and B "u-0",
 * which auto mode compares by content); 6-7 max_items (0, 1, 4, 64).
 *
 * Checks: every pair, range and listed difference is read back, previews
 * byte by byte (ASan: inside what the result owns); no more items or ranges
 * than kept; `identical` agrees with the counts; and in content mode, on one
 * input in four (fuzz_input_hash: an input always gets the same checks), the
 * comparison is symmetric: B against A finds A's missing copies as B's extra
 * ones and the other way round, and the same distinct counts swapped.
 */
#include "fuzz_common.h"
#include "segscan/analyze.h"
#include "segscan/diff.h"

static ss_inputs *side(const char *name, const uint8_t *p, size_t n) {
    ss_inputs *in = ss_inputs_new(false);
    if (!in) abort();
    if (ss_inputs_add_memory(in, name, p, n) != SS_E_OK) abort();
    ss_inputs_finish(in);
    return in;
}

static void read_rec(const ss_diff_rec *r, size_t preview) {
    if (!r->present) return;
    if (r->key && r->key_len > 0) fuzz_touch(r->key, r->key_len < (int64_t)preview ? r->key_len : (int64_t)preview);
    if (r->value && r->value_len > 0)
        fuzz_touch(r->value, r->value_len < (int64_t)preview ? r->value_len : (int64_t)preview);
}

static ss_diff *run(const ss_inputs *a, const ss_inputs *b, const ss_diff_opts *o) {
    ss_diff *d = NULL;
    ss_errkind k = ss_diff_run(a, b, o, &d);
    if (k == SS_E_NOMEM) return NULL;
    FUZZ_CHECK(k == SS_E_OK && d);
    for (size_t i = 0; i < ss_diff_pair_count(d); i++) {
        const ss_diff_pair *p = ss_diff_pair_at(d, i);
        FUZZ_CHECK(p->nitems <= o->max_items && p->nitems <= p->items_total);
        FUZZ_CHECK(p->nranges <= p->ranges_total);
        for (size_t j = 0; j < p->nranges; j++) FUZZ_CHECK(p->ranges[j].from <= p->ranges[j].to);
        for (size_t j = 0; j < p->nitems; j++) {
            read_rec(&p->items[j].a, o->preview_bytes);
            read_rec(&p->items[j].b, o->preview_bytes);
        }
        if (p->mode == SS_DIFF_CONTENT) FUZZ_CHECK(p->identical == (p->missing_in_b == 0 && p->only_in_b == 0));
        else FUZZ_CHECK(!p->identical || (p->only_a == 0 && p->only_b == 0 && p->differing == 0));
    }
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3) return 0;
    uint8_t flags = data[0];
    size_t n = size - 3;
    size_t cut = n ? ((size_t)data[1] | (size_t)data[2] << 8) % (n + 1) : 0;
    const uint8_t *body = data + 3;
    static const size_t items[4] = {0, 1, 4, 64};
    ss_diff_opts o;
    ss_diff_opts_default(&o);
    o.mode = (flags & 3) == 3 ? SS_DIFF_CONTENT : flags & 3;
    o.by = (flags >> 2 & 3) % 3;
    o.read_committed = flags >> 4 & 1;
    o.max_items = items[flags >> 6 & 3];
    o.preview_bytes = 16;
    o.max_batch_bytes = 1 << 20;
    const char *nb = flags & 32 ? "t-0" : "u-0";
    ss_inputs *a = side("t-0", body, cut), *b = side(nb, body + cut, n - cut);
    ss_diff *d = run(a, b, &o);
    /* the comparison the other way round doubles the work of a content-mode input (half of
     * them: modes 2 and 3); one in four keeps it in every short run (tests/fuzz/speed.txt) */
    if (d && o.mode == SS_DIFF_CONTENT && fuzz_input_hash(data, size) % 4 == 0) {
        ss_diff *r = run(b, a, &o);
        if (r) {
            FUZZ_CHECK(ss_diff_pair_count(d) == 1 && ss_diff_pair_count(r) == 1);
            const ss_diff_pair *p = ss_diff_pair_at(d, 0), *q = ss_diff_pair_at(r, 0);
            FUZZ_CHECK(p->missing_in_b == q->only_in_b && p->only_in_b == q->missing_in_b);
            FUZZ_CHECK(p->distinct_a == q->distinct_b && p->distinct_b == q->distinct_a);
            FUZZ_CHECK(p->values_missing_in_b == q->values_only_in_b && p->values_only_in_b == q->values_missing_in_b);
            FUZZ_CHECK(p->a.records == q->b.records && p->b.records == q->a.records);
            ss_diff_free(r);
        }
    }
    ss_diff_free(d);
    ss_inputs_free(a);
    ss_inputs_free(b);
    return 0;
}
