/* segscan unit tests - the groups room's packed arrays (gp_pack, gp_at in
 * src/lib/groups/pack.c).
 *
 * What they must keep: every entry reads back bit for bit, whichever words
 * change and by how much (zero, +-1, the largest differences a zigzag varint
 * of a 32-bit word takes: 0x7fffffff, 0x80000000, 0xffffffff, every word of
 * an entry), in any order of reading (the two cached blocks are replaced, a block is
 * decoded up to the entry asked for and on from there), for
 * an array of single words (no mask), of 9 words (a mask of two bytes with one
 * bit in the second) and of a real entry (gpart, 104 bytes); a count that is not
 * a multiple of the block size; an empty array; a size that is not whole
 * words is refused. The packed bytes are fewer than the entries' when most
 * words repeat (what the packing is for).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "groups/groups_int.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next32(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* a word's change from the entry before: mostly none, else one of the hard ones */
static uint32_t change(uint32_t prev) {
    static const uint32_t hard[] = {1, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x80000001u, 127, 128, 16384};
    uint32_t r = next32() % 16;
    if (r < 9) return prev;
    if (r < 12) return prev + hard[next32() % 8];
    if (r < 14) return prev - (next32() % 300);
    return next32();
}

static void round_trip(uint32_t n, uint32_t words, int pattern) {
    size_t size = (size_t)words * 4;
    uint32_t *v = malloc((n ? n : 1) * size);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < words; k++) {
            uint32_t prev = i ? v[(size_t)(i - 1) * words + k] : 0;
            uint32_t *w = &v[(size_t)i * words + k];
            if (pattern == 0) *w = change(prev);
            else if (pattern == 1) *w = next32();      /* every word changes */
            else *w = (uint32_t)(i * 0x80000000u + k); /* the largest difference, every entry */
        }
    gpack p;
    CHECK(gp_pack(&p, v, n, size, NULL));
    CHECK_EQ_U(p.n, n);
    /* in order, backwards, at random: each read of another block decodes it again */
    for (uint32_t i = 0; i < n; i++) CHECK(!memcmp(gp_at(&p, i), &v[(size_t)i * words], size));
    for (uint32_t i = n; i-- > 0;) CHECK(!memcmp(gp_at(&p, i), &v[(size_t)i * words], size));
    for (uint32_t j = 0; j < 3 * n; j++) {
        uint32_t i = next32() % n;
        CHECK(!memcmp(gp_at(&p, i), &v[(size_t)i * words], size));
    }
    gp_free(&p);
    free(v);
}

int main(void) {
    uint32_t counts[] = {1, 2, GP_BLOCK - 1, GP_BLOCK, GP_BLOCK + 1, 1000};
    uint32_t widths[] = {1, 2, 8, 9, 26};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
            for (int pattern = 0; pattern < 3; pattern++) round_trip(counts[c], widths[w], pattern);

    /* an empty array packs to nothing; a size of no whole words is refused */
    gpack p;
    CHECK(gp_pack(&p, "", 0, sizeof(gpart), NULL));
    CHECK_EQ_U(p.n, 0);
    gp_free(&p);
    char odd[6] = {0};
    CHECK(!gp_pack(&p, odd, 1, sizeof odd, NULL));

    /* a group's partitions as the replay makes them: the same group, topic and times, the
     * next partition, nearby offsets; packed, a fraction of their 104 bytes each */
    static gpart t[64];
    static const char topic[] = "orders";
    for (int i = 0; i < 64; i++) {
        t[i].group = 7;
        t[i].partition = i % 8;
        t[i].topic = topic;
        t[i].offset = 1000000 + 37 * i;
        t[i].commit_time = t[i].first_commit_time = t[i].last_commit_time = 1733100000000 + i / 8;
        t[i].record_offset = 5000 + i;
        t[i].leader_epoch = 3;
        t[i].flags = 1;
        t[i].commits_lo = 4;
        t[i].owner_last = (uint32_t)i + 1;
        t[i].reader_max = t[i].offset;
    }
    CHECK(gp_pack(&p, t, 64, sizeof *t, NULL));
    for (int i = 0; i < 64; i++) CHECK(!memcmp(gp_at(&p, (uint32_t)i), &t[i], sizeof *t));
    CHECK(p.block_at[(64 + GP_BLOCK - 1) / GP_BLOCK] < 64 * sizeof *t / 4);
    gp_free(&p);
    return check_exit("test_gpack");
}
