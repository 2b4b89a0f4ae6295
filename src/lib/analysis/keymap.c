/* segscan - the analysis's key maps (base/map.h): a producer id, or a producer
 * id and epoch, -> u32; the analysis keeps one per kind of key (struct
 * ss_analysis), cleared for each partition. */
#include <stdbool.h>
#include <stdint.h>

#include "analysis/analysis.h"

static uint64_t km_hash(int64_t a, int64_t b) {
    uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ULL;
    h ^= ((uint64_t)b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
}

void km_init(ss_map *m, bool with_epoch) {
    ss_map_init(m, with_epoch ? sizeof(km_key) : sizeof(int64_t), sizeof(uint32_t), 256, 75);
}

static uint32_t *km_at(ss_map *m, const void *key, uint64_t h, bool create, bool *created) {
    bool made = false;
    uint32_t *v = create ? ss_map_put(m, key, h, &made) : ss_map_find(m, key, h);
    if (made) *v = NONE32;
    if (created) *created = made;
    return v;
}

uint32_t *km_get(ss_map *m, int64_t pid, bool create, bool *created) {
    return km_at(m, &pid, km_hash(pid, 0), create, created);
}

uint32_t *km_session_get(ss_map *m, int64_t pid, int64_t epoch, bool create, bool *created) {
    km_key k = {pid, epoch};
    return km_at(m, &k, km_hash(pid, epoch), create, created);
}

/* A large table (a partition of many producers) is freed rather than cleared for each partition. */
void km_clear(ss_map *m) { ss_map_clear(m, 4096); }
