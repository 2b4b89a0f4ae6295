/* segscan - consumer groups: the commits kept for listing (opts.commits).
 *
 * A log's commits arrive in log order and are listed by group, topic,
 * partition, then log order. They are kept as fixed-size records; when the
 * records all logs have allocated reach their budget (opts.max_memory less
 * a reserve, groups.c), the log that adds one sorts its buffer and writes it
 * to a temporary file (a run), and at the end its runs are merged into one
 * file (its buffer too when memory is still over the limit then),
 * read back a group at a time: an external merge sort, so the memory a
 * listing takes does not grow with the commits. A transactional commit is
 * held apart until its producer's marker gives its outcome; open
 * transactions' commits are resolved at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/mem.h"
#include "groups_int.h"

static int cmp_rec(const void *a, const void *b, void *arg) {
    const glog *L = arg;
    const gcommit *x = a, *y = b;
    const gpart *s = &L->tps[x->tp], *t = &L->tps[y->tp];
    if (s->group != t->group) return s->group < t->group ? -1 : 1;
    if (x->tp != y->tp) {
        const char *ta = s->topic ? s->topic : "", *tb = t->topic ? t->topic : "";
        int c = strcmp(ta, tb);
        if (c) return c;
        if (s->partition != t->partition) return s->partition < t->partition ? -1 : 1;
        return x->tp < y->tp ? -1 : 1;
    }
    if (x->record_offset != y->record_offset) return x->record_offset < y->record_offset ? -1 : 1;
    return 0;
}

/* Sort the kept commits in place. glibc's qsort_r merge-sorts through a copy as large
 * as the array when it can allocate one, which doubled the memory the commits take
 * under --max-memory at every sort; an introsort needs no memory beside the array. */
static void sift(gcommit *v, size_t i, size_t n, const glog *L) {
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && cmp_rec(&v[c], &v[c + 1], (void *)L) < 0) c++;
        if (cmp_rec(&v[i], &v[c], (void *)L) >= 0) return;
        gcommit t = v[i];
        v[i] = v[c];
        v[c] = t;
        i = c;
    }
}

static void heap_sort(gcommit *v, size_t n, const glog *L) {
    if (n < 2) return;
    for (size_t i = n / 2; i-- > 0;) sift(v, i, n, L);
    for (size_t end = n - 1; end > 0; end--) {
        gcommit t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift(v, 0, end, L);
    }
}

static void swap_rec(gcommit *a, gcommit *b) {
    gcommit t = *a;
    *a = *b;
    *b = t;
}

/* introsort: quicksort (median of three), insertion sort below 16 records, heapsort when
 * the partitions go badly (depth past 2 log n) */
static void sort_part(gcommit *v, size_t n, const glog *L, int depth) {
    while (n > 16) {
        if (depth-- == 0) {
            heap_sort(v, n, L);
            return;
        }
        size_t m = n / 2;
        if (cmp_rec(&v[m], &v[0], (void *)L) < 0) swap_rec(&v[m], &v[0]);
        if (cmp_rec(&v[n - 1], &v[0], (void *)L) < 0) swap_rec(&v[n - 1], &v[0]);
        if (cmp_rec(&v[n - 1], &v[m], (void *)L) < 0) swap_rec(&v[n - 1], &v[m]);
        swap_rec(&v[m], &v[n - 2]); /* the pivot, out of the way */
        size_t i = 0, j = n - 2;
        for (;;) {
            while (cmp_rec(&v[++i], &v[n - 2], (void *)L) < 0) {}
            while (j > 0 && cmp_rec(&v[n - 2], &v[--j], (void *)L) < 0) {}
            if (i >= j) break;
            swap_rec(&v[i], &v[j]);
        }
        swap_rec(&v[i], &v[n - 2]);
        /* the smaller side by recursion, the larger by the loop */
        if (i < n - i - 1) {
            sort_part(v, i, L, depth);
            v += i + 1;
            n -= i + 1;
        } else {
            sort_part(v + i + 1, n - i - 1, L, depth);
            n = i;
        }
    }
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && cmp_rec(&v[k], &v[k - 1], (void *)L) < 0; k--) swap_rec(&v[k], &v[k - 1]);
}

static void sort_recs(gcommit *v, size_t n, const glog *L) {
    int depth = 0;
    for (size_t k = n; k > 1; k >>= 1) depth += 2;
    sort_part(v, n, L, depth);
}

/* The memory a buffer of n records takes: from 256 KiB on ss_big_realloc maps it on 2 MiB
 * huge pages (base/mem.c), and a huge page is resident whole once touched. */
static size_t buf_bytes(size_t n) {
    size_t b = n * sizeof(gcommit);
    if (b + 16 < ((size_t)256 << 10)) return b;
    size_t huge = (size_t)2 << 20;
    return (b + 16 + huge - 1) / huge * huge;
}

/* the bytes every log takes now */
static size_t used(const gcommits *c) { return g_counted(c->in_memory); }

