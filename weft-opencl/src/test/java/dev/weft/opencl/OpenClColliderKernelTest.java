package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueWriteBuffer;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.EllipsoidCollider;
import dev.weft.core.collide.Icosphere;
import dev.weft.core.collide.MeshCollider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.testing.DeviceTestScenes;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;

/**
 * colliders.cl's {@code collide_all} against {@link Collider#collide} particle by particle: for each rigid shape
 * the OpenCL solvers run (the ellipsoid, also with equal semi-axes; the funnel; the rectangle; a distance field;
 * triangle meshes: a tilted box, an icosphere of 1,280 triangles whose hierarchy is 9 levels deep, a moving
 * low-poly ball; an animated mesh (two frames of a ball, rising and squashing) between its frames; moving bodies
 * at a pose between keys), 20,000 random steps from a start point to an end point in and around
 * it, many crossing the surface within the step (the swept test), starting inside (a solid's projection, a
 * shell's side), grazing, or ending near the surface (friction). On a device with the CPU's rounding (PoCL)
 * every resulting coordinate has the CPU's bits; elsewhere within 1e-5 m (a few float roundings of a 1 m
 * coordinate through the distance's iteration). A probe that moved few particles would test little: at least
 * a twentieth of them (1,000) must be moved.
 */
class OpenClColliderKernelTest {
    private static final int PARTICLES = 20_000;

