#!/usr/bin/env python3
"""segscan verify: clean on healthy partitions, each planted fault found with its check name and position.

Usage: test_verify.py SEGSCAN CORPUS [-k SUBSTRING]

CORPUS is testdata/corpus. Healthy partitions are every gen/ scenario not named damaged-* (written by
Kafka's own code paths, see corpus/README.md) and every partition under real/ (written by real brokers,
Kafka 0.10.1 to 3.9; PROVENANCE.md: every file reads cleanly). Faulty partitions are built in a private
temporary directory from a copy of a corpus partition whose bytes are then changed; testdata is never
written. Expected check names and byte positions follow from the bytes the test changes, never from
segscan's own output. Python 3 standard library only.
"""

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import traceback
import kafka
import harness
from harness import Fail, check, eq

SEGSCAN = None
CORPUS = None
TMP = None
WRITE_OPEN = re.compile(r'open(at)?\(.*(O_WRONLY|O_RDWR|O_CREAT|O_TRUNC)')
PREALLOC_INDEX = 10 * 1024 * 1024          # segment.index.bytes default, 10 MiB
PREALLOC_TIMEINDEX = PREALLOC_INDEX // 12 * 12   # Kafka rounds down to whole 12-byte entries


# ---- helpers ------------------------------------------------------------------------------------

def run(args):
    return harness.call(args, binary=SEGSCAN)


def verify_json(paths):
    rc, out, err = run(['verify', '--json'] + paths)
    check(rc >= 0, 'segscan killed by signal %d (stderr: %s)' % (-rc, err))
    objs = [json.loads(line) for line in out.split('\n') if line.strip()]
    check(objs and objs[-1].get('type') == 'verify-summary', 'last object is not a verify-summary: %r' % objs[-1:])
    for o in objs[:-1]:
        check(o['type'] in ('finding', 'error'), 'unexpected object %r' % o)
        for k in ('check', 'severity', 'file', 'position', 'message', 'partition', 'offset'):
            check(k in o, 'finding without %s: %r' % (k, o))
        check(o['severity'] in ('inconsistency', 'damage', 'info', 'error'), 'bad severity %r' % o)
    return rc, objs[:-1], objs[-1], err


def batches(log_path):
    """(position, baseOffset, lastOffset, size) of each v2 batch, from the framing (DESIGN.md section 3)."""
    data = open(log_path, 'rb').read()
    out = []
    pos = 0
    while pos + 17 <= len(data):
        base, length = struct.unpack_from('>qi', data, pos)
        size = 12 + length
        if pos + size > len(data):
            break
        magic = data[pos + 16]
        last = base + struct.unpack_from('>i', data, pos + 23)[0] if magic == 2 else base
        out.append((pos, base, last, size))
        pos += size
    return out


