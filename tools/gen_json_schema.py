#!/usr/bin/env python3
"""Write docs/segscan-output.schema.json, a standard JSON Schema (draft 2020-12) of segscan's
--json output, from docs/json-schema.json (the project's own description, which docs/json.md and
tests/schema/test_schema.py follow).

usage: tools/gen_json_schema.py [SOURCE [OUT]]    (defaults: docs/json-schema.json and
       docs/segscan-output.schema.json beside this script; OUT '-' writes to standard output)

The output is one self-contained file (no $ref outside it). Its root accepts any line segscan
writes with --json: one of the commands' definitions, $defs/command.<name>, each of which accepts
exactly the object types that command writes (the member "type" picks the object's definition).
A consumer that knows the command validates against {"$ref": ".../$defs/command.<name>"}.

How docs/json-schema.json's conventions become JSON Schema:
  - an object: "type": "object", its fields as "properties", the fields neither optional nor
    conditional in "required", "additionalProperties": false; a top-level object also has its
    member "type" (a string; the command's definition fixes its value);
  - a field with "presentIf" C: {"if": C, "then": {"required": [f]}, "else": {"properties":
    {f: false}}}; a condition on a member of the object that holds this one (^NAME) is put on
    the holder: for each field of the holder whose type reaches this shape, the same if/then/else
    is applied there (through arrays, null-or and maps);
  - a condition {"field": F, OP: V}: F required, and F's value const V (equals), not const V
    (notEquals), one of V (in), null or not (isNull), an integer >= V (atLeast); {"fileKind": K}:
    the member "file" by its name's suffix, as conventions.variants defines the kinds;
  - variants: if/then/else in their order, a variant without "when" the last else; no variant
    fitting is rejected;
  - types: integer, string, boolean, object; null-or-T ({"anyOf": [null, T]}), array-of-T,
    pair-of-T (an array of exactly two), map-of-T ("additionalProperties": T, "propertyNames"
    from "keys"), #name ($ref to $defs/shape.name: a shape, or an object without its
    "type"); "enum" and "const" apply to T inside.
Python 3 standard library only.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIALECT = 'https://json-schema.org/draft/2020-12/schema'
SCHEMA_ID = 'https://segscan.invalid/docs/segscan-output.schema.json'

TEXT_FILES = ('leader-epoch-checkpoint', 'partition.metadata', 'quorum-state', 'recovery-point-offset-checkpoint',
              'replication-offset-checkpoint', 'log-start-offset-checkpoint', 'cleaner-offset-checkpoint',
              'meta.properties', '.kafka_cleanshutdown')
SUFFIX_KINDS = ('index', 'timeindex', 'txnindex', 'snapshot')


def regex_escape(s):
    return ''.join('\\' + c if c in '.^$*+?()[]{}|\\/' else c for c in s)


def file_pattern(kind):
    if kind in SUFFIX_KINDS:
        return '\\.%s$' % kind
    if kind == 'text':
        return '(^|/)(%s)$' % '|'.join(regex_escape(n) for n in TEXT_FILES)
    raise ValueError('unknown file kind %r' % kind)


def file_is(kind):
    """The member "file" is of this kind (conventions.variants): a suffix first, then a text
    file's name; 'log' is anything else, an absent or non-string "file" included."""
    if kind == 'log':
        return {'not': {'anyOf': [file_is(k) for k in SUFFIX_KINDS + ('text',)]}}
    if kind == 'text':  # a name like "x.index" is an index even if it ended a text file's name
        return {'allOf': [{'required': ['file'], 'properties': {'file': {'type': 'string',
                                                                           'pattern': file_pattern('text')}}},
                          {'not': {'anyOf': [file_is(k) for k in SUFFIX_KINDS]}}]}
    return {'required': ['file'], 'properties': {'file': {'type': 'string', 'pattern': file_pattern(kind)}}}


