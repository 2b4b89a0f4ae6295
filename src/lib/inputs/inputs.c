/* segscan - resolving PATHs into partitions.
 *
 * A PATH is recognised by what it holds: a directory holding segment files
 * (a 20-digit offset + ".log") is a partition directory; a directory without
 * them is a log directory whose subdirectories are searched (three levels at
 * most); anything else is read as one segment file. Broker temporaries are
 * skipped with a note unless asked for. Names, sorting and the log
 * directory's checkpoint files are settled in ss_inputs_finish(), with what
 * the partition directory says beside its segments (partition.metadata, the
 * leader-epoch-checkpoint, index and snapshot files without their .log).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error_set.h"
#include "base/grow.h"
#include "base/paths.h"
#include "base/test_hooks.h"
#include "format/batch.h"
#include "format/kafka_format.h"
#include "format/segment.h"
#include "inputs/export_in.h"
#include "inputs/inputs_names.h"
#include "inputs/kept.h"
#include "inputs/replicas.h"
#include "segscan/files.h"
#include "segscan/inputs.h"

#define MAX_DEPTH 3

typedef struct part {
    ss_input_partition pub;
    char *key;   /* realpath of the directory or file: identity */
    char *given; /* path as given or found */
    ss_input_segment *segs;
    char **seg_real; /* realpath of each segment (deduplication) */
    size_t nsegs, cap, realcap;
    uint8_t *mem; /* in-memory bytes: malloc'd, or in xmap */
    size_t memlen;
    ss_xmap *xmap; /* an export's rebuilt logs' mapping holding mem (a reference), NULL */
    char *name, *topic;
    int64_t *orphans; /* base offsets of index and snapshot files without their .log */
    size_t norphans, orphcap;
    ss_checkpoint epochs; /* leader-epoch-checkpoint, when read */
    char *topic_id, *temporary_of;
    const char *temp_files; /* ".deleted", ".cleaned" or ".swap": this part holds the partition's
                             * segment files of that suffix (split_temporaries) */
    bool listed;            /* its directory was given (or found): every segment of it is read */
    bool no_metadata;       /* its listing has no partition.metadata: not opened to learn that */
    bool no_epochs;         /* nor a leader-epoch-checkpoint */
    int64_t *not_given;     /* segment files was given one by one: the base offsets of the others */
    /* copies of it from other directories read as one (merge_replicas): the segments read
     * (strings owned by the parts they came from), the copies, its name among the inputs */
    ss_input_segment *merged;
    ss_input_replica *replicas;
    char *merged_name;
    /* of each merged segment, the bytes of the copy it is read from when that copy is held in
     * memory (a partition of an export: its one segment, owned by that copy's part, which the
     * inputs keep, held or not), {NULL, 0, false} for a file; NULL when none is */
    struct merged_mem {
        const uint8_t *data;
        size_t len;
        bool set;
    } * merged_mem;
    /* read from an export (inputs/export_in.h): what its rows and metadata say */
    bool exported;
    char *x_topic, *x_topic_id, *x_cluster;
    int32_t x_partition;
    int64_t x_log_start, x_hwm;
} part;

struct ss_inputs {
    bool include_temp;
    bool replicas_once;    /* ss_inputs_replicas_once */
    char *replicas_except; /* a topic whose copies stay apart, or NULL */
    part **held;           /* the copies merged into another input (their files are read through it) */
    size_t nheld, cheld;
    part **parts;
    size_t nparts, cap;
    ss_problems problems;                /* the notes, in the order they were made */
    enum ss_input_note_kind *note_kinds; /* of problems.v[i] */
    size_t nkcap;
    char **snapshots; /* KRaft snapshots given or found (ss_inputs_kraft_snapshot) */
    size_t nsnapshots, scap;
    bool finished;
    bool siblings_done;
    ss_input_sibling *siblings;
    size_t nsiblings, csiblings;
    ss_input_unreadable *unreadable; /* ss_inputs_unreadable_at */
    size_t nunreadable, cunreadable;
    char **dirs_read; /* the real paths of the directories listed (add_dir), for symbolic links */
    size_t ndirs_read, cdirs_read;
    char *first_cluster, *first_cluster_file; /* the first export's kafka.cluster.id, and its file */
    bool clusters_warned;
    const ss_kept *kept; /* files read before, kept in memory (ss_inputs_use_kept), or NULL */
};

