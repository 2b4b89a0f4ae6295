#!/usr/bin/env python3
"""Write segscan's tables of Kafka's message schemas (src/lib/decode/kafka_messages.c).

Usage:
  tools/gen_kafka_messages.py KAFKA [--rev REV] [--extra DIR]... [--alt LABEL=DIR --primary-layout LABEL]
                              [-o OUT] [--enum-out HEADER]
  tools/gen_kafka_messages.py --schemas DIR --origin TEXT [the same options]

KAFKA is a checkout of apache/kafka: a work tree, or a bare repository read at REV (git show REV:path).
--schemas DIR reads the message files from DIR/<module>/<Name>.json instead (module: group-coordinator,
share-coordinator, transaction-coordinator, metadata, clients, storage), as tools/kafka-schemas/4.2 holds
them; --origin names where they come from (the output says it in place of a commit).
--extra DIR adds or replaces message files the same way. The output names the commit (or origin) and
every extra file it used.
--alt LABEL=DIR: other layouts of messages that kept their version number (DIR/<module>/<Name>.json):
each becomes a second table of that message, its layout named LABEL, the main one's --primary-layout;
the decoder reads a record with the layout that consumes exactly its bytes.
--enum-out HEADER writes the record types as named constants (Kafka's CoordinatorRecordType and
MetadataRecordType names) for the library and the CLI.

Coordinator records: Kafka 4.2's keys and values say "type": "coordinator-key" / "coordinator-value"
with an "apiKey", the record type; the older files (data messages) gave the record type as the key's
validVersions. Either way the key is read with its record type as its version
(CoordinatorRecordSerde.deserialize).

The schemas are Kafka's message definitions (the *.json files that Kafka's own generator,
generator/src/main/java/org/apache/kafka/message/MessageDataGenerator.java, turns into Java). For each
top-level message and each nested struct, as it is read in the versions it can be read in, the output
gives every field's name as Kafka's JSON converters write it (lowerCaseFirst), its type, and the
versions in which the generated reader reads it, allows null, uses the compact (flexible) encoding and
reads the tagged-field section. Those are computed as Kafka's VersionConditional.generate computes the
conditions of the generated code: a condition is checked at run time only where the possible versions
of the enclosing struct extend beyond the field's versions (so a message read at a version above its
highest valid version reads the fields "N+" and those present in all its valid versions, as Kafka's
reader does). Python 3 standard library only. The tables written are segscan's; no Kafka code is copied.
"""

import argparse
import json
import os
import re
import subprocess
import sys

MIN, MAX = -32768, 32767

MODULE_DIRS = {
    'group-coordinator': 'group-coordinator/src/main/resources/common/message',
    'share-coordinator': 'share-coordinator/src/main/resources/common/message',
    'transaction-coordinator': 'transaction-coordinator/src/main/resources/common/message',
    'metadata': 'metadata/src/main/resources/common/metadata',
    'clients': 'clients/src/main/resources/common/message',
    'storage': 'storage/src/main/resources/message',
}

CLIENT_FILES = ['ConsumerProtocolSubscription', 'ConsumerProtocolAssignment', 'LeaderChangeMessage',
                'SnapshotHeaderRecord', 'SnapshotFooterRecord', 'KRaftVersionRecord', 'VotersRecord']
STORAGE_FILES = ['RemoteLogSegmentMetadataRecord', 'RemoteLogSegmentMetadataUpdateRecord',
                 'RemotePartitionDeleteMetadataRecord', 'RemoteLogSegmentMetadataSnapshotRecord']
TXN_FILES = ['TransactionLogKey', 'TransactionLogValue']

PRIMS = {'bool': 'KT_BOOL', 'int8': 'KT_I8', 'int16': 'KT_I16', 'uint16': 'KT_U16', 'int32': 'KT_I32',
         'uint32': 'KT_U32', 'int64': 'KT_I64', 'float64': 'KT_F64', 'uuid': 'KT_UUID', 'string': 'KT_STR',
         'bytes': 'KT_BYTES', 'records': 'KT_RECORDS'}


