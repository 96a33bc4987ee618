package dev.weft.core.collide;

import dev.weft.core.util.Check;

/**
 * A static shape that particles stay out of. Each collider keeps particles at least {@code thickness}
 * from its surface (projection along the surface normal) and applies Coulomb friction to the motion
 * made during the step, position-based as seed 001 §5.3.6: the tangential displacement is removed up
 * to {@code friction × penetration depth}, which stops a particle entirely (static friction) when the
 * tangential push is small against the normal one.
 */
public abstract class Collider {
    private final String name;
    protected final float thickness;
    protected final float friction;

    protected Collider(String name, float thickness, float friction) {
        this.name = name;
        this.thickness = Check.nonNegative(name + ".thickness", thickness);
        this.friction = Check.nonNegative(name + ".friction", friction);
    }

    public String name() {
        return name;
    }

    public float thickness() {
        return thickness;
    }

    public float friction() {
        return friction;
    }

    /** Signed distance from the surface: negative inside. */
    public abstract float signedDistance(float x, float y, float z);

    /**
     * Projects particles [begin, end) out of the collider. {@code prev} holds the positions at the start
     * of the step (for friction); particles with zero inverse mass are left alone.
     */
    public abstract void collide(float[] x, float[] prev, float[] invMass, int begin, int end);

    /**
     * Moves particle {@code i3 / 3} by {@code depth} along the unit normal n, then removes up to
     * {@code friction × depth} of its tangential motion since {@code prev}.
     */
    protected final void respond(float[] x, float[] prev, int i3, float nx, float ny, float nz, float depth) {
        float px = x[i3] + depth * nx;
        float py = x[i3 + 1] + depth * ny;
        float pz = x[i3 + 2] + depth * nz;
        if (friction > 0f) {
            float dx = px - prev[i3];
            float dy = py - prev[i3 + 1];
            float dz = pz - prev[i3 + 2];
            float dn = dx * nx + dy * ny + dz * nz;
            float tx = dx - dn * nx;
            float ty = dy - dn * ny;
            float tz = dz - dn * nz;
            float t2 = tx * tx + ty * ty + tz * tz;
            if (t2 > 0f) {
                float limit = friction * depth;
                float scale = limit * limit >= t2 ? 1f : limit / (float) Math.sqrt(t2);
                px -= scale * tx;
                py -= scale * ty;
                pz -= scale * tz;
            }
        }
        x[i3] = px;
        x[i3 + 1] = py;
        x[i3 + 2] = pz;
    }
}
