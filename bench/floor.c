/* floor - what the layers under segscan's scan cost on their own, one thread.
 *
 * Walks one segment with libsegscan and stops at a chosen depth, so that the
 * time of a full `segscan --threads 1` can be split into what reading, checking,
 * decompressing, decoding and hashing cost, and what is left for the analysis:
 *
 *   walk        reading as the analysis does (pread windows into a reused buffer), batch
 *               framing and the CRC-32C of every batch
 *   decompress  + each batch's records section decompressed (ss_records_begin), not decoded
 *   records     + every record decoded (ss_records_next)
 *   hash        + the XXH3-128 of every value (the default fingerprint)
 *
 * Prints one line per depth: CPU seconds (median of --runs, after one pass that
 * warms the page cache unless --no-warm), MB/s of segment and records/s. Run by
 * hand and by bench/bench.py, never by the tests.
 *
 * floor --touch MIB: the cost of memory the scan's tables need, alone: MIB of
 * fresh anonymous memory mapped as src/lib/mem.c maps large arrays (2 MiB
 * aligned, MADV_HUGEPAGE) and written once every 4 KiB, so every page is
 * faulted in and zeroed by the kernel (and, on a VM, perhaps first backed by
 * the host). Prints CPU seconds and MB/s. With --small-pages the memory asks
 * for 4 KiB pages (MADV_NOHUGEPAGE): one fault per 4 KiB, what an array of
 * malloc or a small mapping costs.
 *
 * floor --map FILE: the cost of reading a file through a mapping (one byte of
 * every 4 KiB page read, as the walker did) against pread(2) into a 512 KiB
 * buffer (as segscan reads now), warm page cache. Prints both.
 *
 * floor --table N [--repeats PCT]: what the analysis's fingerprint table costs
 * at the least: N fingerprints (XXH3-128 of a counter; PCT percent of them,
 * 10 unless given, copies of an earlier one) inserted into a model of
 * src/lib/analysis/fptable.c's table (its fp_insert is static there): 8-byte
 * slots (a 32-bit tag and an entry index) at ~60% load, homes scaled to the
 * table, linear probing, 16-byte entries appended, the slot of the record 16
 * places ahead asked for. The table is sized for N from the start and its
 * memory written before the clock starts, so neither rehashing nor the
 * kernel's zeroing is counted; no group, occurrence or output either. Prints
 * CPU seconds and ns an insert: a lower bound for an_apply_records.
 *
 * usage: floor FILE.log [--runs N] [--depth walk|decompress|records|hash] [--no-warm]
 *        floor --touch MIB [--small-pages]
 *        floor --map FILE
 *        floor --table N [--repeats PCT]
 */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "base/mem.h"
#include "format/record.h"
#include "segscan/segscan.h"

enum { D_WALK, D_DECOMPRESS, D_RECORDS, D_HASH, D_COUNT };
#define WINDOW ((size_t)512 << 10)

static const char *const depth_name[D_COUNT] = {"walk", "decompress", "records", "hash"};

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* One pass at `depth`; returns CPU seconds, *records the records met (batches' counts for walk). */
static double one_pass(const char *path, int depth, uint64_t *records, uint64_t *bytes, uint64_t *sink) {
    ss_segment *s;
    ss_error err;
    if (ss_segment_open(path, &s, &err) != SS_E_OK) {
        fprintf(stderr, "floor: %s: %s\n", path, err.msg);
        exit(2);
    }
    ss_decoder *d = ss_decoder_new(64u << 20);
    if (!d) {
        fprintf(stderr, "floor: out of memory\n");
        exit(2);
    }
    double t0 = cpu_now();
    /* as the analysis reads (src/lib/analysis/units.c): windows copied with pread into one
     * reused buffer, batches framed and CRC-checked in the window */
    size_t cap = WINDOW;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "floor: out of memory\n");
        exit(2);
    }
    uint64_t size = ss_segment_size(s), pos = 0, n = 0, h = 0;
    while (pos < size) {
        size_t got = ss_segment_read(s, pos, buf, cap);
        size_t at = 0;
        ss_batch b;
        while (at < got) {
            ss_errkind k = ss_batch_parse(buf + at, got - at, pos + at, true, d, &b, &err);
            if (k != SS_E_OK) break;
            at += b.size;
            if (depth == D_WALK) {
                n += (uint64_t)(b.count > 0 ? b.count : 1);
                continue;
            }
            ss_rec_iter it;
            if (ss_records_begin(d, &b, &it, &err) != SS_E_OK) continue;
            if (depth == D_DECOMPRESS) {
                n += (uint64_t)(b.count > 0 ? b.count : 1);
                const ss_rec_state *rs = ss_rec_state_of(&it);
                h += (uint64_t)(rs->end - rs->p);
                continue;
            }
            ss_record r;
            while (ss_records_next(&it, &r, &err) == 1) {
                n++;
                if (depth == D_HASH && r.value_len >= 0) h += XXH3_128bits(r.value, (size_t)r.value_len).low64;
                else h += (uint64_t)r.value_len;
            }
        }
        if (at == 0) {
            /* a batch larger than the window, or not a batch: grow once, else stop */
            if (got < cap || cap >= ((size_t)256 << 20)) break;
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) break;
            buf = nb;
            cap *= 2;
            continue;
        }
        pos += at;
    }
    free(buf);
    double t = cpu_now() - t0;
    *bytes = ss_segment_size(s);
    ss_decoder_free(d);
    ss_segment_close(s);
    *records = n;
    *sink += h;
    return t;
}

