#!/usr/bin/env python3
"""A window restricts what is listed, never what is known; "now", transaction age and hanging
judged as Kafka judges them.

Usage: test_windows.py SEGSCAN TESTDATA [-k SUBSTRING]

Every partition is built here (tests/lib/kafka.py); each expectation is derived by hand from how it was
built and from the Kafka rule cited beside it (TransactionsCommand.java's find-hanging,
ProducerStateManager / ProducerStateEntry.lastTimestamp, TransactionState.java), never from
segscan's own output.
"""

import json
import os
import struct
import sys

import kafka
from harness import (absent, check, contains, eq, gen, jsonl, main, of_type, one, run, run_rc, test, tmp)

T0 = 1700000000000
HOUR = 3600000
MIN = 60000


def recs(first, n, prefix=b'v'):
    return [(None, prefix + b'%d' % (first + i)) for i in range(n)]


def txn_data(base, n, pid, epoch=0, seq=0, ts=T0):
    return kafka.batch(base, recs(base, n), pid=pid, epoch=epoch, base_seq=seq, transactional=True, base_ts=ts,
                       ts_deltas=[0] * n)


def plain(base, n, ts, prefix=b'p'):
    return kafka.batch(base, recs(base, n, prefix), base_ts=ts, ts_deltas=[0] * n)


def txns_of(objs):
    return of_type(objs, 'transaction')


# ---- the rule: a window restricts what is listed ---------------------------------------------------

def committed_txn_then_plain(path, commit=True):
    # offsets 0..4: pid 9's transaction (one batch, sequences 0..4); 5: its COMMIT or ABORT marker;
    # 6..9: records without producer id.
    data = txn_data(0, 5, 9) + kafka.marker(5, 9, 0, commit, ts=T0 + 1000) + plain(6, 4, T0 + 2000)
    return kafka.write_partition(path, {0: data})


@test
def marker_outside_the_window():
    # --to-offset 3 lists the transaction (its data batch lies in the window), but its result is the
    # whole log's: the COMMIT marker at offset 5 closes it. No transaction is open, so the LSO is the
    # log end, 10 (DESIGN: LSO = first offset of the earliest open transaction, else the end).
    p = committed_txn_then_plain(tmp('d', 't-0'))
    objs = jsonl(['txns', '--to-offset', '3', p])
    t = txns_of(objs)
    eq([(x['result'], x['firstOffset'], x['markerOffset'], x['records']) for x in t], [('COMMIT', 0, 5, 5)],
       'transactions')
    eq(one(objs, 'partition')['lastStableOffset'], 10, 'LSO')


@test
def abort_seen_from_inside():
    # --from-offset 5: only the ABORT marker lies in the window; the transaction it closes has 5 records
    # at 0..4, so it is not "empty".
    p = committed_txn_then_plain(tmp('d', 't-0'), commit=False)
    objs = jsonl(['txns', '--from-offset', '5', p])
    t = txns_of(objs)
    eq([(x['result'], x['empty'], x['firstOffset'], x['records']) for x in t], [('ABORT', False, 0, 5)],
       'transactions')
    eq(one(objs, 'partition')['empty'], 0, 'empty transactions')


@test
def lso_from_the_whole_log():
    # an open transaction of pid 9 at offsets 6..7, outside --to-offset 3: the LSO is still 6.
    data = plain(0, 6, T0) + txn_data(6, 2, 9, ts=T0 + 1000)
    p = kafka.write_partition(tmp('d', 't-0'), {0: data})
    objs = jsonl(['txns', '--to-offset', '3', p])
    eq(one(objs, 'partition')['lastStableOffset'], 6, 'LSO')


@test
def sessions_under_a_window_keep_the_whole_log_figures():
    # pid 7 writes 3 batches of 10 (offsets and sequences 0..29); --from-offset 10 --to-offset 19 lists
    # its session (a batch in the window) with the whole log's figures.
    data = b''.join(kafka.batch(b, recs(b, 10), pid=7, epoch=0, base_seq=b, base_ts=T0 + b) for b in (0, 10, 20))
    p = kafka.write_partition(tmp('d', 's-0'), {0: data})
    objs = jsonl(['producers', '--from-offset', '10', '--to-offset', '19', p])
    s = one(objs, 'session')
    eq((s['records'], s['batches'], s['sequenceRanges'], s['firstOffset'], s['lastOffset']),
       (30, 3, [[0, 29]], 0, 29), 'session figures')


