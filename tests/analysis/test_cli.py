#!/usr/bin/env python3
"""Analysis tests: segscan scan/dups/producers/txns/explain, --json, --report, filters, exit codes.

Usage: test_cli.py SEGSCAN TESTDATA [-k SUBSTRING]

TESTDATA is the repository's testdata/ folder (the corpus is testdata/corpus). Every expected
figure comes from the corpus's own descriptions (corpus/gen/SCENARIOS.tsv, the README's scenario
table, the NOTES.txt files) or from its Kafka-written oracles (*.oracle.jsonl, what Kafka's own
reader sees); where the corpus has no example, small segments are built here (tests/lib/kafka.py) and the
expected figures follow from how they were built. Never from segscan's own output.
"""

import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import traceback

import kafka
import harness
import scenarios
from harness import Fail, check, eq, of_type

SEGSCAN = None
GEN = None
TMP = None
MAX = 2147483647
CAUSES = ['aborted', 'cross-partition', 'retry', 'resend-no-idempotence', 'dup-sequence', 'same-session',
          'new-session']


# ---- helpers -------------------------------------------------------------------------------

def run(args, stdin=None, env=None):
    return harness.call(args, binary=SEGSCAN, stdin=stdin, env=env, unset=('NO_COLOR',), timeout=120)


def report(args, want_rc=0):
    path = os.path.join(TMP, 'report.txt')
    if os.path.exists(path):
        os.unlink(path)
    rc, out, err = run(['scan', '--report', path, '--color', 'never'] + args)
    eq(rc, want_rc, 'exit code of %s (stderr: %s)' % (args, err.strip()))
    return harness.read_report(path)


def jsonl(args, want_rc=0):
    rc, out, err = run(args + ['--json'])
    eq(rc, want_rc, 'exit code of %s (stderr: %s)' % (args, err.strip()))
    return harness.parse_jsonl(out)


def gen(scenario):
    """The single partition directory of a corpus scenario."""
    d = os.path.join(GEN, scenario)
    subs = [s for s in sorted(os.listdir(d)) if os.path.isdir(os.path.join(d, s))]
    check(len(subs) == 1, 'scenario %s has %d partition dirs' % (scenario, len(subs)))
    return os.path.join(d, subs[0])


def oracle(scenario):
    """Kafka's own reading of the scenario's segment: (batches, records, end)."""
    p = os.path.join(gen(scenario), '00000000000000000000.oracle.jsonl')
    batches, records, end = [], [], None
    cur = None
    with open(p) as f:
        for line in f:
            o = json.loads(line)
            if o['type'] == 'batch':
                cur = o
                cur['records'] = []
                batches.append(o)
            elif o['type'] == 'record':
                o['batch'] = cur
                cur['records'].append(o)
                records.append(o)
            else:
                end = o
    return batches, records, end


def data_records(recs):
    return [r for r in recs if not r['batch']['isControl']]


def part(tmpname, name):
    return os.path.join(TMP, tmpname, name)


TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


# ---- the Done-when figures on the corpus ---------------------------------------------------

@test
def lab_partitions_report():
    # The three lab partitions together.
    r = report([gen('payments-dup'), gen('payments-idem'), gen('payments-app')])
    # SCENARIOS.tsv payments-dup: one value appended as 3 byte-identical batches -> offsets 0,1,2
    eq(r['payments-dup-0.records'], '3', 'payments-dup-0.records')
    eq(r['payments-dup-0.max_copies'], '3', 'payments-dup-0.max_copies')
    # payments-idem: the same record once
    eq(r['payments-idem-0.records'], '1', 'payments-idem-0.records')
    eq(r['payments-idem-0.max_copies'], '1', 'payments-idem-0.max_copies')
    # payments-app: pay-77 produced twice
    eq(r['payments-app-0.records'], '2', 'payments-app-0.records')
    eq(r['payments-app-0.max_copies'], '2', 'payments-app-0.max_copies')
    # payments-dup and payments-idem hold the same 5000-byte value but are different topics: not copies
    eq(r['total.duplicate_groups'], '2', 'total.duplicate_groups')
    eq(r['total.cause.retry'], '2', 'retry copies (offsets 1 and 2 of payments-dup)')
    eq(r['total.cause.new-session'], '1', 'new-session copy (pay-77 from pid 1003)')
    eq(r['total.partitions'], '3', 'total.partitions')


@test
def payments_dup_retry():
    # SCENARIOS.tsv: one 5000-byte value 'xxx...' (null key) appended as 3 byte-identical
    # non-idempotent batches -> offsets 0,1,2 (producer retries after timeouts)
    g = of_type(jsonl(['dups', gen('payments-dup')]), 'group')
    eq(len(g), 1, 'groups')
    g = g[0]
    eq(g['copies'], 3, 'copies')
    eq(g['topic'], 'payments-dup', 'topic')
    eq(g['value'], 'x' * 5000, 'value')
    eq([o['offset'] for o in g['occurrences']], [0, 1, 2], 'offsets')
    eq([o['cause'] for o in g['occurrences']], [None, 'retry', 'retry'], 'causes')
    for o in g['occurrences']:
        eq(o['producerId'], -1, 'producerId')
        eq(o['key'], None, 'key (null key)')
        eq(o['partition'], 'payments-dup-0', 'partition')
    eq(g['causes'], {'retry': 2}, 'cause counts')


@test
def payments_idem_none():
    # SCENARIOS.tsv: the same 5000-byte record once, idempotent pid=1001 epoch=0 baseSeq=0
    objs = jsonl(['scan', gen('payments-idem')])
    eq(of_type(objs, 'group'), [], 'groups')
    s = of_type(objs, 'session')
    eq(len(s), 1, 'sessions')
    eq((s[0]['producerId'], s[0]['producerEpoch'], s[0]['sequenceRanges']), (1001, 0, [[0, 0]]), 'session')
    eq(of_type(objs, 'total')[0]['duplicateGroups'], 0, 'duplicateGroups')


@test
def payments_app_new_session():
    # SCENARIOS.tsv: pay-77 produced twice by two idempotent producer sessions (pid=1002 and
    # pid=1003, each epoch 0 baseSeq 0): an application-level duplicate
    g = of_type(jsonl(['dups', gen('payments-app')]), 'group')
    eq(len(g), 1, 'groups')
    g = g[0]
    eq(g['copies'], 2, 'copies')
    eq(g['value'], 'pay-77', 'value')
    occ = g['occurrences']
    eq([(o['producerId'], o['producerEpoch'], o['sequence']) for o in occ], [(1002, 0, 0), (1003, 0, 0)], 'producers')
    eq([o['cause'] for o in occ], [None, 'new-session'], 'causes')
    eq(occ[1]['causeDetail'], 'pid', 'new-session detail')


@test
def lab_batches():
    # SCENARIOS.tsv lab: [pay-1,pay-2] idempotent pid=1000 epoch=0 baseSeq=0 in one batch, then
    # pay-3 non-idempotent (pid=-1, seq=-1)
    r = report([gen('lab')])
    eq(r['payments-0.records'], '3', 'records')
    eq(r['payments-0.batches'], '2', 'batches')
    eq(r['payments-0.producers'], '1', 'producers')
    eq(r['payments-0.sessions'], '1', 'sessions')
    eq(r['payments-0.non_idempotent_records'], '1', 'non-idempotent records (pay-3)')
    eq(r['payments-0.duplicate_groups'], '0', 'duplicate_groups')
    eq(r['payments-0.max_copies'], '1', 'max_copies')
    s = of_type(jsonl(['producers', gen('lab')]), 'session')
    eq(len(s), 1, 'sessions')
    eq((s[0]['producerId'], s[0]['producerEpoch'], s[0]['records'], s[0]['batches'], s[0]['sequenceRanges'],
        s[0]['firstOffset'], s[0]['lastOffset']), (1000, 0, 2, 1, [[0, 1]], 0, 1), 'idempotent batch')
    rc, out, _ = run(['--color', 'never', gen('lab')])
    eq(rc, 0, 'exit code')
    check('1 record without producer id' in out, 'summary names the non-idempotent record:\n' + out)
    check('pid 1000 epoch 0: 2 records, sequences [0,1]' in out, 'summary names the idempotent batch:\n' + out)


# ---- idem-* ----------------------------------------------------------------------------------

def sessions_of(path, extra=(), want_rc=0):
    return of_type(jsonl(['producers'] + list(extra) + [path], want_rc=want_rc), 'session')


def sessions(scenario, extra=()):
    return of_type(jsonl(['producers', gen(scenario)] + list(extra)), 'session')


@test
def idem_epoch_bump():
    # SCENARIOS.tsv: idempotent pid=2000: epoch 0 seq 0-9 (2 batches), then epoch 1 seq 0-4
    s = sessions('idem-epoch-bump')
    eq([(x['producerId'], x['producerEpoch']) for x in s], [(2000, 0), (2000, 1)], 'sessions')
    eq((s[0]['records'], s[0]['batches'], s[0]['sequenceRanges'], s[0]['epochBump']), (10, 2, [[0, 9]], False),
       'epoch 0')
    eq((s[1]['records'], s[1]['batches'], s[1]['sequenceRanges'], s[1]['epochBump'], s[1]['previousEpoch']),
       (5, 1, [[0, 4]], True, 0), 'epoch 1')
    for x in s:
        eq((x['sequenceGaps'], x['recordsWithRepeatedSequence']), ([], 0), 'no anomaly')
    r = report([gen('idem-epoch-bump')])
    eq((r['idem-0.epoch_bumps'], r['idem-0.sequence_gaps'], r['idem-0.sessions'], r['idem-0.producers']),
       ('1', '0', '2', '1'), 'report')


