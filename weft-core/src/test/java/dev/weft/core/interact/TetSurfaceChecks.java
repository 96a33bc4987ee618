package dev.weft.core.interact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a tetrahedral body's surface must be after any splits: exactly the faces that belong to one of its
 * tetrahedra only, each wound outwards (the boundary of the torn solid, computed here afresh from the
 * tetrahedra), which makes it closed: every directed edge is matched by its reverse.
 */
public final class TetSurfaceChecks {
    /** A positively oriented tetrahedron's faces, counter-clockwise from outside. */
    private static final int[][] FACES = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};

    private TetSurfaceChecks() {
    }

    /** Asserts every tetrahedral body's triangles are its tetrahedra's boundary, closed. */
    public static void assertBoundaryOfTets(Model m) {
        int[] tets = m.tets().particles();
        for (int o = 0; o < m.objects().size(); o++) {
            ModelObject body = m.objects().get(o);
            if (body.type() != ModelObject.Type.TET_BODY) {
                continue;
            }
            Map<String, Integer> boundary = new HashMap<>();
            Map<String, String> oriented = new HashMap<>();
            for (int c = 0; c < tets.length / 4; c++) {
                if (m.objectOf(tets[4 * c]) != o) {
                    continue;
                }
                for (int[] f : FACES) {
                    int[] face = {tets[4 * c + f[0]], tets[4 * c + f[1]], tets[4 * c + f[2]]};
                    String key = unordered(face);
                    boundary.merge(key, 1, Integer::sum);
                    oriented.put(key, rotated(face));
                }
            }
            List<String> expected = new ArrayList<>();
            boundary.forEach((k, n) -> {
                assertThat(n).as("face %s is on at most two tetrahedra", k).isLessThanOrEqualTo(2);
                if (n == 1) {
                    expected.add(oriented.get(k));
                }
            });
            int[] t = m.triangles();
            List<String> actual = new ArrayList<>();
            Map<Long, Integer> directed = new HashMap<>();
            for (int k = body.firstTriangle(); k < body.firstTriangle() + body.triangleCount(); k++) {
                int[] face = {t[3 * k], t[3 * k + 1], t[3 * k + 2]};
                actual.add(rotated(face));
                for (int e = 0; e < 3; e++) {
                    directed.merge(edge(face[e], face[(e + 1) % 3]), 1, Integer::sum);
                }
            }
            assertThat(actual).as("%s's triangles are its tetrahedra's boundary", body.name())
                    .containsExactlyInAnyOrderElementsOf(expected);
            directed.forEach((e, n) -> assertThat(directed.getOrDefault(edge((int) (e & 0xffffffffL),
                    (int) (e >>> 32)), 0)).as("edge %s matched by its reverse", Long.toHexString(e)).isEqualTo(n));
        }
    }

    /** How many undirected edges of body o's triangles lie on other than two triangles (0: a manifold). */
    public static int nonManifoldEdges(Model m, int o) {
        ModelObject body = m.objects().get(o);
        int[] t = m.triangles();
        Map<Long, Integer> on = new HashMap<>();
        for (int k = body.firstTriangle(); k < body.firstTriangle() + body.triangleCount(); k++) {
            for (int e = 0; e < 3; e++) {
                int a = t[3 * k + e];
                int b = t[3 * k + (e + 1) % 3];
                on.merge(edge(Math.min(a, b), Math.max(a, b)), 1, Integer::sum);
            }
        }
        int bad = 0;
        for (int n : on.values()) {
            bad += n == 2 ? 0 : 1;
        }
        return bad;
    }

    private static long edge(int a, int b) {
        return ((long) b << 32) | (a & 0xffffffffL);
    }

    private static String unordered(int[] f) {
        int[] s = f.clone();
        java.util.Arrays.sort(s);
        return s[0] + "," + s[1] + "," + s[2];
    }

    /** The face's corners from its lowest, in its own winding. */
    private static String rotated(int[] f) {
        int i = f[0] < f[1] ? (f[0] < f[2] ? 0 : 2) : (f[1] < f[2] ? 1 : 2);
        return f[i] + "," + f[(i + 1) % 3] + "," + f[(i + 2) % 3];
    }
}
