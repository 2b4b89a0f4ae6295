#!/usr/bin/env python3
"""segscan groups: each consumer group's history from __consumer_offsets.

Usage: test_groups.py SEGSCAN CORPUS [-k SUBSTRING]

Every history below is built here with tests/lib/kafka.py (keys and values as Kafka 4.0's
GroupCoordinatorRecordHelpers writes them; the builder is first checked byte for byte against
Kafka-written records of the corpus), or is a corpus folder whose records are listed in its
*.dumplog.offsets.txt. Each expectation is worked out by hand from what the history holds, by the
rules of Kafka's group coordinator as it replays a __consumer_offsets partition:

- OffsetMetadataManager.replay: an OffsetCommit of a batch without producer id (-1) is the
  committed offset at once; one of a transactional batch is pending for its producer id
  (pendingTransactionalOffsets, a later one of the same partition replacing it); a tombstone removes
  the committed offset and the pending ones of the group's open transactions for that partition.
- OffsetMetadataManager.replayEndTransactionMarker: COMMIT makes the pending offsets committed only
  when "offsetAndMetadata.recordOffset > existingOffsetAndMetadata.recordOffset" (or none exists);
  ABORT discards them; a marker of a producer with nothing pending is ignored.
- GroupMetadataManager.replay(GroupMetadataKey, GroupMetadataValue): the record replaces the classic
  group whole (its members and their assignments); a tombstone removes the group, not its offsets.
- The KIP-848 replays (ConsumerGroupMemberMetadata, ConsumerGroupMetadata = group epoch,
  ConsumerGroupCurrentMemberAssignment): a member owns its assigned partitions and those pending
  revocation (ConsumerGroupMember); a current-assignment tombstone leaves it with nothing.
- Conversions (GroupMetadataManager.convertToConsumerGroup / convertToClassicGroup) write the old
  group's tombstones and the new group's records in one append: one batch.
- LogCleaner keeps a batch's offsets (holes where records were removed).
Python 3 standard library only.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import harness
from harness import tally as check, tally_eq as eq

HERE = os.path.dirname(os.path.abspath(__file__))
import kafka

segscan, corpus = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
only = sys.argv[sys.argv.index('-k') + 1] if '-k' in sys.argv else None
T0 = kafka.T0


def run(args):
    rc, out, err = harness.call(['groups', '--json'] + args, binary=segscan, timeout=None)
    return rc, [json.loads(line) for line in out.splitlines() if line.strip()], err


class H:
    """The JSON objects of one run, by type and group."""

    def __init__(self, args):
        self.rc, self.objs, self.err = run(args)

    def group(self, g):
        x = [o for o in self.objs if o['type'] == 'consumer-group' and o['group'] == g]
        return x[0] if len(x) == 1 else None

    def gens(self, g):
        return [o for o in self.objs if o['type'] == 'generation' and o['group'] == g]

    def events(self, g):
        return [o for o in self.objs if o['type'] == 'group-event' and o['group'] == g]

    def commits(self, g, topic=None, part=None):
        return [o for o in self.objs if o['type'] == 'commit' and o['group'] == g and
                (topic is None or o['topic'] == topic) and (part is None or o['partition'] == part)]

    def part(self, g, topic, p):
        grp = self.group(g)
        if not grp:
            return None
        x = [q for q in grp['partitions'] if q['topic'] == topic and q['partition'] == p]
        return x[0] if x else None

    def logs(self):
        return [o for o in self.objs if o['type'] == 'offsets-partition']


def owners(part):
    return [(o['memberId'], o['groupInstanceId'], o['generationFrom'], o['generationTo'], o['to'] is None)
            for o in part['owners']] if part else None


def scenario(name):
    if only and only not in name:
        return None
    d = tempfile.mkdtemp(prefix='segscan-groups-')
    return d


def co_dir(d, p):
    return os.path.join(d, '__consumer_offsets-%d' % p)


# ---- the builder against Kafka's own bytes -------------------------------------------------------

def oracle_records(path):
    recs = {}
    with open(path) as f:
        for line in f:
            o = json.loads(line)
            if o.get('type') == 'record':
                recs[o['offset']] = (bytes.fromhex(o['key']) if o.get('key') is not None else None,
                                     bytes.fromhex(o['value']) if o.get('value') is not None else None)
    return recs


def test_builder():
    """tests/lib/kafka.py writes what Kafka's generated writers wrote (the corpus oracles)."""
    if only and only not in 'builder':
        return
    cls = oracle_records(os.path.join(corpus, 'gen/groups-classic/__consumer_offsets-42/00000000000000000000.oracle.jsonl'))
    # offset 2 (dumplog): shop-billing items-0 offset 18 leaderEpoch 0 metadata "" commitTimestamp T0+2500
    eq(kafka.offset_commit('shop-billing', 'items', 0, 18, T0 + 2500), cls[2], 'builder: OffsetCommit v3')
    # offset 0: the new group: protocolType "", generation 0, protocol/leader null, no members
    eq(kafka.group_metadata('shop-billing', 0, T0 + 790, [], protocol_type=''), cls[0], 'builder: empty GroupMetadata')
    # offset 1: generation 1, range, leader shop-billing-a-445b..., members b (items-1) then a (items-0),
    # session 10000, rebalance 300000, subscription v3 topics [items], no owned partitions, generation -1
    a = 'shop-billing-a-445b95e9-f151-462c-afd6-a72fdb3b1dec'
    b = 'shop-billing-b-fa4717e3-d5ca-49f0-a2fd-e2da9f7c346a'
    gm = kafka.group_metadata('shop-billing', 1, T0 + 800, [
        kafka.Member(b, {'items': [1]}, client_id='shop-billing-b', host='/192.168.7.22', session_timeout=10000),
        kafka.Member(a, {'items': [0]}, client_id='shop-billing-a', host='/192.168.7.21', session_timeout=10000)], leader=a)
    eq(gm, cls[1], 'builder: GroupMetadata v3 with consumer-protocol members')
    cp = oracle_records(os.path.join(corpus, 'gen/groups-consumer-protocol/__consumer_offsets-37/00000000000000000000.oracle.jsonl'))
    m = 'MHO6rHZuAIjZ9a6tNNsLeg'
    items = 'MJb0OdkyOsjVihzuZl_WhA'
    eq(kafka.cg_member('shop-fulfil', m, 'shop-fulfil-a', '/192.168.7.41', topics=['items'], regex='',
                   classic_null_tag=True), cp[0], 'builder: ConsumerGroupMemberMetadata v0')
    eq(kafka.cg_partition_metadata('shop-fulfil', {items: ('items', 2)}), cp[1], 'builder: ConsumerGroupPartitionMetadata')
    eq(kafka.cg_epoch('shop-fulfil', 1), cp[2], 'builder: ConsumerGroupMetadata')
    eq(kafka.cg_target_member('shop-fulfil', m, {items: [0, 1]}), cp[3], 'builder: ConsumerGroupTargetAssignmentMember')
    eq(kafka.cg_target_epoch('shop-fulfil', 1), cp[4], 'builder: ConsumerGroupTargetAssignmentMetadata')
    eq(kafka.cg_assignment('shop-fulfil', m, 1, 0, kafka.STABLE, {items: [0, 1]}), cp[5],
       'builder: ConsumerGroupCurrentMemberAssignment')
    eq(kafka.cg_assignment('shop-fulfil', m, 1, 1, kafka.UNREVOKED_PARTITIONS, {items: [0]}, {items: [1]}), cp[18],
       'builder: ConsumerGroupCurrentMemberAssignment with a pending revocation')
    eq(kafka.cg_assignment_tombstone('shop-fulfil', m), cp[30], 'builder: current assignment tombstone')
    eq(kafka.coordinator_partition('shop-billing'), 42, 'builder: coordinator partition of shop-billing')


