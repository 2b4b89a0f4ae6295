/* segscan CLI - a consumer group's findings (segscan/findings.h) in words and
 * as group-finding JSON objects. The wording keeps apart what the log proves
 * ("certainly delivered again"), what bounds it ("possibly delivered twice:
 * the range that holds every record delivered twice") and what only
 * coincides ("consistent with").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/common.h"
#include "groups/gfindings.h"

bool gf_fails(const ss_finding *x, unsigned fail_on) {
    if ((fail_on & FAIL_REDELIVERED) && (x->redelivered.set || x->likely.set)) return true;
    if ((fail_on & FAIL_SKIPPED) && x->skipped.set) return true;
    if ((fail_on & FAIL_REWIND) && (x->kind == SS_FK_REWIND || x->kind == SS_FK_RESET)) return true;
    /* a restart below the deleted offset sent the group back as a rewind does */
    if ((fail_on & FAIL_REWIND) && x->kind == SS_FK_OFFSETS_DELETED && x->redelivered.set) return true;
    return false;
}

static void tstr(char *buf, size_t n, int64_t ms) {
    if (ms < 0) snprintf(buf, n, "-");
    else cli_format_time(ms, buf, n);
}

static void text_str(ss_out *o, const char *s) {
    if (!s) out_str(o, "(none)");
    else out_text_cstr(o, s);
}

void gf_tp_text(ss_out *o, const ss_gtp_ref *t) {
    if (t->topic) out_text_escaped(o, (const uint8_t *)t->topic, t->topic_len, false);
    else out_printf(o, "topic id %s", t->topic_id ? t->topic_id : "?");
    out_printf(o, "-%" PRId32, t->partition);
}

/* how "present at a time" was decided for this partition */
static const char *basis_words(const ss_finding *x) {
    switch (x->basis) {
    case SS_TL_LOG_APPEND: return "by LogAppendTime, the broker's";
    case SS_TL_CREATE:
        return "by CreateTime, the producers' clocks: an upper bound while no producer's clock runs ahead";
    default: return "no timestamps: every record counted";
    }
}

static void range_text(ss_out *o, const ss_frange *r) {
    if (r->to < 0) {
        out_printf(o, "offsets from %" PRId64 " on", r->from);
        return;
    }
    out_printf(o, "offsets %" PRId64 "..%" PRId64, r->from, r->to);
    if (r->records >= 0)
        out_printf(o, " (%" PRId64 " %s)", r->records, plural((uint64_t)r->records, "record", "records"));
}

/* a range's line: what it is, then where it comes from (lead: what goes before it on the line) */
static void redelivered_line(ss_out *o, const char *lead, const ss_finding *x, const ss_frange *r, bool will) {
    out_printf(o, "%s%s ", lead,
               r->certain ? "certainly delivered again:"
               : will     ? "will be delivered again:"
                          : "possibly delivered twice:");
    range_text(o, r);
    if (!x->data_read) out_str(o, "; the data partition was not read: offsets only");
    out_ch(o, '\n');
}

static void owner_text(ss_out *o, const char *member, const char *instance) {
    text_str(o, member);
    if (instance) {
        out_str(o, " [instance ");
        out_text_cstr(o, instance);
        out_ch(o, ']');
    }
}

static void producer_text(ss_out *o, const ss_finding *x) {
    out_printf(o, "producer id %" PRId64 " epoch %d", x->producer_id, x->producer_epoch);
    if (x->transactional_id) {
        out_str(o, " (");
        out_text_cstr(o, x->transactional_id);
        out_ch(o, ')');
    }
}

static const char *bump_words(enum ss_fbump bump) {
    switch (bump) {
    case SS_FB_FENCED: return "by the coordinator, for another instance's initTransactions (its producer fenced)";
    case SS_FB_TIMEOUT: return "by the coordinator, on the transaction's timeout (transaction.timeout.ms)";
    case SS_FB_UNKNOWN:
        return "by the coordinator (its epoch raised: a timeout or another instance's initTransactions; "
               "__transaction_state does not say which), or, under transaction version 2, by its producer";
    default: return "by its producer (abortTransaction)";
    }
}

/* an empty-group finding's ranges: what the last owner can have read past its last commit */
static void empty_ranges_text(ss_out *o, const ss_finding *x, const char *indent) {
    if (x->resumed_offset < 0) {
        out_printf(o, "%s    where the new member began is the reset policy's%s\n", indent,
                   x->while_empty & SS_FE_OFFSETS_DELETED ? ": see the offsets-deleted finding"
                                                          : " (the partition had no committed offset)");
        return;
    }
    if (x->caught_up) {
        out_printf(o,
                   "%s    nothing delivered twice across it: every record present when the last owner lost the "
                   "partition lay below where the new member began (%s)\n",
                   indent, basis_words(x));
        return;
    }
    if (!x->redelivered.set) return;
    out_printf(o, "%s    ", indent);
    redelivered_line(o, "", x, &x->redelivered, false);
    if (x->data_read)
        out_printf(o,
                   "%s      what the last owner can have read past its last commit: the records present when it "
                   "lost the partition (%s), none written while the group was empty\n",
                   indent, basis_words(x));
    if (x->likely.set) {
        out_printf(o, "%s    likely delivered twice: ", indent);
        range_text(o, &x->likely);
        out_str(o, ", written before its last commit plus one interval (on the sign of an unclean stop above)\n");
    }
}

