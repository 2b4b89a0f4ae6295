#!/usr/bin/env python3
"""Hostile inputs for `segscan dump`, one test per case.

usage: hostile.py SEGSCAN CASE     (CASE 'list' prints the case names)

A case is a function case_NAME below, and nothing else: tests/hostile/meson.build reads the
names of the case_ functions from this file and makes each its test hostile-NAME.

Every input is written here, in a fresh temporary directory, with tests/lib/kafka.py.
The expected outcome of each case is derived in its comments from Kafka's
framing (FileLogInputStream.nextBatch, DefaultRecordBatch, DefaultRecord,
LegacyRecord) and from segscan's documented behaviour (DESIGN.md sections 5
and 7): mid-file damage is an "error" object and exit 3, an incomplete or zero
tail is reported in the "end" object with exit 0, a batch decompressing past
--max-batch-bytes (default 64 MiB) is a "notice" object (batch-too-large,
not damage: exit 0), a file that cannot be read is exit 2.
"""
import json
import os
import resource
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import zlib

import kafka
from kafka import batch_v2, legacy, record
import harness
from harness import tally as check

SEGSCAN = os.path.abspath(sys.argv[1])
harness.VERBOSE = True
MiB = 1024 * 1024
GiB = 1024 * MiB
TMP = None


def under_asan():
    with open(SEGSCAN, 'rb') as f:
        return b'__asan_init' in f.read()


def write(name, data):
    path = os.path.join(TMP, name)
    with open(path, 'wb') as f:
        f.write(data)
    return path


def run(*args, timeout=120, user=None):
    prefix = () if user is None else ('setpriv', '--reuid=%d' % user, '--regid=%d' % user, '--clear-groups')
    return harness.call(args, binary=SEGSCAN, timeout=timeout, prefix=prefix)


def dump_json(path, *extra, timeout=120):
    rc, out, err = run('dump', '--json', *extra, path, timeout=timeout)
    objs = [json.loads(l) for l in out.splitlines() if l.strip()]
    return rc, objs, err


def of_type(objs, t):
    return [o for o in objs if o['type'] == t]


def max_child_rss_mib():
    # ru_maxrss of the largest child waited for so far, in KiB on Linux
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0


# A valid first and last batch around the hostile entry.
GOOD_A = batch_v2(0, record(0, b'k0', b'first'), 1)
GOOD_C = batch_v2(2, record(0, b'k2', b'last'), 1)


def sandwich(middle):
    return GOOD_A + middle + GOOD_C, len(GOOD_A), len(GOOD_A) + len(middle)


# ---- length fields -----------------------------------------------------------------

def length_case(length, junk=13):
    # offset 1, the length field under test, then `junk` non-zero bytes (no CRC-valid entry
    # can start inside them, so resync lands on GOOD_C).
    return struct.pack('>qi', 1, length) + b'\x41' * junk


def expect_bad_length(name, length, reason_part):
    data, p, c = sandwich(length_case(length))
    rc, objs, _ = dump_json(write(name + '.log', data))
    errs = of_type(objs, 'error')
    # nextBatch: a length below LegacyRecord.RECORD_OVERHEAD_V0 (14) is corrupt (Kafka throws
    # CorruptRecordException "Found record size N smaller than minimum record overhead (14)");
    # segscan reports bad-length at the entry and resyncs on GOOD_C.
    check(rc == 3, '%s: exit 3 (got %d)' % (name, rc))
    check(len(errs) == 1 and errs[0]['kind'] == 'bad-length' and errs[0]['position'] == p,
          '%s: one bad-length error at byte %d: %s' % (name, p, errs))
    check(len(errs) == 1 and errs[0]['length'] == c - p, '%s: damage covers the entry up to the next batch' % name)
    check(len(errs) == 1 and reason_part in errs[0]['reason'], '%s: reason says %r' % (name, reason_part))
    check([b['position'] for b in of_type(objs, 'batch')] == [0, c], '%s: both good batches read' % name)


def case_length_0():
    expect_bad_length('length-0', 0, 'Found record size 0 smaller than minimum record overhead (14)')


def case_length_13():
    expect_bad_length('length-13', 13, 'Found record size 13 smaller than minimum record overhead (14)')


def case_length_negative():
    expect_bad_length('length-negative', -1, 'Found record size -1 smaller than minimum record overhead (14)')
    expect_bad_length('length-int-min', -2 ** 31, 'Found record size -2147483648 smaller')


