package dev.weft.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.CapsuleCollider;
import dev.weft.core.collide.CylinderCollider;
import dev.weft.core.collide.EllipsoidCollider;
import dev.weft.core.collide.FunnelCollider;
import dev.weft.core.collide.RectangleCollider;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.collide.SphereCollider;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColliderShapesTest {
    private static final float[] ORIGIN = {0f, 0f, 0f};

    private static List<RigidCollider> shapes() {
        return List.of(
                new SphereCollider("sphere", ORIGIN, 0.3f, 0f, 0f),
                new CapsuleCollider("capsule", ORIGIN, 0.2f, 0.4f, 0f, 0f),
                new CylinderCollider("cylinder", ORIGIN, 0.25f, 0.3f, 0f, 0f),
                new EllipsoidCollider("ellipsoid", ORIGIN, new float[] {0.5f, 0.2f, 0.3f}, 0f, 0f),
                new BoxCollider("box", ORIGIN, new float[] {0.4f, 0.1f, 0.25f}, 0f, 0f),
                new RectangleCollider("rectangle", ORIGIN, 0.5f, 0.3f, 0f, 0f),
                new FunnelCollider("funnel", ORIGIN, 0.5f, -0.8f, 0.2f, 0f, 0f));
    }

    @Test
    void everyVertexLiesOnTheCollidersSurface() {
        for (RigidCollider c : shapes()) {
            Tessellation t = ColliderShapes.bodyFrame(c).orElseThrow();
            float[] x = t.positions();
            for (int i = 0; i < x.length; i += 3) {
                // exact surfaces: only float rounding of a few trig products (the funnel's exp: a little more)
                assertThat((double) c.signedDistance(x[i], x[i + 1], x[i + 2]))
                        .as("%s vertex %d", c.name(), i / 3).isCloseTo(0.0, within(2e-5));
            }
        }
    }

    @Test
    void windingAgreesWithTheNormalsSoTheLitSideIsTheFront() {
        // two-sided shading flips the normal of back faces: a mesh whose winding disagreed with its
        // normals would be lit from the wrong side
        for (RigidCollider c : shapes()) {
            Tessellation t = ColliderShapes.bodyFrame(c).orElseThrow();
            float[] x = t.positions();
            float[] n = t.normals();
            int[] tri = t.triangles();
            int checked = 0;
            for (int f = 0; f < tri.length; f += 3) {
                int a = 3 * tri[f];
                int b = 3 * tri[f + 1];
                int d = 3 * tri[f + 2];
                float e1x = x[b] - x[a];
                float e1y = x[b + 1] - x[a + 1];
                float e1z = x[b + 2] - x[a + 2];
                float e2x = x[d] - x[a];
                float e2y = x[d + 1] - x[a + 1];
                float e2z = x[d + 2] - x[a + 2];
                float fx = e1y * e2z - e1z * e2y;
                float fy = e1z * e2x - e1x * e2z;
                float fz = e1x * e2y - e1y * e2x;
                float len = (float) Math.sqrt(fx * fx + fy * fy + fz * fz);
                if (len < 1e-9f) {
                    continue; // collapsed triangles at poles and axes have no winding
                }
                for (int v : new int[] {a, b, d}) {
                    float dot = (fx * n[v] + fy * n[v + 1] + fz * n[v + 2]) / len;
                    assertThat(dot).as("%s face %d", c.name(), f / 3).isPositive();
                }
                checked++;
            }
            assertThat(checked).as("%s faces checked", c.name()).isGreaterThan(1);
        }
    }

    @Test
    void theBodyMatrixPlacesBodyFramePointsWhereTheColliderIs() {
        // turned 90° about z and moved: a body-frame point on the surface stays on the surface in the world
        double h = Math.sqrt(0.5);
        RigidCollider box = new BoxCollider("box", new float[] {1f, 2f, 3f}, new float[] {0.4f, 0.1f, 0.25f}, 0f, 0f)
                .withOrientation(new float[] {(float) h, 0f, 0f, (float) h});
        float[] m = SceneRenderer.bodyMatrix(box, new float[16]);
        float[] corner = Mat4.transform(m, 0.4f, 0.1f, 0.25f, new float[4]);
        assertThat((double) box.signedDistance(corner[0], corner[1], corner[2])).isCloseTo(0.0, within(1e-5));
        float[] center = Mat4.transform(m, 0f, 0f, 0f, new float[4]);
        assertThat(center).containsExactly(1f, 2f, 3f, 1f);
        // the long (x) side now runs along y
        float[] end = Mat4.transform(m, 0.4f, 0f, 0f, new float[4]);
        assertThat((double) end[1] - 2.0).isCloseTo(0.4, within(1e-5));
    }
}
