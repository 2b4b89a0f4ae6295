#!/usr/bin/env python3
"""Mutation test (after libarchive's test_fuzz): mutated testdata segments must never crash
segscan, never hang, never leak (the ASan stage of .ci/run runs this test too), and a
byte flip inside a batch's checked bytes must be reported.

usage: mutate.py SEGSCAN TESTDATA_CORPUS [--many] [--seed N] [--jobs N]

Up to 20 undamaged segments of testdata/corpus (at most 128 KiB each, chosen across
scenarios: legacy v0/v1, every codec, transactions, compaction, real brokers), and for
each 200 mutations (2000 with --many), seeded so a failure can be replayed:
  60% single-byte flips (xor with a random non-zero byte),
  20% truncations at a random length,
  20% splices (a random chunk of this or another segment inserted or written over).
Each mutant is written to a temporary file and read with `segscan dump --json` and
`dump --deep-iteration --print-data-log` (which decodes the records of CRC-failed batches
too), 25 mutants to a segscan process. segscan must exit 0 or 3, within a timeout.

For a flip at byte i of an entry starting at s (positions and sizes from segscan's JSON
of the original file, which the golden tests hold to Kafka's own reader):
  v2 batch:  i-s in 8..11 (length), 16 (magic), 17..20 (CRC), 21.. (CRC-32C covered)
  v0/v1:     i-s in 8..11 (length), 12..15 (CRC), 16.. (CRC-32 covers magic..end)
must be reported at a position inside that entry: an "error" object with s <= position <
s + size. The one other acceptable report: a length flip of the last entry that makes
it run past the end of the file is what Kafka calls an incomplete tail (end object:
endOfLastBatch == s, tail "incomplete"). Flips in baseOffset (0..7) and
partitionLeaderEpoch (12..15 of v2) are not covered by any check and may pass unseen.
"""
import argparse
import harness
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import zlib

ap = argparse.ArgumentParser()
ap.add_argument('segscan')
ap.add_argument('corpus')
ap.add_argument('--many', action='store_true', help='2000 mutations a segment instead of 200')
ap.add_argument('--seed', type=int, default=7)
ap.add_argument('--jobs', type=int, default=2)
ap.add_argument('--timeout', type=float, default=60)
args = ap.parse_args()
SEGSCAN = os.path.abspath(args.segscan)
PER_FILE = 2000 if args.many else 200
MAX_SIZE = 128 * 1024


def run(path, *opts):
    return harness.call(['dump'] + list(opts) + [path], binary=SEGSCAN, timeout=args.timeout)


def pick_segments():
    found = []
    for root, dirs, files in os.walk(args.corpus):
        dirs.sort()
        for f in sorted(files):
            if f.endswith('.log') and 'damaged' not in root:
                p = os.path.join(root, f)
                if 200 <= os.path.getsize(p) <= MAX_SIZE:
                    found.append(p)
    # spread over the list (it is sorted by scenario) rather than the first 20
    if len(found) > 20:
        step = len(found) / 20.0
        found = [found[int(i * step)] for i in range(20)]
    chosen = []
    for p in found:
        rc, out, _ = run(p, '--json')
        if rc != 0:
            continue
        entries = [(o['position'], o['sizeInBytes'], o['magic']) for o in map(json.loads, out.splitlines())
                   if o['type'] == 'batch']
        if entries:
            chosen.append((p, open(p, 'rb').read(), entries))
    return chosen


def must_report(off, magic):
    if magic == 2:
        return 8 <= off <= 11 or off >= 16
    return off >= 8


def mutate(rng, data, others):
    r = rng.random()
    if r < 0.6:
        i = rng.randrange(len(data))
        m = bytearray(data)
        m[i] ^= rng.randrange(1, 256)
        return 'flip', i, bytes(m)
    if r < 0.8:
        n = rng.randrange(len(data))
        return 'truncate', n, data[:n]
    src = rng.choice(others)
    a = rng.randrange(len(src))
    chunk = src[a:a + rng.randrange(1, 4096)]
    at = rng.randrange(len(data) + 1)
    if rng.random() < 0.5:
        return 'splice-insert', at, data[:at] + chunk + data[at:]
    return 'splice-over', at, data[:at] + chunk + data[at + len(chunk):]