/* what the membership records show of how the previous owner let the partition go */
static void revocation_text(ss_out *o, const ss_finding *x, const char *indent) {
    switch (x->revocation) {
    case SS_FR_ACKED:
        out_printf(o,
                   "%s    revocation: the partition pending revocation in its assignment, its commit, then its "
                   "acknowledgement at a later member epoch (a clean revocation: ConsumerMembershipManager commits "
                   "before it revokes); nothing likely\n",
                   indent);
        return;
    case SS_FR_REJOINED:
        if (x->clean == 1) {
            out_printf(o,
                       "%s    revocation: it rejoined the generation that gave the partition away having revoked "
                       "everything (its subscription's ownedPartitions empty: ConsumerCoordinator.onJoinPrepare), its "
                       "last commit within its rebalance timeout before: consistent with a commit in "
                       "onPartitionsRevoked (a clean handover); nothing likely, possibly only: a commit names no "
                       "generation, it may be an earlier one the owner read past before it revoked\n",
                       indent);
            return;
        }
        out_printf(o,
                   "%s    revocation: it rejoined the generation that gave the partition away, its last commit within "
                   "its rebalance timeout before it: consistent with a commit in onPartitionsRevoked; possibly, "
                   "never likely (the coordinator writes no record when a rebalance starts)\n",
                   indent);
        return;
    case SS_FR_REJOINED_UNDECIDED:
        out_printf(o,
                   "%s    revocation: it rejoined the generation that gave the partition away, its last commit within "
                   "its rebalance timeout before it, but its subscription (version 0) carries no ownedPartitions: "
                   "whether it had revoked before joining cannot be told; possibly, never likely\n",
                   indent);
        return;
    case SS_FR_REJOINED_OWNING:
        out_printf(o,
                   "%s    revocation: not shown; it rejoined the generation that gave the partition away still "
                   "owning partitions (its subscription's ownedPartitions not empty: no eager revocation before "
                   "it joined), so its last commit need not be where it stopped; possibly, never likely\n",
                   indent);
        return;
    case SS_FR_SESSION_TIMEOUT:
        out_printf(o,
                   "%s    revocation: none; it was no member when the partition was given away, its last commit at "
                   "least its session timeout before (removed as a member gone silent: an unclean stop)\n",
                   indent);
        return;
    case SS_FR_ABSENT:
        out_printf(o, "%s    revocation: none seen; it was no member when the partition was given away%s\n", indent,
                   x->clean == 0 ? " and had stopped committing" : " (it left, or was removed: the log cannot tell)");
        return;
    default: return;
    }
}

/* what happened to the committed offset while the group was empty (an empty-group finding) */
static void while_empty_text(ss_out *o, const ss_finding *x) {
    static const struct {
        unsigned bit;
        const char *words;
    } what[] = {{SS_FE_GROUP_DELETED, "the group was deleted and made again"},
                {SS_FE_OFFSETS_DELETED, "the committed offset was deleted (expiry or an admin's deletion)"},
                {SS_FE_RESET, "the committed offset was reset (kafka-consumer-groups.sh --reset-offsets)"}};
    bool any = false;
    for (size_t i = 0; i < sizeof what / sizeof *what; i++)
        if (x->while_empty & what[i].bit) {
            out_str(o, any ? "; " : "while empty: ");
            out_str(o, what[i].words);
            any = true;
        }
    if (!any) out_str(o, "while empty: the committed offset stayed as it was");
}

/* a handover: who to whom, where the new owner resumed, what the previous owner had committed, what came twice;
 * an empty-group finding the same, said as what it is: the group had no members between them */
