#!/usr/bin/env python3
"""segscan's --json output against docs/json-schema.json.

Every subcommand runs with --json on a broad set of inputs: the generated corpus scenarios
(damaged ones included), real partitions and log directories (with __consumer_offsets decoded),
index, time index, transaction index, producer snapshot and KRaft snapshot files, diff pairs in
both modes, verify runs, coordinator, and partitions built here for what the corpus lacks
(malformed UTF-8, a __transaction_state partition naming a producer, more than 1000 sequence
gaps, a corrupt snapshot, a damaged transaction index, unreadable files). Every line must be one
JSON object in UTF-8 whose type the command is documented to write, with every required field,
no field the schema does not list and every value of its documented type; the message of a
failure names the command, the object type and the field. Then:
  - every (command, type), every variant and every optional field of the schema was seen at least
    once (so the inputs really exercise the schema; the few that no input here produces are
    listed in NOT_PRODUCED with the reason);
  - docs/json.md names every command, object type and field of the schema, and the schema version;
    the manual names docs/json.md and the version;
  - self-check: objects mutated from valid ones (a field removed, an extra field, a wrong type, a
    conditional field where it must not be, a nested field wrong) are rejected with a message naming
    command, type and field.
Every object is also validated against docs/segscan-output.schema.json, the standard JSON Schema
(draft 2020-12) tools/gen_json_schema.py makes of docs/json-schema.json, with python3-jsonschema's
Draft202012Validator (see std_errors); that file must be what the generator writes now, and the
standard validator must reject each mutation of the self-check too.
usage: test_schema.py SEGSCAN SOURCE_ROOT   (Python 3; python3-jsonschema for the standard schema:
       without it, that part is left out with a note, except under SEGSCAN_CI)
"""
import copy
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import harness
from harness import tally as check

SEGSCAN = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
CORPUS = os.path.join(ROOT, 'testdata', 'corpus')
import kafka

SCHEMA = json.load(open(os.path.join(ROOT, 'docs', 'json-schema.json')))


# ---- the validator -----------------------------------------------------------------------------

TEXT_FILES = ('leader-epoch-checkpoint', 'partition.metadata', 'quorum-state', 'recovery-point-offset-checkpoint',
              'replication-offset-checkpoint', 'log-start-offset-checkpoint', 'cleaner-offset-checkpoint',
              'meta.properties', '.kafka_cleanshutdown')


def file_kind(name):
    for suffix in ('.index', '.timeindex', '.txnindex', '.snapshot'):
        if isinstance(name, str) and name.endswith(suffix):
            return suffix[1:]
    if isinstance(name, str) and os.path.basename(name) in TEXT_FILES:
        return 'text'
    return 'log'


def cond_holds(cond, obj, parent):
    """The schema's conditions (conventions.conditions)."""
    if 'fileKind' in cond:
        return file_kind(obj.get('file')) in cond['fileKind']
    name = cond['field']
    src = obj
    if name.startswith('^'):
        src, name = parent or {}, name[1:]
    if name not in src:
        return False
    v = src[name]
    if 'equals' in cond:
        return v == cond['equals'] and type(v) is type(cond['equals'])
    if 'notEquals' in cond:
        return v != cond['notEquals']
    if 'in' in cond:
        return v in cond['in']
    if 'isNull' in cond:
        return (v is None) == cond['isNull']
    if 'atLeast' in cond:
        return isinstance(v, int) and not isinstance(v, bool) and v >= cond['atLeast']
    raise ValueError('unknown condition %r' % cond)


def definition(name):
    return SCHEMA['objects'][name] if name in SCHEMA['objects'] else SCHEMA['shapes'][name]


def pick_variant(defn, obj, parent):
    """(variant name or None, fields) of the definition for this object."""
    if 'variants' not in defn:
        return None, defn['fields']
    for v in defn['variants']:
        if 'when' not in v or cond_holds(v['when'], obj, parent):
            return v['name'], v['fields']
    return '?', None


class Seen:
    """What the validated output exercised: definitions, variants, fields present."""
    def __init__(self):
        self.types = set()       # (command, type)
        self.variants = set()    # (definition, variant)
        self.fields = set()      # (definition[/variant], field)


def check_value(v, t, spec, where, errs, seen, holder):
    """Type t (conventions.types) of value v; spec carries enum/const/keys."""
    if t.startswith('null-or-'):
        if v is None:
            return
        return check_value(v, t[len('null-or-'):], spec, where, errs, seen, holder)
    if t.startswith('array-of-'):
        if not isinstance(v, list):
            errs.append('%s: %s is not an array' % (where, json.dumps(v)[:60]))
            return
        for i, x in enumerate(v):
            check_value(x, t[len('array-of-'):], spec, '%s[%d]' % (where, i), errs, seen, holder)
        return
    if t.startswith('pair-of-'):
        if not isinstance(v, list) or len(v) != 2:
            errs.append('%s: %s is not a pair' % (where, json.dumps(v)[:60]))
            return
        for i, x in enumerate(v):
            check_value(x, t[len('pair-of-'):], spec, '%s[%d]' % (where, i), errs, seen, holder)
        return
    if t.startswith('map-of-'):
        if not isinstance(v, dict):
            errs.append('%s: %s is not an object' % (where, json.dumps(v)[:60]))
            return
        for k, x in v.items():
            if 'keys' in spec and k not in spec['keys']:
                errs.append('%s: member name %r is not one of the documented keys' % (where, k))
            check_value(x, t[len('map-of-'):], {}, '%s.%s' % (where, k), errs, seen, holder)
        return
    if t.startswith('#'):
        if not isinstance(v, dict):
            errs.append('%s: %s is not an object' % (where, json.dumps(v)[:60]))
            return
        validate_fields(v, t[1:], where, errs, seen, holder, top=False)
        return
    ok = {'integer': isinstance(v, int) and not isinstance(v, bool),
          'string': isinstance(v, str),
          'boolean': isinstance(v, bool),
          'object': isinstance(v, dict)}.get(t)
    if ok is None:
        raise ValueError('unknown type %r in the schema' % t)
    if not ok:
        errs.append('%s: %s is not of type %s' % (where, json.dumps(v)[:60], t))
        return
    if 'enum' in spec and v not in spec['enum']:
        errs.append('%s: %s is not one of %s' % (where, json.dumps(v)[:60], spec['enum']))
    if 'const' in spec and (v != spec['const'] or type(v) is not type(spec['const'])):
        errs.append('%s: %s is not %s' % (where, json.dumps(v)[:60], json.dumps(spec['const'])))