def case_length_int_max():
    # 2^31-1 + 12 bytes run past the end of the file. Mid-file (a valid batch follows) the
    # length field itself is damaged: bad-length, then resync on GOOD_C.
    data, p, c = sandwich(length_case(2 ** 31 - 1))
    rc, objs, _ = dump_json(write('length-max.log', data))
    errs = of_type(objs, 'error')
    check(rc == 3 and len(errs) == 1 and errs[0]['kind'] == 'bad-length' and errs[0]['position'] == p,
          'length 2^31-1 mid-file: bad-length at byte %d, exit 3 (got %d, %s)' % (p, rc, errs))
    check(len(errs) == 1 and 'runs past the end of the file' in errs[0]['reason'], 'length 2^31-1: reason')
    # As the last entry, it is what FileRecords.batches() treats as an incomplete tail (a
    # segment being written): not an error, reported in the end object, exit 0.
    data = GOOD_A + length_case(2 ** 31 - 1)
    rc, objs, _ = dump_json(write('length-max-tail.log', data))
    end = of_type(objs, 'end')[-1]
    check(rc == 0 and not of_type(objs, 'error'), 'length 2^31-1 at the end: no error, exit 0 (got %d)' % rc)
    check(end['tail'] == 'incomplete' and end['unreadTailBytes'] == len(data) - len(GOOD_A)
          and end['endOfLastBatch'] == len(GOOD_A), 'length 2^31-1 at the end: incomplete tail %s' % end)


def bad_crc(base_offset, value):
    b = bytearray(batch_v2(base_offset, record(0, b'k', value), 1))
    b[-1] ^= 0xff  # the last value byte: the header stays whole, the CRC fails
    return bytes(b)


def case_crc_bad_then_tail():
    # A batch that fails its CRC has a whole header: Kafka's FileLogInputStream trusts its
    # length (kafka-dump-log prints it with isvalid: false and goes on). What follows it
    # is read as what it is: (a) zeros up to the end are a zero tail; (b) an entry cut
    # short is an incomplete tail; (c) a second bad batch is a second crc-mismatch; none
    # of them may be taken into the first batch's damage.
    bad = bad_crc(1, b'bad one')
    for name, rest, tail, tail_bytes in (('zeros', b'\0' * 4096, 'zeros', 4096),
                                         ('cut', GOOD_C[:40], 'incomplete', 40)):
        rc, objs, _ = dump_json(write('crc-then-%s.log' % name, GOOD_A + bad + rest))
        errs = of_type(objs, 'error')
        end = of_type(objs, 'end')[-1]
        check(rc == 3 and len(errs) == 1 and errs[0]['kind'] == 'crc-mismatch' and errs[0]['length'] == len(bad),
              'bad CRC, then %s: one crc-mismatch of the batch\'s %d bytes: %s' % (name, len(bad), errs))
        check(end['tail'] == tail and end['unreadTailBytes'] == tail_bytes and end['damagedBytes'] == len(bad),
              'bad CRC, then %s: a %s tail of %d bytes, %d damaged: %s' % (name, tail, tail_bytes, len(bad), end))
    bad2 = bad_crc(2, b'bad two')
    rc, objs, _ = dump_json(write('crc-twice.log', GOOD_A + bad + bad2 + batch_v2(3, record(0, b'k', b'c'), 1)))
    errs = of_type(objs, 'error')
    a = len(GOOD_A)
    check([(e['kind'], e['position'], e['length']) for e in errs] ==
          [('crc-mismatch', a, len(bad)), ('crc-mismatch', a + len(bad), len(bad2))],
          'two bad CRCs in a row: two crc-mismatch errors of one batch each: %s' % errs)
    check([b['position'] for b in of_type(objs, 'batch')] == [0, a, a + len(bad), a + len(bad) + len(bad2)],
          'two bad CRCs in a row: all four batches printed')