# ---- the corpus -----------------------------------------------------------------------------------

def test_corpus_classic():
    if only and only not in 'corpus-classic':
        return
    h = H([os.path.join(corpus, 'gen/groups-classic')])
    eq(h.rc, 0, 'groups-classic: exit code')
    eq(sorted(o['partition'] for o in h.logs()),
       ['__consumer_offsets-16', '__consumer_offsets-42', '__consumer_offsets-45', '__consumer_offsets-6'],
       'groups-classic: partitions read')
    # shop-billing (__consumer_offsets-42, dumplog): gen 0 empty, gen 1 a->items-0 b->items-1,
    # gen 2 b->items-0,1 (offset 17); commits at offsets 2..27: items-0 10, items-1 15; last 240 both
    g = h.group('shop-billing')
    check(g is not None, 'groups-classic: shop-billing listed')
    if g:
        eq(g['coordinatorPartition'], '__consumer_offsets-42', 'shop-billing coordinator partition')
        eq(g['expectedCoordinatorPartition'], 42, 'shop-billing: abs(hashCode) % 50')
        eq((g['protocolType'], g['protocol'], g['assignor']), ('consumer', 'classic', 'range'), 'shop-billing protocol')
        eq(g['committed'], {'items-0': 240, 'items-1': 240}, 'shop-billing committed')
        eq(g['commits'], 25, 'shop-billing commits')
        eq(g['members'], 2, 'shop-billing distinct members')
    eq([x['generation'] for x in h.gens('shop-billing')], [0, 1, 2], 'shop-billing generations')
    a = 'shop-billing-a-445b95e9-f151-462c-afd6-a72fdb3b1dec'
    b = 'shop-billing-b-fa4717e3-d5ca-49f0-a2fd-e2da9f7c346a'
    eq(owners(h.part('shop-billing', 'items', 0)), [(a, None, 1, 1, False), (b, None, 2, 2, True)],
       'shop-billing items-0 owners: a in gen 1, b from gen 2')
    eq(owners(h.part('shop-billing', 'items', 1)), [(b, None, 1, 2, True)], 'shop-billing items-1 owner: b throughout')
    # shop-audit (__consumer_offsets-6): commit 100 at offset 2, empty gen 2, offset tombstone (4) and
    # group tombstone (5) in one batch at T0+21000, created again (6, 7), commits 282 and 320
    ev = [(e['kind'], e['recordOffset']) for e in h.events('shop-audit')]
    eq(ev, [('offsets-deleted', 4), ('deleted', 5), ('created', 6)], 'shop-audit events')
    od = [e for e in h.events('shop-audit') if e['kind'] == 'offsets-deleted']
    if od:
        eq((od[0]['topic'], od[0]['partition'], od[0]['lastCommittedOffset'], od[0]['time']),
           ('events', 0, 100, T0 + 21000), 'shop-audit offsets-deleted')
    eq(h.group('shop-audit')['committed'] if h.group('shop-audit') else None, {'events-0': 320}, 'shop-audit committed')
    # shop-analytics (-45): offset 9 is an admin reset to 40 with leaderEpoch -1 in the empty
    # generation 2; the committed offset at the end is 320 (offset 17)
    eq(h.group('shop-analytics')['committed'] if h.group('shop-analytics') else None, {'events-0': 320},
       'shop-analytics committed')


def test_corpus_eager_revocation():
    """Revocation evidence of eager handovers on brokers' real disks, the expectation read from Kafka's
    own decoding (DumpLogSegments --offsets-decoder, the dumplog beside each segment): a previous owner
    listed in the GroupMetadata record that gave its partition away (it rejoined), its last commit
    within that member's rebalanceTimeout before the record (a commit in onPartitionsRevoked:
    ConsumerCoordinator.onJoinPrepare revokes every partition before the JoinGroup under the eager
    protocol, and the subscription it sends lists what it still owns): ownedPartitions [] ->
    rejoined; no ownedPartitions field (ConsumerProtocolSubscription version 0, a client before
    KIP-429) -> rejoined-undecided, the evidence cannot decide; a non-empty list -> rejoined-owning.
    real/sagarrao1__kafka (group test, subscriptions of version 0) and real/siriphonnam__go-kafka
    (group mygroup, ownedPartitions []) hold both kinds."""
    if only and only not in 'corpus-eager-revocation':
        return
    import glob
    import gzip
    seen = set()
    for rel in ('real/sagarrao1__kafka/MultiNode/kafka-logs-2', 'real/siriphonnam__go-kafka/server/kafka'):
        d = os.path.join(corpus, rel)
        h = H([d])
        eq(h.rc, 0, rel + ': exit code')
        for f in [o for o in h.objs if o['type'] == 'group-finding' and o['kind'] == 'handover']:
            dl = glob.glob(os.path.join(d, f['coordinatorPartition'], '*.dumplog.offsets.txt*'))
            rec = None
            for path in dl:
                with (gzip.open(path, 'rt') if path.endswith('.gz') else open(path)) as fh:
                    for line in fh:
                        if line.startswith('| offset: %d ' % f['recordOffset']) and 'payload: ' in line:
                            rec = json.loads(line.split('payload: ', 1)[1])['data']
            check(rec is not None, '%s: the dumplog holds record %d' % (rel, f['recordOffset']))
            prev = (f.get('previousOwner') or {}).get('memberId')
            mm = [m for m in (rec or {}).get('members', []) if m['memberId'] == prev]
            last = f.get('previousOwnerLastCommit')
            if not mm or not last or last.get('time') is None:
                continue
            m = mm[0]
            held = any(a['topic'] == f['topic'] and f['partition'] in a['partitions']
                       for a in m['assignment']['assignedPartitions'])
            check(not held, '%s: the record gives %s-%d away from its owner' % (rel, f['topic'], f['partition']))
            want = None
            if f['time'] - last['time'] <= m['rebalanceTimeout']:
                owned = m['subscription'].get('ownedPartitions')
                want = 'rejoined-undecided' if owned is None else 'rejoined-owning' if owned else 'rejoined'
                seen.add(want)
            eq(f.get('revocation'), want, '%s: %s %s-%d, previous owner %s' % (rel, f['group'], f['topic'],
                                                                              f['partition'], prev))
            if want == 'rejoined':
                eq((f.get('clean'), f.get('likelyRedelivered')), (True, None), '%s: rejoined: clean, nothing likely' % rel)
    eq(sorted(seen), ['rejoined', 'rejoined-undecided'], 'corpus: both kinds of evidence met')


def test_corpus_eos():
    if only and only not in 'corpus-eos':
        return
    h = H(['--commits', os.path.join(corpus, 'gen/groups-eos')])
    eq(h.rc, 0, 'groups-eos: exit code')
    g = h.group('shop-eos')
    check(g is not None, 'groups-eos: shop-eos listed')
    if not g:
        return
    # __consumer_offsets-0 (dumplog): 11 TxnOffsetCommits of pid 6100, 9 COMMIT and 2 ABORT markers;
    # the last commit (offset 72, record offset 23) is committed by the marker at 24
    eq(g['committed'], {'events-0': 72}, 'shop-eos committed')
    p = h.part('shop-eos', 'events', 0)
    eq((p['transactionalCommits'], p['transactionsCommitted'], p['transactionsAborted'], p['transactionsOpen']),
       (11, 9, 2, 0), 'shop-eos transactional commits and outcomes')
    cs = h.commits('shop-eos')
    eq(len(cs), 11, 'shop-eos commits listed')
    aborted = [(c['offset'], c['recordOffset']) for c in cs if c['outcome'] == 'aborted']
    eq(aborted, [(24, 6), (40, 12)], 'shop-eos aborted commits (record offsets 6 and 12, ABORT markers 7 and 13)')
    check(all(c['transactionalId'] == 'shop-eos-tx' for c in cs), 'shop-eos: the transactional id from __transaction_state')
    check(all(c['effective'] == (c['outcome'] == 'committed') for c in cs), 'shop-eos: committed ones are effective')


