#!/usr/bin/env python3
"""segscan groups: the findings (records delivered twice, or possibly never) on histories built by
hand, with the data partitions beside them and without.

Every scenario writes __consumer_offsets (tests/lib/kafka.py, Kafka 4.0's record formats),
the data partitions it reads (tests/lib/kafka.py) and, for exactly-once applications,
__transaction_state. Expected values are derived by hand from what each scenario writes, with the
Kafka behaviour it stands for cited beside it; each range is also checked to contain what
"actually happened" in the scenario's story and to lie within the records present.

Kafka's consumer side the expectations rest on:
- a consumer resumes a partition from its group's committed offset
  (ConsumerCoordinator.onJoinComplete -> refreshCommittedOffsetsIfNeeded, an OffsetFetch); with
  none, auto.offset.reset decides (KafkaConsumer docs: earliest, latest, none);
- a member that stops polling is removed after max.poll.interval.ms, or after session.timeout.ms
  without heartbeats, and its partitions go to others in the next generation
  (GroupMetadataManager / ClassicGroup: removeMemberAndUpdateGroup, prepareRebalance);
- the committed offset follows OffsetMetadataManager.replay / replayEndTransactionMarker.

usage: test_findings.py SEGSCAN [-k NAME]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import kafka
import harness
from harness import tally as check, tally_eq as eq

segscan = os.path.abspath(sys.argv[1])
only = sys.argv[sys.argv.index('-k') + 1] if '-k' in sys.argv else None
T0 = kafka.T0
TMP = []


def run(args):
    rc, out, err = harness.call(['groups', '--json'] + args, binary=segscan, timeout=None)
    return rc, [json.loads(line) for line in out.splitlines() if line.strip()], err


def findings(args, group=None, kind=None, topic=None, partition=None):
    rc, objs, err = run(args)
    check(rc == 0, 'groups %s: exit %d (%s)' % (' '.join(args), rc, err.strip()))
    return [o for o in objs if o['type'] == 'group-finding' and (group is None or o['group'] == group) and
            (kind is None or o['kind'] == kind) and (topic is None or o['topic'] == topic) and
            (partition is None or o['partition'] == partition)]


def one(fs, what):
    eq(len(fs), 1, what + ': one finding')
    return fs[0] if fs else {}


def rng(r):
    return None if r is None else (r['from'], r['to'], r['records'], r['certain'])


def holds(r, offsets, what):
    """the range r holds every offset of `offsets` (what happened in the scenario)"""
    if r is None:
        check(not offsets, '%s: no range, yet %r happened' % (what, sorted(offsets)))
        return
    lo, hi = r['from'], r['to']
    check(all(o >= lo and (hi is None or o <= hi) for o in offsets),
          '%s: %r does not hold what happened, %r' % (what, (lo, hi), sorted(offsets)))


def within(r, first, last, what):
    """the range lies within the records present [first, last]"""
    if r is None:
        return
    check(r['from'] >= first and r['to'] is not None and r['to'] <= last,
          '%s: %r not within the records present %r' % (what, (r['from'], r['to']), (first, last)))


def scenario(name):
    if only and only not in name:
        return None
    return tempdir()


def tempdir():
    d = tempfile.mkdtemp(prefix='segscan-findings-')
    TMP.append(d)
    return d


def co_dir(d, group):
    return os.path.join(d, '__consumer_offsets-%d' % kafka.coordinator_partition(group))


def data(d, topic, p, batches, lat=True, base=0, **kw):
    """A data partition topic-p: batches [(n records, maxTimestamp)] at consecutive offsets from
    base, each its own batch (LogAppendTime by default: maxTimestamp is the append time)."""
    out, at = b'', base
    for n, ts in batches:
        out += kafka.batch(at, [(None, b'%s-%d-%d' % (topic.encode(), p, at + i)) for i in range(n)],
                           base_ts=ts, max_ts=ts, ts_deltas=[0] * n, log_append_time=lat, **kw)
        at += n
    kafka.write_partition(os.path.join(d, '%s-%d' % (topic, p)), {base: out})
    return at


def every_second(n_batches, size, t=1000):
    """n batches of `size` records, batch k appended at T0 + t*(k+1)"""
    return [(size, T0 + t * (k + 1)) for k in range(n_batches)]


# ---- classic eager: a member crashes, its partition goes to the other -----------------------------

def test_eager():
    """Group 'eager' reads orders-0 and orders-1 (range assignor, classic eager protocol). Member A
    owns orders-0 and commits it every second (10 at +1.5 s ... 40 at +4.5 s); it crashes at +5.3 s
    having processed the records present then (the batches of +1 s .. +5 s: offsets 0..49), so it
    processed 40..49 past its last commit. The coordinator removes it on its session timeout and
    generation 2 (+7.2 s) gives orders-0 to B, which resumes from 40: records 40..49 came twice."""
    d = scenario('eager')
    if not d:
        return
    g = 'eager'
    a, b = 'eager-a-1111', 'eager-b-2222'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member(a, {'orders': [0]}), kafka.Member(b, {'orders': [1]})])], T0 + 500)
    for k in range(4):
        t = T0 + 1500 + 1000 * k
        L.append([kafka.offset_commit(g, 'orders', 0, 10 * (k + 1), t)], t)
        L.append([kafka.offset_commit(g, 'orders', 1, 10 * (k + 1), t + 1)], t + 1)
    L.append([kafka.group_metadata(g, 2, T0 + 7200, [kafka.Member(b, {'orders': [0, 1]})])], T0 + 7200)
    L.append([kafka.offset_commit(g, 'orders', 0, 70, T0 + 8000)], T0 + 8000)
    for name, lat in (('lat', True), ('create', False)):
        dd = os.path.join(d, name)
        L.write(co_dir(dd, g))
        # ten batches of ten records, batch k appended at T0 + 1000*(k+1): offsets 10k..10k+9
        data(dd, 'orders', 0, every_second(10, 10), lat=lat)
        data(dd, 'orders', 1, every_second(10, 10), lat=lat)
        fs = findings([dd], g)
        h = one([f for f in fs if f['kind'] == 'handover'], 'eager %s' % name)
        eq([(f['kind'], f['topic'], f['partition']) for f in fs], [('handover', 'orders', 0)],
           'eager %s: one handover, of orders-0 only (orders-1 stayed with B: the same member id)' % name)
        eq((h.get('time'), h.get('resumedOffset'), (h.get('previousOwner') or {}).get('memberId'),
            (h.get('newOwner') or {}).get('memberId'), h.get('sameInstance')),
           (T0 + 7200, 40, a, b, False), 'eager %s: when, resumed from, who to whom' % name)
        # A's commits while it owned orders-0: +1.5, +2.5, +3.5, +4.5 s: intervals 1000 ms;
        # it lost the partition at +7.2 s, 2.7 s after its last commit: it had stopped (not clean)
        eq((h.get('previousOwnerCommits'), h.get('previousOwnerLastCommit'), h.get('commitIntervalMs'), h.get('clean')),
           (4, {'time': T0 + 4500, 'offset': 40, 'outcome': None}, 1000, False), 'eager %s: the previous owner' % name)
        eq(h.get('timeBasis'), 'LogAppendTime' if lat else 'CreateTime', 'eager %s: basis' % name)
        # present at +7.2 s: the batches appended at +1 .. +7 s, offsets 0..69 (70 is the first
        # offset not present): possibly twice 40..69, 30 records
        eq(rng(h.get('redelivered')), (40, 69, 30, False), 'eager %s: possibly delivered twice' % name)
        # likely: written before its last commit + one interval (+5.5 s): batches +1 .. +5 s, 0..49
        eq(rng(h.get('likelyRedelivered')), (40, 49, 10, False), 'eager %s: likely' % name)
        holds(h.get('redelivered'), range(40, 50), 'eager %s: redelivered' % name)
        holds(h.get('likelyRedelivered'), range(40, 50), 'eager %s: likely' % name)
        within(h.get('redelivered'), 0, 99, 'eager %s' % name)
    # without the data partitions: offsets only, the end unknown
    dd = os.path.join(d, 'nodata')
    L.write(co_dir(dd, g))
    h = one(findings([dd], g, 'handover'), 'eager without data')
    eq((h.get('dataRead'), h.get('timeBasis'), rng(h.get('redelivered')), h.get('likelyRedelivered')),
       (False, None, (40, None, None, False), None), 'eager without data: offsets only')


# ---- classic cooperative: revoked in one generation, assigned in the next -------------------------

def test_cooperative():
    """Group 'coop' (cooperative-sticky). Generation 1 gives pay-0 and pay-1 to A; B joins, and
    generation 2 (+4.0 s) takes pay-1 from A without giving it to anyone (the cooperative protocol's
    first rebalance: ConsumerCoordinator.onJoinComplete revokes, then rejoins); A commits pay-1 in
    its onPartitionsRevoked listener at +4.1 s (offset 40: every record present then, 0..39);
    generation 3 (+4.6 s) gives pay-1 to B. One handover, not two; clean; and nothing present at
    the handover lay at or above the resumed offset."""
    d = scenario('cooperative')
    if not d:
        return
    g, a, b = 'coop', 'coop-a-1', 'coop-b-1'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member(a, {'pay': [0, 1]})], protocol='cooperative-sticky')], T0 + 500)
    for k in range(3):
        t = T0 + 1500 + 1000 * k
        L.append([kafka.offset_commit(g, 'pay', 1, 10 * (k + 1), t)], t)
    L.append([kafka.group_metadata(g, 2, T0 + 4000, [kafka.Member(a, {'pay': [0]}), kafka.Member(b, {})],
                               protocol='cooperative-sticky')], T0 + 4000)
    L.append([kafka.offset_commit(g, 'pay', 1, 40, T0 + 4100)], T0 + 4100)
    L.append([kafka.group_metadata(g, 3, T0 + 4600, [kafka.Member(a, {'pay': [0]}), kafka.Member(b, {'pay': [1]})],
                               protocol='cooperative-sticky')], T0 + 4600)
    L.write(co_dir(d, g))
    data(d, 'pay', 0, every_second(10, 10))
    data(d, 'pay', 1, every_second(10, 10))
    fs = findings([d], g)
    eq([(f['kind'], f['partition'], f['time']) for f in fs], [('handover', 1, T0 + 4600)],
       'coop: one handover of pay-1, at generation 3')
    h = fs[0] if fs else {}
    # A owned pay-1 in generation 1; its commits: +1.5, +2.5, +3.5 s while it owned it, and +4.1 s
    # after losing it (counted for it: nobody else had it); its cadence 1000 ms; its last commit
    # came after it lost the partition: it went on committing (clean)
    eq((h.get('resumedOffset'), h.get('previousOwnerCommits'), h.get('previousOwnerLastCommit'),
        h.get('commitIntervalMs'), h.get('clean')),
       (40, 4, {'time': T0 + 4100, 'offset': 40, 'outcome': None}, 1000, True), 'coop: resumed, the previous owner, clean')
    # present at +4.6 s: batches +1 .. +4 s, offsets 0..39: all below 40
    eq((h.get('caughtUp'), h.get('redelivered'), h.get('likelyRedelivered')), (True, None, None),
       'coop: nothing to deliver twice')


# ---- static membership: the same group.instance.id under a new member id -------------------------

def test_static():
    """Group 'static': a static member (group.instance.id inst-1) restarts. Kafka keeps the
    generation and replaces the member id (ClassicGroup.replaceStaticMember; the coordinator stores
    the group again: a GroupMetadata record of the same generation with the new member id). The new
    member resumes from the committed offset, 33: what the old one read past it comes twice.
    st-0's batch 30..39 was compacted (offsets 30, 32, 34, 36, 38 kept): the range 33..39 holds
    three records (34, 36, 38), counted from the batch itself."""
    d = scenario('static')
    if not d:
        return
    g, m1, m2 = 'static', 'st-1-aaaa', 'st-1-bbbb'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member(m1, {'st': [0]}, instance_id='inst-1')])], T0 + 500)
    for k, off in enumerate((10, 20, 33)):
        t = T0 + 1500 + 1000 * k
        L.append([kafka.offset_commit(g, 'st', 0, off, t)], t)
    L.append([kafka.group_metadata(g, 1, T0 + 4200, [kafka.Member(m2, {'st': [0]}, instance_id='inst-1')])], T0 + 4200)
    L.write(co_dir(d, g))
    # st-0: batches of ten at +1, +2, +3 s (0..29), the compacted one at +4 s (30..39, five kept),
    # ten more at +5 s (40..49)
    out = b''
    for k in range(3):
        out += kafka.batch(10 * k, [(None, b'v')] * 10, base_ts=T0 + 1000 * (k + 1), max_ts=T0 + 1000 * (k + 1),
                           ts_deltas=[0] * 10, log_append_time=True)
    out += kafka.batch(30, [(None, b'v')] * 5, base_ts=T0 + 4000, max_ts=T0 + 4000, ts_deltas=[0] * 5,
                       log_append_time=True, offset_deltas=[0, 2, 4, 6, 8], last_offset_delta=9)
    out += kafka.batch(40, [(None, b'v')] * 10, base_ts=T0 + 5000, max_ts=T0 + 5000, ts_deltas=[0] * 10,
                       log_append_time=True)
    kafka.write_partition(os.path.join(d, 'st-0'), {0: out})
    h = one(findings([d], g, 'handover'), 'static')
    eq(((h.get('previousOwner') or {}).get('memberId'), (h.get('newOwner') or {}).get('memberId'),
        (h.get('newOwner') or {}).get('groupInstanceId'), h.get('sameInstance'), h.get('time'), h.get('resumedOffset')),
       (m1, m2, 'inst-1', True, T0 + 4200, 33), 'static: a handover to the same instance')
    # present at +4.2 s: batches up to +4 s, offsets 0..39; 33..39 holds 34, 36, 38
    eq(rng(h.get('redelivered')), (33, 39, 3, False), 'static: possibly twice, counted in the compacted batch')
    # commits +1.5, +2.5, +3.5 s: interval 1000; lost at +4.2 s, 0.7 s after the last: clean
    eq((h.get('commitIntervalMs'), h.get('clean')), (1000, True), 'static: cadence and clean')
    # likely: none. m1 went on committing at its pace until it was replaced (clean), and it is gone
    # without a sign of an unclean stop (its last commit 0.7 s before, under its session timeout of
    # 45 s): the records show neither a crash nor a clean shutdown, so 33..39 stay possible
    eq((h.get('likelyRedelivered'), h.get('revocation')), (None, 'absent'), 'static: nothing likely')
    within(h.get('redelivered'), 0, 49, 'static')


# ---- KIP-848 -------------------------------------------------------------------------------------

def test_kip848():
    """Two consumer-protocol groups on topic t (one topic id). 'k1': member a owns t-1 and commits
    it every second (10, 20, 30 at +1, +2, +3 s); it crashes, and at +9.0 s the coordinator fences
    it (GroupMetadataManager: the member's current assignment and metadata tombstones, a new group
    epoch); at +9.1 s b's assignment holds t-1. 'k2': a revocation in flight: b joins, a keeps t-1
    pending revocation, commits it at +3.7 s (40), acknowledges at +3.8 s, and b gets it at +3.9 s."""
    d = scenario('kip848')
    if not d:
        return
    tid = 'MJb0OdkyOsjVihzuZl_WhA'
    a, b = 'AAAAAAAAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBBBBBBBA'
    # t-1: ten records a batch, batch k appended at T0 + 1000k + 500 (0..9 at +0.5 s, ...)
    batches = [(10, T0 + 1000 * k + 500) for k in range(10)]
    data(d, 't', 1, batches)
    g = 'k1'
    L = kafka.Log()
    L.append([kafka.cg_member(g, a, 'k1-a', topics=['t']), kafka.cg_partition_metadata(g, {tid: ('t', 2)}),
              kafka.cg_epoch(g, 1), kafka.cg_assignment(g, a, 1, 0, kafka.STABLE, {tid: [0, 1]})], T0)
    for k in range(3):
        t = T0 + 1000 * (k + 1)
        L.append([kafka.offset_commit(g, 't', 1, 10 * (k + 1), t)], t)
    L.append([kafka.cg_assignment_tombstone(g, a), kafka.cg_member_tombstone(g, a), kafka.cg_epoch(g, 2)], T0 + 9000)
    L.append([kafka.cg_member(g, b, 'k1-b', topics=['t']), kafka.cg_epoch(g, 3),
              kafka.cg_assignment(g, b, 3, 0, kafka.STABLE, {tid: [0, 1]})], T0 + 9100)
    g2 = 'k2'
    L2 = kafka.Log() if kafka.coordinator_partition(g2) != kafka.coordinator_partition(g) else L
    L2.append([kafka.cg_member(g2, a, 'k2-a', topics=['t']), kafka.cg_partition_metadata(g2, {tid: ('t', 2)}),
               kafka.cg_epoch(g2, 1), kafka.cg_assignment(g2, a, 1, 0, kafka.STABLE, {tid: [0, 1]})], T0 + 9200)
    # k2 commits t-1 at 10, 20, 30 (+9.3, +9.4, +9.5 s: within the records present, 0..89)
    for k in range(3):
        L2.append([kafka.offset_commit(g2, 't', 1, 10 * (k + 1), T0 + 9300 + 100 * k)], T0 + 9300 + 100 * k)
    L2.append([kafka.cg_member(g2, b, 'k2-b', topics=['t']), kafka.cg_epoch(g2, 2),
               kafka.cg_assignment(g2, b, 2, 0, kafka.UNRELEASED_PARTITIONS, {})], T0 + 9600)
    L2.append([kafka.cg_assignment(g2, a, 1, 1, kafka.UNREVOKED_PARTITIONS, {tid: [0]}, {tid: [1]})], T0 + 9610)
    L2.append([kafka.offset_commit(g2, 't', 1, 90, T0 + 9620)], T0 + 9620)
    L2.append([kafka.cg_assignment(g2, a, 2, 1, kafka.STABLE, {tid: [0]})], T0 + 9630)
    L2.append([kafka.cg_assignment(g2, b, 2, 2, kafka.STABLE, {tid: [1]})], T0 + 9640)
    L.write(co_dir(d, g))
    if L2 is not L:
        L2.write(co_dir(d, g2))
    # a's fencing leaves k1 without members (its tombstones at +9.0 s: GroupMetadataManager.removeMember)
    # until b joins at +9.1 s: not a handover from a to b, the group was empty between them
    eq(findings([d], g, 'handover', 't', 1), [], 'k1: no handover across the empty group')
    fs = findings([d], g, 'empty-group', 't', 1)
    h = one(fs, 'k1')
    eq((h.get('time'), h.get('resumedOffset'), (h.get('previousOwner') or {}).get('memberId'),
        (h.get('newOwner') or {}).get('memberId'), h.get('emptySince'), h.get('whileEmpty')),
       (T0 + 9100, 30, a, b, T0 + 9000, []), 'k1: empty from a\'s fencing until b got t-1')
    # present when a lost it (+9.0 s): batches up to +8.5 s, offsets 0..89: possibly twice 30..89 (60 records);
    # a committed every 1000 ms, the last at +3 s: likely before +4 s, 0..39: 30..39
    eq(rng(h.get('redelivered')), (30, 89, 60, False), 'k1: possibly twice')
    eq(rng(h.get('likelyRedelivered')), (30, 39, 10, False), 'k1: likely')
    eq((h.get('commitIntervalMs'), h.get('clean')), (1000, False), 'k1: not clean (lost it at +9.0 s)')
    # a read what was present until it crashed (say +3.2 s: 0..29 and nothing more yet; it had read
    # 30..39 appended at +3.5 s only had it lived): nothing, or 30..39 - within both
    holds(h.get('redelivered'), range(30, 40), 'k1')
    within(h.get('redelivered'), 0, 99, 'k1')
    h2 = one(findings([d], g2, 'handover', 't', 1), 'k2')
    # a committed 90 during the revocation (+9.62 s), acknowledged at +9.63 s; b got it at +9.64 s:
    # present then 0..99 (the last batch, 90..99, came at +9.5 s); resumed 90: a may have read
    # 90..99 before it let go; a's last commit lay within its interval (commits every 100 ms, then
    # 120 ms: the median of 100, 100, 120 is 100) of losing it: clean
    eq((h2.get('time'), h2.get('resumedOffset'), h2.get('caughtUp'), h2.get('clean'), h2.get('commitIntervalMs'),
        rng(h2.get('redelivered'))), (T0 + 9640, 90, False, True, 100, (90, 99, 10, False)),
       'k2: the revocation in flight, a clean handover')


# ---- rewinds and resets ---------------------------------------------------------------------------

def test_rewind_reset():
    """'rw': the committed offset of rw-0 goes 400 -> 250 while the group has a member, then on to
    450, then 450 -> 300, never passed again. Neither rewind is certain: no later commit lies
    between the new and the old offset, and a late commit (an older position's commitAsync landing
    after a newer one) moves the committed offset back the same way while the member's position
    stays, re-reading nothing (the manual names it as a cause). 'rw2': 400 -> 250, then 300 and 350
    (commits stepping through 250..399: the member's position was back there) - 250..349 certain,
    350..399 possible (no commit past 400 followed). 'rs': the group empties (generation 2 without
    members), an admin resets rs-0 from 200 to 50 (kafka-consumer-groups.sh --reset-offsets needs
    an empty group: ConsumerGroupCommand; it writes a plain OffsetCommit), B joins (generation 3)
    and commits 250."""
    d = scenario('rewind')
    if not d:
        return
    for t in ('rw', 'rs'):
        data(d, t, 0, every_second(10, 100))   # batch k: offsets 100k..100k+99 at T0 + 1000(k+1)
    L = kafka.Log()
    g = 'rw'
    L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member('rw-a', {'rw': [0]})])], T0 + 100)
    for t, off in ((2000, 200), (3000, 300), (4000, 400), (5000, 250), (6000, 450), (7000, 300)):
        L.append([kafka.offset_commit(g, 'rw', 0, off, T0 + t)], T0 + t)
    L.write(co_dir(d, g))
    data(d, 'rw2', 0, every_second(10, 100))
    W = kafka.Log()
    W.append([kafka.group_metadata('rw2', 1, T0 + 100, [kafka.Member('rw2-a', {'rw2': [0]})])], T0 + 100)
    for t, off in ((4000, 400), (5000, 250), (6000, 300), (7000, 350)):
        W.append([kafka.offset_commit('rw2', 'rw2', 0, off, T0 + t)], T0 + t)
    W.write(co_dir(d, 'rw2'))
    M = kafka.Log()
    g2 = 'rs'
    M.append([kafka.group_metadata(g2, 1, T0 + 100, [kafka.Member('rs-a', {'rs': [0]})])], T0 + 100)
    M.append([kafka.offset_commit(g2, 'rs', 0, 100, T0 + 2000)], T0 + 2000)
    M.append([kafka.offset_commit(g2, 'rs', 0, 200, T0 + 3000)], T0 + 3000)
    M.append([kafka.group_metadata(g2, 2, T0 + 3500, [])], T0 + 3500)
    M.append([kafka.offset_commit(g2, 'rs', 0, 50, T0 + 4000, leader_epoch=-1)], T0 + 4000)
    M.append([kafka.group_metadata(g2, 3, T0 + 5000, [kafka.Member('rs-b', {'rs': [0]})])], T0 + 5000)
    M.append([kafka.offset_commit(g2, 'rs', 0, 250, T0 + 6000)], T0 + 6000)
    M.write(co_dir(d, g2))
    fs = findings([d], g)
    eq([(f['kind'], f['time'], f['fromOffset'], f['toOffset'], rng(f['redelivered']), f.get('certainRedelivered'))
        for f in fs],
       [('rewind', T0 + 5000, 400, 250, (250, 399, 150, False), None),
        ('rewind', T0 + 7000, 450, 300, (300, 449, 150, False), None)], 'rw: two rewinds, neither certain')
    # what may have happened: the consumer read 250..399 again (if it sought back); 300..449 may come
    if len(fs) == 2:
        holds(fs[0]['redelivered'], range(250, 400), 'rw 1')
        within(fs[0]['redelivered'], 0, 999, 'rw 1')
        within(fs[1]['redelivered'], 0, 999, 'rw 2')
    # rw2: the rewind at +5 s, 400 -> 250; present then 0..499 (batches to +5 s); the member
    # committed 400 itself (readBound 400, the log end at +4 s is 400); its later commits 300 and 350
    # lie between 250 and 400: 250..349 read again, certain; none passed 400: 350..399 possible
    f = one(findings([d], 'rw2', 'rewind'), 'rw2')
    eq((rng(f.get('redelivered')), rng(f.get('certainRedelivered')), f.get('readBound')),
       ((250, 399, 150, False), (250, 349, 100, True), 400), 'rw2: commits stepping through: a certain part')
    fs = findings([d], g2)
    eq([(f['kind'], f['time']) for f in fs], [('reset', T0 + 4000), ('empty-group', T0 + 5000)],
       'rs: a reset, then B after the empty generation (no handover: nobody owned rs-0 between)')
    r = fs[0] if fs else {}
    eq((r.get('fromOffset'), r.get('toOffset'), rng(r.get('redelivered'))), (200, 50, (50, 199, 150, True)),
       'rs: reset 200 -> 50, certain (B committed 250 since)')
    h = fs[1] if len(fs) > 1 else {}
    # B resumed from 50 at +5 s. A committed +2, +3 s (interval 1000) and lost rs-0 at +3.5 s (the
    # empty generation): clean. What A can have read past its last commit (200) was present at
    # +3.5 s: 0..299, so 200..299 possibly twice; 50..199 come of the reset (its own finding);
    # 300..499 were written while the group was empty or later: read once, by B
    eq((h.get('resumedOffset'), h.get('clean'), rng(h.get('redelivered')), h.get('likelyRedelivered'),
        h.get('emptySince'), h.get('whileEmpty')),
       (50, True, (200, 299, 100, False), None, T0 + 3500, ['reset']), 'rs: what the empty group shows')
    # the admin's commit of 50 in the empty group is not rs-a's (an empty group takes only commits
    # without a generation: ClassicGroup.validateOffsetCommit): rs-a committed twice, last 200 at +3 s
    eq((h.get('previousOwnerCommits'), h.get('previousOwnerLastCommit')), (2, {'time': T0 + 3000, 'offset': 200, 'outcome': None}),
       'rs: the reset is not the previous owner\'s commit')
    # --fail-on rewind: a rewind (or reset) is listed: exit 1
    rc, _, _ = run(['--fail-on', 'rewind', d])
    eq(rc, 1, 'rs/rw: --fail-on rewind exits 1')
    rc, _, _ = run(['--fail-on', 'skipped', d])
    eq(rc, 0, 'rs/rw: --fail-on skipped exits 0 (nothing possibly skipped)')
    # --group: the history of one group is the same whether or not the others are replayed
    a = findings([d], g)
    b = findings(['--group', g, d], g)
    eq(b, a, 'rw: --group rw lists the same findings')


# ---- offsets deleted ---------------------------------------------------------------------------------

def test_offsets_deleted():
    """Two groups that only commit (assign() and commitSync: no members) on od-0. 'de': committed
    300, the offset is deleted at +5 s, the group commits 0 next (+6 s: the log start - consistent
    with auto.offset.reset=earliest), then 350. 'dl': committed 200, deleted at +4 s, the next
    commit is 600 at +6.5 s, the log end then (batches up to +6 s: 0..599) - consistent with
    auto.offset.reset=latest; 200..599 possibly never received."""
    d = scenario('deleted')
    if not d:
        return
    d2 = tempdir()
    for g, dd, steps in (('de', d, [(4000, 300), (5000, None), (6000, 0), (7000, 350)]),
                         ('dl', d2, [(3000, 200), (4000, None), (6500, 600)])):
        data(dd, 'od', 0, every_second(10, 100))
        L = kafka.Log()
        for t, off in steps:
            L.append([kafka.offset_tombstone(g, 'od', 0) if off is None else kafka.offset_commit(g, 'od', 0, off, T0 + t)], T0 + t)
        L.write(co_dir(dd, g))
    f = one(findings([d], 'de', 'offsets-deleted'), 'de')
    eq((f.get('time'), f.get('lastCommittedOffset'), f.get('restartOffset'), f.get('restartTime'),
        rng(f.get('redelivered')), f.get('skipped'), f.get('consistentWith')),
       (T0 + 5000, 300, 0, T0 + 6000, (0, 299, 300, True), None, 'auto.offset.reset=earliest'),
       'de: restarted at the log start: 0..299 again (certain: it committed 350 since)')
    holds(f.get('redelivered'), range(0, 300), 'de')
    dl = [d2]
    f = one(findings(dl, 'dl', 'offsets-deleted'), 'dl')
    eq((f.get('lastCommittedOffset'), f.get('restartOffset'), f.get('redelivered'), rng(f.get('skipped')),
        f.get('consistentWith')),
       (200, 600, None, (200, 599, 400, False), 'auto.offset.reset=latest'),
       'dl: committed the log end next: 200..599 possibly never received')
    within(f.get('skipped'), 0, 999, 'dl')
    rc, _, _ = run(['--fail-on', 'skipped'] + dl)
    eq(rc, 1, 'dl: --fail-on skipped exits 1')
    # without the data partition: offsets only, no 'consistent with'
    f = one(findings([os.path.join(d2, '__consumer_offsets-%d' % kafka.coordinator_partition('dl'))], 'dl',
                     'offsets-deleted'), 'dl without data')
    eq((rng(f.get('skipped')), f.get('consistentWith'), f.get('dataRead')), ((200, 599, None, False), None, False),
       'dl without data')


# ---- out of range ---------------------------------------------------------------------------------

def test_out_of_range():
    """'oo' commits or-0 150 at +1.5 s and 160 at +1.6 s while or-0 held 0..99 (one batch appended
    at +1 s): past its log end then; 200 at +2.5 s is in range again; 5000 at +9.5 s (or-0 held
    0..899 then) is past even the end of the copy read (1000). 'ob' committed 50 on or-1, whose
    log starts at 300 now."""
    d = scenario('range')
    if not d:
        return
    data(d, 'or', 0, every_second(10, 100))
    L = kafka.Log()
    for t, off in ((1500, 150), (1600, 160), (2500, 200), (9500, 5000)):
        L.append([kafka.offset_commit('oo', 'or', 0, off, T0 + t)], T0 + t)
    L.write(co_dir(d, 'oo'))
    d2 = tempdir()
    data(d2, 'or', 1, [(100, T0 + 1000)], base=300)
    M = kafka.Log()
    M.append([kafka.offset_commit('ob', 'or', 1, 50, T0 + 500)], T0 + 500)
    M.write(co_dir(d2, 'ob'))
    fs = findings([d], 'oo', 'out-of-range')
    eq([(f['time'], f['commitOffset'], f['logEndOffset'], f['commits'], f['lastTime'], f['below'], f['pastCopyEnd'])
        for f in fs],
       [(T0 + 1500, 150, 100, 2, T0 + 1600, False, False), (T0 + 9500, 5000, 900, 1, T0 + 9500, False, True)],
       'oo: two runs out of range')
    f = one(findings([d2], 'ob', 'out-of-range'), 'ob')
    eq((f.get('commitOffset'), f.get('logStartOffset'), f.get('below')), (50, 300, True), 'ob: below the log start')


# ---- exactly-once, transaction version 1 ------------------------------------------------------------

def eos_txn(L, outs, pid, epoch, group, topic_in, commit, t, marker_epoch=None, commit_marker=True, values=None):
    """One transaction of a read-process-write application: its output batches (outs: list of
    (Log, n)), then the TxnOffsetCommit of its input (sendOffsetsToTransaction), then the markers
    in every partition it wrote (TransactionMarkerChannelManager), epoch marker_epoch (default the
    data's, transaction version 1)."""
    me = epoch if marker_epoch is None else marker_epoch
    for log, n in outs:
        recs = [(None, v) for v in values[:n]] if values else [(None, b'out')] * n
        log.append(recs, t, pid=pid, epoch=epoch, transactional=True)
    L.append([kafka.offset_commit(group, topic_in, 0, commit, t + 10)], t + 10, pid=pid, epoch=epoch, transactional=True)
    if commit_marker is None:
        return
    for log, _ in outs:
        log.marker(pid, me, commit_marker, t + 50)
    L.marker(pid, me, commit_marker, t + 50)


def test_eos_v1():
    """'eos1' reads in1-0 and writes out1-0 (and out1-1) with transactional.id tx1, producer id 500
    (transaction version 1: markers keep the epoch). Transactions (T0 + ...):
      +1 s  out1-0 0..9, commits 10, COMMIT
      +2 s  out1-0 11..20, commits 20, ABORT (its producer's abortTransaction: epoch 0 on the marker)
      +3 s  out1-0 22..31, commits 20, COMMIT (the input 10..19 processed again)
      +4 s  out1-0 33..42 and out1-1 0..4, commits 30; a new instance calls initTransactions: the
            coordinator aborts the open transaction with the epoch raised to 1 (prepareFenceProducerEpoch,
            TransactionCoordinator.handleInitProducerId on Ongoing), markers ABORT epoch 1 at +4.5 s
      +5 s  the new instance (epoch 2: the retried InitProducerId bumps again) out1-0 45..54, commits 30, COMMIT
    __transaction_state says so: PrepareAbort epoch 1 0.51 s after the transaction began, well within
    its 60 s timeout (not a timeout abort)."""
    d = scenario('eos1')
    if not d:
        return
    g, pid = 'eos1', 500
    data(d, 'in1', 0, [(10, T0 + 100 * (k + 1)) for k in range(5)])   # 0..49 by +0.5 s
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 50, [kafka.Member('eos1-m', {'in1': [0]})])], T0 + 50)
    o0, o1 = kafka.Log(), kafka.Log()
    eos_txn(L, [(o0, 10)], pid, 0, g, 'in1', 10, T0 + 1000)
    redo = [b'from-in1-%d' % i for i in range(10, 20)]   # what processing input 10..19 writes
    eos_txn(L, [(o0, 10)], pid, 0, g, 'in1', 20, T0 + 2000, commit_marker=False, values=redo)
    eos_txn(L, [(o0, 10)], pid, 0, g, 'in1', 20, T0 + 3000, values=redo)
    eos_txn(L, [(o0, 10), (o1, 5)], pid, 0, g, 'in1', 30, T0 + 4000, commit_marker=None)
    for log in (o0, o1, L):
        log.marker(pid, 1, False, T0 + 4500)
    eos_txn(L, [(o0, 10)], pid, 2, g, 'in1', 30, T0 + 5000)
    L.write(co_dir(d, g))
    o0.write(os.path.join(d, 'out1-0'))
    o1.write(os.path.join(d, 'out1-1'))
    tx = kafka.Log()
    cp = kafka.coordinator_partition(g)
    parts = {'out1-0': [0], '__consumer_offsets': [cp]}
    for st, ep, ts, start in ((kafka.ONGOING, 0, T0 + 3990, T0 + 3990), (kafka.PREPARE_ABORT, 1, T0 + 4500, T0 + 3990),
                              (kafka.COMPLETE_ABORT, 1, T0 + 4550, T0 + 3990), (kafka.EMPTY, 2, T0 + 4600, -1),
                              (kafka.ONGOING, 2, T0 + 4990, T0 + 4990), (kafka.COMPLETE_COMMIT, 2, T0 + 5060, T0 + 4990)):
        tx.append([kafka.txn_state('tx1', pid, ep, st, ts, parts if st in (kafka.ONGOING, kafka.PREPARE_ABORT) else None,
                               timeout=60000, start_ts=start)], ts)
    tx.write(os.path.join(d, '__transaction_state-%d' % kafka.coordinator_partition('tx1')))
    fs = findings([d], g)
    eq([(f['kind'], f['time']) for f in fs],
       [('aborted-commit', T0 + 2050), ('aborted-commit', T0 + 4500), ('fencing', T0 + 5010)],
       'eos1: two aborted commits and a fencing')
    if len(fs) != 3:
        return
    a1, a2, fe = fs
    eq((a1['commitOffset'], a1['producerId'], a1['producerEpoch'], a1['markerEpoch'], a1['transactionalId'],
        a1['abortedBy'], a1['bump'], a1['transactionVersion']),
       (20, pid, 0, 0, 'tx1', 'producer', None, 1), 'eos1: the first abort is its producer\'s')
    # its input, from the committed offset then (10) to 19: read again only if the application seeks
    # back to the committed offset - the consumer's position does not move on abortTransaction
    # (examples/ExactlyOnceMessageProcessor.maybeRetry restores it; Kafka Streams revives its tasks
    # from the committed offsets). The next transaction committing 20 is what an application that
    # went on past 19 without rewinding commits too: possible, not certain (certain was True here
    # before, which claimed more than the log shows). Its output out1-0 11..20, between the markers
    # of +1.05 s and +3.05 s
    eq(rng(a1['redelivered']), (10, 19, 10, False), 'eos1: the first abort\'s input, read again if rewound')
    eq([(o['partition'], o['from'], o['to'], o['records'], o['matchedBy']) for o in a1['outputs']],
       [('out1-0', 11, 20, 10, 'markers')], 'eos1: the first abort\'s output')
    eq((a2['commitOffset'], a2['markerEpoch'], a2['abortedBy'], a2['bump'], rng(a2['redelivered'])),
       (30, 1, 'coordinator', 'fenced', (20, 29, 10, False)), 'eos1: the second abort, for the new instance')
    eq(sorted((o['partition'], o['from'], o['to'], o['records']) for o in a2['outputs']),
       [('out1-0', 33, 42, 10), ('out1-1', 0, 4, 5)], 'eos1: the second abort\'s outputs, in both partitions')
    eq((fe['oldEpoch'], fe['producerEpoch'], fe['bump'], fe['abortedAt'], fe['transactionalId'], fe['topic']),
       (0, 2, 'fenced', T0 + 4500, 'tx1', None), 'eos1: the fencing')
    holds(a1['redelivered'], range(10, 20), 'eos1 a1')
    within(a1['redelivered'], 0, 49, 'eos1 a1')
    # dups: the aborted transaction's outputs (out1-0 11..20) and the next one's (22..31) hold the
    # same values; each aborted copy links exactly to the aborted offset commit of in1-0 (20)
    p = subprocess.run([segscan, 'dups', '--json', os.path.join(d, 'out1-0')], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    groups = [o for o in (json.loads(x) for x in p.stdout.decode().splitlines() if x.strip()) if o['type'] == 'group']
    links = sorted((o['offset'], o['cause'], (o.get('transactionLink') or {}).get('commitOffset'),
                    (o.get('transactionLink') or {}).get('group'), (o.get('transactionLink') or {}).get('kind'))
                   for x in groups for o in x['occurrences'] if o['cause'] == 'aborted')
    # (the fenced transaction's outputs, 33..42, repeat the value b'out' of the committed ones: they are
    # aborted copies too, linked to its commit of 30)
    eq(links, [(o, 'aborted', 20, g, 'aborted-commit') for o in range(11, 21)] +
       [(o, 'aborted', 30, g, 'aborted-commit') for o in range(33, 43)],
       'eos1: dups links each aborted copy to its aborted commit (exact)')
    p = subprocess.run([segscan, 'dups', os.path.join(d, 'out1-0')], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check('exact link: written by the transaction that carried group eos1\'s offset commit of in1-0 to 20 (the same '
          'producer id and epoch, between the same markers); aborted at' in p.stdout.decode(),
          'eos1: dups text says the link is exact:\n' + p.stdout.decode()[:2000])
    # without __transaction_state: who raised the epoch is not known
    shutil.rmtree(os.path.join(d, '__transaction_state-%d' % kafka.coordinator_partition('tx1')))
    fs = findings([d], g)
    eq([(f['kind'], f.get('bump'), f.get('transactionalId')) for f in fs],
       [('aborted-commit', None, None), ('aborted-commit', 'fenced-or-timeout', None), ('fencing', 'fenced-or-timeout', None)],
       'eos1 without __transaction_state')


def test_eos_v1_timeout():
    """'eos1t' (producer id 600, tx1t, timeout 10 s): a transaction begun at +1 s is still open at
    +11 s; the coordinator aborts it with the epoch raised (abortTimedOutTransactions:
    txnStartTimestamp + txnTimeoutMs passed; __transaction_state's PrepareAbort says 10 s after the
    start). A new instance then commits under epoch 2: not a fencing (its producer was fenced by the
    timeout), reported with the aborted commit."""
    d = scenario('eos1t')
    if not d:
        return
    g, pid = 'eos1t', 600
    data(d, 'in1t', 0, [(10, T0 + 100 * (k + 1)) for k in range(5)])
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 50, [kafka.Member('eos1t-m', {'in1t': [0]})])], T0 + 50)
    eos_txn(L, [], pid, 0, g, 'in1t', 10, T0 + 1000, commit_marker=None)
    L.marker(pid, 1, False, T0 + 11000)
    eos_txn(L, [], pid, 2, g, 'in1t', 10, T0 + 12000)
    L.write(co_dir(d, g))
    tx = kafka.Log()
    for st, ep, ts, start in ((kafka.ONGOING, 0, T0 + 1000, T0 + 1000), (kafka.PREPARE_ABORT, 1, T0 + 11000, T0 + 1000),
                              (kafka.COMPLETE_ABORT, 1, T0 + 11010, T0 + 1000), (kafka.EMPTY, 2, T0 + 11900, -1)):
        tx.append([kafka.txn_state('tx1t', pid, ep, st, ts, timeout=10000, start_ts=start)], ts)
    tx.write(os.path.join(d, '__transaction_state-%d' % kafka.coordinator_partition('tx1t')))
    fs = findings([d], g)
    eq([(f['kind'], f.get('bump'), f.get('abortedBy')) for f in fs], [('aborted-commit', 'timeout', 'coordinator')],
       'eos1t: a timeout abort, no fencing')