def validate_fields(obj, defname, where, errs, seen, parent, top):
    defn = definition(defname)
    vname, fields = pick_variant(defn, obj, parent)
    if fields is None:
        errs.append('%s: no variant of %s fits' % (where, defname))
        return
    key = defname if vname is None else '%s/%s' % (defname, vname)
    if vname is not None:
        seen.variants.add((defname, vname))
    for name in obj:
        if top and name == 'type':
            continue
        if name not in fields:
            errs.append('%s: field %r is not documented' % (where, name))
    for name, spec in fields.items():
        present = name in obj
        if present:
            seen.fields.add((key, name))
        if 'presentIf' in spec:
            want = cond_holds(spec['presentIf'], obj, parent)
            if present and not want:
                errs.append('%s: field %r present although %s does not hold' % (where, name, spec['presentIf']))
            if want and not present:
                errs.append('%s: field %r missing although %s holds' % (where, name, spec['presentIf']))
        elif not present and not spec.get('optional'):
            errs.append('%s: required field %r missing' % (where, name))
        if present:
            check_value(obj[name], spec['type'], spec, '%s: field %r' % (where, name), errs, seen, obj)


def validate(command, obj, seen):
    """The schema violations of one output object of `command`, as messages naming command,
    object type and field."""
    if not isinstance(obj, dict):
        return ['%s: a line is not a JSON object' % command]
    t = obj.get('type')
    objs = SCHEMA['commands'].get(command)
    if objs is None:
        return ['%s: not a command of the schema' % command]
    if not isinstance(t, str) or t not in objs:
        return ['%s: object type %r is not documented for this command' % (command, t)]
    seen.types.add((command, t))
    errs = []
    validate_fields(obj, objs[t], '%s %s' % (command, t), errs, seen, None, top=True)
    return errs


# ---- the standard JSON Schema (docs/segscan-output.schema.json) -------------------------------
# Generated by tools/gen_json_schema.py from docs/json-schema.json: it must be current, and a
# standard validator (python3-jsonschema's Draft202012Validator) must accept every object the
# runs produce and reject every mutation the self-check makes. jsonschema is slow (about 0.5 ms
# an object here): each object is validated unless one of the same skeleton was (the same
# members at every depth, the same JSON types, and the same values of every member the schema
# tests by value: enums, consts, conditions; a "file" by its kind), which the schema cannot
# tell apart.

STD_PATH = os.path.join(ROOT, 'docs', 'segscan-output.schema.json')
STD = {}               # command -> validator; empty when jsonschema is missing
STD_SEEN = set()       # (command, skeleton) validated
std_validated = 0


def std_load():
    import importlib.util
    spec = importlib.util.spec_from_file_location('gen_json_schema', os.path.join(ROOT, 'tools', 'gen_json_schema.py'))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = open(STD_PATH, encoding='utf-8').read()
    check(text == gen.generate(SCHEMA), 'docs/segscan-output.schema.json is current (run tools/gen_json_schema.py)')
    try:
        from jsonschema import Draft202012Validator
    except ImportError:
        # .ci/run installs python3-jsonschema; elsewhere, say so and go on without it
        check(not os.environ.get('SEGSCAN_CI'), 'python3-jsonschema is installed (SEGSCAN_CI)')
        print('note: python3-jsonschema is not installed: the standard schema is not validated against')
        return
    std = json.loads(text)
    Draft202012Validator.check_schema(std)
    check(std.get('$schema') == 'https://json-schema.org/draft/2020-12/schema', 'the standard schema is draft 2020-12')
    check('"$ref": "http' not in text and not re.search(r'"\$ref": "(?!#)', text), 'the standard schema is self-contained')
    for cmd in SCHEMA['commands']:
        root = dict(std, anyOf=[{'$ref': '#/$defs/command.' + cmd}])
        STD[cmd] = Draft202012Validator(root)


def std_value_fields():
    """Members the schema tests by value, and members of type object (any members)."""
    by_value, any_object = {'type'}, set()
    def conds(c):
        if isinstance(c, dict) and 'field' in c:
            by_value.add(c['field'].lstrip('^'))
    for defn in list(SCHEMA['objects'].values()) + list(SCHEMA['shapes'].values()):
        for v in defn.get('variants') or [defn]:
            conds(v.get('when'))
            for f, spec in v['fields'].items():
                conds(spec.get('presentIf'))
                if 'enum' in spec or 'const' in spec or 'keys' in spec:
                    by_value.add(f)
                if spec['type'] in ('object', 'null-or-object'):
                    any_object.add(f)
    return by_value, any_object


