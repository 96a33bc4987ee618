package dev.weft.core.collide;

import dev.weft.core.util.Check;

/** A solid sphere about the body origin. */
public final class SphereCollider extends RigidCollider {
    private final float radius;

    public SphereCollider(String name, float[] center, float radius, float thickness, float friction) {
        super(name, center, false, thickness, friction);
        this.radius = Check.positive(name + ".radius", radius);
    }

    public float radius() {
        return radius;
    }

    /** The current centre. */
    public float[] center() {
        return position();
    }

    @Override
    public float boundingRadius() {
        return radius;
    }

    @Override
    protected float localDistance(float x, float y, float z, float[] n) {
        float d = (float) Math.sqrt(x * x + y * y + z * z);
        if (d < 1e-12f) {
            // at the very centre any direction is as good: up
            n[0] = 0f;
            n[1] = 1f;
            n[2] = 0f;
        } else {
            n[0] = x / d;
            n[1] = y / d;
            n[2] = z / d;
        }
        return d - radius;
    }
}
