/* segscan explain (--value V | --value-hex H | --value-contains S | --key K |
 * --offset PARTITION:OFFSET) PATH... - every copy of the matching record(s),
 * and in plain language why each one exists.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "out.h"
#include "scan.h"

#define BOLD "\033[1m"
#define RST "\033[0m"

/* A growing string for building sentences. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->n;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, room, fmt, ap);
        va_end(ap);
        if (k < 0) return;
        if ((size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        size_t nc = b->cap ? b->cap * 2 : 256;
        while (nc - b->n <= (size_t)k) nc *= 2;
        char *np = realloc(b->p, nc);
        if (!np) return;
        b->p = np;
        b->cap = nc;
    }
}

/* "payments-dup-0 offsets 0, 1, 2" for the copies of group gi with that
 * cause (and the original when with_original is set); at most 10 listed. */
static void list_offsets(struct scan_cli *c, size_t gi, int cause, bool with_original, sbuf *b) {
    const ss_an_group *g = ss_an_group_at(c->an, gi);
    size_t shown = 0, total = 0;
    for (size_t j = 0; j < g->copies; j++) {
        ss_an_copy cp;
        ss_an_group_copy(c->an, gi, j, &cp);
        if (!((j == g->original) ? with_original : (int)cp.cause == cause)) continue;
        total++;
        if (shown >= 10) continue;
        /* a new run of one partition: say how many of its copies follow */
        bool new_run = shown == 0;
        if (!new_run) {
            ss_an_copy prev;
            for (size_t k = j; k-- > 0;) {
                ss_an_group_copy(c->an, gi, k, &prev);
                if ((k == g->original) ? with_original : (int)prev.cause == cause) break;
            }
            new_run = prev.partition != cp.partition;
        }
        if (new_run) {
            size_t in_run = 0;
            for (size_t k = j; k < g->copies; k++) {
                ss_an_copy nx;
                ss_an_group_copy(c->an, gi, k, &nx);
                if (nx.partition != cp.partition) break;
                if ((k == g->original) ? with_original : (int)nx.cause == cause) in_run++;
            }
            sb_printf(b, "%s%s %s %" PRId64, shown ? "; " : "", scan_part_name(c, cp.partition),
                      plural(in_run, "offset", "offsets"), cp.offset);
        } else {
            sb_printf(b, ", %" PRId64, cp.offset);
        }
        shown++;
    }
    if (total > shown) sb_printf(b, " and %zu more", total - shown);
}

static size_t count_cause(struct scan_cli *c, size_t gi, int cause) {
    const ss_an_group *g = ss_an_group_at(c->an, gi);
    size_t n = 0;
    for (size_t j = 0; j < g->copies; j++) {
        ss_an_copy cp;
        ss_an_group_copy(c->an, gi, j, &cp);
        if (j != g->original && (int)cp.cause == cause) n++;
    }
    return n;
}

