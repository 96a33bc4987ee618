#!/usr/bin/env python3
"""Writes scenes/meshes/head.obj: a simple closed head-like mesh for the scene 'monkey' (seed 001's
monkey head, made by the project): a unit-radius sphere (an icosahedron subdivided three times) pushed
out radially into two ears and a muzzle, so it stays one closed surface. Run from the repository root."""
import math

phi = (1 + 5 ** .5) / 2
verts = [(-1, phi, 0), (1, phi, 0), (-1, -phi, 0), (1, -phi, 0), (0, -1, phi), (0, 1, phi), (0, -1, -phi),
         (0, 1, -phi), (phi, 0, -1), (phi, 0, 1), (-phi, 0, -1), (-phi, 0, 1)]
verts = [tuple(c / math.sqrt(sum(x * x for x in p)) for c in p) for p in verts]
faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
         (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11),
         (6, 2, 10), (8, 6, 7), (9, 8, 1)]
for _ in range(3):
    mid = {}

    def m(a, b):
        k = (min(a, b), max(a, b))
        if k not in mid:
            p = [(verts[a][i] + verts[b][i]) / 2 for i in range(3)]
            n = math.sqrt(sum(x * x for x in p))
            verts.append(tuple(x / n for x in p))
            mid[k] = len(verts) - 1
        return mid[k]

    nf = []
    for a, b, c in faces:
        ab, bc, ca = m(a, b), m(b, c), m(c, a)
        nf += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
    faces = nf


def bump(p, axis, width, height):
    cos = sum(p[i] * axis[i] for i in range(3))
    angle = math.acos(max(-1.0, min(1.0, cos)))
    return height * math.exp(-(angle / width) ** 2)


def shape(p):
    n = math.sqrt(2) / 2
    r = 1.0
    r += bump(p, (n, n, 0), 0.35, 0.45)    # right ear, up and out
    r += bump(p, (-n, n, 0), 0.35, 0.45)   # left ear
    r += bump(p, (0, -0.45, 0.89), 0.55, 0.25)  # muzzle, forward and down
    r -= bump(p, (0, 0.3, 0.95), 0.25, 0.12)    # brow hollow above it
    return tuple(r * c for c in p)


with open("scenes/meshes/head.obj", "w") as f:
    f.write("# a head-like closed mesh (ears, muzzle) for the scene 'monkey': made by tools/head/make_head.py\n")
    for p in verts:
        f.write("v %.4f %.4f %.4f\n" % shape(p))
    for a, b, c in faces:
        f.write("f %d %d %d\n" % (a + 1, b + 1, c + 1))
