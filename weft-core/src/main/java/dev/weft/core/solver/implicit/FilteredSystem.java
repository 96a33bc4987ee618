package dev.weft.core.solver.implicit;

/**
 * The linear system of one implicit step, {@code A Δv = b}, with Baraff–Witkin's constraint filter S
 * and the prescribed velocity changes z in the constrained directions (seed 000 eqs. 4.9, 4.10): a
 * solver returns Δv with {@code S (A Δv − b) ≈ 0} and {@code (I − S) Δv = (I − S) z}. Also holds the
 * inverses of A's diagonal blocks (the block-Jacobi preconditioner, and Jacobi's D⁻¹).
 */
public final class FilteredSystem {
    private final BlockSparseMatrix a;
    private final double[] b;
    private final double[] z;
    private final double[] blockInverse;
    private final ParticleFilter filter;

    public FilteredSystem(BlockSparseMatrix a) {
        this.a = a;
        int n = a.rows();
        this.b = new double[3 * n];
        this.z = new double[3 * n];
        this.blockInverse = new double[9 * n];
        this.filter = new ParticleFilter(n);
    }

    public int rows() {
        return a.rows();
    }

    public BlockSparseMatrix matrix() {
        return a;
    }

    public double[] rhs() {
        return b;
    }

    /** Prescribed Δv; only its constrained part (I − S) z is used. */
    public double[] prescribed() {
        return z;
    }

    public double[] blockInverse() {
        return blockInverse;
    }

    public ParticleFilter filter() {
        return filter;
    }

    /**
     * Inverts every diagonal block (single-threaded; the implicit solver does it during assembly).
     *
     * @return the first row whose diagonal block is singular or not positive definite, or −1
     */
    public int invertDiagonalBlocks() {
        for (int i = 0; i < a.rows(); i++) {
            if (!a.invertDiagonal(i, blockInverse)) {
                return i;
            }
        }
        return -1;
    }

    /** out_i = P_i⁻¹ in_i (3-vector at row i). */
    void precondition(double[] in, double[] out, int i) {
        int i3 = 3 * i;
        int o = 9 * i;
        double x = in[i3];
        double y = in[i3 + 1];
        double w = in[i3 + 2];
        double[] p = blockInverse;
        out[i3] = p[o] * x + p[o + 1] * y + p[o + 2] * w;
        out[i3 + 1] = p[o + 3] * x + p[o + 4] * y + p[o + 5] * w;
        out[i3 + 2] = p[o + 6] * x + p[o + 7] * y + p[o + 8] * w;
    }
}