def case_resync_between_damage():
    # A valid batch between two damaged ranges is found again by the resync, whatever follows
    # it (here more garbage): its records are read, and each range is one error.
    junk = b'\x41' * 13
    good_b = batch_v2(1, record(0, b'k1', b'middle'), 1)
    data = GOOD_A + junk + good_b + junk + GOOD_C
    rc, objs, _ = dump_json(write('between.log', data))
    a = len(GOOD_A)
    b = a + len(junk)
    check([x['position'] for x in of_type(objs, 'batch')] == [0, b, b + len(good_b) + len(junk)],
          'the batch between two damaged ranges is read: %s' % [x['position'] for x in of_type(objs, 'batch')])
    check([(e['position'], e['length']) for e in of_type(objs, 'error')] == [(a, len(junk)), (b + len(good_b), len(junk))],
          'two damaged ranges: %s' % of_type(objs, 'error'))


def case_resync_legacy_run():
    # 16 MiB of 0x01 bytes: at every position a v1 message header (offset and length
    # 0x0101..., magic 1, codec 1) whose length fits in the file. A resync that checksums
    # every such candidate reads 16 MiB per byte (hours); the key length (16 MiB) cannot
    # add up with the value length to the message's size (LegacyRecord), so no candidate
    # is plausible and the file is one damaged range, read in well under the timeout.
    n = 0x01010101 + 12 + 20000
    path = write('ones.log', b'\x01' * n)
    try:
        rc, objs, _ = dump_json(path, timeout=60)
    except subprocess.TimeoutExpired:
        check(False, 'a run of 0x01 bytes: dump finishes within 60 s')
        return
    errs = of_type(objs, 'error')
    check(rc == 3 and len(errs) == 1 and errs[0]['position'] == 0 and errs[0]['length'] == n,
          'a run of 0x01 bytes: one damaged range over the whole file: %s' % errs)


# ---- records ---------------------------------------------------------------------

def wrapper_v1(offset, inner_offsets):
    inner = b''.join(legacy(o, b'v%d' % o) for o in inner_offsets)
    return legacy(offset, kafka.gzip_bytes(inner), attributes=1)


def case_legacy_wrapper_offsets():
    # AbstractLegacyRecordBatch.DeepRecordsIterator: the inner offsets of a v1 wrapper are
    # relative to wrapper offset - last inner offset; a wrapper offset of 0 (some librdkafka
    # versions) leaves them as they are; a wrapper offset below the last inner one is an
    # InvalidRecordException ("Found invalid wrapper offset ..."), and so is a wrapper with
    # no inner messages ("... with no inner records").
    for name, wrapper, want in (('relative', wrapper_v1(12, [0, 1, 2]), [10, 11, 12]),
                                ('zero', wrapper_v1(0, [0, 1, 2]), [0, 1, 2])):
        rc, objs, _ = dump_json(write('wrapper-%s.log' % name, wrapper), '--deep-iteration')
        got = [r['offset'] for r in of_type(objs, 'record')]
        check(rc == 0 and got == want and not of_type(objs, 'error'),
              'v1 wrapper, %s offsets: records at %s, exit 0 (got %s, exit %d)' % (name, want, got, rc))
    for name, wrapper, reason in (('below', wrapper_v1(1, [0, 1, 2]), "wrapper offset '1' is less than the last "
                                                                    "inner message offset '2'"),
                                  ('empty', legacy(5, kafka.gzip_bytes(b''), attributes=1), 'no inner records')):
        rc, objs, _ = dump_json(write('wrapper-%s.log' % name, wrapper), '--deep-iteration')
        errs = of_type(objs, 'error')
        check(rc == 3 and len(errs) == 1 and errs[0]['kind'] == 'bad-record' and reason in errs[0]['reason'],
              'v1 wrapper, %s: bad-record saying %r, exit 3 (got exit %d, %s)' % (name, reason, rc, errs))


def case_legacy_wrapper_window():
    # A v1 wrapper of 5 messages (offsets 10..14) outside --from-offset 15 is 5 records
    # read outside the window, not 1 (the analysis counts a batch it does not decode by
    # what it holds).
    d = os.path.join(TMP, 'legacy-0')
    os.makedirs(d)
    with open(os.path.join(d, '%020d.log' % 10), 'wb') as f:
        f.write(wrapper_v1(14, [0, 1, 2, 3, 4]) + legacy(15, b'x'))
    rc, out, err = run('--json', '--no-seek', '--from-offset', '15', d)
    part = [json.loads(l) for l in out.splitlines() if '"type":"partition"' in l]
    check(rc == 0 and len(part) == 1 and part[0]['outsideWindow'] == 5 and part[0]['records'] == 1,
          'legacy wrapper below --from-offset: 5 records outside the window, 1 read (got exit %d, %s)'
          % (rc, [(p['outsideWindow'], p['records']) for p in part] or err))


