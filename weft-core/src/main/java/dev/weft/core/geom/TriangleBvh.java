package dev.weft.core.geom;

/**
 * A bounding-volume hierarchy over a triangle mesh for closest-point and segment queries, stored in
 * flat arrays (6 floats of bounds per node; leaves hold up to {@value #LEAF_SIZE} triangles). Built
 * once by median splits along the longest axis; queries allocate nothing: each thread brings its
 * own {@link Query}.
 */
public final class TriangleBvh {
    static final int LEAF_SIZE = 4;

    private final float[] v;
    private final int[] tris;
    /** Triangle indices, permuted so that every node covers a contiguous range. */
    private final int[] order;
    private final float[] bounds;
    /** Inner node: index of the first child (the second is next to it); leaf: -1. */
    private final int[] firstChild;
    private final int[] rangeStart;
    private final int[] rangeCount;
    private int nodeCount;

    /** Per-thread scratch and result of a query. */
    public static final class Query {
        final int[] stack = new int[128];
        final float[] point = new float[3];
        /** Result: triangle index (−1 when none), its region (see {@link TriangleClosestPoint}). */
        public int triangle = -1;
        public int region;
        /** Result: the closest point, or the hit point of a segment query. */
        public float x;
        public float y;
        public float z;
        /** Result: squared distance (closest-point query) or the segment parameter in [0, 1] of the hit. */
        public float value;
    }

    public TriangleBvh(float[] positions, int[] triangles) {
        this.v = positions.clone();
        this.tris = triangles.clone();
        int n = triangles.length / 3;
        order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        int maxNodes = Math.max(1, 2 * n);
        bounds = new float[6 * maxNodes];
        firstChild = new int[maxNodes];
        rangeStart = new int[maxNodes];
        rangeCount = new int[maxNodes];
        float[] centroid = new float[3 * n];
        for (int t = 0; t < n; t++) {
            for (int k = 0; k < 3; k++) {
                centroid[3 * t + k] = (v[3 * tris[3 * t] + k] + v[3 * tris[3 * t + 1] + k] + v[3 * tris[3 * t + 2] + k]) / 3f;
            }
        }
        nodeCount = 1;
        // Median splits: depth <= log2(n) + 1, so the 128-entry query stacks cannot overflow.
        build(0, 0, n, centroid);
    }

    public int triangleCount() {
        return order.length;
    }

    /** Vertex index of corner k (0..2) of triangle t. */
    public int corner(int t, int k) {
        return tris[3 * t + k];
    }

    /**
     * Moves the vertices to {@code positions} (same count and triangles) and refits every node's bounds,
     * keeping the hierarchy: cheap, allocation-free, and good while the mesh deforms moderately (an
     * animated body). Children are stored after their parents, so one backward pass suffices.
     */
    public void refit(float[] positions) {
        if (positions.length != v.length) {
            throw new IllegalArgumentException("refit needs " + v.length / 3 + " vertices, got " + positions.length / 3);
        }
        System.arraycopy(positions, 0, v, 0, v.length);
        for (int node = nodeCount - 1; node >= 0; node--) {
            int b = 6 * node;
            int child = firstChild[node];
            if (child >= 0) {
                int c0 = 6 * child;
                int c1 = 6 * (child + 1);
                for (int k = 0; k < 3; k++) {
                    bounds[b + k] = Math.min(bounds[c0 + k], bounds[c1 + k]);
                    bounds[b + 3 + k] = Math.max(bounds[c0 + 3 + k], bounds[c1 + 3 + k]);
                }
                continue;
            }
            bounds[b] = bounds[b + 1] = bounds[b + 2] = Float.POSITIVE_INFINITY;
            bounds[b + 3] = bounds[b + 4] = bounds[b + 5] = Float.NEGATIVE_INFINITY;
            for (int i = rangeStart[node], end = i + rangeCount[node]; i < end; i++) {
                int t = order[i];
                for (int corner = 0; corner < 3; corner++) {
                    int p = 3 * tris[3 * t + corner];
                    for (int k = 0; k < 3; k++) {
                        bounds[b + k] = Math.min(bounds[b + k], v[p + k]);
                        bounds[b + 3 + k] = Math.max(bounds[b + 3 + k], v[p + k]);
                    }
                }
            }
        }
    }

    /** Floats per node in {@link #writeFlat}: bounds (6), first child, first triangle slot, triangle count. */
    public static final int FLAT_NODE = 9;
    /** Floats per triangle slot in {@link #writeFlat}: corners a, b, c (9) and the unit normal (3). */
    public static final int FLAT_TRIANGLE = 12;

