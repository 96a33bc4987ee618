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
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Material;
import dev.weft.core.model.MaterialParameters;
import java.nio.FloatBuffer;

/**
 * The scene on Jolt Physics' soft body (through jolt-jni), built as Jolt's own {@code
 * SoftBodyCreator::CreateCloth} builds a cloth: the vertices (inverse mass 0 on the pinned edge), two
 * triangles per grid cell, {@code createConstraints} with inextensible stretch and shear (compliance 0),
 * distance bending and Euclidean long-range attachments to the nearest pinned vertex, then {@code
 * optimize()}. Jolt's soft body makes one XPBD pass over every constraint per iteration, each iteration
 * a substep of its own: {@code iterations} is "that many substeps of one pass".
 *
 * <p>Bending: Jolt's distance bend constraints join the far vertices of two triangles that share an
 * edge, √5 spacings apart on this grid; each gets the compliance Weft's material gives a bend spring of
 * that length ({@link MaterialParameters#springStiffness}), with the same vertex masses, so the bending
 * resists about as Weft's distance bending does.
 */
public final class JoltCloth implements ClothEngine {
    private static final int LAYER = 0;
    private static final int BROAD_PHASE_LAYER = 0;

    private final ClothScene scene;
    private final int iterations;
    private final int threads;
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
     * @param threads    threads stepping the physics: the calling one and {@code threads − 1} workers
     * @param iterations Jolt's soft-body iterations per frame (substeps of one pass)
     */
    public JoltCloth(ClothScene scene, int threads, int iterations) {
        if (threads < 1 || iterations < 1) {
            throw new IllegalArgumentException("threads and iterations must be >= 1, got " + threads + ", "
                    + iterations);
        }
        JoltRuntime.ensureStarted();
        this.scene = scene;
        this.iterations = iterations;
        this.threads = threads;
        // one object layer and one broad-phase layer: the cloth meets nothing
        broadPhaseLayers = new MapObj2Bp(1, 1).add(LAYER, BROAD_PHASE_LAYER);
        objectVsBroadPhase = new ObjVsBpFilter(1, 1);
        objectVsObject = new ObjVsObjFilter(1);
        system = new PhysicsSystem();
        system.init(16, 0, 64, 64, broadPhaseLayers, objectVsBroadPhase, objectVsObject);
        system.setGravity(0f, ClothScene.GRAVITY, 0f);
        tempAllocator = new TempAllocatorImpl(32 * 1024 * 1024);
        jobs = new JobSystemThreadPool(Jolt.cMaxPhysicsJobs, Jolt.cMaxPhysicsBarriers, threads - 1);

        shared = sharedSettings(scene);
        SoftBodyCreationSettings creation = new SoftBodyCreationSettings(shared, new RVec3(0, 0, 0),
                Quat.sIdentity(), LAYER);
        creation.setNumIterations(iterations);
        creation.setLinearDamping(ClothScene.DAMPING);
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
        vertexBuffer = Jolt.newDirectFloatBuffer(3 * scene.vertexCount());
    }

    private static SoftBodySharedSettingsRef sharedSettings(ClothScene scene) {
        int n = scene.n();
        float[] rest = scene.restPositions();
        SoftBodySharedSettings settings = new SoftBodySharedSettings();
        float invMass = 1f / scene.vertexMass();
        Vertex v = new Vertex();
        for (int i = 0; i < scene.vertexCount(); i++) {
            v.setPosition(new Vec3(rest[3 * i], rest[3 * i + 1], rest[3 * i + 2]));
            v.setInvMass(scene.pinned(i) ? 0f : invMass);
            settings.addVertex(v); // copied into the settings: one Vertex serves every vertex
        }
        v.close();
        Face f = new Face();
        for (int r = 0; r + 1 < n; r++) {
            for (int c = 0; c + 1 < n; c++) {
                int p00 = r * n + c;
                // CreateCloth's winding: (x, z), (x, z + 1), (x + 1, z + 1) and (x, z), (x + 1, z + 1), (x + 1, z)
                f.setVertex(0, p00);
                f.setVertex(1, p00 + n);
                f.setVertex(2, p00 + n + 1);
                settings.addFace(f);
                f.setVertex(1, p00 + n + 1);
                f.setVertex(2, p00 + 1);
                settings.addFace(f);
            }
        }
        f.close();
        VertexAttributes attributes = new VertexAttributes(0f, 0f,
                distanceBendCompliance(ClothScene.BEND_RIGIDITY, scene.spacing()), ELraType.EuclideanDistance);
        settings.createConstraints(attributes, 1, EBendType.Distance);
        attributes.close();
        settings.optimize();
        return settings.toRef();
    }

    /**
     * The compliance, m/N, this bench gives Jolt's distance bend constraints on a grid of {@code spacing}: that
     * of Weft's bend spring of the same length (√5 spacings, {@link MaterialParameters#springStiffness}) for
     * bending rigidity {@code rigidity} (N·m).
     */
    public static float distanceBendCompliance(float rigidity, float spacing) {
        float bendLength = (float) Math.sqrt(5) * spacing;
        return 1f / MaterialParameters.springStiffness(Material.cloth().withBend(rigidity), DistanceKind.BEND,
                bendLength);
    }

    @Override
    public String label() {
        return "Jolt " + iterations + " iterations";
    }

    public int iterations() {
        return iterations;
    }

    public int threads() {
        return threads;
    }

    public ClothScene scene() {
        return scene;
    }

    @Override
    public void advanceFrame() {
        system.update(scene.frameDt(), 1, tempAllocator, jobs);
    }

    @Override
    public void readPositions(float[] xyz) {
        vertexBuffer.clear();
        motion.putVertexLocations(body.getPosition(), vertexBuffer);
        vertexBuffer.rewind();
        vertexBuffer.get(xyz, 0, 3 * scene.vertexCount());
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