# ---- exactly-once, transaction version 2 ------------------------------------------------------------

def test_eos_v2():
    """'eos2' (producer id 700, tx2, clientTransactionVersion 2: KIP-890's epoch bump at the end of
    every transaction, TransactionMetadata.prepareAbortOrCommit with supportEpochBump): transaction
    n writes under epoch n and its markers carry n + 1.
      +1 s epoch 0: out2-0 0..9, commits 10, COMMIT epoch 1
      +2 s epoch 1: out2-0 11..20, commits 20, ABORT epoch 2 (its producer's abortTransaction)
      +3 s epoch 2: out2-0 22..31, commits 20, COMMIT epoch 3
    No fencing: every raise is the per-transaction bump. The aborted commit's output is found by
    producer id and epoch alone (one transaction per epoch).
    'eos2f' (producer id 800, tx2f): epoch 0 commits and COMMIT epoch 1; epoch 1 commits at +2 s; a
    new instance's initTransactions fences it: ABORT epoch 3 at +2.5 s (the fence's bump and
    version 2's own: TransactionCoordinator.endTransaction isEpochFence, then prepareAbortOrCommit),
    and the new instance writes under epoch 4."""
    d = scenario('eos2')
    if not d:
        return
    g, pid = 'eos2', 700
    data(d, 'in2', 0, [(10, T0 + 100 * (k + 1)) for k in range(5)])
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 50, [kafka.Member('eos2-m', {'in2': [0]})])], T0 + 50)
    o = kafka.Log()
    eos_txn(L, [(o, 10)], pid, 0, g, 'in2', 10, T0 + 1000, marker_epoch=1)
    eos_txn(L, [(o, 10)], pid, 1, g, 'in2', 20, T0 + 2000, marker_epoch=2, commit_marker=False)
    eos_txn(L, [(o, 10)], pid, 2, g, 'in2', 20, T0 + 3000, marker_epoch=3)
    g2, pid2 = 'eos2f', 800
    L2 = L if kafka.coordinator_partition(g2) == kafka.coordinator_partition(g) else kafka.Log()
    L2.append([kafka.group_metadata(g2, 1, T0 + 3100, [kafka.Member('eos2f-m', {'in2': [0]})])], T0 + 3100)
    eos_txn(L2, [], pid2, 0, g2, 'in2', 10, T0 + 3200, marker_epoch=1)
    eos_txn(L2, [], pid2, 1, g2, 'in2', 20, T0 + 3300, commit_marker=None)
    L2.marker(pid2, 3, False, T0 + 3800)
    eos_txn(L2, [], pid2, 4, g2, 'in2', 20, T0 + 4000, marker_epoch=5)
    L.write(co_dir(d, g))
    if L2 is not L:
        L2.write(co_dir(d, g2))
    o.write(os.path.join(d, 'out2-0'))
    tx = kafka.Log()
    tx.append([kafka.txn_state('tx2', pid, 3, kafka.COMPLETE_COMMIT, T0 + 3060, client_version=2)], T0 + 3060)
    tx.write(os.path.join(d, '__transaction_state-%d' % kafka.coordinator_partition('tx2')))
    tx2 = kafka.Log() if kafka.coordinator_partition('tx2f') != kafka.coordinator_partition('tx2') else tx
    for st, ep, ts, start in ((kafka.ONGOING, 1, T0 + 3300, T0 + 3300), (kafka.PREPARE_ABORT, 3, T0 + 3800, T0 + 3300),
                              (kafka.COMPLETE_ABORT, 3, T0 + 3810, T0 + 3300), (kafka.EMPTY, 4, T0 + 3900, -1)):
        tx2.append([kafka.txn_state('tx2f', pid2, ep, st, ts, timeout=60000, start_ts=start, client_version=2)], ts)
    if tx2 is tx:
        tx.write(os.path.join(d, '__transaction_state-%d' % kafka.coordinator_partition('tx2')))
    else:
        tx2.write(os.path.join(d, '__transaction_state-%d' % kafka.coordinator_partition('tx2f')))
    fs = findings([d], g)
    eq([f['kind'] for f in fs], ['aborted-commit'], 'eos2: one aborted commit, no fencing')
    a = fs[0] if fs else {}
    eq((a.get('producerEpoch'), a.get('markerEpoch'), a.get('abortedBy'), a.get('transactionVersion'),
        rng(a.get('redelivered'))), (1, 2, 'producer', 2, (10, 19, 10, False)), 'eos2: its producer\'s own abort')
    eq([(x['partition'], x['from'], x['to'], x['matchedBy']) for x in a.get('outputs', [])],
       [('out2-0', 11, 20, 'epoch')], 'eos2: its output, by producer id and epoch')
    fs = findings([d], g2)
    eq([(f['kind'], f.get('bump')) for f in fs], [('aborted-commit', 'fenced'), ('fencing', 'fenced')],
       'eos2f: the fenced transaction and the fencing')
    if len(fs) == 2:
        eq((fs[1]['oldEpoch'], fs[1]['producerEpoch'], fs[1]['transactionVersion']), (1, 4, 2), 'eos2f: epochs')


