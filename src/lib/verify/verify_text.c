/* segscan verify - the text files of a partition directory (partition.metadata,
 * quorum-state) and of a log directory (recovery-point-offset-checkpoint,
 * replication-offset-checkpoint, log-start-offset-checkpoint,
 * cleaner-offset-checkpoint, meta.properties, .kafka_cleanshutdown): read and
 * checked by the files room (ss_textfile_read, ss_textfile_check), the same
 * reading and the same checks as segscan dump's; this file turns their
 * findings into verify's. A file Kafka's reader refuses is damage (the
 * <kind>-damage checks), a failed check an inconsistency, what the checks
 * only note information. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "segscan/files.h"
#include "segscan/verify.h"
#include "verify/verify.h"

void vf_text_finding(void *arg, const ss_text_finding *f) {
    vctx *c = arg;
    ss_severity sev = vf_check_severity(f->check);
    vf_emit(c, f->check, sev, c->text_path, f->problem.position, f->offset, "%s", f->problem.msg);
}

/* The check a file Kafka's reader refuses falls under. */
static const char *damage_check(ss_text_kind k) {
    switch (k) {
    case SS_TEXT_LEADER_EPOCH: return "leader-epoch-damage";
    case SS_TEXT_PARTITION_METADATA: return "partition-metadata-damage";
    case SS_TEXT_QUORUM_STATE: return "quorum-state-damage";
    case SS_TEXT_META_PROPERTIES: return "meta-properties-damage";
    case SS_TEXT_CLEAN_SHUTDOWN: return "clean-shutdown-damage";
    default: return "checkpoint-damage";
    }
}

/* Read and check the file `name` of dir when it is there. */
static void check_file(vctx *c, const char *dir, ss_text_kind kind, const ss_log_span *span, ss_log_dir_spans *spans) {
    char *path = ss_path_join(dir, ss_text_kind_name(kind));
    if (!path) {
        c->nomem = true;
        return;
    }
    if (!vf_file_exists(path)) {
        free(path);
        return;
    }
    c->st->text_files++;
    ss_textfile f;
    ss_error err;
    ss_errkind k = ss_textfile_read(path, kind, &f, &err);
    if (k == SS_E_IO || k == SS_E_NOMEM) FIND(c, "unreadable", path, 0, -1, "%s", err.msg);
    else if (k != SS_E_OK) FIND(c, damage_check(kind), path, err.position, -1, "%s", err.msg);
    else {
        c->text_path = path;
        ss_textfile_check(&f, span, spans ? ss_log_dir_span : NULL, spans, vf_text_finding, c);
        c->text_path = NULL;
    }
    ss_textfile_free(&f);
    free(path);
}

void vf_check_partition_text(vctx *c, const ss_log_span *span) {
    const ss_input_partition *ip = c->ip;
    if (!ip->is_dir) return;
    check_file(c, ip->path, SS_TEXT_PARTITION_METADATA, NULL, NULL);
    /* quorum-state: only in the metadata log's partition, __cluster_metadata-0 (KafkaRaftClient) */
    check_file(c, ip->path, SS_TEXT_QUORUM_STATE, span && span->known ? span : NULL, NULL);
}

static char *parent_of(const char *path) {
    const char *s = strrchr(path, '/');
    if (!s) {
        char *d = malloc(2);
        if (d) strcpy(d, ".");
        return d;
    }
    size_t n = s == path ? 1 : (size_t)(s - path);
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, path, n);
    d[n] = 0;
    return d;
}

ss_errkind ss_verify_log_dirs(const ss_inputs *in, const ss_verify_opts *opts, ss_verify_cb cb, void *ctx,
                              ss_vstats *stats) {
    (void)opts;
    char **dirs = NULL;
    size_t ndirs = 0, capdirs = 0;
    ss_errkind rc = SS_E_OK;
    for (size_t i = 0; i < ss_inputs_count(in) && rc == SS_E_OK; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (!ip->is_dir || ip->named) continue; /* a partition directory named on its own: not its log directory */
        char *d = parent_of(ip->path);
        if (!d) {
            rc = SS_E_NOMEM;
            break;
        }
        bool seen = false;
        for (size_t k = 0; k < ndirs && !seen; k++) seen = !strcmp(dirs[k], d);
        if (seen) {
            free(d);
            continue;
        }
        if (!SS_GROW(dirs, ndirs, capdirs, 8)) {
            free(d);
            rc = SS_E_NOMEM;
            break;
        }
        dirs[ndirs++] = d;
    }
    static const ss_text_kind kinds[] = {SS_TEXT_META_PROPERTIES,  SS_TEXT_RECOVERY_POINT, SS_TEXT_REPLICATION_OFFSET,
                                         SS_TEXT_LOG_START_OFFSET, SS_TEXT_CLEANER_OFFSET, SS_TEXT_CLEAN_SHUTDOWN};
    for (size_t k = 0; k < ndirs && rc == SS_E_OK; k++) {
        /* the log directory as the "partition" its findings name */
        ss_input_partition ld;
        memset(&ld, 0, sizeof ld);
        const char *base = strrchr(dirs[k], '/');
        ld.name = base && base[1] ? base + 1 : dirs[k];
        ld.path = dirs[k];
        ld.is_dir = true;
        ld.partition = -1;
        vctx c;
        memset(&c, 0, sizeof c);
        c.ip = &ld;
        c.cb = cb;
        c.cbctx = ctx;
        c.st = stats;
        ss_log_dir_spans *spans = ss_log_dir_spans_new(dirs[k]);
        if (!spans) rc = SS_E_NOMEM;
        for (size_t j = 0; j < sizeof kinds / sizeof kinds[0] && spans && !c.nomem; j++)
            check_file(&c, dirs[k], kinds[j], NULL, spans);
        if (c.nomem) rc = SS_E_NOMEM;
        ss_log_dir_spans_free(spans);
    }
    for (size_t k = 0; k < ndirs; k++) free(dirs[k]);
    free(dirs);
    return rc;
}