static char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static void add_note(ss_inputs *in, ss_severity level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_note(ss_inputs *in, ss_severity level, const char *fmt, ...) {
    if (!SS_GROW(in->note_kinds, in->problems.n, in->nkcap, 16)) return;
    va_list ap;
    va_start(ap, fmt);
    ss_error *e = ss_problems_vadd(&in->problems, level, SS_E_OK, fmt, ap);
    va_end(ap);
    if (e) in->note_kinds[in->problems.n - 1] = SS_INOTE_OTHER;
}

/* An input that could not be read: a note of severity error (its text `msg`), and the entry
 * (path, reason) a summary lists. */
static void add_unreadable(ss_inputs *in, const char *path, const char *reason, bool given, const char *msg) {
    add_note(in, SS_SEV_ERROR, "%s", msg);
    if (!SS_GROW(in->unreadable, in->nunreadable, in->cunreadable, 8)) return;
    char *p = xstrdup(path), *r = xstrdup(reason);
    if (!p || !r) {
        free(p);
        free(r);
        return;
    }
    in->unreadable[in->nunreadable++] = (ss_input_unreadable){p, r, given};
}

static void add_unreadable_errno(ss_inputs *in, const char *path, int err, bool given, const char *what) {
    char msg[1024], reason[256];
    snprintf(reason, sizeof reason, "%s%s", what, strerror(err));
    snprintf(msg, sizeof msg, "%s: %s", path, reason);
    add_unreadable(in, path, reason, given, msg);
}

size_t ss_inputs_unreadable_count(const ss_inputs *in) { return in->nunreadable; }
const ss_input_unreadable *ss_inputs_unreadable_at(const ss_inputs *in, size_t i) { return &in->unreadable[i]; }

ss_inputs *ss_inputs_new(bool include_temp) {
    ss_inputs *in = calloc(1, sizeof *in);
    if (in) in->include_temp = include_temp;
    return in;
}

void ss_inputs_replicas_once(ss_inputs *in, bool once, const char *except_topic) {
    in->replicas_once = once;
    free(in->replicas_except);
    in->replicas_except = except_topic ? xstrdup(except_topic) : NULL;
}

static void part_free(part *p) {
    if (!p) return;
    for (size_t i = 0; i < p->nsegs; i++) {
        free((char *)p->segs[i].path);
        free(p->seg_real[i]);
    }
    free(p->segs);
    free(p->seg_real);
    free(p->key);
    free(p->given);
    if (p->xmap) ss_xmap_release(p->xmap);
    else free(p->mem);
    free(p->name);
    free(p->topic);
    free(p->orphans);
    if (p->pub.epochs_read) ss_checkpoint_free(&p->epochs);
    free(p->topic_id);
    free(p->temporary_of);
    free(p->not_given);
    free(p->merged);
    free(p->replicas);
    free(p->merged_name);
    free(p->merged_mem);
    free(p->x_topic);
    free(p->x_topic_id);
    free(p->x_cluster);
    free(p);
}

void ss_inputs_free(ss_inputs *in) {
    if (!in) return;
    for (size_t i = 0; i < in->ndirs_read; i++) free(in->dirs_read[i]);
    free(in->dirs_read);
    for (size_t i = 0; i < in->nparts; i++) part_free(in->parts[i]);
    free(in->parts);
    for (size_t i = 0; i < in->nheld; i++) part_free(in->held[i]);
    free(in->held);
    free(in->replicas_except);
    ss_problems_free(&in->problems);
    free(in->note_kinds);
    for (size_t i = 0; i < in->nsiblings; i++) {
        free((char *)in->siblings[i].topic);
        free((char *)in->siblings[i].name);
        free((char *)in->siblings[i].path);
    }
    free(in->siblings);
    for (size_t i = 0; i < in->nunreadable; i++) {
        free((char *)in->unreadable[i].path);
        free((char *)in->unreadable[i].reason);
    }
    free(in->unreadable);
    for (size_t i = 0; i < in->nsnapshots; i++) free(in->snapshots[i]);
    free(in->snapshots);
    free(in->first_cluster);
    free(in->first_cluster_file);
    free(in);
}

size_t ss_inputs_count(const ss_inputs *in) { return in->nparts; }
const ss_input_partition *ss_inputs_at(const ss_inputs *in, size_t i) { return &in->parts[i]->pub; }
const ss_problems *ss_inputs_problems(const ss_inputs *in) { return &in->problems; }
enum ss_input_note_kind ss_inputs_note_kind(const ss_inputs *in, size_t i) { return in->note_kinds[i]; }

/* A snapshot's path as given or found, once (two paths of one file: the first). */
static bool add_snapshot(ss_inputs *in, const char *path) {
    char *real = realpath(path, NULL);
    const char *key = real ? real : path;
    for (size_t i = 0; i < in->nsnapshots; i++) {
        char *other = realpath(in->snapshots[i], NULL);
        bool same = !strcmp(other ? other : in->snapshots[i], key);
        free(other);
        if (same) {
            free(real);
            return true;
        }
    }
    free(real);
    char *c = SS_GROW(in->snapshots, in->nsnapshots, in->scap, 8) ? xstrdup(path) : NULL;
    if (!c) return false;
    in->snapshots[in->nsnapshots++] = c;
    return true;
}

/* ---- adding ----------------------------------------------------------------- */

static part *new_part(ss_inputs *in, const char *key, const char *given, bool is_dir, bool named) {
    if (!SS_GROW(in->parts, in->nparts, in->cap, 16)) return NULL;
    part *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->key = xstrdup(key);
    p->given = xstrdup(given);
    if (!p->key || !p->given) {
        part_free(p);
        return NULL;
    }
    p->pub.is_dir = is_dir;
    p->pub.named = named;
    p->pub.high_watermark = -1;
    p->pub.log_start_offset = -1;
    p->pub.cleaner_offset = -1;
    p->pub.export_broker = -1;
    in->parts[in->nparts++] = p;
    return p;
}

static bool part_add_seg(part *p, const char *path, const char *real, int64_t off, bool temp) {
    if (!SS_GROW(p->segs, p->nsegs, p->cap, 4) || !SS_GROW(p->seg_real, p->nsegs, p->realcap, 4)) return false;
    char *pp = path ? xstrdup(path) : NULL;
    char *rr = xstrdup(real ? real : "");
    if ((path && !pp) || !rr) {
        free(pp);
        free(rr);
        return false;
    }
    p->segs[p->nsegs].path = pp;
    p->segs[p->nsegs].name_offset = off;
    p->segs[p->nsegs].temporary = temp;
    p->segs[p->nsegs].read_from = INT64_MIN;
    p->segs[p->nsegs].read_to = INT64_MAX;
    p->segs[p->nsegs].replica = 0;
    p->seg_real[p->nsegs] = rr;
    p->nsegs++;
    return true;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted entry names of a directory (without . and ..). */
static char **list_dir(const char *path, size_t *n, int *err) {
    *n = 0;
    *err = 0;
    DIR *d = opendir(path);
    if (!d) {
        *err = errno;
        return NULL;
    }
    char **v = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (!SS_GROW(v, *n, cap, 32)) break;
        v[*n] = xstrdup(e->d_name);
        if (v[*n]) (*n)++;
    }
    closedir(d);
    if (*n) qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

static void free_list(char **v, size_t n) {
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* Does the directory hold segment files? */
static bool holds_segments(char **names, size_t n, bool include_temp) {
    for (size_t i = 0; i < n; i++) {
        bool temp;
        if (in_segment_name_offset(names[i], &temp) >= 0 && (!temp || include_temp)) return true;
    }
    return false;
}

/* The base offsets named by the index and snapshot files of a partition directory
 * (its sorted entry names) that have no .log of the same offset: Kafka deletes a
 * segment's .log, .index, .timeindex and .txnindex together (LogSegment.deleteIfExists)
 * and the snapshot named by its base offset with them (UnifiedLog.deleteProducerSnapshots),
 * so such a file names a segment that went away otherwise. A snapshot above the last
 * segment's base offset is the one a clean shutdown writes at the log end offset
 * (ProducerStateManager.removeStraySnapshots keeps it): not an orphan. */
static bool find_orphans(part *p, char **names, size_t n) {
    static const char *const sufs[] = {".index", ".timeindex", ".txnindex", ".snapshot"};
    int64_t last_log = -1;
    for (size_t i = 0; i < n; i++) {
        bool temp;
        int64_t off = in_segment_name_offset(names[i], &temp);
        if (off >= 0 && !temp && off > last_log) last_log = off;
    }
    for (size_t i = 0; i < n; i++) {
        const char *nm = names[i];
        if (ss_name_offset20(nm) < 0) continue;
        size_t k;
        for (k = 0; k < sizeof sufs / sizeof *sufs; k++)
            if (!strcmp(nm + 20, sufs[k])) break;
        if (k == sizeof sufs / sizeof *sufs) continue;
        char logname[32];
        memcpy(logname, nm, 20);
        memcpy(logname + 20, ".log", 5);
        char *key = logname;
        if (bsearch(&key, names, n, sizeof *names, cmp_str)) continue;
        bool temp;
        int64_t off = in_segment_name_offset(logname, &temp);
        if (off < 0 || (k == 3 && off > last_log)) continue;
        if (p->norphans && p->orphans[p->norphans - 1] == off) continue; /* names sorted: the same offset in a row */
        if (!SS_GROW(p->orphans, p->norphans, p->orphcap, 8)) return false;
        p->orphans[p->norphans++] = off;
    }
    return true;
}

/* The *.log files of a directory (its sorted entry names) that are not segments: not 20 digits
 * before ".log" (Kafka's LogFileUtils names a segment by its base offset, "%020d.log", and
 * reads no other), nor a broker temporary. Their names into buf (the first 10, then how many
 * more); returns their number. */
static size_t odd_logs(char **names, size_t n, char *buf, size_t cap) {
    size_t odd = 0, used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        bool temp;
        if (len < 4 || strcmp(names[i] + len - 4, ".log") || in_segment_name_offset(names[i], &temp) >= 0) continue;
        if (odd++ < 10 && used < cap) {
            int k = snprintf(buf + used, cap - used, "%s%s", odd > 1 ? ", " : "", names[i]);
            if (k > 0) used += (size_t)k < cap - used ? (size_t)k : cap - used - 1;
        }
    }
    if (odd > 10 && used < cap) snprintf(buf + used, cap - used, " and %zu more", odd - 10);
    return odd;
}

/* real: the directory's real path (malloc'd, taken), or NULL when it has none */
static ss_errkind add_partition_dir(ss_inputs *in, const char *path, char *real, char **names, size_t n, bool named) {
    part *p = new_part(in, real ? real : path, path, true, named);
    if (!p) {
        free(real);
        return SS_E_NOMEM;
    }
    p->listed = true;
    /* names are sorted: the files read_partition_files would find absent are not looked for */
    char *key = "partition.metadata";
    p->no_metadata = !bsearch(&key, names, n, sizeof *names, cmp_str);
    key = "leader-epoch-checkpoint";
    p->no_epochs = !bsearch(&key, names, n, sizeof *names, cmp_str);
    size_t skipped = 0;
    for (size_t i = 0; i < n; i++) {
        bool temp, bootstrap;
        if (in_is_kraft_snapshot(names[i], &bootstrap) && !bootstrap) {
            char *full = ss_path_join(path, names[i]);
            if (!full || !add_snapshot(in, full)) {
                free(full);
                free(real);
                return SS_E_NOMEM;
            }
            free(full);
            continue;
        }
        int64_t off = in_segment_name_offset(names[i], &temp);
        if (off < 0) continue;
        if (temp && !in->include_temp) {
            skipped++;
            continue;
        }
        char *full = ss_path_join(path, names[i]);
        if (!full) {
            free(real);
            return SS_E_NOMEM;
        }
        /* A segment that is no symbolic link is the real directory's entry: realpath() of each
         * would walk every component again (thousands of small partitions, bench/profile.txt). */
        struct stat lst;
        bool plain = real && lstat(full, &lst) == 0 && !S_ISLNK(lst.st_mode);
        char *r = plain ? ss_path_join(real, names[i]) : realpath(full, NULL);
        bool ok = part_add_seg(p, full, r ? r : full, off, temp);
        free(r);
        free(full);
        if (!ok) {
            free(real);
            return SS_E_NOMEM;
        }
    }
    free(real);
    if (skipped)
        add_note(in, SS_SEV_NOTICE,
                 "%s: %zu broker temporar%s (.deleted/.cleaned/.swap) skipped; --include-temp reads them", path,
                 skipped, skipped == 1 ? "y" : "ies");
    char odd[512];
    size_t nodd = odd_logs(names, n, odd, sizeof odd);
    if (nodd)
        add_note(in, SS_SEV_NOTICE, "%s: %zu .log file%s not read, not named as a segment (<20 digits>.log): %s", path,
                 nodd, nodd == 1 ? "" : "s", odd);
    return find_orphans(p, names, n) ? SS_E_OK : SS_E_NOMEM;
}

/* The directories above the one being listed, by real path (a symbolic link loop leads back to
 * one of them). */
typedef struct dir_up {
    const char *real;
    const struct dir_up *up;
} dir_up;

/* Should the directory entry `full`, a symbolic link to a directory, be listed? Not when it leads
 * back to a directory above it (a loop: listing it would repeat the same directories under longer
 * and longer paths) nor to a directory already listed (its partitions are read already, under
 * their first path); either is said in a note, once a link. */
static bool follow_link(ss_inputs *in, const char *full, const dir_up *up) {
    char *real = realpath(full, NULL);
    if (!real) return true; /* said when it is listed */
    bool follow = true;
    for (const dir_up *u = up; u && follow; u = u->up)
        if (!strcmp(u->real, real)) {
            add_note(in, SS_SEV_NOTICE,
                     "%s: a symbolic link loop (it leads back to %s, a directory above it): not followed", full, real);
            follow = false;
        }
    for (size_t k = 0; k < in->ndirs_read && follow; k++)
        if (!strcmp(in->dirs_read[k], real)) {
            add_note(in, SS_SEV_NOTICE, "%s: a symbolic link to %s, a directory already read: not read again", full,
                     real);
            follow = false;
        }
    free(real);
    return follow;
}

/* known_real: path's real path when the caller knows it (an entry that is no symbolic link of
 * a directory whose real path is known: realpath() would walk every component again, and
 * thousands of partition directories make that the scan's main cost, bench/profile.txt), or NULL */
static ss_errkind add_dir(ss_inputs *in, const char *path, const char *known_real, int depth, bool named, size_t *found,
                          const dir_up *up) {
    size_t n;
    int e;
    char **names = list_dir(path, &n, &e);
    if (!names && e) {
        add_unreadable_errno(in, path, e, named, "cannot read directory: ");
        return SS_E_IO;
    }
    char *real = known_real ? xstrdup(known_real) : realpath(path, NULL);
    if (real && !SS_GROW(in->dirs_read, in->ndirs_read, in->cdirs_read, 16)) {
        free(real);
        free_list(names, n);
        return SS_E_NOMEM;
    }
    if (real) in->dirs_read[in->ndirs_read++] = real;
    dir_up here = {real ? real : path, up};
    ss_errkind rc = SS_E_OK;
    if (holds_segments(names, n, in->include_temp)) {
        char *preal = real ? xstrdup(real) : NULL;
        rc = real && !preal ? SS_E_NOMEM : add_partition_dir(in, path, preal, names, n, named);
        if (rc == SS_E_OK) (*found)++;
        free_list(names, n);
        return rc;
    }
    if (named) { /* a directory given: .log files in it that are not segments are said */
        char odd[512];
        size_t nodd = odd_logs(names, n, odd, sizeof odd);
        if (nodd)
            add_note(in, SS_SEV_NOTICE, "%s: %zu .log file%s not read, not named as a segment (<20 digits>.log): %s",
                     path, nodd, nodd == 1 ? "" : "s", odd);
    }
    if (depth >= MAX_DEPTH) {
        free_list(names, n);
        return SS_E_OK;
    }
    /* the directories themselves first, then the symbolic links to directories: a link to a
     * directory read under its own name is said, not read in its place; the first pass notes
     * which entries are links, so that the second lstat()s only those (NULL: every entry) */
    bool *is_link = n ? calloc(n, sizeof *is_link) : NULL;
    for (int links = 0; links < 2; links++) {
        for (size_t i = 0; i < n && rc == SS_E_OK; i++) {
            if (links == 1 && is_link && !is_link[i]) continue;
            char *full = ss_path_join(path, names[i]);
            if (!full) {
                rc = SS_E_NOMEM;
                break;
            }
            struct stat st, lst;
            bool lst_ok = lstat(full, &lst) == 0;
            bool link = lst_ok && S_ISLNK(lst.st_mode);
            if (links == 0 && is_link) is_link[i] = link;
            if (link != (links == 1)) {
                free(full);
                continue;
            }
            if (lst_ok && !link) st = lst; /* no link: stat() would say the same */
            if (!(lst_ok && !link) && stat(full, &st) != 0) {
                /* a dangling symbolic link, or an entry without permission: not read, and said so */
                int err = errno;
                add_unreadable_errno(in, full, err, false, link ? "a symbolic link that cannot be followed: " : "");
            } else if (S_ISDIR(st.st_mode)) {
                if (in_is_temp_dir(names[i]) && !in->include_temp) {
                    size_t sn;
                    int se;
                    char **sub = list_dir(full, &sn, &se);
                    if (holds_segments(sub, sn, true))
                        add_note(in, SS_SEV_NOTICE, "%s: broker temporary directory skipped; --include-temp reads it",
                                 full);
                    free_list(sub, sn);
                } else if (!link || follow_link(in, full, &here)) {
                    /* an entry that is no link of a directory with a real path: its real path
                     * is the parent's and its name */
                    char *sub_real = !link && real ? ss_path_join(real, names[i]) : NULL;
                    rc = !link && real && !sub_real ? SS_E_NOMEM
                                                    : add_dir(in, full, sub_real, depth + 1, false, found, &here);
                    free(sub_real);
                    if (rc == SS_E_IO) rc = SS_E_OK; /* a subdirectory we cannot read: noted, go on */
                }
            }
            free(full);
        }
    }
    free(is_link);
    free_list(names, n);
    return rc;
}

static char *dir_name(const char *path) {
    const char *s = strrchr(path, '/');
    if (!s) return xstrdup(".");
    if (s == path) return xstrdup("/");
    size_t n = (size_t)(s - path);
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, path, n);
    d[n] = 0;
    return d;
}

/* Do the file's first bytes hold a plausible log entry header (a segment under
 * another name)? The entry may run past the end (a cut copy). */
static bool starts_with_batch(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    uint8_t head[V2_OVERHEAD];
    ssize_t n = pread(fd, head, sizeof head, 0);
    close(fd);
    uint64_t size;
    return n >= HEADER_UP_TO_MAGIC && ss_entry_plausible(head, (size_t)n, UINT64_MAX, &size);
}

/* An export: each partition it holds an input of its own, its log rebuilt in a temporary file
 * and mapped (inputs/export_in.h). A file that cannot be read as one is an unreadable input, its reason
 * naming the byte. */
static ss_errkind add_export(ss_inputs *in, const char *path) {
    ss_xfile x;
    ss_error e;
    ss_errkind k = ss_xfile_read(path, &x, &e);
    if (k != SS_E_OK) {
        char msg[SS_ERROR_MSG_SIZE + 1100], reason[SS_ERROR_MSG_SIZE + 64];
        snprintf(reason, sizeof reason, "%s [%s]", e.msg, ss_errkind_name(e.kind));
        snprintf(msg, sizeof msg, "%.1000s: %s", path, reason);
        add_unreadable(in, path, reason, true, msg);
        return k == SS_E_NOMEM ? SS_E_NOMEM : SS_E_IO;
    }
    char *real = realpath(path, NULL);
    if (x.cluster_id) { /* exports of two clusters: their partitions are not one topic's */
        if (!in->first_cluster) {
            in->first_cluster = xstrdup(x.cluster_id);
            in->first_cluster_file = xstrdup(path);
        } else if (strcmp(in->first_cluster, x.cluster_id) != 0 && !in->clusters_warned) {
            in->clusters_warned = true;
            add_note(in, SS_SEV_WARNING,
                     "%s and %s are exports of different clusters (cluster.id %s and %s): a topic of one name "
                     "in both is two topics, yet they are read as one",
                     in->first_cluster_file ? in->first_cluster_file : "?", path, in->first_cluster, x.cluster_id);
        }
    }
    k = SS_E_OK;
    for (size_t i = 0; i < x.n && k == SS_E_OK; i++) {
        ss_xpart *xp = &x.v[i];
        char key[PATH_MAX + 64];
        snprintf(key, sizeof key, "%s#%d", real ? real : path, xp->source);
        part *p = new_part(in, key, path, false, true);
        if (!p) {
            k = SS_E_NOMEM;
            break;
        }
        p->exported = true;
        p->mem = xp->mem;
        p->memlen = xp->len;
        p->xmap = xp->map;
        xp->mem = NULL;
        xp->map = NULL;
        p->x_topic = xp->topic;
        xp->topic = NULL;
        p->x_topic_id = xp->topic_id;
        xp->topic_id = NULL;
        p->x_cluster = x.cluster_id ? xstrdup(x.cluster_id) : NULL;
        p->x_partition = xp->partition;
        p->x_log_start = xp->log_start;
        p->x_hwm = xp->hwm;
        p->pub.export_broker = xp->broker >= 0 ? xp->broker : x.node_id;
        p->pub.export_damage = xp->damage;
        if (!part_add_seg(p, NULL, key, -1, false)) k = SS_E_NOMEM;
        if (xp->damage)
            add_note(in, SS_SEV_WARNING,
                     "%s: %s-%d: the export met %" PRIu64 " damaged %s in its source log, not exported (where and "
                     "why: its metadata, segscan.partitions; CRCs and bytes are not in the export)",
                     path, p->x_topic ? p->x_topic : "?", xp->partition, xp->damage,
                     xp->damage == 1 ? "region" : "regions");
    }
    free(real);
    ss_xfile_free(&x);
    return k;
}

bool ss_inputs_is_export(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && ss_xfile_is_parquet(path);
}

static ss_errkind add_file(ss_inputs *in, const char *path) {
    const char *name = in_base_name(path);
    if (in_is_temp_file(name) && !in->include_temp) {
        add_note(in, SS_SEV_NOTICE, "%s: broker temporary skipped; --include-temp reads it", path);
        return SS_E_OK;
    }
    bool bootstrap;
    if (in_is_kraft_snapshot(name, &bootstrap)) {
        /* the metadata log's state at an offset: not a segment of a partition, but its
         * records (producer-id blocks) serve the analysis */
        if (!add_snapshot(in, path)) return SS_E_NOMEM;
        add_note(in, SS_SEV_NOTICE, "%s: a KRaft snapshot: read for its producer-id blocks only", path);
        return SS_E_OK;
    }
    if (ss_xfile_is_parquet(path)) return add_export(in, path);
    if (in_is_known_non_segment(name)) {
        add_note(in, SS_SEV_NOTICE, "%s: not a segment (.log) file, skipped", path);
        return SS_E_OK;
    }
    char *real = realpath(path, NULL);
    if (!real) {
        add_unreadable_errno(in, path, errno, true, "");
        return SS_E_IO;
    }
    bool temp;
    int64_t off = in_segment_name_offset(name, &temp);
    ss_errkind rc = SS_E_NOMEM;
    if (off >= 0) {
        /* inside a partition directory: the directory is the partition */
        char *dreal = dir_name(real);
        char *dgiven = dir_name(path);
        if (dreal && dgiven) {
            part *p = NULL;
            for (size_t i = 0; i < in->nparts; i++)
                if (in->parts[i]->pub.is_dir && !strcmp(in->parts[i]->key, dreal)) p = in->parts[i];
            if (!p) p = new_part(in, dreal, dgiven, true, true);
            if (p && part_add_seg(p, path, real, off, temp)) rc = SS_E_OK;
        }
        free(dreal);
        free(dgiven);
    } else if (!starts_with_batch(path)) {
        /* neither named nor shaped like a segment (a broker's server.log, a JSON file,
         * random bytes): an input error, not an empty partition with unread bytes */
        char msg[1024];
        snprintf(msg, sizeof msg,
                 "not a Kafka segment: %s (name is not <20 digits>.log; first bytes are not a batch header)", path);
        add_unreadable(in, path,
                       "not a Kafka segment (name is not <20 digits>.log; first bytes are not a batch header)", true,
                       msg);
        rc = SS_E_IO;
    } else {
        part *p = new_part(in, real, path, false, true);
        if (p && part_add_seg(p, path, real, -1, temp)) rc = SS_E_OK;
    }
    free(real);
    return rc;
}

/* A path given (named: by the caller) or found beside one (ss_inputs_add_coordinators: a failure
 * there is noted, and is not a PATH that could not be read). */
static ss_errkind add_path(ss_inputs *in, const char *path, bool named) {
    struct stat st;
    if (stat(path, &st) != 0) {
        add_unreadable_errno(in, path, errno, named, "");
        return SS_E_IO;
    }
    if (S_ISDIR(st.st_mode)) {
        /* strip trailing slashes for naming */
        char *p = xstrdup(path);
        if (!p) return SS_E_NOMEM;
        size_t n = strlen(p);
        while (n > 1 && p[n - 1] == '/') p[--n] = 0;
        if (in_is_temp_dir(in_base_name(p)) && !in->include_temp) {
            add_note(in, SS_SEV_NOTICE, "%s: broker temporary directory skipped; --include-temp reads it", p);
            free(p);
            return SS_E_OK;
        }
        size_t found = 0;
        ss_errkind rc = add_dir(in, p, NULL, 0, named, &found, NULL);
        if (rc == SS_E_OK && found == 0) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s: no Kafka segment files (<20-digit offset>.log) found", p);
            add_unreadable(in, p, "no Kafka segment files (<20-digit offset>.log) found", named, msg);
            rc = SS_E_IO;
        }
        free(p);
        return rc;
    }
    if (!S_ISREG(st.st_mode)) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s: not a regular file or directory", path);
        add_unreadable(in, path, "not a regular file or directory", named, msg);
        return SS_E_IO;
    }
    return add_file(in, path);
}

