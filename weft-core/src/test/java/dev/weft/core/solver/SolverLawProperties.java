package dev.weft.core.solver;

import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.RopeSpec;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * DESIGN.md's laws as properties: for any solver configuration, any small body (grid cloth with or
 * without shear and bending, rope, triangulated patch), any placement (translation up to ±1000 m per
 * axis, any rotation) and any velocities,
 * <ul>
 *   <li>a body at rest in its rest shape with no forces stays where it is;</li>
 *   <li>a free body keeps its linear momentum;</li>
 *   <li>pinned particles never move, not by a bit;</li>
 *   <li>an undamped free body starting in its rest shape never has more kinetic energy (about its
 *       centre of mass) than at the start, but for what float32 positions cannot avoid.</li>
 * </ul>
 * {@link SolverLawsTest} checks the same laws on one 16 × 16 cloth at a few places; this class lets
 * jqwik search the inputs and shrink a failure to a small reproducer (the sample's records print
 * every parameter needed to rebuild it). Each tolerance is argued from float32 rounding where it is
 * declared. The examples at the end are failures the properties found.
 */
class SolverLawProperties {
    private static final Environment NO_GRAVITY = new Environment(new float[3], List.of());
    /**
     * The properties draw their inputs from a fixed seed, so that CI is repeatable: with a new seed per
     * run they found three new failures in this session's last runs (one fixed, one allowed for with
     * its reason, one open: see the examples). To explore, run with another seed (or none) and keep what
     * it finds as an example.
     */
    private static final String SEED = "20261123";
    /** Metres per axis that a placement may move a body from the origin. */
    private static final double FAR = 1000.0;

    // ---------------------------------------------------------------- solver configurations

    /**
     * A solver configuration, undamped, with the substeps per 1/60 s it is stable at (as in
     * {@link SolverLawsTest}) and the relative change of a free body's linear momentum it is allowed
     * in 0.5 s.
     */
    record SolverConfig(String label, Function<WorkerPool, Solver> make, int substeps, double momentumTolerance) {
        @Override
        public String toString() {
            return label;
        }
    }

    /**
     * Momentum of the solvers whose every update is an equal and opposite mass-weighted pair (XPBD, PBD,
     * relaxation) or a pair of forces (mass-spring, implicit): exact in real arithmetic, so only float32
     * rounding of the corrections, forces and velocities is left. Each rounding is relative
     * 2⁻²⁴ ≈ 6e-8 of a particle's velocity (at most a few m/s, a few times the drift here), and a
     * particle sees some 10³–10⁴ of them in 0.5 s (steps × iterations × constraints per particle); even
     * adding up with one sign that is 6e-8 × 10⁴ × 3 ≈ 2e-3 of the momentum. SolverLawsTest measured
     * 3e-4 on its cloth; mass-spring and implicit keep 1e-6 here, also at 1000 m. (A rounding of a
     * position, relative to the position and divided by h on its way into the velocity, is not in this
     * budget: see the reproducers below.)
     */
    private static final double ROUNDING_MOMENTUM = 2e-3;
    /**
     * Projective Dynamics conserves momentum only when its global linear system is solved exactly:
     * the momentum an iterate loses is h² times the sum of its residuals. At the default 4 × 4
     * iterations SolverLawsTest measured 1.3 % in 1 s (RBGS, Gauss–Seidel) and 0.1 % (Jacobi), so 3 %.
     */
    private static final double PD_RESIDUAL_MOMENTUM = 0.03;

