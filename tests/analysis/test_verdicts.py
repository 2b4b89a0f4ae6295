#!/usr/bin/env python3
"""Verdicts that hold: lost records are not compaction, replicas and key updates are not
duplicates, a verdict names its scope, JSON carries whole values.

Usage: test_verdicts.py SEGSCAN TESTDATA [-k SUBSTRING]

Every partition here is built by tests/lib/kafka.py; each expectation follows from how it was built and
from the Kafka rule cited beside it (LogCleaner.scala, UnifiedLog.scala, DefaultRecordBatch.java,
AbstractLegacyRecordBatch.java, ...), never from segscan's own output.
"""

import os
import struct
import sys
import zlib

import kafka
from harness import (Fail, absent, check, contains, eq, gen, jsonl, main, of_type, one, run, run_rc, test,
                     tmp)

T0 = 1700000000000


def keyed(first, n, prefix=b'k', vprefix=b'v'):
    return [(prefix + b'%d' % (first + i), vprefix + b'%d' % (first + i)) for i in range(n)]


def idem(base, n, pid=7, epoch=0, **kw):
    """n records at offsets base.., idempotent producer pid with sequence = offset."""
    return kafka.batch(base, keyed(base, n), pid=pid, epoch=epoch, base_seq=base, base_ts=T0 + base, **kw)


def three_segments(path, drop=None, leader_epoch=0):
    """Offsets 0..29 in three segments of 10 (0, 10, 20); `drop` leaves one segment out."""
    segs = {b: idem(b, 10, leader_epoch=leader_epoch) for b in (0, 10, 20) if b != drop}
    kafka.write_partition(path, segs)
    with open(os.path.join(path, 'leader-epoch-checkpoint'), 'w') as f:
        f.write('0\n1\n%d 0\n' % leader_epoch)
    return path


def write_metadata(path, topic_id):
    # PartitionMetadataFile: "version: 0" and "topic_id: <base64 uuid>" lines
    with open(os.path.join(path, 'partition.metadata'), 'w') as f:
        f.write('version: 0\ntopic_id: %s\n' % topic_id)


def by_kind(objs, t):
    return {o['kind']: o for o in of_type(objs, t)}


# ---- 1. lost records are not compaction -----------------------------------------------------------

@test
def diff_missing_middle_segment_is_lost():
    # B is A without its middle segment (offsets 10..19). Neither log shows cleaning (no
    # cleaner-offset-checkpoint, no batch with records missing inside it, no delete horizon), and
    # the cleaner removes only records superseded by a later record with the same key
    # (LogCleaner.shouldRetainRecord): keys k10..k19 appear nowhere else, so those ten records are
    # lost in B, not compacted, and the diff is not identical.
    a = three_segments(tmp('a', 'pay-0'))
    b = three_segments(tmp('b', 'pay-0'), drop=10)
    objs = jsonl(['diff', a, b], want_rc=1)
    s = one(objs, 'summary')
    eq(s['identical'], False, 'identical')
    eq(s['compactedInB'], 0, 'compactedInB')
    eq(s['lostInB'], 10, 'lostInB')
    ranges = of_type(objs, 'range')
    eq([(r['kind'], r['from'], r['to'], r['records']) for r in ranges], [('lostInB', 10, 19, 10)], 'ranges')
    out, _ = run_rc(['diff', a, b], 1)
    absent(out, 'compaction removed', 'diff text')
    absent(out, 'identical', 'diff text')
    contains(out, '10 records lost in B', 'diff text')


@test
def diff_first_segment_cut_short_is_lost_and_damage():
    # B's first segment is cut inside its second batch: a segment other than the last ending in an
    # incomplete entry is damage (cut-segment, exit 3); the records it held are lost, not compacted.
    a = tmp('a', 'pay-0')
    kafka.write_partition(a, {0: idem(0, 5) + idem(5, 5), 10: idem(10, 10)})
    b = tmp('b', 'pay-0')
    whole = idem(0, 5) + idem(5, 5)
    kafka.write_partition(b, {0: whole[:len(idem(0, 5)) + 30], 10: idem(10, 10)})
    objs = jsonl(['diff', a, b], want_rc=3)
    s = one(objs, 'summary')
    eq(s['identical'], False, 'identical')
    eq(s['compactedInB'], 0, 'compactedInB')
    eq(s['lostInB'], 5, 'lostInB (offsets 5..9)')


@test
def diff_compaction_allowed_by_the_rule():
    # A: k1=a at 0, k2=b at 1, k1=c at 2. B: the cleaned copy as LogCleaner writes it: offset 0 is
    # superseded by offset 2 (same key), so the cleaner drops it (shouldRetainRecord); B's batch keeps
    # offsets 1 and 2 (a batch with a record missing inside it: rewritten by the cleaner), and B's log
    # directory has a cleaner-offset-checkpoint entry past it. That removal is compaction: identical in
    # content, exit 0.
    recs = [(b'k1', b'a'), (b'k2', b'b'), (b'k1', b'c')]
    a = kafka.write_partition(tmp('a', 'kv-0'), {0: kafka.batch(0, recs)})
    b = kafka.write_partition(tmp('b', 'kv-0'), {0: kafka.batch(0, recs[1:], offset_deltas=[1, 2], ts_deltas=[1, 2])})
    kafka.write_checkpoint(tmp('b', 'cleaner-offset-checkpoint'), [('kv', 0, 3)])
    objs = jsonl(['diff', a, b])
    s = one(objs, 'summary')
    eq(s['identical'], True, 'identical')
    eq(s['compactedInB'], 1, 'compactedInB')
    eq(s['lostInB'], 0, 'lostInB')