static void handover_text(ss_out *o, const ss_finding *x, const char *indent) {
    char t2[64];
    bool empty = x->kind == SS_FK_EMPTY_GROUP;
    if (empty) {
        tstr(t2, sizeof t2, x->empty_since);
        out_printf(o, ": no members from %s until ", t2);
        owner_text(o, x->new_owner, x->new_instance);
        out_str(o, " got it (not a handover from ");
        owner_text(o, x->previous_owner, x->previous_instance);
        out_str(o, "); ");
        while_empty_text(o, x);
        if (x->resumed_offset >= 0) out_printf(o, "; resumed at %" PRId64, x->resumed_offset);
        else out_str(o, "; no committed offset then: auto.offset.reset decided where it began");
        out_printf(o, "  [record %" PRId64 "]\n", x->record_offset);
    }
    if (!empty) {
        out_str(o, ": ");
        owner_text(o, x->previous_owner, x->previous_instance);
        out_str(o, " -> ");
        owner_text(o, x->new_owner, x->new_instance);
        if (x->same_instance)
            out_str(o, " (the same group.instance.id under a new member id: a static member came back)");
        if (x->shared) {
            out_printf(o, "  [record %" PRId64 "]\n", x->record_offset);
            out_printf(o,
                       "%s    note: the same record assigned the partition to both (two members in one generation: a "
                       "faulty or custom assignor); not a handover from one to the other, and which of them read "
                       "what is not in the log\n",
                       indent);
            return;
        }
        if (x->resumed_offset >= 0) out_printf(o, "; resumed at %" PRId64, x->resumed_offset);
        else out_str(o, "; no committed offset then: auto.offset.reset decided where it began");
        out_printf(o, "  [record %" PRId64 "]\n", x->record_offset);
    }
    out_printf(o, "%s    %s owner: ", indent, empty ? "last" : "previous");
    if (!x->previous_commits) {
        /* "unclean" is said only of a commit that could be late: here there was none */
        out_str(o, "no commit of the partition while it owned it (no commit to be late: neither clean nor unclean)");
        if (x->resumed_offset < 0) out_str(o, "; no committed offset: auto.offset.reset decided where each began");
    } else {
        tstr(t2, sizeof t2, x->previous_last_commit);
        out_printf(o, "%" PRIu64 " %s, the last at %s (offset %" PRId64 "%s)", x->previous_commits,
                   plural(x->previous_commits, "commit", "commits"), t2, x->previous_last_offset,
                   x->last_commit_outcome == SS_GOUT_ABORTED
                       ? ", in a transaction that aborted: never the committed offset, though the owner was at "
                         "work then"
                   : x->last_commit_outcome == SS_GOUT_OPEN
                       ? ", in a transaction still open: not the committed offset, though the owner was at work "
                         "then"
                       : "");
        if (x->commit_interval_ms >= 0) out_printf(o, ", every %" PRId64 " ms (median)", x->commit_interval_ms);
        /* an eager revocation's commit may lie well before the generation is stored (the join phase
         * waits for every member): clean by the revocation, not by the pace */
        if (x->clean == 1 && x->revocation == SS_FR_REJOINED && x->commit_interval_ms >= 0 &&
            x->previous_until - x->previous_last_commit > x->commit_interval_ms)
            out_str(o, "; clean by its revocation (below), not by its pace");
        else if (x->clean == 1) out_str(o, "; it went on committing until it lost the partition (clean)");
        else if (x->clean == 0) {
            tstr(t2, sizeof t2, x->previous_until);
            out_printf(o, "; it had stopped committing before it lost the partition at %s (not clean)", t2);
        } else {
            out_str(o, "; its pace is unknown (one commit)");
        }
    }
    out_str(o, " (commits carry no member id: attributed to the owner then)\n");
    revocation_text(o, x, indent);
    if (empty) {
        empty_ranges_text(o, x, indent);
        return;
    }
    if (x->caught_up) {
        out_printf(o,
                   "%s    nothing to deliver twice: every record present at the handover lay below the resumed "
                   "offset (%s)\n",
                   indent, basis_words(x));
    } else if (x->redelivered.set) {
        out_printf(o, "%s    ", indent);
        redelivered_line(o, "", x, &x->redelivered, false);
        if (x->data_read)
            out_printf(o,
                       "%s      the records at and above the resumed offset present at the handover (%s): every "
                       "record delivered twice is among them, if the previous owner had stopped reading by then (one "
                       "cut off from the coordinator but not from the leaders fetches on until it learns it lost "
                       "the partition)\n",
                       indent, basis_words(x));
        if (x->likely.set) {
            out_printf(o, "%s    likely delivered twice: ", indent);
            range_text(o, &x->likely);
            out_str(o, ", written before its last commit plus one interval (assuming it committed at that pace; a "
                       "consumer stuck in processing goes on longer, up to max.poll.interval.ms)\n");
        }
    }
}