STD_BY_VALUE, STD_ANY_OBJECT = std_value_fields()


def skeleton(v, key=None):
    if key in STD_ANY_OBJECT and isinstance(v, dict):
        return 'object'
    if isinstance(v, dict):
        return tuple(sorted((k, skeleton(x, k)) for k, x in v.items()))
    if isinstance(v, list):
        return ('list', min(len(v), 3), tuple(sorted({skeleton(x, key) for x in v}, key=repr)))
    if key == 'file' and isinstance(v, str):
        return ('file', file_kind(v))
    if key in STD_BY_VALUE:
        return (type(v).__name__, v)
    return type(v).__name__


def std_errors(command, obj):
    """The standard validator's messages for obj, once per skeleton; [] without jsonschema."""
    global std_validated
    v = STD.get(command)
    if v is None:
        return []
    sk = (command, skeleton(obj))
    if sk in STD_SEEN:
        return []
    STD_SEEN.add(sk)
    std_validated += 1
    return ['standard schema: %s %s: %s at %s' % (command, obj.get('type') if isinstance(obj, dict) else '?',
                                                  e.message[:200], '/'.join(str(p) for p in e.absolute_path))
            for e in v.iter_errors(obj)]


# ---- running segscan ---------------------------------------------------------------------------

objects_checked = 0
runs_done = 0
SEEN = Seen()


def run(command, args, stdin=None, cwd=None, env=None):
    """segscan COMMAND --json ARGS...: every line validated; returns the objects."""
    global objects_checked, runs_done
    argv = [SEGSCAN, command] + args
    if '--json' not in args:
        argv.insert(2, '--json')
    rc, out, _ = harness.call(argv[1:], binary=SEGSCAN, stdin=stdin, env=env, cwd=cwd, text=False, timeout=None)
    runs_done += 1
    what = ' '.join(os.path.relpath(a, ROOT) if a.startswith('/') else a for a in argv[1:])
    check(rc in (0, 1, 2, 3), '%s: exit %d' % (what, rc))
    check(out == b'' or out.endswith(b'\n'), '%s: output ends with a newline' % what)
    objs = []
    errors = []
    for n, line in enumerate(out.split(b'\n')[:-1], 1):
        try:
            text = line.decode('utf-8')
        except UnicodeDecodeError as e:
            errors.append('line %d is not UTF-8: %s' % (n, e))
            continue
        try:
            obj = json.loads(text)
        except ValueError as e:
            errors.append('line %d is not JSON: %s' % (n, e))
            continue
        breaks = [c for c in '\x85\u2028\u2029' if c in text]
        if breaks:
            errors.append('line %d holds a raw line separator %r (line-oriented readers split there)' % (n, breaks))
        objs.append(obj)
        objects_checked += 1
        errors.extend('line %d: %s' % (n, m) for m in validate(command, obj, SEEN))
        errors.extend('line %d: %s' % (n, m) for m in std_errors(command, obj))
    for m in errors[:10]:
        check(False, '%s: %s' % (what, m))
    if len(errors) > 10:
        check(False, '%s: %d more violations' % (what, len(errors) - 10))
    if not errors:
        check(True, what)
    return objs


# ---- partitions built here ---------------------------------------------------------------------

T0 = 1700000000000


def txn_state_value(pid, epoch, status):
    """TransactionLogValue version 0: producerId, producerEpoch, transactionTimeoutMs,
    transactionStatus, transactionPartitions (null), lastUpdate and start timestamps."""
    return struct.pack('>hqhibiqq', 0, pid, epoch, 60000, status, -1, T0, T0)


