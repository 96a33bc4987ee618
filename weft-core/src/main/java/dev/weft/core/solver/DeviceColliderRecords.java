package dev.weft.core.solver;

import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.CapsuleCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.CylinderCollider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.collide.SphereCollider;
import java.util.Arrays;

/**
 * The colliders the device solvers know (OpenCL's {@code colliders.cl}, GLSL's {@code colliders.glsl}), as
 * flat records of {@link #STRIDE} floats and a type code each: a still {@link PlaneCollider} and a still
 * {@link SphereCollider}, and, for a backend whose kernels have them ({@code solids}: OpenCL's), a still
 * {@link BoxCollider}, {@link CapsuleCollider} and {@link CylinderCollider}; anything else (other shapes,
 * moving colliders) is refused by name. The derived
 * constants (the sphere's broad-phase radii, its sweep tolerance) are computed here in Java's float
 * arithmetic exactly as {@code RigidCollider.collide} computes them, so the device tests the same bounds.
 * A backend uploads {@link #types()} and {@link #records()} after {@link #encode} says they changed: they
 * are encoded again only when the environment's collider array (an {@code Environment} keeps its array, so
 * a run encodes once) or the model's particle surface (a sphere's reach grows by the largest particle
 * offset) is another one.
 */
public final class DeviceColliderRecords {
    /** Floats per collider record (the kernels' COLLIDER_STRIDE). */
    public static final int STRIDE = 24;
    /** Type code of a still plane (COLLIDER_PLANE). */
    public static final int PLANE = 0;
    /** Type code of a still sphere (COLLIDER_SPHERE). */
    public static final int SPHERE = 1;
    /** Type codes of a still box, capsule and cylinder (COLLIDER_BOX, _CAPSULE, _CYLINDER). */
    public static final int BOX = 2;
    public static final int CAPSULE = 3;
    public static final int CYLINDER = 4;

    private final String solvers;
    private final boolean solids;
    private Collider[] encoded;
    private ParticleSurface encodedFor;
    private int count;
    private int[] types = new int[1];
    private float[] records = new float[STRIDE];

    /** {@code solvers}: the backend's solvers as its refusals name them, e.g. "the GLSL compute solvers". */
    public DeviceColliderRecords(String solvers) {
        this(solvers, false);
    }

    /** As above; {@code solids}: the backend's kernels also run boxes, capsules and cylinders. */
    public DeviceColliderRecords(String solvers, boolean solids) {
        this.solvers = solvers;
        this.solids = solids;
    }

    /** Throws when {@code c} is not a still plane or sphere ({@code solvers}: as above). */
    public static void requireSupported(String solvers, Collider c) {
        requireSupported(solvers, c, false);
    }

    /**
     * Throws when {@code c} is not a collider the device solvers run: a still plane or sphere and, with
     * {@code solids}, a still box, capsule or cylinder.
     */
    public static void requireSupported(String solvers, Collider c, boolean solids) {
        boolean known = c instanceof PlaneCollider || c instanceof SphereCollider || solids
                && (c instanceof BoxCollider || c instanceof CapsuleCollider || c instanceof CylinderCollider);
        if (!known) {
            throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "is a "
                    + c.getClass().getSimpleName() + ", which " + solvers + " do not support yet (they run still "
                    + (solids ? "planes, spheres, boxes, capsules and cylinders" : "planes and spheres")
                    + "); use the cpu backend");
        }
        if (c.moving()) {
            throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "moves, and " + solvers
                    + " support still colliders only yet; use the cpu backend");
        }
    }

    /**
     * Encodes {@code colliders} for {@code surface}'s model unless they are what the records hold; true when
     * it encoded, so the backend must upload {@link #types()} and {@link #records()} again. Refuses colliders
     * the device does not know.
     */
    public boolean encode(Collider[] colliders, ParticleSurface surface) {
        if (colliders == encoded && surface == encodedFor) {
            return false;
        }
        for (Collider c : colliders) {
            requireSupported(solvers, c, solids);
        }
        int slots = Math.max(1, colliders.length);
        if (types.length < slots) {
            types = new int[slots];
            records = new float[STRIDE * slots];
        }
        Arrays.fill(types, 0);
        Arrays.fill(records, 0f);
        for (int c = 0; c < colliders.length; c++) {
            encode(colliders[c], surface, c);
        }
        count = colliders.length;
        encoded = colliders;
        encodedFor = surface;
        return true;
    }

    /** Forgets what was encoded, so the next {@link #encode} encodes (after the backend freed its buffers). */
    public void forget() {
        encoded = null;
        encodedFor = null;
    }

    /** How many colliders the records hold (the kernels' colliderCount). */
    public int count() {
        return count;
    }

    /** The type codes, one per slot; at least one slot, perhaps more than {@link #count()}. */
    public int[] types() {
        return types;
    }

    /** The records, {@link #STRIDE} floats per slot of {@link #types()}. */
    public float[] records() {
        return records;
    }

    /** Collider {@code c}'s record at {@code records[STRIDE * slot]} and its type at {@code types[slot]}. */
    private void encode(Collider c, ParticleSurface surface, int slot) {
        int o = STRIDE * slot;
        float[] data = records;
        if (c instanceof PlaneCollider p) {
            types[slot] = PLANE;
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
        RigidCollider s = (RigidCollider) c;
        types[slot] = c instanceof BoxCollider ? BOX : c instanceof CapsuleCollider ? CAPSULE
                : c instanceof CylinderCollider ? CYLINDER : SPHERE;
        float[] t = s.position();
        float[] r = s.rotation();
        data[o] = t[0];
        data[o + 1] = t[1];
        data[o + 2] = t[2];
        System.arraycopy(r, 0, data, o + 3, 9);
        float thickness = s.thickness();
        // RigidCollider.collide's bounds: reach = bounding radius + (thickness + largest offset)
        float reach = s.boundingRadius() + (thickness + surface.maxOffset());
        float wide = reach * 1.001f;
        data[o + 13] = thickness;
        data[o + 14] = s.staticFriction();
        data[o + 15] = s.kineticFriction();
        data[o + 16] = Math.max(1e-6f, 0.05f * thickness);
        data[o + 17] = reach * reach;
        data[o + 18] = wide * wide;
        if (c instanceof SphereCollider sphere) {
            data[o + 12] = sphere.radius();
        } else if (c instanceof BoxCollider box) {
            System.arraycopy(box.halfExtents(), 0, data, o + 19, 3);
        } else if (c instanceof CapsuleCollider capsule) {
            data[o + 12] = capsule.radius();
            data[o + 19] = capsule.halfLength();
        } else {
            CylinderCollider cylinder = (CylinderCollider) c;
            data[o + 12] = cylinder.radius();
            data[o + 19] = cylinder.halfHeight();
        }
    }
}
