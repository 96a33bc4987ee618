package dev.weft.opencl;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.solver.DeviceColliderRecords;
import dev.weft.core.solver.DeviceRefusals;
import dev.weft.core.step.Environment;

/**
 * The environment's colliders on the device for {@code colliders.cl}: their {@link DeviceColliderRecords}
 * (still planes, spheres, boxes, capsules and cylinders as flat records, other and moving colliders refused
 * by name) and types in
 * two buffers, uploaded again only when the records were encoded again.
 */
final class DeviceColliders implements AutoCloseable {
    /** How the collider refusals name these solvers. */
    static final String SOLVERS = "the OpenCL solvers";

    private final OpenClContext cl;
    private final DeviceColliderRecords records = new DeviceColliderRecords(SOLVERS, true);
    private long typeMem;
    private long dataMem;

    /**
     * Throws when {@code env} has a collider colliders.cl does not run: anything but still planes, spheres,
     * boxes, capsules and cylinders. Needs no device.
     */
    static void requireSupported(Environment env) {
        DeviceRefusals.requireSupportedColliders(SOLVERS, env, true);
    }

    DeviceColliders(OpenClContext cl) {
        this.cl = cl;
    }

    /**
     * Encodes and uploads {@code colliders} unless they are what the buffers hold; true when it uploaded,
     * so the kernels' buffer arguments must be set again. Refuses colliders the kernels do not know.
     */
    boolean bind(Collider[] colliders, ParticleSurface surface) {
        if (!records.encode(colliders, surface)) {
            return false;
        }
        OpenClContext.releaseAll(typeMem, dataMem);
        typeMem = dataMem = 0L;
        typeMem = cl.upload(records.types());
        dataMem = cl.upload(records.records());
        return true;
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
        records.forget();
    }
}
