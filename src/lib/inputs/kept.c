/* segscan - segments kept in memory (see kept.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error_set.h"
#include "base/grow.h"
#include "inputs/kept.h"

typedef struct kept_file {
    char *path;
    uint8_t *data;
    size_t len;
    uint64_t dev, ino; /* the file the bytes were read from */
} kept_file;

struct ss_kept {
    pthread_mutex_t mu;
    uint64_t budget, used; /* used: the bytes kept, and those being read to be kept */
    kept_file *v;
    size_t n, cap;
};

ss_kept *ss_kept_new(uint64_t budget) {
    ss_kept *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    if (pthread_mutex_init(&k->mu, NULL) != 0) {
        free(k);
        return NULL;
    }
    k->budget = budget;
    return k;
}

void ss_kept_free(ss_kept *k) {
    if (!k) return;
    for (size_t i = 0; i < k->n; i++) {
        free(k->v[i].path);
        free(k->v[i].data);
    }
    free(k->v);
    pthread_mutex_destroy(&k->mu);
    free(k);
}

static const kept_file *find(const ss_kept *k, const char *path) {
    for (size_t i = 0; i < k->n; i++)
        if (!strcmp(k->v[i].path, path)) return &k->v[i];
    return NULL;
}

bool ss_kept_find(const ss_kept *k, const char *path, const uint8_t **data, size_t *len) {
    if (!path) return false;
    ss_kept *m = (ss_kept *)k; /* the lock only */
    pthread_mutex_lock(&m->mu);
    const kept_file *f = find(k, path);
    if (f) *data = f->data, *len = f->len;
    pthread_mutex_unlock(&m->mu);
    return f != NULL;
}

bool ss_kept_find_same(const ss_kept *k, const char *path, const uint8_t **data, size_t *len) {
    if (!path) return false;
    ss_kept *m = (ss_kept *)k; /* the lock only */
    pthread_mutex_lock(&m->mu);
    const kept_file *f = find(k, path);
    kept_file c = f ? *f : (kept_file){0};
    pthread_mutex_unlock(&m->mu);
    struct stat st;
    if (!f || stat(path, &st) != 0 || (uint64_t)st.st_dev != c.dev || (uint64_t)st.st_ino != c.ino || st.st_size < 0 ||
        (uint64_t)st.st_size != c.len)
        return false;
    *data = c.data, *len = c.len;
    return true;
}

size_t ss_kept_files(const ss_kept *k) { return k->n; }

uint64_t ss_kept_bytes(const ss_kept *k) {
    uint64_t b = 0;
    for (size_t i = 0; i < k->n; i++) b += k->v[i].len;
    return b;
}

bool ss_kept_reserve(ss_kept *k, uint64_t size) {
    pthread_mutex_lock(&k->mu);
    bool fits = size <= k->budget - k->used && (uint64_t)(size_t)size == size;
    if (fits) k->used += size;
    pthread_mutex_unlock(&k->mu);
    return fits;
}

bool ss_kept_add(ss_kept *k, uint64_t reserved, char *path, uint8_t *data, size_t len, uint64_t dev, uint64_t ino,
                 const uint8_t **kdata, size_t *klen) {
    pthread_mutex_lock(&k->mu);
    const kept_file *there = find(k, path);
    bool added = !there && SS_GROW(k->v, k->n, k->cap, 16);
    if (added) k->v[k->n++] = (kept_file){path, data, len, dev, ino};
    else k->used -= reserved;
    if (there) *kdata = there->data, *klen = there->len;
    pthread_mutex_unlock(&k->mu);
    if (!added) {
        free(path);
        free(data);
    } else {
        *kdata = data, *klen = len;
    }
    return added || there;
}

void ss_kept_unreserve(ss_kept *k, uint64_t size) {
    pthread_mutex_lock(&k->mu);
    k->used -= size;
    pthread_mutex_unlock(&k->mu);
}