# ---- open transactional commits -------------------------------------------------------------------

def test_open():
    """'op' (producer id 900, txo) commits in op-0 inside a transaction at +1 s that has no marker at
    the end; another partition's batch at +2000 s makes "now" 1999 s later: past the 15 min
    timeout, a hanging candidate. With __transaction_state: Ongoing and listing the group's
    __consumer_offsets partition - the coordinator knows it, not hanging (kafka-transactions.sh
    find-hanging); CompleteCommit - hanging."""
    d = scenario('open')
    if not d:
        return
    g, pid = 'op', 900
    data(d, 'opin', 0, [(10, T0 + 100)])
    data(d, 'late', 0, [(1, T0 + 2000000)])
    out = kafka.Log()
    out.append([(None, b'o')] * 4, T0 + 990, pid=pid, epoch=0, transactional=True)
    out.write(os.path.join(d, 'opout-0'))
    L = kafka.Log()
    L.append([kafka.offset_commit(g, 'opin', 0, 10, T0 + 1000)], T0 + 1000, pid=pid, epoch=0, transactional=True)
    L.write(co_dir(d, g))
    f = one(findings([d], g, 'open-commit'), 'op')
    eq((f.get('commitOffset'), f.get('hanging'), f.get('hangingConfirmed'), f.get('ageMs'), f.get('now')),
       (10, True, None, 1999000, T0 + 2000000), 'op: a hanging candidate (no __transaction_state)')
    eq([(x['partition'], x['from'], x['to']) for x in f.get('outputs', [])], [('opout-0', 0, 3)], 'op: its open output')
    cp = kafka.coordinator_partition(g)
    txd = os.path.join(d, '__transaction_state-%d' % kafka.coordinator_partition('txo'))
    for state, parts, want in ((kafka.ONGOING, {'__consumer_offsets': [cp], 'opout': [0]}, False),
                               (kafka.COMPLETE_COMMIT, None, True)):
        shutil.rmtree(txd, ignore_errors=True)
        tx = kafka.Log()
        tx.append([kafka.txn_state('txo', pid, 0, state, T0 + 1000, parts)], T0 + 1000)
        tx.write(txd)
        f = one(findings([d], g, 'open-commit'), 'op with __transaction_state')
        eq((f.get('hanging'), f.get('hangingConfirmed'), f.get('transactionalId')), (True, want, 'txo'),
           'op: __transaction_state state %d' % state)
    # --now and --txn-timeout: one minute after the commit, under a 2 min timeout: not hanging
    rc, objs, _ = run(['--now', str(T0 + 61000), '--txn-timeout', '2m', d])
    f = [o for o in objs if o['type'] == 'group-finding' and o['kind'] == 'open-commit']
    eq([(x['ageMs'], x['hanging']) for x in f], [(60000, False)], 'op: --now and --txn-timeout')


# ---- text and --fail-on -----------------------------------------------------------------------------

def test_text():
    """The text of a handover says what it rests on and words the range as a bound."""
    d = scenario('text')
    if not d:
        return
    g = 'tx-text'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member('m-a', {'tt': [0]})])], T0 + 100)
    L.append([kafka.offset_commit(g, 'tt', 0, 10, T0 + 1500)], T0 + 1500)
    L.append([kafka.offset_commit(g, 'tt', 0, 20, T0 + 2500)], T0 + 2500)
    L.append([kafka.group_metadata(g, 2, T0 + 6000, [kafka.Member('m-b', {'tt': [0]})])], T0 + 6000)
    L.write(co_dir(d, g))
    data(d, 'tt', 0, every_second(8, 10))
    p = subprocess.run([segscan, 'groups', d], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.decode()
    for want in ('handover of tt-0: m-a -> m-b; resumed at 20',
                 'every 1000 ms (median); it had stopped committing before it lost the partition',
                 'possibly delivered twice: offsets 20..59 (40 records)',
                 'every record delivered twice is among them, if the previous owner had stopped reading by then',
                 'likely delivered twice: offsets 20..29 (10 records)'):
        check(want in out, 'text: %r in:\n%s' % (want, out))
    p = subprocess.run([segscan, 'groups', '--fail-on', 'redelivered', d], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    eq(p.returncode, 1, 'text: --fail-on redelivered exits 1')
    p = subprocess.run([segscan, 'groups', '--fail-on', 'nonsense', d], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    eq(p.returncode, 2, 'text: --fail-on nonsense is a usage error')


# ---- explain, dups and scan on the manual's worked example -----------------------------------------

def run_cmd(args):
    p = subprocess.run([segscan] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def test_worked():
    """testdata/groups-worked (tests/groups/make_worked.py): group enricher reads orders-0 and
    writes enriched-0; its member A (commits 10..40 every second, the last at +4.5 s) dies at
    about +5.3 s after writing enriched 40..49; B gets orders-0 at +16 s (generation 2), resumes
    from 40 and writes 40..79. The ticket: enriched-order-45 arrived twice."""
    if only and only not in 'worked':
        return
    d = tempdir()
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'make_worked.py'), d],
                   check=True, stdout=subprocess.DEVNULL)
    # the copy in testdata (the manual's example runs on it) is what the script writes
    committed = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'testdata', 'groups-worked')
    same = all(open(os.path.join(r, f), 'rb').read() ==
               open(os.path.join(committed, os.path.relpath(r, d), f), 'rb').read()
               for r, _, fs in os.walk(d) for f in fs) if os.path.isdir(committed) else False
    check(same, 'worked: testdata/groups-worked is what tests/groups/make_worked.py writes')
    # the output copy: enriched-0 offsets 45 (A, pid 7001, +5.2 s) and 55 (B, pid 7002, +16.5 s):
    # new-session (pid); the handover of orders-0 (+16 s) lies between the copies' times
    rc, out, err = run_cmd(['explain', '--value', 'enriched-order-45', os.path.join(d, 'enriched-0')])
    eq(rc, 0, 'worked: explain the output copy exits 0 (%s)' % err.strip())
    # the gap printed: the handover at +16 s, the copy at +16.5 s
    check('coincides in time: handover of orders-0 in group enricher at 2023-11-14T22:13:36.000Z, 500 ms before '
          'the copy (resumed at 40, unclean)' in out and 'a coincidence, not a proof' in out,
          'worked: the output copy coincides with the handover:\n' + out)
    rc, out, err = run_cmd(['explain', '--json', '--value', 'enriched-order-45', os.path.join(d, 'enriched-0')])
    g = [json.loads(x) for x in out.splitlines() if x.strip()]
    occ = g[0]['occurrences'] if g else []
    eq([(o['offset'], o['cause'], o.get('coincidences')) for o in occ],
       [(45, None, None), (55, 'new-session', [{'group': 'enricher', 'kind': 'handover', 'topic': 'orders',
                                               'partition': 0, 'time': T0 + 16000, 'gapMs': 500}])],
       'worked: the copy\'s coincidences (JSON)')
    # enriched-0 itself: no group read consumes it, and 1 of 50 __consumer_offsets partitions was read
    eq([(o['deliveries'], (o['deliveriesNone'] or {}).get('why')) for o in occ], [([], 'coordinator-not-read')] * 2,
       'worked: the output partition\'s records: why nothing is said')
    # the ticket's record in the input: orders-0 offset 45 (present from +5 s): possibly delivered
    # twice (40..79 present at +16 s) and likely (written before +4.5 s + 1 s: 0..49)
    rc, out, err = run_cmd(['explain', '--offset', 'orders-0:45', os.path.join(d, 'orders-0')])
    # the net answer first (one finding: its likely range 40..49 is the net's), then the finding
    check('deliveries: net of group enricher: likely delivered twice (offsets 40..49, its 1 finding merged)' in out
          and 'group enricher: likely delivered twice: unclean handover at 2023-11-14T22:13:36.000Z, '
          'resumed at 40' in out, 'worked: orders-0:45 is covered:\n' + out)
    rc, out, err = run_cmd(['explain', '--json', '--offset', 'orders-0:75', os.path.join(d, 'orders-0')])
    o = json.loads(out.splitlines()[0]) if out.strip() else {}
    eq((o.get('deliveries'), o.get('deliveriesNone')),
       ([{'group': 'enricher', 'kind': 'handover', 'time': T0 + 16000, 'certain': False, 'what': 'redelivered',
          'range': {'from': 40, 'to': 79, 'records': 40, 'certain': False}}], None),
       'worked: orders-0:75 possibly twice (JSON)')
    # a record no finding covers (offset 5, committed long before), and the reasons nothing can be said
    rc, out, err = run_cmd(['explain', '--offset', 'orders-0:5', os.path.join(d, 'orders-0')])
    check('deliveries: no finding covers it' in out, 'worked: orders-0:5 covered by none:\n' + out)
    # "none" must not read as "not delivered twice": a member that keeps a partition across an eager
    # rebalance resumes from its last commit too (ConsumerCoordinator.onJoinPrepare, EAGER, revokes
    # every partition), and the findings do not look for that: the sentence says so
    check('not looked for: a member that kept the partition across an eager rebalance' in out,
          'worked: orders-0:5: what "none" does not cover:\n' + out)
    # with the history read, explain names no cause of its own beside it (it said "the record was
    # delivered again after a rebalance or a restart" even when nothing covers the record)
    check('delivered again after a rebalance' not in out and 'if it was received twice, that happened on the '
          'consumer side' in out, 'worked: orders-0:5: no guessed cause:\n' + out)
    rc, out, err = run_cmd(['explain', '--group', 'other', '--offset', 'orders-0:5', os.path.join(d, 'orders-0')])
    # Utils.abs("other".hashCode()) % 50 = 26 (segscan coordinator --group other)
    check('the group\'s coordinator partition __consumer_offsets-26 was not read' in out,
          'worked: --group other: its coordinator partition:\n' + out)
    alone = tempdir()
    shutil.copytree(os.path.join(d, 'orders-0'), os.path.join(alone, 'orders-0'))
    rc, out, err = run_cmd(['explain', '--offset', 'orders-0:45', os.path.join(alone, 'orders-0')])
    check('deliveries: no group history read' in out, 'worked: without __consumer_offsets:\n' + out)
    # scan: the groups line, the report keys, --fail-on
    rc, out, err = run_cmd(['scan', '--fail-on', 'redelivered', '--report', '-', d])
    eq(rc, 1, 'worked: scan --fail-on redelivered exits 1')
    check('groups        1 read (1 of 50 __consumer_offsets partitions): 1 handover (1 unclean)' in out and
          '0 records certainly delivered again, 40 possibly' in out, 'worked: scan\'s groups line:\n' + out)
    keys = dict(line.split('=', 1) for line in out.splitlines() if line.startswith(('group.', 'total.groups.')))
    eq((keys.get('group.enricher.orders-0.committed'), keys.get('group.enricher.orders-0.handovers'),
        keys.get('group.enricher.orders-0.unclean_handovers'), keys.get('group.enricher.orders-0.redelivered_possible'),
        keys.get('total.groups.groups')), ('80', '1', '1', '40', '1'), 'worked: report keys')
    rc, out, err = run_cmd(['scan', '--fail-on', 'skipped,rewind', d])
    eq(rc, 0, 'worked: scan --fail-on skipped,rewind exits 0')