def txn_then_marker(commit, with_txn=True):
    """A plain record k0 at 0, producer 9's transaction (k1, k2 at 1..2), its marker at 3, then a
    plain record k4 at 4; without the transaction's batch when with_txn is false."""
    txn = kafka.batch(1, keyed(1, 2), pid=9, epoch=0, base_seq=0, transactional=True) if with_txn else b''
    return kafka.batch(0, keyed(0, 1)) + txn + kafka.marker(3, 9, 0, commit) + kafka.batch(4, keyed(4, 1))


def diff_of_cleaned_copy(commit, want_rc):
    """diff of A (txn_then_marker) against B, its copy without the transaction's batch in a log
    directory whose cleaner-offset-checkpoint is past it: the summary; the exit code checked in text
    and JSON alike."""
    a = kafka.write_partition(tmp('a', 'tx-0'), {0: txn_then_marker(commit)})
    b = kafka.write_partition(tmp('b', 'tx-0'), {0: txn_then_marker(commit, with_txn=False)})
    kafka.write_checkpoint(tmp('b', 'cleaner-offset-checkpoint'), [('tx', 0, 5)])
    eq(run(['diff', a, b])[0], want_rc, 'exit code')
    return one(jsonl(['diff', a, b], want_rc), 'summary')


@test
def diff_aborted_data_removed_by_the_cleaner_is_compaction():
    # A: producer 9's transaction at 1..2 ABORTED by the marker at 3, between plain records. B: the cleaned
    # copy: the cleaner discards an aborted transaction's batches whatever their keys
    # (LogCleaner.Cleaner.shouldDiscardBatch via CleanedTransactionMetadata: the batch's producer id
    # among the aborted transactions) and keeps the marker until its delete horizon; B's log
    # directory has a cleaner-offset-checkpoint entry past it. The two records are compacted in B,
    # not lost: identical in content, exit 0.
    s = diff_of_cleaned_copy(commit=False, want_rc=0)
    eq((s['compactedInB'], s['lostInB'], s['identical']), (2, 0, True), 'compacted, lost, identical')


@test
def diff_committed_data_missing_from_a_cleaned_log_is_lost():
    # The same, but the marker at 3 is a COMMIT: the cleaner keeps committed data unless a later
    # record of the same key supersedes it (shouldRetainRecord), and k1, k2 appear nowhere else: the
    # two records are lost in B, and the diff is not identical (exit 1).
    s = diff_of_cleaned_copy(commit=True, want_rc=1)
    eq((s['compactedInB'], s['lostInB'], s['identical']), (0, 2, False), 'compacted, lost, identical')


@test
def diff_cleaned_log_missing_unsuperseded_key_is_lost():
    # The same cleaned B, but what is missing is offset 1 (k2): no later k2 in B, so the cleaner would
    # have kept it (shouldRetainRecord keeps the latest record of each key): lost, though B shows cleaning.
    recs = [(b'k1', b'a'), (b'k2', b'b'), (b'k1', b'c')]
    a = kafka.write_partition(tmp('a', 'kv-0'), {0: kafka.batch(0, recs)})
    b = kafka.write_partition(tmp('b', 'kv-0'), {0: kafka.batch(0, [recs[0], recs[2]], offset_deltas=[0, 2], ts_deltas=[0, 2])})
    kafka.write_checkpoint(tmp('b', 'cleaner-offset-checkpoint'), [('kv', 0, 3)])
    objs = jsonl(['diff', a, b], want_rc=1)
    s = one(objs, 'summary')
    eq(s['identical'], False, 'identical')
    eq((s['compactedInB'], s['lostInB']), (0, 1), '(compactedInB, lostInB)')


@test
def producers_missing_middle_segment_is_not_retention():
    # Sequences 0..9 and 20..29 of one session with offsets 10..19 missing at a segment boundary, in a
    # log that shows no cleaning. Retention deletes only the oldest segments (the log start moves:
    # UnifiedLog.deleteOldSegments), so a missing middle segment is never "retention", and without
    # cleaning it is not compaction either: the gap is an inconsistency.
    p = three_segments(tmp('d', 'pay-0'), drop=10)
    objs = jsonl(['producers', p])
    s = one(objs, 'session')
    eq(s['sequenceGaps'], [[10, 19]], 'gaps')
    eq(s['gapsExplainedBy'], ['missing-segment'], 'gap explanation')
    eq(s['unexplainedGaps'], 1, 'unexplained gaps')
    out, _ = run_rc(['producers', p], 0)
    absent(out, 'retention', 'producers text')
    contains(out, 'missing', 'producers text')


