package dev.weft.core.solver;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.CapsuleCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.CylinderCollider;
import dev.weft.core.collide.DragHandle;
import dev.weft.core.collide.EllipsoidCollider;
import dev.weft.core.collide.FunnelCollider;
import dev.weft.core.collide.Grip;
import dev.weft.core.collide.MeshCollider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.RectangleCollider;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.collide.SdfCollider;
import dev.weft.core.collide.SignedDistanceField;
import dev.weft.core.collide.SphereCollider;
import java.util.Arrays;

/**
 * The colliders the device solvers know (OpenCL's {@code colliders.cl}, GLSL's {@code colliders.glsl}), as
 * flat records of {@link #stride()} floats and a type code each. Every backend runs a still {@link
 * PlaneCollider} and a still {@link SphereCollider} ({@link #STRIDE} floats a record); a backend whose kernels
 * have every rigid shape ({@code rigidShapes}: OpenCL's, {@link #RIGID_STRIDE} floats a record) also runs {@link
 * BoxCollider}, {@link CapsuleCollider}, {@link CylinderCollider}, {@link EllipsoidCollider}, {@link
 * FunnelCollider}, {@link RectangleCollider}, {@link SdfCollider} and {@link MeshCollider}, still or moved by a
 * {@code Motion}, and {@link AnimatedMeshCollider}; a distance field's nodes, a triangle mesh's hierarchy and an
 * animated mesh's hierarchy topology follow the records ({@link #fields()}), an animated mesh's vertices and
 * refitted bounds of the step after those ({@link #stepState()}), a {@link Grip} (its held particles and their
 * targets of the step in {@link #stepState()} too) and a {@link Projectile} (its reaction slots after the step
 * state, {@link #reactionsAt()}). Anything else (a blade: the OpenCL solvers leave it to the host) is refused by
 * name. The derived constants (the broad-phase radii, the sweep tolerance) are computed here in Java's float
 * arithmetic exactly as {@code RigidCollider.collide} computes them, so the device tests the same bounds.
 *
 * <p>A backend uploads {@link #types()} and {@link #records()} after {@link #encode} says they changed: they
 * are encoded again only when the environment's collider array (an {@code Environment} keeps its array, so a
 * run encodes once) or the model's particle surface (the reach grows by the largest particle offset) is
 * another one. A moving collider's poses change every step ({@code Collider.advance}, on the host as for the
 * CPU solvers): {@link #refreshPoses} writes them into the records, and the backend uploads the records again.
 */
public final class DeviceColliderRecords {
    /** Floats per record where only planes and spheres run (GLSL's COLLIDER_STRIDE). */
    public static final int STRIDE = 24;
    /** Floats per record with every rigid shape and moving bodies (OpenCL's COLLIDER_STRIDE). */
    public static final int RIGID_STRIDE = 40;
    /** Type code of a still plane (COLLIDER_PLANE). */
    public static final int PLANE = 0;
    /** Type code of a sphere (COLLIDER_SPHERE). */
    public static final int SPHERE = 1;
    /** Type codes of a box, capsule and cylinder (COLLIDER_BOX, _CAPSULE, _CYLINDER). */
    public static final int BOX = 2;
    public static final int CAPSULE = 3;
    public static final int CYLINDER = 4;
    /** Type codes of an ellipsoid, a funnel and a rectangle (COLLIDER_ELLIPSOID, _FUNNEL, _RECTANGLE). */
    public static final int ELLIPSOID = 5;
    public static final int FUNNEL = 6;
    public static final int RECTANGLE = 7;
    /** Type code of a distance field (COLLIDER_SDF). */
    public static final int SDF = 8;
    /** Type code of a hand holding three particles, {@link DragHandle} (COLLIDER_HAND; 14 floats, every backend). */
    public static final int HAND = 9;
    /** Type code of a triangle mesh, {@link MeshCollider} (COLLIDER_MESH). */
    public static final int MESH = 10;
    /** Type code of an animated triangle mesh, {@link AnimatedMeshCollider} (COLLIDER_ANIMATED). */
    public static final int ANIMATED = 11;
    /**
     * Type code of a {@link Grip} holding free particles (COLLIDER_GRIP; with every rigid shape only): its count
     * (0) and where its held particles and their targets start, counted from the record (1), as int bits; the
     * targets in {@link #stepState()}, rewritten every step.
     */
    public static final int GRIP = 12;
    /**
     * Type code of a {@link Projectile} (COLLIDER_BALL; with every rigid shape only): {@link
     * Projectile#writeDeviceRecord} (0-10) and where its reaction slots start counted from the record (11, int
     * bits): 3 floats a particle after {@link #stepState()}, one run per projectile ({@link #reactionsAt()}).
     */
    public static final int BALL = 13;
    /**
     * Nodes a device's hierarchy query holds on its stack at most (colliders.cl's MESH_STACK): a mesh whose
     * hierarchy is deeper than this less one is refused (a median-split hierarchy is that deep only past 2^60
     * triangles).
     */
    public static final int MESH_STACK = 64;
    /** Where a rigid body's record holds its pose at the step's start: origin (3), rotation (9). */
    public static final int START_POSE = 26;
    /** Where a rigid body's record holds 1 when it moves (its start pose is then read), else 0. */
    public static final int MOVING = 38;