def test_matrix():
    """The committed offset's findings in each kind of group: classic eager, classic cooperative,
    static membership and KIP-848, with the data partition mx-0 beside and without. In each, one
    member owns mx-0 and commits 100 (+1 s), 200 (+2 s), then 150 (+3 s: a rewind, the group has
    a member); the member leaves (classic: a generation without members, GroupMetadataManager's
    empty group record; KIP-848: its assignment and metadata tombstones) and an admin commits 50
    (+4.5 s: a reset); the offset is deleted (+5 s) and the group commits 300 next (+6 s), past the
    old 50: 50..299 possibly skipped. mx-0: a batch of 100 records a second (k at T0 + (k+1) s)."""
    d = scenario('matrix')
    if not d:
        return
    tid = 'MJb0OdkyOsjVihzuZl_WhA'
    nodata = tempdir()
    logs = {}   # coordinator partition -> its log (two groups may share one)
    for kind in ('eager', 'cooperative', 'static', 'kip848'):
        g = 'mx-' + kind
        L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
        if kind == 'kip848':
            m = 'MXMEMBERAAAAAAAAAAAAAA'
            L.append([kafka.cg_member(g, m, 'mx', topics=['mx']), kafka.cg_partition_metadata(g, {tid: ('mx', 1)}),
                      kafka.cg_epoch(g, 1), kafka.cg_assignment(g, m, 1, 0, kafka.STABLE, {tid: [0]})], T0 + 500)
        else:
            mem = kafka.Member('mx-a-1', {'mx': [0]}, instance_id='mx-inst' if kind == 'static' else None)
            L.append([kafka.group_metadata(g, 1, T0 + 500, [mem],
                                       protocol='cooperative-sticky' if kind == 'cooperative' else 'range')], T0 + 500)
        for t, off in ((1000, 100), (2000, 200), (3000, 150)):
            L.append([kafka.offset_commit(g, 'mx', 0, off, T0 + t)], T0 + t)
        if kind == 'kip848':
            L.append([kafka.cg_assignment_tombstone(g, m), kafka.cg_member_tombstone(g, m), kafka.cg_epoch(g, 2)], T0 + 4000)
        else:
            L.append([kafka.group_metadata(g, 2, T0 + 4000, [])], T0 + 4000)
        L.append([kafka.offset_commit(g, 'mx', 0, 50, T0 + 4500, leader_epoch=-1)], T0 + 4500)
        L.append([kafka.offset_tombstone(g, 'mx', 0)], T0 + 5000)
        L.append([kafka.offset_commit(g, 'mx', 0, 300, T0 + 6000)], T0 + 6000)
    for cp, L in logs.items():
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))
        L.write(os.path.join(nodata, '__consumer_offsets-%d' % cp))
    data(d, 'mx', 0, every_second(10, 100))
    for kind in ('eager', 'cooperative', 'static', 'kip848'):
        g = 'mx-' + kind
        fs = findings([d], g)
        eq([(f['kind'], f['time']) for f in fs],
           [('rewind', T0 + 3000), ('reset', T0 + 4500), ('offsets-deleted', T0 + 5000)], '%s: the three findings' % g)
        if len(fs) == 3:
            rw, rs, od = fs
            # rewind 200 -> 150 while the member is there: 150..199 possibly again - no later commit
            # lies between 150 and 200 (the next ones are the admin's 50 and, after the deletion, 300),
            # and a late commit moves the offset back the same way (this was certain before, wrongly)
            eq((rw['fromOffset'], rw['toOffset'], rng(rw['redelivered'])), (200, 150, (150, 199, 50, False)),
               '%s: the rewind' % g)
            # reset 150 -> 50: 50..149 again, certain (300 was committed since)
            eq((rs['fromOffset'], rs['toOffset'], rng(rs['redelivered'])), (150, 50, (50, 149, 100, True)),
               '%s: the reset' % g)
            # deleted at 50, next commit 300 (the log end at +6 s is 600: not 'latest'): 50..299
            eq((od['lastCommittedOffset'], od['restartOffset'], rng(od['skipped']), od['consistentWith']),
               (50, 300, (50, 299, 250, False), None), '%s: the deletion' % g)
            for f in fs:
                within(f.get('redelivered') or f.get('skipped'), 0, 999, g)
        fs = findings([nodata], g)
        eq([(f['kind'], rng(f.get('redelivered')), rng(f.get('skipped')), f['dataRead']) for f in fs],
           [('rewind', (150, 199, None, False), None, False), ('reset', (50, 149, None, True), None, False),
            ('offsets-deleted', None, (50, 299, None, False), False)], '%s without data: offsets only' % g)


def test_compacted():
    """'cm' committed cp-0 at +0.5 s (record 0); the cleaner removed records 1..5 (a hole: only the
    last record of each key survives below its point) and the history is complete from record 6
    (+9 s) on. A record of cp-0 written at +1 s: nothing can be said of it - the history before +9 s
    is compacted."""
    d = scenario('compacted')
    if not d:
        return
    L = kafka.Log()
    L.append([kafka.offset_commit('cm', 'cp', 0, 5, T0 + 500)], T0 + 500)
    L.skip(5)
    L.append([kafka.offset_commit('cm', 'cp', 0, 20, T0 + 9000)], T0 + 9000)
    L.write(co_dir(d, 'cm'))
    data(d, 'cp', 0, [(10, T0 + 100), (10, T0 + 1000)])
    rc, out, err = run_cmd(['explain', '--offset', 'cp-0:12', os.path.join(d, 'cp-0')])
    check('deliveries: history compacted before 2023-11-14T22:13:29.000Z: __consumer_offsets-%d keeps only the '
          'last commit of each partition before it' % kafka.coordinator_partition('cm') in out,
          'compacted: explain says why nothing can be said:\n' + out)
    rc, out, err = run_cmd(['explain', '--json', '--offset', 'cp-0:12', os.path.join(d, 'cp-0')])
    o = json.loads(out.splitlines()[0]) if out.strip() else {}
    eq(o.get('deliveriesNone'), {'why': 'compacted', 'coordinatorPartition': '__consumer_offsets-%d' %
                                 kafka.coordinator_partition('cm'), 'completeFrom': T0 + 9000}, 'compacted: JSON')


def test_report_keys():
    """A group id with a dot and an equals sign: every byte outside [A-Za-z0-9_-] percent-encoded in
    the report keys, so the key cannot be misread."""
    d = scenario('report')
    if not d:
        return
    g = 'pay.v2=x'
    L = kafka.Log()
    L.append([kafka.offset_commit(g, 'rk', 0, 5, T0 + 100)], T0 + 100)
    L.write(co_dir(d, g))
    data(d, 'rk', 0, [(10, T0)])
    rc, out, err = run_cmd(['scan', '--report', '-', d])
    keys = dict(line.split('=', 1) for line in out.splitlines() if line.startswith('group.'))
    eq(keys.get('group.pay%2Ev2%3Dx.rk-0.committed'), '5', 'report: the group id percent-encoded')


# ---- what the evidence shows, and no more -----------------------------------------------------------

def test_reset_not_owner():
    """'rsx': rs-a owns r-0, commits 100 (+2 s) and 200 (+3 s), then hangs; the group empties at
    +8 s (generation 2 without members); an admin resets r-0 to 50 at +9 s (a plain commit without
    a generation, leader epoch -1: an empty group takes only those, ClassicGroup.
    validateOffsetCommit 'generationId < 0 && isInState(EMPTY)'); rs-b joins at +10 s. r-0: a
    batch of 100 records a second (k at T0 + (k+1) s). The reset is not rs-a's commit: rs-a made 2
    commits, the last 200 at +3 s, every 1000 ms; it lost r-0 at +8 s, 5 s later: not clean. B
    resumed at 50; present at +10 s: 0..999; likely: written before +3 s + 1 s: 0..399."""
    d = scenario('reset_not_owner')
    if not d:
        return
    data(d, 'r', 0, every_second(12, 100))
    g = 'rsx'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member('rs-a', {'r': [0]})])], T0 + 100)
    L.append([kafka.offset_commit(g, 'r', 0, 100, T0 + 2000)], T0 + 2000)
    L.append([kafka.offset_commit(g, 'r', 0, 200, T0 + 3000)], T0 + 3000)
    L.append([kafka.group_metadata(g, 2, T0 + 8000, [])], T0 + 8000)
    L.append([kafka.offset_commit(g, 'r', 0, 50, T0 + 9000, leader_epoch=-1)], T0 + 9000)
    L.append([kafka.group_metadata(g, 3, T0 + 10000, [kafka.Member('rs-b', {'r': [0]})])], T0 + 10000)
    L.append([kafka.offset_commit(g, 'r', 0, 1100, T0 + 11500)], T0 + 11500)
    L.write(co_dir(d, g))
    eq(findings([d], g, 'handover'), [], 'rsx: no handover (the group was empty from +8 s to +10 s)')
    h = one(findings([d], g, 'empty-group'), 'rsx empty-group')
    # what rs-a can have read past its last commit (200): present when it lost r-0 (+8 s): 0..799;
    # it had stopped committing (clean false): likely up to its last commit + one interval (+4 s): ..399
    eq((h.get('previousOwnerCommits'), h.get('previousOwnerLastCommit'), h.get('commitIntervalMs'), h.get('clean'),
        rng(h.get('redelivered')), rng(h.get('likelyRedelivered'))),
       (2, {'time': T0 + 3000, 'offset': 200, 'outcome': None}, 1000, False, (200, 799, 600, False), (200, 399, 200, False)),
       'rsx: the admin\'s reset is not the previous owner\'s last commit')
    # the reset 200 -> 50: rs-a committed 200 itself (readBound 200; present when it did: 0..299),
    # and B committed 1100 since: 50..199 certainly again
    f = one(findings([d], g, 'reset'), 'rsx reset')
    eq((rng(f.get('redelivered')), f.get('certainRedelivered'), f.get('readBound')), ((50, 199, 150, True), None, 200),
       'rsx: the reset')
    # the totals: certainly 50..199 (the reset's), possibly 200..799 (what rs-a can have read): 600;
    # 800..999, written while the group was empty or after rs-b joined, are read once
    rc, out, err = run_cmd(['scan', '--report', '-', d])
    keys = dict(line.split('=', 1) for line in out.splitlines() if '=' in line)
    eq((keys.get('group.rsx.r-0.redelivered_certain'), keys.get('group.rsx.r-0.redelivered_possible'),
        keys.get('total.groups.redelivered_certain'), keys.get('total.groups.redelivered_possible'),
        keys.get('total.groups.handovers')),
       ('150', '600', '150', '600', '0'), 'rsx: report keys count overlapping ranges once')
    rc, out, err = run_cmd(['scan', d])
    check('0 handovers' in out and '150 records certainly delivered again, 600 possibly' in out,
          'rsx: scan\'s groups line:\n' + out)


def test_reset_forward():
    """'fw': fw-a commits f-0 100 (+1.5 s), the group empties (+2.5 s), an admin resets f-0 to 300
    at +3 s (--to-latest: f-0 held 0..299 then), then back to 100 at +3.5 s (--to-offset 100),
    fw-b joins at +4 s. The forward reset: 100..299 possibly never received (a former member may
    have read past its commit). The reset back, 300 -> 100: nobody committed past 100 but the admin
    (readBound 100): 100..299 possibly again, nothing certain (it claimed 'certainly' before)."""
    d = scenario('reset_forward')
    if not d:
        return
    data(d, 'f', 0, every_second(10, 100))
    g = 'fw'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member('fw-a', {'f': [0]})])], T0 + 100)
    L.append([kafka.offset_commit(g, 'f', 0, 100, T0 + 1500)], T0 + 1500)
    L.append([kafka.group_metadata(g, 2, T0 + 2500, [])], T0 + 2500)
    L.append([kafka.offset_commit(g, 'f', 0, 300, T0 + 3000, leader_epoch=-1)], T0 + 3000)
    L.append([kafka.offset_commit(g, 'f', 0, 100, T0 + 3500, leader_epoch=-1)], T0 + 3500)
    L.append([kafka.group_metadata(g, 3, T0 + 4000, [kafka.Member('fw-b', {'f': [0]})])], T0 + 4000)
    L.append([kafka.offset_commit(g, 'f', 0, 900, T0 + 9500)], T0 + 9500)
    L.write(co_dir(d, g))
    fs = findings([d], g, 'reset')
    eq([(f['time'], f['fromOffset'], f['toOffset'], rng(f.get('redelivered')), rng(f.get('skipped')), f.get('consistentWith'),
         f.get('certainRedelivered'), f.get('readBound')) for f in fs],
       [(T0 + 3000, 100, 300, None, (100, 299, 200, False), 'kafka-consumer-groups.sh --reset-offsets --to-latest',
         None, None),
        (T0 + 3500, 300, 100, (100, 299, 200, False), None, None, None, 100)],
       'fw: a forward reset (possibly skipped), then back (possibly again, nothing certain)')
    rc, _, _ = run(['--fail-on', 'skipped', d])
    eq(rc, 1, 'fw: --fail-on skipped exits 1 (the forward reset)')
    rc, out, _ = run_cmd(['groups', d])
    check('possibly never received: offsets 100..299 (200 records)' in out and
          'nothing shows the group read from 100 on' in out, 'fw: the text says both:\n' + out)


def test_rewind_bound():
    """'big': bg-m commits bg-0 2^63-1 at +1 s (bg-0 held 0..99 then: a batch of 100 a second, k
    at T0 + (k+1) s), then 0 at +1.5 s (a rewind while it is a member), then 50 (+2.5 s) and 150
    (+3.5 s): commits stepping through, past what was present at the rewind. Only what was present
    can come again: 0..99, certain (they claimed 0..999 before, records written after the rewind
    included)."""
    d = scenario('rewind_bound')
    if not d:
        return
    data(d, 'bg', 0, every_second(10, 100))
    g = 'big'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member('bg-m', {'bg': [0]})])], T0 + 100)
    for t, off in ((1000, 2 ** 63 - 1), (1500, 0), (2500, 50), (3500, 150)):
        L.append([kafka.offset_commit(g, 'bg', 0, off, T0 + t)], T0 + t)
    L.write(co_dir(d, g))
    f = one(findings([d], g, 'rewind'), 'big rewind')
    eq((f.get('fromOffset'), f.get('toOffset'), rng(f.get('redelivered')), f.get('certainRedelivered'),
        f.get('readBound')), (2 ** 63 - 1, 0, (0, 99, 100, True), None, 100), 'big: bounded by what was present')
    within(f.get('redelivered'), 0, 99, 'big: present at the rewind')


def test_kip360():
    """'k360' (producer id 4242, transaction version 1, no __transaction_state): commits 10 (COMMIT
    +1.05 s), then 20 aborted by its producer (marker epoch 0, +2.05 s), then 20 under epoch 1
    (+3 s). After an abortable error needing an epoch bump the same producer sends EndTxn then
    InitProducerId with its current epoch (KIP-360: TransactionManager.beginAbort ->
    initializeTransactions(producerIdAndEpoch) when epochBumpRequired): a new instance's
    initTransactions looks the same. The fencing says either (it said 'a new instance')."""
    d = scenario('kip360')
    if not d:
        return
    g, pid = 'k360', 4242
    data(d, 'kin', 0, [(10, T0 + 100 * (k + 1)) for k in range(5)])
    L, o = kafka.Log(), kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 50, [kafka.Member('k360-m', {'kin': [0]})])], T0 + 50)
    eos_txn(L, [(o, 5)], pid, 0, g, 'kin', 10, T0 + 1000)
    eos_txn(L, [(o, 5)], pid, 0, g, 'kin', 20, T0 + 2000, commit_marker=False)
    eos_txn(L, [(o, 5)], pid, 1, g, 'kin', 20, T0 + 3000)
    L.write(co_dir(d, g))
    o.write(os.path.join(d, 'kout-0'))
    fe = one(findings([d], g, 'fencing'), 'k360 fencing')
    eq((fe.get('oldEpoch'), fe.get('producerEpoch'), fe.get('bump'), fe.get('abortedAt')), (0, 1, 'init-or-bump', None),
       'k360: a new instance or its own KIP-360 bump')
    rc, out, _ = run_cmd(['groups', d])
    check("or the same producer's epoch bump after an abortable error (KIP-360)" in out, 'k360: text:\n' + out)
    # the aborted commit's input: read again only if the application rewinds
    check('read again if the application rewinds to the committed offset' in out and 'certainly' not in out,
          'k360: the aborted commit\'s input is not certain:\n' + out)