def case_count_0_compressed():
    # DefaultRecordBatch.iterator(): a batch of count 0 has no records; the payload is not
    # decompressed, whatever its codec bits (the bytes here are no valid gzip or zstd).
    for codec in (1, 4):
        b = batch_v2(0, b'not compressed at all', 0, attributes=codec, last_delta=0)
        rc, objs, _ = dump_json(write('count0-%d.log' % codec, b + GOOD_C), '--deep-iteration')
        check(rc == 0 and not of_type(objs, 'error') and len(of_type(objs, 'record')) == 1,
              'count 0, codec %d: no error, exit 0 (got exit %d, %s)' % (codec, rc, of_type(objs, 'error')))


def case_negative_lengths():
    # DefaultRecord.readFrom: any negative key or value length is null (keySize -1), and a
    # negative header value length too; LegacyRecord: a negative key or value size is null.
    def raw_record(key_len, value, hvlen):
        body = bytes([0]) + kafka.varint(0) + kafka.varint(0) + kafka.varint(key_len)
        body += kafka.varint(len(value)) + value + kafka.varint(1) + kafka.varint(1) + b'h' + kafka.varint(hvlen)
        return kafka.varint(len(body)) + body
    b = batch_v2(0, raw_record(-2, b'x', -7), 1)
    rc, objs, _ = dump_json(write('negative-v2.log', b))
    rec = of_type(objs, 'record')
    check(rc == 0 and len(rec) == 1 and rec[0]['key'] is None and rec[0]['keySize'] == -1
          and rec[0]['value'] == 'x' and rec[0]['headers'][0]['value'] is None,
          'v2 key length -2, header value length -7: nulls, exit 0 (got exit %d, %s)' % (rc, rec or objs))
    body = bytes([1, 0]) + struct.pack('>q', kafka.T0) + struct.pack('>i', -3) + struct.pack('>i', 1) + b'y'
    msg = struct.pack('>I', zlib.crc32(body)) + body
    rc, objs, _ = dump_json(write('negative-v1.log', struct.pack('>qi', 0, len(msg)) + msg))
    rec = of_type(objs, 'record')
    check(rc == 0 and len(rec) == 1 and rec[0]['key'] is None and rec[0]['keySize'] == -1 and rec[0]['value'] == 'y',
          'v1 key size -3: a null key (keySize -1), exit 0 (got exit %d, %s)' % (rc, rec or objs))

def case_record_count_max():
    # recordsCount 2^31-1 with one record: the first record decodes; reading record 1 finds no
    # bytes left (DefaultRecordBatch's iterator would hit EOF): bad-record, exit 3. Nothing is
    # allocated by count, so this is quick and small.
    for attrs, recs in ((0, record(0, b'k', b'v')), (1, kafka.gzip_bytes(record(0, b'k', b'v')))):
        b = batch_v2(10, recs, 2 ** 31 - 1, attributes=attrs, last_delta=0)
        rc, objs, _ = dump_json(write('count-max-%d.log' % attrs, b))
        errs = of_type(objs, 'error')
        check(rc == 3 and len(of_type(objs, 'record')) == 1, 'count 2^31-1 (codec %d): one record, exit 3' % attrs)
        check(len(errs) == 1 and errs[0]['kind'] == 'bad-record' and errs[0]['position'] == 0
              and errs[0]['baseOffset'] == 10 and 'record 1 of 2147483647' in errs[0]['reason'],
              'count 2^31-1 (codec %d): bad-record at the batch: %s' % (attrs, errs))
        # the batch is damaged data: the end object counts its bytes, as the scan does
        end = of_type(objs, 'end')[-1]
        check(end['damagedBytes'] == len(b), 'count 2^31-1 (codec %d): end says %d damaged bytes: %s'
              % (attrs, len(b), end))


