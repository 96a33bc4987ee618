package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.geom.TriangleBvh;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.parallel.WorkerPool;
import java.util.Locale;

/**
 * A signed distance field sampled on a regular grid (negative inside), with trilinear lookup and the
 * gradient of that interpolant. Built from a closed, consistently oriented triangle mesh: distances
 * from a {@link TriangleBvh} closest-point query, signs from angle-weighted pseudonormals (Bærentzen
 * and Aanæs 2005), which are exact for any closed mesh, unlike ray parity near edges and corners.
 */
public final class SignedDistanceField {
    /** Grids larger than this are refused: at 4 bytes a node that is 256 MiB. */
    public static final long MAX_NODES = 64L << 20;
    /** The build splits over rows of nodes once there are this many (two rows per thread of a 2-core machine). */
    static final int MIN_PARALLEL_ROWS = 4;

    private final int nx;
    private final int ny;
    private final int nz;
    private final float ox;
    private final float oy;
    private final float oz;
    private final float cell;
    private final float[] phi;

    SignedDistanceField(int nx, int ny, int nz, float ox, float oy, float oz, float cell, float[] phi) {
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        this.ox = ox;
        this.oy = oy;
        this.oz = oz;
        this.cell = cell;
        this.phi = phi;
    }

    /** Radius of the ball about the origin that holds the whole grid. */
    public float boundingRadius() {
        float best = 0f;
        for (int c = 0; c < 8; c++) {
            float x = ox + ((c & 1) != 0 ? (nx - 1) * cell : 0f);
            float y = oy + ((c & 2) != 0 ? (ny - 1) * cell : 0f);
            float z = oz + ((c & 4) != 0 ? (nz - 1) * cell : 0f);
            best = Math.max(best, (float) Math.sqrt(x * x + y * y + z * z));
        }
        return best;
    }

    public float cellSize() {
        return cell;
    }

    public int[] dimensions() {
        return new int[] {nx, ny, nz};
    }

    /** The sampled distances, x fastest then y then z (a copy). */
    float[] nodeValues() {
        return phi.clone();
    }

    /** The grid's first node (the corner with the smallest coordinates), in the body frame (a copy). */
    public float[] origin() {
        return new float[] {ox, oy, oz};
    }

    /** How many nodes the grid has (nx · ny · nz). */
    public int nodeCount() {
        return phi.length;
    }

    /** Copies the sampled distances, x fastest then y then z, into {@code out[at..]} (a device uploads them). */
    public void writeNodeValues(float[] out, int at) {
        System.arraycopy(phi, 0, out, at, phi.length);
    }

