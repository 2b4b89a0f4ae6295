#!/usr/bin/env python3
"""A log's continuity and its inputs: inputs that fail, offsets that go backwards, holes.

Usage: test_continuity.py SEGSCAN TESTDATA [-k SUBSTRING]

Every partition is built here with tests/lib/kafka.py (record batch v2 per DefaultRecordBatch.java);
each expected figure follows from how it was built, with the Kafka source that says why.
"""

import json
import os
import sys

import kafka
import harness
from harness import check, eq, contains, absent, test, tmp, run


def batches(base, n, per=1, value=b'v'):
    """n batches of `per` records from offset `base`, values value+offset."""
    out = b''
    for i in range(n):
        off = base + i * per
        out += kafka.batch(off, [(None, value + b'%d' % (off + k)) for k in range(per)])
    return out


def total(objs):
    t = [o for o in objs if o['type'] == 'total']
    check(len(t) == 1, 'one total object: %s' % objs[-1:])
    return t[0]


# ---- inputs that fail ------------------------------------------------------------------------

@test
def all_inputs_fail_print_no_summary():
    # a broker's log4j file (server.log: not <20 digits>.log, its first bytes no batch header)
    path = tmp('server.log')
    with open(path, 'w') as f:
        f.write('[2026-01-01 00:00:00,000] INFO starting (kafka.server.KafkaServer)\n')
    for args in (['scan'], ['scan', '--json'], ['dups'], ['producers'], ['txns']):
        rc, out, err = run(args + [path])
        eq(rc, 2, 'exit of %s on server.log' % args)
        eq(out, '', 'stdout of %s on server.log' % args)
        contains(err, 'not a Kafka segment: %s' % path, 'the error names the file')
    # an empty directory; a missing path
    os.makedirs(tmp('empty'))
    for p in (tmp('empty'), tmp('no-such')):
        rc, out, err = run(['scan', p])
        eq((rc, out), (2, ''), 'scan of %s: exit 2 and nothing on stdout' % p)
        contains(err, p, 'the error names %s' % p)


@test
def segment_damaged_from_byte_0_stays_damage():
    # named like a segment: damage from byte 0 is damage (exit 3), not "not a segment": the
    # first batch's last byte (its value) flipped, so its CRC-32C (DefaultRecordBatch.isValid) fails
    data = bytearray(batches(0, 2))
    first = len(kafka.batch(0, [(None, b'v0')]))
    data[first - 1] ^= 0xff
    d = kafka.write_partition(tmp('dmg', 'orders-0'), {0: bytes(data)})
    rc, out, err = run(['scan', d])
    eq(rc, 3, 'a segment damaged from byte 0: exit 3 (%s)' % err)
    contains(out, 'orders-0', 'its summary is printed')
    absent(err, 'not a Kafka segment', 'not called "not a segment"')
    # a file under another name whose first bytes are a batch header is a segment (exit 0)
    with open(tmp('copy.bin'), 'wb') as f:
        f.write(batches(0, 2))
    rc, out, err = run(['scan', tmp('copy.bin')])
    eq(rc, 0, 'a segment under another name: exit 0 (%s)' % err)
    contains(out, '2 records', 'its records read')


@test
def some_inputs_fail_are_named():
    # a log directory of orders-0..2, and orders-9 a symbolic link to nowhere: the three are read,
    # orders-9 is named in the summary and the JSON, is a sibling not read, and the exit is 2
    ld = tmp('ld')
    for p in range(3):
        kafka.write_partition(os.path.join(ld, 'orders-%d' % p), {0: batches(0, 2, value=b'p%d-' % p)})
    os.symlink(tmp('gone'), os.path.join(ld, 'orders-9'))
    rc, out, err = run(['scan', '--color', 'never', ld])
    eq(rc, 2, 'exit with an unreadable input (%s)' % err)
    contains(out, 'total  3 partitions', 'the three read')
    contains(out, 'unreadable    1 input not read: %s (a symbolic link that cannot be followed: No such file or '
             'directory)' % os.path.join(ld, 'orders-9'), 'the summary names it')
    contains(err, os.path.join(ld, 'orders-9'), 'stderr names it')
    rc, out, err = run(['scan', '--json', ld])
    eq(rc, 2, 'exit --json')
    t = total(harness.parse_jsonl(out))
    eq(t['unreadable'], [{'path': os.path.join(ld, 'orders-9'),
                          'reason': 'a symbolic link that cannot be followed: No such file or directory'}],
       'JSON unreadable')
    eq(t['scope']['siblingsNotRead'], ['orders-9'], 'scope: the unreadable sibling was not read')
    # a PATH that fails beside one that is read: named too
    rc, out, err = run(['scan', '--json', os.path.join(ld, 'orders-0'), tmp('no-such')])
    eq(rc, 2, 'exit with one PATH missing')
    t = total(harness.parse_jsonl(out))
    eq([u['path'] for u in t['unreadable']], [tmp('no-such')], 'the missing PATH named')
    eq(t['unreadable'][0]['reason'], 'No such file or directory', 'its reason (strerror ENOENT)')