def case_varint_11_bytes():
    # Kafka's readVarint reads at most 5 bytes, readVarlong 10: an 11-byte varint is an error.
    # (1) as the record length; (2) as the timestampDelta (a varlong) inside a record.
    v11 = b'\x80' * 10 + b'\x00'
    b1 = batch_v2(0, v11 + b'\x00' * 8, 1)
    body = b'\x00' + v11 + kafka.varint(0) + kafka.varint(-1) + kafka.varint(-1) + kafka.varint(0)
    b2 = batch_v2(0, kafka.varint(len(body)) + body, 1)
    for name, b, why in (('length', b1, 'length varint truncated or too long'),
                         ('timestampDelta', b2, 'truncated or invalid field')):
        rc, objs, _ = dump_json(write('varint11-%s.log' % name, b))
        errs = of_type(objs, 'error')
        check(rc == 3 and len(errs) == 1 and errs[0]['kind'] == 'bad-record' and why in errs[0]['reason'],
              '11-byte varint as %s: bad-record (%s): %s' % (name, why, errs))


def case_headers_count_too_large():
    # headersCount 1000 (and 2^31-1) with no header bytes: the first header key length cannot
    # be read inside the record's narrowed bytes -> bad-record, nothing allocated by count.
    for n in (1000, 2 ** 31 - 1):
        body = b'\x00' + kafka.varint(0) + kafka.varint(0) + kafka.varint(1) + b'k' + kafka.varint(1) + b'v' + kafka.varint(n)
        b = batch_v2(0, kafka.varint(len(body)) + body, 1)
        rc, objs, _ = dump_json(write('headers-%d.log' % n, b))
        errs = of_type(objs, 'error')
        check(rc == 3 and len(errs) == 1 and errs[0]['kind'] == 'bad-record'
              and 'header runs past the end of the record' in errs[0]['reason'],
              'headers count %d: bad-record: %s' % (n, errs))


def case_lz4_holding_zstd():
    # attributes say lz4 (3) but the payload is a zstd frame. The same payload labelled zstd
    # (4) decodes (so the frame is valid zstd); labelled lz4, liblz4 refuses the frame magic:
    # decompress-failed at the batch, exit 3.
    recs = record(0, b'k', b'v') + record(1, b'k', b'w')
    frame = kafka.zstd_raw_frame(recs)
    rc, objs, _ = dump_json(write('zstd-as-zstd.log', batch_v2(0, frame, 2, attributes=4)))
    check(rc == 0 and [r['value'] for r in of_type(objs, 'record')] == ['v', 'w'], 'control: the zstd frame decodes')
    rc, objs, _ = dump_json(write('zstd-as-lz4.log', batch_v2(0, frame, 2, attributes=3)))
    errs = of_type(objs, 'error')
    check(rc == 3 and len(errs) == 1 and errs[0]['kind'] == 'decompress-failed' and errs[0]['reason'].startswith('lz4'),
          'lz4 batch holding zstd bytes: decompress-failed: %s' % errs)


# ---- decompression bombs ----------------------------------------------------------

def bomb_check(name, path, cap=None):
    args = ['--max-batch-bytes', str(cap)] if cap else []
    rc, objs, err = dump_json(path, *args, timeout=300)
    notes = of_type(objs, 'notice')
    rss = max_child_rss_mib()
    limit = 1024 if under_asan() else 256   # ASan's shadow and quarantine are not ours
    check(rc == 0 and not of_type(objs, 'error'), '%s: exit 0, no error (got %d, %s)' % (name, rc, of_type(objs, 'error')))
    check(len(notes) == 1 and notes[0]['kind'] == 'batch-too-large' and notes[0]['position'] == 0
          and '--max-batch-bytes' in notes[0]['reason'] and str(cap or 64 * MiB) in notes[0]['reason'],
          '%s: one batch-too-large notice naming the cap: %s' % (name, notes))
    check(rss < limit, '%s: max RSS %.0f MiB < %d MiB' % (name, rss, limit))


def case_bomb_gzip():
    # 10 GiB of zeros: gzip members of 64 MiB (about 65 KB each) repeated 160 times; GZIPInputStream
    # (and segscan) read concatenated members. Decompression stops at the 64 MiB cap.
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = bytes(MiB)
    member = b''.join(c.compress(chunk) for _ in range(64)) + c.flush()
    b = batch_v2(0, (b'', member, 160, b''), 1, attributes=1)
    bomb_check('gzip 10 GiB', write('bomb-gzip.log', b))
    bomb_check('gzip 10 GiB, --max-batch-bytes 1 MiB', os.path.join(TMP, 'bomb-gzip.log'), cap=MiB)


