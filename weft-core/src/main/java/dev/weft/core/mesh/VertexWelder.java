package dev.weft.core.mesh;

import java.util.Arrays;

/**
 * Merges vertices with exactly equal positions into one, using an open-addressing hash of the float
 * bits (no boxing, so it scales to millions of vertices). Exporters often write one vertex per face
 * corner; cloth needs shared particles, or the triangles would fall apart.
 *
 * <p>Equality is float {@code ==}, so -0.0 and 0.0 weld; the first position added is the one kept.
 */
final class VertexWelder {
    private float[] xyz = new float[3 * 64];
    private int count;
    /** Slot holds (vertex id + 1), 0 for empty; capacity is a power of two, kept at most half full. */
    private int[] table = new int[128];

    /** @return the id of the vertex at this position, a new one if no earlier vertex was there */
    int add(float x, float y, float z) {
        int mask = table.length - 1;
        int slot = hash(x, y, z) & mask;
        while (true) {
            int id = table[slot] - 1;
            if (id < 0) {
                break;
            }
            if (xyz[3 * id] == x && xyz[3 * id + 1] == y && xyz[3 * id + 2] == z) {
                return id;
            }
            slot = (slot + 1) & mask;
        }
        int id = count++;
        if (3 * count > xyz.length) {
            xyz = Arrays.copyOf(xyz, 2 * xyz.length);
        }
        xyz[3 * id] = x;
        xyz[3 * id + 1] = y;
        xyz[3 * id + 2] = z;
        table[slot] = id + 1;
        if (2 * count > table.length) {
            rehash();
        }
        return id;
    }

    int count() {
        return count;
    }

    /** xyz per welded vertex; the array may be longer than 3 × {@link #count()}. */
    float[] positions() {
        return xyz;
    }

    private void rehash() {
        int[] bigger = new int[2 * table.length];
        int mask = bigger.length - 1;
        for (int id = 0; id < count; id++) {
            int slot = hash(xyz[3 * id], xyz[3 * id + 1], xyz[3 * id + 2]) & mask;
            while (bigger[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            bigger[slot] = id + 1;
        }
        table = bigger;
    }

    private static int hash(float x, float y, float z) {
        // "+ 0.0f" turns -0.0 into 0.0 so that values equal under == hash alike.
        long h = Float.floatToIntBits(x + 0.0f);
        h = h * 0x9E3779B97F4A7C15L + Float.floatToIntBits(y + 0.0f);
        h = h * 0x9E3779B97F4A7C15L + Float.floatToIntBits(z + 0.0f);
        // Murmur3 finalizer: spreads the bits of nearby coordinates over the low (masked) bits.
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) h;
    }
}
