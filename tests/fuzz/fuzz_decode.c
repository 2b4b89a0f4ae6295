/* Fuzz target: the record decoders of the internal topics (ss_cdecode for
 * __consumer_offsets, __transaction_state, __share_group_state,
 * __cluster_metadata, __remote_log_metadata; ss_cdecode_control for KRaft
 * control records). Input: one byte b selecting the decoder (kind = b % 6,
 * 0 meaning a KRaft control record whose type is b / 6 % 8), then a
 * big-endian uint16 key length (0xffff: a null key), the key, and the rest as
 * the value (an empty rest after a 0xff marker byte: a null value).
 *
 * Invariants: the message is NUL-terminated; unknown tagged fields point into
 * the record; a value's layout is named exactly when one of its two layouts
 * was chosen, and both or neither is an error; a decoded tree's node indices
 * stay below the nodes the decoder built and every string/bytes/uuid node
 * points into the record's key or value; decoding the same record twice gives
 * the same tree shape (the reused node array).
 */
#include "fuzz_common.h"
#include "segscan/decode.h"

static const uint8_t *g_lo[2], *g_hi[2];

static bool inside(const uint8_t *p, size_t n) {
    if (n == 0) return true;
    for (int i = 0; i < 2; i++)
        if (g_lo[i] && p >= g_lo[i] && p + n <= g_hi[i]) return true;
    return false;
}

/* Walks the tree; returns the number of nodes seen (bounded by limit). */
static size_t walk(const ss_jnode *nodes, uint32_t x, size_t limit, int depth) {
    FUZZ_CHECK(depth < 64);
    size_t seen = 1;
    const ss_jnode *n = &nodes[x];
    switch (n->kind) {
    case SS_J_STRING:
    case SS_J_BYTES:
        FUZZ_CHECK(inside(n->str, n->len));
        fuzz_touch(n->str, (int64_t)n->len);
        break;
    case SS_J_UUID:
        FUZZ_CHECK(n->len == 16 && inside(n->str, 16));
        {
            char u[23];
            ss_uuid_string(n->str, u);
            FUZZ_CHECK(strlen(u) == 22);
        }
        break;
    case SS_J_ARRAY:
    case SS_J_OBJECT:
        for (uint32_t c = n->first; c; c = nodes[c].next) {
            FUZZ_CHECK(seen < limit);
            if (n->kind == SS_J_OBJECT) FUZZ_CHECK(nodes[c].name != NULL);
            seen += walk(nodes, c, limit - seen, depth + 1);
        }
        break;
    default: break;
    }
    return seen;
}

static size_t check(const ss_cdecoded *d) {
    FUZZ_CHECK(memchr(d->message, 0, sizeof d->message) != NULL);
    /* unknown tagged fields point into the record; a layout is named iff one was chosen, and a
     * value that both or neither layout reads is an error */
    for (size_t i = 0; i < d->n_unknown_tags; i++) {
        FUZZ_CHECK(d->unknown_tags[i].in != NULL);
        FUZZ_CHECK(inside(d->unknown_tags[i].bytes, d->unknown_tags[i].len));
        fuzz_touch(d->unknown_tags[i].bytes, (int64_t)d->unknown_tags[i].len);
    }
    FUZZ_CHECK((d->layout != NULL) == (d->layout_status == SS_LAYOUT_CHOSEN));
    if (d->layout_status != SS_LAYOUT_ONE) FUZZ_CHECK(d->layouts[0] != NULL && d->layouts[1] != NULL);
    if (d->layout_status == SS_LAYOUT_AMBIGUOUS || d->layout_status == SS_LAYOUT_NEITHER)
        FUZZ_CHECK(d->status == SS_CDEC_ERROR);
    if (d->layout_status == SS_LAYOUT_CHOSEN) FUZZ_CHECK(d->status == SS_CDEC_OK);
    if (d->status != SS_CDEC_OK) return 0;
    size_t total = 0;
    /* the input bounds the nodes: each node consumes at least one byte or is a
     * default, and a struct has at most 32 fields */
    if (d->key) total += walk(d->nodes, d->key, 1u << 24, 0);
    if (d->value) total += walk(d->nodes, d->value, 1u << 24, 0);
    uint32_t m = ss_jnode_member(d->nodes, d->value, "members");
    fuzz_sink += (uint32_t)ss_jnode_count(d->nodes, m);
    return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3) return 0;
    uint8_t *buf = fuzz_dup(data, size);
    int sel = buf[0] % 6;
    uint8_t ctype = (uint8_t)(buf[0] / 6 % 8);
    size_t pos = 1;
    uint16_t klen = (uint16_t)(buf[pos] << 8 | buf[pos + 1]);
    pos += 2;
    ss_record r;
    memset(&r, 0, sizeof r);
    r.offset = 42;
    r.sequence = -1;
    r.legacy_magic = -1;
    r.control_type = -1;
    r.coordinator_epoch = -1;
    if (klen == 0xffff) {
        r.key_len = -1;
    } else {
        if (klen > size - pos) klen = (uint16_t)(size - pos);
        r.key = buf + pos;
        r.key_len = klen;
        pos += klen;
    }
    if (pos + 1 == size && buf[pos] == 0xff) {
        r.value_len = -1;
    } else {
        r.value = buf + pos;
        r.value_len = (int32_t)(size - pos);
    }
    g_lo[0] = r.key;
    g_hi[0] = r.key ? r.key + (r.key_len > 0 ? r.key_len : 0) : NULL;
    g_lo[1] = r.value;
    g_hi[1] = r.value ? r.value + (r.value_len > 0 ? r.value_len : 0) : NULL;

    ss_cdecoder *cd = ss_cdecoder_new();
    if (!cd) {
        free(buf);
        return 0;
    }
    ss_cdecoded d;
    size_t first;
    if (sel == 0) {
        r.control_type = ctype;
        ss_cdecode_control(cd, &r, &d);
        first = check(&d);
        ss_cdecode_control(cd, &r, &d);
    } else {
        ss_cdecode(cd, sel, &r, &d);
        first = check(&d);
        ss_cdecode(cd, sel, &r, &d);
    }
    FUZZ_CHECK(check(&d) == first);
    ss_cdecoder_free(cd);
    free(buf);
    return 0;
}
