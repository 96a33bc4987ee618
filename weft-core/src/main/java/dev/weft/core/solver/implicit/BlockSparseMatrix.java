package dev.weft.core.solver.implicit;

import java.util.Arrays;

/**
 * A square sparse matrix of symmetric 3 × 3 blocks in compressed-sparse-row form: row i's blocks are
 * entries {@code rowStart[i] .. rowStart[i+1]-1}, block columns {@code col[k]} ascending, every row
 * holding its diagonal block. Every block of the implicit cloth system is itself symmetric, so entry k
 * stores its 6 distinct values (xx, xy, xz, yy, yz, zz) at {@code values[6k .. 6k+5]} of one flat
 * {@code float[]}: no object per entry, and a matrix-vector product streams the values in order.
 * Values are single precision (7 digits, plenty for a matrix assembled from single-precision
 * positions); products accumulate in double. Rows are written by whoever owns them (gather-style assembly).
 *
 * <p>Elastic tetrahedra's off-diagonal blocks are not symmetric (only the matrix as a whole is): with
 * {@link #withSkewParts} an entry also holds the axial vector ω of its skew part, 3 floats at
 * {@code skew[3k .. 3k+2]}, the block acting as {@code sym · x + ω × x}; entry (j, i) holds −ω. Without
 * tetrahedra there is no skew array and the product is the symmetric one alone.
 */
public final class BlockSparseMatrix {
    /** Doubles per stored block. */
    public static final int BLOCK = 6;

    private final int rows;
    private final int[] rowStart;
    private final int[] col;
    private final int[] diagonal;
    private final float[] values;
    private float[] skew;

