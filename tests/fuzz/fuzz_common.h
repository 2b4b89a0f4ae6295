/* segscan fuzz targets - what the targets share (tests/fuzz).
 *
 * Each target is a libFuzzer entry point, LLVMFuzzerTestOneInput. Built with
 * -Dfuzz_engine=libfuzzer it links libFuzzer (clang -fsanitize=fuzzer); built
 * with the default -Dfuzz_engine=none it links replay.c instead, a main() that
 * runs the target over files and directories (the seed corpus in
 * tests/fuzz/corpus/<target>/), which is how `meson test` runs them.
 *
 * A violated invariant calls FUZZ_CHECK, which aborts: libFuzzer reports it as
 * a crash and the replay driver dies with SIGABRT, failing the test.
 */
#ifndef SS_FUZZ_COMMON_H
#define SS_FUZZ_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "segscan/segscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond);                               \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

/* Sink for bytes read from record views, so every byte a view claims is read
 * (ASan then catches a view that points outside its buffer). */
static volatile uint32_t fuzz_sink;

static inline void fuzz_touch(const uint8_t *p, int64_t n) {
    uint32_t h = 0;
    if (!p || n <= 0) return;
    for (int64_t i = 0; i < n; i++) h = h * 31u + p[i];
    fuzz_sink += h;
}

/* A private, exactly sized copy (ASan catches any read past its end). */
static inline uint8_t *fuzz_dup(const uint8_t *data, size_t size) {
    uint8_t *p = malloc(size ? size : 1);
    if (!p) abort();
    if (size) memcpy(p, data, size);
    return p;
}

static inline void fuzz_put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Decode every record of a batch, reading every byte of every view. Returns
 * the number of records read. */
static inline int64_t fuzz_records(ss_decoder *d, const ss_batch *b) {
    ss_rec_iter it;
    ss_record r;
    ss_error err;
    int64_t n = 0;
    if (ss_records_begin(d, b, &it, &err) != SS_E_OK) {
        FUZZ_CHECK(err.kind != SS_E_OK);
        FUZZ_CHECK(memchr(err.msg, 0, sizeof err.msg) != NULL);
        return 0;
    }
    int rc;
    while ((rc = ss_records_next(&it, &r, &err)) == 1) {
        n++;
        fuzz_touch(r.key, r.key_len);
        fuzz_touch(r.value, r.value_len);
        FUZZ_CHECK(r.key_len >= -1 && r.value_len >= -1);
        size_t pos = 0;
        ss_header h;
        int32_t nh = 0;
        while (ss_header_next(&r, &pos, &h)) {
            fuzz_touch(h.key, h.key_len);
            fuzz_touch(h.value, h.value_len);
            nh++;
        }
        FUZZ_CHECK(nh == r.header_count || b->magic < 2);
        /* a batch cannot hold more records than bytes */
        FUZZ_CHECK(n <= (int64_t)64 * 1024 * 1024);
    }
    FUZZ_CHECK(rc == 0 || rc == -1);
    if (rc == -1) FUZZ_CHECK(err.kind != SS_E_OK && memchr(err.msg, 0, sizeof err.msg) != NULL);
    /* after the end, the iterator stays at the end */
    FUZZ_CHECK(ss_records_next(&it, &r, &err) == 0);
    return n;
}

/* Not instrumented for coverage: a loop of the harness's own (a hash, a digest) would add
 * features of no use to the fuzzer. */
#if defined(__clang__)
#define FUZZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define FUZZ_NO_COVERAGE
#endif

/* FNV-1a over the input, 8 bytes at a time, folded: which inputs a target also runs its costlier
 * comparisons on (one in N, chosen by the input's bytes, so an input always gets the same checks;
 * make_corpus.py computes it alike to pick seeds among them). */
static inline FUZZ_NO_COVERAGE uint64_t fuzz_input_hash(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325u;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3u;
    }
    for (; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
    return h ^ h >> 32;
}

/* Where a target's private files go: /dev/shm when it is there (a tmpfs: creating,
 * truncating and removing a file there costs no journal or block allocation, which
 * on /tmp's ext4 took 5% of fuzz_analysis's time and more of fuzz_groups's), else
 * $TMPDIR, else /tmp. */
static inline const char *fuzz_tmp_root(void) {
    if (access("/dev/shm", W_OK | X_OK) == 0) return "/dev/shm";
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

/* Remove a file or a directory tree. A symbolic link is removed, never followed: one to a
 * directory would have the files of that directory removed. */
static inline void fuzz_rm_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    DIR *d = S_ISDIR(st.st_mode) ? opendir(path) : NULL;
    if (!d) {
        unlink(path);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[1024];
        if (snprintf(p, sizeof p, "%s/%s", path, e->d_name) < (int)sizeof p) fuzz_rm_tree(p);
    }
    closedir(d);
    rmdir(path);
}

/* A private directory of this process, <fuzz_tmp_root>/segscan-fuzz-<what>-<pid>, made empty,
 * into out. A target that crashed, or was killed at a timeout, had no atexit to remove its own:
 * the directories of that name whose process is gone are removed first (once per process, a
 * few entries read). */
static inline void fuzz_private_dir(const char *what, char *out, size_t n) {
    char prefix[64];
    int pl = snprintf(prefix, sizeof prefix, "segscan-fuzz-%s-", what);
    const char *root = fuzz_tmp_root();
    DIR *d = opendir(root);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, prefix, (size_t)pl) != 0) continue;
        char *end;
        long pid = strtol(e->d_name + pl, &end, 10);
        if (end == e->d_name + pl || *end || pid <= 0) continue;
        char p[1024];
        if (snprintf(p, sizeof p, "%s/%s", root, e->d_name) >= (int)sizeof p) continue;
        /* our own directories only: /tmp is everyone's, and a name alike there (a link, another
         * user's directory) is not ours to remove */
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) continue;
        if (pid != (long)getpid() && !(kill((pid_t)pid, 0) != 0 && errno == ESRCH)) continue;
        fuzz_rm_tree(p);
    }
    if (d) closedir(d);
    snprintf(out, n, "%s/%s%ld", root, prefix, (long)getpid());
    FUZZ_CHECK(mkdir(out, 0700) == 0);
}

#endif