# ---- offsets that go backwards -----------------------------------------------------------------

def partition_obj(objs, name):
    ps = [o for o in objs if o['type'] == 'partition' and o['partition'] == name]
    check(len(ps) == 1, 'one partition object %s' % name)
    return ps[0]


@test
def segment_concatenated_with_itself():
    # Five batches of one record each, producer 7 epoch 0 sequences 0..4 (a v2 batch of one
    # record with a 2-byte value and no key is 61 + 9 = 70 bytes: DefaultRecordBatch's 61-byte
    # header, the record's length varint, attributes, timestamp and offset deltas, key -1,
    # value length, 2 bytes, 0 headers), the segment then concatenated with itself. The batch
    # at byte 350 has base offset 0, not above offset 4 read before it: offset-order damage
    # (Kafka refuses such an append: UnifiedLog's UnexpectedAppendOffsetException). The five
    # repeated records are not copies: no duplicate group, no repeated sequence (before: 5
    # dup-sequence copies), exit 3; 5 batches x 70 bytes skipped; recovery (LogLoader.recoverLog)
    # truncates the segment to its base offset 0.
    one = b''.join(kafka.batch(i, [(None, b'v%d' % i)], pid=7, epoch=0, base_seq=i) for i in range(5))
    eq(len(one), 350, 'five 70-byte batches')
    d = kafka.write_partition(tmp('rep', 'orders-0'), {0: one + one})
    rc, out, err = run(['scan', '--json', d])
    eq(rc, 3, 'exit: damage (%s)' % err)
    objs = harness.parse_jsonl(out)
    p = partition_obj(objs, 'orders-0')
    eq((p['records'], p['duplicateGroups'], p['duplicateSequences'], p['sessions']), (5, 0, 0, 1),
       'records, duplicate groups, repeated sequences, sessions')
    eq((p['repeatedRecords'], p['repeatedFirstOffset'], p['repeatedLastOffset'], p['recoveryKeepsBelow']),
       (5, 0, 4, 0), 'the repeated range and what recovery keeps')
    eq(p['damagedBytes'], 350, 'the repeated batches skipped')
    errs = [o for o in objs if o['type'] == 'error']
    eq([(e['kind'], e['position'], e['firstOffset'], e['lastOffset']) for e in errs],
       [('offset-order', 350, 0, 0)], 'one offset-order event, at the first repeated batch')
    contains(errs[0]['reason'], 'not above offset 4', 'both offsets said')
    rc, out, err = run(['scan', '--color', 'never', d])
    contains(out, 'offset order  5 batches at offsets 0..4 repeat offsets read before them (5 records: not copies, '
             'left out); Kafka\'s recovery would keep the offsets below 0', 'the summary line')


@test
def repeated_range_builds_no_transaction():
    # A transaction of producer 9 (data at 0..1, its COMMIT marker at 2), then the first batch
    # again (a copy taken while the file was appended to). The repeated data batch would open
    # a transaction with no marker (1 open, LSO 0); left out, the log holds 1 committed
    # transaction and no open one, so the LSO is the log end, 3 (ProducerStateManager
    # .lastStableOffset: the first unstable offset, or the high watermark / log end).
    data = kafka.batch(0, [(None, b'a'), (None, b'b')], pid=9, epoch=0, base_seq=0, transactional=True)
    seg = data + kafka.marker(2, 9, 0, True) + data
    d = kafka.write_partition(tmp('txn', 'pay-0'), {0: seg})
    rc, out, err = run(['scan', '--json', d])
    eq(rc, 3, 'exit: damage (%s)' % err)
    p = partition_obj(harness.parse_jsonl(out), 'pay-0')
    eq((p['committed'], p['open'], p['lastStableOffset']), (1, 0, 3), 'committed, open, LSO')
    eq((p['repeatedFirstOffset'], p['repeatedLastOffset'], p['repeatedRecords']), (0, 1, 2), 'the repeat')


