#!/usr/bin/env python3
"""Writes scenes/meshes/cushion.node and cushion.ele: a TetGen-format tetrahedral mesh of a cushion
(0.4 x 0.1 x 0.4 m, 8 x 2 x 8 cubes, six tetrahedra each, split as Weft's TetBodySpec.box does, with a
bulge: the top face's nodes rise towards the middle). Numbered from 1, as TetGen writes by default."""
import os

NX, NY, NZ = 8, 2, 8
W, H, D = 0.4, 0.1, 0.4
ORDERS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]


def node(i, j, k):
    return 1 + i + (NX + 1) * (j + (NY + 1) * k)


def main():
    out = os.path.join(os.path.dirname(__file__), '..', '..', 'scenes', 'meshes')
    nodes = []
    for k in range(NZ + 1):
        for j in range(NY + 1):
            for i in range(NX + 1):
                u = 2.0 * i / NX - 1.0
                w = 2.0 * k / NZ - 1.0
                bulge = 0.03 * (1 - u * u) * (1 - w * w) * j / NY
                nodes.append((W * (i / NX - 0.5), H * j / NY + bulge, D * (k / NZ - 0.5)))
    tets = []
    for k in range(NZ):
        for j in range(NY):
            for i in range(NX):
                start = [i + (i & 1), j + (j & 1), k + (k & 1)]
                step = [1 - 2 * (i & 1), 1 - 2 * (j & 1), 1 - 2 * (k & 1)]
                for order in ORDERS:
                    at = list(start)
                    corners = [node(*at)]
                    for axis in order:
                        at[axis] += step[axis]
                        corners.append(node(*at))
                    tets.append(corners)
    with open(os.path.join(out, 'cushion.node'), 'w') as f:
        f.write('# cushion: tools/tets/make_cushion.py\n%d 3 0 0\n' % len(nodes))
        for n, (x, y, z) in enumerate(nodes, 1):
            f.write('%d %.6f %.6f %.6f\n' % (n, x, y, z))
    with open(os.path.join(out, 'cushion.ele'), 'w') as f:
        f.write('# cushion: tools/tets/make_cushion.py\n%d 4 0\n' % len(tets))
        for n, t in enumerate(tets, 1):
            f.write('%d %d %d %d %d\n' % (n, *t))


if __name__ == '__main__':
    main()
