package dev.weft.core.model;

import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.util.FloatList;
import dev.weft.core.util.IntList;
import java.util.HashMap;
import java.util.Map;

/**
 * Splits a triangle mesh's triangles in four at their edges' midpoints (shared edges share their midpoint,
 * so a closed mesh stays closed; UVs are interpolated) until no edge is longer than asked.
 */
final class SurfaceSubdivision {
    /** Stops splitting past this many vertices (a mesh far finer than its body's lattice gains nothing). */
    static final int MAX_VERTICES = 1 << 18;

    private SurfaceSubdivision() {
    }

    static TriangleMesh untilEdgesAtMost(TriangleMesh mesh, float maxEdge) {
        TriangleMesh m = mesh;
        while (longestEdge(m) > maxEdge && 4 * m.vertexCount() <= MAX_VERTICES) {
            m = split(m);
        }
        return m;
    }

    private static float longestEdge(TriangleMesh m) {
        float[] x = m.positions();
        int[] t = m.triangles();
        float longest = 0f;
        for (int i = 0; i < t.length; i++) {
            int a = 3 * t[i];
            int b = 3 * t[i % 3 == 2 ? i - 2 : i + 1];
            float dx = x[a] - x[b];
            float dy = x[a + 1] - x[b + 1];
            float dz = x[a + 2] - x[b + 2];
            longest = Math.max(longest, (float) Math.sqrt(dx * dx + dy * dy + dz * dz));
        }
        return longest;
    }

    private static TriangleMesh split(TriangleMesh m) {
        FloatList x = new FloatList();
        FloatList uv = new FloatList();
        float[] px = m.positions();
        float[] pu = m.uvs();
        for (float v : px) {
            x.add(v);
        }
        if (pu != null) {
            for (float v : pu) {
                uv.add(v);
            }
        }
        Map<Long, Integer> midpoint = new HashMap<>();
        int[] t = m.triangles();
        IntList out = new IntList(4 * t.length);
        int[] mid = new int[3];
        for (int f = 0; f < t.length; f += 3) {
            for (int e = 0; e < 3; e++) {
                int a = t[f + e];
                int b = t[f + (e + 1) % 3];
                long key = ((long) Math.min(a, b) << 32) | Math.max(a, b);
                Integer at = midpoint.get(key);
                if (at == null) {
                    at = x.size() / 3;
                    for (int d = 0; d < 3; d++) {
                        x.add(0.5f * (px[3 * a + d] + px[3 * b + d]));
                    }
                    if (pu != null) {
                        uv.add(0.5f * (pu[2 * a] + pu[2 * b]));
                        uv.add(0.5f * (pu[2 * a + 1] + pu[2 * b + 1]));
                    }
                    midpoint.put(key, at);
                }
                mid[e] = at;
            }
            // the three corner triangles and the middle one, each wound as the original
            out.add(t[f], mid[0]);
            out.add(mid[2]);
            out.add(mid[0], t[f + 1]);
            out.add(mid[1]);
            out.add(mid[2], mid[1]);
            out.add(t[f + 2]);
            out.add(mid[0], mid[1]);
            out.add(mid[2]);
        }
        return new TriangleMesh(x.toArray(), pu == null ? null : uv.toArray(), out.toArray());
    }
}