def copy_partition(rel, name=None):
    src = os.path.join(CORPUS, rel)
    dst = os.path.join(TMP, name or rel.replace('/', '_'))
    if os.path.exists(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    # the partition's own files only (not the oracle / dumplog test files beside them)
    for n in os.listdir(src):
        if re.match(r'^\d{20}\.(log|index|timeindex|txnindex|snapshot)$', n) or n in (
                'leader-epoch-checkpoint', 'partition.metadata'):
            shutil.copy(os.path.join(src, n), os.path.join(dst, n))
    return dst


def only(dir_, stem=''):
    return os.path.join(dir_, '%020d%s' % (0, stem))


def faults(findings):
    return [f for f in findings if f['severity'] != 'info']


def expect_one(findings, check_name, file, position, offset='any'):
    got = [f for f in findings if f['check'] == check_name]
    check(got, 'no %s finding; findings: %r' % (check_name, findings))
    hit = [f for f in got if os.path.abspath(f['file']) == os.path.abspath(file) and f['position'] == position and
           (offset == 'any' or f['offset'] == offset)]
    check(hit, '%s expected in %s at byte %d (offset %s); got %r' % (check_name, file, position, offset, got))
    return hit[0]


# ---- healthy partitions ---------------------------------------------------------------------------

def healthy_partitions():
    out = []
    gen = os.path.join(CORPUS, 'gen')
    for scen in sorted(os.listdir(gen)):
        d = os.path.join(gen, scen)
        if not os.path.isdir(d) or scen.startswith('damaged-'):
            continue
        for part in sorted(os.listdir(d)):
            if os.path.isdir(os.path.join(d, part)):
                out.append(os.path.join(d, part))
    for dirpath, dirnames, filenames in os.walk(os.path.join(CORPUS, 'real')):
        if any(re.match(r'^\d{20}\.log$', n) for n in filenames):
            out.append(dirpath)
    return out


def test_healthy_gen_and_real():
    parts = healthy_partitions()
    check(len(parts) > 60, 'expected the corpus partitions, found %d' % len(parts))
    rc, findings, summary, err = verify_json(parts)
    eq(faults(findings), [], 'findings other than info on healthy partitions')
    eq(rc, 0, 'exit code on healthy partitions (stderr %s)' % err)
    eq(summary['partitions'], len(parts), 'partitions checked')
    # what was checked: the corpus has offset and time indexes, snapshots, txnindexes and checkpoints
    for k in ('indexEntries', 'timeIndexEntries', 'txnIndexEntries', 'snapshotsCompared', 'leaderEpochEntries'):
        check(summary[k] > 0, 'summary %s is 0: %r' % (k, summary))
    # the only info allowed: indexes the corpus does not have (files of 4 MiB and more were not collected)
    for f in findings:
        eq(f['check'], 'index-missing', 'info finding on a healthy partition: %r' % f)


def test_real_time_indexes_clean():
    # Brokers of Kafka 2.x-3.x index the record that holds a batch's maximum timestamp; kafka-dump-log.sh
    # --verify-index-only reports 13 of the real time indexes as "not found" (corpus README). They are
    # correct, and verify must say nothing about them.
    real = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(CORPUS, 'real')):
        if any(n.endswith('.timeindex') for n in filenames):
            real.append(dirpath)
    check(len(real) >= 13, 'real partitions with a time index: %d' % len(real))
    rc, findings, summary, err = verify_json(real)
    eq([f for f in findings if f['check'].startswith('timeindex')], [], 'time index findings')
    check(summary['timeIndexEntries'] > 100, 'time index entries checked: %r' % summary)
    eq(rc, 0, 'exit code')


def test_damaged_gen_are_damage():
    for scen, want in (('damaged-crc-flip', 'batch-crc'), ('damaged-bad-magic', 'log-damage'),
                       ('damaged-garbage', 'log-damage')):
        d = os.path.join(CORPUS, 'gen', scen)
        rc, findings, summary, err = verify_json([d])
        eq(rc, 3, 'exit code of %s' % scen)
        check(any(f['check'] == want and f['severity'] == 'damage' for f in findings),
              '%s: no %s damage finding: %r' % (scen, want, findings))
    # a truncated segment: the cut batch is an incomplete tail, an inconsistency (exit 1)
    d = os.path.join(CORPUS, 'gen', 'damaged-truncated')
    log = [os.path.join(dp, n) for dp, dn, fn in os.walk(d) for n in fn if n.endswith('.log')][0]
    bs = batches(log)
    end = bs[-1][0] + bs[-1][3]
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'incomplete-tail', log, end)
    eq(rc, 1, 'exit code of damaged-truncated')


# ---- planted faults ----------------------------------------------------------------------------------

def test_index_entry_past_eof():
    d = copy_partition('gen/codec-none/codec-none-0')
    idx = only(d, '.index')
    n = os.path.getsize(idx) // 8          # 3 entries: (24, 201939) (534, 267679) (549, 469618)
    size = os.path.getsize(only(d, '.log'))
    with open(idx, 'ab') as f:
        f.write(struct.pack('>ii', 1049, size + 4096))   # offset 1049 exists, position past EOF
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'index-past-eof', idx, n * 8, 1049)
    eq(len(faults(findings)), 1, 'findings: %r' % findings)
    eq(rc, 1, 'exit code')
    # an entry whose offset lies past the log's last offset (1049), at a valid position
    d = copy_partition('gen/codec-none/codec-none-0', 'past-offset')
    idx = only(d, '.index')
    last_pos = batches(only(d, '.log'))[-1][0]
    with open(idx, 'ab') as f:
        f.write(struct.pack('>ii', 2000, last_pos))
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'index-past-eof', idx, 24, 2000)
    eq(rc, 1, 'exit code')


