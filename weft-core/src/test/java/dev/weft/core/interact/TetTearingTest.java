package dev.weft.core.interact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ConstantVelocityMotion;
import dev.weft.core.collide.Grip;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.model.TetConstraints;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import dev.weft.core.util.IntList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue #18's tearing of elastic tetrahedral bodies ({@link TetTearing}): a rubber bar pulled apart by its end
 * layers breaks in two under every solver that runs elastic tetrahedra, with its mass, momentum and closed
 * surface kept; one pulled below its tear strain does not break; threads do not change the bits.
 */
public class TetTearingTest {
    static final float FRAME = 1f / 60f;
    static final float DENSITY = 1000f;

    /**
     * A 0.4 × 0.08 × 0.08 m rubber bar (E = 100 kPa, ν = 0.3) of nx × 2n × 2n... cubes along x, its end layers
     * pinned when {@code pinned}, tearing past {@code tearStrain}.
     */
    static Model bar(int nx, int ny, float tearStrain, boolean pinned, float damping) {
        return bar(nx, ny, tearStrain, pinned, damping, false);
    }

    /**
     * As {@link #bar(int, int, float, boolean, float)}, with {@code notched} a notch in its middle: the cube at
     * x ∈ [0, 0.04] on its lower front edge left out, a quarter of a 2 × 2 section. A bar pulled uniformly is
     * strained the same everywhere and, dynamically, cracks wherever the strain wave peaks, in two places within
     * the step or two a crack takes to cross it, long before the unloading from the first reaches the second
     * (unnotched, xpbd and pd each cut a middle piece out); a tensile test's specimen is notched (or waisted) so
     * that it breaks at one place, and so is this one.
     */
    static Model bar(int nx, int ny, float tearStrain, boolean pinned, float damping, boolean notched) {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(damping));
        TetBodySpec spec = TetBodySpec.box("bar", new float[] {-0.2f, 0.96f, -0.04f},
                new float[] {0.2f, 1.04f, 0.04f}, nx, ny, ny, DENSITY, new Elasticity(1e5f, 0.3f));
        if (notched) {
            IntList kept = new IntList();
            float[] x = spec.nodes();
            int[] t = spec.tets();
            for (int c = 0; c < t.length / 4; c++) {
                float cx = 0f;
                float cy = 0f;
                float cz = 0f;
                for (int k = 0; k < 4; k++) {
                    cx += x[3 * t[4 * c + k]] / 4f;
                    cy += x[3 * t[4 * c + k] + 1] / 4f;
                    cz += x[3 * t[4 * c + k] + 2] / 4f;
                }
                if (!(cx > 0f && cx < 0.04f && cy < 1f && cz < 0f)) {
                    kept.add(t[4 * c], t[4 * c + 1]);
                    kept.add(t[4 * c + 2], t[4 * c + 3]);
                }
            }
            spec = new TetBodySpec("bar", x, kept.toArray(), DENSITY, spec.elasticity());
        }
        ModelObject body = b.addTetBody(spec);
        b.tearStrain(body, tearStrain);
        if (pinned) {
            float[] x = b.build().restPositions();
            for (int i = 0; i < x.length / 3; i++) {
                if (x[3 * i] == -0.2f || x[3 * i] == 0.2f) {
                    b.pin(i);
                }
            }
        }
        return b.build();
    }

    /** The nodes of the end layer at x = {@code at}. */
    static int[] layer(Model m, float at) {
        IntList out = new IntList();
        float[] x = m.restPositions();
        for (int i = 0; i < x.length / 3; i++) {
            if (x[3 * i] == at) {
                out.add(i);
            }
        }
        return out.toArray();
    }

    /** Grips on the end layers moving apart along x at {@code speed} m/s each. */
    static Environment grips(Model m, float speed, float[] gravity) {
        float[] still = {0f, 0f, 0f};
        float[] q = {1f, 0f, 0f, 0f};
        Collider left = new Grip("left", m, layer(m, -0.2f), new ConstantVelocityMotion(still, q,
                new float[] {-speed, 0f, 0f}, still));
        Collider right = new Grip("right", m, layer(m, 0.2f), new ConstantVelocityMotion(still, q,
                new float[] {speed, 0f, 0f}, still));
        return new Environment(gravity, List.of(left, right));
    }

    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "pd"})
    void aNotchedBarPulledApartByItsEndsBreaksInTwo(String solver) {
        Model m = bar(10, 2, 0.2f, true, 0.5f, true);
        double mass = m.totalFreeMass();
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, pool),
                     grips(m, 0.2f, new float[3]), 10)) {
            for (int f = 0; f < 60; f++) {
                sim.advance(FRAME);
                TetSurfaceChecks.assertBoundaryOfTets(sim.model());
            }
            Model torn = sim.model();
            assertThat(torn.edits()).as("%s: splits", solver).isNotEmpty();
            int[] piece = pieces(torn);
            assertThat(count(piece)).as("%s: pieces", solver).isEqualTo(2);
            int left = piece[layer(m, -0.2f)[0]];
            int right = piece[layer(m, 0.2f)[0]];
            assertThat(left).isNotEqualTo(right);
            for (int p : layer(m, -0.2f)) {
                assertThat(piece[p]).isEqualTo(left);
            }
            for (int p : layer(m, 0.2f)) {
                assertThat(piece[p]).isEqualTo(right);
            }
            // the split shares out each node's mass: the total is the same sum of floats' reciprocals
            assertThat(torn.totalFreeMass()).as("%s: mass", solver).isCloseTo(mass, within(1e-6 * mass));
            assertQuarterMasses(torn);
            assertNoneInverted(torn, sim.state().positions());
            // torn through: each piece's surface a closed manifold, every edge on two triangles (while a crack
            // runs, the rim where it meets the surface holds four on an edge until both its nodes split)
            assertThat(TetSurfaceChecks.nonManifoldEdges(torn, 0)).as("%s: edges on other than two triangles", solver)
                    .isZero();
            // the pieces came apart: their nearest nodes are more than the bar's tear stretch of a cube apart
            float[] x = sim.state().positions();
            float gapLeft = -Float.MAX_VALUE;
            float gapRight = Float.MAX_VALUE;
            for (int i = 0; i < torn.particleCount(); i++) {
                assertThat(Float.isFinite(x[3 * i])).isTrue();
                if (piece[i] == left) {
                    gapLeft = Math.max(gapLeft, x[3 * i]);
                } else {
                    gapRight = Math.min(gapRight, x[3 * i]);
                }
            }
            assertThat(gapRight - gapLeft).as("%s: the gap between the pieces", solver).isGreaterThan(0.04f);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "pd"})
    void aBarPulledBelowItsTearStrainHoldsTogether(String solver) {
        // pulled 10 % (0.02 m each end over 0.1 s), then held, with a tear strain of 30 %: stretched, unbroken
        Model m = bar(10, 2, 0.3f, true, 0.5f);
        double[] times = {0.0, 0.1, 2.0};
        float[] unturned = {1f, 0f, 0f, 0f, 1f, 0f, 0f, 0f, 1f, 0f, 0f, 0f};
        Environment env = new Environment(new float[3], List.of(
                new Grip("left", m, layer(m, -0.2f), new dev.weft.core.collide.KeyframedMotion(times,
                        new float[] {0f, 0f, 0f, -0.02f, 0f, 0f, -0.02f, 0f, 0f}, unturned)),
                new Grip("right", m, layer(m, 0.2f), new dev.weft.core.collide.KeyframedMotion(times,
                        new float[] {0f, 0f, 0f, 0.02f, 0f, 0f, 0.02f, 0f, 0f}, unturned))));
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, pool), env, 10)) {
            float most = 0f;
            for (int f = 0; f < 30; f++) {
                sim.advance(FRAME);
                most = Math.max(most, largestStretch(sim.model(), sim.state().positions()));
            }
            assertThat(sim.model().edits()).as("%s: no split", solver).isEmpty();
            // it was really pulled: its largest principal stretch near the 10 % of the pull
            assertThat(most).as("%s: largest principal stretch", solver).isBetween(1.05f, 1.3f);
        }
    }

    /**
     * A free bar (no gravity, undamped) thrown at 1 m/s along y with its halves flying apart along x at ±3 m/s:
     * it tears, and the torn pieces carry the momentum the whole had, as an untorn body keeps it (TetBodyTest:
     * to float rounding over the run). The copies take their node's velocity and the node's mass is shared
     * out, so a split itself changes no momentum.
     */
    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "pd"})
    void aFreeBarTearingKeepsItsMomentum(String solver) {
        for (boolean tears : new boolean[] {true, false}) {
            Model m = bar(10, 2, tears ? 0.1f : Float.POSITIVE_INFINITY, false, 0f);
            State s = State.atRest(m);
            float[] x = s.positions();
            float[] v = s.velocities();
            for (int i = 0; i < m.particleCount(); i++) {
                v[3 * i] = x[3 * i] < 0f ? -3f : x[3 * i] > 0f ? 3f : 0f;
                v[3 * i + 1] = 1f;
            }
            double[] p0 = momentum(m, v);
            try (WorkerPool pool = new WorkerPool(1);
                 Simulation sim = new Simulation(m, s, Solvers.create(solver, pool),
                         new Environment(new float[3], List.of()), 10)) {
                for (int f = 0; f < 30; f++) {
                    sim.advance(FRAME);
                }
                Model end = sim.model();
                assertThat(end.edits().isEmpty()).as("%s tears: %s", solver, tears).isEqualTo(!tears);
                if (tears) {
                    assertThat(count(pieces(end))).as("%s: pieces", solver).isGreaterThanOrEqualTo(2);
                }
                double[] p = momentum(end, sim.state().velocities());
                for (int d = 0; d < 3; d++) {
                    // |p| of the y drift is m · 1 m/s = 2.56 kg m/s; float rounding of 300 substeps
                    assertThat(Math.abs(p[d] - p0[d])).as("%s tears %s: momentum %d", solver, tears, d)
                            .isLessThan(1e-4 * (Math.abs(p0[1]) + 1));
                }
            }
        }
    }

    /**
     * A run with tears stays bitwise identical on 1 and 2 threads: the splits are decided from positions that are
     * the same bits on any thread count, in one order. The bar (40 × 6 × 6 cubes, 8640 tetrahedra) is big
     * enough that the colored passes really split.
     */
    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "pd"})
    void oneAndTwoThreadsGiveTheSameBitsThroughTearing(String solver) {
        float[][] result = new float[2][];
        List<?>[] edits = new List<?>[2];
        int[][] triangles = new int[2][];
        for (int t = 1; t <= 2; t++) {
            Model m = bar(40, 6, 0.2f, true, 0.5f);
            try (WorkerPool pool = new WorkerPool(t);
                 Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, pool),
                         grips(m, 0.3f, new float[] {0f, -9.81f, 0f}), 4)) {
                for (int f = 0; f < 30; f++) {
                    sim.advance(FRAME);
                }
                result[t - 1] = sim.state().positions().clone();
                edits[t - 1] = sim.model().edits();
                triangles[t - 1] = sim.model().triangles();
                if (t == 2) {
                    assertThat(pool.rangesRunOnWorkers()).as("work ran on the second thread").isPositive();
                }
            }
        }
        assertThat(edits[0]).as("%s tore", solver).isNotEmpty();
        assertThat(edits[1]).isEqualTo(edits[0]);
        assertThat(triangles[1]).isEqualTo(triangles[0]);
        assertThat(result[1]).isEqualTo(result[0]);
    }

    /** A torn bar written to a checkpoint mid-run and resumed ends bitwise where one run ends, crack faces and all. */
    @org.junit.jupiter.api.Test
    void resumingATornBarFromItsCheckpointEndsBitwiseWhereOneRunEnds(@org.junit.jupiter.api.io.TempDir
                                                                      java.nio.file.Path tmp) throws Exception {
        Model m = bar(10, 2, 0.2f, true, 0.5f, true);
        java.nio.file.Path file = tmp.resolve("torn.weft");
        float[] whole = null;
        int[] wholeTriangles = null;
        for (int run = 0; run < 3; run++) {
            try (WorkerPool pool = new WorkerPool(2);
                 Simulation sim = new Simulation(m, State.atRest(m), Solvers.create("xpbd", pool),
                         grips(m, 0.2f, new float[3]), 10)) {
                if (run == 2) {
                    dev.weft.core.sim.Checkpoint.read(file, sim);
                    assertThat(sim.model().edits()).as("the checkpoint was written after the tear").isNotEmpty();
                }
                for (int f = 0; f < (run == 0 ? 20 : 10); f++) {
                    sim.advance(FRAME);
                }
                if (run == 0) {
                    whole = sim.state().positions().clone();
                    wholeTriangles = sim.model().triangles();
                } else if (run == 1) {
                    dev.weft.core.sim.Checkpoint.write(file, sim);
                } else {
                    assertThat(sim.model().triangles()).isEqualTo(wholeTriangles);
                    assertThat(sim.state().positions()).isEqualTo(whole);
                }
            }
        }
    }

    /** Each free node's mass is the quarter of ρ V₀ of every tetrahedron it is a corner of, as the builder gave it. */
    static void assertQuarterMasses(Model m) {
        TetConstraints t = m.tets();
        double[] mass = new double[m.particleCount()];
        int[] p = t.particles();
        for (int c = 0; c < t.count(); c++) {
            for (int k = 0; k < 4; k++) {
                mass[p[4 * c + k]] += DENSITY * t.restVolume()[c] / 4.0;
            }
        }
        float[] w = m.invMass();
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0f) {
                // float reciprocals of the builder's float sums, shared in double: 1e-5
                assertThat(1.0 / w[i]).as("mass of node %d", i).isCloseTo(mass[i], within(1e-5 * mass[i]));
            }
        }
    }

    /** No tetrahedron inside out: every signed volume at x positive. */
    static void assertNoneInverted(Model m, float[] x) {
        int[] p = m.tets().particles();
        for (int c = 0; c < m.tets().count(); c++) {
            double[] e = new double[9];
            for (int k = 0; k < 3; k++) {
                for (int d = 0; d < 3; d++) {
                    e[3 * k + d] = (double) x[3 * p[4 * c + k + 1] + d] - x[3 * p[4 * c] + d];
                }
            }
            double det = e[0] * (e[4] * e[8] - e[5] * e[7]) - e[1] * (e[3] * e[8] - e[5] * e[6])
                    + e[2] * (e[3] * e[7] - e[4] * e[6]);
            assertThat(det).as("tetrahedron %d's volume", c).isPositive();
        }
    }

    /** The largest principal stretch σ₁ of any tetrahedron at x. */
    static float largestStretch(Model m, float[] x) {
        TetConstraints t = m.tets();
        int[] p = t.particles();
        float[] inv = t.restInverse();
        double most = 0;
        double[] f = new double[9];
        double[] svd = new double[dev.weft.core.geom.RotationSvd.SIZE];
        for (int c = 0; c < t.count(); c++) {
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    double s = 0;
                    for (int k = 0; k < 3; k++) {
                        s += ((double) x[3 * p[4 * c + k + 1] + i] - x[3 * p[4 * c] + i]) * inv[9 * c + 3 * k + j];
                    }
                    f[3 * i + j] = s;
                }
            }
            dev.weft.core.geom.RotationSvd.decompose(f, 0, svd);
            most = Math.max(most, svd[dev.weft.core.geom.RotationSvd.SIGMA]);
        }
        return (float) most;
    }

    static double[] momentum(Model m, float[] v) {
        double[] p = new double[3];
        float[] w = m.invMass();
        for (int i = 0; i < w.length; i++) {
            for (int d = 0; d < 3; d++) {
                p[d] += v[3 * i + d] / w[i];
            }
        }
        return p;
    }

    /** The connected pieces of a model's tetrahedra: a label per particle (its tetrahedra's corners joined). */
    static int[] pieces(Model m) {
        int n = m.particleCount();
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
        int[] p = m.tets().particles();
        for (int c = 0; c < p.length; c += 4) {
            for (int k = 1; k < 4; k++) {
                int a = find(parent, p[c]);
                int b = find(parent, p[c + k]);
                parent[Math.max(a, b)] = Math.min(a, b);
            }
        }
        int[] label = new int[n];
        for (int i = 0; i < n; i++) {
            label[i] = find(parent, i);
        }
        return label;
    }

    static int count(int[] label) {
        Map<Integer, Boolean> seen = new HashMap<>();
        for (int l : label) {
            seen.put(l, true);
        }
        return seen.size();
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }
}