/* a rewind or reset: the move of the committed offset, and the records it delivers again or skips */
static void moved_text(ss_out *o, const ss_finding *x, const char *indent) {
    out_printf(o, ": committed offset %" PRId64 " -> %" PRId64, x->from_offset, x->to_offset);
    out_str(o, x->kind == SS_FK_REWIND ? " while the group had members"
                                       : " while the group was empty (consistent with kafka-consumer-groups.sh "
                                         "--reset-offsets)");
    out_printf(o, "  [record %" PRId64 "]\n", x->record_offset);
    if (x->skipped.set) {
        out_printf(o, "%s    possibly never received: ", indent);
        range_text(o, &x->skipped);
        out_str(o, " (moved forward past them; a former member may have read some past its last commit)\n");
        if (x->certain_skipped.set) {
            out_printf(o, "%s    certainly never received: ", indent);
            range_text(o, &x->certain_skipped);
            out_printf(o,
                       " (written after the owner before the reset lost the partition; the next owner resumed at "
                       "%" PRId64 ")\n",
                       x->to_offset);
        }
        if (x->consistent_with) out_printf(o, "%s    consistent with %s\n", indent, x->consistent_with);
        return;
    }
    if (!x->redelivered.set) return;
    {
        /* the certain part (all of it, or certain_part), then the rest */
        const ss_frange *c = x->certain_part.set ? &x->certain_part : NULL;
        bool whole_sure = !c && (x->redelivered.certain || gf_range_will(x, &x->redelivered));
        if (whole_sure) c = &x->redelivered;
        if (c) {
            out_printf(o, "%s    ", indent);
            redelivered_line(o, "", x, c, true);
            if (!c->certain)
                out_printf(o, "%s      (the group has not committed past %" PRId64 " since)\n", indent, c->to + 1);
            else if (x->kind == SS_FK_REWIND)
                out_printf(o, "%s      (its later commits stepped through them)\n", indent);
        }
        if (c == &x->redelivered) return;
        int64_t from = c ? c->to + 1 : x->redelivered.from;
        out_printf(o, "%s    possibly delivered again: ", indent);
        if (c) {
            ss_frange rest = x->redelivered;
            rest.from = from;
            rest.records = x->redelivered.records >= 0 && c->records >= 0 ? x->redelivered.records - c->records : -1;
            range_text(o, &rest);
        } else {
            range_text(o, &x->redelivered);
        }
        if (!x->data_read) out_str(o, "; the data partition was not read: offsets only");
        out_ch(o, '\n');
        if (x->read_bound >= 0 && x->read_bound <= x->redelivered.to && from >= x->read_bound)
            out_printf(o,
                       "%s      nothing shows the group read from %" PRId64 " on: no reader committed past it, or "
                       "no record was present past it when %" PRId64 " was committed (an admin's forward reset, "
                       "or a commit past the log end, reads nothing)\n",
                       indent, x->read_bound, x->from_offset);
        else
            out_printf(o,
                       "%s      no later commit of the group steps through them: a late commit (an older "
                       "position's commitAsync landing after a newer one, or a second consumer of the "
                       "partition) moves the committed offset back and re-reads nothing\n",
                       indent);
    }
}

/* offsets deleted: what was committed before and next, and what follows for the records */
static void deleted_text(ss_out *o, const ss_finding *x, const char *indent) {
    char t2[64];
    out_str(o, ": ");
    if (x->last_committed >= 0) out_printf(o, "committed %" PRId64 " before", x->last_committed);
    else out_str(o, "no committed offset before");
    out_str(o, " (the reason is not in the log: expiry, admin deletion and topic deletion look alike)");
    if (x->restart_offset >= 0) {
        tstr(t2, sizeof t2, x->restart_time);
        out_printf(o, "; the group committed %" PRId64 " next, at %s", x->restart_offset, t2);
    } else {
        out_str(o, "; the group has not committed it since");
    }
    out_printf(o, "  [record %" PRId64 "]\n", x->record_offset);
    if (x->restart_offset >= 0 && x->last_committed >= 0) {
        if (!x->data_read) {
            out_printf(o,
                       "%s    no committed offset when it began: auto.offset.reset decided where; the data partition "
                       "was not read, so where it began and the full range are unknown\n",
                       indent);
        } else if (x->restart_log_end >= 0) {
            tstr(t2, sizeof t2, x->restart_generation);
            out_printf(o,
                       "%s    its next owner got the partition at %s, when the log end was %" PRId64 " (%s): ", indent,
                       t2, x->restart_log_end, basis_words(x));
            if (x->restart_offset < x->restart_log_end)
                out_printf(o,
                           "a first commit below it is not auto.offset.reset=latest's; it began at or below %" PRId64
                           " (earliest, by_duration or a seek), down to the log start then, which is not on disk "
                           "(it was at or below the log start read now, %" PRId64 ")\n",
                           x->restart_offset, x->redelivered.set ? x->redelivered.from : x->restart_offset);
            else out_str(o, "a first commit there is consistent with auto.offset.reset=latest\n");
        }
    }
    if (x->certain_part.set) {
        out_printf(o, "%s    ", indent);
        redelivered_line(o, "", x, &x->certain_part, !x->certain_part.certain);
    }
    if (x->redelivered.set) {
        out_printf(o, "%s    ", indent);
        redelivered_line(o, "", x, &x->redelivered, !x->certain_part.set);
    }
    if (x->skipped.set) {
        out_printf(o, "%s    possibly never received: ", indent);
        range_text(o, &x->skipped);
        out_printf(o,
                   " (where the group restarted is not in the log: one that restarted lower and read up to %" PRId64
                   " commits the same)\n",
                   x->restart_offset);
    }
    if (x->consistent_with) out_printf(o, "%s    consistent with %s\n", indent, x->consistent_with);
}

/* a committed offset out of the data's range */
static void out_of_range_text(ss_out *o, const ss_finding *x, const char *indent) {
    char t2[64];
    if (x->below) {
        out_printf(o,
                   ": the committed offset %" PRId64 " lies below the log start %" PRId64
                   " of the copy read: a consumer resuming there gets OFFSET_OUT_OF_RANGE and auto.offset.reset "
                   "decides (records %" PRId64 "..%" PRId64 " are gone)  [record %" PRId64 "]\n",
                   x->commit_offset, x->log_start, x->commit_offset, x->log_start - 1, x->record_offset);
        return;
    }
    out_printf(o, ": committed %" PRId64 ", past the log end %" PRId64 " at that time", x->commit_offset, x->log_end);
    if (x->commits > 1) {
        tstr(t2, sizeof t2, x->last_time);
        out_printf(o, " (%" PRIu64 " commits in a row, the last at %s)", x->commits, t2);
    }
    out_printf(o, "  [record %" PRId64 "]\n%s    (%s)", x->record_offset, indent, basis_words(x));
    if (x->past_copy)
        out_str(o, "; past the end of the copy read, too: a follower's copy may lag behind the leader's, or the log "
                   "was truncated (an unclean leader election)");
    out_ch(o, '\n');
}

