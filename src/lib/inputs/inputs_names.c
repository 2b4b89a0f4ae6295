/* segscan - PATHs to partitions: what a file's or a directory's name says: a
 * segment's base offset, a broker temporary, the files Kafka keeps beside
 * segments, a KRaft snapshot, a partition directory's topic and number
 * (inputs_names.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/paths.h"
#include "inputs/inputs_names.h"

static const char *const TEMP_FILE_SUFFIXES[] = {".deleted", ".cleaned", ".swap"};

const char *in_base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

bool in_has_suffix(const char *s, const char *suf) {
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

/* "00000000000000000042.log" (20 digits); with a temporary suffix when temp is
 * set. Returns the offset or -1. */
int64_t in_segment_name_offset(const char *name, bool *is_temp) {
    *is_temp = false;
    int64_t v = ss_name_offset20(name);
    if (v < 0) return -1;
    const char *rest = name + 20;
    if (strncmp(rest, ".log", 4) != 0) return -1;
    rest += 4;
    if (*rest) {
        bool ok = false;
        for (size_t i = 0; i < sizeof TEMP_FILE_SUFFIXES / sizeof *TEMP_FILE_SUFFIXES; i++)
            if (!strcmp(rest, TEMP_FILE_SUFFIXES[i])) ok = true;
        if (!ok) return -1;
        *is_temp = true;
    }
    return v;
}

bool in_is_temp_file(const char *name) {
    for (size_t i = 0; i < sizeof TEMP_FILE_SUFFIXES / sizeof *TEMP_FILE_SUFFIXES; i++)
        if (in_has_suffix(name, TEMP_FILE_SUFFIXES[i])) return true;
    return false;
}

/* -delete and -stray: a partition on its way out; -future: one being copied in by
 * alter-log-dirs, beside the partition it copies (read both, and every record of one
 * would be a copy of the other) */
bool in_is_temp_dir(const char *name) {
    return in_has_suffix(name, "-delete") || in_has_suffix(name, "-stray") || in_has_suffix(name, "-future");
}

/* Files Kafka keeps in a partition or log directory beside the segments. */
bool in_is_known_non_segment(const char *name) {
    static const char *const sufs[] = {".index",          ".timeindex",          ".txnindex",          ".snapshot",
                                       ".checkpoint",     "-checkpoint",         "partition.metadata", "quorum-state",
                                       "meta.properties", ".kafka_cleanshutdown"};
    for (size_t i = 0; i < sizeof sufs / sizeof *sufs; i++)
        if (in_has_suffix(name, sufs[i])) return true;
    /* a temporary of an index or snapshot, e.g. .index.deleted */
    if (strstr(name, ".index.") || strstr(name, ".timeindex.") || strstr(name, ".txnindex.") ||
        strstr(name, ".snapshot."))
        return true;
    return false;
}

/* A KRaft snapshot of the metadata log: "<20-digit end offset>-<10-digit epoch>.checkpoint"
 * (raft's Snapshots.parse), or the log directory's bootstrap.checkpoint. */
bool in_is_kraft_snapshot(const char *name, bool *bootstrap) {
    *bootstrap = !strcmp(name, "bootstrap.checkpoint");
    if (*bootstrap) return true;
    if (strlen(name) != 20 + 1 + 10 + 11 || name[20] != '-' || memcmp(name + 31, ".checkpoint", 11) != 0) return false;
    for (int i = 0; i < 31; i++)
        if (i != 20 && (name[i] < '0' || name[i] > '9')) return false;
    return true;
}

/* Split "orders-3" (or "orders-3.<id>-future") into topic and partition number. */
void in_parse_topic(const char *name, char **topic, int32_t *partno) {
    size_t n = strlen(name);
    /* strip ".<id>-future" / "-delete" / "-stray" */
    static const char *const tails[] = {"-future", "-delete", "-stray"};
    for (size_t t = 0; t < 3; t++) {
        size_t m = strlen(tails[t]);
        if (n > m && !strcmp(name + n - m, tails[t])) {
            const char *dot = NULL;
            for (const char *q = name + n - m; q > name; q--)
                if (q[-1] == '.') {
                    dot = q - 1;
                    break;
                }
            if (dot) n = (size_t)(dot - name);
            break;
        }
    }
    size_t i = n;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') i--;
    if (i < n && i >= 2 && name[i - 1] == '-' && n - i <= 9) {
        long v = strtol(name + i, NULL, 10);
        *partno = (int32_t)v;
        *topic = malloc(i);
        if (*topic) {
            memcpy(*topic, name, i - 1);
            (*topic)[i - 1] = 0;
        }
        return;
    }
    *partno = -1;
    *topic = malloc(n + 1);
    if (*topic) {
        memcpy(*topic, name, n);
        (*topic)[n] = 0;
    }
}