static int touch(const char *mib, bool small) {
    char *end;
    unsigned long m = strtoul(mib, &end, 10);
    if (*end || m == 0 || m > ((size_t)1 << 20)) {
        fprintf(stderr, "floor: --touch MIB (1 to 1048576)\n");
        return 2;
    }
    size_t n = (size_t)m << 20, huge = (size_t)2 << 20;
    double t0 = cpu_now();
    uint8_t *q = mmap(NULL, n + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED) {
        fprintf(stderr, "floor: cannot map %lu MiB\n", m);
        return 2;
    }
    uint8_t *p = (uint8_t *)(((uintptr_t)q + huge - 1) & ~(uintptr_t)(huge - 1));
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
    (void)madvise(p, n, small ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
#endif
    for (size_t i = 0; i < n; i += 4096) ((volatile uint8_t *)p)[i] = 1;
    double t = cpu_now() - t0;
    printf("touch %8.3f s cpu %9.1f MB/s  (%lu MiB of fresh memory, %s pages: %.2f us a 4 KiB page)\n", t,
           (double)n / 1e6 / t, m, small ? "4 KiB" : "huge", t * 1e6 / (double)(n / 4096));
    munmap(q, n + huge);
    return 0;
}

static int map_vs_pread(const char *path) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        fprintf(stderr, "floor: cannot read %s\n", path);
        if (fd >= 0) close(fd);
        return 2;
    }
    size_t n = (size_t)st.st_size, win = (size_t)512 << 10;
    uint8_t *buf = malloc(win);
    uint64_t sum = 0;
    if (!buf) return 2;
    for (size_t o = 0; o < n; o += win) /* warm the page cache */
        if (pread(fd, buf, win, (off_t)o) <= 0) break;
    double t0 = cpu_now();
    const uint8_t *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
        fprintf(stderr, "floor: cannot map %s\n", path);
        return 2;
    }
    for (size_t i = 0; i < n; i += 4096) sum += m[i];
    double tm = cpu_now() - t0;
    munmap((void *)m, n);
    t0 = cpu_now();
    for (size_t o = 0; o < n; o += win) {
        ssize_t r = pread(fd, buf, win, (off_t)o);
        if (r <= 0) break;
        for (ssize_t i = 0; i < r; i += 4096) sum += buf[i];
    }
    double tp = cpu_now() - t0;
    printf("mapped   %8.3f s cpu %9.1f MB/s  (%.2f us a 4 KiB page)\n", tm, (double)n / 1e6 / tm,
           tm * 1e6 / (double)(n / 4096));
    printf("pread    %8.3f s cpu %9.1f MB/s  (512 KiB buffer, copy included)  [%llu]\n", tp, (double)n / 1e6 / tp,
           (unsigned long long)(sum & 1));
    free(buf);
    close(fd);
    return 0;
}

typedef struct {
    uint64_t hi;
    uint32_t batch;
    uint16_t delta, tsd;
} table_ent; /* fptable.c's fp_ent */

/* fptable.c's slot_home: the tag scaled to the table */
static inline size_t table_home(uint32_t tag, size_t cap) { return (size_t)(((uint64_t)tag * cap) >> 32); }