    private final String solvers;
    private final boolean rigidShapes;
    private final int stride;
    private Collider[] encoded;
    private ParticleSurface encodedFor;
    private int count;
    private boolean anyMoving;
    private int[] types = new int[1];
    private float[] records;
    private float[] fields = new float[0];
    private boolean fieldsChanged;
    private float[] dynamic = new float[0];
    private int particleCount;
    private Projectile[] projectiles = new Projectile[0];
    /** Projectiles encoded so far by the running {@link #encode}. */
    private int ballsEncoded;

    /** {@code solvers}: the backend's solvers as its refusals name them, e.g. "the GLSL compute solvers". */
    public DeviceColliderRecords(String solvers) {
        this(solvers, false);
    }

    /**
     * As above; {@code rigidShapes}: the backend's kernels run every rigid shape (triangle meshes included), still
     * or moving, and animated meshes.
     */
    public DeviceColliderRecords(String solvers, boolean rigidShapes) {
        this.solvers = solvers;
        this.rigidShapes = rigidShapes;
        this.stride = rigidShapes ? RIGID_STRIDE : STRIDE;
        this.records = new float[stride];
    }

    /** Throws when {@code c} is not a still plane or sphere ({@code solvers}: as above). */
    public static void requireSupported(String solvers, Collider c) {
        requireSupported(solvers, c, false);
    }

