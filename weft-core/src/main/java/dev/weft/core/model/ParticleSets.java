package dev.weft.core.model;

/**
 * Disjoint sets of particles (union–find, union by size with path halving): which particles one
 * another reaches through a set of pairs. The partition does not depend on the order of the unions.
 */
final class ParticleSets {
    private final int[] parent;
    private final int[] size;

    ParticleSets(int particleCount) {
        parent = new int[particleCount];
        size = new int[particleCount];
        for (int i = 0; i < particleCount; i++) {
            parent[i] = i;
            size[i] = 1;
        }
    }

    /** The representative of i's set. */
    int find(int i) {
        int[] up = parent;
        while (up[i] != i) {
            up[i] = up[up[i]];
            i = up[i];
        }
        return i;
    }

    /** Joins a's and b's sets, the smaller under the larger (so paths stay short: a cloth is one big set). */
    void union(int a, int b) {
        int ra = find(a);
        int rb = find(b);
        if (ra != rb) {
            if (size[ra] < size[rb]) {
                int t = ra;
                ra = rb;
                rb = t;
            }
            parent[rb] = ra;
            size[ra] += size[rb];
        }
    }
}
