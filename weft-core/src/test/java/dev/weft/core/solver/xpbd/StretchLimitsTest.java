package dev.weft.core.solver.xpbd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.step.Environment;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * XPBD's hierarchical stretch limits ({@link XpbdSettings#stretchLimits()}, {@link StretchLimits}): the chord
 * between two particles k apart on a grid row or column may not exceed the rest length of the path between them.
 * The laws: a chord within its path's length is never touched (no stiffness where the cloth bends or folds); a
 * longer one is brought back to it by inverse mass, a pinned end staying put; a hanging cloth stretches less for the
 * same substeps; the colors share no particle, so 1, 2 and 3 threads give the same bits; a path a tear broke has
 * no limit.
 */
class StretchLimitsTest {
    private static final float FRAME = 1f / 60f;

    /** A cloth hanging from its pinned top edge, inextensible, with distance bending (StretchSmoothingTest too). */
    static Model hangingCloth(int side) {
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE);
        ModelObject c = b.addGridCloth(GridClothSpec.of("c", side, side, 1f, 1f)
                .withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]).withOrigin(-0.5f, 1f, 0f));
        b.pinEdge(c, "top");
        return b.build().withMaterial(mat -> mat.withStretch(Float.POSITIVE_INFINITY)
                .withShear(Float.POSITIVE_INFINITY));
    }

    @Test
    void aChordWithinItsPathIsUntouchedAndALongerOneIsBroughtBackByInverseMass() {
        // particle 0 pinned at the origin, 1 free; limits of length 1 between them
        float[] w = {0f, 1f};
        float[] d = new float[6];
        float[] bent = {0f, 0f, 0f, 0.6f, 0.7f, 0f}; // chord 0.92: shorter than the path, as where a cloth folds
        StretchLimits.projectRange(new int[] {0, 1}, new float[] {1f}, w, bent, d, 0, 1);
        assertThat(d).containsOnly(0f);
        float[] stretched = {0f, 0f, 0f, 0f, -1.3f, 0f};
        StretchLimits.projectRange(new int[] {0, 1}, new float[] {1f}, w, stretched, d, 0, 1);
        assertThat(d[0]).isZero(); // the pinned end stays
        assertThat(d[4]).isCloseTo(0.3f, org.assertj.core.data.Offset.offset(1e-6f));
        // two free particles share the correction equally (equal masses), along the chord
        float[] both = {0f, 0f, 0f, 2f, 0f, 0f};
        float[] d2 = new float[6];
        StretchLimits.projectRange(new int[] {0, 1}, new float[] {1f}, new float[] {1f, 1f}, both, d2, 0, 1);
        assertThat(d2).containsExactly(0.5f, 0f, 0f, -0.5f, 0f, 0f);
    }

    @Test
    void everyLimitIsItsPathsRestLengthAndAColorSharesNoParticle() {
        int side = 17;
        Model m = hangingCloth(side);
        StretchLimits limits = StretchLimits.of(m);
        float spacing = 1f / (side - 1);
        // levels 16, 8, 4, 2 on lines of 17 particles (16 edges): 1 + 2 + 4 + 8 segments per row and per column
        assertThat(limits.count()).isEqualTo(2 * side * (1 + 2 + 4 + 8));
        float[] x = State.atRest(m).positions();
        for (int c = 0; c + 1 < limits.colorStart.length; c++) {
            Set<Integer> used = new HashSet<>();
            for (int l = limits.colorStart[c]; l < limits.colorStart[c + 1]; l++) {
                int a = limits.particles[2 * l];
                int b = limits.particles[2 * l + 1];
                assertThat(used.add(a) && used.add(b)).as("color %d: limit %d shares a particle", c, l).isTrue();
                float dx = x[3 * b] - x[3 * a];
                float dy = x[3 * b + 1] - x[3 * a + 1];
                float dz = x[3 * b + 2] - x[3 * a + 2];
                float chord = (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
                // a flat grid: the path is straight, so its length is the chord, k spacings
                assertThat(limits.maxLength[l]).isCloseTo(chord, org.assertj.core.data.Offset.offset(1e-5f));
                assertThat(Math.round(chord / spacing)).isIn(2, 4, 8, 16);
            }
        }
        // coarse first: the first color's limits are the longest
        assertThat(limits.maxLength[0]).isCloseTo(16 * spacing, org.assertj.core.data.Offset.offset(1e-5f));
    }

    @Test
    void aHangingClothStretchesLessWithTheLimitsForTheSameSubsteps() {
        double without = peakStrainOverTheLastHalfSecond(false);
        double with = peakStrainOverTheLastHalfSecond(true);
        // 48 x 48, 3 substeps of one iteration: the colored sweep carries a correction about an edge a pass, so
        // the columns' stretch is far from converged; the limits carry it 2, 4, …, 32 rows at once
        assertThat(without).as("without the limits").isGreaterThan(0.02);
        assertThat(with).as("with the limits, against %.4f without", without).isLessThan(0.8 * without);
    }

    private static double peakStrainOverTheLastHalfSecond(boolean limits) {
        Model m = hangingCloth(48);
        XpbdSettings s = XpbdSettings.defaults().withStretchPasses(1).withTethers(false).withStretchLimits(limits);
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
    void oneTwoAndThreeThreadsGiveBitwiseIdenticalResults() {
        // 256 x 256: every color of every level has at least WorkerPool.MIN_PARALLEL_ITEMS limits (the coarsest,
        // 128 rows long, one per row and per column), so every pass splits
        Model m = hangingCloth(256);
        XpbdSettings s = XpbdSettings.defaults().withStretchLimits(true);
        StretchLimits limits = StretchLimits.of(m);
        for (int c = 0; c + 1 < limits.colorStart.length; c++) {
            assertThat(limits.colorStart[c + 1] - limits.colorStart[c]).isGreaterThanOrEqualTo(WorkerPool.MIN_PARALLEL_ITEMS);
        }
        float[][] result = XpbdRuns.onOneTwoAndThreeThreads(m, s, 3);
        assertThat(result[1]).isEqualTo(result[0]);
        assertThat(result[2]).isEqualTo(result[0]);
    }

    /**
     * Where the distances run in vector lanes the limits do too, on the same axis arrays (each color in the order of
     * its first slot: a column level's segments are runs); the arithmetic is the scalar pass's, lane by lane, so the
     * results are its bits.
     */
    @Test
    void inVectorLanesTheLimitsGiveTheScalarPassesBits() {
        Model m = hangingCloth(48);
        XpbdSettings s = XpbdSettings.defaults().withStretchLimits(true);
        float[][] result = XpbdRuns.scalarAndInLanes(m, s, 30, XpbdSolver::limitsInLanes, "limits in lanes");
        assertThat(result[1]).isEqualTo(result[0]);
    }

    @Test
    void aColumnTornAcrossHasNoLimitOverTheTearAndItsLowerPartFalls() {
        int side = 16;
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE).tethers(false);
        ModelObject c = b.addGridCloth(GridClothSpec.of("c", side, side, 1f, 1f)
                .withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]).withOrigin(-0.5f, 1f, 0f));
        b.pinEdge(c, "top");
        b.tearStrain(c, 0.05f);
        Model m = b.build();
        XpbdSettings s = XpbdSettings.defaults().withStretchLimits(true);
        // a weight pulls the lowest row down until the cloth tears
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), new XpbdSolver(s, pool), Environment.earth(), 4)) {
            sim.setTearing(true);
            float[] v = sim.state().velocities();
            for (int col = 0; col < side; col++) {
                v[3 * c.gridParticle(side - 1, col) + 1] = -30f;
            }
            for (int f = 0; f < 30 && sim.model().particleCount() == m.particleCount(); f++) {
                sim.advance(FRAME);
            }
            Model torn = sim.model();
            assertThat(torn.particleCount()).as("the cloth tore").isGreaterThan(m.particleCount());
            StretchLimits limits = StretchLimits.of(torn);
            Set<Long> edges = new HashSet<>();
            int[] pairs = torn.distances().particles();
            for (int e = 0; e < pairs.length; e += 2) {
                edges.add(key(pairs[e], pairs[e + 1]));
            }
            ModelObject o = torn.objects().get(0);
            int cols = o.gridCols();
            for (int l = 0; l < limits.count(); l++) {
                int a = limits.particles[2 * l] - o.firstParticle();
                int z = limits.particles[2 * l + 1] - o.firstParticle();
                int step = z - a < cols ? 1 : cols; // along a row or down a column
                for (int p = a; p < z; p += step) {
                    assertThat(edges).as("limit %d over a missing edge at %d", l, p)
                            .contains(key(o.firstParticle() + p, o.firstParticle() + p + step));
                }
            }
            assertThat(limits.count()).as("the untorn paths keep theirs").isPositive();
        }
    }

    private static long key(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }
}