def test_index_wrong_batch():
    d = copy_partition('gen/codec-none/codec-none-0')
    idx = only(d, '.index')
    data = bytearray(open(idx, 'rb').read())
    rel, pos = struct.unpack_from('>ii', data, 8)          # entry 1: offset 534 at the batch 525..534
    bs = batches(only(d, '.log'))
    k = [b[0] for b in bs].index(pos)
    eq((bs[k][1], bs[k][2]), (525, 534), 'the batch entry 1 points at')
    struct.pack_into('>i', data, 12, bs[k + 1][0])          # now at the batch 535..540: base above 534
    open(idx, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'index-entry', idx, 8, 534)
    eq(len(faults(findings)), 1, 'findings: %r' % findings)
    eq(rc, 1, 'exit code')
    # a position inside a batch, not at a boundary
    struct.pack_into('>i', data, 12, pos + 1)
    open(idx, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'index-entry', idx, 8, 534)
    # a follower's append of several batches: position of the batch 525..534, offset 540 (the end of the
    # next batch) is correct (DESIGN.md section 3)
    struct.pack_into('>ii', data, 8, 540, pos)
    open(idx, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    eq(faults(findings), [], 'multi-batch append entry')


def test_preallocated_indexes_active_segment_clean():
    # 1. the index files of the only (active) segment padded with zeros to their preallocated size
    d = copy_partition('gen/codec-none/codec-none-0')
    for stem, size in (('.index', PREALLOC_INDEX), ('.timeindex', PREALLOC_TIMEINDEX)):
        p = only(d, stem)
        with open(p, 'ab') as f:
            f.write(b'\0' * (size - os.path.getsize(p)))
        eq(os.path.getsize(p), size, 'padded size')
    rc, findings, summary, err = verify_json([d])
    eq(findings, [], 'findings beside a preallocated active segment')
    eq(rc, 0, 'exit code')
    eq(summary['indexEntries'], 3, 'index entries counted (the zeros are not entries)')
    eq(summary['timeIndexEntries'], 2, 'time index entries counted')
    # 2. a newly rolled, empty active segment with all-zero preallocated index files (lab: offsets 0..2)
    d = copy_partition('gen/lab/payments-0')
    open(os.path.join(d, '%020d.log' % 3), 'wb').close()
    open(os.path.join(d, '%020d.index' % 3), 'wb').write(b'\0' * PREALLOC_INDEX)
    open(os.path.join(d, '%020d.timeindex' % 3), 'wb').write(b'\0' * PREALLOC_TIMEINDEX)
    rc, findings, summary, err = verify_json([d])
    eq(findings, [], 'findings beside an empty active segment')
    eq(rc, 0, 'exit code')
    # 3. the same zeros beside a segment that is no longer the active one: information only
    d = copy_partition('gen/lab/payments-0', 'prealloc-inactive')
    p = only(d, '.timeindex')
    n = os.path.getsize(p)
    with open(p, 'ab') as f:
        f.write(b'\0' * (PREALLOC_TIMEINDEX - n))
    open(os.path.join(d, '%020d.log' % 3), 'wb').close()
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'index-preallocated', p, n)
    eq(faults(findings), [], 'only information')
    eq(rc, 0, 'exit code')