def test_corpus_consumer_protocol():
    if only and only not in 'corpus-consumer-protocol':
        return
    h = H([os.path.join(corpus, 'gen/groups-consumer-protocol')])
    g = h.group('shop-fulfil')
    check(g is not None, 'shop-fulfil listed')
    if not g:
        return
    eq(g['protocol'], 'consumer', 'shop-fulfil protocol')
    eq([x['epoch'] for x in h.gens('shop-fulfil')], [1, 2, 3], 'shop-fulfil group epochs (offsets 2, 13, 33)')
    a, b = 'MHO6rHZuAIjZ9a6tNNsLeg', '_u1ZFAgS1DNn3-IK9UCY2w'
    # items-1: a owns it from offset 5 (epoch 1); at 18 it is pending revocation (still a's);
    # at 20 a's assignment is items-0 only; b gets it at 21 (epoch 2); a leaves at 30.
    own = h.part('shop-fulfil', 'items', 1)
    eq([(o['memberId'], o['fromRecordOffset'], o['toRecordOffset']) for o in own['owners']] if own else None,
       [(a, 5, 20), (b, 21, None)], 'shop-fulfil items-1 owners through the revocation')
    own0 = h.part('shop-fulfil', 'items', 0)
    eq([(o['memberId'], o['fromRecordOffset'], o['toRecordOffset']) for o in own0['owners']] if own0 else None,
       [(a, 5, 30), (b, 36, None)], 'shop-fulfil items-0 owners')
    eq(g['committed'], {'items-0': 260, 'items-1': 260}, 'shop-fulfil committed')


# ---- constructed histories ----------------------------------------------------------------------

def test_eager():
    """Classic eager rebalance: gen 1 a owns t-0,t-1, b owns t-2; b leaves, gen 2 a owns all three
    (an eager rebalance revokes everything and assigns anew in one generation)."""
    d = scenario('eager')
    if not d:
        return
    grp, a, b = 'pay', 'pay-a-1111', 'pay-b-2222'
    L = kafka.Log()
    L.append([kafka.group_metadata(grp, 1, T0, [kafka.Member(a, {'t': [0, 1]}), kafka.Member(b, {'t': [2]})])], T0)   # 0
    L.append([kafka.offset_commit(grp, 't', p, 10 + p, T0 + 1000) for p in range(3)], T0 + 1000)           # 1,2,3
    L.append([kafka.group_metadata(grp, 2, T0 + 2000, [kafka.Member(a, {'t': [0, 1, 2]})])], T0 + 2000)          # 4
    L.append([kafka.offset_commit(grp, 't', 2, 30, T0 + 3000)], T0 + 3000)                                    # 5
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    h = H(['--commits', d])
    eq(h.rc, 0, 'eager: exit code')
    eq(owners(h.part(grp, 't', 2)), [(b, None, 1, 1, False), (a, None, 2, 2, True)], 'eager: t-2 owners b then a')
    eq(owners(h.part(grp, 't', 0)), [(a, None, 1, 2, True)], 'eager: t-0 owner a throughout')
    o = h.part(grp, 't', 2)['owners'][0] if h.part(grp, 't', 2) else {}
    eq((o.get('from'), o.get('to'), o.get('toRecordOffset')), (T0, T0 + 2000, 4), 'eager: b owned t-2 until gen 2')
    att = [(c['recordOffset'], c['attributedTo']['memberId'] if c['attributedTo'] else None) for c in h.commits(grp, 't', 2)]
    eq(att, [(3, b), (5, a)], 'eager: commits of t-2 attributed to the owner then')
    eq(h.group(grp)['committed'] if h.group(grp) else None, {'t-0': 10, 't-1': 11, 't-2': 30}, 'eager: committed')
    eq([x['generation'] for x in h.gens(grp)], [1, 2], 'eager: generations')
    shutil.rmtree(d)


def test_cooperative():
    """Classic cooperative rebalance (KIP-429): b joins; gen 2 revokes t-1 from a and gives it to
    nobody; gen 3 gives it to b. t-1 is unowned between the two records."""
    d = scenario('cooperative')
    if not d:
        return
    grp, a, b = 'coop', 'coop-a-1', 'coop-b-2'
    L = kafka.Log()
    L.append([kafka.group_metadata(grp, 1, T0, [kafka.Member(a, {'t': [0, 1]})], protocol='cooperative-sticky')], T0)  # 0
    L.append([kafka.group_metadata(grp, 2, T0 + 1000, [kafka.Member(a, {'t': [0]}), kafka.Member(b, {})],
                               protocol='cooperative-sticky')], T0 + 1000)                                     # 1
    L.append([kafka.offset_commit(grp, 't', 1, 50, T0 + 1500)], T0 + 1500)                                          # 2
    L.append([kafka.group_metadata(grp, 3, T0 + 2000, [kafka.Member(a, {'t': [0]}), kafka.Member(b, {'t': [1]})],
                               protocol='cooperative-sticky')], T0 + 2000)                                     # 3
    L.append([kafka.offset_commit(grp, 't', 1, 60, T0 + 2500)], T0 + 2500)                                          # 4
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    h = H(['--commits', d])
    eq(owners(h.part(grp, 't', 1)), [(a, None, 1, 1, False), (b, None, 3, 3, True)], 'cooperative: t-1 owners')
    p = h.part(grp, 't', 1)
    eq([(o['fromRecordOffset'], o['toRecordOffset']) for o in p['owners']] if p else None, [(0, 1), (3, None)],
       'cooperative: a until gen 2 (offset 1), b from gen 3 (offset 3)')
    att = [c['attributedTo'] for c in h.commits(grp, 't', 1)]
    eq(att[0], None, 'cooperative: the commit while t-1 was unowned is attributed to nobody')
    eq(att[1]['memberId'] if len(att) > 1 and att[1] else None, b, 'cooperative: then to b')
    eq(h.group(grp)['assignor'] if h.group(grp) else None, 'cooperative-sticky', 'cooperative: assignor')
    shutil.rmtree(d)


def test_static_member():
    """A static member (group.instance.id i-1) restarts: the coordinator replaces its member id and
    stores the group with the same generation (GroupMetadataManager: a static member rejoining
    without a rebalance)."""
    d = scenario('static')
    if not d:
        return
    grp, m1, m2 = 'static', 'st-1-aaaa', 'st-1-bbbb'
    L = kafka.Log()
    L.append([kafka.group_metadata(grp, 5, T0, [kafka.Member(m1, {'t': [0]}, instance_id='i-1')])], T0)        # 0
    L.append([kafka.offset_commit(grp, 't', 0, 7, T0 + 100)], T0 + 100)                                    # 1
    L.append([kafka.group_metadata(grp, 5, T0 + 200, [kafka.Member(m2, {'t': [0]}, instance_id='i-1')])], T0 + 200)  # 2
    L.append([kafka.offset_commit(grp, 't', 0, 9, T0 + 300)], T0 + 300)                                    # 3
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    h = H(['--commits', d])
    eq(owners(h.part(grp, 't', 0)), [(m1, 'i-1', 5, 5, False), (m2, 'i-1', 5, 5, True)],
       'static: two member ids of one instance, same generation')
    eq([x['generation'] for x in h.gens(grp)], [5, 5], 'static: generation 5 twice')
    eq([c['attributedTo']['memberId'] for c in h.commits(grp)], [m1, m2], 'static: commits attributed')
    eq([c['attributedTo']['groupInstanceId'] for c in h.commits(grp)], ['i-1', 'i-1'], 'static: instance id kept')
    shutil.rmtree(d)


