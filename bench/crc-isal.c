/* crc-isal - CRC-32C over a segment's batches: segscan's code (base/crc.c)
 * against Intel ISA-L's crc32_iscsi, for the decision recorded in
 * docs/design-notes.md ("CRC-32C: ISA-L measured").
 *
 * usage: crc-isal FILE.log... [--runs N] [--limit MB] [--reps N]
 *
 * --limit MB keeps the first batches up to MB megabytes (4: the batches stay
 * in the caches, as they are when the scan checksums a batch it has just
 * read), --reps N checksums them N times a round (so that a round lasts long
 * enough to time).
 *
 * For every v2 batch of each file (read whole into memory first, so that the
 * page cache and the disk stay out of it) the CRC region is what Kafka's
 * DefaultRecordBatch.checksum covers: from the attributes (byte 21) to the
 * batch's end. Each round checksums every batch of every file once with each
 * implementation in turn (ss_crc32c: what the scan calls; the crc32
 * instruction in three lanes; the AVX-512 folding; the slicing-by-8 tables;
 * ISA-L's crc32_iscsi), so that a slow moment of the host hits them alike;
 * the table gives the best and the median round in GB/s, and checks that every
 * implementation gets the CRC the batch stores.
 *
 * ISA-L's convention (isa-l/crc.h): crc32_iscsi(buf, int len, init) takes the
 * register as it stands, neither inverted on entry nor on exit, so Kafka's
 * CRC-32C (ss_crc32c(0, ...)) is ~crc32_iscsi(buf, len, ~0): checked on
 * CRC-32C("123456789") = 0xE3069283 before anything is timed. len is an int:
 * a batch is at most 2^31-1 bytes (its length field is an int32). */
#include <inttypes.h>
#include <isa-l/crc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/crc.h"

struct batch {
    const uint8_t *p;
    size_t n;
    uint32_t stored;
};

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t isal_crc32c(uint32_t crc, const uint8_t *p, size_t n) {
    return ~crc32_iscsi((unsigned char *)(uintptr_t)p, (int)n, ~crc);
}

enum { IMPL_SS, IMPL_LANES, IMPL_FOLD, IMPL_TABLES, IMPL_ISAL, NIMPL };
static const char *const impl_name[NIMPL] = {"ss_crc32c (what the scan calls)", "crc32 instruction, 3 lanes",
                                             "AVX-512 VPCLMULQDQ folding", "slicing-by-8 tables", "ISA-L crc32_iscsi"};

/* One implementation over one batch; false when this CPU lacks the path. */
static bool crc_by(int impl, const struct batch *b, uint32_t *out) {
    switch (impl) {
    case IMPL_SS: *out = ss_crc32c(0, b->p, b->n); return true;
    case IMPL_LANES: return ss_crc32c_by(SS_CRC32C_LANES, 0, b->p, b->n, out);
    case IMPL_FOLD: return ss_crc32c_by(SS_CRC32C_FOLD, 0, b->p, b->n, out);
    case IMPL_TABLES: *out = ss_crc32c_sw(0, b->p, b->n); return true;
    case IMPL_ISAL: *out = isal_crc32c(0, b->p, b->n); return true;
    }
    return false;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int runs = 9, reps = 1;
    size_t limit = SIZE_MAX;
    size_t nb = 0, cap = 0, total = 0;
    struct batch *bs = NULL;
    static const unsigned char check[] = "123456789";
    if (isal_crc32c(0, check, 9) != 0xE3069283u || ss_crc32c(0, check, 9) != 0xE3069283u) {
        fprintf(stderr, "crc-isal: CRC-32C(\"123456789\") is not 0xE3069283\n");
        return 1;
    }
    for (int i = 1; i < argc; i++) /* the options first: --limit applies to every file */
        if (!strcmp(argv[i], "--limit") && i + 1 < argc) limit = (size_t)atoi(argv[i + 1]) * 1000000u;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atoi(argv[++i]);
            continue;
        }
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            continue;
        }
        if (!strcmp(argv[i], "--limit") && i + 1 < argc) {
            i++;
            continue;
        }
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
        if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
            fprintf(stderr, "crc-isal: %s: cannot read\n", argv[i]);
            return 1;
        }
        fclose(f);
        for (size_t pos = 0; pos + 61 <= (size_t)size;) {
            uint32_t len = be32(data + pos + 8);
            if (len < 49 || len > (size_t)size - pos - 12 || data[pos + 16] != 2) break; /* v2 batches only */
            if (total + len - 9 > limit) break;
            if (nb == cap) {
                cap = cap ? cap * 2 : 4096;
                bs = realloc(bs, cap * sizeof *bs);
                if (!bs) return 1;
            }
            bs[nb++] = (struct batch){data + pos + 21, (size_t)len - 9, be32(data + pos + 17)};
            total += (size_t)len - 9;
            pos += 12 + (size_t)len;
        }
    }
    if (!nb || runs < 1 || reps < 1) {
        fprintf(stderr, "usage: crc-isal FILE.log... [--runs N] [--limit MB] [--reps N]\n");
        return 2;
    }
    double *t = calloc((size_t)runs * NIMPL, sizeof *t);
    bool have[NIMPL];
    for (int k = 0; k < NIMPL; k++) {
        uint32_t c;
        have[k] = crc_by(k, &bs[0], &c);
        size_t bad = 0;
        for (size_t i = 0; have[k] && i < nb; i++)
            if (!crc_by(k, &bs[i], &c) || c != bs[i].stored) bad++;
        if (bad) {
            fprintf(stderr, "crc-isal: %s: %zu of %zu batches' CRCs differ from the stored ones\n", impl_name[k], bad,
                    nb);
            return 1;
        }
    }
    volatile uint32_t sink = 0;
    for (int r = 0; r < runs; r++)
        for (int k = 0; k < NIMPL; k++) {
            if (!have[k]) continue;
            double t0 = now_s();
            uint32_t x = 0, c = 0;
            for (int m = 0; m < reps; m++)
                for (size_t i = 0; i < nb; i++) {
                    crc_by(k, &bs[i], &c);
                    x ^= c;
                }
            t[k * runs + r] = now_s() - t0;
            sink ^= x;
        }
    printf("%zu batches, %.1f MB checksummed %d times a round (mean %.0f bytes a batch), %d rounds\n", nb,
           (double)total / 1e6, reps, (double)total / (double)nb, runs);
    printf("%-34s %10s %10s\n", "implementation", "best GB/s", "median");
    for (int k = 0; k < NIMPL; k++) {
        if (!have[k]) {
            printf("%-34s %10s %10s\n", impl_name[k], "-", "-");
            continue;
        }
        qsort(t + k * runs, (size_t)runs, sizeof *t, cmp_double);
        double bytes = (double)total * reps;
        printf("%-34s %10.2f %10.2f\n", impl_name[k], bytes / t[k * runs] / 1e9, bytes / t[k * runs + runs / 2] / 1e9);
    }
    (void)sink;
    return 0;
}
