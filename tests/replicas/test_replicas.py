#!/usr/bin/env python3
"""Replicas once: a partition given from several brokers' directories is one partition.

Usage: test_replicas.py SEGSCAN TESTDATA [-k SUBSTRING]

The data: testdata/groups-worked (orders-0, enriched-0, __consumer_offsets-18; the story in
tests/groups/make_worked.py) and a topic pay of two partitions built here, first whole in one
log directory (the truth), then split over three brokers with replication factor 2:

    b1 (meta.properties node.id 1): orders-0 (two segments: 0, 40), enriched-0 (leader), pay-0
    b2 (meta.properties node.id 2): orders-0 cut short (60 of 80 offsets), __consumer_offsets-18,
                                    pay-1
    b3 (no meta.properties):        enriched-0 (diverged), __consumer_offsets-18, pay-0,
                                    pay-1 without its first segment (retention)

enriched-0: the leader (b1) moved to leader epoch 1 at offset 60 (partitionLeaderEpoch 1 in its
batches from 60 on, leader-epoch-checkpoint "0 0" and "1 60"); b3 stayed in epoch 0 and holds a
batch at 60..69 of epoch 0 the leader never had (10 records, values enriched-order-0..9, which
would be 10 more duplicate groups if they were read). A follower asks the leader where its last
epoch (0) ends (LeaderEpochFileCache.endOffsetFor: 60, where epoch 1 starts) and truncates there
(AbstractFetcherThread.getOffsetTruncationState): "diverges at offset 60: leader epochs 1 and 0".

The figures, derived by hand:
- enriched-0 holds orders 40..49 twice (make_worked.py: offsets 40..49 by pid 7001, 50..59 by
  pid 7002): 10 groups of 2 copies, cause new-session.
- pay-0 holds pay-0..pay-4 (pid 9001), pay-1 holds pay-10, pay-11 (pid 9002, offsets 0, 1) and
  pay-2, pay-13 (pid 9002, offsets 2, 3): pay-2 is in pay-0 at offset 2 and in pay-1 at offset 2,
  one group of 2 copies whose copies lie on different brokers (b1's pay-0, b2's pay-1).
- so 11 groups, 11 extra copies; records: orders 80, enriched 90, pay 5 + 4 = 179 data records.
The split must give exactly the groups (fingerprints, copies, partitions and offsets) and figures
of the unsplit data; the build before this change counted every group once per replica.
"""

import json
import os
import shutil
import struct

import kafka
import harness
from harness import check, eq, contains, test, tmp, run

ENRICHED_EPOCH1_AT = 60


def batches_of(data):
    """The v2 batches of a segment's bytes: (base offset, bytes)."""
    out, pos = [], 0
    while pos + 12 <= len(data):
        base, length = struct.unpack('>qi', data[pos:pos + 12])
        out.append((base, data[pos:pos + 12 + length]))
        pos += 12 + length
    return out


def with_epoch(b, epoch):
    """partitionLeaderEpoch (bytes 12..15) is outside the CRC (DefaultRecordBatch: the CRC covers
    attributes to the end), as a leader sets it on append without recomputing anything."""
    return b[:12] + struct.pack('>i', epoch) + b[16:]


def seg_file(path):
    return open(os.path.join(path, kafka.segment_name(0)), 'rb').read()


def write_epochs(path, entries):
    """leader-epoch-checkpoint: version 0, count, then 'epoch startOffset' lines (LeaderEpochCheckpointFile)."""
    with open(os.path.join(path, 'leader-epoch-checkpoint'), 'w') as f:
        f.write('0\n%d\n' % len(entries) + ''.join('%d %d\n' % e for e in entries))


def meta(broker_dir, node):
    with open(os.path.join(broker_dir, 'meta.properties'), 'w') as f:
        f.write('version=1\ncluster.id=3Db5QLSqSZieL3rJBUUegA\nnode.id=%d\n' % node)


