#!/usr/bin/env python3
"""CLI tests of `segscan dump` options that the corpus golden files do not cover.

Expected values are derived by hand from the corpus scenario `lab`
(testdata/corpus/gen/lab: two batches, the first 85 bytes at position 0, the
second 73 bytes at position 85; SCENARIOS.tsv and its oracle) and from
DumpLogSegments.scala: --max-bytes slices the file (FileRecords.slice(0, N)),
so a batch is printed only when it fits entirely, and the "Found N invalid
bytes" trailer is printed only without --max-bytes.
usage: test_dump_cli.py SEGSCAN CORPUS_DIR
"""
import json
import os
import subprocess
import sys
import harness
from harness import tally as check

SEGSCAN, CORPUS = os.path.abspath(sys.argv[1]), sys.argv[2]
LAB = 'gen/lab/payments-0/00000000000000000000.log'


def run(*args, stdin=None):
    return harness.call(args, binary=SEGSCAN, stdin=stdin, cwd=CORPUS, timeout=None)


def batch_lines(out):
    return [l for l in out.splitlines() if l.startswith('baseOffset:') or l.startswith('offset:')]


# --max-bytes: 85 bytes hold exactly the first batch; 84 hold none; 158 both.
rc, out, _ = run('dump', '--max-bytes', '85', LAB)
check(rc == 0 and len(batch_lines(out)) == 1 and 'position: 0 ' in out, '--max-bytes 85 prints the first batch only')
check('Found' not in out, '--max-bytes suppresses the trailer')
rc, out, _ = run('dump', '--max-bytes', '84', LAB)
check(rc == 0 and len(batch_lines(out)) == 0, '--max-bytes 84 prints no batch')
rc, out, _ = run('dump', '--max-bytes', '158', LAB)
check(rc == 0 and len(batch_lines(out)) == 2, '--max-bytes 158 prints both batches')
rc, out, err = run('dump', '--max-bytes', 'x', LAB)
check(rc == 2 and 'max-bytes' in err, 'a bad --max-bytes is a usage error (exit 2)')

# --files a,b is the same as two arguments, and the same as the golden output twice
plain = open(os.path.join(CORPUS, 'gen/lab/payments-0/00000000000000000000.dumplog.plain.txt')).read()
rc, out, _ = run('dump', '--files', LAB + ',' + LAB)
check(rc == 0 and out == plain + plain, '--files a,b prints both, as kafka-dump-log.sh')
rc2, out2, _ = run('dump', LAB, LAB)
check(out2 == out, 'FILE FILE equals --files FILE,FILE')

# stdin: the same objects as the file, named "-"
with open(os.path.join(CORPUS, LAB), 'rb') as f:
    rc, out, _ = run('dump', '--json', '--bytes', 'hex', '-', stdin=f)
rc2, out2, _ = run('dump', '--json', '--bytes', 'hex', LAB)
a = [json.loads(l) for l in out.splitlines()]
b = [json.loads(l) for l in out2.splitlines()]
for o in a:
    check(o.pop('file') == '-', 'stdin objects are named "-"')
for o in b:
    o.pop('file')
check(rc == 0 and a == b, 'dump - reads the segment from standard input')

# --bytes: base64 and utf8 renderings of the lab value "pay-1"
rc, out, _ = run('dump', '--json', '--bytes', 'base64', LAB)
recs = [json.loads(l) for l in out.splitlines() if '"record"' in l]
check(recs[0]['value'] == 'cGF5LTE=', 'base64 of pay-1 is cGF5LTE=')
rc, out, _ = run('dump', '--json', LAB)
recs = [json.loads(l) for l in out.splitlines() if '"record"' in l]
check(recs[0]['value'] == 'pay-1' and 'valueLossy' not in recs[0], 'utf8 is the default rendering')
# the value 000102ff807f of codec-none offset 15 (oracle) is not valid UTF-8: lossy
rc, out, _ = run('dump', '--json', 'gen/codec-none/codec-none-0/00000000000000000000.log')
r15 = [json.loads(l) for l in out.splitlines() if '"offset":15,' in l and '"record"' in l][0]
check(r15['value'] == '\x00\x01\x02\ufffd\ufffd\x7f' and r15.get('valueLossy') is True,
      'invalid UTF-8 is replaced as Java does and flagged valueLossy')
rc, out, err = run('dump', '--bytes', 'octal', LAB)
check(rc == 2, '--bytes octal is a usage error')

# unknown files, missing files, directories
rc, out, err = run('dump', 'gen/SCENARIOS.tsv')
check(rc == 0 and 'Ignoring unknown file gen/SCENARIOS.tsv' in err, 'unknown files are ignored as Kafka does')
rc, out, err = run('dump', 'gen/no-such-file.log', LAB)
check(rc == 2 and 'no-such-file' in err and out.count('baseOffset:') == 2,
      'a missing file is exit 2 and the other files are still dumped')
rc, out, err = run('dump', '--json', 'gen/lab')
check(rc in (0, 2), 'a directory does not crash dump')
rc, out, err = run('dump')
check(rc == 2, 'dump without a file is a usage error')
rc, out, err = run('dump', '--help')
check(rc == 0 and '--deep-iteration' in out and '--json' in out, 'dump --help lists the options')
rc, out, err = run('--version')
check(rc == 0 and out.startswith('segscan '), '--version prints the version')

# KRaft snapshots (.checkpoint) are dumped as logs (DumpLogSegments: Snapshots.SUFFIX) with the
# header "Snapshot end offset: O, epoch: E" from the name <offset>-<epoch>.checkpoint, and the
# SnapshotHeader control record as its generated JSON: the value is the message itself,
# Version int16 then LastContainedLogTimestamp int64 (SnapshotHeaderRecord.json). The value
# bytes come from the corpus oracle of the same file.
SNAP = 'real/rjmfernandes__flink-on-prem/data/__cluster_metadata-0/00000000000000007752-0000000001.checkpoint'
if os.path.exists(os.path.join(CORPUS, SNAP)):
    rc, out, err = run('dump', '--deep-iteration', SNAP)
    lines = out.splitlines()
    check(rc == 0 and lines[1] == 'Snapshot end offset: 7752, epoch: 1', 'snapshot header line from the file name')
    rc, jout, _ = run('dump', '--json', '--bytes', 'hex', SNAP)
    hdr = [json.loads(l) for l in jout.splitlines() if '"SNAPSHOT_HEADER"' in l][0]
    v = bytes.fromhex(hdr['value'])
    want = ' SnapshotHeader {"version":%d,"lastContainedLogTimestamp":%d}' % (
        int.from_bytes(v[0:2], 'big', signed=True), int.from_bytes(v[2:10], 'big', signed=True))
    check(any(l.endswith(want) for l in lines), 'SnapshotHeader record printed as its JSON: ' + want)
    check(any(l.endswith(' SnapshotFooter {"version":0}') for l in lines), 'SnapshotFooter record printed')
BOOT = 'real/rjmfernandes__flink-on-prem/data/bootstrap.checkpoint'
if os.path.exists(os.path.join(CORPUS, BOOT)):
    rc, out, err = run('dump', BOOT)
    check(rc == 0 and out.splitlines()[1] == 'KRaft bootstrap snapshot', 'bootstrap.checkpoint header line')

sys.exit(harness.tally_exit('test_dump_cli'))