def test_snapshot_crc_mismatch():
    d = copy_partition('gen/lab/payments-0')
    snap = os.path.join(d, '%020d.snapshot' % 3)
    data = bytearray(open(snap, 'rb').read())
    data[10 + 14] ^= 0x01          # entry 0, lastOffset field (producerId 8 + epoch 2 + lastSequence 4)
    open(snap, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    # ProducerStateManager.readSnapshot: version, then CRC; the CRC field is bytes 2..5
    f = expect_one(findings, 'snapshot-corrupt', snap, 2)
    eq(f['severity'], 'damage', 'severity')
    check('CRC' in f['message'], 'message %r' % f['message'])
    eq(rc, 3, 'exit code')


def test_snapshot_disagrees_with_log():
    d = copy_partition('gen/lab/payments-0')
    snap = os.path.join(d, '%020d.snapshot' % 3)
    data = bytearray(open(snap, 'rb').read())
    pid, epoch, last_seq = struct.unpack_from('>qhi', data, 10)
    eq((pid, epoch, last_seq), (1000, 0, 1), 'the lab snapshot entry (SCENARIOS: pid=1000, seq 0..1)')
    struct.pack_into('>i', data, 10 + 10, 7)                 # lastSequence 1 -> 7
    struct.pack_into('>I', data, 2, kafka.crc32c(bytes(data[6:])))  # a valid file: CRC-32C of bytes 6..end
    open(snap, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    f = expect_one(findings, 'snapshot-state', snap, 10)
    check('lastSequence 7' in f['message'], f['message'])
    eq(len(faults(findings)), 1, 'findings: %r' % findings)
    eq(rc, 1, 'exit code')
    # a second producer the log cannot explain: no batch metadata (lastOffset -1), no batch in the log;
    # information, not a fault
    d = copy_partition('gen/lab/payments-0', 'snap-unexplained')
    snap = os.path.join(d, '%020d.snapshot' % 3)
    data = bytearray(open(snap, 'rb').read())
    entry = bytearray(46)
    struct.pack_into('>qhiqiqiq', entry, 0, 77, 3, -1, -1, 0, 1700000000000, 5, -1)
    data += entry
    struct.pack_into('>i', data, 6, 2)
    struct.pack_into('>I', data, 2, kafka.crc32c(bytes(data[6:])))
    open(snap, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'snapshot-unexplained', snap, 56)
    eq(faults(findings), [], 'only information')
    eq(rc, 0, 'exit code')


def test_txnindex_without_marker():
    d = copy_partition('gen/txn-abort/txn-0')
    tix = only(d, '.txnindex')
    # txn-abort: pid 3001 data 0..4, ABORT at 5, data 6..7, COMMIT at 8; the file's one entry is the abort.
    # Add an entry whose lastOffset 8 is the COMMIT marker, not an ABORT.
    with open(tix, 'ab') as f:
        f.write(struct.pack('>hqqqq', 0, 3001, 6, 8, 9))
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'txnindex-no-marker', tix, 34, 8)
    eq(len(faults(findings)), 1, 'findings: %r' % findings)
    eq(rc, 1, 'exit code')
    # and the other way round: no .txnindex at all, the ABORT marker (batch at byte 197, offset 5) has no entry
    os.unlink(tix)
    log = only(d, '.log')
    marker = [b for b in batches(log) if b[1] == 5][0]
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'txnindex-missing-entry', log, marker[0], 5)
    eq(rc, 1, 'exit code')
    # an entry with a wrong lastStableOffset (the log implies 6: no other open transaction)
    d = copy_partition('gen/txn-abort/txn-0', 'txn-lso')
    tix = only(d, '.txnindex')
    data = bytearray(open(tix, 'rb').read())
    eq(struct.unpack('>hqqqq', bytes(data)), (0, 3001, 0, 5, 6), 'the corpus entry')
    struct.pack_into('>q', data, 26, 3)
    open(tix, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'txnindex-entry', tix, 0, 5)
    eq(rc, 1, 'exit code')


def abort_marker(base, pid):
    # control record: key (version 0, type 0 = ABORT), value (version 0, coordinatorEpoch 1)
    return kafka.batch_records(base, [kafka.record(0, struct.pack('>hh', 0, 0), struct.pack('>hi', 0, 1))], pid=pid, epoch=0,
                    txn=True, control=True)