def test_clean_unknown():
    """'one': one-a commits p-0 once (20 at +2.5 s: its pace unknown, clean null), one-b gets p-0
    at +4.6 s. explain of p-0 offset 22 must not call the handover unclean."""
    d = scenario('clean_unknown')
    if not d:
        return
    g = 'one'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member('one-a', {'p': [0]})])], T0 + 500)
    L.append([kafka.offset_commit(g, 'p', 0, 20, T0 + 2500)], T0 + 2500)
    L.append([kafka.group_metadata(g, 2, T0 + 4600, [kafka.Member('one-b', {'p': [0]})])], T0 + 4600)
    L.write(co_dir(d, g))
    data(d, 'p', 0, every_second(5, 10))
    h = one(findings([d], g, 'handover'), 'one handover')
    eq(h.get('clean'), None, 'one: clean unknown')
    rc, out, _ = run_cmd(['explain', '--offset', 'p-0:22', os.path.join(d, 'p-0')])
    check('unclean' not in out and 'clean or not: unknown' in out, 'one: explain says clean unknown:\n' + out)


def test_no_coincidence():
    """'cu': cu-a commits in-0 10, 20, 30 (+1.5, +2.5, +3.5 s); in-0 holds 0..29 (by +3 s) and no
    more; cu-b gets in-0 at +5 s and resumes at 30: nothing to deliver twice. out-0 holds
    'dup-value' twice (+2 s producer 1, +8 s producer 2): the handover lies between them, yet
    re-read nothing - no coincidence to name."""
    d = scenario('no_coincidence')
    if not d:
        return
    g = 'cu'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member('cu-a', {'in': [0]})])], T0 + 500)
    for k in range(3):
        L.append([kafka.offset_commit(g, 'in', 0, 10 * (k + 1), T0 + 1500 + 1000 * k)], T0 + 1500 + 1000 * k)
    L.append([kafka.group_metadata(g, 2, T0 + 5000, [kafka.Member('cu-b', {'in': [0]})])], T0 + 5000)
    L.write(co_dir(d, g))
    data(d, 'in', 0, every_second(3, 10))
    out = kafka.batch(0, [(None, b'dup-value')], pid=1, epoch=0, base_seq=0, base_ts=T0 + 2000, max_ts=T0 + 2000,
                      ts_deltas=[0]) + \
        kafka.batch(1, [(None, b'dup-value')], pid=2, epoch=0, base_seq=0, base_ts=T0 + 8000, max_ts=T0 + 8000,
                    ts_deltas=[0])
    kafka.write_partition(os.path.join(d, 'out-0'), {0: out})
    h = one(findings([d], g, 'handover'), 'cu handover')
    eq(h.get('caughtUp'), True, 'cu: nothing to deliver twice')
    rc, out, _ = run_cmd(['explain', '--value', 'dup-value', d])
    check('new-session' in out and 'coincides in time' not in out, 'cu: no coincidence named:\n' + out)
    rc, out, _ = run_cmd(['explain', '--json', '--value', 'dup-value', d])
    objs = [json.loads(x) for x in out.splitlines() if x.strip()]
    co = [c.get('coincidences') for o in objs for c in o.get('occurrences', []) if c.get('cause') == 'new-session']
    eq(co, [[]], 'cu: no coincidence in the JSON (the new-session copy)')


def test_pending_at_handover():
    """'pend' (producer id 4343, transaction version 1): pend-a commits pin-0 20 in a transaction
    (COMMIT +1.05 s), then 40 in the next (its TxnOffsetCommit at +2.01 s); generation 2 gives
    pin-0 to pend-b at +2.02 s, before that transaction's COMMIT marker (+2.1 s). pend-b's
    OffsetFetch asks for stable offsets (ConsumerCoordinator.sendOffsetFetchRequest builds
    OffsetFetchRequest with requireStable true) and gets UNSTABLE_OFFSET_COMMIT while the commit of
    40 is pending (KIP-447): it resumes at 40, not 20. pin-0: 10 records every 0.1 s, 0..79 by
    +0.8 s, all present at the handover."""
    d = scenario('pending_at_handover')
    if not d:
        return
    g, pid = 'pend', 4343
    data(d, 'pin', 0, [(10, T0 + 100 * (k + 1)) for k in range(8)])
    L, o = kafka.Log(), kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 50, [kafka.Member('pend-a', {'pin': [0]})])], T0 + 50)
    o.append([(None, b'out')] * 5, T0 + 1000, pid=pid, epoch=0, transactional=True)
    L.append([kafka.offset_commit(g, 'pin', 0, 20, T0 + 1010)], T0 + 1010, pid=pid, epoch=0, transactional=True)
    o.marker(pid, 0, True, T0 + 1050)
    L.marker(pid, 0, True, T0 + 1050)
    o.append([(None, b'out')] * 5, T0 + 2000, pid=pid, epoch=0, transactional=True)
    L.append([kafka.offset_commit(g, 'pin', 0, 40, T0 + 2010)], T0 + 2010, pid=pid, epoch=0, transactional=True)
    L.append([kafka.group_metadata(g, 2, T0 + 2020, [kafka.Member('pend-b', {'pin': [0]})])], T0 + 2020)
    o.marker(pid, 0, True, T0 + 2100)
    L.marker(pid, 0, True, T0 + 2100)
    L.write(co_dir(d, g))
    o.write(os.path.join(d, 'pout-0'))
    h = one(findings([d], g, 'handover'), 'pend handover')
    eq((h.get('resumedOffset'), rng(h.get('redelivered'))), (40, (40, 79, 40, False)),
       'pend: resumed where the pending commit\'s marker left the committed offset')


def test_odd_commits():
    """'odd': generation 1 gives x-0 to both od-m1 and od-m2 (one GroupMetadata record: a faulty or
    custom assignor) and x-1 to od-m1, which commits x-1 7 with commitTimestamp -1; generation 2
    (+3 s) gives both to od-m3. The shared assignment is a note, not a handover (no range, clean
    unknown, not counted); od-m1's last commit of x-1 is offset 7 though it has no time (it showed
    'offset -1'). No data partitions."""
    d = scenario('odd_commits')
    if not d:
        return
    g = 'odd'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member('od-m1', {'x': [0, 1]}), kafka.Member('od-m2', {'x': [0]})])],
             T0 + 100)
    L.append([kafka.offset_commit(g, 'x', 1, 7, -1)], -1)
    L.append([kafka.group_metadata(g, 2, T0 + 3000, [kafka.Member('od-m3', {'x': [0, 1]})])], T0 + 3000)
    L.write(co_dir(d, g))
    fs = findings([d], g, 'handover')
    eq([(f['partition'], f['previousOwner']['memberId'], f['newOwner']['memberId'], f['sharedAssignment'],
         f['clean'], f['previousOwnerLastCommit'], rng(f['redelivered'])) for f in fs],
       [(0, 'od-m1', 'od-m2', True, None, None, None),
        # od-m2 never committed x-0: no commit to be late, so clean is null (neither clean nor unclean)
        (0, 'od-m2', 'od-m3', False, None, None, None),
        (1, 'od-m1', 'od-m3', False, None, {'time': None, 'offset': 7, 'outcome': None}, (7, None, None, False))],
       'odd: the shared assignment a note; a commit without a time keeps its offset')
    rc, out, _ = run_cmd(['groups', d])
    check('the last at - (offset 7)' in out and 'note: the same record assigned the partition to both' in out,
          'odd: text:\n' + out)


def test_eos_last_aborted():
    """The corpus's groups-eos: shop-eos's first instance's last commit of events-0 (offset 40 at
    22:13:22.535Z) was in a transaction that aborted; the handover says so (it gave it as a plain
    last commit)."""
    if only and only not in 'eos_last_aborted':
        return
    corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'testdata', 'corpus', 'gen',
                          'groups-eos')
    h = one(findings([corpus], 'shop-eos', 'handover'), 'shop-eos handover')
    eq((h.get('resumedOffset'), h.get('previousOwnerLastCommit')),
       (32, {'time': T0 + 2535, 'offset': 40, 'outcome': 'aborted'}), 'groups-eos: the last commit was aborted')


# ---- the exactly-once kinds and out-of-range in every kind of group, with and without the data -------

def member_records(kind, g, topic, tid, t, member):
    """The membership records of a group whose one member owns topic-0: a classic eager, cooperative
    or static (group.instance.id) GroupMetadata record, or KIP-848's member, partition metadata,
    group epoch and current assignment records (GroupCoordinatorRecordHelpers)."""
    if kind == 'kip848':
        return [kafka.cg_member(g, member, g, topics=[topic]), kafka.cg_partition_metadata(g, {tid: (topic, 1)}),
                kafka.cg_epoch(g, 1), kafka.cg_assignment(g, member, 1, 0, kafka.STABLE, {tid: [0]})]
    mem = kafka.Member(member, {topic: [0]}, instance_id=g + '-inst' if kind == 'static' else None)
    return [kafka.group_metadata(g, 1, t, [mem], protocol='cooperative-sticky' if kind == 'cooperative' else 'range')]


GROUP_KINDS = ('eager', 'cooperative', 'static', 'kip848')


def test_eos_kinds():
    """An exactly-once application (read exin-0, write its own output topic) in each kind of group,
    under transaction version 1 and 2, with the data partitions beside __consumer_offsets and
    __transaction_state, and without them. Group i's story starts at Ti = T0 + 10 s * i (so every
    log stays in time order); its one member owns exin-0 throughout (its consumer keeps its
    membership; the producer is replaced: a new instance of the transactional id calls
    initTransactions). Transactions (epochs v1 / v2; version 2 bumps at every end, the markers
    carry epoch + 1: KIP-890, TransactionMetadata.prepareAbortOrCommit):
      Ti+1 s  epoch 0/0: out 0..9, commits 10, COMMIT (marker 10) epoch 0/1
      Ti+2 s  epoch 0/1: out 11..20, commits 20, ABORT by its producer (marker 21) epoch 0/2
      Ti+3 s  epoch 0/2: out 22..31, commits 20, left open; the new instance's initTransactions
              aborts it with the epoch raised (TransactionCoordinator.handleInitProducerId on
              Ongoing: prepareFenceProducerEpoch; version 2 adds its end bump): ABORT (marker 32)
              epoch 1/4 at Ti+3.5 s
      Ti+4 s  the new instance, epoch 2/5: out 33..42, commits 20, COMMIT (marker 43) epoch 2/6
      Ti+5 s  epoch 2/6: out 44..53, commits 30, no marker yet (open)
    Expected, by the table of kinds: two aborted commits (their input from the committed offset
    then, 10, to 19: possible, read again only if the application rewinds), one open commit of 30,
    one fencing (old epoch 0/2, new 2/5), nothing else. Without the data partitions the ranges are
    offsets only (records null) and no outputs are found (none was read)."""
    d = scenario('eos_kinds')
    if not d:
        return
    nodata = tempdir()
    tid = 'EXINxxxxOsjVihzuZl_WhA'
    data(d, 'exin', 0, [(10, T0 + 100 * (k + 1)) for k in range(5)])   # 0..49 by T0 + 0.5 s
    co, ts = {}, {}
    cases = []
    for i, (kind, tv) in enumerate((k, v) for k in GROUP_KINDS for v in (1, 2)):
        g, txid, pid = 'ex-%s-v%d' % (kind, tv), 'ex-tx-%s-v%d' % (kind, tv), 5000 + i
        ti = T0 + 10000 * (i + 1)
        L = co.setdefault(kafka.coordinator_partition(g), kafka.Log())
        X = ts.setdefault(kafka.coordinator_partition(txid), kafka.Log())
        cp = kafka.coordinator_partition(g)
        out_topic = 'exout%d' % i
        o = kafka.Log()
        L.append(member_records(kind, g, 'exin', tid, ti, 'EXMEMBER%02dAAAAAAAAAAAA' % i), ti)
        e = (lambda v1, v2: v1 if tv == 1 else v2)
        cv = None if tv == 1 else 2
        parts = {out_topic: [0], '__consumer_offsets': [cp]}

        def state(st, ep, t, start=-1, p=None):
            X.append([kafka.txn_state(txid, pid, ep, st, t, p, timeout=60000, start_ts=start, client_version=cv)], t)
        state(kafka.ONGOING, e(0, 0), ti + 990, ti + 990, parts)
        eos_txn(L, [(o, 10)], pid, e(0, 0), g, 'exin', 10, ti + 1000, marker_epoch=e(0, 1))
        state(kafka.COMPLETE_COMMIT, e(0, 1), ti + 1060, ti + 990)
        state(kafka.ONGOING, e(0, 1), ti + 1990, ti + 1990, parts)
        eos_txn(L, [(o, 10)], pid, e(0, 1), g, 'exin', 20, ti + 2000, marker_epoch=e(0, 2), commit_marker=False)
        state(kafka.COMPLETE_ABORT, e(0, 2), ti + 2060, ti + 1990)
        state(kafka.ONGOING, e(0, 2), ti + 2990, ti + 2990, parts)
        eos_txn(L, [(o, 10)], pid, e(0, 2), g, 'exin', 20, ti + 3000, commit_marker=None)
        state(kafka.PREPARE_ABORT, e(1, 4), ti + 3500, ti + 2990, parts)
        for log in (o, L):
            log.marker(pid, e(1, 4), False, ti + 3500)
        state(kafka.COMPLETE_ABORT, e(1, 4), ti + 3510, ti + 2990)
        state(kafka.EMPTY, e(2, 5), ti + 3600)
        state(kafka.ONGOING, e(2, 5), ti + 3990, ti + 3990, parts)
        eos_txn(L, [(o, 10)], pid, e(2, 5), g, 'exin', 20, ti + 4000, marker_epoch=e(2, 6))
        state(kafka.COMPLETE_COMMIT, e(2, 6), ti + 4060, ti + 3990)
        state(kafka.ONGOING, e(2, 6), ti + 4990, ti + 4990, parts)
        eos_txn(L, [(o, 10)], pid, e(2, 6), g, 'exin', 30, ti + 5000, commit_marker=None)
        o.write(os.path.join(d, '%s-0' % out_topic))
        cases.append((kind, tv, g, txid, pid, ti, out_topic, e))
    for cp, L in co.items():
        for dd in (d, nodata):
            L.write(os.path.join(dd, '__consumer_offsets-%d' % cp))
    for cp, X in ts.items():
        for dd in (d, nodata):
            X.write(os.path.join(dd, '__transaction_state-%d' % cp))
    now = T0 + 100000   # --now: the open commit 10 s to 95 s old, within the 15 min timeout
    for kind, tv, g, txid, pid, ti, out_topic, e in cases:
        for dd, with_data in ((d, True), (nodata, False)):
            what = '%s (%s)' % (g, 'with data' if with_data else 'without data')
            fs = findings(['--now', str(now), dd], g)
            eq(sorted((f['kind'], f['time']) for f in fs),
               sorted([('aborted-commit', ti + 2050), ('aborted-commit', ti + 3500), ('fencing', ti + 4010),
                       ('open-commit', ti + 5010)]), what + ': the findings')
            by = {(f['kind'], f['time']): f for f in fs}
            a1 = by.get(('aborted-commit', ti + 2050), {})
            a2 = by.get(('aborted-commit', ti + 3500), {})
            fe = by.get(('fencing', ti + 4010), {})
            op = by.get(('open-commit', ti + 5010), {})
            # the input of both aborted transactions: from the committed offset then (10: the
            # COMMIT of the first transaction; the second's commit of 20 aborted) to 19
            n = 10 if with_data else None
            eq((a1.get('topic'), a1.get('partition'), a1.get('commitOffset'), a1.get('producerId'),
                a1.get('producerEpoch'), a1.get('markerEpoch'), a1.get('transactionalId'), a1.get('abortedBy'),
                a1.get('transactionVersion'), a1.get('dataRead'), rng(a1.get('redelivered'))),
               ('exin', 0, 20, pid, e(0, 1), e(0, 2), txid, 'producer', tv, with_data, (10, 19, n, False)),
               what + ': the producer\'s own abort')
            eq((a2.get('commitOffset'), a2.get('producerEpoch'), a2.get('markerEpoch'), a2.get('abortedBy'),
                a2.get('bump'), a2.get('dataRead'), rng(a2.get('redelivered'))),
               (20, e(0, 2), e(1, 4), 'coordinator', 'fenced', with_data, (10, 19, n, False)),
               what + ': the abort by the new instance\'s initTransactions')
            eq((fe.get('oldEpoch'), fe.get('producerEpoch'), fe.get('bump'), fe.get('abortedAt'),
                fe.get('transactionalId'), fe.get('transactionVersion'), fe.get('topic')),
               (e(0, 2), e(2, 5), 'fenced', ti + 3500, txid, tv, None), what + ': the fencing')
            eq((op.get('commitOffset'), op.get('producerId'), op.get('producerEpoch'), op.get('transactionalId'),
                op.get('hanging'), op.get('ageMs'), op.get('dataRead')),
               (30, pid, e(2, 6), txid, False, now - (ti + 5010), with_data), what + ': the open commit')
            # the outputs: the same producer id and epoch (version 2: one transaction per epoch;
            # version 1: between the producer's markers)
            mb = 'markers' if tv == 1 else 'epoch'
            p = '%s-0' % out_topic
            outs = [[(x['partition'], x['from'], x['to'], x['records'], x['matchedBy']) for x in f.get('outputs', [])]
                    for f in (a1, a2, op)]
            eq(outs, [[(p, 11, 20, 10, mb)], [(p, 22, 31, 10, mb)], [(p, 44, 53, 10, mb)]] if with_data else
               [[], [], []], what + ': the transactions\' outputs')
            if with_data:
                for f in (a1, a2):
                    holds(f.get('redelivered'), range(10, 20), what)
                    within(f.get('redelivered'), 0, 49, what)