def build(root):
    """The truth (root/one) and the three brokers (root/b1..b3)."""
    src = os.path.join(harness.TESTDATA, 'groups-worked')
    one = os.path.join(root, 'one')
    orders = batches_of(seg_file(os.path.join(src, 'orders-0')))
    enriched = [(o, with_epoch(b, 1) if o >= ENRICHED_EPOCH1_AT else b)
                for o, b in batches_of(seg_file(os.path.join(src, 'enriched-0')))]
    eq((len(orders), len(enriched)), (8, 9), 'groups-worked: 8 batches of orders, 9 of enriched')
    pay0 = kafka.batch(0, [(None, b'pay-%d' % i) for i in range(5)], pid=9001, epoch=0, base_seq=0)
    pay1a = kafka.batch(0, [(None, b'pay-10'), (None, b'pay-11')], pid=9002, epoch=0, base_seq=0)
    pay1b = kafka.batch(2, [(None, b'pay-2'), (None, b'pay-13')], pid=9002, epoch=0, base_seq=2)
    cat = lambda bs: b''.join(b for _, b in bs)
    # the truth: every partition once
    kafka.write_partition(os.path.join(one, 'orders-0'), {0: cat(orders)})
    kafka.write_partition(os.path.join(one, 'enriched-0'), {0: cat(enriched)})
    kafka.write_partition(os.path.join(one, 'pay-0'), {0: pay0})
    kafka.write_partition(os.path.join(one, 'pay-1'), {0: pay1a, 2: pay1b})
    shutil.copytree(os.path.join(src, '__consumer_offsets-18'), os.path.join(one, '__consumer_offsets-18'))
    # the high watermarks of the cluster (the highest a replica's checkpoint says: b1's, below)
    kafka.write_checkpoint(os.path.join(one, 'replication-offset-checkpoint'),
                           [('orders', 0, 80), ('enriched', 0, 80), ('pay', 0, 5)])
    b1, b2, b3 = (os.path.join(root, b) for b in ('b1', 'b2', 'b3'))
    # b1: orders-0 in two segments (boundaries are each broker's: LogSegment rolls on its own)
    kafka.write_partition(os.path.join(b1, 'orders-0'), {0: cat(orders[:4]), 40: cat(orders[4:])})
    kafka.write_partition(os.path.join(b1, 'enriched-0'), {0: cat(enriched)})
    write_epochs(os.path.join(b1, 'enriched-0'), [(0, 0), (1, ENRICHED_EPOCH1_AT)])
    kafka.write_partition(os.path.join(b1, 'pay-0'), {0: pay0})
    meta(b1, 1)
    # b1's high watermarks: enriched-0 at 80, so 80..89 may be uncommitted
    kafka.write_checkpoint(os.path.join(b1, 'replication-offset-checkpoint'),
                           [('orders', 0, 80), ('enriched', 0, 80), ('pay', 0, 5)])
    # b2: orders-0 cut short: 6 of 8 batches (offsets 0..59)
    kafka.write_partition(os.path.join(b2, 'orders-0'), {0: cat(orders[:6])})
    shutil.copytree(os.path.join(src, '__consumer_offsets-18'), os.path.join(b2, '__consumer_offsets-18'))
    kafka.write_partition(os.path.join(b2, 'pay-1'), {0: pay1a, 2: pay1b})
    meta(b2, 2)
    # b3: no meta.properties; enriched-0 diverged after the epoch change
    lost = kafka.batch(ENRICHED_EPOCH1_AT, [(b'o-%d' % i, b'enriched-order-%d' % i) for i in range(10)],
                       pid=7002, epoch=0, base_seq=20, leader_epoch=0)
    kafka.write_partition(os.path.join(b3, 'enriched-0'),
                          {0: cat([e for e in enriched if e[0] < ENRICHED_EPOCH1_AT]) + lost})
    write_epochs(os.path.join(b3, 'enriched-0'), [(0, 0)])
    shutil.copytree(os.path.join(src, '__consumer_offsets-18'), os.path.join(b3, '__consumer_offsets-18'))
    kafka.write_partition(os.path.join(b3, 'pay-0'), {0: pay0})
    kafka.write_partition(os.path.join(b3, 'pay-1'), {2: pay1b})  # its first segment deleted (retention)
    return one, b1, b2, b3


