package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.FunnelCollider;
import dev.weft.core.collide.MeshCollider;
import dev.weft.core.collide.RectangleCollider;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.collide.SdfCollider;
import dev.weft.core.lab.ConvergenceExperiment;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.SpringLayout;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.DeviceFeature;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The rigid colliders besides planes, spheres, boxes, capsules and cylinders (the ellipsoid, the funnel, the
 * rectangle, a distance field, a triangle mesh) and moving rigid colliders (constant velocity, keyframed, a moving
 * distance field, a moving mesh) on the OpenCL solvers against their CPU solvers on one thread, each solver at the
 * step its own tests use: the ellipsoid and the constant-velocity ball on all five, the others on three or two;
 * the triangle meshes, still and moving, and an animated mesh on all six families (pbd, XPBD's Jacobi mode with
 * rigid stretch, too),
 * each for at least 100 steps (a smaller step where the family's own is larger than a hundredth of the run).
 *
 * <p>Tolerance: colliders.cl does the CPU's float and double operations in its order (the ellipsoid's bisection,
 * the funnel's sampling and Newton steps with fdlibm's exp, the field's trilinear sample, the swept test, friction
 * against the surface's motion), so on PoCL every position and velocity has the CPU's bits after every scene here:
 * that is what these tests hold a device to (the implicit solver also needs double precision for its own sums). On
 * another device the runs are held to {@link #TOLERANCE}, 1 mm: a contact's branch (stick or slide, which side of a
 * shell) can amplify a rounding difference, so this only says the device runs the same scene.
 *
 * <p>Physics, on every device: after the last step no particle lies inside a collider's thickness (beyond {@link
 * #CLEARANCE_SLACK}, 10 µm, a float's rounding of a position about 1 m from the origin many times over; for a
 * distance field a tenth of its cell, the field's own accuracy), the cloth touches the collider (a test that would
 * pass with the collider missed says nothing), a moving collider carried the cloth up with it, and the funnel's
 * cloth is still inside the funnel.
 */
class OpenClCollidersTest {
    private static final float TOLERANCE = 1e-3f;
    private static final float CLEARANCE_SLACK = 1e-5f;
    /** How long each scene runs, s. */
    private static final float DURATION = 0.2f;

    /** A solver family: its CPU and device solvers, the step its tests use, its cloth's builder. */
    private record Family(String name, float dt, Supplier<ModelBuilder> builder, Function<WorkerPool, Solver> cpu,
                          Function<OpenClDevice, Solver> device, boolean needsFp64) {
        int steps() {
            return Math.round(DURATION / dt);
        }
    }

