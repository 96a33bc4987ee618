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
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.model.VoxelBodySpec;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
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
