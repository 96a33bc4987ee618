package dev.weft.core.collide;

import dev.weft.core.mesh.TriangleMesh;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Test geometry: a subdivided icosahedron projected onto a sphere, counter-clockwise from outside. */
public final class Icosphere {
    private Icosphere() {
    }

    public static TriangleMesh of(float radius, int subdivisions) {
        double t = (1 + Math.sqrt(5)) / 2;
        List<double[]> v = new ArrayList<>();
        double[][] base = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t}, {0, -1, -t},
            {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
        for (double[] p : base) {
            v.add(unit(p));
        }
        int[] f = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
            3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
        for (int s = 0; s < subdivisions; s++) {
            Map<Long, Integer> mid = new HashMap<>();
            int[] next = new int[f.length * 4];
            int o = 0;
            for (int i = 0; i < f.length; i += 3) {
                int a = f[i];
                int b = f[i + 1];
                int c = f[i + 2];
                int ab = midpoint(v, mid, a, b);
                int bc = midpoint(v, mid, b, c);
                int ca = midpoint(v, mid, c, a);
                int[] tri = {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca};
                System.arraycopy(tri, 0, next, o, 12);
                o += 12;
            }
            f = next;
        }
        float[] pos = new float[3 * v.size()];
        for (int i = 0; i < v.size(); i++) {
            for (int k = 0; k < 3; k++) {
                pos[3 * i + k] = (float) (radius * v.get(i)[k]);
            }
        }
        return new TriangleMesh(pos, null, f);
    }

    private static int midpoint(List<double[]> v, Map<Long, Integer> mid, int a, int b) {
        long key = (long) Math.min(a, b) << 32 | Math.max(a, b);
        Integer known = mid.get(key);
        if (known != null) {
            return known;
        }
        double[] p = v.get(a);
        double[] q = v.get(b);
        v.add(unit(new double[] {p[0] + q[0], p[1] + q[1], p[2] + q[2]}));
        mid.put(key, v.size() - 1);
        return v.size() - 1;
    }

    private static double[] unit(double[] p) {
        double len = Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        return new double[] {p[0] / len, p[1] / len, p[2] / len};
    }
}
