package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.geom.TriangleBvh;
import dev.weft.core.mesh.ObjReader;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.Model;
import dev.weft.core.util.Check;
import dev.weft.core.util.FloatList;
import dev.weft.core.util.IntList;
import java.nio.file.Path;
import java.util.List;

/**
 * A kinematic body animated by a sequence of meshes with one topology (seed 001 §5.5.1: a model per
 * frame, e.g. exported OBJ frames), played at {@code fps} with linear interpolation between frames,
 * looping or holding the last. Two-sided like {@link MeshCollider}.
 *
 * <p>Collision against a moving surface: each particle's start is carried along with the surface
 * point nearest to it (the displacement of that point of the previous step's mesh over the step);
 * the path from there to the particle's end is tested against the current mesh (a swept test, so a
 * fast body does not pass through cloth), and friction acts on the motion relative to the surface.
 * Instead of seed 001's particles sampled over the surface (§5.5.2) the triangles themselves collide,
 * so no gap between samples lets cloth through.
 *
 * <p>Attachment points (§5.5.3): a pinned particle attached to a point of the body follows that
 * point: its triangle and barycentric coordinates are found on the first frame and the particle is
 * placed there before every step.
 */
public final class AnimatedMeshCollider extends Collider {
    private final float[][] frames;
    private final int[] triangles;
    private final float fps;
    private final boolean loop;
    private final float[] prevPositions;
    private final float[] curPositions;
    private final TriangleBvh prevBvh;
    private final TriangleBvh curBvh;
    /** The largest distance any vertex moves during the current step (bounds the carry search). */
    private float maxVertexStep;
    private final ThreadLocal<TriangleBvh.Query> queries = ThreadLocal.withInitial(TriangleBvh.Query::new);
    private final ThreadLocal<float[]> scratch = ThreadLocal.withInitial(() -> new float[3]);
    private final IntList attachedParticle = new IntList();
    private final IntList attachedTriangle = new IntList();
    private final FloatList attachedBary = new FloatList();
    private final float[] attachScratch = new float[3];

    /**
     * @param frames meshes with equal vertex counts and identical triangles (frame k shown at k / fps)
     * @param fps    frames per second
     * @param loop   play again from the first frame after the last; else hold the last
     */
    public AnimatedMeshCollider(String name, List<TriangleMesh> frames, float fps, boolean loop, float thickness,
                                float friction) {
        super(name, thickness, friction);
        if (frames == null || frames.isEmpty()) {
            throw new InvalidInputException(name + ".frames", "needs at least one mesh");
        }
        this.fps = Check.positive(name + ".fps", fps);
        this.loop = loop;
        TriangleMesh first = frames.get(0);
        triangles = first.triangles().clone();
        if (triangles.length == 0) {
            throw new InvalidInputException(name + ".frames[0]", "has no triangles");
        }
        this.frames = new float[frames.size()][];
        for (int k = 0; k < frames.size(); k++) {
            TriangleMesh f = frames.get(k);
            if (f.vertexCount() != first.vertexCount() || !java.util.Arrays.equals(f.triangles(), triangles)) {
                throw new InvalidInputException(name + ".frames[" + k + "]", "must have the vertices and triangles of "
                        + "frame 0 (" + first.vertexCount() + " vertices, " + first.triangleCount() + " triangles), got "
                        + f.vertexCount() + " vertices, " + f.triangleCount() + " triangles");
            }
            this.frames[k] = f.positions().clone();
        }
        prevPositions = this.frames[0].clone();
        curPositions = this.frames[0].clone();
        prevBvh = new TriangleBvh(prevPositions, triangles);
        curBvh = new TriangleBvh(curPositions, triangles);
    }

