package dev.weft.core.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.Elasticity;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.TetBodySpec;
import org.junit.jupiter.api.Test;

/** Co-rotated FEM forces and their warped stiffness ({@link ElasticTetForces}) against their definitions. */
class ElasticTetForcesTest {
    /** One cube of 0.1 m (six tetrahedra), E = 1 MPa, ν = 0.3 (λ ≠ μ, so the blocks' skew parts are not zero). */
    private static Model cube() {
        ModelBuilder b = new ModelBuilder();
        b.addTetBody(TetBodySpec.box("cube", new float[] {0.2f, 0.3f, -0.1f}, new float[] {0.3f, 0.4f, 0f}, 1, 1, 1,
                1000f, new Elasticity(1e6f, 0.3f)));
        return b.build();
    }

    private static double[] forces(ElasticTetForces f, float[] x, int n) {
        return forces(f, x, new float[3 * n], 0.0, n);
    }

    private static double[] forces(ElasticTetForces f, float[] x, float[] v, double s, int n) {
        f.evaluate(x, v, s, 0, f.count());
        double[] out = new double[3 * n];
        double[] sum = new double[3];
        for (int p = 0; p < n; p++) {
            sum[0] = 0;
            sum[1] = 0;
            sum[2] = 0;
            f.addForceOn(p, sum);
            System.arraycopy(sum, 0, out, 3 * p, 3);
        }
        return out;
    }

    /** R K Rᵀ assembled as a dense 3n × 3n matrix from the blocks (sym + ω×). */
    private static double[][] stiffness(ElasticTetForces f, int n) {
        double[][] k = new double[3 * n][3 * n];
        double[] blk = new double[ElasticTetForces.BLOCK_SIZE];
        int[] tets = f.tets();
        for (int t = 0; t < f.count(); t++) {
            for (int a = 0; a < 4; a++) {
                for (int b = 0; b < 4; b++) {
                    f.block(t, a, b, blk, 0);
                    double[][] m = {
                            {blk[0], blk[1] - blk[8], blk[2] + blk[7]},
                            {blk[1] + blk[8], blk[3], blk[4] - blk[6]},
                            {blk[2] - blk[7], blk[4] + blk[6], blk[5]}};
                    for (int r = 0; r < 3; r++) {
                        for (int c = 0; c < 3; c++) {
                            k[3 * tets[4 * t + a] + r][3 * tets[4 * t + b] + c] += m[r][c];
                        }
                    }
                }
            }
        }
        return k;
    }

    @Test
    void inTheRestShapeEveryForceIsExactlyZero() {
        Model m = cube();
        ElasticTetForces f = ElasticTetForces.of(m, "implicit");
        assertThat(forces(f, m.restPositions().clone(), m.particleCount())).containsOnly(0.0);
    }

    @Test
    void theStiffnessIsMinusTheForcesDerivativeAtRestAndInARotatedRestShape() {
        // at a rest shape (σ = 0) the rotation's derivative multiplies σ and drops out: R K Rᵀ is exactly
        // −∂f/∂x there; central differences of 1e-6 m on a 0.1 m cube (strain 1e-5) agree to ~1e-6 relative
        Model m = cube();
        int n = m.particleCount();
        float[] rest = m.restPositions();
        double angle = 0.7;
        double c = Math.cos(angle);
        double s = Math.sin(angle);
        for (boolean rotate : new boolean[] {false, true}) {
            float[] x = rest.clone();
            if (rotate) { // about z through the first node, then shifted
                for (int p = 0; p < n; p++) {
                    double dx = rest[3 * p] - rest[0];
                    double dy = rest[3 * p + 1] - rest[1];
                    x[3 * p] = (float) (rest[0] + c * dx - s * dy + 0.5);
                    x[3 * p + 1] = (float) (rest[1] + s * dx + c * dy);
                }
            }
            ElasticTetForces f = ElasticTetForces.of(m, "implicit");
            double[] f0 = forces(f, x, n);
            double largest = 0;
            for (double v : f0) {
                largest = Math.max(largest, Math.abs(v));
            }
            // rotated: float positions are not an exact rotation (rounding strains of ~1e-7, forces of ~1e-4 N)
            assertThat(largest).as("force at the rest shape, rotated %s", rotate).isLessThan(1e-2);
            double[][] k = stiffness(f, n);
            double scale = 0;
            for (double[] row : k) {
                for (double v : row) {
                    scale = Math.max(scale, Math.abs(v));
                }
            }
            float step = 1e-6f;
            for (int col = 0; col < 3 * n; col++) {
                float[] plus = x.clone();
                float[] minus = x.clone();
                plus[col] += step;
                minus[col] -= step;
                double hp = plus[col] - x[col];
                double hm = x[col] - minus[col];
                double[] fp = forces(f, plus, n);
                double[] fm = forces(f, minus, n);
                for (int row = 0; row < 3 * n; row++) {
                    double derivative = (fp[row] - fm[row]) / (hp + hm);
                    assertThat(-derivative).as("K[%d][%d], rotated %s", row, col, rotate)
                            .isCloseTo(k[row][col], within(2e-3 * scale));
                }
            }
            // symmetric as a whole, its rows summing to zero (translations cost nothing)
            for (int r = 0; r < 3 * n; r++) {
                double sum = 0;
                for (int col = 0; col < 3 * n; col++) {
                    assertThat(k[r][col]).isCloseTo(k[col][r], within(1e-9 * scale));
                    sum += k[r][col];
                }
                assertThat(sum).isCloseTo(0.0, within(1e-5 * scale));
            }
        }
    }

    @Test
    void theLookAheadSubtractsTheWarpedStiffnessTimesTheVelocity() {
        // evaluate(x, v, s) = f(x, v) − s R K Rᵀ v, with R K Rᵀ the blocks' matrix at the same x: what the implicit
        // step's right-hand side needs (f + h ∂f/∂x v), checked at a deformed, rotated state with random velocities
        Model m = cube();
        int n = m.particleCount();
        java.util.Random random = new java.util.Random(7);
        float[] x = m.restPositions().clone();
        float[] v = new float[3 * n];
        for (int p = 0; p < n; p++) { // a quarter turn about y, and 5 mm of noise
            float dx = x[3 * p] - 0.25f;
            float dz = x[3 * p + 2] + 0.05f;
            x[3 * p] = 0.25f + dz + 0.005f * (float) random.nextGaussian();
            x[3 * p + 1] += 0.005f * (float) random.nextGaussian();
            x[3 * p + 2] = -0.05f - dx + 0.005f * (float) random.nextGaussian();
        }
        for (int k = 0; k < v.length; k++) {
            v[k] = (float) random.nextGaussian();
        }
        ElasticTetForces f = ElasticTetForces.of(m, "implicit");
        double s = 1e-3;
        double[] plain = forces(f, x, v, 0.0, n);
        double[] ahead = forces(f, x, v, s, n);
        double[][] k = stiffness(f, n);
        double largest = 0;
        double[] kv = new double[3 * n];
        for (int r = 0; r < 3 * n; r++) {
            for (int c = 0; c < 3 * n; c++) {
                kv[r] += k[r][c] * v[c];
            }
            largest = Math.max(largest, Math.abs(kv[r]));
        }
        assertThat(largest).as("|K v|, N/s").isGreaterThan(1e3);
        for (int r = 0; r < 3 * n; r++) {
            assertThat((plain[r] - ahead[r]) / s).as("row %d", r).isCloseTo(kv[r], within(1e-6 * largest));
        }
    }
}
