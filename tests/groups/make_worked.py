#!/usr/bin/env python3
"""Write testdata/groups-worked: the manual's worked example of the consumer groups' findings, a
crash and a rebalance traced from the ticket's record to the duplicates in an output topic.

The story (T0 = 1700000000000, 2023-11-14T22:13:20Z):
- 'enricher' is an at-least-once read-process-write service (group enricher, classic protocol,
  auto-commit every second): it reads orders-0 and writes enriched-0 with an idempotent
  producer, one enriched record per order.
- orders-0 receives ten orders a second (batch k, orders 10k..10k+9, created at T0 + (k+1) s).
- member A (enricher-1) owns orders-0 from generation 1 (T0 + 0.5 s) and commits 10, 20, 30, 40
  at T0 + 1.5 .. 4.5 s; its producer (pid 7001) writes the enriched records 0..49 at
  T0 + 1.2 .. 5.2 s. It dies at about T0 + 5.3 s, after writing 40..49 and before committing
  past 40.
- its session times out (session.timeout.ms 10000) and generation 2 (T0 + 16 s) gives orders-0
  to B (enricher-2), which resumes from 40 and writes 40..79 again with its producer (pid 7002)
  at T0 + 16.5 .. 19.5 s, committing 50, 60, 80.
So enriched-0 holds orders 40..49 twice: offsets 40..49 (A) and 50..59 (B).

usage: PYTHONPATH=tests/lib python3 tests/groups/make_worked.py OUT_DIR (testdata/groups-worked)
"""
import os
import shutil
import sys

import kafka

T0 = kafka.T0
out = sys.argv[1]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)

orders = b''
for k in range(8):
    orders += kafka.batch(10 * k, [(b'o-%d' % (10 * k + i), b'order-%d' % (10 * k + i)) for i in range(10)],
                          pid=5001, epoch=0, base_seq=10 * k, base_ts=T0 + 1000 * (k + 1), ts_deltas=[0] * 10)
kafka.write_partition(os.path.join(out, 'orders-0'), {0: orders})

enriched, at = b'', 0
for k in range(5):   # A: orders 10k..10k+9 at T0 + 1.2 s + k s
    enriched += kafka.batch(at, [(b'o-%d' % (10 * k + i), b'enriched-order-%d' % (10 * k + i)) for i in range(10)],
                            pid=7001, epoch=0, base_seq=at, base_ts=T0 + 1200 + 1000 * k, ts_deltas=[0] * 10)
    at += 10
for k in range(4):   # B: orders 40 + 10k .. at T0 + 16.5 s + k s
    first = 40 + 10 * k
    enriched += kafka.batch(at, [(b'o-%d' % (first + i), b'enriched-order-%d' % (first + i)) for i in range(10)],
                            pid=7002, epoch=0, base_seq=10 * k, base_ts=T0 + 16500 + 1000 * k, ts_deltas=[0] * 10)
    at += 10
kafka.write_partition(os.path.join(out, 'enriched-0'), {0: enriched})

g = 'enricher'
a = kafka.Member('enricher-1-5d1c0e7a', {'orders': [0]}, client_id='enricher-1', host='/10.0.0.11',
             session_timeout=10000)
b = kafka.Member('enricher-2-9b3f4c21', {'orders': [0]}, client_id='enricher-2', host='/10.0.0.12',
             session_timeout=10000)
L = kafka.Log()
L.append([kafka.group_metadata(g, 1, T0 + 500, [a])], T0 + 500)
for k in range(4):
    t = T0 + 1500 + 1000 * k
    L.append([kafka.offset_commit(g, 'orders', 0, 10 * (k + 1), t)], t)
L.append([kafka.group_metadata(g, 2, T0 + 16000, [b])], T0 + 16000)
for t, off in ((17000, 50), (18000, 60), (20000, 80)):
    L.append([kafka.offset_commit(g, 'orders', 0, off, T0 + t)], T0 + t)
L.write(os.path.join(out, '__consumer_offsets-%d' % kafka.coordinator_partition(g)))
print('wrote', out)
