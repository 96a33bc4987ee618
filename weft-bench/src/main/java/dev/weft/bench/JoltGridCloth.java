package dev.weft.bench;

import com.github.stephengold.joltjni.Body;
import com.github.stephengold.joltjni.BodyInterface;
import com.github.stephengold.joltjni.Face;
import com.github.stephengold.joltjni.Jolt;
import com.github.stephengold.joltjni.JobSystemThreadPool;
import com.github.stephengold.joltjni.MapObj2Bp;
import com.github.stephengold.joltjni.ObjVsBpFilter;
import com.github.stephengold.joltjni.ObjVsObjFilter;
import com.github.stephengold.joltjni.PhysicsSystem;
import com.github.stephengold.joltjni.Quat;
import com.github.stephengold.joltjni.RVec3;
import com.github.stephengold.joltjni.SoftBodyCreationSettings;
import com.github.stephengold.joltjni.SoftBodyMotionProperties;
import com.github.stephengold.joltjni.SoftBodySharedSettings;
import com.github.stephengold.joltjni.SoftBodySharedSettingsRef;
import com.github.stephengold.joltjni.TempAllocatorImpl;
import com.github.stephengold.joltjni.Vec3;
import com.github.stephengold.joltjni.Vertex;
import com.github.stephengold.joltjni.VertexAttributes;
import com.github.stephengold.joltjni.enumerate.EActivation;
import com.github.stephengold.joltjni.enumerate.EBendType;
import com.github.stephengold.joltjni.enumerate.ELraType;
import java.nio.FloatBuffer;
import java.util.function.IntPredicate;

/**
 * A grid of vertices as one Jolt Physics soft body in a world of its own, built as Jolt's {@code
 * SoftBodyCreator::CreateCloth} builds a cloth: the vertices (inverse mass 0 where pinned), two triangles
 * per grid cell in CreateCloth's winding, {@code createConstraints} with inextensible stretch and shear
 * (compliance 0), the given bending and Euclidean long-range attachments to the nearest pinned vertex,
 * then {@code optimize()}; gravity, the given linear damping, no sleeping, the body kept at the origin so
 * its vertices' local positions are world positions. What {@link JoltCloth} and {@link JoltStrip} share.
 */
final class JoltGridCloth implements AutoCloseable {
    private static final int LAYER = 0;
    private static final int BROAD_PHASE_LAYER = 0;

    private final int vertexCount;
    private final MapObj2Bp broadPhaseLayers;
    private final ObjVsBpFilter objectVsBroadPhase;
    private final ObjVsObjFilter objectVsObject;
    private final PhysicsSystem system;
    private final TempAllocatorImpl tempAllocator;
    private final JobSystemThreadPool jobs;
    private final SoftBodySharedSettingsRef shared;
    private final Body body;
    private final SoftBodyMotionProperties motion;
    private final FloatBuffer vertexBuffer;

