package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueWriteBuffer;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.Grip;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.collide.Projectile;
import dev.weft.core.interact.Blade;
import dev.weft.core.solver.DeviceColliderRecords;
import dev.weft.core.solver.DeviceFeature;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.step.Environment;

/**
 * The environment's colliders on the device for {@code colliders.cl}: their {@link DeviceColliderRecords}
 * (planes and every rigid shape, triangle meshes included, still or moving, and animated meshes, as flat
 * records; a distance field's nodes, a mesh's flattened hierarchy and an animated mesh's topology after them,
 * the animated meshes' vertices and bounds of the step after those) and types in two buffers. The records are
 * uploaded again when they were encoded again; the fields and hierarchies after them
 * only when the colliders are other ones (once a run: not when only the particle surface changed); a moving
 * collider's poses, which the host computes each step as for the CPU solvers ({@code Collider.advance}), are
 * written into the records at the buffer's start before each step, an animated mesh's two meshes of the step
 * (vertices and refitted bounds, also the host's) at the buffer's end.
 *
 * <p>A {@link Grip} that holds pinned particles only (a scene's grips on pinned end layers, {@code
 * rubber-tear}) is the host's alone: the host puts its particles where it is before each step ({@code
 * Environment.advanceColliders}, as for the CPU solvers), the device uploads the state the host changed, and
 * its collider pass would move nothing (pinned particles are skipped), so it is left out of the records. A grip
 * holding free particles is a record ({@code collide_grip}): its particles and their targets of the step, which
 * the host computes as for the CPU, written after the records each step. A {@link Blade} is the host's alone too:
 * it pushes nothing ({@code collide} is empty) and cuts after the frame from the positions the device read back
 * ({@code Simulation}'s topology edits), the device binding the edited model as after a tear.
 *
 * <p>A {@link Projectile} is a record too ({@code collide_ball}): the host flies the ball between steps as for
 * the CPU ({@code Projectile.advance}, which sums the cloth's reaction in particle order, a fixed-order reduction
 * on the host), the device's collider pass writes each particle's reaction into the particle's own slots after
 * the step state; {@link #bind} uploads the projectile's slots (zero after its advance) and {@link
 * #readReactions} reads the pass's slots back into the projectile's own array after the step.
 */
final class DeviceColliders implements AutoCloseable {
    /** How the collider refusals name these solvers. */
    static final String SOLVERS = "the OpenCL solvers";

    private final OpenClContext cl;
    private final DeviceColliderRecords records = new DeviceColliderRecords(SOLVERS, true);
    private long typeMem;
    private long dataMem;
    /** The colliders last given to {@link #bind}, and those of them the device runs (host-only grips left out). */
    private Collider[] given;
    private Collider[] onDevice;
    /** Floats the data buffer holds (records, fields, step state, reaction slots). */
    private long dataFloats;
    /** The bound model's particle count (a projectile's reaction slots are 3 floats a particle). */
    private int particles;

    /**
     * Throws when {@code env} has a collider colliders.cl does not run: anything but a plane, a rigid shape
     * (triangle meshes included), an animated mesh, a drag handle, a grip, a projectile or a blade. Needs no
     * device (the double-precision check needs one: {@link #bind}).
     */
    static void requireSupported(Environment env) {
        for (Collider c : env.colliders()) {
            if (!hostOnly(c)) {
                DeviceColliderRecords.requireSupported(SOLVERS, c, true);
            }
        }
    }

    /**
     * A grip of pinned particles only (driven by the host) or a blade (cuts on the host): nothing for the collider
     * pass (see the class comment).
     */
    static boolean hostOnly(Collider c) {
        return c instanceof Grip g && g.holdsOnlyPinned() || c instanceof Blade;
    }

    /** {@code colliders} without the host-only ones; the array itself where it has none. */
    private static Collider[] withoutHostOnly(Collider[] colliders) {
        int kept = 0;
        for (Collider c : colliders) {
            kept += hostOnly(c) ? 0 : 1;
        }
        if (kept == colliders.length) {
            return colliders;
        }
        Collider[] out = new Collider[kept];
        int k = 0;
        for (Collider c : colliders) {
            if (!hostOnly(c)) {
                out[k++] = c;
            }
        }
        return out;
    }

    /**
     * Throws when {@code device} has no double precision and a collider needs it: the ellipsoid's and the
     * funnel's distances are computed in double on the CPU, and so in colliders.cl.
     */
    static void requireDoubles(OpenClDevice device, Collider[] colliders) {
        if (device.fp64()) {
            return;
        }
        for (Collider c : colliders) {
            if (DeviceColliderRecords.needsDoubles(c)) {
                throw new UnsupportedOnDeviceException(DeviceFeature.COLLIDER, c.name(), "is a "
                        + c.getClass().getSimpleName() + ", whose distance the CPU computes in double, and "
                        + device.deviceName() + " has no double precision (cl_khr_fp64; `weft devices` says which "
                        + "devices have it); use the cpu backend");
            }
        }
    }