# ---- damage is not compaction ----------------------------------------------------------------

@test
def damaged_batch_is_not_compaction():
    # A batch at offsets 0..2 (lastOffsetDelta 2) whose recordsCount is -1, its CRC valid (the
    # header was written so): Kafka's reader refuses it ("Found invalid record count", DefaultRecordBatch),
    # so its 3 records (its offsets' span) are lost; then a sound batch at 3. Nothing here is the
    # cleaner's (no checkpoint, no delete horizon, no batch holding fewer records than its
    # offsets that could be read): compacted is false, and the summary says no "(compacted log)".
    recs = b''.join(kafka.record(i, None, b'r%d' % i) for i in range(3))
    seg = kafka.batch_v2(0, recs, -1, last_delta=2) + kafka.batch(3, [(None, b'x')], pid=5, epoch=0, base_seq=0)
    d = kafka.write_partition(tmp('neg', 'orders-0'), {0: seg})
    rc, out, err = run(['scan', '--json', d])
    eq(rc, 3, 'exit: damage (%s)' % err)
    p = partition_obj(harness.parse_jsonl(out), 'orders-0')
    eq((p['compacted'], p['lostRecords'], p['records']), (False, 3, 1), 'compacted, lost, records')
    rc, out, err = run(['scan', '--color', 'never', d])
    absent(out, 'compacted', 'the summary calls the log compacted nowhere')


# ---- holes -------------------------------------------------------------------------------------

def one_record_batches(a, b):
    return b''.join(kafka.batch(i, [(None, b'v%d' % i)]) for i in range(a, b))


@test
def missing_middle_segment_is_a_hole():
    # Three segments of one-record batches, offsets 0..129, 130..246, 247..336; the middle one
    # deleted. Offsets 130..246 (117 of them, one record each: Kafka gives each record an offset
    # of its own) are in no segment, and nothing read is the cleaner's (no batch holding fewer
    # records than its offsets, no delete horizon, no cleaner-offset-checkpoint): a hole, lost
    # records unless the topic is compacted. Retention deletes only the oldest segments
    # (UnifiedLog.deleteOldSegments), so it is not retention either.
    d = kafka.write_partition(tmp('hole', 'orders-0'), {0: one_record_batches(0, 130), 130: b'',
                                                        247: one_record_batches(247, 337)})
    os.unlink(os.path.join(d, kafka.segment_name(130)))
    rc, out, err = run(['scan', '--json', d])
    eq(rc, 0, 'exit without --fail-on (%s)' % err)
    p = partition_obj(harness.parse_jsonl(out), 'orders-0')
    eq(p['holes'], [{'from': 130, 'to': 246, 'records': 117, 'between': 'segments'}], 'holes')
    eq(p['records'], 130 + 90, 'records read')
    rc, out, err = run(['scan', '--color', 'never', d])
    contains(out, '  holes         offsets 130..246 (117 records) between segments: 117 records missing, unless the '
             'topic is compacted (no evidence of the cleaner read)\n', 'the summary line')
    rc, out, err = run(['scan', '--fail-on', 'holes', d])
    eq(rc, 1, '--fail-on holes')
    rc, out, err = run(['scan', '--report', '-', d])
    contains(out, 'orders-0.holes=1\n', 'the report key')


@test
def hole_the_cleaner_explains():
    # Offsets 0..9, then a batch at 20..24 holding 2 records (offset deltas 0 and 4, lastOffsetDelta
    # 4): fewer records than its offsets, which only the cleaner writes (LogCleaner.cleanInto keeps
    # a batch's last offset while dropping records). With that evidence the hole 10..19 between
    # the batches is the cleaner's: no hole listed, the partition compacted.
    seg = one_record_batches(0, 10) + kafka.batch(20, [(b'k1', b'a'), (b'k2', b'b')], offset_deltas=[0, 4])
    d = kafka.write_partition(tmp('clean', 'items-0'), {0: seg})
    rc, out, err = run(['scan', '--json', '--fail-on', 'holes', d])
    eq(rc, 0, 'no hole to fail on (%s)' % err)
    p = partition_obj(harness.parse_jsonl(out), 'items-0')
    eq((p['holes'], p['compacted']), ([], True), 'holes, compacted')
    # the same hole with no cleaned batch: listed, between batches
    seg = one_record_batches(0, 10) + one_record_batches(20, 25)
    d = kafka.write_partition(tmp('clean', 'items-1'), {0: seg})
    rc, out, err = run(['scan', '--json', d])
    p = partition_obj(harness.parse_jsonl(out), 'items-1')
    eq((p['holes'], p['compacted']), ([{'from': 10, 'to': 19, 'records': 10, 'between': 'batches'}], False),
       'a hole with no evidence: listed, and no evidence of compaction')