    /**
     * @param rest           cols × rows vertices, row by row (xyz each)
     * @param pinned         which vertices have inverse mass 0
     * @param vertexMass     every other vertex's mass, kg
     * @param bendType       Jolt's bending
     * @param bendCompliance its compliance (m/N for distance bending, rad²/(N·m) for dihedral)
     * @param iterations     Jolt's soft-body iterations per frame (substeps of one pass)
     * @param damping        linear damping, 1/s
     * @param threads        threads stepping the physics: the calling one and {@code threads − 1} workers
     * @param allocatorBytes Jolt's temporary allocator
     */
    JoltGridCloth(float[] rest, int cols, int rows, IntPredicate pinned, float vertexMass, EBendType bendType,
                  float bendCompliance, int iterations, float damping, int threads, int allocatorBytes) {
        JoltRuntime.ensureStarted();
        vertexCount = cols * rows;
        // one object layer and one broad-phase layer: the cloth meets nothing
        broadPhaseLayers = new MapObj2Bp(1, 1).add(LAYER, BROAD_PHASE_LAYER);
        objectVsBroadPhase = new ObjVsBpFilter(1, 1);
        objectVsObject = new ObjVsObjFilter(1);
        system = new PhysicsSystem();
        system.init(16, 0, 64, 64, broadPhaseLayers, objectVsBroadPhase, objectVsObject);
        system.setGravity(0f, ClothScene.GRAVITY, 0f);
        tempAllocator = new TempAllocatorImpl(allocatorBytes);
        jobs = new JobSystemThreadPool(Jolt.cMaxPhysicsJobs, Jolt.cMaxPhysicsBarriers, threads - 1);

        shared = sharedSettings(rest, cols, rows, pinned, vertexMass, bendType, bendCompliance);
        SoftBodyCreationSettings creation = new SoftBodyCreationSettings(shared, new RVec3(0, 0, 0),
                Quat.sIdentity(), LAYER);
        creation.setNumIterations(iterations);
        creation.setLinearDamping(damping);
        creation.setGravityFactor(1f);
        creation.setAllowSleeping(false); // a cloth at rest must cost what it costs while it swings
        // Jolt's setting for a soft body attached to the static world: the body stays at the origin, so its
        // vertices' local positions are world positions and the pinned ones read back exactly
        creation.setUpdatePosition(false);
        BodyInterface bodies = system.getBodyInterface();
        body = bodies.createSoftBody(creation);
        bodies.addBody(body.getId(), EActivation.Activate);
        creation.close();
        motion = (SoftBodyMotionProperties) body.getMotionProperties();
        vertexBuffer = Jolt.newDirectFloatBuffer(3 * vertexCount);
    }

    private static SoftBodySharedSettingsRef sharedSettings(float[] rest, int cols, int rows, IntPredicate pinned,
                                                            float vertexMass, EBendType bendType,
                                                            float bendCompliance) {
        SoftBodySharedSettings settings = new SoftBodySharedSettings();
        float invMass = 1f / vertexMass;
        Vertex v = new Vertex();
        for (int i = 0; i < cols * rows; i++) {
            v.setPosition(new Vec3(rest[3 * i], rest[3 * i + 1], rest[3 * i + 2]));
            v.setInvMass(pinned.test(i) ? 0f : invMass);
            settings.addVertex(v); // copied into the settings: one Vertex serves every vertex
        }
        v.close();
        Face f = new Face();
        for (int r = 0; r + 1 < rows; r++) {
            for (int c = 0; c + 1 < cols; c++) {
                int p00 = r * cols + c;
                // CreateCloth's winding: (x, z), (x, z + 1), (x + 1, z + 1) and (x, z), (x + 1, z + 1), (x + 1, z)
                f.setVertex(0, p00);
                f.setVertex(1, p00 + cols);
                f.setVertex(2, p00 + cols + 1);
                settings.addFace(f);
                f.setVertex(1, p00 + cols + 1);
                f.setVertex(2, p00 + 1);
                settings.addFace(f);
            }
        }
        f.close();
        VertexAttributes attributes = new VertexAttributes(0f, 0f, bendCompliance, ELraType.EuclideanDistance);
        settings.createConstraints(attributes, 1, bendType);
        attributes.close();
        settings.optimize();
        return settings.toRef();
    }

    /** One frame of {@code dt}: Jolt's update with one collision step (its iterations are the substeps). */
    void advance(float dt) {
        system.update(dt, 1, tempAllocator, jobs);
    }

    /** The vertices' positions into {@code xyz}. */
    void readPositions(float[] xyz) {
        vertexBuffer.clear();
        motion.putVertexLocations(body.getPosition(), vertexBuffer);
        vertexBuffer.rewind();
        vertexBuffer.get(xyz, 0, 3 * vertexCount);
    }

    @Override
    public void close() {
        BodyInterface bodies = system.getBodyInterface();
        bodies.removeBody(body.getId());
        bodies.destroyBody(body.getId());
        shared.close();
        system.close();
        jobs.close();
        tempAllocator.close();
        objectVsObject.close();
        objectVsBroadPhase.close();
        broadPhaseLayers.close();
    }
}
