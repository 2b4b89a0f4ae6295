"""Build small Kafka log segments for the analysis tests (Python 3 standard library only).

Record batch v2 layout (DefaultRecordBatch.java): baseOffset int64, batchLength int32,
partitionLeaderEpoch int32, magic int8 = 2, crc uint32 (CRC-32C of everything after it),
attributes int16, lastOffsetDelta int32, baseTimestamp int64, maxTimestamp int64,
producerId int64, producerEpoch int16, baseSequence int32, recordsCount int32, records.
Record (DefaultRecord.java): length varint, attributes int8, timestampDelta varlong,
offsetDelta varint, keyLength varint, key, valueLength varint, value, headerCount varint,
headers (keyLength varint, key, valueLength varint, value). Varints are zig-zag.
Control record key: version int16, type int16 (0 ABORT, 1 COMMIT); value: version int16,
coordinatorEpoch int32.
"""

import os
import struct

# CRC-32C (Castagnoli), reflected polynomial 0x82F63B78.
_CRC32C = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC32C.append(_c)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _CRC32C[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def zigzag(v):
    return (v << 1) ^ (v >> 63)


def uvarint(u):
    """Unsigned varint (ByteUtils.writeUnsignedVarint)."""
    out = bytearray()
    while True:
        b = u & 0x7F
        u >>= 7
        if u:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def varint(v):
    return uvarint(zigzag(v) & 0xFFFFFFFFFFFFFFFF)


def _bytes_field(b):
    if b is None:
        return varint(-1)
    return varint(len(b)) + b


def record(offset_delta, ts_delta, key, value, headers=()):
    body = bytes([0]) + varint(ts_delta) + varint(offset_delta) + _bytes_field(key) + _bytes_field(value)
    body += varint(len(headers))
    for hk, hv in headers:
        body += varint(len(hk)) + hk + _bytes_field(hv)
    return varint(len(body)) + body


def batch(base_offset, records, *, pid=-1, epoch=-1, base_seq=-1, base_ts=1700000000000, max_ts=None,
          ts_deltas=None, transactional=False, control=False, log_append_time=False, last_offset_delta=None,
          leader_epoch=0, offset_deltas=None):
    """records: list of (key, value) or (key, value, headers) tuples (bytes or None);
    offset_deltas: each record's offsetDelta (default 0, 1, ...; a compacted batch has holes)."""
    recs = b''
    n = len(records)
    if ts_deltas is None:
        ts_deltas = list(range(n))
    if offset_deltas is None:
        offset_deltas = list(range(n))
    for i, r in enumerate(records):
        key, value = r[0], r[1]
        headers = r[2] if len(r) > 2 else ()
        recs += record(offset_deltas[i], ts_deltas[i], key, value, headers)
    if last_offset_delta is None:
        last_offset_delta = max(offset_deltas) if n else 0
    if max_ts is None:
        max_ts = base_ts + (max(ts_deltas) if n else 0)
    attrs = (0x08 if log_append_time else 0) | (0x10 if transactional else 0) | (0x20 if control else 0)
    after_crc = struct.pack('>hiqqqhii', attrs, last_offset_delta, base_ts, max_ts, pid, epoch, base_seq, n) + recs
    crc = crc32c(after_crc)
    length = 4 + 1 + 4 + len(after_crc)   # partitionLeaderEpoch, magic, crc, rest
    return struct.pack('>qiibI', base_offset, length, leader_epoch, 2, crc) + after_crc


def marker(offset, pid, epoch, commit, coordinator_epoch=0, ts=1700000500000):
    key = struct.pack('>hh', 0, 1 if commit else 0)
    value = struct.pack('>hi', 0, coordinator_epoch)
    return batch(offset, [(key, value)], pid=pid, epoch=epoch, base_seq=-1, base_ts=ts, max_ts=ts,
                 transactional=True, control=True, ts_deltas=[0])


def segment_name(base_offset):
    return '%020d.log' % base_offset


def write_partition(path, segments):
    """segments: dict base_offset -> bytes (the concatenated batches)."""
    os.makedirs(path, exist_ok=True)
    for base, data in segments.items():
        with open(os.path.join(path, segment_name(base)), 'wb') as f:
            f.write(data)
    return path


def write_checkpoint(path, entries):
    """Kafka's OffsetCheckpointFile: version 0, count, then 'topic partition offset' lines."""
    with open(path, 'w') as f:
        f.write('0\n%d\n' % len(entries))
        for topic, part, off in entries:
            f.write('%s %d %d\n' % (topic, part, off))


def legacy_v1(offset, key, value, ts=1700000000000, log_append_time=False):
    """A magic 1 message (LegacyRecord.java): offset int64, size int32, crc uint32 (CRC-32 of
    magic..end), magic int8 = 1, attributes int8, timestamp int64, key, value (int32 lengths)."""
    import zlib

    def field(b):
        return struct.pack('>i', -1) if b is None else struct.pack('>i', len(b)) + b
    body = struct.pack('>bbq', 1, 0x08 if log_append_time else 0, ts) + field(key) + field(value)
    msg = struct.pack('>I', zlib.crc32(body) & 0xFFFFFFFF) + body
    return struct.pack('>qi', offset, len(msg)) + msg


def producer_ids_record(broker_id, broker_epoch, next_producer_id):
    """The value of a __cluster_metadata ProducerIdsRecord as KRaft writes it: MetadataRecordSerde
    (AbstractApiMessageSerde) frames a message as frame version 1, apiKey and version (unsigned
    varints), then the message; ProducerIdsRecord.json (apiKey 15, version 0, flexible): BrokerId
    int32, BrokerEpoch int64, NextProducerId int64, then the tagged fields (count 0)."""
    return (uvarint(1) + uvarint(15) + uvarint(0) +
            struct.pack('>iqq', broker_id, broker_epoch, next_producer_id) + uvarint(0))


def producer_snapshot(entries=()):
    """A producer-state .snapshot (ProducerStateManager.writeSnapshot): version int16 1, crc uint32
    (CRC-32C of everything after it), then the entries array (int32 count, 46-byte entries)."""
    body = struct.pack('>i', len(entries)) + b''.join(entries)
    return struct.pack('>hI', 1, crc32c(body)) + body
