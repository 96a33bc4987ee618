package dev.weft.core.solver.pd;

import dev.weft.core.model.Model;

/**
 * The local step and the red-black Gauss–Seidel sweep of Projective Dynamics specialised to seed
 * 001's 4-neighbour lattice in row-major order, as the seed's GPU kernels index it: a particle's
 * neighbours are p ± 1 and p ± columns, and the projections of its right and lower springs sit at
 * its own index. The general path reads neighbours and projections through per-particle slot lists
 * (a loop of varying length per particle); here every access is a fixed offset, which measured
 * 0.147 → 0.097 ms per 100 × 100 sweep on one thread (a split interior loop without the border
 * tests measured slower, 0.110). Same equations, same red-black order;
 * only the order of the four neighbour terms in a sum differs from the general path.
 *
 * <p>Rows are the unit of parallel work: a pass over rows [begin, end) writes only those rows'
 * particles (projections) or only that color's particles in them (sweep), so any thread count gives
 * bitwise the same result.
 *
 * <p>Public for the device solvers, which take the same path where {@link #of} says PdSolver does.
 */
public final class LatticeRedBlack {
    final int columns;
    final int rows;
    /** Rest length of the spring from p to p + 1 and from p to p + columns (0 where there is none). */
    private final float[] restRight;
    private final float[] restDown;
    /** L·(q_p − q_right)/|q_p − q_right| and the same downwards, 3 floats per particle. */
    private final float[] projRight;
    private final float[] projDown;

    private LatticeRedBlack(int columns, int rows, float[] restRight, float[] restDown) {
        this.columns = columns;
        this.rows = rows;
        this.restRight = restRight;
        this.restDown = restDown;
        this.projRight = new float[3 * columns * rows];
        this.projDown = new float[3 * columns * rows];
    }

    /**
     * The lattice PdSolver runs these kernels on for model {@code m} with {@code settings} (its distance
     * constraints' weights {@code springK}), or null where it takes the slot-list path: red-black
     * Gauss–Seidel, one weight k for all springs, no elastic tetrahedra, and springs that are exactly one
     * 4-neighbour row-major lattice ({@link #detect}).
     */
    public static LatticeRedBlack of(PdSettings settings, Model m, float[] springK, boolean elasticTets) {
        if (settings.inner() != InnerSolver.RED_BLACK_GAUSS_SEIDEL || elasticTets || springK.length == 0) {
            return null;
        }
        for (float k : springK) {
            if (k != springK[0]) {
                return null;
            }
        }
        return detect(m.particleCount(), m.distances().particles(), m.distances().restLength());
    }

    /** Particles per row. */
    public int columns() {
        return columns;
    }

    /** Rows of particles. */
    public int rows() {
        return rows;
    }

    /** Per particle, the rest length of its spring to the right (p + 1), 0 where there is none; a copy. */
    public float[] restRight() {
        return restRight.clone();
    }

    /** Per particle, the rest length of its spring downwards (p + columns), 0 where there is none; a copy. */
    public float[] restDown() {
        return restDown.clone();
    }

    /**
     * The lattice behind these springs, or null when they are not exactly the 4-neighbour springs of
     * one row-major lattice of all {@code n} particles (then the general path runs).
     */
    static LatticeRedBlack detect(int n, int[] springs, float[] rest) {
        int columns = Integer.MAX_VALUE;
        for (int e = 0; e < springs.length; e += 2) {
            int gap = Math.abs(springs[e + 1] - springs[e]);
            if (gap > 1) {
                columns = Math.min(columns, gap);
            }
        }
        if (columns == Integer.MAX_VALUE || columns < 2 || n % columns != 0) {
            return null;
        }
        int rows = n / columns;
        if (rows < 2 || springs.length / 2 != 2 * columns * rows - columns - rows) {
            return null;
        }
        float[] right = new float[n];
        float[] down = new float[n];
        for (int e = 0; e < springs.length / 2; e++) {
            int a = Math.min(springs[2 * e], springs[2 * e + 1]);
            int b = Math.max(springs[2 * e], springs[2 * e + 1]);
            float length = rest[e];
            if (!(length > 0f)) {
                return null;
            }
            if (b - a == 1 && a % columns != columns - 1 && right[a] == 0f) {
                right[a] = length;
            } else if (b - a == columns && down[a] == 0f) {
                down[a] = length;
            } else {
                return null; // a diagonal, a repeated spring or a wrap-around: not the seed's lattice
            }
        }
        // The count matched and no spring repeated, so every right and every down spring is present.
        return new LatticeRedBlack(columns, rows, right, down);
    }

