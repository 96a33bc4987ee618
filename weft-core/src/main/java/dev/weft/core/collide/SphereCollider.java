package dev.weft.core.collide;

import dev.weft.core.util.Check;

/** A solid sphere. */
public final class SphereCollider extends Collider {
    private final float cx;
    private final float cy;
    private final float cz;
    private final float radius;

    public SphereCollider(String name, float[] center, float radius, float thickness, float friction) {
        super(name, thickness, friction);
        Check.vector3(name + ".center", center);
        this.radius = Check.positive(name + ".radius", radius);
        cx = center[0];
        cy = center[1];
        cz = center[2];
    }

    public float radius() {
        return radius;
    }

    public float[] center() {
        return new float[] {cx, cy, cz};
    }

    @Override
    public float signedDistance(float x, float y, float z) {
        float dx = x - cx;
        float dy = y - cy;
        float dz = z - cz;
        return (float) Math.sqrt(dx * dx + dy * dy + dz * dz) - radius;
    }

    @Override
    public void collide(float[] x, float[] prev, float[] invMass, int begin, int end) {
        float reach = radius + thickness;
        float reach2 = reach * reach;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            float dx = x[i3] - cx;
            float dy = x[i3 + 1] - cy;
            float dz = x[i3 + 2] - cz;
            float d2 = dx * dx + dy * dy + dz * dz;
            if (d2 < reach2 && invMass[i] > 0f) {
                float d = (float) Math.sqrt(d2);
                if (d < 1e-12f) {
                    // At the very centre any direction is as good: push straight up.
                    respond(x, prev, i3, 0f, 1f, 0f, reach);
                } else {
                    float inv = 1f / d;
                    respond(x, prev, i3, dx * inv, dy * inv, dz * inv, reach - d);
                }
            }
        }
    }
}