ss_errkind ss_inputs_add(ss_inputs *in, const char *path) { return add_path(in, path, true); }

ss_errkind ss_inputs_add_memory(ss_inputs *in, const char *name, const uint8_t *data, size_t len) {
    /* the key makes it unique among inputs */
    char key[64];
    snprintf(key, sizeof key, "\x01memory:%zu", in->nparts);
    part *p = new_part(in, key, name, false, true);
    if (!p) return SS_E_NOMEM;
    p->mem = malloc(len ? len : 1);
    if (!p->mem) return SS_E_NOMEM;
    if (len) memcpy(p->mem, data, len);
    p->memlen = len;
    if (!part_add_seg(p, NULL, key, -1, false)) return SS_E_NOMEM;
    return SS_E_OK;
}

/* ---- finishing ---------------------------------------------------------------- */

/* Replace characters outside [A-Za-z0-9._-] by '_'. */
static char *sanitize(const char *s) {
    char *d = xstrdup(s);
    if (!d) return NULL;
    for (char *q = d; *q; q++) {
        char c = *q;
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                  c == '-';
        if (!ok) *q = '_';
    }
    return d;
}

/* The last k components of a path ("/a/b/c", 2 -> "b/c"). */
static const char *suffix_components(const char *path, int k) {
    const char *s = path + strlen(path);
    int seen = 0;
    while (s > path) {
        s--;
        if (*s == '/') {
            if (++seen == k) return s + 1;
        }
    }
    return path[0] == '/' ? path + 1 : path;
}

