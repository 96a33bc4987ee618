package dev.weft.render.compute;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.solver.DeviceColliderRecords;

/**
 * The environment's colliders in two storage buffers for {@code colliders.glsl}: their {@link
 * DeviceColliderRecords} (the still plane and sphere as flat records, other and moving colliders refused
 * by name), uploaded again only when the records were encoded again.
 */
final class GlslColliders {
    /** How the collider refusals name these solvers. */
    static final String SOLVERS = "the GLSL compute solvers";

    private final ComputeContext gl;
    private final DeviceColliderRecords records = new DeviceColliderRecords(SOLVERS);
    private int typeBuffer;
    private int dataBuffer;

    GlslColliders(ComputeContext gl) {
        this.gl = gl;
    }

    /**
     * Encodes and uploads {@code colliders} unless they are what the buffers hold. Refuses colliders the
     * shaders do not know.
     */
    void bind(Collider[] colliders, ParticleSurface surface) {
        if (!records.encode(colliders, surface)) {
            if (records.refreshPoses()) { // a hand's target and held flag, as of this step
                ComputeContext.write(dataBuffer, records.records());
            }
            return;
        }
        gl.delete(typeBuffer, dataBuffer);
        typeBuffer = gl.upload(records.types(), GlslSolver.COLLIDER_TYPES);
        dataBuffer = gl.upload(records.records(), GlslSolver.COLLIDER_RECORDS);
    }

    /** How many colliders the buffers hold (the shaders' colliderCount). */
    int count() {
        return records.count();
    }

    void release() {
        gl.delete(typeBuffer, dataBuffer);
        typeBuffer = dataBuffer = 0;
        records.forget();
    }
}