def test_out_of_range_members():
    """Out of range in a group with a member, in each kind of group: its one member owns oom-0 and
    commits 100 at +1.5 s (oom-0 held 0..99 then: the log end, in range), 250 at +2.5 s (0..199
    then: past the log end, as a follower's lagging copy or a truncated log shows it) and 300 at
    +3.5 s (0..299: the log end again). oom-0: 100 records a second (batch k at T0 + (k+1) s, ten
    batches). One out-of-range run of one commit; without the data partition nothing is out of
    range (no log start or end is known)."""
    d = scenario('out_of_range_members')
    if not d:
        return
    nodata = tempdir()
    tid = 'OOMxxxxxOsjVihzuZl_WhA'
    data(d, 'oom', 0, every_second(10, 100))
    co = {}
    for i, kind in enumerate(GROUP_KINDS):
        g = 'oom-' + kind
        L = co.setdefault(kafka.coordinator_partition(g), kafka.Log())
        L.append(member_records(kind, g, 'oom', tid, T0 + 500, 'OOMEMBER%02dAAAAAAAAAAAA' % i), T0 + 500)
        for t, off in ((1500, 100), (2500, 250), (3500, 300)):
            L.append([kafka.offset_commit(g, 'oom', 0, off, T0 + t)], T0 + t)
    for cp, L in co.items():
        for dd in (d, nodata):
            L.write(os.path.join(dd, '__consumer_offsets-%d' % cp))
    for kind in GROUP_KINDS:
        g = 'oom-' + kind
        fs = findings([d], g)
        eq([(f['kind'], f['topic'], f['partition'], f['time'], f.get('commitOffset'), f.get('logStartOffset'),
             f.get('logEndOffset'), f.get('commits'), f.get('lastTime'), f.get('below'), f.get('pastCopyEnd'),
             f.get('dataRead')) for f in fs],
           [('out-of-range', 'oom', 0, T0 + 2500, 250, 0, 200, 1, T0 + 2500, False, False, True)],
           '%s: one commit past the log end then' % g)
        eq([f['kind'] for f in findings([nodata], g)], [], '%s without data: nothing out of range' % g)


# ---- no handover across an empty group --------------------------------------------------------------

def test_empty_group():
    """Zero members between two owners is no handover (the coordinator's records of an empty group:
    GroupMetadataManager.completeClassicGroupJoin writes a classic group with no members when it is
    EMPTY; deleteGroups writes the group's offset tombstones and its tombstone, and a JoinGroup makes
    the group again). e-0: a batch of 100 records a second, batch k at T0 + (k+1) s (0..999).
    Timeline of 'eg' (classic, range):
      +0.1 s  generation 1: A owns e-0      +1.5 s A commits 100     +2.5 s A commits 200
      +3.2 s  generation 2 without members (A left; it had read 0..299 at most: present then)
      +4.0 s  the group deleted (kafka-consumer-groups.sh --delete): e-0's offset tombstone, group tombstone
      +6.0 s  generation 1 again: B owns e-0; no committed offset: auto.offset.reset decides
      +6.5 s  B commits 600
    Expected: no handover; one empty-group finding at +6 s (empty since +3.2 s; while empty the group and
    its offset were deleted; resumedOffset null, no range: where B began is the reset policy's, told by
    the offsets-deleted finding at +4 s). 'eh' (the same without the deletion: A left at +3.2 s, B joins
    at +6 s and resumes from 200, ConsumerCoordinator.onJoinComplete -> refreshCommittedOffsets): A can
    have read 200..299 past its last commit (present when it left), not 300..599 (written while the
    group was empty): possibly twice 200..299, 100 records, and clean (A's last commit 0.7 s before
    it left, within its 1000 ms interval): nothing likely. The totals count 0 handovers and 100
    records possibly delivered again for 'eh'."""
    d = scenario('empty_group')
    if not d:
        return
    data(d, 'e', 0, every_second(10, 100))
    logs = {}
    for g, delete in (('eg', True), ('eh', False)):
        L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
        L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member(g + '-a', {'e': [0]})])], T0 + 100)
        L.append([kafka.offset_commit(g, 'e', 0, 100, T0 + 1500)], T0 + 1500)
        L.append([kafka.offset_commit(g, 'e', 0, 200, T0 + 2500)], T0 + 2500)
        L.append([kafka.group_metadata(g, 2, T0 + 3200, [])], T0 + 3200)
        if delete:
            L.append([kafka.offset_tombstone(g, 'e', 0), kafka.group_tombstone(g)], T0 + 4000)
        L.append([kafka.group_metadata(g, 1 if delete else 3, T0 + 6000, [kafka.Member(g + '-b', {'e': [0]})])],
                 T0 + 6000)
        L.append([kafka.offset_commit(g, 'e', 0, 600, T0 + 6500)], T0 + 6500)
    for cp, L in logs.items():
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))
    fs = findings([d], 'eg')
    eq([(f['kind'], f['time']) for f in fs], [('offsets-deleted', T0 + 4000), ('empty-group', T0 + 6000)],
       'eg: the deletion, then B after the empty group; no handover')
    e = fs[1] if len(fs) > 1 else {}
    eq((e.get('emptySince'), e.get('whileEmpty'), e.get('resumedOffset'), e.get('redelivered'),
        e.get('likelyRedelivered'), (e.get('previousOwner') or {}).get('memberId'),
        (e.get('newOwner') or {}).get('memberId')),
       (T0 + 3200, ['group-deleted', 'offsets-deleted'], None, None, None, 'eg-a', 'eg-b'), 'eg: what the evidence shows')
    rc, out, err = harness.call(['groups', '--group', 'eg', d], binary=segscan, timeout=None)
    check('auto.offset.reset decided where it began' in out and 'see the offsets-deleted finding' in out,
          'eg: the text sends to the deletion for where B began:\n' + out)
    fs = findings([d], 'eh')
    eq([(f['kind'], f['time']) for f in fs], [('empty-group', T0 + 6000)], 'eh: B after the empty group; no handover')
    e = fs[0] if fs else {}
    eq((e.get('emptySince'), e.get('whileEmpty'), e.get('resumedOffset'), rng(e.get('redelivered')),
        e.get('likelyRedelivered'), e.get('clean')),
       (T0 + 3200, [], 200, (200, 299, 100, False), None, True), 'eh: only what A can have read past 200')
    holds(e.get('redelivered'), range(200, 300), 'eh')
    rc, out, err = run_cmd(['scan', '--report', '-', '--group', 'eh', d])
    keys = dict(line.split('=', 1) for line in out.splitlines() if '=' in line)
    eq((keys.get('group.eh.e-0.handovers'), keys.get('group.eh.e-0.redelivered_possible')), ('0', '100'),
       'eh: the report counts no handover and 100 records possibly again')
    # an output copy written by two producers (+5 s, +7 s) around the members who began after the empty
    # groups (+6 s): both are hints, eg's too, though auto.offset.reset decided where its member began
    # (earliest would read everything again)
    out = kafka.batch(0, [(None, b'again')], pid=21, epoch=0, base_seq=0, base_ts=T0 + 5000, max_ts=T0 + 5000,
                      ts_deltas=[0]) + \
        kafka.batch(1, [(None, b'again')], pid=22, epoch=0, base_seq=0, base_ts=T0 + 7000, max_ts=T0 + 7000,
                    ts_deltas=[0])
    kafka.write_partition(os.path.join(d, 'eout-0'), {0: out})
    rc, out, _ = run_cmd(['explain', '--json', '--value', 'again', d])
    objs = [json.loads(x) for x in out.splitlines() if x.strip()]
    co = sorted((x['group'], x['kind']) for o in objs for c in o.get('occurrences', [])
                if c.get('cause') == 'new-session' for x in c.get('coincidences', []))
    eq(co, [('eg', 'empty-group'), ('eh', 'empty-group')], 'eg, eh: both members after the empty groups are hints')
    rc, out, err = harness.call(['groups', '--group', 'eh', d], binary=segscan, timeout=None)
    check('empty-group of e-0: no members from' in out and 'not a handover from eh-a' in out,
          'eh: the text says what happened:\n' + out)


# ---- a restart after deleted offsets: where the new generation began --------------------------------

def test_streams_empty():
    """A Streams group (KIP-1071) whose last member leaves is empty until the next member joins, as a
    consumer group is: no handover from the one to the other. GroupMetadataManager.streamsGroupFenceMember
    writes the member's current-assignment, target-assignment and metadata tombstones
    (removeStreamsMember), then a new group epoch. Subtopology 0 reads topic se; task 0_0 reads se-0.
    se-0: a batch of 100 records a second, batch k at T0 + (k+1) s (0..999).
      +0.1 s  member A joins, epoch 1, runs task 0_0    +1.5 s the group commits 100   +2.5 s 200
      +3.2 s  A leaves (its three tombstones, group epoch 2): no member (it can have read 0..299,
              present then)
      +6.0 s  member B joins, epoch 3, runs task 0_0; it resumes from 200  +6.5 s commits 600
    Expected, as for the classic group 'eh' of test_empty_group: no handover; one empty-group finding
    at +6 s, empty since +3.2 s, resumed from 200, possibly twice 200..299 (100 records; 300..599
    were written while the group was empty), clean."""
    d = scenario('streams_empty')
    if not d:
        return
    g, a, b = 'se-app', 'SEMEMBERAAAAAAAAAAAAAA', 'SEMEMBERBBBBBBBBBBBBBB'
    L = kafka.Log()
    L.append([kafka.streams_topology(g, 0, [('0', ['se'], [])]), kafka.streams_member(g, a, 'se-a', 'proc-a'),
              kafka.streams_epoch(g, 1), kafka.streams_assignment(g, a, 1, 0, {'0': [0]})], T0 + 100)
    L.append([kafka.offset_commit(g, 'se', 0, 100, T0 + 1500)], T0 + 1500)
    L.append([kafka.offset_commit(g, 'se', 0, 200, T0 + 2500)], T0 + 2500)
    L.append(kafka.streams_leave(g, a) + [kafka.streams_epoch(g, 2)], T0 + 3200)
    L.append([kafka.streams_member(g, b, 'se-b', 'proc-b'), kafka.streams_epoch(g, 3),
              kafka.streams_assignment(g, b, 3, 0, {'0': [0]})], T0 + 6000)
    L.append([kafka.offset_commit(g, 'se', 0, 600, T0 + 6500)], T0 + 6500)
    L.write(co_dir(d, g))
    data(d, 'se', 0, every_second(10, 100))
    fs = findings([d], g)
    eq([(f['kind'], f['time']) for f in fs], [('empty-group', T0 + 6000)], 'se: B after the empty group; no handover')
    e = fs[0] if fs else {}
    eq((e.get('emptySince'), e.get('whileEmpty'), e.get('resumedOffset'), rng(e.get('redelivered')), e.get('clean'),
        (e.get('previousOwner') or {}).get('memberId'), (e.get('newOwner') or {}).get('memberId')),
       (T0 + 3200, [], 200, (200, 299, 100, False), True, a, b), 'se: only what A can have read past 200')
    holds(e.get('redelivered'), range(200, 300), 'se')


def test_restart_after_deletion():
    """After an offset tombstone the consumer's OffsetFetch finds nothing and auto.offset.reset puts
    its position at the log start or end when its new generation formed (KafkaConsumer,
    SubscriptionState.resetInitializingPositions; OffsetMetadataManager.replay removes the offset on
    the tombstone; GroupMetadataManager.deleteGroups writes offset tombstones and the group's).
    clicks-0: a batch of 100 records a second, batch k at T0 + (k+1) s (0..999). Timeline of 'ce':
      +0.1 s  generation 1: A owns clicks-0      +1.5 s  A commits 100 (present 0..99)
      +2.0 s  generation 2 without members        +3.0 s  offset tombstone, group tombstone
      +5.0 s  generation 1 again: B owns clicks-0 (log end then: 500)
      +5.5 s  B commits 60 (auto.offset.reset=earliest: it began at 0 and had processed 0..59)
      +7.5 s  B commits 700
    B's first commit, 60, lies below the log end when its generation formed (500): not latest's; it
    began at or below 60, at the log start then (not on disk; today's, 0, bounds it): possibly
    delivered again 0..99 (100 records: what happened, 0..99, is in it), certainly 60..99 (B
    committed 700 since, past the deleted 100). 'cl' the same with B's first commit 500 at +5.5 s,
    the log end when its generation formed: latest, 100..499 possibly never received.
    --fail-on rewind sees the restart below the deleted offset; explain --offset clicks-0:10 finds it
    covered; without the data partition where B began is unknown."""
    d = scenario('restart_after_deletion')
    if not d:
        return
    nodata = tempdir()
    data(d, 'clicks', 0, every_second(10, 100))
    logs = {}
    for g, first in (('ce', 60), ('cl', 500)):
        L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
        L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member(g + '-a', {'clicks': [0]})])], T0 + 100)
        L.append([kafka.offset_commit(g, 'clicks', 0, 100, T0 + 1500)], T0 + 1500)
        L.append([kafka.group_metadata(g, 2, T0 + 2000, [])], T0 + 2000)
        L.append([kafka.offset_tombstone(g, 'clicks', 0), kafka.group_tombstone(g)], T0 + 3000)
        L.append([kafka.group_metadata(g, 1, T0 + 5000, [kafka.Member(g + '-b', {'clicks': [0]})])], T0 + 5000)
        L.append([kafka.offset_commit(g, 'clicks', 0, first, T0 + 5500)], T0 + 5500)
        L.append([kafka.offset_commit(g, 'clicks', 0, 700, T0 + 7500)], T0 + 7500)
    for cp, L in logs.items():
        for dd in (d, nodata):
            L.write(os.path.join(dd, '__consumer_offsets-%d' % cp))
    f = one(findings([d], 'ce', 'offsets-deleted'), 'ce')
    eq((f.get('lastCommittedOffset'), f.get('restartOffset'), f.get('restartGeneration'), f.get('logEndAtRestart'),
        rng(f.get('redelivered')), rng(f.get('certainRedelivered')), f.get('consistentWith')),
       (100, 60, T0 + 5000, 500, (0, 99, 100, False), (60, 99, 40, True), 'auto.offset.reset=earliest'),
       'ce: began below the log end: earliest; 0..99 possibly, 60..99 certainly')
    holds(f.get('redelivered'), range(0, 100), 'ce')
    rc, _, _ = run(['--fail-on', 'rewind', '--group', 'ce', d])
    eq(rc, 1, 'ce: --fail-on rewind sees the restart below the deleted offset')
    rc, out, err = run_cmd(['explain', '--offset', 'clicks-0:10', d])
    check('possibly delivered twice: offsets deleted' in out, 'ce: explain --offset clicks-0:10 is covered:\n' + out)
    f = one(findings([d], 'cl', 'offsets-deleted'), 'cl')
    eq((f.get('restartGeneration'), f.get('logEndAtRestart'), f.get('redelivered'), rng(f.get('skipped')),
        f.get('consistentWith')),
       (T0 + 5000, 500, None, (100, 499, 400, False), 'auto.offset.reset=latest'), 'cl: began at the log end: latest')
    f = one(findings([nodata], 'ce', 'offsets-deleted'), 'ce without data')
    eq((f.get('logEndAtRestart'), rng(f.get('redelivered')), f.get('consistentWith')),
       (None, (60, 99, None, True), None), 'ce without data: from the first commit only')
    rc, out, err = harness.call(['groups', '--group', 'ce', nodata], binary=segscan, timeout=None)
    check('auto.offset.reset decided where; the data partition was not read' in out,
          'ce without data: the text says the reset policy decided:\n' + out)


# ---- revocation evidence: "likely" only on a sign of an unclean stop --------------------------------

def test_revocation_evidence():
    """What the coordinator's records show of how an owner let a partition go. Data: rv-0, rv-1, a
    batch of 10 records a second, batch k at T0 + (k+1) s (rv-0: 0..149).
    'kr' (KIP-848, topic id of rv): a owns rv-0 and rv-1 from epoch 1; commits rv-0 10 (+1.2 s), 20
    (+2.2 s), 30 (+3.2 s), 40 (+4.2 s); b joins at +5.4 s (epoch 2) and a's current assignment holds
    rv-0 pending revocation (UNREVOKED_PARTITIONS, CurrentAssignmentBuilder); a commits its exact
    position, 48, at +5.5 s (ConsumerMembershipManager.maybeAutoCommitSyncBeforeRevocation), then
    acknowledges at member epoch 2 (+5.6 s, rv-0 gone); b gets rv-0 at +5.7 s and resumes at 48.
    Expected: clean, revocation acknowledged, nothing likely (the old rule gave 48..49, written before
    +5.5 s + 1 s and present at +5.7 s); possibly 48..49 (present at +5.7 s: 0..49) stays the bound.
    'ke' (classic eager, range): A owns rv-0, B rv-1 (generation 1, +0.1 s); A commits 10 (+1.5 s),
    20 (+2.5 s); C joins, A commits its position 25 at +3.3 s in onPartitionsRevoked
    (ConsumerCoordinator.onJoinPrepare revokes every partition first), generation 2 at +3.4 s: A
    rv-1, B nothing, C rv-0. A is a member of generation 2, its last commit within its
    rebalanceTimeoutMs (300000) before: revocation rejoined, clean, nothing likely (the old rule gave
    25..29: written before +3.3 s plus its interval, present at +3.4 s: 0..29); possibly 25..29. 'kc' (classic): A (session.timeout.ms 10000) owns rv-0,
    commits 10 (+1.5 s), 20 (+2.5 s) and goes silent; generation 2 at +13 s gives rv-0 to B: A
    absent, 10.5 s after its last commit (>= its session timeout: GroupMetadataManager removes a
    member whose session expired): session-timeout, not clean, likely 20..29 (written before
    +3.5 s), possibly 20..129 (present at +13 s)."""
    d = scenario('revocation_evidence')
    if not d:
        return
    data(d, 'rv', 0, every_second(15, 10))
    data(d, 'rv', 1, every_second(15, 10))
    tid = 'RVxxxxxxOsjVihzuZl_WhA'
    a, b = 'RVAAAAAAAAAAAAAAAAAAAA', 'RVBBBBBBBBBBBBBBBBBBBA'
    logs = {}
    g = 'kr'
    L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
    L.append([kafka.cg_member(g, a, 'kr-a', topics=['rv']), kafka.cg_partition_metadata(g, {tid: ('rv', 2)}),
              kafka.cg_epoch(g, 1), kafka.cg_assignment(g, a, 1, 0, kafka.STABLE, {tid: [0, 1]})], T0 + 500)
    for k in range(4):
        t = T0 + 1200 + 1000 * k
        L.append([kafka.offset_commit(g, 'rv', 0, 10 * (k + 1), t)], t)
    L.append([kafka.cg_member(g, b, 'kr-b', topics=['rv']), kafka.cg_epoch(g, 2),
              kafka.cg_assignment(g, b, 2, 0, kafka.UNRELEASED_PARTITIONS, {})], T0 + 5400)
    L.append([kafka.cg_assignment(g, a, 1, 1, kafka.UNREVOKED_PARTITIONS, {tid: [1]}, {tid: [0]})], T0 + 5410)
    L.append([kafka.offset_commit(g, 'rv', 0, 48, T0 + 5500)], T0 + 5500)
    L.append([kafka.cg_assignment(g, a, 2, 1, kafka.STABLE, {tid: [1]})], T0 + 5600)
    L.append([kafka.cg_assignment(g, b, 2, 2, kafka.STABLE, {tid: [0]})], T0 + 5700)
    g = 'ke'
    L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
    L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member('ke-a', {'rv': [0]}), kafka.Member('ke-b', {'rv': [1]})])],
             T0 + 100)
    for t, off in ((1500, 10), (2500, 20), (3300, 25)):
        L.append([kafka.offset_commit(g, 'rv', 0, off, T0 + t)], T0 + t)
    L.append([kafka.group_metadata(g, 2, T0 + 3400, [kafka.Member('ke-a', {'rv': [1]}), kafka.Member('ke-b', {}),
                                                     kafka.Member('ke-c', {'rv': [0]})])], T0 + 3400)
    g = 'kc'
    L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
    L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member('kc-a', {'rv': [0]}, session_timeout=10000)])],
             T0 + 100)
    for t, off in ((1500, 10), (2500, 20)):
        L.append([kafka.offset_commit(g, 'rv', 0, off, T0 + t)], T0 + t)
    L.append([kafka.group_metadata(g, 2, T0 + 13000, [kafka.Member('kc-b', {'rv': [0]})])], T0 + 13000)
    for cp, L in logs.items():
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))
    h = one(findings([d], 'kr', 'handover', 'rv', 0), 'kr')
    eq((h.get('time'), h.get('resumedOffset'), h.get('clean'), h.get('revocation'), rng(h.get('redelivered')),
        h.get('likelyRedelivered')),
       (T0 + 5700, 48, True, 'acknowledged', (48, 49, 2, False), None), 'kr: a clean KIP-848 revocation')
    rc, out, err = run_cmd(['explain', '--offset', 'rv-0:48', '--group', 'kr', d])
    check('likely' not in out, 'kr: explain does not call offset 48 likely:\n' + out)
    h = one(findings([d], 'ke', 'handover', 'rv', 0), 'ke')
    eq((h.get('time'), h.get('resumedOffset'), h.get('clean'), h.get('revocation'), h.get('likelyRedelivered'),
        rng(h.get('redelivered'))),
       (T0 + 3400, 25, True, 'rejoined', None, (25, 29, 5, False)), 'ke: eager, committed in onPartitionsRevoked')
    h = one(findings([d], 'kc', 'handover', 'rv', 0), 'kc')
    eq((h.get('clean'), h.get('revocation'), rng(h.get('redelivered')), rng(h.get('likelyRedelivered'))),
       (False, 'session-timeout', (20, 129, 110, False), (20, 29, 10, False)), 'kc: removed on its session timeout')