static void count_sub(gcommits *c, size_t bytes) { g_uncount(c->in_memory, bytes); }

static FILE *temp_file(const gcommits *c) {
    const char *dir = c->tmpdir;
    if (!dir) dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    size_t n = strlen(dir) + 32;
    char *path = malloc(n);
    if (!path) return NULL;
    snprintf(path, n, "%s/segscan-groups-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        free(path);
        return NULL;
    }
    unlink(path);
    free(path);
    FILE *f = fdopen(fd, "w+b");
    if (!f) close(fd);
    return f;
}

/* n records in a new temporary file; NULL (and c->failed) when it cannot be written */
static FILE *write_temp(gcommits *c, const gcommit *v, size_t n) {
    FILE *f = temp_file(c);
    if (f && (fwrite(v, sizeof *v, n, f) != n || fflush(f) != 0)) {
        fclose(f);
        f = NULL;
    }
    if (!f) c->failed = true;
    return f;
}

static bool write_run(glog *L) {
    gcommits *c = &L->commits;
    if (!c->n) return true;
    sort_recs(c->buf, c->n, L);
    FILE *f = write_temp(c, c->buf, c->n);
    if (!f) return false;
    if (!SS_GROW(c->runs, c->nruns, c->runcap, 8)) {
        fclose(f);
        return false;
    }
    c->runs[c->nruns++] = (grun){f, c->n};
    c->spilled += c->n;
    /* the buffer goes: memory is counted by what is allocated */
    count_sub(c, buf_bytes(c->cap));
    ss_big_free(c->buf);
    c->buf = NULL;
    c->cap = 0;
    c->n = 0;
    return true;
}

enum { MAX_RUNS = 32, RUN_MIN = 8192 };
static bool merge_runs(glog *L, bool final);
bool gc_add(glog *L, const gcommit *r) {
    gcommits *c = &L->commits;
    if (c->failed) return false;
    /* a run holds RUN_MIN records at least (the memory can go over by that much a log
     * being read), and MAX_RUNS runs are merged into one */
    if (c->budget && c->n >= RUN_MIN && used(c) >= c->budget) {
        if (!write_run(L)) return false;
        if (c->nruns >= MAX_RUNS && !merge_runs(L, false)) return false;
    }
    size_t before = c->cap;
    /* the buffer is a mapping of its own (base/mem.h): freed when it goes to a run, its
     * memory goes back to the system at once (malloc's heap would keep it) */
    if (c->n == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 16;
        gcommit *nb = ss_big_realloc(c->buf, nc * sizeof *nb);
        if (!nb) return false;
        c->buf = nb;
        c->cap = nc;
    }
    if (c->cap != before) g_count(c->in_memory, buf_bytes(c->cap) - buf_bytes(before));
    c->buf[c->n++] = *r;
    c->total++;
    return true;
}

/* Held records: a slot is reused once resolved (the free list runs through
 * record_offset, with the slot's tp set to UINT32_MAX). */
int64_t gc_hold(glog *L, const gcommit *r) {
    gcommits *c = &L->commits;
    if (c->failed) return -1;
    size_t before = c->capheld;
    if (!SS_GROW(c->held, c->nheld, c->capheld, 64)) return -1;
    g_count(c->in_memory, (c->capheld - before) * sizeof *c->held);
    size_t i = c->nheld++;
    c->held[i] = *r;
    return (int64_t)i;
}

void gc_resolve(glog *L, int64_t held, int outcome, bool effective, int64_t effective_time) {
    gcommits *c = &L->commits;
    if (held < 0 || (size_t)held >= c->nheld) return;
    gcommit r = c->held[held];
    r.outcome = (uint8_t)outcome;
    r.effective = effective;
    r.effective_time = effective_time;
    if (!gc_add(L, &r)) L->nomem = L->nomem || !c->failed;
    /* the held list empties when every transaction it holds has ended */
    c->held[held].tp = UINT32_MAX;
    while (c->nheld && c->held[c->nheld - 1].tp == UINT32_MAX) c->nheld--;
}

/* k-way merge of the runs into one file: the final one (counting the records of
 * each group), or a single run when there are too many (MAX_RUNS files open). */