def judge(tag, kind, where, entries, objs):
    """None when the mutant's JSON objects are acceptable, else why not."""
    if kind != 'flip':
        return None
    for s, size, magic in entries:
        if s <= where < s + size:
            if not must_report(where - s, magic):
                return None
            if any(o['type'] == 'error' and s <= o['position'] < s + size for o in objs):
                return None
            end = [o for o in objs if o['type'] == 'end']
            if 8 <= where - s <= 11 and end and end[0]['endOfLastBatch'] == s and end[0]['tail'] == 'incomplete':
                return None
            return '%s: flip at entry byte %d (magic %d entry at %d, %d bytes) not reported' % (
                tag, where - s, magic, s, size)
    return None


def one_alone(tag, path):
    """Run one mutant alone (to find which of a chunk failed)."""
    try:
        rc, out, err = run(path, '--json')
        if rc in (0, 3):
            rc, out, err = run(path, '--deep-iteration', '--print-data-log')
    except subprocess.TimeoutExpired:
        return '%s: timeout (%ss)' % (tag, args.timeout)
    return None if rc in (0, 3) else '%s: exit %d: %s' % (tag, rc, err[-2000:])


def chunk(jobs):
    """Mutants of one segment, CHUNK at a time in one segscan process (segscan dumps every
    file it is given and names the file in every JSON object), so the ASan build's start-up
    cost is paid once a chunk. A chunk that crashes or times out is run again mutant by
    mutant to name the culprit."""
    tmpdir = tempfile.mkdtemp(prefix='segscan-mutants-')
    try:
        items = []
        for path, data, entries, k, seed, others in jobs:
            rng = random.Random(seed)
            kind, where, mutant = mutate(rng, data, others)
            tag = '%s #%d (seed %d): %s at %d' % (os.path.relpath(path, args.corpus), k, seed, kind, where)
            mpath = os.path.join(tmpdir, '%08d.log' % k)
            with open(mpath, 'wb') as f:
                f.write(mutant)
            items.append((tag, kind, where, entries, mpath))
        paths = [it[4] for it in items]
        try:
            rc, out, err = run_many(paths, '--json')
            if rc in (0, 3):
                rc, _, err = run_many(paths, '--deep-iteration', '--print-data-log')
        except subprocess.TimeoutExpired:
            rc, out = None, ''
        if rc not in (0, 3):
            found = [r for r in (one_alone(it[0], it[4]) for it in items) if r]
            return found or ['chunk of %s: exit %s, but no mutant fails alone' % (items[0][0], rc)]
        by_file = {}
        for line in out.splitlines():
            if line.strip():
                o = json.loads(line)
                by_file.setdefault(o['file'], []).append(o)
        return [r for r in (judge(t, kd, w, e, by_file.get(mp, [])) for t, kd, w, e, mp in items) if r]
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def run_many(paths, *opts):
    return harness.call(['dump'] + list(opts) + paths, binary=SEGSCAN, timeout=args.timeout * 4)


CHUNK = 25


def main():
    segs = pick_segments()
    if not segs:
        print('no segments found under', args.corpus)
        return 1
    others = [d for _, d, _ in segs]
    jobs = []
    for p, data, entries in segs:
        base = zlib.crc32(os.path.relpath(p, args.corpus).encode()) ^ args.seed
        for k in range(PER_FILE):
            jobs.append((p, data, entries, k, base * 100003 + k, others))
    print('%d segments, %d mutants' % (len(segs), len(jobs)))
    failures = []
    chunks = [jobs[i:i + CHUNK] for i in range(0, len(jobs), CHUNK)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for res in ex.map(chunk, chunks):
            for r in res:
                failures.append(r)
                print('FAIL', r)
    print('%d mutants, %d failed' % (len(jobs), len(failures)))
    return 1 if failures else 0


sys.exit(main())
