"""The tests' one builder of Kafka's on-disk encodings (Python 3 standard library only): record
batches v2 and legacy (magic 0/1) messages, the codecs' framings, control records, the records of
__consumer_offsets and __transaction_state, __cluster_metadata records, producer snapshots,
checkpoint files and partition folders. Meson puts tests/lib on PYTHONPATH (test_kit_env in
tests/meson.build): scripts `import kafka`.

Layouts (Kafka's DefaultRecordBatch.java, DefaultRecord.java, LegacyRecord.java):
  v2 batch:  baseOffset i64 | length i32 | partitionLeaderEpoch i32 | magic i8 = 2 |
             crc u32 (CRC-32C of attributes..end) | attributes i16 | lastOffsetDelta i32 |
             baseTimestamp i64 | maxTimestamp i64 | producerId i64 | producerEpoch i16 |
             baseSequence i32 | recordsCount i32 | records (compressed per attributes & 7)
             -> 61 bytes of header; length = size - 12.
  record:    length varint | attributes i8 | timestampDelta varlong | offsetDelta varint |
             keyLength varint | key | valueLength varint | value | headersCount varint |
             headers (keyLength varint, key, valueLength varint, value); varints are zig-zag
  legacy:    offset i64 | size i32 | crc u32 (CRC-32 of magic..end) | magic i8 | attributes i8 |
             [timestamp i64, magic 1] | keyLength i32 | key | valueLength i32 | value
  control record key: version int16, type int16 (0 ABORT, 1 COMMIT); value: version int16,
             coordinatorEpoch int32 (ControlRecordType.java, EndTransactionMarker.java).
"""
import base64
import os
import struct
import zlib

T0 = 1700000000000

# ---- CRC-32C (Castagnoli, reflected 0x82F63B78), table driven ------------------------
_POLY = 0x82F63B78
_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ _POLY if _c & 1 else _c >> 1
    _TABLE.append(_c)


