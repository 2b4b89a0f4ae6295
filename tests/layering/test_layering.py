#!/usr/bin/env python3
"""The library's rooms and their order, and no circles between translation units.

Usage:
  test_layering.py check --rooms SPEC... --lib-root DIR --lib-objdir DIR --lib-sources FILE...
                   --cli-rooms SPEC... --cli-root DIR --cli-objdir DIR --cli-sources FILE...
                   --exports LIBSEGSCAN_SO
  test_layering.py selftest

The rooms (src/lib/meson.build's lib_rooms) are given lower first, each as
'ROOM: BELOW... | HEADER...': the rooms it builds on (their own lower rooms follow, so naming the
room just below is enough) and its public headers (include/segscan/). A room uses only itself and
the rooms below it. From `nm` over the objects (static libraries are linked in a group, so a
reverse call is no link error, hence this test):
  * every library object belongs to a room (src/lib/ROOM/...), and every global symbol it takes
    from another object is defined in its own room or in a room below it;
  * no loop between translation units: not in the library (A calls B calls ... calls A, whatever
    the rooms), not in the CLI;
  * the CLI takes from the library only what libsegscan.so exports (the public API);
  * the CLI's rooms (src/cli/meson.build's cli_rooms, given as --cli-rooms in the same form, without
    headers) hold every CLI object but main.c, which dispatches to them all from the top, and each
    uses only itself and the CLI rooms below it.
From the sources (what nm cannot see: inline functions, macros, types):
  * a library file includes private headers ("ROOM/x.h") and public ones ("segscan/x.h") of its own
    room and the rooms below only, and never the umbrella segscan/segscan.h;
  * a CLI file includes the headers ("ROOM/x.h") of its own CLI room and the rooms below only.
selftest: the checks run over planted graphs and includes, a clean one and one fault of each kind.
Exit status 0 when everything holds, 1 when something does not, 2 on a usage error.
"""

import argparse
import os
import re
import subprocess
import sys


def parse_rooms(specs):
    """'ROOM: A B | h1.h h2.h' -> ordered {room: set(direct lower)}, {header: room}."""
    rooms, headers = {}, {}
    for spec in specs:
        m = re.match(r'^\s*([a-z0-9]+)\s*:([^|]*)(?:\|(.*))?$', spec)
        if not m:
            raise ValueError('bad room spec: %r' % spec)
        name, below, hdrs = m.group(1), m.group(2).split(), (m.group(3) or '').split()
        for b in below:
            if b not in rooms:
                raise ValueError('room %s builds on %s, which is not listed before it' % (name, b))
        if name in rooms:
            raise ValueError('room %s listed twice' % name)
        rooms[name] = set(below)
        for h in hdrs:
            headers[h] = name
    return rooms, headers


def closure(rooms):
    """room -> every room below it (transitively)."""
    out = {}
    for r in rooms:  # listed lower first, so the rooms below are done
        s = set()
        for b in rooms[r]:
            s |= {b} | out[b]
        out[r] = s
    return out


