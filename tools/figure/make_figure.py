#!/usr/bin/env python3
"""Writes the animated character and the poncho of the scene 'poncho' (seed 001 fig. 6.19).

The character is a low-polygon figure (torso, neck, head, arms, legs: closed surfaces, each part
moved rigidly) walking in place and lifting its arms, as an OBJ frame sequence with one topology:
scenes/meshes/figure/figure_00.obj ... figure_11.obj, one loop of 2 s at 6 frames per second (Weft
interpolates between frames). The poncho is a square cloth with a hole for the head:
scenes/meshes/poncho.obj. Run from the repository root: python3 tools/figure/make_figure.py
"""
import math
import os

FRAMES = 12
PERIOD = 2.0  # s, one loop
OUT = os.path.join("scenes", "meshes")


def rot_x(a):
    c, s = math.cos(a), math.sin(a)
    return ((1, 0, 0), (0, c, -s), (0, s, c))


def rot_y(a):
    c, s = math.cos(a), math.sin(a)
    return ((c, 0, s), (0, 1, 0), (-s, 0, c))


def rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return ((c, -s, 0), (s, c, 0), (0, 0, 1))


def apply(m, p):
    return tuple(m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] for r in range(3))


def ellipsoid(center, axes, around, rings):
    """A closed ellipsoid: poles plus rings, triangles wound outwards."""
    v = [(0.0, axes[1], 0.0)]
    for k in range(1, rings):
        th = math.pi * k / rings
        for j in range(around):
            ph = 2 * math.pi * j / around
            v.append((axes[0] * math.sin(th) * math.cos(ph), axes[1] * math.cos(th),
                      axes[2] * math.sin(th) * math.sin(ph)))
    v.append((0.0, -axes[1], 0.0))
    return [(p[0] + center[0], p[1] + center[1], p[2] + center[2]) for p in v], closed_faces(around, rings - 1)


def tube(length, radius, around, rings):
    """A capped tube along -y from the origin (a limb hanging from its joint), closed at both ends."""
    v = [(0.0, radius * 0.5, 0.0)]
    for k in range(rings):
        y = -length * k / (rings - 1)
        for j in range(around):
            ph = 2 * math.pi * j / around
            v.append((radius * math.cos(ph), y, radius * math.sin(ph)))
    v.append((0.0, -length - radius * 0.5, 0.0))
    return v, closed_faces(around, rings)


def closed_faces(around, rings):
    """Triangles of a top point, `rings` rings of `around` vertices, a bottom point (0-based)."""
    f = []
    for j in range(around):
        f.append((0, 1 + (j + 1) % around, 1 + j))
    for k in range(rings - 1):
        a = 1 + k * around
        b = a + around
        for j in range(around):
            j1 = (j + 1) % around
            f.append((a + j, a + j1, b + j1))
            f.append((a + j, b + j1, b + j))
    last = 1 + (rings - 1) * around
    bottom = last + around
    for j in range(around):
        f.append((bottom, last + j, last + (j + 1) % around))
    return f


def figure(t):
    """The figure's parts at time t (s): list of (vertices, faces)."""
    phase = 2 * math.pi * t / PERIOD
    twist = math.radians(10) * math.sin(phase)            # the torso turns a little
    lift = math.radians(20 + 25 * (1 - math.cos(phase)))  # arms from 20 to 70 degrees off the body
    swing = math.radians(18) * math.sin(phase)            # walking in place
    body = rot_y(twist)
    parts = []
    torso, tf = ellipsoid((0, 0, 0), (0.21, 0.34, 0.12), 12, 8)
    parts.append(([apply(body, p) for p in torso], tf, (0, 1.16, 0)))
    neck, nf = tube(0.1, 0.05, 8, 2)
    parts.append(([apply(body, (p[0], p[1] + 1.58, p[2])) for p in neck], nf, (0, 0, 0)))
    head, hf = ellipsoid((0, 1.66, 0), (0.1, 0.12, 0.1), 10, 6)
    parts.append(([apply(body, p) for p in head], hf, (0, 0, 0)))
    for side in (-1, 1):
        arm, af = tube(0.6, 0.05, 8, 4)
        shoulder = apply(body, (side * 0.2, 1.40, 0))
        m = rot_z(side * lift)  # abduction: the hand goes out sideways, +x for the right-hand side
        parts.append(([apply(body, apply(m, p)) for p in arm], af, shoulder))
        leg, lf = tube(0.82, 0.07, 8, 4)
        hip = (side * 0.1, 0.9, 0)
        m = rot_x(side * swing)
        parts.append(([apply(m, p) for p in leg], lf, hip))
    return parts


def write_figure(path, t, k):
    lines = ["# the character of the scene 'poncho' (seed 001 fig. 6.19): frame %d of %d, t = %.3f s,"
             % (k, FRAMES, t),
             "# made by tools/figure/make_figure.py"]
    faces = []
    base = 1
    for verts, f, offset in figure(t):
        for p in verts:
            lines.append("v %.4f %.4f %.4f" % (p[0] + offset[0], p[1] + offset[1], p[2] + offset[2]))
        faces.extend((a + base, b + base, c + base) for a, b, c in f)
        base += len(verts)
    lines.extend("f %d %d %d" % face for face in faces)
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def write_poncho(path, size=1.2, cells=24, hole=0.12, height=1.56):
    """A square of size x size m in y = height, centred on the neck, without the vertices inside the hole."""
    index = {}
    lines = ["# the poncho of the scene 'poncho': a %.1f m square cloth with a %.2f m hole for the head,"
             % (size, hole), "# made by tools/figure/make_figure.py"]
    for r in range(cells + 1):
        for c in range(cells + 1):
            x = -size / 2 + size * c / cells
            z = -size / 2 + size * r / cells
            if math.hypot(x, z) < hole:
                continue
            index[(r, c)] = len(index) + 1
            lines.append("v %.4f %.4f %.4f" % (x, height, z))
    for r in range(cells):
        for c in range(cells):
            q = [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)]
            # alternate the diagonal so the cloth has no preferred fold direction
            tris = ((q[0], q[1], q[2]), (q[0], q[2], q[3])) if (r + c) % 2 == 0 else (
                (q[0], q[1], q[3]), (q[1], q[2], q[3]))
            for tri in tris:
                if all(p in index for p in tri):
                    lines.append("f %d %d %d" % tuple(index[p] for p in tri))
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def main():
    os.makedirs(os.path.join(OUT, "figure"), exist_ok=True)
    for k in range(FRAMES):
        write_figure(os.path.join(OUT, "figure", "figure_%02d.obj" % k), PERIOD * k / FRAMES, k)
    write_poncho(os.path.join(OUT, "poncho.obj"))


if __name__ == "__main__":
    main()