def test_txnindex_empty_and_compacted_transactions():
    # pid 5: data 0..1, ABORT at 2 (an entry: firstOffset 0, lastOffset 2, LSO 3: no other open transaction);
    # pid 6: an ABORT at 3 with no data: ProducerAppendInfo.appendEndTxnMarker emits no CompletedTxn for an
    # empty transaction, so it has no entry, and that is clean
    d = os.path.join(TMP, 'txn-empty-0')
    os.makedirs(d)
    log = os.path.join(d, '%020d.log' % 0)
    data = kafka.batch_records(0, [kafka.record(0, None, b'a'), kafka.record(1, None, b'b')], pid=5, epoch=0, seq=0, txn=True)
    data += abort_marker(2, 5) + abort_marker(3, 6)
    open(log, 'wb').write(data)
    tix = os.path.join(d, '%020d.txnindex' % 0)
    open(tix, 'wb').write(struct.pack('>hqqqq', 0, 5, 0, 2, 3))
    rc, findings, summary, err = verify_json([d])
    eq(faults(findings), [], 'findings')
    eq(summary['abortMarkers'], 2, 'ABORT markers')
    # a wrong lastStableOffset (4): an inconsistency ...
    open(tix, 'wb').write(struct.pack('>hqqqq', 0, 5, 0, 2, 4))
    rc, findings, summary, err = verify_json([d])
    eq(expect_one(findings, 'txnindex-entry', tix, 0, 2)['severity'], 'inconsistency', 'severity')
    # an offset hole (the markers moved to 12 and 13) is no sign of the cleaner by itself: records
    # lost leave one too, so the finding stays an inconsistency ...
    data = data[:len(data) - 2 * len(abort_marker(2, 5))] + abort_marker(12, 5) + abort_marker(13, 6)
    open(log, 'wb').write(data)
    open(tix, 'wb').write(struct.pack('>hqqqq', 0, 5, 0, 12, 4))
    rc, findings, summary, err = verify_json([d])
    eq(expect_one(findings, 'txnindex-entry', tix, 0, 12)['severity'], 'inconsistency', 'severity after a hole')
    # ... but information once the log shows compaction: a batch at 14 with its delete horizon set
    # (attributes bit 6, KIP-534: only the cleaner sets it, LogCleaner.cleanInto)
    data += kafka.batch_v2(14, kafka.record(0, b'k', b'v'), 1, attributes=0x40)
    open(log, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    eq(expect_one(findings, 'txnindex-entry', tix, 0, 12)['severity'], 'info', 'severity in a compacted log')
    eq(rc, 0, 'exit code')


def test_overlapping_segments():
    d = copy_partition('gen/lab/payments-0')
    log = only(d, '.log')
    bs = batches(log)
    eq([(b[1], b[2]) for b in bs], [(0, 1), (2, 2)], 'lab batches')
    data = open(log, 'rb').read()
    # a second segment named 2 that repeats the batch at offset 2: the name is not above the previous
    # segment's last offset (2) and its first batch overlaps it
    seg2 = os.path.join(d, '%020d.log' % 2)
    open(seg2, 'wb').write(data[bs[1][0]:bs[1][0] + bs[1][3]])
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'segment-name', seg2, 0, 2)
    expect_one(findings, 'segment-overlap', seg2, 0, 2)
    eq(rc, 1, 'exit code')
    # within one segment: the first batch appended again
    d = copy_partition('gen/lab/payments-0', 'lab-dup-batch')
    log = only(d, '.log')
    with open(log, 'ab') as f:
        f.write(data[:bs[0][3]])
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'offset-order', log, len(data), 0)
    eq(rc, 1, 'exit code')


def test_segment_name_above_first_batch():
    d = copy_partition('gen/lab/payments-0')
    os.rename(only(d, '.log'), os.path.join(d, '%020d.log' % 1))
    for stem in ('.index', '.timeindex'):
        os.rename(only(d, stem), os.path.join(d, '%020d%s' % (1, stem)))
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'segment-name', os.path.join(d, '%020d.log' % 1), 0, 0)
    eq(rc, 1, 'exit code')


def test_time_index_wrong_timestamp():
    d = copy_partition('gen/codec-none/codec-none-0')
    tix = only(d, '.timeindex')
    data = bytearray(open(tix, 'rb').read())
    ts, rel = struct.unpack_from('>qi', data, 12)       # entry 1: (1700000000899, 524)
    struct.pack_into('>q', data, 12, ts + 1)
    open(tix, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'timeindex-entry', tix, 12, 524)
    eq(rc, 1, 'exit code')
    # decreasing timestamps
    struct.pack_into('>q', data, 12, 1700000000000)
    open(tix, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'timeindex-order', tix, 12, 524)
    # an offset past the end of the log
    struct.pack_into('>qi', data, 12, ts, 5000)
    open(tix, 'wb').write(data)
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'timeindex-past-eof', tix, 12, 5000)


