package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Icosphere;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.metrics.BodyVolume;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Elastic tetrahedral bodies (issue #18 item 2): linear elasticity's answers and the solver laws. */
class TetBodyTest {
    private static final float FRAME = 1f / 60f;
    private static final float G = 9.81f;

    private static TetBodySpec box(String name, float[] min, float[] max, int nx, int ny, int nz, float density,
                                   float youngs, float poisson) {
        return TetBodySpec.box(name, min, max, nx, ny, nz, density, new Elasticity(youngs, poisson));
    }

    @Test
    void aBoxIsSixPositiveTetrahedraPerCubeWithItsMassAndAClosedSurface() {
        ModelBuilder b = new ModelBuilder();
        ModelObject body = b.addTetBody(box("block", new float[] {0f, 1f, 0f}, new float[] {0.2f, 1.3f, 0.4f},
                2, 3, 4, 1100f, 1e6f, 0.45f));
        Model m = b.build();
        assertThat(body.particleCount()).isEqualTo(3 * 4 * 5);
        TetConstraints t = m.tets();
        assertThat(t.count()).isEqualTo(6 * 2 * 3 * 4);
        double sum = 0;
        for (float v : t.restVolume()) {
            assertThat(v).isPositive();
            sum += v;
        }
        assertThat(sum).isCloseTo(0.2 * 0.3 * 0.4, within(1e-6));
        // the mass is rho V, shared by the nodes; the surface encloses the box, wound outwards
        assertThat(m.totalFreeMass()).isCloseTo(1100 * 0.024, within(1e-3));
        assertThat(BodyVolume.of(m, body, m.restPositions())).isCloseTo(0.024, within(1e-6));
        // a box's surface: 2 triangles per outer face square
        assertThat(body.triangleCount()).isEqualTo(2 * 2 * (2 * 3 + 3 * 4 + 2 * 4));
        // D_m^-1 times the rest edges is the identity
        float[] x = m.restPositions();
        int[] p = t.particles();
        for (int c = 0; c < t.count(); c++) {
            for (int row = 0; row < 3; row++) {
                for (int col = 0; col < 3; col++) {
                    double f = 0;
                    for (int k = 0; k < 3; k++) {
                        f += (x[3 * p[4 * c + 1 + k] + row] - x[3 * p[4 * c] + row]) * t.restInverse()[9 * c + 3 * k + col];
                    }
                    assertThat(f).isCloseTo(row == col ? 1 : 0, within(1e-5));
                }
            }
        }
    }

    @Test
    void aVoxelizedSphereHasItsVolumeInNodes() {
        // r = 0.5 m at h = 0.05 m: (4/3) pi r^3 / h^3 = 4189 nodes, within 5 % (issue #18)
        ModelBuilder b = new ModelBuilder();
        ModelObject ball = b.addTetBody(TetBodySpec.voxelized("ball", Icosphere.of(0.5f, 4), 0.05f, 1000f,
                new Elasticity(1e5f, 0.4f)));
        double expected = 4.0 / 3.0 * Math.PI * Math.pow(0.5 / 0.05, 3);
        assertThat((double) ball.particleCount()).isCloseTo(expected, within(0.05 * expected));
        // its nodes lie half a voxel inside: the tetrahedra fill a ball of about r - h/2 (volume within 10 %)
        Model m = b.build();
        double inner = 4.0 / 3.0 * Math.PI * Math.pow(0.475, 3);
        assertThat(BodyVolume.of(m, ball, m.restPositions())).isCloseTo(inner, within(0.1 * inner));
    }

    @ParameterizedTest
    @EnumSource(IterationMode.class)
    void atRestInItsRestShapeItStaysExactlyPutWhereverItIs(IterationMode mode) {
        staysExactlyPut(pool -> new XpbdSolver(XpbdSettings.defaults().withMode(mode), pool));
    }

    @ParameterizedTest
    @EnumSource(InnerSolver.class)
    void underPdAtRestInItsRestShapeItStaysExactlyPutWhereverItIs(InnerSolver inner) {
        staysExactlyPut(pool -> new PdSolver(PdSettings.defaults().withInner(inner), pool));
    }

    /**
     * DESIGN.md's first law: a block in its rest shape, no gravity, stays bitwise put for a second near the origin
     * (where any rounding of the rest state shows) and 1 km away.
     */
    private static void staysExactlyPut(java.util.function.Function<WorkerPool, Solver> solver) {
        for (float at : new float[] {0.013f, 1000f}) {
            ModelBuilder b = new ModelBuilder();
            b.addTetBody(box("block", new float[] {at, at, -at}, new float[] {at + 0.3f, at + 0.2f, 0.25f - at},
                    4, 3, 4, 1000f, 1e5f, 0.45f));
            Model m = b.build();
            try (WorkerPool pool = new WorkerPool(2);
                 Simulation sim = new Simulation(m, State.atRest(m), solver.apply(pool),
                         new Environment(new float[3], List.of()), 10)) {
                for (int f = 0; f < 60; f++) {
                    sim.advance(FRAME);
                }
                assertThat(sim.state().positions()).as("at %s m", at).containsExactly(m.restPositions());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(IterationMode.class)
    void aFreeSpinningBodyKeepsItsMomentumAndGainsNoEnergy(IterationMode mode) {
        try (WorkerPool pool = new WorkerPool(2)) {
            Throw t = throwSpinning(new XpbdSolver(XpbdSettings.defaults().withMode(mode), pool));
            // every constraint's corrections balance (gradients sum to zero, weighted by inverse mass): momentum
            // to float rounding over 600 substeps
            assertThat(t.momentumChange).isLessThan(1e-4);
            // kinetic energy never exceeds the start's (the elastic energy starts at 0); 0.1 % for rounding
            assertThat(t.mostEnergy).isLessThanOrEqualTo(1.001);
        }
    }

    @ParameterizedTest
    @EnumSource(value = InnerSolver.class, names = {"GAUSS_SEIDEL", "RED_BLACK_GAUSS_SEIDEL", "JACOBI", "CHOLESKY"})
    void underPdAFreeSpinningBodyKeepsItsMomentumAndLosesEnergy(InnerSolver inner) {
        // the same throw; PD is implicit Euler, which dissipates: energy falls. Momentum: every tetrahedron's
        // corner forces sum to zero and its matrix rows are symmetric, so only the unconverged part of the
        // global solve can move it (measured at 10 local steps x 4 sweeps: at most 5.4e-8 of the momentum, the
        // kinetic energy 0.9968 of the start's after a second, in each inner solver)
        try (WorkerPool pool = new WorkerPool(2)) {
            Throw t = throwSpinning(new PdSolver(PdSettings.defaults().withIterations(10, 4).withInner(inner), pool));
            assertThat(t.momentumChange).isLessThan(1e-6);
            assertThat(t.mostEnergy).isLessThanOrEqualTo(1.001);
            // still spinning, not frozen by the solve: a rigid turn costs implicit Euler little energy
            assertThat(t.finalEnergy).isGreaterThan(0.9);
        }
    }

    /** What a throw did: the largest change of a momentum component (relative), kinetic energy over the start's. */
    private record Throw(double momentumChange, double mostEnergy, double finalEnergy) {
    }

    /**
     * A 0.3 × 0.2 × 0.2 m block (E = 20 kPa, ν = 0.3), undamped, no gravity, thrown at 1 m/s while spinning at
     * 3 rad/s about y (so its tetrahedra stretch), for one second at 10 substeps.
     */
    private static Throw throwSpinning(Solver solver) {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(0f));
        b.addTetBody(box("block", new float[] {-0.15f, 1f, -0.1f}, new float[] {0.15f, 1.2f, 0.1f}, 6, 4, 4,
                1000f, 2e4f, 0.3f));
        Model m = b.build();
        State s = State.atRest(m);
        float[] x = s.positions();
        float[] v = s.velocities();
        for (int i = 0; i < m.particleCount(); i++) {
            v[3 * i] = 1f + 3f * x[3 * i + 2];
            v[3 * i + 2] = -3f * x[3 * i];
        }
        double[] p0 = momentum(m, v);
        double e0 = ClothMetrics.kineticEnergy(m, v);
        try (Simulation sim = new Simulation(m, s, solver, new Environment(new float[3], List.of()), 10)) {
            double most = 0;
            for (int f = 0; f < 60; f++) {
                sim.advance(FRAME);
                most = Math.max(most, ClothMetrics.kineticEnergy(m, sim.state().velocities()));
            }
            double[] p = momentum(m, sim.state().velocities());
            double change = 0;
            for (int d = 0; d < 3; d++) {
                change = Math.max(change, Math.abs(p[d] - p0[d]) / (Math.abs(p0[0]) + 1));
            }
            return new Throw(change, most / e0, ClothMetrics.kineticEnergy(m, sim.state().velocities()) / e0);
        }
    }

    private static double[] momentum(Model m, float[] v) {
        double[] p = new double[3];
        float[] w = m.invMass();
        for (int i = 0; i < w.length; i++) {
            for (int d = 0; d < 3; d++) {
                p[d] += v[3 * i + d] / w[i];
            }
        }
        return p;
    }

    /** The mean height change of the nodes at y = top after {@code seconds} standing pinned at y = 0. */
    static double settle(Model m, float top, Solver solver, int substeps, float seconds, float[] gravity) {
        float[] x0 = m.restPositions();
        try (Simulation sim = new Simulation(m, State.atRest(m), solver, new Environment(gravity, List.of()),
                substeps)) {
            for (int f = 0; f < Math.round(seconds / FRAME); f++) {
                sim.advance(FRAME);
            }
            float[] x = sim.state().positions();
            double sum = 0;
            int count = 0;
            for (int i = 0; i < m.particleCount(); i++) {
                if (x0[3 * i + 1] == top) {
                    sum += x[3 * i + 1] - top;
                    count++;
                }
            }
            return sum / count;
        }
    }

    /** Pins every node of a built model at coordinate {@code axis} = value, and builds again. */
    static Model pinnedAt(ModelBuilder b, int axis, float value) {
        float[] x = b.build().restPositions();
        for (int i = 0; i < x.length / 3; i++) {
            if (x[3 * i + axis] == value) {
                b.pin(i);
            }
        }
        return b.build();
    }

    @Test
    void aColumnShortensUnderItsOwnWeightAsLinearElasticitySays() {
        // L = 1 m, 0.1 x 0.1 m, E = 1 MPa, nu = 0.3, rho = 1000 kg/m^3, its base pinned: the top sinks
        // rho g L^2 / (2E) = 4.9 mm (strain at most 1 %: linear). 2 x 20 x 2 cubes; converged (10 substeps x
        // 4 iterations: measured 1.001 of it; 1 iteration: 1.47, XPBD's error at unconverged iterations)
        float e = 1e6f;
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(60f)); // near critical for its first axial mode (50 rad/s)
        b.addTetBody(box("column", new float[] {-0.05f, 0f, -0.05f}, new float[] {0.05f, 1f, 0.05f}, 2, 20, 2,
                1000f, e, 0.3f));
        Model m = pinnedAt(b, 1, 0f);
        double expected = 1000 * G * 1.0 / (2 * e);
        try (WorkerPool pool = new WorkerPool(2)) {
            double sink = -settle(m, 1f, new XpbdSolver(XpbdSettings.defaults().withIterations(4), pool), 10, 1.5f,
                    new float[] {0f, -G, 0f});
            assertThat(sink).isCloseTo(expected, within(0.1 * expected));
        }
    }

    @Test
    void underPdAColumnShortensUnderItsOwnWeightAsLinearElasticitySays() {
        // the same column under PD's strain and volume constraints (Bouaziz 2014) with the same E and nu:
        // converged (10 substeps x 10 local steps x 10 sweeps) measured 0.984 of rho g L^2 / (2E); at 1 sweep
        // per local step 10 x 10 gives 1.44 and 10 x 40 0.991: Gauss-Seidel creeps up a 20-cube-tall column
        float e = 1e6f;
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(60f));
        b.addTetBody(box("column", new float[] {-0.05f, 0f, -0.05f}, new float[] {0.05f, 1f, 0.05f}, 2, 20, 2,
                1000f, e, 0.3f));
        Model m = pinnedAt(b, 1, 0f);
        double expected = 1000 * G * 1.0 / (2 * e);
        try (WorkerPool pool = new WorkerPool(2)) {
            double sink = -settle(m, 1f, new PdSolver(PdSettings.defaults().withIterations(10, 10), pool), 10, 1.5f,
                    new float[] {0f, -G, 0f});
            assertThat(sink).isCloseTo(expected, within(0.1 * expected));
        }
    }

    @Test
    @Tag("slow")
    void aCantileverBendsAsEulerBernoulliSays() {
        // L = 1 m, 0.1 x 0.1 m section, clamped at x = 0 (every node there pinned), under its own weight: the tip
        // sinks q L^4 / (8 E I) = 1.5 rho g L^4 / (E h^2) = 49 mm at E = 30 MPa (5 % of L: small deflection).
        // Linear tetrahedra are stiff in bending (they cannot bend without shearing), less so the finer the
        // section: measured converged 0.52 of it at 2 cubes across, 0.78 at 3, 0.869 at 4 (this resolution:
        // 40 x 4 x 4 cubes, 1025 nodes; 80 substeps x 8 iterations, as 160 x 8 gives 0.864)
        float e = 3e7f;
        float h = 0.1f;
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(35f)); // about critical for its first bending mode (17.6 rad/s)
        b.addTetBody(box("beam", new float[] {0f, -h / 2, -h / 2}, new float[] {1f, h / 2, h / 2}, 40, 4, 4,
                1000f, e, 0.3f));
        Model m = pinnedAt(b, 0, 0f);
        double expected = 1.5 * 1000 * G / (e * h * h);
        float[] x0 = m.restPositions();
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(m, State.atRest(m),
                     new XpbdSolver(XpbdSettings.defaults().withIterations(8), pool),
                     new Environment(new float[] {0f, -G, 0f}, List.of()), 80)) {
            for (int f = 0; f < 60; f++) {
                sim.advance(FRAME);
            }
            float[] x = sim.state().positions();
            double sum = 0;
            int count = 0;
            for (int i = 0; i < m.particleCount(); i++) {
                if (x0[3 * i] == 1f) {
                    sum += x0[3 * i + 1] - x[3 * i + 1];
                    count++;
                }
            }
            assertThat(sum / count).isCloseTo(expected, within(0.15 * expected));
        }
    }

    @Test
    void aRubberCubeOnTheFloorKeepsItsVolumeAndXpbdAndPdAgree() {
        // nu = 0.45 rubber, 0.3 m, E = 100 kPa (soft: it sags 2 % of its height), dropped 5 cm onto the floor;
        // XPBD's Green-strain and volume constraints and PD's strain and volume projections are two discretisations
        // of the same linear elasticity: measured at rest 0.296110 m high under pd and 0.296115 m under xpbd,
        // 99.753 % and 99.751 % of the volume
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(5f));
        ModelObject cube = b.addTetBody(box("rubber", new float[] {-0.15f, 0.055f, -0.15f},
                new float[] {0.15f, 0.355f, 0.15f}, 6, 6, 6, 1100f, 1e5f, 0.45f));
        Model m = b.build();
        double rest = BodyVolume.of(m, cube, m.restPositions());
        Environment env = new Environment(new float[] {0f, -G, 0f}, List.of(PlaneCollider.floor(0f, 0.005f, 0.5f)));
        float[][] end = new float[2][];
        String[] solvers = {"xpbd", "pd"};
        try (WorkerPool pool = new WorkerPool(2)) {
            for (int k = 0; k < 2; k++) {
                try (Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solvers[k], pool), env, 20)) {
                    double least = 1;
                    for (int f = 0; f < 90; f++) {
                        sim.advance(FRAME);
                        least = Math.min(least, BodyVolume.of(m, cube, sim.state().positions()) / rest);
                    }
                    float[] x = sim.state().positions();
                    end[k] = x.clone();
                    // resting on the floor's 5 mm, standing (not flattened), its volume within 3 % all along
                    assertThat(bottom(x)).as(solvers[k]).isCloseTo(0.005f, within(0.002f));
                    assertThat(top(x) - bottom(x)).as(solvers[k]).isBetween(0.27f, 0.3f);
                    assertThat(BodyVolume.of(m, cube, x) / rest).as(solvers[k]).isCloseTo(1.0, within(0.03));
                    assertThat(least).as(solvers[k]).isGreaterThan(0.97);
                }
            }
        }
        // the same rubber: every node where the other solver put it, to a millimetre
        for (int i = 0; i < end[0].length; i++) {
            assertThat(end[1][i]).as("coordinate %d", i).isCloseTo(end[0][i], within(1e-3f));
        }
    }

    private static float bottom(float[] x) {
        float bottom = Float.MAX_VALUE;
        for (int i = 1; i < x.length; i += 3) {
            bottom = Math.min(bottom, x[i]);
        }
        return bottom;
    }

    private static float top(float[] x) {
        float top = -Float.MAX_VALUE;
        for (int i = 1; i < x.length; i += 3) {
            top = Math.max(top, x[i]);
        }
        return top;
    }

    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "pbd", "pd"})
    void oneAndTwoThreadsGiveTheSameBits(String solver) {
        // 12 x 12 x 12 cubes: 2197 nodes, 10368 tetrahedra, every color's pass splits
        ModelBuilder b = new ModelBuilder();
        b.addTetBody(box("block", new float[] {-0.3f, 0.1f, -0.3f}, new float[] {0.3f, 0.7f, 0.3f}, 12, 12, 12,
                1000f, 2e5f, 0.45f));
        Model m = b.build();
        Environment env = new Environment(new float[] {0f, -G, 0f}, List.of(PlaneCollider.floor(0f, 0.005f, 0.5f)));
        float[][] out = new float[2][];
        for (int t = 1; t <= 2; t++) {
            try (WorkerPool pool = new WorkerPool(t);
                 Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, pool), env, 4)) {
                for (int f = 0; f < 20; f++) {
                    sim.advance(FRAME);
                }
                out[t - 1] = sim.state().positions().clone();
                if (t == 2) {
                    assertThat(pool.rangesRunOnWorkers()).as("ranges the second thread ran").isPositive();
                }
            }
        }
        assertThat(out[1]).containsExactly(out[0]);
    }

    /**
     * Every solver simulates an elastic tetrahedral body (xpbd, pbd and pd project it, implicit and mass-spring
     * apply its FEM forces, relaxation relaxes it with XPBD's projection): a 10 cm cube dropped for half a second
     * falls freely (its weight is all that acts: g t²/2 = 1.23 m, within 2 %) and keeps its shape (its height
     * within 5 %).
     */
    @ParameterizedTest
    @MethodSource("dev.weft.core.solver.Solvers#names")
    void everySolverSimulatesIt(String solver) {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(0f)); // no drag: a free fall
        b.addTetBody(box("jelly", new float[] {0f, 0f, 0f}, new float[] {0.1f, 0.1f, 0.1f}, 2, 2, 2, 1000f, 1e5f,
                0.4f));
        Model m = b.build();
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, pool),
                     new Environment(new float[] {0f, -G, 0f}, List.of()), 10)) {
            for (int f = 0; f < 30; f++) {
                sim.advance(FRAME);
            }
            float[] x = sim.state().positions();
            double drop = 0.5 * G * 0.25;
            assertThat(bottom(x)).as(solver).isCloseTo((float) -drop, within((float) (0.02 * drop)));
            assertThat(top(x) - bottom(x)).as(solver).isCloseTo(0.1f, within(0.005f));
        }
    }

    @Test
    void pdRefusesAnIncompressibleBodyByName() {
        // nu = 0.5 is lambda = infinity: XPBD takes it (compliance 0), PD's volume weight 3 lambda V0 has no value
        ModelBuilder b = new ModelBuilder();
        b.addTetBody(TetBodySpec.box("putty", new float[] {0f, 0f, 0f}, new float[] {0.1f, 0.1f, 0.1f}, 1, 1, 1,
                1000f, new Elasticity(1e5f, 0.5f)));
        Model m = b.build();
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create("pd", pool), Environment.earth(), 1)) {
            assertThatThrownBy(() -> sim.advance(FRAME)).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("putty.poissonRatio").hasMessageContaining("below 0.5");
        }
    }

    @Test
    void badTetrahedraAreRefusedByName() {
        float[] nodes = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0};
        Elasticity rubber = new Elasticity(1e6f, 0.45f);
        assertThatThrownBy(() -> new TetBodySpec("t", nodes, new int[] {0, 1, 2, 7}, 1000f, rubber))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("t.tets").hasMessageContaining("node 7");
        assertThatThrownBy(() -> new ModelBuilder().addTetBody(new TetBodySpec("t", nodes, new int[] {0, 1, 2, 4},
                1000f, rubber))).isInstanceOf(InvalidInputException.class).hasMessageContaining("tetrahedron 0 is flat");
        assertThatThrownBy(() -> new ModelBuilder().addTetBody(new TetBodySpec("t", nodes, new int[] {0, 1, 2, 3},
                1000f, rubber))).isInstanceOf(InvalidInputException.class).hasMessageContaining("node 4");
        assertThatThrownBy(() -> new Elasticity(1e6f, 0.6f)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("poissonRatio");
        assertThatThrownBy(() -> new Elasticity(Float.NaN, 0.3f)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("youngsModulus");
        // either orientation is taken: the same tetrahedron, stored positively
        ModelBuilder b = new ModelBuilder();
        b.addTetBody(new TetBodySpec("t", java.util.Arrays.copyOf(nodes, 12), new int[] {0, 2, 1, 3}, 1000f, rubber));
        assertThat(b.build().tets().restVolume()[0]).isCloseTo(1f / 6f, within(1e-7f));
    }
}