static int count_components(const char *path) {
    int c = 0;
    for (const char *s = path; *s; s++)
        if (*s == '/' && s[1]) c++;
    return c + (path[0] != '/');
}

typedef struct seg_sort {
    ss_input_segment s;
    char *real;
} seg_sort;

static int cmp_seg(const void *a, const void *b) {
    const seg_sort *x = a, *y = b;
    if (x->s.name_offset != y->s.name_offset) return x->s.name_offset < y->s.name_offset ? -1 : 1;
    if (x->s.temporary != y->s.temporary) return x->s.temporary ? 1 : -1;
    return strcmp(x->real, y->real);
}

static int cmp_part_key(const void *a, const void *b) {
    const part *x = *(part *const *)a, *y = *(part *const *)b;
    return strcmp(x->key, y->key);
}

static int cmp_part_order(const void *a, const void *b) {
    const part *x = *(part *const *)a, *y = *(part *const *)b;
    int c = strcmp(x->pub.topic, y->pub.topic);
    if (c) return c;
    if (x->pub.partition != y->pub.partition) return x->pub.partition < y->pub.partition ? -1 : 1;
    c = strcmp(x->key, y->key);
    if (c) return c;
    return strcmp(x->pub.name, y->pub.name);
}

/* ---- checkpoint files of the log directory (checkpoint.c parses them) ---- */
typedef struct ckpt_file {
    char *dir;
    ss_checkpoint hw, ls, cl;
    bool has_hw, has_ls, has_cl;
} ckpt_file;

static bool ckpt_find(const ss_checkpoint *c, const char *topic, int32_t partno, int64_t *off) {
    for (size_t i = 0; i < c->n; i++)
        if (c->offsets[i].partition == partno && !strcmp(c->offsets[i].topic, topic)) {
            *off = c->offsets[i].offset;
            return true;
        }
    return false;
}

static bool read_ckpt(ss_inputs *in, const char *dir, const char *name, ss_checkpoint *out) {
    char *path = ss_path_join(dir, name);
    if (!path) return false;
    struct stat st;
    bool ok = false;
    if (stat(path, &st) == 0) {
        ss_error err;
        if (ss_checkpoint_read(path, SS_CKPT_OFFSETS, out, &err) == SS_E_OK) ok = true;
        else add_note(in, SS_SEV_WARNING, "%s: %s; not used", path, err.msg);
    }
    free(path);
    return ok;
}

static void apply_checkpoints(ss_inputs *in) {
    ckpt_file *files = NULL;
    size_t nfiles = 0, capfiles = 0;
    for (size_t i = 0; i < in->nparts; i++) {
        part *p = in->parts[i];
        if (!p->pub.is_dir || p->pub.partition < 0) continue;
        char *dir = dir_name(p->key);
        if (!dir) continue;
        ckpt_file *c = NULL;
        for (size_t k = 0; k < nfiles; k++)
            if (!strcmp(files[k].dir, dir)) c = &files[k];
        if (!c) {
            if (!SS_GROW(files, nfiles, capfiles, 8)) {
                free(dir);
                continue;
            }
            c = &files[nfiles++];
            memset(c, 0, sizeof *c);
            c->dir = xstrdup(dir);
            c->has_hw = read_ckpt(in, dir, "replication-offset-checkpoint", &c->hw);
            c->has_ls = read_ckpt(in, dir, "log-start-offset-checkpoint", &c->ls);
            c->has_cl = read_ckpt(in, dir, "cleaner-offset-checkpoint", &c->cl);
        }
        free(dir);
        int64_t v;
        if (c->has_hw && ckpt_find(&c->hw, p->pub.topic, p->pub.partition, &v)) p->pub.high_watermark = v;
        if (c->has_ls && ckpt_find(&c->ls, p->pub.topic, p->pub.partition, &v)) p->pub.log_start_offset = v;
        if (c->has_cl && ckpt_find(&c->cl, p->pub.topic, p->pub.partition, &v)) p->pub.cleaner_offset = v;
    }
    for (size_t k = 0; k < nfiles; k++) {
        if (files[k].has_hw) ss_checkpoint_free(&files[k].hw);
        if (files[k].has_ls) ss_checkpoint_free(&files[k].ls);
        if (files[k].has_cl) ss_checkpoint_free(&files[k].cl);
        free(files[k].dir);
    }
    free(files);
}

/* partition.metadata and the leader-epoch-checkpoint of a partition directory, when
 * Kafka can read them (verify reports on the files that it cannot). */
static void read_partition_files(part *p) {
    char *path = p->no_metadata ? NULL : ss_path_join(p->key, "partition.metadata");
    ss_partition_metadata md;
    ss_error err;
    if (path && ss_partition_metadata_read(path, &md, &err) == SS_E_OK) {
        p->topic_id = xstrdup(md.topic_id_str);
        p->pub.topic_id = p->topic_id;
    }
    free(path);
    path = p->no_epochs ? NULL : ss_path_join(p->key, "leader-epoch-checkpoint");
    struct stat st;
    if (path && stat(path, &st) == 0 && ss_checkpoint_read(path, SS_CKPT_LEADER_EPOCH, &p->epochs, &err) == SS_E_OK) {
        p->pub.epochs_read = true;
        p->pub.nepochs = p->epochs.n;
        p->pub.epochs = p->epochs.epochs;
    }
    free(path);
}

/* A -delete, -future or -stray directory, or the temporary segment files of a partition
 * (split_temporaries): a temporary copy of "<topic>-<n>". */
static void name_temporary(part *p) {
    const char *bn = in_base_name(p->key);
    static const char *const tails[] = {"-delete", "-future", "-stray"};
    for (size_t t = 0; t < sizeof tails / sizeof *tails; t++)
        if (in_has_suffix(bn, tails[t])) {
            p->pub.temporary = tails[t];
            break;
        }
    if (p->temp_files) p->pub.temporary = p->temp_files;
    if (!p->pub.temporary || p->pub.partition < 0) return;
    char buf[600];
    snprintf(buf, sizeof buf, "%s-%d", p->topic, p->pub.partition);
    p->temporary_of = xstrdup(buf);
    p->pub.temporary_of = p->temporary_of;
}