/* a transactional commit that aborted or is open, and its outputs */
static void txn_commit_text(ss_out *o, const ss_finding *x, const char *indent) {
    out_printf(o, ": offset %" PRId64 " by ", x->commit_offset);
    producer_text(o, x);
    out_printf(o, "  [record %" PRId64 "]\n", x->record_offset);
    if (x->kind == SS_FK_ABORTED_COMMIT) {
        out_printf(o, "%s    aborted (marker epoch %d) %s\n", indent, x->marker_epoch, bump_words(x->bump));
        if (x->redelivered.set) {
            out_printf(o,
                       "%s    its input, read again if the application rewinds to the committed offset (Kafka "
                       "Streams and Kafka's exactly-once example do; the consumer does not by itself): ",
                       indent);
            redelivered_line(o, "", x, &x->redelivered, false);
            out_printf(o,
                       "%s      an application that does not rewind goes on past them, and their processing in "
                       "this transaction is lost\n",
                       indent);
        }
    } else {
        out_printf(o, "%s    no marker at the end of the log", indent);
        if (x->age_ms >= 0) out_printf(o, "; open for %" PRId64 " ms", x->age_ms);
        if (x->hanging)
            out_str(o, x->hanging_confirmed == 1   ? ": hanging (__transaction_state: the coordinator does not "
                                                     "list this partition in the id's transaction)"
                       : x->hanging_confirmed == 0 ? ": past the timeout, but __transaction_state lists the "
                                                     "partition in the id's transaction (not hanging)"
                                                   : ": past the timeout, a hanging candidate (__transaction_state "
                                                     "not read)");
        out_ch(o, '\n');
    }
    for (size_t i = 0; i < x->noutputs; i++) {
        const ss_foutput *w = &x->outputs[i];
        out_printf(o, "%s    its output in ", indent);
        out_text_cstr(o, w->topic);
        out_printf(o,
                   "-%" PRId32 ": offsets %" PRId64 "..%" PRId64 " (%" PRIu64 " %s)%s; the same producer id and "
                   "epoch%s\n",
                   w->partition, w->from, w->to, w->records, plural(w->records, "record", "records"),
                   x->kind == SS_FK_ABORTED_COMMIT ? ", invisible to read_committed consumers" : "",
                   w->by_epoch ? " (transaction version 2: one transaction per epoch)"
                               : ", its marker between the producer's markers around this one");
    }
}

/* a producer epoch raised by initTransactions */
static void fencing_text(ss_out *o, const ss_finding *x, const char *indent) {
    char t2[64];
    out_str(o, ": ");
    out_printf(o, "producer id %" PRId64, x->producer_id);
    if (x->transactional_id) {
        out_str(o, " (");
        out_text_cstr(o, x->transactional_id);
        out_ch(o, ')');
    }
    if (x->bump == SS_FB_INIT_OR_BUMP)
        out_printf(o,
                   " epoch %d -> %d after its producer's own abort: initTransactions by a new instance (the old "
                   "one, if alive, is fenced), or the same producer's epoch bump after an abortable error "
                   "(KIP-360); the log cannot tell which",
                   x->old_epoch, x->producer_epoch);
    else
        out_printf(o, " epoch %d -> %d: initTransactions by a new instance (the old one, if alive, is fenced)",
                   x->old_epoch, x->producer_epoch);
    out_printf(o, "  [record %" PRId64 "]\n", x->record_offset);
    if (x->aborted_at >= 0) {
        tstr(t2, sizeof t2, x->aborted_at);
        out_printf(o, "%s    the transaction open then was aborted at %s%s\n", indent, t2,
                   x->bump == SS_FB_UNKNOWN ? " (by it, or on its timeout: __transaction_state does not say)" : "");
    }
    if (x->txn_version)
        out_printf(o, "%s    transaction version %d%s\n", indent, x->txn_version,
                   x->txn_version == 2 ? ": its per-transaction epoch bumps (KIP-890) are not counted" : "");
}

void gf_text(ss_out *o, const ss_finding *x, const char *indent) {
    char t[64];
    tstr(t, sizeof t, x->time);
    out_printf(o, "%s%s  %s", indent, t, ss_fkind_name(x->kind));
    if (x->tp.topic || x->tp.topic_id) {
        out_str(o, " of ");
        gf_tp_text(o, &x->tp);
    }
    switch (x->kind) {
    case SS_FK_HANDOVER:
    case SS_FK_EMPTY_GROUP: handover_text(o, x, indent); return;
    case SS_FK_REWIND:
    case SS_FK_RESET: moved_text(o, x, indent); return;
    case SS_FK_OFFSETS_DELETED: deleted_text(o, x, indent); return;
    case SS_FK_OUT_OF_RANGE: out_of_range_text(o, x, indent); return;
    case SS_FK_ABORTED_COMMIT:
    case SS_FK_OPEN_COMMIT: txn_commit_text(o, x, indent); return;
    case SS_FK_FENCING: fencing_text(o, x, indent); return;
    default: out_ch(o, '\n'); return;
    }
}

