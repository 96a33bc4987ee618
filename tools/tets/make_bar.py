#!/usr/bin/env python3
"""Writes scenes/meshes/bar.node and bar.ele: a TetGen-format tetrahedral mesh of a rubber bar for the
scene rubber-tear (0.36 x 0.06 x 0.06 m, 12 x 2 x 2 cubes of 3 cm, six tetrahedra each, split as Weft's
TetBodySpec.box does), notched in the middle: the cube at x in [0, 0.03] on its lower front edge is left
out, so the bar breaks there (as a tensile test's notched specimen). Nodes are numbered from 1 along x
layer by layer: its left end's 9 nodes are 1..9 (indices 0..8 in a scene), its right end's the last 9."""
import os

NX, NY, NZ = 12, 2, 2
L, H, D = 0.36, 0.06, 0.06
ORDERS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
NOTCH = (6, 0, 0)


def node(i, j, k):
    return 1 + k + (NZ + 1) * (j + (NY + 1) * i)


def main():
    out = os.path.join(os.path.dirname(__file__), '..', '..', 'scenes', 'meshes')
    nodes = []
    for i in range(NX + 1):
        for j in range(NY + 1):
            for k in range(NZ + 1):
                nodes.append((L * (i / NX - 0.5), H * j / NY, D * (k / NZ - 0.5)))
    tets = []
    for k in range(NZ):
        for j in range(NY):
            for i in range(NX):
                if (i, j, k) == NOTCH:
                    continue
                start = [i + (i & 1), j + (j & 1), k + (k & 1)]
                step = [1 - 2 * (i & 1), 1 - 2 * (j & 1), 1 - 2 * (k & 1)]
                for order in ORDERS:
                    at = list(start)
                    corners = [node(*at)]
                    for axis in order:
                        at[axis] += step[axis]
                        corners.append(node(*at))
                    tets.append(corners)
    with open(os.path.join(out, 'bar.node'), 'w') as f:
        f.write('# notched bar: tools/tets/make_bar.py\n%d 3 0 0\n' % len(nodes))
        for n, (x, y, z) in enumerate(nodes, 1):
            f.write('%d %.6f %.6f %.6f\n' % (n, x, y, z))
    with open(os.path.join(out, 'bar.ele'), 'w') as f:
        f.write('# notched bar: tools/tets/make_bar.py\n%d 4 0\n' % len(tets))
        for n, t in enumerate(tets, 1):
            f.write('%d %d %d %d %d\n' % (n, *t))


if __name__ == '__main__':
    main()