def test_time_index_record_convention():
    # Kafka 2.x-3.x: the time index names the offset of the record holding the max timestamp, which need
    # not be the batch's last offset. ts-createtime-none has "one batch with out-of-order timestamps"
    # (SCENARIOS.tsv); point the entry at every offset inside that batch: each is fine as long as the
    # timestamp is the batch's maxTimestamp.
    d = copy_partition('gen/ts-createtime-none/ts-0')
    tix = only(d, '.timeindex')
    data = bytearray(open(tix, 'rb').read())
    n = len(data) // 12
    ts, rel = struct.unpack_from('>qi', data, (n - 1) * 12)
    holder = [b for b in batches(only(d, '.log')) if b[1] <= rel <= b[2]][0]
    for o in range(holder[1], holder[2] + 1):
        struct.pack_into('>i', data, (n - 1) * 12 + 8, o)
        open(tix, 'wb').write(data)
        rc, findings, summary, err = verify_json([d])
        eq(faults(findings), [], 'entry at offset %d inside the batch %d..%d' % (o, holder[1], holder[2]))


def test_leader_epoch_checkpoint():
    d = copy_partition('real/BiggerBrain__kafka/data/lsx1-0')
    ck = os.path.join(d, 'leader-epoch-checkpoint')
    text = open(ck, 'rb').read()
    eq(text, b'0\n6\n0 0\n1 9\n3 10\n5 12\n6 13\n7 14\n', 'the corpus checkpoint')
    # epoch 1 said to start at offset 8, whose batch has partitionLeaderEpoch 0
    open(ck, 'wb').write(text.replace(b'\n1 9\n', b'\n1 8\n'))
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'leader-epoch', ck, 8, 8)
    eq(rc, 1, 'exit code')
    # entries out of order
    open(ck, 'wb').write(text.replace(b'\n3 10\n', b'\n3 8\n'))
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'leader-epoch-order', ck, 12, 8)


def test_incomplete_tail_and_index_into_it():
    d = copy_partition('gen/codec-none/codec-none-0')
    log = only(d, '.log')
    bs = batches(log)
    last = bs[-1]
    with open(log, 'r+b') as f:
        f.truncate(last[0] + last[3] // 2)
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'incomplete-tail', log, last[0])
    eq(rc, 1, 'exit code')


