package dev.weft.core.collide;

import dev.weft.core.util.Check;

/**
 * A solid capsule: all points within {@code radius} of the segment from (0, −halfLength, 0) to
 * (0, halfLength, 0) in the body frame.
 */
public final class CapsuleCollider extends RigidCollider {
    private final float radius;
    private final float halfLength;

    public CapsuleCollider(String name, float[] center, float radius, float halfLength, float thickness,
                           float friction) {
        super(name, center, false, thickness, friction);
        this.radius = Check.positive(name + ".radius", radius);
        this.halfLength = Check.nonNegative(name + ".halfLength", halfLength);
    }

    public float radius() {
        return radius;
    }

    /** Half the length of the axis segment along the body's y. */
    public float halfLength() {
        return halfLength;
    }

    @Override
    public float boundingRadius() {
        return radius + halfLength;
    }

    @Override
    protected float localDistance(float x, float y, float z, float[] n) {
        float dy = y - Math.max(-halfLength, Math.min(halfLength, y));
        float d = (float) Math.sqrt(x * x + dy * dy + z * z);
        if (d < 1e-12f) {
            n[0] = 1f; // on the axis any radial direction is as good
            n[1] = 0f;
            n[2] = 0f;
        } else {
            n[0] = x / d;
            n[1] = dy / d;
            n[2] = z / d;
        }
        return d - radius;
    }
}