    private static final Family XPBD = new Family("XPBD", 1f / 1800f,
            () -> new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE),
            pool -> new XpbdSolver(XpbdSettings.defaults(), pool),
            d -> new OpenClXpbdSolver(XpbdSettings.defaults(), d), false);
    private static final Family PD = new Family("PD", ConvergenceExperiment.STEP,
            () -> new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE),
            pool -> new PdSolver(PdSettings.defaults(), pool), d -> new OpenClPdSolver(PdSettings.defaults(), d),
            false);
    private static final Family RELAXATION = new Family("relaxation", 1f / 2880f, ModelBuilder::new,
            pool -> new RelaxationSolver(new RelaxationSettings(3), pool),
            d -> new OpenClRelaxationSolver(new RelaxationSettings(3), d), false);
    private static final Family MASS_SPRING = new Family("mass-spring", 1f / 960f,
            () -> new ModelBuilder().tethers(false).springLayout(SpringLayout.PATTERN_12),
            pool -> new MassSpringSolver(MassSpringSettings.defaults().withTethers(false), pool),
            d -> new OpenClMassSpringSolver(MassSpringSettings.defaults().withTethers(false), d), false);
    private static final Family IMPLICIT = new Family("implicit", 1f / 120f, ModelBuilder::new,
            pool -> new ImplicitSolver(ImplicitSettings.defaults(), pool),
            d -> new OpenClImplicitSolver(ImplicitSettings.defaults(), d), true);
    private static final List<Family> ALL = List.of(XPBD, PD, RELAXATION, MASS_SPRING, IMPLICIT);
    private static final Family PBD = new Family("pbd", 1f / 1800f,
            () -> new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE),
            pool -> new XpbdSolver(Solvers.jacobiPbd(XpbdSettings.defaults()), pool),
            d -> new OpenClXpbdSolver(Solvers.jacobiPbd(XpbdSettings.defaults()), d), false);
    /** Every family colliders.cl serves, pbd included. */
    private static final List<Family> EVERY = List.of(XPBD, PBD, PD, RELAXATION, MASS_SPRING, IMPLICIT);
    /** Steps a mesh scene runs at least, so that the CPU's bits are held over a long run. */
    private static final int MESH_STEPS = 100;

    @Test
    void aClothDroppedOnATiltedEllipsoidAgreesWithTheCpuOnEverySolver() {
        for (Family f : ALL) {
            RigidCollider egg = DeviceTestScenes.tiltedEgg();
            StepComparison c = compare(f, DeviceTestScenes.droppedCloth(f.builder().get(), 16, 0.45f), egg);
            assertClearOfAndTouching(f, c, egg);
        }
    }

    @Test
    void aClothDroppedOnATiltedRectangleStaysOnItsSideAndAgreesWithTheCpu() {
        for (Family f : List.of(XPBD, MASS_SPRING, IMPLICIT)) {
            RectangleCollider board = DeviceTestScenes.tiltedBoard();
            StepComparison c = compare(f, DeviceTestScenes.droppedCloth(f.builder().get(), 16, 0.45f), board);
            assertClearOfAndTouching(f, c, board);
            // a shell: what lies over its face stays above it (its + side), none went through
            float[] x = c.device.positions();
            float[] r = board.rotation();
            float[] t = board.position();
            int over = 0;
            for (int i = 0; i < x.length; i += 3) {
                float dx = x[i] - t[0];
                float dy = x[i + 1] - t[1];
                float dz = x[i + 2] - t[2];
                float lx = r[0] * dx + r[3] * dy + r[6] * dz;
                float ly = r[1] * dx + r[4] * dy + r[7] * dz;
                float lz = r[2] * dx + r[5] * dy + r[8] * dz;
                // 5 cm in from the rim: cloth draping over an edge hangs below the plane right beside it
                if (Math.abs(lx) < board.halfWidth() - 0.05f && Math.abs(lz) < board.halfDepth() - 0.05f) {
                    over++;
                    assertThat(ly).as(f.name() + ": height over the board, m").isGreaterThanOrEqualTo(
                            board.thickness() - CLEARANCE_SLACK);
                }
            }
            assertThat(over).as(f.name() + ": particles over the board").isGreaterThan(20);
        }
    }

    @Test
    void aClothDroppedIntoTheFunnelStaysInsideItAndAgreesWithTheCpu() {
        for (Family f : List.of(XPBD, RELAXATION, PD)) {
            FunnelCollider funnel = DeviceTestScenes.funnel();
            StepComparison c = compare(f, DeviceTestScenes.droppedCloth(f.builder().get(), 16, 1.15f), funnel);
            assertClearOfAndTouching(f, c, funnel);
            // inside the funnel (its − side) in every step: the wall held the cloth, none of it went through
            assertThat(c.largest(funnel::sideDistance)).as(f.name() + ": the largest side distance")
                    .isLessThan(0f);
        }
    }

    @Test
    void aBallMovingAtConstantVelocityLiftsTheHangingClothAsOnTheCpu() {
        for (Family f : ALL) {
            RigidCollider ball = DeviceTestScenes.risingBall();
            StepComparison c = compare(f, DeviceTestScenes.hangingCloth(f.builder().get(), 16), ball);
            assertClearOfAndTouching(f, c, ball);
            assertLifted(f, c);
        }
    }

    @Test
    void aKeyframedTurningBoxLiftsTheHangingClothAsOnTheCpu() {
        for (Family f : List.of(XPBD, MASS_SPRING, IMPLICIT)) {
            RigidCollider box = DeviceTestScenes.keyframedBox();
            StepComparison c = compare(f, DeviceTestScenes.hangingCloth(f.builder().get(), 16), box);
            assertClearOfAndTouching(f, c, box);
            assertLifted(f, c);
        }
    }

    @Test
    void aClothDroppedOnADistanceFieldBoxAgreesWithTheCpu() {
        for (Family f : List.of(XPBD, MASS_SPRING, IMPLICIT)) {
            SdfCollider box = DeviceTestScenes.tiltedFieldBox();
            StepComparison c = compare(f, DeviceTestScenes.droppedCloth(f.builder().get(), 16, 0.5f), box);
            // a sampled field is a distance only to within a tenth of its cell (SdfColliderTest): moving a
            // particle out by the missing distance along its gradient reaches the thickness to within that
            assertClearOfAndTouching(f, c, box, 0.1f * box.field().cellSize());
        }
    }

    @Test
    void aMovingDistanceFieldLiftsTheHangingClothAsOnTheCpu() {
        for (Family f : List.of(XPBD, RELAXATION)) {
            SdfCollider ball = DeviceTestScenes.risingFieldBall();
            StepComparison c = compare(f, DeviceTestScenes.hangingCloth(f.builder().get(), 16), ball);
            assertClearOfAndTouching(f, c, ball, 0.1f * ball.field().cellSize());
            assertLifted(f, c);
        }
    }

    @Test
    void aClothDroppedOnATiltedMeshBoxIsTheCpusBitsOnEverySolverAndStaysOutside() {
        for (Family f : EVERY) {
            MeshCollider box = DeviceTestScenes.tiltedMeshBox();
            StepComparison c = compareMesh(f, DeviceTestScenes.droppedCloth(f.builder().get(), 16, 0.5f), box);
            assertClearOfAndTouching(f, c, box);
            // in every step every particle outside the closed box, at least the thickness off its surface: none
            // went through a face, an edge or a corner
            assertThat(c.lowestClearance(box)).as(f.name() + ": the nearest particle in any step, m")
                    .isGreaterThanOrEqualTo(box.thickness() - CLEARANCE_SLACK);
            assertThat(-c.largest((x, y, z) -> -outsideConvex(box, x, y, z)))
                    .as(f.name() + ": the least height over the box's face planes in any step, m").isPositive();
        }
    }

    @Test
    void aRisingMeshBallLiftsTheHangingClothAsOnTheCpuOnEverySolver() {
        for (Family f : EVERY) {
            MeshCollider ball = DeviceTestScenes.risingMeshBall();
            StepComparison c = compareMesh(f, DeviceTestScenes.hangingCloth(f.builder().get(), 16), ball);
            assertClearOfAndTouching(f, c, ball);
            assertLifted(f, c);
            float[] x = c.device.positions();
            for (int i = 0; i < x.length; i += 3) {
                assertThat(outsideConvex(ball, x[i], x[i + 1], x[i + 2])).as(f.name() + ": particle " + i / 3
                        + "'s height over the ball's face planes, m").isPositive();
            }
        }
    }

    /**
     * The largest distance of (x, y, z), taken into the mesh's body frame, over the planes of its triangles: for a
     * closed convex mesh of outward triangles (the box, the icosphere) positive exactly where the point lies
     * outside. The sign of a mesh collider's own distance is its closest triangle's face's, which beside an edge
     * or a corner may be a neighbouring face's (a rounding tie at a shared corner): it tells no inside from out.
     */
    private static float outsideConvex(MeshCollider m, float x, float y, float z) {
        float[] r = m.rotation();
        float[] t = m.position();
        float dx = x - t[0];
        float dy = y - t[1];
        float dz = z - t[2];
        return outsideConvex(m.mesh().positions(), m.mesh().triangles(), r[0] * dx + r[3] * dy + r[6] * dz,
                r[1] * dx + r[4] * dy + r[7] * dz, r[2] * dx + r[5] * dy + r[8] * dz);
    }

    /** As above for the mesh of vertices {@code v} and triangles {@code tris} at the point (lx, ly, lz). */
    private static float outsideConvex(float[] v, int[] tris, float lx, float ly, float lz) {
        float most = Float.NEGATIVE_INFINITY;
        for (int k = 0; k < tris.length; k += 3) {
            int a = 3 * tris[k];
            int b = 3 * tris[k + 1];
            int c = 3 * tris[k + 2];
            double e1x = v[b] - v[a], e1y = v[b + 1] - v[a + 1], e1z = v[b + 2] - v[a + 2];
            double e2x = v[c] - v[a], e2y = v[c + 1] - v[a + 1], e2z = v[c + 2] - v[a + 2];
            double nx = e1y * e2z - e1z * e2y;
            double ny = e1z * e2x - e1x * e2z;
            double nz = e1x * e2y - e1y * e2x;
            double h = ((lx - v[a]) * nx + (ly - v[a + 1]) * ny + (lz - v[a + 2]) * nz)
                    / Math.sqrt(nx * nx + ny * ny + nz * nz);
            most = Math.max(most, (float) h);
        }
        return most;
    }

    @Test
    void aRisingSquashingAnimatedMeshLiftsTheHangingClothAsOnTheCpuOnEverySolver() {
        for (Family f : EVERY) {
            AnimatedMeshCollider ball = DeviceTestScenes.risingAnimatedBall();
            StepComparison c = compareMesh(f, DeviceTestScenes.hangingCloth(f.builder().get(), 16), ball);
            // after the last step (the ball held at its last frame) no particle within its thickness (its own
            // distance is unsigned), a particle within 2 cm, and none inside its convex last frame
            float[] x = c.device.positions();
            float nearest = Float.POSITIVE_INFINITY;
            float[] v = new float[3 * ball.vertexCount()];
            ball.currentPositions(v);
            for (int i = 0; i < x.length; i += 3) {
                nearest = Math.min(nearest, ball.signedDistance(x[i], x[i + 1], x[i + 2]));
                assertThat(outsideConvex(v, ball.triangles(), x[i], x[i + 1], x[i + 2])).as(f.name()
                        + ": particle " + i / 3 + "'s height over the ball's face planes, m").isPositive();
            }
            assertThat(nearest).as(f.name() + ": the nearest particle, m")
                    .isGreaterThanOrEqualTo(ball.thickness() - CLEARANCE_SLACK).isLessThan(0.02f);
            assertLifted(f, c);
        }
    }

    @Test
    void theEllipsoidAndTheFunnelAreRefusedOnADeviceWithoutDoublePrecision() {
        // a device as OpenClDevices would describe one without cl_khr_fp64 (no context is made from it)
        OpenClDevice single = new OpenClDevice(0, "test", "single-precision device", "GPU", "OpenCL 3.0", 1L << 30, 1,
                false, 0L, 0L);
        OpenClDevice dual = new OpenClDevice(0, "test", "double-precision device", "GPU", "OpenCL 3.0", 1L << 30, 1,
                true, 0L, 0L);
        for (RigidCollider c : List.of(DeviceTestScenes.tiltedEgg(), DeviceTestScenes.funnel())) {
            Environment env = DeviceTestScenes.earthWith(c);
            assertThatThrownBy(() -> OpenClSolver.requireCollidersRunOn(single, env))
                    .isInstanceOf(UnsupportedOnDeviceException.class).hasMessageContaining(c.name())
                    .hasMessageContaining(c.getClass().getSimpleName()).hasMessageContaining("cl_khr_fp64")
                    .extracting(e -> ((UnsupportedOnDeviceException) e).feature()).isEqualTo(DeviceFeature.COLLIDER);
            OpenClSolver.requireCollidersRunOn(dual, env);
        }
        // the float shapes need no double precision
        OpenClSolver.requireCollidersRunOn(single, DeviceTestScenes.earthWith(DeviceTestScenes.tiltedBoard()));
    }

    /** The family's CPU and OpenCL solvers from rest for {@link #DURATION} on earth with {@code collider}. */
    private static StepComparison compare(Family f, Model model, RigidCollider collider) {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Environment env = DeviceTestScenes.earthWith(collider);
        StepComparison c = StepComparison.run("OpenCL " + f.name() + " vs CPU, " + collider.name() + ",", f.cpu(),
                () -> f.device().apply(device), model, env, f.dt(), f.steps());
        assertThat(c.afterAll).as(f.name()).isLessThanOrEqualTo(TOLERANCE);
        if (OpenClAvailable.isPocl(device) && (device.fp64() || !f.needsFp64())) {
            StepComparison.assertSameBits(c.cpu, c.device);
        }
        return c;
    }

    /**
     * As {@link #compare}, for at least {@link #MESH_STEPS} steps over {@link #DURATION} (the family's step, or
     * a smaller one where that would be fewer steps); on PoCL the CPU's bits after the first step and the last.
     */
    private static StepComparison compareMesh(Family f, Model model, Collider mesh) {
        OpenClDevice device = OpenClAvailable.firstDevice();
        int steps = Math.max(f.steps(), MESH_STEPS);
        float dt = f.steps() >= MESH_STEPS ? f.dt() : DURATION / MESH_STEPS;
        StepComparison c = StepComparison.run("OpenCL " + f.name() + " vs CPU, " + mesh.name() + ",", f.cpu(),
                () -> f.device().apply(device), model, DeviceTestScenes.earthWith(mesh), dt, steps);
        assertThat(c.afterAll).as(f.name()).isLessThanOrEqualTo(TOLERANCE);
        if (OpenClAvailable.isPocl(device) && (device.fp64() || !f.needsFp64())) {
            assertThat(c.afterOne).as(f.name() + ": PoCL, the CPU's bits after one step").isZero();
            StepComparison.assertSameBits(c.cpu, c.device);
        }
        return c;
    }

    /** After the last step (the collider at its last pose) no particle within its thickness, some near it. */
    private static void assertClearOfAndTouching(Family f, StepComparison c, RigidCollider collider) {
        assertClearOfAndTouching(f, c, collider, CLEARANCE_SLACK);
    }

    /** As above, a particle allowed {@code slack} (m) inside the thickness. */
    private static void assertClearOfAndTouching(Family f, StepComparison c, RigidCollider collider, float slack) {
        float[] x = c.device.positions();
        float nearest = Float.POSITIVE_INFINITY;
        for (int i = 0; i < x.length; i += 3) {
            nearest = Math.min(nearest, collider.signedDistance(x[i], x[i + 1], x[i + 2]));
        }
        assertThat(nearest).as("%s, %s: the nearest particle", f.name(), collider.name())
                .isGreaterThanOrEqualTo(collider.thickness() - slack).isLessThan(0.02f);
    }

    /** The hanging cloth (1 m up, pinned there) was carried above its pins by the rising collider. */
    private static void assertLifted(Family f, StepComparison c) {
        float[] x = c.device.positions();
        float highest = Float.NEGATIVE_INFINITY;
        for (int i = 1; i < x.length; i += 3) {
            highest = Math.max(highest, x[i]);
        }
        assertThat(highest).as(f.name() + ": the highest particle, m").isGreaterThan(1.05f);
    }
}
