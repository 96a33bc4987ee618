package dev.weft.opencl;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.solver.DeviceFeature;
import dev.weft.core.solver.UnsupportedOnDeviceException;

/**
 * The colliders the OpenCL kernels know, as the flat records {@code mass_spring.cl} reads: a still
 * {@link PlaneCollider} and a still {@link SphereCollider}, each {@link #STRIDE} floats. Anything else
 * (other shapes, moving colliders) is refused by name. The derived constants (the sphere's
 * broad-phase radii, its sweep tolerance) are computed here in Java's float arithmetic exactly as
 * {@code RigidCollider.collide} computes them, so the device tests the same bounds.
 */
final class OpenClColliders {
    /** Floats per collider record (mass_spring.cl's COLLIDER_STRIDE). */
    static final int STRIDE = 24;
    static final int PLANE = 0;
    static final int SPHERE = 1;

    private OpenClColliders() {
    }

    /** Throws when {@code c} is not a collider the device can run. */
    static void requireSupported(Collider c) {
        if (!(c instanceof PlaneCollider) && !(c instanceof SphereCollider)) {
            throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "is a "
                    + c.getClass().getSimpleName() + ", which the OpenCL solvers do not support yet (they run still "
                    + "planes and spheres); use the cpu backend");
        }
        if (c.moving()) {
            throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "moves, and the OpenCL "
                    + "solvers support still colliders only yet; use the cpu backend");
        }
    }

    /**
     * Writes collider {@code c}'s record at {@code data[STRIDE * slot]} and its type at {@code type[slot]};
     * {@code surface} is the model's (the sphere's reach grows by the largest particle offset).
     */
    static void encode(Collider c, ParticleSurface surface, int slot, int[] type, float[] data) {
        requireSupported(c);
        int o = STRIDE * slot;
        if (c instanceof PlaneCollider p) {
            type[slot] = PLANE;
            float[] n = p.normal();
            data[o] = n[0];
            data[o + 1] = n[1];
            data[o + 2] = n[2];
            data[o + 3] = p.offset();
            data[o + 4] = p.thickness();
            data[o + 5] = p.staticFriction();
            data[o + 6] = p.kineticFriction();
            return;
        }
        SphereCollider s = (SphereCollider) c;
        type[slot] = SPHERE;
        float[] t = s.position();
        float[] r = s.rotation();
        data[o] = t[0];
        data[o + 1] = t[1];
        data[o + 2] = t[2];
        System.arraycopy(r, 0, data, o + 3, 9);
        float thickness = s.thickness();
        // RigidCollider.collide's bounds: reach = bounding radius + (thickness + largest offset)
        float reach = s.radius() + (thickness + surface.maxOffset());
        float wide = reach * 1.001f;
        data[o + 12] = s.radius();
        data[o + 13] = thickness;
        data[o + 14] = s.staticFriction();
        data[o + 15] = s.kineticFriction();
        data[o + 16] = Math.max(1e-6f, 0.05f * thickness);
        data[o + 17] = reach * reach;
        data[o + 18] = wide * wide;
    }
}