class Source:
    def __init__(self, kafka, rev, extras, schemas=None, origin=None):
        self.kafka, self.rev, self.extras = kafka, rev, extras
        self.schemas, self.origin = schemas, origin
        self.used_extras = []

    def commit(self):
        if self.schemas:
            return self.origin
        args = ['git', '-C', self.kafka, 'rev-parse', self.rev or 'HEAD']
        return subprocess.run(args, check=True, stdout=subprocess.PIPE, text=True).stdout.strip()

    def listdir(self, module):
        names = set()
        d = MODULE_DIRS[module]
        if self.schemas:
            sd = os.path.join(self.schemas, module)
            if os.path.isdir(sd):
                names.update(n[:-5] for n in os.listdir(sd) if n.endswith('.json'))
        elif self.rev:
            out = subprocess.run(['git', '-C', self.kafka, 'ls-tree', '--name-only', '%s:%s' % (self.rev, d)],
                                 check=True, stdout=subprocess.PIPE, text=True).stdout
            names.update(n[:-5] for n in out.split() if n.endswith('.json'))
        else:
            names.update(n[:-5] for n in os.listdir(os.path.join(self.kafka, d)) if n.endswith('.json'))
        for e in self.extras:
            ed = os.path.join(e, module)
            if os.path.isdir(ed):
                names.update(n[:-5] for n in os.listdir(ed) if n.endswith('.json'))
        return sorted(names)

    def read(self, module, name):
        for e in self.extras:
            p = os.path.join(e, module, name + '.json')
            if os.path.isfile(p):
                self.used_extras.append('%s/%s.json' % (module, name))
                with open(p, encoding='utf-8') as f:
                    return parse_json(f.read())
        path = '%s/%s.json' % (MODULE_DIRS[module], name)
        if self.schemas:
            with open(os.path.join(self.schemas, module, name + '.json'), encoding='utf-8') as f:
                return parse_json(f.read())
        if self.rev:
            text = subprocess.run(['git', '-C', self.kafka, 'show', '%s:%s' % (self.rev, path)], check=True,
                                  stdout=subprocess.PIPE, text=True).stdout
        else:
            with open(os.path.join(self.kafka, path), encoding='utf-8') as f:
                text = f.read()
        return parse_json(text)


def parse_json(text):
    """Kafka's message files are JSON with // comments (MessageGenerator reads them with ALLOW_COMMENTS)."""
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == '\\':
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            out.append(c)
        elif text.startswith('//', i):
            while i < n and text[i] != '\n':
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return json.loads(''.join(out))


def versions(s):
    """Kafka's Versions.parse: "none", "N", "N+", "N-M"."""
    if s is None:
        return None
    s = s.strip()
    if s == 'none':
        return None
    if s.endswith('+'):
        return (int(s[:-1]), MAX)
    if '-' in s:
        a, b = s.split('-')
        return (int(a), int(b))
    return (int(s), int(s))


def intersect(a, b):
    if a is None or b is None:
        return None
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else None


def cond(containing, possible):
    """The run-time check of VersionConditional.forVersions(containing, possible): (lo, hi) inclusive,
    with MIN/MAX where no bound is checked, or None when the condition is always false."""
    if containing is None or possible is None:
        return None
    if possible[1] < containing[0] or possible[0] > containing[1]:
        return None
    lo = containing[0] if possible[0] < containing[0] else MIN
    hi = containing[1] if possible[1] > containing[1] else MAX
    return (lo, hi)


def lower_first(name):
    return name[0].lower() + name[1:]


def snake_upper(name):
    """MessageGenerator.toSnakeCase(name).toUpperCase(), as MetadataRecordType names its constants: an
    underscore before a capital letter that follows a lower-case one."""
    out, prev_cap = [], True
    for c in name:
        if c.isupper():
            if not prev_cap:
                out.append('_')
            prev_cap = True
        else:
            prev_cap = False
        out.append(c)
    return ''.join(out).upper()


def c_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


