package dev.weft.render.compute;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Icosphere;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.model.VoxelBodySpec;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import dev.weft.core.util.IntList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Soft bodies' tetrahedra on the GLSL XPBD solver (colored mode, {@code xpbd_tets.comp}: one dispatch per
 * tetrahedron color after the bending colors) against the CPU's {@link XpbdSolver} on one thread: the coupled
 * volume–shape step of each tetrahedron (TetProjection) in the CPU's float operations and order, every result
 * 'precise', so on llvmpipe positions and velocities are the CPU's bits after one step and after hundreds,
 * through a landing on the floor, with a pinned cloth (dihedral bending, tethers) in the same model.
 *
 * <p>Tolerance elsewhere: weft-opencl's OpenClXpbdTetTest's, {@link #TOLERANCE} 2e-5 m and {@link
 * #VELOCITY_TOLERANCE} 2e-3 m/s (a tetrahedron's step has more operations in a row than a distance
 * constraint's, and a landing body is chaotic: friction's stick or slip flips on a rounding). The relaxed
 * build (no 'precise', reciprocals) must stay within them on the block and cloth after 300 steps; what it
 * measured on llvmpipe {@link #withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance} prints (see
 * docs/glsl-bending.md).
 */
class GlslTetTest {
    /** Positions within this (m) of the CPU's on any device (see the class comment). */
    private static final float TOLERANCE = 2e-5f;
    /** Velocities within this (m/s) of the CPU's on any device. */
    private static final float VELOCITY_TOLERANCE = 2e-3f;
    /** One substep of 10 at 60 frames/s (the rubber scenes' substeps). */
    private static final float DT = 1f / 600f;
    private static final XpbdSettings DEFAULTS = XpbdSettings.defaults();

    @Test
    void aSoftBlockLandingBesideAHangingClothKeepsTheCpusBits() {
        Model model = blockBesideACloth(new Elasticity(1e5f, 0.3f));
        assertThat(model.tets().count()).isPositive();
        assertThat(model.tethers().count()).as("the cloth's tethers run after the tetrahedra").isPositive();
        assertThat(model.bending().count()).as("dihedral stencils run before them").isPositive();
        // 300 steps = 0.5 s: it falls the 2 cm to the floor in 0.064 s, lands, squashes and rocks
        for (XpbdSettings s : List.of(DEFAULTS, DEFAULTS.withIterations(4))) {
            StepComparison c = compare(true, s, model, floorEnv(), 300);
            assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
            if (GlslDriver.cpuBits()) {
                assertThat(c.afterOne).as("llvmpipe: the CPU's bits after one step").isZero();
                StepComparison.assertSameBits(c.cpu, c.device);
            }
            c.assertPositionsAgree(TOLERANCE, GlslDriver.cpuBits());
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
            assertThat(c.lowestClearance(DeviceTestScenes.floor())).as("landed, above the floor's thickness")
                    .isBetween(0.005f - 1e-4f, 0.006f);
        }
    }

    @Test
    void volumeOnlyAndShapeOnlyTetrahedraKeepTheCpusBitsToo() {
        // the coupled step's other branches: ν = 0 has no volume term (shape alone), ν = 0.5 an incompressible
        // one (α̃ 0), and a voxel body's volume tetrahedra have no shape term (μ = 0: volume alone)
        for (Elasticity e : List.of(new Elasticity(1e5f, 0f), new Elasticity(1e5f, 0.5f))) {
            StepComparison c = compare(true, DEFAULTS, block(new ModelBuilder(), e, 4), floorEnv(), 200);
            c.assertPositionsAgree(TOLERANCE, GlslDriver.cpuBits());
            if (GlslDriver.cpuBits()) {
                StepComparison.assertSameBits(c.cpu, c.device);
            }
        }
        Model jelly = voxelJelly();
        assertThat(jelly.tets().count()).isPositive();
        assertThat(jelly.tets().elastic()).as("volume only").isFalse();
        StepComparison c = compare(true, DEFAULTS, jelly, floorEnv(), 200);
        c.assertPositionsAgree(TOLERANCE, GlslDriver.cpuBits());
        if (GlslDriver.cpuBits()) {
            StepComparison.assertSameBits(c.cpu, c.device);
        }
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        StepComparison c = compare(false, DEFAULTS, blockBesideACloth(new Elasticity(1e5f, 0.3f)), floorEnv(), 300);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
    }