def build(tmp):
    """The inputs the corpus does not have. Returns a dict of paths."""
    p = {}
    logs = os.path.join(tmp, 'logs')
    # malformed UTF-8 in a key, a value, a header key and a header value; the record twice
    # without producer id (a duplicate group whose key and value are lossy in utf8); control bytes;
    # a record of its own with a malformed key and value
    odd = (b'k\xff1', b'v\xc3', [(b'h\xfe', b'x\xff')])
    p['odd'] = kafka.write_partition(os.path.join(logs, 'odd-0'), {
        0: kafka.batch(0, [odd]) + kafka.batch(1, [odd]) + kafka.batch(2, [(b'plain', b'\x01\x02\x7f')])
        + kafka.batch(3, [(b'\xc0', b'\xe0only')])})
    # transactional producer 5000 writes order-1 in epoch 0 and again in epoch 1 (new-session by epoch
    # with the transaction protocol v2 hint); __transaction_state names it orders-tx
    p['txnapp'] = kafka.write_partition(os.path.join(logs, 'txnapp-0'), {
        0: kafka.batch(0, [(b'o', b'order-1')], pid=5000, epoch=0, base_seq=0, transactional=True)
        + kafka.marker(1, 5000, 0, True)
        + kafka.batch(2, [(b'o', b'order-1')], pid=5000, epoch=1, base_seq=0, transactional=True)
        + kafka.marker(3, 5000, 1, True)})
    p['txnstate'] = kafka.write_partition(os.path.join(logs, '__transaction_state-0'), {
        0: kafka.batch(0, [(b'\0\0' + kafka.string(b'orders-tx'), txn_state_value(5000, 1, 4))])})
    # 1002 one-record batches of producer 6000 whose sequences skip one each time: 1001 gaps, more
    # than the 1000 a session lists
    data = b''.join(kafka.batch(i, [(None, b'g%d' % i)], pid=6000, epoch=0, base_seq=2 * i, base_ts=T0 + i)
                    for i in range(1002))
    p['gaps'] = kafka.write_partition(os.path.join(tmp, 'gaps', 'gaps-0'), {0: data})
    # __consumer_offsets: an offset commit (value version 3), its tombstone, and a record type
    # (5, a KIP-848 record) Kafka 4.0 decodes and segscan does not
    key, commit = kafka.offset_commit(b'g1', b'orders', 3, 42, T0, leader_epoch=5)
    p['offsets'] = kafka.write_partition(os.path.join(tmp, 'co', '__consumer_offsets-3'), {
        0: kafka.batch(0, [(key, commit), (key, None), (b'\0\x05' + kafka.string(b'new'), b'\0\0')])})
    # __share_group_state: ShareUpdate values (key type 1) of Kafka 4.0's layout (SnapshotEpoch uint16), of
    # 4.1's (int32) with an unknown tagged field, and one that neither layout reads (a byte too many);
    # __consumer_offsets: a record type no Kafka writes (99); __cluster_metadata: a FeatureLevelRecord with
    # an unknown tagged field (tag 7)
    skey = b'\0\x01' + kafka.string(b'sg') + bytes(16) + b'\0\0\0\x01'
    sb = kafka.uvarint(2) + struct.pack('>qqbh', 1, 2, 2, 1) + b'\0'
    tagged = kafka.uvarint(1) + kafka.uvarint(0) + kafka.uvarint(4) + b'\0\0\0\x09'
    p['sharestate'] = kafka.write_partition(os.path.join(tmp, 'ss', '__share_group_state-1'), {
        0: kafka.batch(0, [(skey, struct.pack('>hHiq', 0, 1, 2, 3) + sb + b'\0'),
                           (skey, struct.pack('>hiiq', 0, 1, 2, 3) + sb + tagged),
                           (skey, struct.pack('>hHiq', 0, 1, 2, 3) + sb + b'\0\x07')])})
    p['offsets99'] = kafka.write_partition(os.path.join(tmp, 'co99', '__consumer_offsets-1'), {
        0: kafka.batch(0, [(b'\0\x63' + kafka.string(b'x'), b'\0\0')])})
    fl = kafka.uvarint(1) + kafka.uvarint(12) + kafka.uvarint(0) + kafka.cstring('metadata.version') + \
        struct.pack('>h', 21) + kafka.uvarint(1) + kafka.uvarint(7) + kafka.uvarint(1) + b'\x05'
    p['meta_tag'] = kafka.write_partition(os.path.join(tmp, 'cm', '__cluster_metadata-0'), {
        0: kafka.batch(0, [(None, fl)])})
    # a producer snapshot with a flipped byte (CRC mismatch), and one too short for its header
    snap = sorted(glob.glob(os.path.join(CORPUS, 'gen', 'txn-open', 'txn-0', '*.snapshot')))[0]
    d = os.path.join(tmp, 'bad', 'bad-0')
    os.makedirs(d)
    raw = bytearray(open(snap, 'rb').read())
    raw[-3] ^= 1
    p['badsnap'] = os.path.join(d, '00000000000000000006.snapshot')
    open(p['badsnap'], 'wb').write(bytes(raw))
    p['shortsnap'] = os.path.join(d, '00000000000000000007.snapshot')
    open(p['shortsnap'], 'wb').write(b'\0\1\2')
    # a transaction index whose entry has version 9 (Kafka's reader throws)
    p['badtxn'] = os.path.join(d, '00000000000000000000.txnindex')
    open(p['badtxn'], 'wb').write(struct.pack('>hqqqqi', 9, 1, 0, 1, 0, 0))
    # an offset index of the lab segment ending in a zero-filled preallocated tail (slot 2 on)
    lab = os.path.join(CORPUS, 'gen', 'lab', 'payments-0')
    pre = os.path.join(tmp, 'pre', 'payments-0')
    os.makedirs(pre)
    shutil.copy(os.path.join(lab, '00000000000000000000.log'), pre)
    open(os.path.join(pre, '00000000000000000000.index'), 'wb').write(
        struct.pack('>ii', 1, 0) + struct.pack('>ii', 2, 85) + b'\0' * 64)
    open(os.path.join(pre, '00000000000000000000.timeindex'), 'wb').write(
        struct.pack('>qi', T0 + 1, 1) + struct.pack('>qi', T0 + 2, 2) + b'\0' * 36)
    p['pre'] = pre
    # index entries the log contradicts: a position past the end of the log, a position with no
    # whole batch, an offset below the base offset (Kafka's sanity check fails)
    skew = os.path.join(tmp, 'skew', 'payments-0')
    os.makedirs(skew)
    shutil.copy(os.path.join(lab, '00000000000000000000.log'), skew)
    open(os.path.join(skew, '00000000000000000000.index'), 'wb').write(
        struct.pack('>ii', 1, 1000) + struct.pack('>ii', 2, 150) + struct.pack('>ii', -5, 0))
    open(os.path.join(skew, '00000000000000000000.timeindex'), 'wb').write(
        struct.pack('>qi', T0 + 1, 1) + struct.pack('>qi', T0 + 2, 2))
    p['skew'] = skew
    # unreadable files for verify: an index that is a dangling link, a snapshot that is a directory
    un = os.path.join(tmp, 'unreadable', 'payments-0')
    os.makedirs(un)
    shutil.copy(os.path.join(lab, '00000000000000000000.log'), un)
    os.symlink(os.path.join(tmp, 'nowhere'), os.path.join(un, '00000000000000000000.index'))
    os.makedirs(os.path.join(un, '00000000000000000003.snapshot'))
    p['unreadable'] = un
    # replicas for diff: B diverges at offset 5 under leader epoch 1 and lacks compacted offsets 1-2
    v = [b'v%d' % i for i in range(8)]

    def one_each(offsets, values, epoch):
        return b''.join(kafka.batch(o, [(None, x)], base_ts=T0 + o, leader_epoch=epoch) for o, x in zip(offsets, values))
    p['repA'] = kafka.write_partition(os.path.join(tmp, 'repA', 'orders-0'), {0: one_each(range(8), v, 0)})
    p['repB'] = kafka.write_partition(os.path.join(tmp, 'repB', 'orders-0'), {
        0: one_each([0, 3, 4], [v[0], v[3], v[4]], 0) + one_each(range(5, 10), [b'b%d' % i for i in range(5, 10)], 1)})
    # log directories with a partition each side lacks (unpaired)
    for side, extra in (('dirA', 'only-a-0'), ('dirB', 'only-b-0')):
        shutil.copytree(lab, os.path.join(tmp, side, 'payments-0'))
        shutil.copytree(lab, os.path.join(tmp, side, extra))
    p['dirA'], p['dirB'] = os.path.join(tmp, 'dirA'), os.path.join(tmp, 'dirB')
    p['logs'] = logs
    # groups: two brokers' copies of one __consumer_offsets partition (the second diverging), a
    # commit of OffsetCommitValue version 1 (expireTimestamp), an offset tombstone, an online
    # conversion to the consumer protocol (the classic group's tombstone and the consumer group's
    # records in one batch, as GroupMetadataManager.convertToConsumerGroup appends them)
    for broker, last in (('b1', 30), ('b2', 31)):
        lg = kafka.Log()
        lg.append([kafka.group_metadata('sg', 1, T0, [kafka.Member('sg-1', {'t': [0]})])], T0)
        lg.append([kafka.offset_commit('sg', 't', 0, 10, T0 + 1, expire_ts=T0 + 99)], T0 + 1)
        lg.append([kafka.offset_tombstone('sg', 't', 0)], T0 + 2)
        lg.append([kafka.offset_commit('sg', 't', 0, last, T0 + 3)], T0 + 3)
        lg.append([kafka.group_tombstone('sg'), kafka.cg_member('sg', 'SGMEMBERAAAAAAAAAAAAAA', 'sg-2', topics=['t']),
                   kafka.cg_partition_metadata('sg', {'MJb0OdkyOsjVihzuZl_WhA': ('t', 1)}),
                   kafka.cg_epoch('sg', 2)], T0 + 4)
        # a transactional commit left open at the end (an open-commit finding)
        lg.append([kafka.offset_commit('sg', 't', 1, 5, T0 + 5)], T0 + 5, pid=77, epoch=0, transactional=True)
        lg.write(os.path.join(tmp, 'groups-' + broker, '__consumer_offsets-%d' % kafka.coordinator_partition('sg')))
    # the data partition t-0 beside broker 1's copy, 10 records: the commits of 30 and 31 are past
    # its end at their time (an out-of-range finding)
    # (two batches: 0..5, 6..9); and a copy of t-0 beside broker 2's holding the first batch only (a
    # replica cut short: a data-partition object)
    t0 = kafka.batch(0, [(None, b'v%d' % i) for i in range(6)], base_ts=T0 - 10)
    kafka.write_partition(os.path.join(tmp, 'groups-b1', 't-0'),
                          {0: t0 + kafka.batch(6, [(None, b'v%d' % i) for i in range(6, 10)], base_ts=T0 - 4)})
    kafka.write_partition(os.path.join(tmp, 'groups-b2', 't-0'), {0: t0})
    p['groups'] = [os.path.join(tmp, 'groups-b1'), os.path.join(tmp, 'groups-b2')]
    # text files: a log directory whose checkpoint names a high watermark past the log end offset
    # (payments-0 of the lab ends at offset 4) and an entry without a partition directory, and a
    # recovery-point checkpoint whose count is not its lines' (Kafka's reader refuses it)
    td = os.path.join(tmp, 'textdir')
    shutil.copytree(lab, os.path.join(td, 'payments-0'))
    kafka.write_checkpoint(os.path.join(td, 'replication-offset-checkpoint'), [('payments', 0, 99), ('gone', 1, 5)])
    open(os.path.join(td, 'recovery-point-offset-checkpoint'), 'w').write('0\n2\npayments 0 1\n')
    p['textdir'] = td
    return p