def condition(cond):
    """conventions.conditions as a schema over the object the member is in (not ^NAME)."""
    if 'fileKind' in cond:
        kinds = cond['fileKind']
        return file_is(kinds[0]) if len(kinds) == 1 else {'anyOf': [file_is(k) for k in kinds]}
    name = cond['field']
    if name.startswith('^'):
        raise ValueError('a condition on the holder (%r) here cannot be expressed' % name)
    ops = [k for k in cond if k != 'field']
    if len(ops) != 1:
        raise ValueError('a condition takes one operator: %r' % cond)
    op, v = ops[0], cond[ops[0]]
    if op == 'equals':
        value = {'const': v}
    elif op == 'notEquals':
        value = {'not': {'const': v}}
    elif op == 'in':
        value = {'enum': v}
    elif op == 'isNull':
        value = {'type': 'null'} if v else {'not': {'type': 'null'}}
    elif op == 'atLeast':
        value = {'type': 'integer', 'minimum': v}
    else:
        raise ValueError('unknown condition operator %r' % op)
    return {'required': [name], 'properties': {name: value}}


def present_if(name, cond):
    return {'if': condition(cond), 'then': {'required': [name]}, 'else': {'properties': {name: False}}}


def value_type(t, spec):
    """The schema of a value of type t (conventions.types); enum/const/keys from spec."""
    if t.startswith('null-or-'):
        return {'anyOf': [{'type': 'null'}, value_type(t[len('null-or-'):], spec)]}
    if t.startswith('array-of-'):
        return {'type': 'array', 'items': value_type(t[len('array-of-'):], spec)}
    if t.startswith('pair-of-'):
        return {'type': 'array', 'items': value_type(t[len('pair-of-'):], spec), 'minItems': 2, 'maxItems': 2}
    if t.startswith('map-of-'):
        s = {'type': 'object', 'additionalProperties': value_type(t[len('map-of-'):], {})}
        if 'keys' in spec:
            s['propertyNames'] = {'enum': spec['keys']}
        return s
    if t.startswith('#'):
        return {'$ref': '#/$defs/shape.%s' % t[1:]}
    if t not in ('integer', 'string', 'boolean', 'object'):
        raise ValueError('unknown type %r' % t)
    s = {'type': t}
    if 'enum' in spec:
        s['enum'] = spec['enum']
    if 'const' in spec:
        s['const'] = spec['const']
    return s


def reach(t, inner):
    """A schema that applies `inner` to the values of shape type t inside a value of type t
    (through null-or, arrays, pairs and maps); keywords that ignore other JSON types keep it
    lenient where the value is null."""
    if t.startswith('null-or-'):
        return reach(t[len('null-or-'):], inner)
    if t.startswith('array-of-') or t.startswith('pair-of-'):
        return {'items': reach(t.split('-of-', 1)[1], inner)}
    if t.startswith('map-of-'):
        return {'additionalProperties': reach(t[len('map-of-'):], inner)}
    return inner


def shape_of(t):
    """The shape name a field's type leads to (#name inside any wrapping), or None."""
    while '-of-' in t and not t.startswith('#'):
        t = t.split('-of-', 1)[1]
    return t[1:] if t.startswith('#') else None