# ---- now and hanging -------------------------------------------------------------------------------

def open_txn_then_later_writes(path, later_ts):
    # pid 9's open transaction: batches at offsets 0..1 (maxTimestamp T0) and 2..3 (T0 + 1000); then
    # records without producer id at offsets 4..5, written at later_ts.
    data = txn_data(0, 2, 9, seq=0, ts=T0) + txn_data(2, 2, 9, seq=2, ts=T0 + 1000)
    if later_ts is not None:
        data += plain(4, 2, later_ts)
    return kafka.write_partition(path, {0: data})


@test
def filtered_producer_keeps_its_hanging_transaction():
    # "now" is the newest timestamp of every batch read, filtered or not: T0 + 1 h. pid 9's last write
    # in the partition is T0 + 1000 (ProducerStateEntry.lastTimestamp: its last batch's maxTimestamp),
    # so its open transaction has been idle 1 h - 1 s (find-hanging's Duration: now - lastTimestamp),
    # more than the 15 min default timeout: hanging, also under --producer-id 9.
    p = open_txn_then_later_writes(tmp('d', 't-0'), T0 + HOUR)
    for extra in ([], ['--producer-id', '9'], ['--since', str(T0), '--until', str(T0 + 500)]):
        objs = jsonl(['txns'] + extra + [p])
        t = txns_of(objs)
        eq(len(t), 1, 'transactions with %s' % extra)
        eq((t[0]['result'], t[0]['hanging'], t[0]['ageMs'], t[0]['now']),
           ('OPEN', True, HOUR - 1000, T0 + HOUR), 'open transaction with %s' % extra)
        eq(t[0]['firstRecordTimestamp'], T0, 'first record timestamp')


@test
def idle_partition_beside_busy_ones():
    # a-0's last write is pid 9's open transaction (T0 + 1000); b-0 was written 1 h later. "now" is the
    # newest timestamp in any input, so a-0's transaction is hanging.
    a = open_txn_then_later_writes(tmp('logs', 'a-0'), None)
    kafka.write_partition(tmp('logs', 'b-0'), {0: plain(0, 3, T0 + HOUR)})
    objs = jsonl(['txns', tmp('logs')])
    t = txns_of(objs)
    eq([(x['partition'], x['hanging'], x['ageMs']) for x in t], [('a-0', True, HOUR - 1000)], 'transactions')
    out, _ = run_rc(['txns', tmp('logs')], 0)
    contains(out, 'now', 'the reference time is stated')
    # a-0 alone: nothing later than the transaction was seen anywhere: its age is unknown, not
    # "not hanging".
    objs = jsonl(['txns', a])
    t = txns_of(objs)
    eq((t[0]['ageMs'], t[0]['hanging']), (None, None), 'age and hanging unknown')
    out, _ = run_rc(['txns', a], 0)
    contains(out, 'no later activity seen', 'text says the age is unknown')
    contains(out, '--now', 'text suggests --now')


@test
def now_means_the_wall_clock():
    a = open_txn_then_later_writes(tmp('d', 'a-0'), None)
    objs = jsonl(['txns', '--now', 'now', a])
    t = txns_of(objs)[0]
    eq(t['hanging'], True, 'a 2023 transaction is hanging by the wall clock')
    check(t['now'] > T0 + 365 * 24 * HOUR, 'now is the wall clock: %r' % t['now'])


@test
def fail_on_hanging():
    p = open_txn_then_later_writes(tmp('d', 't-0'), T0 + HOUR)
    run_rc(['txns', '--fail-on', 'hanging', p], 1)
    q = open_txn_then_later_writes(tmp('e', 't-0'), T0 + 2 * MIN)   # idle 2 min - 1 s: not hanging
    run_rc(['txns', '--fail-on', 'hanging', q], 0)


def txn_state_record(offset, txn_id, pid, epoch, status, partitions, ts):
    """__transaction_state: key version 0 + TransactionLogKey(transactionalId); value version 0 +
    TransactionLogValue v0 (producerId, producerEpoch, transactionTimeoutMs, transactionStatus,
    transactionPartitions [topic, partitionIds], lastUpdate, start) - TransactionLog.scala."""
    return kafka.batch(offset, [kafka.txn_state(txn_id, pid, epoch, status, ts, partitions=dict(partitions))],
                       base_ts=ts, ts_deltas=[0])