# ---- the runs ------------------------------------------------------------------------------------

def gen(name):
    return sorted(glob.glob(os.path.join(CORPUS, 'gen', name, '*-0')))[0]


def corpus_runs(p):
    gens = sorted(glob.glob(os.path.join(CORPUS, 'gen', '*', '*-0')))
    real_parts = sorted(d for d in glob.glob(os.path.join(CORPUS, 'real', '**', '*-[0-9]*'), recursive=True)
                        if os.path.isdir(d))
    logdirs = sorted(set(os.path.dirname(d) for d in real_parts))

    # dump: every file of every partition the corpus holds, KRaft snapshots, built files
    files = []
    for d in gens + real_parts + [p['pre'], p['skew']]:
        for f in sorted(os.listdir(d)):
            if f.endswith(('.log', '.index', '.timeindex', '.txnindex', '.snapshot', '.checkpoint')):
                files.append(os.path.join(d, f))
    files += sorted(glob.glob(os.path.join(CORPUS, 'real', '**', '*.checkpoint'), recursive=True))
    for i in range(0, len(files), 40):
        run('dump', files[i:i + 40])
    run('dump', ['--bytes', 'hex'] + files[:20])
    run('dump', ['--bytes', 'base64', os.path.join(gen('codec-gzip'), '00000000000000000000.log')])
    run('dump', ['--max-batch-bytes', '100', os.path.join(gen('codec-gzip'), '00000000000000000000.log')])
    run('dump', ['--max-bytes', '1000', os.path.join(gen('codec-none'), '00000000000000000000.log')])
    run('dump', ['-'], stdin=open(os.path.join(gen('lab'), '00000000000000000000.log'), 'rb').read())
    run('dump', ['--verify-index-only'] + [f for f in files if f.endswith(('.index', '.timeindex'))][:20])
    run('dump', ['--index-sanity-check'] + [f for f in files if f.endswith(('.index', '.timeindex'))][:20])
    for f in sorted(glob.glob(os.path.join(CORPUS, 'real', '**', '__consumer_offsets-*', '*.log'), recursive=True)):
        run('dump', ['--offsets-decoder', f])
    run('dump', ['--offsets-decoder', os.path.join(p['offsets'], '00000000000000000000.log')])
    for f in sorted(glob.glob(os.path.join(CORPUS, 'gen', 'groups-*', '__consumer_offsets-*', '*.log'))):
        run('dump', ['--offsets-decoder', f])
    for f in sorted(glob.glob(os.path.join(CORPUS, '**', '__cluster_metadata-0', '*.log'), recursive=True) +
                    glob.glob(os.path.join(CORPUS, '**', '__cluster_metadata-0', '*.checkpoint'), recursive=True)):
        run('dump', ['--cluster-metadata-decoder', f])
    for f in sorted(glob.glob(os.path.join(CORPUS, 'gen', 'share-group-state', '*', '*.log'))):
        run('dump', ['--share-group-state-decoder', f])
    for f in sorted(glob.glob(os.path.join(CORPUS, 'gen', 'remote-log-metadata', '*', '*.log'))):
        run('dump', ['--remote-log-metadata-decoder', f])
    run('dump', ['--transaction-log-decoder', os.path.join(p['txnstate'], '00000000000000000000.log')])
    run('dump', ['--share-group-state-decoder', os.path.join(p['sharestate'], '00000000000000000000.log')])
    run('dump', ['--offsets-decoder', os.path.join(p['offsets99'], '00000000000000000000.log')])
    run('dump', ['--cluster-metadata-decoder', os.path.join(p['meta_tag'], '00000000000000000000.log')])
    # the text files of the real log directories, built faulty ones, and whole directories
    texts = sorted(f for f in glob.glob(os.path.join(CORPUS, 'real', '**', '*'), recursive=True)
                   if os.path.basename(f) in TEXT_FILES)
    texts += sorted(glob.glob(os.path.join(CORPUS, 'real', '**', '.kafka_cleanshutdown'), recursive=True))
    for i in range(0, len(texts), 40):
        run('dump', texts[i:i + 40])
    run('dump', [os.path.join(p['textdir'], 'replication-offset-checkpoint'),
                 os.path.join(p['textdir'], 'recovery-point-offset-checkpoint')])
    run('dump', [p['textdir']])
    run('dump', [logdirs[0]])
    run('verify', [p['textdir']])
    run('producers', [os.path.join(CORPUS, 'real', 'rjmfernandes__flink-on-prem', 'data')])
    run('dump', [os.path.join(p['odd'], '00000000000000000000.log'), p['badsnap'], p['shortsnap'], p['badtxn'],
                 os.path.join(p['logs'], 'missing-0', '00000000000000000000.index'),
                 os.path.join(p['logs'], 'missing-0', '00000000000000000000.snapshot')])

    # the analysis commands on every scenario at once, each scenario alone, the real log dirs
    for cmd in ('scan', 'dups', 'producers', 'txns'):
        run(cmd, gens)
        run(cmd, ['--include-internal'] + logdirs)
        run(cmd, [p['logs'], p['gaps']])
        run(cmd, ['--by', 'key', '--bytes', 'hex'] + gens)
        run(cmd, ['--by', 'key+value', '--bytes', 'base64', p['logs']] + gens)
    for g in gens:
        run('scan', [g])
    for cmd in ('scan', 'dups', 'producers', 'txns'):
        run(cmd, ['--max-batch-bytes', '100', gen('codec-gzip')])
    run('explain', ['--max-batch-bytes', '100', '--value', 'pay-1', gen('codec-gzip'), gen('lab')])
    run('scan', ['--txn-timeout', '1ms', gen('txn-open')])
    run('scan', ['--since', '2023-11-14T22:13:20.001Z', '--from-offset', '1', gen('lab')])
    run('scan', ['--by', 'key', p['logs']])
    run('scan', ['--top', '1', gen('payments-dup'), gen('payments-app')])
    run('scan', ['-'], stdin=open(os.path.join(gen('payments-dup'), '00000000000000000000.log'), 'rb').read())

    run('explain', ['--value', 'pay-77', gen('payments-app')])
    run('explain', ['--value', 'pay-1', gen('lab')])
    run('explain', ['--value-contains', 'x'] + gens)
    run('explain', ['--offset', 'payments-0:0', '--by', 'key', gen('lab')])
    run('explain', ['--offset', 'odd-0:3', p['logs']])
    run('explain', ['--value-hex', '76c3', p['logs']])
    run('explain', ['--value-hex', '01027f', p['logs']])
    run('explain', ['--value', 'order-1', p['logs']])
    run('explain', ['--by', 'key', '--value-hex', '76c3', p['logs']])
    run('explain', ['--by', 'key+value', '--value-contains', 'pay', gen('payments-app'), gen('lab')])
    run('explain', ['--value', 'no such value', gen('lab')])

    # diff: the manual's pair, replicas (divergence, compaction), mirrors, damage, unpaired
    run('diff', [gen('codec-none'), gen('damaged-truncated')])
    run('diff', ['--by', 'offset', gen('codec-none'), gen('damaged-truncated')])
    run('diff', ['--stat', gen('codec-none'), gen('damaged-crc-flip')])
    run('diff', [p['repA'], p['repB']])
    run('diff', [p['repB'], p['repA']])
    run('diff', [gen('payments-dup'), gen('payments-idem')])
    run('diff', ['--by', 'key', gen('codec-none'), gen('codec-gzip')])
    run('diff', ['--by', 'key+value', '--read-committed', gen('txn-abort'), gen('txn-commit')])
    # each side's analysis failing (the test hook): the figures resting on it null, analysisFailed
    run('diff', ['--by', 'key+value', '--read-committed', gen('txn-abort'), gen('txn-commit')],
        env={'SEGSCAN_TEST_FAIL_ANALYSIS': '1'})
    run('diff', ['--bytes', 'hex', os.path.join(p['logs'], 'odd-0'), gen('lab')])
    run('diff', [os.path.join(p['logs'], 'odd-0'), gen('lab')])
    run('diff', [p['dirA'], p['dirB']])
    run('diff', [gen('lab'), gen('lab')])

    # verify: every scenario, every real log directory, the built faults, a missing PATH
    for g in gens:
        run('verify', [g])
    for d in logdirs:
        run('verify', [d])
    run('verify', ['-q'] + logdirs[:2])
    run('verify', [p['pre'], p['skew'], p['unreadable'], os.path.dirname(p['badsnap'])])
    run('verify', [os.path.join(p['logs'], 'no-such-partition-0')])

    for args in (['--group', 'orders-app'], ['--transactional-id', 'pay-tx', '--partitions', '7'],
                 ['--group', 'gr\u00fcn\U0001F600']):
        run('coordinator', args)

    # groups: the corpus's consumer-group folders and the copies built above
    run('groups', [os.path.join(CORPUS, 'gen', 'groups-classic')])
    run('groups', ['--commits', os.path.join(CORPUS, 'gen', 'groups-eos')])
    run('groups', ['--commits', os.path.join(CORPUS, 'gen', 'groups-consumer-protocol')])
    run('groups', [os.path.join(CORPUS, 'gen-kafka42', 'streams-rebalance')])
    run('groups', ['--commits'] + p['groups'])

    # an export read back as the partitions it holds (notInExport, the scope's exports)
    xdir = tempfile.mkdtemp(prefix='segscan-schema-x-')
    try:
        x = os.path.join(xdir, 'gw.parquet')
        harness.call(['export', '--fingerprints', '-q', '-o', x, os.path.join(ROOT, 'testdata', 'groups-worked')],
                     binary=SEGSCAN)
        for cmd, args in (('scan', [x]), ('dups', [x]), ('explain', ['--offset', 'enriched-0:40', x]),
                          ('groups', [x]), ('txns', [x]), ('producers', [x])):
            run(cmd, args)
    finally:
        shutil.rmtree(xdir, ignore_errors=True)


