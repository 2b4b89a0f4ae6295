#!/usr/bin/env python3
"""Live files: a segment that grows, or is truncated, while segscan reads it.

usage: live.py SEGSCAN grow|truncate|truncate_to_zero

Deterministic, no timing: segscan's test hook (src/lib/format/walker.c) makes the walker
block after N batches until it reads a byte from a FIFO:
  SEGSCAN_TEST_PAUSE_AFTER_BATCHES=N SEGSCAN_TEST_PAUSE_FIFO=PATH
Opening the FIFO for writing returns only once segscan has opened it for
reading, i.e. once it is paused; the test then changes the file and writes the
byte that releases it.

The segment: 20 v2 batches of one record with a 2000-byte value (2072 bytes
each, 41440 bytes: eleven pages), written with tests/lib/kafka.py.
Expected:
  grow      append 2 batches while paused after 3: segscan reads the 20 batches the file
            had when it was opened, and says the file grew: a "notice" object of kind
            file-grew at the size at open (length = the bytes appended); exit 0.
  truncate  cut the file to 100 bytes into batch 10 while paused after 3: batches 0-9
            are read; batch 10 runs past the new end; a file-shrunk "error" at byte T
            (the new size) with length = size - T; the end object shows an incomplete tail
            of 100 bytes (batch 10's surviving head); exit 3, and no SIGBUS.
  truncate_to_zero  cut it to 0 bytes while paused after 3: the next read touches pages
            that no longer exist (SIGBUS without the guard); batches 0-2 only, file-shrunk
            at byte 0, exit 3.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from kafka import batch_v2, record
import harness
from harness import tally as check

SEGSCAN = os.path.abspath(sys.argv[1])
CASE = sys.argv[2]


def batches(first, n):
    return [batch_v2(first + i, record(0, b'k%d' % (first + i), bytes([65 + i % 26]) * 2000), 1) for i in range(n)]


def main():
    tmp = tempfile.mkdtemp(prefix='segscan-live-')
    try:
        seg = os.path.join(tmp, '00000000000000000000.log')
        bs = batches(0, 20)
        data = b''.join(bs)
        with open(seg, 'wb') as f:
            f.write(data)
        size = len(data)
        pos = [sum(len(b) for b in bs[:i]) for i in range(21)]
        fifo = os.path.join(tmp, 'pause')
        os.mkfifo(fifo)
        env = dict(os.environ, SEGSCAN_TEST_PAUSE_AFTER_BATCHES='3', SEGSCAN_TEST_PAUSE_FIFO=fifo)
        p = subprocess.Popen([SEGSCAN, 'dump', '--json', seg], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        with open(fifo, 'wb') as w:       # returns once segscan is paused
            if CASE == 'grow':
                extra = b''.join(batches(20, 2))
                with open(seg, 'ab') as f:
                    f.write(extra)
            elif CASE == 'truncate':
                cut = pos[10] + 100
                os.truncate(seg, cut)
            else:
                cut = 0
                os.truncate(seg, 0)
            w.write(b'x')
        try:
            out, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            check(False, 'segscan finished')
            return
        out, err = out.decode(), err.decode()
        check(p.returncode >= 0, 'no crash (return code %d, %s)' % (p.returncode,
              signal.Signals(-p.returncode).name if p.returncode < 0 else 'exit'))
        objs = [json.loads(l) for l in out.splitlines() if l.strip()]
        got = [o['position'] for o in objs if o['type'] == 'batch']
        end = [o for o in objs if o['type'] == 'end']
        errors = [o for o in objs if o['type'] == 'error']
        notices = [o for o in objs if o['type'] == 'notice']
        check(len(end) == 1 and end[0]['fileSize'] == size, 'the end object gives the size at open (%s)' % end)
        if CASE == 'grow':
            check(p.returncode == 0, 'exit 0 (got %d: %s)' % (p.returncode, err.strip()))
            check(got == pos[:20], 'the 20 batches of the file as opened, not the appended ones (%d)' % len(got))
            check(not errors, 'no error (%s)' % errors)
            check(len(notices) == 1 and notices[0]['kind'] == 'file-grew' and notices[0]['position'] == size
                  and notices[0]['length'] == len(extra) and 'grew from %d to %d bytes' % (size, size + len(extra))
                  in notices[0]['reason'], 'a file-grew notice at byte %d: %s' % (size, notices))
        else:
            check(p.returncode == 3, 'exit 3 (got %d: %s)' % (p.returncode, err.strip()))
            n = 10 if CASE == 'truncate' else 3
            check(got == pos[:n], 'batches 0-%d read (%s)' % (n - 1, got))
            shrunk = [e for e in errors if e['kind'] == 'file-shrunk']
            check(len(errors) == 1 and len(shrunk) == 1 and shrunk[0]['position'] == cut,
                  'one file-shrunk error at byte %d: %s' % (cut, errors))
            if shrunk:
                lost = size - max(cut, pos[3])
                check(shrunk[0]['length'] == lost, 'its length is the %d bytes lost (%s)' % (lost, shrunk[0]['length']))
                check('truncated to %d bytes' % cut in shrunk[0]['reason'] and str(size) in shrunk[0]['reason'],
                      'the reason names both sizes: %s' % shrunk[0]['reason'])
            if CASE == 'truncate' and end:
                check(end[0]['tail'] == 'incomplete' and end[0]['unreadTailBytes'] == 100
                      and end[0]['endOfLastBatch'] == pos[10], 'incomplete tail of 100 bytes (%s)' % end[0])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
sys.exit(harness.tally_exit('live ' + sys.argv[2]))
