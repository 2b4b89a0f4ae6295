/* segscan fuzz targets - replay driver (-Dfuzz_engine=none).
 *
 * usage: fuzz_<target> FILE|DIR...
 * Runs the target's LLVMFuzzerTestOneInput once on each file, and on each
 * regular file of each directory (not recursive, in name order). Exits 0 when
 * every input ran (a failed invariant aborts), 2 when an input could not be
 * read or nothing was run.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return -1;
    }
    for (;;) {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        if (r == 0) break;
        n += r;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        perror(path);
        return -1;
    }
    /* an exactly sized copy, as libFuzzer passes it */
    uint8_t *exact = fuzz_dup(buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    long runs = 0;
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            failed = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]) == 0) runs++;
            else failed = 1;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            perror(argv[i]);
            failed = 1;
            continue;
        }
        char **names = NULL;
        size_t nn = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            char **nv = realloc(names, (nn + 1) * sizeof *names);
            if (!nv) break;
            names = nv;
            size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[nn] = malloc(len);
            if (!names[nn]) break;
            snprintf(names[nn], len, "%s/%s", argv[i], e->d_name);
            nn++;
        }
        closedir(d);
        qsort(names, nn, sizeof *names, cmp_str);
        for (size_t k = 0; k < nn; k++) {
            struct stat fs;
            if (stat(names[k], &fs) == 0 && S_ISREG(fs.st_mode)) {
                if (run_file(names[k]) == 0) runs++;
                else failed = 1;
            }
            free(names[k]);
        }
        free(names);
    }
    printf("%ld inputs run\n", runs);
    return failed || runs == 0 ? 2 : 0;
}
