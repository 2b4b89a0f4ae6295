/* segscan - the cause of every copy of a duplicate, in plain language: a
 * sentence per copy (JSON "explanation") and the sentences of a group, for
 * explain and dups -v. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/out.h"
#include "views/scan.h"

/* "payments-dup-0 offsets 0, 1, 2" for the copies of group gi with that
 * cause (and the original when with_original is set); at most 10 listed. */
static void list_offsets(struct scan_cli *c, size_t gi, enum ss_cause cause, bool with_original, sbuf *b) {
    const ss_an_dupgroup *g = ss_an_dupgroup_at(c->an, gi);
    size_t shown = 0, total = 0;
    for (size_t j = 0; j < g->copies; j++) {
        ss_an_copy cp;
        ss_an_dupgroup_copy(c->an, gi, j, &cp);
        if (!((j == g->original) ? with_original : cp.cause == cause)) continue;
        total++;
        if (shown >= 10) continue;
        /* a new run of one partition: say how many of its copies follow */
        bool new_run = shown == 0;
        if (!new_run) {
            ss_an_copy prev;
            for (size_t k = j; k-- > 0;) {
                ss_an_dupgroup_copy(c->an, gi, k, &prev);
                if ((k == g->original) ? with_original : prev.cause == cause) break;
            }
            new_run = prev.partition != cp.partition;
        }
        if (new_run) {
            size_t in_run = 0;
            for (size_t k = j; k < g->copies; k++) {
                ss_an_copy nx;
                ss_an_dupgroup_copy(c->an, gi, k, &nx);
                if (nx.partition != cp.partition) break;
                if ((k == g->original) ? with_original : nx.cause == cause) in_run++;
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

static size_t count_cause(struct scan_cli *c, size_t gi, enum ss_cause cause) {
    const ss_an_dupgroup *g = ss_an_dupgroup_at(c->an, gi);
    size_t n = 0;
    for (size_t j = 0; j < g->copies; j++) {
        ss_an_copy cp;
        ss_an_dupgroup_copy(c->an, gi, j, &cp);
        if (j != g->original && cp.cause == cause) n++;
    }
    return n;
}

/* The sentence of one cause for the copies `who` (already written into b). */
static void cause_sentence(struct scan_cli *c, enum ss_cause cause, unsigned detail, const ss_an_copy *cp,
                           const ss_an_copy *orig, bool many, sbuf *b) {
    const char *s = many ? "" : "s"; /* verb agreement: "carry" / "carries" */
    switch (cause) {
    case SS_CAUSE_RETRY:
        /* the defaults per client: Java's producer enables idempotence since Kafka 3.0
         * (KIP-679, KAFKA-13598); librdkafka's CONFIGURATION.md gives enable.idempotence
         * default false, and the clients built on it take that default */
        sb_printf(b, " carry the same batch with no producer id: the producer retried after a timeout with "
                     "idempotence off; enable.idempotence=true prevents this (the default of the Java client since "
                     "Kafka 3.0; librdkafka and the clients built on it - confluent-kafka-python, -go, -dotnet, "
                     "kcat - default to false).");
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
            /* the metadata log says which broker answered each InitProducerId (its id's block) */
            sbuf who = {0};
            if (scan_pid_origin(c, cp->producer_id, &who)) {
                sb_printf(b, " pid %" PRId64 " was %s", cp->producer_id, who.p ? who.p : "");
                who.n = 0;
                if (orig->producer_id >= 0 && scan_pid_origin(c, orig->producer_id, &who))
                    sb_printf(b, "; pid %" PRId64 " was %s", orig->producer_id, who.p ? who.p : "");
                sb_printf(b, ".");
            }
            free(who.p);
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
    case SS_CAUSE_UPDATE:
        sb_printf(b,
                  " hold%s the same key as the original (%s offset %" PRId64 ") with a different value: an update, "
                  "or a re-send whose content changed; not a byte-identical copy.",
                  s, scan_part_name(c, orig->partition), orig->offset);
        break;
    case SS_CAUSE_CROSS_TOPIC:
        sb_printf(b,
                  " %s in another topic than the original (%s offset %" PRId64 "): the same content written to two "
                  "topics (a mirror, a fan-out, or a re-send to another topic); consumers of each topic saw one copy.",
                  many ? "are" : "is", scan_part_name(c, orig->partition), orig->offset);
        break;
    default: break;
    }
}

void explain_copy_sentence(struct scan_cli *c, size_t gi, const ss_an_copy *cp, char *buf, size_t n) {
    const ss_an_dupgroup *g = ss_an_dupgroup_at(c->an, gi);
    ss_an_copy orig;
    ss_an_dupgroup_copy(c->an, gi, g->original, &orig);
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
    const ss_an_dupgroup *g = ss_an_dupgroup_at(c->an, gi);
    ss_an_copy orig;
    ss_an_dupgroup_copy(c->an, gi, g->original, &orig);
    sbuf b = {0};
    b.n = 0;
    sb_printf(&b, "%s%s offset %" PRId64 " is the original", indent, scan_part_name(c, orig.partition), orig.offset);
    if (orig.aborted) sb_printf(&b, " (every copy is inside an aborted transaction)");
    sb_printf(&b, ".\n");
    out_str(o, b.p);
    for (enum ss_cause cause = SS_CAUSE_ABORTED; cause < SS_CAUSE_COUNT; cause++) {
        size_t n = count_cause(c, gi, cause);
        if (!n) continue;
        /* new-session: pid and epoch read differently; handle each kind and copy apart */
        for (size_t j = 0; j < g->copies; j++) {
            ss_an_copy cp;
            ss_an_dupgroup_copy(c->an, gi, j, &cp);
            if (j == g->original || cp.cause != cause) continue;
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
        ss_an_dupgroup_copy(c->an, gi, j, &cp);
        if (cp.open) nopen++;
    }
    if (nopen)
        out_printf(o,
                   "%s%zu of these copies %s in a transaction still open: read_committed consumers do not see %s "
                   "yet (they wait at the LSO).\n",
                   indent, nopen, plural(nopen, "lies", "lie"), plural(nopen, "it", "them"));
    free(b.p);
}