@test
def scan_compacted_gap_is_only_consistent_with_compaction():
    # A cleaned log (cleaner-offset-checkpoint at 30, a batch with offsets missing inside it) with a
    # sequence gap: the records are gone, their keys unknown, so the gap is "consistent with
    # compaction", never "compaction removed".
    p = tmp('d', 'kv-0')
    b0 = kafka.batch(0, keyed(0, 3), pid=7, epoch=0, base_seq=0, offset_deltas=[0, 1, 2])
    b1 = kafka.batch(10, keyed(10, 2), pid=7, epoch=0, base_seq=10, offset_deltas=[0, 3], last_offset_delta=3)
    kafka.write_partition(p, {0: b0 + b1})
    kafka.write_checkpoint(tmp('d', 'cleaner-offset-checkpoint'), [('kv', 0, 30)])
    out, _ = run_rc(['producers', tmp('d')], 0)
    contains(out, 'consistent with compaction', 'producers text')
    absent(out, 'compaction removed', 'producers text')


@test
def verify_missing_middle_segment_is_an_inconsistency():
    p = three_segments(tmp('d', 'pay-0'), drop=10)
    out, _ = run_rc(['verify', p], 1)
    contains(out, '10', 'verify names the missing offsets')


@test
def verify_orphaned_index_names_the_missing_segment():
    # A compacted-looking log (a cleaner checkpoint) whose middle segment is gone but whose .index for
    # base offset 10 is still there: the files beside it name the missing segment (Kafka deletes a
    # segment's .log and .index together: LogSegment.deleteIfExists), so it is an inconsistency.
    p = three_segments(tmp('d', 'pay-0'), drop=10)
    open(os.path.join(p, '%020d.index' % 10), 'wb').close()
    kafka.write_checkpoint(tmp('d', 'cleaner-offset-checkpoint'), [('pay', 0, 30)])
    run_rc(['verify', p], 1)


@test
def damaged_batch_records_are_lost_not_compaction():
    # gen/damaged-crc-flip: the first batch (offsets 0..9, 10 records: its oracle's first batch line)
    # fails its CRC. Its header is readable, so its offsets are known: 10 records lost, and the
    # partition is not "compacted" because of it.
    p = gen('damaged-crc-flip', 'codec-none-0')
    objs = jsonl(['scan', p], want_rc=3)
    part = one(objs, 'partition')
    eq(part['compacted'], False, 'compacted')
    eq(part['lostRecords'], 10, 'lostRecords')
    err = [e for e in of_type(objs, 'error') if e['kind'] == 'crc-mismatch']
    eq([(e['firstOffset'], e['lastOffset']) for e in err], [(0, 9)], 'damage offsets')
    out, _ = run_rc(['scan', p], 3)
    contains(out, '10 records in the damaged batches at offsets 0..9 could not be read', 'scan text')


# ---- 2. copies that are not duplicates --------------------------------------------------------

def replicas(root, ids=(None, None)):
    paths = []
    for d, tid in zip(('broker1', 'broker2'), ids):
        p = os.path.join(root, d, 'pay-0')
        kafka.write_partition(p, {0: idem(0, 5, leader_epoch=3)})
        with open(os.path.join(p, 'leader-epoch-checkpoint'), 'w') as f:
            f.write('0\n1\n3 0\n')
        if tid:
            write_metadata(p, tid)
        paths.append(p)
    return paths


@test
def replicas_are_one_log():
    # Two log directories holding pay-0 with the same leader epoch (3 from offset 0) and the same topic
    # id: replicas of one log, read as one partition (each offset once, from the copy a follower
    # keeps). A record in both is one record: no group, no cross-partition copy.
    paths = replicas(tmp(), ids=('MG2SJhvpZCQjALGzsYh4vA', 'MG2SJhvpZCQjALGzsYh4vA'))
    objs = jsonl(['dups'] + paths)
    eq(of_type(objs, 'group'), [], 'groups')
    total = one(objs, 'total')
    eq(total['causes']['cross-partition'], 0, 'cross-partition copies')
    rc, out, err = run(['dups'] + paths)
    eq(rc, 0, 'exit code')
    contains(err, 'pay-0: 2 copies read as one partition (replicas): broker1/pay-0', 'says replicas were given')
    eq(of_type(objs, 'total')[0]['records'], 5, 'the five records once')


@test
def same_name_different_topic_ids_are_not_replicas():
    # A re-created topic or a mirror: same name, different topic ids (partition.metadata): not
    # replicas, so their records are copies of each other as before.
    paths = replicas(tmp(), ids=('MG2SJhvpZCQjALGzsYh4vA', 'RTqtE7gsXG0-grbJai7Ogg'))
    objs = jsonl(['dups'] + paths)
    eq(len(of_type(objs, 'group')), 5, 'groups')


