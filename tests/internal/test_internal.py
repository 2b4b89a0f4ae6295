#!/usr/bin/env python3
"""Internal topics: dump --offsets-decoder / --transaction-log-decoder, coordinator, ss_txn_state_ids.

Usage: test_internal.py SEGSCAN TXN_IDS_PROBE CORPUS [-k SUBSTRING]

Expected texts are derived from Kafka's own definitions, never from segscan's output:

- Kafka 4.0's kafka-dump-log.sh (DumpLogSegments.scala, OffsetsMessageParser / TransactionLogMessageParser
  over CoordinatorRecordSerde) prints, after a record's metadata, " key: " + {"type":"<record type>","data":
  <key>} and " payload: " + {"version":"<value version>","data":<value>}, or "<DELETE>" for a null value;
  the record type is the key's first int16, the value version the value's first int16.
- The data objects are written by Kafka's generated JSON converters (generator/JsonConverterGenerator.java):
  fields in schema order, camelCase names, the fields of the record's version only, tagged fields only when
  they differ from their default; int8/int16/int32/int64 as numbers, strings as JSON strings, bytes in
  base64, null as null. Jackson's ObjectNode.toString() renders them without spaces.
- The schemas (apache/kafka message definitions): OffsetCommitKey {group string, topic string, partition
  int32}; OffsetCommitValue (0-4, flexible 4+) {offset int64, leaderEpoch int32 3+, metadata string,
  commitTimestamp int64, expireTimestamp int64 version 1 only}; GroupMetadataKey {group string};
  GroupMetadataValue (0-4, flexible 4+) {protocolType string, generation int32, protocol string?,
  leader string?, currentStateTimestamp int64 2+, members [{memberId, groupInstanceId string? 3+,
  clientId, clientHost, rebalanceTimeout int32 1+, sessionTimeout int32, subscription bytes, assignment
  bytes}]}; for protocolType "consumer" DumpLogSegments replaces subscription/assignment by their decoded
  ConsumerProtocolSubscription (0-3) {topics [string], userData bytes?, ownedPartitions 1+ [{topic,
  partitions [int32]}], generationId int32 2+, rackId string? 3+} and ConsumerProtocolAssignment (0-3)
  {assignedPartitions [{topic, partitions}], userData bytes?}. TransactionLogKey {transactionalId string};
  TransactionLogValue (0-1, flexible 1+) {producerId int64, previousProducerId int64 tagged 1+ (tag 0,
  default -1), nextProducerId int64 tagged 1+ (tag 1, default -1), producerEpoch int16,
  transactionTimeoutMs int32, transactionStatus int8, transactionPartitions [{topic string, partitionIds
  [int32]}]? , transactionLastUpdateTimestampMs int64, transactionStartTimestampMs int64,
  clientTransactionVersion int16 tagged 1+ (tag 2, default 0)}.
- Java's String.hashCode: s[0]*31^(n-1) + ... + s[n-1] over UTF-16 code units, in int (32-bit two's
  complement) arithmetic; Kafka's Utils.abs maps Integer.MIN_VALUE to 0; partition = abs(hash) % N.

The __consumer_offsets files come from testdata/corpus/real (their dumplog.data.txt files were made without
the decoder); each record's key and value bytes are taken from the corpus's Kafka-written oracle
(<file>.oracle.jsonl.gz) and decoded here by a small reader that follows the schemas above. A few records
are also checked against texts worked out by hand (in the comments). __transaction_state records (the
corpus has none) are built here byte by byte from the schemas. Python 3 standard library only.
"""

import base64
import gzip
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import traceback
import kafka
import harness
from harness import Fail, check

SEGSCAN = PROBE = CORPUS = TMP = None


def eq(got, want, what):
    if got != want:
        raise Fail('%s:\n  got  %r\n  want %r' % (what, got, want))


def run(args):
    rc, out, err = harness.call(args, binary=SEGSCAN, text=False)
    check(rc >= 0, 'killed by signal %d' % -rc)
    return rc, out.decode('utf-8'), err.decode('utf-8', 'replace')


# ---- a reader following the schemas (module docstring) ---------------------------------------------

class Short(Exception):
    pass


class Rd:
    def __init__(self, b):
        self.b, self.p = b, 0

    def take(self, n):
        if self.p + n > len(self.b):
            raise Short()
        v = self.b[self.p:self.p + n]
        self.p += n
        return v

    def i(self, fmt):
        return struct.unpack('>' + fmt, self.take(struct.calcsize(fmt)))[0]

    def uvarint(self):
        v = shift = 0
        while True:
            b = self.take(1)[0]
            v |= (b & 0x7f) << shift
            if not b & 0x80:
                return v
            shift += 7


def rd_len(r, flex, wide):
    if flex:
        return r.uvarint() - 1
    return r.i('i' if wide else 'h')


def rd_str(r, flex):
    n = rd_len(r, flex, False)
    return None if n < 0 else r.take(n).decode('utf-8', 'replace')


def rd_bytes(r, flex):
    n = rd_len(r, flex, True)
    return None if n < 0 else r.take(n)


def rd_array(r, flex, elem):
    n = rd_len(r, flex, True)
    return None if n < 0 else [elem() for _ in range(n)]


def rd_tags(r, flex, known):
    """The tagged-field section: {tag: value} for the known tags (tag -> reader)."""
    out = {}
    if flex:
        for _ in range(r.uvarint()):
            tag, size = r.uvarint(), r.uvarint()
            if tag in known:
                out[tag] = known[tag]()
            else:
                r.take(size)
    return out


def offset_commit_key(r):
    return [('group', rd_str(r, False)), ('topic', rd_str(r, False)), ('partition', r.i('i'))]


def offset_commit_value(r, v):
    flex = v >= 4
    f = [('offset', r.i('q'))]
    if v >= 3:
        f.append(('leaderEpoch', r.i('i')))
    f.append(('metadata', rd_str(r, flex)))
    f.append(('commitTimestamp', r.i('q')))
    if v == 1:
        f.append(('expireTimestamp', r.i('q')))
    rd_tags(r, flex, {})
    return f


def group_metadata_value(r, v):
    flex = v >= 4
    f = [('protocolType', rd_str(r, flex)), ('generation', r.i('i')), ('protocol', rd_str(r, flex)),
         ('leader', rd_str(r, flex))]
    if v >= 2:
        f.append(('currentStateTimestamp', r.i('q')))

    def member():
        m = [('memberId', rd_str(r, flex))]
        if v >= 3:
            m.append(('groupInstanceId', rd_str(r, flex)))
        m += [('clientId', rd_str(r, flex)), ('clientHost', rd_str(r, flex))]
        if v >= 1:
            m.append(('rebalanceTimeout', r.i('i')))
        m += [('sessionTimeout', r.i('i')), ('subscription', rd_bytes(r, flex)), ('assignment', rd_bytes(r, flex))]
        rd_tags(r, flex, {})
        return m
    f.append(('members', rd_array(r, flex, member)))
    rd_tags(r, flex, {})
    if dict(f)['protocolType'] == 'consumer':
        for m in dict(f)['members']:
            for i, (k, val) in enumerate(m):
                if k in ('subscription', 'assignment'):
                    try:
                        m[i] = (k, (subscription if k == 'subscription' else assignment)(val))
                    except (Short, ValueError):
                        pass   # DumpLogSegments keeps the bytes when they do not decode
    return f


