/* segscan dump - a partition directory, a log directory (or a directory of
 * log directories, three levels down at most): every file it holds, in an
 * order that reads as the partition is built, instead of kafka-dump-log.sh's
 * "Ignoring unknown file" for a directory:
 *
 *   1. the subdirectories, partitions by topic then partition number;
 *   2. the segments in offset order, each .log followed by its .index,
 *      .timeindex and .txnindex;
 *   3. the producer .snapshot files in offset order, then the KRaft
 *      snapshots (<offset>-<epoch>.checkpoint in offset order, then
 *      bootstrap.checkpoint);
 *   4. the text files (leader-epoch-checkpoint, partition.metadata,
 *      quorum-state; recovery-point-offset-checkpoint,
 *      replication-offset-checkpoint, log-start-offset-checkpoint,
 *      cleaner-offset-checkpoint, meta.properties, .kafka_cleanshutdown).
 *
 * The plan lists the files in that order; cmd_dump.c dumps each as when it is
 * named, and says why the others are left out. Broker temporaries
 * (.deleted, .cleaned, .swap, .tmp files; -delete, -stray, -future
 * directories) are skipped with a note, as the analysis commands skip them
 * (name a file to dump it); other files with "Ignoring unknown file", as
 * kafka-dump-log.sh says it.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/common.h"
#include "common/out.h"
#include "dump/dump.h"
#include "segscan/files.h"

#define MAX_DEPTH 3

enum role {
    R_SEGMENT = 0, /* the .log, then its index files: the order inside one offset */
    R_INDEX,
    R_TIMEINDEX,
    R_TXNINDEX,
    R_PRODUCER_SNAPSHOT,
    R_KRAFT_SNAPSHOT,
    R_BOOTSTRAP,
    R_TEXT,
    R_TEMPORARY,
    R_UNKNOWN,
    R_DIR,
};

typedef struct entry {
    char *name;
    enum role role;
    int64_t offset;    /* segments, index files, snapshots: the offset in the name */
    int text_kind;     /* R_TEXT: ss_text_kind */
    char *topic;       /* R_DIR: the topic of "<topic>-<n>", NULL for another name */
    int64_t partition; /* R_DIR */
} entry;