    @Test
    void everyShapeMovesEveryParticleAsTheCpuDoes() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        RigidCollider box = DeviceTestScenes.keyframedBox();
        box.advance(0.13, 1f / 60f); // between keys: translation and slerp, and a turn within the step
        RigidCollider ball = DeviceTestScenes.risingBall();
        ball.advance(0.05, 1f / 30f);
        RigidCollider meshBall = DeviceTestScenes.risingMeshBall();
        meshBall.advance(0.05, 1f / 30f);
        MeshCollider fineBall = new MeshCollider("fineMeshBall", Icosphere.of(0.2f, 3), 0.004f, 0.4f);
        fineBall.withPosition(new float[] {0.1f, 0.3f, -0.05f}).withOrientation(DeviceTestScenes.tilt());
        assertThat(fineBall.hierarchyDepth()).as("levels the device's stack goes down").isEqualTo(9);
        Collider animated = DeviceTestScenes.risingAnimatedBall();
        animated.advance(0.07, 1f / 30f); // between the frames: both meshes of the step moved and squashed
        List<Collider> colliders = List.of(DeviceTestScenes.tiltedEgg(), new EllipsoidCollider("round",
                new float[] {0.1f, 0.2f, 0f}, new float[] {0.2f, 0.2f, 0.12f}, 0.004f, 0.5f), DeviceTestScenes.funnel(),
                DeviceTestScenes.tiltedBoard(), DeviceTestScenes.tiltedFieldBox(), DeviceTestScenes.tiltedMeshBox(),
                fineBall, box, ball, meshBall, animated);
        try (OpenClContext cl = new OpenClContext(device)) {
            long program = cl.buildSolver("collider_probe.cl", "");
            long kernel = cl.kernel(program, "probe_collide");
            for (Collider c : colliders) {
                float[] prev = new float[3 * PARTICLES];
                float[] x = new float[3 * PARTICLES];
                scatter(c, new SplittableRandom(17), prev, x);
                float[] cpu = x.clone();
                float[] invMass = new float[PARTICLES];
                Arrays.fill(invMass, 1f);
                c.collide(cpu, prev, invMass, 0, PARTICLES);
                float[] gpu = run(cl, kernel, c, prev, x);
                int moved = 0;
                float worst = 0f;
                int differing = 0;
                for (int k = 0; k < x.length; k++) {
                    if (Float.floatToRawIntBits(cpu[k]) != Float.floatToRawIntBits(gpu[k])) {
                        differing++;
                    }
                    worst = Math.max(worst, Math.abs(cpu[k] - gpu[k]));
                }
                for (int i = 0; i < PARTICLES; i++) {
                    if (cpu[3 * i] != x[3 * i] || cpu[3 * i + 1] != x[3 * i + 1] || cpu[3 * i + 2] != x[3 * i + 2]) {
                        moved++;
                    }
                }
                System.out.printf("%s (%s): %d of %d particles moved, %d coordinates with other bits, worst %.3g m%n",
                        c.name(), c.getClass().getSimpleName(), moved, PARTICLES, differing, worst);
                assertThat(moved).as(c.name() + ": particles the collider moved").isGreaterThan(PARTICLES / 20);
                assertThat(worst).as(c.name()).isLessThanOrEqualTo(1e-5f);
                if (OpenClAvailable.isPocl(device)) {
                    assertThat(differing).as(c.name() + ": coordinates with other bits than the CPU's").isZero();
                }
            }
        }
    }

    /**
     * Start points in a box 1.1 bounding radii about the body, end points a random step away: a fifth of them
     * short (within the thickness's reach: friction, grazing), the rest up to a bounding radius (crossing).
     */
    private static void scatter(Collider c, SplittableRandom rnd, float[] prev, float[] x) {
        float[] centre;
        float r;
        if (c instanceof RigidCollider rigid) {
            centre = rigid.position();
            r = rigid.boundingRadius();
        } else {
            // an animated mesh: about its current vertices' box, its half diagonal
            AnimatedMeshCollider a = (AnimatedMeshCollider) c;
            float[] v = new float[3 * a.vertexCount()];
            a.currentPositions(v);
            float[] lo = {Float.MAX_VALUE, Float.MAX_VALUE, Float.MAX_VALUE};
            float[] hi = {-Float.MAX_VALUE, -Float.MAX_VALUE, -Float.MAX_VALUE};
            for (int k = 0; k < v.length; k++) {
                lo[k % 3] = Math.min(lo[k % 3], v[k]);
                hi[k % 3] = Math.max(hi[k % 3], v[k]);
            }
            centre = new float[3];
            float r2 = 0f;
            for (int k = 0; k < 3; k++) {
                centre[k] = 0.5f * (lo[k] + hi[k]);
                r2 += 0.25f * (hi[k] - lo[k]) * (hi[k] - lo[k]);
            }
            r = (float) Math.sqrt(r2);
        }
        for (int i = 0; i < PARTICLES; i++) {
            float step = i % 5 == 0 ? 0.02f : r;
            for (int a = 0; a < 3; a++) {
                float p = centre[a] + (float) (rnd.nextDouble(-1.1, 1.1) * r);
                prev[3 * i + a] = p;
                x[3 * i + a] = p + (float) (rnd.nextDouble(-1, 1) * step);
            }
        }
    }

    /** The probe kernel on these particles; returns the device's end points. */
    private static float[] run(OpenClContext cl, long kernel, Collider c, float[] prev, float[] x) {
        dev.weft.core.solver.DeviceColliderRecords records = new dev.weft.core.solver.DeviceColliderRecords(
                DeviceColliders.SOLVERS, true);
        records.encode(new Collider[] {c}, ParticleSurface.PLAIN);
        float[] data = records.records();
        float[] fields = records.fields();
        float[] step = records.stepState();
        long types = cl.upload(records.types());
        long colliderMem = cl.buffer(4L * (data.length + fields.length + step.length));
        long prevMem = cl.upload(prev);
        long xMem = cl.buffer(4L * x.length);
        float[] out = x.clone();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), colliderMem, true, 0L, data, null, null), "records");
            if (fields.length > 0) {
                ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), colliderMem, true, 4L * data.length, fields, null, null),
                        "fields");
            }
            if (step.length > 0) {
                ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), colliderMem, true, 4L * (data.length + fields.length),
                        step, null, null), "step state");
            }
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), xMem, true, 0L, x, null, null), "x");
            clSetKernelArg1i(kernel, 0, PARTICLES);
            clSetKernelArg1i(kernel, 1, records.count());
            clSetKernelArg1p(kernel, 2, types);
            clSetKernelArg1p(kernel, 3, colliderMem);
            clSetKernelArg1p(kernel, 4, prevMem);
            clSetKernelArg1p(kernel, 5, xMem);
            PointerBuffer size = stack.mallocPointer(1).put(0, PARTICLES);
            ClCheck.ok(clEnqueueNDRangeKernel(cl.queue(), kernel, 1, null, size, null, null, null), "probe_collide");
            ClCheck.ok(clEnqueueReadBuffer(cl.queue(), xMem, true, 0L, out, null, null), "read x");
        } finally {
            OpenClContext.releaseAll(types, colliderMem, prevMem, xMem);
        }
        return out;
    }
}