    /**
     * Local step for rows [begin, end): the projections of each particle's right and lower spring, the
     * positions being y + d (see PdSolver).
     */
    void project(float[] y, float[] d, int begin, int end) {
        final int c = columns;
        for (int r = begin; r < end; r++) {
            for (int p = r * c, last = p + c; p < last; p++) {
                int p3 = 3 * p;
                if (restRight[p] > 0f) {
                    projectOne(y, d, p3, p3 + 3, restRight[p], projRight);
                }
                if (restDown[p] > 0f) {
                    projectOne(y, d, p3, p3 + 3 * c, restDown[p], projDown);
                }
            }
        }
    }

    private static void projectOne(float[] y, float[] d, int a, int b, float length, float[] out) {
        float dx = (y[a] - y[b]) + (d[a] - d[b]);
        float dy = (y[a + 1] - y[b + 1]) + (d[a + 1] - d[b + 1]);
        float dz = (y[a + 2] - y[b + 2]) + (d[a + 2] - d[b + 2]);
        float d2 = dx * dx + dy * dy + dz * dz;
        float s = d2 > 1e-24f ? length / (float) Math.sqrt(d2) : 0f;
        out[a] = dx * s;
        out[a + 1] = dy * s;
        out[a + 2] = dz * s;
    }

    /**
     * Gauss–Seidel (SOR with ω) update of the particles of one color, (row + column) % 2 == color, in
     * rows [begin, end): q_p ← q_p + ω(m_p/h²·(y_p − q_p) + k·Σ(q_c ± p − q_p))/a_p, written on the
     * correction d = q − y (see PdSolver). Pinned particles (1/a_p = 0) keep their position.
     */
    void sweep(float[] y, float[] d, float[] massOverH2, float[] invDiagonal, float k, float omega, int color,
               int begin, int end) {
        final int c = columns;
        final int c3 = 3 * c;
        final float[] pr = projRight;
        final float[] pd = projDown;
        for (int r = begin; r < end; r++) {
            boolean up = r > 0;
            boolean below = r < rows - 1;
            for (int col = (r + color) & 1; col < c; col += 2) {
                int p = r * c + col;
                float ip = invDiagonal[p];
                if (ip == 0f) {
                    continue;
                }
                int p3 = 3 * p;
                float yx = y[p3];
                float yy = y[p3 + 1];
                float yz = y[p3 + 2];
                float dx = d[p3];
                float dy = d[p3 + 1];
                float dz = d[p3 + 2];
                float sx = 0f;
                float sy = 0f;
                float sz = 0f;
                if (col > 0) { // left neighbour: q_p ≈ q_left − p_(left→p)
                    int o = p3 - 3;
                    sx += ((y[o] - yx) + (d[o] - dx)) - pr[o];
                    sy += ((y[o + 1] - yy) + (d[o + 1] - dy)) - pr[o + 1];
                    sz += ((y[o + 2] - yz) + (d[o + 2] - dz)) - pr[o + 2];
                }
                if (col < c - 1) { // right neighbour: q_p ≈ q_right + p_(p→right)
                    int o = p3 + 3;
                    sx += ((y[o] - yx) + (d[o] - dx)) + pr[p3];
                    sy += ((y[o + 1] - yy) + (d[o + 1] - dy)) + pr[p3 + 1];
                    sz += ((y[o + 2] - yz) + (d[o + 2] - dz)) + pr[p3 + 2];
                }
                if (up) {
                    int o = p3 - c3;
                    sx += ((y[o] - yx) + (d[o] - dx)) - pd[o];
                    sy += ((y[o + 1] - yy) + (d[o + 1] - dy)) - pd[o + 1];
                    sz += ((y[o + 2] - yz) + (d[o + 2] - dz)) - pd[o + 2];
                }
                if (below) {
                    int o = p3 + c3;
                    sx += ((y[o] - yx) + (d[o] - dx)) + pd[p3];
                    sy += ((y[o + 1] - yy) + (d[o + 1] - dy)) + pd[p3 + 1];
                    sz += ((y[o + 2] - yz) + (d[o + 2] - dz)) + pd[p3 + 2];
                }
                // The correction, not the absolute target: (m/h²·(y − q) + k·Σ(q_c ± p − q)) / a_p is
                // zero at rest wherever the cloth is, where target·(1/a_p) − q rounds 1/a_p's error into
                // a pull towards the origin; and on d = q − y, so that it is not rounded to ulp(q).
                float mh = massOverH2[p];
                float sw = omega * ip;
                d[p3] = dx + sw * (k * sx - mh * dx);
                d[p3 + 1] = dy + sw * (k * sy - mh * dy);
                d[p3 + 2] = dz + sw * (k * sz - mh * dz);
            }
        }
    }
}