def test_eos():
    """An exactly-once application (pid 7000, transactional id app-tx) and Kafka's rules:
    T1 (epoch 0) commits 10 -> COMMIT: committed 10.
    T2 (epoch 0) commits 20, then a new instance calls initTransactions: the coordinator aborts T2
      with a marker of epoch 1 (the old instance is fenced): aborted, committed stays 10.
    T3 (epoch 1) commits 20 then 25 (the later one replaces the first in the pending map) -> COMMIT:
      committed 25; the 20 is committed by the transaction but never the committed offset.
    T4 (epoch 1) commits 40 at record offset 8, then a plain commit (an admin reset) of 35 at 9, then
      T4's COMMIT: 8 is not later than 9, so the committed offset stays 35.
    T5 (epoch 1) commits 50 and has no marker: open, committed stays 35."""
    d = scenario('eos')
    if not d:
        return
    grp, pid = 'eos', 7000
    L = kafka.Log()
    L.append([kafka.offset_commit(grp, 'in', 0, 10, T0 + 10)], T0 + 10, pid=pid, epoch=0, transactional=True)   # 0
    L.marker(pid, 0, True, T0 + 11)                                                                          # 1
    L.append([kafka.offset_commit(grp, 'in', 0, 20, T0 + 20)], T0 + 20, pid=pid, epoch=0, transactional=True)   # 2
    L.marker(pid, 1, False, T0 + 21)                                                                         # 3
    L.append([kafka.offset_commit(grp, 'in', 0, 20, T0 + 30)], T0 + 30, pid=pid, epoch=1, transactional=True)   # 4
    L.append([kafka.offset_commit(grp, 'in', 0, 25, T0 + 31)], T0 + 31, pid=pid, epoch=1, transactional=True)   # 5
    L.marker(pid, 1, True, T0 + 32)                                                                          # 6
    L.append([kafka.offset_commit(grp, 'in', 0, 40, T0 + 40)], T0 + 40, pid=pid, epoch=1, transactional=True)   # 7
    L.append([kafka.offset_commit(grp, 'in', 0, 35, T0 + 41)], T0 + 41)                                          # 8
    L.marker(pid, 1, True, T0 + 42)                                                                          # 9
    L.append([kafka.offset_commit(grp, 'in', 0, 50, T0 + 50)], T0 + 50, pid=pid, epoch=1, transactional=True)   # 10
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    ts = kafka.Log()
    ts.append([kafka.txn_state('app-tx', pid, 0, kafka.ONGOING, T0 + 5, {'__consumer_offsets': [kafka.coordinator_partition(grp)]})],
              T0 + 5)
    ts.append([kafka.txn_state('app-tx', pid, 1, kafka.ONGOING, T0 + 30)], T0 + 30)
    ts.write(os.path.join(d, '__transaction_state-%d' % kafka.coordinator_partition('app-tx')))
    h = H(['--commits', d])
    eq(h.rc, 0, 'eos: exit code')
    eq(h.group(grp)['committed'] if h.group(grp) else None, {'in-0': 35}, 'eos: committed at the end (Kafka rule)')
    got = [(c['recordOffset'], c['offset'], c['producerEpoch'], c['outcome'], c['effective']) for c in h.commits(grp)]
    eq(got, [(0, 10, 0, 'committed', True), (2, 20, 0, 'aborted', False), (4, 20, 1, 'committed', False),
             (5, 25, 1, 'committed', True), (7, 40, 1, 'committed', False), (8, 35, None, 'plain', True),
             (10, 50, 1, 'open', False)], 'eos: commits, outcomes and which became the committed offset')
    eff = [(c['recordOffset'], c['effectiveTime']) for c in h.commits(grp) if c['effective']]
    eq(eff, [(0, T0 + 11), (5, T0 + 32), (8, T0 + 41)], 'eos: when each became the committed offset')
    check(all(c['transactionalId'] == 'app-tx' for c in h.commits(grp) if c['transactional']),
          'eos: transactional id from __transaction_state')
    p = h.part(grp, 'in', 0)
    eq((p['transactionsCommitted'], p['transactionsAborted'], p['transactionsOpen']) if p else None, (4, 1, 1),
       'eos: outcomes counted per commit')
    eq(h.group(grp)['protocol'] if h.group(grp) else 'x', None, 'eos: a group that only commits has no protocol')
    shutil.rmtree(d)


def test_only_commits():
    """assign() + commitSync: OffsetCommits without any group record (Kafka creates a simple group)."""
    d = scenario('only-commits')
    if not d:
        return
    grp = 'simple'
    L = kafka.Log()
    L.append([kafka.offset_commit(grp, 'x', 0, 5, T0), kafka.offset_commit(grp, 'x', 1, 6, T0)], T0)
    L.append([kafka.offset_commit(grp, 'x', 0, 9, T0 + 50, metadata='cp-9')], T0 + 50)
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    h = H([d])
    g = h.group(grp)
    eq((g['protocol'], g['protocolType'], g['generations'], g['members'], g['commits']) if g else None,
       (None, None, 0, 0, 3), 'only-commits: no protocol, generations nor members')
    eq(g['committed'] if g else None, {'x-0': 9, 'x-1': 6}, 'only-commits: committed')
    eq(h.part(grp, 'x', 0)['metadata'] if h.part(grp, 'x', 0) else None, 'cp-9', 'only-commits: metadata')
    eq(owners(h.part(grp, 'x', 0)), [], 'only-commits: no owner')
    shutil.rmtree(d)


def test_offsets_deleted():
    """Offsets deleted (a tombstone: expiry, admin or topic deletion) then committed again lower."""
    d = scenario('offsets-deleted')
    if not d:
        return
    grp = 'od'
    L = kafka.Log()
    L.append([kafka.offset_commit(grp, 'x', 0, 100, T0)], T0)                    # 0
    L.append([kafka.offset_tombstone(grp, 'x', 0)], T0 + 10)                     # 1
    L.append([kafka.offset_commit(grp, 'x', 0, 3, T0 + 20)], T0 + 20)            # 2
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    h = H(['--commits', d])
    ev = [(e['kind'], e['topic'], e['partition'], e['lastCommittedOffset'], e['time'], e['recordOffset'])
          for e in h.events(grp)]
    eq(ev, [('offsets-deleted', 'x', 0, 100, T0 + 10, 1)], 'offsets-deleted: the event')
    eq(h.group(grp)['committed'] if h.group(grp) else None, {'x-0': 3}, 'offsets-deleted: committed again')
    eq(h.part(grp, 'x', 0)['deletions'] if h.part(grp, 'x', 0) else None, 1, 'offsets-deleted: deletions')
    # a second tombstone with nothing committed: last committed offset null
    L.append([kafka.offset_tombstone(grp, 'x', 0)], T0 + 30)
    L.append([kafka.offset_tombstone(grp, 'x', 0)], T0 + 40)
    shutil.rmtree(co_dir(d, kafka.coordinator_partition(grp)))
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    h = H([d])
    eq([e['lastCommittedOffset'] for e in h.events(grp)], [100, 3, None], 'offsets-deleted: what each removed')
    eq(h.group(grp)['committed'] if h.group(grp) else None, {}, 'offsets-deleted: nothing committed at the end')
    shutil.rmtree(d)


