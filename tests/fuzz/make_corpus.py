#!/usr/bin/env python3
"""Raw seed inputs for the fuzz targets, cut from testdata/corpus.

usage: make_corpus.py TESTDATA_CORPUS OUT_DIR
Writes OUT_DIR/<target>/<sha1> for every target of tests/fuzz/meson.build
(input layouts: see each fuzz_*.c). The committed corpus in
tests/fuzz/corpus/<target>/ is this, minimized with libFuzzer:
  fuzz_<target> -merge=1 tests/fuzz/corpus/<target> OUT_DIR/<target>
diff's was then made smaller: its seeds with DATA cut to whole entries within
4 KB and within 8 KB (a cut after the first three bytes, framing as below),
both sets merged with `fuzz_diff -set_cover_merge=1 NEW CUT4K CUT8K`, and the
regression inputs added back whole (more edges, 1657 against 1650, in 339 KB
against 529 KB: the short CI runs reach more inputs).
Entries are framed as Kafka frames them: offset int64, length int32, then
`length` bytes; magic at byte 16; v2 payload after byte 61; a legacy
message's value after the key (v0 header 26 bytes, v1 34, counting the
12-byte frame).
"""
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import kafka  # noqa: E402  (tests/lib: Kafka's record and batch encodings, CRC-32C)

SRC, OUT = sys.argv[1], sys.argv[2]
MAX = 64 * 1024
CODECS = {1: 'codec_gzip', 2: 'codec_snappy', 3: 'codec_lz4', 4: 'codec_zstd'}
seen = set()


def put(target, data):
    if len(data) > MAX + 3:
        return
    h = hashlib.sha1(data).hexdigest()
    if (target, h) in seen:
        return
    seen.add((target, h))
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, h), 'wb') as f:
        f.write(data)


def entries(data):
    pos = 0
    while pos + 17 <= len(data):
        length = struct.unpack_from('>i', data, pos + 8)[0]
        if length < 14 or pos + 12 + length > len(data):
            return
        yield pos, data[pos:pos + 12 + length]
        pos += 12 + length


def legacy_value(e):
    magic = e[16]
    p = 18 + (8 if magic == 1 else 0)
    klen = struct.unpack_from('>i', e, p)[0]
    p += 4 + max(klen, 0)
    vlen = struct.unpack_from('>i', e, p)[0]
    return e[p + 4:p + 4 + vlen] if vlen >= 0 else None