@test
def replicas_known_by_their_batches():
    # No leader-epoch-checkpoint and no partition.metadata beside either copy: the batches decide.
    # A follower appends the leader's batches as they are, partitionLeaderEpoch included
    # (UnifiedLog.appendAsFollower), so the same batch (offset, leader epoch 3, CRC) in both is one
    # log: read once, and no copy is cross-partition.
    root = tmp()
    paths = []
    for d in ('broker1', 'broker2'):
        p = os.path.join(root, d, 'pay-0')
        kafka.write_partition(p, {0: idem(0, 5, leader_epoch=3)})
        paths.append(p)
    objs = jsonl(['dups'] + paths)
    eq(of_type(objs, 'group'), [], 'groups')
    rc, out, err = run(['dups'] + paths)
    eq(rc, 0, 'exit code')
    contains(err, '2 copies read as one partition (replicas)', 'says replicas were given')


@test
def same_offsets_different_batches_are_not_replicas():
    # A mirror with the same partition name: batches at the same offsets and leader epoch 0 (a new
    # cluster's first epoch) but written by another producer (id 8 against 7), so their bytes and
    # CRCs differ: nothing shows one log, and the five records are copies of each other (one group
    # each, the second copy in the other partition).
    root = tmp()
    paths = []
    for d, pid in (('source', 7), ('mirror', 8)):
        p = os.path.join(root, d, 'pay-0')
        kafka.write_partition(p, {0: idem(0, 5, pid=pid, leader_epoch=0)})
        paths.append(p)
    objs = jsonl(['dups'] + paths)
    eq(len(of_type(objs, 'group')), 5, 'groups')
    eq(one(objs, 'total')['causes']['cross-partition'], 5, 'cross-partition copies')


@test
def include_temp_names_temporaries_as_copies_of_their_partition():
    # A log directory with pay-0 (offsets 0..4), a -delete directory holding the same log renamed
    # for deletion (LocalLog/LogFileUtils.DELETE_DIR_SUFFIX), and inside pay-0 a .cleaned segment
    # the cleaner is writing over the same offsets (LogFileUtils.CLEANED_FILE_SUFFIX). Each
    # temporary is a copy of pay-0's log, not a partition of that name and not segments of pay-0:
    # no duplicate group (every record is one record of one log), no segment overlap, exit 0.
    root = tmp()
    live = os.path.join(root, 'pay-0')
    kafka.write_partition(live, {0: idem(0, 5)})
    kafka.write_partition(os.path.join(root, 'pay-0.6c1a5c3e8f4b4d2b9d1e2f3a4b5c6d7e-delete'), {0: idem(0, 5)})
    with open(os.path.join(live, '00000000000000000000.log.cleaned'), 'wb') as f:
        f.write(idem(0, 5))
    objs = jsonl(['dups', '--include-temp', root])
    eq(of_type(objs, 'group'), [], 'groups')
    rc, out, err = run(['scan', '--include-temp', root])
    eq(rc, 0, 'exit code')
    absent(out + err, 'overlap', 'no segment overlap')
    absent(out + err, 'cross-partition', 'no cross-partition copies')
    contains(out, 'pay-0[.cleaned]  ', 'the .cleaned files as an input of their own')
    contains(out, 'a temporary copy of pay-0 (.cleaned: ', 'named as a temporary copy')
    contains(out, 'a temporary copy of pay-0 (-delete: ', 'the -delete directory too')
    parts = {o['partition']: o for o in of_type(jsonl(['scan', '--include-temp', root]), 'partition')}
    eq(parts['pay-0']['records'], 5, 'pay-0 records')
    eq((parts['pay-0']['temporary'], parts['pay-0']['temporaryOf']), (None, None), 'pay-0 is no temporary')
    eq((parts['pay-0[.cleaned]']['temporary'], parts['pay-0[.cleaned]']['temporaryOf']), ('.cleaned', 'pay-0'),
       '.cleaned')
    d = parts['pay-0.6c1a5c3e8f4b4d2b9d1e2f3a4b5c6d7e-delete']
    eq((d['temporary'], d['temporaryOf'], d['records']), ('-delete', 'pay-0', 5), '-delete')


@test
def include_temp_says_when_a_delete_directory_is_of_a_re_created_topic():
    # A -delete directory stays until file.delete.delay.ms (LogManager), so the topic can be
    # re-created beside it under the same name; the new topic has another topic id in
    # partition.metadata (KIP-516). The note must not call a record in both "one record of that
    # log" then; with no topic id on one side, whether it is the same topic is not known.
    root = tmp()
    live = os.path.join(root, 'pay-0')
    old = os.path.join(root, 'pay-0.6c1a5c3e8f4b4d2b9d1e2f3a4b5c6d7e-delete')
    kafka.write_partition(live, {0: idem(0, 5)})
    kafka.write_partition(old, {0: idem(0, 5)})
    kafka.write_topic_id(live, 'q3hG5yVcT7eZs0m1L2b3Xw')
    kafka.write_topic_id(old, 'Aq8w1fGqRqK0q6L5pX3c9g')
    rc, out, err = run(['scan', '--include-temp', root])
    eq(rc, 0, 'exit code')
    contains(err, 'of another topic (-delete: ', 'another topic')
    contains(err, 'its topic id Aq8w1fGqRqK0q6L5pX3c9g is not pay-0\'s q3hG5yVcT7eZs0m1L2b3Xw', 'both ids named')
    absent(err, 'one record of that log, not a copy', 'not called one record of one log')
    # The same ids: one topic, one log.
    kafka.write_topic_id(old, 'q3hG5yVcT7eZs0m1L2b3Xw')
    rc, out, err = run(['scan', '--include-temp', root])
    contains(err, 'one record of that log, not a copy', 'same topic id')
    absent(err, 'another topic', 'same topic id')
    # No topic id in the -delete directory: not known.
    os.unlink(os.path.join(old, 'partition.metadata'))
    rc, out, err = run(['scan', '--include-temp', root])
    contains(err, 'whether it is of the same topic is not known', 'unknown')
    contains(err, '(pay-0.6c1a5c3e8f4b4d2b9d1e2f3a4b5c6d7e-delete has no topic id', 'names the side without one')