    /** Reads OBJ frames (in order) with {@link ObjReader}; a frame of another topology names its file. */
    public static AnimatedMeshCollider fromObjFrames(String name, List<Path> files, float fps, boolean loop,
                                                     float thickness, float friction) {
        List<TriangleMesh> meshes = new java.util.ArrayList<>();
        for (Path p : files) {
            meshes.add(ObjReader.read(p));
        }
        try {
            return new AnimatedMeshCollider(name, meshes, fps, loop, thickness, friction);
        } catch (InvalidInputException e) {
            String msg = e.getMessage();
            for (int k = files.size() - 1; k >= 0; k--) {
                if (msg.contains(".frames[" + k + "]")) {
                    throw new InvalidInputException(files.get(k).toString(), msg);
                }
            }
            throw e;
        }
    }

    /** The largest distance a vertex moves during the current step (as of the last {@link #advance}). */
    public float maxVertexStep() {
        return maxVertexStep;
    }

    /** The hierarchies' depth: both share one topology (built from frame 0, refitted since). */
    public int hierarchyDepth() {
        return curBvh.depth();
    }

    /** The hierarchies' node count (both share one topology). */
    public int hierarchyNodeCount() {
        return curBvh.nodeCount();
    }

    /** Floats {@link #writeTopology} writes. */
    public int topologySize() {
        return curBvh.topologySize();
    }

    /** The hierarchies' shared topology for a device ({@link TriangleBvh#writeTopology}) at {@code out[at]}. */
    public void writeTopology(float[] out, int at) {
        curBvh.writeTopology(out, at);
    }

    /** Floats {@link #writeStepState} writes: two sets of node bounds and two of vertex positions. */
    public int stepStateSize() {
        return 2 * 6 * curBvh.nodeCount() + 2 * curPositions.length;
    }

    /**
     * What the last {@link #advance} computed, for a device, at {@code out[at]}: the step's first mesh's node
     * bounds, the current mesh's node bounds (6 floats a node each), the first mesh's vertex positions, the current
     * mesh's. Allocates nothing.
     */
    public void writeStepState(float[] out, int at) {
        int b = 6 * curBvh.nodeCount();
        prevBvh.writeBounds(out, at);
        curBvh.writeBounds(out, at + b);
        System.arraycopy(prevPositions, 0, out, at + 2 * b, prevPositions.length);
        System.arraycopy(curPositions, 0, out, at + 2 * b + prevPositions.length, curPositions.length);
    }

    /** The vertex count of every frame. */
    public int vertexCount() {
        return curPositions.length / 3;
    }

    /** The triangles (three vertex indices each) every frame shares; a copy. */
    public int[] triangles() {
        return triangles.clone();
    }

    /** The surface as it stands at the end of the last {@link #advance} (frame 0 before it) into out. */
    public void currentPositions(float[] out) {
        System.arraycopy(curPositions, 0, out, 0, curPositions.length);
    }

