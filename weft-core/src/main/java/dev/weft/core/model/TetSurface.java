package dev.weft.core.model;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.IntList;
import java.util.HashMap;
import java.util.Map;

/** The boundary of a tetrahedral mesh: the faces that belong to one tetrahedron only, wound outwards. */
final class TetSurface {
    /** A positively oriented tetrahedron's four faces, each counter-clockwise seen from outside. */
    private static final int[][] FACES = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};

    private TetSurface() {
    }

    /**
     * @param tets four node indices per tetrahedron
     * @param x    the nodes' positions (to orient each tetrahedron)
     * @return local triangles, three node indices each
     */
    static int[] of(int[] tets, float[] x) {
        int n = x.length / 3;
        if (n >= (1 << 21)) {
            throw new InvalidInputException("tets", "a tetrahedral body holds at most " + ((1 << 21) - 1) + " nodes");
        }
        // face key (sorted nodes) → the oriented face, or null once a second tetrahedron shares it
        Map<Long, int[]> open = new HashMap<>();
        int[] t = new int[4];
        for (int c = 0; c < tets.length / 4; c++) {
            System.arraycopy(tets, 4 * c, t, 0, 4);
            if (orientation(x, t) < 0) {
                int swap = t[2];
                t[2] = t[3];
                t[3] = swap;
            }
            for (int[] f : FACES) {
                int[] face = {t[f[0]], t[f[1]], t[f[2]]};
                long key = key(face);
                if (open.containsKey(key)) {
                    open.put(key, null);
                } else {
                    open.put(key, face);
                }
            }
        }
        IntList out = new IntList();
        // in the order the tetrahedra name them, so the surface does not depend on hashing
        for (int c = 0; c < tets.length / 4; c++) {
            System.arraycopy(tets, 4 * c, t, 0, 4);
            for (int[] f : FACES) {
                int[] face = open.remove(key(new int[]{t[f[0]], t[f[1]], t[f[2]]}));
                if (face != null) {
                    out.add(face[0], face[1]);
                    out.add(face[2]);
                }
            }
        }
        return out.toArray();
    }

    private static double orientation(float[] x, int[] t) {
        double[] e = new double[9];
        for (int k = 0; k < 3; k++) {
            for (int d = 0; d < 3; d++) {
                e[3 * k + d] = (double) x[3 * t[k + 1] + d] - x[3 * t[0] + d];
            }
        }
        return e[0] * (e[4] * e[8] - e[5] * e[7]) - e[1] * (e[3] * e[8] - e[5] * e[6])
                + e[2] * (e[3] * e[7] - e[4] * e[6]);
    }

    private static long key(int[] face) {
        int a = Math.min(face[0], Math.min(face[1], face[2]));
        int c = Math.max(face[0], Math.max(face[1], face[2]));
        int b = face[0] + face[1] + face[2] - a - c;
        return ((long) a << 42) | ((long) b << 21) | c;
    }
}