def offset_commit(group, topic, partition, offset, ts):
    # __consumer_offsets record type 1 (GroupCoordinatorRecordHelpers.newOffsetCommitRecord): key
    # version 1 + OffsetCommitKey(group, topic, partition); value version 3 + OffsetCommitValue(offset,
    # leaderEpoch, metadata, commitTimestamp).
    return kafka.offset_commit(group, topic, partition, offset, ts, leader_epoch=-1)


@test
def coordinator_batches_are_not_sequence_anomalies():
    # A transactional offset commit is written by the group coordinator with the transactional
    # producer's id and baseSequence 0 every time (corpus/README.md, gen/groups-eos; Kafka's
    # CoordinatorRuntime writes its batches that way), so two of them are not a repeated sequence.
    p = tmp('d', '__consumer_offsets-0')
    data = b''
    off = 0
    for i in range(3):
        k, v = offset_commit(b'g', b'items', 0, 10 * (i + 1), T0 + i)
        data += kafka.batch(off, [(k, v)], pid=6100, epoch=0, base_seq=0, transactional=True, base_ts=T0 + i)
        data += kafka.marker(off + 1, 6100, 0, True, ts=T0 + i)
        off += 2
    kafka.write_partition(p, {0: data})
    objs = jsonl(['producers', p])
    s = one(objs, 'session')
    eq(s['recordsWithRepeatedSequence'], 0, 'repeated sequences')
    eq(s['outOfOrderBatches'], 0, 'out-of-order batches')
    total = one(objs, 'total')
    eq(total['duplicateSequences'], 0, 'duplicate sequences')


@test
def by_key_update_is_not_a_duplicate():
    # --by key: the same key with a different value is an update (or a re-send whose content
    # changed), not a byte-identical copy. Offsets 0 k1=a, 1 k1=b, 2 k1=a (one session, sequences
    # 0, 1, 2): copy 1 is an update; copy 2 is byte-identical to the original (same-session).
    p = kafka.write_partition(tmp('d', 'kv-0'), {0: kafka.batch(0, [(b'k1', b'a'), (b'k1', b'b'), (b'k1', b'a')],
                                                                pid=7, epoch=0, base_seq=0)})
    objs = jsonl(['dups', '--by', 'key', p])
    g = one(objs, 'group')
    eq([o['cause'] for o in g['occurrences']], [None, 'update', 'same-session'], 'causes')
    eq(g['identicalCopies'], 2, 'identicalCopies (the original and offset 2)')


@test
def across_topics_copy_is_cross_topic():
    a = kafka.write_partition(tmp('d', 'orders-0'), {0: kafka.batch(0, [(None, b'same')])})
    b = kafka.write_partition(tmp('d', 'audit-0'), {0: kafka.batch(0, [(None, b'same')], base_ts=T0 + 5)})
    objs = jsonl(['dups', '--across-topics', a, b])
    g = one(objs, 'group')
    eq(sorted(g['topics']), ['audit', 'orders'], 'topics of the group')
    eq(sorted(str(o['cause']) for o in g['occurrences']), ['None', 'cross-topic'], 'causes')


@test
def cluster_metadata_noop_records_are_not_duplicates():
    # __cluster_metadata NoOpRecord (metadata/.../NoOpRecord.json, apiKey 23): frame version 1,
    # apiKey 23, version 0, no tagged fields - identical by design, written by the active controller
    # every metadata.max.idle.interval.ms (KIP-835). Read explicitly, they are left out of the
    # duplicate analysis with a notice, not reported as resend-no-idempotence.
    noop = bytes([1, 23, 0, 0])
    p = kafka.write_partition(tmp('d', '__cluster_metadata-0'),
                              {0: b''.join(kafka.batch(i, [(None, noop)], base_ts=T0 + 500 * i) for i in range(4))})
    rc, out, err = run(['dups', '--json', p])
    eq(rc, 0, 'exit code')
    objs = [__import__('json').loads(l) for l in out.splitlines() if l.strip()]
    eq(of_type(objs, 'group'), [], 'groups')
    # (the total object lists every cause with its count: the count must be 0)
    eq(one(objs, 'total')['causes']['resend-no-idempotence'], 0, 'no resend-no-idempotence')
    contains(err + out, '__cluster_metadata', 'a notice names the topic')


# ---- 3. a verdict names its scope ----------------------------------------------------------------

