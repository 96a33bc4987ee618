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
import java.util.Locale;

/**
 * A {@link DroopStrip} on Jolt Physics' soft body, built as {@link JoltCloth} builds the peers bench's
 * cloth (CreateCloth's triangles, inextensible stretch and shear, Euclidean long-range attachments, equal
 * vertex masses, no sleeping, one thread) with the given bend type and bend compliance and the strip's
 * damping; rows 0 and 1 have inverse mass 0.
 */
public final class JoltStrip implements ClothEngine {
    private static final int LAYER = 0;

    private final DroopStrip strip;
    private final EBendType bendType;
    private final float bendCompliance;
    private final int iterations;
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
     * @param bendType       Jolt's distance or dihedral bending
     * @param bendCompliance m/N for distance bending, rad²/(N·m) for dihedral bending
     * @param iterations     Jolt's soft-body iterations per frame (substeps of one pass)
     */
    public JoltStrip(DroopStrip strip, EBendType bendType, float bendCompliance, int iterations) {
        if (bendType == EBendType.None || !(bendCompliance >= 0f) || iterations < 1) {
            throw new IllegalArgumentException("a bend type, a compliance >= 0 and iterations >= 1, got " + bendType
                    + ", " + bendCompliance + ", " + iterations);
        }
        JoltRuntime.ensureStarted();
        this.strip = strip;
        this.bendType = bendType;
        this.bendCompliance = bendCompliance;
        this.iterations = iterations;
        broadPhaseLayers = new MapObj2Bp(1, 1).add(LAYER, 0);
        objectVsBroadPhase = new ObjVsBpFilter(1, 1);
        objectVsObject = new ObjVsObjFilter(1);
        system = new PhysicsSystem();
        system.init(16, 0, 64, 64, broadPhaseLayers, objectVsBroadPhase, objectVsObject);
        system.setGravity(0f, ClothScene.GRAVITY, 0f);
        tempAllocator = new TempAllocatorImpl(4 * 1024 * 1024);
        jobs = new JobSystemThreadPool(Jolt.cMaxPhysicsJobs, Jolt.cMaxPhysicsBarriers, 0);

        shared = sharedSettings(strip, bendType, bendCompliance);
        SoftBodyCreationSettings creation = new SoftBodyCreationSettings(shared, new RVec3(0, 0, 0),
                Quat.sIdentity(), LAYER);
        creation.setNumIterations(iterations);
        creation.setLinearDamping(DroopStrip.DAMPING);
        creation.setGravityFactor(1f);
        creation.setAllowSleeping(false); // a strip slowly coming to rest must not be put to sleep early
        creation.setUpdatePosition(false); // the body stays at the origin: local positions are world positions
        BodyInterface bodies = system.getBodyInterface();
        body = bodies.createSoftBody(creation);
        bodies.addBody(body.getId(), EActivation.Activate);
        creation.close();
        motion = (SoftBodyMotionProperties) body.getMotionProperties();
        vertexBuffer = Jolt.newDirectFloatBuffer(3 * strip.vertexCount());
    }

    private static SoftBodySharedSettingsRef sharedSettings(DroopStrip strip, EBendType bendType, float compliance) {
        int w = strip.width();
        float[] rest = strip.restPositions();
        SoftBodySharedSettings settings = new SoftBodySharedSettings();
        float invMass = 1f / strip.vertexMass();
        Vertex v = new Vertex();
        for (int i = 0; i < strip.vertexCount(); i++) {
            v.setPosition(new Vec3(rest[3 * i], rest[3 * i + 1], rest[3 * i + 2]));
            v.setInvMass(strip.pinned(i) ? 0f : invMass);
            settings.addVertex(v);
        }
        v.close();
        Face f = new Face();
        for (int r = 0; r + 1 < strip.rows(); r++) {
            for (int c = 0; c + 1 < w; c++) {
                int p00 = r * w + c;
                f.setVertex(0, p00); // CreateCloth's winding, as JoltCloth
                f.setVertex(1, p00 + w);
                f.setVertex(2, p00 + w + 1);
                settings.addFace(f);
                f.setVertex(1, p00 + w + 1);
                f.setVertex(2, p00 + 1);
                settings.addFace(f);
            }
        }
        f.close();
        VertexAttributes attributes = new VertexAttributes(0f, 0f, compliance, ELraType.EuclideanDistance);
        settings.createConstraints(attributes, 1, bendType);
        attributes.close();
        settings.optimize();
        return settings.toRef();
    }

    @Override
    public String label() {
        return String.format(Locale.ROOT, "Jolt %d iterations, %s bending, compliance %.3g", iterations,
                bendType.name().toLowerCase(Locale.ROOT), bendCompliance);
    }

    @Override
    public void advanceFrame() {
        system.update(strip.frameDt(), 1, tempAllocator, jobs);
    }

    @Override
    public void readPositions(float[] xyz) {
        vertexBuffer.clear();
        motion.putVertexLocations(body.getPosition(), vertexBuffer);
        vertexBuffer.rewind();
        vertexBuffer.get(xyz, 0, 3 * strip.vertexCount());
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
