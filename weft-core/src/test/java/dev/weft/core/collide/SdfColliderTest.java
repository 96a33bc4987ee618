package dev.weft.core.collide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.InvalidInputException;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.parallel.WorkerPool;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SdfColliderTest {
    private static final float R = 0.5f;
    private static final float CELL = 0.04f;

    private static SdfCollider sphere(int threads) {
        try (WorkerPool pool = new WorkerPool(threads)) {
            return SdfCollider.fromClosedMesh("ball.obj", Icosphere.of(R, 4), CELL, 0.01f, 0.3f, pool);
        }
    }

    @Test
    void distanceAndGradientMatchTheAnalyticSphereWithinTheGridResolution() {
        SdfCollider c = sphere(2);
        SignedDistanceField f = c.field();
        Random rnd = new Random(5);
        float[] g = new float[3];
        double worst = 0;
        double worstAngle = 0;
        for (int n = 0; n < 20_000; n++) {
            // inside the grid: the mesh's bounds plus thickness + 3 cells = +-0.63
            float x = (float) (rnd.nextDouble() * 1.2 - 0.6);
            float y = (float) (rnd.nextDouble() * 1.2 - 0.6);
            float z = (float) (rnd.nextDouble() * 1.2 - 0.6);
            double r = Math.sqrt(x * x + y * y + z * z);
            if (r < 0.25) {
                continue; // the distance has a kink at the centre that no grid resolves
            }
            float d = f.sample(x, y, z, g);
            worst = Math.max(worst, Math.abs(d - (r - R)));
            double gl = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
            double cos = (g[0] * x + g[1] * y + g[2] * z) / (gl * r);
            if (Math.abs(r - R) < 0.1) { // where contacts happen
                worstAngle = Math.max(worstAngle, Math.acos(Math.min(1, cos)));
            }
        }
        // Two sources of error: the 5120-triangle mesh lies inside the sphere by up to
        // R (1 - cos(edge angle / 2)) ~ 0.4 mm, and trilinear interpolation of a distance field with
        // curvature 1/r errs by up to cell^2 / (8 r) ~ 0.8 mm at r = 0.25. Both are far below a cell.
        assertThat(worst).isLessThan(0.1 * CELL);
        // The radial direction turns by cell / r (<= 5.7 degrees for r >= 0.4) across a cell and the
        // interpolated gradient averages over it; the facets add their kinks (4 degrees between faces).
        assertThat(Math.toDegrees(worstAngle)).isLessThan(4.0);
        // beyond the grid the field is an upper bound of the distance: far particles never touch
        for (float t = 0.7f; t < 3f; t += 0.1f) {
            double r = Math.sqrt(3) * t;
            assertThat((double) f.sample(t, t, -t, g)).isGreaterThanOrEqualTo(r - R - 1e-3);
        }
    }

    @Test
    void particlesInsideArePushedOutToTheThicknessShell() {
        SdfCollider c = sphere(1);
        float[] x = {0.1f, 0.2f, -0.15f, 0.45f, 0f, 0f, 0f, -0.49f, 0.05f, 0.9f, 0f, 0f};
        float[] prev = x.clone();
        float[] w = {1f, 1f, 1f, 1f};
        c.collide(x, prev, w, 0, 4);
        c.collide(x, prev, w, 0, 4); // a second pass refines the Newton step on the sampled field
        for (int i = 0; i < 3; i++) {
            double r = Math.sqrt(x[3 * i] * x[3 * i] + x[3 * i + 1] * x[3 * i + 1] + x[3 * i + 2] * x[3 * i + 2]);
            assertThat(r).as("particle %d", i).isCloseTo(R + 0.01, within(0.1 * CELL));
        }
        // the one outside is untouched
        assertThat(Arrays.copyOfRange(x, 9, 12)).containsExactly(0.9f, 0f, 0f);
    }

    /**
     * The sphere's grid (33 slices of 33 x 33 nodes) and a coarse one (13 slices of 13 x 13): every node the
     * same bits on 1, 2 and 3 threads, and on 2 and 3 threads the build really ran on the workers
     * (before it split by z-slice and needed 256 slices to leave the calling thread at all).
     */
    @Test
    void buildIsTheSameForOneTwoAndThreeThreadsAndSplitsEvenWhenCoarse() {
        for (float cell : new float[] {CELL, 0.2f}) {
            float[][] nodes = new float[3][];
            int[] dims = null;
            for (int t = 1; t <= 3; t++) {
                try (WorkerPool pool = new WorkerPool(t)) {
                    SignedDistanceField f = SdfCollider.fromClosedMesh("ball.obj", Icosphere.of(R, 4), cell, 0.01f,
                            0.3f, pool).field();
                    nodes[t - 1] = f.nodeValues();
                    dims = f.dimensions();
                    assertThat(pool.passesInline()).as("cell %s, %d threads", cell, t).isEqualTo(t == 1 ? 1 : 0);
                    assertThat(pool.rangesRunOnWorkers()).as("cell %s, %d threads", cell, t).isEqualTo(t - 1);
                }
            }
            assertThat(dims[2]).as("slices").isLessThan(WorkerPool.MIN_PARALLEL_ITEMS);
            assertThat(Arrays.equals(nodes[0], nodes[1])).as("cell %s, 1 vs 2 threads", cell).isTrue();
            assertThat(Arrays.equals(nodes[0], nodes[2])).as("cell %s, 1 vs 3 threads", cell).isTrue();
        }
    }

    @Test
    void anOpenMeshIsRefusedNamingTheBoundaryEdge() {
        TriangleMesh closed = Icosphere.of(R, 1);
        int[] tris = Arrays.copyOf(closed.triangles(), closed.triangles().length - 3);
        TriangleMesh open = new TriangleMesh(closed.positions(), null, tris);
        try (WorkerPool pool = new WorkerPool(1)) {
            assertThatThrownBy(() -> SdfCollider.fromClosedMesh("cup.obj", open, CELL, 0.01f, 0f, pool))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("cup.obj")
                    .hasMessageContaining("is not closed")
                    .hasMessageContaining("mesh collider");
        }
    }

    @Test
    void anInconsistentlyOrientedMeshIsRefused() {
        TriangleMesh closed = Icosphere.of(R, 1);
        int[] tris = closed.triangles().clone();
        int tmp = tris[1]; // flip the first triangle
        tris[1] = tris[2];
        tris[2] = tmp;
        TriangleMesh flipped = new TriangleMesh(closed.positions(), null, tris);
        try (WorkerPool pool = new WorkerPool(1)) {
            assertThatThrownBy(() -> SdfCollider.fromClosedMesh("ball.obj", flipped, CELL, 0.01f, 0f, pool))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("not consistently oriented");
        }
    }

    @Test
    void aMeshWoundInsideOutStillHasItsInsideNegative() {
        TriangleMesh closed = Icosphere.of(R, 4);
        int[] tris = closed.triangles().clone();
        for (int t = 0; t < tris.length; t += 3) {
            int tmp = tris[t + 1];
            tris[t + 1] = tris[t + 2];
            tris[t + 2] = tmp;
        }
        try (WorkerPool pool = new WorkerPool(1)) {
            SdfCollider c = SdfCollider.fromClosedMesh("ball.obj", new TriangleMesh(closed.positions(), null, tris),
                    CELL, 0.01f, 0f, pool);
            assertThat(c.signedDistance(0.1f, 0f, 0f)).isCloseTo(-0.4f, within(0.1f * CELL));
            assertThat(c.signedDistance(0.6f, 0f, 0f)).isCloseTo(0.1f, within(0.1f * CELL));
        }
    }

    @Test
    void aCellThatMakesAHugeGridIsRefusedNamingTheParameter() {
        try (WorkerPool pool = new WorkerPool(1)) {
            assertThatThrownBy(() -> SdfCollider.fromClosedMesh("ball.obj", Icosphere.of(R, 1), 1e-4f, 0.01f, 0f,
                    pool)).isInstanceOf(InvalidInputException.class).hasMessageContaining("cellSize");
        }
    }

    /** A small field ball (radius 0.12 m) that a 20 m/s particle crosses in one 60 Hz step (0.33 m). */
    private static SdfCollider smallBall() {
        try (WorkerPool pool = new WorkerPool(1)) {
            return SdfCollider.fromClosedMesh("small.obj", Icosphere.of(0.12f, 3), 0.01f, 0.01f, 0.3f, pool);
        }
    }

    /**
     * 20 m/s at 60 Hz in one step at a ball smaller than the step, and the ball moving at 20 m/s
     * through resting particles: every particle ends outside at the thickness (as the field measures
     * it) on the side it came from: the swept test on the field's distance.
     */
    @Test
    void fastParticlesAndAFastMovingFieldDoNotTunnel() {
        SdfCollider c = smallBall();
        float thickness = c.thickness();
        float step = 20f / 60f;
        Random rnd = new Random(9);
        int count = 300;
        float[] x = new float[3 * count];
        float[] prev = new float[3 * count];
        float[] w = new float[count];
        float[] dir = new float[3];
        for (int i = 0; i < count; i++) {
            AnalyticShapes.direction(rnd, dir);
            // aimed within 3 cm of the centre, which it reaches 55-100 % into the step: started
            // 0.18-0.33 m out (outside), ends up to 0.15 m past the centre
            float u = 0.55f + 0.45f * rnd.nextFloat();
            for (int k = 0; k < 3; k++) {
                float aim = (rnd.nextFloat() - 0.5f) * 0.06f;
                prev[3 * i + k] = aim - u * step * dir[k];
                x[3 * i + k] = prev[3 * i + k] + step * dir[k];
            }
            w[i] = 1f;
            assertThat(c.signedDistance(prev[3 * i], prev[3 * i + 1], prev[3 * i + 2])).isGreaterThan(thickness);
        }
        float[] ends = x.clone();
        c.collide(x, prev, w, 0, count);
        for (int i = 0; i < count; i++) {
            assertThat(c.signedDistance(x[3 * i], x[3 * i + 1], x[3 * i + 2])).as("particle %d", i)
                    .isGreaterThanOrEqualTo(0.99f * thickness);
            // on the half it entered from, not pushed out through the far side
            float along = 0f;
            float len2 = 0f;
            for (int k = 0; k < 3; k++) {
                float d = ends[3 * i + k] - prev[3 * i + k];
                along += x[3 * i + k] * d;
                len2 += d * d;
            }
            assertThat(along / (float) Math.sqrt(len2)).as("particle %d came out the far side", i).isLessThan(0f);
        }

        // the ball itself at 20 m/s through particles at rest ahead of it, within its step
        SdfCollider moving = smallBall();
        moving.withVelocity(new float[] {0f, 0f, 20f}, new float[3]);
        float[] p = new float[3 * count];
        for (int i = 0; i < count; i++) {
            AnalyticShapes.direction(rnd, dir);
            float r = 0.08f * rnd.nextFloat();
            p[3 * i] = r * dir[0];
            p[3 * i + 1] = r * dir[1];
            p[3 * i + 2] = 0.15f + 0.15f * rnd.nextFloat();
        }
        float[] start = p.clone();
        moving.advance(0.0, 1f / 60f);
        moving.collide(p, start, w, 0, count);
        for (int i = 0; i < count; i++) {
            assertThat(moving.signedDistance(p[3 * i], p[3 * i + 1], p[3 * i + 2])).as("particle %d", i)
                    .isGreaterThanOrEqualTo(0.99f * thickness);
            // swept ahead of the ball's centre (now at z = 0.33), not left behind it
            assertThat(p[3 * i + 2]).as("particle %d left behind", i).isGreaterThan(step);
        }
    }
}
