#!/usr/bin/env python3
"""The rooms of a part of the tree and its include circles.

    tests/lib/includes.py DIR

prints each folder of DIR with its C files and their lines, then every
include circle among DIR's modules (a .c file and the .h of the same name
are one module; an include names the file it resolves to from the
including file's folder, then from DIR), or "include circles: none".
Exits 1 when there is a circle: tests/guest/07-structure.t holds
bench/runner to none.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(top):
    for d, _, files in os.walk(top):
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                yield os.path.join(d, f)


def module(path):
    return os.path.splitext(path)[0]


def graph(top):
    edges = {}
    for path in sources(top):
        text = open(path, encoding='utf-8', errors='replace').read()
        me = module(path)
        edges.setdefault(me, set())
        for name in INCLUDE.findall(text):
            for base in (os.path.dirname(path), top):
                target = os.path.normpath(os.path.join(base, name))
                if os.path.exists(target):
                    if module(target) != me:
                        edges[me].add(module(target))
                    break
    return edges


def circles(edges):
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
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

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit('usage: tests/lib/includes.py DIR')
    top = os.path.normpath(sys.argv[1])
    rooms = {}
    for path in sources(top):
        rel = os.path.relpath(path, top)
        room = os.path.dirname(rel) or '.'
        n = sum(1 for _ in open(path, encoding='utf-8', errors='replace'))
        rooms.setdefault(room, []).append((os.path.basename(rel), n))
    for room in sorted(rooms):
        files = rooms[room]
        print('%s/ (%d files, %d lines): %s' % (room, len(files), sum(n for _, n in files),
                                                ' '.join(f for f, _ in files)))
    found = circles(graph(top))
    for c in found:
        print('include circle: ' + ' -> '.join(os.path.relpath(m, top) for m in c))
    if not found:
        print('include circles: none')
    sys.exit(1 if found else 0)


if __name__ == '__main__':
    main()
