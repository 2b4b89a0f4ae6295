#!/usr/bin/env python3
"""Which broker a producer id came from: the producer-id blocks of __cluster_metadata shown by
`producers` (text and JSON) and in explain's new-session sentence.

The metadata log and the data partition are built here (tests/lib/kafka.py). Expected values are derived by
hand from Kafka's sources: ProducerIdControlManager.generateNextProducerId allocates the asking
broker the block [next, next + 1000) and appends a ProducerIdsRecord whose NextProducerId is the
first id after the block (so the record names the block [NextProducerId - 1000, NextProducerId));
ProducerIdsImage.write puts a ProducerIdsRecord with BrokerId -1 in a snapshot (every id below its
NextProducerId was handed out, by brokers the snapshot does not name). Times are the records'
timestamps (1700000000000 ms is 2023-11-14T22:13:20.000Z).

  __cluster_metadata-0: snapshot 00000000000000000010-0000000001.checkpoint: BrokerId -1,
                        NextProducerId 2000 (ids below 2000 handed out before offset 10);
                        segment 10: offset 10 a TopicRecord (not a block), offset 11 broker 2 gets
                        [2000, 3000) at +1 s, offset 12 broker 1 gets [3000, 4000) at +2 s
  orders-0:             pid 1500 (below 2000: unknown, before the snapshot), pid 2500 (broker 2),
                        pid 3100 and 3999 (broker 1), pid 4000 (no block holds it); the value "dup"
                        written by pid 2500 at offset 1 and again by pid 3100 at offset 2
usage: test_pid_blocks.py SEGSCAN SOURCE_ROOT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import harness
from harness import tally as check

SEGSCAN = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
import kafka

TS = 1700000000000


def run(*args, cwd):
    return harness.call(args, binary=SEGSCAN, cwd=cwd, timeout=120)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)


def topic_record():
    """A TopicRecord (apiKey 2, version 0): Name compact string "t", TopicId 16 bytes, no tags."""
    return kafka.metadata_frame(2, 0, kafka.cstring('t') + bytes(15) + b'\x07' + kafka.NO_TAGS)


def build(root):
    L = os.path.join(root, 'logs')
    cm = os.path.join(L, '__cluster_metadata-0')
    write(os.path.join(cm, '00000000000000000010-0000000001.checkpoint'),
          kafka.batch(0, [(None, kafka.producer_ids_record(-1, -1, 2000))], base_ts=TS - 5000, leader_epoch=1))
    write(os.path.join(cm, '00000000000000000010.log'),
          kafka.batch(10, [(None, topic_record())], base_ts=TS, leader_epoch=1) +
          kafka.batch(11, [(None, kafka.producer_ids_record(2, 7, 3000))], base_ts=TS + 1000, leader_epoch=1) +
          kafka.batch(12, [(None, kafka.producer_ids_record(1, 5, 4000))], base_ts=TS + 2000, leader_epoch=1))
    data = b''
    for off, pid, value in [(0, 1500, b'a'), (1, 2500, b'dup'), (2, 3100, b'dup'), (3, 3999, b'b'), (4, 4000, b'c')]:
        data += kafka.batch(off, [(None, value)], pid=pid, epoch=0, base_seq=0, base_ts=TS + 10000 + off)
    write(os.path.join(L, 'orders-0', '00000000000000000000.log'), data)
    return L


BLOCK_2500 = ('handed out by broker 2 (its block [2000, 3000) was allocated at 2023-11-14T22:13:21.000Z, '
              '__cluster_metadata-0 offset 11)')
BLOCK_3100 = ('handed out by broker 1 (its block [3000, 4000) was allocated at 2023-11-14T22:13:22.000Z, '
              '__cluster_metadata-0 offset 12)')


def main():
    tmp = tempfile.mkdtemp(prefix='segscan-pidblocks-')
    try:
        build(tmp)
        rc, out, err = run('producers', 'logs', cwd=tmp)
        check(rc == 0, 'producers exit 0 (got %d, %s)' % (rc, err))
        lines = out.splitlines()
        want = {
            2500: '    producer id 2500 was ' + BLOCK_2500,
            3100: '    producer id 3100 was ' + BLOCK_3100,
            3999: '    producer id 3999 was ' + BLOCK_3100.replace('3100', '3999'),
            1500: ('    producer id 1500 was handed out by an unknown broker: its block\'s record is not among '
                   'those read (a snapshot replaced it, or its segment was not given); it was allocated before '
                   '2023-11-14T22:13:15.000Z (the snapshot logs/__cluster_metadata-0/'
                   '00000000000000000010-0000000001.checkpoint)'),
            4000: ('    producer id 4000 was handed out by an unknown broker: no producer-id block read holds it '
                   '(allocated after the metadata log read ends, or not by this cluster\'s controllers)'),
        }
        for pid, line in want.items():
            check(line in lines, 'producers: pid %d:\n  want %r\n  got  %r' % (
                pid, line, [l for l in lines if ('producer id %d ' % pid) in l]))

        rc, jout, _ = run('producers', '--json', 'logs', cwd=tmp)
        sess = {o['producerId']: o['producerIdBlock'] for o in map(json.loads, jout.splitlines())
                if o['type'] == 'session'}
        check(sess.get(2500) == {'origin': 'block', 'broker': 2, 'brokerEpoch': 7, 'blockFirst': 2000,
                                 'blockEnd': 3000, 'recordTimestamp': TS + 1000,
                                 'recordFile': 'logs/__cluster_metadata-0/00000000000000000010.log',
                                 'recordOffset': 11}, 'JSON pid 2500: %r' % sess.get(2500))
        check(sess.get(1500) == {'origin': 'unknown-earlier', 'broker': None, 'brokerEpoch': None,
                                 'blockFirst': None, 'blockEnd': None, 'recordTimestamp': TS - 5000,
                                 'recordFile': 'logs/__cluster_metadata-0/00000000000000000010-0000000001.checkpoint',
                                 'recordOffset': 0}, 'JSON pid 1500: %r' % sess.get(1500))
        check(sess.get(4000) == {'origin': 'not-found', 'broker': None, 'brokerEpoch': None, 'blockFirst': None,
                                 'blockEnd': None, 'recordTimestamp': None, 'recordFile': None,
                                 'recordOffset': None}, 'JSON pid 4000: %r' % sess.get(4000))

        # explain: the new-session sentence names the broker of each pid
        rc, out, err = run('explain', '--value', 'dup', 'logs', cwd=tmp)
        check('orders-0 offset 2 was written by producer 3100, the original by producer 2500' in out and
              ' pid 3100 was ' + BLOCK_3100 + '; pid 2500 was ' + BLOCK_2500 + '.' in out,
              'explain names the brokers:\n%s' % out)

        # without the metadata log: nothing said, producerIdBlock null
        rc, out, _ = run('producers', 'logs/orders-0', cwd=tmp)
        check(rc == 0 and 'handed out' not in out, 'no metadata log: no producer-id block line')
        rc, jout, _ = run('producers', '--json', 'logs/orders-0', cwd=tmp)
        nulls = [o['producerIdBlock'] for o in map(json.loads, jout.splitlines()) if o['type'] == 'session']
        check(len(nulls) == 5 and all(v is None for v in nulls), 'no metadata log: producerIdBlock null')
        rc, out, _ = run('explain', '--value', 'dup', 'logs/orders-0', cwd=tmp)
        check('handed out' not in out, 'no metadata log: explain says nothing of brokers')

        # the snapshot alone (named as a PATH): every id below 2000 is unknown-earlier, the others not found
        rc, jout, err = run('producers', '--json', 'logs/orders-0',
                            'logs/__cluster_metadata-0/00000000000000000010-0000000001.checkpoint', cwd=tmp)
        origins = {o['producerId']: o['producerIdBlock']['origin'] for o in map(json.loads, jout.splitlines())
                   if o['type'] == 'session'}
        check(origins == {1500: 'unknown-earlier', 2500: 'not-found', 3100: 'not-found', 3999: 'not-found',
                          4000: 'not-found'}, 'a snapshot named alone: %r' % origins)
        check('a KRaft snapshot: read for its producer-id blocks only' in err, 'the snapshot is noted')

        # two replicas of the metadata log: the same blocks, once
        shutil.copytree(os.path.join(tmp, 'logs', '__cluster_metadata-0'),
                        os.path.join(tmp, 'logs2', '__cluster_metadata-0'))
        rc, jout2, _ = run('producers', '--json', 'logs/orders-0', 'logs/__cluster_metadata-0',
                           'logs2/__cluster_metadata-0', cwd=tmp)
        s2 = {o['producerId']: o['producerIdBlock']['broker'] for o in map(json.loads, jout2.splitlines())
              if o['type'] == 'session'}
        check(s2 == {1500: None, 2500: 2, 3100: 1, 3999: 1, 4000: None}, 'replicas of the metadata log: %r' % s2)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return harness.tally_exit('test_pid_blocks')


if __name__ == '__main__':
    sys.exit(main())
