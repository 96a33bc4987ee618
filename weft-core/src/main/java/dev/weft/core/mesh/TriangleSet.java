package dev.weft.core.mesh;

import java.util.Arrays;

/**
 * The triangles of a mesh as sets of three vertices, to find a triangle given twice: with the same
 * corners in any rotation or in the opposite winding. Such a pair is a manifold by edge count (each of
 * its edges has exactly two triangles), so the edge check lets it through, yet it doubles the mass and
 * stiffness of that piece of cloth.
 *
 * <p>An open-addressing hash of the sorted corner triples (no boxing, as {@link VertexWelder}), so a
 * mesh of millions of triangles is checked in one pass.
 */
final class TriangleSet {
    /** Sorted corners of triangle k at 3k, 3k + 1, 3k + 2, in the order the triangles were added. */
    private int[] corners = new int[3 * 64];
    private int count;
    /** Slot holds (triangle index + 1), 0 for empty; capacity is a power of two, kept at most half full. */
    private int[] table = new int[128];

    /**
     * Adds triangle (a, b, c), unless one with the same three vertices is already in the set.
     *
     * @return -1 when it was added (as triangle number {@link #count()} − 1), else the index of the
     *         earlier triangle with the same vertices (the set is then unchanged)
     */
    int addOrFind(int a, int b, int c) {
        int lo = Math.min(a, Math.min(b, c));
        int hi = Math.max(a, Math.max(b, c));
        int mid = a + b + c - lo - hi;
        int mask = table.length - 1;
        int slot = hash(lo, mid, hi) & mask;
        while (true) {
            int id = table[slot] - 1;
            if (id < 0) {
                break;
            }
            if (corners[3 * id] == lo && corners[3 * id + 1] == mid && corners[3 * id + 2] == hi) {
                return id;
            }
            slot = (slot + 1) & mask;
        }
        int id = count++;
        if (3 * count > corners.length) {
            corners = Arrays.copyOf(corners, 2 * corners.length);
        }
        corners[3 * id] = lo;
        corners[3 * id + 1] = mid;
        corners[3 * id + 2] = hi;
        table[slot] = id + 1;
        if (2 * count > table.length) {
            rehash();
        }
        return -1;
    }

    /** Triangles added so far. */
    int count() {
        return count;
    }

    private void rehash() {
        int[] bigger = new int[2 * table.length];
        int mask = bigger.length - 1;
        for (int id = 0; id < count; id++) {
            int slot = hash(corners[3 * id], corners[3 * id + 1], corners[3 * id + 2]) & mask;
            while (bigger[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            bigger[slot] = id + 1;
        }
        table = bigger;
    }

    private static int hash(int lo, int mid, int hi) {
        long h = lo;
        h = h * 0x9E3779B97F4A7C15L + mid;
        h = h * 0x9E3779B97F4A7C15L + hi;
        // Murmur3 finalizer: neighbouring triangles have nearby indices; spread them over the low bits.
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) h;
    }
}