@test
def idem_seq_gap():
    # SCENARIOS.tsv: pid=2001 epoch 0: seq 0-9 then 15-19 (gap 10-14); NOTES.txt: a leader would
    # reject the second batch (OutOfOrderSequenceException: 15 incoming, 9 current end)
    s = sessions('idem-seq-gap')
    eq(len(s), 1, 'sessions')
    s = s[0]
    eq((s['producerId'], s['producerEpoch']), (2001, 0), 'session')
    eq(s['sequenceRanges'], [[0, 9], [15, 19]], 'sequenceRanges')
    eq(s['sequenceGaps'], [[10, 14]], 'sequenceGaps')
    eq(s['gapsExplainedBy'], [None], 'the gap is not explained')
    # out of order means a base sequence below the next one expected (here 10); the
    # second batch jumps forward to 15: a gap (above), not an out-of-order batch
    eq(s['outOfOrderBatches'], 0, 'outOfOrderBatches (a jump forward is a gap)')
    eq(s['recordsWithRepeatedSequence'], 0, 'repeated')
    r = report([gen('idem-seq-gap')])
    eq(r['idem-0.sequence_gaps'], '1', 'sequence_gaps')
    eq(r['idem-0.compacted'], '0', 'not compacted (offsets 0..14 contiguous)')
    rc, _, _ = run(['--fail-on', 'gaps', gen('idem-seq-gap')])
    eq(rc, 1, '--fail-on gaps')
    rc, _, _ = run(['--fail-on', 'dups,open-txn', gen('idem-seq-gap')])
    eq(rc, 0, '--fail-on dups,open-txn: neither present')


@test
def idem_seq_wrap():
    # SCENARIOS.tsv: pid=2002: seq MAX-9..MAX-5, MAX-4..MAX, then 0..2 (valid wraparound), then a
    # batch with baseSeq MAX-1 of 5 records spanning the wrap (lastSequence=2; out of order for a
    # leader, NOTES.txt: 2147483646 incoming, 2 current end). Its 5 sequences MAX-1, MAX, 0, 1, 2
    # were all written before.
    s = sessions('idem-seq-wrap')
    eq(len(s), 1, 'sessions')
    s = s[0]
    eq(s['sequenceRanges'], [[MAX - 9, MAX], [0, 2]], 'sequenceRanges split at the wrap')
    eq(s['sequenceGaps'], [], 'the wraparound is not a gap')
    eq(s['recordsWithRepeatedSequence'], 5, 'repeated sequences')
    # MAX-1..2 starts below the next sequence expected (3) and is none of the earlier batches
    # [MAX-9,MAX-5], [MAX-4,MAX], [0,2] stored again: out of order, as the leader would say
    eq(s['outOfOrderBatches'], 1, 'outOfOrderBatches')
    eq(s['firstSequence'], MAX - 9, 'firstSequence (not 0: not a gap)')
    r = report([gen('idem-seq-wrap')])
    eq((r['idem-0.duplicate_sequences'], r['idem-0.sequence_gaps']), ('5', '0'), 'report')


@test
def idem_interleaved():
    # SCENARIOS.tsv: idempotent pid=2003 and pid=2004 interleaved batch by batch (each in
    # sequence), plus a non-idempotent batch in between
    s = sessions('idem-interleaved')
    eq(sorted(x['producerId'] for x in s), [2003, 2004], 'sessions')
    _, recs, _ = oracle('idem-interleaved')
    for x in s:
        mine = [r for r in recs if r['batch']['producerId'] == x['producerId']]
        eq(x['records'], len(mine), 'records of %d' % x['producerId'])
        eq((x['sequenceGaps'], x['outOfOrderBatches'], x['recordsWithRepeatedSequence']), ([], 0, 0),
           'each in sequence (%d)' % x['producerId'])
        eq(x['sequenceRanges'], [[0, len(mine) - 1]], 'one range')
    r = report([gen('idem-interleaved')])
    nonidem = len([r_ for r_ in recs if r_['batch']['producerId'] == -1])
    check(nonidem >= 1, 'the oracle has the non-idempotent batch')
    eq(r['idem-0.non_idempotent_records'], str(nonidem), 'non_idempotent_records')
    eq(r['idem-0.producers'], '2', 'producers')


@test
def idem_dup_batch():
    # SCENARIOS.tsv: pid=2005: batch seq 0-2 stored twice (same pid/epoch/seq, identical bytes,
    # offsets 0-2 and 3-5) - a leader would answer DUPLICATE_SEQUENCE and not store it
    _, recs, _ = oracle('idem-dup-batch')
    first = [r for r in recs if r['offset'] in (0, 1, 2)]
    again = [r for r in recs if r['offset'] in (3, 4, 5)]
    eq([r['value'] for r in first], [r['value'] for r in again], 'oracle: identical records')
    ngroups = len(set(r['value'] for r in first))
    objs = jsonl(['scan', gen('idem-dup-batch')])
    groups = of_type(objs, 'group')
    eq(len(groups), ngroups, 'groups')
    for g in groups:
        causes = [o['cause'] for o in g['occurrences']]
        eq(causes.count('dup-sequence'), g['copies'] - 1, 'every copy is a dup-sequence')
    s = of_type(objs, 'session')
    eq(len(s), 1, 'sessions')
    eq(s[0]['recordsWithRepeatedSequence'], 3, 'records stored twice')
    # oracle: the batch at offset 3 has the baseSequence/lastSequence (0, 2) of the batch at 0,
    # then seq 3 follows: a duplicate batch (DUPLICATE_SEQUENCE), not out of order
    batches, _, _ = oracle('idem-dup-batch')
    eq([(b['baseOffset'], b['baseSequence'], b['lastSequence']) for b in batches], [(0, 0, 2), (3, 0, 2), (6, 3, 3)],
       'oracle batches')
    eq(s[0]['outOfOrderBatches'], 0, 'outOfOrderBatches (a batch stored twice is a duplicate)')
    r = report([gen('idem-dup-batch')])
    eq(r['idem-0.duplicate_sequences'], '3', 'duplicate_sequences')
    eq(r['total.cause.dup-sequence'], '3', 'total.cause.dup-sequence')


# ---- txn-* -----------------------------------------------------------------------------------

def txn_objs(scenario, extra=()):
    objs = jsonl(['txns', gen(scenario)] + list(extra))
    return of_type(objs, 'partition')[0], of_type(objs, 'transaction')


@test
def txn_commit():
    # SCENARIOS.tsv: transactional pid=3000 epoch 0: 2 batches (3+2 recs, seq 0..4) then COMMIT
    # marker (coordinatorEpoch 5)
    p, t = txn_objs('txn-commit')
    eq((p['committed'], p['aborted'], p['open'], p['hanging']), (1, 0, 0, 0), 'counts')
    eq(p['lastStableOffset'], 6, 'LSO: offsets 0..4 data, 5 the marker, end 6')
    eq(p['readCommittedRecords'], 5, 'read_committed')
    eq(len(t), 1, 'transactions')
    t = t[0]
    eq((t['producerId'], t['producerEpoch'], t['firstOffset'], t['markerOffset'], t['result'], t['records'],
        t['coordinatorEpoch']), (3000, 0, 0, 5, 'COMMIT', 5, 5), 'transaction')
    s = sessions('txn-commit')
    eq((s[0]['transactional'], s[0]['sequenceRanges']), (True, [[0, 4]]), 'session')


@test
def txn_abort():
    # SCENARIOS.tsv: transactional pid=3001: 2 batches then ABORT marker; then a second
    # transaction committed
    batches, recs, _ = oracle('txn-abort')
    abort = [r for r in recs if r.get('controlType') == 'ABORT'][0]['offset']
    data = data_records(recs)
    aborted = [r for r in data if r['offset'] < abort]
    p, t = txn_objs('txn-abort')
    eq((p['committed'], p['aborted'], p['open']), (1, 1, 0), 'counts')
    eq(p['readCommittedRecords'], len(data) - len(aborted), 'read_committed excludes the aborted records')
    eq(p['lastStableOffset'], batches[-1]['lastOffset'] + 1, 'LSO: the end')
    eq([x['result'] for x in t], ['ABORT', 'COMMIT'], 'results')
    eq(t[0]['records'], len(aborted), 'aborted transaction records')
    eq(t[0]['markerOffset'], abort, 'abort marker offset')
    r = report([gen('txn-abort')])
    eq((r['txn-0.txn_aborted'], r['txn-0.txn_committed'], r['txn-0.txn_open']), ('1', '1', '0'), 'report')


@test
def txn_open():
    # SCENARIOS.tsv: transactional pid=3002: committed txn, then an open transaction (2 batches)
    # that never gets a marker
    batches, recs, _ = oracle('txn-open')
    commit = [r for r in recs if r.get('controlType') == 'COMMIT'][0]['offset']
    open_batches = [b for b in batches if not b['isControl'] and b['baseOffset'] > commit]
    eq(len(open_batches), 2, 'oracle: 2 open batches')
    committed_recs = [r for r in data_records(recs) if r['offset'] < commit]
    p, t = txn_objs('txn-open')
    eq((p['committed'], p['aborted'], p['open']), (1, 0, 1), 'counts')
    eq(p['lastStableOffset'], open_batches[0]['baseOffset'], 'LSO = first offset of the open transaction')
    eq(p['readCommittedRecords'], len(committed_recs), 'read_committed: the committed records only')
    eq([x['result'] for x in t], ['COMMIT', 'OPEN'], 'results')
    eq(t[1]['markerOffset'], None, 'open: no marker')
    eq(t[1]['records'], sum(b['count'] for b in open_batches), 'open records')
    # hanging, as find-hanging judges it (TransactionsCommand.java): the age is now minus the
    # producer's last write in the partition (ProducerStateEntry.lastTimestamp, the maxTimestamp
    # of its last batch), a candidate past --txn-timeout; now is the newest maxTimestamp read
    # (here the COMMIT marker's, written by the coordinator later than the open batches).
    last = open_batches[-1]['maxTimestamp']
    now = max(b['maxTimestamp'] for b in batches)
    age = now - last
    eq((p['hanging'], p['ageUnknown'], t[1]['hanging'], t[1]['ageMs'], t[1]['now']),
       (1 if age > 15 * 60 * 1000 else 0, 0, age > 15 * 60 * 1000, age, now), 'age from the last write')
    p2, t2 = txn_objs('txn-open', ['--txn-timeout', '%dms' % (age - 1)])
    eq((p2['hanging'], t2[1]['hanging']), (1, True), 'hanging with a shorter timeout')
    p3, t3 = txn_objs('txn-open', ['--now', str(last + 16 * 60 * 1000)])
    eq((p3['hanging'], t3[1]['hanging'], t3[1]['ageMs']), (1, True, 16 * 60 * 1000), 'hanging with --now 16 minutes later')
    p4, t4 = txn_objs('txn-open', ['--now', str(last + 14 * 60 * 1000)])
    eq((p4['hanging'], t4[1]['hanging']), (0, False), 'not hanging 14 minutes later')
    # the abort command names the partition (the directory txn-0: topic txn, partition 0) and
    # the transaction's first offset, as kafka-transactions.sh abort takes them
    rc, out, _ = run(['txns', '--color', 'never', '--now', str(last + 16 * 60 * 1000),
                      gen('txn-open')])
    check('abort --topic txn --partition 0 --start-offset %d' % open_batches[0]['baseOffset'] in out,
          'the abort command:\n' + out)
    rc, _, _ = run(['--fail-on', 'open-txn', gen('txn-open')])
    eq(rc, 1, '--fail-on open-txn')