def test_compacted():
    """A compacted __consumer_offsets partition: the cleaner removed offsets 1..3 (superseded
    commits) and 6; cleaner-offset-checkpoint says 7. The history is complete from offset 7, whose
    record has timestamp T0+70; a group whose first record is below 7 has a partial history."""
    d = scenario('compacted')
    if not d:
        return
    grp = 'cmp'
    L = kafka.Log()
    L.append([kafka.offset_commit(grp, 'x', 0, 1, T0)], T0)                                  # 0
    L.skip(3)                                                                             # 1..3 removed
    L.append([kafka.offset_commit(grp, 'x', 0, 4, T0 + 40), kafka.offset_commit(grp, 'x', 1, 5, T0 + 40)], T0 + 40)  # 4, 5
    L.skip(1)                                                                             # 6 removed
    L.append([kafka.offset_commit(grp, 'x', 0, 8, T0 + 70)], T0 + 70)                        # 7
    p = kafka.coordinator_partition(grp)
    L.write(co_dir(d, p))
    kafka.write_checkpoint(os.path.join(d, 'cleaner-offset-checkpoint'), [('__consumer_offsets', p, 7)])
    h = H([d])
    lg = h.logs()[0] if h.logs() else {}
    eq((lg.get('historyCompleteFrom'), lg.get('missingOffsets'), lg.get('compacted'), lg.get('cleanerCheckpoint')),
       ({'offset': 7, 'time': T0 + 70}, 4, True, 7), 'compacted: history complete from, holes, checkpoint')
    g = h.group(grp)
    eq((g['historyPartial'], g['historyCompleteFrom']) if g else None,
       (True, {'__consumer_offsets-%d' % p: {'offset': 7, 'time': T0 + 70}}), 'compacted: the group says so')
    eq(g['committed'] if g else None, {'x-0': 8, 'x-1': 5}, 'compacted: committed from what survives')
    # a batch the cleaner rewrote with a hole inside (offset deltas 0 and 2)
    shutil.rmtree(co_dir(d, p))
    L2 = kafka.Log()
    L2.append([kafka.offset_commit(grp, 'x', 0, 1, T0), kafka.offset_commit(grp, 'x', 1, 2, T0)], T0, offset_deltas=[0, 2])
    L2.append([kafka.offset_commit(grp, 'x', 0, 3, T0 + 9)], T0 + 9)
    L2.write(co_dir(d, p))
    os.unlink(os.path.join(d, 'cleaner-offset-checkpoint'))
    h = H([d])
    lg = h.logs()[0] if h.logs() else {}
    eq((lg.get('historyCompleteFrom'), lg.get('missingOffsets'), lg.get('cleanerCheckpoint')),
       ({'offset': 2, 'time': T0}, 1, None), 'compacted: a hole inside a batch')
    shutil.rmtree(d)


def test_replicas():
    """Two brokers' copies of one __consumer_offsets partition: the history is read from one (the
    commits are not counted twice) and the other is compared: broker 2's copy lacks the last batch;
    broker 3's copy holds a different record at offset 1."""
    d = scenario('replicas')
    if not d:
        return
    grp = 'rep'
    p = kafka.coordinator_partition(grp)
    full = kafka.Log()
    for i in range(4):
        full.append([kafka.offset_commit(grp, 'x', 0, 10 * (i + 1), T0 + i)], T0 + i)
    short = kafka.Log()
    for i in range(3):
        short.append([kafka.offset_commit(grp, 'x', 0, 10 * (i + 1), T0 + i)], T0 + i)
    odd = kafka.Log()
    for i in range(4):
        odd.append([kafka.offset_commit(grp, 'x', 0, 10 * (i + 1) + (5 if i == 1 else 0), T0 + i)], T0 + i)
    full.write(os.path.join(d, 'b1', '__consumer_offsets-%d' % p))
    short.write(os.path.join(d, 'b2', '__consumer_offsets-%d' % p))
    h = H([os.path.join(d, 'b1'), os.path.join(d, 'b2')])
    g = h.group(grp)
    eq(g['commits'] if g else None, 4, 'replicas: commits counted once')
    eq(len([o for o in h.objs if o['type'] == 'consumer-group']), 1, 'replicas: one group, not two')
    # the inputs' note that two inputs hold one partition is about the analysis's copies; groups reads
    # one copy and compares the other, so it leaves that note out (by its kind, not its words)
    check('same partition' not in h.err and 'replicas?' not in h.err, 'replicas: no note about copies: %r' % h.err)
    lg = h.logs()[0] if h.logs() else {'copies': []}
    cps = {c['path'].split('/')[-2]: c for c in lg['copies']}
    eq(sorted(cps), ['b1', 'b2'], 'replicas: both copies named')
    if 'b2' in cps:
        eq((cps['b1']['read'], cps['b2']['read'], cps['b2']['same'], cps['b2']['firstDifference'],
            cps['b2']['nextOffset']), (True, False, 3, None, 3), 'replicas: b2 is the same, shorter')
    shutil.rmtree(os.path.join(d, 'b2'))
    odd.write(os.path.join(d, 'b3', '__consumer_offsets-%d' % p))
    h = H([os.path.join(d, 'b1'), os.path.join(d, 'b3')])
    lg = h.logs()[0] if h.logs() else {'copies': []}
    other = [c for c in lg['copies'] if not c['read']]
    eq([(c['same'], c['differing'], c['firstDifference']) for c in other], [(3, 1, 1)],
       'replicas: b3 differs at offset 1')
    g = h.group(grp)
    eq(g['commits'] if g else None, 4, 'replicas: still counted once')
    # replicas of one partition before another partition (three inputs, two logs: the work list
    # holds a piece of work per input; under ASan a shorter one overflowed). 'rep' lives in
    # __consumer_offsets-47, 'rep-other-37' in -49: the replicas come first
    other = 'rep-other-37'
    q = kafka.coordinator_partition(other)
    if q > p:
        lo = kafka.Log()
        lo.append([kafka.offset_commit(other, 'x', 0, 5, T0)], T0)
        lo.write(os.path.join(d, 'b1', '__consumer_offsets-%d' % q))
        h = H([os.path.join(d, 'b1'), os.path.join(d, 'b3')])
        eq(sorted((o['group'], o['commits']) for o in h.objs if o['type'] == 'consumer-group'),
           [(grp, 4), (other, 1)], 'replicas beside another partition: both groups, each once')
    shutil.rmtree(d)


def test_kip848_revocation():
    """A KIP-848 group with a revocation in flight: epoch 2 moves t-1 from a to b; a's current
    assignment keeps t-1 pending revocation (UNREVOKED_PARTITIONS) until it acknowledges, b waits
    (UNRELEASED_PARTITIONS); a commits t-1 meanwhile (still its owner); then a is STABLE with t-0,
    b gets t-1. Topics are named by id (ConsumerGroupPartitionMetadata)."""
    d = scenario('kip848')
    if not d:
        return
    grp, a, b, tid = 'k', 'AAAAAAAAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBBBBBBBA', 'MJb0OdkyOsjVihzuZl_WhA'
    L = kafka.Log()
    L.append([kafka.cg_member(grp, a, 'k-a', topics=['t']), kafka.cg_partition_metadata(grp, {tid: ('t', 2)}),
              kafka.cg_epoch(grp, 1), kafka.cg_target_member(grp, a, {tid: [0, 1]}), kafka.cg_target_epoch(grp, 1),
              kafka.cg_assignment(grp, a, 1, 0, kafka.STABLE, {tid: [0, 1]})], T0)                    # 0..5
    L.append([kafka.cg_member(grp, b, 'k-b', topics=['t']), kafka.cg_epoch(grp, 2),
              kafka.cg_target_member(grp, b, {tid: [1]}), kafka.cg_target_member(grp, a, {tid: [0]}),
              kafka.cg_target_epoch(grp, 2), kafka.cg_assignment(grp, b, 2, 0, kafka.UNRELEASED_PARTITIONS, {})], T0 + 100)  # 6..11
    L.append([kafka.cg_assignment(grp, a, 1, 1, kafka.UNREVOKED_PARTITIONS, {tid: [0]}, {tid: [1]})], T0 + 200)  # 12
    L.append([kafka.offset_commit(grp, 't', 1, 70, T0 + 250)], T0 + 250)                                     # 13
    L.append([kafka.cg_assignment(grp, a, 2, 1, kafka.STABLE, {tid: [0]})], T0 + 300)                          # 14
    L.append([kafka.cg_assignment(grp, b, 2, 2, kafka.STABLE, {tid: [1]})], T0 + 400)                          # 15
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    h = H(['--commits', d])
    own = h.part(grp, 't', 1)
    eq([(o['memberId'], o['fromRecordOffset'], o['toRecordOffset'], o['generationFrom']) for o in own['owners']]
       if own else None, [(a, 5, 14, 1), (b, 15, None, 2)], 'kip848: t-1 owned by a until its revocation ends')
    eq([c['attributedTo']['memberId'] if c['attributedTo'] else None for c in h.commits(grp)], [a],
       'kip848: the commit during the revocation is attributed to a')
    eq([x['epoch'] for x in h.gens(grp)], [1, 2], 'kip848: group epochs')
    e2 = h.gens(grp)[1] if len(h.gens(grp)) > 1 else {'assignments': []}
    eq([(s['memberId'], s['state'], s['partitions'], s['pendingRevocation']) for s in e2['assignments']],
       [(b, 'UNRELEASED_PARTITIONS', [], []), (a, 'UNREVOKED_PARTITIONS', ['t-0'], ['t-1']),
        (a, 'STABLE', ['t-0'], []), (b, 'STABLE', ['t-1'], [])], 'kip848: the assignments during epoch 2')
    shutil.rmtree(d)