@test
def explain_single_copy_names_its_scope():
    # pay-0 read, pay-1 and pay-2 of the same topic beside it in the log directory, not read; other
    # brokers are not knowable from one log directory.
    for n in range(3):
        kafka.write_partition(tmp('logs', 'pay-%d' % n), {0: kafka.batch(0, [(None, b'pay-%d' % n)])})
    objs = jsonl(['explain', '--value', 'pay-0', tmp('logs', 'pay-0')])
    s = one(objs, 'single')
    eq(s['scope'], {'partitionsRead': ['pay-0'], 'siblingsNotRead': ['pay-1', 'pay-2'], 'replicas': [],
                    'otherBrokers': 'unknown'}, 'scope')
    out, _ = run_rc(['explain', '--value', 'pay-0', tmp('logs', 'pay-0')], 0)
    contains(out, 'pay-1', 'text names a sibling not read')


@test
def explain_key_many_matches_summarises():
    recs = [(b'k', b'v%d' % i) for i in range(50)]
    p = kafka.write_partition(tmp('d', 'kv-0'), {0: kafka.batch(0, recs)})
    out, _ = run_rc(['explain', '--key', 'k', p], 0)
    check(out.count('single copy') <= 1, 'one paragraph, not one per record: %d' % out.count('single copy'))
    contains(out, '50', 'the count of matched records')


@test
def explain_no_match_says_why():
    p = kafka.write_partition(tmp('d', 'kv-0'), {0: kafka.batch(0, keyed(0, 5))})
    out, err = run_rc(['explain', '--offset', 'kv-0:99', p], 0)
    contains(out + err, 'past the log end', 'offset past the end')
    out, err = run_rc(['explain', '--offset', 'nosuch-3:1', p], 0)
    contains(out + err, 'nosuch-3', 'unknown partition named')


# ---- 4. things that are not segments --------------------------------------------------------------

@test
def text_file_is_not_a_segment():
    path = tmp('server.log')
    with open(path, 'w') as f:
        f.write('[2024-01-01 10:00:00,000] INFO Kafka version: 3.9.0 (org.apache.kafka.common.utils.AppInfoParser)\n')
    for cmd in ('scan', 'dups', 'producers', 'txns', 'verify'):
        rc, out, err = run([cmd, path])
        eq(rc, 2, 'exit code of %s on a text file' % cmd)
        contains(err, 'not a Kafka segment', '%s error' % cmd)


@test
def garbage_named_like_a_segment_is_damage():
    # gen/damaged-garbage: 4096 random bytes in a file named like a segment (Kafka's oracle ends with
    # an error): still damage, exit 3, not "not a segment".
    rc, _, err = run(['scan', gen('damaged-garbage', 'garbage-0', '%020d.log' % 0)])
    eq(rc, 3, 'exit code')
    absent(err, 'not a Kafka segment', 'stderr')


# ---- 5. JSON a machine can use -------------------------------------------------------------------

@test
def diff_json_carries_whole_values():
    # A and B differ at offset 0 (same key, other value) and A has offset 1 only. JSON carries keys
    # and values whole (a machine must be able to re-produce the missing records from it);
    # --preview-bytes cuts only the text previews.
    big_a = bytes(range(32, 127)) * 3
    big_b = bytes(range(126, 31, -1)) * 3
    key = b'k' * 100
    a = kafka.write_partition(tmp('a', 'kv-0'), {0: kafka.batch(0, [(key, big_a), (b'k2', big_a)])})
    b = kafka.write_partition(tmp('b', 'kv-0'), {0: kafka.batch(0, [(key, big_b)])})
    objs = jsonl(['diff', '--bytes', 'utf8', a, b], want_rc=1)
    d = {o['kind']: o for o in of_type(objs, 'difference')}
    eq(sorted(d), ['differing', 'onlyInA'], 'difference kinds')
    eq(d['differing']['a']['key'], key.decode(), 'whole key')
    eq(d['differing']['a']['value'], big_a.decode(), 'whole value of A')
    eq(d['differing']['b']['value'], big_b.decode(), 'whole value of B')
    eq(d['onlyInA']['a']['value'], big_a.decode(), 'whole value of the record only in A')
    for o in d.values():
        for side in ('a', 'b'):
            if o[side]:
                check(not o[side].get('truncated'), 'JSON never truncated: %r' % o[side])
    out, _ = run_rc(['diff', '--preview-bytes', '8', a, b], 1)
    absent(out, big_a[:9].decode(), 'text preview cut at 8 bytes')


@test
def legacy_wrapper_with_bad_crc_has_its_first_inner_offset():
    # A v1 gzip wrapper (LegacyRecord) whose inner messages have relative offsets 0..2 and whose
    # wrapper offset is the last inner offset, 12 (so the inner offsets are 10..12). Kafka's
    # AbstractLegacyRecordBatch.baseOffset() of a compressed wrapper is the first inner offset (it
    # decompresses even when the CRC fails): 10.
    def msg(off, key, value, attrs=0):
        return kafka.legacy(off, value, key=key, magic=1, attributes=attrs, ts=T0)
    inner = b''.join(msg(i, None, b'm%d' % i) for i in range(3))
    co = zlib.compressobj(9, zlib.DEFLATED, 31)
    gz = co.compress(inner) + co.flush()
    w = bytearray(msg(12, None, gz, attrs=1))
    w[20] ^= 0xff  # the timestamp's top byte: inside the CRC's range, the payload still decompresses
    path = tmp('leg-0', '%020d.log' % 10)
    os.makedirs(os.path.dirname(path))
    with open(path, 'wb') as f:
        f.write(bytes(w))
    objs = jsonl(['dump', path], want_rc=3)
    eq(one(objs, 'batch')['baseOffset'], 10, 'baseOffset')