class Gen:
    def __init__(self):
        self.ns = ''           # the layout being generated ('' for the main one)
        self.alts = {}         # message name -> (label, C identifier of its other layout)
        self.primary_label = None
        self.structs = {}      # (ns, msg, struct name, possible) -> C identifier
        self.order = []        # C definitions in dependency order
        self.counter = 0

    def ident(self, base):
        self.counter += 1
        return 's%d_%s' % (self.counter, re.sub(r'\W', '_', base))

    def struct(self, msg, sname, fields, possible, flexible, common):
        key = (self.ns, msg['name'], sname, possible)
        if key in self.structs:
            return self.structs[key]
        cid = self.ident(sname)
        self.structs[key] = cid
        rows = []
        for f in fields:
            # a field with only taggedVersions is in those versions (FieldSpec)
            fv = versions(f.get('versions', f.get('taggedVersions')))
            present = intersect(fv, possible)
            c = cond(fv, possible)
            if c is None or present is None:
                continue  # never read in these versions, never written by the JSON converter
            t = f['type']
            is_array = t.startswith('[]')
            base = t[2:] if is_array else t
            sub = 'NULL'
            if base in PRIMS:
                kt = PRIMS[base]
            else:
                kt = 'KT_STRUCT'
                if 'fields' in f:
                    sfields, sver = f['fields'], fv
                elif base in common:
                    sfields, sver = common[base]['fields'], versions(common[base].get('versions', '0+'))
                else:
                    raise SystemExit('%s: unknown type %s of field %s' % (msg['name'], t, f['name']))
                sub = '&' + self.struct(msg, base, sfields, intersect(present, sver), flexible, common)
            fflex = versions(f['flexibleVersions']) if 'flexibleVersions' in f else flexible
            x = cond(fflex, present)
            nl = cond(versions(f.get('nullableVersions')), present)
            tagged = 'taggedVersions' in f
            # tagged in these versions (a field may be mandatory in earlier ones: FieldSpec's versions minus
            # taggedVersions, read in the body as MessageDataGenerator's generateClassReader does)
            tg = cond(versions(f['taggedVersions']), present) if tagged else None
            flags = []
            if is_array:
                flags.append('KF_ARRAY')
            if tagged:
                flags.append('KF_TAGGED')
            dkind, dint, dstr = 'KD_ZERO', 0, 'NULL'
            d = f.get('default')
            # a JSON null ("default": null) is no default at all (FieldSpec reads it as ""), unlike "null"
            d = None if d is None else str(d).lower() if isinstance(d, bool) else str(d)
            if d is not None:
                if d == 'null':
                    dkind = 'KD_NULL'
                elif is_array or kt in ('KT_STRUCT', 'KT_BYTES', 'KT_RECORDS', 'KT_UUID'):
                    dkind = 'KD_ZERO'
                elif kt == 'KT_BOOL':
                    dkind, dint = 'KD_INT', 1 if d == 'true' else 0
                elif kt == 'KT_STR':
                    dkind, dstr = 'KD_STR', c_str(d)
                elif kt == 'KT_F64':
                    if float(d) != 0.0:
                        raise SystemExit('%s.%s: a float default other than 0 is not supported' % (
                            msg['name'], f['name']))
                else:
                    dkind, dint = 'KD_INT', int(d, 0)
            none = (1, 0)
            rows.append('{%s, %s, %s, %d, %d, %d, %d, %d, %d, %d, %d, %d, %s, %d, %s, %s}' % (
                c_str(lower_first(f['name'])), kt, '|'.join(flags) or '0', c[0], c[1],
                (nl or none)[0], (nl or none)[1], (x or none)[0], (x or none)[1], (tg or none)[0], (tg or none)[1],
                int(f['tag']) if tagged else -1, dkind, dint, dstr, sub))
        if len(rows) > 32:
            raise SystemExit('%s: %d fields (the reader holds 32 a struct)' % (sname, len(rows)))
        tx = cond(flexible, possible)
        none = (1, 0)
        self.order.append('static const kfield %s_f[] = {\n    %s\n};\nstatic const kstruct %s = {%s, %s_f, %d, %d, %d};\n' % (
            cid, ',\n    '.join(rows) if rows else '{NULL, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, -1, KD_ZERO, 0, NULL, NULL}',
            cid, c_str(sname), cid, len(rows), (tx or none)[0], (tx or none)[1]))
        return cid

    def message(self, spec, type_name=None, api_key=-1):
        valid = versions(spec['validVersions'])
        common = {s['name']: s for s in spec.get('commonStructs', [])}
        sid = self.struct(spec, spec['name'], spec['fields'], valid, versions(spec.get('flexibleVersions')), common)
        mid = 'm_' + (re.sub(r'\W', '_', self.ns) + '_' if self.ns else '') + spec['name']
        layout, alt = 'NULL', 'NULL'
        if self.ns:
            layout = c_str(self.ns)
        elif spec['name'] in self.alts:
            layout, alt = c_str(self.primary_label), '&' + self.alts[spec['name']][1]
        self.order.append('static const kmsg %s = {%s, %s, %d, %d, %d, &%s, %s, %s};\n' % (
            mid, c_str(spec['name']), c_str(type_name) if type_name else 'NULL', api_key, valid[0], valid[1], sid,
            layout, alt))
        return mid


