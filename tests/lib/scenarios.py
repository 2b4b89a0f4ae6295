"""Scenarios more than one test script builds (Python 3 standard library only). Meson puts
tests/lib on PYTHONPATH: scripts `import scenarios`. Each writes partition folders with kafka.py
and says in its comments what the log holds, so that a test derives its expectations from that."""
import os

import kafka

T0 = kafka.T0


def write_causes(d):
    """One partition per cause of a copy (segscan(1), CAUSES): same-0, xp-0/xp-1, abort-0, lat-0, v2-0."""
    # same-session: pid 5000 epoch 0 sends A (seq 0), B (seq 1), then A again (seq 2)
    ss = kafka.batch(0, [(None, b'A'), (None, b'B')], pid=5000, epoch=0, base_seq=0)
    ss += kafka.batch(2, [(None, b'A')], pid=5000, epoch=0, base_seq=2)
    kafka.write_partition(os.path.join(d, 'same-0'), {0: ss})
    # cross-partition: value X in xp-0 and in xp-1 (no producer id)
    kafka.write_partition(os.path.join(d, 'xp-0'), {0: kafka.batch(0, [(None, b'X')])})
    kafka.write_partition(os.path.join(d, 'xp-1'), {0: kafka.batch(0, [(None, b'X')])})
    # aborted: transactional pid 6000 writes T in a transaction that is aborted (marker at 1), then
    # again in a committed one (marker at 3): the original is the committed copy (the first copy
    # not in an aborted transaction), the aborted copy gets 'aborted'
    ab = kafka.batch(0, [(None, b'T')], pid=6000, epoch=0, base_seq=0, transactional=True)
    ab += kafka.marker(1, 6000, 0, commit=False)
    ab += kafka.batch(2, [(None, b'T')], pid=6000, epoch=0, base_seq=1, transactional=True)
    ab += kafka.marker(3, 6000, 0, commit=True)
    kafka.write_partition(os.path.join(d, 'abort-0'), {0: ab})
    # retry under LogAppendTime: the same records (R, S at 0..1) re-sent at 2..3; the broker stamped a
    # different maxTimestamp (and so a different CRC) on each. resend-no-idempotence: R in a batch
    # built anew (another producer timestamp, at 4), and two equal values W in one batch (5 and 6).
    lat = kafka.batch(0, [(b'k1', b'R', [(b'h', b'1')]), (b'k2', b'S')], base_ts=T0, max_ts=T0 + 1000,
                      log_append_time=True)
    lat += kafka.batch(2, [(b'k1', b'R', [(b'h', b'1')]), (b'k2', b'S')], base_ts=T0, max_ts=T0 + 2000,
                       log_append_time=True)
    lat += kafka.batch(4, [(b'k1', b'R', [(b'h', b'1')])], base_ts=T0 + 5000, max_ts=T0 + 5000, log_append_time=True)
    lat += kafka.batch(5, [(None, b'W'), (None, b'W')])
    kafka.write_partition(os.path.join(d, 'lat-0'), {0: lat})
    # new-session by epoch, transactional (transactions protocol v2: the marker carries epoch+1, and
    # the next transaction runs with that epoch); then by pid inside a transaction still open
    # (pid 7001 at 4, no marker)
    v2 = kafka.batch(0, [(None, b'E')], pid=7000, epoch=0, base_seq=0, transactional=True)
    v2 += kafka.marker(1, 7000, 1, commit=True)
    v2 += kafka.batch(2, [(None, b'E')], pid=7000, epoch=1, base_seq=0, transactional=True)
    v2 += kafka.marker(3, 7000, 2, commit=True)
    v2 += kafka.batch(4, [(None, b'E')], pid=7001, epoch=0, base_seq=0, transactional=True)
    kafka.write_partition(os.path.join(d, 'v2-0'), {0: v2})