@test
def hanging_confirmed_by_the_transaction_state():
    # find-hanging's second rule (TransactionsCommand.filterHangingTransactions): an open transaction
    # is hanging when the coordinator does not know it - no transactional id for the producer id, or
    # the id's current state does not list the partition. "tx" hashes to __transaction_state-16
    # (Java "tx".hashCode() = 116*31 + 120 = 3716; 3716 % 50 = 16).
    def case(name, status, partitions):
        root = tmp(name)
        open_txn_then_later_writes(os.path.join(root, 't-0'), T0 + HOUR)
        kafka.write_partition(os.path.join(root, '__transaction_state-16'),
                              {0: txn_state_record(0, b'tx', 9, 0, status, partitions, T0)})
        objs = jsonl(['txns', root])
        t = [x for x in txns_of(objs) if x['partition'] == 't-0']
        eq(len(t), 1, '%s: transactions of t-0' % name)
        return t[0]
    # Ongoing (1) with t-0 listed: the coordinator knows it and will abort it at its timeout
    t = case('ongoing', 1, [(b't', [0])])
    eq((t['hanging'], t['hangingConfirmed']), (True, False), 'Ongoing, partition listed')
    # CompleteCommit (4): the coordinator finished the id's transaction: this one is unknown to it
    t = case('complete', 4, [])
    eq((t['hanging'], t['hangingConfirmed']), (True, True), 'CompleteCommit')
    # Ongoing without t-0 in its partitions
    t = case('other', 1, [(b'other', [0])])
    eq(t['hangingConfirmed'], True, 'Ongoing, partition not listed')
    # no __transaction_state read: a candidate only
    p = open_txn_then_later_writes(tmp('none', 't-0'), T0 + HOUR)
    t = txns_of(jsonl(['txns', p]))[0]
    eq((t['hanging'], t['hangingConfirmed']), (True, None), 'without __transaction_state')


# ---- grouping sees the whole log ------------------------------------------------------------------

def copy_before_since(path):
    # offset 0: "X" at T0; offsets 1..3 other values; offset 4: "X" again at T0 + 60 s.
    data = kafka.batch(0, [(None, b'X')], base_ts=T0) + plain(1, 3, T0 + 1000) + \
        kafka.batch(4, [(None, b'X')], base_ts=T0 + MIN)
    return kafka.write_partition(path, {0: data})


@test
def explain_sees_a_copy_before_since():
    p = copy_before_since(tmp('d', 'x-0'))
    objs = jsonl(['explain', '--value', 'X', '--since', str(T0 + 30000), p])
    eq(of_type(objs, 'single'), [], 'not a single copy')
    g = one(objs, 'group')
    eq([(o['offset'], o['outsideWindow']) for o in g['occurrences']], [(0, True), (4, False)], 'copies')


@test
def dups_lists_a_group_with_a_copy_in_the_window():
    p = copy_before_since(tmp('d', 'x-0'))
    objs = jsonl(['dups', '--since', str(T0 + 30000), p])
    g = one(objs, 'group')
    eq([(o['offset'], o['outsideWindow'], o['cause']) for o in g['occurrences']],
       [(0, True, None), (4, False, 'resend-no-idempotence')], 'copies')
    # a window that holds no copy of it lists no group
    objs = jsonl(['dups', '--from-offset', '1', '--to-offset', '3', p])
    eq(of_type(objs, 'group'), [], 'groups')


@test
def producer_filter_keeps_groups_whose_original_is_another_producers():
    # pid 1 writes "X" at offset 0, pid 2 writes it again at offset 1 (a second producer session):
    # dups --producer-id 2 lists the group, the original included (by pid 1, outside the filter).
    data = kafka.batch(0, [(None, b'X')], pid=1, epoch=0, base_seq=0) + \
        kafka.batch(1, [(None, b'X')], pid=2, epoch=0, base_seq=0, base_ts=T0 + 10)
    p = kafka.write_partition(tmp('d', 'x-0'), {0: data})
    objs = jsonl(['dups', '--producer-id', '2', p])
    g = one(objs, 'group')
    eq([(o['producerId'], o['cause'], o['outsideWindow']) for o in g['occurrences']],
       [(1, None, True), (2, 'new-session', False)], 'copies')


