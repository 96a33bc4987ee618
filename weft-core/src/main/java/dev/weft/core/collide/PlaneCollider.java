package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/** The infinite plane n·x = offset; its inside is the half-space n·x &lt; offset. */
public final class PlaneCollider extends Collider {
    private final float nx;
    private final float ny;
    private final float nz;
    private final float offset;

    /** A plane through {@code point} with outward {@code normal} (normalised here). */
    public PlaneCollider(String name, float[] point, float[] normal, float thickness, float friction) {
        super(name, thickness, friction);
        Check.vector3(name + ".point", point);
        Check.vector3(name + ".normal", normal);
        float len = (float) Math.sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
        if (len < 1e-12f) {
            throw new InvalidInputException(name + ".normal", "must not be the zero vector");
        }
        nx = normal[0] / len;
        ny = normal[1] / len;
        nz = normal[2] / len;
        offset = nx * point[0] + ny * point[1] + nz * point[2];
    }

    /** The horizontal floor y = height. */
    public static PlaneCollider floor(float height, float thickness, float friction) {
        return new PlaneCollider("floor", new float[] {0f, height, 0f}, new float[] {0f, 1f, 0f}, thickness, friction);
    }

    /** The unit outward normal (a copy). */
    public float[] normal() {
        return new float[] {nx, ny, nz};
    }

    /** The plane's offset along its normal: points x on it have n·x = offset. */
    public float offset() {
        return offset;
    }

    @Override
    public float[] plane() {
        return new float[] {nx, ny, nz, offset};
    }

    @Override
    public float signedDistance(float x, float y, float z) {
        return nx * x + ny * y + nz * z - offset;
    }

    @Override
    public void collide(float[] x, float[] prev, float[] invMass, ParticleSurface surface, int begin, int end) {
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            float depth = thickness + surface.offset(i) - (nx * x[i3] + ny * x[i3 + 1] + nz * x[i3 + 2] - offset);
            if (depth > 0f && invMass[i] > 0f) {
                respond(x, prev, i3, nx, ny, nz, depth, surface.grip(i));
            }
        }
    }
}