    /**
     * @param rowStart n + 1 offsets into {@code col}
     * @param col      block column per entry, strictly ascending within a row, diagonal included
     */
    public BlockSparseMatrix(int[] rowStart, int[] col) {
        this.rows = rowStart.length - 1;
        this.rowStart = rowStart;
        this.col = col;
        this.diagonal = new int[rows];
        for (int i = 0; i < rows; i++) {
            diagonal[i] = -1;
            for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
                if (k > rowStart[i] && col[k] <= col[k - 1]) {
                    throw new IllegalArgumentException("row " + i + ": block columns not strictly ascending");
                }
                if (col[k] < 0 || col[k] >= rows) {
                    throw new IllegalArgumentException("row " + i + ": block column " + col[k] + " out of range");
                }
                if (col[k] == i) {
                    diagonal[i] = k;
                }
            }
            if (diagonal[i] < 0) {
                throw new IllegalArgumentException("row " + i + " has no diagonal block");
            }
        }
        this.values = new float[BLOCK * col.length];
    }

    /** Gives every entry a skew part (zero until written), for non-symmetric blocks. Returns this matrix. */
    public BlockSparseMatrix withSkewParts() {
        if (skew == null) {
            skew = new float[3 * col.length];
        }
        return this;
    }

    /** ω of each entry's skew part, 3 floats per entry; null without {@link #withSkewParts}. Written by assembly. */
    public float[] skew() {
        return skew;
    }

    /** Block rows (= particles); the matrix is 3·rows × 3·rows. */
    public int rows() {
        return rows;
    }

    /** Entries (i, j) with a block, both triangles counted. */
    public int entryCount() {
        return col.length;
    }

    public int[] rowStart() {
        return rowStart;
    }

    public int[] columns() {
        return col;
    }

    /** Entry index of row i's diagonal block. */
    public int diagonalEntry(int i) {
        return diagonal[i];
    }

    /** 6 values (xx, xy, xz, yy, yz, zz) per entry. Written by assembly. */
    public float[] values() {
        return values;
    }

    /** Entry index of block (i, j), or −1 where it is structurally zero. */
    public int entryIndex(int i, int j) {
        int k = Arrays.binarySearch(col, rowStart[i], rowStart[i + 1], j);
        return k >= 0 ? k : -1;
    }

    /** y_i = Σ_j A_ij x_j for block rows [begin, end). */
    public void multiply(double[] x, double[] y, int begin, int end) {
        for (int i = begin; i < end; i++) {
            multiplyRow(x, y, i);
        }
    }

    /** y_i = Σ_j A_ij x_j for one block row. */
    public void multiplyRow(double[] x, double[] y, int i) {
        multiplyRow(x, y, 3 * i, i);
    }

    /** Row i of A x into {@code y[o .. o+2]}. */
    public void multiplyRow(double[] x, double[] y, int out, int i) {
        if (skew != null) {
            multiplyRowWithSkew(x, y, out, i);
            return;
        }
        double sx = 0.0;
        double sy = 0.0;
        double sz = 0.0;
        final float[] a = values;
        final int[] c = col;
        for (int k = rowStart[i], end = rowStart[i + 1]; k < end; k++) {
            int j3 = 3 * c[k];
            int o = BLOCK * k;
            double xj = x[j3];
            double yj = x[j3 + 1];
            double zj = x[j3 + 2];
            double axy = a[o + 1];
            double axz = a[o + 2];
            double ayz = a[o + 4];
            sx += a[o] * xj + axy * yj + axz * zj;
            sy += axy * xj + a[o + 3] * yj + ayz * zj;
            sz += axz * xj + ayz * yj + a[o + 5] * zj;
        }
        y[out] = sx;
        y[out + 1] = sy;
        y[out + 2] = sz;
    }

    /** {@link #multiplyRow(double[], double[], int, int)} with each block's skew part: sym · x + ω × x. */
    private void multiplyRowWithSkew(double[] x, double[] y, int out, int i) {
        double sx = 0.0;
        double sy = 0.0;
        double sz = 0.0;
        final float[] a = values;
        final float[] w = skew;
        final int[] c = col;
        for (int k = rowStart[i], end = rowStart[i + 1]; k < end; k++) {
            int j3 = 3 * c[k];
            int o = BLOCK * k;
            int s = 3 * k;
            double xj = x[j3];
            double yj = x[j3 + 1];
            double zj = x[j3 + 2];
            double axy = a[o + 1];
            double axz = a[o + 2];
            double ayz = a[o + 4];
            double wx = w[s];
            double wy = w[s + 1];
            double wz = w[s + 2];
            sx += a[o] * xj + axy * yj + axz * zj + (wy * zj - wz * yj);
            sy += axy * xj + a[o + 3] * yj + ayz * zj + (wz * xj - wx * zj);
            sz += axz * xj + ayz * yj + a[o + 5] * zj + (wx * yj - wy * xj);
        }
        y[out] = sx;
        y[out + 1] = sy;
        y[out + 2] = sz;
    }

    /**
     * Inverts row i's diagonal block into {@code out[9i .. 9i+8]} (row-major) when it is positive
     * definite. Returns false (and writes nothing) for a block that is not, or is numerically singular:
     * its leading minors must stay above 1e-12 of the block's scale.
     */
    public boolean invertDiagonal(int i, double[] out) {
        int o = BLOCK * diagonal[i];
        double a = values[o];
        double b = values[o + 1];
        double c = values[o + 2];
        double d = values[o + 3];
        double e = values[o + 4];
        double f = values[o + 5];
        double scale = Math.abs(a) + Math.abs(d) + Math.abs(f);
        double m2 = a * d - b * b;
        double c00 = d * f - e * e;
        double c01 = c * e - b * f;
        double c02 = b * e - c * d;
        double det = a * c00 + b * c01 + c * c02;
        double eps = 1e-12;
        if (!(a > eps * scale) || !(m2 > eps * scale * scale) || !(det > eps * scale * scale * scale)
                || !Double.isFinite(det)) {
            return false;
        }
        double inv = 1.0 / det;
        int p = 9 * i;
        double c11 = (a * f - c * c) * inv;
        double c12 = (b * c - a * e) * inv;
        out[p] = c00 * inv;
        out[p + 1] = c01 * inv;
        out[p + 2] = c02 * inv;
        out[p + 3] = c01 * inv;
        out[p + 4] = c11;
        out[p + 5] = c12;
        out[p + 6] = c02 * inv;
        out[p + 7] = c12;
        out[p + 8] = m2 * inv;
        return true;
    }
}