def jl(out):
    return [json.loads(line) for line in out.splitlines()]


def groups(objs):
    """Each group: its topic, fingerprint, copies, and its occurrences by partition and offset."""
    return sorted((o['topic'], o['fingerprint'], o['copies'],
                   tuple(sorted((c['partition'], c['offset'], c['cause'] or '') for c in o['occurrences'])))
                  for o in objs if o['type'] == 'group')


def total(objs):
    (t,) = [o for o in objs if o['type'] == 'total']
    return t


@test
def dups_of_the_split_are_those_of_the_data_once():
    one, b1, b2, b3 = build(tmp('x'))
    rc, out, err = run(['dups', '--json', one])
    eq(rc, 0, 'dups of the unsplit data: %s' % err)
    want = jl(out)
    # the hand-derived figures of the unsplit data (the docstring)
    wt = total(want)
    eq((wt['duplicateGroups'], wt['duplicateRecords']), (11, 11), 'unsplit: 11 groups, 11 extra copies')
    g = groups(want)
    eq(sum(1 for x in g if x[0] == 'enriched'), 10, 'unsplit: 10 groups in enriched')
    (pay,) = [x for x in g if x[0] == 'pay']
    eq([(p, o) for p, o, _ in pay[3]], [('pay-0', 2), ('pay-1', 2)], 'unsplit: pay-2 in pay-0 and pay-1 at 2')
    rc, out, err = run(['dups', '--json', b1, b2, b3])
    eq(rc, 0, 'dups of the split: %s' % err)
    got = jl(out)
    eq(groups(got), g, 'the split: the groups of the data once')
    gt = total(got)
    for k in ('duplicateGroups', 'duplicateRecords', 'records', 'batches', 'partitions', 'sessions', 'causes'):
        eq(gt[k], wt[k], 'the split: total %s' % k)