    DeviceColliders(OpenClContext cl) {
        this.cl = cl;
    }

    /**
     * Encodes and uploads {@code colliders} for a model of {@code n} particles unless they are what the buffers
     * hold, then writes the moving ones' poses (and a projectile's reaction slots); true when it made new buffers,
     * so the kernels' buffer arguments must be set again. Refuses colliders the kernels do not know, and those
     * computed in double on a device without double precision.
     */
    boolean bind(Collider[] colliders, ParticleSurface surface, int n) {
        if (colliders != given) { // a new environment's array: filtered once, so the records see the same array
            given = colliders;
            onDevice = withoutHostOnly(colliders);
        }
        requireDoubles(cl.device(), onDevice);
        particles = n;
        if (!records.encode(onDevice, surface, n)) {
            if (records.refreshPoses()) {
                ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), dataMem, true, 0L, records.records(), null, null),
                        "write collider poses");
                writeStepState();
            }
            writeReactions();
            return false;
        }
        float[] data = records.records();
        float[] fields = records.fields();
        float[] step = records.stepState();
        long floats = (long) records.reactionsAt() + 3L * n * records.projectiles().length;
        if (!records.fieldsChanged() && dataMem != 0L && floats == dataFloats) {
            // the same colliders for another particle surface: new reaches in the records, the same fields
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), dataMem, true, 0L, data, null, null), "write colliders");
            writeStepState();
            writeReactions();
            return false;
        }
        OpenClContext.releaseAll(typeMem, dataMem);
        typeMem = dataMem = 0L;
        typeMem = cl.upload(records.types());
        if (floats == data.length) {
            dataMem = cl.upload(data);
        } else {
            // the distance fields' nodes and the meshes' hierarchies right after the records, where the records
            // say; the animated meshes' and grips' step state after them, the projectiles' reaction slots last
            dataMem = cl.buffer(4L * floats);
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), dataMem, true, 0L, data, null, null), "write colliders");
            if (fields.length > 0) {
                ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), dataMem, true, 4L * data.length, fields, null, null),
                        "write distance fields and meshes");
            }
            if (step.length > 0) {
                writeStepState();
            }
            writeReactions();
        }
        dataFloats = floats;
        return true;
    }

    /** Uploads each projectile's reaction slots as the host holds them (zero after its advance, as on the CPU). */
    private void writeReactions() {
        Projectile[] balls = records.projectiles();
        for (int k = 0; k < balls.length; k++) {
            float[] slots = balls[k].reactionSlots(3 * particles);
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), dataMem, true, 4L * reactionsAt(k), slots, null, null),
                    "write projectile reactions");
        }
    }

    /**
     * Reads each projectile's reaction slots, as the device's collider passes left them, into the projectile's
     * own array (blocking), so its next advance sums them as the CPU's does. Nothing without projectiles.
     */
    void readReactions(float[] invMass) {
        Projectile[] balls = records.projectiles();
        for (int k = 0; k < balls.length; k++) {
            balls[k].useInverseMasses(invMass); // which slots are pinned particles' pushes, as the CPU pass records
            float[] slots = balls[k].reactionSlots(3 * particles);
            ClCheck.ok(clEnqueueReadBuffer(cl.queue(), dataMem, true, 4L * reactionsAt(k), slots, null, null),
                    "read projectile reactions");
        }
    }

    /** Whether the bound colliders hold a projectile. */
    boolean hasProjectiles() {
        return records.projectiles().length > 0;
    }

    /** Where projectile {@code k}'s slots start in the data buffer (floats). */
    private long reactionsAt(int k) {
        return records.reactionsAt() + 3L * particles * k;
    }

    /** Writes the animated meshes' step state (their two meshes of this step) after the records and fields. */
    private void writeStepState() {
        float[] step = records.stepState();
        if (step.length > 0) {
            long at = 4L * (records.records().length + records.fields().length);
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), dataMem, true, at, step, null, null), "write animated meshes");
        }
    }

    int count() {
        return records.count();
    }

    /** The int buffer of collider types (COLLIDER_PLANE, COLLIDER_SPHERE, COLLIDER_BOX, ...). */
    long typeMem() {
        return typeMem;
    }

    /** The float buffer of STRIDE-float records. */
    long dataMem() {
        return dataMem;
    }

    @Override
    public void close() {
        OpenClContext.releaseAll(typeMem, dataMem);
        typeMem = dataMem = 0L;
        dataFloats = 0L;
        records.forget();
        given = onDevice = null;
    }
}