    static List<SolverConfig> solverConfigs() {
        XpbdSettings xpbd = XpbdSettings.defaults();
        PdSettings pd = PdSettings.defaults();
        return List.of(
                new SolverConfig("xpbd colored", p -> new XpbdSolver(xpbd, p), 16, ROUNDING_MOMENTUM),
                new SolverConfig("xpbd jacobi", p -> new XpbdSolver(xpbd.withMode(IterationMode.JACOBI), p), 16,
                        ROUNDING_MOMENTUM),
                new SolverConfig("xpbd gauss-seidel", p -> new XpbdSolver(xpbd.withMode(IterationMode.GAUSS_SEIDEL), p),
                        16, ROUNDING_MOMENTUM),
                new SolverConfig("pbd", p -> new XpbdSolver(Solvers.pbd(xpbd), p), 16, ROUNDING_MOMENTUM),
                new SolverConfig("pbd jacobi", p -> new XpbdSolver(Solvers.jacobiPbd(xpbd), p), 16,
                        ROUNDING_MOMENTUM),
                new SolverConfig("pd rbgs", p -> new PdSolver(pd, p), 16, PD_RESIDUAL_MOMENTUM),
                new SolverConfig("pd gs", p -> new PdSolver(pd.withInner(InnerSolver.GAUSS_SEIDEL), p), 16,
                        PD_RESIDUAL_MOMENTUM),
                new SolverConfig("pd jacobi", p -> new PdSolver(pd.withInner(InnerSolver.JACOBI), p), 16,
                        PD_RESIDUAL_MOMENTUM),
                // the global step solved exactly: no residual, momentum to float rounding like the local updates
                new SolverConfig("pd cholesky", p -> new PdSolver(pd.withInner(InnerSolver.CHOLESKY), p), 16,
                        ROUNDING_MOMENTUM),
                new SolverConfig("relaxation", p -> new RelaxationSolver(new RelaxationSettings(16), p), 16,
                        ROUNDING_MOMENTUM),
                // Explicit: stable with undamped Verlet only at small steps.
                new SolverConfig("mass-spring",
                        p -> new MassSpringSolver(MassSpringSettings.defaults(), p), 64,
                        ROUNDING_MOMENTUM),
                new SolverConfig("implicit", p -> Solvers.create("implicit", p), 16, ROUNDING_MOMENTUM));
    }

    @Provide
    Arbitrary<SolverConfig> solvers() {
        return Arbitraries.of(solverConfigs());
    }

    // ---------------------------------------------------------------- bodies

    /** A small body in its own frame; {@link #addTo} builds it at a placement. */
    interface Body {
        boolean bending();

        void addTo(ModelBuilder builder, Placement placement);
    }

    /** A grid cloth; its corner at the placement's translation, its u and v axes the rotated x and z. */
    record Grid(int cols, int rows, float width, float height, boolean shear, boolean bending) implements Body {
        /**
         * Dihedral bending only with shear: without the diagonals ModelBuilder refuses it (it added
         * energy without bound, see ModelBuilderTest#dihedralBendingOnAGridWithoutShearIsRefused).
         */
        @Override
        public boolean bending() {
            return bending && shear;
        }

        @Override
        public void addTo(ModelBuilder builder, Placement p) {
            float[] origin = p.apply(0, 0, 0);
            builder.addGridCloth(GridClothSpec.of("grid", cols, rows, width, height).withShear(shear)
                    .withOrigin(origin[0], origin[1], origin[2])
                    .withAxes(p.rotate(1, 0, 0), p.rotate(0, 0, 1)));
        }
    }

    /**
     * A rope along a polyline of {@code segments} equal segments, {@code length} long in all, each
     * segment turned by {@code kink} radians from the one before (alternately about z and y).
     */
    record Rope(int particles, float length, int segments, float kink, boolean bending) implements Body {
        @Override
        public void addTo(ModelBuilder builder, Placement p) {
            float[] line = new float[3 * (segments + 1)];
            double x = 0;
            double y = 0;
            double z = 0;
            double heading = 0;
            double climb = 0;
            double step = (double) length / segments;
            System.arraycopy(p.apply(0, 0, 0), 0, line, 0, 3);
            for (int k = 1; k <= segments; k++) {
                x += step * Math.cos(climb) * Math.cos(heading);
                y += step * Math.sin(climb);
                z += step * Math.cos(climb) * Math.sin(heading);
                System.arraycopy(p.apply(x, y, z), 0, line, 3 * k, 3);
                if (k % 2 == 1) {
                    climb += kink;
                } else {
                    heading += kink;
                }
            }
            builder.addRope(new RopeSpec("rope", line, particles, 0.05f));
        }
    }