    /** How many nodes the hierarchy has (the root is node 0; children follow their parents). */
    public int nodeCount() {
        return nodeCount;
    }

    /**
     * The most edges from the root to a leaf: a depth-first query's stack (this class's and a device's) holds at
     * most depth + 1 nodes, since each descent pops one node and pushes two.
     */
    public int depth() {
        int[] depth = new int[nodeCount];
        int most = 0;
        for (int node = 0; node < nodeCount; node++) {
            int child = firstChild[node];
            if (child >= 0) {
                depth[child] = depth[child + 1] = depth[node] + 1;
                most = Math.max(most, depth[node] + 1);
            }
        }
        return most;
    }

    /** Floats {@link #writeFlat} writes: {@link #FLAT_NODE} per node, then {@link #FLAT_TRIANGLE} per triangle. */
    public int flatSize() {
        return FLAT_NODE * nodeCount + FLAT_TRIANGLE * order.length;
    }

    /**
     * The hierarchy as one float array for a device, at {@code out[at]}: the nodes in their order, each its
     * bounds (min xyz, max xyz), its first child (int bits; 0 for a leaf, as the root is nobody's child) and its
     * triangles' first slot and count (int bits); then the triangles slot by slot in the order the nodes' ranges
     * run through them, each its three corners and its {@link #normal}. A query that visits the slots in the
     * order {@link #closest} visits the triangles computes with the same floats.
     */
    public void writeFlat(float[] out, int at) {
        for (int node = 0; node < nodeCount; node++) {
            int o = at + FLAT_NODE * node;
            System.arraycopy(bounds, 6 * node, out, o, 6);
            out[o + 6] = Float.intBitsToFloat(Math.max(0, firstChild[node]));
            out[o + 7] = Float.intBitsToFloat(rangeStart[node]);
            out[o + 8] = Float.intBitsToFloat(rangeCount[node]);
        }
        float[] normal = new float[3];
        int slots = at + FLAT_NODE * nodeCount;
        for (int i = 0; i < order.length; i++) {
            int t = order[i];
            int o = slots + FLAT_TRIANGLE * i;
            for (int k = 0; k < 3; k++) {
                System.arraycopy(v, 3 * tris[3 * t + k], out, o + 3 * k, 3);
            }
            normal(t, normal);
            System.arraycopy(normal, 0, out, o + 9, 3);
        }
    }

    /**
     * Floats {@link #writeTopology} writes: per node its first child, first slot and count (3), then the
     * triangle of each slot (the order), then the triangles' corners (3 each), all as int bits.
     */
    public int topologySize() {
        return 3 * nodeCount + order.length + tris.length;
    }

    /**
     * What a {@link #refit} keeps, for a device that refits nothing itself, at {@code out[at]}: per node its
     * first child (0 for a leaf), first slot and slot count; the triangle each slot holds; each triangle's three
     * vertex indices; all as int bits (see {@link #topologySize}). {@link #writeBounds} and the vertex positions
     * are what changes.
     */
    public void writeTopology(float[] out, int at) {
        for (int node = 0; node < nodeCount; node++) {
            out[at + 3 * node] = Float.intBitsToFloat(Math.max(0, firstChild[node]));
            out[at + 3 * node + 1] = Float.intBitsToFloat(rangeStart[node]);
            out[at + 3 * node + 2] = Float.intBitsToFloat(rangeCount[node]);
        }
        int o = at + 3 * nodeCount;
        for (int i = 0; i < order.length; i++) {
            out[o + i] = Float.intBitsToFloat(order[i]);
        }
        o += order.length;
        for (int i = 0; i < tris.length; i++) {
            out[o + i] = Float.intBitsToFloat(tris[i]);
        }
    }

    /** The nodes' bounds (min xyz, max xyz; 6 floats a node) as the last build or {@link #refit} left them. */
    public void writeBounds(float[] out, int at) {
        System.arraycopy(bounds, 0, out, at, 6 * nodeCount);
    }

