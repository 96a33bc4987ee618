package dev.weft.render.compute;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.solver.DeviceFeature;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import java.util.Arrays;

/**
 * The colliders the shaders know ({@code colliders.glsl}), as flat records of {@link #STRIDE} floats
 * and a type each in two storage buffers: a still {@link PlaneCollider} and a still {@link
 * SphereCollider}; anything else (other shapes, moving colliders) is refused by name. The records are
 * weft-opencl's (its {@code OpenClColliders}); the derived constants (the sphere's broad-phase radii, its
 * sweep tolerance) are computed here in Java's float arithmetic exactly as {@code RigidCollider.collide}
 * computes them, so the shaders test the same bounds. Encoded and uploaded again only when the
 * environment's collider array or the model's particle surface is another one.
 */
final class GlslColliders {
    /** Floats per collider record (colliders.glsl's COLLIDER_STRIDE). */
    static final int STRIDE = 24;
    static final int PLANE = 0;
    static final int SPHERE = 1;

    private final ComputeContext gl;
    private Collider[] encoded;
    private ParticleSurface encodedFor;
    private int count;
    private int typeBuffer;
    private int dataBuffer;

    GlslColliders(ComputeContext gl) {
        this.gl = gl;
    }

    /** Throws when {@code c} is not a collider the shaders run. */
    static void requireSupported(Collider c) {
        if (!(c instanceof PlaneCollider) && !(c instanceof SphereCollider)) {
            throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "is a "
                    + c.getClass().getSimpleName() + ", which the GLSL compute solvers do not support yet (they run "
                    + "still planes and spheres); use the cpu backend");
        }
        if (c.moving()) {
            throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "moves, and the GLSL compute "
                    + "solvers support still colliders only yet; use the cpu backend");
        }
    }

    /**
     * Encodes and uploads {@code colliders} unless they are what the buffers hold. Refuses colliders the
     * shaders do not know.
     */
    void bind(Collider[] colliders, ParticleSurface surface) {
        if (colliders == encoded && surface == encodedFor) {
            return;
        }
        for (Collider c : colliders) {
            requireSupported(c);
        }
        int slots = Math.max(1, colliders.length);
        int[] type = new int[slots];
        float[] data = new float[STRIDE * slots];
        for (int c = 0; c < colliders.length; c++) {
            encode(colliders[c], surface, c, type, data);
        }
        release();
        typeBuffer = gl.upload(type, GlslSolver.COLLIDER_TYPES);
        dataBuffer = gl.upload(data, GlslSolver.COLLIDER_RECORDS);
        count = colliders.length;
        encoded = colliders;
        encodedFor = surface;
    }

    /** How many colliders the buffers hold (the shaders' colliderCount). */
    int count() {
        return count;
    }

    /** Collider {@code c}'s record at {@code data[STRIDE * slot]} and its type at {@code type[slot]}. */
    private static void encode(Collider c, ParticleSurface surface, int slot, int[] type, float[] data) {
        int o = STRIDE * slot;
        Arrays.fill(data, o, o + STRIDE, 0f);
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

    void release() {
        gl.delete(typeBuffer, dataBuffer);
        typeBuffer = dataBuffer = 0;
        encoded = null;
        encodedFor = null;
    }
}