@test
def txn_interleaved():
    # SCENARIOS.tsv: txn producers pid=3003 (committed) and pid=3004 (aborted, then epoch bump
    # 0->1 with a new committed txn) interleaved with idempotent non-txn pid=3005 and
    # non-idempotent records; an empty transaction marker (marker with no data) for pid=3006
    _, recs, _ = oracle('txn-interleaved')
    p, t = txn_objs('txn-interleaved')
    eq((p['committed'], p['aborted'], p['open'], p['empty']), (3, 1, 0, 1), 'counts')
    got = sorted((x['producerId'], x['producerEpoch'], x['result'], x['empty']) for x in t)
    eq(got, [(3003, 0, 'COMMIT', False), (3004, 0, 'ABORT', False), (3004, 1, 'COMMIT', False),
             (3006, 0, 'COMMIT', True)], 'transactions')
    abort = [r for r in recs if r.get('controlType') == 'ABORT'][0]
    aborted = [r for r in data_records(recs) if r['batch']['producerId'] == 3004 and
               r['batch']['producerEpoch'] == 0]
    eq(p['readCommittedRecords'], len(data_records(recs)) - len(aborted), 'read_committed')
    eq([x for x in t if x['result'] == 'ABORT'][0]['markerOffset'], abort['offset'], 'abort marker')
    s = sessions('txn-interleaved')
    eq(sorted((x['producerId'], x['producerEpoch'], x['transactional']) for x in s),
       [(3003, 0, True), (3004, 0, True), (3004, 1, True), (3005, 0, False)], 'sessions')
    eq([x['epochBump'] for x in s if x['producerId'] == 3004], [False, True], 'epoch bump of 3004')
    r = report([gen('txn-interleaved')])
    eq(r['txn-0.epoch_bumps'], '1', 'epoch_bumps')
    eq(r['txn-0.txn_empty'], '1', 'txn_empty')
    # the text puts "(1 empty)" beside the result of the empty transaction. Oracle: the
    # markers are ABORT (offset 11), COMMIT (14, 15, 18); pid 3006 has no data batch and its
    # marker at 15 is a COMMIT: 3 committed of which 1 empty, 1 aborted.
    data_pids = {x['batch']['producerId'] for x in data_records(recs)}
    markers = [x['controlType'] for x in recs if x['batch']['isControl']]
    empty = [x['controlType'] for x in recs if x['batch']['isControl'] and x['batch']['producerId'] not in data_pids]
    eq((markers.count('COMMIT'), markers.count('ABORT'), empty), (3, 1, ['COMMIT']), 'oracle markers')
    _, out, _ = run(['txns', '--color', 'never', gen('txn-interleaved')])
    check('; 3 committed (1 empty), 1 aborted, 0 open\n' in out, 'txns text:\n' + out)
    _, out, _ = run(['--color', 'never', gen('txn-interleaved')])
    check('  transactions  3 committed (1 empty), 1 aborted, 0 open;' in out, 'scan text:\n' + out)
    # built: a committed transaction of pid 20, then an ABORT marker of pid 21 with no data
    d = kafka.write_partition(part('empty-abort', 'ea-0'), {
        0: kafka.batch(0, [(None, b'a'), (None, b'b')], pid=20, epoch=0, base_seq=0, transactional=True)
        + kafka.marker(2, 20, 0, True) + kafka.marker(3, 21, 0, False)})
    objs = jsonl(['txns', d])
    eq(sorted((x['producerId'], x['result'], x['empty']) for x in of_type(objs, 'transaction')),
       [(20, 'COMMIT', False), (21, 'ABORT', True)], 'built transactions')
    _, out, _ = run(['txns', '--color', 'never', d])
    check('; 1 committed, 1 aborted (1 empty), 0 open\n' in out, 'txns text, an empty abort:\n' + out)
    eq(r['txn-0.non_idempotent_records'],
       str(len([x for x in data_records(recs) if x['batch']['producerId'] == -1])), 'non-idempotent records')


@test
def each_partition_lists_its_own_sessions_and_transactions():
    # built: a log directory of topic t, partitions 0..3 (10 on disk, so that name order and
    # number order differ); partition n holds two idempotent sessions (pids 100n+1 and 100n+2,
    # 2 records each) and a committed transaction of pid 100n+3 (1 record, then its marker).
    # producers and txns print a partition's header, then its sessions or transactions, and
    # only its own (the views find them by partition in the analysis's sorted lists)
    root = os.path.join(TMP, 'own-items')
    for n in (0, 1, 2, 10):
        kafka.write_partition(os.path.join(root, 't-%d' % n), {
            0: kafka.batch(0, [(None, b'a%d' % n), (None, b'b%d' % n)], pid=100 * n + 1, epoch=0, base_seq=0)
            + kafka.batch(2, [(None, b'c%d' % n), (None, b'd%d' % n)], pid=100 * n + 2, epoch=0, base_seq=0)
            + kafka.batch(4, [(None, b'e%d' % n)], pid=100 * n + 3, epoch=0, base_seq=0, transactional=True)
            + kafka.marker(5, 100 * n + 3, 0, True)})
    want = {'t-%d' % n: n for n in (0, 1, 2, 10)}

    def blocks(out):
        """{header's partition: [pids of the indented lines below it]}, headers in order"""
        got, order = {}, []
        for line in out.splitlines():
            if line and not line.startswith(' '):
                order.append(line.split(':')[0])
                got[order[-1]] = []
            m = re.match(r'  pid (\d+) epoch', line)
            if m:
                got[order[-1]].append(int(m.group(1)))
        return got, order

    _, out, _ = run(['producers', '--color', 'never', root])
    got, order = blocks(out)
    eq(order, ['t-0', 't-1', 't-2', 't-10'], 'producers: partitions in number order')
    for name, n in want.items():
        eq(got[name], [100 * n + 1, 100 * n + 2, 100 * n + 3], 'producers: the sessions under ' + name)
    _, out, _ = run(['txns', '--color', 'never', root])
    got, order = blocks(out)
    eq(order, ['t-0', 't-1', 't-2', 't-10'], 'txns: partitions in number order')
    for name, n in want.items():
        eq(got[name], [100 * n + 3], 'txns: the transaction under ' + name)
    # txns --json: each partition object, then its transaction objects
    seen, cur = [], None
    for x in jsonl(['txns', root]):
        if x['type'] == 'partition':
            cur = x['partition']
        elif x['type'] == 'transaction':
            eq(x['partition'], cur, 'txns --json: a transaction after its partition')
            seen.append((cur, x['producerId']))
    eq(seen, [('t-%d' % n, 100 * n + 3) for n in (0, 1, 2, 10)], 'txns --json transactions')


# ---- compaction, damage, several segments ------------------------------------------------------

@test
def compacted_no_false_gap():
    # SCENARIOS.tsv compacted: keyed log cleaned keeping the latest record per key: offset gaps,
    # a rewritten batch with the delete-horizon attribute, and an empty batch retained for the
    # idempotent producer's last batch. README table: 8 batches, 16 records.
    r = report([gen('compacted')])
    eq(r['compacted-0.records'], '16', 'records')
    eq(r['compacted-0.batches'], '8', 'batches')
    eq(r['compacted-0.compacted'], '1', 'compaction recognised')
    eq(r['compacted-0.sequence_gaps'], '0', 'no false gap alarm')
    rc, _, _ = run(['--fail-on', 'gaps', gen('compacted')])
    eq(rc, 0, '--fail-on gaps on a compacted log')
    for s in sessions('compacted'):
        eq(s['unexplainedGaps'], 0, 'unexplained gaps of %d' % s['producerId'])
        for why in s['gapsExplainedBy']:
            eq(why, 'compaction', 'gap explanation')
    # by hand from the oracle: the only producer id, 7000 epoch 0, has 3 batches
    # (baseSequence, lastSequence, offsets, records left): (0, 3, 4..7, 1), (8, 11, 28..31, 2) and
    # (12, 15, 40..43, 0: emptied, kept by RETAIN_EMPTY). The cleaner removed the whole batch of
    # sequences 4..7. So: ranges [0,3],[8,15]; one gap 4..7, explained by compaction; next
    # expected sequence 4 then 12: 8 > 4 jumps forward (the gap), 12 = 12 follows: no batch
    # starts below the sequence expected, 0 out-of-order batches, 0 repeated sequences.
    batches, _, _ = oracle('compacted')
    eq({(b['producerId'], b['producerEpoch']) for b in batches if b['producerId'] >= 0}, {(7000, 0)},
       'oracle: one session')
    eq([(b['baseSequence'], b['lastSequence'], b['baseOffset'], b['lastOffset'], b['count'])
        for b in batches if b['producerId'] == 7000],
       [(0, 3, 4, 7, 1), (8, 11, 28, 31, 2), (12, 15, 40, 43, 0)], 'oracle: the batches of pid 7000')
    s = sessions('compacted')
    eq(len(s), 1, 'sessions')
    s = s[0]
    eq((s['records'], s['batches'], s['sequenceRanges'], s['sequenceGaps'], s['gapsExplainedBy']),
       (3, 3, [[0, 3], [8, 15]], [[4, 7]], ['compaction']), 'session')
    eq((s['outOfOrderBatches'], s['recordsWithRepeatedSequence']), (0, 0),
       'a gap left by compaction is not an out-of-order batch')
    eq((r['compacted-0.out_of_order_batches'], r['compacted-0.sequence_gaps_explained']), ('0', '1'),
       'report: out_of_order_batches, sequence_gaps_explained')
    _, out, _ = run(['producers', '--color', 'never', gen('compacted')])
    # the missing records' keys are gone: "consistent with compaction", never "explained by"
    check('out-of-order' not in out and '4..7' in out and 'consistent with compaction' in out,
          'producers text:\n' + out)
    _, out, _ = run(['--color', 'never', gen('compacted')])
    check('out-of-order' not in out and '1 gap consistent with compaction' in out, 'scan text:\n' + out)
    # built: an idempotent producer's batches in segments 0 and 5; the segment between them is
    # missing from the input (deleted, or not copied) and the log shows no cleaning: a missing
    # segment, not retention (UnifiedLog.deleteOldSegments removes only the oldest segments)
    seg0 = kafka.batch(0, [(None, b'a'), (None, b'b')], pid=11, epoch=0, base_seq=0)
    seg5 = kafka.batch(5, [(None, b'c'), (None, b'd')], pid=11, epoch=0, base_seq=5)
    d = kafka.write_partition(part('missing-seg', 'm-0'), {0: seg0, 5: seg5})
    s = of_type(jsonl(['producers', d]), 'session')[0]
    eq((s['sequenceGaps'], s['gapsExplainedBy']), ([[2, 4]], ['missing-segment']), 'gap across a missing segment')
    r = report([d])
    eq((r['m-0.sequence_gaps'], r['m-0.sequence_gaps_explained']), ('1', '0'), 'report: an inconsistency')
    # the same gap inside one segment with contiguous offsets is an alarm
    d = kafka.write_partition(part('real-gap', 'g-0'),
                              {0: seg0 + kafka.batch(2, [(None, b'c')], pid=11, epoch=0, base_seq=5)})
    r = report([d])
    eq((r['g-0.sequence_gaps'], r['g-0.compacted']), ('1', '0'), 'a real gap')
    # delete-horizon-built: a normal batch at 0.. then a batch at 100.. (offset gap 3..99)
    r = report([gen('delete-horizon-built')])
    eq(r['compacted2-0.compacted'], '1', 'offset gap recognised')
    eq(r['compacted2-0.sequence_gaps'], '0', 'no gap alarm')