/* The sentence of one cause for the copies `who` (already written into b). */
static void cause_sentence(struct scan_cli *c, int cause, unsigned detail, const ss_an_copy *cp, const ss_an_copy *orig,
                           bool many, sbuf *b) {
    const char *s = many ? "" : "s"; /* verb agreement: "carry" / "carries" */
    switch (cause) {
    case SS_CAUSE_RETRY:
        sb_printf(b, " carry the same batch with no producer id: the producer retried after a timeout with "
                     "idempotence off; enable.idempotence=true (the default since Kafka 3.0) prevents this.");
        break;
    case SS_CAUSE_RESEND:
        sb_printf(b,
                  " hold%s the record again in a newly built batch without producer id (the original is at %s "
                  "offset %" PRId64 "): the application sent it again, or the client rebuilt the batch; idempotence "
                  "was off, and would not catch an application resend anyway: deduplicate on a business key.",
                  s, scan_part_name(c, orig->partition), orig->offset);
        break;
    case SS_CAUSE_DUP_SEQUENCE:
        sb_printf(b,
                  " repeat%s producer %" PRId64 " epoch %d sequence %" PRId32 " already stored at offset %" PRId64
                  ": an idempotent leader never stores a sequence twice, so this is a broker-side anomaly (an old "
                  "broker, a replication bug, or segment files copied or restored by hand).",
                  s, cp->producer_id, cp->producer_epoch, cp->sequence, orig->offset);
        break;
    case SS_CAUSE_SAME_SESSION:
        sb_printf(b,
                  " come%s from the same producer session as the original (producer %" PRId64 " epoch %d) with a new "
                  "sequence number: the application called send() twice; idempotence cannot help, deduplicate in "
                  "the application.",
                  s, cp->producer_id, cp->producer_epoch);
        break;
    case SS_CAUSE_NEW_SESSION:
        if (detail & SS_NEWSESS_PID) {
            if (orig->producer_id < 0)
                sb_printf(b,
                          " %s written by producer %" PRId64 ", the original without a producer id: the record was "
                          "sent again by another producer (or after enabling idempotence); idempotence covers one "
                          "producer session only.",
                          many ? "were" : "was", cp->producer_id);
            else
                sb_printf(b,
                          " %s written by producer %" PRId64 ", the original by producer %" PRId64 ": a restarted or "
                          "second producer instance sent the record again; idempotence covers one producer session "
                          "only - use transactions with read_committed consumers, or deduplicate on a business key.",
                          many ? "were" : "was", cp->producer_id, orig->producer_id);
        } else {
            sb_printf(b,
                      " %s written by producer %" PRId64 " with epoch %d, the original with epoch %d: the producer "
                      "was re-initialised (an epoch bump after an error, or a restart with the same transactional.id) "
                      "and sent the record again; idempotence covers one session only.",
                      many ? "were" : "was", cp->producer_id, cp->producer_epoch, orig->producer_epoch);
            if (detail & SS_NEWSESS_TXN_V2_HINT)
                sb_printf(b, " Under Kafka 4.0's transaction protocol v2 the epoch moves on at every transaction end, "
                             "so this may also be the next transaction of the same producer writing the value again.");
        }
        break;
    case SS_CAUSE_ABORTED:
        sb_printf(b,
                  " lie%s inside an aborted transaction (producer %" PRId64 "): read_committed consumers never see "
                  "it; read_uncommitted consumers do - set isolation.level=read_committed on those consumers.",
                  s, cp->producer_id);
        break;
    case SS_CAUSE_CROSS_PARTITION:
        sb_printf(b,
                  " %s in another partition than the original (%s offset %" PRId64 "): the record was sent again "
                  "and landed elsewhere (no key, or a changed key or partitioner), so consumers of each partition "
                  "saw one copy.",
                  many ? "are" : "is", scan_part_name(c, orig->partition), orig->offset);
        break;
    default: break;
    }
    (void)c;
}

void explain_copy_sentence(struct scan_cli *c, size_t gi, const ss_an_copy *cp, char *buf, size_t n) {
    const ss_an_group *g = ss_an_group_at(c->an, gi);
    ss_an_copy orig;
    ss_an_group_copy(c->an, gi, g->original, &orig);
    sbuf b = {0};
    sb_printf(&b, "%s offset %" PRId64, scan_part_name(c, cp->partition), cp->offset);
    if (cp->cause == SS_CAUSE_RETRY) sb_printf(&b, " and the original at offset %" PRId64, orig.offset);
    cause_sentence(c, cp->cause, cp->detail, cp, &orig, cp->cause == SS_CAUSE_RETRY, &b);
    if (cp->open) sb_printf(&b, " Its transaction is still open: read_committed consumers do not see it yet.");
    snprintf(buf, n, "%s", b.p ? b.p : "");
    free(b.p);
}

