package dev.weft.core.geom;

/**
 * Closest point on a triangle to a point, with the Voronoi region it lies in (Ericson, Real-Time
 * Collision Detection, 5.1.5). The region tells a signed-distance query which pseudonormal to use.
 */
public final class TriangleClosestPoint {
    /** The closest point is inside the face. */
    public static final int FACE = 0;
    /** On edge ab, bc or ca: {@code EDGE_AB + k} for the edge starting at corner k. */
    public static final int EDGE_AB = 1;
    public static final int EDGE_BC = 2;
    public static final int EDGE_CA = 3;
    /** At corner a, b or c: {@code VERTEX_A + k}. */
    public static final int VERTEX_A = 4;
    public static final int VERTEX_B = 5;
    public static final int VERTEX_C = 6;

    private TriangleClosestPoint() {
    }

    /**
     * Writes the closest point of triangle (a, b, c), whose corners are at {@code 3 * ia} etc. of
     * {@code v}, to point p into {@code out[0..2]} and returns its region.
     */
    public static int closest(float[] v, int ia, int ib, int ic, float px, float py, float pz, float[] out) {
        int a = 3 * ia;
        int b = 3 * ib;
        int c = 3 * ic;
        float ax = v[a], ay = v[a + 1], az = v[a + 2];
        float abx = v[b] - ax, aby = v[b + 1] - ay, abz = v[b + 2] - az;
        float acx = v[c] - ax, acy = v[c + 1] - ay, acz = v[c + 2] - az;
        float apx = px - ax, apy = py - ay, apz = pz - az;
        float d1 = abx * apx + aby * apy + abz * apz;
        float d2 = acx * apx + acy * apy + acz * apz;
        if (d1 <= 0f && d2 <= 0f) {
            return set(out, ax, ay, az, VERTEX_A);
        }
        float bpx = px - v[b], bpy = py - v[b + 1], bpz = pz - v[b + 2];
        float d3 = abx * bpx + aby * bpy + abz * bpz;
        float d4 = acx * bpx + acy * bpy + acz * bpz;
        if (d3 >= 0f && d4 <= d3) {
            return set(out, v[b], v[b + 1], v[b + 2], VERTEX_B);
        }
        float vc = d1 * d4 - d3 * d2;
        if (vc <= 0f && d1 >= 0f && d3 <= 0f) {
            float t = d1 / (d1 - d3);
            return set(out, ax + t * abx, ay + t * aby, az + t * abz, EDGE_AB);
        }
        float cpx = px - v[c], cpy = py - v[c + 1], cpz = pz - v[c + 2];
        float d5 = abx * cpx + aby * cpy + abz * cpz;
        float d6 = acx * cpx + acy * cpy + acz * cpz;
        if (d6 >= 0f && d5 <= d6) {
            return set(out, v[c], v[c + 1], v[c + 2], VERTEX_C);
        }
        float vb = d5 * d2 - d1 * d6;
        if (vb <= 0f && d2 >= 0f && d6 <= 0f) {
            float t = d2 / (d2 - d6);
            return set(out, ax + t * acx, ay + t * acy, az + t * acz, EDGE_CA);
        }
        float va = d3 * d6 - d5 * d4;
        if (va <= 0f && (d4 - d3) >= 0f && (d5 - d6) >= 0f) {
            float t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            return set(out, v[b] + t * (v[c] - v[b]), v[b + 1] + t * (v[c + 1] - v[b + 1]),
                    v[b + 2] + t * (v[c + 2] - v[b + 2]), EDGE_BC);
        }
        float denom = 1f / (va + vb + vc);
        float s = vb * denom;
        float t = vc * denom;
        return set(out, ax + s * abx + t * acx, ay + s * aby + t * acy, az + s * abz + t * acz, FACE);
    }

    private static int set(float[] out, float x, float y, float z, int region) {
        out[0] = x;
        out[1] = y;
        out[2] = z;
        return region;
    }
}
