package dev.weft.core.collide;

import dev.weft.core.geom.TriangleBvh;
import dev.weft.core.mesh.TriangleMesh;

/**
 * A static triangle mesh that need not be closed (a terrain patch, a table top, a sail's mast
 * cover), two-sided: particles stay {@code thickness} away on whichever side they came from. A
 * particle whose step crosses a triangle is caught at the crossing (a swept test over a
 * {@link TriangleBvh}), so fast particles do not tunnel through thin surfaces.
 */
public final class MeshCollider extends Collider {
    private final TriangleMesh mesh;
    private final TriangleBvh bvh;
    private final ThreadLocal<TriangleBvh.Query> queries = ThreadLocal.withInitial(TriangleBvh.Query::new);
    private final ThreadLocal<float[]> normals = ThreadLocal.withInitial(() -> new float[3]);

    public MeshCollider(String name, TriangleMesh mesh, float thickness, float friction) {
        super(name, thickness, friction);
        this.mesh = mesh;
        this.bvh = new TriangleBvh(mesh.positions(), mesh.triangles());
    }

    /** The surface this collider keeps particles off (for drawing it; do not modify). */
    public TriangleMesh mesh() {
        return mesh;
    }

    /** Unsigned distance to the surface (a two-sided shell has no inside). */
    @Override
    public float signedDistance(float x, float y, float z) {
        TriangleBvh.Query q = queries.get();
        return bvh.closest(x, y, z, Float.POSITIVE_INFINITY, q) ? (float) Math.sqrt(q.value) : Float.POSITIVE_INFINITY;
    }

    @Override
    public void collide(float[] x, float[] prev, float[] invMass, int begin, int end) {
        TriangleBvh.Query q = queries.get();
        float[] n = normals.get();
        for (int i = begin; i < end; i++) {
            if (invMass[i] == 0f) {
                continue;
            }
            int i3 = 3 * i;
            float px = x[i3];
            float py = x[i3 + 1];
            float pz = x[i3 + 2];
            if (bvh.firstHit(prev[i3], prev[i3 + 1], prev[i3 + 2], px, py, pz, q)) {
                // Crossed a triangle this step: back to the side it came from, thickness off the surface.
                bvh.normal(q.triangle, n);
                float side = (prev[i3] - q.x) * n[0] + (prev[i3 + 1] - q.y) * n[1] + (prev[i3 + 2] - q.z) * n[2];
                float s = side >= 0f ? 1f : -1f;
                float nx = s * n[0];
                float ny = s * n[1];
                float nz = s * n[2];
                // depth along the normal from the current (crossed) position to the shell
                float depth = thickness - ((px - q.x) * nx + (py - q.y) * ny + (pz - q.z) * nz);
                respond(x, prev, i3, nx, ny, nz, depth);
                continue;
            }
            if (!bvh.closest(px, py, pz, thickness, q)) {
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
                // exactly on the surface: leave towards the side of the step's start
                bvh.normal(q.triangle, n);
                float side = (prev[i3] - px) * n[0] + (prev[i3 + 1] - py) * n[1] + (prev[i3 + 2] - pz) * n[2];
                float s = side >= 0f ? 1f : -1f;
                nx = s * n[0];
                ny = s * n[1];
                nz = s * n[2];
            }
            respond(x, prev, i3, nx, ny, nz, thickness - d);
        }
    }
}