# Optional fields no input here produces, and why (the schema still describes them): none now.
NOT_PRODUCED = {}


def coverage():
    for cmd, types in SCHEMA['commands'].items():
        for t in types:
            check((cmd, t) in SEEN.types, 'coverage: %s wrote a %s object' % (cmd, t))
    for name, defn in list(SCHEMA['objects'].items()) + list(SCHEMA['shapes'].items()):
        variants = defn.get('variants') or [{'name': None, 'fields': defn['fields']}]
        for v in variants:
            key = name if v['name'] is None else '%s/%s' % (name, v['name'])
            if v['name'] is not None and (name, '#variant ' + v['name']) not in NOT_PRODUCED:
                check((name, v['name']) in SEEN.variants, 'coverage: variant %s of %s seen' % (v['name'], name))
            for f, spec in v['fields'].items():
                if (spec.get('optional') or 'presentIf' in spec) and (key, f) not in NOT_PRODUCED:
                    check((key, f) in SEEN.fields, 'coverage: optional field %s of %s seen' % (f, key))


# ---- documentation -------------------------------------------------------------------------------

def docs():
    md = open(os.path.join(ROOT, 'docs', 'json.md')).read()
    man = open(os.path.join(ROOT, 'man', 'segscan.1')).read().replace('\\-', '-').replace('\\&', '')
    version = SCHEMA['schemaVersion']
    check(isinstance(version, int) and version >= 1, 'schemaVersion is a positive integer')
    check(('schemaVersion' in md and '"schemaVersion": %d' % version in md) or
          ('schema version %d' % version in md), 'docs/json.md gives schema version %d' % version)
    check('docs/json.md' in man and 'docs/json-schema.json' in man, 'the manual points to docs/json.md and the schema')
    check('schema version %d' % version in man or 'schemaVersion' in man, 'the manual gives the schema version')
    for cmd, types in SCHEMA['commands'].items():
        check(re.search(r'^#+ .*\b%s\b' % re.escape(cmd), md, re.M), 'docs/json.md has a section for %s' % cmd)
        for t in types:
            check('`%s`' % t in md, 'docs/json.md names object type %s (%s)' % (t, cmd))
    for name, defn in list(SCHEMA['objects'].items()) + list(SCHEMA['shapes'].items()):
        for v in defn.get('variants') or [defn]:
            for f in v['fields']:
                check('`%s`' % f in md, 'docs/json.md describes field %s of %s' % (f, name))


