package dev.weft.core.model;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.SignedDistanceField;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.parallel.WorkerPool;
import java.util.Locale;

/**
 * The voxels of a closed mesh (seed 001 §5.3.1): the mesh's signed distance sampled at the centres of a
 * grid of cubes of edge h over its bounds, a particle wherever the centre is inside (negative). Holds
 * each voxel's particle (local index, or −1) for the neighbour constraints and the surface.
 */
final class VoxelLattice {
    /** Voxel centres along x, y, z. */
    final int nx;
    final int ny;
    final int nz;
    final float h;
    /** Centre of voxel (0, 0, 0). */
    final float x0;
    final float y0;
    final float z0;
    /** Local particle index of voxel (i, j, k) at i + nx (j + ny k), −1 for none. */
    final int[] particle;
    /** The voxel of each particle: i, j, k. */
    final int[] cell;
    final int count;

    private VoxelLattice(int nx, int ny, int nz, float h, float x0, float y0, float z0, int[] particle, int[] cell,
                         int count) {
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        this.h = h;
        this.x0 = x0;
        this.y0 = y0;
        this.z0 = z0;
        this.particle = particle;
        this.cell = cell;
        this.count = count;
    }

    static VoxelLattice of(VoxelBodySpec s) {
        TriangleMesh mesh = s.surface();
        float h = s.voxelSize();
        float[] v = mesh.positions();
        float[] lo = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY};
        float[] hi = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
        for (int i = 0; i < v.length; i++) {
            lo[i % 3] = Math.min(lo[i % 3], v[i]);
            hi[i % 3] = Math.max(hi[i % 3], v[i]);
        }
        // voxel centres at lo + (i + 1/2) h, as many as the bounds hold
        int[] n = new int[3];
        long total = 1;
        for (int d = 0; d < 3; d++) {
            // (a hair over, so a 0.3 m side of 0.05 m voxels holds 6, not 5.999...)
            n[d] = Math.max(1, (int) Math.floor((hi[d] - lo[d]) / (double) h * (1 + 1e-6)));
            total *= n[d];
        }
        if (total > SignedDistanceField.MAX_NODES) {
            throw new InvalidInputException(s.name() + ".voxelSize", String.format(Locale.ROOT,
                    "%.4g m gives %d x %d x %d voxels, more than %d; use larger voxels", h, n[0], n[1], n[2],
                    SignedDistanceField.MAX_NODES));
        }
        float[] c0 = new float[3];
        for (int d = 0; d < 3; d++) {
            // centre the grid in the bounds, so a body's voxels sit symmetrically in it
            c0[d] = 0.5f * (lo[d] + hi[d]) - 0.5f * (n[d] - 1) * h;
        }
        SignedDistanceField field;
        try (WorkerPool pool = new WorkerPool(1)) {
            field = SignedDistanceField.fromClosedMesh(mesh, s.name() + ".surface", h, h, pool);
        }
        int[] particle = new int[(int) total];
        int[] cell = new int[3 * (int) total];
        int count = 0;
        float[] grad = new float[3];
        for (int k = 0; k < n[2]; k++) {
            for (int j = 0; j < n[1]; j++) {
                for (int i = 0; i < n[0]; i++) {
                    int at = i + n[0] * (j + n[1] * k);
                    boolean inside = field.sample(c0[0] + i * h, c0[1] + j * h, c0[2] + k * h, grad) < 0f;
                    particle[at] = inside ? count : -1;
                    if (inside) {
                        cell[3 * count] = i;
                        cell[3 * count + 1] = j;
                        cell[3 * count + 2] = k;
                        count++;
                    }
                }
            }
        }
        if (count == 0) {
            throw new InvalidInputException(s.name() + ".voxelSize", String.format(Locale.ROOT,
                    "no voxel centre of %.4g m lies inside the surface (is it closed, and larger than a voxel?)", h));
        }
        return new VoxelLattice(n[0], n[1], n[2], h, c0[0], c0[1], c0[2], particle,
                java.util.Arrays.copyOf(cell, 3 * count), count);
    }

    /** The particle at voxel (i, j, k), or −1 (also outside the grid). */
    int at(int i, int j, int k) {
        if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) {
            return -1;
        }
        return particle[i + nx * (j + ny * k)];
    }

    /** True when all eight corners of the cell from voxel (i, j, k) to (i + 1, j + 1, k + 1) are particles. */
    boolean fullCell(int i, int j, int k) {
        for (int c = 0; c < 8; c++) {
            if (at(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1)) < 0) {
                return false;
            }
        }
        return true;
    }
}
