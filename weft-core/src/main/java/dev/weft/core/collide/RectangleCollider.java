package dev.weft.core.collide;

import dev.weft.core.util.Check;

/**
 * A bounded plane: the rectangle |x| ≤ halfWidth, |z| ≤ halfDepth of the body's y = 0 plane, its
 * normal the body's +y. Two-sided (a shell): particles stay {@code thickness} away on whichever side
 * they are, and a particle crossing it during a step is put back on the side it came from.
 */
public final class RectangleCollider extends RigidCollider {
    private final float halfWidth;
    private final float halfDepth;

    public RectangleCollider(String name, float[] center, float halfWidth, float halfDepth, float thickness,
                             float friction) {
        super(name, center, true, thickness, friction);
        this.halfWidth = Check.positive(name + ".halfWidth", halfWidth);
        this.halfDepth = Check.positive(name + ".halfDepth", halfDepth);
    }

    /** Half the extent along the body's x. */
    public float halfWidth() {
        return halfWidth;
    }

    /** Half the extent along the body's z. */
    public float halfDepth() {
        return halfDepth;
    }

    @Override
    public float boundingRadius() {
        return (float) Math.sqrt(halfWidth * halfWidth + halfDepth * halfDepth);
    }

    /** Distance signed by the side (+ above y = 0, − below); n points from the closest point to the + side. */
    @Override
    protected float localDistance(float x, float y, float z, float[] n) {
        float dx = x - Math.max(-halfWidth, Math.min(halfWidth, x));
        float dz = z - Math.max(-halfDepth, Math.min(halfDepth, z));
        if (dx == 0f && dz == 0f) {
            n[0] = 0f;
            n[1] = 1f;
            n[2] = 0f;
            return y;
        }
        // beyond an edge: the closest point is on the rim; p = c + sd n with n pointing to the +y side
        float d = (float) Math.sqrt(dx * dx + y * y + dz * dz);
        float s = y >= 0f ? 1f : -1f;
        n[0] = s * dx / d;
        n[1] = s * y / d;
        n[2] = s * dz / d;
        return s * d;
    }
}