/* Segment files given one by one: the other segments of their partition directory (not
 * temporaries), whose records the analysis will not know (a transaction's marker may lie in
 * one). Their base offsets, from the file names, sorted. */
static void find_not_given(part *p) {
    if (!p->pub.is_dir || p->listed || p->mem) return;
    size_t n;
    int e;
    char **names = list_dir(p->key, &n, &e);
    if (!names) return;
    size_t count = 0, capng = 0;
    for (size_t i = 0; i < n; i++) {
        bool temp;
        int64_t off = in_segment_name_offset(names[i], &temp);
        if (off < 0 || temp) continue;
        bool given = false;
        for (size_t k = 0; k < p->nsegs && !given; k++) given = p->segs[k].name_offset == off && !p->segs[k].temporary;
        if (given) continue;
        if (!SS_GROW(p->not_given, count, capng, 8)) break;
        p->not_given[count++] = off; /* names come sorted, and so do their offsets (20 digits) */
    }
    free_list(names, n);
    p->pub.segments_not_given = count;
    p->pub.not_given_offsets = p->not_given;
}

/* The kinds of temporary segment file a broker leaves in a partition directory
 * (LogFileUtils: DELETED_FILE_SUFFIX, a segment scheduled for deletion; CLEANED_FILE_SUFFIX,
 * the cleaner's output being written; SWAP_FILE_SUFFIX, a cleaned or split segment about to
 * replace the ones it was made from). */
static const char *const temp_file_kinds[] = {".deleted", ".cleaned", ".swap"};

static const char *temp_file_kind(const char *path) {
    for (size_t t = 0; t < sizeof temp_file_kinds / sizeof *temp_file_kinds; t++)
        if (path && in_has_suffix(path, temp_file_kinds[t])) return temp_file_kinds[t];
    return NULL;
}

/* Temporary segment files read with include_temp are not segments of their partition's log
 * (a .deleted segment lies below the log start or was replaced by the cleaner's output, a
 * .cleaned or .swap one holds the same offsets as the segments it replaces): the files of
 * each kind become an input of their own, a temporary copy of the partition, named
 * "<partition>[.deleted]". Segments stay in offset order (they were sorted). */
static void split_temporaries(ss_inputs *in) {
    size_t n = in->nparts;
    for (size_t i = 0; i < n; i++) {
        part *p = in->parts[i];
        for (size_t t = 0; t < sizeof temp_file_kinds / sizeof *temp_file_kinds; t++) {
            const char *kind = temp_file_kinds[t];
            size_t count = 0;
            for (size_t k = 0; k < p->nsegs; k++)
                count += p->segs[k].temporary && temp_file_kind(p->segs[k].path) == kind;
            if (!count) continue;
            if (count == p->nsegs) { /* nothing else: the input is the temporary */
                p->temp_files = kind;
                continue;
            }
            ss_input_segment *qs = malloc(count * sizeof *qs);
            char **qr = qs ? malloc(count * sizeof *qr) : NULL;
            part *q = qr ? new_part(in, p->key, p->given, p->pub.is_dir, p->pub.named) : NULL;
            if (!q) { /* out of memory: the temporaries stay where they were */
                free(qs);
                free(qr);
                return;
            }
            q->listed = p->listed;
            q->no_metadata = p->no_metadata;
            q->no_epochs = p->no_epochs;
            q->temp_files = kind;
            q->segs = qs;
            q->seg_real = qr;
            q->cap = count;
            size_t w = 0;
            for (size_t k = 0; k < p->nsegs; k++) {
                if (p->segs[k].temporary && temp_file_kind(p->segs[k].path) == kind) {
                    q->segs[q->nsegs] = p->segs[k];
                    q->seg_real[q->nsegs++] = p->seg_real[k];
                    continue;
                }
                p->segs[w] = p->segs[k];
                p->seg_real[w++] = p->seg_real[k];
            }
            p->nsegs = w;
            p->pub.segments = p->segs;
            p->pub.nsegments = p->nsegs;
            q->pub.segments = q->segs;
            q->pub.nsegments = q->nsegs;
        }
    }
}

/* A partition directory by its base name, then its key (name_clashes). */
typedef struct dir_by_name {
    const char *base, *key;
    part *p;
} dir_by_name;

static int cmp_dir_name(const void *x, const void *y) {
    const dir_by_name *a = x, *b = y;
    int c = strcmp(a->base, b->base);
    return c ? c : strcmp(a->key, b->key);
}

/* Each partition directory whose base name another directory (another key) shares is named by
 * the shortest path suffix that no such directory ends with. The directories sorted by base name
 * put those that share one together: a run of one base name is looked at alone (a log directory
 * of thousands of partitions costs a sort, not a comparison of every pair). */
static void name_clashes(ss_inputs *in) {
    size_t n = 0;
    dir_by_name *v = malloc((in->nparts ? in->nparts : 1) * sizeof *v);
    if (!v) return;
    for (size_t i = 0; i < in->nparts; i++)
        if (in->parts[i]->pub.is_dir)
            v[n++] = (dir_by_name){in_base_name(in->parts[i]->key), in->parts[i]->key, in->parts[i]};
    qsort(v, n, sizeof *v, cmp_dir_name);
    for (size_t g0 = 0, g1; g0 < n; g0 = g1) {
        for (g1 = g0 + 1; g1 < n && !strcmp(v[g1].base, v[g0].base);) g1++;
        /* sorted by key within the run: it holds two keys when its first and last differ */
        if (!strcmp(v[g0].key, v[g1 - 1].key)) continue;
        for (size_t i = g0; i < g1; i++) {
            part *p = v[i].p;
            int maxk = count_components(p->key);
            for (int k = 2; k <= maxk; k++) {
                const char *suf = suffix_components(p->key, k);
                size_t sl = strlen(suf);
                bool unique = true;
                for (size_t j = g0; j < g1 && unique; j++) {
                    if (!strcmp(v[j].key, p->key)) continue;
                    const char *other = v[j].key;
                    size_t ol = strlen(other);
                    if (ol >= sl && !strcmp(other + ol - sl, suf) && (ol == sl || other[ol - sl - 1] == '/'))
                        unique = false;
                }
                if (unique || k == maxk) {
                    free(p->name);
                    p->name = xstrdup(suf);
                    break;
                }
            }
        }
    }
    free(v);
}

/* ---- replicas: one partition from several directories (replicas.c compares them) ---- */

/* node.id (broker.id) of the meta.properties in the directory holding a partition
 * directory, -1 when there is none or it cannot be read (verify reports on it); its cluster.id
 * into *cluster (malloc'd, NULL when absent). */
static int32_t meta_of(const char *key, char **cluster) {
    *cluster = NULL;
    char *dir = dir_name(key);
    char *path = dir ? ss_path_join(dir, "meta.properties") : NULL;
    free(dir);
    if (!path) return -1;
    int32_t id = -1;
    ss_textfile tf;
    ss_error e;
    memset(&tf, 0, sizeof tf);
    struct stat st;
    if (stat(path, &st) == 0 && ss_textfile_read(path, SS_TEXT_META_PROPERTIES, &tf, &e) == SS_E_OK) {
        if (tf.meta.has_node_id) id = tf.meta.node_id;
        if (tf.meta.cluster_id) *cluster = xstrdup(tf.meta.cluster_id);
    }
    ss_textfile_free(&tf);
    free(path);
    return id;
}

typedef struct note_ctx {
    ss_inputs *in;
} note_ctx;

/* A partition's directory name: its directory's, or for a partition of an export the name its
 * directory had (topic-n), into buf. */
static const char *base_of(const part *p, char *buf, size_t cap) {
    if (!p->exported) return in_base_name(p->key);
    snprintf(buf, cap, "%s-%d", p->x_topic ? p->x_topic : "?", p->x_partition);
    return buf;
}

/* node.id of the broker a copy is from: its log directory's meta.properties, or for a partition
 * of an export the broker its rows name (the export's meta.properties, read when it was
 * written); its cluster.id into *cluster (malloc'd, NULL when unknown). */
static int32_t broker_of_part(const part *p, char **cluster) {
    if (!p->exported) return meta_of(p->key, cluster);
    *cluster = p->x_cluster ? xstrdup(p->x_cluster) : NULL;
    return p->pub.export_broker;
}

static void replica_note(void *ctx, ss_severity sev, const char *msg) {
    ss_inputs *in = ((note_ctx *)ctx)->in;
    size_t before = in->problems.n;
    add_note(in, sev, "%s", msg);
    if (in->problems.n > before) in->note_kinds[before] = SS_INOTE_REPLICA;
}

/* The scope of a partition read from its replicas: each copy, where it came from, what was
 * read of it. */
static void scope_note(note_ctx *nc, const char *bn, const ss_input_replica *reps, size_t m, bool exports) {
    char line[1024];
    size_t len = (size_t)snprintf(line, sizeof line, "%s: %zu copies read as one partition (replicas):", bn, m);
    for (size_t k = 0; k < m && len < sizeof line; k++) {
        char who[48];
        if (reps[k].node_id >= 0) snprintf(who, sizeof who, "broker %" PRId32, reps[k].node_id);
        else snprintf(who, sizeof who, exports ? "broker unknown" : "no meta.properties");
        if (reps[k].read_from >= 0 && reps[k].read_to > reps[k].read_from)
            len += (size_t)snprintf(line + len, sizeof line - len,
                                    "%s %s (%s%s, offsets %" PRId64 "..%" PRId64 " read)", k ? ";" : "", reps[k].name,
                                    who, reps[k].leader ? ", leader" : "", reps[k].read_from, reps[k].read_to - 1);
        else
            len += (size_t)snprintf(line + len, sizeof line - len, "%s %s (%s%s, compared only)", k ? ";" : "",
                                    reps[k].name, who, reps[k].leader ? ", leader" : "");
    }
    replica_note(nc, SS_SEV_NOTICE, line);
}

