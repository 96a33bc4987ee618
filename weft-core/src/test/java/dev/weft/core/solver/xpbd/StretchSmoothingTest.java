package dev.weft.core.solver.xpbd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.weft.core.InvalidInputException;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.RopeSpec;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.step.Environment;
import org.junit.jupiter.api.Test;

/**
 * XPBD's stretch smoothing ({@link XpbdSettings#stretchSmoothing()}): after the stretch passes, half a projection
 * of every stretch color but the last. The laws: a colored sweep over a uniformly stretched chain leaves its first
 * color at twice the stretch and its last one exact, and the half pass spreads that evenly (each edge at the
 * stretch, the chain's length kept); a hanging cloth's largest strain drops for the same substeps; the colors share
 * no particle, so 1, 2 and 3 threads give the same bits, as do the vector lanes and the scalar loops; the
 * sequential and Jacobi modes, which leave no colored residual, refuse it by name.
 */
class StretchSmoothingTest {
    private static final float FRAME = 1f / 60f;

    /** A free, straight chain along x (no pins, no bending): the colors are its even and its odd edges. */
    private static Model chain(int particles) {
        ModelBuilder b = new ModelBuilder();
        b.addRope(new RopeSpec("chain", new float[] {0f, 0f, 0f, 1f, 0f, 0f}, particles, 0.1f));
        return b.build().withMaterial(mat -> mat.withStretch(Float.POSITIVE_INFINITY).withBend(0f));
    }

    private static double[] edgeStrains(Model m, float[] x) {
        int n = m.particleCount();
        float rest = 1f / (n - 1);
        double[] strain = new double[n - 1];
        for (int i = 0; i + 1 < n; i++) {
            double dx = x[3 * i + 3] - x[3 * i];
            double dy = x[3 * i + 4] - x[3 * i + 1];
            double dz = x[3 * i + 5] - x[3 * i + 2];
            strain[i] = Math.sqrt(dx * dx + dy * dy + dz * dz) / rest - 1;
        }
        return strain;
    }

    /** The chain's edge strains after one distance sweep from every edge stretched by {@code s}. */
    private static double[] oneSweepFromUniformStretch(boolean smoothing, float s) {
        Model m = chain(65);
        State state = State.atRest(m);
        float[] x = state.positions();
        for (int i = 0; i < x.length; i += 3) {
            x[i] *= 1f + s;
        }
        try (WorkerPool pool = new WorkerPool(1)) {
            XpbdSettings settings = XpbdSettings.defaults().withStretchPasses(1).withStretchSmoothing(smoothing);
            new XpbdSolver(settings, pool).relax(m, state, FRAME, 1, XpbdSolver.DISTANCES);
        }
        return edgeStrains(m, state.positions());
    }

    @Test
    void aUniformlyStretchedChainsResidualIsSpreadEvenlyAndItsLengthKept() {
        float s = 0.01f;
        double[] plain = oneSweepFromUniformStretch(false, s);
        double[] smoothed = oneSweepFromUniformStretch(true, s);
        // away from the free ends (a projection there has one neighbour to pass its shortening to), each projection
        // of an edge moves its ends by half its excess: the first color ends exact and the second color's
        // projections stretch it by 2s; the second color ends exact. Half a projection of the first color then
        // moves its ends by s / 2 each: s on every edge.
        double first = 0;
        double second = 0;
        for (int e = 8; e < plain.length - 8; e++) {
            double other = plain[e + 1];
            // which parity is the first color: the one the plain sweep left stretched
            if (plain[e] > other) {
                assertThat(plain[e]).as("plain, edge %d", e).isCloseTo(2 * s, offset(2e-4));
                assertThat(other).as("plain, edge %d", e + 1).isCloseTo(0, offset(2e-4));
            }
            assertThat(smoothed[e]).as("smoothed, edge %d", e).isCloseTo(s, offset(2e-4));
            first = Math.max(first, plain[e]);
            second = Math.max(second, smoothed[e]);
        }
        assertThat(first).isCloseTo(2 * s, offset(2e-4));
        assertThat(second).isCloseTo(s, offset(2e-4));
        // the same length over the interior: the half pass moves stretch between edges, it adds or removes none
        double plainLength = 0;
        double smoothedLength = 0;
        for (int e = 8; e < plain.length - 8; e++) {
            plainLength += plain[e];
            smoothedLength += smoothed[e];
        }
        assertThat(smoothedLength).isCloseTo(plainLength, offset(1e-3 * plainLength));
    }

    private static Model hangingCloth(int side) {
        return StretchLimitsTest.hangingCloth(side);
    }

    private static double peakStrainOverTheLastHalfSecond(boolean smoothing) {
        Model m = hangingCloth(48);
        XpbdSettings s = XpbdSettings.defaults().withTethers(false).withStretchSmoothing(smoothing);
        double peak = 0;
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), new XpbdSolver(s, pool), Environment.earth(), 3)) {
            for (int f = 0; f < 120; f++) {
                sim.advance(FRAME);
                if (f >= 90) {
                    peak = Math.max(peak, ClothMetrics.maxStrain(m, sim.state().positions()));
                }
            }
        }
        return peak;
    }

    @Test
    void aHangingClothsLargestStrainDropsForTheSameSubsteps() {
        double without = peakStrainOverTheLastHalfSecond(false);
        double with = peakStrainOverTheLastHalfSecond(true);
        // 48 x 48, 3 substeps of two stretch passes, no tethers: far from converged, the stretch of a column sits on
        // its first-projected edges
        assertThat(without).as("without the smoothing").isGreaterThan(0.02);
        assertThat(with).as("with the smoothing, against %.4f without", without).isLessThan(0.8 * without);
    }

    @Test
    void oneTwoAndThreeThreadsGiveBitwiseIdenticalResults() {
        // 128 x 128: every color has over WorkerPool.MIN_PARALLEL_ITEMS constraints, so every pass splits (the limits'
        // coarsest colors have fewer: StretchLimitsTest splits them at 256 x 256)
        Model m = hangingCloth(128);
        XpbdSettings s = XpbdSettings.defaults().withStretchSmoothing(true);
        float[][] result = XpbdRuns.onOneTwoAndThreeThreads(m, s, 3);
        assertThat(result[1]).isEqualTo(result[0]);
        assertThat(result[2]).isEqualTo(result[0]);
    }

    /** The lanes' half projections do the scalar loops' arithmetic lane by lane: the same bits. */
    @Test
    void inVectorLanesTheSmoothingGivesTheScalarLoopsBits() {
        Model m = hangingCloth(48);
        XpbdSettings s = XpbdSettings.defaults().withStretchSmoothing(true).withStretchLimits(true);
        float[][] result = XpbdRuns.scalarAndInLanes(m, s, 30, XpbdSolver::distancesInLanes, "distances in lanes");
        assertThat(result[1]).isEqualTo(result[0]);
    }

    @Test
    void theSequentialAndJacobiModesRefuseItByName() {
        for (IterationMode mode : new IterationMode[] {IterationMode.GAUSS_SEIDEL, IterationMode.JACOBI}) {
            assertThatThrownBy(() -> XpbdSettings.defaults().withStretchSmoothing(true).withMode(mode))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("stretch smoothing").hasMessageContaining("colored")
                    .hasMessageContaining(mode.label());
        }
    }
}