def subscription(b):
    r = Rd(b)
    v = r.i('h')
    if v > 3:
        raise ValueError(v)
    f = [('topics', rd_array(r, False, lambda: rd_str(r, False))), ('userData', rd_bytes(r, False))]
    if v >= 1:
        f.append(('ownedPartitions', rd_array(r, False, lambda: [
            ('topic', rd_str(r, False)), ('partitions', rd_array(r, False, lambda: r.i('i')))])))
    if v >= 2:
        f.append(('generationId', r.i('i')))
    if v >= 3:
        f.append(('rackId', rd_str(r, False)))
    return f


def assignment(b):
    r = Rd(b)
    v = r.i('h')
    if v > 3:
        raise ValueError(v)
    return [('assignedPartitions', rd_array(r, False, lambda: [
        ('topic', rd_str(r, False)), ('partitions', rd_array(r, False, lambda: r.i('i')))])),
        ('userData', rd_bytes(r, False))]


def jackson(v):
    """Jackson's rendering of a converter's node (module docstring)."""
    if v is None:
        return 'null'
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, int):
        return str(v)
    if isinstance(v, (bytes, bytearray)):
        return '"%s"' % base64.b64encode(bytes(v)).decode()
    if isinstance(v, str):
        out = []
        for ch in v:
            c = ord(ch)
            if ch == '"':
                out.append('\\"')
            elif ch == '\\':
                out.append('\\\\')
            elif ch in '\b\t\n\f\r':
                out.append({'\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r'}[ch])
            elif c < 0x20:
                out.append('\\u%04X' % c)
            else:
                out.append(ch)
        return '"%s"' % ''.join(out)
    # an object is a list of (name, value) pairs, in schema order; an array a list of values
    if isinstance(v, list) and v and isinstance(v[0], tuple):
        return '{%s}' % ','.join('%s:%s' % (jackson(k), jackson(x)) for k, x in v)
    if isinstance(v, list):
        return '[%s]' % ','.join(jackson(x) for x in v)
    raise TypeError(v)


def offsets_expected(offset, key, value):
    """(key text, payload text) DumpLogSegments 4.0 prints for a __consumer_offsets record."""
    r = Rd(key)
    t = r.i('h')
    if t in (0, 1):
        k = offset_commit_key(r)
        vf = offset_commit_value
    elif t == 2:
        k = [('group', rd_str(r, False))]
        vf = group_metadata_value
    else:
        return 'Unknown record type %d at offset %d, skipping.' % (t, offset), None
    ktext = '{"type":"%d","data":%s}' % (t, jackson(k))
    if value is None:
        return ktext, '<DELETE>'
    r = Rd(value)
    v = r.i('h')
    return ktext, '{"version":"%d","data":%s}' % (v, jackson(vf(r, v)))


def oracle_records(log):
    path = log[:-4] + '.oracle.jsonl'
    opener = open
    if not os.path.exists(path):
        path += '.gz'
        opener = gzip.open
    out = []
    with opener(path, 'rt') as f:
        for line in f:
            o = json.loads(line)
            if o['type'] == 'record':
                out.append(o)
    return out


def consumer_offsets_logs():
    out = []
    for dp, dn, fn in os.walk(os.path.join(CORPUS, 'real')):
        if '__consumer_offsets-' in os.path.basename(dp):
            out += [os.path.join(dp, n) for n in sorted(fn) if re.match(r'^\d{20}\.log$', n)]
    return sorted(out)


RECORD_LINE = re.compile(r'^\| offset: (\d+) .*?(?: headerKeys: \[[^\]]*\]| crc: \d+\})(.*)$')


def decoded_suffixes(text):
    out = {}
    for line in text.split('\n'):
        m = RECORD_LINE.match(line)
        if m:
            out[int(m.group(1))] = m.group(2)
    return out


# ---- __consumer_offsets from the corpus -----------------------------------------------------------

def test_real_consumer_offsets_every_record():
    logs = consumer_offsets_logs()
    check(len(logs) >= 15, 'corpus __consumer_offsets segments: %d' % len(logs))
    total = 0
    for log in logs:
        rc, out, err = run(['dump', '--offsets-decoder', log])
        eq(rc, 0, 'exit code of %s (%s)' % (log, err))
        got = decoded_suffixes(out)
        recs = oracle_records(log)
        eq(len(got), len(recs), 'record lines of %s' % log)
        for o in recs:
            key = bytes.fromhex(o['key'])
            value = None if o['value'] is None else bytes.fromhex(o['value'])
            k, p = offsets_expected(o['offset'], key, value)
            want = ' key: ' + k + ('' if p is None else ' payload: ' + p)
            eq(got[o['offset']], want, '%s offset %d' % (log, o['offset']))
            total += 1
    check(total > 6000, 'records compared: %d' % total)