/* The copies g[0..n) (indexes into in->parts, sorted by path) of one partition become one
 * input: the leader's part, its segments those replicas.c chose, the others held; a copy not
 * shown to be of the same log stays an input of its own. false: out of memory (nothing
 * changed). */
static bool merge_group(ss_inputs *in, const size_t *g, size_t n) {
    rp_copy *c = calloc(n, sizeof *c);
    ss_input_replica *all = calloc(n, sizeof *all);
    if (!c || !all || !SS_GROW_TO(in->held, in->nheld + n, in->cheld)) {
        free(c);
        free(all);
        return false;
    }
    for (size_t k = 0; k < n; k++) {
        part *p = in->parts[g[k]];
        c[k].p = &p->pub;
        c[k].r = &all[k];
        if (p->exported) c[k].mem = p->mem, c[k].memlen = p->memlen;
        all[k].name = p->pub.name;
        all[k].path = p->given;
        char *cluster;
        all[k].node_id = broker_of_part(p, &cluster);
        free(cluster);
        all[k].high_watermark = p->pub.high_watermark;
    }
    char bnbuf[320];
    const char *bn = base_of(in->parts[g[0]], bnbuf, sizeof bnbuf);
    note_ctx nc = {in};
    rp_read *reads = NULL;
    size_t nreads = 0, m = 0;
    bool ok = rp_reconcile(c, n, bn, &reads, &nreads, replica_note, &nc);
    /* the copies merged, in path order; where each went (its index among them) */
    size_t *at = malloc(n * sizeof *at);
    ss_input_replica *reps = malloc(n * sizeof *reps);
    ss_input_segment *segs = malloc((nreads ? nreads : 1) * sizeof *segs);
    struct merged_mem *mm = calloc(nreads ? nreads : 1, sizeof *mm);
    char *mname = xstrdup(bn);
    bool fail = !ok || !at || !reps || !segs || !mm || !mname;
    for (size_t k = 0; k < n && !fail; k++) {
        bool apart = true;
        for (size_t i = 0; i < n; i++)
            if (c[i].r == &all[k]) apart = c[i].apart;
        at[k] = apart ? SIZE_MAX : m;
        if (!apart) reps[m++] = all[k];
    }
    for (size_t k = 0; k < n && !fail; k++) {
        if (at[k] != SIZE_MAX) continue;
        rp_copy *x = NULL;
        for (size_t i = 0; i < n; i++)
            if (c[i].r == &all[k]) x = &c[i];
        char why[160] = "no batch alike and no leader epoch in common";
        if (x && x->conflict >= 0)
            snprintf(why, sizeof why, "the batches at offset %" PRId64 " differ within one leader epoch", x->conflict);
        char msg[640];
        snprintf(msg, sizeof msg,
                 "%s: %s holds the same partition as %s, but not the same log (%s): read apart, their records "
                 "count as copies of each other; 'segscan diff'%s compares them",
                 bn, all[k].name, all[0].name, why,
                 in->parts[g[k]]->exported ? " on the log directories they were exported from" : "");
        in->parts[g[k]]->pub.not_a_replica = true;
        replica_note(&nc, SS_SEV_WARNING, msg);
    }
    if (fail || m < 2) {
        for (size_t k = 0; k < n; k++) rp_copy_free(&c[k]);
        free(c);
        free(all);
        free(reads);
        free(at);
        free(reps);
        free(segs);
        free(mm);
        free(mname);
        return !fail;
    }
    size_t L = 0;
    for (size_t k = 0; k < m; k++)
        if (reps[k].leader) L = k;
    bool any_mem = false;
    for (size_t r = 0; r < nreads; r++) {
        const rp_copy *x = &c[reads[r].copy];
        segs[r] = x->p->segments[reads[r].seg];
        segs[r].read_from = reads[r].bounded ? reads[r].from : INT64_MIN;
        segs[r].read_to = reads[r].bounded ? reads[r].to : INT64_MAX;
        segs[r].replica = (uint32_t)at[x->r - all];
        if (x->mem) any_mem = true, mm[r] = (struct merged_mem){x->mem, x->memlen, true};
    }
    if (!any_mem) {
        free(mm);
        mm = NULL;
    }
    size_t lk = 0; /* the leader's index among g */
    for (size_t k = 0; k < n; k++)
        if (at[k] == L) lk = k;
    part *lp = in->parts[g[lk]];
    ss_input_partition *pub = &lp->pub;
    int64_t hw = -1, ls = -1, cl = -1;
    for (size_t k = 0; k < n; k++) {
        if (at[k] == SIZE_MAX) continue;
        const part *p = in->parts[g[k]];
        if (p->pub.high_watermark > hw) hw = p->pub.high_watermark;
        if (p->pub.log_start_offset >= 0 && (ls < 0 || p->pub.log_start_offset < ls)) ls = p->pub.log_start_offset;
        if (p->pub.cleaner_offset > cl) cl = p->pub.cleaner_offset;
        if (!pub->topic_id && p->pub.topic_id) pub->topic_id = p->pub.topic_id;
        pub->named = pub->named || p->pub.named;
    }
    int64_t end = reps[L].log_end;
    if (hw >= 0 && end > hw) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "%s: offsets %" PRId64 "..%" PRId64 " lie above the high watermark %" PRId64
                 " (replication-offset-checkpoint): possibly never committed (a replica that had not "
                 "fetched them could have become leader and truncated them)",
                 bn, hw, end - 1, hw);
        replica_note(&nc, SS_SEV_WARNING, msg);
    }
    pub->high_watermark = hw;
    pub->log_start_offset = ls;
    pub->cleaner_offset = cl;
    pub->segments = segs;
    pub->nsegments = nreads;
    pub->nreplicas = m;
    pub->replicas = reps;
    lp->merged = segs;
    lp->merged_mem = mm;
    lp->replicas = reps;
    lp->merged_name = mname;
    scope_note(&nc, bn, reps, m, lp->exported);
    for (size_t k = 0; k < n; k++) rp_copy_free(&c[k]);
    free(c);
    free(all);
    free(reads);
    /* the others merged are held (their files are read through the leader's input) */
    for (size_t k = 0; k < n; k++)
        if (k != lk && at[k] != SIZE_MAX) in->held[in->nheld++] = in->parts[g[k]], in->parts[g[k]] = NULL;
    free(at);
    return true;
}

/* The copies g[0..n) of one cluster: a copy whose meta.properties names another cluster.id than
 * the first one named is not a replica (its log directory is another cluster's: a mirror, a
 * test cluster), read apart with a note. Returns how many are left in g. */
static size_t same_cluster(ss_inputs *in, size_t *g, size_t n) {
    char **ids = calloc(n ? n : 1, sizeof *ids);
    if (!ids) return n;
    const char *first = NULL, *first_name = NULL;
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        (void)broker_of_part(in->parts[g[k]], &ids[k]);
        if (!first && ids[k]) first = ids[k], first_name = in->parts[g[k]]->pub.name;
    }
    for (size_t k = 0; k < n; k++) {
        if (!first || !ids[k] || !strcmp(ids[k], first)) {
            g[m++] = g[k];
            continue;
        }
        part *x = in->parts[g[k]];
        x->pub.not_a_replica = true;
        char msg[640], xb[320];
        snprintf(msg, sizeof msg,
                 "%s: %s is of another cluster than %s (cluster.id %s and %s, meta.properties): not a replica, "
                 "read apart",
                 base_of(x, xb, sizeof xb), x->pub.name, first_name, ids[k], first);
        note_ctx nc = {in};
        replica_note(&nc, SS_SEV_WARNING, msg);
    }
    for (size_t k = 0; k < n; k++) free(ids[k]);
    free(ids);
    return m;
}

/* Partitions of one topic and number from several directories (ss_inputs_replicas_once):
 * one input each, unless partition.metadata names different topic ids (a topic deleted and
 * created again under its name: other partitions, KIP-516). */