@test
def damaged_crc_flip():
    # SCENARIOS.tsv damaged-crc-flip: codec-none log with one byte flipped inside the value of the
    # last record of batch 1 (CRC mismatch). The readable part is analysed, batch 1 counted damaged.
    good_batches, good_recs, _ = oracle('codec-none')
    r = report([gen('damaged-crc-flip')], want_rc=3)
    eq(r['codec-none-0.records'], str(len(good_recs) - good_batches[0]['count']), 'records of the readable batches')
    eq(r['codec-none-0.batches'], str(len(good_batches) - 1), 'batches')
    eq(r['codec-none-0.damaged_bytes'], str(good_batches[0]['sizeInBytes']), 'damaged_bytes = batch 1 in full')
    eq(r['total.damaged_bytes'], str(good_batches[0]['sizeInBytes']), 'total.damaged_bytes')
    rc, out, err = run(['--color', 'never', gen('damaged-crc-flip')])
    eq(rc, 3, 'exit code')
    check('crc-mismatch' in err, 'damage reported on stderr: ' + err)
    check('damaged' in out, 'summary shows the damage')
    objs = jsonl(['scan', gen('damaged-crc-flip')], want_rc=3)
    errs = of_type(objs, 'error')
    eq(len(errs), 1, 'error objects')
    eq((errs[0]['position'], errs[0]['kind']), (0, 'crc-mismatch'), 'error object')
    # --fail-on does not hide the damage: 3 wins over 1 (DESIGN section 5)
    rc, _, _ = run(['--fail-on', 'dups', gen('damaged-crc-flip')])
    eq(rc, 3, 'damage and a --fail-on match')


@test
def damaged_idempotent_batch_gap():
    # codec-gzip (SCENARIOS.tsv) with one byte flipped at the end of its 8th batch (pid 4000,
    # sequences 16..23, offsets 541..548, from the oracle): the batch fails its CRC and is
    # skipped as damage. The sequence gap it leaves is explained by that damage: not by
    # compaction (the offsets before and after are contiguous but for it), and not raised
    # as an alarm by --fail-on gaps (the exit code says damage: 3).
    batches, _, _ = oracle('codec-gzip')
    bad = [b for b in batches if b['producerId'] == 4000 and b['baseSequence'] == 16][0]
    d = part('dmg-idem', 'codec-gzip-0')
    os.makedirs(d)
    data = bytearray(open(os.path.join(gen('codec-gzip'), '00000000000000000000.log'), 'rb').read())
    data[bad['position'] + bad['sizeInBytes'] - 1] ^= 0x01
    open(os.path.join(d, '00000000000000000000.log'), 'wb').write(bytes(data))
    s = sessions_of(d, want_rc=3)
    eq(len(s), 1, 'sessions')
    eq(s[0]['sequenceGaps'], [[16, 23]], 'the gap of the damaged batch')
    eq(s[0]['gapsExplainedBy'], ['damage'], 'explained by the damage')
    r = report([d], want_rc=3)
    eq(r['codec-gzip-0.compacted'], '0', 'not a compacted log')
    eq(r['codec-gzip-0.sequence_gaps'], '0', 'no unexplained gap')
    eq(r['codec-gzip-0.damaged_bytes'], str(bad['sizeInBytes']), 'the batch is the damage')
    rc, _, _ = run(['producers', '--fail-on', 'gaps', d])
    eq(rc, 3, '--fail-on gaps: the damage (3), no gap alarm')


@test
def cut_middle_segment():
    # Three segments of pid 12000's batches (2 records each); the middle segment's last batch
    # is cut in half, as a copy that stopped short. Only the active (last) segment may end in
    # a batch being written (DESIGN section 5: an incomplete tail is not an error there), so
    # here the half batch is damage (cut-segment, exit 3), not a tail; the sequences it held
    # are a gap explained by that damage.
    def seg(first):
        return b''.join(kafka.batch(o, [(None, b'v%d' % o), (None, b'w%d' % o)], pid=12000, epoch=0, base_seq=o)
                        for o in range(first, first + 6, 2))
    mid = seg(6)
    last_batch = len(kafka.batch(10, [(None, b'v10'), (None, b'w10')], pid=12000, epoch=0, base_seq=10))
    cut = len(mid) - last_batch // 2
    d = kafka.write_partition(part('cut-mid', 'cm-0'), {0: seg(0), 6: mid[:cut], 12: seg(12)})
    objs = jsonl(['scan', d], want_rc=3)
    errs = of_type(objs, 'error')
    eq([(e['kind'], e['position'], e['length']) for e in errs],
       [('cut-segment', len(mid) - last_batch, cut - (len(mid) - last_batch))], 'the cut tail is damage')
    p = of_type(objs, 'partition')[0]
    eq((p['tailBytes'], p['damagedBytes']), (0, cut - (len(mid) - last_batch)), 'damage, not a tail')
    s = sessions_of(d, want_rc=3)
    eq((s[0]['sequenceGaps'], s[0]['gapsExplainedBy']), ([[10, 11]], ['damage']), 'the lost sequences')
    # the last segment cut the same way is a batch being written: a tail, exit 0
    d2 = kafka.write_partition(part('cut-last', 'cl-0'), {0: seg(0), 6: mid[:cut]})
    p = of_type(jsonl(['scan', d2]), 'partition')[0]
    eq((p['tailBytes'], p['damagedBytes']), (cut - (len(mid) - last_batch), 0), 'the active segment\'s tail')


@test
def overlapping_segments():
    # A segment whose first batch is at or below the offsets of the segment before it (here
    # offsets 5..9 again, as when a file is copied in twice): a notice segment-overlap names
    # the segment, so the copies it makes are not left unexplained; not damage (exit 0).
    data = b''.join(kafka.batch(o, [(None, b'v%d' % o)], pid=13000, epoch=0, base_seq=o) for o in range(10))
    again = b''.join(kafka.batch(o, [(None, b'v%d' % o)], pid=13000, epoch=0, base_seq=o) for o in range(5, 10))
    d = kafka.write_partition(part('overlap', 'ov-0'), {0: data, 5: again})
    objs = jsonl(['scan', d])
    notes = [o for o in of_type(objs, 'notice') if o['kind'] == 'segment-overlap']
    eq([(os.path.basename(n['file']), n['position'], n['baseOffset']) for n in notes],
       [(kafka.segment_name(5), 0, 5)], 'one segment-overlap notice at the second segment')
    eq(of_type(objs, 'total')[0]['duplicateRecords'], 5, 'its records count as copies')
    rc, _, err = run(['scan', d])
    check(rc == 0 and 'segment-overlap' in err, 'exit 0, the notice on stderr: %d %s' % (rc, err))


@test
def skipped_large_batch_keeps_its_header():
    # codec-gzip with --max-batch-bytes 1000: four batches decompress past it and are skipped
    # (batch-too-large, not damage, DESIGN section 7). Their headers still count: the
    # partition ends at offset 1049 (next 1050, as the oracle's last batch says), and the
    # idempotent session's sequences 16..23 and 25..524 (batches skipped) leave no gap.
    batches, _, _ = oracle('codec-gzip')
    objs = jsonl(['scan', '--max-batch-bytes', '1000', gen('codec-gzip')])
    p = of_type(objs, 'partition')[0]
    eq(p['nextOffset'], batches[-1]['lastOffset'] + 1, 'nextOffset')
    eq(p['sequenceGaps'], 0, 'no sequence gap')
    rc, out, err = run(['producers', '--fail-on', 'gaps', '--max-batch-bytes', '1000', gen('codec-gzip')])
    eq(rc, 0, '--fail-on gaps (%s%s)' % (out, err))
    s = sessions_of(gen('codec-gzip'), extra=['--max-batch-bytes', '1000'])
    eq(s[0]['sequenceRanges'], [[0, 524]], 'sequence ranges')


@test
def damaged_zstd():
    # SCENARIOS.tsv damaged-crc-flip-zstd: codec-zstd log with a byte flipped in the compressed
    # payload of batch 3
    good_batches, good_recs, _ = oracle('codec-zstd')
    r = report([gen('damaged-crc-flip-zstd')], want_rc=3)
    eq(r['codec-zstd-0.records'], str(len(good_recs) - good_batches[2]['count']), 'records')
    eq(r['codec-zstd-0.damaged_bytes'], str(good_batches[2]['sizeInBytes']), 'damaged_bytes')