def case_bomb_zstd():
    # One zstd frame (no content size, window 128 KiB: descriptor 0x38) of 81920 RLE blocks of
    # 128 KiB of zeros (block header: size << 3 | type RLE (1) << 1 | last) = 10 GiB.
    head = struct.pack('<I', 0xFD2FB528) + bytes([0x00, 0x38])
    blk = struct.pack('<I', (131072 << 3) | (1 << 1))[:3] + b'\x00'
    last = struct.pack('<I', (131072 << 3) | (1 << 1) | 1)[:3] + b'\x00'
    b = batch_v2(0, (head, blk, 81919, last), 1, attributes=4)
    bomb_check('zstd 10 GiB', write('bomb-zstd.log', b))


def case_bomb_lz4():
    # LZ4 frame: FLG 0x60 (version 1, independent blocks), BD 0x70 (4 MiB blocks), header
    # checksum (xxh32(FLG BD) >> 8) & 0xff; each block (16459 bytes) decodes to 4 MiB: one
    # literal zero, a match at offset 1 of 4194298 bytes (15 + 16448 * 255 + 39 + 4), five
    # final literals. 2560 blocks = 10 GiB from 42 MB (lz4 cannot do much better than 255:1).
    hdr = bytes([0x60, 0x70])
    head = struct.pack('<I', 0x184D2204) + hdr + bytes([(kafka.xxh32(hdr) >> 8) & 0xFF])
    data = b'\x1f\x00' + struct.pack('<H', 1) + b'\xff' * 16448 + bytes([39]) + b'\x50' + b'\x00' * 5
    blk = struct.pack('<I', len(data)) + data
    b = batch_v2(0, (head, blk, 2560, struct.pack('<I', 0)), 1, attributes=3)
    bomb_check('lz4 10 GiB', write('bomb-lz4.log', b))


def case_bomb_snappy():
    # Snappy cannot expand more than about 21:1 (a 3-byte copy yields at most 64 bytes), so a real
    # 10 GiB payload would need some 480 MB, and a raw block's length preamble is a 32-bit
    # varint: (1) the largest claim - a raw snappy block whose preamble says 4 GiB - 1 but
    # holds 3 KB - is refused before allocating (decompress-failed, exit 3); (2) a real 128 MiB xerial stream (128 blocks of 1 MiB, each a
    # literal zero and 16384 copies of 64 bytes at offset 1) stops at the cap (notice, exit 0).
    raw = kafka.uvarint(4 * GiB - 1) + b'\x00\x00' + b'\xfe\x01\x00' * 1000
    rc, objs, _ = dump_json(write('bomb-snappy-claim.log', batch_v2(0, raw, 1, attributes=2)))
    errs = of_type(objs, 'error')
    check(rc == 3 and len(errs) == 1 and errs[0]['kind'] == 'decompress-failed' and 'claims' in errs[0]['reason'],
          'snappy claiming 4 GiB: decompress-failed without allocating: %s' % errs)
    check(max_child_rss_mib() < (1024 if under_asan() else 256), 'snappy claim: RSS bounded')
    body = kafka.uvarint(1 + 64 * 16383 + 63) + b'\x00\x00' + b'\xfe\x01\x00' * 16383 + b'\xfa\x01\x00'
    xerial = b'\x82SNAPPY\x00' + struct.pack('>ii', 1, 1)
    b = batch_v2(0, (xerial, struct.pack('>i', len(body)) + body, 128, b''), 1, attributes=2)
    bomb_check('snappy 128 MiB', write('bomb-snappy.log', b))


# ---- legacy ------------------------------------------------------------------------

def case_legacy_nested_wrapper():
    # A v1 gzip wrapper whose inner message is itself a gzip wrapper. Kafka refuses nesting
    # ("Compressed messages cannot be nested"): nested-compression at the wrapper, exit 3.
    inner_most = legacy(0, b'deep', magic=1)
    inner_wrapper = legacy(0, kafka.gzip_bytes(inner_most), magic=1, attributes=1)
    outer = legacy(5, kafka.gzip_bytes(inner_wrapper), magic=1, attributes=1)
    data = outer + legacy(6, b'after', magic=1)
    rc, objs, _ = dump_json(write('nested.log', data))
    errs = of_type(objs, 'error')
    check(rc == 3 and len(errs) == 1 and errs[0]['kind'] == 'nested-compression' and errs[0]['position'] == 0,
          'legacy wrapper inside a wrapper: nested-compression at byte 0: %s' % errs)
    check([b['position'] for b in of_type(objs, 'batch')] == [0, len(outer)], 'the message after it is read')