    /**
     * A free notched rubber bar (no gravity) stretched at 5 /s (v = 5 x, the ends at ±1 m/s, and 1 m/s up) tears
     * at its notch within the first frame, node after node over its substeps (TetTearing splits its nodes and
     * divides their tetrahedra): each edit is a new model, which the solver binds again. The shaders tear where
     * and when the CPU does (the splits are decided on the host from the positions read back) and keep the CPU's
     * bits on llvmpipe, frame after frame, through the tears and after them (weft-opencl's test, colored).
     */
    @Test
    void aBarFlyingApartTearsAsOnTheCpuAndKeepsItsBits() {
        Model bar = notchedBar();
        State start = State.atRest(bar);
        float[] x = start.positions();
        float[] v = start.velocities();
        for (int i = 0; i < bar.particleCount(); i++) {
            v[3 * i] = 5f * x[3 * i]; // stretched at 5 /s: past 10 % at the notch within the first frame
            v[3 * i + 1] = 1f;
        }
        Environment space = new Environment(new float[3], List.of());
        int frames = 30;
        try (WorkerPool pool = new WorkerPool(1);
             Simulation cpu = new Simulation(bar, start.copy(), new XpbdSolver(DEFAULTS, pool), space, 10);
             Simulation gpu = new Simulation(bar, start.copy(), new GlslXpbdSolver(DEFAULTS), space, 10)) {
            int firstTear = -1;
            for (int f = 0; f < frames; f++) {
                cpu.advance(1f / 60f);
                gpu.advance(1f / 60f);
                assertThat(gpu.model().edits()).as("frame %d: the same splits", f).isEqualTo(cpu.model().edits());
                assertThat(gpu.model().tets().count()).isEqualTo(cpu.model().tets().count());
                if (firstTear < 0 && !cpu.model().edits().isEmpty()) {
                    firstTear = f;
                }
                float diff = StepComparison.maxDifference(cpu.state().positions(), gpu.state().positions());
                assertThat(diff).as("frame %d", f).isLessThanOrEqualTo(TOLERANCE);
                if (GlslDriver.cpuBits()) {
                    StepComparison.assertSameBits(cpu.state(), gpu.state());
                }
            }
            System.out.printf("GLSL: a bar flying apart: first tear in frame %d, %d -> %d particles, %d edits%n",
                    firstTear, bar.particleCount(), cpu.model().particleCount(), cpu.model().edits().size());
            assertThat(firstTear).as("it tore, and ran on after").isBetween(0, frames - 10);
            assertThat(cpu.model().edits().size()).as("several splits, several rebinds").isGreaterThan(2);
            assertThat(cpu.model().particleCount()).as("nodes split").isGreaterThan(bar.particleCount());
        }
    }

    /**
     * TetTearingTest's notched bar: 0.4 × 0.08 × 0.08 m of 10 × 2 × 2 cubes (E = 100 kPa, ν = 0.3), the cube on
     * its lower front edge at x ∈ [0, 0.04] left out, tearing past 10 % strain.
     */
    private static Model notchedBar() {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(0.5f));
        TetBodySpec box = TetBodySpec.box("bar", new float[] {-0.2f, 0.96f, -0.04f}, new float[] {0.2f, 1.04f, 0.04f},
                10, 2, 2, 1000f, new Elasticity(1e5f, 0.3f));
        IntList kept = new IntList();
        float[] x = box.nodes();
        int[] t = box.tets();
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
        ModelObject body = b.addTetBody(new TetBodySpec("bar", x, kept.toArray(), 1000f, box.elasticity()));
        b.tearStrain(body, 0.1f);
        return b.build();
    }

    /**
     * A 4 × 4 × 4-cell block (3 cm cells, E = 100 kPa) 2 cm above the floor's 5 mm, and beside it a 16 × 16,
     * 0.6 m cloth pinned by two corners, 0.5 m up: distances, dihedral stencils, tetrahedra and tethers in one
     * model, every pass of an iteration.
     */
    private static Model blockBesideACloth(Elasticity e) {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 16, 16, 0.6f, 0.6f).withOrigin(-0.8f, 0.5f,
                -0.3f));
        b.pinCorners(cloth, "top-left", "top-right");
        return block(b, e, 4);
    }

    /** {@code b} with a block of n³ cells of 3 cm, rubber-dense, its underside 2.5 cm up, damped 1/s. */
    private static Model block(ModelBuilder b, Elasticity e, int n) {
        b.material(Material.cloth().withDamping(1f).withFriction(0.8f));
        float side = 0.03f * n;
        b.addTetBody(TetBodySpec.box("block", new float[] {0f, 0.025f, 0f}, new float[] {side, 0.025f + side, side},
                n, n, n, 1100f, e));
        return b.build();
    }

    /** A voxel ball of 0.1 m radius in 4 cm voxels, 2 cm above the floor, with its volume tetrahedra (μ = 0). */
    private static Model voxelJelly() {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(1f));
        b.addVoxelBody(new VoxelBodySpec("jelly", translated(Icosphere.of(0.1f, 2), 0.12f), 0.04f, 1000f, true,
                true));
        return b.build();
    }

    private static Environment floorEnv() {
        return DeviceTestScenes.earthWith(DeviceTestScenes.floor());
    }

    private static TriangleMesh translated(TriangleMesh m, float dy) {
        float[] p = m.positions().clone();
        for (int k = 1; k < p.length; k += 3) {
            p[k] += dy;
        }
        return new TriangleMesh(p, m.uvs(), m.triangles());
    }

    /** Both solvers from rest, step by step. */
    private static StepComparison compare(boolean cpuRounding, XpbdSettings settings, Model model, Environment env,
                                          int steps) {
        String label = String.format("%sGLSL XPBD (%d iterations) vs CPU, %d tetrahedra,", cpuRounding ? ""
                : "relaxed ", settings.iterations(), model.tets().count());
        return StepComparison.run(label, pool -> new XpbdSolver(settings, pool),
                () -> new GlslXpbdSolver(settings, cpuRounding), model, env, DT, steps);
    }
}