@test
def damaged_others():
    # damaged-bad-magic: lab log whose 2nd batch magic byte is 7: the first batch [pay-1, pay-2] stays
    r = report([gen('damaged-bad-magic')], want_rc=3)
    eq(r['payments-0.records'], '2', 'bad magic: records of batch 1')
    check(int(r['payments-0.damaged_bytes']) > 0, 'bad magic: damage counted')
    # damaged-garbage: 4096 random bytes
    r = report([gen('damaged-garbage')], want_rc=3)
    eq((r['garbage-0.records'], r['garbage-0.damaged_bytes']), ('0', '4096'), 'garbage')
    eq(r['garbage-0.max_copies'], '0', 'max_copies of an empty partition')
    # damaged-truncated: cut in its 3rd batch: an incomplete tail, not damage (exit 0); README: 16 records
    _, _, end = oracle('damaged-truncated')
    r = report([gen('damaged-truncated')], want_rc=0)
    eq(r['codec-none-0.records'], '16', 'truncated: records')
    eq(r['codec-none-0.tail_bytes'], str(end['unreadTailBytes']), 'truncated: tail bytes')
    eq(r['codec-none-0.damaged_bytes'], '0', 'truncated: no damage')
    # damaged-trailing-zeros: 65536 zero bytes after a good log: a zero tail, not damage
    r = report([gen('damaged-trailing-zeros')], want_rc=0)
    eq((r['codec-none-0.records'], r['codec-none-0.tail_bytes']), ('1050', '65536'), 'trailing zeros')
    # empty: a zero-length file
    r = report([gen('empty')])
    eq((r['empty-0.records'], r['empty-0.batches'], r['empty-0.max_copies'], r['empty-0.first_offset']),
       ('0', '0', '0', '-1'), 'empty')


@test
def multi_segment_partition():
    # built: one partition in two segments; a batch re-sent byte-identical in the second segment
    b0 = kafka.batch(0, [(None, b'order-1'), (None, b'order-2')])
    b1 = kafka.batch(2, [(None, b'order-3')])
    again = kafka.batch(3, [(None, b'order-1'), (None, b'order-2')])   # same records as b0
    d = kafka.write_partition(part('multi', 'orders-0'), {0: b0 + b1, 3: again})
    r = report([d])
    eq((r['orders-0.segments'], r['orders-0.records'], r['orders-0.batches']), ('2', '5', '3'), 'figures')
    eq((r['orders-0.first_offset'], r['orders-0.next_offset']), ('0', '5'), 'offsets')
    eq((r['orders-0.duplicate_groups'], r['orders-0.duplicate_records']), ('2', '2'), 'groups')
    eq(r['total.cause.retry'], '2', 'a retried batch across segments')
    # the segments are read in offset order whatever the order of the arguments
    r2 = report([os.path.join(d, '00000000000000000003.log'), os.path.join(d, '00000000000000000000.log')])
    eq(r2, r, 'segment files given one by one, out of order')


@test
def several_partitions_and_names():
    # built: orders-3 and orders-10 in two log directories (replicas of orders-3 in b1 and b2)
    v = lambda s: kafka.batch(0, [(None, s)])  # noqa: E731
    kafka.write_partition(part('names/b1', 'orders-3'), {0: v(b'a')})
    kafka.write_partition(part('names/b2', 'orders-3'), {0: v(b'b')})
    kafka.write_partition(part('names/b1', 'orders-10'), {0: v(b'c')})
    kafka.write_partition(part('names/b1', 'alpha-0'), {0: v(b'd')})
    objs = jsonl(['scan', os.path.join(TMP, 'names/b2'), os.path.join(TMP, 'names/b1')])
    names = [p['partition'] for p in of_type(objs, 'partition')]
    # sorted by (topic, partition number, path); two replicas named by the shortest distinguishing suffix
    eq(names, ['alpha-0', 'b1/orders-3', 'b2/orders-3', 'orders-10'], 'partition order')
    # a lone file outside a partition directory: its path with other characters replaced by '_'
    lone = os.path.join(TMP, 'names', 'lone file.log')
    with open(lone, 'wb') as f:
        f.write(v(b'e'))
    objs = jsonl(['scan', lone])
    p = of_type(objs, 'partition')[0]
    want = ''.join(ch if ch.isalnum() or ch in '._-' else '_' for ch in lone)
    eq(p['partition'], want, 'lone file name')
    eq(p['topic'], want, 'a lone file is a topic of its own')


@test
def temporaries_and_internal():
    logdir = os.path.join(TMP, 'logdir')
    kafka.write_partition(os.path.join(logdir, 'pay-0'), {0: kafka.batch(0, [(None, b'v'), (None, b'v')])})
    # a .deleted segment and a -delete directory are broker temporaries
    with open(os.path.join(logdir, 'pay-0', '00000000000000000002.log.deleted'), 'wb') as f:
        f.write(kafka.batch(2, [(None, b'v')]))
    kafka.write_partition(os.path.join(logdir, 'pay-1.0123abcd-delete'), {0: kafka.batch(0, [(None, b'v')])})
    # an internal topic with a repeated value
    kafka.write_partition(os.path.join(logdir, '__consumer_offsets-0'),
                          {0: kafka.batch(0, [(b'k', b'same'), (b'k', b'same')])})
    rc, out, err = run(['--report', os.path.join(TMP, 'r1.txt'), logdir])
    eq(rc, 0, 'exit code')
    check('.deleted' in err or 'temporar' in err, 'notice about the temporary file: ' + err)
    check('-delete' in err, 'notice about the -delete directory: ' + err)
    r = report([logdir])
    eq(r['pay-0.records'], '2', 'the .deleted segment is skipped')
    check('pay-1.0123abcd-delete.records' not in r, 'the -delete directory is skipped')
    eq(r['__consumer_offsets-0.duplicate_groups'], '0', 'internal topic left out of duplicate analysis')
    eq(r['__consumer_offsets-0.duplicates_excluded'], '1', 'and says so')
    eq(r['total.duplicate_groups'], '1', 'only pay-0 has a group')
    r = report(['--include-temp', '--include-internal', logdir])
    # the .deleted segment is read as a temporary copy of pay-0 of its own (it is not a segment of
    # the log: LogFileUtils.DELETED_FILE_SUFFIX, a segment scheduled for deletion)
    eq(r['pay-0.records'], '2', '--include-temp: pay-0 itself')
    eq(r['pay-0[.deleted].records'], '1', '--include-temp reads the .deleted segment')
    eq(r['pay-1.0123abcd-delete.records'], '1', '--include-temp reads the -delete directory')
    eq(r['__consumer_offsets-0.duplicate_groups'], '1', '--include-internal')
    # named explicitly, an internal topic still stays out: its records are identical by design
    # (a consumer committing the same offset again), which is no re-delivery
    r = report([os.path.join(logdir, '__consumer_offsets-0')])
    eq((r['__consumer_offsets-0.duplicate_groups'], r['__consumer_offsets-0.duplicates_excluded']), ('0', '1'),
       'internal partition named explicitly')
    r = report(['--include-internal', os.path.join(logdir, '__consumer_offsets-0')])
    eq(r['__consumer_offsets-0.duplicate_groups'], '1', 'internal partition named explicitly, --include-internal')


@test
def checkpoints():
    logdir = os.path.join(TMP, 'ckpt')
    # offsets 0..9, 10 records, committed non-transactional
    data = b''.join(kafka.batch(i, [(None, b'r%d' % i)]) for i in range(10))
    kafka.write_partition(os.path.join(logdir, 'cp-0'), {0: data})
    kafka.write_checkpoint(os.path.join(logdir, 'replication-offset-checkpoint'), [('cp', 0, 8), ('other', 0, 1)])
    kafka.write_checkpoint(os.path.join(logdir, 'log-start-offset-checkpoint'), [('cp', 0, 3)])
    r = report([logdir])
    eq(r['cp-0.high_watermark'], '8', 'high watermark read')
    eq(r['cp-0.log_start_offset'], '3', 'log start read')
    eq(r['cp-0.records'], '7', 'records below the log start offset are hidden')
    eq(r['cp-0.first_offset'], '3', 'first offset')
    eq(r['cp-0.lso'], '8', 'the LSO is bounded by the high watermark')
    eq(r['cp-0.read_committed_records'], '5', 'read_committed: offsets 3..7')
    rc, out, _ = run(['--color', 'never', logdir])
    check('high watermark 8' in out and 'log start 3' in out, 'the summary says so:\n' + out)
    # a transaction whose data (offsets 0..1) is below the log start (2, as after
    # kafka-delete-records.sh) and whose COMMIT marker (2) is not: not an empty transaction
    logdir = os.path.join(TMP, 'ckpt-txn')
    tx = kafka.batch(0, [(None, b'a'), (None, b'b')], pid=21, epoch=0, base_seq=0, transactional=True)
    kafka.write_partition(os.path.join(logdir, 'ct-0'), {0: tx + kafka.marker(2, 21, 0, True)})
    kafka.write_checkpoint(os.path.join(logdir, 'log-start-offset-checkpoint'), [('ct', 0, 2)])
    objs = jsonl(['txns', logdir])
    t = of_type(objs, 'transaction')
    eq([(x['result'], x['empty'], x['belowLogStart']) for x in t], [('COMMIT', False, True)],
       'a committed transaction whose data is below the log start')
    eq(of_type(objs, 'partition')[0]['empty'], 0, 'no empty transaction counted')
    rc, out, _ = run(['txns', '--color', 'never', logdir])
    check('below the log start offset' in out and 'empty transaction' not in out, 'txns text:\n' + out)


# ---- every cause, built ------------------------------------------------------------------------