# ---- self-check: the validator rejects what it must ------------------------------------------------

def rejected(command, obj, field, what):
    errs = validate(command, obj, Seen())
    named = errs and all(command in e for e in errs) and any(field in e for e in errs)
    check(bool(errs), 'self-check: %s is rejected' % what)
    check(bool(named), 'self-check: %s: the message names %s, the type and %s: %s' % (what, command, field, errs))
    if command in STD:
        check(not STD[command].is_valid(obj), 'self-check: %s is rejected by the standard schema' % what)


def self_check(samples):
    batch = samples[('dump', 'batch')]
    check(validate('dump', batch, Seen()) == [], 'self-check: the sample batch is valid')
    check('dump' not in STD or STD['dump'].is_valid(batch), 'self-check: the standard schema takes the sample batch')
    m = copy.deepcopy(batch)
    del m['crcValid']
    rejected('dump', m, 'crcValid', 'a batch without crcValid')
    m = copy.deepcopy(batch)
    m['crcValue'] = 1
    rejected('dump', m, 'crcValue', 'a batch with an undocumented field')
    m = copy.deepcopy(batch)
    m['baseOffset'] = '0'
    rejected('dump', m, 'baseOffset', 'a batch whose baseOffset is a string')
    m = copy.deepcopy(batch)
    m['isControl'] = 0
    rejected('dump', m, 'isControl', 'a batch whose isControl is a number')
    m = copy.deepcopy(batch)
    m['count'] = 2.5
    rejected('dump', m, 'count', 'a batch whose count is not an integer')
    m = copy.deepcopy(batch)
    m['computedCrc'] = 5
    rejected('dump', m, 'computedCrc', 'computedCrc on a batch whose CRC is valid')
    m = copy.deepcopy(batch)
    m['crcValid'] = False
    rejected('dump', m, 'computedCrc', 'a batch with a bad CRC and no computedCrc')
    m = copy.deepcopy(batch)
    m['compression'] = 'brotli'
    rejected('dump', m, 'compression', 'a batch with an unknown compression name')
    m = copy.deepcopy(batch)
    m['type'] = 'batches'
    rejected('dump', m, 'batches', 'an object of an undocumented type')
    rejected('scan', copy.deepcopy(batch), 'batch', 'a dump object in scan output')

    rec = copy.deepcopy(samples[('dump', 'record')])
    rec['headers'] = [{'key': 'h', 'value': 7}]
    rejected('dump', rec, 'value', 'a header value that is a number')
    rec = copy.deepcopy(samples[('dump', 'record')])
    rec['headers'] = [{'key': 'h', 'value': None, 'extra': 1}]
    rejected('dump', rec, 'extra', 'a header with an undocumented member')
    rec = copy.deepcopy(samples[('dump', 'record')])
    rec['coordinatorEpoch'] = 3
    rejected('dump', rec, 'coordinatorEpoch', 'coordinatorEpoch on a data record')

    grp = copy.deepcopy(samples[('dups', 'group')])
    check(validate('dups', grp, Seen()) == [], 'self-check: the sample group is valid')
    grp['occurrences'][0]['offset'] = None
    rejected('dups', grp, 'offset', 'an occurrence whose offset is null')
    grp = copy.deepcopy(samples[('dups', 'group')])
    del grp['occurrences'][-1]['aborted']
    rejected('dups', grp, 'aborted', 'an occurrence without aborted')
    grp = copy.deepcopy(samples[('dups', 'group')])
    grp['occurrences'][0]['explanation'] = 'x'
    rejected('dups', grp, 'explanation', 'an explanation outside explain')
    grp = copy.deepcopy(samples[('dups', 'group')])
    grp['causes']['because'] = 1
    rejected('dups', grp, 'because', 'a cause that does not exist')

    ses = copy.deepcopy(samples[('producers', 'session')])
    ses['sequenceRanges'] = [[0, 1, 2]]
    rejected('producers', ses, 'sequenceRanges', 'a sequence range that is not a pair')
    ses = copy.deepcopy(samples[('producers', 'session')])
    ses['epochBump'] = True
    rejected('producers', ses, 'previousEpoch', 'an epoch bump without previousEpoch')

    summ = copy.deepcopy(samples[('diff', 'summary')])
    summ['a']['leaderEpochs'] = [[0, '0']]
    rejected('diff', summ, 'leaderEpochs', 'a leader epoch start that is a string')
    summ = copy.deepcopy(samples[('diff', 'summary')])
    summ['mode'] = 'sideways'
    rejected('diff', summ, 'summary', 'a summary of an unknown mode')
    vs = copy.deepcopy(samples[('verify', 'verify-summary')])
    del vs['findings']['info']
    rejected('verify', vs, 'info', 'verify-summary findings without info')


def main():
    std_load()
    tmp = tempfile.mkdtemp(prefix='segscan-schema-')
    try:
        paths = build(tmp)
        corpus_runs(paths)
        coverage()
        docs()
        samples = {}
        for cmd, args in (('dump', [os.path.join(gen('lab'), '00000000000000000000.log')]),
                          ('dups', [gen('payments-dup')]), ('producers', [gen('idem-seq-gap')]),
                          ('diff', [gen('codec-none'), gen('damaged-truncated')]),
                          ('verify', [gen('lab')])):
            for o in run(cmd, args):
                samples.setdefault((cmd, o['type']), o)
        self_check(samples)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return harness.tally_exit('test_schema: %d runs, %d objects validated (%d by the standard schema)'
                              % (runs_done, objects_checked, std_validated))


sys.exit(main())