@test
def json_with_report_on_stdout_is_a_usage_error():
    p = gen('lab', 'payments-0')
    rc, out, err = run(['scan', '--json', '--report', '-', p])
    eq(rc, 2, 'exit code')
    eq(out, '', 'nothing on stdout')
    eq(len(err.strip().splitlines()), 1, 'one line: %r' % err)


# ---- 6. smaller points ---------------------------------------------------------------------------

@test
def records_counted_alike_by_diff_and_scan():
    # gen/txn-commit: 5 data records and a COMMIT marker (SCENARIOS.tsv). "records" are data records
    # in every command; control records are counted apart.
    p = gen('txn-commit', 'txn-0')
    s = one(jsonl(['diff', p, p]), 'summary')
    eq((s['a']['records'], s['b']['records']), (5, 5), 'diff records')
    eq(one(jsonl(['scan', p]), 'partition')['records'], 5, 'scan records')


@test
def wording():
    p = kafka.write_partition(tmp('d', 'kv-0'), {0: kafka.batch(0, keyed(0, 3))})
    out, _ = run_rc(['scan', p], 0)
    absent(out, 'at most 1 copies', 'plural')
    kafka.write_partition(tmp('e', 'kv-0'), {0: kafka.batch(0, [(b'key-a', b'same'), (b'key-b', b'same')])})
    out, _ = run_rc(['dups', tmp('e', 'kv-0')], 0)
    contains(out, 'key-a', 'copies show their keys')
    contains(out, 'key-b', 'copies show their keys')
    # an empty leader-epoch-checkpoint (version 0, 0 entries: LeaderEpochCheckpointFile) beside batches
    # of leader epoch 0 is reported as empty, not as entries that fail to cover the batches
    p = kafka.write_partition(tmp('f', 'kv-0'), {0: kafka.batch(0, keyed(0, 3))})
    with open(os.path.join(p, 'leader-epoch-checkpoint'), 'w') as f:
        f.write('0\n0\n')
    out, _ = run_rc(['verify', p], 1)
    contains(out, 'the leader-epoch-checkpoint is empty (no entries)', 'empty checkpoint')


@test
def retry_advice_states_the_default_per_client():
    # gen/payments-dup: three byte-identical batches without producer id (cause retry). The Java
    # producer enables idempotence by default since Kafka 3.0 (KIP-679); librdkafka's
    # CONFIGURATION.md gives enable.idempotence "default false", and the clients built on it
    # take that default. The advice must not state the Java default as everyone's.
    out, _ = run_rc(['dups', '-v', gen('payments-dup')], 0)
    contains(out, 'retry', 'the cause')
    contains(out, 'Java client since Kafka 3.0', 'the Java default, named as such')
    contains(out, 'librdkafka', "librdkafka's default")
    absent(out, '(the default since Kafka 3.0)', 'a default stated for every client')


@test
def help_lists_only_what_a_command_takes():
    out, _ = run_rc(['explain', '--help'], 0)
    absent(out, '--top', 'explain --help')
    absent(out, '--fail-on', 'explain --help')
    rc, out, err = run(['scan', '--no-such-option'])
    eq(rc, 2, 'exit code')
    eq(len(err.strip().splitlines()), 1, 'one line: %r' % err)
    contains(err, '--help', 'hint')