def test_conversion():
    """An online conversion classic -> consumer (convertToConsumerGroup): the GroupMetadata
    tombstone and the consumer group's records in one batch; offsets kept."""
    d = scenario('conversion')
    if not d:
        return
    grp, a, tid = 'conv', 'conv-a-1', 'MJb0OdkyOsjVihzuZl_WhA'
    L = kafka.Log()
    L.append([kafka.group_metadata(grp, 3, T0, [kafka.Member(a, {'t': [0]})])], T0)                   # 0
    L.append([kafka.offset_commit(grp, 't', 0, 11, T0 + 10)], T0 + 10)                            # 1
    L.append([kafka.group_tombstone(grp), kafka.cg_member(grp, 'NEWMEMBERAAAAAAAAAAAAA', 'conv-b', topics=['t']),
              kafka.cg_partition_metadata(grp, {tid: ('t', 1)}), kafka.cg_epoch(grp, 4)], T0 + 20)   # 2..5
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    h = H([d])
    eq([(e['kind'], e.get('from'), e.get('to')) for e in h.events(grp)], [('protocol-change', 'classic', 'consumer')],
       'conversion: one protocol-change event, no deletion')
    eq(h.group(grp)['committed'] if h.group(grp) else None, {'t-0': 11}, 'conversion: offsets kept')
    eq(h.group(grp)['protocol'] if h.group(grp) else None, 'consumer', 'conversion: protocol at the end')
    shutil.rmtree(d)


def test_streams_corpus():
    """A Kafka Streams group on the streams rebalance protocol (KIP-1071), from the corpus's
    gen-kafka42/streams-rebalance, whose NOTES.txt gives the story (the expected values below): task
    s_p reads partition p of subtopology s's sources (0_p pageviews-p, 1_p
    pageview-enricher-sessions-repartition-p); standby and warm-up tasks own nothing; every handover
    is cooperative, the old owner's last commit at its exact position: clean, nothing redelivered
    (the data partitions are not in the corpus: 'possibly' only, certain false)."""
    if only and only not in 'streams_corpus':
        return
    log = os.path.join(corpus, 'gen-kafka42', 'streams-rebalance', '__consumer_offsets-47')
    P1, P2, P3 = 'Q5vQ7OMsf6UYUgex_ZtEHw', 'TGlC6EhO08_mc51_nw7J-Q', 'Krz-QpkXJtsIMduiylqfQQ'
    h = H([log])
    g = h.group('pageview-enricher')
    check(g is not None, 'streams: the group is listed')
    if g is None:
        return
    eq((g['protocol'], g['generations'], g['members'], g['commits']), ('streams', 5, 3, 89),
       'streams: protocol, group epochs 1..5, 3 members, 89 offset commits')
    owners = {'%s-%d' % (p['topic'], p['partition']): [o['memberId'] for o in p['owners']] for p in g['partitions']}
    R = 'pageview-enricher-sessions-repartition-'
    eq(owners, {'pageviews-0': [P1], 'pageviews-1': [P1], 'pageviews-2': [P1, P2, P1, P3],
                R + '0': [P1], R + '1': [P1, P2, P1], R + '2': [P1, P2, P1, P3]},
       'streams: the owners of each input partition (NOTES: "Input offsets processed per partition"); '
       'P2\'s standby 1_0 and P3\'s warm-up 1_2 own nothing')
    fs = [o for o in h.objs if o['type'] == 'group-finding']
    got = sorted(('%s-%d' % (f['topic'], f['partition']), f['kind'], f['resumedOffset'], f['previousOwner']['memberId'],
                  f['newOwner']['memberId'], f['clean'], f['redelivered']['certain']) for f in fs)
    want = sorted([('pageviews-2', 'handover', 240, P1, P2, True, False),
                   ('pageviews-2', 'handover', 599, P2, P1, True, False),
                   ('pageviews-2', 'handover', 960, P1, P3, True, False),
                   (R + '1', 'handover', 240, P1, P2, True, False), (R + '1', 'handover', 599, P2, P1, True, False),
                   (R + '2', 'handover', 240, P1, P2, True, False), (R + '2', 'handover', 599, P2, P1, True, False),
                   (R + '2', 'handover', 1160, P1, P3, True, False)])
    eq(got, want, 'streams: one handover finding per partition and owner change, each clean (the old owner '
       'committed the new owner\'s start: 240, 599, 960, 1160)')
    gens = {x['epoch']: x for x in h.gens('pageview-enricher')}
    m4 = {m['memberId']: m for m in gens[4]['members']}
    eq((m4[P3]['partitions'], m4[P3]['activeTasks'], m4[P3]['standbyTasks'], m4[P3]['warmupTasks']),
       (['pageviews-2'], ['0_2'], ['1_0', '1_1'], ['1_2']), 'streams: epoch 4 ends with P3 warming up 1_2')
    m5 = {m['memberId']: m for m in gens[5]['members']}
    eq((m5[P1]['activeTasks'], m5[P1]['standbyTasks'], m5[P1]['state']), (['0_0', '0_1', '1_0', '1_1'], ['1_2'], 'STABLE'),
       'streams: P1 at the end')
    eq((m5[P3]['processId'], m5[P3]['userEndpoint'], m5[P3]['clientTags'], m5[P3]['topologyEpoch']),
       ('0e1f2a3b-4c5d-4e6f-a7b8-c9d0e1f2a3b4', '10.7.1.23:8080', 'rack=r3', 0), 'streams: P3\'s member metadata')
    states = [(a['recordOffset'], a['state']) for a in gens[2]['assignments']]
    eq(states, [(23, 'UNRELEASED_TASKS'), (24, 'UNREVOKED_TASKS'), (28, 'STABLE'), (29, 'STABLE'), (54, None)],
       'streams: the member states of epoch 2 (streams MemberState), P2 leaving at offset 54')


