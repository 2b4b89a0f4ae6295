/* segscan unit tests - CRC-32C (tables and hardware) and CRC-32 (IEEE).
 *
 * The reference is a bit-at-a-time CRC-32C written from the definition; the
 * table and hardware paths must agree with it and with each other at every
 * length and alignment, across the three-lane thresholds of the hardware
 * loop (768 and 12288 bytes) and the folding path's 256-byte steps, and chain
 * as documented.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <zlib.h>

#include "base/crc.h"
#include "check.h"
#include "segscan/segscan.h"

/* Bit at a time, reflected polynomial 0x82F63B78, same chaining convention. */
static uint32_t ref_crc32c(uint32_t crc, const uint8_t *p, size_t len) {
    uint32_t c = ~crc;
    while (len-- > 0) {
        c ^= *p++;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
    }
    return ~c;
}

static void fill_random(uint8_t *p, size_t n, uint64_t seed) {
    uint64_t s = seed | 1;
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(test_rand(&s) >> 56);
}

static const uint8_t check_input[] = "123456789";

static void test_check_values(void) {
    CHECK_EQ_U(ss_crc32c_sw(0, check_input, 9), 0xE3069283u);
    CHECK_EQ_U(ss_crc32c(0, check_input, 9), 0xE3069283u);
    CHECK_EQ_U(ref_crc32c(0, check_input, 9), 0xE3069283u);
    CHECK_EQ_U(ss_crc32(0, check_input, 9), 0xCBF43926u);

    /* Empty input leaves the running CRC alone. */
    CHECK_EQ_U(ss_crc32c_sw(0, check_input, 0), 0);
    CHECK_EQ_U(ss_crc32c(0, check_input, 0), 0);
    CHECK_EQ_U(ss_crc32c_sw(0xDEADBEEFu, check_input, 0), 0xDEADBEEFu);
    CHECK_EQ_U(ss_crc32c(0xDEADBEEFu, check_input, 0), 0xDEADBEEFu);
    CHECK_EQ_U(ss_crc32(0xDEADBEEFu, check_input, 0), 0xDEADBEEFu);

    /* 32 zero bytes and 32 0xFF bytes (RFC 3720 B.4 test vectors). */
    uint8_t buf[32];
    memset(buf, 0, sizeof buf);
    CHECK_EQ_U(ss_crc32c_sw(0, buf, 32), 0x8A9136AAu);
    CHECK_EQ_U(ss_crc32c(0, buf, 32), 0x8A9136AAu);
    memset(buf, 0xFF, sizeof buf);
    CHECK_EQ_U(ss_crc32c_sw(0, buf, 32), 0x62A8AB43u);
    CHECK_EQ_U(ss_crc32c(0, buf, 32), 0x62A8AB43u);
    for (int i = 0; i < 32; i++) buf[i] = (uint8_t)i;
    CHECK_EQ_U(ss_crc32c_sw(0, buf, 32), 0x46DD794Eu);
    CHECK_EQ_U(ss_crc32c(0, buf, 32), 0x46DD794Eu);
}

/* The slicing tables against the definition, every length 0..300 at every alignment 0..7. */
static void test_sw_vs_reference(void) {
    enum { N = 300 + 8 };
    uint8_t buf[N];
    fill_random(buf, N, 42);
    unsigned bad = 0;
    for (size_t align = 0; align < 8; align++)
        for (size_t len = 0; len + align <= N && len <= 300; len++)
            if (ss_crc32c_sw(0x12345678u, buf + align, len) != ref_crc32c(0x12345678u, buf + align, len)) bad++;
    CHECK_EQ_U(bad, 0);
}

