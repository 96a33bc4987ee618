package dev.weft.core.collide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.RopeSpec;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeshColliderTest {
    private static final float THICKNESS = 0.01f;

    /** A 2 m square at y = 0 made of two triangles, facing up: an open mesh. */
    private static MeshCollider sheet() {
        float[] v = {-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1};
        int[] t = {0, 2, 1, 0, 3, 2};
        return new MeshCollider("sheet", new TriangleMesh(v, null, t), THICKNESS, 0f);
    }

    @Test
    void aStepThatCrossesTheSheetEndsOnTheSideItStartedFrom() {
        MeshCollider c = sheet();
        float[] prev = {0.2f, 0.05f, 0.1f, -0.3f, -0.05f, 0.4f};
        float[] x = {0.25f, -0.30f, 0.1f, -0.3f, 0.30f, 0.4f}; // first falls through, second rises through
        c.collide(x, prev, new float[] {1f, 1f}, 0, 2);
        assertThat(x[1]).isCloseTo(THICKNESS, within(1e-6f));
        assertThat(x[4]).isCloseTo(-THICKNESS, within(1e-6f));
        // frictionless: the tangential motion is kept
        assertThat(x[0]).isEqualTo(0.25f);
    }

    @Test
    void aFastFallingRodDoesNotTunnelThroughAThinSheet() {
        ModelBuilder b = new ModelBuilder().tethers(false).bending(false);
        b.addRope(new RopeSpec("rod", new float[] {-0.1f, 0.5f, 0f, 0.1f, 0.5f, 0f}, 2, 1f));
        Model m = b.build();
        State s = State.atRest(m);
        float[] v = s.velocities();
        v[1] = -20f; // 20 m/s at 60 Hz with one substep: 0.33 m per step, 33x the thickness
        v[4] = -20f;
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.<Collider>of(sheet()));
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, s, new XpbdSolver(XpbdSettings.defaults(), pool), env, 1)) {
            for (int f = 0; f < 60; f++) {
                sim.advance(1f / 60f);
                float[] x = sim.state().positions();
                assertThat(x[1]).as("frame %d", f).isGreaterThan(THICKNESS - 1e-5f);
                assertThat(x[4]).as("frame %d", f).isGreaterThan(THICKNESS - 1e-5f);
            }
            // and it came to rest on the sheet
            assertThat(sim.state().positions()[1]).isCloseTo(THICKNESS, within(1e-3f));
        }
    }

    @Test
    void beyondTheEdgeOfAnOpenMeshParticlesFallPast() {
        MeshCollider c = sheet();
        float[] prev = {1.5f, 0.05f, 0f};
        float[] x = {1.5f, -0.3f, 0f};
        c.collide(x, prev, new float[] {1f}, 0, 1);
        assertThat(x).containsExactly(1.5f, -0.3f, 0f);
        assertThat(c.signedDistance(1.5f, 0f, 0f)).isCloseTo(0.5f, within(1e-6f));
    }

    /** The sheet rising at 20 m/s (a third of a metre per 60 Hz step) lifts resting particles above it. */
    @Test
    void aFastRisingSheetLiftsParticlesInsteadOfPassingThem() {
        MeshCollider c = sheet();
        c.withVelocity(new float[] {0f, 20f, 0f}, new float[] {0f, 1f, 0f});
        int count = 50;
        float[] x = new float[3 * count];
        float[] w = new float[count];
        java.util.Random rnd = new java.util.Random(4);
        for (int i = 0; i < count; i++) {
            x[3 * i] = (rnd.nextFloat() - 0.5f) * 1.2f;
            x[3 * i + 1] = 0.02f + 0.3f * rnd.nextFloat(); // above the sheet, below where it will be
            x[3 * i + 2] = (rnd.nextFloat() - 0.5f) * 1.2f;
            w[i] = 1f;
        }
        float[] start = x.clone();
        c.advance(0.0, 1f / 60f);
        c.collide(x, start, w, 0, count);
        for (int i = 0; i < count; i++) {
            // the sheet (turned by 1 rad/s x 1/60 s about y, still horizontal) is now at y = 1/3
            assertThat(x[3 * i + 1]).as("particle %d", i).isCloseTo(1f / 3f + THICKNESS, within(1e-4f));
        }
    }
}