# ---- nothing said 80 times ------------------------------------------------------------------------

@test
def identical_damage_capped_on_stderr():
    # 15 one-record batches (70 bytes each with a 2-byte value v0..v9, 71 with v10..v14), the last byte of each flipped: 15 CRC-32C mismatches
    # (DefaultRecordBatch.ensureValid), then a sound batch. stderr: the first 10, then one line
    # with the 5 others; --json: every one (15 error objects).
    seg = b''
    for i in range(15):
        b = bytearray(kafka.batch(i, [(None, b'v%d' % i)]))
        b[-1] ^= 0xff
        seg += bytes(b)
    seg += kafka.batch(15, [(None, b'ok')])
    d = kafka.write_partition(tmp('crc', 'orders-0'), {0: seg})
    rc, out, err = run(['scan', d])
    eq(rc, 3, 'exit: damage')
    lines = [l for l in err.splitlines() if '[crc-mismatch]' in l]
    eq(len(lines), 11, 'ten CRC lines and the count: %s' % err)
    contains(lines[-1], 'orders-0: 5 more [crc-mismatch] not shown', 'the count line')
    rc, out, err = run(['scan', '--json', d])
    errs = [o for o in harness.parse_jsonl(out) if o['type'] == 'error']
    want = [70 * i for i in range(11)] + [700 + 71 * i for i in range(1, 5)]
    eq([e['position'] for e in errs], want, 'JSON: every one, at its byte position')



@test
def odd_log_names_are_said():
    # Kafka reads a partition directory's segments by name only: "%020d.log" (LogFileUtils
    # .filenamePrefixFromOffset); a file 12.log beside them is not one, and is named in a note.
    # A directory holding only 12.log holds no segment: exit 2, and the note says why.
    seg = one_record_batches(0, 3)
    d = kafka.write_partition(tmp('odd', 'o-0'), {0: seg})
    with open(os.path.join(d, '12.log'), 'wb') as f:
        f.write(seg)
    rc, out, err = run(['scan', d])
    eq(rc, 0, 'exit (%s)' % err)
    contains(err, '%s: 1 .log file not read, not named as a segment (<20 digits>.log): 12.log' % d, 'the note')
    contains(out, '3 records', 'the segment read, 12.log not')
    os.makedirs(tmp('odd', 'p-0'))
    with open(tmp('odd', 'p-0', '12.log'), 'wb') as f:
        f.write(seg)
    rc, out, err = run(['scan', tmp('odd', 'p-0')])
    eq((rc, out), (2, ''), 'no segment: exit 2, no summary')
    contains(err, '1 .log file not read, not named as a segment (<20 digits>.log): 12.log', 'why')



@test
def transaction_spanning_a_hole_is_incomplete():
    # Producer 9's transaction: data at 0..1 (segment 0), no marker read; segment 2 (offsets
    # 2..4) deleted; segment 5 holds a non-transactional batch at 5. The marker may have been at
    # 2..4 (a hole, no evidence of the cleaner): the transaction is incomplete (UNKNOWN,
    # spansHole), not open: 0 open, none hanging, and it does not hold the LSO.
    data = kafka.batch(0, [(None, b'a'), (None, b'b')], pid=9, epoch=0, base_seq=0, transactional=True)
    d = kafka.write_partition(tmp('txh', 'pay-0'), {0: data, 5: kafka.batch(5, [(None, b'z')])})
    rc, out, err = run(['txns', '--json', d])
    eq(rc, 0, 'exit (%s)' % err)
    objs = harness.parse_jsonl(out)
    txns = [o for o in objs if o['type'] == 'transaction']
    eq([(t['firstOffset'], t['spansHole']) for t in txns], [(0, True)], 'the transaction spans a hole')
    p = partition_obj(objs, 'pay-0')
    eq((p['open'], p['hanging'], p['unknown']), (0, 0, 1), 'open, hanging, unknown')
    eq(p['holes'], [{'from': 2, 'to': 4, 'records': 3, 'between': 'segments'}], 'the hole')
    rc, out, err = run(['txns', '--color', 'never', d])
    contains(out, 'incomplete: spans a hole', 'the text says so')