/* Best path (hardware when present) against the tables. */
static void test_hw_vs_sw(void) {
    printf("crc32c hardware: %s\n", ss_crc32c_hw_available() ? "yes" : "no (both paths are the tables)");

    /* Every length 0..5000 at a few alignments. */
    enum { N = 5000 + 16 };
    uint8_t *buf = malloc(N);
    CHECK(buf != NULL);
    if (buf == NULL) return;
    fill_random(buf, N, 7);
    unsigned bad = 0;
    const size_t aligns[] = {0, 1, 3, 7, 8, 13};
    for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++)
        for (size_t len = 0; len <= 5000; len++)
            if (ss_crc32c(0, buf + aligns[a], len) != ss_crc32c_sw(0, buf + aligns[a], len)) bad++;
    CHECK_EQ_U(bad, 0);
    free(buf);

    /* A few MiB at every alignment 0..15, plus lengths at the lane thresholds. */
    size_t big = (size_t)3 * 1024 * 1024 + 4321;
    buf = malloc(big + 16);
    CHECK(buf != NULL);
    if (buf == NULL) return;
    fill_random(buf, big + 16, 99);
    bad = 0;
    for (size_t align = 0; align < 16; align++) {
        uint32_t hw = ss_crc32c(0xFFFFFFFFu, buf + align, big);
        uint32_t sw = ss_crc32c_sw(0xFFFFFFFFu, buf + align, big);
        if (hw != sw) {
            bad++;
            fprintf(stderr, "align %zu: hw %08x sw %08x\n", align, hw, sw);
        }
    }
    CHECK_EQ_U(bad, 0);
    const size_t edges[] = {767,   768,         769,         775,   776,   1535,     1536,  1544,
                            12287, 12288,       12289,       12295, 12296, 13055,    13056, 13057,
                            24576, 24576 + 768, 24576 + 767, 36863, 36864, 65536 + 5};
    bad = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        for (size_t align = 0; align < 9; align++)
            if (ss_crc32c(0x5A5A5A5Au, buf + align, edges[i]) != ref_crc32c(0x5A5A5A5Au, buf + align, edges[i])) bad++;
    CHECK_EQ_U(bad, 0);
    free(buf);
}

/* Each path this CPU has, by itself, against the bit-at-a-time reference: the
 * folding path (x86 AVX-512 VPCLMULQDQ) at every length around its 256-byte
 * steps and its 256-byte minimum, at every alignment 0..63 (its loads are 64
 * bytes wide), from a running CRC; and chained with the other paths. */
static void test_paths(void) {
    static const char *names[] = {"tables", "lanes", "fold"};
    enum { N = 70000 + 64 };
    uint8_t *buf = malloc(N);
    CHECK(buf != NULL);
    if (buf == NULL) return;
    fill_random(buf, N, 4242);
    for (int path = SS_CRC32C_TABLES; path <= SS_CRC32C_FOLD; path++) {
        uint32_t got;
        if (!ss_crc32c_by((ss_crc32c_path)path, 0, buf, 1, &got)) {
            printf("crc32c path %s: not on this CPU\n", names[path]);
            continue;
        }
        printf("crc32c path %s: tested\n", names[path]);
        unsigned bad = 0, runs = 0;
        for (size_t len = 0; len <= 2100; len += len < 600 ? 1 : 7)
            for (size_t align = 0; align < 64; align += len < 600 ? 13 : 1) {
                uint32_t init = (uint32_t)(len * 2654435761u) ^ (uint32_t)align;
                CHECK(ss_crc32c_by((ss_crc32c_path)path, init, buf + align, len, &got));
                bad += got != ref_crc32c(init, buf + align, len);
                runs++;
            }
        const size_t longs[] = {4096, 4097, 4351, 4352, 65535, 65536, 70000};
        for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++)
            for (size_t align = 0; align < 64; align += 9) {
                CHECK(ss_crc32c_by((ss_crc32c_path)path, 0x12345678u, buf + align, longs[i], &got));
                bad += got != ref_crc32c(0x12345678u, buf + align, longs[i]);
                runs++;
            }
        /* chained: a first part by this path, the rest by the tables, and back */
        uint32_t whole = ref_crc32c(0, buf, 5000);
        for (size_t split = 0; split <= 5000; split += 61) {
            uint32_t a, b;
            CHECK(ss_crc32c_by((ss_crc32c_path)path, 0, buf, split, &a));
            bad += ss_crc32c_sw(a, buf + split, 5000 - split) != whole;
            CHECK(ss_crc32c_by((ss_crc32c_path)path, ss_crc32c_sw(0, buf, split), buf + split, 5000 - split, &b));
            bad += b != whole;
            runs += 2;
        }
        CHECK(runs > 1000);
        CHECK_EQ_U(bad, 0);
    }
    free(buf);
}