static bool merge_runs(glog *L, bool final) {
    gcommits *c = &L->commits;
    size_t k = c->nruns;
    enum { CHUNK = 512 };
    gcommit **bufs = calloc(k, sizeof *bufs);
    size_t *have = calloc(k, sizeof *have), *at = calloc(k, sizeof *at), *left = calloc(k, sizeof *left);
    bool ok = bufs && have && at && left;
    for (size_t i = 0; ok && i < k; i++) {
        bufs[i] = malloc(CHUNK * sizeof **bufs);
        if (!bufs[i]) ok = false;
        else {
            left[i] = c->runs[i].len;
            rewind(c->runs[i].f);
        }
    }
    FILE *out = ok ? temp_file(c) : NULL;
    if (ok && !out) c->failed = true;
    ok = ok && out;
    size_t idx = 0;
    while (ok) {
        size_t best = k;
        for (size_t i = 0; i < k; i++) {
            if (at[i] == have[i]) {
                if (!left[i]) continue;
                size_t want = left[i] < CHUNK ? left[i] : CHUNK;
                if (fread(bufs[i], sizeof **bufs, want, c->runs[i].f) != want) {
                    c->failed = true;
                    ok = false;
                    break;
                }
                have[i] = want;
                at[i] = 0;
                left[i] -= want;
            }
            if (best == k || cmp_rec(&bufs[i][at[i]], &bufs[best][at[best]], L) < 0) best = i;
        }
        if (!ok || best == k) break;
        const gcommit *r = &bufs[best][at[best]++];
        if (final) {
            uint32_t g = L->tps[r->tp].group;
            if (!c->group_n[g]) c->group_at[g] = (uint32_t)idx;
            c->group_n[g]++;
        }
        idx++;
        if (fwrite(r, sizeof *r, 1, out) != 1) {
            c->failed = true;
            ok = false;
        }
    }
    if (ok && fflush(out) != 0) {
        c->failed = true;
        ok = false;
    }
    for (size_t i = 0; i < k; i++) {
        if (bufs) free(bufs[i]);
        fclose(c->runs[i].f);
    }
    free(bufs);
    free(have);
    free(at);
    free(left);
    c->nruns = 0;
    if (ok && !final) {
        /* the merged run takes the first place (the array has room for one) */
        if (!SS_GROW(c->runs, 0, c->runcap, 1)) {
            fclose(out);
            return false;
        }
        c->runs[c->nruns++] = (grun){out, idx};
        return true;
    }
    free(c->runs);
    c->runs = NULL;
    c->runcap = 0;
    if (ok) c->merged = out;
    else if (out) fclose(out);
    return ok;
}

bool gc_finish(glog *L) {
    gcommits *c = &L->commits;
    if (!L->opts->commits) return true;
    free(c->held);
    count_sub(c, c->capheld * sizeof *c->held);
    c->held = NULL;
    c->nheld = c->capheld = 0;
    c->group_at = calloc(L->ngroups ? L->ngroups : 1, sizeof *c->group_at);
    c->group_n = calloc(L->ngroups ? L->ngroups : 1, sizeof *c->group_n);
    if (!c->group_at || !c->group_n) return false;
    if (c->failed) return false;
    if (!c->nruns && !(c->budget && c->n && used(c) > c->budget)) {
        sort_recs(c->buf, c->n, L);
        if (c->n && c->n < c->cap) { /* keep what is used only */
            gcommit *nb = ss_big_realloc(c->buf, c->n * sizeof *nb);
            if (nb) {
                count_sub(c, buf_bytes(c->cap) - buf_bytes(c->n));
                c->buf = nb;
                c->cap = c->n;
            }
        }
        c->sorted = c->buf;
        c->buf = NULL;
        for (size_t i = 0; i < c->n; i++) {
            uint32_t g = L->tps[c->sorted[i].tp].group;
            if (!c->group_n[g]) c->group_at[g] = (uint32_t)i;
            c->group_n[g]++;
        }
        return true;
    }
    if (!write_run(L)) return false;
    return merge_runs(L, true);
}

/* The commits kept sorted in memory written to a file, read from there (the run ends
 * with more than --max-memory taken: the logs read after this one took it). */
bool gc_spill_sorted(glog *L) {
    gcommits *c = &L->commits;
    if (!c->sorted) return true;
    FILE *f = write_temp(c, c->sorted, c->n);
    if (!f) return false;
    c->merged = f;
    c->spilled += c->n;
    ss_big_free(c->sorted);
    c->sorted = NULL;
    count_sub(c, buf_bytes(c->cap));
    c->cap = 0;
    return true;
}

void gc_free(gcommits *c) {
    count_sub(c, buf_bytes(c->cap));
    count_sub(c, c->capheld * sizeof *c->held);
    ss_big_free(c->buf);
    free(c->held);
    ss_big_free(c->sorted);
    for (size_t i = 0; i < c->nruns; i++) fclose(c->runs[i].f);
    free(c->runs);
    if (c->merged) fclose(c->merged);
    free(c->group_at);
    free(c->group_n);
    memset(c, 0, sizeof *c);
}

/* Read `n` records of the sorted order from `first` (memory or the merged file). */
size_t gc_read(const glog *L, size_t first, gcommit *out, size_t n);
size_t gc_read(const glog *L, size_t first, gcommit *out, size_t n) {
    const gcommits *c = &L->commits;
    if (c->sorted) {
        memcpy(out, c->sorted + first, n * sizeof *out);
        return n;
    }
    if (!c->merged) return 0;
    size_t want = n * sizeof *out;
    off_t pos = (off_t)(first * sizeof *out);
    size_t got = 0;
    while (got < want) {
        ssize_t r = pread(fileno(c->merged), (char *)out + got, want - got, pos + (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    return got / sizeof *out;
}
