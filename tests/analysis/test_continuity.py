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


if __name__ == '__main__':
    sys.exit(harness.main(__doc__))