def enum_name(name):
    """CoordinatorRecordTypeGenerator / MetadataRecordTypeGenerator: the message's name (a key's without
    "Key") in snake case, upper case."""
    return snake_upper(name[:-3] if name.endswith('Key') else name)


def table(name, entries, size):
    rows = ['NULL'] * size
    for k, mid in entries:
        rows[k] = '&' + mid
    return 'static const kmsg *const %s[%d] = {%s};\n' % (name, size, ', '.join(rows))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('kafka', nargs='?')
    ap.add_argument('--rev')
    ap.add_argument('--schemas')
    ap.add_argument('--origin')
    ap.add_argument('--extra', action='append', default=[])
    ap.add_argument('--alt', action='append', default=[], metavar='LABEL=DIR')
    ap.add_argument('--primary-layout')
    ap.add_argument('-o', '--out', default='src/lib/decode/kafka_messages.c')
    ap.add_argument('--enum-out')
    a = ap.parse_args()
    if bool(a.kafka) == bool(a.schemas) or (a.schemas and not a.origin):
        ap.error('give KAFKA, or --schemas DIR with --origin TEXT')
    if a.alt and not a.primary_layout:
        ap.error('--alt needs --primary-layout')
    src = Source(a.kafka, a.rev, a.extra, a.schemas, a.origin)
    g = Gen()
    g.primary_label = a.primary_layout
    alt_used = []
    for spec_arg in a.alt:
        label, d = spec_arg.split('=', 1)
        for module in sorted(os.listdir(d)):
            md = os.path.join(d, module)
            if not os.path.isdir(md):
                continue
            for fn in sorted(os.listdir(md)):
                if not fn.endswith('.json'):
                    continue
                with open(os.path.join(md, fn), encoding='utf-8') as f:
                    spec = parse_json(f.read())
                g.ns = label
                g.alts[spec['name']] = (label, g.message(spec))
                g.ns = ''
                alt_used.append('%s/%s (%s)' % (module, fn, label))

    def keyed(module, names):
        """Coordinator records: the key's versions are the record types; XKey goes with XValue."""
        keys, vals = [], []
        for n in names:
            if not n.endswith('Key'):
                continue
            vname = n[:-3] + 'Value'
            if vname not in names:
                continue
            kspec, vspec = src.read(module, n), src.read(module, vname)
            if kspec.get('type') == 'coordinator-key':
                # Kafka 4.2: the record type is the apiKey of the key and of its value
                if vspec.get('type') != 'coordinator-value' or vspec.get('apiKey') != kspec.get('apiKey'):
                    raise SystemExit('%s: its value %s has another apiKey' % (n, vname))
                types = [kspec['apiKey']]
            else:
                kv = versions(kspec['validVersions'])
                types = list(range(kv[0], kv[1] + 1))
            km, vm = g.message(kspec), g.message(vspec)
            for t in types:
                keys.append((t, km))
                vals.append((t, vm))
                enums.append((module, t, enum_name(n)))
        return keys, vals

    out = []
    enums = []
    gk, gv = keyed('group-coordinator', src.listdir('group-coordinator'))
    sk, sv = keyed('share-coordinator', src.listdir('share-coordinator'))
    tk, tv = keyed('transaction-coordinator', TXN_FILES)
    meta = []
    for n in src.listdir('metadata'):
        spec = src.read('metadata', n)
        if spec.get('type') != 'metadata':
            continue
        meta.append((spec['apiKey'], g.message(spec, snake_upper(spec['name']), spec['apiKey'])))
        enums.append(('metadata', spec['apiKey'], snake_upper(spec['name'])))
    remote = []
    for n in STORAGE_FILES:
        spec = src.read('storage', n)
        remote.append((spec['apiKey'], g.message(spec, None, spec['apiKey'])))
        enums.append(('storage', spec['apiKey'], snake_upper(spec['name'])))
    clients = {n: g.message(src.read('clients', n)) for n in CLIENT_FILES}

    def size(entries):
        return max(k for k, _ in entries) + 1

    commit = src.commit()
    out.append('/* segscan - Kafka\'s message schemas as tables for the decoder (src/lib/decode/internal_topics.c).\n *\n')
    if a.schemas:
        out.append(' * GENERATED by tools/gen_kafka_messages.py from the message schemas of %s' % commit)
    else:
        out.append(' * GENERATED by tools/gen_kafka_messages.py from apache/kafka commit %s' % commit)
    if alt_used:
        out.append(',\n * with other layouts of one version (see the generator\'s --alt): %s' % ', '.join(alt_used))
    if src.used_extras:
        out.append(',\n * with these files taken from elsewhere (see the generator\'s --extra): %s' % ', '.join(
            sorted(set(src.used_extras))))
    out.append('.\n * Do not edit; run the generator again.\n */\n')
    out.append('#include <stddef.h>\n\n#include "kmsg.h"\n\n/* clang-format off */\n')
    out.extend(g.order)
    out.append('\n')
    out.append(table('group_keys', gk, size(gk)))
    out.append(table('group_values', gv, size(gv)))
    out.append(table('share_keys', sk, size(sk)))
    out.append(table('share_values', sv, size(sv)))
    out.append(table('txn_keys', tk, size(tk)))
    out.append(table('txn_values', tv, size(tv)))
    out.append(table('metadata_records', meta, size(meta)))
    out.append(table('remote_records', remote, size(remote)))
    out.append('''
#define LOOKUP(fn, t) \\
    const kmsg *fn(int k) { return k >= 0 && (size_t)k < sizeof(t) / sizeof(t[0]) ? t[k] : NULL; }
LOOKUP(kmsg_group_key, group_keys)
LOOKUP(kmsg_group_value, group_values)
LOOKUP(kmsg_share_key, share_keys)
LOOKUP(kmsg_share_value, share_values)
LOOKUP(kmsg_txn_key, txn_keys)
LOOKUP(kmsg_txn_value, txn_values)
LOOKUP(kmsg_metadata, metadata_records)
LOOKUP(kmsg_remote, remote_records)

''')
    for n in CLIENT_FILES:
        out.append('const kmsg *const kmsg_%s = &%s;\n' % (n, clients[n]))
    out.append('/* clang-format on */\n')
    text = ''.join(out)
    with open(a.out, 'w', encoding='utf-8') as f:
        f.write(text)
    print('wrote %s (%d structs)' % (a.out, len(g.structs)))
    if a.enum_out:
        write_enums(a.enum_out, enums, commit, a.schemas is not None)


