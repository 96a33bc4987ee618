package dev.weft.core.geom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The rotation nearest a matrix ({@link PolarRotation}): Newton's branch and the SVD's agree with R of F = R S. */
class PolarRotationTest {
    private static double[] product(double[] a, double[] b) {
        double[] c = new double[9];
        for (int r = 0; r < 3; r++) {
            for (int k = 0; k < 3; k++) {
                for (int j = 0; j < 3; j++) {
                    c[3 * r + j] += a[3 * r + k] * b[3 * k + j];
                }
            }
        }
        return c;
    }

    /** A rotation of 0.9 rad about the axis (1, 2, 2)/3. */
    private static double[] rotation() {
        double x = 1.0 / 3;
        double y = 2.0 / 3;
        double z = 2.0 / 3;
        double c = Math.cos(0.9);
        double s = Math.sin(0.9);
        double t = 1 - c;
        return new double[] {
                t * x * x + c, t * x * y - s * z, t * x * z + s * y,
                t * x * y + s * z, t * y * y + c, t * y * z - s * x,
                t * x * z - s * y, t * y * z + s * x, t * z * z + c};
    }

    @Test
    void theIdentityIsExactlyItsOwnRotation() {
        double[] out = new double[9];
        PolarRotation.nearest(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, new double[RotationSvd.SIZE], out);
        assertThat(out).containsExactly(1, 0, 0, 0, 1, 0, 0, 0, 1);
    }

    @Test
    void aRotatedStretchGivesItsRotationOnEitherBranch() {
        double[] q = rotation();
        // S symmetric positive definite: det 1.2 (Newton), and squashed to det 0.012 (the SVD)
        double[][] stretches = {{1.3, 0.2, 0.1, 0.2, 0.9, 0.05, 0.1, 0.05, 1.1},
                {0.3, 0.02, 0.01, 0.02, 0.2, 0.005, 0.01, 0.005, 0.2}};
        for (double[] s : stretches) {
            double[] out = new double[9];
            PolarRotation.nearest(product(q, s), new double[RotationSvd.SIZE], out);
            for (int k = 0; k < 9; k++) {
                assertThat(out[k]).as("entry %d", k).isCloseTo(q[k], within(1e-9));
            }
        }
    }

    @Test
    void anInvertedMatrixGetsARotationNotAReflection() {
        // F = Q diag(1, 1, −0.5): the nearest proper rotation is Q itself (rotation-variant SVD), det +1
        double[] q = rotation();
        double[] f = product(q, new double[] {1, 0, 0, 0, 1, 0, 0, 0, -0.5});
        double[] r = new double[9];
        PolarRotation.nearest(f, new double[RotationSvd.SIZE], r);
        double det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6])
                + r[2] * (r[3] * r[7] - r[4] * r[6]);
        assertThat(det).isCloseTo(1.0, within(1e-9));
        for (int k = 0; k < 9; k++) {
            assertThat(r[k]).as("entry %d", k).isCloseTo(q[k], within(1e-9));
        }
    }
}