@test
def causes_built():
    d = os.path.join(TMP, 'causes')
    scenarios.write_causes(d)   # what each partition holds: tests/lib/scenarios.py

    objs = jsonl(['scan', d])
    groups = {(g['topic'], g['value']): g for g in of_type(objs, 'group')}

    def causes(topic, value):
        return [o['cause'] for o in groups[(topic, value)]['occurrences']]

    eq(causes('same', 'A'), [None, 'same-session'], 'same-session')
    eq(causes('xp', 'X'), [None, 'cross-partition'], 'cross-partition')
    g = groups[('abort', 'T')]
    eq([(o['offset'], o['cause'], o['aborted']) for o in g['occurrences']], [(0, 'aborted', True), (2, None, False)],
       'aborted copy; the committed copy is the original')
    eq(causes('lat', 'R'), [None, 'retry', 'resend-no-idempotence'], 'retry survives LogAppendTime; a rebuilt batch')
    eq(causes('lat', 'S'), [None, 'retry'], 'retry, second record')
    eq(causes('lat', 'W'), [None, 'resend-no-idempotence'], 'two equal values in one batch')
    g = groups[('v2', 'E')]
    occ = g['occurrences']
    eq([o['cause'] for o in occ], [None, 'new-session', 'new-session'], 'new-session')
    eq((occ[1]['causeDetail'], occ[1].get('transactionsV2Hint')), ('epoch', True), 'epoch, v2 hint')
    eq((occ[2]['causeDetail'], occ[2]['open']), ('pid', True), 'pid; marked open')
    p = {x['partition']: x for x in of_type(objs, 'partition')}
    eq((p['v2-0']['committed'], p['v2-0']['open']), (2, 1), 'markers with epoch+1 close the transactions')
    eq(p['v2-0']['lastStableOffset'], 4, 'LSO at the open transaction')
    t = of_type(objs, 'total')[0]
    for c in CAUSES:
        if c != 'dup-sequence':   # dup-sequence: below and in idem_dup_batch
            check(t['causes'][c] >= 1, 'cause %s has an example' % c)
    r = report([d])
    eq(r['total.cause.aborted'], '1', 'report aborted')
    eq(r['total.cause.cross-partition'], '1', 'report cross-partition')
    eq(r['total.cause.retry'], '2', 'report retry')
    eq(r['total.cause.resend-no-idempotence'], '2', 'report resend')
    eq(r['total.cause.same-session'], '1', 'report same-session')
    eq(r['total.cause.new-session'], '2', 'report new-session')
    eq(r['total.copies_in_open_transactions'], '1', 'open copies')
    eq(r['abort-0.aborted_records'], '1', 'aborted records')
    eq(r['abort-0.read_committed_records'], '1', 'read_committed without the aborted record')
    # legacy (magic 1) messages have no producer id: the same message stored twice is a retry,
    # one with another producer timestamp a resend
    leg = kafka.legacy_v1(0, b'k', b'L') + kafka.legacy_v1(1, b'k', b'L') + kafka.legacy_v1(2, b'k', b'L', ts=1700000009999)
    kafka.write_partition(os.path.join(TMP, 'legacy', 'leg-0'), {0: leg})
    g = of_type(jsonl(['dups', os.path.join(TMP, 'legacy')]), 'group')
    eq([o['cause'] for o in g[0]['occurrences']], [None, 'retry', 'resend-no-idempotence'], 'legacy causes')
    # dup-sequence comes from the corpus (idem_dup_batch); here too, in another partition
    dup = kafka.batch(0, [(None, b'D')], pid=8000, epoch=0, base_seq=0)
    kafka.write_partition(os.path.join(TMP, 'dupseq', 'ds-0'), {0: dup + kafka.batch(1, [(None, b'D')], pid=8000,
                                                                                     epoch=0, base_seq=0)})
    r = report([os.path.join(TMP, 'dupseq')])
    eq((r['total.cause.dup-sequence'], r['ds-0.duplicate_sequences']), ('1', '1'), 'dup-sequence')
    # DESIGN section 4: dup-sequence is the same pid, epoch and sequence stored twice. Here the
    # application sent F twice (seq 0, then seq 1: same-session), and the broker stored the second
    # send twice (seq 1 again): that third copy repeats the copy before it, not the original.
    twice = kafka.batch(0, [(None, b'F')], pid=8100, epoch=0, base_seq=0)
    twice += kafka.batch(1, [(None, b'F')], pid=8100, epoch=0, base_seq=1)
    twice += kafka.batch(2, [(None, b'F')], pid=8100, epoch=0, base_seq=1)
    kafka.write_partition(os.path.join(TMP, 'dupseq2', 'dt-0'), {0: twice})
    g = of_type(jsonl(['dups', os.path.join(TMP, 'dupseq2')]), 'group')
    eq([o['cause'] for o in g[0]['occurrences']], [None, 'same-session', 'dup-sequence'],
       'a sequence stored twice after a same-session resend')


# ---- fingerprints --------------------------------------------------------------------------------

@test
def fingerprint_options():
    d = os.path.join(TMP, 'fp')
    data = kafka.batch(0, [(b'ab', b'c'), (b'a', b'bc'), (b'a', b''), (b'b', b''), (b'c', None), (b'd', None),
                           (None, b'long-value'), (None, b'long-value'), (b'ab', b'c')])
    kafka.write_partition(os.path.join(d, 'fp-0'), {0: data})
    kafka.write_partition(os.path.join(d, 'other-0'), {0: kafka.batch(0, [(None, b'long-value')])})
    # by value: 'c' x2, '' x2 (empty is a value; null values are never grouped), 'long-value' x2
    r = report([os.path.join(d, 'fp-0')])
    eq(r['fp-0.duplicate_groups'], '3', 'by value')
    # by key: 'ab' x2, 'a' x2 (null keys not grouped)
    r = report(['--by', 'key', os.path.join(d, 'fp-0')])
    eq(r['fp-0.duplicate_groups'], '2', 'by key')
    # by key+value: only ('ab','c') twice; ('ab','c') differs from ('a','bc') (length-prefixed)
    r = report(['--by', 'key+value', os.path.join(d, 'fp-0')])
    eq(r['fp-0.duplicate_groups'], '2', 'by key+value: (ab,c) and (null,long-value)')
    g = of_type(jsonl(['dups', '--by', 'key+value', os.path.join(d, 'fp-0')]), 'group')
    eq(sorted(((x['key'] or ''), x['value']) for x in g), [('', 'long-value'), ('ab', 'c')], 'key+value groups')
    # --min-bytes 2: only 'long-value' remains
    r = report(['--min-bytes', '2', os.path.join(d, 'fp-0')])
    eq(r['fp-0.duplicate_groups'], '1', '--min-bytes')
    # --across-topics: 'long-value' of other-0 joins the group as a copy in another topic:
    # cause cross-topic, not cross-partition
    r = report([d])
    eq(r['total.duplicate_groups'], '3', 'per topic')
    r = report(['--across-topics', d])
    eq((r['total.duplicate_groups'], r['total.cause.cross-topic'], r['total.cause.cross-partition']), ('3', '1', '0'),
       '--across-topics')
    # by key: the value is written beside each copy
    g = of_type(jsonl(['dups', '--by', 'key', os.path.join(d, 'fp-0')]), 'group')
    ab = [x for x in g if x['key'] == 'ab'][0]
    eq([o['value'] for o in ab['occurrences']], ['c', 'c'], 'values beside copies under --by key')


@test
def first_copies_far_from_their_batch():
    """The table keeps a first copy's offset and timestamp relative to its batch in 16 bits
    each (src/lib/analysis/analysis.h, fp_ent), and the rest on the side: every case must read back
    the values the batch was written with (DefaultRecord: offset = baseOffset + offsetDelta,
    timestamp = baseTimestamp + timestampDelta)."""
    d = os.path.join(TMP, 'far', 'far-0')
    base_ts = 1700000000000
    vals = [b'near-%d-value' % i for i in range(6)]
    # offset deltas: 0, 65534 (the largest kept inline), 65535, 70000, 70001, 70002;
    # timestamps: base, base + 100 s (maxTimestamp - 0), base + 34.466 s (max - 65534 ms inline),
    # base + 34.465 s (max - 65535: on the side), base + 150 s (above maxTimestamp), base - 5 s
    offs = [0, 65534, 65535, 70000, 70001, 70002]
    tsd = [0, 100000, 34466, 34465, 150000, -5000]
    a = kafka.batch(0, [(None, v) for v in vals], base_ts=base_ts, max_ts=base_ts + 100000, ts_deltas=tsd,
                    offset_deltas=offs, last_offset_delta=70002)
    b = kafka.batch(70003, [(None, v) for v in vals], base_ts=base_ts + 200000)
    kafka.write_partition(d, {0: a + b})
    rc, out, err = run(['dups', '--max-memory', '1K', d])
    check(rc == 0 and 'went through temporary files' in err, 'a limit below the first table spills: %d %s' % (rc, err))
    for extra in ([], ['--threads', '2'], ['--max-memory', '1K']):
        g = of_type(jsonl(['dups'] + extra + [d]), 'group')
        eq(len(g), 6, 'groups %s' % extra)
        firsts = sorted((x['occurrences'][0]['offset'], x['occurrences'][0]['timestamp']) for x in g)
        eq(firsts, [(offs[i], base_ts + tsd[i]) for i in range(6)], 'first copies %s' % extra)
        seconds = sorted((x['occurrences'][1]['offset'], x['occurrences'][1]['timestamp']) for x in g)
        eq(seconds, [(70003 + i, base_ts + 200000 + i) for i in range(6)], 'second copies %s' % extra)


@test
def json_bytes_modes():
    d = os.path.join(TMP, 'bytes')
    bad = b'\xff\xfeok'
    kafka.write_partition(os.path.join(d, 'b-0'), {0: kafka.batch(0, [(b'\x00k', bad), (b'\x00k', bad)])})
    g = of_type(jsonl(['dups', d]), 'group')[0]
    eq(g.get('valueLossy'), True, 'valueLossy')
    eq(g['value'], '\ufffd\ufffdok', 'utf8 with replacements as Java does')
    g = of_type(jsonl(['dups', '--bytes', 'hex', d]), 'group')[0]
    eq((g['value'], g['occurrences'][0]['key']), (bad.hex(), '006b'), 'hex')
    check('valueLossy' not in g, 'no lossy flag in hex')
    g = of_type(jsonl(['dups', '--bytes', 'base64', d]), 'group')[0]
    eq(g['value'], base64.b64encode(bad).decode(), 'base64')


# ---- filters ------------------------------------------------------------------------------------