const char *gf_clean_word(const ss_finding *x) {
    if (!x->previous_commits && (x->kind == SS_FK_HANDOVER || x->kind == SS_FK_EMPTY_GROUP))
        return "never committed by its previous owner";
    return x->clean == 1 ? "clean" : x->clean == 0 ? "unclean" : "clean or not unknown";
}

/* a range not certain yet that will be certain once the group commits past it: an
 * offsets deletion's or a reset's (the group resumes there), never a handover's, an aborted
 * commit's or a rewind's while the group had members */
bool gf_range_will(const ss_finding *x, const ss_frange *r) {
    if (r->certain || r == &x->skipped || r == &x->likely) return false;
    /* a deletion's: from its first commit on (below it, where the group began is not known) */
    if (x->kind == SS_FK_OFFSETS_DELETED) return !x->certain_part.set || r == &x->certain_part;
    if (x->kind != SS_FK_RESET) return false;
    if (r == &x->certain_part) return true;
    return !x->certain_part.set && x->read_bound > x->redelivered.to;
}

const ss_frange *gf_range_for(const ss_finding *x, int64_t offset) {
    if (ss_frange_holds(&x->redelivered, offset) && x->redelivered.certain) return &x->redelivered;
    if (ss_frange_holds(&x->certain_part, offset)) return &x->certain_part;
    if (ss_frange_holds(&x->likely, offset)) return &x->likely;
    if (ss_frange_holds(&x->redelivered, offset)) return &x->redelivered;
    if (ss_frange_holds(&x->certain_skipped, offset)) return &x->certain_skipped;
    if (ss_frange_holds(&x->skipped, offset)) return &x->skipped;
    return NULL;
}

void gf_covering_text(ss_out *o, const ss_finding *x, int64_t offset) {
    char t[64];
    tstr(t, sizeof t, x->time);
    const ss_frange *r = gf_range_for(x, offset);
    if (!r) return;
    bool skipped = r == &x->skipped || r == &x->certain_skipped;
    if (skipped) out_str(o, r->certain ? "certainly never received: " : "possibly never received: ");
    else if (r->certain) out_str(o, "certainly delivered again: ");
    else if (gf_range_will(x, r)) out_str(o, "will be delivered again: ");
    else if (r == &x->likely) out_str(o, "likely delivered twice: ");
    else out_str(o, "possibly delivered twice: ");
    switch (x->kind) {
    case SS_FK_HANDOVER:
        if (!x->previous_commits) out_printf(o, "handover at %s (its previous owner never committed the partition)", t);
        else if (x->clean < 0) out_printf(o, "handover at %s (clean or not: unknown, its pace unknown)", t);
        else out_printf(o, "%s handover at %s", gf_clean_word(x), t);
        out_printf(o, ", resumed at %" PRId64, x->resumed_offset);
        break;
    case SS_FK_EMPTY_GROUP:
        out_printf(o,
                   "read past its last commit by the group's last owner before it went empty; the next member "
                   "began at %s from %" PRId64,
                   t, x->resumed_offset);
        break;
    case SS_FK_REWIND:
    case SS_FK_RESET:
        out_printf(o, "%s at %s from %" PRId64 " to %" PRId64, ss_fkind_name(x->kind), t, x->from_offset, x->to_offset);
        break;
    case SS_FK_OFFSETS_DELETED:
        out_printf(o, "offsets deleted at %s (committed %" PRId64 " before), the group committed %" PRId64 " next", t,
                   x->last_committed, x->restart_offset);
        break;
    case SS_FK_ABORTED_COMMIT:
        out_printf(o,
                   "processed in a transaction aborted at %s (it would have committed %" PRId64
                   "), read again if the application rewinds to the committed offset",
                   t, x->commit_offset);
        break;
    default: out_printf(o, "%s at %s", ss_fkind_name(x->kind), t); break;
    }
}

/* ---- JSON ---------------------------------------------------------------------------------------- */

static void json_str_or_null(ss_out *o, const char *s) {
    if (!s) out_str(o, "null");
    else out_json_utf8(o, (const uint8_t *)s, strlen(s));
}

/* a transactional finding's transactional.id and transaction version (null: not known) */
static void json_txn_of(ss_out *o, const ss_finding *x) {
    out_json_key(o, "transactionalId");
    json_str_or_null(o, x->transactional_id);
    out_json_key(o, "transactionVersion");
    if (x->txn_version) out_i64(o, x->txn_version);
    else out_str(o, "null");
}