static void merge_replicas(ss_inputs *in) {
    size_t *g = malloc((in->nparts ? in->nparts : 1) * sizeof *g);
    if (!g) return;
    for (size_t i = 0; i < in->nparts;) {
        const ss_input_partition *a = &in->parts[i]->pub;
        size_t j = i + 1;
        while (j < in->nparts && in->parts[j]->pub.partition == a->partition &&
               !strcmp(in->parts[j]->pub.topic, a->topic))
            j++;
        if (j - i < 2 || a->partition < 0 || (in->replicas_except && !strcmp(a->topic, in->replicas_except))) {
            i = j;
            continue;
        }
        /* the partition directories, then the partitions of exports: an export's partition stands
         * for its directory, but its rebuilt log is read otherwise (a data topic's values are
         * fingerprints, not bytes: analysis units.c), and one input is read one way, so copies of
         * the two kinds are not merged (they stay inputs of their own, replicas to the analysis) */
        for (int kind = 0; kind < 2; kind++) {
            /* the copies of one topic id: the first id met, and those without one when no other
             * id is met (in->parts[k] is NULL for a copy merged into another input) */
            const char *id = NULL, *other = NULL;
            for (size_t k = i; k < j; k++) {
                const ss_input_partition *x = in->parts[k] ? &in->parts[k]->pub : NULL;
                if (!x || !(kind ? x->export_file != NULL : x->is_dir) || x->temporary || !x->topic_id) continue;
                if (!id) id = x->topic_id;
                else if (strcmp(id, x->topic_id) != 0 && !other) other = x->topic_id;
            }
            size_t n = 0;
            for (size_t k = i; k < j; k++) {
                const ss_input_partition *x = in->parts[k] ? &in->parts[k]->pub : NULL;
                if (!x || !(kind ? x->export_file != NULL : x->is_dir) || x->temporary) continue;
                if (other ? x->topic_id && !strcmp(x->topic_id, id) : true) g[n++] = k;
            }
            if (other) {
                for (size_t k = i; k < j; k++)
                    if (in->parts[k] && (kind ? in->parts[k]->exported : in->parts[k]->pub.is_dir))
                        in->parts[k]->pub.not_a_replica = true;
                size_t before = in->problems.n;
                char ib[320];
                add_note(in, SS_SEV_WARNING,
                         "%s: the copies hold different topic ids (%s, %s; partition.metadata): different "
                         "partitions of topics of one name (deleted and created again, KIP-516), read apart",
                         base_of(in->parts[g[0]], ib, sizeof ib), id, other);
                if (in->problems.n > before) in->note_kinds[before] = SS_INOTE_REPLICA;
            }
            n = same_cluster(in, g, n);
            if (n >= 2) (void)merge_group(in, g, n);
        }
        /* a directory and an export of the partition left side by side: say so (the analysis
         * cannot tell them replicas: their batches' CRCs differ) */
        const part *dp = NULL, *xp = NULL;
        for (size_t k = i; k < j; k++) {
            const part *x = in->parts[k];
            if (!x || x->pub.temporary || x->pub.not_a_replica) continue;
            if (x->exported && !xp) xp = x;
            else if (x->pub.is_dir && !dp) dp = x;
        }
        if (dp && xp) {
            size_t before = in->problems.n;
            add_note(in, SS_SEV_WARNING,
                     "%s and %s hold the same partition, a directory and an export: not read as one (the "
                     "export's data records are fingerprints, the directory's bytes), their records count as "
                     "copies of each other; 'segscan diff' on the log directory it was exported from compares "
                     "replicas",
                     dp->pub.name, xp->pub.name);
            if (in->problems.n > before) in->note_kinds[before] = SS_INOTE_REPLICAS;
        }
        i = j;
    }
    free(g);
    size_t w = 0;
    for (size_t i = 0; i < in->nparts; i++)
        if (in->parts[i]) in->parts[w++] = in->parts[i];
    in->nparts = w;
    /* a merged partition's name is its directory's, unless another input has that name */
    for (size_t i = 0; i < in->nparts; i++) {
        part *p = in->parts[i];
        if (!p->merged_name) continue;
        bool clash = false;
        for (size_t j = 0; j < in->nparts && !clash; j++)
            clash = j != i && !strcmp(in->parts[j]->pub.name, p->merged_name);
        for (size_t j = 0; j < in->nparts && !clash; j++)
            clash = j != i && in->parts[j]->pub.is_dir && !strcmp(in_base_name(in->parts[j]->key), p->merged_name);
        if (!clash) p->pub.name = p->merged_name;
    }
}

void ss_inputs_finish(ss_inputs *in) {
    if (in->finished) return;
    in->finished = true;
    /* merge partitions with the same identity */
    if (in->nparts > 1) qsort(in->parts, in->nparts, sizeof *in->parts, cmp_part_key);
    size_t w = 0;
    for (size_t i = 0; i < in->nparts; i++) {
        if (w > 0 && !strcmp(in->parts[w - 1]->key, in->parts[i]->key)) {
            part *dst = in->parts[w - 1], *src = in->parts[i];
            dst->pub.named = dst->pub.named || src->pub.named;
            dst->listed = dst->listed || src->listed;
            /* the same directory: absent in either listing is absent */
            dst->no_metadata = dst->no_metadata || src->no_metadata;
            dst->no_epochs = dst->no_epochs || src->no_epochs;
            for (size_t k = 0; k < src->nsegs; k++)
                part_add_seg(dst, src->segs[k].path, src->seg_real[k], src->segs[k].name_offset,
                             src->segs[k].temporary);
            part_free(src);
            continue;
        }
        in->parts[w++] = in->parts[i];
    }
    in->nparts = w;
    /* sort segments, drop the same file given twice */
    for (size_t i = 0; i < in->nparts; i++) {
        part *p = in->parts[i];
        seg_sort *v = malloc((p->nsegs ? p->nsegs : 1) * sizeof *v);
        if (!v) continue;
        for (size_t k = 0; k < p->nsegs; k++) {
            v[k].s = p->segs[k];
            v[k].real = p->seg_real[k];
        }
        qsort(v, p->nsegs, sizeof *v, cmp_seg);
        size_t m = 0;
        for (size_t k = 0; k < p->nsegs; k++) {
            if (m > 0 && !strcmp(v[m - 1].real, v[k].real) && p->mem == NULL) {
                free((char *)v[k].s.path);
                free(v[k].real);
                continue;
            }
            v[m++] = v[k];
        }
        for (size_t k = 0; k < m; k++) {
            p->segs[k] = v[k].s;
            p->seg_real[k] = v[k].real;
        }
        p->nsegs = m;
        free(v);
        p->pub.segments = p->segs;
        p->pub.nsegments = p->nsegs;
        find_not_given(p);
    }
    split_temporaries(in);
    /* names */
    for (size_t i = 0; i < in->nparts; i++) {
        part *p = in->parts[i];
        /* a directory: its name; a lone file (or stdin): its path with other characters as '_' */
        p->name = p->pub.is_dir ? xstrdup(in_base_name(p->key)) : sanitize(p->given);
        if (p->exported) { /* its partition's name, as its directory was named */
            free(p->name);
            p->name = NULL;
            size_t n = strlen(p->x_topic ? p->x_topic : "?") + 16;
            if ((p->name = malloc(n)) && p->x_partition >= 0)
                snprintf(p->name, n, "%s-%d", p->x_topic ? p->x_topic : "?", p->x_partition);
            else if (p->name) snprintf(p->name, n, "%s", p->x_topic ? p->x_topic : "?");
        }
        if (!p->name) p->name = xstrdup("?");
    }
    /* a partition of an export whose name another input has too: the export's file name before it */
    bool *xclash = calloc(in->nparts ? in->nparts : 1, sizeof *xclash);
    for (size_t i = 0; i < in->nparts && xclash; i++)
        for (size_t j = 0; j < in->nparts && in->parts[i]->exported && !xclash[i]; j++)
            xclash[i] = j != i && !strcmp(in->parts[j]->name, in->parts[i]->name);
    for (size_t i = 0; i < in->nparts && xclash; i++) {
        part *p = in->parts[i];
        if (!xclash[i]) continue;
        const char *bn = in_base_name(p->given);
        size_t n = strlen(bn) + strlen(p->name) + 2;
        char *nm = malloc(n);
        if (!nm) continue;
        snprintf(nm, n, "%s:%s", bn, p->name);
        free(p->name);
        p->name = nm;
    }
    free(xclash);
    /* two directories with one name: the shortest path suffix that tells them apart (an
     * input of temporary files has its partition's directory: that is no clash) */
    name_clashes(in);
    for (size_t i = 0; i < in->nparts; i++) {
        part *p = in->parts[i];
        if (!p->temp_files) continue;
        size_t l = strlen(p->name), m = strlen(p->temp_files);
        char *nm = malloc(l + m + 3);
        if (!nm) continue;
        snprintf(nm, l + m + 3, "%s[%s]", p->name, p->temp_files);
        free(p->name);
        p->name = nm;
    }
    for (size_t i = 0; i < in->nparts; i++) {
        part *p = in->parts[i];
        int32_t pn = -1;
        if (p->exported) {
            p->topic = p->x_topic ? xstrdup(p->x_topic) : NULL;
            pn = p->x_partition;
        } else if (p->pub.is_dir) in_parse_topic(in_base_name(p->key), &p->topic, &pn);
        else if (p->mem && strcmp(p->given, "-") != 0) in_parse_topic(p->given, &p->topic, &pn); /* named by the user */
        else p->topic = xstrdup(p->name);
        if (!p->topic) p->topic = xstrdup("?");
        p->pub.name = p->name;
        p->pub.topic = p->topic;
        p->pub.partition = pn;
        p->pub.path = p->mem && !p->exported ? "-" : p->given; /* stdin: no path, whatever name it was given */
        if (p->exported) {
            p->pub.export_file = p->given;
            p->pub.export_cluster_id = p->x_cluster;
            p->pub.topic_id = p->x_topic_id;
            p->pub.log_start_offset = p->x_log_start;
            p->pub.high_watermark = p->x_hwm;
        }
        p->pub.internal = strncmp(p->topic, "__", 2) == 0;
        if (p->pub.is_dir) {
            read_partition_files(p);
            name_temporary(p);
        }
        p->pub.norphans = p->norphans;
        p->pub.orphans = p->orphans;
    }
    if (in->nparts > 1) qsort(in->parts, in->nparts, sizeof *in->parts, cmp_part_order);
    apply_checkpoints(in);
    if (in->replicas_once) {
        merge_replicas(in);
        return;
    }
    /* replicas of one partition given together: their records will be copies of each other */
    for (size_t i = 0; i + 1 < in->nparts; i++) {
        const ss_input_partition *a = &in->parts[i]->pub, *b = &in->parts[i + 1]->pub;
        /* (a partition of an export stands for its directory) */
        if ((a->is_dir || a->export_file) && (b->is_dir || b->export_file) && a->partition >= 0 &&
            a->partition == b->partition && !strcmp(a->topic, b->topic) && !a->temporary && !b->temporary) {
            size_t before = in->problems.n;
            add_note(in, SS_SEV_WARNING,
                     "%s and %s hold the same partition (replicas?): their records count as copies of each "
                     "other; 'segscan diff' compares replicas",
                     a->name, b->name);
            if (in->problems.n > before) in->note_kinds[before] = SS_INOTE_REPLICAS;
        }
    }
}