# ---- part of a partition --------------------------------------------------------------------------

@test
def one_segment_of_several():
    # segments 0 (pid 9's transaction at 0..1, then plain records 2..9), 10 (plain 10..19) and 20 (the
    # COMMIT marker at 20, then plain 21..24). Given only the first two segment files, the marker is in
    # a segment not read: "no marker in the segments read", not OPEN; and the output says that part of
    # the partition was read.
    d = tmp('d', 't-0')
    kafka.write_partition(d, {
        0: txn_data(0, 2, 9) + plain(2, 8, T0 + 100),
        10: plain(10, 10, T0 + 200),
        20: kafka.marker(20, 9, 0, True, ts=T0 + 300) + plain(21, 4, T0 + 400)})
    files = [os.path.join(d, kafka.segment_name(b)) for b in (0, 10)]
    objs = jsonl(['txns'] + files)
    t = txns_of(objs)
    eq([(x['result'], x['firstOffset']) for x in t], [('UNKNOWN', 0)], 'transactions')
    part = one(objs, 'partition')
    eq(part['segmentsNotRead'], 1, 'segments of the partition not given')
    out, _ = run_rc(['txns'] + files, 0)
    contains(out, 'no marker in the segments read', 'txns text')
    absent(out, 'OPEN', 'txns text')


# ---- seeking serves reading, not knowledge --------------------------------------------------------

@test
def seek_and_full_read_agree_under_every_window():
    # corpus partitions with real .index/.timeindex files (written by Kafka's index classes)
    paths = [gen('codec-none', 'codec-none-0'), gen('txn-interleaved', 'txn-0'), gen('idem-epoch-bump', 'idem-0')]
    windows = [['--from-offset', '3'], ['--to-offset', '7'], ['--from-offset', '500', '--to-offset', '600'],
               ['--since', str(T0 + 50)], ['--until', str(T0 + 5)], ['--producer-id', '4000']]
    for cmd in ('scan', 'dups', 'txns', 'producers'):
        for w in windows:
            a = jsonl([cmd] + w + paths)
            b = jsonl([cmd] + w + ['--no-seek'] + paths)
            strip = ('bytesSkipped', 'segmentsSkipped')
            norm = [json.dumps({k: v for k, v in o.items() if k not in strip}, sort_keys=True) for o in a]
            normb = [json.dumps({k: v for k, v in o.items() if k not in strip}, sort_keys=True) for o in b]
            eq(norm, normb, '%s %s with and without --no-seek' % (cmd, ' '.join(w)))


# ---- further cases (the window's partition figures, part of a partition, the coordinator's word) --

@test
def partition_figures_count_what_is_listed():
    # committed_txn_then_plain: offsets 0..4 pid 9's data (one batch), 5 its COMMIT, 6..9 plain.
    # --from-offset 6 lists the plain batch only: 4 records, 1 batch, no producer, offsets 6..9;
    # the 5 records at 0..4 are read and known (the transaction's COMMIT), outside the window.
    # The transaction has no batch in the window: not listed, not counted.
    p = committed_txn_then_plain(tmp('d', 't-0'))
    objs = jsonl(['txns', '--from-offset', '6', p])
    part = one(objs, 'partition')
    eq((part['records'], part['batches'], part['firstOffset'], part['nextOffset'], part['producers'],
        part['outsideWindow'], part['committed'], part['lastStableOffset'], part['readCommittedRecords']),
       (4, 1, 6, 10, 0, 5, 0, 10, 4), 'partition figures')
    eq(txns_of(objs), [], 'no transaction listed')
    # --from-offset 3 cuts pid 9's batch: its records 3 and 4 are listed (with 6..9: 6 records), its
    # 0..2 are known, outside; the transaction is listed whole (5 records). Aborted instead, the
    # records listed inside it are those two (abortedRecords), and read_committed sees 6..9 only.
    objs = jsonl(['txns', '--from-offset', '3', p])
    part = one(objs, 'partition')
    eq((part['records'], part['outsideWindow'], part['committed'], part['readCommittedRecords']), (6, 3, 1, 6),
       'a batch cut by the window')
    eq([(x['result'], x['records']) for x in txns_of(objs)], [('COMMIT', 5)], 'the transaction whole')
    q = committed_txn_then_plain(tmp('e', 't-0'), commit=False)
    objs = jsonl(['txns', '--from-offset', '3', q])
    part = one(objs, 'partition')
    eq((part['records'], part['aborted'], part['abortedRecords'], part['readCommittedRecords']), (6, 1, 2, 4),
       'aborted, cut by the window')
    eq([(x['result'], x['records']) for x in txns_of(objs)], [('ABORT', 5)], 'the aborted transaction whole')