def test_real_consumer_offsets_by_hand():
    # DonaldY (Kafka 2.7.1) __consumer_offsets-39, 00000000000000000000.log.
    log = os.path.join(CORPUS, 'real/DonaldY__kafka-2.7.1/kafka-logs/__consumer_offsets-39/00000000000000000000.log')
    rc, out, err = run(['dump', '--offsets-decoder', log])
    got = decoded_suffixes(out)
    # offset 4: key 0002 0016 "console-consumer-52588" (record type 2 = GroupMetadataKey, string of 0x16 = 22
    # bytes), value null (valueSize -1): a tombstone.
    eq(got[4], ' key: {"type":"2","data":{"group":"console-consumer-52588"}} payload: <DELETE>', 'offset 4')
    # offset 16: key 0001 | 0016 "console-consumer-65070" | 000f "test_topic_0603" | 00000000 (type 1 =
    # OffsetCommitKey: group, topic, partition 0); value 0003 | 0000000000000009 | ffffffff | 0000 |
    # 00000188 8260a41b: version 3: offset 9, leaderEpoch -1, metadata "" (length 0), commitTimestamp
    # 0x1888260a41b = 1685814551579.
    eq(got[16], ' key: {"type":"1","data":{"group":"console-consumer-65070","topic":"test_topic_0603","partition":0}}'
       ' payload: {"version":"3","data":{"offset":9,"leaderEpoch":-1,"metadata":"","commitTimestamp":1685814551579}}',
       'offset 16')
    # offset 17: GroupMetadataValue version 3: protocolType "consumer", generation 6, protocol null (length
    # -1), leader null, currentStateTimestamp 1685814551582, members: an empty array (int32 0).
    eq(got[17], ' key: {"type":"2","data":{"group":"console-consumer-65070"}} payload: {"version":"3","data":'
       '{"protocolType":"consumer","generation":6,"protocol":null,"leader":null,'
       '"currentStateTimestamp":1685814551582,"members":[]}}', 'offset 17')

    # xpxwo100 (Kafka 0.10.1, magic 1) __consumer_offsets-40.
    log = os.path.join(CORPUS, 'real/xpxwo100__bullShit/tmp/kafka-logs/__consumer_offsets-40/00000000000000000000.log')
    rc, out, err = run(['dump', '--offsets-decoder', log])
    got = decoded_suffixes(out)
    # offset 1: value 0001 | 0000000000000002 | 0000 | 00000158 76893e4b | 00000158 7baf9a4b: OffsetCommitValue
    # version 1: offset 2, metadata "", commitTimestamp 0x15876893e4b = 1479457455691, expireTimestamp
    # 0x1587baf9a4b = 1479543855691 (one day later: offsets.retention.minutes of 0.10.1); no leaderEpoch (3+).
    eq(got[1], ' key: {"type":"1","data":{"group":"GroupA","topic":"foo","partition":0}} payload: {"version":"1",'
       '"data":{"offset":2,"metadata":"","commitTimestamp":1479457455691,"expireTimestamp":1479543855691}}',
       'xpxwo100 offset 1')
    # offset 0: GroupMetadataValue version 1 (no currentStateTimestamp, no groupInstanceId; rebalanceTimeout
    # 0x493e0 = 300000, sessionTimeout 0x7530 = 30000); protocolType "consumer", so the subscription bytes
    # 0000 | 00000001 0003 "foo" | 00000000 (version 0: topics ["foo"], userData of length 0 -> "") and the
    # assignment bytes 0000 | 00000001 0003 "foo" 00000001 00000000 | 00000000 (version 0: foo [0],
    # userData "") are printed decoded.
    m = 'consumer-1-341274c8-2f14-4475-96be-d44f261d5fc9'
    eq(got[0], ' key: {"type":"2","data":{"group":"GroupA"}} payload: {"version":"1","data":{"protocolType":'
       '"consumer","generation":1,"protocol":"range","leader":"%s","members":[{"memberId":"%s","clientId":'
       '"consumer-1","clientHost":"/192.168.2.20","rebalanceTimeout":300000,"sessionTimeout":30000,'
       '"subscription":{"topics":["foo"],"userData":""},"assignment":{"assignedPartitions":[{"topic":"foo",'
       '"partitions":[0]}],"userData":""}}]}}' % (m, m), 'xpxwo100 offset 0')

    # rjmfernandes (Confluent 7.6) __consumer_offsets-29 offset 0: the schema registry's group, protocolType
    # "sr": the member's subscription and assignment stay bytes, printed in base64.
    log = os.path.join(CORPUS, 'real/rjmfernandes__flink-on-prem/data/__consumer_offsets-29/00000000000000000000.log')
    rc, out, err = run(['dump', '--offsets-decoder', log])
    got = decoded_suffixes(out)
    rec = [o for o in oracle_records(log) if o['offset'] == 0][0]
    value = bytes.fromhex(rec['value'])
    sub_at = value.index(b'{"host"') - 4   # the bytes field: int32 length, then the JSON the registry wrote
    sub_len = struct.unpack_from('>i', value, sub_at)[0]
    sub = value[sub_at + 4:sub_at + 4 + sub_len]
    check('"subscription":"%s"' % base64.b64encode(sub).decode() in got[0], 'sr subscription in base64: %r' % got[0])
    check('"protocolType":"sr"' in got[0] and '"groupInstanceId":null' in got[0], got[0])


def test_real_consumer_offsets_json():
    log = os.path.join(CORPUS, 'real/xpxwo100__bullShit/tmp/kafka-logs/__consumer_offsets-40/00000000000000000000.log')
    rc, out, err = run(['dump', '--offsets-decoder', '--json', log])
    eq(rc, 0, 'exit code')
    recs = [json.loads(line) for line in out.split('\n') if line.strip()]
    recs = [o for o in recs if o['type'] == 'record']
    oracle = {o['offset']: o for o in oracle_records(log)}
    eq(len(recs), len(oracle), 'records')
    for o in recs:
        src = oracle[o['offset']]
        k, p = offsets_expected(o['offset'], bytes.fromhex(src['key']),
                                None if src['value'] is None else bytes.fromhex(src['value']))
        eq(o['decoded']['key'], json.loads(k), 'decoded key at %d' % o['offset'])
        eq(o['decoded']['value'], None if p == '<DELETE>' else json.loads(p), 'decoded value at %d' % o['offset'])
    # without the decoder there is no "decoded" member
    rc, out, err = run(['dump', '--json', log])
    check('"decoded"' not in out, 'decoded member without --offsets-decoder')


# ---- records built here ------------------------------------------------------------------------

def write_partition(name, batches):
    d = os.path.join(TMP, name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, '%020d.log' % 0)
    with open(path, 'wb') as f:
        f.write(b''.join(batches))
    return path


def txn_value_v0(pid, epoch, timeout, status, partitions, updated, started):
    v = struct.pack('>hqhib', 0, pid, epoch, timeout, status)
    if partitions is None:
        v += struct.pack('>i', -1)
    else:
        v += struct.pack('>i', len(partitions))
        for topic, ids in partitions:
            v += kafka.string(topic) + struct.pack('>i', len(ids)) + b''.join(struct.pack('>i', i) for i in ids)
    return v + struct.pack('>qq', updated, started)