def test_no_file_created_or_written():
    d = copy_partition('gen/codec-none/codec-none-0')
    os.unlink(only(d, '.index'))
    before = harness.tree_state(d)
    rc, findings, summary, err = verify_json([d])
    expect_one(findings, 'index-missing', only(d, '.index'), 0)
    eq(harness.tree_state(d), before, 'directory state after verify')
    strace = shutil.which('strace')
    if strace and subprocess.run([strace, '-qq', '-o', os.devnull, 'true']).returncode == 0:
        fd, trace = tempfile.mkstemp(prefix='segscan-strace-', dir=TMP)
        os.close(fd)
        env = dict(os.environ)
        env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':')
        subprocess.run([strace, '-f', '-qq', '-e', 'trace=open,openat,creat,truncate,ftruncate', '-o', trace,
                        SEGSCAN, 'verify', d], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        writes = [line for line in open(trace) if WRITE_OPEN.search(line) or 'creat(' in line or
                  'truncate(' in line]
        eq(writes, [], 'opened for writing')
        os.unlink(trace)
    eq(os.path.exists(only(d, '.index')), False, 'the missing .index was created')


def test_undecodable_records_and_large_batches():
    # A CRC proves the bytes are the ones written, not that a consumer can read them. The
    # codec-gzip partition's second batch (position 175, 217 bytes, gzip; batches() below) gets
    # its compressed payload overwritten in the middle and its CRC-32C computed again: the
    # batch is whole and CRC-valid, its records do not decompress: log-damage, exit 3.
    d = copy_partition('gen/codec-gzip/codec-gzip-0', 'undecodable')
    log = only(d, '.log')
    pos, base, last, size = batches(log)[1]
    data = bytearray(open(log, 'rb').read())
    for i in range(pos + 61 + 20, pos + size - 20):
        data[i] = 0x55
    struct.pack_into('>I', data, pos + 17, kafka.crc32c(bytes(data[pos + 21:pos + size])))
    open(log, 'wb').write(bytes(data))
    rc, findings, summary, _ = verify_json([d])
    eq(rc, 3, 'exit code')
    f = expect_one(findings, 'log-damage', log, pos, base)
    check('decompress' in f['message'], 'the finding says the records do not decompress: %r' % f)
    check(not [x for x in findings if x['check'] == 'batch-crc'], 'the CRC is valid: no batch-crc')
    # --max-batch-bytes 1000: four of the ten batches decompress past it (oracle sizes up to
    # 100 KB): information, not damage, exit 0
    rc, out, err = run(['verify', '--json', '--max-batch-bytes', '1000', os.path.join(CORPUS, 'gen/codec-gzip/codec-gzip-0')])
    objs = [json.loads(line) for line in out.split('\n') if line.strip()]
    eq(rc, 0, 'exit code with --max-batch-bytes 1000 (%s)' % err)
    eq(len([o for o in objs if o.get('check') == 'batch-too-large']), 4, 'batch-too-large findings')
    # a path that cannot be read is a finding of severity error (unreadable), not 'clean'
    rc, out, err = run(['verify', os.path.join(TMP, 'no-such-dir')])
    eq(rc, 2, 'exit code of a missing path')
    check('1 unreadable' in out and 'clean' not in out, 'the summary counts it: %r' % out)
    rc, out, err = run(['verify', '--json', os.path.join(TMP, 'no-such-dir')])
    eq(json.loads(out.strip().split('\n')[-1])['findings']['error'], 1, 'findings.error of a missing path')


def test_text_output_and_exit_codes():
    d = copy_partition('gen/codec-none/codec-none-0')
    idx = only(d, '.index')
    with open(idx, 'ab') as f:
        f.write(struct.pack('>ii', 1049, 10 ** 8))
    rc, out, err = run(['verify', d])
    eq(rc, 1, 'exit code')
    check('%s: byte 24 (offset 1049): inconsistency index-past-eof: ' % idx in out, 'text line: %r' % out)
    check('checked: 1 partition, 1 segment' in out, 'summary: %r' % out)
    rc, out, err = run(['verify', os.path.join(TMP, 'does-not-exist')])
    eq(rc, 2, 'exit code for a missing path')
    # 2 wins over 3 and 1
    rc, out, err = run(['verify', d, os.path.join(CORPUS, 'gen', 'damaged-crc-flip'), os.path.join(TMP, 'nope')])
    eq(rc, 2, 'exit code 2 first')
    rc, out, err = run(['verify', d, os.path.join(CORPUS, 'gen', 'damaged-crc-flip')])
    eq(rc, 3, 'exit code 3 before 1')
    rc, out, err = run(['verify', '--list-checks'])
    eq(rc, 0, '--list-checks')
    for name in ('batch-crc', 'index-past-eof', 'index-entry', 'snapshot-corrupt', 'snapshot-state',
                 'txnindex-no-marker', 'segment-overlap', 'leader-epoch'):
        check(re.search(r'^%s\s' % re.escape(name), out, re.M), '--list-checks lacks %s' % name)



def test_threads():
    # --threads N checks partitions at once and prints them in partition order: the same bytes,
    # exit code and summary as one thread, over every corpus partition (the damaged ones too)
    paths = [os.path.join(CORPUS, 'gen'), os.path.join(CORPUS, 'real')]
    paths = [p for p in paths if os.path.isdir(p)]
    for fmt in ([], ['--json']):
        one = run(['verify'] + fmt + paths)
        for n in ('2', '4'):
            many = run(['verify', '--threads', n] + fmt + paths)
            eq(many, one, 'verify %s --threads %s: as with one thread' % (' '.join(fmt), n))
    for bad in ('0', '257', 'x'):
        rc, out, err = run(['verify', '--threads', bad, paths[0]])
        eq(rc, 2, 'verify --threads %s: a usage error' % bad)


def main(argv):
    global SEGSCAN, CORPUS, TMP
    args = argv[1:]
    only = harness.take_k(args)
    SEGSCAN, CORPUS = os.path.abspath(args[0]), os.path.abspath(args[1])
    with tempfile.TemporaryDirectory(prefix='segscan-verify-') as tmp:
        TMP = tmp
        return harness.run_tests(harness.tests_in(globals()), only)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
