"""Writers of Kafka log entries for the hostile-input tests (python3 stdlib only).

Layouts (Kafka's DefaultRecordBatch, DefaultRecord, LegacyRecord):
  v2 batch:  baseOffset i64 | length i32 | partitionLeaderEpoch i32 | magic i8 = 2 |
             crc u32 (CRC-32C of attributes..end) | attributes i16 | lastOffsetDelta i32 |
             baseTimestamp i64 | maxTimestamp i64 | producerId i64 | producerEpoch i16 |
             baseSequence i32 | recordsCount i32 | records (compressed per attributes & 7)
             -> 61 bytes of header; length = size - 12.
  record:    length varint | attributes i8 | timestampDelta varlong | offsetDelta varint |
             keyLength varint | key | valueLength varint | value | headersCount varint | headers
  legacy:    offset i64 | size i32 | crc u32 (CRC-32 of magic..end) | magic i8 | attributes i8 |
             [timestamp i64, magic 1] | keyLength i32 | key | valueLength i32 | value
"""
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
