/* Fuzz target: the segment walker with resync, and the records of every batch.
 *
 * Input: a whole .log segment (the seeds are real segments). The walker gets
 * a decoder with a 1 MiB cap; the records of every batch are decoded, also of
 * batches failing their CRC (as the text dump does with --deep-iteration).
 * Invariants: events cover the file in order without overlap, damage lengths
 * are positive, the END event comes within size + 2 events and repeats; the
 * copying walker (ss_walker_next_copy, one window for every input) gives the
 * same events and the same batch bytes, in lockstep.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ss_decoder *dec;
    static ss_window win;
    if (!dec && !(dec = ss_decoder_new(1u << 20))) abort();
    uint8_t *buf = fuzz_dup(data, size);
    ss_segment *seg;
    ss_error err;
    if (ss_segment_from_memory(buf, size, false, &seg, &err) != SS_E_OK) abort();
    /* a limit below the size now and then, as --max-bytes */
    uint64_t limit = (size > 0 && (data[size - 1] & 0xf0) == 0xf0) ? size / 2 : UINT64_MAX;
    uint64_t lim = limit < size ? limit : size;
    ss_walker *w = ss_walker_new(seg, limit), *wc = ss_walker_new(seg, limit);
    if (!w || !wc) abort();
    ss_walker_set_decoder(w, dec);
    ss_walker_set_decoder(wc, dec);
    ss_event ev, ec;
    uint64_t events = 0, covered = 0, damaged = 0;
    for (;;) {
        ss_event_kind k = ss_walker_next(w, &ev);
        FUZZ_CHECK(++events <= (uint64_t)size + 2);
        FUZZ_CHECK(ss_walker_next_copy(wc, &win, &ec) == k);
        if (k == SS_EV_BATCH) {
            FUZZ_CHECK(ec.batch.position == ev.batch.position && ec.batch.size == ev.batch.size);
            FUZZ_CHECK(ec.batch.crc_valid == ev.batch.crc_valid && ec.batch.base_offset == ev.batch.base_offset);
            FUZZ_CHECK(memcmp(ec.batch.data, ev.batch.data, ev.batch.size) == 0);
        } else {
            FUZZ_CHECK(ec.err.kind == ev.err.kind && ec.err.position == ev.err.position &&
                       ec.err.length == ev.err.length);
        }
        if (k == SS_EV_END) break;
        if (k == SS_EV_DAMAGE) {
            FUZZ_CHECK(ss_errkind_is_damage(ev.err.kind));
            FUZZ_CHECK(ev.err.length > 0);
            FUZZ_CHECK(ev.err.position == covered);
            FUZZ_CHECK(ev.err.position + ev.err.length <= lim);
            covered += ev.err.length;
            damaged += ev.err.length;
            continue;
        }
        FUZZ_CHECK(k == SS_EV_BATCH);
        const ss_batch *b = &ev.batch;
        FUZZ_CHECK(b->position == covered);
        FUZZ_CHECK(b->position + b->size <= lim);
        if (b->crc_valid) covered += b->size; /* else its damage event covers it */
        fuzz_records(dec, b);
    }
    FUZZ_CHECK(ev.file_size == size);
    FUZZ_CHECK(ec.tail_bytes == ev.tail_bytes && ec.end_of_last_batch == ev.end_of_last_batch);
    FUZZ_CHECK(ss_walker_damaged_bytes(wc) == ss_walker_damaged_bytes(w));
    FUZZ_CHECK(ss_walker_damaged_bytes(w) == damaged);
    FUZZ_CHECK(ev.end_of_last_batch <= lim && ev.tail_bytes <= lim);
    FUZZ_CHECK(covered + ev.tail_bytes == lim);
    FUZZ_CHECK(ss_walker_next(w, &ev) == SS_EV_END);
    ss_walker_free(w);
    ss_walker_free(wc);
    ss_segment_close(seg);
    free(buf);
    return 0;
}
