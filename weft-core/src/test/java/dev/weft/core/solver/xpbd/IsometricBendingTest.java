package dev.weft.core.solver.xpbd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.InvalidInputException;
import dev.weft.core.geom.IsometricBending;
import dev.weft.core.interact.Cutting;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.BendingConstraints;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Isometric bending (Bergou et al. 2006, {@link BendingModel#ISOMETRIC}) under XPBD and PBD: the constraint
 * and its gradient against finite differences, the bending energy of a rolled sheet against ½Bκ², the laws
 * (rest stays put, no energy gained, the same bits on 1 and 2 threads), and a cantilever's droop against the
 * dihedral model's.
 */
class IsometricBendingTest {
    private static final float FRAME = 1f / 60f;
    private static final Environment NO_GRAVITY = new Environment(new float[3], List.of());
    private static WorkerPool pool;

    @BeforeAll
    static void startPool() {
        pool = new WorkerPool(1);
    }

    @AfterAll
    static void stopPool() {
        pool.close();
    }

    /** The XPBD settings under test, by name. */
    enum Setting {
        COLORED(p -> new XpbdSolver(XpbdSettings.defaults(), p)),
        JACOBI(p -> new XpbdSolver(XpbdSettings.defaults().withMode(IterationMode.JACOBI), p)),
        GAUSS_SEIDEL(p -> new XpbdSolver(XpbdSettings.defaults().withMode(IterationMode.GAUSS_SEIDEL), p)),
        PBD(p -> new XpbdSolver(Solvers.pbd(XpbdSettings.defaults()), p));

        final Function<WorkerPool, Solver> make;

        Setting(Function<WorkerPool, Solver> make) {
            this.make = make;
        }
    }

    private static Model isometricGrid(int n, float side, float ox, float oy, float oz, Material material) {
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.ISOMETRIC).material(material);
        b.addGridCloth(GridClothSpec.of("cloth", n, n, side, side).withOrigin(ox, oy, oz));
        return b.build();
    }

    // ---- the constraint ----------------------------------------------------------------------------

    /** ‖Σ_j K_j x_j‖ in double from float weights: the constraint's definition, free of the code's arithmetic. */
    private static double curvatureNorm(float[] k, double[] x) {
        double[] h = new double[3];
        for (int j = 0; j < 4; j++) {
            for (int a = 0; a < 3; a++) {
                h[a] += k[j] * x[3 * j + a];
            }
        }
        return Math.sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    }

    @Test
    void theWeightsMakeAnyFlatStencilFlatWhereverItIsAndSumToZero() {
        Random r = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            // a random stencil in a random plane, 1 km off in a random direction at times
            double[] u = unit(r);
            double[] v = normalized(cross(u, unit(r)));
            double off = trial % 2 == 0 ? 0 : 1000;
            double[][] uv = {{0, 0}, {1 + r.nextDouble(), 0.3 * r.nextGaussian()},
                    {0.5 + 0.3 * r.nextGaussian(), 0.5 + r.nextDouble()}, {0.5 + 0.3 * r.nextGaussian(), -0.5 - r.nextDouble()}};
            float[] x = new float[12];
            for (int j = 0; j < 4; j++) {
                for (int a = 0; a < 3; a++) {
                    x[3 * j + a] = (float) (off + 0.05 * (uv[j][0] * u[a] + uv[j][1] * v[a]));
                }
            }
            float[] k = new float[4];
            assertThat(IsometricBending.weights(x, 0, 1, 2, 3, k, 0)).isTrue();
            assertThat((double) k[0] + k[1] + k[2] + k[3]).isCloseTo(0.0, within(1e-5));
            float[] h = new float[3];
            float norm = IsometricBending.curvature(x, null, 0, 1, 2, 3, k, 0, h);
            double scale = Math.abs(k[1]) + Math.abs(k[2]) + Math.abs(k[3]);
            // float rounding of the positions alone: a few ulps of the largest coordinate, times the weights
            assertThat((double) norm).as("trial %d", trial).isLessThan(4 * scale * Math.ulp((float) (off + 0.2)));
        }
    }

    /**
     * One XPBD iteration on a single folded stencil moves particle j by w_j ∇_jC Δλ with Δλ = −C / (Σ w_j|∇_jC|²
     * + α/h²), α = 1/k_iso: the solver's step against C and ∇C from central differences of ‖Σ K_j x_j‖ (in
     * double), for random folds and shears of a random flat stencil and unequal masses.
     */
    @ParameterizedTest
    @EnumSource(value = IterationMode.class)
    void aStepMovesEachParticleAlongTheFiniteDifferenceGradient(IterationMode mode) {
        Random r = new Random(5);
        for (int trial = 0; trial < 20; trial++) {
            float[] rest = {0f, 0f, 0f, 0.06f, 0f, 0f, 0.03f + 0.01f * (float) r.nextGaussian(), 0f,
                    0.05f + 0.01f * r.nextFloat(), 0.03f + 0.01f * (float) r.nextGaussian(), 0f, -0.05f - 0.01f * r.nextFloat()};
            // triangles (e0, o0, e1)... wound either way; the builder finds the stencil (e0, e1, o0, o1) itself
            TriangleMesh mesh = new TriangleMesh(rest, null, new int[] {0, 2, 1, 0, 1, 3});
            ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.ISOMETRIC).tethers(false)
                    .material(Material.cloth().withBend(1e-4f * (1 + 10 * r.nextFloat())));
            b.addMeshCloth("stencil", mesh);
            Model m = b.build();
            int[] p = m.bending().particles();
            assertThat(p).hasSize(4);
            float[] k = new float[4];
            for (int j = 0; j < 4; j++) {
                k[j] = m.isometricWeights()[j];
            }
            State s = State.atRest(m);
            float[] x = s.positions();
            for (int i = 0; i < x.length; i++) {
                x[i] += 0.004f * (float) r.nextGaussian();
            }
            double[] xs = new double[12];
            for (int j = 0; j < 4; j++) {
                for (int a = 0; a < 3; a++) {
                    xs[3 * j + a] = x[3 * p[j] + a];
                }
            }
            double c = curvatureNorm(k, xs) - m.bending().restAngle()[0];
            double[] grad = new double[12];
            double eps = 1e-6;
            for (int i = 0; i < 12; i++) {
                double keep = xs[i];
                xs[i] = keep + eps;
                double plus = curvatureNorm(k, xs);
                xs[i] = keep - eps;
                double minus = curvatureNorm(k, xs);
                xs[i] = keep;
                grad[i] = (plus - minus) / (2 * eps);
            }
            float h = 1f / 600f;
            double alphaTilde = 1.0 / m.hingeStiffness()[0] / ((double) h * h);
            float[] w = m.invMass();
            double denom = alphaTilde;
            for (int j = 0; j < 4; j++) {
                denom += w[p[j]] * (grad[3 * j] * grad[3 * j] + grad[3 * j + 1] * grad[3 * j + 1]
                        + grad[3 * j + 2] * grad[3 * j + 2]);
            }
            double dl = -c / denom;
            float[] before = x.clone();
            try (XpbdSolver solver = new XpbdSolver(XpbdSettings.defaults().withMode(mode), pool)) {
                // Gauss–Seidel sweeps forward and back: that is two projections, so take its first alone
                solver.relax(m, s, h, 1, XpbdSolver.BENDING);
            }
            double largest = 0;
            for (int j = 0; j < 4; j++) {
                for (int a = 0; a < 3; a++) {
                    largest = Math.max(largest, Math.abs(w[p[j]] * grad[3 * j + a] * dl));
                }
            }
            assertThat(largest).as("a correction of some size").isGreaterThan(1e-5);
            if (mode == IterationMode.GAUSS_SEIDEL) {
                continue; // its backward sweep projects again; checked by the other two modes
            }
            for (int j = 0; j < 4; j++) {
                for (int a = 0; a < 3; a++) {
                    double expected = w[p[j]] * grad[3 * j + a] * dl;
                    double moved = x[3 * p[j] + a] - before[3 * p[j] + a];
                    assertThat(moved).as("trial %d, particle %d, axis %d", trial, j, a)
                            .isCloseTo(expected, within(2e-3 * largest + 1e-7));
                }
            }
        }
    }

    // ---- the material ------------------------------------------------------------------------------

    /**
     * A 41 × 41 grid rolled into a cylinder of curvature κ = 2/m about either axis stores Σ ½k_iso‖Σ K_j x_j‖² =
     * ½Bκ² over its area (less the strip along the border, whose edges have no stencil: (n−2)/(n−1)), as the
     * dihedral hinges do (MaterialParametersTest).
     */
    @Test
    void aGridRolledIntoACylinderStoresHalfBKappaSquaredPerArea() {
        int n = 41;
        float bend = 2e-4f;
        Model m = isometricGrid(n, 1f, 0f, 0f, 0f, Material.cloth().withBend(bend));
        float[] k = m.hingeStiffness();
        float[] weights = m.isometricWeights();
        float[] restValue = m.bending().restAngle();
        int[] p = m.bending().particles();
        for (double kappa : new double[] {0.5, 2.0, 6.0}) {
            for (int axis = 0; axis < 2; axis++) {
                float[] x = m.restPositions().clone();
                for (int i = 0; i < x.length; i += 3) {
                    int along = axis == 0 ? i : i + 2;
                    double s = x[along];
                    x[along] = (float) (Math.sin(kappa * s) / kappa);
                    x[i + 1] = (float) ((1 - Math.cos(kappa * s)) / kappa);
                }
                double energy = 0;
                float[] h = new float[3];
                for (int c = 0; c < k.length; c++) {
                    double value = IsometricBending.curvature(x, null, p[4 * c], p[4 * c + 1], p[4 * c + 2],
                            p[4 * c + 3], weights, 4 * c, h) - restValue[c];
                    energy += 0.5 * k[c] * value * value;
                }
                double continuum = 0.5 * bend * kappa * kappa * (n - 2) / (n - 1);
                System.out.printf("isometric cylinder kappa %.1f axis %d: energy / continuum = %.4f%n", kappa, axis,
                        energy / continuum);
                assertThat(energy).as("κ = %s, axis %d", kappa, axis).isCloseTo(continuum, within(0.02 * continuum));
            }
        }
    }

    // ---- the laws ----------------------------------------------------------------------------------

    /**
     * A cloth at rest in its rest shape, with no forces, stays put near the origin, 100 m and 1 km away: the
     * bound is SolverLawsTest's, two ulps of the largest coordinate and at least 10 µm.
     */
    @ParameterizedTest
    @EnumSource(Setting.class)
    void aFlatSheetAtRestFeelsNoBendingForceWhereverItIs(Setting setting) {
        float[][] places = {{0f, 1f, 0f}, {100f, 100f, -100f}, {1000f, 1000f, -1000f}};
        for (float[] o : places) {
            Model m = isometricGrid(16, 1f, o[0], o[1], o[2], Material.cloth().withDamping(0f));
            assertThat(m.bending().allIsometric()).isTrue();
            assertThat(m.bending().count()).isPositive();
            State s = State.atRest(m);
            try (Solver solver = setting.make.apply(pool)) {
                for (int k = 0; k < 2 * 60 * 16; k++) {
                    solver.step(m, s, NO_GRAVITY, FRAME / 16);
                }
            }
            float far = Math.max(Math.abs(o[0]) + 1f, Math.max(Math.abs(o[1]), Math.abs(o[2]) + 1f));
            float bound = Math.max(1e-5f, 2f * Math.ulp(far));
            float moved = 0f;
            float[] x = s.positions();
            float[] rest = m.restPositions();
            for (int i = 0; i < x.length; i++) {
                moved = Math.max(moved, Math.abs(x[i] - rest[i]));
            }
            assertThat(moved).as("%s at %s: largest coordinate change in 2 s, m", setting,
                    java.util.Arrays.toString(o)).isLessThanOrEqualTo(bound);
        }
    }

    /**
     * An undamped free cloth with isometric bending, started in its rest shape with random velocities, never
     * has more kinetic energy than it started with (its elastic energy is not negative), over 5 s.
     */
    @ParameterizedTest
    @EnumSource(Setting.class)
    void anUndampedFreeClothGainsNoEnergy(Setting setting) {
        // stiff enough that bending matters: card, B = 10⁻² N·m on 6.7 cm spacings
        for (float bend : new float[] {1e-4f, 1e-2f}) {
            Model m = isometricGrid(16, 1f, -0.5f, 1f, -0.5f, Material.cloth().withDamping(0f).withBend(bend));
            State s = State.atRest(m);
            Random random = new Random(3);
            float[] v = s.velocities();
            for (int i = 0; i < v.length; i++) {
                v[i] = 0.5f * (float) random.nextGaussian();
            }
            double initial = ClothMetrics.kineticEnergy(m, v);
            double most = 0;
            try (Solver solver = setting.make.apply(pool)) {
                for (int k = 0; k < 5 * 60 * 16; k++) {
                    solver.step(m, s, NO_GRAVITY, FRAME / 16);
                    most = Math.max(most, ClothMetrics.kineticEnergy(m, v));
                }
            }
            assertThat(most).as("%s, B = %s: largest kinetic energy in 5 s, J; initial %s", setting, bend, initial)
                    .isLessThanOrEqualTo(initial);
        }
    }

    /** 1 and 2 threads give the same bits, on a 64 × 64 cloth whose colors' passes split over the threads. */
    @ParameterizedTest
    @EnumSource(value = Setting.class, names = {"COLORED", "JACOBI", "PBD"})
    void oneAndTwoThreadsGiveTheSameBits(Setting setting) {
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.ISOMETRIC);
        ModelObject c = b.addGridCloth(GridClothSpec.of("c", 64, 64, 1f, 1f).withOrigin(-0.5f, 1f, 0f));
        b.pinEdge(c, "top");
        Model m = b.build();
        float[][] out = new float[2][];
        for (int t = 1; t <= 2; t++) {
            try (WorkerPool threads = new WorkerPool(t);
                 Simulation sim = new Simulation(m, State.atRest(m), setting.make.apply(threads), Environment.earth(), 8)) {
                for (int f = 0; f < 20; f++) {
                    sim.advance(FRAME);
                }
                out[t - 1] = sim.state().positions().clone();
                if (t == 2) {
                    assertThat(threads.rangesRunOnWorkers()).as("ranges the second thread ran").isPositive();
                }
            }
        }
        assertThat(out[1]).containsExactly(out[0]);
    }

    // ---- the droop of a cantilever -----------------------------------------------------------------

    /**
     * A strip 6 cm long and 2 cm wide (7 × 3 particles, 1 cm apart), clamped along its first two columns (a free
     * length of 5 cm), settled under gravity for 2 s (damping 8/s), 200 substeps of one iteration per 1/60 s:
     * how far the middle of its free end hangs below the clamp, m. One iteration per substep caps the stiffness
     * XPBD reaches at about m/h² per constraint; at 40 substeps the droop stops falling with B beyond 10⁻³ N·m
     * for either model (measured: 3.06 and 1.38 mm at 10⁻³ and 3·10⁻³, where 200 substeps give 2.56 and 0.87).
     */
    private static double droop(BendingModel model, float bend) {
        ModelBuilder b = new ModelBuilder().bendingModel(model)
                .material(Material.cloth().withBend(bend).withDamping(8f));
        ModelObject strip = b.addGridCloth(GridClothSpec.of("strip", 7, 3, 0.06f, 0.02f).withOrigin(0f, 1f, 0f));
        for (int r = 0; r < 3; r++) {
            b.pin(strip.gridParticle(r, 0));
            b.pin(strip.gridParticle(r, 1));
        }
        Model m = b.build();
        try (Simulation sim = new Simulation(m, State.atRest(m), new XpbdSolver(XpbdSettings.defaults(), pool),
                Environment.earth(), 200)) {
            for (int f = 0; f < 2 * 60; f++) {
                sim.advance(FRAME);
            }
            return 1.0 - sim.state().positions()[3 * strip.gridParticle(1, 6) + 1];
        }
    }

    /**
     * The droop falls monotonically as B grows (about as 1/B: linear bending) and matches the dihedral model's:
     * measured within 0.1 % from B = 3·10⁻⁴ N·m (tip slope about 13°) to 3·10⁻³ (1.3°), 0.4 % at 10⁻⁴ (35°,
     * where the two models' energies part: the isometric one is quadratic in the positions, the hinge quadratic
     * in the angle). Asserted: 0.5 % at small angles, 2 % at 10⁻⁴.
     */
    @Test
    void aClampedStripDroopsLessTheStifferItIsAndAsTheDihedralModelAtSmallAngles() {
        float[] bends = {1e-4f, 3e-4f, 1e-3f, 3e-3f};
        double[] iso = new double[bends.length];
        double[] dihedral = new double[bends.length];
        for (int i = 0; i < bends.length; i++) {
            iso[i] = droop(BendingModel.ISOMETRIC, bends[i]);
            dihedral[i] = droop(BendingModel.DIHEDRAL, bends[i]);
            // Euler–Bernoulli, a uniform load q = ρg per width on a cantilever of length L: qL⁴/(8B)
            double beam = 0.2 * 9.81 * Math.pow(0.05, 4) / (8 * bends[i]);
            System.out.printf("droop B = %.0e N·m: isometric %.4f mm, dihedral %.4f mm, ratio %.5f, beam %.4f mm%n",
                    bends[i], 1e3 * iso[i], 1e3 * dihedral[i], iso[i] / dihedral[i], 1e3 * beam);
        }
        for (int i = 1; i < bends.length; i++) {
            assertThat(iso[i]).as("isometric droop at B = %s below that at %s", bends[i], bends[i - 1])
                    .isLessThan(iso[i - 1]);
        }
        assertThat(iso[0]).as("B = 1e-4: isometric against dihedral droop").isCloseTo(dihedral[0],
                within(0.02 * dihedral[0]));
        for (int i = 1; i < bends.length; i++) {
            assertThat(iso[i]).as("B = %s: isometric against dihedral droop", bends[i])
                    .isCloseTo(dihedral[i], within(0.005 * dihedral[i]));
        }
    }

    // ---- what is refused, and edits ---------------------------------------------------------------

    @Test
    void aBodyFoldedAtRestIsRefusedWithTheModelToUseInstead() {
        // a strip folded 30° across its middle edge
        float c30 = (float) Math.cos(Math.toRadians(30));
        float s30 = (float) Math.sin(Math.toRadians(30));
        float[] x = {0f, 0f, 0f, 0f, 0f, 0.1f, 0.1f, 0f, 0f, 0.1f, 0f, 0.1f, 0.1f + 0.1f * c30, 0.1f * s30, 0f,
                0.1f + 0.1f * c30, 0.1f * s30, 0.1f};
        TriangleMesh folded = new TriangleMesh(x, null, new int[] {0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5});
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.ISOMETRIC);
        b.addMeshCloth("folded", folded);
        assertThatThrownBy(b::build).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("folded.bending").hasMessageContaining("flat rest shape")
                .hasMessageContaining("30.00 degrees").hasMessageContaining("dihedral");
        ModelBuilder dihedral = new ModelBuilder();
        dihedral.addMeshCloth("folded", folded);
        assertThat(dihedral.build().bending().count()).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"pd", "implicit", "mass-spring", "relaxation"})
    void theSolversWithoutIsometricBendingRefuseItByName(String name) {
        Model m = isometricGrid(4, 0.3f, 0f, 1f, 0f, Material.cloth().withStretch(2000f).withShear(500f));
        try (Solver solver = Solvers.create(name, pool)) {
            assertThatThrownBy(() -> solver.step(m, State.atRest(m), Environment.earth(), FRAME / 10))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("cloth.bending")
                    .hasMessageContaining("isometric").hasMessageContaining("xpbd or pbd")
                    .hasMessageContaining(name);
        }
    }

    /** A cut keeps each remaining stencil's weights: those carried equal those made afresh from the rest shape. */
    @Test
    void aCutCarriesTheWeightsOfTheStencilsItKeeps() {
        Model m = isometricGrid(12, 0.5f, 0f, 0f, 0f, Material.cloth());
        float[] before = m.isometricWeights();
        assertThat(before).isNotNull();
        Model cut = m.edit(Cutting.across(m, m.restPositions(), new float[] {0.21f, -0.5f, -1f},
                new float[] {0f, 1f, 0f}, new float[] {0f, 0f, 3f}));
        assertThat(cut.edits()).isNotEmpty();
        assertThat(cut.bending().count()).isLessThan(m.bending().count());
        assertThat(cut.bending().allIsometric()).isTrue();
        float[] carried = cut.isometricWeights();
        int[] p = cut.bending().particles();
        float[] fresh = new float[4];
        float[] h = new float[3];
        for (int c = 0; c < cut.bending().count(); c++) {
            assertThat(cut.bending().model(c)).isEqualTo(BendingConstraints.ISOMETRIC);
            IsometricBending.weights(cut.restPositions(), p[4 * c], p[4 * c + 1], p[4 * c + 2], p[4 * c + 3], fresh, 0);
            for (int j = 0; j < 4; j++) {
                assertThat(carried[4 * c + j]).as("stencil %d weight %d", c, j).isEqualTo(fresh[j]);
            }
            assertThat(IsometricBending.curvature(cut.restPositions(), null, p[4 * c], p[4 * c + 1], p[4 * c + 2],
                    p[4 * c + 3], carried, 4 * c, h)).isEqualTo(cut.bending().restAngle()[c]);
        }
    }

    private static double[] unit(Random r) {
        double[] v = {r.nextGaussian(), r.nextGaussian(), r.nextGaussian()};
        double n = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        return new double[] {v[0] / n, v[1] / n, v[2] / n};
    }

    private static double[] normalized(double[] v) {
        double n = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        return new double[] {v[0] / n, v[1] / n, v[2] / n};
    }

    private static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }
}