static bool has_suffix(const char *s, const char *suf) {
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

/* The 20-digit offset a name starts with. */
static bool digits20(const char *name, int64_t *off) {
    *off = ss_name_offset20(name);
    return *off >= 0;
}

/* 20 digits then suf exactly (Kafka's LogFileUtils names); the offset. */
static bool offset_name(const char *name, const char *suf, int64_t *off) {
    size_t n = strlen(name), m = strlen(suf);
    return n == 20 + m && memcmp(name + 20, suf, m) == 0 && digits20(name, off);
}

/* <20-digit end offset>-<10-digit epoch>.checkpoint (raft's Snapshots.parse); the end offset. */
static bool kraft_snapshot_name(const char *name, int64_t *off) {
    if (strlen(name) != 20 + 1 + 10 + 11 || name[20] != '-' || memcmp(name + 31, ".checkpoint", 11) != 0) return false;
    for (int i = 21; i < 31; i++)
        if (name[i] < '0' || name[i] > '9') return false;
    return digits20(name, off);
}

static bool is_temporary(const char *name) {
    return has_suffix(name, ".deleted") || has_suffix(name, ".cleaned") || has_suffix(name, ".swap") ||
           has_suffix(name, ".tmp");
}

static bool is_temporary_dir(const char *name) {
    return has_suffix(name, "-delete") || has_suffix(name, "-stray") || has_suffix(name, "-future");
}

/* "orders-3": topic "orders", partition 3 (UnifiedLog.parseTopicPartitionName). */
static void partition_of(entry *e) {
    const char *dash = strrchr(e->name, '-');
    e->topic = NULL;
    e->partition = -1;
    if (!dash || dash == e->name || !dash[1] || strlen(dash + 1) > 9) return;
    int64_t p = 0;
    for (const char *q = dash + 1; *q; q++) {
        if (*q < '0' || *q > '9') return;
        p = p * 10 + (*q - '0');
    }
    size_t n = (size_t)(dash - e->name);
    e->topic = malloc(n + 1);
    if (!e->topic) return;
    memcpy(e->topic, e->name, n);
    e->topic[n] = 0;
    e->partition = p;
}

static void classify(entry *e, const char *dir) {
    const char *n = e->name;
    char *full = ss_path_join(dir, n);
    struct stat st;
    bool isdir = full && stat(full, &st) == 0 && S_ISDIR(st.st_mode);
    free(full);
    e->offset = -1;
    if (isdir) {
        e->role = is_temporary_dir(n) ? R_TEMPORARY : R_DIR;
        if (e->role == R_DIR) partition_of(e);
        return;
    }
    if (offset_name(n, ".log", &e->offset)) e->role = R_SEGMENT;
    else if (offset_name(n, ".index", &e->offset)) e->role = R_INDEX;
    else if (offset_name(n, ".timeindex", &e->offset)) e->role = R_TIMEINDEX;
    else if (offset_name(n, ".txnindex", &e->offset)) e->role = R_TXNINDEX;
    else if (offset_name(n, ".snapshot", &e->offset)) e->role = R_PRODUCER_SNAPSHOT;
    else if (kraft_snapshot_name(n, &e->offset)) e->role = R_KRAFT_SNAPSHOT;
    else if (!strcmp(n, "bootstrap.checkpoint")) e->role = R_BOOTSTRAP;
    else if ((e->text_kind = (int)ss_text_kind_of(n)) != SS_TEXT_NONE) e->role = R_TEXT;
    else if (is_temporary(n)) e->role = R_TEMPORARY;
    else e->role = R_UNKNOWN;
}

/* The group a role is dumped in (the order above). */
static int group_of(enum role r) {
    switch (r) {
    case R_DIR: return 0;
    case R_SEGMENT:
    case R_INDEX:
    case R_TIMEINDEX:
    case R_TXNINDEX: return 1;
    case R_PRODUCER_SNAPSHOT: return 2;
    case R_KRAFT_SNAPSHOT: return 3;
    case R_BOOTSTRAP: return 4;
    case R_TEXT: return 5;
    default: return 6;
    }
}

static int cmp_entry(const void *a, const void *b) {
    const entry *x = a, *y = b;
    int gx = group_of(x->role), gy = group_of(y->role);
    if (gx != gy) return gx < gy ? -1 : 1;
    if (x->role == R_DIR) {
        /* partitions first, by topic then number; other directories by name */
        if (!x->topic != !y->topic) return x->topic ? -1 : 1;
        if (x->topic) {
            int c = strcmp(x->topic, y->topic);
            if (c) return c;
            if (x->partition != y->partition) return x->partition < y->partition ? -1 : 1;
        }
        return strcmp(x->name, y->name);
    }
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    if (x->role != y->role) return x->role < y->role ? -1 : 1;
    if (x->role == R_TEXT && x->text_kind != y->text_kind) return x->text_kind < y->text_kind ? -1 : 1;
    return strcmp(x->name, y->name);
}

static bool plan_add(dump_plan *p, char *path, enum dump_step step, int err) {
    if (!SS_ARRAY_GROW(p->v, p->n, p->cap, 64)) {
        free(path);
        return false;
    }
    p->v[p->n].path = path;
    p->v[p->n].step = step;
    p->v[p->n].err = err;
    p->n++;
    return true;
}

static bool plan_dir(dump_plan *p, const char *path, int depth) {
    DIR *d = opendir(path);
    if (!d) {
        size_t n = strlen(path) + 1;
        char *c = malloc(n);
        if (c) memcpy(c, path, n);
        return c && plan_add(p, c, DUMP_UNREADABLE_DIR, errno);
    }
    entry *v = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        if (!SS_ARRAY_GROW(v, n, cap, 64)) {
            ok = false;
            break;
        }
        memset(&v[n], 0, sizeof v[n]);
        size_t len = strlen(de->d_name);
        v[n].name = malloc(len + 1);
        if (!v[n].name) {
            ok = false;
            break;
        }
        memcpy(v[n].name, de->d_name, len + 1);
        n++;
    }
    closedir(d);
    for (size_t i = 0; i < n; i++) classify(&v[i], path);
    if (n > 1) qsort(v, n, sizeof *v, cmp_entry);
    for (size_t i = 0; i < n && ok; i++) {
        char *full = ss_path_join(path, v[i].name);
        if (!full) {
            ok = false;
            break;
        }
        switch (v[i].role) {
        case R_DIR:
            if (depth < MAX_DEPTH) {
                ok = plan_dir(p, full, depth + 1);
                free(full);
            } else {
                ok = plan_add(p, full, DUMP_TOO_DEEP, 0);
            }
            break;
        case R_TEMPORARY: ok = plan_add(p, full, DUMP_TEMPORARY, 0); break;
        case R_UNKNOWN: ok = plan_add(p, full, DUMP_UNKNOWN, 0); break;
        default: ok = plan_add(p, full, DUMP_FILE, 0); break;
        }
    }
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].topic);
    }
    free(v);
    return ok;
}

bool dump_dir_plan(const char *path, dump_plan *out) {
    memset(out, 0, sizeof *out);
    return plan_dir(out, path, 0);
}

void dump_plan_free(dump_plan *p) {
    for (size_t i = 0; i < p->n; i++) free(p->v[i].path);
    free(p->v);
    p->v = NULL;
    p->n = p->cap = 0;
}
