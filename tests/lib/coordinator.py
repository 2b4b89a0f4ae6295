"""Build __consumer_offsets and __transaction_state records and log directories for the tests
(Python 3 standard library only), on top of the batch builder tests/analysis/mkseg.py.

Keys and values follow Kafka's message definitions (apache/kafka
group-coordinator/src/main/resources/common/message/*.json and
transaction-coordinator/.../TransactionLog*.json), with the versions Kafka 4.0's
GroupCoordinatorRecordHelpers writes (MetadataVersion 4.0-IV0):
- the key is version-prefixed with the record type (MessageUtil.toVersionPrefixedBytes of the
  key message at version = type): 0/1 OffsetCommitKey, 2 GroupMetadataKey, 3
  ConsumerGroupMetadataKey, 4 ConsumerGroupPartitionMetadataKey, 5 ConsumerGroupMemberMetadataKey,
  6 ConsumerGroupTargetAssignmentMetadataKey, 7 ConsumerGroupTargetAssignmentMemberKey, 8
  ConsumerGroupCurrentMemberAssignmentKey; keys are not flexible (int16 string lengths);
- OffsetCommitValue version 3 (newOffsetCommitRecord: offsetCommitValueVersion(false) is 3; version
  1 when an expireTimestamp is given) and GroupMetadataValue version 3
  (groupMetadataValueVersion()), not flexible;
- the ConsumerGroup* values are version 0 and flexible (compact strings and arrays: unsigned
  varint length + 1; a tagged-field section at the end of every struct);
- ConsumerProtocolSubscription/Assignment version 3 (ConsumerProtocol.serializeSubscription /
  serializeAssignment at CONSUMER_PROTOCOL_VERSION 3), not flexible;
- TransactionLogValue version 0 (TransactionLog.valueToBytes for clientTransactionVersion 0/1).
Each coordinator write is a batch of its own, with producer id -1 (or the transactional
producer's id and epoch for a TxnOffsetCommit) and baseSequence 0, as the coordinator appends.
"""

import base64
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'analysis'))
import mkseg  # noqa: E402

T0 = 1700000000000


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
                 session_timeout=45000, rebalance_timeout=300000, topics=None, owned=None, raw_assignment=None):
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

    def encode(self):
        a = self.raw_assignment if self.raw_assignment is not None else assignment(self.assigned)
        return (string(self.member_id) + string(self.instance_id) + string(self.client_id) + string(self.host) +
                i32(self.rebalance_timeout) + i32(self.session_timeout) +
                nbytes(subscription(self.topics, self.owned)) + nbytes(a))


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
        self.data += mkseg.batch(base, list(records), pid=pid, epoch=epoch, base_seq=0 if pid == -1 else 0,
                                 base_ts=ts, max_ts=ts, ts_deltas=[0] * n, transactional=transactional,
                                 offset_deltas=deltas)
        self.offsets.append(base)
        self.next = base + (max(deltas) if n else 0) + 1
        return base

    def marker(self, pid, epoch, commit, ts):
        base = self.next
        self.data += mkseg.marker(base, pid, epoch, commit, ts=ts)
        self.next = base + 1
        return base

    def skip(self, n):
        """Leave n offsets out (records the cleaner removed)."""
        self.next += n

    def write(self, path, base=0):
        mkseg.write_partition(path, {base: self.data})
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
