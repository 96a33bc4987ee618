package dev.weft.core.collide;

import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.parallel.WorkerPool;

/**
 * A collider of any closed shape, given by a {@link SignedDistanceField} in its body frame: a particle
 * closer than the thickness moves out along the field's gradient. The field is sampled, so the
 * surface is resolved to about the cell size; choose a cell a few times smaller than the cloth's
 * particle spacing. As a {@link RigidCollider} it can be posed and moved, and fast particles (or a fast
 * body) are caught by the swept test on the field's distance.
 */
public final class SdfCollider extends RigidCollider {
    private final SignedDistanceField field;
    /** The closed mesh the field was built from, kept for drawing; null for a field given directly. */
    private final TriangleMesh surface;
    private final float bound;

    public SdfCollider(String name, SignedDistanceField field, float thickness, float friction) {
        this(name, field, null, thickness, friction);
    }

    /** A collider whose field was sampled from {@code surface} (kept so a renderer can draw it). */
    public SdfCollider(String name, SignedDistanceField field, TriangleMesh surface, float thickness, float friction) {
        super(name, new float[3], false, thickness, friction);
        this.field = field;
        this.surface = surface;
        this.bound = field.boundingRadius();
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
    public float boundingRadius() {
        return bound;
    }

    /** Any closed mesh: the tangent plane at a contact does not bound it. */
    @Override
    protected boolean convex() {
        return false;
    }

    /**
     * The field's distance, and its unit gradient as the normal. A distance field has unit slope, so
     * moving by the missing distance along the unit gradient reaches the surface (not divided by
     * |gradient|: that falls below 1 only where interpolation blurs a kink, and dividing there
     * overshoots).
     */
    @Override
    protected float localDistance(float x, float y, float z, float[] n) {
        float d = field.sample(x, y, z, n);
        float len = (float) Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len < 1e-6f) {
            // on a medial ridge with no direction to leave by: up is as good as any
            n[0] = 0f;
            n[1] = 1f;
            n[2] = 0f;
        } else {
            n[0] /= len;
            n[1] /= len;
            n[2] /= len;
        }
        return d;
    }
}