def test_streams_topology_target():
    """A streams group's topology and target assignment (gen-kafka42/streams-rebalance, NOTES.txt): two
    subtopologies, 0 with source topic pageviews, 1 with repartition source
    pageview-enricher-sessions-repartition, no regex (NOTES: "Topology (epoch 0), 2 subtopologies"); each
    epoch's members with their TargetAssignmentMember tasks (epoch 2: P1 active 0_0,0_1,1_0 standby 1_1,1_2;
    epoch 4: P3 active 0_2 standby 1_0,1_1 warmup 1_2; epoch 5: P1 active 0_0,0_1,1_0,1_1 standby 1_2)."""
    if only and only not in 'streams_topology_target':
        return
    log = os.path.join(corpus, 'gen-kafka42', 'streams-rebalance', '__consumer_offsets-47')
    P1, P3 = 'Q5vQ7OMsf6UYUgex_ZtEHw', 'Krz-QpkXJtsIMduiylqfQQ'
    R = 'pageview-enricher-sessions-repartition'
    h = H([log])
    g = h.group('pageview-enricher')
    check(g is not None and 'topology' in g, 'topology: the group has a topology field')
    if g is None or 'topology' not in g:
        return
    eq(g['topology'], {'epoch': 0, 'subtopologies': [
        {'subtopologyId': '0', 'sourceTopics': ['pageviews'], 'repartitionSourceTopics': [], 'sourceTopicRegex': [],
         'sourceTopicRegexMatched': [], 'sourceTopicRegexUnresolved': []},
        {'subtopologyId': '1', 'sourceTopics': [], 'repartitionSourceTopics': [R], 'sourceTopicRegex': [],
         'sourceTopicRegexMatched': [], 'sourceTopicRegexUnresolved': []}]},
       'topology: the subtopologies and their input topics')
    gens = {x['epoch']: x for x in h.gens('pageview-enricher')}

    def target(e, m):
        t = {x['memberId']: x for x in gens[e]['members']}[m].get('targetAssignment')
        return t and (t['activeTasks'], t['standbyTasks'], t['warmupTasks'])
    eq(target(2, P1), (['0_0', '0_1', '1_0'], ['1_1', '1_2'], []), 'target: P1 at epoch 2 (offsets 18..23)')
    eq(target(4, P3), (['0_2'], ['1_0', '1_1'], ['1_2']), 'target: P3 at epoch 4 (offsets 80..85)')
    eq(target(5, P1), (['0_0', '0_1', '1_0', '1_1'], ['1_2'], []), 'target: P1 at epoch 5 (offsets 102..106)')
    out = subprocess.run([segscan, 'groups', log], stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout.decode()
    check('  topology epoch 0, 2 subtopologies\n    subtopology 0: source pageviews\n'
          '    subtopology 1: repartition source ' + R + '\n' in out, 'topology: text\n' + out)
    check('target active 0_2, standby 1_0,1_1, warm-up 1_2' in out, 'target: text of P3 at epoch 4\n' + out)


def test_regex_corpus_topic_ids():
    """A KIP-848 group of Kafka 4.2 (gen-kafka42/consumer-regex, NOTES.txt): its assignments name topics by id
    only and no ConsumerGroupPartitionMetadata record names them (Kafka 4.1+ writes none); its offset
    commits (OffsetCommitValue v4) carry each topic's id beside its name, which names them. Owners and
    handovers as NOTES.txt's "Offsets processed per partition": X -> Y on ledger-us-0/1 at 204 and on
    ledger-archive-0 at 425, each clean."""
    if only and only not in 'regex_corpus_topic_ids':
        return
    X, Y = 'XYIx2DJz22NBOIT6mJwLnQ', 'Ze1wrd-GLBdSIE8fMuI3QA'
    h = H([os.path.join(corpus, 'gen-kafka42', 'consumer-regex', '__consumer_offsets-31')])
    g = h.group('ledger-mirror')
    check(g is not None, 'regex: the group is listed')
    if g is None:
        return
    owners = {'%s-%d' % (p['topic'], p['partition']): [o['memberId'] for o in p['owners']] for p in g['partitions']}
    eq(owners, {'ledger-archive-0': [X, Y], 'ledger-eu-0': [X], 'ledger-eu-1': [X], 'ledger-us-0': [X, Y],
                'ledger-us-1': [X, Y]}, 'regex: owners by topic name')
    fs = sorted(('%s-%d' % (f['topic'], f['partition']), f['resumedOffset'], f['clean'])
                for f in h.objs if f['type'] == 'group-finding')
    eq(fs, [('ledger-archive-0', 425, True), ('ledger-us-0', 204, True), ('ledger-us-1', 204, True)],
       'regex: the handovers, clean')


def test_streams_regex():
    """A streams group whose subtopology 0 reads by SourceTopicRegex orders-(eu|us) and subtopology 1 by
    (?i)audit (Java's inline flag: not a POSIX extended expression). Its one member runs task 0_0 and
    the group commits orders-eu-0, orders-us-0 and orders-apac-0. A Streams source pattern matches a
    topic name whole, so task 0_0 reads orders-eu-0 and orders-us-0, not orders-apac-0; subtopology
    1's topics are unknown (unresolved)."""
    d = scenario('streams_regex')
    if not d:
        return
    grp, m = 'rx-app', 'MMMMMMMMMMMMMMMMMMMMMA'
    L = kafka.Log()
    L.append([kafka.streams_topology(grp, 0, [('0', [], ['orders-(eu|us)']), ('1', [], ['(?i)audit'])]),
              kafka.streams_assignment(grp, m, 1, 0, {'0': [0]})], T0)
    L.append([kafka.offset_commit(grp, t, 0, 10, T0 + 100) for t in ('orders-eu', 'orders-us', 'orders-apac')], T0 + 100)
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    h = H([d])
    g = h.group(grp)
    subs = g['topology']['subtopologies'] if g and g.get('topology') else []
    eq([(s['subtopologyId'], s['sourceTopicRegex'], s.get('sourceTopicRegexMatched'), s.get('sourceTopicRegexUnresolved'))
        for s in subs], [('0', ['orders-(eu|us)'], ['orders-eu', 'orders-us'], []), ('1', ['(?i)audit'], [], ['(?i)audit'])],
       'streams regex: matched committed topics, an unresolved regex')
    owners = {'%s-%d' % (p['topic'], p['partition']): [o['memberId'] for o in p['owners']] for p in g['partitions']} if g else {}
    eq(owners, {'orders-eu-0': [m], 'orders-us-0': [m], 'orders-apac-0': []}, 'streams regex: task 0_0 owns the matched topics\' partition 0')
    out = subprocess.run([segscan, 'groups', d], stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout.decode()
    check('subtopology 0: source regex orders-(eu|us); matching committed topics orders-eu,orders-us '
          '(POSIX extended regex, an approximation of java.util.regex)' in out, 'streams regex: text\n' + out)
    check('unresolved regex (not a POSIX extended expression) (?i)audit' in out, 'streams regex: unresolved\n' + out)
    shutil.rmtree(d)


def test_topic_id_sources():
    """A KIP-848 group whose assignments name three topics by id only, and no record of its log names
    them (no ConsumerGroupPartitionMetadata, no commit): u1's id is in the partition.metadata of a
    partition directory beside it (PartitionMetadataFile), u2's in a TopicRecord of __cluster_metadata-0
    (TopicRecord.json, apiKey 2, version 0, flexible: Name compact string, TopicId uuid, tagged fields),
    u3's nowhere. Each partition says what named it; u3's topic stays unnamed. And gen-kafka42/
    consumer-regex's topics are named by its offset commits (NOTES.txt: OffsetCommitValue v4 with topicId)."""
    d = scenario('topic_id_sources')
    if not d:
        return
    grp, a = 'ids', 'AAAAAAAAAAAAAAAAAAAAAA'
    t1, t2, t3 = 'MJb0OdkyOsjVihzuZl_WhA', 'Txz968Q8Ch8rqPvrJJxyNg', 'ghaNcMkSk-F_UjoBfYfEVw'
    L = kafka.Log()
    L.append([kafka.cg_member(grp, a, 'ids-a', topics=['u1', 'u2', 'u3']), kafka.cg_epoch(grp, 1),
              kafka.cg_target_member(grp, a, {t1: [0], t2: [0], t3: [0]}), kafka.cg_target_epoch(grp, 1),
              kafka.cg_assignment(grp, a, 1, 0, kafka.STABLE, {t1: [0], t2: [0], t3: [0]})], T0)
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    kafka.write_topic_id(os.path.join(d, 'u1-0'), t1)
    kafka.write_partition(os.path.join(d, 'u1-0'), {0: b''})
    M = kafka.Log()
    M.append([(None, kafka.metadata_frame(2, 0, kafka.cstring('u2') + kafka.uuid_bytes(t2) + kafka.uvarint(0)))], T0)
    M.write(os.path.join(d, '__cluster_metadata-0'))
    h = H([d])
    g = h.group(grp)
    got = sorted((p['topicId'], p['topic'], p.get('topicNamedBy')) for p in g['partitions']) if g else None
    eq(got, sorted([(t1, 'u1', 'partition.metadata'), (t2, 'u2', 'cluster-metadata'), (t3, None, 'none')]),
       'topic ids: named by partition.metadata, by __cluster_metadata, by nothing')
    out = subprocess.run([segscan, 'groups', d], stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout.decode()
    check('u2-0 (topic id %s named by __cluster_metadata)' % t2 in out, 'topic ids: text\n' + out)
    check('topic id %s-0 (nothing read names this topic id)' % t3 in out, 'topic ids: text, unnamed\n' + out)
    shutil.rmtree(d)
    h = H([os.path.join(corpus, 'gen-kafka42', 'consumer-regex', '__consumer_offsets-31')])
    g = h.group('ledger-mirror')
    got = sorted(set((p['topic'], p['topicId'], p.get('topicNamedBy')) for p in g['partitions'])) if g else None
    eq(got, [('ledger-archive', '0zrq9hQd14MMo-avp-uz6A', 'offset-commit'), ('ledger-eu', 'QTxfTgmt655fxhnPnxmEdw', 'offset-commit'),
             ('ledger-us', 'gZUG3S_kgz4d2SDBZRDBig', 'offset-commit')], 'topic ids: consumer-regex named by its commits')


def test_unknown_types():
    """Records of types no Kafka writes (99 x12, 98 x1; GroupCoordinatorRecordSerde knows 0-23): counted by
    type on the partition's line and in offsets-partition, noted one by one for the first 10 only, then
    'and 3 more'."""
    if only and only not in 'unknown_types':
        return
    d = tempfile.mkdtemp(prefix='segscan-groups-')
    grp = 'u'
    L = kafka.Log()
    L.append([kafka.offset_commit(grp, 'x', 0, 5, T0)], T0)
    L.append([(b'\0\x63' + kafka.string('u%d' % i), b'\0\0') for i in range(12)] +
             [(b'\0\x62' + kafka.string('v'), b'\0\0')], T0 + 10)
    p = kafka.coordinator_partition(grp)
    L.write(co_dir(d, p))
    h = H([d])
    logs = [o for o in h.objs if o['type'] == 'offsets-partition']
    eq(len(logs), 1, 'unknown types: one offsets-partition')
    eq((logs[0]['unknownRecords'], logs[0]['unknownRecordTypes'], logs[0]['unknownRecordsOfOtherTypes']),
       (13, [{'recordType': 99, 'records': 12}, {'recordType': 98, 'records': 1}], 0), 'unknown types: counted by type')
    notes = [l for l in h.err.splitlines() if 'Unknown record type' in l]
    eq(len(notes), 10, 'unknown types: the first 10 records noted:\n' + h.err)
    check(any('and 3 more records of unknown types' in l for l in h.err.splitlines()), 'and 3 more:\n' + h.err)
    out = subprocess.run([segscan, 'groups', d], stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout.decode()
    check('13 records of record types segscan does not know: type 99 (12), type 98 (1)' in out, out)


def test_cli():
    """Usage errors, no __consumer_offsets, windows restrict the listing only."""
    if only and only not in 'cli':
        return
    d = tempfile.mkdtemp(prefix='segscan-groups-')
    os.makedirs(os.path.join(d, 'x-0'))
    kafka.write_partition(os.path.join(d, 'x-0'), {0: kafka.batch(0, [(b'k', b'v')])})
    p = subprocess.run([segscan, 'groups', d], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    eq(p.returncode, 2, 'cli: no __consumer_offsets among the inputs: exit 2')
    check(b'no __consumer_offsets' in p.stderr, 'cli: says why')
    grp = 'w'
    L = kafka.Log()
    L.append([kafka.group_metadata(grp, 1, T0, [kafka.Member('w-1', {'x': [0]})])], T0)
    L.append([kafka.offset_commit(grp, 'x', 0, 5, T0 + 1000)], T0 + 1000)
    L.append([kafka.offset_commit(grp, 'x', 0, 9, T0 + 2000)], T0 + 2000)
    L.write(co_dir(d, kafka.coordinator_partition(grp)))
    h = H(['--commits', '--since', str(T0 + 1500), d])
    eq([c['offset'] for c in h.commits(grp)], [9], 'cli: --since lists the later commit only')
    eq(h.group(grp)['commits'] if h.group(grp) else None, 2, 'cli: --since does not change what is known')
    eq(h.group(grp)['committed'] if h.group(grp) else None, {'x-0': 9}, 'cli: committed is the end state')
    h = H(['--commits', '--to-offset', '6', d])
    eq([c['offset'] for c in h.commits(grp)], [5], 'cli: --to-offset lists commits of data offsets <= 6')
    h = H(['--group', 'nope', d])
    eq([o for o in h.objs if o['type'] == 'consumer-group'], [], 'cli: --group of an unknown group lists none')
    h = H(['--partitions', '7', d])
    g = h.group(grp)
    eq(g['expectedCoordinatorPartition'] if g else None, kafka.coordinator_partition(grp, 7), 'cli: --partitions 7')
    p = subprocess.run([segscan, 'groups', '--commits', '--max-memory', '1', d], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    check(b'offset 5' in p.stdout and b'offset 9' in p.stdout, 'cli: --max-memory 1 spills and still lists the commits')
    check(b'went through temporary files' in p.stderr, 'cli: and says so')
    # many commits: the list goes through sorted runs in temporary files (8192 commits at least
    # each) merged at the end, and comes out as it does from memory: by topic, partition, then log
    # order. 300 batches of 150 commits: x-0..x-2 each get offsets 1..15000.
    big = 'big'
    L = kafka.Log()
    for b in range(300):
        L.append([kafka.offset_commit(big, 'x', i % 3, b * 50 + i // 3 + 1, T0 + b) for i in range(150)], T0 + b)
    L.write(co_dir(d, kafka.coordinator_partition(big)))
    h1 = H(['--commits', '--group', big, d])
    h2 = H(['--commits', '--group', big, '--max-memory', '1', d])
    c1 = [(c['partition'], c['offset']) for c in h1.commits(big)]
    eq(len(c1), 45000, 'cli: 45000 commits listed')
    eq(c1[:2] + c1[14999:15001] + c1[-1:], [(0, 1), (0, 2), (0, 15000), (1, 1), (2, 15000)],
       'cli: by partition, then log order')
    check(c1 == [(c['partition'], c['offset']) for c in h2.commits(big)], 'cli: the same list through temporary files')
    check('went through temporary files' in h2.err, 'cli: --max-memory 1 spilled')
    p = subprocess.run([segscan, 'groups', '--bogus', d], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    eq(p.returncode, 2, 'cli: unknown option')
    shutil.rmtree(d)


for t in (test_streams_regex, test_topic_id_sources, test_regex_corpus_topic_ids, test_streams_corpus, test_streams_topology_target, test_unknown_types, test_builder, test_corpus_classic, test_corpus_eager_revocation, test_corpus_eos, test_corpus_consumer_protocol, test_eager,
          test_cooperative, test_static_member, test_eos, test_only_commits, test_offsets_deleted, test_compacted,
          test_replicas, test_kip848_revocation, test_conversion, test_cli):
    t()
sys.exit(harness.tally_exit('test_groups'))