logs = []
for root, dirs, files in os.walk(SRC):
    dirs.sort()
    for name in sorted(files):
        path = os.path.join(root, name)
        data = open(path, 'rb').read()
        if name.endswith('.log'):
            logs.append(data)
            put('walker', data[:MAX])
            put('cursor', data[:MAX])
            if len(data) <= MAX:
                put('analysis', data)
            if 0 < len(data) <= MAX // 2:
                # FLAGS SPLIT[2] A B (fuzz_diff.c): a follower cut short, by offset under one
                # name; the log against itself by content, read_committed; its second half
                # against the whole, by key; its two halves, by offset
                ends = [pos + len(e) for pos, e in entries(data)]
                cut = ends[len(ends) // 2] if ends else len(data) // 2
                for flags, a, b in ((0x60, data, data[:cut]), (0x92, data, data),
                                    (0xc7, data[cut:], data), (0xa1, data[:cut], data[cut:])):
                    put('diff', bytes([flags]) + struct.pack('<H', len(a)) + a + b)
            for pos, e in entries(data):
                magic = e[16]
                if magic == 2:
                    put('batch_v2', b'\x00' + e)
                    codec = struct.unpack_from('>h', e, 21)[0] & 7
                    if codec in CODECS:
                        put(CODECS[codec], b'\x02' + e[61:])
                elif magic in (0, 1):
                    put('legacy', (b'\x04' if magic == 1 else b'\x00') + e)
                    codec = e[17] & 7  # attributes byte of a legacy message
                    if codec in CODECS:
                        v = legacy_value(e)
                        if v:
                            put(CODECS[codec], bytes([magic]) + v)
        elif name.endswith('.index'):
            put('index', b'\x00' + data)
        elif name.endswith('.timeindex'):
            put('index', b'\x01' + data)
        elif name.endswith('.txnindex'):
            put('txnindex', b'\x00' + data)
        elif name.endswith('.snapshot'):
            put('snapshot', data)
        elif name.endswith('checkpoint') and not name.startswith('leader'):
            put('checkpoint', b'\x00' + data)
        elif name == 'leader-epoch-checkpoint':
            put('checkpoint', b'\x01' + data)
        elif name == 'partition.metadata':
            put('checkpoint', b'\x02' + data)
        elif name == 'meta.properties':
            put('checkpoint', b'\x03' + data)
        elif name == 'quorum-state':
            put('checkpoint', b'\x04' + data)
        elif name == '.kafka_cleanshutdown':
            put('checkpoint', b'\x05' + data)
        # an index with the .log beside it (bit 7: the checked form)
        if name.endswith('.index') or name.endswith('.timeindex'):
            log = path[:path.rindex('.')] + '.log'
            if os.path.exists(log) and len(data) < 65536:
                ldata = open(log, 'rb').read()
                if len(ldata) <= MAX:
                    kind = 1 if name.endswith('.timeindex') else 0
                    put('index', bytes([0x80 | kind]) + struct.pack('>H', len(data)) + data + ldata)

# decode (fuzz_decode.c): SEL KLEN[2] KEY VALUE from the records of the internal topics' oracles, one seed
# per record type and version (sel: 1 offsets, 2 transaction log, 3 share-group state, 4 cluster
# metadata, 5 remote log metadata; 6 * control type for a KRaft control record)
DECODE_DIRS = {'__consumer_offsets-': 1, '__transaction_state-': 2, '__share_group_state-': 3,
               '__cluster_metadata-': 4, '__remote_log_metadata-': 5}
CONTROL = {'LEADER_CHANGE': 2, 'SNAPSHOT_HEADER': 3, 'SNAPSHOT_FOOTER': 4, 'KRAFT_VERSION': 5, 'KRAFT_VOTERS': 6}
import gzip
import json
kinds_seen = set()
for root, dirs, files in os.walk(SRC):
    dirs.sort()
    sel = next((v for k, v in DECODE_DIRS.items() if os.path.basename(root).startswith(k)), None)
    if sel is None:
        continue
    for name in sorted(files):
        if not name.endswith(('.oracle.jsonl', '.oracle.jsonl.gz')):
            continue
        raw = open(os.path.join(root, name), 'rb').read()
        if name.endswith('.gz'):
            raw = gzip.decompress(raw)
        for line in raw.decode('utf-8').splitlines():
            o = json.loads(line)
            if o.get('type') != 'record':
                continue
            key = bytes.fromhex(o['key']) if o.get('key') is not None else None
            val = bytes.fromhex(o['value']) if o.get('value') is not None else None
            if 'controlType' in o:
                if o['controlType'] not in CONTROL:
                    continue
                b0, sig = 6 * CONTROL[o['controlType']], ('c', o['controlType'])
            else:
                b0 = sel
                head = (key or b'')[:2] if sel <= 3 else (val or b'')[:3]
                sig = (sel, head, (val or b'')[:2] if sel <= 3 else b'', val is None)
            if sig in kinds_seen:
                continue
            kinds_seen.add(sig)
            k = struct.pack('>H', 0xffff) if key is None else struct.pack('>H', len(key)) + key
            put('decode', bytes([b0]) + k + (b'\xff' if val is None else val))



# gen-kafka42 has no oracles: its records are read here from the segments (magic 2, no compression,
# as its README says): one seed per record type and value version, as above
def uvarint_at(b, p):
    v = shift = 0
    while True:
        x = b[p]
        p += 1
        v |= (x & 0x7f) << shift
        shift += 7
        if not x & 0x80:
            return v, p


def varint_at(b, p):
    v, p = uvarint_at(b, p)
    return (v >> 1) ^ -(v & 1), p


def v2_records(data):
    pos = 0
    while pos + 61 <= len(data):
        length = struct.unpack('>i', data[pos + 8:pos + 12])[0]
        attrs = struct.unpack('>h', data[pos + 21:pos + 23])[0]
        count = struct.unpack('>i', data[pos + 57:pos + 61])[0]
        end, p = pos + 12 + length, pos + 61
        for _ in range(count if not attrs & 0x07 else 0):
            _, p = varint_at(data, p)   # length
            p += 1                      # attributes
            _, p = varint_at(data, p)   # timestamp delta
            _, p = varint_at(data, p)   # offset delta
            kl, p = varint_at(data, p)
            key = None if kl < 0 else data[p:p + kl]
            p += max(kl, 0)
            vl, p = varint_at(data, p)
            val = None if vl < 0 else data[p:p + vl]
            p += max(vl, 0)
            nh, p = varint_at(data, p)
            for _ in range(nh):
                hk, p = varint_at(data, p)
                p += hk
                hv, p = varint_at(data, p)
                p += max(hv, 0)
            yield bool(attrs & 0x20), key, val
        pos = end


for root, dirs, files in os.walk(os.path.join(SRC, 'gen-kafka42')):
    dirs.sort()
    sel = next((v for k, v in DECODE_DIRS.items() if os.path.basename(root).startswith(k)), None)
    if sel is None or '00000000000000000000.log' not in files:
        continue
    for control, key, val in v2_records(open(os.path.join(root, '00000000000000000000.log'), 'rb').read()):
        if control:
            ctype = struct.unpack('>h', key[2:4])[0]
            b0, sig = 6 * ctype, ('c42', ctype)
        else:
            b0 = sel
            head = (key or b'')[:2] if sel <= 3 else (val or b'')[:3]
            sig = ('42', sel, head, (val or b'')[:2] if sel <= 3 else b'', val is None)
        if sig in kinds_seen:
            continue
        kinds_seen.add(sig)
        k = struct.pack('>H', 0xffff) if key is None else struct.pack('>H', len(key)) + key
        put('decode', bytes([b0]) + k + (b'\xff' if val is None else val))
# the two layouts of one version (tests/internal/test_internal.py builds the same): a ShareUpdate value of
# Kafka 4.0's layout, one of 4.1's with an unknown tagged field, one both read, a ShareGroupMetadataValue of
# each layout
skey = b'\0\x01' + struct.pack('>h', 2) + b'sg' + bytes(range(1, 17)) + struct.pack('>i', 4)
sb = b'\x02' + struct.pack('>qqbh', 10, 19, 2, 1) + b'\0'
put('decode', b'\x03' + struct.pack('>H', len(skey)) + skey + struct.pack('>hHiq', 0, 1, 2, 3) + sb + b'\0')
put('decode', b'\x03' + struct.pack('>H', len(skey)) + skey + struct.pack('>hiiq', 0, 8, 5, 20) + sb +
    b'\x01\x00\x04' + struct.pack('>i', 9))
put('decode', b'\x03' + struct.pack('>H', len(skey)) + skey + struct.pack('>hHiq', 0, 1, 2, 3) + b'\x02' +
    bytes([0, 1, 1, 5, 0x10, 0, 0, 0]) + struct.pack('>qbh', 19, 2, 1) + b'\0\0')
gkey = b'\0\x0b' + struct.pack('>h', 2) + b'sg'
put('decode', b'\x01' + struct.pack('>H', len(gkey)) + gkey + struct.pack('>hi', 0, 6) + b'\0')
put('decode', b'\x01' + struct.pack('>H', len(gkey)) + gkey + struct.pack('>hiq', 0, 6, -7046029254386353131) + b'\0')
put('txnindex', b'\x00' + struct.pack('>hqqqq', 0, 4000, 10, 20, 21) * 3)
put('txnindex', b'\x00' + struct.pack('>hqqqq', 1, 4000, 10, 20, 21) + b'\x00' * 5)
put('checkpoint', b'\x00' + b'0\n2\ntopic-a 0 100\ntopic-b 3 7\n')
put('checkpoint', b'\x01' + b'0\n2\n0 0\n5 1200\n')
put('checkpoint', b'\x02' + b'version: 0\ntopic_id: 3-AGSJWZQ5GVpYUPPOBJHg\n')
put('checkpoint', b'\x03' + b'#\nversion=1\nnode.id=3\ncluster.id=c\\\n  d\ndirectory.id=J8aAPcfLQt2bqs1JT_rMgQ\nk\\u00e9y=v\n')
put('checkpoint', b'\x04' + b'{"leaderId":-1,"leaderEpoch":2,"votedId":1,"votedDirectoryId":"J8aAPcfLQt2bqs1JT_rMgQ","data_version":1}')
put('checkpoint', b'\x04' + b'{"clusterId":"","leaderId":1,"leaderEpoch":5,"votedId":-1,"appliedOffset":0,"currentVoters":[{"voterId":1}],"data_version":0}')
put('checkpoint', b'\x05' + b'{"version":0,"brokerEpoch":42}')
for target in CODECS.values():
    put(target, b'\x00')
# groups: __consumer_offsets, a data partition and __transaction_state of a groups-* folder
# (fuzz_groups.c: le16 data length, le16 __transaction_state length, the data partition's name),
# each input within GROUPS_MAX bytes (tests/fuzz/max_len: CI's short runs take 4 KiB inputs of
# this target, and libFuzzer cuts a longer seed to that when it loads it): the logs in windows of
# whole entries, one after another (__consumer_offsets in windows of all the room left, two
# thirds and half of it, so that the data partition's batches have room too), __transaction_state
# in windows of up to half the room left, and the data partition's first batches in the rest,
# slimmed (slim: the study reads a data partition's batch headers and its records' offsets, not
# their keys and values; a compressed batch of the corpus takes about 400 bytes, slimmed about
# 100). Seeds of whole segments (7-22 KB) cut to 4 KiB at load reached 1,610 edges at the start,
# these 2,190; in CI's 20 s runs 2,517 edges at 2,137-2,234 runs per CPU-second against the whole
# segments' 2,532 at 32 KiB and 860-948 (speed.txt). The committed corpus: these merged
# (-merge=1 -max_len=4096) into a directory holding the five regression inputs.
NAMES = ['t-0', 'events-0', 'items-0', 'items-1', 'in-0']
GROUPS_MAX = 4096


def slim(data):
    """The log's v2 data batches as the groups' study reads them (their headers: offsets, counts,
    timestamps, producer): uncompressed, each record with no key, value or header (RecordBatch
    v2: the header's fields kept, record i at offset delta i, the last at the batch's max
    timestamp; the attributes' codec bits cleared, the CRC-32C made again). Control batches and
    anything else as they are."""
    out = bytearray()
    for _, e in entries(data):
        if len(e) < 61 or e[16] != 2 or struct.unpack_from('>h', e, 21)[0] & 0x20:
            out += e
            continue
        leader_epoch, = struct.unpack_from('>i', e, 12)
        attrs, last_delta, first_ts, max_ts, pid, epoch, seq, count = struct.unpack_from('>hiqqqhii', e, 21)
        if count < 1 or count > 10000 or last_delta + 1 != count:
            out += e
            continue
        recs = b''.join(kafka.record(i, None, None, ts_delta=max_ts - first_ts if i == count - 1 else 0)
                        for i in range(count))
        out += kafka.batch_v2(struct.unpack_from('>q', e, 0)[0], recs, count, attributes=attrs & ~7,
                              last_delta=last_delta, base_ts=first_ts, max_ts=max_ts, producer_id=pid,
                              producer_epoch=epoch, base_seq=seq, leader_epoch=leader_epoch)
    return bytes(out)


def whole_entries(data, limit):
    end = 0
    for pos, e in entries(data):
        if pos + len(e) > limit:
            break
        end = pos + len(e)
    return data[:end]


def windows(data, limit):
    """The log's entries in runs of at most limit bytes (an entry larger alone), in order."""
    es = [e for _, e in entries(data)]
    out, i = [], 0
    while i < len(es):
        j, n = i, 0
        while j < len(es) and n + len(es[j]) <= limit:
            n += len(es[j])
            j += 1
        j = max(j, i + 1)
        out.append(b''.join(es[i:j]))
        i = j
    return out


def groups_hash(data):
    """fuzz_common.h's fuzz_input_hash: FNV-1a, 8 bytes at a time (little-endian), folded."""
    h, m, i = 0xcbf29ce484222325, (1 << 64) - 1, 0
    while i + 8 <= len(data):
        h = ((h ^ struct.unpack_from('<Q', data, i)[0]) * 0x100000001b3) & m
        i += 8
    for b in data[i:]:
        h = ((h ^ b) * 0x100000001b3) & m
    return h ^ (h >> 32)


def put_groups(data):
    if len(data) <= GROUPS_MAX:
        put('groups', data)


room = GROUPS_MAX - 5
for folder in ('groups-classic', 'groups-eos', 'groups-consumer-protocol'):
    base = os.path.join(SRC, 'gen', folder)
    if not os.path.isdir(base):
        continue
    def seg(part):
        p = os.path.join(base, part, '00000000000000000000.log')
        return open(p, 'rb').read() if os.path.exists(p) else b''
    txn = b''.join(seg(p) for p in sorted(os.listdir(base)) if p.startswith('__transaction_state-'))
    for co in sorted(p for p in os.listdir(base) if p.startswith('__consumer_offsets-')):
        cws = []
        for part in (1, 2, 3):
            cws += [w for w in windows(seg(co), room * 2 // (part + 1)) if w not in cws]
        for cw in cws:
            left = room - len(cw)
            for tw in (windows(txn, max(left // 2, 1)) if txn else [b''])[:4]:
                for name in NAMES:
                    d = whole_entries(slim(seg(name)), left - len(tw))
                    if d:
                        put_groups(struct.pack('<HHB', len(d), len(tw), NAMES.index(name)) + cw + d + tw)
# a Kafka Streams group (gen-kafka42/streams-rebalance: its input partitions are not in the corpus),
# and a KIP-848 group subscribed by regular expression (gen-kafka42/consumer-regex): its assignments
# name topic ids before the offset commits that name their topics, so the one-pass replay stops
# and reads the log again (groups.c, L->redo). Their NAME byte (no data partition: any multiple of
# 5 reads the same) is chosen so that each window is among the inputs also replayed in two passes.
for rel in ('streams-rebalance/__consumer_offsets-47', 'consumer-regex/__consumer_offsets-31'):
    path = os.path.join(SRC, 'gen-kafka42', rel, '00000000000000000000.log')
    if not os.path.exists(path):
        continue
    for w in windows(open(path, 'rb').read(), room):
        put_groups(struct.pack('<HHB', 0, 0, 0) + w)
        for name in range(5, 256, 5):
            seed = struct.pack('<HHB', 0, 0, name) + w
            if groups_hash(seed) % 8 == 0:
                put_groups(seed)
                break
print('seeds:', {t: len([s for s in seen if s[0] == t]) for t in sorted({s[0] for s in seen})})