@test
def producer_filter_lists_its_own_transactions():
    # pid 9's open transaction at 0..1 and pid 8's at 2..3, then 4..5 without producer id an hour
    # later: --producer-id 8 lists pid 8's only; the LSO is still the earliest open one's, 0.
    data = txn_data(0, 2, 9) + txn_data(2, 2, 8, ts=T0 + 500) + plain(4, 2, T0 + HOUR)
    p = kafka.write_partition(tmp('d', 't-0'), {0: data})
    objs = jsonl(['txns', '--producer-id', '8', p])
    eq([(x['producerId'], x['result'], x['ageMs']) for x in txns_of(objs)], [(8, 'OPEN', HOUR - 500)],
       'transactions')
    part = one(objs, 'partition')
    eq((part['open'], part['lastStableOffset'], part['records']), (1, 0, 2), 'partition')


@test
def marker_whose_data_lies_in_a_segment_not_given():
    # segment 0: pid 9's transaction data at 0..1, plain 2..9; segment 10: its COMMIT at 10, plain
    # 11..19. Given the second file alone, the COMMIT's data may lie in segment 0 (not given): not an
    # empty transaction. No later segment is missing, so the LSO is known: the log end, 20.
    d = tmp('d', 't-0')
    kafka.write_partition(d, {0: txn_data(0, 2, 9) + plain(2, 8, T0 + 100),
                              10: kafka.marker(10, 9, 0, True, ts=T0 + 300) + plain(11, 9, T0 + 400)})
    objs = jsonl(['txns', os.path.join(d, kafka.segment_name(10))])
    t = txns_of(objs)
    eq([(x['result'], x['empty'], x['dataNotRead']) for x in t], [('COMMIT', False, True)], 'transactions')
    part = one(objs, 'partition')
    eq((part['empty'], part['segmentsNotRead'], part['lastStableOffset'], part['lastStableOffsetUnknown']),
       (0, 1, 20, False), 'partition')
    # the whole directory: the transaction is read whole (2 records), nothing is missing
    objs = jsonl(['txns', d])
    eq([(x['result'], x['records'], x['dataNotRead']) for x in txns_of(objs)], [('COMMIT', 2, False)], 'whole')
    eq(one(objs, 'partition')['segmentsNotRead'], 0, 'whole: nothing not given')
    # an open transaction in the second file alone may begin in the first (not given): its first
    # offset there is not the transaction's, so the LSO is unknown
    e = tmp('e', 't-0')
    kafka.write_partition(e, {0: plain(0, 10, T0), 10: txn_data(10, 2, 9, ts=T0 + 100) + plain(12, 3, T0 + 200)})
    objs = jsonl(['txns', os.path.join(e, kafka.segment_name(10))])
    eq([(x['result'], x['dataNotRead']) for x in txns_of(objs)], [('OPEN', True)], 'open, may begin earlier')
    part = one(objs, 'partition')
    eq((part['lastStableOffset'], part['lastStableOffsetUnknown']), (None, True), 'LSO unknown')


@test
def lso_unknown_when_a_later_segment_is_not_given():
    # one_segment_of_several's partition, its first two files given: the log end is not known, so
    # neither is the LSO; the text says so.
    d = tmp('d', 't-0')
    kafka.write_partition(d, {0: txn_data(0, 2, 9) + plain(2, 8, T0 + 100), 10: plain(10, 10, T0 + 200),
                              20: kafka.marker(20, 9, 0, True, ts=T0 + 300) + plain(21, 4, T0 + 400)})
    files = [os.path.join(d, kafka.segment_name(b)) for b in (0, 10)]
    part = one(jsonl(['txns'] + files), 'partition')
    eq((part['lastStableOffset'], part['lastStableOffsetUnknown'], part['unknown'], part['open']),
       (None, True, 1, 0), 'partition')
    out, _ = run_rc(['txns', '--color', 'never'] + files, 0)
    contains(out, 'LSO unknown', 'txns text')
    contains(out, 'only part of the partition was read', 'txns text')


