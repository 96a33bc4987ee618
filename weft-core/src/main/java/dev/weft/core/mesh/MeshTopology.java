package dev.weft.core.mesh;

import java.util.Arrays;

/**
 * The edges of a triangle mesh and the bending stencils (pairs of triangles sharing an interior edge),
 * as flat int arrays in a deterministic order so that constraint lists, colorings and results are
 * reproducible from run to run.
 *
 * <p>Immutable by convention: the accessors return the arrays themselves; do not modify them.
 */
public final class MeshTopology {
    private final int vertexCount;
    private final int[] edges;
    private final int[] bendingStencils;

    private MeshTopology(int vertexCount, int[] edges, int[] bendingStencils) {
        this.vertexCount = vertexCount;
        this.edges = edges;
        this.bendingStencils = bendingStencils;
    }

    /**
     * Computes edges and bending stencils.
     *
     * <p>Half-edges are bucketed by their smaller vertex (a counting sort) and each bucket is sorted by
     * (larger vertex, half-edge index) packed into one long. This needs no hash map and no boxing, runs
     * in about O(3t log(valence)) and yields edges sorted by (a, b) for free; within an edge the
     * half-edges come in triangle order, so "first" and "third" triangle mean lowest triangle index.
     *
     * @param vertexCount number of vertices the indices refer to
     * @param triangles   three vertex indices per triangle
     * @throws IllegalArgumentException  if an index is out of range or a triangle repeats a vertex
     * @throws NonManifoldEdgeException if an edge is used by more than two triangles; where several
     *                                  are, the one whose third triangle comes first is reported
     */
    public static MeshTopology of(int vertexCount, int[] triangles) {
        if (vertexCount < 0) {
            throw new IllegalArgumentException("negative vertex count " + vertexCount);
        }
        if (triangles.length % 3 != 0) {
            throw new IllegalArgumentException("triangles length " + triangles.length + " is not a multiple of 3");
        }
        int halfEdges = triangles.length;
        for (int t = 0; t < halfEdges; t += 3) {
            int a = triangles[t];
            int b = triangles[t + 1];
            int c = triangles[t + 2];
            if (a < 0 || a >= vertexCount || b < 0 || b >= vertexCount || c < 0 || c >= vertexCount) {
                throw new IllegalArgumentException("triangle " + t / 3 + " (" + a + ", " + b + ", " + c
                        + ") refers to a vertex outside 0.." + (vertexCount - 1));
            }
            // A repeated vertex would make a triangle use one edge twice (or a zero-length edge).
            if (a == b || b == c || a == c) {
                throw new IllegalArgumentException("triangle " + t / 3 + " (" + a + ", " + b + ", " + c
                        + ") repeats a vertex");
            }
        }

        // Counting sort of half-edges by their smaller vertex.
        int[] start = new int[vertexCount + 1];
        for (int h = 0; h < halfEdges; h++) {
            int u = triangles[h];
            int v = triangles[next(h)];
            start[Math.min(u, v) + 1]++;
        }
        for (int v = 0; v < vertexCount; v++) {
            start[v + 1] += start[v];
        }
        int[] fill = Arrays.copyOf(start, vertexCount);
        long[] packed = new long[halfEdges];
        for (int h = 0; h < halfEdges; h++) {
            int u = triangles[h];
            int v = triangles[next(h)];
            packed[fill[Math.min(u, v)]++] = (long) Math.max(u, v) << 32 | h;
        }
        for (int v = 0; v < vertexCount; v++) {
            if (start[v + 1] - start[v] > 1) {
                Arrays.sort(packed, start[v], start[v + 1]);
            }
        }

        // First pass: count, and look for non-manifold edges before allocating the results.
        int edgeCount = 0;
        int stencilCount = 0;
        int badThird = Integer.MAX_VALUE;
        int badA = -1;
        int badB = -1;
        for (int a = 0; a < vertexCount; a++) {
            int end = start[a + 1];
            for (int i = start[a]; i < end; ) {
                int b = (int) (packed[i] >>> 32);
                int j = i + 1;
                while (j < end && (int) (packed[j] >>> 32) == b) {
                    j++;
                }
                edgeCount++;
                if (j - i == 2) {
                    stencilCount++;
                } else if (j - i > 2) {
                    int third = (int) packed[i + 2] / 3;
                    if (third < badThird) {
                        badThird = third;
                        badA = a;
                        badB = b;
                    }
                }
                i = j;
            }
        }
        if (badA >= 0) {
            throw new NonManifoldEdgeException(badA, badB, badThird);
        }

        int[] edges = new int[2 * edgeCount];
        int[] stencils = new int[4 * stencilCount];
        int e = 0;
        int s = 0;
        for (int a = 0; a < vertexCount; a++) {
            int end = start[a + 1];
            for (int i = start[a]; i < end; ) {
                int b = (int) (packed[i] >>> 32);
                int j = i + 1;
                while (j < end && (int) (packed[j] >>> 32) == b) {
                    j++;
                }
                edges[e++] = a;
                edges[e++] = b;
                if (j - i == 2) {
                    // Half-edges are in triangle order: h0 belongs to the first triangle, whose winding
                    // gives the edge direction; each triangle's opposite vertex is the one after the edge.
                    int h0 = (int) packed[i];
                    int h1 = (int) packed[i + 1];
                    stencils[s++] = triangles[h0];
                    stencils[s++] = triangles[next(h0)];
                    stencils[s++] = triangles[next(next(h0))];
                    stencils[s++] = triangles[next(next(h1))];
                }
                i = j;
            }
        }
        return new MeshTopology(vertexCount, edges, stencils);
    }

    /** The next corner of the same triangle, cyclically: half-edge h runs from corner h to corner next(h). */
    private static int next(int h) {
        return h % 3 == 2 ? h - 2 : h + 1;
    }

    public int vertexCount() {
        return vertexCount;
    }

    /** Unique undirected edges as pairs (a, b) with a &lt; b, sorted by (a, b). Do not modify. */
    public int[] edges() {
        return edges;
    }

    public int edgeCount() {
        return edges.length / 2;
    }

    /**
     * One stencil of 4 vertex indices {@code (e0, e1, o0, o1)} per edge shared by exactly two triangles,
     * in the order of {@link #edges()}: the first triangle (lower index) runs e0 → e1 in its winding
     * and has opposite vertex o0; o1 is the opposite vertex of the second triangle. Boundary edges
     * have no stencil. Do not modify.
     */
    public int[] bendingStencils() {
        return bendingStencils;
    }

    public int bendingStencilCount() {
        return bendingStencils.length / 4;
    }
}