@test
def scan_notes_and_scope():
    one, b1, b2, b3 = build(tmp('x'))
    rc, out, err = run(['scan', b1, b2, b3])
    eq(rc, 0, 'scan of the split: %s' % err)
    contains(err, 'orders-0: the replica from b2/orders-0 (broker 2) ends 20 records earlier: at offset 60, '
             'the leader b1/orders-0 (broker 1) at 80', 'a replica cut short')
    contains(err, 'enriched-0: the replica from b3/enriched-0 (broker unknown: no meta.properties) diverges at '
             'offset 60: leader epochs 1 and 0', 'a replica diverged after an epoch change')
    contains(err, '1 batch, 10 records at 60..69', 'the diverged suffix: one batch of 10 records')
    contains(err, 'enriched-0: offsets 80..89 lie above the high watermark 80', 'above the high watermark')
    for legit in ('pay-1: the replica', 'pay-0: the replica', '__consumer_offsets-18: the replica'):
        check(legit not in err, 'no difference reported for %s (a later log start is retention): %s' % (legit, err))
    rc, out, err = run(['scan', '--json', b1, b2, b3])
    objs = jl(out)
    parts = {o['partition']: o for o in objs if o['type'] == 'partition'}
    eq(sorted(parts), ['__consumer_offsets-18', 'enriched-0', 'orders-0', 'pay-0', 'pay-1'],
       'one partition object each, under its directory name')
    eq((parts['enriched-0']['records'], parts['enriched-0']['nextOffset']), (90, 90), 'enriched-0: the leader\'s 90')
    eq((parts['orders-0']['records'], parts['orders-0']['segments']), (80, 2), 'orders-0: 80 records, b1\'s 2 segments')
    eq((parts['pay-1']['records'], parts['pay-1']['firstOffset']), (4, 0), 'pay-1: from 0 (b2), not 2 (b3)')
    reps = {r['name']: r for r in parts['enriched-0']['replicas']}
    eq(sorted(reps), ['b1/enriched-0', 'b3/enriched-0'], 'enriched-0: its replicas')
    eq((reps['b1/enriched-0']['broker'], reps['b1/enriched-0']['leader']), (1, True), 'b1: broker 1, leader')
    eq((reps['b3/enriched-0']['broker'], reps['b3/enriched-0']['divergedAt'],
        reps['b3/enriched-0']['divergedEpoch'], reps['b3/enriched-0']['leaderEpoch']), (None, 60, 0, 1),
       'b3: no broker id, diverged at 60 in epoch 0 where the leader has 1')
    o = {r['name']: r for r in parts['orders-0']['replicas']}
    eq((o['b2/orders-0']['behind'], o['b2/orders-0']['logEnd']), (20, 60), 'b2/orders-0: 20 behind, ends at 60')
    eq(parts['orders-0']['replicas'] and parts['pay-0']['replicas'] and True, True, 'replicas listed')
    check(parts['pay-1']['replicas'][1]['logStart'] == 2, 'b3/pay-1 starts at 2 (retention)')
    scope = total(objs)['scope']
    eq(sorted(scope['partitionsRead']), sorted(parts), 'the scope: each partition once')
    eq(sorted((r['partition'], r['name'], r['broker']) for r in scope['replicas'] if r['partition'] == 'orders-0'),
       [('orders-0', 'b1/orders-0', 1), ('orders-0', 'b2/orders-0', 2)], 'the scope names each copy and its broker')
    r = harness.report(['scan', b1, b2, b3])
    eq((r['orders-0.replicas'], r['orders-0.replica.1.path'], r['orders-0.replica.1.broker'],
        r['orders-0.replica.2.broker'], r['orders-0.replica.2.behind']),
       ('2', os.path.join(b1, 'orders-0'), '1', '2', '20'), 'the report names the copies')
    eq((r['enriched-0.replica.2.broker'], r['enriched-0.replica.2.diverged_at']), ('unknown', '60'),
       'the report: b3 without meta.properties, diverged at 60')
    rc, out, err = run(['explain', '--value', 'pay-3', b1, b2, b3])
    contains(out, 'pay-0 read as one from 2 replicas (%s, broker 1; %s, broker unknown)'
             % (os.path.join(b1, 'pay-0'), os.path.join(b3, 'pay-0')), 'the text scope names the copies')