    /** Vertex positions at {@code time} into out (interpolated between frames). */
    public void positionsAt(double time, float[] out) {
        int n = frames.length;
        double f = Math.max(0.0, time * fps);
        int k;
        float s;
        if (n == 1) {
            k = 0;
            s = 0f;
        } else if (loop) {
            double period = n; // the last frame blends back into the first
            f = f % period;
            k = (int) Math.floor(f);
            s = (float) (f - k);
        } else if (f >= n - 1) {
            k = n - 1;
            s = 0f;
        } else {
            k = (int) Math.floor(f);
            s = (float) (f - k);
        }
        float[] a = frames[k];
        float[] b = frames[(k + 1) % n];
        if (s == 0f) {
            System.arraycopy(a, 0, out, 0, a.length);
            return;
        }
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] + s * (b[i] - a[i]);
        }
    }

    /**
     * Attaches pinned particle {@code particle} of {@code model} to the body's surface point closest to
     * {@code point} on the first frame (seed 001 §5.5.3). Returns this collider.
     */
    public AnimatedMeshCollider attach(Model model, int particle, float[] point) {
        if (particle < 0 || particle >= model.particleCount()) {
            throw new InvalidInputException(name() + ".attach.particle", "must be in [0, " + model.particleCount()
                    + "), got " + particle);
        }
        if (!model.isPinned(particle)) {
            throw new InvalidInputException(name() + ".attach.particle", "particle " + particle + " must be pinned "
                    + "(inverse mass 0): the body moves it, the solver must not");
        }
        Check.vector3(name() + ".attach.point", point);
        TriangleBvh bvh = new TriangleBvh(frames[0], triangles);
        TriangleBvh.Query q = new TriangleBvh.Query();
        bvh.closest(point[0], point[1], point[2], Float.POSITIVE_INFINITY, q);
        float[] bary = new float[3];
        barycentric(frames[0], q.triangle, q.x, q.y, q.z, bary);
        attachedParticle.add(particle);
        attachedTriangle.add(q.triangle);
        attachedBary.add(bary[0]);
        attachedBary.add(bary[1]);
        attachedBary.add(bary[2]);
        return this;
    }

    /** Where attachment k is at the current pose (world coordinates) into out. */
    public void attachmentPosition(int k, float[] out) {
        int t = attachedTriangle.get(k);
        float u = attachedBary.get(3 * k);
        float v = attachedBary.get(3 * k + 1);
        float w = attachedBary.get(3 * k + 2);
        int a = 3 * triangles[3 * t];
        int b = 3 * triangles[3 * t + 1];
        int c = 3 * triangles[3 * t + 2];
        for (int d = 0; d < 3; d++) {
            out[d] = u * curPositions[a + d] + v * curPositions[b + d] + w * curPositions[c + d];
        }
    }

    @Override
    public boolean moving() {
        return true;
    }

    @Override
    public void advance(double time, float dt) {
        positionsAt(time, prevPositions);
        positionsAt(time + dt, curPositions);
        prevBvh.refit(prevPositions);
        curBvh.refit(curPositions);
        float max2 = 0f;
        for (int i = 0; i < curPositions.length; i += 3) {
            float dx = curPositions[i] - prevPositions[i];
            float dy = curPositions[i + 1] - prevPositions[i + 1];
            float dz = curPositions[i + 2] - prevPositions[i + 2];
            max2 = Math.max(max2, dx * dx + dy * dy + dz * dz);
        }
        maxVertexStep = (float) Math.sqrt(max2);
    }

    /** Places attached particles at their body points for the pose of the last {@link #advance}. */
    @Override
    public void driveParticles(float[] x) {
        float[] p = attachScratch;
        for (int k = 0; k < attachedParticle.size(); k++) {
            attachmentPosition(k, p);
            int i3 = 3 * attachedParticle.get(k);
            x[i3] = p[0];
            x[i3 + 1] = p[1];
            x[i3 + 2] = p[2];
        }
    }

    /** Unsigned distance to the current surface (a two-sided shell has no inside). */
    @Override
    public float signedDistance(float x, float y, float z) {
        TriangleBvh.Query q = queries.get();
        return curBvh.closest(x, y, z, Float.POSITIVE_INFINITY, q) ? (float) Math.sqrt(q.value)
                : Float.POSITIVE_INFINITY;
    }

    @Override
    public void collide(float[] x, float[] prev, float[] invMass, ParticleSurface surface, int begin, int end) {
        TriangleBvh.Query q = queries.get();
        float[] n = scratch.get();
        for (int i = begin; i < end; i++) {
            if (invMass[i] == 0f) {
                continue;
            }
            int i3 = 3 * i;
            float px = x[i3];
            float py = x[i3 + 1];
            float pz = x[i3 + 2];
            float ax = prev[i3];
            float ay = prev[i3 + 1];
            float az = prev[i3 + 2];
            float mx = px - ax;
            float my = py - ay;
            float mz = pz - az;
            float th = thickness + surface.offset(i);
            float reach = th + maxVertexStep + (float) Math.sqrt(mx * mx + my * my + mz * mz);
            // carry the start along with the nearest surface point of the step's first mesh
            float sx = 0f;
            float sy = 0f;
            float sz = 0f;
            if (maxVertexStep > 0f && prevBvh.closest(ax, ay, az, reach, q)) {
                int t = q.triangle;
                barycentric(prevPositions, t, q.x, q.y, q.z, n);
                int a = 3 * triangles[3 * t];
                int b = 3 * triangles[3 * t + 1];
                int c = 3 * triangles[3 * t + 2];
                sx = n[0] * (curPositions[a] - prevPositions[a]) + n[1] * (curPositions[b] - prevPositions[b])
                        + n[2] * (curPositions[c] - prevPositions[c]);
                sy = n[0] * (curPositions[a + 1] - prevPositions[a + 1]) + n[1] * (curPositions[b + 1]
                        - prevPositions[b + 1]) + n[2] * (curPositions[c + 1] - prevPositions[c + 1]);
                sz = n[0] * (curPositions[a + 2] - prevPositions[a + 2]) + n[1] * (curPositions[b + 2]
                        - prevPositions[b + 2]) + n[2] * (curPositions[c + 2] - prevPositions[c + 2]);
                ax += sx;
                ay += sy;
                az += sz;
            }
            if (curBvh.firstHit(ax, ay, az, px, py, pz, q)) {
                // crossed the surface: back to the side the (carried) start was on, thickness off it
                curBvh.normal(q.triangle, n);
                float side = (ax - q.x) * n[0] + (ay - q.y) * n[1] + (az - q.z) * n[2];
                float s = side >= 0f ? 1f : -1f;
                float nx = s * n[0];
                float ny = s * n[1];
                float nz = s * n[2];
                float depth = th - ((px - q.x) * nx + (py - q.y) * ny + (pz - q.z) * nz);
                respond(x, prev, i3, nx, ny, nz, depth, sx, sy, sz, surface.grip(i));
                continue;
            }
            if (!curBvh.closest(px, py, pz, th, q)) {
                continue;
            }
            float dx = px - q.x;
            float dy = py - q.y;
            float dz = pz - q.z;
            float d = (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
            float nx;
            float ny;
            float nz;
            if (d > 1e-7f) {
                nx = dx / d;
                ny = dy / d;
                nz = dz / d;
            } else {
                curBvh.normal(q.triangle, n);
                float side = (ax - px) * n[0] + (ay - py) * n[1] + (az - pz) * n[2];
                float s = side >= 0f ? 1f : -1f;
                nx = s * n[0];
                ny = s * n[1];
                nz = s * n[2];
            }
            respond(x, prev, i3, nx, ny, nz, th - d, sx, sy, sz, surface.grip(i));
        }
    }

    /** Barycentric coordinates of point p (on or near triangle t of positions v) into out. */
    private void barycentric(float[] v, int t, float px, float py, float pz, float[] out) {
        int a = 3 * triangles[3 * t];
        int b = 3 * triangles[3 * t + 1];
        int c = 3 * triangles[3 * t + 2];
        float e0x = v[b] - v[a], e0y = v[b + 1] - v[a + 1], e0z = v[b + 2] - v[a + 2];
        float e1x = v[c] - v[a], e1y = v[c + 1] - v[a + 1], e1z = v[c + 2] - v[a + 2];
        float e2x = px - v[a], e2y = py - v[a + 1], e2z = pz - v[a + 2];
        float d00 = e0x * e0x + e0y * e0y + e0z * e0z;
        float d01 = e0x * e1x + e0y * e1y + e0z * e1z;
        float d11 = e1x * e1x + e1y * e1y + e1z * e1z;
        float d20 = e2x * e0x + e2y * e0y + e2z * e0z;
        float d21 = e2x * e1x + e2y * e1y + e2z * e1z;
        float den = d00 * d11 - d01 * d01;
        if (!(Math.abs(den) > 1e-30f)) {
            out[0] = 1f;
            out[1] = 0f;
            out[2] = 0f;
            return;
        }
        float v1 = (d11 * d20 - d01 * d21) / den;
        float w1 = (d00 * d21 - d01 * d20) / den;
        out[0] = 1f - v1 - w1;
        out[1] = v1;
        out[2] = w1;
    }
}