    /**
     * Throws when {@code c} is not a collider the device solvers run: a still plane or sphere and, with
     * {@code rigidShapes}, any rigid shape (box, capsule, cylinder, ellipsoid, funnel, rectangle, distance
     * field, triangle mesh), still or moving, an animated mesh (its hierarchy at most {@link #MESH_STACK}
     * − 1 levels deep), a grip and a projectile.
     */
    public static void requireSupported(String solvers, Collider c, boolean rigidShapes) {
        boolean known = c instanceof PlaneCollider || c instanceof SphereCollider || c instanceof DragHandle
                || rigidShapes && (isRigidShape(c) || c instanceof AnimatedMeshCollider || c instanceof Grip
                || c instanceof Projectile);
        if (!known) {
            String runs = rigidShapes ? "planes, spheres, boxes, capsules, cylinders, ellipsoids, funnels, "
                    + "rectangles, distance fields, triangle meshes, still or moving, animated meshes, grips, "
                    + "projectiles,"
                    : "still planes and spheres";
            String kind = c.getClass().getSimpleName();
            throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "is " + ("AEIOU".indexOf(
                    kind.charAt(0)) >= 0 ? "an " : "a ") + kind + ", which " + solvers + " do not support yet"
                    + " (they run " + runs + " and drag handles); use the cpu backend");
        }
        if (c instanceof AnimatedMeshCollider animated && animated.hierarchyDepth() + 1 > MESH_STACK) {
            throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "is an AnimatedMeshCollider "
                    + "whose triangle hierarchy is " + animated.hierarchyDepth() + " levels deep, deeper than "
                    + solvers + " search (" + (MESH_STACK - 1) + "); use the cpu backend");
        }
        if (c instanceof MeshCollider mesh && mesh.hierarchyDepth() + 1 > MESH_STACK) {
            throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "is a MeshCollider whose "
                    + "triangle hierarchy is " + mesh.hierarchyDepth() + " levels deep, deeper than " + solvers
                    + " search (" + (MESH_STACK - 1) + "); use the cpu backend");
        }
        if (c.moving() && !rigidShapes && !(c instanceof DragHandle)) {
            throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "moves, and " + solvers
                    + " support still colliders only yet; use the cpu backend");
        }
    }

    /** Whether {@code c} is one of the rigid shapes besides the sphere that colliders.cl runs. */
    private static boolean isRigidShape(Collider c) {
        return c instanceof BoxCollider || c instanceof CapsuleCollider || c instanceof CylinderCollider
                || c instanceof EllipsoidCollider || c instanceof FunnelCollider || c instanceof RectangleCollider
                || c instanceof SdfCollider || c instanceof MeshCollider;
    }

    /** Whether {@code c}'s distance is computed in double on the CPU (so the device needs double precision). */
    public static boolean needsDoubles(Collider c) {
        return c instanceof EllipsoidCollider || c instanceof FunnelCollider;
    }

    /**
     * Encodes {@code colliders} for {@code surface}'s model unless they are what the records hold; true when
     * it encoded, so the backend must upload {@link #types()} and {@link #records()} again. Refuses colliders
     * the device does not know.
     */
    public boolean encode(Collider[] colliders, ParticleSurface surface) {
        return encode(colliders, surface, 0);
    }

    /**
     * As above for a model of {@code particles} particles, which sizes a projectile's reaction slots (a backend
     * that runs projectiles passes its model's count; also encodes when only the count changed).
     */
    public boolean encode(Collider[] colliders, ParticleSurface surface, int particles) {
        if (colliders == encoded && surface == encodedFor && particles == particleCount) {
            return false;
        }
        particleCount = particles;
        int nodes = 0;
        int stepFloats = 0;
        for (Collider c : colliders) {
            requireSupported(solvers, c, rigidShapes);
            nodes += fieldSize(c);
            stepFloats += stepSize(c);
        }
        // the same colliders (only the surface is another): the fields after the records stay as they are
        fieldsChanged = !sameElements(colliders, encoded);
        int slots = Math.max(1, colliders.length);
        if (types.length < slots) {
            types = new int[slots];
            records = new float[stride * slots];
        }
        Arrays.fill(types, 0);
        Arrays.fill(records, 0f);
        if (fieldsChanged) {
            fields = new float[nodes];
            dynamic = new float[stepFloats];
        }
        anyMoving = false;
        int balls = 0;
        for (Collider c : colliders) {
            balls += c instanceof Projectile ? 1 : 0;
        }
        if (projectiles.length != balls) {
            projectiles = new Projectile[balls];
        }
        ballsEncoded = 0;
        int at = 0;
        int stepAt = 0;
        for (int c = 0; c < colliders.length; c++) {
            encode(colliders[c], surface, c, at, stepAt);
            anyMoving |= colliders[c].moving();
            at += fieldSize(colliders[c]);
            stepAt += stepSize(colliders[c]);
        }
        count = colliders.length;
        encoded = colliders;
        encodedFor = surface;
        return true;
    }

    /** Floats {@code c} has after the records: a distance field's nodes, a triangle mesh's hierarchy. */
    private static int fieldSize(Collider c) {
        if (c instanceof SdfCollider sdf) {
            return sdf.field().nodeCount();
        }
        if (c instanceof MeshCollider mesh) {
            return mesh.hierarchySize();
        }
        if (c instanceof AnimatedMeshCollider animated) {
            return animated.topologySize();
        }
        return 0;
    }

    /** Floats {@code c} has in {@link #stepState()}: an animated mesh's two meshes, a grip's targets. */
    private static int stepSize(Collider c) {
        if (c instanceof AnimatedMeshCollider animated) {
            return animated.stepStateSize();
        }
        if (c instanceof Grip grip) {
            return grip.deviceTargetsSize();
        }
        return 0;
    }

    /** Whether {@code a} holds the very colliders of {@code b} in its order. */
    private static boolean sameElements(Collider[] a, Collider[] b) {
        if (b == null || a.length != b.length) {
            return false;
        }
        for (int k = 0; k < a.length; k++) {
            if (a[k] != b[k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the last {@link #encode} that encoded wrote {@link #fields()} anew (other colliders); false when only
     * the particle surface changed, so a backend need upload the records only. Distance fields and mesh
     * hierarchies, the large part, thus go up once per collider set.
     */
    public boolean fieldsChanged() {
        return fieldsChanged;
    }

    /**
     * Writes the poses of the encoded moving colliders (where their last {@code advance} put them) into the
     * records, and the animated meshes' step into {@link #stepState()}; true when there are any, so the backend
     * must upload {@link #records()} (and a non-empty {@link #stepState()}) again. Allocates nothing.
     */
    public boolean refreshPoses() {
        if (!anyMoving) {
            return false;
        }
        int stepAt = 0;
        for (int c = 0; c < count; c++) {
            if (encoded[c] instanceof DragHandle hand) {
                hand.writeRecord(records, stride * c); // held or not, its target and α/h² as of this step
            } else if (encoded[c] instanceof AnimatedMeshCollider animated) {
                // this step's two meshes and their refitted bounds, and how far a vertex moves
                records[stride * c + 3] = animated.maxVertexStep();
                animated.writeStepState(dynamic, stepAt);
                stepAt += animated.stepStateSize();
            } else if (encoded[c] instanceof Grip grip) {
                grip.writeDeviceTargets(dynamic, stepAt); // where it holds its particles this step
                stepAt += grip.deviceTargetsSize();
            } else if (encoded[c] instanceof Projectile ball) {
                ball.writeDeviceRecord(records, stride * c); // where it flew to this step
            } else if (encoded[c].moving()) {
                int o = stride * c;
                ((RigidCollider) encoded[c]).writePoses(records, o, o + START_POSE);
            }
        }
        return true;
    }

    /**
     * The animated meshes' state of the step (their two meshes' node bounds and vertex positions, {@link
     * AnimatedMeshCollider#writeStepState}), one after another: a device buffer holds them right after {@link
     * #fields()}, and {@link #refreshPoses} rewrites them each step (empty without animated meshes).
     */
    public float[] stepState() {
        return dynamic;
    }

    /** The encoded projectiles in the colliders' order, whose reaction slots follow {@link #stepState()}. */
    public Projectile[] projectiles() {
        return projectiles;
    }

    /**
     * Where, in a device buffer of records, fields and step state, the projectiles' reaction slots start (floats):
     * {@code 3 × particles} floats each, in {@link #projectiles()}'s order.
     */
    public int reactionsAt() {
        return records.length + fields.length + dynamic.length;
    }

    /** Forgets what was encoded, so the next {@link #encode} encodes (after the backend freed its buffers). */
    public void forget() {
        encoded = null;
        encodedFor = null;
        anyMoving = false;
    }

    /** How many colliders the records hold (the kernels' colliderCount). */
    public int count() {
        return count;
    }

    /** Floats per record: {@link #STRIDE} or, for a backend with every rigid shape, {@link #RIGID_STRIDE}. */
    public int stride() {
        return stride;
    }

    /** The type codes, one per slot; at least one slot, perhaps more than {@link #count()}. */
    public int[] types() {
        return types;
    }

    /** The records, {@link #stride()} floats per slot of {@link #types()}. */
    public float[] records() {
        return records;
    }

    /**
     * The distance fields' nodes and the triangle meshes' hierarchies ({@link MeshCollider#writeHierarchy}), one
     * after another in the colliders' order: a device buffer holds them right after {@link #records()}, and a
     * field's or mesh's record says where its floats start, counted from the record's own first float (empty
     * without distance fields and meshes).
     */
    public float[] fields() {
        return fields;
    }

    /**
     * Collider {@code c}'s record at {@code records[stride * slot]} and its type at {@code types[slot]}. A plane:
     * normal (0-2), offset (3), thickness (4), friction (5, 6). A rigid body: origin (0-2), rotation (3-11), a
     * radius (12), thickness (13), friction (14, 15), sweep tolerance (16), squared reach and world-frame reach
     * (17, 18), its dimensions (19-25), and with every rigid shape its pose at the step's start ({@link
     * #START_POSE}) and whether it moves ({@link #MOVING}). A distance field's nodes go to {@code fields[at..]}.
     */
    private void encode(Collider c, ParticleSurface surface, int slot, int at, int stepAt) {
        int o = stride * slot;
        float[] data = records;
        if (c instanceof AnimatedMeshCollider animated) {
            // thickness and friction (0-2), the largest vertex step (3), where the topology starts and where the
            // step state starts, counted from this record (4, 5), the node, triangle and vertex counts (6-8; int bits)
            types[slot] = ANIMATED;
            data[o + 6] = Float.intBitsToFloat(animated.hierarchyNodeCount());
            data[o + 7] = Float.intBitsToFloat(animated.triangles().length / 3);
            data[o + 8] = Float.intBitsToFloat(animated.vertexCount());
            data[o] = animated.thickness();
            data[o + 1] = animated.staticFriction();
            data[o + 2] = animated.kineticFriction();
            data[o + 3] = animated.maxVertexStep();
            data[o + 4] = Float.intBitsToFloat(records.length - o + at);
            data[o + 5] = Float.intBitsToFloat(records.length - o + fields.length + stepAt);
            if (fieldsChanged) {
                animated.writeTopology(fields, at);
            }
            animated.writeStepState(dynamic, stepAt);
            return;
        }
        if (c instanceof Projectile ball) {
            types[slot] = BALL;
            ball.writeDeviceRecord(data, o);
            int k = ballsEncoded++;
            projectiles[k] = ball;
            data[o + 11] = Float.intBitsToFloat(records.length - o + fields.length + dynamic.length
                    + 3 * particleCount * k);
            return;
        }
        if (c instanceof Grip grip) {
            // how many particles (0) and where their indices and targets start counted from this record (1)
            types[slot] = GRIP;
            data[o] = Float.intBitsToFloat(grip.deviceTargetsSize() / 4);
            data[o + 1] = Float.intBitsToFloat(records.length - o + fields.length + stepAt);
            grip.writeDeviceTargets(dynamic, stepAt);
            return;
        }
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
        if (c instanceof DragHandle hand) {
            types[slot] = HAND;
            hand.writeRecord(data, o);
            return;
        }
        RigidCollider s = (RigidCollider) c;
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
        if (rigidShapes) {
            s.writePoses(data, o, o + START_POSE);
            data[o + MOVING] = s.moving() ? 1f : 0f;
        }
        if (c instanceof SphereCollider sphere) {
            types[slot] = SPHERE;
            data[o + 12] = sphere.radius();
        } else if (c instanceof BoxCollider box) {
            types[slot] = BOX;
            System.arraycopy(box.halfExtents(), 0, data, o + 19, 3);
        } else if (c instanceof CapsuleCollider capsule) {
            types[slot] = CAPSULE;
            data[o + 12] = capsule.radius();
            data[o + 19] = capsule.halfLength();
        } else if (c instanceof CylinderCollider cylinder) {
            types[slot] = CYLINDER;
            data[o + 12] = cylinder.radius();
            data[o + 19] = cylinder.halfHeight();
        } else if (c instanceof EllipsoidCollider ellipsoid) {
            // the semi-axes sorted descending (19-21) and the local axis each lies along (22-24)
            types[slot] = ELLIPSOID;
            float[] semi = ellipsoid.semiAxes();
            int[] order = ellipsoid.axisOrder();
            for (int k = 0; k < 3; k++) {
                data[o + 19 + k] = semi[order[k]];
                data[o + 22 + k] = order[k];
            }
        } else if (c instanceof FunnelCollider funnel) {
            types[slot] = FUNNEL;
            data[o + 19] = funnel.a();
            data[o + 20] = funnel.yMin();
            data[o + 21] = funnel.yMax();
        } else if (c instanceof MeshCollider mesh) {
            // the hierarchy's place counted from this record (12) and where its triangle slots start counted
            // from the hierarchy's first float (19), as int bits
            types[slot] = MESH;
            if (fieldsChanged) {
                mesh.writeHierarchy(fields, at);
            }
            data[o + 12] = Float.intBitsToFloat(records.length - o + at);
            data[o + 19] = Float.intBitsToFloat(mesh.hierarchyTrianglesAt());
        } else if (c instanceof SdfCollider sdf) {
            // the grid: its nodes' place counted from this record (12) and its size (19-21) as int bits, its
            // origin (22-24) and cell (25)
            types[slot] = SDF;
            SignedDistanceField field = sdf.field();
            if (fieldsChanged) {
                field.writeNodeValues(fields, at);
            }
            data[o + 12] = Float.intBitsToFloat(records.length - o + at);
            int[] size = field.dimensions();
            for (int k = 0; k < 3; k++) {
                data[o + 19 + k] = Float.intBitsToFloat(size[k]);
            }
            System.arraycopy(field.origin(), 0, data, o + 22, 3);
            data[o + 25] = field.cellSize();
        } else {
            RectangleCollider rectangle = (RectangleCollider) c;
            types[slot] = RECTANGLE;
            data[o + 19] = rectangle.halfWidth();
            data[o + 20] = rectangle.halfDepth();
        }
    }
}