void explain_group_text(struct scan_cli *c, size_t gi, const char *indent) {
    ss_out *o = c->out;
    const ss_an_group *g = ss_an_group_at(c->an, gi);
    ss_an_copy orig;
    ss_an_group_copy(c->an, gi, g->original, &orig);
    sbuf b = {0};
    b.n = 0;
    sb_printf(&b, "%s%s offset %" PRId64 " is the original", indent, scan_part_name(c, orig.partition), orig.offset);
    if (orig.aborted) sb_printf(&b, " (every copy is inside an aborted transaction)");
    sb_printf(&b, ".\n");
    out_str(o, b.p);
    for (int cause = 1; cause < SS_CAUSE_COUNT; cause++) {
        size_t n = count_cause(c, gi, cause);
        if (!n) continue;
        /* new-session: pid and epoch read differently; handle each kind and copy apart */
        for (size_t j = 0; j < g->copies; j++) {
            ss_an_copy cp;
            ss_an_group_copy(c->an, gi, j, &cp);
            if (j == g->original || (int)cp.cause != cause) continue;
            b.n = 0;
            if (cause == SS_CAUSE_RETRY) {
                sb_printf(&b, "%s", indent);
                list_offsets(c, gi, cause, true, &b);
                cause_sentence(c, cause, 0, &cp, &orig, true, &b);
            } else if (cause == SS_CAUSE_NEW_SESSION || cause == SS_CAUSE_DUP_SEQUENCE) {
                sb_printf(&b, "%s%s offset %" PRId64, indent, scan_part_name(c, cp.partition), cp.offset);
                cause_sentence(c, cause, cp.detail, &cp, &orig, false, &b);
            } else {
                sb_printf(&b, "%s", indent);
                list_offsets(c, gi, cause, false, &b);
                cause_sentence(c, cause, cp.detail, &cp, &orig, n > 1, &b);
            }
            sb_printf(&b, "\n");
            out_str(o, b.p);
            if (cause != SS_CAUSE_NEW_SESSION && cause != SS_CAUSE_DUP_SEQUENCE) break; /* one sentence for all */
        }
    }
    size_t nopen = 0;
    for (size_t j = 0; j < g->copies; j++) {
        ss_an_copy cp;
        ss_an_group_copy(c->an, gi, j, &cp);
        if (cp.open) nopen++;
    }
    if (nopen)
        out_printf(o,
                   "%s%zu of these copies %s in a transaction still open: read_committed consumers do not see %s "
                   "yet (they wait at the LSO).\n",
                   indent, nopen, plural(nopen, "lies", "lie"), plural(nopen, "it", "them"));
    free(b.p);
}

static void single_sentence(struct scan_cli *c, const ss_an_match *m, sbuf *b) {
    const ss_an_copy *cp = &m->copy;
    const ss_an_partition *P = ss_an_partition_at(c->an, cp->partition);
    if (!m->fingerprinted) {
        if (P->dups_excluded)
            sb_printf(b,
                      "%s is an internal topic, left out of the duplicate analysis (--include-internal, or name the "
                      "partition directory).",
                      P->input->topic);
        else
            sb_printf(b, "this record's %s is null (or shorter than --min-bytes): such records are never grouped.",
                      ss_by_name(c->ao.by));
        return;
    }
    sb_printf(b,
              "the log holds a single copy of this record (%s offset %" PRId64 "), so the duplicate did not happen "
              "in Kafka's log: it happened on the consumer side - the record was delivered again after a rebalance "
              "or a restart before the consumer committed its offset. Check the group's committed offsets "
              "(kafka-consumer-groups.sh --bootstrap-server ... --describe --group GROUP, or 'segscan coordinator "
              "--group GROUP' and a dump of that __consumer_offsets partition) and commit after processing, or make "
              "processing idempotent.",
              P->input->name, cp->offset);
    if (cp->aborted)
        sb_printf(b, " Note: it lies inside an aborted transaction, so read_committed consumers never see it.");
    if (cp->open) sb_printf(b, " Note: its transaction is still open.");
}

