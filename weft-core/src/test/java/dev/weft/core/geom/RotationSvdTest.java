package dev.weft.core.geom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The rotation-variant SVD: F = U Σ Vᵀ with U, V rotations, σ sorted, the smallest signed by det F. */
class RotationSvdTest {
    private static final int U = RotationSvd.U;
    private static final int S = RotationSvd.SIGMA;
    private static final int V = RotationSvd.V;

    @Test
    void theIdentityComesOutExact() {
        double[] out = new double[RotationSvd.SIZE];
        RotationSvd.decompose(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, 0, out);
        double[] expected = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        for (int i = 0; i < 9; i++) {
            assertThat(out[U + i]).isEqualTo(expected[i]);
            assertThat(out[V + i]).isEqualTo(expected[i]);
        }
        assertThat(new double[] {out[S], out[S + 1], out[S + 2]}).containsExactly(1, 1, 1);
    }

    @Test
    void anyMatrixIsRebuiltFromRotationsAndSortedSignedSingularValues() {
        Random random = new Random(7);
        double[] out = new double[RotationSvd.SIZE];
        for (int trial = 0; trial < 2000; trial++) {
            double[] f = new double[9];
            for (int i = 0; i < 9; i++) {
                f[i] = random.nextGaussian();
            }
            RotationSvd.decompose(f, 0, out);
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    double rebuilt = 0;
                    for (int k = 0; k < 3; k++) {
                        rebuilt += out[U + 3 * r + k] * out[S + k] * out[V + 3 * c + k];
                    }
                    // the eigen-solver stops at an off-diagonal of 1e-8 relative: float's precision, not double's
                    assertThat(rebuilt).isCloseTo(f[3 * r + c], within(1e-6));
                }
            }
            assertThat(det(out, U)).isCloseTo(1, within(1e-9));
            assertThat(det(out, V)).isCloseTo(1, within(1e-9));
            assertThat(out[S]).isGreaterThanOrEqualTo(out[S + 1] - 1e-9);
            assertThat(out[S + 1]).isGreaterThanOrEqualTo(Math.abs(out[S + 2]) - 1e-9);
            // the product of the signed singular values is det F
            assertThat(out[S] * out[S + 1] * out[S + 2]).isCloseTo(det(f, 0), within(1e-6));
        }
    }

    @Test
    void anInvertedMatrixGetsANegativeSmallestValueNotAReflection() {
        double[] out = new double[RotationSvd.SIZE];
        RotationSvd.decompose(new double[] {1, 0, 0, 0, 1, 0, 0, 0, -0.5}, 0, out);
        assertThat(out[S + 2]).isCloseTo(-0.5, within(1e-12));
        assertThat(det(out, U)).isCloseTo(1, within(1e-12));
    }

    private static double det(double[] m, int o) {
        return m[o] * (m[o + 4] * m[o + 8] - m[o + 5] * m[o + 7]) - m[o + 1] * (m[o + 3] * m[o + 8] - m[o + 5] * m[o + 6])
                + m[o + 2] * (m[o + 3] * m[o + 7] - m[o + 4] * m[o + 6]);
    }
}