@test
def session_spanning_a_hole_is_incomplete():
    # Producer 7 (idempotent, epoch 0): a batch at offsets 0..1 with sequences 0..1 (segment 0);
    # segment 2 (offsets 2..4) deleted; segment 5: producer 7 at offset 5 with sequence 5, then
    # producer 8's first batch at offset 6. A leader appends a producer's batch only at sequence
    # lastSeq + 1 (ProducerAppendInfo.checkSequence: OutOfOrderSequenceException otherwise), so
    # sequences 2..4 were appended and are gone with offsets 2..4: a hole no evidence of the
    # cleaner explains (a missing segment). Producer 7's session spans it: incomplete (batches of
    # it may have been there), not a whole session; producer 8's begins after it: whole.
    seg0 = kafka.batch(0, [(None, b'a'), (None, b'b')], pid=7, epoch=0, base_seq=0)
    seg5 = kafka.batch(5, [(None, b'c')], pid=7, epoch=0, base_seq=5) + \
        kafka.batch(6, [(None, b'd')], pid=8, epoch=0, base_seq=0)
    d = kafka.write_partition(tmp('sh', 'pay-0'), {0: seg0, 5: seg5})
    rc, out, err = run(['producers', '--json', d])
    eq(rc, 0, 'exit (%s)' % err)
    sess = [o for o in harness.parse_jsonl(out) if o['type'] == 'session']
    eq([(s['producerId'], s['spansHole']) for s in sess], [(7, True), (8, False)], 'the sessions spanning a hole')
    eq((sess[0]['sequenceGaps'], sess[0]['gapsExplainedBy']), ([[2, 4]], ['missing-segment']), 'its gap')
    rc, out, err = run(['producers', '--color', 'never', d])
    contains(out, 'pid 7 epoch 0: 3 records in 2 batches, offsets 0..5, sequences [0,1],[5,5]\n'
             '    incomplete: spans a hole', 'the text says so')
    eq(out.count('incomplete: spans a hole'), 1, 'producer 8 is not said incomplete')


@test
def hole_inside_a_segment_is_not_compaction():
    # One segment: producer 7's batch at offsets 0..1 (sequences 0..1), then its batch at offset
    # 5 with sequence 5. Kafka appends each batch at the log end offset (UnifiedLog.append assigns
    # offsets from it), so offsets 2..4 and sequences 2..4 (ProducerAppendInfo.checkSequence) were
    # appended and are gone. The cleaner can drop whole batches (LogCleaner.cleanInto), and so can
    # records be lost: nothing read is the cleaner's (no batch holding fewer records than its
    # offsets, no delete horizon, no cleaner-offset-checkpoint), so the log is not compacted, the
    # hole is listed, and the sequence gap over it is not compaction's: unexplained (hole).
    seg = kafka.batch(0, [(None, b'a'), (None, b'b')], pid=7, epoch=0, base_seq=0) + \
        kafka.batch(5, [(None, b'c')], pid=7, epoch=0, base_seq=5)
    d = kafka.write_partition(tmp('hs', 'pay-0'), {0: seg})
    rc, out, err = run(['producers', '--json', d])
    eq(rc, 0, 'exit (%s)' % err)
    objs = harness.parse_jsonl(out)
    sess = [o for o in objs if o['type'] == 'session']
    eq([(s['sequenceGaps'], s['gapsExplainedBy'], s['unexplainedGaps']) for s in sess], [([[2, 4]], ['hole'], 1)],
       'the gap over the hole')
    t = total(objs)
    eq((t['sequenceGaps'], t['sequenceGapsExplained']), (1, 0), 'the totals')
    rc, out, err = run(['scan', '--json', d])
    p = partition_obj(harness.parse_jsonl(out), 'pay-0')
    eq((p['compacted'], p['holes']), (False, [{'from': 2, 'to': 4, 'records': 3, 'between': 'batches'}]),
       'compacted, holes')
    rc, out, err = run(['scan', '--color', 'never', d])
    absent(out, '(compacted log)', 'the summary does not call it compacted')
    # the same, and a batch the cleaner rewrote after it: offsets 6..9 holding 2 records (offset
    # deltas 0 and 3): LogCleaner.cleanInto keeps a batch's last offset while dropping records,
    # which nothing else writes. With that evidence the hole is the cleaner's: the gap is
    # consistent with compaction, the log compacted, no hole listed.
    seg += kafka.batch(6, [(b'k1', b'x'), (b'k2', b'y')], offset_deltas=[0, 3])
    d = kafka.write_partition(tmp('hs', 'pay-1'), {0: seg})
    rc, out, err = run(['producers', '--json', d])
    sess = [o for o in harness.parse_jsonl(out) if o['type'] == 'session']
    eq([(s['gapsExplainedBy'], s['unexplainedGaps'], s['spansHole']) for s in sess], [(['compaction'], 0, False)],
       'with evidence: compaction')
    rc, out, err = run(['scan', '--json', d])
    p = partition_obj(harness.parse_jsonl(out), 'pay-1')
    eq((p['compacted'], p['holes']), (True, []), 'with evidence: compacted, no hole')