static int table_model(const char *count, const char *pct) {
    char *end;
    unsigned long long n = strtoull(count, &end, 10);
    if (*end || n < 1000 || n > 100000000ull) {
        fprintf(stderr, "floor: --table N (1000 to 100000000)\n");
        return 2;
    }
    unsigned long rep = pct ? strtoul(pct, &end, 10) : 10;
    if ((pct && *end) || rep > 90) {
        fprintf(stderr, "floor: --repeats PCT (0 to 90)\n");
        return 2;
    }
    size_t cap = (size_t)(n / 3 * 5 + 64); /* fptable.c's slots_for */
    /* the table's arrays as the analysis allocates them (base/mem.c: 2 MiB aligned, huge pages
     * asked for; on 4 KiB pages every probe would also miss the TLB), zeroed below */
    uint64_t *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
    uint64_t *slots = ss_big_realloc(NULL, cap * sizeof *slots);
    table_ent *ents = ss_big_realloc(NULL, n * sizeof *ents);
    if (!lo || !hi || !slots || !ents) {
        fprintf(stderr, "floor: out of memory\n");
        return 2;
    }
    uint64_t x = 0x9e3779b97f4a7c15ull; /* xorshift64: which records repeat, and whom */
    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (i > 0 && x % 100 < rep) {
            uint64_t k = (x >> 8) % i;
            lo[i] = lo[k], hi[i] = hi[k];
        } else {
            XXH128_hash_t h = XXH3_128bits(&i, sizeof i);
            lo[i] = h.low64, hi[i] = h.high64;
        }
    }
    memset(slots, 0, cap * sizeof *slots); /* zeroed, and the pages in place before the clock starts */
    memset(ents, 0, n * sizeof *ents);
    size_t nents = 0, repeats = 0;
    double t0 = cpu_now();
    for (uint64_t i = 0; i < n; i++) {
#if defined(__GNUC__)
        if (i + 16 < n) __builtin_prefetch(&slots[table_home((uint32_t)lo[i + 16], cap)]);
#endif
        uint32_t tag = (uint32_t)lo[i];
        size_t j = table_home(tag, cap);
        bool seen = false;
        for (uint64_t v; (v = slots[j]) != 0; j = j + 1 == cap ? 0 : j + 1) {
            if ((uint32_t)(v >> 32) == tag && ents[(uint32_t)v - 1].hi == hi[i]) {
                seen = true;
                break;
            }
        }
        if (seen) {
            repeats++;
            continue;
        }
        ents[nents] = (table_ent){hi[i], (uint32_t)i, 0, 0};
        slots[j] = (uint64_t)tag << 32 | ++nents;
    }
    double t = cpu_now() - t0;
    printf("table    %8.3f s cpu %9.1f ns an insert  (%llu fingerprints, %zu distinct, %zu repeats; slots %.1f MiB, "
           "entries %.1f MiB)\n",
           t, t * 1e9 / (double)n, n, nents, repeats, (double)cap * 8 / 1048576, (double)nents * 16 / 1048576);
    free(lo);
    free(hi);
    ss_big_free(slots);
    ss_big_free(ents);
    return 0;
}

int main(int argc, char **argv) {
    const char *path = NULL;
    if ((argc == 3 || (argc == 4 && !strcmp(argv[3], "--small-pages"))) && !strcmp(argv[1], "--touch"))
        return touch(argv[2], argc == 4);
    if (argc == 3 && !strcmp(argv[1], "--map")) return map_vs_pread(argv[2]);
    if ((argc == 3 || (argc == 5 && !strcmp(argv[3], "--repeats"))) && !strcmp(argv[1], "--table"))
        return table_model(argv[2], argc == 5 ? argv[4] : NULL);
    int runs = 5, only = -1;
    bool warm = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--no-warm")) {
            warm = false;
        } else if (!strcmp(argv[i], "--depth") && i + 1 < argc) {
            const char *v = argv[++i];
            for (int k = 0; k < D_COUNT; k++)
                if (!strcmp(v, depth_name[k])) only = k;
            if (only < 0) {
                fprintf(stderr, "floor: --depth walk|decompress|records|hash\n");
                return 2;
            }
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: floor FILE.log [--runs N] [--depth walk|decompress|records|hash] [--no-warm]\n"
                            "       floor --touch MIB [--small-pages]\n"
                            "       floor --map FILE\n"
                            "       floor --table N [--repeats PCT]\n");
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (!path || runs < 1 || runs > 100) {
        fprintf(stderr, "usage: floor FILE.log [--runs N] [--depth walk|decompress|records|hash] [--no-warm]\n");
        return 2;
    }
    uint64_t sink = 0;
    for (int k = 0; k < D_COUNT; k++) {
        if (only >= 0 && k != only) continue;
        double t[100];
        uint64_t recs = 0, bytes = 0;
        if (warm) (void)one_pass(path, k, &recs, &bytes, &sink); /* the page cache */
        for (int i = 0; i < runs; i++) t[i] = one_pass(path, k, &recs, &bytes, &sink);
        qsort(t, (size_t)runs, sizeof *t, cmp_double);
        double m = t[runs / 2];
        printf("%-11s %8.3f s cpu %9.1f MB/s %11.0f records/s\n", depth_name[k], m, (double)bytes / 1e6 / m,
               (double)recs / m);
    }
    return sink == 42 ? 1 : 0; /* keep the hashes from being optimised away */
}
