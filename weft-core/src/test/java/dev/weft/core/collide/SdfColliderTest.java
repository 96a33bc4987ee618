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

    @Test
    void buildIsTheSameForOneAndTwoThreads() {
        SignedDistanceField a = sphere(1).field();
        SignedDistanceField b = sphere(2).field();
        float[] ga = new float[3];
        float[] gb = new float[3];
        for (float t = -0.7f; t <= 0.7f; t += 0.013f) {
            assertThat(a.sample(t, 0.3f * t, 0.1f, ga)).isEqualTo(b.sample(t, 0.3f * t, 0.1f, gb));
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
}