    private void build(int node, int start, int count, float[] centroid) {
        rangeStart[node] = start;
        rangeCount[node] = count;
        int b = 6 * node;
        bounds[b] = bounds[b + 1] = bounds[b + 2] = Float.POSITIVE_INFINITY;
        bounds[b + 3] = bounds[b + 4] = bounds[b + 5] = Float.NEGATIVE_INFINITY;
        float[] cmin = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY};
        float[] cmax = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
        for (int i = start; i < start + count; i++) {
            int t = order[i];
            for (int corner = 0; corner < 3; corner++) {
                int p = 3 * tris[3 * t + corner];
                for (int k = 0; k < 3; k++) {
                    bounds[b + k] = Math.min(bounds[b + k], v[p + k]);
                    bounds[b + 3 + k] = Math.max(bounds[b + 3 + k], v[p + k]);
                }
            }
            for (int k = 0; k < 3; k++) {
                cmin[k] = Math.min(cmin[k], centroid[3 * t + k]);
                cmax[k] = Math.max(cmax[k], centroid[3 * t + k]);
            }
        }
        if (count <= LEAF_SIZE) {
            firstChild[node] = -1;
            return;
        }
        int axis = 0;
        for (int k = 1; k < 3; k++) {
            if (cmax[k] - cmin[k] > cmax[axis] - cmin[axis]) {
                axis = k;
            }
        }
        int half = count / 2;
        nthElement(start, start + count, start + half, centroid, axis);
        int child = nodeCount;
        nodeCount += 2;
        firstChild[node] = child;
        build(child, start, half, centroid);
        build(child + 1, start + half, count - half, centroid);
    }

    /** Quickselect: order[from, to) partitioned so that order[k] has the k-th centroid along axis. */
    private void nthElement(int from, int to, int k, float[] centroid, int axis) {
        int lo = from;
        int hi = to - 1;
        while (lo < hi) {
            float pivot = centroid[3 * order[(lo + hi) >>> 1] + axis];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (centroid[3 * order[i] + axis] < pivot) {
                    i++;
                }
                while (centroid[3 * order[j] + axis] > pivot) {
                    j--;
                }
                if (i <= j) {
                    int tmp = order[i];
                    order[i] = order[j];
                    order[j] = tmp;
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return;
            }
        }
    }

    private float boxDistanceSquared(int node, float px, float py, float pz) {
        int b = 6 * node;
        float dx = Math.max(0f, Math.max(bounds[b] - px, px - bounds[b + 3]));
        float dy = Math.max(0f, Math.max(bounds[b + 1] - py, py - bounds[b + 4]));
        float dz = Math.max(0f, Math.max(bounds[b + 2] - pz, pz - bounds[b + 5]));
        return dx * dx + dy * dy + dz * dz;
    }

    /**
     * The closest point of the mesh to p within {@code maxDistance}; false (and {@code q.triangle = −1})
     * when nothing is that close.
     */
    public boolean closest(float px, float py, float pz, float maxDistance, Query q) {
        float best = maxDistance * maxDistance;
        q.triangle = -1;
        int[] stack = q.stack;
        int top = 0;
        stack[top++] = 0;
        float[] c = q.point;
        while (top > 0) {
            int node = stack[--top];
            if (boxDistanceSquared(node, px, py, pz) > best) {
                continue;
            }
            int child = firstChild[node];
            if (child < 0) {
                for (int i = rangeStart[node], end = i + rangeCount[node]; i < end; i++) {
                    int t = order[i];
                    int region = TriangleClosestPoint.closest(v, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2],
                            px, py, pz, c);
                    float dx = c[0] - px;
                    float dy = c[1] - py;
                    float dz = c[2] - pz;
                    float d2 = dx * dx + dy * dy + dz * dz;
                    if (d2 <= best) {
                        best = d2;
                        q.triangle = t;
                        q.region = region;
                        q.x = c[0];
                        q.y = c[1];
                        q.z = c[2];
                    }
                }
            } else {
                // nearer child last, so it is searched first and prunes the other
                float d0 = boxDistanceSquared(child, px, py, pz);
                float d1 = boxDistanceSquared(child + 1, px, py, pz);
                if (d0 < d1) {
                    stack[top++] = child + 1;
                    stack[top++] = child;
                } else {
                    stack[top++] = child;
                    stack[top++] = child + 1;
                }
            }
        }
        q.value = best;
        return q.triangle >= 0;
    }

    /**
     * The first triangle the segment p0 → p1 crosses (Möller–Trumbore, both sides); the hit point and
     * its parameter t in [0, 1] go into q. False when it crosses none.
     */
    public boolean firstHit(float p0x, float p0y, float p0z, float p1x, float p1y, float p1z, Query q) {
        float dx = p1x - p0x;
        float dy = p1y - p0y;
        float dz = p1z - p0z;
        float bestT = Float.POSITIVE_INFINITY;
        q.triangle = -1;
        int[] stack = q.stack;
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            int node = stack[--top];
            if (!segmentHitsBox(node, p0x, p0y, p0z, dx, dy, dz, Math.min(bestT, 1f))) {
                continue;
            }
            int child = firstChild[node];
            if (child >= 0) {
                stack[top++] = child;
                stack[top++] = child + 1;
                continue;
            }
            for (int i = rangeStart[node], end = i + rangeCount[node]; i < end; i++) {
                int t = order[i];
                float hit = segmentTriangle(t, p0x, p0y, p0z, dx, dy, dz);
                if (hit < bestT) {
                    bestT = hit;
                    q.triangle = t;
                }
            }
        }
        if (q.triangle < 0) {
            return false;
        }
        q.value = bestT;
        q.x = p0x + bestT * dx;
        q.y = p0y + bestT * dy;
        q.z = p0z + bestT * dz;
        return true;
    }

    private boolean segmentHitsBox(int node, float ox, float oy, float oz, float dx, float dy, float dz, float tMax) {
        int b = 6 * node;
        // slab test, one axis at a time; a segment parallel to a slab must start inside it
        float t0 = 0f;
        float t1 = tMax;
        float lo = slabEnter(bounds[b], bounds[b + 3], ox, dx);
        float hi = slabExit(bounds[b], bounds[b + 3], ox, dx);
        t0 = Math.max(t0, lo);
        t1 = Math.min(t1, hi);
        lo = slabEnter(bounds[b + 1], bounds[b + 4], oy, dy);
        hi = slabExit(bounds[b + 1], bounds[b + 4], oy, dy);
        t0 = Math.max(t0, lo);
        t1 = Math.min(t1, hi);
        lo = slabEnter(bounds[b + 2], bounds[b + 5], oz, dz);
        hi = slabExit(bounds[b + 2], bounds[b + 5], oz, dz);
        t0 = Math.max(t0, lo);
        t1 = Math.min(t1, hi);
        return t0 <= t1;
    }

    private static float slabEnter(float lo, float hi, float o, float d) {
        if (d == 0f) {
            return o >= lo && o <= hi ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
        }
        float ta = (lo - o) / d;
        float tb = (hi - o) / d;
        return Math.min(ta, tb);
    }

    private static float slabExit(float lo, float hi, float o, float d) {
        if (d == 0f) {
            return o >= lo && o <= hi ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
        }
        float ta = (lo - o) / d;
        float tb = (hi - o) / d;
        return Math.max(ta, tb);
    }

    /** Segment parameter of the crossing with triangle t, or +∞. */
    private float segmentTriangle(int t, float ox, float oy, float oz, float dx, float dy, float dz) {
        int a = 3 * tris[3 * t];
        int b = 3 * tris[3 * t + 1];
        int c = 3 * tris[3 * t + 2];
        float e1x = v[b] - v[a], e1y = v[b + 1] - v[a + 1], e1z = v[b + 2] - v[a + 2];
        float e2x = v[c] - v[a], e2y = v[c + 1] - v[a + 1], e2z = v[c + 2] - v[a + 2];
        float px = dy * e2z - dz * e2y;
        float py = dz * e2x - dx * e2z;
        float pz = dx * e2y - dy * e2x;
        float det = e1x * px + e1y * py + e1z * pz;
        if (Math.abs(det) < 1e-20f) {
            return Float.POSITIVE_INFINITY;
        }
        float inv = 1f / det;
        float sx = ox - v[a], sy = oy - v[a + 1], sz = oz - v[a + 2];
        float u = (sx * px + sy * py + sz * pz) * inv;
        if (u < 0f || u > 1f) {
            return Float.POSITIVE_INFINITY;
        }
        float qx = sy * e1z - sz * e1y;
        float qy = sz * e1x - sx * e1z;
        float qz = sx * e1y - sy * e1x;
        float w = (dx * qx + dy * qy + dz * qz) * inv;
        if (w < 0f || u + w > 1f) {
            return Float.POSITIVE_INFINITY;
        }
        float s = (e2x * qx + e2y * qy + e2z * qz) * inv;
        return s >= 0f && s <= 1f ? s : Float.POSITIVE_INFINITY;
    }

    /** Unit normal of triangle t (counter-clockwise corners) into out. */
    public void normal(int t, float[] out) {
        int a = 3 * tris[3 * t];
        int b = 3 * tris[3 * t + 1];
        int c = 3 * tris[3 * t + 2];
        float e1x = v[b] - v[a], e1y = v[b + 1] - v[a + 1], e1z = v[b + 2] - v[a + 2];
        float e2x = v[c] - v[a], e2y = v[c + 1] - v[a + 1], e2z = v[c + 2] - v[a + 2];
        float nx = e1y * e2z - e1z * e2y;
        float ny = e1z * e2x - e1x * e2z;
        float nz = e1x * e2y - e1y * e2x;
        float inv = 1f / (float) Math.sqrt(nx * nx + ny * ny + nz * nz);
        out[0] = nx * inv;
        out[1] = ny * inv;
        out[2] = nz * inv;
    }
}
