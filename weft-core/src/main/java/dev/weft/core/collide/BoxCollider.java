package dev.weft.core.collide;

import dev.weft.core.util.Check;

/** A solid box centred on the body origin, with half extents along the local axes (oriented by the pose). */
public final class BoxCollider extends RigidCollider {
    private final float hx;
    private final float hy;
    private final float hz;

    public BoxCollider(String name, float[] center, float[] halfExtents, float thickness, float friction) {
        super(name, center, false, thickness, friction);
        Check.vector3(name + ".halfExtents", halfExtents);
        hx = Check.positive(name + ".halfExtents[0]", halfExtents[0]);
        hy = Check.positive(name + ".halfExtents[1]", halfExtents[1]);
        hz = Check.positive(name + ".halfExtents[2]", halfExtents[2]);
    }

    /** Half extents along the body's x, y, z (a copy). */
    public float[] halfExtents() {
        return new float[] {hx, hy, hz};
    }

    @Override
    public float boundingRadius() {
        return (float) Math.sqrt(hx * hx + hy * hy + hz * hz);
    }

    @Override
    protected float localDistance(float x, float y, float z, float[] n) {
        float qx = Math.abs(x) - hx;
        float qy = Math.abs(y) - hy;
        float qz = Math.abs(z) - hz;
        if (qx > 0f || qy > 0f || qz > 0f) {
            // outside: the closest point is the clamped point
            float dx = x - Math.max(-hx, Math.min(hx, x));
            float dy = y - Math.max(-hy, Math.min(hy, y));
            float dz = z - Math.max(-hz, Math.min(hz, z));
            float d = (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
            n[0] = dx / d;
            n[1] = dy / d;
            n[2] = dz / d;
            return d;
        }
        // inside or on the surface: the nearest face (first of equals, so ties resolve the same way)
        n[0] = 0f;
        n[1] = 0f;
        n[2] = 0f;
        if (qx >= qy && qx >= qz) {
            n[0] = x >= 0f ? 1f : -1f;
            return qx;
        }
        if (qy >= qz) {
            n[1] = y >= 0f ? 1f : -1f;
            return qy;
        }
        n[2] = z >= 0f ? 1f : -1f;
        return qz;
    }
}
