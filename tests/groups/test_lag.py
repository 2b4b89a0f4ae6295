#!/usr/bin/env python3
"""segscan groups: each partition's lag (log end, high watermark, lag in records and in time, at the
last commit and at --now) and its status by Burrow's evaluator, and each group's status.

Every scenario writes __consumer_offsets and the data partitions with tests/lib/kafka.py; the
expected values are derived by hand below from what each scenario writes, with the rule of
linkedin/Burrow they rest on:
- Burrow's storage keeps the last `intervals` (default 10) commits of each partition with the lag
  at each: the broker's offset then less the committed offset, 0 when negative
  (core/internal/storage/inmemory.go, addConsumerOffset); the current lag is the broker's offset
  now less the last committed offset (fetchConsumer);
- core/internal/evaluator/caching.go, calculatePartitionStatus, checked in this order: rule 1
  isLagAlwaysNotZero (a zero lag in the window, or no lag now: OK), rule 2 checkIfOffsetsRewind
  (REWIND), rule 3 checkIfOffsetsStopped (now - last commit > last - first commit: STOP), rule 4
  checkIfOffsetsStalled (every offset the same: STALL), rule 5 checkIfLagNotDecreasing (WARN),
  else OK; evaluateConsumerStatus: a group's status is its worst partition's, ERR at most.
- the broker's offset at a time is the data partition's log end then: under LogAppendTime (used
  here) the base offset of the first batch appended after it (segscan/timeline.h).

The data partition orders-0 (every scenario): ten batches of ten records, batch k (offsets
10k..10k+9) appended at T0 + 1000*(k+1) ms, k = 0..9. So the log end at T0 + t ms is
10*floor(t/1000) for t in [0, 10000], 100 after; --now is T0 + 10500 (log end 100).

usage: test_lag.py SEGSCAN [-k NAME]
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
NOW = T0 + 10500
TMP = []


def tempdir():
    d = tempfile.mkdtemp(prefix='segscan-lag-')
    TMP.append(d)
    return d


def orders(d, topic='orders', p=0, lat=True):
    """batch k: offsets 10k..10k+9 appended at T0 + 1000*(k+1)"""
    out = b''
    for k in range(10):
        out += kafka.batch(10 * k, [(None, b'o-%d' % (10 * k + i)) for i in range(10)], base_ts=T0 + 1000 * (k + 1),
                           max_ts=T0 + 1000 * (k + 1), ts_deltas=[0] * 10, log_append_time=lat)
    kafka.write_partition(os.path.join(d, '%s-%d' % (topic, p)), {0: out})


def commits(group, tp_commits):
    """One __consumer_offsets log of one group that only commits (assign() + commit): tp_commits
    [(topic, partition, offset, ms after T0)] in log order."""
    L = kafka.Log()
    for topic, p, off, t in tp_commits:
        L.append([kafka.offset_commit(group, topic, p, off, T0 + t)], T0 + t)
    return L


def run(args):
    p = subprocess.run([segscan] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def objs(args):
    rc, out, err = run(['groups', '--json'] + args)
    check(rc == 0, 'groups %s: exit %d (%s)' % (' '.join(args), rc, err.strip()))
    return [json.loads(x) for x in out.splitlines() if x.strip()]


def lag_of(os_, group, topic='orders', p=0):
    v = [o for o in os_ if o['type'] == 'group-lag' and o['group'] == group and o['topic'] == topic and
         o['partition'] == p]
    eq(len(v), 1, '%s %s-%d: one group-lag object' % (group, topic, p))
    return v[0] if v else {}


def status_of(os_, group):
    v = [o for o in os_ if o['type'] == 'group-status' and o['group'] == group]
    eq(len(v), 1, '%s: one group-status object' % group)
    return v[0] if v else {}


# Each group: its commits of orders-0 (offset, ms after T0), the window's lags as derived from the
# log end at each commit's time, the expected status and the rule that decides it.
CASES = {
    # ends at 6500, 7500, 8500, 9500: 60, 70, 80, 90 -> lags 10, 12, 5, 5: never zero; now 100-85 = 15;
    # no move back; 10500-9500 = 1000 not > 9500-6500 = 3000; offsets differ; the lag went down
    # (12 -> 5): no rule holds, OK
    'g-ok': ([(50, 6500), (58, 7500), (75, 8500), (85, 9500)], [10, 12, 5, 5], 'OK', 0),
    # lags 60-55, 70-62, 80-70, 90-78 = 5, 8, 10, 12: never down -> rule 5, WARN (now: 22)
    'g-warn': ([(55, 6500), (62, 7500), (70, 8500), (78, 9500)], [5, 8, 10, 12], 'WARN', 5),
    # ends at 2500, 3200, 3500: 20, 30, 30 -> lags 5, 10, 5; now 75; 10500-3500 = 7000 >
    # 3500-2500 = 1000 -> rule 3, STOP
    'g-stop': ([(15, 2500), (20, 3200), (25, 3500)], [5, 10, 5], 'STOP', 3),
    # offset 40 four times; ends at 7500, 8500, 9500, 10000: 70, 80, 90, 100 -> lags 30, 40, 50, 60;
    # 10500-10000 = 500 not > 2500 -> rule 4, STALL
    'g-stall': ([(40, 7500), (40, 8500), (40, 9500), (40, 10000)], [30, 40, 50, 60], 'STALL', 4),
    # 60, 70, then 50: a move back -> rule 2, REWIND (lags 10, 10, 40; now 50)
    'g-rewind': ([(60, 7500), (70, 8500), (50, 9500)], [10, 10, 40], 'REWIND', 2),
    # lags 0, 5, 10: never down, but zero at the first commit -> rule 1, OK (not WARN)
    'g-zero': ([(70, 7500), (75, 8500), (80, 9500)], [0, 5, 10], 'OK', 1),
    # Burrow's order where two rules hold. 15 then 10 (ends 20, 30: lags 5, 20; now 90): a move back
    # (rule 2) and 10500-3500 = 7000 > 1000 (rule 3): REWIND, rule 2 is checked first
    'g-rewind-stop': ([(15, 2500), (10, 3500)], [5, 20], 'REWIND', 2),
    # 15 twice (lags 5, 15; now 85): 7000 > 1000 (rule 3) and one offset (rule 4): STOP first
    'g-stop-stall': ([(15, 2500), (15, 3500)], [5, 15], 'STOP', 3),
}


def test_rules():
    """Each of Burrow's rules fires on a window built for it (CASES), with the lag at each commit
    from the log end at its time, and the group's status is its partition's (ERR for STOP, STALL
    and REWIND: evaluateConsumerStatus)."""
    if only and only not in 'rules':
        return
    d = tempdir()
    orders(d)
    # several groups may share a __consumer_offsets partition: write them together
    by_cp = {}
    for g, (cs, _, _, _) in CASES.items():
        by_cp.setdefault(kafka.coordinator_partition(g), []).extend(
            (T0 + t, g, off) for off, t in cs)
    for cp, v in by_cp.items():
        L = kafka.Log()
        for t, g, off in sorted(v):
            L.append([kafka.offset_commit(g, 'orders', 0, off, t)], t)
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))
    os_ = objs(['--now', str(NOW), d])
    for g, (cs, lags, status, rule) in CASES.items():
        x = lag_of(os_, g)
        last_off, last_t = cs[-1]
        eq(x.get('status'), status, '%s: Burrow status' % g)
        eq(x.get('rule'), rule, '%s: the rule that decided' % g)
        eq([w['offset'] for w in x.get('window', [])], [off for off, _ in cs], '%s: the window' % g)
        eq([w['lag'] for w in x.get('window', [])], lags, '%s: the lag at each commit' % g)
        eq(x.get('logEnd'), 100, '%s: the log end at --now' % g)
        eq(x.get('lag'), 100 - last_off, '%s: the lag at --now' % g)
        eq(x.get('committed'), last_off, '%s: committed' % g)
        end_then = min(100, 10 * (last_t // 1000))
        eq(x.get('logEndAtCommit'), end_then, '%s: the log end at the last commit' % g)
        eq(x.get('lagAtCommit'), max(0, end_then - last_off), '%s: the lag at the last commit' % g)
        eq(x.get('basis'), 'LogAppendTime', '%s: basis' % g)
        want = {'OK': 'OK', 'WARN': 'WARN'}.get(status, 'ERR')
        eq(status_of(os_, g).get('status'), want, '%s: the group status (worst partition, ERR at most)' % g)
    # the age of the first unconsumed record: g-ok committed 85, in the batch of 80..89 appended at
    # T0 + 9000: 10500 - 9000 = 1500 ms at --now, 9500 - 9000 = 500 ms at its last commit
    x = lag_of(os_, 'g-ok')
    eq(x.get('ageMs'), 1500, 'g-ok: age of the first unconsumed record at --now')
    eq(x.get('ageAtCommitMs'), 500, 'g-ok: age at the last commit')
    # text: the status and its rule said
    rc, out, _ = run(['groups', '--now', str(NOW), '--group', 'g-stall', d])
    check('orders-0  STALL:' in out and 'Burrow rule 4' in out and 'status ERR' in out,
          'text: the partition STALL (rule 4) and the group ERR:\n' + out)
    rc, out, _ = run(['groups', '--now', str(NOW), '--group', 'g-warn', d])
    check('orders-0  WARN:' in out and 'Burrow rule 5' in out and 'status WARN' in out,
          'text: the partition WARN (rule 5) and the group WARN:\n' + out)
    # without --now, "now" is the newest timestamp read: the last batch, T0 + 10000 (commits are
    # earlier), never the wall clock. g-stop: 10000 - 3500 = 6500 > 1000: still STOP; g-stall:
    # 10000 - 10000 = 0 not > 2500: still STALL
    os2 = objs([d])
    eq(lag_of(os2, 'g-stop').get('now'), T0 + 10000, 'now: the newest timestamp read')
    eq(lag_of(os2, 'g-stall').get('status'), 'STALL', 'g-stall without --now')
    # the page: a row per partition with its status and its group's
    page = os.path.join(tempdir(), 'page.html')
    rc, _, _ = run(['groups', '--now', str(NOW), '--html', page, d])
    html = open(page).read() if os.path.exists(page) else ''
    check('<tr data-kind="lag-row" data-status="STALL"><td>g-stall</td><td>ERR</td><td>orders-0</td>' in html and
          '<tr data-kind="lag-row" data-status="WARN"><td>g-warn</td><td>WARN</td><td>orders-0</td>' in html,
          'html: the lag table rows')
    # --now before the last commit: g-warn's window as it stood at T0 + 8600 holds its commits up to
    # then (55, 62, 70: lags 5, 8, 10, never down: rule 5, WARN), its committed offset then is 70,
    # the log end then 80: lag 10. Before every commit: nothing to evaluate (unknown)
    x = lag_of(objs(['--now', str(T0 + 8600), d]), 'g-warn')
    eq((x.get('committed'), x.get('nowBeforeEnd'), x.get('logEnd'), x.get('lag'), x.get('status')),
       (70, True, 80, 10, 'WARN'), '--now before the last commit: the window up to it')
    x = lag_of(objs(['--now', str(T0 + 6000), d]), 'g-warn')
    eq((x.get('status'), x.get('lagKnown'), x.get('committed')), ('unknown', 'not-kept', None),
       '--now before every commit: unknown')
    # --report keys (scan): the lag and the statuses
    rc, out, _ = run(['scan', '--now', str(NOW), '--report', '-', d])
    keys = dict(line.split('=', 1) for line in out.splitlines() if line.startswith('group.'))
    eq(keys.get('group.g-warn.orders-0.lag'), '22', 'report: the lag (100 - 78)')
    eq(keys.get('group.g-warn.orders-0.status'), 'WARN', 'report: the partition status')
    eq(keys.get('group.g-rewind.status'), 'ERR', 'report: the group status')


def test_window():
    """Burrow looks at the last 10 commits only: twelve commits whose second moves the offset back
    (30 -> 20), then ten commits 21..30 every 500 ms from T0 + 5000. The move back is out of the
    window (commits 3..12): lags 50-21, 50-22, 60-23, 60-24, 70-25, 70-26, 80-27, 80-28, 90-29, 90-30
    = 29, 28, 37, 36, 45, 44, 53, 52, 61, 60 go down (29 -> 28): OK, not REWIND. After an offset
    deletion the window starts again: one commit of 30 at T0 + 9800 after a tombstone is a window of
    one (lag 90-30 = 60; now 10500-9800 = 700 > 0 = its span: rule 3, STOP)."""
    if only and only not in 'window':
        return
    d = tempdir()
    orders(d)
    g = 'g-window'
    cs = [(30, 4000), (20, 4500)] + [(19 + i, 4000 + 500 * i) for i in range(2, 12)]
    commits(g, [('orders', 0, off, t) for off, t in cs]).write(
        os.path.join(d, '__consumer_offsets-%d' % kafka.coordinator_partition(g)))
    x = lag_of(objs(['--now', str(NOW), d]), g)
    eq(len(x.get('window', [])), 10, 'window: Burrow\'s 10 intervals')
    eq([w['lag'] for w in x.get('window', [])], [29, 28, 37, 36, 45, 44, 53, 52, 61, 60], 'window: the lags')
    eq(x.get('status'), 'OK', 'window: the rewind out of the window is not seen (Burrow keeps 10)')
    d2 = tempdir()
    orders(d2)
    L = commits(g, [('orders', 0, off, t) for off, t in cs])
    L.append([kafka.offset_tombstone(g, 'orders', 0)], T0 + 9700)
    L.append([kafka.offset_commit(g, 'orders', 0, 30, T0 + 9800)], T0 + 9800)
    L.write(os.path.join(d2, '__consumer_offsets-%d' % kafka.coordinator_partition(g)))
    x = lag_of(objs(['--now', str(NOW), d2]), g)
    eq([(w['offset'], w['lag']) for w in x.get('window', [])], [(30, 60)], 'after a deletion: a window of one')
    eq(x.get('status'), 'STOP', 'after a deletion: rule 3 on a window of one')


def test_no_data():
    """No data partition: the lag is unknown, and so is the status (every rule starts from the lag);
    a group with one partition STALL (as g-stall above) and one unknown is ERR all the same
    (a known ERR, whatever the other says); one with only unknown partitions is unknown."""
    if only and only not in 'no_data':
        return
    d = tempdir()
    orders(d)
    g, h = 'g-mixed', 'g-nodata'
    by_cp = {}
    for grp, topic, off, t in [(g, 'orders', 40, 7500), (g, 'orders', 40, 8500), (g, 'orders', 40, 9500),
                               (g, 'orders', 40, 10000), (g, 'missing', 5, 9000), (h, 'missing', 5, 9000),
                               (h, 'missing', 7, 9500)]:
        by_cp.setdefault(kafka.coordinator_partition(grp), []).append((T0 + t, grp, topic, off))
    for cp, v in by_cp.items():
        L = kafka.Log()
        for t, grp, topic, off in sorted(v):
            L.append([kafka.offset_commit(grp, topic, 0, off, t)], t)
        L.write(os.path.join(d, '__consumer_offsets-%d' % cp))
    os_ = objs(['--now', str(NOW), d])
    x = lag_of(os_, h, 'missing')
    eq(x.get('status'), 'unknown', 'no data partition: status unknown')
    eq(x.get('lagKnown'), 'no-data-partition', 'no data partition: why')
    eq((x.get('lag'), x.get('logEnd'), x.get('ageMs')), (None, None, None), 'no data partition: lag unknown')
    eq(x.get('committed'), 7, 'no data partition: the committed offset still said')
    eq(status_of(os_, h).get('status'), 'unknown', 'a group of unknown partitions: unknown')
    eq(lag_of(os_, g).get('status'), 'STALL', 'mixed: orders-0 STALL')
    s = status_of(os_, g)
    eq((s.get('status'), s.get('evaluated'), s.get('partitions')), ('ERR', 1, 2), 'mixed: ERR, 1 of 2 evaluated')
    rc, out, _ = run(['groups', '--now', str(NOW), '--group', h, d])
    check('missing-0  unknown: the data partition was not read' in out and 'status unknown' in out,
          'text: unknown, said so:\n' + out)


def test_high_watermark():
    """The log directory's replication-offset-checkpoint gives the high watermark (95 here, the
    broker's last checkpoint): kafka-consumer-groups.sh's LAG is against it. g-ok committed 85:
    lag 100-85 = 15 to the log end, 95-85 = 10 to the high watermark."""
    if only and only not in 'high_watermark':
        return
    d = tempdir()
    orders(d)
    cs = CASES['g-ok'][0]
    commits('g-ok', [('orders', 0, off, t) for off, t in cs]).write(
        os.path.join(d, '__consumer_offsets-%d' % kafka.coordinator_partition('g-ok')))
    kafka.write_checkpoint(os.path.join(d, 'replication-offset-checkpoint'), [('orders', 0, 95)])
    x = lag_of(objs(['--now', str(NOW), d]), 'g-ok')
    eq((x.get('highWatermark'), x.get('lagHighWatermark'), x.get('lag')), (95, 10, 15), 'high watermark lag')


def test_create_time():
    """The same data partition under CreateTime (the producers' clocks): the log end at a time is
    then an upper bound (segscan/timeline.h); with these timestamps the values are the same, and
    the basis and the text say CreateTime."""
    if only and only not in 'create_time':
        return
    d = tempdir()
    orders(d, lat=False)
    cs = CASES['g-warn'][0]
    commits('g-warn', [('orders', 0, off, t) for off, t in cs]).write(
        os.path.join(d, '__consumer_offsets-%d' % kafka.coordinator_partition('g-warn')))
    x = lag_of(objs(['--now', str(NOW), d]), 'g-warn')
    eq((x.get('basis'), x.get('status'), [w['lag'] for w in x.get('window', [])]),
       ('CreateTime', 'WARN', [5, 8, 10, 12]), 'CreateTime: basis, status, lags')
    rc, out, _ = run(['groups', '--now', str(NOW), d])
    check('(CreateTime: the log end at a past time is an upper bound' in out, 'text: CreateTime said:\n' + out)


def test_negative_offset():
    """A negative committed offset is no position (OffsetAndMetadata refuses one; -1 is Kafka's "no
    offset"): no lag is measured from the offset that stands at "now" when it is negative, and one
    is when it is not, whatever the log's last commit. orders-0 ends at 50 at T0 + 5000 (batches of
    10 at T0 + 1000, 2000, ...); "now" T0 + 5000.
    - 20 @2500, -5 @3500, 60 @9000: -5 stands at now: no committed offset, no lag, no time;
    - 20 @2500, 30 @3500, -5 @9000: 30 stands at now (committed at 3500): lag 50 - 30 = 20;
    - 20 @2500, -5 @3500 with now T0 + 10500 (end 100): -5 stands: no lag."""
    if only and only not in 'negative_offset':
        return
    for g, cs, now, want in [('g-cutneg', [(20, 2500), (-5, 3500), (60, 9000)], T0 + 5000,
                              ('no-committed-offset', None, None, None)),
                             ('g-cutpos', [(20, 2500), (30, 3500), (-5, 9000)], T0 + 5000,
                              ('known', 30, T0 + 3500, 20)),
                             ('g-neg', [(20, 2500), (-5, 3500)], NOW, ('no-committed-offset', None, None, None))]:
        d = tempdir()
        orders(d)
        commits(g, [('orders', 0, off, t) for off, t in cs]).write(
            os.path.join(d, '__consumer_offsets-%d' % kafka.coordinator_partition(g)))
        x = lag_of(objs(['--now', str(now), d]), g)
        eq((x.get('lagKnown'), x.get('committed'), x.get('commitTime'), x.get('lag')), want, g)
        # the text says why: a negative offset stood at "now", not that none was ever committed
        rc, out, _ = run(['groups', '--now', str(now), d])
        said = 'orders-0  unknown: the offset committed at "now" is negative, which is no position' in out
        check(said == (want[0] == 'no-committed-offset'), '%s: text:\n%s' % (g, out))


for t in (test_rules, test_window, test_no_data, test_high_watermark, test_create_time, test_negative_offset):
    t()
for d in TMP:
    shutil.rmtree(d, ignore_errors=True)
sys.exit(harness.tally_exit('test_lag'))
