package dev.weft.core.collide;

import dev.weft.core.geom.TriangleBvh;
import dev.weft.core.geom.TriangleClosestPoint;
import dev.weft.core.mesh.TriangleMesh;

/**
 * A triangle mesh that need not be closed (a terrain patch, a table top, a sail's mast cover),
 * two-sided: particles stay {@code thickness} away on whichever side they are. As a
 * {@link RigidCollider} shell it can be posed and moved, and each particle's path relative to the
 * mesh is swept against it (conservative advancement on the distance from a {@link TriangleBvh}), so
 * fast particles or a fast mesh do not tunnel through thin surfaces.
 */
public final class MeshCollider extends RigidCollider {
    private final TriangleMesh mesh;
    private final TriangleBvh bvh;
    private final float bound;
    private final ThreadLocal<TriangleBvh.Query> queries = ThreadLocal.withInitial(TriangleBvh.Query::new);
    private final ThreadLocal<float[]> faceNormals = ThreadLocal.withInitial(() -> new float[3]);

    public MeshCollider(String name, TriangleMesh mesh, float thickness, float friction) {
        super(name, new float[3], true, thickness, friction);
        this.mesh = mesh;
        this.bvh = new TriangleBvh(mesh.positions(), mesh.triangles());
        float[] v = mesh.positions();
        float b2 = 0f;
        for (int i = 0; i < v.length; i += 3) {
            b2 = Math.max(b2, v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2]);
        }
        bound = (float) Math.sqrt(b2);
    }

    /** The surface this collider keeps particles off, in its body frame (for drawing it; do not modify). */
    public TriangleMesh mesh() {
        return mesh;
    }

    /**
     * The triangle hierarchy this collider queries, flattened for a device ({@link TriangleBvh#writeFlat}: nodes,
     * then triangle slots with corners and face normals) at {@code out[at]}; {@link #hierarchySize()} floats.
     */
    public void writeHierarchy(float[] out, int at) {
        bvh.writeFlat(out, at);
    }

    /** Floats {@link #writeHierarchy} writes. */
    public int hierarchySize() {
        return bvh.flatSize();
    }

    /** Where the triangle slots start in {@link #writeHierarchy}'s floats, counted from its first. */
    public int hierarchyTrianglesAt() {
        return TriangleBvh.FLAT_NODE * bvh.nodeCount();
    }

    /** The hierarchy's depth ({@link TriangleBvh#depth}): a query's stack holds at most one more node. */
    public int hierarchyDepth() {
        return bvh.depth();
    }

    @Override
    public float boundingRadius() {
        return bound;
    }

    @Override
    protected boolean convex() {
        return false;
    }

    /**
     * Distance to the closest triangle, signed by the side of that triangle's face (its
     * counter-clockwise normal is +); n points from the closest point towards the + side.
     */
    @Override
    protected float localDistance(float x, float y, float z, float[] n) {
        TriangleBvh.Query q = queries.get();
        float[] fn = faceNormals.get();
        bvh.closest(x, y, z, Float.POSITIVE_INFINITY, q);
        bvh.normal(q.triangle, fn);
        float dx = x - q.x;
        float dy = y - q.y;
        float dz = z - q.z;
        float d = (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
        float s = dx * fn[0] + dy * fn[1] + dz * fn[2] >= 0f ? 1f : -1f;
        if (q.region != TriangleClosestPoint.FACE && d > 1e-7f) {
            // beyond an edge or corner the direction from the closest point is the normal (over a
            // face it is the face normal, which p - c only approximates close to the surface)
            n[0] = s * dx / d;
            n[1] = s * dy / d;
            n[2] = s * dz / d;
        } else {
            n[0] = fn[0];
            n[1] = fn[1];
            n[2] = fn[2];
        }
        return s * d;
    }
}