    /**
     * Samples the distance to {@code mesh} on a grid of {@code cellSize} covering its bounds plus
     * {@code margin} on every side.
     *
     * @param source names the mesh in error messages (a file name)
     * @param pool   threads for the build (a run of x-rows of nodes per chunk)
     */
    public static SignedDistanceField fromClosedMesh(TriangleMesh mesh, String source, float cellSize, float margin,
                                                     WorkerPool pool) {
        if (!(cellSize > 0f) || !Float.isFinite(cellSize)) {
            throw new InvalidInputException(source + ": cellSize", "must be a finite number > 0, got " + cellSize);
        }
        if (!(margin >= 0f) || !Float.isFinite(margin)) {
            throw new InvalidInputException(source + ": margin", "must be a finite number >= 0, got " + margin);
        }
        float[] v = mesh.positions();
        int[] tris = mesh.triangles();
        float[] normals = MeshPseudonormals.of(v, tris, source);
        float[] lo = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY};
        float[] hi = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
        for (int i = 0; i < v.length; i++) {
            lo[i % 3] = Math.min(lo[i % 3], v[i]);
            hi[i % 3] = Math.max(hi[i % 3], v[i]);
        }
        int[] n = new int[3];
        long total = 1;
        for (int k = 0; k < 3; k++) {
            lo[k] -= margin;
            hi[k] += margin;
            n[k] = (int) Math.ceil((hi[k] - lo[k]) / cellSize) + 1;
            total *= n[k];
        }
        if (total > MAX_NODES) {
            throw new InvalidInputException(source + ": cellSize", String.format(Locale.ROOT,
                    "%.4g m gives a %d x %d x %d grid, more than %d nodes; use a larger cell", cellSize, n[0], n[1],
                    n[2], MAX_NODES));
        }
        TriangleBvh bvh = new TriangleBvh(v, tris);
        float[] phi = new float[(int) total];
        int sx = n[0];
        int sy = n[1];
        float x0 = lo[0];
        float y0 = lo[1];
        float z0 = lo[2];
        // One item per row of nodes along x (row k * sy + j), not per z-slice: a node is a BVH query
        // of microseconds, so a row is worth more than a dispatch, and a grid of a few slices splits
        // too. Every node is computed alone from the same inputs: the same bits for any split.
        pool.parallelFor(0, n[2] * sy, MIN_PARALLEL_ROWS, (begin, end) -> {
            TriangleBvh.Query q = new TriangleBvh.Query();
            for (int row = begin; row < end; row++) {
                int j = row % sy;
                int k = row / sy;
                for (int i = 0; i < sx; i++) {
                    float px = x0 + i * cellSize;
                    float py = y0 + j * cellSize;
                    float pz = z0 + k * cellSize;
                    bvh.closest(px, py, pz, Float.POSITIVE_INFINITY, q);
                    float d = (float) Math.sqrt(q.value);
                    float sign = MeshPseudonormals.side(normals, tris, q.triangle, q.region, px - q.x, py - q.y,
                            pz - q.z);
                    phi[row * sx + i] = sign * d;
                }
            }
        });
        return new SignedDistanceField(n[0], n[1], n[2], x0, y0, z0, cellSize, phi);
    }

    /**
     * Trilinear distance at p; the interpolant's gradient goes into {@code grad}. Outside the grid
     * the value at the nearest grid point plus the distance to it (an upper bound on the true
     * distance, so a far particle never counts as touching).
     */
    public float sample(float x, float y, float z, float[] grad) {
        float gx = (x - ox) / cell;
        float gy = (y - oy) / cell;
        float gz = (z - oz) / cell;
        float cx = Math.max(0f, Math.min(nx - 1, gx));
        float cy = Math.max(0f, Math.min(ny - 1, gy));
        float cz = Math.max(0f, Math.min(nz - 1, gz));
        int i = Math.min((int) cx, nx - 2);
        int j = Math.min((int) cy, ny - 2);
        int k = Math.min((int) cz, nz - 2);
        float fx = cx - i;
        float fy = cy - j;
        float fz = cz - k;
        int base = (k * ny + j) * nx + i;
        int sy = nx;
        int sz = nx * ny;
        float c000 = phi[base];
        float c100 = phi[base + 1];
        float c010 = phi[base + sy];
        float c110 = phi[base + sy + 1];
        float c001 = phi[base + sz];
        float c101 = phi[base + sz + 1];
        float c011 = phi[base + sz + sy];
        float c111 = phi[base + sz + sy + 1];
        float c00 = c000 + fx * (c100 - c000);
        float c10 = c010 + fx * (c110 - c010);
        float c01 = c001 + fx * (c101 - c001);
        float c11 = c011 + fx * (c111 - c011);
        float c0 = c00 + fy * (c10 - c00);
        float c1 = c01 + fy * (c11 - c01);
        float value = c0 + fz * (c1 - c0);
        float ex = (gx - cx) * cell;
        float ey = (gy - cy) * cell;
        float ez = (gz - cz) * cell;
        float outside2 = ex * ex + ey * ey + ez * ez;
        if (outside2 > 0f) {
            float outside = (float) Math.sqrt(outside2);
            grad[0] = ex / outside;
            grad[1] = ey / outside;
            grad[2] = ez / outside;
            return value + outside;
        }
        float dx0 = (c100 - c000) + fy * ((c110 - c010) - (c100 - c000));
        float dx1 = (c101 - c001) + fy * ((c111 - c011) - (c101 - c001));
        grad[0] = (dx0 + fz * (dx1 - dx0)) / cell;
        grad[1] = (c10 - c00 + fz * ((c11 - c01) - (c10 - c00))) / cell;
        grad[2] = (c1 - c0) / cell;
        return value;
    }
}
