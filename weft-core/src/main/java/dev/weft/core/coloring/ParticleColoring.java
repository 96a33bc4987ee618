package dev.weft.core.coloring;

/**
 * Colorings of particles (not constraints): no two particles joined by a constraint share a color,
 * so a per-particle Gauss–Seidel sweep (seed 001 algorithm 7) can update one color in parallel.
 */
public final class ParticleColoring {
    private ParticleColoring() {
    }

    /**
     * Greedy coloring of the particle graph given by {@code pairs} (two particle indices per edge).
     * Particles with a preset color ({@code preset[p] >= 0}, e.g. red-black on a lattice) keep it;
     * the others, visited in index order, take the least-used color that no neighbour has. A body
     * is either all preset or all greedy, and bodies share no edges, so preset and greedy colors never
     * meet across an edge.
     *
     * @return the color of each particle
     */
    public static int[] greedy(int[] pairs, int particleCount, int[] preset) {
        int[] start = new int[particleCount + 1];
        for (int p : pairs) {
            start[p + 1]++;
        }
        for (int i = 0; i < particleCount; i++) {
            start[i + 1] += start[i];
        }
        int[] neighbour = new int[pairs.length];
        int[] fill = java.util.Arrays.copyOf(start, particleCount);
        for (int e = 0; e < pairs.length; e += 2) {
            neighbour[fill[pairs[e]]++] = pairs[e + 1];
            neighbour[fill[pairs[e + 1]]++] = pairs[e];
        }
        int[] color = new int[particleCount];
        int maxDegree = 0;
        for (int p = 0; p < particleCount; p++) {
            maxDegree = Math.max(maxDegree, start[p + 1] - start[p]);
            color[p] = preset[p];
        }
        // A particle of degree d sees at most d colors, so greedy needs at most maxDegree + 1; preset
        // colors are 0 and 1 (red-black) and bodies share no edges.
        int[] size = new int[maxDegree + 3];
        int[] takenBy = new int[maxDegree + 3];
        java.util.Arrays.fill(takenBy, -1);
        int colors = 0;
        for (int p = 0; p < particleCount; p++) {
            if (color[p] >= 0) {
                continue;
            }
            for (int k = start[p]; k < start[p + 1]; k++) {
                int c = color[neighbour[k]];
                if (c >= 0) {
                    takenBy[c] = p;
                }
            }
            int best = -1;
            for (int c = 0; c < colors; c++) {
                if (takenBy[c] != p && (best < 0 || size[c] < size[best])) {
                    best = c;
                }
            }
            if (best < 0) {
                best = colors++;
            }
            color[p] = best;
            size[best]++;
        }
        return color;
    }

    /** True when no edge of {@code pairs} joins two particles of the same color. */
    public static boolean isValid(Coloring particles, int[] pairs) {
        for (int e = 0; e < pairs.length; e += 2) {
            if (particles.colorOf(pairs[e]) == particles.colorOf(pairs[e + 1])) {
                return false;
            }
        }
        return true;
    }
}