def config_record(topic, key, value):
    """A __cluster_metadata ConfigRecord (ConfigRecord.json: apiKey 4, version 0, flexible):
    ResourceType int8 (2: ConfigResource.Type.TOPIC), ResourceName, Name, Value (nullable) as
    compact strings, then the tagged fields (count 0), framed by MetadataRecordSerde."""
    return kafka.metadata_frame(4, 0, kafka.i8(2) + kafka.cstring(topic) + kafka.cstring(key) +
                                kafka.cstring(value) + kafka.NO_TAGS)


def topic_record(topic, uuid):
    """TopicRecord.json (apiKey 2, version 0, flexible): Name, TopicId (16 bytes)."""
    return kafka.metadata_frame(2, 0, kafka.cstring(topic) + uuid + kafka.NO_TAGS)


def remove_topic_record(uuid):
    """RemoveTopicRecord.json (apiKey 9, version 0, flexible): TopicId."""
    return kafka.metadata_frame(9, 0, uuid + kafka.NO_TAGS)


@test
def compact_policy_in_cluster_metadata_explains_holes():
    # A log directory: orders-0 with its middle segment (offsets 2..4) gone, and the metadata log
    # __cluster_metadata-0 beside it (KRaft keeps it in the first log directory unless
    # metadata.log.dir says otherwise). Its records: TopicRecord orders, then a ConfigRecord
    # setting the topic's cleanup.policy (ConfigurationControlManager.incrementalAlterConfigs).
    # "compact" lets the cleaner run on the topic (LogCleanerManager picks the logs whose
    # config.compact is set), and the cleaner can drop whole batches leaving nothing else
    # (LogCleaner.cleanInto): the hole is consistent with it, not listed. "delete": no evidence,
    # the hole listed, the policy said. Compact, then the topic deleted (RemoveTopicRecord: its
    # configs go, ConfigurationControlManager.deleteTopicConfigs) and created again: no evidence.
    uuid = bytes(range(1, 17))
    cases = {
        'compact': ([topic_record('orders', uuid), config_record('orders', 'cleanup.policy', 'compact')], [], 'compact'),
        'compact-delete': ([topic_record('orders', uuid),
                            config_record('orders', 'cleanup.policy', 'compact,delete')], [], 'compact,delete'),
        'delete': ([topic_record('orders', uuid), config_record('orders', 'cleanup.policy', 'delete')],
                   [{'from': 2, 'to': 4, 'records': 3, 'between': 'segments'}], 'delete'),
        'removed': ([topic_record('orders', uuid), config_record('orders', 'cleanup.policy', 'compact'),
                     remove_topic_record(uuid), topic_record('orders', bytes(range(2, 18)))],
                    [{'from': 2, 'to': 4, 'records': 3, 'between': 'segments'}], None),
        'other-topic': ([config_record('items', 'cleanup.policy', 'compact')],
                        [{'from': 2, 'to': 4, 'records': 3, 'between': 'segments'}], None),
    }
    for name, (records, holes, policy) in cases.items():
        ld = tmp('pol', name)
        d = kafka.write_partition(os.path.join(ld, 'orders-0'),
                                  {0: one_record_batches(0, 2), 5: one_record_batches(5, 7)})
        md = b''.join(kafka.batch(i, [(None, r)]) for i, r in enumerate(records))
        kafka.write_partition(os.path.join(ld, '__cluster_metadata-0'), {0: md})
        rc, out, err = run(['scan', '--json', d])
        eq(rc, 0, '%s: exit (%s)' % (name, err))
        p = partition_obj(harness.parse_jsonl(out), 'orders-0')
        eq((p['holes'], p['cleanupPolicy']), (holes, policy), '%s: holes and the policy beside' % name)
    # the metadata partition among the inputs: read there too (the log directory given)
    rc, out, err = run(['scan', '--json', tmp('pol', 'compact')])
    p = partition_obj(harness.parse_jsonl(out), 'orders-0')
    eq((p['holes'], p['cleanupPolicy']), ([], 'compact'), 'the metadata partition among the inputs')
    rc, out, err = run(['scan', '--color', 'never', os.path.join(tmp('pol', 'delete'), 'orders-0')])
    contains(out, '3 records missing (no evidence of the cleaner read; cleanup.policy "delete" in the '
             '__cluster_metadata read)', 'the text says the policy read')


