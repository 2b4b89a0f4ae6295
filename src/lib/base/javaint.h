/* segscan - Java's long and int arithmetic (internal): what Kafka computes on
 * offsets, timestamps and producer sequences, written once for every room.
 *
 * Java arithmetic wraps; a damaged header (or a crafted one with a valid CRC)
 * can hold any value, so offsets and timestamps derived from it are computed
 * modulo 2^64 and sequences modulo 2^32, never overflowing (found by fuzzing). */
#ifndef SEGSCAN_JAVAINT_H
#define SEGSCAN_JAVAINT_H

#include <stdint.h>

#include "segscan/base.h" /* ss_next_offset, ss_sat_sub64, ss_sat_add64 */

/* long + long, long - long */
static inline int64_t ss_add64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t ss_sub64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

/* The number of offsets in [first, last]: 0 when last < first; at most 2^64 - 1 (the whole
 * range of a long, with a first offset a damaged header made negative). Computed unsigned so
 * that last - first + 1 cannot overflow. */
static inline uint64_t ss_offset_span(int64_t first, int64_t last) {
    if (last < first) return 0;
    uint64_t d = (uint64_t)last - (uint64_t)first;
    return d == UINT64_MAX ? UINT64_MAX : d + 1u;
}

/* DefaultRecordBatch.incrementSequence: sequences wrap from INT32_MAX to 0.
 * Computed modulo 2^32 as Java's int arithmetic does: a damaged header can hold
 * a negative delta, and INT32_MAX - inc must not overflow. For a sequence >= 0
 * and 0 <= inc <= INT32_MAX it is (seq + inc) mod 2^31. */
static inline int32_t ss_increment_sequence(int32_t seq, int32_t inc) {
    uint32_t s = (uint32_t)seq, i = (uint32_t)inc;
    if (seq > (int32_t)((uint32_t)INT32_MAX - i)) return (int32_t)(i - ((uint32_t)INT32_MAX - s) - 1u);
    return (int32_t)(s + i);
}

/* DefaultRecordBatch.decrementSequence, in Java int arithmetic. */
static inline int32_t ss_decrement_sequence(int32_t seq, int32_t dec) {
    if (seq < dec) return (int32_t)((uint32_t)INT32_MAX - ((uint32_t)dec - (uint32_t)seq) + 1u);
    return (int32_t)((uint32_t)seq - (uint32_t)dec);
}

#endif
