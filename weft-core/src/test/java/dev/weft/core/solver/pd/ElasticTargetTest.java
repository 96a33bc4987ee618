package dev.weft.core.solver.pd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.geom.RotationSvd;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * PD's tetrahedron target: strain's nearest rotation and volume's nearest F of determinant 1, by Newton steps
 * where F is well oriented and by the SVD where it is squashed or inverted; both must be what they claim.
 */
class ElasticTargetTest {
    private final double[] svd = new double[RotationSvd.SIZE];
    private final double[] out = new double[9];

    @Test
    void theIdentityIsItsOwnTargetExactly() {
        for (float share : new float[] {0f, 0.3f, 1f}) {
            ElasticTarget.targetMinusF(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, share, svd, out);
            assertThat(out).containsOnly(0.0);
        }
    }

    @Test
    void newtonAndTheSvdFindTheSameRotationAndBothReachUnitDeterminant() {
        Random random = new Random(3);
        double[] bySvd = new double[9];
        for (int trial = 0; trial < 500; trial++) {
            double[] f = deformed(random, 0.3);
            // strain alone: P = R, the rotation nearest F; the SVD's U Vᵀ is that rotation by definition
            ElasticTarget.targetMinusF(f, 1f, svd, out);
            ElasticTarget.bySvd(f, 1f, svd, bySvd);
            for (int i = 0; i < 9; i++) {
                assertThat(out[i]).isCloseTo(bySvd[i], within(1e-7));
            }
            // volume alone: P_v has det 1, and for this strain it lies close to the singular-value projection
            ElasticTarget.targetMinusF(f, 0f, svd, out);
            ElasticTarget.bySvd(f, 0f, svd, bySvd);
            assertThat(det(f, out)).isCloseTo(1, within(1e-9));
            assertThat(det(f, bySvd)).isCloseTo(1, within(1e-9));
            for (int i = 0; i < 9; i++) {
                assertThat(out[i]).isCloseTo(bySvd[i], within(0.05));
            }
        }
    }

    @Test
    void anInvertedTetrahedronIsPulledTowardsARotationNotAReflection() {
        // F = diag(1, 1, -0.5): the nearest rotation is not the identity's mirror; P = R must have det +1
        double[] f = {1, 0, 0, 0, 1, 0, 0, 0, -0.5};
        ElasticTarget.targetMinusF(f, 1f, svd, out);
        assertThat(det(f, out)).isCloseTo(1, within(1e-9));
    }

    /** A random rotation times (I + a random strain of size {@code strain}). */
    private static double[] deformed(Random random, double strain) {
        double[] q = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
        double n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        double w = q[0] / n;
        double x = q[1] / n;
        double y = q[2] / n;
        double z = q[3] / n;
        double[] r = {
            1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
        double[] s = new double[9];
        for (int i = 0; i < 9; i++) {
            s[i] = (i % 4 == 0 ? 1 : 0) + strain * (random.nextDouble() - 0.5);
        }
        double[] f = new double[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                for (int k = 0; k < 3; k++) {
                    f[3 * i + j] += r[3 * i + k] * s[3 * k + j];
                }
            }
        }
        return f;
    }

    /** det(F + D). */
    private static double det(double[] f, double[] d) {
        double[] m = new double[9];
        for (int i = 0; i < 9; i++) {
            m[i] = f[i] + d[i];
        }
        return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
                + m[2] * (m[3] * m[7] - m[4] * m[6]);
    }
}