@test
def txns_and_producers_take_no_fingerprints():
    # 3,000 distinct values: with --max-memory 64K the fingerprint tables of the default scan spill
    # (its note on stderr). txns and producers print no duplicate figure as text: they take no
    # fingerprint, so nothing spills and no note is said; with --json (which has the duplicate
    # figures) they take them as the scan does.
    seg = b''.join(kafka.batch(i * 100, [(None, b'value-%d' % (i * 100 + k)) for k in range(100)], pid=3, epoch=0,
                               base_seq=i * 100) for i in range(30))
    d = kafka.write_partition(tmp('nofp', 'orders-0'), {0: seg})
    note = 'the fingerprint tables reached --max-memory'
    rc, out, err = run(['scan', '--max-memory', '64K', d])
    contains(err, note, 'the scan spills')
    for cmd in ('txns', 'producers'):
        rc, out, err = run([cmd, '--max-memory', '64K', d])
        eq(rc, 0, '%s: exit (%s)' % (cmd, err))
        absent(err, note, '%s: no fingerprint taken' % cmd)
        rc, out, err = run([cmd, '--json', '--max-memory', '64K', d])
        contains(err, note, '%s --json: fingerprints taken' % cmd)
    rc, out, err = run(['producers', d])
    contains(out, 'pid 3 epoch 0: 3000 records in 30 batches, offsets 0..2999, sequences [0,2999]', 'the session')


@test
def symlink_loop_and_second_link_are_said():
    # A log directory: orders-0 (a partition), alias -> orders-0 (a second name for it), self -> .
    # (a loop), and sub/up -> .. (a loop two levels down). orders-0 is read once, under its own
    # path; the alias is named as a link to a directory already read; each loop is named once, not
    # followed (no path repeating self/self/...).
    ld = tmp('links')
    kafka.write_partition(os.path.join(ld, 'orders-0'), {0: one_record_batches(0, 3)})
    os.symlink('orders-0', os.path.join(ld, 'alias'))
    os.symlink('.', os.path.join(ld, 'self'))
    os.makedirs(os.path.join(ld, 'sub'))
    os.symlink('..', os.path.join(ld, 'sub', 'up'))
    rc, out, err = run(['scan', '--json', ld])
    eq(rc, 0, 'exit (%s)' % err)
    parts = [o for o in harness.parse_jsonl(out) if o['type'] == 'partition']
    eq([(p['partition'], p['path'], p['records']) for p in parts], [('orders-0', os.path.join(ld, 'orders-0'), 3)],
       'one partition, under its own path')
    real = os.path.realpath(ld)
    contains(err, '%s: a symbolic link to %s, a directory already read: not read again'
             % (os.path.join(ld, 'alias'), os.path.join(real, 'orders-0')), 'the second link')
    contains(err, '%s: a symbolic link loop (it leads back to %s, a directory above it): not followed'
             % (os.path.join(ld, 'self'), real), 'the loop')
    contains(err, '%s: a symbolic link loop (it leads back to %s, a directory above it): not followed'
             % (os.path.join(ld, 'sub', 'up'), real), 'the loop below')
    eq(err.count('symbolic link loop'), 2, 'each loop once')
    absent(err, 'self/self', 'no looped path')