    /**
     * A cloth from a triangle mesh: a {@code cols × rows} lattice over {@code width × height} in the
     * local xz plane, each vertex moved by up to {@code jitter} of the spacing in x and z and up to
     * {@code relief} of it in y (so the rest shape is not flat and its rest angles are not zero), and
     * each quad split along a random diagonal. The vertices are placed before the mesh is built, as
     * an OBJ file's would be.
     */
    record Patch(int cols, int rows, float width, float height, float jitter, float relief, long seed,
                 boolean bending) implements Body {
        @Override
        public void addTo(ModelBuilder builder, Placement p) {
            Random random = new Random(seed);
            double dx = (double) width / (cols - 1);
            double dz = (double) height / (rows - 1);
            float[] positions = new float[3 * cols * rows];
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    double x = (c + jitter * (2 * random.nextDouble() - 1)) * dx;
                    double z = (r + jitter * (2 * random.nextDouble() - 1)) * dz;
                    double y = relief * (2 * random.nextDouble() - 1) * Math.min(dx, dz);
                    System.arraycopy(p.apply(x, y, z), 0, positions, 3 * (r * cols + c), 3);
                }
            }
            int[] triangles = new int[6 * (cols - 1) * (rows - 1)];
            int t = 0;
            for (int r = 0; r + 1 < rows; r++) {
                for (int c = 0; c + 1 < cols; c++) {
                    int p00 = r * cols + c;
                    int p01 = p00 + 1;
                    int p10 = p00 + cols;
                    int p11 = p10 + 1;
                    int[] quad = random.nextBoolean()
                            ? new int[] {p00, p10, p11, p00, p11, p01}
                            : new int[] {p00, p10, p01, p01, p10, p11};
                    System.arraycopy(quad, 0, triangles, t, 6);
                    t += 6;
                }
            }
            builder.addMeshCloth("patch", new TriangleMesh(positions, null, triangles));
        }
    }

    /**
     * A rigid placement: rotate by roll (about z), then pitch (about x), then yaw (about y), in degrees,
     * then translate. Computed in double and rounded once to float, as a
     * scene or OBJ file's coordinates would be.
     */
    record Placement(double x, double y, double z, double yaw, double pitch, double roll) {
        float[] apply(double lx, double ly, double lz) {
            double[] r = rotated(lx, ly, lz);
            return new float[] {(float) (x + r[0]), (float) (y + r[1]), (float) (z + r[2])};
        }

        float[] rotate(double lx, double ly, double lz) {
            double[] r = rotated(lx, ly, lz);
            return new float[] {(float) r[0], (float) r[1], (float) r[2]};
        }

        private double[] rotated(double lx, double ly, double lz) {
            double roll = Math.toRadians(this.roll);
            double pitch = Math.toRadians(this.pitch);
            double yaw = Math.toRadians(this.yaw);
            // roll about z
            double ax = Math.cos(roll) * lx - Math.sin(roll) * ly;
            double ay = Math.sin(roll) * lx + Math.cos(roll) * ly;
            double az = lz;
            // pitch about x
            double by = Math.cos(pitch) * ay - Math.sin(pitch) * az;
            double bz = Math.sin(pitch) * ay + Math.cos(pitch) * az;
            double bx = ax;
            // yaw about y
            double cx = Math.cos(yaw) * bx + Math.sin(yaw) * bz;
            double cz = -Math.sin(yaw) * bx + Math.cos(yaw) * bz;
            return new double[] {cx, by, cz};
        }
    }

    @Provide
    Arbitrary<Body> bodies() {
        Arbitrary<Body> grids = Combinators.combine(
                Arbitraries.integers().between(3, 12), Arbitraries.integers().between(3, 12),
                sizes(), sizes(), Arbitraries.of(true, false), Arbitraries.of(true, false))
                .as(Grid::new);
        Arbitrary<Body> ropes = Combinators.combine(
                Arbitraries.integers().between(3, 24), sizes(), Arbitraries.integers().between(1, 4),
                Arbitraries.floats().between(0f, 1.2f).ofScale(2), Arbitraries.of(true, false))
                .as(Rope::new);
        Arbitrary<Body> patches = Combinators.combine(
                Arbitraries.integers().between(3, 7), Arbitraries.integers().between(3, 7), sizes(), sizes(),
                Arbitraries.floats().between(0f, 0.2f).ofScale(2), Arbitraries.floats().between(0f, 0.5f).ofScale(2),
                Arbitraries.longs(), Arbitraries.of(true, false))
                .as(Patch::new);
        return Arbitraries.frequencyOf(Tuple.of(2, grids), Tuple.of(1, ropes), Tuple.of(1, patches));
    }

    /** Side lengths in metres: from a napkin to a bedsheet. */
    private static Arbitrary<Float> sizes() {
        return Arbitraries.floats().between(0.3f, 3f).ofScale(2);
    }

    @Provide
    Arbitrary<Placement> placements() {
        Arbitrary<Double> offset = Arbitraries.doubles().between(-FAR, FAR).ofScale(3);
        Arbitrary<Double> angle = Arbitraries.doubles().between(-180, 180).ofScale(2);
        return Combinators.combine(offset, offset, offset, angle, angle, angle).as(Placement::new);
    }

    // ---------------------------------------------------------------- velocities and pins

    /**
     * Initial velocities: a drift of {@code speed} m/s in the direction (azimuth, elevation; degrees), a spin
     * (ω, rad/s) about the centre of mass, and Gaussian noise of {@code spread} m/s per coordinate.
     */
    record Motion(double speed, double azimuth, double elevation, double spread, double wx, double wy, double wz,
                  long seed) {
        void applyTo(Model m, State s) {
            float[] x = m.restPositions();
            float[] w = m.invMass();
            double[] centre = new double[3];
            double mass = 0;
            for (int i = 0; i < w.length; i++) {
                if (w[i] > 0f) {
                    for (int k = 0; k < 3; k++) {
                        centre[k] += x[3 * i + k] / w[i];
                    }
                    mass += 1 / w[i];
                }
            }
            for (int k = 0; k < 3; k++) {
                centre[k] = mass > 0 ? centre[k] / mass : 0;
            }
            double az = Math.toRadians(azimuth);
            double el = Math.toRadians(elevation);
            double[] drift = {speed * Math.cos(el) * Math.cos(az), speed * Math.sin(el), speed * Math.cos(el) * Math.sin(az)};
            Random random = new Random(seed);
            float[] v = s.velocities();
            for (int i = 0; i < w.length; i++) {
                if (w[i] == 0f) {
                    continue;
                }
                double rx = x[3 * i] - centre[0];
                double ry = x[3 * i + 1] - centre[1];
                double rz = x[3 * i + 2] - centre[2];
                v[3 * i] = (float) (drift[0] + wy * rz - wz * ry + spread * random.nextGaussian());
                v[3 * i + 1] = (float) (drift[1] + wz * rx - wx * rz + spread * random.nextGaussian());
                v[3 * i + 2] = (float) (drift[2] + wx * ry - wy * rx + spread * random.nextGaussian());
            }
        }
    }

    /**
     * Drift 0.5–2 m/s (so the momentum is never near zero and a relative change means something), spin
     * up to 1 rad/s per axis (0 to 2.6 m/s at the rim of a 3 m body: it stretches the constraints but
     * adds no momentum), noise up to 0.5 m/s.
     */
    @Provide
    Arbitrary<Motion> motions() {
        Arbitrary<Double> spin = Arbitraries.doubles().between(-1, 1).ofScale(2);
        return Combinators.combine(
                Arbitraries.doubles().between(0.5, 2).ofScale(2),
                Arbitraries.doubles().between(-180, 180).ofScale(1),
                Arbitraries.doubles().between(-90, 90).ofScale(1),
                Arbitraries.doubles().between(0, 0.5).ofScale(2),
                spin, spin, spin, Arbitraries.longs())
                .as(Motion::new);
    }

    /**
     * Pins as fractions of the particle count (particle ⌊u·n⌋), 1 to 12 of them: up to 8 pins every
     * free particle is tethered to every pin, above that to the nearest one; both are covered.
     */
    @Provide
    Arbitrary<List<Double>> pins() {
        return Arbitraries.doubles().between(0, true, 1, false).ofScale(4).list().ofMinSize(1).ofMaxSize(12);
    }

    // ---------------------------------------------------------------- the laws

    /**
     * A body at rest in its rest shape with no forces stays where it is, wherever it is placed and
     * however it is turned. Its rest lengths and angles are computed from the very float32 positions it
     * starts at, as the solvers compute them, so every constraint error is exactly zero and nothing
     * should move at all; the bound allows the rounding of the last bits of a coordinate: two ulps of
     * the largest coordinate magnitude (1.2e-4 m at 1000 m), and at least 1e-5 m near the origin
     * (where an ulp is 1e-7 m and a sub-ulp difference in how a length is summed is not a law
     * broken), as in SolverLawsTest.
     */
    @Property(tries = 60, seed = SEED)
    void restShapeStaysPut(@ForAll("solvers") SolverConfig solver, @ForAll("bodies") Body body,
                           @ForAll("placements") Placement placement) {
        Model m = build(body, placement, List.of());
        State s = State.atRest(m);
        run(solver, m, s, NO_GRAVITY, 1.0, null);
        float[] rest = m.restPositions();
        float bound = Math.max(1e-5f, 2f * Math.ulp(largestMagnitude(rest)));
        float[] x = s.positions();
        float moved = 0f;
        int worst = 0;
        for (int i = 0; i < x.length; i++) {
            float d = Math.abs(x[i] - rest[i]);
            if (!(d <= moved)) {
                moved = d;
                worst = i;
            }
        }
        assertThat(moved).as("largest coordinate change after 1 s (particle %d of %d, coordinate %d), m; bound %s",
                worst / 3, m.particleCount(), worst % 3, bound).isLessThanOrEqualTo(bound);
    }

    /**
     * A free body (no pins) with any velocities in zero gravity keeps its linear momentum over 0.5 s,
     * to float32 rounding for XPBD, PBD, relaxation, mass-spring and implicit, and to the unconverged
     * residual of its global solve for PD (see {@link #ROUNDING_MOMENTUM}, {@link #PD_RESIDUAL_MOMENTUM}).
     */
    @Property(tries = 60, seed = SEED)
    void freeBodyKeepsItsMomentum(@ForAll("solvers") SolverConfig solver, @ForAll("bodies") Body body,
                                  @ForAll("placements") Placement placement, @ForAll("motions") Motion motion) {
        Model m = build(body, placement, List.of());
        State s = State.atRest(m);
        motion.applyTo(m, s);
        double[] p0 = ClothMetrics.linearMomentum(m, s.velocities());
        run(solver, m, s, NO_GRAVITY, 0.5, null);
        double[] p1 = ClothMetrics.linearMomentum(m, s.velocities());
        assertThat(relativeChange(p0, p1)).as("relative momentum change in 0.5 s; p0 = (%s, %s, %s), p1 = (%s, %s, %s)",
                p0[0], p0[1], p0[2], p1[0], p1[1], p1[2]).isLessThan(solver.momentumTolerance());
    }

    /**
     * Pinned particles never move, not by one bit, for any solver, body and pins, under gravity with
     * the free particles moving at random: a pin has zero inverse mass, so every update multiplies
     * its share by zero (and a position plus an exact zero is the same float).
     */
    @Property(tries = 50, seed = SEED)
    void pinnedParticlesNeverMove(@ForAll("solvers") SolverConfig solver, @ForAll("bodies") Body body,
                                  @ForAll("placements") Placement placement, @ForAll("pins") List<Double> pins,
                                  @ForAll("motions") Motion motion) {
        Model m = build(body, placement, pins);
        State s = State.atRest(m);
        motion.applyTo(m, s);
        run(solver, m, s, Environment.earth(), 0.5, null);
        float[] rest = m.restPositions();
        float[] x = s.positions();
        for (int i = 0; i < m.particleCount(); i++) {
            if (!m.isPinned(i)) {
                continue;
            }
            for (int k = 0; k < 3; k++) {
                assertThat(Float.floatToIntBits(x[3 * i + k]))
                        .as("pinned particle %d coordinate %d: %s, rest %s", i, k, x[3 * i + k], rest[3 * i + k])
                        .isEqualTo(Float.floatToIntBits(rest[3 * i + k]));
            }
        }
    }

    /**
     * An undamped free body gains no energy: it starts in its rest shape (no elastic energy; elastic
     * energy is never negative) with any velocities, so its kinetic energy may never exceed the
     * initial one, checked after every substep for 1 s. Measured in the frame of its centre of mass
     * (kinetic energy less |P|²/2M, Galilean invariant): the energy of the drift changes only with
     * the momentum, which {@link #freeBodyKeepsItsMomentum} checks on its own.
     *
     * <p>The one allowance is what float32 positions cannot avoid: every step rounds each coordinate
     * to its ulp, so even a body in pure translation sees constraint errors of up to an ulp of its
     * largest coordinate, and a solver that corrects them exactly (equal and opposite, momentum kept)
     * still turns them into internal velocities of up to ulp/h per coordinate. The bound is the
     * kinetic energy of that velocity on every coordinate of every particle, ½ M · 3 (ulp/h)², with
     * the largest coordinate reached in the run: 2e-8 J/kg near 1 m, 5e-3 J/kg at 1000 m with
     * h = 1/960 s. The rounding of the velocities themselves (2⁻²⁴ of a few m/s per step) is far
     * below it. Anything above it is energy the solver made.
     *
     * <p>Projective Dynamics does not keep momentum to rounding (its unconverged global solve loses up
     * to {@link #PD_RESIDUAL_MOMENTUM} of it per 0.5 s, see {@link #freeBodyKeepsItsMomentum}), and what it
     * loses is not taken evenly from every particle: a change of up to that share of the drift velocity,
     * twice over in 1 s, can turn drift into internal motion, ½ M (2·tolerance·|v_c|)² at most. Found by
     * this property (pd rbgs, a 3 × 3 cloth drifting at 0.5 m/s and spinning at 0.01 rad/s: internal
     * energy 2.03e-8 J → 2.14e-8 J, 1e-9 J of a 1.9e-3 J drift); a solver that makes energy (the
     * Gauss–Seidel sweep of issue #12 multiplied it by 70) is far above it.
     */
    @Property(tries = 40, seed = SEED)
    void undampedFreeBodyGainsNoEnergy(@ForAll("solvers") SolverConfig solver, @ForAll("bodies") Body body,
                                       @ForAll("placements") Placement placement, @ForAll("motions") Motion motion) {
        Model m = build(body, placement, List.of());
        State s = State.atRest(m);
        motion.applyTo(m, s);
        double initial = internalKineticEnergy(m, s.velocities());
        double drift = centreOfMassSpeed(m, s.velocities());
        double[] most = {0};
        float[] far = {largestMagnitude(m.restPositions())};
        run(solver, m, s, NO_GRAVITY, 1.0, () -> {
            most[0] = Math.max(most[0], internalKineticEnergy(m, s.velocities()));
            far[0] = Math.max(far[0], largestMagnitude(s.positions()));
        });
        double quantum = Math.ulp(far[0]) * 60.0 * solver.substeps(); // ulp / h
        double allowance = 0.5 * m.totalFreeMass() * 3 * quantum * quantum;
        if (solver.momentumTolerance() > ROUNDING_MOMENTUM) { // PD: its residual's share of the drift
            double leak = 2 * solver.momentumTolerance() * drift;
            allowance += 0.5 * m.totalFreeMass() * leak * leak;
        }
        assertThat(most[0]).as("largest kinetic energy about the centre of mass in 1 s, J; initial %s, "
                + "float32 allowance %s", initial, allowance).isLessThanOrEqualTo(initial + allowance);
    }

    // ---------------------------------------------------------------- reproducers

    /*
     * Failures the properties found, fixed as examples (they fail today; see issue #12's report).
     * Cause, shared: the position-based solvers add every constraint correction to the float32
     * positions in place, and take the velocity from v_pred + (x − y)/h. x − y is exact, but x itself
     * has been rounded to ulp(x) at every in-place update, and those roundings (a correction below
     * half an ulp is lost entirely) are neither equal and opposite nor mass-weighted: each one is a
     * velocity error of up to ulp(x)/2h that moves the centre of mass and feeds the internal motion.
     * They grow with the distance from the origin, and near it with how unequal the ulps of a
     * constraint's two particles are (a cloth spanning 0..1 m). The same relaxation with its
     * corrections summed beside y (x = y + d once per step, v = v_pred + d/h) keeps the momentum to
     * 5e-8 at 0, 10, 100 and 1000 m and stays within the energy allowance.
     */

    private static final Body ONE_METRE_CLOTH = new Grid(8, 8, 1f, 1f, true, true);
    /** 1 m/s along x, spinning at 0.5 rad/s about y. */
    private static final Motion DRIFT_AND_SPIN = new Motion(1, 0, 0, 0, 0, 0.5, 0, 0);
    private static final Placement AT_THE_ORIGIN = new Placement(0, 0, 0, 0, 0, 0);
    private static final Placement AT_100_M = new Placement(100, 100, -100, 0, 0, 0);
    private static final Placement AT_1000_M = new Placement(1000, 1000, -1000, 0, 0, 0);

    private static SolverConfig solver(String label) {
        return solverConfigs().stream().filter(c -> c.label().equals(label)).findFirst().orElseThrow();
    }

    /** Relaxation at the origin: 1.2 % of the momentum in 0.5 s (bound 0.2 %). */
    @Example
    void relaxationKeepsMomentumAtTheOrigin() {
        freeBodyKeepsItsMomentum(solver("relaxation"), ONE_METRE_CLOTH, AT_THE_ORIGIN, DRIFT_AND_SPIN);
    }

    /** XPBD Gauss–Seidel at 1000 m: 3.7 % (bound 0.2 %). */
    @Example
    void xpbdGaussSeidelKeepsMomentumFarAway() {
        freeBodyKeepsItsMomentum(solver("xpbd gauss-seidel"), ONE_METRE_CLOTH, AT_1000_M, DRIFT_AND_SPIN);
    }

    /** PD (RBGS) at 1000 m: 13 % (bound 3 %, its residual at the origin). */
    @Example
    void pdKeepsMomentumFarAway() {
        freeBodyKeepsItsMomentum(solver("pd rbgs"), ONE_METRE_CLOTH, AT_1000_M, DRIFT_AND_SPIN);
    }

    /** XPBD colored at 100 m spinning at 1 rad/s: +3.8 % internal kinetic energy (allowance 0.09 %). */
    @Example
    void xpbdGainsNoEnergyAt100Metres() {
        undampedFreeBodyGainsNoEnergy(solver("xpbd colored"), ONE_METRE_CLOTH, AT_100_M,
                new Motion(1, 0, 0, 0, 0, 1, 0, 0));
    }

    /**
     * XPBD with stretch and shear both rigid (shear compliance 0, briefly the default in issue #12), a
     * free 10 × 6 cloth at 126 m: +33 % internal kinetic energy in 1 s, where the default 10⁻⁶ keeps it
     * (see XpbdSettings.defaults()).
     */
    @Example
    void xpbdWithDefaultShearGainsNoEnergyFarAway() {
        undampedFreeBodyGainsNoEnergy(solver("xpbd colored"), new Grid(10, 6, 0.3f, 0.68f, true, true),
                new Placement(126.328, -0.05, -0.001, 0.05, -1.76, -2.9),
                new Motion(1.81, 2.8, 1.2, 0.05, 0.08, -0.27, -0.11, -2985903833L));
    }

    // ---------------------------------------------------------------- helpers

    private static Model build(Body body, Placement placement, List<Double> pins) {
        ModelBuilder b = new ModelBuilder().bending(body.bending());
        body.addTo(b, placement);
        int n = b.particleCount();
        for (double u : pins) {
            b.pin((int) (u * n));
        }
        return b.build().withMaterial(mat -> mat.withDamping(0f)); // the laws hold undamped
    }

    private static void run(SolverConfig c, Model m, State s, Environment env, double seconds, Runnable afterStep) {
        try (WorkerPool pool = new WorkerPool(1); Solver solver = c.make().apply(pool)) {
            float h = 1f / (60f * c.substeps());
            long steps = Math.round(seconds * 60 * c.substeps());
            for (long k = 0; k < steps; k++) {
                solver.step(m, s, env, h);
                if (afterStep != null) {
                    afterStep.run();
                }
            }
        }
    }

    private static float largestMagnitude(float[] xyz) {
        float far = 0f;
        for (float c : xyz) {
            far = Math.max(far, Math.abs(c));
        }
        return far;
    }

    /**
     * Σ ½ m |v − v_c|² over free particles, v_c the velocity of their centre of mass: kinetic energy
     * less that of the centre of mass, in double and in two passes (no cancellation between two
     * nearly equal totals).
     */
    private static double internalKineticEnergy(Model m, float[] v) {
        float[] w = m.invMass();
        double mass = 0;
        double[] p = new double[3];
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0f) {
                double mi = 1.0 / w[i];
                mass += mi;
                for (int k = 0; k < 3; k++) {
                    p[k] += mi * v[3 * i + k];
                }
            }
        }
        double e = 0;
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0f) {
                for (int k = 0; k < 3; k++) {
                    double d = v[3 * i + k] - p[k] / mass;
                    e += 0.5 * d * d / w[i];
                }
            }
        }
        return e;
    }

    /** |Σ m v| / Σ m over free particles. */
    private static double centreOfMassSpeed(Model m, float[] v) {
        double[] p = ClothMetrics.linearMomentum(m, v);
        return Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) / m.totalFreeMass();
    }

    private static double relativeChange(double[] p0, double[] p1) {
        double dx = p1[0] - p0[0];
        double dy = p1[1] - p0[1];
        double dz = p1[2] - p0[2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz) / Math.sqrt(p0[0] * p0[0] + p0[1] * p0[1] + p0[2] * p0[2]);
    }
}