def test_built_transaction_state():
    T = 1700000000000
    recs = []
    # 0: TransactionLogKey: 0000 (record type 0) + string "my-txn"; value version 0, state 1 (Ongoing) with
    #    partitions orders-0 and orders-2 (one PartitionsSchema: topic "orders", partitionIds [0, 2]).
    recs.append(kafka.record(0, b'\0\0' + kafka.string('my-txn'),
                       txn_value_v0(1000, 3, 60000, 1, [('orders', [0, 2])], T + 5, T + 1)))
    # 1: value version 1 (flexible): compact array of 1 + 1 = 2 -> one PartitionsSchema with compact string
    #    "pay" (3 + 1) and compact int32 array [7] (1 + 1), the struct's empty tag section (0); then the two
    #    timestamps and the message's tag section: 2 tags: tag 0 (previousProducerId, 8 bytes) = 999 and
    #    tag 2 (clientTransactionVersion, 2 bytes) = 2. nextProducerId (tag 1) is absent: its default -1, not
    #    written by the JSON converter.
    v1 = struct.pack('>hqhib', 1, 1001, 0, 900000, 4) + kafka.uvarint(2) + kafka.cstring('pay') + kafka.uvarint(2) + struct.pack('>i', 7) + \
        kafka.uvarint(0) + struct.pack('>qq', T + 9, T + 8) + kafka.uvarint(2) + kafka.uvarint(0) + kafka.uvarint(8) + struct.pack('>q', 999) + \
        kafka.uvarint(2) + kafka.uvarint(2) + struct.pack('>h', 2)
    recs.append(kafka.record(1, b'\0\0' + kafka.string('pay-tx'), v1))
    # 2: a tombstone of "my-txn"
    recs.append(kafka.record(2, b'\0\0' + kafka.string('my-txn'), None))
    # 3: an Empty (0) state with null partitions (int32 -1), as Kafka writes it for EMPTY; a transactional
    #    id with a quote, a backslash, a newline, a control character and a non-ASCII letter
    recs.append(kafka.record(3, b'\0\0' + kafka.string('a"b\\c\n\x01\u00e9'), txn_value_v0(1002, 0, 60000, 0, None, T, -1)))
    # 4: a key of record type 5: not a transaction log record
    recs.append(kafka.record(4, b'\0\x05' + kafka.string('x'), b'\0\0'))
    # 5: a value cut after its producerId: BufferUnderflowException (message null)
    recs.append(kafka.record(5, b'\0\0' + kafka.string('cut'), struct.pack('>hq', 0, 1003)))
    # 6: value version 2, above TransactionLogValue's validVersions 0-1
    recs.append(kafka.record(6, b'\0\0' + kafka.string('v2'), struct.pack('>h', 2) + b'\0' * 40))
    log = write_partition('__transaction_state-7', [kafka.batch_records(0, recs)])
    rc, out, err = run(['dump', '--transaction-log-decoder', log])
    eq(rc, 0, 'exit code (%s)' % err)
    got = decoded_suffixes(out)
    want = {
        0: ' key: {"type":"0","data":{"transactionalId":"my-txn"}} payload: {"version":"0","data":{"producerId":1000,'
           '"producerEpoch":3,"transactionTimeoutMs":60000,"transactionStatus":1,"transactionPartitions":[{"topic":'
           '"orders","partitionIds":[0,2]}],"transactionLastUpdateTimestampMs":1700000000005,'
           '"transactionStartTimestampMs":1700000000001}}',
        1: ' key: {"type":"0","data":{"transactionalId":"pay-tx"}} payload: {"version":"1","data":{"producerId":1001,'
           '"previousProducerId":999,"producerEpoch":0,"transactionTimeoutMs":900000,"transactionStatus":4,'
           '"transactionPartitions":[{"topic":"pay","partitionIds":[7]}],"transactionLastUpdateTimestampMs":'
           '1700000000009,"transactionStartTimestampMs":1700000000008,"clientTransactionVersion":2}}',
        2: ' key: {"type":"0","data":{"transactionalId":"my-txn"}} payload: <DELETE>',
        3: ' key: {"type":"0","data":{"transactionalId":"a\\"b\\\\c\\n\\u0001\u00e9"}} payload: {"version":"0","data":'
           '{"producerId":1002,"producerEpoch":0,"transactionTimeoutMs":60000,"transactionStatus":0,'
           '"transactionPartitions":null,"transactionLastUpdateTimestampMs":1700000000000,'
           '"transactionStartTimestampMs":-1}}',
        4: ' key: Unknown record type 5 at offset 4, skipping.',
        5: ' key: Error at offset 5, skipping. Could not read record with version 0 from value\'s buffer due to: '
           'null.',
        # Kafka 4.0 refuses a value version outside the schema's validVersions before reading it
        # (KAFKA-18672, CoordinatorRecordSerde.deserialize: UnknownRecordVersionException, "Found an unknown
        # record version %d for %d type"); DumpLogSegments prints its message after "Error at offset O, skipping."
        6: ' key: Error at offset 6, skipping. Found an unknown record version 2 for 0 type',
    }
    for o in sorted(want):
        eq(got.get(o), want[o], 'offset %d' % o)
    # --json: the decoded objects
    rc, out, err = run(['dump', '--transaction-log-decoder', '--json', log])
    objs = {o['offset']: o for o in map(json.loads, out.strip().split('\n')) if o['type'] == 'record'}
    eq(objs[0]['decoded']['key'], {'type': '0', 'data': {'transactionalId': 'my-txn'}}, 'json key')
    eq(objs[1]['decoded']['value']['data']['previousProducerId'], 999, 'json tagged field')
    eq(objs[2]['decoded']['value'], None, 'json tombstone')
    eq(objs[4]['decoded'], {'error': 'Unknown record type 5 at offset 4, skipping.', 'recordType': 5,
                            'unknownType': True}, 'json unknown')
    # --skip-record-metadata: "| key: ..." as kafka-dump-log.sh
    rc, out, err = run(['dump', '--transaction-log-decoder', '--skip-record-metadata', log])
    check('\n| key: {"type":"0","data":{"transactionalId":"my-txn"}} payload: <DELETE>\n' in out, out)

    # ss_txn_state_ids over the same partition: pid -> transactional.id, the latest record wins; tagged
    # previousProducerId 999 belongs to "pay-tx"; the tombstone does not remove pid 1000.
    p = subprocess.run([PROBE, os.path.dirname(log)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    eq(p.returncode, 0, 'probe exit (%s)' % p.stderr)
    eq(p.stdout.decode(), '999 -1 CompleteCommit 1 pay-tx\n1000 3 Ongoing 0 my-txn\n1001 0 CompleteCommit 1 pay-tx\n'
                          '1002 0 Empty 3 a"b\\c\n\x01\u00e9\n', 'ss_txn_state_ids')
    # not a __transaction_state partition: nothing
    other = write_partition('orders-0', [kafka.batch_records(0, recs[:1])])
    p = subprocess.run([PROBE, os.path.dirname(other)], stdout=subprocess.PIPE)
    eq(p.stdout, b'', 'ids from a non-internal topic')


def test_built_consumer_offsets():
    T = 1700000000000
    key = b'\0\x01' + kafka.string('g1') + kafka.string('orders') + struct.pack('>i', 3)
    # OffsetCommitValue version 3 written in a transaction (sendOffsetsToTransaction), then the COMMIT marker
    v3 = struct.pack('>hqi', 3, 42, 5) + kafka.string('meta "x"') + struct.pack('>q', T)
    # version 4 (flexible): compact string metadata "", an unknown tagged field (tag 9, 1 byte) that Kafka's
    # reader keeps and its JSON converter does not write
    v4 = struct.pack('>hqi', 4, 43, 6) + kafka.cstring('') + struct.pack('>q', T + 1) + kafka.uvarint(1) + kafka.uvarint(9) + kafka.uvarint(1) + b'\x07'
    marker = kafka.record(0, struct.pack('>hh', 0, 1), struct.pack('>hi', 0, 17))
    # a group of another protocol: subscription/assignment stay bytes (base64)
    gkey = b'\0\x02' + kafka.string('cg')
    gval = struct.pack('>h', 0) + kafka.string('connect') + struct.pack('>i', 4) + kafka.string('sessioned') + kafka.string('m1') + \
        struct.pack('>i', 1) + kafka.string('m1') + kafka.string('c1') + kafka.string('/h') + struct.pack('>i', 10000) + \
        struct.pack('>i', 3) + b'\x01\x02\x03' + struct.pack('>i', 0)
    # a consumer group whose subscription has version 9: DumpLogSegments cannot read it and keeps the bytes
    cval = struct.pack('>h', 0) + kafka.string('consumer') + struct.pack('>i', 1) + kafka.string('range') + kafka.string('m') + \
        struct.pack('>i', 1) + kafka.string('m') + kafka.string('c') + kafka.string('/h') + struct.pack('>i', 10000) + \
        struct.pack('>i', 2) + b'\x00\x09' + struct.pack('>i', 0)
    log = write_partition('__consumer_offsets-3', [
        kafka.batch_records(0, [kafka.record(0, key, v3)], pid=77, epoch=1, seq=0, txn=True),
        kafka.batch_records(1, [marker], pid=77, epoch=1, txn=True, control=True),
        kafka.batch_records(2, [kafka.record(0, key, v4)]),
        kafka.batch_records(3, [kafka.record(0, gkey, gval)]),
        kafka.batch_records(4, [kafka.record(0, b'\0\x02' + kafka.string('cc'), cval)]),
        kafka.batch_records(5, [kafka.record(0, b'\0\x05' + kafka.string('new'), b'\0\0')]),
        kafka.batch_records(6, [kafka.record(0, None, b'\0\0')]),
        kafka.batch_records(7, [kafka.record(0, b'\0\x63' + kafka.string('x'), b'\0\0')]),
    ])
    rc, out, err = run(['dump', '--offsets-decoder', log])
    got = decoded_suffixes(out)
    eq(got[0], ' key: {"type":"1","data":{"group":"g1","topic":"orders","partition":3}} payload: {"version":"3",'
       '"data":{"offset":42,"leaderEpoch":5,"metadata":"meta \\"x\\"","commitTimestamp":1700000000000}}',
       'transactional offset commit')
    eq(got[1], ' endTxnMarker: COMMIT coordinatorEpoch: 17', 'the marker is not decoded')
    eq(got[2], ' key: {"type":"1","data":{"group":"g1","topic":"orders","partition":3}} payload: {"version":"4",'
       '"data":{"offset":43,"leaderEpoch":6,"metadata":"","commitTimestamp":1700000000001}}', 'flexible version 4')
    eq(got[3], ' key: {"type":"2","data":{"group":"cg"}} payload: {"version":"0","data":{"protocolType":"connect",'
       '"generation":4,"protocol":"sessioned","leader":"m1","members":[{"memberId":"m1","clientId":"c1",'
       '"clientHost":"/h","sessionTimeout":10000,"subscription":"AQID","assignment":""}]}}', 'connect group')
    eq(got[4], ' key: {"type":"2","data":{"group":"cc"}} payload: {"version":"0","data":{"protocolType":"consumer",'
       '"generation":1,"protocol":"range","leader":"m","members":[{"memberId":"m","clientId":"c","clientHost":"/h",'
       '"sessionTimeout":10000,"subscription":"AAk=","assignment":""}]}}', 'undecodable subscription')
    # record type 5 is ConsumerGroupMemberMetadataKey (GroupCoordinatorRecordSerde): groupId "new", then its
    # memberId string is missing: a BufferUnderflowException (message null) reading the key at version 5
    eq(got[5], " key: Error at offset 5, skipping. Could not read record with version 5 from key's buffer due to: "
       "null.", 'record type 5 with a short key')
    # record type 99: no record of Kafka 4.0's group coordinator (GroupCoordinatorRecordSerde.apiMessageKeyFor
    # throws UnknownRecordTypeException; DumpLogSegments prints "Unknown record type ...")
    eq(got[7], ' key: Unknown record type 99 at offset 7, skipping.', 'record type 99')
    eq(got[6], '', 'no key: kafka-dump-log.sh stops; segscan prints the line without key and payload')
    check('offset 6' in err and 'missing key' in err, 'stderr: %r' % err)
    rc, out, err = run(['dump', '--offsets-decoder', '--json', log])
    objs = [json.loads(line) for line in out.strip().split('\n')]
    ctrl = [o for o in objs if o['type'] == 'record' and o['offset'] == 1][0]
    check('decoded' not in ctrl, 'a control record has no decoded member')
    recs = {o['offset']: o for o in objs if o['type'] == 'record'}
    eq(recs[5]['decoded']['recordType'], 5, 'record type of a short key')
    eq(recs[7]['decoded'], {'error': 'Unknown record type 99 at offset 7, skipping.', 'recordType': 99,
                            'unknownType': True}, 'an unknown record type')
    eq(recs[6]['decoded']['recordType'], None, 'no key')


# ---- one version, two layouts (Kafka 4.0 against 4.1+) -------------------------------------------------
#
# Kafka 4.1 changed preview messages without a new version (value version 0 both times). The 4.0 layouts
# (apache/kafka 1eb7644, as tools/kafka-schemas/4.0-layouts/ gives them), all flexible (compact arrays and
# strings, a tag section after each struct):
#   ShareSnapshotValue    {SnapshotEpoch uint16, StateEpoch int32, LeaderEpoch int32, StartOffset int64,
#                          StateBatches [{FirstOffset int64, LastOffset int64, DeliveryState int8, DeliveryCount int16}]}
#   ShareUpdateValue      {SnapshotEpoch uint16, LeaderEpoch int32, StartOffset int64, StateBatches [...]}
#   ShareGroupMetadataValue {Epoch int32}
#   ShareGroupStatePartitionMetadataValue {InitializedTopics [{TopicId uuid, TopicName string,
#                          Partitions [int32]}], DeletingTopics [{TopicId uuid, TopicName string}]}
# and Kafka 4.2's (tools/kafka-schemas/4.2/): SnapshotEpoch int32, ShareSnapshotValue with CreateTimestamp and
# WriteTimestamp (int64) after StartOffset, ShareGroupMetadataValue with MetadataHash int64 after Epoch,
# ShareGroupStatePartitionMetadataValue with InitializingTopics [{TopicId, TopicName, Partitions}] first.
# The keys: ShareSnapshotKey (type 0) / ShareUpdateKey (type 1) {GroupId string, TopicId uuid, Partition
# int32}, ShareGroupMetadataKey (11) / ShareGroupStatePartitionMetadataKey (15) {GroupId string}, not flexible.

TID = bytes(range(1, 17))
TID_S = base64.urlsafe_b64encode(TID).decode().rstrip('=')


def share_key(rtype, group, part):
    return struct.pack('>h', rtype) + kafka.string(group) + TID + struct.pack('>i', part)


def state_batch(first, last, state, count):
    return struct.pack('>qqbh', first, last, state, count) + b'\0'


def test_built_share_state_layouts():
    sb = kafka.uvarint(2) + state_batch(10, 19, 2, 1)
    sbj = [{'firstOffset': 10, 'lastOffset': 19, 'deliveryState': 2, 'deliveryCount': 1}]
    snap40 = struct.pack('>hHiiq', 0, 7, 3, 5, 10) + sb + b'\0'
    upd41 = struct.pack('>hiiq', 0, 8, 5, 20) + sb
    # 4.1+ with a tagged field Kafka 4.2 does not know (tag 0, 4 bytes; later Kafka's DeliveryCompleteCount)
    upd41_tag = upd41 + kafka.uvarint(1) + kafka.uvarint(0) + kafka.uvarint(4) + struct.pack('>i', 9)
    upd41 += b'\0'
    # both layouts read these 36 bytes exactly: as 4.0 {se 1, le 2, so 3, one batch whose FirstOffset's bytes
    # 00 01 01 05 10 ..} and as 4.1+ {se 0x00010000 | 2 >> .., ..., StateBatches [] (the 01), a tag section
    # of one unknown tag 5 of 16 bytes}: ambiguous
    amb = struct.pack('>hHiq', 0, 1, 2, 3) + kafka.uvarint(2) + bytes([0, 1, 1, 5, 0x10, 0, 0, 0]) + \
        struct.pack('>qbh', 19, 2, 1) + b'\0' + b'\0'
    check(len(amb) == 38, 'the ambiguous value is 2 + 36 bytes: %d' % len(amb))
    neither = struct.pack('>hHiq', 0, 1, 2, 3) + sb + b'\0' + b'\x07'
    log = write_partition('__share_group_state-5', [
        kafka.batch_records(0, [kafka.record(0, share_key(0, 'sg', 4), snap40)]),
        kafka.batch_records(1, [kafka.record(0, share_key(1, 'sg', 4), upd41)]),
        kafka.batch_records(2, [kafka.record(0, share_key(1, 'sg', 4), upd41_tag)]),
        kafka.batch_records(3, [kafka.record(0, share_key(1, 'sg', 4), amb)]),
        kafka.batch_records(4, [kafka.record(0, share_key(1, 'sg', 4), neither)]),
    ])
    rc, out, err = run(['dump', '--share-group-state-decoder', log])
    got = decoded_suffixes(out)
    key0 = '{"type":"0","data":{"groupId":"sg","topicId":"%s","partition":4}}' % TID_S
    key1 = key0.replace('"type":"0"', '"type":"1"')
    eq(got[0], ' key: %s payload: {"version":"0","data":{"snapshotEpoch":7,"stateEpoch":3,"leaderEpoch":5,'
       '"startOffset":10,"stateBatches":%s}}' % (key0, json.dumps(sbj, separators=(',', ':'))), '4.0 snapshot')
    eq(got[1], ' key: %s payload: {"version":"0","data":{"snapshotEpoch":8,"leaderEpoch":5,"startOffset":20,'
       '"stateBatches":%s}}' % (key1, json.dumps(sbj, separators=(',', ':'))), '4.1 update (key type 1)')
    eq(got[2], got[1].replace('offset 1', 'offset 2'), 'the unknown tag is not in the text')
    check(got[3].startswith(' key: Error at offset 3, skipping. ShareUpdateValue version 0:') and 'ambiguous' in
          got[3], 'ambiguous: %r' % got[3])
    # neither: Kafka 4.2's own message. Its reader takes the 4.0 record's 14 header bytes and two more as
    # {SnapshotEpoch, LeaderEpoch, StartOffset}, then the 00 of FirstOffset as the StateBatches length:
    # null (the message the issue quotes for every 4.0 record read by Kafka 4.1+)
    eq(got[4], " key: Error at offset 4, skipping. Could not read record with version 0 from value's buffer due to: "
       "non-nullable field stateBatches was serialized as null.", 'neither layout: Kafka 4.2\'s own message')
    rc, out, err = run(['dump', '--share-group-state-decoder', '--json', log])
    recs = {o['offset']: o['decoded'] for o in map(json.loads, out.strip().split('\n')) if o['type'] == 'record'}
    eq((recs[0]['layout'], recs[0]['layoutStatus'], recs[0]['layouts']), ('4.0', 'chosen', ['4.1+', '4.0']),
       '4.0 layout named')
    eq(recs[1]['layout'], '4.1+', '4.1+ layout named')
    check('unknownTaggedFields' not in recs[1], 'no unknown tags at offset 1')
    eq(recs[2]['unknownTaggedFields'], [{'in': 'ShareUpdateValue', 'tag': 0, 'bytes': '00000009'}], 'unknown tag')
    eq((recs[3]['layoutStatus'], recs[3]['valueHex']), ('ambiguous', amb.hex()), 'ambiguous: bytes kept')
    eq((recs[4]['layoutStatus'], recs[4]['valueHex']), ('neither', neither.hex()), 'neither: bytes kept')
    # Kafka 4.0's text labels a share-group-state value's version "type" (ShareGroupStateMessageParser)
    rc, out, err = run(['dump', '--share-group-state-decoder', '--kafka-version', '4.0', log])
    check('payload: {"type":"0","data":{"snapshotEpoch":7,' in out, '--kafka-version 4.0: %s' % out)


def test_kafka_version_option():
    # the same cluster-metadata segment of Kafka 4.2's corpus: its LeaderChange control record at offset 0 as
    # Kafka 4.2 prints it (the corpus's text, KAFKA-19069) and, with --kafka-version 4.0, as 4.0's
    # printControlRecord did (" controlType: LEADER_CHANGE(2)"); a version before 4.0 is refused (exit 2)
    log = os.path.join(CORPUS, 'gen-kafka42', 'cluster-metadata', '__cluster_metadata-0', '00000000000000000000.log')
    rc, out, err = run(['dump', '--cluster-metadata-decoder', log])
    check(' sequence: -1 headerKeys: [] LeaderChange: {"version":0,"leaderId":3001,' in out, 'default: 4.2')
    for v in ('4.0', '4.0.1'):
        rc, out, err = run(['dump', '--cluster-metadata-decoder', '--kafka-version', v, log])
        check(' sequence: -1 headerKeys: [] controlType: LEADER_CHANGE(2)\n' in out and 'LeaderChange:' not in out,
              '--kafka-version %s' % v)
    rc, out, err = run(['dump', '--cluster-metadata-decoder', '--kafka-version', '4.1', log])
    check('LeaderChange: {' in out, '--kafka-version 4.1 prints as 4.2')
    for bad in ('3.9', '4', 'x'):
        rc, out, err = run(['dump', '--kafka-version', bad, log])
        eq(rc, 2, '--kafka-version %s is refused' % bad)


def test_built_group_layouts():
    meta40 = struct.pack('>hi', 0, 6) + b'\0'
    meta41 = struct.pack('>hiq', 0, 6, -7046029254386353131) + b'\0'
    tpi = TID + kafka.cstring('photos') + kafka.uvarint(3) + struct.pack('>ii', 0, 1) + b'\0'
    # 4.0: InitializedTopics [photos 0,1], DeletingTopics []; 4.1+: InitializingTopics [photos 0,1],
    # InitializedTopics [], DeletingTopics []
    spm40 = struct.pack('>h', 0) + kafka.uvarint(2) + tpi + kafka.uvarint(1) + b'\0'
    spm41 = struct.pack('>h', 0) + kafka.uvarint(2) + tpi + kafka.uvarint(1) + kafka.uvarint(1) + b'\0'
    # OffsetCommitValue version 3 {offset 42, leaderEpoch 5, metadata "", commitTimestamp} and a byte more
    oc = struct.pack('>hqi', 3, 42, 5) + kafka.string('') + struct.pack('>q', 1700000000000) + b'\x00'
    gk = lambda t: struct.pack('>h', t) + kafka.string('sg')
    log = write_partition('__consumer_offsets-9', [
        kafka.batch_records(0, [kafka.record(0, gk(11), meta40)]),
        kafka.batch_records(1, [kafka.record(0, gk(11), meta41)]),
        kafka.batch_records(2, [kafka.record(0, gk(15), spm40)]),
        kafka.batch_records(3, [kafka.record(0, gk(15), spm41)]),
        kafka.batch_records(4, [kafka.record(0, struct.pack('>h', 1) + kafka.string('g') + kafka.string('t') +
                                             struct.pack('>i', 0), oc)]),
    ])
    rc, out, err = run(['dump', '--offsets-decoder', log])
    got = decoded_suffixes(out)
    eq(got[0], ' key: {"type":"11","data":{"groupId":"sg"}} payload: {"version":"0","data":{"epoch":6}}',
       'ShareGroupMetadataValue 4.0')
    eq(got[1], ' key: {"type":"11","data":{"groupId":"sg"}} payload: {"version":"0","data":{"epoch":6,'
       '"metadataHash":-7046029254386353131}}', 'ShareGroupMetadataValue 4.1+ with a realistic hash')
    topic = '{"topicId":"%s","topicName":"photos","partitions":[0,1]}' % TID_S
    eq(got[2], ' key: {"type":"15","data":{"groupId":"sg"}} payload: {"version":"0","data":{"initializedTopics":'
       '[%s],"deletingTopics":[]}}' % topic, 'ShareGroupStatePartitionMetadataValue 4.0: initialized, not initializing')
    eq(got[3], ' key: {"type":"15","data":{"groupId":"sg"}} payload: {"version":"0","data":{"initializingTopics":'
       '[%s],"initializedTopics":[],"deletingTopics":[]}}' % topic, 'ShareGroupStatePartitionMetadataValue 4.1+')
    eq(got[4], ' key: Error at offset 4, skipping. 1 byte(s) after the end of OffsetCommitValue version 3: not read '
       'by its schema', 'a byte after the value is an error')
    rc, out, err = run(['dump', '--offsets-decoder', '--json', log])
    recs = {o['offset']: o['decoded'] for o in map(json.loads, out.strip().split('\n')) if o['type'] == 'record'}
    eq([recs[i].get('layout') for i in range(4)], ['4.0', '4.1+', '4.0', '4.1+'], 'layouts')
    check('layout' not in recs[4] and 'error' in recs[4], 'one layout: no layout member')


# ---- cluster metadata, remote log metadata, decoder precedence ---------------------------------------

def payloads(out):
    """offset -> what follows ' payload: ' on that record's line."""
    got = {}
    for o, rest in decoded_suffixes(out).items():
        got[o] = rest.split(' payload: ', 1)[1] if ' payload: ' in rest else rest
    return got


def test_built_cluster_metadata():
    # FeatureLevelRecord (apiKey 12, FeatureLevelRecord.json: versions 0, flexible 0+): compact string Name,
    # int16 FeatureLevel, the empty tag section. MetadataRecordType names it FEATURE_LEVEL_RECORD;
    # ClusterMetadataLogMessageParser writes {"type":..., "version": <int>, "data": ...}.
    fl = kafka.metadata_frame(12, 0, kafka.cstring('metadata.version') + struct.pack('>h', 21) + kafka.uvarint(0))
    recs = [
        kafka.record(0, None, fl),
        # 1: apiKey 99: MetadataRecordType.fromId throws UnsupportedVersionException("Unknown metadata id 99"),
        #    wrapped by MetadataParseException(e) whose message is the cause's toString()
        kafka.record(1, None, kafka.metadata_frame(99, 0, b'')),
        # 2: frame version 0 (AbstractApiMessageSerde.read's own message)
        kafka.record(2, None, kafka.uvarint(0) + kafka.uvarint(12) + kafka.uvarint(0)),
        # 3: a byte after the message: "Found 1 byte(s) of garbage after 12"
        kafka.record(3, None, fl + b'\x00'),
        # 4: the message cut after its name: the generated read() underflows; MetadataParseException(
        #    "Failed to deserialize record with type 12", e)
        kafka.record(4, None, kafka.metadata_frame(12, 0, kafka.cstring('metadata.version'))),
        # 5: frame version 2: "... due to unknown frame version 2(only frame version 1 is supported)"
        kafka.record(5, None, kafka.uvarint(2) + kafka.uvarint(12) + kafka.uvarint(0)),
    ]
    log = write_partition('__cluster_metadata-0', [kafka.batch_records(0, recs)])
    rc, out, err = run(['dump', '--cluster-metadata-decoder', log])
    eq(rc, 0, 'exit code (%s)' % err)
    got = payloads(out)
    # ClusterMetadataLogMessageParser: "Error at <offset>, skipping." without the word offset
    want = {
        0: '{"type":"FEATURE_LEVEL_RECORD","version":0,"data":{"name":"metadata.version","featureLevel":21}}',
        1: 'Error at 1, skipping. org.apache.kafka.common.errors.UnsupportedVersionException: Unknown metadata id 99',
        2: 'Error at 2, skipping. Could not deserialize metadata record with frame version 0. Note that upgrades '
           'from the preview release of KRaft in 2.8 to newer versions are not supported.',
        3: 'Error at 3, skipping. Found 1 byte(s) of garbage after 12',
        4: 'Error at 4, skipping. Failed to deserialize record with type 12',
        5: 'Error at 5, skipping. Could not deserialize metadata record due to unknown frame version 2(only frame '
           'version 1 is supported)',
    }
    for o in sorted(want):
        eq(got.get(o), want[o], 'offset %d' % o)
    # no key: the payload follows the metadata directly (DumpLogSegments prints " payload: ")
    check('headerKeys: [] payload: {"type":"FEATURE_LEVEL_RECORD"' in out, out)
    rc, out, err = run(['dump', '--cluster-metadata-decoder', '--json', log])
    objs = {o['offset']: o for o in map(json.loads, out.strip().split('\n')) if o['type'] == 'record'}
    eq(objs[0]['decoded'], {'value': {'type': 'FEATURE_LEVEL_RECORD', 'version': 0,
                                      'data': {'name': 'metadata.version', 'featureLevel': 21}}}, 'json')
    eq(objs[1]['decoded'], {'error': want[1], 'recordType': 99}, 'json error')


def test_built_remote_log_metadata():
    # RemotePartitionDeleteMetadataRecord (apiKey 2, flexible 0+): TopicIdPartition {Name compact string,
    # Id uuid, Partition int32, tags}, BrokerId int32, EventTimestampMs int64, RemotePartitionDeleteState
    # int8, tags. The uuid's 16 bytes 00..0f print as Uuid.toString(), URL-safe base64 without padding:
    # AAECAwQFBgcICQoLDA0ODw. RemotePartitionDeleteMetadata.toString():
    # RemotePartitionDeleteMetadata{topicPartition=<id>:<name>-<partition>, state=<state>,
    # eventTimestampMs=<t>, brokerId=<b>}; state 1 is DELETE_PARTITION_STARTED.
    tip = kafka.cstring('orders') + bytes(range(16)) + struct.pack('>i', 3) + kafka.uvarint(0)
    def delete(state):
        return kafka.metadata_frame(2, 0, tip + struct.pack('>iqb', 7, 1700000000123, state) + kafka.uvarint(0))
    recs = [kafka.record(0, None, delete(1)),
            # 1: state 9: RemotePartitionDeleteState.forId returns null and the constructor's
            #    Objects.requireNonNull(state) throws a NullPointerException without message
            kafka.record(1, None, delete(9))]
    log = write_partition('__remote_log_metadata-0', [kafka.batch_records(0, recs)])
    rc, out, err = run(['dump', '--remote-log-metadata-decoder', log])
    eq(rc, 0, 'exit code (%s)' % err)
    got = payloads(out)
    eq(got.get(0), 'RemotePartitionDeleteMetadata{topicPartition=AAECAwQFBgcICQoLDA0ODw:orders-3, '
                   'state=DELETE_PARTITION_STARTED, eventTimestampMs=1700000000123, brokerId=7}', 'toString')
    eq(got.get(1), 'Error at offset 1, skipping. null', 'unknown state')


def test_decoder_precedence():
    # DumpLogSegmentsOptions.messageParser: offsets before transaction log before cluster metadata before
    # remote log metadata before share group state, whatever the order on the command line
    key = b'\0\x01' + kafka.string('g1') + kafka.string('orders') + struct.pack('>i', 3)
    # OffsetCommitValue version 3: offset int64, leaderEpoch int32, metadata string, commitTimestamp int64
    v = struct.pack('>hqi', 3, 42, 5) + kafka.string('') + struct.pack('>q', 1700000000000)
    log = write_partition('__consumer_offsets-9', [kafka.batch_records(0, [kafka.record(0, key, v)])])
    want = (' key: {"type":"1","data":{"group":"g1","topic":"orders","partition":3}} payload: {"version":"3",'
            '"data":{"offset":42,"leaderEpoch":5,"metadata":"","commitTimestamp":1700000000000}}')
    for flags in (['--share-group-state-decoder', '--offsets-decoder'],
                  ['--remote-log-metadata-decoder', '--cluster-metadata-decoder', '--offsets-decoder',
                   '--transaction-log-decoder']):
        rc, out, err = run(['dump'] + flags + [log])
        eq(decoded_suffixes(out).get(0), want, 'with %s' % ' '.join(flags))
    # the share-group state decoder alone reads the same key as record type 1 of its own (ShareUpdateKey:
    # GroupId string, TopicId uuid, Partition int32): "g1", then 16 bytes that are not there
    rc, out, err = run(['dump', '--share-group-state-decoder', log])
    eq(decoded_suffixes(out).get(0), " key: Error at offset 0, skipping. Could not read record with version 1 "
       "from key's buffer due to: null.", 'share-group state decoder')


# ---- coordinator ----------------------------------------------------------------------------------

def java_hash(s):
    """Java's String.hashCode over UTF-16 code units, int arithmetic (module docstring)."""
    b = s.encode('utf-16-be')
    h = 0
    for i in range(0, len(b), 2):
        h = (h * 31 + int.from_bytes(b[i:i + 2], 'big')) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def kafka_partition(s, n=50):
    h = java_hash(s)
    return (0 if h == -2 ** 31 else abs(h)) % n


def test_coordinator_by_hand():
    cases = [
        # "a": 97 -> 97 % 50 = 47
        ('--group', 'a', None, '__consumer_offsets-47'),
        # "ab": 97*31 + 98 = 3105 -> 3105 % 50 = 5
        ('--group', 'ab', None, '__consumer_offsets-5'),
        # "grüße" (UTF-8 c3 bc, c3 9f; code units 103 114 252 223 101):
        # 103 -> 103*31+114 = 3307 -> 3307*31+252 = 102769 -> 102769*31+223 = 3186062
        # -> 3186062*31+101 = 98768023 -> % 50 = 23
        ('--transactional-id', 'gr\u00fc\u00dfe', None, '__transaction_state-23'),
        # U+1F600 is two UTF-16 code units D83D DE00: 55357*31 + 56832 = 1772899 -> % 50 = 49
        # (over the code point 128512 it would be 12)
        ('--group', '\U0001F600', None, '__consumer_offsets-49'),
        # "polygenelubricants": hashCode is Integer.MIN_VALUE (-2147483648); Math.abs would keep it negative,
        # Kafka's Utils.abs maps it to 0 -> partition 0
        ('--group', 'polygenelubricants', None, '__consumer_offsets-0'),
        # "group-ajxob4" (found by a search over the last two characters): h("group-ajxo") = 1235752814
        # (mod 2^32); 1235752814*961 + 'b'(98)*31 + '4'(52) = 1187558457344 = 276*2^32 + 2^31, i.e.
        # 0x80000000 = Integer.MIN_VALUE -> partition 0 whatever the partition count
        ('--transactional-id', 'group-ajxob4', '7', '__transaction_state-0'),
        # "ab" with 7 partitions: 3105 % 7 = 4
        ('--group', 'ab', '7', '__consumer_offsets-4'),
    ]
    for opt, ident, parts, want in cases:
        args = ['coordinator', opt, ident] + (['--partitions', parts] if parts else [])
        rc, out, err = run(args)
        eq(rc, 0, 'exit code of %s (%s)' % (args, err))
        eq(out, want + '\n', 'coordinator %s %r' % (opt, ident))
        # the same number from the definition computed here
        eq(want.rsplit('-', 1)[1], str(kafka_partition(ident, int(parts or 50))), 'reference for %r' % ident)
    # malformed UTF-8 decodes as Java's new String(bytes, UTF_8) does: U+FFFD (65533) for the bytes it
    # gives up on. 0xff -> 65533 -> % 50 = 33; "a" + e2 82 (a 3-byte sequence cut short: one U+FFFD)
    # -> 97*31 + 65533 = 68540 -> % 50 = 40
    for raw, want in ((b'\xff', '__consumer_offsets-33'), (b'a\xe2\x82', '__consumer_offsets-40')):
        p = subprocess.run([SEGSCAN.encode(), b'coordinator', b'--group', raw], stdout=subprocess.PIPE)
        eq(p.stdout.decode(), want + '\n', 'coordinator of the bytes %r' % raw)
    eq(java_hash('polygenelubricants'), -2147483648, 'MIN_VALUE string')
    eq(java_hash('group-ajxob4'), -2147483648, 'MIN_VALUE string')
    # a negative hash (int overflow), not MIN_VALUE
    ident = 'payments-consumer-group'
    h = java_hash(ident)
    check(h < 0 and h != -2 ** 31, 'hash of %s: %d' % (ident, h))
    rc, out, err = run(['coordinator', '--group', ident, '--json'])
    o = json.loads(out)
    eq(o, {'type': 'coordinator', 'kind': 'group', 'id': ident, 'hashCode': h, 'topic': '__consumer_offsets',
           'partitions': 50, 'partition': -h % 50, 'name': '__consumer_offsets-%d' % (-h % 50)}, 'json')
    # usage errors
    for args in (['coordinator'], ['coordinator', '--group', 'a', '--partitions', '0'],
                 ['coordinator', '--group', 'a', '--transactional-id', 'b'], ['coordinator', '--group', 'a', 'x']):
        rc, out, err = run(args)
        eq(rc, 2, 'exit code of %s' % args)


def main(argv):
    global SEGSCAN, PROBE, CORPUS, TMP
    args = argv[1:]
    only = harness.take_k(args)
    SEGSCAN, PROBE, CORPUS = (os.path.abspath(a) for a in args[:3])
    with tempfile.TemporaryDirectory(prefix='segscan-internal-') as tmp:
        TMP = tmp
        return harness.run_tests(harness.tests_in(globals()), only)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
