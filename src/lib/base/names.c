/* segscan - Kafka's file names and paths: the offset a file name starts with
 * (Long.parseLong of the name before its first '.'), and Java's
 * File.getAbsolutePath(), which kafka-dump-log.sh and Kafka's exceptions
 * print; and a directory and a name joined (base/paths.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/paths.h"
#include "segscan/base.h"

/* Java's Long.parseLong over s[0..n): optional sign, then at least one ASCII digit. */
static bool parse_java_long(const char *s, size_t n, int64_t *out) {
    size_t i = 0;
    bool neg = false;
    if (n == 0) return false;
    if (s[0] == '-' || s[0] == '+') {
        neg = s[0] == '-';
        i = 1;
        if (n == 1) return false;
    }
    uint64_t limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    uint64_t v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (limit - d) / 10u) return false;
        v = v * 10u + d;
    }
    *out = neg ? (int64_t)(0u - v) : (int64_t)v;
    return true;
}

bool ss_offset_from_filename(const char *path, int64_t *offset) {
    /* Java's File normalises away a trailing '/', so take the last non-empty component. */
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/') len--;
    size_t start = len;
    while (start > 0 && path[start - 1] != '/') start--;
    const char *name = path + start;
    size_t n = len - start;
    const char *dot = memchr(name, '.', n);
    if (dot) n = (size_t)(dot - name);
    return parse_java_long(name, n, offset);
}

char *ss_java_absolute_path(const char *path) {
    char *cwd = NULL;
    if (path[0] != '/') {
        size_t cap = 256;
        for (;;) {
            char *b = malloc(cap);
            if (!b) return NULL;
            if (getcwd(b, cap)) {
                cwd = b;
                break;
            }
            free(b);
            if (errno != ERANGE || cap > (1u << 20)) return NULL;
            cap *= 2;
        }
    }
    size_t clen = cwd ? strlen(cwd) : 0, plen = strlen(path);
    char *joined = malloc(clen + plen + 2);
    if (!joined) {
        free(cwd);
        return NULL;
    }
    size_t j = 0;
    if (cwd) {
        memcpy(joined, cwd, clen);
        j = clen;
        if (plen) joined[j++] = '/';
    }
    memcpy(joined + j, path, plen);
    j += plen;
    joined[j] = 0;
    free(cwd);
    /* java.io.UnixFileSystem.normalize: collapse "//", drop a trailing '/'. */
    size_t w = 0;
    for (size_t r = 0; joined[r]; r++) {
        if (joined[r] == '/' && w > 0 && joined[w - 1] == '/') continue;
        joined[w++] = joined[r];
    }
    if (w > 1 && joined[w - 1] == '/') w--;
    joined[w] = 0;
    return joined;
}

char *ss_path_join(const char *dir, const char *name) {
    size_t a = strlen(dir), b = strlen(name);
    char *s = malloc(a + b + 2);
    if (!s) return NULL;
    memcpy(s, dir, a);
    size_t k = a;
    if (a && dir[a - 1] != '/') s[k++] = '/';
    memcpy(s + k, name, b + 1);
    return s;
}

int64_t ss_name_offset20(const char *name) {
    int64_t v = 0;
    for (int i = 0; i < 20; i++) {
        if (name[i] < '0' || name[i] > '9') return -1;
        int d = name[i] - '0';
        /* exact: every long up to Long.MAX_VALUE is a legal base offset */
        if (v > (INT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    return v;
}