def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    t = _TABLE
    for b in data:
        crc = t[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


# crc32c_combine(crc(A), crc(B), len(B)) == crc32c(A + B): zlib's crc32_combine
# (multiplication by x^(8 len(B)) modulo the polynomial), with the Castagnoli polynomial.
def _multmodp(a, b, poly=_POLY):
    m, p = 1 << 31, 0
    while True:
        if a & m:
            p ^= b
            if a & (m - 1) == 0:
                break
        m >>= 1
        b = (b >> 1) ^ poly if b & 1 else b >> 1
    return p


def _x2nmodp(n, k, poly=_POLY):
    x2n, p = [], 1 << 30          # x^1
    for _ in range(32):
        x2n.append(p)
        p = _multmodp(p, p, poly)
    p = 1 << 31                   # x^0
    while n:
        if n & 1:
            p = _multmodp(x2n[k & 31], p, poly)
        n >>= 1
        k += 1
    return p


def crc_combine(crc1, crc2, len2, poly=_POLY):
    return _multmodp(_x2nmodp(len2, 3, poly), crc1, poly) ^ crc2


def crc32c_repeat(block, times):
    """crc32c(block * times) without building it."""
    acc, acc_len = None, 0
    unit, unit_len = crc32c(block), len(block)
    while times:
        if times & 1:
            acc = unit if acc is None else crc_combine(acc, unit, unit_len)
            acc_len += unit_len
        times >>= 1
        if times:
            unit = crc_combine(unit, unit, unit_len)
            unit_len *= 2
    return 0 if acc is None else acc


def _selftest():
    assert crc32c(b'123456789') == 0xE3069283
    a, b = b'hello ', b'world' * 7
    assert crc_combine(crc32c(a), crc32c(b), len(b)) == crc32c(a + b)
    assert crc_combine(zlib.crc32(a), zlib.crc32(b), len(b), 0xEDB88320) == zlib.crc32(a + b)
    assert crc32c_repeat(b'abc', 13) == crc32c(b'abc' * 13)


_selftest()


# ---- varints -----------------------------------------------------------------------
def uvarint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def varint(v):
    """zig-zag (Kafka's ByteUtils.writeVarint / writeVarlong)"""
    return uvarint((v << 1) ^ (v >> 63) if v < 0 else v << 1)


def record(offset_delta, key, value, headers=(), ts_delta=0, attributes=0):
    body = bytes([attributes]) + varint(ts_delta) + varint(offset_delta)
    body += varint(-1) if key is None else varint(len(key)) + key
    body += varint(-1) if value is None else varint(len(value)) + value
    body += varint(len(headers))
    for hk, hv in headers:
        body += varint(len(hk)) + hk + (varint(-1) if hv is None else varint(len(hv)) + hv)
    return varint(len(body)) + body


def batch_v2(base_offset, records, count, attributes=0, last_delta=None, base_ts=T0, max_ts=T0,
             producer_id=-1, producer_epoch=-1, base_seq=-1, leader_epoch=0, length=None, crc=None):
    """records: the (possibly compressed) records bytes, or (prefix, block, times, suffix) to
    repeat a block without holding the CRC input twice (the batch itself is still built)."""
    if last_delta is None:
        last_delta = max(count - 1, 0)
    fields = struct.pack('>hiqqqhii', attributes, last_delta, base_ts, max_ts, producer_id,
                         producer_epoch, base_seq, count)
    if isinstance(records, tuple):
        prefix, block, times, suffix = records
        if crc is None:
            c = crc32c(fields + prefix)
            c = crc_combine(c, crc32c_repeat(block, times), len(block) * times)
            crc = crc_combine(c, crc32c(suffix), len(suffix))
        records = b''.join([prefix, block * times, suffix])
    after_crc = fields + records
    if crc is None:
        crc = crc32c(after_crc)
    if length is None:
        length = 4 + 1 + 4 + len(after_crc)
    return struct.pack('>qii', base_offset, length, leader_epoch) + b'\x02' + struct.pack('>I', crc) + after_crc


def batch_records(base_offset, records, ts=T0, pid=-1, epoch=-1, seq=-1, txn=False, control=False):
    """A v2 batch of records already encoded with record(), every timestamp ts (max = base)."""
    attrs = (0x10 if txn else 0) | (0x20 if control else 0)
    return batch_v2(base_offset, b''.join(records), len(records), attributes=attrs, last_delta=len(records) - 1,
                    base_ts=ts, max_ts=ts, producer_id=pid, producer_epoch=epoch, base_seq=seq)


def legacy(offset, value, key=None, magic=1, attributes=0, ts=T0):
    body = bytes([magic, attributes]) + (struct.pack('>q', ts) if magic == 1 else b'')
    body += struct.pack('>i', -1) if key is None else struct.pack('>i', len(key)) + key
    body += struct.pack('>i', -1) if value is None else struct.pack('>i', len(value)) + value
    msg = struct.pack('>I', zlib.crc32(body)) + body
    return struct.pack('>qi', offset, len(msg)) + msg


def gzip_bytes(data):
    c = zlib.compressobj(6, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()


def zstd_raw_frame(data):
    """A zstd frame (RFC 8878) holding data in one Raw block: magic, frame header
    descriptor 0x20 (single segment, 1-byte content size), content size, block header
    (last=1, type Raw=0, size) - so no zstd library is needed. len(data) < 256."""
    assert len(data) < 256
    bh = (len(data) << 3) | 1
    return struct.pack('<I', 0xFD2FB528) + bytes([0x20, len(data)]) + struct.pack('<I', bh)[:3] + data


def xxh32(data, seed=0):
    P1, P2, P3, P4, P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
    M = 0xFFFFFFFF
    rotl = lambda x, r: ((x << r) | (x >> (32 - r))) & M
    n, i = len(data), 0
    if n >= 16:
        v = [(seed + P1 + P2) & M, (seed + P2) & M, seed & M, (seed - P1) & M]
        while i + 16 <= n:
            for j in range(4):
                v[j] = (rotl((v[j] + struct.unpack_from('<I', data, i + 4 * j)[0] * P2) & M, 13) * P1) & M
            i += 16
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
    else:
        h = (seed + P5) & M
    h = (h + n) & M
    while i + 4 <= n:
        h = (rotl((h + struct.unpack_from('<I', data, i)[0] * P3) & M, 17) * P4) & M
        i += 4
    while i < n:
        h = (rotl((h + data[i] * P5) & M, 11) * P1) & M
        i += 1
    h ^= h >> 15
    h = (h * P2) & M
    h ^= h >> 13
    h = (h * P3) & M
    h ^= h >> 16
    return h


assert xxh32(b'') == 0x02CC5D05


# ---- batches from (key, value) records, markers, partition folders ----------------------------

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
        recs += record(offset_deltas[i], key, value, headers, ts_delta=ts_deltas[i])
    if last_offset_delta is None:
        last_offset_delta = max(offset_deltas) if n else 0
    if max_ts is None:
        max_ts = base_ts + (max(ts_deltas) if n else 0)
    attrs = (0x08 if log_append_time else 0) | (0x10 if transactional else 0) | (0x20 if control else 0)
    return batch_v2(base_offset, recs, n, attributes=attrs, last_delta=last_offset_delta, base_ts=base_ts,
                    max_ts=max_ts, producer_id=pid, producer_epoch=epoch, base_seq=base_seq,
                    leader_epoch=leader_epoch)


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


def legacy_v1(offset, key, value, ts=T0, log_append_time=False):
    """A magic 1 message (LegacyRecord.java) with the timestamp type of attributes bit 3."""
    return legacy(offset, value, key=key, magic=1, attributes=0x08 if log_append_time else 0, ts=ts)


def metadata_frame(api_key, version, body):
    """A __cluster_metadata record's value: MetadataRecordSerde (AbstractApiMessageSerde.write) frames
    a message as frame version 1, apiKey and version (unsigned varints), then the message."""
    return uvarint(1) + uvarint(api_key) + uvarint(version) + body


def producer_ids_record(broker_id, broker_epoch, next_producer_id):
    """The value of a __cluster_metadata ProducerIdsRecord as KRaft writes it: MetadataRecordSerde
    (AbstractApiMessageSerde) frames a message as frame version 1, apiKey and version (unsigned
    varints), then the message; ProducerIdsRecord.json (apiKey 15, version 0, flexible): BrokerId
    int32, BrokerEpoch int64, NextProducerId int64, then the tagged fields (count 0)."""
    return metadata_frame(15, 0, struct.pack('>iqq', broker_id, broker_epoch, next_producer_id) + uvarint(0))


def producer_snapshot(entries=()):
    """A producer-state .snapshot (ProducerStateManager.writeSnapshot): version int16 1, crc uint32
    (CRC-32C of everything after it), then the entries array (int32 count, 46-byte entries)."""
    body = struct.pack('>i', len(entries)) + b''.join(entries)
    return struct.pack('>hI', 1, crc32c(body)) + body


# ---- coordinator records (__consumer_offsets, __transaction_state) --------------------------------
#
# Keys and values follow Kafka's message definitions (apache/kafka
# group-coordinator/src/main/resources/common/message/*.json and
# transaction-coordinator/.../TransactionLog*.json), with the versions Kafka 4.0's
# GroupCoordinatorRecordHelpers writes (MetadataVersion 4.0-IV0):
# - the key is version-prefixed with the record type (MessageUtil.toVersionPrefixedBytes of the
#   key message at version = type): 0/1 OffsetCommitKey, 2 GroupMetadataKey, 3
#   ConsumerGroupMetadataKey, 4 ConsumerGroupPartitionMetadataKey, 5 ConsumerGroupMemberMetadataKey,
#   6 ConsumerGroupTargetAssignmentMetadataKey, 7 ConsumerGroupTargetAssignmentMemberKey, 8
#   ConsumerGroupCurrentMemberAssignmentKey; keys are not flexible (int16 string lengths);
# - OffsetCommitValue version 3 (newOffsetCommitRecord: offsetCommitValueVersion(false) is 3; version
#   1 when an expireTimestamp is given) and GroupMetadataValue version 3
#   (groupMetadataValueVersion()), not flexible;
# - the ConsumerGroup* values are version 0 and flexible (compact strings and arrays: unsigned
#   varint length + 1; a tagged-field section at the end of every struct);
# - ConsumerProtocolSubscription/Assignment version 3 (ConsumerProtocol.serializeSubscription /
#   serializeAssignment at CONSUMER_PROTOCOL_VERSION 3), not flexible;
# - TransactionLogValue version 0 (TransactionLog.valueToBytes for clientTransactionVersion 0/1).
# Each coordinator write is a batch of its own, with producer id -1 (or the transactional
# producer's id and epoch for a TxnOffsetCommit) and baseSequence 0, as the coordinator appends.

# ---- primitive encodings ---------------------------------------------------------------------

def i8(v):
    return struct.pack('>b', v)


def i16(v):
    return struct.pack('>h', v)


def i32(v):
    return struct.pack('>i', v)


def i64(v):
    return struct.pack('>q', v)


def string(s):
    """A non-flexible string (int16 length); None is null (-1)."""
    if s is None:
        return i16(-1)
    b = s.encode() if isinstance(s, str) else s
    return i16(len(b)) + b


def nbytes(b):
    """Non-flexible bytes (int32 length); None is null."""
    if b is None:
        return i32(-1)
    return i32(len(b)) + b


def array(items, enc):
    if items is None:
        return i32(-1)
    return i32(len(items)) + b''.join(enc(x) for x in items)


def cstring(s):
    """A compact (flexible) string; None is null (length 0)."""
    if s is None:
        return uvarint(0)
    b = s.encode() if isinstance(s, str) else s
    return uvarint(len(b) + 1) + b


def cbytes(b):
    if b is None:
        return uvarint(0)
    return uvarint(len(b) + 1) + b


def carray(items, enc):
    if items is None:
        return uvarint(0)
    return uvarint(len(items) + 1) + b''.join(enc(x) for x in items)


NO_TAGS = uvarint(0)


def uuid_bytes(topic_id):
    """A topic id given as Kafka prints it (URL-safe base64, 22 characters) -> 16 bytes."""
    return base64.urlsafe_b64decode(topic_id + '==')


# ---- ConsumerProtocol (clients ConsumerProtocolSubscription.json / Assignment.json) -----------

def subscription(topics, owned=None, generation=-1, rack=None, user_data=None, version=3):
    """owned: {topic: [partitions]} (ownedPartitions, version 1+)."""
    b = i16(version) + array(topics, string) + nbytes(user_data)
    if version >= 1:
        b += array(sorted((owned or {}).items()), lambda tp: string(tp[0]) + array(tp[1], i32))
    if version >= 2:
        b += i32(generation)
    if version >= 3:
        b += string(rack)
    return b


def assignment(assigned, user_data=None, version=3):
    """assigned: {topic: [partitions]}"""
    return (i16(version) + array(sorted(assigned.items()), lambda tp: string(tp[0]) + array(tp[1], i32)) +
            nbytes(user_data))


# ---- __consumer_offsets records: (key, value) pairs ------------------------------------------

def offset_commit(group, topic, partition, offset, commit_ts, leader_epoch=0, metadata='', expire_ts=None):
    """OffsetCommitKey (type 1) and OffsetCommitValue v3, or v1 with an expireTimestamp."""
    key = i16(1) + string(group) + string(topic) + i32(partition)
    if expire_ts is None:
        value = i16(3) + i64(offset) + i32(leader_epoch) + string(metadata) + i64(commit_ts)
    else:
        value = i16(1) + i64(offset) + string(metadata) + i64(commit_ts) + i64(expire_ts)
    return key, value


def offset_tombstone(group, topic, partition):
    return i16(1) + string(group) + string(topic) + i32(partition), None


class Member:
    """A classic member (GroupMetadataValue.MemberMetadata v3)."""

    def __init__(self, member_id, assigned, client_id=None, host='/10.0.0.1', instance_id=None,
                 session_timeout=45000, rebalance_timeout=300000, topics=None, owned=None, raw_assignment=None,
                 subscription_version=3):
        self.member_id = member_id
        self.instance_id = instance_id
        self.client_id = client_id if client_id is not None else member_id.rsplit('-', 1)[0]
        self.host = host
        self.session_timeout = session_timeout
        self.rebalance_timeout = rebalance_timeout
        self.assigned = assigned
        self.topics = topics if topics is not None else sorted(assigned)
        self.owned = owned
        self.raw_assignment = raw_assignment
        self.subscription_version = subscription_version  # 0: no ownedPartitions (clients before KIP-429)

    def encode(self):
        a = self.raw_assignment if self.raw_assignment is not None else assignment(self.assigned)
        return (string(self.member_id) + string(self.instance_id) + string(self.client_id) + string(self.host) +
                i32(self.rebalance_timeout) + i32(self.session_timeout) +
                nbytes(subscription(self.topics, self.owned, version=self.subscription_version)) + nbytes(a))


def group_metadata(group, generation, ts, members=(), protocol_type='consumer', protocol='range', leader=None):
    """GroupMetadataKey (type 2) and GroupMetadataValue v3 (GroupCoordinatorRecordHelpers
    newGroupMetadataRecord; an empty group: newEmptyGroupMetadataRecord, protocol and leader null)."""
    members = list(members)
    if not members:
        protocol = None
        leader = None
    elif leader is None:
        leader = members[0].member_id
    key = i16(2) + string(group)
    value = (i16(3) + string(protocol_type) + i32(generation) + string(protocol) + string(leader) + i64(ts) +
             array(members, Member.encode))
    return key, value


def group_tombstone(group):
    return i16(2) + string(group), None


def _k(type_, *strings):
    return i16(type_) + b''.join(string(s) for s in strings)


def _tps(tps):
    """{topic_id: [partitions]} -> compact array of TopicPartitions (uuid, compact int32 array, tags)."""
    return carray(sorted(tps.items()), lambda tp: uuid_bytes(tp[0]) + carray(tp[1], i32) + NO_TAGS)


def cg_epoch(group, epoch):
    """ConsumerGroupMetadataKey (3) / Value v0 (newConsumerGroupEpochRecord)."""
    return _k(3, group), i16(0) + i32(epoch) + NO_TAGS


def cg_epoch_tombstone(group):
    return _k(3, group), None


def cg_partition_metadata(group, topics):
    """ConsumerGroupPartitionMetadataKey (4) / Value v0: topics {topic_id: (name, partitions)}."""
    def topic(t):
        tid, (name, n) = t
        return uuid_bytes(tid) + cstring(name) + i32(n) + carray([], None) + NO_TAGS
    return _k(4, group), i16(0) + carray(sorted(topics.items()), topic) + NO_TAGS


def cg_member(group, member_id, client_id, host='/10.0.0.1', instance_id=None, topics=(), rebalance_timeout=300000,
              assignor=None, rack=None, classic_session_timeout=None, regex=None, classic_null_tag=False):
    """ConsumerGroupMemberMetadataKey (5) / Value v0 (newConsumerGroupMemberSubscriptionRecord);
    classicMemberMetadata (tag 0) when the member uses the classic protocol. classic_null_tag: write
    the tagged field with a null struct (one byte 0), as the generated writer did for the corpus's
    groups-consumer-protocol records (their oracle bytes end 01 00 01 00)."""
    v = (i16(0) + cstring(instance_id) + cstring(rack) + cstring(client_id) + cstring(host) +
         carray(list(topics), cstring) + cstring(regex) + i32(rebalance_timeout) + cstring(assignor))
    if classic_session_timeout is not None:
        body = uvarint(1) + i32(classic_session_timeout) + carray([], None) + NO_TAGS
        v += uvarint(1) + uvarint(0) + uvarint(len(body)) + body
    elif classic_null_tag:
        v += uvarint(1) + uvarint(0) + uvarint(1) + b'\x00'
    else:
        v += NO_TAGS
    return _k(5, group, member_id), v


def cg_member_tombstone(group, member_id):
    return _k(5, group, member_id), None


def cg_target_epoch(group, epoch):
    return _k(6, group), i16(0) + i32(epoch) + NO_TAGS


def cg_target_member(group, member_id, tps):
    return _k(7, group, member_id), i16(0) + _tps(tps) + NO_TAGS


def cg_target_member_tombstone(group, member_id):
    return _k(7, group, member_id), None


STABLE, UNREVOKED_PARTITIONS, UNRELEASED_PARTITIONS = 0, 1, 2


def cg_assignment(group, member_id, epoch, previous_epoch, state, assigned, pending=None):
    """ConsumerGroupCurrentMemberAssignmentKey (8) / Value v0 (newConsumerGroupCurrentAssignmentRecord):
    assigned and pending {topic_id: [partitions]}."""
    v = i16(0) + i32(epoch) + i32(previous_epoch) + i8(state) + _tps(assigned) + _tps(pending or {}) + NO_TAGS
    return _k(8, group, member_id), v


def cg_assignment_tombstone(group, member_id):
    return _k(8, group, member_id), None



def streams_topology(group, epoch, subs):
    """StreamsGroupTopologyKey (23) / Value v0 (StreamsGroupTopologyValue.json, flexible): Epoch, then
    Subtopologies [SubtopologyId, SourceTopics, SourceTopicRegex, StateChangelogTopics,
    RepartitionSinkTopics, RepartitionSourceTopics, CopartitionGroups]; subs: [(id, sources, regexes)]."""
    def sub(x):
        sid, sources, regexes = x
        return (cstring(sid) + carray(sources, cstring) + carray(regexes, cstring) +
                carray([], None) * 4 + NO_TAGS)
    return _k(23, group), i16(0) + i32(epoch) + carray(subs, sub) + NO_TAGS


def streams_assignment(group, member, epoch, previous, active):
    """StreamsGroupCurrentMemberAssignmentKey (22) / Value v0: MemberEpoch, PreviousMemberEpoch, State (0
    STABLE), ActiveTasks [SubtopologyId, Partitions], then five empty task lists; active: {id: [p]}."""
    tasks = carray(sorted(active.items()), lambda t: cstring(t[0]) + carray(t[1], i32) + NO_TAGS)
    v = i16(0) + i32(epoch) + i32(previous) + i8(0) + tasks + carray([], None) * 5
    return _k(22, group, member), v + NO_TAGS


def streams_epoch(group, epoch, metadata_hash=0):
    """StreamsGroupMetadataKey (17) / Value v0 (StreamsGroupMetadataValue.json, flexible): Epoch,
    MetadataHash; the tagged fields left out (GroupMetadataManager bumps it when a member leaves)."""
    return _k(17, group), i16(0) + i32(epoch) + i64(metadata_hash) + NO_TAGS


def streams_member(group, member, client_id, process_id, host='/10.0.0.1', topology_epoch=0):
    """StreamsGroupMemberMetadataKey (19) / Value v0: InstanceId, RackId (null), ClientId, ClientHost,
    RebalanceTimeoutMs, TopologyEpoch, ProcessId, UserEndpoint (null), ClientTags (none)."""
    v = (i16(0) + cstring(None) + cstring(None) + cstring(client_id) + cstring(host) + i32(300000) +
         i32(topology_epoch) + cstring(process_id) + i8(-1) + carray([], None) + NO_TAGS)
    return _k(19, group, member), v


def streams_leave(group, member):
    """GroupMetadataManager.removeStreamsMember: the member's current assignment (22), target assignment
    (21) and metadata (19) tombstones, in that order."""
    return [(_k(22, group, member), None), (_k(21, group, member), None), (_k(19, group, member), None)]


# ---- __transaction_state ------------------------------------------------------------------------

EMPTY, ONGOING, PREPARE_COMMIT, PREPARE_ABORT, COMPLETE_COMMIT, COMPLETE_ABORT = range(6)


def txn_state(transactional_id, pid, epoch, state, ts, partitions=None, timeout=60000, start_ts=-1,
              client_version=None):
    """TransactionLogKey / TransactionLogValue v0; partitions {topic: [partitions]}. With
    client_version: TransactionLogValue v1 (flexible: compact strings and arrays), its tagged field 2
    ClientTransactionVersion (KIP-890; TransactionLog.valueToBytes writes version 1 when the
    transaction version is 2)."""
    key = i16(0) + string(transactional_id)
    start = start_ts if start_ts >= 0 else ts
    if client_version is None:
        parts = array(sorted((partitions or {}).items()), lambda tp: string(tp[0]) + array(tp[1], i32))
        value = i16(0) + i64(pid) + i16(epoch) + i32(timeout) + i8(state) + parts + i64(ts) + i64(start)
        return key, value
    parts = carray(sorted((partitions or {}).items()), lambda tp: cstring(tp[0]) + carray(tp[1], i32) + NO_TAGS)
    tags = uvarint(1) + uvarint(2) + uvarint(2) + i16(client_version)
    value = i16(1) + i64(pid) + i16(epoch) + i32(timeout) + i8(state) + parts + i64(ts) + i64(start) + tags
    return key, value


# ---- a log ------------------------------------------------------------------------------------

class Log:
    """The batches of one partition in offset order. Each append is one batch (one coordinator
    write); its records get consecutive offsets and the batch's timestamp."""

    def __init__(self, start=0):
        self.next = start
        self.data = b''
        self.offsets = []          # base offsets of the batches

    def append(self, records, ts, pid=-1, epoch=-1, transactional=False, offset_deltas=None):
        """records: list of (key, value). offset_deltas: a batch the cleaner rewrote (holes)."""
        n = len(records)
        deltas = offset_deltas if offset_deltas is not None else list(range(n))
        base = self.next
        self.data += batch(base, list(records), pid=pid, epoch=epoch, base_seq=0 if pid == -1 else 0,
                           base_ts=ts, max_ts=ts, ts_deltas=[0] * n, transactional=transactional,
                           offset_deltas=deltas)
        self.offsets.append(base)
        self.next = base + (max(deltas) if n else 0) + 1
        return base

    def marker(self, pid, epoch, commit, ts):
        base = self.next
        self.data += marker(base, pid, epoch, commit, ts=ts)
        self.next = base + 1
        return base

    def skip(self, n):
        """Leave n offsets out (records the cleaner removed)."""
        self.next += n

    def write(self, path, base=0):
        write_partition(path, {base: self.data})
        return path


def write_topic_id(partition_dir, topic_id):
    """partition.metadata (PartitionMetadataFile): version 0 and the topic id."""
    os.makedirs(partition_dir, exist_ok=True)
    with open(os.path.join(partition_dir, 'partition.metadata'), 'w') as f:
        f.write('version: 0\ntopic_id: %s\n' % topic_id)


def coordinator_partition(group, partitions=50):
    """Utils.abs(groupId.hashCode()) % partitions, Java's String.hashCode over UTF-16 units."""
    h = 0
    units = struct.unpack('>%dH' % (len(group.encode('utf-16-be')) // 2), group.encode('utf-16-be'))
    for u in units:
        h = (31 * h + u) & 0xFFFFFFFF
    if h >= 0x80000000:
        h -= 0x100000000
    a = 0 if h == -0x80000000 else abs(h)
    return a % partitions
