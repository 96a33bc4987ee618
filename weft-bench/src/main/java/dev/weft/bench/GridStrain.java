package dev.weft.bench;

/**
 * The strain both engines are judged by: the largest |length/rest − 1| over the structural edges of an
 * n × n grid (each vertex to its right and lower neighbour), the edges a person sees stretch. Rest
 * lengths are measured on the rest positions, so a cloth at rest has strain 0.
 */
public final class GridStrain {
    private final int n;
    private final float[] restHorizontal;
    private final float[] restVertical;

    public GridStrain(float[] restPositions, int n) {
        if (restPositions.length != 3 * n * n) {
            throw new IllegalArgumentException("expected " + 3 * n * n + " coordinates, got " + restPositions.length);
        }
        this.n = n;
        this.restHorizontal = new float[n * (n - 1)];
        this.restVertical = new float[n * (n - 1)];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c + 1 < n; c++) {
                restHorizontal[r * (n - 1) + c] = (float) length(restPositions, r * n + c, r * n + c + 1);
                // the vertical edges of column r, from row c to row c + 1
                restVertical[r * (n - 1) + c] = (float) length(restPositions, c * n + r, (c + 1) * n + r);
            }
        }
    }

    /** The largest structural strain of {@code positions} (xyz per vertex); NaN if any length is NaN. */
    public double max(float[] positions) {
        double worst = 0;
        for (int r = 0; r < n; r++) {
            for (int c = 0; c + 1 < n; c++) {
                double h = Math.abs(length(positions, r * n + c, r * n + c + 1) / restHorizontal[r * (n - 1) + c] - 1);
                double v = Math.abs(length(positions, c * n + r, (c + 1) * n + r) / restVertical[r * (n - 1) + c] - 1);
                worst = Math.max(worst, Math.max(h, v)); // Math.max keeps a NaN: a blown-up cloth is not unstretched
            }
        }
        return worst;
    }

    private static double length(float[] x, int a, int b) {
        double dx = x[3 * b] - x[3 * a];
        double dy = x[3 * b + 1] - x[3 * a + 1];
        double dz = x[3 * b + 2] - x[3 * a + 2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
}