def test_eager_revocation():
    """Classic eager (range assignor): the evidence of a commit in onPartitionsRevoked. Data: eg-0,
    eg-1, a batch of 10 records a second, batch k at T0 + (k+1) s (eg-0: 0..149).
    Every group below: generation 1 (+0.1 s) gives A eg-0 and eg-1; A commits eg-0 10 (+1.5 s), 20
    (+2.5 s), 30 (+3.5 s): its interval 1000 ms. B joins; A's ConsumerCoordinator.onJoinPrepare
    revokes every partition (eager: onPartitionsRevoked, where the application commits its position;
    onJoinPrepare itself commits only with enable.auto.commit, maybeAutoCommitOffsetsSync) and A
    commits eg-0 40 at +4.2 s (present then: 0..39); the join phase waits for B
    (AbstractCoordinator.joinGroupIfNeeded; ClassicGroup waits up to the rebalance timeout), and
    generation 2 is stored at +9.0 s: A eg-1, B eg-0 (B resumes at 40, ConsumerCoordinator.onJoinComplete).
    Present at +9.0 s: 0..89, so possibly delivered twice 40..89 (50 records) in every group: a commit
    names no generation (OffsetCommitValue), 40 may be an earlier commit A read past before revoking.
    'ee': A's generation-2 subscription (v3) lists no ownedPartitions (ConsumerCoordinator.metadata
    after onJoinPrepare's revocation), its last commit 4.8 s before generation 2, within its
    rebalanceTimeoutMs (300000): revocation rejoined, clean (the old rule said not clean: 4.8 s past
    its last commit is more than its 1000 ms interval), nothing likely.
    'eo': the same, its subscription lists eg-0 and eg-1 as owned (it joined without revoking):
    rejoined-owning; clean by the interval rule only (false), nothing likely (no sign of an unclean
    stop: it is a member of generation 2).
    'e0': the same, its subscription of version 0 (no ownedPartitions field): rejoined-undecided,
    clean false by the interval rule, nothing likely.
    'et': ownedPartitions empty but A's rebalanceTimeoutMs 3000: its last commit 4.8 s before
    generation 2 lies outside it, no revocation evidence (null), clean false, nothing likely."""
    d = scenario('eager_revocation')
    if not d:
        return
    data(d, 'eg', 0, every_second(15, 10))
    data(d, 'eg', 1, every_second(15, 10))
    logs = {}
    for g, kw in (('ee', {}), ('eo', {'owned': {'eg': [0, 1]}}), ('e0', {'subscription_version': 0}),
                  ('et', {'rebalance_timeout': 3000})):
        L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
        L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member(g + '-a', {'eg': [0, 1]})])], T0 + 100)
        for t, off in ((1500, 10), (2500, 20), (3500, 30), (4200, 40)):
            L.append([kafka.offset_commit(g, 'eg', 0, off, T0 + t)], T0 + t)
        L.append([kafka.group_metadata(g, 2, T0 + 9000, [kafka.Member(g + '-a', {'eg': [1]}, topics=['eg'], **kw),
                                                         kafka.Member(g + '-b', {'eg': [0]})])], T0 + 9000)
    for cp, L in logs.items():
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))
    for g, rev, clean in (('ee', 'rejoined', True), ('eo', 'rejoined-owning', False),
                          ('e0', 'rejoined-undecided', False), ('et', None, False)):
        h = one(findings([d], g, 'handover', 'eg', 0), g)
        eq((h.get('time'), h.get('resumedOffset'), h.get('revocation'), h.get('clean'), h.get('likelyRedelivered'),
            rng(h.get('redelivered'))),
           (T0 + 9000, 40, rev, clean, None, (40, 89, 50, False)), '%s: eager handover, revocation %s' % (g, rev))
        n = nets([d], g).get(('eg', 0))
        eq((net_ranges(n, 'likely'), net_ranges(n, 'possible')), ([], [(40, 89, 50)]), '%s: net: nothing likely' % g)
    for g, words in (('ee', 'having revoked everything'), ('e0', 'cannot be told'), ('eo', 'still owning partitions')):
        rc, out, err = run_cmd(['groups', '--group', g, d])
        check(words in out and 'likely delivered twice' not in out,
              '%s: the text names the revocation evidence (%r), nothing likely:\n%s' % (g, words, out))


# ---- a selection that matches nothing is a usage error ------------------------------------------------

def test_no_match():
    """groups --group/--topic/--partition naming nothing read (a typo) exits 2 (usage) and names the
    nearest, so that it cannot pass --fail-on silently. Groups 'orders-enricher' and 'orders-audit'
    commit orders-0 and orders-1 (commit-only groups: OffsetCommit records, no membership)."""
    d = scenario('no_match')
    if not d:
        return
    logs = {}
    for g in ('orders-enricher', 'orders-audit'):
        L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
        for p in (0, 1):
            L.append([kafka.offset_commit(g, 'orders', p, 5, T0 + 1000)], T0 + 1000)
    for cp, L in logs.items():
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))
    for args, want in ((['--group', 'orders-enricer'], ['--group orders-enricer', 'nearest: orders-enricher']),
                       (['--topic', 'order'], ['--topic order', 'nearest: orders']),
                       (['--topic', 'orders', '--partition', '7'], ['--partition 7', 'partitions read: 0, 1']),
                       (['--fail-on', 'redelivered', '--group', 'orders-enricer', '--json'], ['nearest: orders-enricher'])):
        rc, out, err = run_cmd(['groups'] + args + [d])
        eq(rc, 2, 'groups %s: exit 2' % ' '.join(args))
        check(all(w in err for w in want), 'groups %s: stderr names %r:\n%s' % (' '.join(args), want, err))
    rc, out, err = run_cmd(['groups', '--group', 'orders-audit', '--topic', 'orders', '--partition', '1', d])
    eq(rc, 0, 'groups naming what was read: exit 0')


# ---- hints for an output copy: nearest first, with the gap ---------------------------------------------

def test_hints_ranked():
    """out-0 holds 'twice' twice: producer 11 at +1 s, producer 12 at +20 s (new-session). Between
    them two handovers, of inputs the copy's topic is not: group 'far' hands fa-0 from far-a to far-b
    at +10.5 s (9.5 s before the copy), group 'near' hands nb-0 from near-a to near-b at +19.93 s
    (70 ms before it; ConsumerCoordinator.onJoinComplete: the new owner resumes at the committed
    offset, re-reading what the old one read past it). The one 70 ms before the copy is the likelier
    writer: listed first, each with its gap; the far one says it is seconds away. fa-0, nb-0: 10
    records a second, batch k at T0 + (k+1) s; each old owner commits 10 at +1.5 s and 20 at +2.5 s."""
    d = scenario('hints_ranked')
    if not d:
        return
    logs = {}
    for g, topic, t in (('far', 'fa', 10500), ('near', 'nb', 19930)):
        L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
        L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member(g + '-a', {topic: [0]})])], T0 + 100)
        for tt, off in ((1500, 10), (2500, 20)):
            L.append([kafka.offset_commit(g, topic, 0, off, T0 + tt)], T0 + tt)
        L.append([kafka.group_metadata(g, 2, T0 + t, [kafka.Member(g + '-b', {topic: [0]})])], T0 + t)
        data(d, topic, 0, every_second(20, 10))
    for cp, L in logs.items():
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))
    out = kafka.batch(0, [(None, b'twice')], pid=11, epoch=0, base_seq=0, base_ts=T0 + 1000, max_ts=T0 + 1000,
                      ts_deltas=[0]) + \
        kafka.batch(1, [(None, b'twice')], pid=12, epoch=0, base_seq=0, base_ts=T0 + 20000, max_ts=T0 + 20000,
                    ts_deltas=[0])
    kafka.write_partition(os.path.join(d, 'out-0'), {0: out})
    rc, out, _ = run_cmd(['explain', '--json', '--value', 'twice', d])
    objs = [json.loads(x) for x in out.splitlines() if x.strip()]
    co = [[(x['group'], x['kind'], x.get('gapMs')) for x in c.get('coincidences', [])]
          for o in objs for c in o.get('occurrences', []) if c.get('cause') == 'new-session']
    eq(co, [[('near', 'handover', 70), ('far', 'handover', 9500)]], 'hints: nearest the copy first, with the gap')
    rc, out, _ = run_cmd(['explain', '--value', 'twice', d])
    lines = [x for x in out.splitlines() if 'in time: handover' in x]
    check(len(lines) == 2 and 'group near' in lines[0] and '70 ms before the copy' in lines[0] and
          'group far' in lines[1] and '9.5 s before the copy (seconds away)' in lines[1],
          'hints: the text lists the near one first, the far one seconds away:\n' + out)


# ---- the net answer per (group, partition): the findings' ranges merged -----------------------------

def nets(args, group=None):
    rc, objs, err = run(args)
    check(rc == 0, 'groups %s: exit %d (%s)' % (' '.join(args), rc, err.strip()))
    return {(o['topic'], o['partition']): o for o in objs
            if o['type'] == 'group-net' and (group is None or o['group'] == group)}


def net_ranges(n, level):
    return [(r['from'], r['to'], r['records']) for r in (n or {}).get(level, [])]


def test_net():
    """One answer per group and partition: the findings' ranges merged, each record counted once per
    level, the levels nested (certain within likely within possible; skipped within skippedPossible).
    n-0: ten batches of ten records, batch k appended at T0 + (k+1) s (offsets 10k..10k+9).
    Timeline of 'nt' (classic, range assignor):
      +0.5 s  generation 1: A owns n-0, B owns n-1
      +1.5, +2.5, +3.5, +4.5 s  A commits n-0 10, 20, 30, 40 (every 1000 ms)
      +7.2 s  generation 2 without A: B owns n-0 and n-1 (A removed: GroupMetadataManager's
              removeMemberAndUpdateGroup, prepareRebalance); B resumes at 40
              (ConsumerCoordinator.onJoinComplete -> refreshCommittedOffsetsIfNeeded)
      +8.5 s  B commits 80 (the log end then)
      +8.8 s  B commits 45: the committed offset moves back while the group has members (a rewind)
      +9.2 s  B commits 60, +10.5 s B commits 100 (OffsetMetadataManager.replay: each commit
              replaces the committed offset)
    The handover (as in test_eager): A can have read what was present at +7.2 s past 40: possibly
    40..69 (30 records); A had stopped committing 2.7 s before, no member of generation 2: likely
    40..49, written before its last commit plus one interval (+5.5 s). The rewind 80 -> 45: B's later
    commit 60 stepped between 45 and 80 and 100 passed 80: B read 45..79 again, certain (35 records).
    Net: certain 45..79 (35); likely 40..49 with 45..79 = 40..79 (40); possible 40..69 with 45..79 =
    40..79 (40): not 30 + 35 = 65 records, each record once. Nothing skipped.
    'rf' (f-0: a batch of 100 records a second, batch k at T0 + (k+1) s, 0..999):
      +0.1 s  generation 1: A owns f-0       +1.5 s  A commits 100
      +2.5 s  generation 2 without members (A left; present then: 0..199)
      +4.0 s  an admin's commit of 400 without a generation (kafka-consumer-groups.sh
              --reset-offsets --to-latest: the log end then is 400)
      +6.0 s  generation 3: B owns f-0; its OffsetFetch finds 400: it begins there
      +7.5 s  B commits 700
    Records 100..399 possibly never received (A may have read up to 199 past its last commit);
    200..399 were written after A lost f-0 (+3 s, +4 s), no member owned f-0 until B, which began at
    400: certainly never delivered (200 records). Net: skipped [200..399] (200), skippedPossible
    [100..399] (300). Each must fail on the build before: it wrote no group-net object."""
    d = scenario('net')
    if not d:
        return
    data(d, 'n', 0, every_second(10, 10))
    data(d, 'n', 1, every_second(10, 10))
    data(d, 'f', 0, every_second(10, 100))
    logs = {}
    g = 'nt'
    a, b = 'nt-a', 'nt-b'
    L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
    L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member(a, {'n': [0]}), kafka.Member(b, {'n': [1]})])],
             T0 + 500)
    for k in range(4):
        t = T0 + 1500 + 1000 * k
        L.append([kafka.offset_commit(g, 'n', 0, 10 * (k + 1), t)], t)
    L.append([kafka.group_metadata(g, 2, T0 + 7200, [kafka.Member(b, {'n': [0, 1]})])], T0 + 7200)
    for off, t in ((80, 8500), (45, 8800), (60, 9200), (100, 10500)):
        L.append([kafka.offset_commit(g, 'n', 0, off, T0 + t)], T0 + t)
    g = 'rf'
    L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
    L.append([kafka.group_metadata(g, 1, T0 + 100, [kafka.Member('rf-a', {'f': [0]})])], T0 + 100)
    L.append([kafka.offset_commit(g, 'f', 0, 100, T0 + 1500)], T0 + 1500)
    L.append([kafka.group_metadata(g, 2, T0 + 2500, [])], T0 + 2500)
    L.append([kafka.offset_commit(g, 'f', 0, 400, T0 + 4000, leader_epoch=-1)], T0 + 4000)
    L.append([kafka.group_metadata(g, 3, T0 + 6000, [kafka.Member('rf-b', {'f': [0]})])], T0 + 6000)
    L.append([kafka.offset_commit(g, 'f', 0, 700, T0 + 7500)], T0 + 7500)
    for cp, L in logs.items():
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))

    fs = findings([d], 'nt')
    eq([(f['kind'], f['partition']) for f in fs], [('handover', 0), ('rewind', 0)], 'nt: a handover and a rewind')
    h = fs[0] if fs else {}
    eq((rng(h.get('redelivered')), rng(h.get('likelyRedelivered'))), ((40, 69, 30, False), (40, 49, 10, False)),
       'nt: the handover\'s ranges')
    r = fs[1] if len(fs) > 1 else {}
    eq((rng(r.get('redelivered')), r.get('certainRedelivered'), r.get('certainSkipped')),
       ((45, 79, 35, True), None, None), 'nt: the rewind\'s range, certain')
    ns = nets([d], 'nt')
    eq(sorted(ns), [('n', 0), ('n', 1)], 'nt: one net answer per partition, n-1 (no finding) too')
    n = ns.get(('n', 0))
    eq((net_ranges(n, 'certain'), net_ranges(n, 'likely'), net_ranges(n, 'possible'), net_ranges(n, 'skipped'),
        net_ranges(n, 'skippedPossible')),
       ([(45, 79, 35)], [(40, 79, 40)], [(40, 79, 40)], [], []), 'nt: n-0 merged and nested')
    eq(tuple((n or {}).get(k) for k in ('certainRecords', 'likelyRecords', 'possibleRecords', 'skippedRecords',
                                         'skippedPossibleRecords', 'findings', 'dataRead')),
       (35, 40, 40, 0, 0, 2, True), 'nt: each record counted once per level')
    n1 = ns.get(('n', 1))
    eq((net_ranges(n1, 'possible'), (n1 or {}).get('possibleRecords'), (n1 or {}).get('findings')), ([], 0, 0),
       'nt: n-1 (B throughout): nothing')
    rc, out, err = harness.call(['groups', '--group', 'nt', d], binary=segscan, timeout=None)
    check('    net of n-0: delivered twice: 45..79 certainly (35 records); 40..79 likely (40 records); never '
          'delivered: none\n' in out, 'nt: the net line (possible = likely: not repeated):\n' + out)
    check('net of n-1' not in out, 'nt: no net line for a partition without findings in text:\n' + out)
    rc, out, err = run_cmd(['scan', '--report', '-', '--group', 'nt', d])
    keys = dict(line.split('=', 1) for line in out.splitlines() if '=' in line)
    eq(tuple(keys.get('group.nt.n-0.' + k) for k in ('twice_certain', 'twice_likely', 'twice_possible',
                                                      'never_certain', 'never_possible', 'redelivered_certain',
                                                      'redelivered_possible')),
       ('35', '40', '40', '0', '0', '35', '5'), 'nt: the report keys (possible beyond certain: 40..44)')
    # explain: record 42 lies in the likely range 40..79, not in the certain 45..79
    rc, out, err = run_cmd(['explain', '--offset', 'n-0:42', d])
    check('deliveries: net of group nt: likely delivered twice (offsets 40..79, its 2 findings merged)' in out,
          'nt: explain n-0:42 gives the net answer first:\n' + out)
    rc, out, err = run_cmd(['explain', '--json', '--offset', 'n-0:50', d])
    objs = [json.loads(x) for x in out.splitlines() if x.strip()]
    dn = [x.get('deliveriesNet') for x in objs if 'deliveriesNet' in x]
    eq(dn, [[{'group': 'nt', 'level': 'certain', 'range': {'from': 45, 'to': 79, 'records': 35}}]],
       'nt: explain --json n-0:50: certain, in the merged 45..79')

    fs = findings([d], 'rf', 'reset')
    f = one(fs, 'rf')
    eq((rng(f.get('skipped')), rng(f.get('certainSkipped')), f.get('consistentWith')),
       ((100, 399, 300, False), (200, 399, 200, True), 'kafka-consumer-groups.sh --reset-offsets --to-latest'),
       'rf: the reset forward: 200..399 certainly never delivered')
    n = nets([d], 'rf').get(('f', 0))
    eq((net_ranges(n, 'skipped'), net_ranges(n, 'skippedPossible'), net_ranges(n, 'possible'),
        (n or {}).get('skippedRecords'), (n or {}).get('skippedPossibleRecords')),
       ([(200, 399, 200)], [(100, 399, 300)], [], 200, 300), 'rf: skipped within skippedPossible')
    rc, out, err = harness.call(['groups', '--group', 'rf', d], binary=segscan, timeout=None)
    check('net of f-0: delivered twice: none; never delivered: 200..399 certainly (200 records); 100..399 '
          'possibly (300 records)' in out, 'rf: the net line:\n' + out)
    rc, _, _ = run(['--fail-on', 'skipped', '--group', 'rf', d])
    eq(rc, 1, 'rf: --fail-on skipped by the net answer')
    rc, _, _ = run(['--fail-on', 'redelivered', '--group', 'rf', d])
    eq(rc, 0, 'rf: --fail-on redelivered: nothing delivered twice in the net answer')