@test
def coordinator_rules_and_fail_on_hanging():
    # as hanging_confirmed_by_the_transaction_state: "tx" lives in __transaction_state-16.
    def case(name, pid, status, partitions):
        root = tmp(name)
        open_txn_then_later_writes(os.path.join(root, 't-0'), T0 + HOUR)
        kafka.write_partition(os.path.join(root, '__transaction_state-16'),
                              {0: txn_state_record(0, b'tx', pid, 0, status, partitions, T0)})
        return root
    # Ongoing listing t-0: find-hanging would not report it (the coordinator will end it), so
    # --fail-on hanging does not fire; the JSON says which rule decided
    root = case('ongoing', 9, 1, [(b't', [0])])
    t = [x for x in txns_of(jsonl(['txns', root])) if x['partition'] == 't-0'][0]
    eq(t['hangingRule'], 'coordinator-lists-partition', 'rule')
    run_rc(['txns', '--fail-on', 'hanging', root], 0)
    # CompleteAbort (5): confirmed, fails
    root = case('complete', 9, 5, [])
    t = [x for x in txns_of(jsonl(['txns', root])) if x['partition'] == 't-0'][0]
    eq((t['hangingConfirmed'], t['hangingRule']), (True, 'coordinator-complete'), 'CompleteAbort')
    run_rc(['txns', '--fail-on', 'hanging', root], 1)
    # the only id read names producer 8: producer 9's id may lie in a partition not read, so the
    # candidate stays unconfirmed (Kafka, with every partition, would call it hanging)
    root = case('otherpid', 8, 1, [(b't', [0])])
    t = [x for x in txns_of(jsonl(['txns', root])) if x['partition'] == 't-0'][0]
    eq((t['hanging'], t['hangingConfirmed'], t['hangingRule']), (True, None, 'coordinator-partly-read'),
       'unknown producer id')
    # no __transaction_state: the candidate rule
    p = open_txn_then_later_writes(tmp('none', 't-0'), T0 + HOUR)
    eq(txns_of(jsonl(['txns', p]))[0]['hangingRule'], 'timeout', 'candidate')
    # within the timeout (idle 2 min - 1 s): not hanging, and said so
    q = open_txn_then_later_writes(tmp('short', 't-0'), T0 + 2 * MIN)
    t = txns_of(jsonl(['txns', q]))[0]
    eq((t['hanging'], t['hangingRule'], t['ageMs']), (False, 'within-timeout', 2 * MIN - 1000), 'within')


@test
def now_says_where_it_came_from():
    # idle_partition_beside_busy_ones: now is b-0's write, and the text names it
    open_txn_then_later_writes(tmp('logs', 'a-0'), None)
    kafka.write_partition(tmp('logs', 'b-0'), {0: plain(0, 3, T0 + HOUR)})
    out, _ = run_rc(['txns', '--color', 'never', tmp('logs')], 0)
    contains(out, 'the newest timestamp read, in b-0', 'txns text')
    out, _ = run_rc(['txns', '--color', 'never', '--now', str(T0 + 2 * HOUR), tmp('logs')], 0)
    contains(out, '(--now)', 'txns text with --now')
    out, _ = run_rc(['txns', '--color', 'never', '--now', 'now', tmp('logs')], 0)
    contains(out, 'the wall clock', 'txns text with --now now')


@test
def dups_text_marks_copies_outside_the_window():
    p = copy_before_since(tmp('d', 'x-0'))
    out, _ = run_rc(['dups', '--color', 'never', '--since', str(T0 + 30000), p], 0)
    lines = [x for x in out.split('\n') if 'offset 0 ' in x or 'offset 4 ' in x]
    eq([('[outside the window]' in x) for x in lines], [True, False], 'copies in text:\n' + out)


if __name__ == '__main__':
    sys.exit(main(__doc__))
