package dev.weft.render;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.Model;

/**
 * The axis-aligned box a scene is expected to play out in: the bodies at rest, the room they have to
 * fall (one body size down, not below a floor, and down to the floor when there is one), and every
 * bounded collider where it is now. Frames the automatic camera and the shadow map. Infinite planes add only the
 * floor height.
 */
public final class SceneBounds {
    /** min x, y, z, max x, y, z */
    private final float[] box;

    private SceneBounds(float[] box) {
        this.box = box;
    }

    public static SceneBounds of(Model model, Collider[] colliders) {
        float[] b = {Float.MAX_VALUE, Float.MAX_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, -Float.MAX_VALUE,
            -Float.MAX_VALUE};
        include(b, model.restPositions());
        if (model.particleCount() == 0) {
            b = new float[] {-0.5f, 0f, -0.5f, 0.5f, 1f, 0.5f};
        }
        float extent = Math.max(b[3] - b[0], Math.max(b[4] - b[1], b[5] - b[2]));
        b[1] -= extent; // a body pinned at its top hangs down by about its size
        float floorY = Float.NaN;
        for (Collider c : colliders) {
            if (c instanceof RigidCollider body) {
                float[] r = body.rotation();
                float[] t = body.position();
                float[] x = ColliderShapes.bodyFrame(body).map(Tessellation::positions).orElse(new float[3]);
                for (int i = 0; i + 2 < x.length; i += 3) {
                    include(b, t[0] + r[0] * x[i] + r[1] * x[i + 1] + r[2] * x[i + 2],
                            t[1] + r[3] * x[i] + r[4] * x[i + 1] + r[5] * x[i + 2],
                            t[2] + r[6] * x[i] + r[7] * x[i + 1] + r[8] * x[i + 2]);
                }
            } else if (c instanceof Projectile ball) {
                float[] p = ball.center();
                float r = ball.radius();
                include(b, p[0] - r, p[1] - r, p[2] - r);
                include(b, p[0] + r, p[1] + r, p[2] + r);
            } else if (c instanceof AnimatedMeshCollider a) {
                float[] x = new float[3 * a.vertexCount()];
                a.currentPositions(x);
                include(b, x);
            } else if (c instanceof PlaneCollider p) {
                float[] n = p.normal();
                if (n[1] > 0.9f) {
                    // height of the plane below the middle of the scene
                    float cx = 0.5f * (b[0] + b[3]);
                    float cz = 0.5f * (b[2] + b[5]);
                    float y = (p.offset() - n[0] * cx - n[2] * cz) / n[1];
                    floorY = Float.isNaN(floorY) ? y : Math.max(floorY, y);
                }
            }
        }
        if (!Float.isNaN(floorY)) {
            b[1] = floorY; // nothing falls through the floor, and the floor contact is worth seeing
            b[4] = Math.max(b[4], floorY);
        }
        return new SceneBounds(b);
    }

    /** A box given directly: min x, y, z, max x, y, z. */
    public static SceneBounds ofBox(float minX, float minY, float minZ, float maxX, float maxY, float maxZ) {
        return new SceneBounds(new float[] {minX, minY, minZ, maxX, maxY, maxZ});
    }

    /** This box grown to hold every point of {@code positions} (xyz interleaved). */
    public SceneBounds union(float[] positions) {
        float[] b = box.clone();
        include(b, positions);
        return new SceneBounds(b);
    }

    public float[] min() {
        return new float[] {box[0], box[1], box[2]};
    }

    public float[] max() {
        return new float[] {box[3], box[4], box[5]};
    }

    public float[] center() {
        return new float[] {0.5f * (box[0] + box[3]), 0.5f * (box[1] + box[4]), 0.5f * (box[2] + box[5])};
    }

    /** Radius of the sphere around the box (half its diagonal). */
    public float radius() {
        float dx = box[3] - box[0];
        float dy = box[4] - box[1];
        float dz = box[5] - box[2];
        return 0.5f * (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    private static void include(float[] b, float[] xyz) {
        for (int i = 0; i + 2 < xyz.length; i += 3) {
            include(b, xyz[i], xyz[i + 1], xyz[i + 2]);
        }
    }

    private static void include(float[] b, float x, float y, float z) {
        if (!(Float.isFinite(x) && Float.isFinite(y) && Float.isFinite(z))) {
            return;
        }
        b[0] = Math.min(b[0], x);
        b[1] = Math.min(b[1], y);
        b[2] = Math.min(b[2], z);
        b[3] = Math.max(b[3], x);
        b[4] = Math.max(b[4], y);
        b[5] = Math.max(b[5], z);
    }
}