@test
def batch_at_the_last_offset_is_read():
    # Offsets up to Long.MAX_VALUE are legal in a file (a batch's base offset is any long): a batch
    # at base offset 2^63-1 with one record (lastOffsetDelta 0) is a record like any other, in one
    # copy and when two replicas hold the partition. 3 batches of one record each: 3 records.
    top = (1 << 63) - 1
    data = b''.join(kafka.batch(o, [(None, b'v%d' % o)]) for o in (top - 2, top - 1, top))
    dirs = []
    for b in ('b1', 'b2'):
        d = tmp(os.path.join('top', b))
        kafka.write_partition(os.path.join(d, 't-0'), {top - 2: data})
        dirs.append(d)
    for args in (dirs[:1], dirs):
        rc, out, err = run(['scan', '--json'] + args)
        eq(rc, 0, 'exit of scan %s (%s)' % (args, err))
        t = total(harness.parse_jsonl(out))
        eq((t['records'], t['batches']), (3, 3), 'records and batches of %s' % args)
    rc, out, err = run(['verify'] + dirs[:1])
    eq(rc, 0, 'verify: no finding (%s%s)' % (out, err))
    # the renderers' arithmetic at the top of the offsets (the ASan+UBSan stage runs this test:
    # an overflow there stops it): the HTML chart's axes, the report
    for extra in (['--html', tmp('top.html')], ['--report', tmp('top.txt')]):
        rc, out, err = run(['scan'] + extra + dirs)
        eq(rc, 0, 'scan %s (%s)' % (extra[0], err))


@test
def group_lag_at_the_ends_of_long():
    # Committed offsets and commit timestamps are longs a damaged or crafted __consumer_offsets
    # can hold at either end. t-0 holds records at 2^63-4 and 2^63-3 (log end 2^63-2); group g
    # commits 2^63-4: lag 2 = (2^63-2) - (2^63-4), Burrow's lag (caching.go: log end - offset).
    # Group h commits -5 on u-0 (log end 3) and Long.MIN_VALUE on t-0: a negative offset is no
    # position (OffsetAndMetadata refuses one), so no lag is measured from it, however far it lies.
    top, bottom = (1 << 63) - 1, -(1 << 63)
    ld = tmp('lagends')
    kafka.write_partition(os.path.join(ld, 't-0'),
                          {top - 3: b''.join(kafka.batch(o, [(None, b'v%d' % o)]) for o in (top - 3, top - 2))})
    kafka.write_partition(os.path.join(ld, 'u-0'), {0: batches(0, 3)})
    t0 = 1700000000000
    # g commits the same offset again at commit timestamps Long.MAX_VALUE and MIN_VALUE (Burrow's
    # rule 3 takes differences of the window's times): the one at MAX_VALUE is after "now" (the
    # newest timestamp read), so the offset standing then is still 2^63-4
    co = kafka.batch(0, [kafka.offset_commit('g', 't', 0, top - 3, t0),
                         kafka.offset_commit('g', 't', 0, top - 3, top),
                         kafka.offset_commit('g', 't', 0, top - 3, bottom),
                         kafka.offset_commit('h', 'u', 0, -5, t0 + 1),
                         kafka.offset_commit('h', 't', 0, bottom, bottom)])
    kafka.write_partition(os.path.join(ld, '__consumer_offsets-0'), {0: co})
    rc, out, err = run(['groups', '--json', ld])
    eq(rc, 0, 'exit (%s)' % err)
    lags = {(o['group'], o['topic']): o for o in harness.parse_jsonl(out) if o['type'] == 'group-lag'}
    eq((lags[('g', 't')]['lag'], lags[('g', 't')]['logEnd']), (2, top - 1), 'g on t-0: lag 2 at the top')
    for k in (('h', 'u'), ('h', 't')):
        eq((lags[k]['lag'], lags[k]['lagKnown']), (None, 'no-committed-offset'), 'lag of %s: none' % (k,))
    status = {o['group']: o for o in harness.parse_jsonl(out) if o['type'] == 'group-status'}
    eq(status['g']['totalLag'], 2, 'total lag of g')
    for args in (['groups'], ['scan', '--html', tmp('lagends.html')], ['scan', '--report', tmp('lagends.txt')]):
        rc, out, err = run(args + [ld])
        eq(rc, 0, '%s (%s)' % (args, err))

if __name__ == '__main__':
    sys.exit(harness.main(__doc__))
