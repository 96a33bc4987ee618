package dev.weft.opencl;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleSurface;
import java.util.Arrays;

/**
 * The environment's colliders on the device for {@code colliders.cl}: their {@link OpenClColliders}
 * records and types in two buffers, encoded and uploaded again only when the environment's collider
 * array (an {@code Environment} keeps its array, so a run encodes once) or the model's particle
 * surface (a sphere's reach grows by the largest particle offset) is another one.
 */
final class DeviceColliders implements AutoCloseable {
    private final OpenClContext cl;
    private Collider[] encoded;
    private ParticleSurface encodedFor;
    private int count;
    private int[] type = new int[1];
    private float[] data = new float[OpenClColliders.STRIDE];
    private long typeMem;
    private long dataMem;

    DeviceColliders(OpenClContext cl) {
        this.cl = cl;
    }

    /**
     * Encodes and uploads {@code colliders} unless they are what the buffers hold; true when it uploaded,
     * so the kernels' buffer arguments must be set again. Refuses colliders the kernels do not know.
     */
    boolean bind(Collider[] colliders, ParticleSurface surface) {
        if (colliders == encoded && surface == encodedFor) {
            return false;
        }
        for (Collider c : colliders) {
            OpenClColliders.requireSupported(c);
        }
        int slots = Math.max(1, colliders.length);
        if (type.length < slots) {
            type = new int[slots];
            data = new float[OpenClColliders.STRIDE * slots];
        }
        Arrays.fill(data, 0f);
        for (int c = 0; c < colliders.length; c++) {
            OpenClColliders.encode(colliders[c], surface, c, type, data);
        }
        OpenClContext.releaseAll(typeMem, dataMem);
        typeMem = dataMem = 0L;
        typeMem = cl.upload(type);
        dataMem = cl.upload(data);
        count = colliders.length;
        encoded = colliders;
        encodedFor = surface;
        return true;
    }

    int count() {
        return count;
    }

    /** The int buffer of collider types (COLLIDER_PLANE, COLLIDER_SPHERE). */
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
        encoded = null;
        encodedFor = null;
    }
}