static void json_single(struct scan_cli *c, const ss_an_match *m) {
    ss_out *o = c->out;
    const ss_an_copy *cp = &m->copy;
    out_str(o, "{\"type\":\"single\",\"partition\":");
    out_json_cstr(o, scan_part_name(c, cp->partition));
    out_printf(o,
               ",\"offset\":%" PRId64 ",\"timestamp\":%" PRId64 ",\"producerId\":%" PRId64
               ",\"producerEpoch\":%d,\"sequence\":%" PRId32 ",\"transactional\":%s,\"aborted\":%s,\"open\":%s"
               ",\"grouped\":%s",
               cp->offset, cp->timestamp, cp->producer_id, cp->producer_epoch, cp->sequence,
               cp->transactional ? "true" : "false", cp->aborted ? "true" : "false", cp->open ? "true" : "false",
               m->fingerprinted ? "true" : "false");
    ss_record r;
    ss_error err;
    if (ss_an_fetch(c->an, cp, &r, &err) == 1) {
        scan_json_bytes(o, c->bytes, "key", r.key, r.key_len);
        scan_json_bytes(o, c->bytes, "value", r.value, r.value_len);
    }
    sbuf b = {0};
    single_sentence(c, m, &b);
    out_str(o, ",\"explanation\":");
    out_json_cstr(o, b.p ? b.p : "");
    free(b.p);
    out_str(o, "}\n");
}

static void text_single(struct scan_cli *c, const ss_an_match *m) {
    ss_out *o = c->out;
    const ss_an_copy *cp = &m->copy;
    char t[64];
    scan_time(t, sizeof t, cp->timestamp);
    out_printf(o, "%s%s offset %" PRId64 "%s  %s  ", scan_sgr(c, BOLD), scan_part_name(c, cp->partition), cp->offset,
               scan_sgr(c, RST), t);
    if (cp->producer_id < 0) out_str(o, "no producer id");
    else out_printf(o, "pid %" PRId64 " epoch %d seq %" PRId32, cp->producer_id, cp->producer_epoch, cp->sequence);
    ss_record r;
    ss_error err;
    if (ss_an_fetch(c->an, cp, &r, &err) == 1) {
        out_str(o, "  key ");
        scan_preview(o, r.key, r.key_len, 40);
        out_str(o, " value ");
        scan_preview(o, r.value, r.value_len, 60);
    }
    out_ch(o, '\n');
    sbuf b = {0};
    single_sentence(c, m, &b);
    out_printf(o, "  %s\n", b.p ? b.p : "");
    free(b.p);
}

void explain_print(struct scan_cli *c) {
    ss_out *o = c->out;
    size_t n = ss_an_match_count(c->an);
    if (n == 0) {
        if (!c->json) out_str(o, "no record matched\n");
        return;
    }
    size_t ng = ss_an_group_count(c->an);
    bool *seen = calloc(ng ? ng : 1, sizeof *seen);
    size_t shown_groups = 0, singles = 0;
    for (size_t i = 0; i < n; i++) {
        const ss_an_match *m = ss_an_match_at(c->an, i);
        if (m->group >= 0) {
            if (seen && seen[m->group]) continue;
            if (seen) seen[m->group] = true;
            shown_groups++;
            if (c->json) {
                dups_json_group(c, (size_t)m->group, true);
            } else {
                if (shown_groups + singles > 1) out_ch(o, '\n');
                dups_text_group(c, (size_t)m->group, SIZE_MAX, false);
                explain_group_text(c, (size_t)m->group, "  ");
            }
        } else {
            singles++;
            if (c->json) json_single(c, m);
            else {
                if (shown_groups + singles > 1) out_ch(o, '\n');
                text_single(c, m);
            }
        }
    }
    uint64_t total = ss_an_match_total(c->an);
    if (!c->json && total > n)
        out_printf(o, "\n%" PRIu64 " %s matched; the first %zu %s shown\n", total, plural(total, "record", "records"),
                   n, plural(n, "is", "are"));
    free(seen);
}