def test_rebalance_block():
    """The text lists a group's findings in time order, and the handovers one rebalance made (one
    GroupMetadata record gave them their new owners) as one block; the JSON keeps one group-finding
    per partition. r-0..r-3: ten batches of ten records each, batch k appended at T0 + (k+1) s.
    Timeline of 'rb' (classic, range assignor):
      +0.5 s  generation 1: A owns r-0, r-1, r-2; B owns r-3
      +1.5 s, +2.5 s  A commits r-0, r-1, r-2 at 10, then 20
      +2.6 s  B commits r-3 at 20;  +2.8 s  B commits r-3 at 15 (a rewind while the group has
              members: 15..19 possibly again)
      +4.2 s  generation 2 without A (removed: GroupMetadataManager's removeMemberAndUpdateGroup):
              B owns r-0..r-3 and resumes r-0, r-1, r-2 at 20 (ConsumerCoordinator.onJoinComplete)
    Each of r-0..r-2: present at +4.2 s 0..39, so possibly twice 20..39 (20 records); A committed
    every 1000 ms and last at +2.5 s, 1.7 s before: it had stopped (not clean), absent from
    generation 2: likely 20..29 (written before +3.5 s). Text: the rewind (+2.8 s, r-3) before the
    block (+4.2 s), though r-3 sorts after r-0..r-2; one block line, a line per partition."""
    d = scenario('rebalance_block')
    if not d:
        return
    for p in range(4):
        data(d, 'r', p, every_second(10, 10))
    g = 'rb'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member('rb-a', {'r': [0, 1, 2]}),
                                                    kafka.Member('rb-b', {'r': [3]})])], T0 + 500)
    for off, t in ((10, 1500), (20, 2500)):
        for p in range(3):
            L.append([kafka.offset_commit(g, 'r', p, off, T0 + t)], T0 + t)
    L.append([kafka.offset_commit(g, 'r', 3, 20, T0 + 2600)], T0 + 2600)
    L.append([kafka.offset_commit(g, 'r', 3, 15, T0 + 2800)], T0 + 2800)
    L.append([kafka.group_metadata(g, 2, T0 + 4200, [kafka.Member('rb-b', {'r': [0, 1, 2, 3]})])], T0 + 4200)
    L.write(co_dir(d, g))
    fs = findings([d], g)
    eq(sorted((f['kind'], f['partition'], f['time']) for f in fs),
       [('handover', 0, T0 + 4200), ('handover', 1, T0 + 4200), ('handover', 2, T0 + 4200),
        ('rewind', 3, T0 + 2800)], 'rb: JSON: one group-finding per partition')
    for f in fs:
        if f['kind'] == 'handover':
            eq((f.get('resumedOffset'), rng(f.get('redelivered')), rng(f.get('likelyRedelivered')), f.get('clean')),
               (20, (20, 39, 20, False), (20, 29, 10, False), False), 'rb: r-%d\'s handover' % f['partition'])
    rc, out, err = harness.call(['groups', '--group', g, d], binary=segscan, timeout=None)
    check(out.count('handovers of 3 partitions in one rebalance: rb-a -> rb-b') == 1 and 'handover of r-' not in out,
          'rb: the rebalance is one block:\n' + out)
    for p in range(3):
        check('        r-%d: resumed at 20; previous owner: 2 commits, the last at 2023-11-14T22:13:22.500Z (offset 20), '
              'it had stopped committing (not clean); possibly delivered twice: offsets 20..39 (20 records); likely: '
              'offsets 20..29 (10 records)\n' % p in out, 'rb: r-%d\'s line in the block:\n%s' % (p, out))
    r, b = out.find('rewind of r-3'), out.find('handovers of 3 partitions')
    check(0 <= r < b, 'rb: time order: the rewind at +2.8 s before the rebalance at +4.2 s:\n' + out)


def test_wording():
    """Words that must rest on evidence.
    'nc' (classic): generation 1 (+0.5 s) A owns w-0; generation 2 (+3 s) B owns it, A gone. Nobody
    ever commits w-0: "unclean" is said of a commit that could be late, and there is none (clean
    null, not counted among the unclean handovers); the partition never had a committed offset, so
    auto.offset.reset decided where each member began (ConsumerCoordinator: no committed offset ->
    SubscriptionState's reset).
    'nj' (KIP-848): A joins at epoch 1 with its assignment; B's subscription record is written with
    the epoch-2 record and its current assignment only at +9.2 s (GroupMetadataManager.
    consumerGroupHeartbeat writes the member's subscription, the group epoch, then its current
    assignment): until then B had not joined, which is not an assignment that failed to decode.
    'ne' (classic): member C in generation 1 with an empty assignment (it joined; no SyncGroup gave
    it one yet).
    __consumer_offsets' records without a producer id are the coordinator's (CoordinatorRuntime
    appends non-transactional records with RecordBatch.NO_PRODUCER_ID): not "idempotence off"."""
    d = scenario('wording')
    if not d:
        return
    data(d, 'w', 0, every_second(5, 10))
    logs = {}
    g = 'nc'
    L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
    L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member('nc-a', {'w': [0]})])], T0 + 500)
    L.append([kafka.group_metadata(g, 2, T0 + 3000, [kafka.Member('nc-b', {'w': [0]})])], T0 + 3000)
    g = 'nj'
    tid = 'MJb0OdkyOsjVihzuZl_WhA'
    a, b = 'AAAAAAAAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBBBBBBBA'
    L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
    L.append([kafka.cg_member(g, a, 'nj-a', topics=['t']), kafka.cg_partition_metadata(g, {tid: ('t', 2)}),
              kafka.cg_epoch(g, 1), kafka.cg_assignment(g, a, 1, 0, kafka.STABLE, {tid: [0, 1]})], T0)
    L.append([kafka.cg_member(g, b, 'nj-b', topics=['t']), kafka.cg_epoch(g, 2)], T0 + 9100)
    L.append([kafka.cg_assignment(g, b, 2, 0, kafka.STABLE, {tid: []})], T0 + 9200)
    g = 'ne'
    L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
    L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member('ne-c', {'w': [0]}, raw_assignment=b'')])],
             T0 + 500)
    for cp, L in logs.items():
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))
    h = one(findings([d], 'nc', 'handover'), 'nc')
    eq((h.get('previousOwnerCommits'), h.get('clean'), h.get('resumedOffset')), (0, None, None),
       'nc: no commit to be late: clean null')
    rc, out, err = harness.call(['groups', '--group', 'nc', d], binary=segscan, timeout=None)
    check('no commit of the partition while it owned it (no commit to be late: neither clean nor unclean); no '
          'committed offset: auto.offset.reset decided where each began' in out and 'not clean' not in out,
          'nc: the text:\n' + out)
    rc, out, err = run_cmd(['scan', '--report', '-', '--group', 'nc', d])
    keys = dict(line.split('=', 1) for line in out.splitlines() if '=' in line)
    eq((keys.get('group.nc.w-0.handovers'), keys.get('group.nc.w-0.unclean_handovers')), ('1', '0'),
       'nc: a handover, not an unclean one')
    rc, out, err = harness.call(['groups', '--group', 'nj', d], binary=segscan, timeout=None)
    check('nj-b /10.0.0.1  rebalance 300000 ms  epoch -1 -> (no assignment yet: it had not joined)' in out and
          'not decoded' not in out, 'nj: B before it joined:\n' + out)
    rc, out, err = harness.call(['groups', '--group', 'ne', d], binary=segscan, timeout=None)
    check('-> (no assignment yet: it had not joined)' in out and 'not decoded' not in out,
          'ne: C with an empty assignment:\n' + out)
    cos = [os.path.join(d, '__consumer_offsets-%d' % cp) for cp in logs]
    rc, out, err = run_cmd(['scan'] + cos)
    check('without producer id (written by the coordinator, which uses none)' in out and
          'idempotence off' not in out, 'scan of __consumer_offsets: no "idempotence off":\n' + out)


def test_html_lanes():
    """--html: groups sharing a partition each get their own lane; charts in natural order; the
    causes' legend only under charts with copies. sh2-0 and sh10-0: ten batches of ten records,
    batch k at T0 + (k+1) s. Groups 'ga' and 'gb' (classic) each: generation 1 (+0.5 s) gives both
    partitions to member a, which commits 10 (+1.5 s) and 20 (+2.5 s) of each; generation 2 (ga at
    +4.2 s, gb at +5.2 s) gives both to member b (a handover of each partition: bands of both groups
    over offsets 20..). The page of 'groups --html' (drawn in src/cli/html: MT = 16, a label row 10
    units high): on each chart a lane label per group, the owners' labels of a group on its lane's
    row (y = MT + 10 + 10 * lane), its bands marked with its lane and side by side (no overlap);
    sh2-0's chart before sh10-0's (2 < 10, though "sh10" < "sh2" byte by byte); no copies on a groups
    page, so no causes' legend; a scan page of payments-dup (copies) keeps it."""
    import html.parser
    d = scenario('html_lanes')
    if not d:
        return
    for t in ('sh2', 'sh10'):
        data(d, t, 0, every_second(10, 10))
    logs = {}
    for g, t2 in (('ga', 4200), ('gb', 5200)):
        L = logs.setdefault(kafka.coordinator_partition(g), kafka.Log())
        L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member(g + '-a', {'sh2': [0], 'sh10': [0]})])], T0 + 500)
        for off, t in ((10, 1500), (20, 2500)):
            for topic in ('sh2', 'sh10'):
                L.append([kafka.offset_commit(g, topic, 0, off, T0 + t)], T0 + t)
        L.append([kafka.group_metadata(g, 2, T0 + t2, [kafka.Member(g + '-b', {'sh2': [0], 'sh10': [0]})])], T0 + t2)
    for cp, L in logs.items():
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))

    class Marks(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.els, self.chart, self.stack = [], None, []

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == 'svg' and a.get('data-kind') == 'chart':
                self.chart = a.get('data-partition')
            a['_tag'], a['_chart'], a['_text'] = tag, self.chart, ''
            self.els.append(a)
            self.stack.append(a)

        def handle_endtag(self, tag):
            if self.stack:
                self.stack.pop()

        def handle_data(self, text):
            if self.stack:
                self.stack[-1]['_text'] += text

    rc, out, err = run_cmd(['groups', '--html', '-', d])
    m = Marks()
    m.feed(out)
    charts = [e['data-partition'] for e in m.els if e['_tag'] == 'svg' and e.get('data-kind') == 'chart']
    eq(charts, ['sh2-0', 'sh10-0'], 'html: charts in natural order')
    for ch in ('sh2-0', 'sh10-0'):
        lanes = {e.get('data-group'): int(e.get('data-lane')) for e in m.els
                 if e['_chart'] == ch and e.get('data-kind') == 'lane'}
        eq(sorted(lanes), ['ga', 'gb'], '%s: a labelled lane per group' % ch)
        eq(sorted(lanes.values()), [0, 1], '%s: two lanes' % ch)
        for g, lane in lanes.items():
            owners = [i for i, e in enumerate(m.els) if e['_chart'] == ch and e.get('data-kind') == 'owner' and
                      e.get('data-group') == g]
            ys = {m.els[i + 2].get('y') for i in owners}  # <g owner><line/><text class=olab y=...>
            eq(ys, {str(16 + 10 + 10 * lane)}, '%s: %s\'s owners on its lane\'s row' % (ch, g))
            bands = [e for e in m.els if e['_chart'] == ch and e['_tag'] == 'rect' and e.get('data-group') == g]
            check(bands and all(e.get('data-lane') == str(lane) for e in bands), '%s: %s\'s bands in its lane' % (ch, g))
        spans = sorted((float(e['x']), float(e['x']) + float(e['width']), e.get('data-group')) for e in m.els
                       if e['_chart'] == ch and e['_tag'] == 'rect' and e.get('data-kind') == 'redelivered')
        groups_seen = sorted({sp[2] for sp in spans})
        eq(groups_seen, ['ga', 'gb'], '%s: both groups\' bands' % ch)
        a_sp = [sp for sp in spans if sp[2] == 'ga']
        b_sp = [sp for sp in spans if sp[2] == 'gb']
        check(all(x[1] <= y[0] + 1e-6 or y[1] <= x[0] + 1e-6 for x in a_sp for y in b_sp),
              '%s: the two groups\' bands do not overlap: %r' % (ch, spans))
    check('copies by cause' not in out, 'html: no causes\' legend without copies')
    rc, out, err = run_cmd(['scan', '--html', '-', os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))), '..', 'testdata', 'corpus', 'gen', 'payments-dup')])
    check('copies by cause' in out, 'html: the causes\' legend under a chart with copies (payments-dup)')


def test_read_once():
    """The scans of testdata/groups-worked (its data partitions orders-0 and enriched-0 and
    __consumer_offsets-18 in one log directory), counted under strace: each segment is opened
    once by the analysis; the timelines take the data partitions' batch headers from it, and the
    groups' replay reads the copy of __consumer_offsets-18's segment the analysis kept
    (ss_an_opts.keep_offsets_bytes), so that file is opened once too. --top 0: no duplicate group
    shown, so no copy's key and value read back; the default text, --html and --json show
    enriched-0's groups (make_worked.py: B re-read A's records), and read their copies back from
    enriched-0 once more. Before: __consumer_offsets-18's segment twice (analysis, replay)."""
    if only and only not in 'read_once':
        return
    strace = shutil.which('strace')
    if not strace:
        print('SKIP: strace missing: the openings of the default scan are not counted')
        return
    worked = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'testdata', 'groups-worked')
    d = tempfile.mkdtemp()
    TMP.append(d)
    trace = os.path.join(d, 'trace')
    env = dict(os.environ)
    env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':')  # LSan cannot run under ptrace

    def opened(args, path):
        """segscan ARGS PATH under strace: its exit status and how many times each partition's .log
        files were opened"""
        cmd = [strace, '-f', '-e', 'trace=openat', '-o', trace, segscan] + args + [path]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, check=False)
        opens = {}
        with open(trace, encoding='utf-8', errors='replace') as f:
            for line in f:
                if '.log"' in line and 'openat(' in line and '= -1' not in line:
                    name = os.path.basename(os.path.dirname(line.split('"')[1]))
                    opens[name] = opens.get(name, 0) + 1
        return p.returncode, opens

    once = {'orders-0': 1, 'enriched-0': 1, '__consumer_offsets-18': 1}
    shown = {'orders-0': 1, 'enriched-0': 2, '__consumer_offsets-18': 1}
    for args, want in ((['--top', '0'], once), (['--top', '0', '--report', os.path.join(d, 'report')], once),
                       ([], shown), (['--html', os.path.join(d, 'page.html')], shown), (['--json'], shown),
                       (['txns'], once)):
        eq(opened(args, worked), (0, want), 'read once: segscan %s: the openings of each segment' % ' '.join(args))
    # groups-eos (NOTES.txt: shop-eos writes items-0 transactionally, two of its transactions
    # aborted and written again) has a __transaction_state partition as well: its segment is read
    # by the analysis, and the transactional ids are read from the copy it kept, by the analysis
    # (hanging transactions), the CLI (the names of producers) and the groups alike. Before: it
    # was opened 4 times by the default scan (3 by txns).
    eos = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'testdata', 'corpus', 'gen',
                       'groups-eos')
    once = {'events-0': 1, 'items-0': 1, '__consumer_offsets-0': 1, '__transaction_state-1': 1}
    shown = dict(once, **{'items-0': 2})  # the aborted copies' groups shown, their bytes read back
    # segscan groups runs no analysis: the study reads __transaction_state's segment once for its
    # two readers, the groups (transactional ids) and the findings (transaction states); before, twice
    for args, want in ((['--top', '0'], once), (['txns'], once), ([], shown), (['--json'], shown),
                       (['groups'], once), (['groups', '--json'], once)):
        eq(opened(args, eos), (0, want), 'read once: segscan %s groups-eos: the openings of each segment'
           % ' '.join(args))


for t in (test_eager, test_cooperative, test_static, test_kip848, test_rewind_reset, test_offsets_deleted,
          test_out_of_range, test_eos_v1, test_eos_v1_timeout, test_eos_v2, test_open, test_text, test_worked,
          test_matrix, test_compacted, test_report_keys, test_reset_not_owner, test_reset_forward, test_rewind_bound,
          test_kip360, test_clean_unknown, test_no_coincidence, test_pending_at_handover,
          test_odd_commits, test_eos_last_aborted, test_eos_kinds, test_out_of_range_members, test_empty_group, test_streams_empty,
          test_restart_after_deletion, test_revocation_evidence, test_eager_revocation, test_no_match,
          test_hints_ranked, test_net, test_rebalance_block, test_wording, test_html_lanes, test_read_once):
    t()
for d in TMP:
    shutil.rmtree(d, ignore_errors=True)
sys.exit(harness.tally_exit('test_findings'))