@test
def windows():
    d = os.path.join(TMP, 'win')
    data = b''
    for i in range(10):
        pid = 9000 if i % 2 == 0 else -1
        data += kafka.batch(i, [(None, b'same')], base_ts=1700000000000 + i * 1000,
                            pid=pid, epoch=0 if pid >= 0 else -1, base_seq=i // 2 if pid >= 0 else -1)
    kafka.write_partition(os.path.join(d, 'w-0'), {0: data})
    r = report(['--from-offset', '2', '--to-offset', '5', d])
    # the window lists what lies in it, but the group of "same" is known whole: its 10 copies
    eq((r['w-0.records'], r['w-0.first_offset'], r['w-0.next_offset'], r['w-0.max_copies']), ('4', '2', '6', '10'),
       'offset window')
    r = report(['--since', '2023-11-14T22:13:23Z', '--until', '1700000004000', d])
    eq(r['w-0.records'], '2', 'time window (ISO-8601 and epoch ms): offsets 3 and 4')
    r = report(['--producer-id', '9000', d])
    eq((r['w-0.records'], r['w-0.non_idempotent_records'], r['w-0.sessions']), ('5', '0', '1'), '--producer-id')
    rc, out, _ = run(['--top', '0', '--color', 'never', d])
    eq(rc, 0, 'exit')
    check('0 of 1 shown' in out, '--top 0:\n' + out)
    rc, _, err = run(['--since', 'yesterday', d])
    eq(rc, 2, 'a bad time is a usage error')
    # a window inside a batch: codec-gzip's batch 525..534 (pid 4000, sequences 0..9, from the
    # oracle); offsets 530..532 are its records 5..7: the session is listed, with the figures of
    # the whole log (the oracle: pid 4000's batches 525..1049, sequences 0..524, 525 records)
    s = sessions_of(gen('codec-gzip'), extra=['--from-offset', '530', '--to-offset', '532'])
    eq(len(s), 1, 'one session in the window')
    eq((s[0]['records'], s[0]['firstOffset'], s[0]['lastOffset'], s[0]['sequenceRanges']),
       (525, 525, 1049, [[0, 524]]), 'the session in the window: the figures of the whole log')


# ---- commands, exit codes, input forms ----------------------------------------------------------

@test
def explain_sentences():
    rc, out, _ = run(['explain', '--value-contains', 'xxxx', '--color', 'never', gen('payments-dup')])
    eq(rc, 0, 'exit')
    check('offsets 0, 1, 2' in out and 'retried after a timeout' in out and 'enable.idempotence=true' in out,
          'retry sentence:\n' + out)
    rc, out, _ = run(['explain', '--value', 'pay-77', '--color', 'never', gen('payments-app')])
    check('producer 1003' in out and 'producer 1002' in out and 'idempotence covers one producer session' in out,
          'new-session sentence:\n' + out)
    rc, out, _ = run(['explain', '--offset', 'payments-idem-0:0', '--color', 'never', gen('payments-idem')])
    check('single copy' in out and 'consumer side' in out and 'committed offsets' in out,
          'single copy:\n' + out)
    # the coordinator hint is a command segscan accepts (segscan coordinator --help:
    # --group ID); "GROUP".hashCode() in Java is 68091487, 68091487 % 50 = 37
    m = re.search(r"'segscan (coordinator [^']*)'", out)
    check(m is not None, 'a segscan coordinator hint:\n' + out)
    argv = m.group(1).split()
    eq(argv, ['coordinator', '--group', 'GROUP'], 'the hint')
    h = 0
    for ch in 'GROUP':
        h = (31 * h + ord(ch)) & 0xffffffff
    h = h - (1 << 32) if h >= 1 << 31 else h
    eq((h, abs(h) % 50), (68091487, 37), 'Java String.hashCode of GROUP')
    rc, cout, cerr = run(argv)
    eq((rc, cerr), (0, ''), 'the hinted command runs')
    eq(cout, '__consumer_offsets-37\n', 'the hinted command prints the partition')
    objs = jsonl(['explain', '--key', 'nope', gen('payments-idem')])
    eq(objs, [], 'no match: nothing')
    objs = jsonl(['explain', '--value-hex', 'x'.encode().hex() * 5000, gen('payments-dup')])
    g = of_type(objs, 'group')
    eq(len(g), 1, 'explain --json group')
    eq([('explanation' in o) for o in g[0]['occurrences']], [False, True, True], 'explanations beside copies')
    rc, _, _ = run(['explain', gen('payments-dup')])
    eq(rc, 2, 'explain without a record is a usage error')


@test
def exit_codes_and_inputs():
    rc, out, err = run(['scan', '/nonexistent/path', gen('payments-app')])
    eq(rc, 2, 'unreadable input')
    check('payments-app-0' in out, 'the other inputs are still analysed')
    # options before the command make it a PATH: said at once, nothing scanned (usage, 2); so is a
    # misspelt command given first
    rc, out, err = run(['--json', 'txns', gen('payments-app')])
    check(rc == 2 and not out and "'txns' is a command" in err, 'options before the command: %d %r' % (rc, err))
    rc, out, err = run(['dup', gen('payments-app')])
    check(rc == 2 and not out and "did you mean the command 'dups'" in err, 'a misspelt command: %d %r' % (rc, err))
    rc, _, _ = run(['--fail-on', 'dups', gen('payments-app')])
    eq(rc, 1, '--fail-on dups')
    rc, _, _ = run(['--fail-on', 'dups', gen('payments-idem')])
    eq(rc, 0, '--fail-on dups, none')
    rc, _, _ = run(['--fail-on', 'bogus', gen('payments-idem')])
    eq(rc, 2, 'bad --fail-on')
    rc, _, _ = run([])
    eq(rc, 2, 'no arguments')
    # '-' reads a segment from standard input
    with open(os.path.join(gen('payments-dup'), '00000000000000000000.log'), 'rb') as f:
        seg = f.read()
    p = subprocess.run([SEGSCAN, 'dups', '--json', '-'], input=seg, stdout=subprocess.PIPE)
    eq(p.returncode, 0, 'stdin exit')
    g = [o for o in (json.loads(x) for x in p.stdout.decode().split('\n') if x) if o['type'] == 'group']
    eq((len(g), g[0]['copies'], g[0]['occurrences'][0]['partition']), (1, 3, '-'), 'stdin segment')
    # a log directory
    r = report([os.path.join(GEN, 'payments-dup')])
    eq(r['payments-dup-0.records'], '3', 'a directory holding a partition directory')


@test
def text_output():
    rc, out, _ = run(['--color', 'never', gen('payments-dup')])
    eq(rc, 0, 'exit')
    check('2023-11-14T22:13:20.000Z (1700000000000)' in out, 'ISO-8601 beside epoch ms:\n' + out)
    check('\033[' not in out, 'no colour when not a terminal')
    check('retry' in out and '3 copies' in out, 'groups in the summary')
    rc, out, _ = run(['--color', 'always', gen('payments-dup')])
    check('\033[' in out, '--color always')
    rc, out, _ = run(['--color', 'always', gen('payments-dup')], env={'NO_COLOR': '1'})
    check('\033[' in out, '--color always wins over NO_COLOR')
    for cmd in (['dups'], ['producers'], ['txns'], ['dups', '-v'], ['scan', '-v']):
        rc, out, err = run(cmd + ['--color', 'never', gen('txn-interleaved')])
        eq(rc, 0, '%s exit' % cmd)
        check(out.strip(), '%s prints something' % cmd)


# "1 <noun>" written with the plural noun: the count is 1, the noun singular
ONE_PLURAL = re.compile(r'(?<![\w.])1 (?:[a-z-]+ )?(records|batches|gaps|sequences|bytes|segments|partitions|groups|'
                        r'copies|sessions|producers|entries|places|bumps|values|ranges|differences|offsets|'
                        r'fingerprints|markers|transactions)\b')


@test
def plurals():
    # payments-idem (README table): 1 batch holding 1 record, one segment
    _, out, _ = run(['--color', 'never', gen('payments-idem')])
    check('\ntotal  1 partition, 1 segment, 1 record in 1 batch\n' in out, 'total line:\n' + out)
    check('\n  records       1 in 1 batch, ' in out, 'records line:\n' + out)
    _, out, _ = run(['txns', '--color', 'never', gen('payments-idem')])
    check('read_committed sees 1 of 1 record; ' in out, 'txns:\n' + out)
    # idem-seq-gap (SCENARIOS.tsv): one producer, one session, one gap 10-14
    _, out, _ = run(['producers', '--color', 'never', gen('idem-seq-gap')])
    eq(out.split('\n')[0], 'idem-0: 1 producer, 1 session, 1 sequence gap', 'producers partition line')
    # built: pid 5 epoch 0 writes seq 0..1, then a batch of seq 1 alone: 1 record with a repeated
    # sequence, in 1 batch starting below the next sequence expected (2) that is not [0,1] again
    d = kafka.write_partition(part('one-repeat', 'r-0'), {
        0: kafka.batch(0, [(None, b'a'), (None, b'b')], pid=5, epoch=0, base_seq=0)
        + kafka.batch(2, [(None, b'c')], pid=5, epoch=0, base_seq=1)})
    s = of_type(jsonl(['producers', d]), 'session')[0]
    eq((s['recordsWithRepeatedSequence'], s['outOfOrderBatches']), (1, 1), 'built session')
    _, out, _ = run(['producers', '--color', 'never', d])
    eq(out.split('\n')[0], 'r-0: 1 producer, 1 session, 1 repeated sequence', 'producers partition line')
    check('\n    1 record with a sequence already seen' in out and '\n    1 out-of-order batch ' in out,
          'producers session lines:\n' + out)
    _, out, _ = run(['--color', 'never', d])
    check('\n  sequences     0 gaps, 0 explained, 1 record with a repeated sequence\n' in out, 'scan total:\n' + out)
    check('1 record with a sequence already seen, 1 out-of-order batch' in out, 'scan partition:\n' + out)
    # every text view of every corpus scenario: no "1 <plural noun>" on stdout or stderr
    # the scenarios of SCENARIOS.tsv: one partition directory each (the consumer-group folders,
    # groups-*, are whole log directories and not in that table: corpus README)
    scen = sorted(x for x in os.listdir(GEN) if os.path.isdir(os.path.join(GEN, x)) and not x.startswith('groups-'))
    check(len(scen) >= 40, 'corpus scenarios')
    runs = [([c] + extra, [gen(x)]) for x in scen
            for c, extra in (('scan', []), ('scan', ['-v']), ('dups', ['-v']), ('producers', []), ('txns', []),
                             ('verify', []))]
    runs += [(['diff'], [gen('codec-none'), gen('damaged-truncated')]),
             (['diff'], [gen('payments-dup'), gen('payments-idem')]),
             (['scan'], [gen('payments-dup'), gen('payments-idem'), gen('payments-app')]),
             (['scan'], [d])]
    for cmd, paths in runs:
        _, out, err = run(cmd + ['--color', 'never'] + paths if cmd[0] != 'verify' else cmd + paths)
        for line in (out + err).split('\n'):
            m = ONE_PLURAL.search(line)
            check(m is None, '%s %s: "%s" in %r' % (' '.join(cmd), ' '.join(paths), m and m.group(0), line))


@test
def transactional_id_always_present():
    # occurrences and sessions both write transactionalId, null when no
    # __transaction_state partition among the inputs names the producer id. payments-app
    # (SCENARIOS.tsv): pay-77 written by pid 1002 and pid 1003, one session each.
    for cmd in ('dups', 'explain', 'scan'):
        extra = ['--value', 'pay-77'] if cmd == 'explain' else []
        objs = jsonl([cmd] + extra + [gen('payments-app')])
        occ = [o for g in of_type(objs, 'group') for o in g['occurrences']]
        eq(sorted(o['producerId'] for o in occ), [1002, 1003], '%s occurrences' % cmd)
        for o in occ:
            check('transactionalId' in o and o['transactionalId'] is None, '%s occurrence: %r' % (cmd, o))
    s = sessions('payments-app')
    eq(sorted(x['producerId'] for x in s), [1002, 1003], 'sessions')
    for x in s:
        check('transactionalId' in x and x['transactionalId'] is None, 'session: %r' % x)


REPORT_KEYS = ['topic', 'partition', 'segments', 'records', 'batches', 'control_records', 'first_offset',
               'next_offset', 'first_timestamp', 'last_timestamp', 'duplicate_groups', 'duplicate_records',
               'max_copies', 'duplicates_excluded', 'producers', 'sessions', 'non_idempotent_records',
               'sequence_gaps', 'sequence_gaps_explained', 'duplicate_sequences', 'out_of_order_batches',
               'epoch_bumps', 'compacted', 'txn_committed', 'txn_aborted', 'txn_open', 'txn_empty', 'txn_hanging',
               'lso', 'read_committed_records', 'aborted_records', 'high_watermark', 'log_start_offset',
               'damaged_bytes', 'tail_bytes', 'skipped_large_batches']
TOTAL_KEYS = ['partitions', 'segments', 'records', 'batches', 'control_records', 'duplicate_groups',
              'duplicate_records', 'max_copies', 'producers', 'sessions', 'non_idempotent_records', 'sequence_gaps',
              'sequence_gaps_explained', 'duplicate_sequences', 'out_of_order_batches', 'epoch_bumps',
              'txn_committed', 'txn_aborted', 'txn_open', 'txn_empty', 'txn_hanging', 'read_committed_records',
              'damaged_bytes', 'tail_bytes', 'skipped_large_batches', 'copies_in_open_transactions']


@test
def report_keys():
    r = report([gen('txn-interleaved')])
    for k in REPORT_KEYS:
        check('txn-0.' + k in r, 'report key txn-0.%s' % k)
    for k in TOTAL_KEYS:
        check('total.' + k in r, 'report key total.%s' % k)
    for c in CAUSES:
        check('total.cause.' + c in r, 'report key total.cause.%s' % c)
    # txn-interleaved figures (SCENARIOS.tsv, oracle)
    batches, recs, _ = oracle('txn-interleaved')
    eq(r['txn-0.records'], str(len(data_records(recs))), 'records')
    eq(r['txn-0.batches'], str(len(batches)), 'batches (control batches included)')
    eq(r['txn-0.control_records'], str(len(recs) - len(data_records(recs))), 'control_records')
    eq(r['txn-0.first_offset'], str(batches[0]['baseOffset']), 'first_offset')
    eq(r['txn-0.next_offset'], str(batches[-1]['lastOffset'] + 1), 'next_offset')
    eq(r['txn-0.codec.none'], str(len(batches)), 'codec.none')
    eq(r['txn-0.lso'], str(batches[-1]['lastOffset'] + 1), 'lso: nothing open')
    eq((r['txn-0.txn_committed'], r['txn-0.txn_aborted'], r['txn-0.txn_open']), ('3', '1', '0'), 'transactions')
    eq(r['txn-0.producers'], '4', 'producers 3003, 3004, 3005, 3006')
    eq(r['txn-0.sessions'], '4', 'sessions 3003/0, 3004/0, 3004/1, 3005/0')
    ts = [x['timestamp'] for x in data_records(recs)]
    eq((r['txn-0.first_timestamp'], r['txn-0.last_timestamp']), (str(min(ts)), str(max(ts))), 'timestamps')
    # totals add up over partitions
    r = report([gen('txn-abort'), gen('txn-commit')])
    eq(r['total.partitions'], '2', 'two partitions named txn-0: distinguished by a path suffix')
    names = sorted(k.rsplit('.', 1)[0] for k in r if k.endswith('.records') and not k.startswith('total'))
    eq(names, ['txn-abort/txn-0', 'txn-commit/txn-0'], 'names')
    eq(int(r['total.records']), int(r['txn-abort/txn-0.records']) + int(r['txn-commit/txn-0.records']), 'sum')


# ---- a window gives the results of a full read, --no-seek or not --------------------------------

# The analysis reads every batch whatever the window, so no field may differ (there were fields
# that only told how much seeking skipped; they are gone).
SEEK_ONLY_FIELDS = ()


def without_seek_fields(objs):
    out = []
    for o in objs:
        o = dict(o)
        if o['type'] in ('partition', 'total'):
            for k in SEEK_ONLY_FIELDS:
                o.pop(k, None)
        out.append(o)
    return out


def same_with_and_without_seek(paths, window):
    a = jsonl(['scan'] + window + paths)
    b = jsonl(['scan', '--no-seek'] + window + paths)
    eq(without_seek_fields(a), without_seek_fields(b), 'window %s: seeking changes the results' % window)
    return a, b


@test
def window_seek_equals_full_read():
    # codec-none has real .index/.timeindex files written by Kafka's index classes (README)
    cn = [gen('codec-none')]
    batches, recs, _ = oracle('codec-none')
    for window in (['--from-offset', '600'], ['--from-offset', '600', '--to-offset', '700'],
                   ['--since', str(recs[700]['timestamp'])], ['--since', '2023-11-14T22:13:20.500Z'],
                   ['--from-offset', '10', '--until', str(recs[900]['timestamp'])], ['--to-offset', '20']):
        a, _ = same_with_and_without_seek(cn, window)
        p = of_type(a, 'partition')[0]
        lo = int(window[window.index('--from-offset') + 1]) if '--from-offset' in window else 0
        hi = int(window[window.index('--to-offset') + 1]) if '--to-offset' in window else 1 << 62
        since = 0
        if '--since' in window:
            v = window[window.index('--since') + 1]
            since = int(v) if v.isdigit() else 1700000000500
        until = int(window[window.index('--until') + 1]) if '--until' in window else 1 << 62
        want = [r for r in recs if lo <= r['offset'] <= hi and since <= r['timestamp'] <= until]
        eq(p['records'], len(want), 'records in window %s (oracle)' % window)
    for scen in ('txn-interleaved', 'txn-abort', 'compacted', 'idem-seq-wrap'):
        for window in (['--from-offset', '5'], ['--to-offset', '9'], ['--since', '1700000000005']):
            same_with_and_without_seek([gen(scen)], window)
    # a damaged index: its entries point into the middle of batches; the results stay right
    d = os.path.join(TMP, 'badindex', 'codec-none-0')
    os.makedirs(d)
    import shutil
    shutil.copy(os.path.join(gen('codec-none'), '00000000000000000000.log'), d)
    with open(os.path.join(d, '00000000000000000000.index'), 'wb') as f:
        for rel in range(1, 100):
            f.write(rel.to_bytes(4, 'big') + (rel * 7).to_bytes(4, 'big'))
    a, _ = same_with_and_without_seek([d], ['--from-offset', '600'])
    eq(of_type(a, 'partition')[0]['records'], len([r for r in recs if r['offset'] >= 600]), 'bad index ignored')
    # several segments: the segment names bound their offsets
    seg = {0: b''.join(kafka.batch(i, [(None, b'v%d' % (i % 3))]) for i in range(0, 4)),
           4: b''.join(kafka.batch(i, [(None, b'v%d' % (i % 3))]) for i in range(4, 8)),
           8: b''.join(kafka.batch(i, [(None, b'v%d' % (i % 3))]) for i in range(8, 12))}
    d = kafka.write_partition(part('segskip', 's-0'), seg)
    a, _ = same_with_and_without_seek([d], ['--from-offset', '5', '--to-offset', '6'])
    p = of_type(a, 'partition')[0]
    # every segment is read whatever the window (what lies outside it is known, not listed)
    eq((p['records'], p['outsideWindow'], p['segments']), (2, 10, 3), 'every segment read, 2 records listed')


@test
def hostile_values():
    # built: CRC-valid batches whose fields sit at the edges of their types
    I64 = (1 << 63) - 1
    data = kafka.batch(I64 - 1, [(None, b'z'), (None, b'z')], pid=I64, epoch=32767, base_seq=MAX,
                       base_ts=-I64 - 1, max_ts=I64, ts_deltas=[0, 5], transactional=True)
    data += kafka.batch(I64 - 1, [(None, b'z')], pid=I64, epoch=-32768, base_seq=MAX - 1, base_ts=I64, max_ts=-1,
                        last_offset_delta=-5)
    data += kafka.marker(0, I64, 32767, commit=False, ts=-I64 - 1)
    data += kafka.batch(0, [(None, b'z')], base_ts=-I64 - 1, max_ts=I64, last_offset_delta=2147483647)
    d = kafka.write_partition(part('hostile', 'h-0'), {0: data})
    for cmd in (['scan'], ['dups'], ['producers'], ['txns'], ['explain', '--value', 'z']):
        for extra in ([], ['--by', 'key+value'], ['--since', '0', '--until', '10'], ['--now', '-9223372036854775808']):
            rc, out, err = run(cmd + extra + ['--json', d])
            check(rc in (0, 3), '%s %s: exit %d: %s' % (cmd, extra, rc, err))
            check('runtime error' not in err and 'Sanitizer' not in err, '%s %s: %s' % (cmd, extra, err))
            for line in out.split('\n'):
                if line:
                    json.loads(line)
            rc, out, err = run(cmd + extra + ['--color', 'never', d])
            check(rc in (0, 3) and 'runtime error' not in err, '%s %s text: exit %d: %s' % (cmd, extra, rc, err))


def main():
    global SEGSCAN, GEN, TMP
    args = sys.argv[1:]
    only = harness.take_k(args)
    if len(args) != 2:
        print(__doc__)
        return 2
    SEGSCAN = os.path.abspath(args[0])
    GEN = os.path.join(os.path.abspath(args[1]), 'corpus', 'gen')
    with tempfile.TemporaryDirectory(prefix='segscan-analysis-') as tmp:
        TMP = tmp
        return harness.run_tests([(t.__name__, t) for t in TESTS], only)


if __name__ == '__main__':
    sys.exit(main())