@test
def groups_text_names_the_data_partitions_copies():
    # the lag of orders-0 is read from one copy: the text says which copies there were, from which
    # broker, and what was read, as scan's replicas line does (build(): b1 node.id 1 holds all 80
    # offsets of orders-0, b2 node.id 2 the first 6 batches of 10 (0..59); enriched-0's b3 copy
    # (no meta.properties) left epoch 0 where the leader b1 began epoch 1, at offset 60)
    one, b1, b2, b3 = build(tmp('g'))
    rc, out, err = run(['groups', b1, b2, b3])
    eq(rc, 0, 'groups of the split: %s' % err)
    lines = {l.split('  ')[0]: l for l in out.splitlines() if 'copies (replicas), read as one partition' in l}
    eq(sorted(lines), ['enriched-0', 'orders-0', 'pay-0', 'pay-1'], 'groups: the data partitions with copies')
    check('b1/orders-0 (broker 1, leader): 0..79 read; b2/orders-0 (broker 2): compared only, ends at 60, '
          '20 offsets before the leader' in lines.get('orders-0', ''), 'groups: orders-0\'s copies: %r'
          % lines.get('orders-0'))
    check('b3/enriched-0 (broker unknown): compared only, diverges at 60 (leader epochs 1 and 0)'
          in lines.get('enriched-0', ''), 'groups: enriched-0\'s diverged copy: %r' % lines.get('enriched-0'))
    # the same in JSON: a data-partition object with scan's replicas array
    rc, out, err = run(['groups', '--json', b1, b2, b3])
    eq(rc, 0, 'groups --json of the split: %s' % err)
    dp = {o['partition']: o for o in jl(out) if o['type'] == 'data-partition'}
    eq(sorted(dp), ['enriched-0', 'orders-0', 'pay-0', 'pay-1'], 'groups --json: the data partitions with copies')
    o = {r['name']: r for r in dp['orders-0']['replicas']}
    eq((o['b1/orders-0']['broker'], o['b1/orders-0']['leader'], o['b1/orders-0']['readFrom'],
        o['b1/orders-0']['readTo']), (1, True, 0, 80), 'groups --json: b1/orders-0 leader, 0..79 read')
    eq((o['b2/orders-0']['broker'], o['b2/orders-0']['readFrom'], o['b2/orders-0']['behind'],
        o['b2/orders-0']['logEnd']), (2, None, 20, 60), 'groups --json: b2/orders-0 compared only, 20 behind')
    e = {r['name']: r for r in dp['enriched-0']['replicas']}
    eq((e['b3/enriched-0']['broker'], e['b3/enriched-0']['divergedAt'], e['b3/enriched-0']['divergedEpoch'],
        e['b3/enriched-0']['leaderEpoch']), (None, 60, 0, 1), 'groups --json: b3/enriched-0 diverged at 60')
    rc, out, err = run(['groups', one])
    check(rc == 0 and 'copies (replicas)' not in out, 'groups of the data once: no copies named')
    rc, out, err = run(['groups', '--json', one])
    check(rc == 0 and '"data-partition"' not in out, 'groups --json of the data once: no data-partition')
    # the pages of groups and scan: the same words above the partition's chart
    for cmd in ('groups', 'scan'):
        page = tmp('g', cmd + '.html')
        rc, out, err = run([cmd, '--html', page, b1, b2, b3])
        eq(rc, 0, '%s --html of the split: %s' % (cmd, err))
        with open(page) as f:
            html = f.read()
        check('<p class="replicas">2 copies (replicas), read as one partition: b1/orders-0 (broker 1, leader): '
              '0..79 read; b2/orders-0 (broker 2): compared only, ends at 60, 20 offsets before the leader</p>'
              in html, '%s --html: orders-0\'s copies' % cmd)


@test
def same_directory_twice_is_one_input():
    one, b1, b2, b3 = build(tmp('x'))
    os.symlink(b1, tmp('b1link'))
    rc, out, err = run(['dups', '--json', b1, tmp('b1link'), b1 + '/', b2, b3])
    eq(rc, 0, 'dups: %s' % err)
    eq(total(jl(out))['duplicateGroups'], 11, 'b1 given three times (a symlink among them): one input')
    check('b1link' not in err, 'no replica named after the symlink: %s' % err)


@test
def every_command_reads_replicas_once():
    one, b1, b2, b3 = build(tmp('x'))
    # explain: offset 55 of enriched-0 (order 45 written again by pid 7002) and the value
    # pay-2 (in pay-0 and pay-1)
    for cmd in (['producers', '--json'], ['txns', '--json'], ['explain', '--json', '--offset', 'enriched-0:55'],
                ['explain', '--json', '--value', 'pay-2']):
        rc, out_one, _ = run(cmd + [one])
        rc2, out_split, err = run(cmd + [b1, b2, b3])
        eq((rc2, rc), (0, 0), '%s: exit' % ' '.join(cmd))
        check(out_one.strip(), '%s: an answer' % ' '.join(cmd))
        # b1's orders-0 is two segments (the data once: one): a segment boundary is each broker's
        strip = lambda out: [{k: v for k, v in o.items() if k not in ('path', 'replicas', 'scope', 'segments')}
                             for o in jl(out) if o['type'] != 'partition']
        eq(strip(out_split), strip(out_one), '%s: the split says what the data once says' % cmd[0])
    rc, out_one, _ = run(['groups', '--json', one])
    rc2, out_split, err = run(['groups', '--json', b1, b2, b3])
    eq((rc2, out_split.count('"type":"finding"')), (rc, out_one.count('"type":"finding"')),
       'groups: the findings of the data once')


