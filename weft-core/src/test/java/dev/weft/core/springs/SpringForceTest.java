package dev.weft.core.springs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.SpringLayout;
import dev.weft.core.model.ModelBuilder;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SpringForceTest {
    private static final double FD_STEP = 1e-6;
    /**
     * Central differences have error O(step²·|F'''|) ≈ 1e-12 · k_s / l² here, plus rounding
     * ≈ 1e-16 · |F| / step ≈ 1e-10 · k_s: both far below 1e-6 relative to the largest entry.
     */
    private static final double REL_TOL = 1e-6;

    /** 800 N/m stretch, 300 shear, B = 10⁻³ N·m, k_d = 2.5·10⁻³ s·k_s: every term of eq. 2.13 and its Jacobians. */
    private static final java.util.function.UnaryOperator<Material> MATERIAL =
            mat -> new Material(800f, 300f, 1e-3f, 0f, 2.5e-3f, Float.POSITIVE_INFINITY);

    @Test
    void forceMatchesEq213() {
        double[] out = new double[SpringForce.STRIDE];
        // a spring stretched from rest 1 to length 2 along x, a moving away at 3 m/s
        SpringForce.evaluate(2, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 1.0, 10.0, 0.5, false, out, 0);
        // F_a = −(k_s (l − rest) + k_d Ċ) n = −(10·1 + 0.5·3) x̂
        assertThat(out[0]).isEqualTo(-11.5);
        assertThat(out[1]).isZero();
        assertThat(out[2]).isZero();
    }

    @Test
    void positionJacobianMatchesFiniteDifferencesForEverySpringType() {
        for (SpringLayout layout : SpringLayout.values()) {
            SpringSet springs = SpringSet.build(perturbedGrid().withMaterial(MATERIAL).withSpringLayout(layout));
            checkAllSprings(springs, true);
        }
    }

    @Test
    void velocityJacobianMatchesFiniteDifferencesForEverySpringType() {
        for (SpringLayout layout : SpringLayout.values()) {
            SpringSet springs = SpringSet.build(perturbedGrid().withMaterial(MATERIAL).withSpringLayout(layout));
            checkAllSprings(springs, false);
        }
    }

    @Test
    void theDroppedDampingTermIsExactlyTheNonSymmetricOne() {
        // With a relative velocity across the spring, FD ∂F_a/∂x_a = K − k_d n (∂Ċ/∂x_a)ᵀ,
        // ∂Ċ/∂x_a = (I − n nᵀ)(v_a − v_b) / l: the term Baraff–Witkin drop (eq. 4.7).
        Random rnd = new Random(3);
        for (int trial = 0; trial < 50; trial++) {
            double[] p = randomSpring(rnd);
            double rest = 0.5 + rnd.nextDouble();
            double ks = 100;
            double kd = 3;
            double[] analytic = new double[SpringForce.STRIDE];
            SpringForce.evaluate(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11],
                    rest, ks, kd, false, analytic, 0);
            double[][] fd = fdJacobian(p, 0, rest, ks, kd);
            double lx = p[0] - p[3];
            double ly = p[1] - p[4];
            double lz = p[2] - p[5];
            double l = Math.sqrt(lx * lx + ly * ly + lz * lz);
            double[] n = {lx / l, ly / l, lz / l};
            double[] rv = {p[6] - p[9], p[7] - p[10], p[8] - p[11]};
            double nr = n[0] * rv[0] + n[1] * rv[1] + n[2] * rv[2];
            double[] g = {(rv[0] - nr * n[0]) / l, (rv[1] - nr * n[1]) / l, (rv[2] - nr * n[2]) / l};
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    double expected = sym(analytic, SpringForce.DFDX, r, c) - kd * n[r] * g[c];
                    assertThat(fd[r][c]).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-6 * ks));
                }
            }
        }
    }

    @Test
    void definiteClampKeepsTheCompressedJacobianNegativeSemiDefinite() {
        double[] out = new double[SpringForce.STRIDE];
        // compressed to half its rest length: the exact K has a positive transverse eigenvalue
        SpringForce.evaluate(0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.0, 10.0, 0.0, false, out, 0);
        assertThat(out[SpringForce.DFDX + 3]).isPositive(); // yy = −t with t = k_s (l − rest)/l < 0
        SpringForce.evaluate(0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.0, 10.0, 0.0, true, out, 0);
        assertThat(out[SpringForce.DFDX]).isEqualTo(-10.0);
        assertThat(out[SpringForce.DFDX + 3]).isZero();
        assertThat(out[SpringForce.DFDX + 5]).isZero();
    }

    @Test
    void layoutsHaveTheSeedsNeighbourCounts() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("g", 9, 9, 1f, 1f));
        Model m = b.build();
        int centre = 4 * 9 + 4;
        SpringSet s24 = SpringSet.build(m.withMaterial(MATERIAL).withSpringLayout(SpringLayout.STENCIL_24));
        SpringSet s12 = SpringSet.build(m.withMaterial(MATERIAL).withSpringLayout(SpringLayout.PATTERN_12));
        SpringSet mesh = SpringSet.build(m.withMaterial(MATERIAL).withSpringLayout(SpringLayout.MESH));
        assertThat(degree(s24, centre)).isEqualTo(24);
        assertThat(degree(s12, centre)).isEqualTo(12);
        // seed 000 fig. 4.1: 4 stretch + 4 shear + 16 bend around an interior particle
        assertThat(kindsAround(s24, centre)).containsExactly(4, 4, 16);
        assertThat(kindsAround(s12, centre)).containsExactly(4, 4, 4);
        // a 9×9 grid: 2·9·8 axis + 8·8 diagonal edges; one bend spring per interior edge
        assertThat(mesh.countOf(DistanceKind.STRETCH)).isEqualTo(2 * 9 * 8 + 8 * 8);
        assertThat(mesh.countOf(DistanceKind.BEND)).isEqualTo(2 * 9 * 8 + 8 * 8 - 4 * 8);
        // each particle's incidence is sorted by neighbour (gather order is fixed)
        for (int i = 0; i < m.particleCount(); i++) {
            for (int k = s24.incidenceStart()[i] + 1; k < s24.incidenceStart()[i + 1]; k++) {
                assertThat(s24.incidenceOther()[k]).isGreaterThan(s24.incidenceOther()[k - 1]);
            }
        }
    }

    private static int degree(SpringSet s, int i) {
        return s.incidenceStart()[i + 1] - s.incidenceStart()[i];
    }

    private static int[] kindsAround(SpringSet s, int i) {
        int[] count = new int[3];
        for (int k = s.incidenceStart()[i]; k < s.incidenceStart()[i + 1]; k++) {
            count[s.kind()[s.incidenceSpring()[k]]]++;
        }
        return count;
    }

    /** A 6×6 grid with positions jittered out of plane, so springs point every way. */
    private static Model perturbedGrid() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("g", 6, 6, 1f, 1f));
        Model m = b.build();
        Random rnd = new Random(11);
        float[] x = m.restPositions();
        for (int i = 0; i < x.length; i++) {
            x[i] += 0.05f * (float) rnd.nextGaussian();
        }
        return m;
    }

    private static void checkAllSprings(SpringSet springs, boolean positions) {
        Random rnd = new Random(5);
        float[] x0 = perturbedGrid().restPositions();
        int[] kindsSeen = new int[3];
        for (int s = 0; s < springs.count(); s++) {
            int a = springs.pairs()[2 * s];
            int b = springs.pairs()[2 * s + 1];
            double[] p = new double[12];
            for (int k = 0; k < 3; k++) {
                p[k] = x0[3 * a + k] * 1.1; // stretched 10 % (and jittered) away from rest
                p[3 + k] = x0[3 * b + k] * 1.1;
            }
            double lx = p[0] - p[3];
            double ly = p[1] - p[4];
            double lz = p[2] - p[5];
            double l = Math.sqrt(lx * lx + ly * ly + lz * lz);
            // Relative velocity along the spring only: then the dropped non-symmetric term is zero and
            // K must equal the finite-difference Jacobian, k_d Ċ term included.
            double speed = rnd.nextGaussian();
            for (int k = 0; k < 3; k++) {
                double common = rnd.nextGaussian();
                double along = speed * (k == 0 ? lx : k == 1 ? ly : lz) / l;
                p[6 + k] = common + along;
                p[9 + k] = common;
            }
            double rest = springs.restLength()[s];
            double ks = springs.stiffness()[s];
            double kd = springs.damping()[s];
            double[] analytic = new double[SpringForce.STRIDE];
            SpringForce.evaluate(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11],
                    rest, ks, kd, false, analytic, 0);
            int offset = positions ? SpringForce.DFDX : SpringForce.DFDV;
            double[][] fdA = fdJacobian(p, positions ? 0 : 6, rest, ks, kd);
            double[][] fdB = fdJacobian(p, positions ? 3 : 9, rest, ks, kd);
            double scale = Math.max(ks, kd);
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    double j = sym(analytic, offset, r, c);
                    assertThat(fdA[r][c]).as("spring %d d F_a / d %s_a [%d][%d]", s, positions ? "x" : "v", r, c)
                            .isCloseTo(j, org.assertj.core.data.Offset.offset(REL_TOL * scale));
                    assertThat(fdB[r][c]).as("spring %d d F_a / d %s_b [%d][%d]", s, positions ? "x" : "v", r, c)
                            .isCloseTo(-j, org.assertj.core.data.Offset.offset(REL_TOL * scale));
                }
            }
            kindsSeen[springs.kind()[s]]++;
        }
        assertThat(kindsSeen[DistanceKind.STRETCH.code()]).isPositive();
        assertThat(kindsSeen[DistanceKind.BEND.code()]).isPositive();
    }

    /** ∂F_a/∂p[from .. from+3) by central differences (p: xa, xb, va, vb). */
    private static double[][] fdJacobian(double[] p, int from, double rest, double ks, double kd) {
        double[][] j = new double[3][3];
        double[] plus = new double[SpringForce.STRIDE];
        double[] minus = new double[SpringForce.STRIDE];
        for (int c = 0; c < 3; c++) {
            double[] q = p.clone();
            q[from + c] += FD_STEP;
            SpringForce.evaluate(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9], q[10], q[11],
                    rest, ks, kd, false, plus, 0);
            q[from + c] -= 2 * FD_STEP;
            SpringForce.evaluate(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9], q[10], q[11],
                    rest, ks, kd, false, minus, 0);
            for (int r = 0; r < 3; r++) {
                j[r][c] = (plus[r] - minus[r]) / (2 * FD_STEP);
            }
        }
        return j;
    }

    private static double sym(double[] m, int o, int r, int c) {
        int lo = Math.min(r, c);
        int hi = Math.max(r, c);
        int[][] index = {{0, 1, 2}, {1, 3, 4}, {2, 4, 5}};
        return m[o + index[lo][hi]];
    }

    private static double[] randomSpring(Random rnd) {
        double[] p = new double[12];
        for (int k = 0; k < 12; k++) {
            p[k] = rnd.nextGaussian();
        }
        return p;
    }
}