# ---- index -------------------------------------------------------------------------

def case_zero_index():
    # A preallocated offset index: 10 MB of zeros (Kafka preallocates segment.index.bytes, 10 MiB
    # by default, and trims it on roll). kafka-dump-log.sh stops at the first slot after slot 0
    # whose offset is the base offset, so it lists slot 0 only ("offset: 0 position: 0").
    os.makedirs(os.path.join(TMP, 'p-0'), exist_ok=True)
    path = write('p-0/00000000000000000000.index', bytes(10 * 1000 * 1000))
    rc, out, err = run('dump', path)
    lines = out.splitlines()
    check(rc == 0, '10 MB zero index: exit 0 (got %d: %s)' % (rc, err.strip()))
    check(lines[:2] == ['Dumping ' + path, 'offset: 0 position: 0'] and len(lines) < 10,
          '10 MB zero index: slot 0 only (%d lines: %s)' % (len(lines), lines[:4]))
    check(max_child_rss_mib() < (1024 if under_asan() else 256), '10 MB zero index: RSS bounded')


# ---- files that are not segments ------------------------------------------------

def case_directory():
    d = os.path.join(TMP, '00000000000000000000.log')
    os.mkdir(d)
    rc, out, err = run('dump', d, timeout=30)
    check(rc == 2 and 'not a regular file' in err and d in err, 'a directory: exit 2, "not a regular file" (%d, %s)' % (rc, err.strip()))


def case_fifo():
    # Opening a FIFO for reading blocks until a writer comes, unless O_NONBLOCK: segscan opens
    # with O_NONBLOCK and refuses anything but a regular file, so this returns at once.
    f = os.path.join(TMP, '00000000000000000000.log')
    os.mkfifo(f)
    try:
        rc, out, err = run('dump', f, timeout=20)
    except subprocess.TimeoutExpired:
        check(False, 'a FIFO: segscan blocked')
        return
    check(rc == 2 and 'not a regular file' in err, 'a FIFO: exit 2 at once, "not a regular file" (%d, %s)' % (rc, err.strip()))
    idx = os.path.join(TMP, '00000000000000000000.index')
    os.mkfifo(idx)
    try:
        rc, out, err = run('dump', idx, timeout=20)
        check(rc == 2, 'a FIFO named .index: exit 2 at once (%d)' % rc)
    except subprocess.TimeoutExpired:
        check(False, 'a FIFO named .index: segscan blocked')


def case_unreadable():
    f = write('00000000000000000000.log', GOOD_A)
    os.chmod(f, 0)
    user = None
    if os.geteuid() == 0:
        # root reads a mode-000 file anyway: run segscan as nobody (setpriv) in a directory it
        # may enter, so the open fails with EACCES as it would for a normal user.
        if not shutil.which('setpriv'):
            print('SKIP unreadable: running as root and setpriv is missing (root can read mode 000)')
            return
        user = 65534
        os.chmod(TMP, 0o755)
    rc, out, err = run('dump', f, timeout=30, user=user)
    check(rc == 2 and 'Permission denied' in err and f in err,
          'an unreadable file: exit 2, "Permission denied" (%d, %s)' % (rc, err.strip()))


def case_missing():
    f = os.path.join(TMP, '00000000000000000042.log')
    rc, out, err = run('dump', f, GOOD_PATH())
    check(rc == 2 and 'No such file or directory' in err and f in err, 'a missing file: exit 2 (%d, %s)' % (rc, err.strip()))
    check('baseOffset: 0' in out, 'a missing file: the other file is still dumped')


def GOOD_PATH():
    return write('00000000000000000000.log', GOOD_A + GOOD_C)


CASES = {name[5:]: fn for name, fn in sorted(globals().items()) if name.startswith('case_')}

if __name__ == '__main__':
    if sys.argv[2] == 'list':
        print('\n'.join(CASES))
        sys.exit(0)
    TMP = tempfile.mkdtemp(prefix='segscan-hostile-')
    try:
        CASES[sys.argv[2]]()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(harness.tally_exit('hostile ' + sys.argv[2]))
