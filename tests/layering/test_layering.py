#!/usr/bin/env python3
"""The library's rooms and their order, and no circles between translation units.

Usage:
  test_layering.py check --rooms SPEC... --lib-root DIR --lib-objdir DIR --lib-sources FILE...
                   --cli-objdir DIR --cli-sources FILE... --exports LIBSEGSCAN_SO
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
  * the CLI takes from the library only what libsegscan.so exports (the public API).
From the sources (what nm cannot see: inline functions, macros, types):
  * a library file includes private headers ("ROOM/x.h") and public ones ("segscan/x.h") of its own
    room and the rooms below only, and never the umbrella segscan/segscan.h.
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


def check_symbols(lib_objs, rooms, cli_objs=None, exported=None):
    """lib_objs, cli_objs: {unit: (defined, undefined)}; units of the library are 'ROOM/file.c'."""
    problems = []
    below = closure(rooms)
    for u in sorted(lib_objs):
        if room_of(u) not in rooms:
            problems.append('%s: in no registered room (add it to lib_rooms in src/lib/meson.build)' % u)
    g, owner = tu_graph(lib_objs)
    for u in sorted(g):
        ru = room_of(u)
        if ru not in rooms:
            continue
        for v, syms in sorted(g[u].items()):
            rv = room_of(v)
            if rv != ru and rv not in below[ru]:
                where = 'above' if ru in below.get(rv, set()) else 'beside'
                problems.append('%s (room %s) uses %s from %s: room %s is %s it, not below'
                                % (u, ru, ', '.join(syms[:4]) + (', ...' if len(syms) > 4 else ''), v, rv, where, ))
    for comp in cycles(g):
        problems.append('a loop between the library\'s translation units (%s): %s' % (', '.join(comp), cycle_path(g, comp)))
    if cli_objs is not None:
        cg, _ = tu_graph(cli_objs)
        for comp in cycles(cg):
            problems.append('a loop between the CLI\'s translation units (%s): %s' % (', '.join(comp), cycle_path(cg, comp)))
        for u, (_, und) in sorted(cli_objs.items()):
            private = sorted(s for s in und if s in owner and s not in exported)
            if private:
                problems.append('CLI %s uses what libsegscan does not export: %s' % (u, ', '.join(private)))
    return problems


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def check_includes(files, rooms, headers):
    """files: {path relative to src/lib: text}."""
    problems = []
    below = closure(rooms)
    for path, text in sorted(files.items()):
        ru = room_of(path)
        if ru not in rooms:
            problems.append('%s: in no registered room' % path)
            continue
        for inc in INCLUDE.findall(re.sub(r'/\*.*?\*/', '', text, flags=re.S)):
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
    ap.add_argument('--cli-root', required=True)
    ap.add_argument('--cli-objdir', required=True)
    ap.add_argument('--cli-sources', nargs='+', required=True)
    ap.add_argument('--exports', required=True)
    a = ap.parse_args(argv[1:])
    rooms, headers = parse_rooms(a.rooms)
    lib = load_objs(a.lib_sources, a.lib_root, a.lib_objdir)
    cli = load_objs(a.cli_sources, a.cli_root, a.cli_objdir)
    exported = nm_symbols(a.exports)[0]
    problems = check_symbols(lib, rooms, cli, exported)
    files = {}
    for dirpath, _, names in os.walk(a.lib_root):
        for n in names:
            if n.endswith(('.c', '.h')):
                p = os.path.join(dirpath, n)
                with open(p, encoding='utf-8') as f:
                    files[os.path.relpath(p, a.lib_root)] = f.read()
    problems += check_includes(files, rooms, headers)
    for p in problems:
        print('FAIL: ' + p)
    if not problems:
        print('test_layering: ok (%d rooms, %d library and %d CLI translation units, no loop)'
              % (len(rooms), len(lib), len(cli)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