@test
def damage_in_a_copy_not_read_is_reported():
    # b3's __consumer_offsets-18 with its last batch's last byte flipped: its CRC-32C
    # (DefaultRecordBatch.isValid) fails; the 8 batches before it are b2's, so it is a replica
    # that ends one record earlier (offset 8), and its damage is reported though nothing of it is read
    one, b1, b2, b3 = build(tmp('x'))
    f = os.path.join(b3, '__consumer_offsets-18', kafka.segment_name(0))
    data = bytearray(open(f, 'rb').read())
    eq(len(batches_of(bytes(data))), 9, '__consumer_offsets-18: 9 batches')
    data[-1] ^= 0xFF
    open(f, 'wb').write(bytes(data))
    rc, out, err = run(['scan', '--json', b1, b2, b3])
    eq(rc, 3, 'exit 3: damage on the disks read')
    contains(err, '__consumer_offsets-18: the replica from b3/__consumer_offsets-18: %s: 1 damaged entry' % f,
             'the damage of a copy not read')
    contains(err, 'b3/__consumer_offsets-18 (broker unknown: no meta.properties) ends 1 record earlier: at offset 8',
             'the damaged copy ends one record earlier')
    parts = {o['partition']: o for o in jl(out) if o['type'] == 'partition'}
    reps = {r['name']: r for r in parts['__consumer_offsets-18']['replicas']}
    eq((reps['b3/__consumer_offsets-18']['damage'], parts['__consumer_offsets-18']['records']), (1, 9),
       'its damage counted, the 9 records read from b2')


@test
def below_the_leaders_log_start_a_follower_gives_the_offsets():
    # b1's orders-0 without its first segment (retention deleted offsets 0..39 there, as it runs on
    # each broker on its own): offsets 0..39 come from b2 (0..59, read up to 40: its batches at 40
    # and 50 are the leader's to give), 40..79 from b1 - 80 records once, no hole
    one, b1, b2, b3 = build(tmp('x'))
    os.remove(os.path.join(b1, 'orders-0', kafka.segment_name(0)))
    rc, out, err = run(['scan', '--json', os.path.join(b1, 'orders-0'), os.path.join(b2, 'orders-0')])
    eq(rc, 0, 'scan: %s' % err)
    (p,) = [o for o in jl(out) if o['type'] == 'partition']
    eq((p['records'], p['batches'], p['firstOffset'], p['nextOffset'], p['holes']), (80, 8, 0, 80, []),
       'orders-0: 80 records in 8 batches, 0..79, no hole')
    eq([(r['name'], r['readFrom'], r['readTo']) for r in p['replicas']],
       [('b1/orders-0', 40, 80), ('b2/orders-0', 0, 40)], 'what was read of each')


@test
def exports_of_the_brokers_are_read_as_their_directories():
    # each broker's directory exported (segscan export: its partitions' logs rebuilt in memory when
    # read back) and the three exports given: the same replicas once as the directories, every copy
    # compared and read from memory, b1's orders-0 again without its first segment so that b2's
    # rebuilt log gives 0..39 only (its batches at 40 and 50 are the leader's to give)
    one, b1, b2, b3 = build(tmp('x'))
    os.remove(os.path.join(b1, 'orders-0', kafka.segment_name(0)))
    files = []
    for b in (b1, b2, b3):
        files.append(b + '.parquet')
        rc, _, err = run(['export', '--fingerprints', '-q', '-o', files[-1], b])
        eq(rc, 0, 'export %s: %s' % (b, err))
    rc, out, err = run(['dups', '--json', one])
    want = groups(jl(out))
    rc, out, err = run(['dups', '--json'] + files)
    eq(rc, 0, 'dups of the exports: %s' % err)
    eq(groups(jl(out)), want, 'the exports: the groups of the data once (11, the docstring)')
    contains(err, 'enriched-0: the replica from b3.parquet:enriched-0 (broker unknown) diverges at offset 60',
             'the diverged copy, its broker unknown (b3 has no meta.properties)')
    rc, out, err = run(['scan', '--json'] + files)
    eq(rc, 0, 'scan of the exports: %s' % err)
    (p,) = [o for o in jl(out) if o['type'] == 'partition' and o['partition'] == 'orders-0']
    eq((p['records'], p['batches'], p['firstOffset'], p['nextOffset'], p['holes']), (80, 8, 0, 80, []),
       'orders-0 from the exports: 80 records in 8 batches, 0..79, no hole')
    eq([(r['name'], r['broker'], r['readFrom'], r['readTo']) for r in p['replicas']],
       [('b1.parquet:orders-0', 1, 40, 80), ('b2.parquet:orders-0', 2, 0, 40)],
       'what was read of each export, its broker the node.id of its meta.properties when exported')