void gf_json_range(ss_out *o, const char *name, const ss_frange *r) {
    out_json_key(o, name);
    if (!r->set) {
        out_str(o, "null");
        return;
    }
    out_printf(o, "{\"from\":%" PRId64 ",\"to\":", r->from);
    if (r->to < 0) out_str(o, "null");
    else out_i64(o, r->to);
    out_str(o, ",\"records\":");
    if (r->records < 0) out_str(o, "null");
    else out_i64(o, r->records);
    out_kv_bool(o, "certain", r->certain);
    out_ch(o, '}');
}

static void json_owner(ss_out *o, const char *name, const char *member, const char *instance) {
    out_json_key(o, name);
    out_str(o, "{\"memberId\":");
    json_str_or_null(o, member);
    out_json_key(o, "groupInstanceId");
    json_str_or_null(o, instance);
    out_ch(o, '}');
}

static void json_tp_name(ss_out *o, const char *topic, int32_t partition) {
    char num[16];
    snprintf(num, sizeof num, "-%" PRId32, partition);
    size_t tl = strlen(topic), nl = strlen(num);
    char buf[512];
    if (tl + nl < sizeof buf) {
        memcpy(buf, topic, tl);
        memcpy(buf + tl, num, nl + 1);
        out_json_utf8(o, (const uint8_t *)buf, tl + nl);
    } else {
        out_str(o, "null");
    }
}

/* an empty-group finding's "emptySince" and "whileEmpty" */
static void json_while_empty(ss_out *o, const ss_finding *x) {
    static const struct {
        unsigned bit;
        const char *name;
    } what[] = {
        {SS_FE_GROUP_DELETED, "group-deleted"}, {SS_FE_OFFSETS_DELETED, "offsets-deleted"}, {SS_FE_RESET, "reset"}};
    out_kv_opt(o, "emptySince", x->empty_since);
    out_json_key(o, "whileEmpty");
    out_ch(o, '[');
    bool first = true;
    for (size_t i = 0; i < sizeof what / sizeof *what; i++)
        if (x->while_empty & what[i].bit) {
            if (!first) out_ch(o, ',');
            out_json_cstr(o, what[i].name);
            first = false;
        }
    out_ch(o, ']');
}