/* crc(crc(0, a), b) == crc(0, a||b), for every split point of a buffer. */
static void test_chaining(void) {
    enum { N = 40000 };
    uint8_t *buf = malloc(N);
    CHECK(buf != NULL);
    if (buf == NULL) return;
    fill_random(buf, N, 1234);
    uint32_t whole_c = ss_crc32c(0, buf, N), whole_s = ss_crc32c_sw(0, buf, N);
    uint32_t whole_i = ss_crc32(0, buf, N);
    CHECK_EQ_U(whole_c, whole_s);
    CHECK_EQ_U(whole_i, (uint32_t)crc32(0, buf, N));
    unsigned bad = 0;
    for (size_t split = 0; split <= N; split += (split < 100 ? 1 : 997)) {
        if (ss_crc32c(ss_crc32c(0, buf, split), buf + split, N - split) != whole_c) bad++;
        if (ss_crc32c_sw(ss_crc32c_sw(0, buf, split), buf + split, N - split) != whole_s) bad++;
        /* mixing the two paths */
        if (ss_crc32c_sw(ss_crc32c(0, buf, split), buf + split, N - split) != whole_c) bad++;
        if (ss_crc32(ss_crc32(0, buf, split), buf + split, N - split) != whole_i) bad++;
    }
    CHECK_EQ_U(bad, 0);

    /* Byte by byte. */
    uint32_t c = 0, s = 0;
    for (size_t i = 0; i < 1000; i++) {
        c = ss_crc32c(c, buf + i, 1);
        s = ss_crc32c_sw(s, buf + i, 1);
    }
    CHECK_EQ_U(c, ss_crc32c(0, buf, 1000));
    CHECK_EQ_U(s, ss_crc32c(0, buf, 1000));
    free(buf);
}

/* The first batch of a segment written by Kafka (corpus gen/lab/payments-0,
 * 00000000000000000000.log bytes 0..84): two records pay-1 and pay-2 of an
 * idempotent producer. The stored CRC (big-endian at byte 17) covers bytes
 * 21 to the end; Kafka's reader reports crc 1411775492. */
static const uint8_t kafka_batch[85] = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x49, 0x00, 0x00, 0x00, 0x00, 0x02,
    0x54, 0x25, 0xfc, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68,
    0x00, 0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xe8,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x16, 0x00, 0x00, 0x00, 0x01, 0x0a, 0x70,
    0x61, 0x79, 0x2d, 0x31, 0x00, 0x16, 0x00, 0x02, 0x02, 0x01, 0x0a, 0x70, 0x61, 0x79, 0x2d, 0x32, 0x00,
};

static void test_kafka_batch(void) {
    uint32_t stored = (uint32_t)kafka_batch[17] << 24 | (uint32_t)kafka_batch[18] << 16 |
                      (uint32_t)kafka_batch[19] << 8 | (uint32_t)kafka_batch[20];
    CHECK_EQ_U(stored, 1411775492u);
    CHECK_EQ_U(ss_crc32c(0, kafka_batch + 21, sizeof kafka_batch - 21), stored);
    CHECK_EQ_U(ss_crc32c_sw(0, kafka_batch + 21, sizeof kafka_batch - 21), stored);
    /* One flipped bit anywhere in the covered range changes the CRC. */
    uint8_t copy[sizeof kafka_batch];
    unsigned undetected = 0;
    for (size_t i = 21; i < sizeof copy; i++) {
        memcpy(copy, kafka_batch, sizeof copy);
        copy[i] ^= 0x10;
        if (ss_crc32c(0, copy + 21, sizeof copy - 21) == stored) undetected++;
    }
    CHECK_EQ_U(undetected, 0);
}

/* Lengths past UINT_MAX (zlib takes an unsigned int): only with SEGSCAN_SLOW_TESTS=1. */
static void test_crc32_huge(void) {
    const char *env = getenv("SEGSCAN_SLOW_TESTS");
    if (env == NULL || strcmp(env, "1") != 0) return;
    size_t n = (size_t)UINT32_MAX + 4097;
    uint8_t *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(p != MAP_FAILED);
    if (p == MAP_FAILED) return;
    /* All zero bytes: compare with zlib over two pieces, combined. */
    uLong a = crc32(0, p, 1u << 31), b = crc32(0, p, (uInt)(n - (1u << 31)));
    uLong want = crc32_combine(a, b, (z_off_t)(n - (1u << 31)));
    CHECK_EQ_U(ss_crc32(0, p, n), want);
    CHECK_EQ_U(ss_crc32c(0, p, n), ss_crc32c_sw(0, p, n));
    munmap(p, n);
}

int main(void) {
    test_check_values();
    test_sw_vs_reference();
    test_hw_vs_sw();
    test_paths();
    test_chaining();
    test_kafka_batch();
    test_crc32_huge();
    return check_exit("test_crc");
}
