/* Fuzz target: the partition cursor (src/lib/inputs/cursor.h).
 *
 * Input: a whole .log segment (the seeds are real segments), held in memory as
 * a partition of one segment (ss_inputs_add_memory). The last byte picks:
 * bit 0, no decoder (the walker then reads no legacy inner offset and no
 * record is asked for); bits 1-2, stopping after that many record events
 * times 7 (0: never), to close the cursor in the middle of a batch.
 * Invariants: the cursor's events are a plain walker's over the same bytes
 * (ss_walker_next, in lockstep), framed by one SEGMENT and one SEGMENT_END
 * event, then END, which repeats; the records of every batch asked for are
 * those a second decoder reads from the walker's batch (offsets, keys and
 * values byte for byte), and RECORDS_END says whether decoding failed as that
 * decoder does.
 */
#include "fuzz_common.h"
#include "inputs/cursor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ss_decoder *dec, *dec2;
    if (!dec && !(dec = ss_decoder_new(1u << 20))) abort();
    if (!dec2 && !(dec2 = ss_decoder_new(1u << 20))) abort();
    uint8_t flags = size ? data[size - 1] : 0;
    bool with_dec = !(flags & 1);
    uint64_t stop_after = (uint64_t)((flags >> 1) & 3) * 7;
    ss_inputs *in = ss_inputs_new(false);
    if (!in) abort();
    if (ss_inputs_add_memory(in, "t-0", data, size) != SS_E_OK) abort();
    ss_inputs_finish(in);
    FUZZ_CHECK(ss_inputs_count(in) == 1);
    FUZZ_CHECK(ss_inputs_at(in, 0)->nsegments == 1);

    uint8_t *buf = fuzz_dup(data, size);
    ss_segment *seg;
    ss_error err;
    if (ss_segment_from_memory(buf, size, false, &seg, &err) != SS_E_OK) abort();
    ss_walker *w = ss_walker_new(seg, UINT64_MAX);
    if (!w) abort();
    if (with_dec) ss_walker_set_decoder(w, dec2);

    ss_pcursor c;
    ss_pcursor_open(&c, in, 0, with_dec ? dec : NULL, UINT64_MAX);
    FUZZ_CHECK(ss_pcursor_next(&c) == SS_PC_SEGMENT);
    FUZZ_CHECK(c.seg == 0 && c.s && ss_segment_size(c.s) == size);
    ss_event ev;
    uint64_t events = 0, records = 0;
    bool stopped = false;
    for (;;) {
        ss_pc_kind k = ss_pcursor_next(&c);
        FUZZ_CHECK(++events <= (uint64_t)size + 2);
        ss_event_kind wk = ss_walker_next(w, &ev);
        if (wk == SS_EV_END) {
            FUZZ_CHECK(k == SS_PC_SEGMENT_END);
            FUZZ_CHECK(c.ev.file_size == ev.file_size && c.ev.tail_bytes == ev.tail_bytes &&
                       c.ev.tail_kind == ev.tail_kind && c.ev.end_of_last_batch == ev.end_of_last_batch);
            FUZZ_CHECK(c.s != NULL); /* open until the next call */
            break;
        }
        if (wk == SS_EV_DAMAGE) {
            FUZZ_CHECK(k == SS_PC_DAMAGE);
            FUZZ_CHECK(c.ev.err.kind == ev.err.kind && c.ev.err.position == ev.err.position &&
                       c.ev.err.length == ev.err.length);
            continue;
        }
        FUZZ_CHECK(k == SS_PC_BATCH);
        const ss_batch *b = &c.ev.batch;
        FUZZ_CHECK(b->position == ev.batch.position && b->size == ev.batch.size && b->crc_valid == ev.batch.crc_valid &&
                   b->base_offset == ev.batch.base_offset && b->last_offset == ev.batch.last_offset);
        FUZZ_CHECK(memcmp(b->data, ev.batch.data, b->size) == 0);
        if (!with_dec || !b->crc_valid) continue;
        /* the records, against a second decoder over the walker's batch */
        ss_rec_iter it;
        ss_error e2;
        ss_errkind bk = ss_records_begin(dec2, &ev.batch, &it, &e2);
        FUZZ_CHECK(ss_pcursor_records(&c) == bk);
        if (bk != SS_E_OK) {
            FUZZ_CHECK(c.err.kind == e2.kind);
            continue;
        }
        ss_record r2;
        int n2;
        for (;;) {
            n2 = ss_records_next(&it, &r2, &e2);
            k = ss_pcursor_next(&c);
            if (n2 != 1) break;
            FUZZ_CHECK(k == SS_PC_RECORD);
            FUZZ_CHECK(c.rec.offset == r2.offset && c.rec.key_len == r2.key_len && c.rec.value_len == r2.value_len);
            if (r2.key_len > 0) FUZZ_CHECK(memcmp(c.rec.key, r2.key, (size_t)r2.key_len) == 0);
            if (r2.value_len > 0) FUZZ_CHECK(memcmp(c.rec.value, r2.value, (size_t)r2.value_len) == 0);
            if (stop_after && ++records == stop_after) {
                stopped = true;
                break;
            }
        }
        if (stopped) break;
        FUZZ_CHECK(k == SS_PC_RECORDS_END);
        FUZZ_CHECK(c.rec_failed == (n2 < 0));
        if (n2 < 0) FUZZ_CHECK(c.err.kind == e2.kind);
    }
    if (!stopped) {
        FUZZ_CHECK(ss_pcursor_next(&c) == SS_PC_END);
        FUZZ_CHECK(c.s == NULL);
        FUZZ_CHECK(ss_pcursor_next(&c) == SS_PC_END);
    }
    ss_pcursor_close(&c);
    ss_walker_free(w);
    ss_segment_close(seg);
    free(buf);
    ss_inputs_free(in);
    return 0;
}