void ss_inputs_use_kept(ss_inputs *in, const ss_kept *k) { in->kept = k; }

ss_errkind ss_kept_open(ss_kept *k, const ss_inputs *in, size_t i, size_t j, bool keep, ss_segment **out,
                        ss_error *err) {
    const part *p = in->parts[i];
    /* a file of its own (not bytes in memory: standard input, an export's rebuilt segment) */
    const char *path =
        (p->merged ? p->merged_mem && p->merged_mem[j].set : p->mem != NULL) ? NULL : p->pub.segments[j].path;
    const uint8_t *data;
    size_t len;
    if (ss_kept_find(k, path, &data, &len)) return ss_segment_from_memory(data, len, false, out, err);
    ss_errkind rc = ss_inputs_open_segment(in, i, j, out, err);
    /* the walker's live-file test (a pause after N batches while a test changes the file) needs
     * the file itself */
    if (rc != SS_E_OK || !keep || !path || ss_test_hooks_get()->pause_after_batches != UINT64_MAX) return rc;
    uint64_t size = ss_segment_size(*out);
    /* which file: the next reader takes the copy only while the path still names it */
    struct stat st;
    if ((*out)->fd < 0 || fstat((*out)->fd, &st) != 0) return rc;
    if (!ss_kept_reserve(k, size)) return rc; /* past the budget: the file, read again by the next reader */
    /* the file read whole, once: its copy is what this reader and the next read */
    char *kp = xstrdup(path);
    uint8_t *buf = malloc(size ? (size_t)size : 1);
    if (!kp || !buf || ss_segment_read(*out, 0, buf, (size_t)size) != size) {
        /* out of memory, or a file cut while it was read: the file, as before */
        free(kp);
        free(buf);
        ss_kept_unreserve(k, size);
        return rc;
    }
    if (!ss_kept_add(k, size, kp, buf, (size_t)size, (uint64_t)st.st_dev, (uint64_t)st.st_ino, &data, &len)) return rc;
    ss_segment_close(*out);
    return ss_segment_from_memory(data, len, false, out, err);
}

ss_errkind ss_kept_open_read(const ss_kept *k, const ss_inputs *in, size_t i, size_t j, ss_segment **out,
                             ss_error *err) {
    /* keep false: k is only looked up (under its lock), never changed */
    return ss_kept_open((ss_kept *)k, in, i, j, false, out, err);
}

ss_errkind ss_inputs_open_segment(const ss_inputs *in, size_t i, size_t j, ss_segment **out, ss_error *err) {
    part *p = in->parts[i];
    /* a merged partition's segments are its copies': each in memory or a file of its own */
    if (p->merged && p->merged_mem && p->merged_mem[j].set)
        return ss_segment_from_memory(p->merged_mem[j].data, p->merged_mem[j].len, false, out, err);
    if (!p->merged && p->mem) return ss_segment_from_memory(p->mem, p->memlen, false, out, err);
    /* a file read before in this run and kept, and unchanged since: its bytes as they were read
     * then (a file grown or replaced since is read again, as the listing that holds it) */
    const uint8_t *data;
    size_t len;
    if (in->kept && ss_kept_find_same(in->kept, p->pub.segments[j].path, &data, &len))
        return ss_segment_from_memory(data, len, false, out, err);
    return ss_segment_open(p->pub.segments[j].path, out, err);
}

uint64_t ss_inputs_segment_size(const ss_inputs *in, size_t i, size_t j) {
    part *p = in->parts[i];
    if (p->merged && p->merged_mem && p->merged_mem[j].set) return p->merged_mem[j].len;
    if (!p->merged && p->mem) return p->memlen;
    const uint8_t *data;
    size_t len;
    if (in->kept && ss_kept_find_same(in->kept, p->pub.segments[j].path, &data, &len)) return len;
    struct stat st;
    return stat(p->pub.segments[j].path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* ---- siblings: the partitions beside those read ------------------------------------ */

static int cmp_sibling(const void *a, const void *b) {
    const ss_input_sibling *x = a, *y = b;
    int c = strcmp(x->topic, y->topic);
    if (c) return c;
    if (x->partition != y->partition) return x->partition < y->partition ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* Is (topic, partition) among the inputs? */
static bool read_partition(const ss_inputs *in, const char *topic, int32_t pn) {
    for (size_t i = 0; i < in->nparts; i++)
        if (in->parts[i]->pub.partition == pn && !strcmp(in->parts[i]->pub.topic, topic)) return true;
    return false;
}

static bool read_topic(const ss_inputs *in, const char *topic) {
    for (size_t i = 0; i < in->nparts; i++)
        if (in->parts[i]->pub.is_dir && !strcmp(in->parts[i]->pub.topic, topic)) return true;
    return false;
}

static void find_siblings(ss_inputs *in) {
    in->siblings_done = true;
    char **parents = NULL;
    size_t np = 0, cp = 0;
    for (size_t i = 0; i < in->nparts; i++) {
        const part *p = in->parts[i];
        if (!p->pub.is_dir || p->mem) continue;
        char *d = dir_name(p->key);
        if (!d) continue;
        bool seen = false;
        for (size_t k = 0; k < np && !seen; k++) seen = !strcmp(parents[k], d);
        if (seen || !SS_GROW(parents, np, cp, 8)) {
            free(d);
            continue;
        }
        parents[np++] = d;
    }
    for (size_t k = 0; k < np; k++) {
        size_t n;
        int e;
        char **names = list_dir(parents[k], &n, &e);
        for (size_t j = 0; j < n; j++) {
            if (in_is_temp_dir(names[j])) continue;
            char *topic = NULL;
            int32_t pn;
            in_parse_topic(names[j], &topic, &pn);
            bool want = topic && pn >= 0 && read_topic(in, topic) && !read_partition(in, topic, pn);
            char *full = want ? ss_path_join(parents[k], names[j]) : NULL;
            struct stat st;
            bool st_ok = full && stat(full, &st) == 0;
            if (full && (!st_ok || S_ISDIR(st.st_mode))) {
                size_t sn = 0;
                int se = 0;
                char **sub = st_ok ? list_dir(full, &sn, &se) : NULL;
                /* one that cannot be read (a dangling link, no permission) may hold segments:
                 * not read either way */
                bool unread = !st_ok || (!sub && se);
                if ((unread || holds_segments(sub, sn, false)) &&
                    SS_GROW(in->siblings, in->nsiblings, in->csiblings, 8)) {
                    ss_input_sibling *sb = &in->siblings[in->nsiblings++];
                    sb->topic = topic;
                    sb->partition = pn;
                    sb->name = xstrdup(names[j]);
                    sb->path = full;
                    topic = full = NULL;
                }
                free_list(sub, sn);
            }
            free(full);
            free(topic);
        }
        free_list(names, n);
        free(parents[k]);
    }
    free(parents);
    if (in->nsiblings > 1) qsort(in->siblings, in->nsiblings, sizeof *in->siblings, cmp_sibling);
}

size_t ss_inputs_sibling_count(ss_inputs *in) {
    if (!in->siblings_done) find_siblings(in);
    return in->nsiblings;
}

const ss_input_sibling *ss_inputs_sibling_at(const ss_inputs *in, size_t i) { return &in->siblings[i]; }
size_t ss_inputs_kraft_snapshot_count(const ss_inputs *in) { return in->nsnapshots; }
const char *ss_inputs_kraft_snapshot(const ss_inputs *in, size_t i) { return in->snapshots[i]; }

/* The log directory of a partition directory, or of a segment inside one (malloc'd): dir_name
 * once or twice, trailing slashes aside. NULL for a directory that holds no segment: a log
 * directory or a tree of them, whose coordinators' partitions were read with it. */
static char *log_dir_of(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return NULL;
    if (S_ISDIR(st.st_mode)) {
        size_t n;
        int err;
        char **names = list_dir(path, &n, &err);
        bool partition = names && holds_segments(names, n, true);
        free_list(names, n);
        if (!partition) return NULL;
    }
    char *p = xstrdup(path);
    if (!p) return NULL;
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/') p[--n] = 0;
    char *d = dir_name(p);
    free(p);
    if (d && !S_ISDIR(st.st_mode)) {
        char *up = dir_name(d);
        free(d);
        d = up;
    }
    return d;
}

bool ss_inputs_offsets_beside(const char *path) {
    char *dir = log_dir_of(path);
    if (!dir) return false;
    size_t n;
    int err;
    char **names = list_dir(dir, &n, &err);
    bool any = false;
    for (size_t i = 0; i < n && !any; i++) any = !strncmp(names[i], "__consumer_offsets-", 19);
    free_list(names, n);
    free(dir);
    return any;
}

size_t ss_inputs_add_coordinators(ss_inputs *in, const char *path) {
    char *dir = log_dir_of(path);
    if (!dir) return 0;
    size_t added = 0, n;
    int err;
    char **names = list_dir(dir, &n, &err);
    for (size_t i = 0; i < n; i++) {
        if (strncmp(names[i], "__consumer_offsets-", 19) != 0 && strncmp(names[i], "__transaction_state-", 20) != 0)
            continue;
        char *p = ss_path_join(dir, names[i]);
        if (!p) continue;
        if (add_path(in, p, false) == SS_E_OK) added++;
        free(p);
    }
    free_list(names, n);
    free(dir);
    return added;
}