ENUMS = [
    ('group-coordinator', 'ss_group_record_type', 'SS_GROUP_',
     '__consumer_offsets (GroupCoordinatorRecordType; types 9 and 18 only older Kafka 4.x wrote)'),
    ('share-coordinator', 'ss_share_record_type', 'SS_SHARE_', '__share_group_state (ShareCoordinatorRecordType)'),
    ('transaction-coordinator', 'ss_txn_record_type', 'SS_TXN_',
     '__transaction_state (TransactionCoordinatorRecordType)'),
    ('metadata', 'ss_metadata_record_type', 'SS_MD_', '__cluster_metadata (MetadataRecordType)'),
    ('storage', 'ss_remote_record_type', 'SS_RLM_', '__remote_log_metadata (the records\' apiKey)'),
]


def write_enums(path, enums, commit, schemas):
    out = ['/* segscan - the record types of Kafka\'s internal topics, by Kafka\'s names.\n *\n',
           ' * GENERATED by tools/gen_kafka_messages.py from %s%s.\n' % (
               'the message schemas of ' if schemas else 'apache/kafka commit ', commit),
           ' * Do not edit; run the generator again.\n */\n',
           '#ifndef SEGSCAN_KAFKA_RECORDS_H\n#define SEGSCAN_KAFKA_RECORDS_H\n']
    for module, ename, prefix, what in ENUMS:
        rows = sorted(set((t, n) for m, t, n in enums if m == module))
        out.append('\n/* %s */\nenum %s {\n' % (what, ename))
        for t, n in rows:
            out.append('    %s%s = %d,\n' % (prefix, n, t))
        out.append('};\n')
    out.append('\n#endif\n')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(''.join(out))
    print('wrote %s' % path)


if __name__ == '__main__':
    main()
