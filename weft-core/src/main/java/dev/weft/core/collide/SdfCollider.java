package dev.weft.core.collide;

import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.parallel.WorkerPool;

/**
 * A static collider of any closed shape, given by a {@link SignedDistanceField}: a particle closer
 * than the thickness moves out along the field's gradient. The field is sampled, so the surface is
 * resolved to about the cell size; choose a cell a few times smaller than the cloth's particle
 * spacing.
 */
public final class SdfCollider extends Collider {
    private final SignedDistanceField field;
    /** The closed mesh the field was built from, kept for drawing; null for a field given directly. */
    private final TriangleMesh surface;
    /** Gradient scratch per thread: collide runs on several threads at once. */
    private final ThreadLocal<float[]> scratch = ThreadLocal.withInitial(() -> new float[3]);

    public SdfCollider(String name, SignedDistanceField field, float thickness, float friction) {
        this(name, field, null, thickness, friction);
    }

    /** A collider whose field was sampled from {@code surface} (kept so a renderer can draw it). */
    public SdfCollider(String name, SignedDistanceField field, TriangleMesh surface, float thickness, float friction) {
        super(name, thickness, friction);
        this.field = field;
        this.surface = surface;
    }

    /** Builds the field from a closed mesh (see {@link SignedDistanceField#fromClosedMesh}). */
    public static SdfCollider fromClosedMesh(String name, TriangleMesh mesh, float cellSize, float thickness,
                                             float friction, WorkerPool pool) {
        // a margin of a few cells beyond the thickness keeps the gradient meaningful where contacts start
        float margin = thickness + 3f * cellSize;
        return new SdfCollider(name, SignedDistanceField.fromClosedMesh(mesh, name, cellSize, margin, pool), mesh,
                thickness, friction);
    }

    /** The closed mesh the field was built from, if it was built from one (do not modify). */
    public java.util.Optional<TriangleMesh> surface() {
        return java.util.Optional.ofNullable(surface);
    }

    public SignedDistanceField field() {
        return field;
    }

    @Override
    public float signedDistance(float x, float y, float z) {
        return field.sample(x, y, z, scratch.get());
    }

    @Override
    public void collide(float[] x, float[] prev, float[] invMass, int begin, int end) {
        float[] g = scratch.get();
        for (int i = begin; i < end; i++) {
            if (invMass[i] == 0f) {
                continue;
            }
            int i3 = 3 * i;
            float d = field.sample(x[i3], x[i3 + 1], x[i3 + 2], g);
            if (d >= thickness) {
                continue;
            }
            float len = (float) Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
            if (len < 1e-6f) {
                continue; // on a medial ridge with no direction to leave by; the next step moves it off
            }
            // A distance field has unit slope, so move by the missing distance along the unit gradient.
            // (Not divided by |gradient|: that falls below 1 only where interpolation blurs a kink,
            // and dividing there overshoots.) The final projection of the next step refines it.
            float inv = 1f / len;
            respond(x, prev, i3, g[0] * inv, g[1] * inv, g[2] * inv, thickness - d);
        }
    }
}