@test
def stdin_name_names_the_segment_from_stdin():
    # A partition directory is named topic + "-" + partition (LocalLog.logDirName), so
    # --stdin-name orders-3 gives the segment read from '-' topic orders, partition 3; its path
    # stays '-', since nothing was read from a file of that name.
    seg = kafka.batch(0, [(b'a', b'same'), (b'b', b'other')], base_ts=T0)
    p = one(jsonl(['scan', '--stdin-name', 'orders-3', '-'], stdin=seg), 'partition')
    eq((p['partition'], p['topic'], p['partitionNumber'], p['path']), ('orders-3', 'orders', 3, '-'),
       'the partition named')
    # a topic name may itself hold '-' (Topic.LEGAL_CHARS): the number is what follows the last one
    p = one(jsonl(['scan', '--stdin-name', 'my-topic-12', '-'], stdin=seg), 'partition')
    eq((p['topic'], p['partitionNumber']), ('my-topic', 12), 'a topic with a dash')
    # without it the segment is its own topic '-', as before
    p = one(jsonl(['scan', '-'], stdin=seg), 'partition')
    eq((p['partition'], p['topic'], p['partitionNumber'], p['path']), ('-', '-', None, '-'), 'unnamed')
    # named, it is a partition of orders: copies are grouped per topic, so the value 'same' at
    # offset 0 of orders-4 and of the segment read from '-' is one group of two copies; unnamed, the
    # two are of different topics ('-' and 'orders') and make no group without --across-topics
    d = kafka.write_partition(tmp('logs', 'orders-4'), {0: kafka.batch(0, [(b'c', b'same')], base_ts=T0 + 5)})
    g = of_type(jsonl(['dups', '--stdin-name', 'orders-3', '-', d], stdin=seg), 'group')
    eq([(x['topic'], x['copies'], sorted(o['partition'] for o in x['occurrences'])) for x in g],
       [('orders', 2, ['orders-3', 'orders-4'])], 'grouped with its topic')
    eq(of_type(jsonl(['dups', '-', d], stdin=seg), 'group'), [], 'unnamed: another topic')
    # explain --offset finds the record under the name given
    out, _ = run_rc(['explain', '--stdin-name', 'orders-3', '--offset', 'orders-3:0', '-', d], 0, stdin=seg)
    contains(out, 'orders-4  offset 0', 'the other copy listed')
    # what Topic.validate rejects (".", "..", over 249 characters, a character outside
    # [a-zA-Z0-9._-]), a name without "-N", and a number with a leading zero (logDirName writes
    # the number as Integer.toString does) are usage errors; so is the option without '-'
    for bad in ['orders', 'orders-', '-3', 'orders-x', 'orders-03', '.-0', '..-0', 'a b-1', 'x' * 250 + '-0',
                'orders-1234567890']:
        rc, out, err = run(['scan', '--stdin-name', bad, '-'], stdin=seg)
        check(rc == 2 and not out and '--stdin-name' in err, '--stdin-name %r: %d %r' % (bad[:20], rc, err))
    p = one(jsonl(['scan', '--stdin-name', 'x' * 249 + '-0', '-'], stdin=seg), 'partition')
    eq(p['topic'], 'x' * 249, 'a topic of 249 characters')
    rc, out, err = run(['scan', '--stdin-name', 'orders-3', d])
    check(rc == 2 and not out and "no '-'" in err, 'the option without -: %d %r' % (rc, err))


@test
def copies_in_other_partitions_are_not_at_most_1_copies():
    # t-0 and t-1 each hold the value 'same' once: one group of two copies across partitions (the
    # analysis groups per topic), whose extra copy lies in t-1. t-1 then holds one extra copy and no
    # value twice: its line says so instead of "at most 1 copies of one value".
    a = kafka.write_partition(tmp('d', 't-0'), {0: kafka.batch(0, [(None, b'same'), (None, b'a')], base_ts=T0)})
    b = kafka.write_partition(tmp('d', 't-1'), {0: kafka.batch(0, [(None, b'same'), (None, b'b')], base_ts=T0)})
    out, _ = run_rc(['scan', '--color', 'never', a, b], 0)
    absent(out, 'at most 1 copies', 'the per-partition line')
    contains(out, '1 extra copy, each value once here (its other copies in other partitions)', 'the line of t-1')
    # within one partition the count stays: three copies of one value in t-2
    c = kafka.write_partition(tmp('d', 't-2'), {0: kafka.batch(0, [(None, b'x')] * 3, base_ts=T0)})
    out, _ = run_rc(['scan', '--color', 'never', c], 0)
    contains(out, '1 group, 2 extra copies, at most 3 copies of one value', 'three copies here')


@test
def incomplete_tail_said_alike_by_scan_and_verify():
    # The last batch cut after 30 of its bytes (an unclean shutdown mid-append, or a cut copy):
    # LogSegment.recover, which LogLoader.recoverLog runs after an unclean shutdown, keeps the
    # valid batches and truncates the rest (log.truncateTo(validBytes)): here the 30 bytes. scan
    # (exit 0) and verify (an inconsistency, exit 1) say the same of them.
    b1 = kafka.batch(0, [(None, b'a')], base_ts=T0)
    b2 = kafka.batch(1, [(None, b'b')], base_ts=T0 + 1)
    cut = kafka.write_partition(tmp('d', 'cut-0'), {0: b1 + b2[:30]})
    said = ("30 bytes after the last complete batch do not form a complete batch (unclean shutdown or a cut "
            "copy; Kafka's recovery would truncate them)")
    out, _ = run_rc(['scan', '--color', 'never', cut], 0)
    contains(out, 'tail          ' + said, 'scan')
    absent(out, 'incomplete or preallocated', 'scan tells the two kinds apart')
    objs = jsonl(['verify', cut], 1)
    f = [o for o in of_type(objs, 'finding') if o['check'] == 'incomplete-tail']
    eq([(o['position'], o['message']) for o in f], [(len(b1), said)], 'verify')
    # zeros after the last batch of the active segment: a preallocated file (log.preallocate),
    # which a clean close trims (FileRecords.trim); not an incomplete batch
    pre = kafka.write_partition(tmp('d', 'pre-0'), {0: b1 + b'\0' * 100})
    out, _ = run_rc(['scan', '--color', 'never', pre], 0)
    contains(out, 'tail          100 zero bytes at the end (preallocated)', 'scan, zeros')
    absent(out, 'complete batch', 'zeros are not an incomplete batch')


if __name__ == '__main__':
    sys.exit(main(__doc__))