def nm_symbols(obj):
    """(defined globals, undefined) of an object file."""
    text = subprocess.run(['nm', '-P', obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind in ('U', 'w'):
            undefined.add(name)
        elif kind.isupper():
            defined.add(name)
    return defined, undefined


def tu_graph(objs):
    """objs: {unit: (defined, undefined)} -> {unit: {other unit: [symbols]}}."""
    owner = {}
    for u, (d, _) in objs.items():
        for s in d:
            owner.setdefault(s, u)
    g = {u: {} for u in objs}
    for u, (_, und) in objs.items():
        for s in sorted(und):
            v = owner.get(s)
            if v is not None and v != u:
                g[u].setdefault(v, []).append(s)
    return g, owner


def cycles(g):
    """Strongly connected components of more than one unit (Tarjan), each as a sorted list."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def cycle_path(g, comp):
    """One loop through a component, as 'a -> b (sym) -> ... -> a'."""
    start = comp[0]
    members = set(comp)
    # breadth-first from start back to start
    prev, frontier, seen = {}, [start], {start}
    while frontier:
        nxt = []
        for u in frontier:
            for v in sorted(g[u]):
                if v == start:
                    path = [u]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    path.reverse()
                    hops = path + [start]
                    return ' -> '.join('%s%s' % (hops[i], ' (%s)' % g[hops[i]][hops[i + 1]][0] if i + 1 < len(hops) else '')
                                       for i in range(len(hops)))
                if v in members and v not in seen:
                    seen.add(v)
                    prev[v] = u
                    nxt.append(v)
        frontier = nxt
    return ' -> '.join(comp)


def room_of(unit):
    return unit.split('/', 1)[0] if '/' in unit else None


def room_calls(g, rooms, registry, top=()):
    """Every unit of graph g in a room of rooms (units in top stand above them all) and calling only
    into its own room or the rooms below."""
    problems = []
    below = closure(rooms)
    for u in sorted(g):
        if u not in top and room_of(u) not in rooms:
            problems.append('%s: in no registered room (add it to %s)' % (u, registry))
    for u in sorted(g):
        ru = room_of(u)
        if ru not in rooms:
            continue
        for v, syms in sorted(g[u].items()):
            rv = room_of(v)
            if rv != ru and rv not in below[ru]:
                where = 'above' if rv is None or ru in below.get(rv, set()) else 'beside'
                problems.append('%s (room %s) uses %s from %s: %s is %s it, not below'
                                % (u, ru, ', '.join(syms[:4]) + (', ...' if len(syms) > 4 else ''), v,
                                   'room %s' % rv if rv else 'the top', where))
    return problems


def check_symbols(lib_objs, rooms, cli_objs=None, exported=None, cli_rooms=None):
    """lib_objs, cli_objs: {unit: (defined, undefined)}; units of the library are 'ROOM/file.c', the
    CLI's 'ROOM/file.c' too, but for main.c at the top (checked against cli_rooms when given)."""
    g, owner = tu_graph(lib_objs)
    problems = room_calls(g, rooms, 'lib_rooms in src/lib/meson.build')
    for comp in cycles(g):
        problems.append('a loop between the library\'s translation units (%s): %s' % (', '.join(comp), cycle_path(g, comp)))
    if cli_objs is not None:
        cg, _ = tu_graph(cli_objs)
        if cli_rooms is not None:
            problems += ['CLI ' + p for p in room_calls(cg, cli_rooms, 'cli_rooms in src/cli/meson.build', top=('main.c',))]
        for comp in cycles(cg):
            problems.append('a loop between the CLI\'s translation units (%s): %s' % (', '.join(comp), cycle_path(cg, comp)))
        for u, (_, und) in sorted(cli_objs.items()):
            private = sorted(s for s in und if s in owner and s not in exported)
            if private:
                problems.append('CLI %s uses what libsegscan does not export: %s' % (u, ', '.join(private)))
    return problems


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def check_includes(files, rooms, headers, top=()):
    """files: {path relative to src/lib (or src/cli): text}; files in top stand above every room."""
    problems = []
    below = closure(rooms)
    for path, text in sorted(files.items()):
        ru = room_of(path)
        if path in top:
            continue
        if ru not in rooms:
            problems.append('%s: in no registered room' % path)
            continue
        for inc in INCLUDE.findall(re.sub(r'/\*.*?\*/', '', text, flags=re.S)):
            if inc.startswith('segscan/') and headers is None:
                continue  # the CLI: the public API, any header
            if inc.startswith('segscan/'):
                h = inc[len('segscan/'):]
                if h == 'segscan.h':
                    problems.append('%s includes segscan/segscan.h (every room): include the headers of its rooms' % path)
                    continue
                rv = headers.get(h)
                if rv is None:
                    problems.append('%s includes %s, a public header of no registered room' % (path, inc))
                    continue
            elif '/' in inc:
                rv = inc.split('/', 1)[0]
                if rv not in rooms:
                    continue  # a header of the build (version.h) or of another tree
            else:
                continue
            if rv != ru and rv not in below[ru]:
                problems.append('%s (room %s) includes %s of room %s, which is not below it' % (path, ru, inc, rv))
    return problems


def read_sources(root):
    """{path relative to root: text} of every .c and .h under root."""
    files = {}
    for dirpath, _, names in os.walk(root):
        for n in names:
            if n.endswith(('.c', '.h')):
                p = os.path.join(dirpath, n)
                with open(p, encoding='utf-8') as f:
                    files[os.path.relpath(p, root)] = f.read()
    return files


def object_name(src, root):
    return os.path.relpath(src, root).replace(os.sep, '_') + '.o'


def load_objs(sources, root, objdir):
    objs = {}
    for s in sources:
        o = os.path.join(objdir, object_name(s, root))
        if not os.path.exists(o):
            raise FileNotFoundError('no object %s for %s' % (o, s))
        objs[os.path.relpath(s, root)] = nm_symbols(o)
    return objs


def selftest():
    failed = []
    rooms, headers = parse_rooms(['base: | base.h', 'format: base | segment.h', 'files: format | files.h',
                                  'analysis: files | analyze.h', 'verify: files | verify.h'])

    def objs(**units):
        return {re.sub(r'_c$', '.c', k.replace('__', '/')): (set(v[0]), set(v[1])) for k, v in units.items()}

    clean = objs(base__a_c=(['ss_a'], []), format__b_c=(['ss_b'], ['ss_a']), files__c_c=(['ss_c'], ['ss_b', 'ss_a']),
                 analysis__d_c=(['ss_d'], ['ss_c', 'ss_a']), verify__e_c=(['ss_e'], ['ss_c', 'malloc']))
    if check_symbols(clean, rooms):
        failed.append('a clean library is reported: %s' % check_symbols(clean, rooms))
    faults = {
        'a reverse call': dict(clean, **{'format/b.c': ({'ss_b'}, {'ss_a', 'ss_d'})}),
        'a call beside': dict(clean, **{'verify/e.c': ({'ss_e'}, {'ss_d'})}),
        'a loop inside a room': dict(clean, **{'base/x.c': ({'ss_x'}, {'ss_a'}), 'base/a.c': ({'ss_a'}, {'ss_x'})}),
        'an object in no room': dict(clean, **{'groups/g.c': ({'ss_g'}, {'ss_a'})}),
    }
    for what, o in faults.items():
        if not check_symbols(o, rooms):
            failed.append('not reported: ' + what)
    cli_loop = objs(main_c=(['main'], ['cmd_a']), cmd_a_c=(['cmd_a'], ['warn']), common_c=(['warn'], ['main']))
    if not any('CLI' in p for p in check_symbols(clean, rooms, cli_loop, {'ss_a'})):
        failed.append('not reported: a loop in the CLI')
    cli_rooms, _ = parse_rooms(['common:', 'views: common', 'commands: views'])
    cli_clean = objs(main_c=(['main'], ['cmd_a']), commands__a_c=(['cmd_a'], ['view', 'warn']),
                     views__v_c=(['view'], ['warn']), common__w_c=(['warn'], []))
    if check_symbols(clean, rooms, cli_clean, {'ss_a'}, cli_rooms):
        failed.append('a clean CLI is reported: %s' % check_symbols(clean, rooms, cli_clean, {'ss_a'}, cli_rooms))
    cli_faults = {
        'a reverse call in the CLI': dict(cli_clean, **{'common/w.c': ({'warn'}, {'view'})}),
        'a CLI object in no room': dict(cli_clean, **{'x.c': ({'x'}, {'warn'})}),
        'a CLI room calling main.c': dict(cli_clean, **{'views/v.c': ({'view'}, {'main'})}),
    }
    for what, o in cli_faults.items():
        if not any(p.startswith('CLI') for p in check_symbols(clean, rooms, o, {'ss_a'}, cli_rooms)):
            failed.append('not reported: ' + what)
    if not check_includes({'common/w.c': '#include "views/scan.h"\n'}, cli_rooms, None):
        failed.append('not reported: a CLI header of a room above')
    if check_includes({'main.c': '#include "commands/commands.h"\n', 'views/v.c': '#include "segscan/segscan.h"\n'},
                      cli_rooms, None, top=('main.c',)):
        failed.append('clean CLI includes are reported')
    cli_private = objs(main_c=(['main'], ['ss_b']))
    if not any('does not export' in p for p in check_symbols(clean, rooms, cli_private, {'ss_a'})):
        failed.append('not reported: the CLI using a private function')
    inc_clean = {'files/c.c': '#include "format/x.h"\n#include "segscan/segment.h"\n#include "version.h"\n'}
    if check_includes(inc_clean, rooms, headers):
        failed.append('clean includes are reported: %s' % check_includes(inc_clean, rooms, headers))
    for what, files in (('a private header of a room above', {'format/b.c': '#include "analysis/u.h"\n'}),
                        ('a public header of a room beside', {'verify/e.c': '#include "segscan/analyze.h"\n'}),
                        ('the umbrella header', {'files/c.c': '#include "segscan/segscan.h"\n'})):
        if not check_includes(files, rooms, headers):
            failed.append('not reported: ' + what)
    if check_includes({'format/b.c': '/* #include "analysis/u.h" */\n'}, rooms, headers):
        failed.append('an include in a comment is reported')
    try:
        parse_rooms(['format: base'])
        failed.append('a room building on an unlisted room is accepted')
    except ValueError:
        pass
    for f in failed:
        print('FAIL (selftest): ' + f)
    if not failed:
        print('test_layering selftest: ok')
    return 1 if failed else 0


def main(argv):
    if len(argv) == 2 and argv[1] == 'selftest':
        return selftest()
    ap = argparse.ArgumentParser()
    ap.add_argument('mode', choices=['check'])
    ap.add_argument('--rooms', nargs='+', required=True)
    ap.add_argument('--lib-root', required=True)
    ap.add_argument('--lib-objdir', required=True)
    ap.add_argument('--lib-sources', nargs='+', required=True)
    ap.add_argument('--cli-rooms', nargs='+', required=True)
    ap.add_argument('--cli-root', required=True)
    ap.add_argument('--cli-objdir', required=True)
    ap.add_argument('--cli-sources', nargs='+', required=True)
    ap.add_argument('--exports', required=True)
    a = ap.parse_args(argv[1:])
    rooms, headers = parse_rooms(a.rooms)
    lib = load_objs(a.lib_sources, a.lib_root, a.lib_objdir)
    cli = load_objs(a.cli_sources, a.cli_root, a.cli_objdir)
    exported = nm_symbols(a.exports)[0]
    cli_rooms, _ = parse_rooms(a.cli_rooms)
    problems = check_symbols(lib, rooms, cli, exported, cli_rooms)
    problems += check_includes(read_sources(a.lib_root), rooms, headers)
    problems += ['CLI ' + p for p in check_includes(read_sources(a.cli_root), cli_rooms, None, top=('main.c',))]
    for p in problems:
        print('FAIL: ' + p)
    if not problems:
        print('test_layering: ok (%d library rooms, %d CLI rooms, %d library and %d CLI translation units, no loop)'
              % (len(rooms), len(cli_rooms), len(lib), len(cli)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