class Gen:
    def __init__(self, src):
        self.src = src
        self.defs = {}

    def definition(self, name):
        o = self.src['objects'].get(name)
        return o if o is not None else self.src['shapes'][name]

    def holder_conditions(self, shape):
        """The (field, condition on the holder) pairs of a shape, from all its variants."""
        out = []
        defn = self.definition(shape)
        for v in defn.get('variants') or [defn]:
            for f, spec in v['fields'].items():
                c = spec.get('presentIf')
                if c and c.get('field', '').startswith('^') and (f, c) not in out:
                    out.append((f, c))
        return out

    def fields_schema(self, fields, top, about=None):
        s = {'type': 'object'}
        if about:
            s['description'] = about
        props = {}
        required = ['type'] if top else []
        conds = []
        for name, spec in fields.items():
            p = value_type(spec['type'], spec)
            if spec.get('when') or spec.get('about'):
                p = dict(p, description=spec.get('when') or spec.get('about'))
            props[name] = p
            c = spec.get('presentIf')
            if c is not None:
                if not c.get('field', '').startswith('^'):
                    conds.append(present_if(name, c))
            elif not spec.get('optional'):
                required.append(name)
            shape = shape_of(spec['type'])
            if shape:  # the shape's fields present by a condition on this object
                for f, hc in self.holder_conditions(shape):
                    local = dict(hc, field=hc['field'][1:])
                    conds.append({'if': condition(local),
                                  'then': {'properties': {name: reach(spec['type'], {'required': [f]})}},
                                  'else': {'properties': {name: reach(spec['type'], {'properties': {f: False}})}}})
        if top:
            props = dict({'type': {'type': 'string'}}, **props)
        s['properties'] = props
        s['required'] = required
        s['additionalProperties'] = False
        if conds:
            s['allOf'] = conds
        return s

    def object_schema(self, name, top):
        defn = self.definition(name)
        about = defn.get('about')
        if 'variants' not in defn:
            return self.fields_schema(defn['fields'], top, about)
        chain = False  # no variant fits: rejected
        for v in reversed(defn['variants']):
            vs = self.fields_schema(v['fields'], top, 'variant %s' % v['name'])
            chain = vs if 'when' not in v or v['when'] is None else {'if': condition(v['when']), 'then': vs,
                                                                    'else': chain}
        s = {'description': about} if about else {}
        s.update(chain if isinstance(chain, dict) else {'not': {}})
        return s

    def referenced(self):
        """The definitions named by a member's type (#name)."""
        names = set()
        for defn in list(self.src['objects'].values()) + list(self.src['shapes'].values()):
            for v in defn.get('variants') or [defn]:
                for spec in v['fields'].values():
                    n = shape_of(spec['type'])
                    if n:
                        names.add(n)
        return names

    def run(self):
        src = self.src
        for name in src['objects']:
            self.defs['object.' + name] = self.object_schema(name, top=True)
        # the shapes, and the objects that are also a member's type (#name: without "type")
        for name in list(src['shapes']) + [n for n in src['objects'] if n in self.referenced()]:
            self.defs['shape.' + name] = self.object_schema(name, top=False)
        commands = {}
        for cmd, types in src['commands'].items():
            commands['command.' + cmd] = {
                'description': 'A line of segscan %s --json' % cmd,
                'type': 'object',
                'required': ['type'],
                'properties': {'type': {'enum': list(types)}},
                'allOf': [{'if': {'properties': {'type': {'const': t}}},
                           'then': {'$ref': '#/$defs/object.%s' % obj}} for t, obj in types.items()],
            }
        defs = dict(commands)
        defs.update(self.defs)
        return {
            '$schema': DIALECT,
            '$id': SCHEMA_ID,
            'title': src.get('title', 'segscan --json output'),
            'description': ('Generated by tools/gen_json_schema.py from docs/json-schema.json (schemaVersion %d): '
                            'do not edit. One line of segscan --json output; $defs/command.<name> is a line of that '
                            'command. %s' % (src['schemaVersion'], src.get('about', ''))),
            'x-segscan-schemaVersion': src['schemaVersion'],
            'anyOf': [{'$ref': '#/$defs/' + c} for c in commands],
            '$defs': defs,
        }


def generate(src):
    return json.dumps(Gen(src).run(), indent=1, ensure_ascii=False) + '\n'


def main(argv):
    source = argv[1] if len(argv) > 1 else os.path.join(HERE, '..', 'docs', 'json-schema.json')
    out = argv[2] if len(argv) > 2 else os.path.join(HERE, '..', 'docs', 'segscan-output.schema.json')
    with open(source, encoding='utf-8') as f:
        text = generate(json.load(f))
    if out == '-':
        sys.stdout.write(text)
    else:
        with open(out, 'w', encoding='utf-8') as f:
            f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