@test
def different_topic_ids_are_different_partitions():
    # partition.metadata's topic id is given at a topic's creation and kept by every replica
    # (KIP-516): another id is another topic of the same name (deleted and created again)
    root = tmp('ids')
    paths = []
    for b, tid in (('b1', 'MG2SJhvpZCQjALGzsYh4vA'), ('b2', 'RTqtE7gsXG0-grbJai7Ogg')):
        p = os.path.join(root, b, 'pay-0')
        kafka.write_partition(p, {0: kafka.batch(0, [(None, b'pay-%d' % i) for i in range(5)], pid=9001, epoch=0,
                                                 base_seq=0)})
        with open(os.path.join(p, 'partition.metadata'), 'w') as f:
            f.write('version: 0\ntopic_id: %s\n' % tid)
        paths.append(os.path.join(root, b))
    rc, out, err = run(['scan', '--json'] + paths)
    contains(err, 'pay-0: the copies hold different topic ids (MG2SJhvpZCQjALGzsYh4vA, RTqtE7gsXG0-grbJai7Ogg',
             'says the ids differ')
    eq([o['partition'] for o in jl(out) if o['type'] == 'partition'], ['b1/pay-0', 'b2/pay-0'],
       'two partitions, each read')


@test
def another_cluster_is_not_a_replica():
    # b4: a copy of b1's orders-0, byte for byte, in a log directory whose meta.properties names
    # another cluster.id (MetaProperties: the cluster a log directory belongs to): not a replica
    one, b1, b2, b3 = build(tmp('x'))
    b4 = tmp('x', 'b4')
    shutil.copytree(os.path.join(b1, 'orders-0'), os.path.join(b4, 'orders-0'))
    with open(os.path.join(b4, 'meta.properties'), 'w') as f:
        f.write('version=1\ncluster.id=Lkvfr8BrxUTJ4ES4gmVJLw\nnode.id=4\n')
    rc, out, err = run(['scan', '--json', b1, b2, b4])
    contains(err, 'orders-0: b4/orders-0 is of another cluster than b1/orders-0 (cluster.id Lkvfr8BrxUTJ4ES4gmVJLw '
             'and 3Db5QLSqSZieL3rJBUUegA', 'says the clusters differ')
    parts = {o['partition']: o for o in jl(out) if o['type'] == 'partition'}
    eq(sorted(k for k in parts if 'orders' in k), ['b1/orders-0', 'b4/orders-0'], 'b4 read apart')
    eq([r['name'] for r in parts['b1/orders-0']['replicas']], ['b1/orders-0', 'b2/orders-0'], 'b1 with b2')


@test
def empty_replicas_keep_their_files():
    # a partition created and never written: an empty active segment on each broker, the leader
    # epoch 0 from offset 0 in both checkpoints (one log); nothing to read, its file still listed
    paths = []
    for b in ('b1', 'b2'):
        p = tmp('e', b, 't-0')
        kafka.write_partition(p, {0: b''})
        write_epochs(p, [(0, 0)])
        paths.append(tmp('e', b))
    rc, out, err = run(['scan', '--json'] + paths)
    eq(rc, 0, 'scan of two empty copies: %s' % err)
    (p,) = [o for o in jl(out) if o['type'] == 'partition']
    eq((p['partition'], p['segments'], p['records'], len(p['replicas'])), ('t-0', 1, 0, 2),
       'one partition, the leader\'s one file, no record, two copies')


if __name__ == '__main__':
    harness.main(__doc__)
