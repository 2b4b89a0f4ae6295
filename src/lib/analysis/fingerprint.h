/* segscan - the record fingerprint shared by the analysis and diff (internal).
 *
 * XXH3-128 of the value (SS_BY_VALUE), of the key (SS_BY_KEY), or of key and
 * value each prefixed by its int32 length, -1 for null (SS_BY_KEY_VALUE), so
 * that null differs from empty and ("ab","c") from ("a","bc"). A record whose
 * fingerprinted field is null (the value under key+value), or shorter than
 * min_bytes, is not fingerprinted. */
#ifndef SS_FINGERPRINT_H
#define SS_FINGERPRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <xxhash.h>
#ifdef SS_XXH_DISPATCH
#include <xxh_x86dispatch.h> /* XXH3_* become the run-time dispatched versions */
#endif

#include "segscan/analyze.h"
#include "segscan/record.h"

static inline void ss_fp_len(XXH3_state_t *st, int32_t v) {
    uint8_t len[4] = {(uint8_t)((uint32_t)v >> 24), (uint8_t)((uint32_t)v >> 16), (uint8_t)((uint32_t)v >> 8),
                      (uint8_t)v};
    XXH3_128bits_update(st, len, 4);
}

/* The hash is stored from the registers it comes back in. Left to itself,
 * GCC spilled it to the stack and copied it with one 16-byte load, which
 * waited on the two 8-byte stores (a store-forwarding stall, 3% of a scan). */
static inline void ss_fp_put(XXH128_hash_t h, uint64_t *hi, uint64_t *lo) {
    uint64_t l = h.low64, g = h.high64;
#if defined(__GNUC__)
    __asm__("" : "+r"(l), "+r"(g)); /* keep them scalars */
#endif
    *lo = l;
    *hi = g;
}

/* st: scratch state for the key+value form. */
static inline bool ss_fp_record(XXH3_state_t *st, const ss_record *r, enum ss_by by, uint64_t min_bytes, uint64_t *hi,
                                uint64_t *lo) {
    switch (by) {
    case SS_BY_KEY:
        if (r->key_len < 0 || (uint64_t)r->key_len < min_bytes) return false;
        ss_fp_put(XXH3_128bits(r->key, (size_t)r->key_len), hi, lo);
        return true;
    case SS_BY_KEY_VALUE:
        if (r->value_len < 0 || (uint64_t)r->value_len < min_bytes) return false;
        XXH3_128bits_reset(st);
        ss_fp_len(st, r->key_len);
        if (r->key_len > 0) XXH3_128bits_update(st, r->key, (size_t)r->key_len);
        ss_fp_len(st, r->value_len);
        if (r->value_len > 0) XXH3_128bits_update(st, r->value, (size_t)r->value_len);
        ss_fp_put(XXH3_128bits_digest(st), hi, lo);
        return true;
    default: /* SS_BY_VALUE */
        if (r->value_len < 0 || (uint64_t)r->value_len < min_bytes) return false;
        ss_fp_put(XXH3_128bits(r->value, (size_t)r->value_len), hi, lo);
        return true;
    }
}

#endif