void gf_json(ss_out *o, const ss_finding *x, int64_t now) {
    char nm[48];
    out_str(o, "{\"type\":\"group-finding\",\"kind\":");
    out_json_cstr(o, ss_fkind_name(x->kind));
    out_json_key(o, "group");
    out_json_utf8(o, (const uint8_t *)x->group_id, x->group_id_len);
    out_json_key(o, "topic");
    if (x->tp.topic) out_json_utf8(o, (const uint8_t *)x->tp.topic, x->tp.topic_len);
    else out_str(o, "null");
    out_json_key(o, "topicId");
    json_str_or_null(o, x->tp.topic_id);
    out_json_key(o, "partition");
    if (x->tp.topic || x->tp.topic_id) out_i64(o, x->tp.partition);
    else out_str(o, "null");
    out_json_key(o, "time");
    out_i64(o, x->time);
    snprintf(nm, sizeof nm, "__consumer_offsets-%" PRId32, x->coordinator_partition);
    out_json_key(o, "coordinatorPartition");
    out_json_cstr(o, nm);
    out_kv_u64(o, "recordOffset", (uint64_t)x->record_offset);
    if (x->kind != SS_FK_FENCING) {
        out_kv_bool(o, "dataRead", x->data_read);
        out_json_key(o, "timeBasis");
        if (x->data_read && x->basis != SS_TL_NONE) out_json_cstr(o, ss_tl_basis_name(x->basis));
        else out_str(o, "null");
    }
    switch (x->kind) {
    case SS_FK_EMPTY_GROUP:
    case SS_FK_HANDOVER:
        if (x->kind == SS_FK_EMPTY_GROUP) json_while_empty(o, x);
        out_kv_opt(o, "resumedOffset", x->resumed_offset);
        json_owner(o, "previousOwner", x->previous_owner, x->previous_instance);
        json_owner(o, "newOwner", x->new_owner, x->new_instance);
        out_kv_bool(o, "sameInstance", x->same_instance);
        out_kv_opt(o, "previousOwnerUntil", x->previous_until);
        out_json_key(o, "previousOwnerLastCommit");
        if (!x->previous_commits) {
            out_str(o, "null");
        } else {
            out_str(o, "{\"time\":");
            if (x->previous_last_commit < 0) out_str(o, "null");
            else out_i64(o, x->previous_last_commit);
            out_printf(o, ",\"offset\":%" PRId64, x->previous_last_offset);
            out_json_key(o, "outcome");
            if (x->last_commit_outcome == SS_GOUT_ABORTED || x->last_commit_outcome == SS_GOUT_OPEN)
                out_json_cstr(o, ss_goutcome_name(x->last_commit_outcome));
            else out_str(o, "null");
            out_ch(o, '}');
        }
        out_kv_bool(o, "sharedAssignment", x->shared);
        out_kv_u64(o, "previousOwnerCommits", x->previous_commits);
        out_kv_opt(o, "commitIntervalMs", x->commit_interval_ms);
        out_json_key(o, "clean");
        if (x->clean < 0) out_str(o, "null");
        else out_bool(o, x->clean == 1);
        out_kv_bool(o, "caughtUp", x->caught_up);
        out_json_key(o, "revocation");
        json_str_or_null(o, ss_frevoke_name(x->revocation));
        gf_json_range(o, "redelivered", &x->redelivered);
        gf_json_range(o, "likelyRedelivered", &x->likely);
        break;
    case SS_FK_REWIND:
    case SS_FK_RESET:
        out_kv_opt(o, "fromOffset", x->from_offset);
        out_kv_opt(o, "toOffset", x->to_offset);
        gf_json_range(o, "redelivered", &x->redelivered);
        gf_json_range(o, "certainRedelivered", &x->certain_part);
        out_kv_opt(o, "readBound", x->read_bound);
        gf_json_range(o, "skipped", &x->skipped);
        gf_json_range(o, "certainSkipped", &x->certain_skipped);
        out_json_key(o, "consistentWith");
        json_str_or_null(o, x->consistent_with);
        break;
    case SS_FK_OFFSETS_DELETED:
        out_kv_opt(o, "lastCommittedOffset", x->last_committed);
        out_kv_opt(o, "restartOffset", x->restart_offset);
        out_kv_opt(o, "restartTime", x->restart_time);
        out_kv_opt(o, "restartGeneration", x->restart_generation);
        out_kv_opt(o, "logEndAtRestart", x->restart_log_end);
        gf_json_range(o, "certainRedelivered", &x->certain_part);
        out_json_key(o, "consistentWith");
        json_str_or_null(o, x->consistent_with);
        gf_json_range(o, "redelivered", &x->redelivered);
        gf_json_range(o, "skipped", &x->skipped);
        break;
    case SS_FK_OUT_OF_RANGE:
        out_kv_opt(o, "commitOffset", x->commit_offset);
        out_kv_opt(o, "logStartOffset", x->log_start);
        out_kv_opt(o, "logEndOffset", x->log_end);
        out_kv_bool(o, "below", x->below);
        out_kv_bool(o, "pastCopyEnd", x->past_copy);
        out_kv_u64(o, "commits", x->commits);
        out_kv_opt(o, "lastTime", x->last_time);
        break;
    case SS_FK_ABORTED_COMMIT:
    case SS_FK_OPEN_COMMIT:
        out_kv_opt(o, "commitOffset", x->commit_offset);
        out_kv_opt(o, "producerId", x->producer_id);
        out_kv_opt(o, "producerEpoch", x->producer_epoch);
        json_txn_of(o, x);
        if (x->kind == SS_FK_ABORTED_COMMIT) {
            out_kv_opt(o, "markerEpoch", x->marker_epoch);
            out_json_key(o, "abortedBy");
            out_json_cstr(o, x->bump == SS_FB_NONE ? "producer" : x->bump == SS_FB_UNKNOWN ? "unknown" : "coordinator");
            out_json_key(o, "bump");
            json_str_or_null(o, ss_fbump_name(x->bump));
            gf_json_range(o, "redelivered", &x->redelivered);
        } else {
            out_kv_bool(o, "hanging", x->hanging);
            out_json_key(o, "hangingConfirmed");
            if (x->hanging_confirmed < 0) out_str(o, "null");
            else out_bool(o, x->hanging_confirmed == 1);
            out_kv_opt(o, "ageMs", x->age_ms);
            out_kv_opt(o, "now", now);
        }
        out_json_key(o, "outputs");
        out_ch(o, '[');
        for (size_t i = 0; i < x->noutputs; i++) {
            const ss_foutput *w = &x->outputs[i];
            if (i) out_ch(o, ',');
            out_str(o, "{\"partition\":");
            json_tp_name(o, w->topic, w->partition);
            out_printf(o, ",\"from\":%" PRId64 ",\"to\":%" PRId64 ",\"records\":%" PRIu64, w->from, w->to, w->records);
            out_json_key(o, "matchedBy");
            out_json_cstr(o, w->by_epoch ? "epoch" : "markers");
            out_ch(o, '}');
        }
        out_ch(o, ']');
        break;
    case SS_FK_FENCING:
        out_kv_opt(o, "producerId", x->producer_id);
        out_kv_opt(o, "producerEpoch", x->producer_epoch);
        out_kv_opt(o, "oldEpoch", x->old_epoch);
        json_txn_of(o, x);
        out_json_key(o, "bump");
        json_str_or_null(o, ss_fbump_name(x->bump));
        out_kv_opt(o, "abortedAt", x->aborted_at);
        break;
    default: break;
    }
    out_str(o, "}\n");
}

/* ---- for the blocks of one rebalance (view_gblock.c) ------------------------------------------------- */

void gf_owner_text(ss_out *o, const char *member, const char *instance) { owner_text(o, member, instance); }
void gf_range_text(ss_out *o, const ss_frange *r) { range_text(o, r); }
void gf_revocation_text(ss_out *o, const ss_finding *x, const char *indent) { revocation_text(o, x, indent); }
const char *gf_basis_words(const ss_finding *x) { return basis_words(x); }
