package dev.weft.core.contact;

import dev.weft.core.model.Incidence;
import dev.weft.core.model.Model;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import java.util.Arrays;

/**
 * Vertex–triangle contact between cloth particles and cloth triangles (optional, see
 * {@link ParticleContactSettings#vertexTriangle()}): a particle over the face of a triangle it does not
 * belong to is kept {@code thickness} off the triangle's plane, on the side it was on at the start of
 * the step, so that a particle cannot slip through a triangle between that triangle's corners (which
 * particle–particle contact, seeing only the corners, cannot prevent when triangles are larger than the
 * contact distance).
 *
 * <p>Once per step every triangle is binned into the cells of a hash grid that its bounds, grown by the
 * thickness, cover (a sequential counting sort in triangle order: deterministic), and every particle
 * takes the nearest triangle face within the thickness whose corners are neither the particle nor
 * excluded partners of it (the particle's constraint and rest neighbours). The constraint
 * C = s n·(x_p − Σ b_k x_k) − thickness ≥ 0 (n the face normal, b the barycentric coordinates, s the
 * side) is then projected in Jacobi sweeps: the particle and the triangle's corners move by inverse
 * mass and b_k, which conserves momentum; each particle gathers its corrections as a vertex and as a
 * corner in a fixed order, so any thread count gives the same bits. For stability under Jacobi every
 * contact's multiplier is divided by the largest number of contacts any of its movable particles takes
 * part in (a corner under four particles moves a quarter per contact), rather than averaging each
 * particle's corrections, which would keep a corner from passing on its full share and lose momentum.
 * Faces only: a particle nearest an edge or a corner is left to the particle contacts. No friction.
 */
final class VertexTriangleContacts {
    private final int n;
    private final float thickness;
    private final float cellSize;
    private final int[] tri;
    private final int triangleCount;
    /** Triangles of particle p: incident[incidentStart[p] .. incidentStart[p + 1]). */
    private final int[] incidentStart;
    private final int[] incident;
    private final ParticleContacts pairs;

    // Triangle hash grid, rebuilt every step (entries grow when needed; steady state allocates nothing).
    private final int buckets;
    private final int[] bucketStart;
    private int[] entryTri = new int[0];
    private int[] entryCell = new int[0];
    private int[] sortedTri = new int[0];
    private int[] sortedCell = new int[0];
    private final int[] triCells;
    private final int[] bucketFill;
    private final int[] triangleFill;

    // Per particle: its contact (triangle or −1), barycentric coordinates, signed normal, multiplier.
    private final int[] contactTri;
    private final float[] bary;
    private final float[] normal;
    private final float[] lambda;
    /** Contacts particle p takes part in (as the vertex or as a corner), for the current step. */
    private final int[] involved;
    /** Particles in contact with triangle t: byTri[byTriStart[t] .. byTriStart[t + 1]), ascending. */
    private final int[] byTriStart;
    private final int[] byTri;
    private final float[] correction;

    private float[] x;
    private float[] prev;
    private float[] w;
    private final RangeBody detectBody = this::detect;
    private final RangeBody countBody = this::countInvolvement;
    private final RangeBody multiplierBody = this::multipliers;
    private final RangeBody gatherBody = this::gather;
    private final RangeBody applyBody = this::apply;

    VertexTriangleContacts(Model model, float thickness, ParticleContacts pairs) {
        this.n = model.particleCount();
        this.thickness = thickness;
        // three thicknesses (1.5 contact distances): fewer cells per triangle to bin than at two, more
        // faces to look at per particle; measured best of 2, 3 and 4 on the stack showcase (3.8 ms vs 4.4)
        this.cellSize = 3f * thickness;
        this.tri = model.triangles();
        this.triangleCount = tri.length / 3;
        this.pairs = pairs;
        Incidence incidence = model.triangleIncidence();
        incidentStart = incidence.start();
        incident = incidence.items();
        int b = 1024;
        while (b < 4 * triangleCount) {
            b <<= 1;
        }
        buckets = b;
        bucketStart = new int[buckets + 1];
        triCells = new int[6 * triangleCount];
        bucketFill = new int[buckets];
        triangleFill = new int[triangleCount];
        contactTri = new int[n];
        bary = new float[3 * n];
        normal = new float[3 * n];
        lambda = new float[n];
        involved = new int[n];
        byTriStart = new int[triangleCount + 1];
        byTri = new int[n];
        correction = new float[3 * n];
    }

    float thickness() {
        return thickness;
    }

    /** Particles found in contact with a triangle face in the last {@link #project}. */
    int lastContactCount() {
        int c = 0;
        for (int t : contactTri) {
            c += t >= 0 ? 1 : 0;
        }
        return c;
    }

    /** Finds the contacts at {@code positions} and runs {@code sweeps} Jacobi sweeps on them. */
    void project(float[] positions, float[] previous, float[] invMass, int sweeps, WorkerPool pool) {
        x = positions;
        prev = previous;
        w = invMass;
        binTriangles();
        pool.parallelFor(0, n, detectBody);
        listContactsByTriangle();
        pool.parallelFor(0, n, countBody);
        for (int s = 0; s < sweeps; s++) {
            pool.parallelFor(0, n, multiplierBody);
            pool.parallelFor(0, n, gatherBody);
            pool.parallelFor(0, n, applyBody);
        }
        x = null;
        prev = null;
        w = null;
    }

    private static int hash(int cx, int cy, int cz) {
        return cx * 73856093 ^ cy * 19349663 ^ cz * 83492791;
    }

    private int cell(float c) {
        return (int) Math.floor(c / cellSize);
    }

    /**
     * Each triangle into every cell its bounds (grown by the thickness) cover; counting sort by bucket. A
     * triangle covering more than {@link ParticleContacts#MAX_TRIANGLE_CELLS} cells has blown up (an infinite
     * coordinate saturates its cell to ±2³¹ and would loop through every int): it is left out of this step's
     * grid, and the frame's divergence check names the particle.
     */
    private void binTriangles() {
        long entries = 0;
        for (int t = 0; t < triangleCount; t++) {
            int a = 3 * tri[3 * t];
            int b = 3 * tri[3 * t + 1];
            int c = 3 * tri[3 * t + 2];
            int o = 6 * t;
            for (int k = 0; k < 3; k++) {
                float lo = Math.min(x[a + k], Math.min(x[b + k], x[c + k])) - thickness;
                float hi = Math.max(x[a + k], Math.max(x[b + k], x[c + k])) + thickness;
                triCells[o + k] = cell(lo);
                triCells[o + 3 + k] = cell(hi);
            }
            long cells = ((long) triCells[o + 3] - triCells[o] + 1) * ((long) triCells[o + 4] - triCells[o + 1] + 1)
                    * ((long) triCells[o + 5] - triCells[o + 2] + 1);
            // a saturated upper cell would never end `c <= hi` (c wraps to −2³¹)
            boolean saturated = triCells[o + 3] == Integer.MAX_VALUE || triCells[o + 4] == Integer.MAX_VALUE
                    || triCells[o + 5] == Integer.MAX_VALUE;
            if (cells > ParticleContacts.MAX_TRIANGLE_CELLS || saturated) {
                // an empty box on every axis: the bin loops below run no cell for it
                for (int k = 0; k < 3; k++) {
                    triCells[o + k] = 0;
                    triCells[o + 3 + k] = -1;
                }
                cells = 0;
            }
            entries += cells;
        }
        if (entries > ParticleContacts.MAX_GRID_ENTRIES) {
            throw new IllegalStateException("vertex-triangle contacts: the triangles' bounds cover " + entries
                    + " grid cells of " + cellSize + " m (more than " + ParticleContacts.MAX_GRID_ENTRIES
                    + "): the cloth has blown up or is far larger than its contact thickness");
        }
        int total = (int) entries;
        if (entryTri.length < total) {
            int size = Math.max(total, entryTri.length + entryTri.length / 2);
            entryTri = new int[size];
            entryCell = new int[3 * size];
            sortedTri = new int[size];
            sortedCell = new int[3 * size];
        }
        Arrays.fill(bucketStart, 0);
        int e = 0;
        for (int t = 0; t < triangleCount; t++) {
            int o = 6 * t;
            for (int cz = triCells[o + 2]; cz <= triCells[o + 5]; cz++) {
                for (int cy = triCells[o + 1]; cy <= triCells[o + 4]; cy++) {
                    for (int cx = triCells[o]; cx <= triCells[o + 3]; cx++) {
                        entryTri[e] = t;
                        entryCell[3 * e] = cx;
                        entryCell[3 * e + 1] = cy;
                        entryCell[3 * e + 2] = cz;
                        bucketStart[(hash(cx, cy, cz) & (buckets - 1)) + 1]++;
                        e++;
                    }
                }
            }
        }
        for (int k = 0; k < buckets; k++) {
            bucketStart[k + 1] += bucketStart[k];
        }
        // stable: within a bucket, entries stay in triangle order
        int[] fill = bucketFill;
        Arrays.fill(fill, 0);
        for (int k = 0; k < e; k++) {
            int bk = hash(entryCell[3 * k], entryCell[3 * k + 1], entryCell[3 * k + 2]) & (buckets - 1);
            int slot = bucketStart[bk] + fill[bk]++;
            sortedTri[slot] = entryTri[k];
            sortedCell[3 * slot] = entryCell[3 * k];
            sortedCell[3 * slot + 1] = entryCell[3 * k + 1];
            sortedCell[3 * slot + 2] = entryCell[3 * k + 2];
        }
    }

    /** Particle i's nearest triangle face within the thickness (not its own, not excluded). */
    private void detect(int begin, int end) {
        final float t2max = thickness * thickness;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            contactTri[i] = -1;
            float px = x[i3];
            float py = x[i3 + 1];
            float pz = x[i3 + 2];
            int cx = cell(px);
            int cy = cell(py);
            int cz = cell(pz);
            int bk = hash(cx, cy, cz) & (buckets - 1);
            float best = t2max;
            for (int k = bucketStart[bk]; k < bucketStart[bk + 1]; k++) {
                if (sortedCell[3 * k] != cx || sortedCell[3 * k + 1] != cy || sortedCell[3 * k + 2] != cz) {
                    continue;
                }
                int t = sortedTri[k];
                int ia = tri[3 * t];
                int ib = tri[3 * t + 1];
                int ic = tri[3 * t + 2];
                if (ia == i || ib == i || ic == i) {
                    continue;
                }
                int a = 3 * ia;
                int b = 3 * ib;
                int c = 3 * ic;
                float abx = x[b] - x[a];
                float aby = x[b + 1] - x[a + 1];
                float abz = x[b + 2] - x[a + 2];
                float acx = x[c] - x[a];
                float acy = x[c + 1] - x[a + 1];
                float acz = x[c + 2] - x[a + 2];
                float nx = aby * acz - abz * acy;
                float ny = abz * acx - abx * acz;
                float nz = abx * acy - aby * acx;
                float len = (float) Math.sqrt(nx * nx + ny * ny + nz * nz);
                if (len < 1e-20f) {
                    continue; // degenerate triangle: no face
                }
                nx /= len;
                ny /= len;
                nz /= len;
                float apx = px - x[a];
                float apy = py - x[a + 1];
                float apz = pz - x[a + 2];
                float sd = apx * nx + apy * ny + apz * nz;
                if (sd * sd >= best) {
                    continue;
                }
                // barycentric coordinates of the projection onto the plane: inside the face only
                float d00 = abx * abx + aby * aby + abz * abz;
                float d01 = abx * acx + aby * acy + abz * acz;
                float d11 = acx * acx + acy * acy + acz * acz;
                float d20 = apx * abx + apy * aby + apz * abz;
                float d21 = apx * acx + apy * acy + apz * acz;
                float den = d00 * d11 - d01 * d01;
                float bv = (d11 * d20 - d01 * d21) / den;
                float bw = (d00 * d21 - d01 * d20) / den;
                float bu = 1f - bv - bw;
                // exclusions last: three binary searches, needed only for the few faces that pass
                if (!(bu >= 0f && bv >= 0f && bw >= 0f) || pairs.excluded(i, ia) || pairs.excluded(i, ib)
                        || pairs.excluded(i, ic)) {
                    continue;
                }
                // the side the particle was on at the start of the step, from the start positions
                float side = startSide(i, ia, ib, ic, sd);
                best = sd * sd;
                contactTri[i] = t;
                bary[i3] = bu;
                bary[i3 + 1] = bv;
                bary[i3 + 2] = bw;
                normal[i3] = side * nx;
                normal[i3 + 1] = side * ny;
                normal[i3 + 2] = side * nz;
            }
        }
    }

    /** +1 or −1: the side of the triangle's plane particle i was on at the start of the step. */
    private float startSide(int i, int ia, int ib, int ic, float currentDistance) {
        int a = 3 * ia;
        int b = 3 * ib;
        int c = 3 * ic;
        float abx = prev[b] - prev[a];
        float aby = prev[b + 1] - prev[a + 1];
        float abz = prev[b + 2] - prev[a + 2];
        float acx = prev[c] - prev[a];
        float acy = prev[c + 1] - prev[a + 1];
        float acz = prev[c + 2] - prev[a + 2];
        float nx = aby * acz - abz * acy;
        float ny = abz * acx - abx * acz;
        float nz = abx * acy - aby * acx;
        int i3 = 3 * i;
        float sd = (prev[i3] - prev[a]) * nx + (prev[i3 + 1] - prev[a + 1]) * ny + (prev[i3 + 2] - prev[a + 2]) * nz;
        if (sd == 0f || !Float.isFinite(sd)) {
            return currentDistance >= 0f ? 1f : -1f;
        }
        return sd > 0f ? 1f : -1f;
    }

    /** The particles in contact with each triangle, ascending (sequential counting sort). */
    private void listContactsByTriangle() {
        Arrays.fill(byTriStart, 0);
        for (int i = 0; i < n; i++) {
            if (contactTri[i] >= 0) {
                byTriStart[contactTri[i] + 1]++;
            }
        }
        for (int t = 0; t < triangleCount; t++) {
            byTriStart[t + 1] += byTriStart[t];
        }
        int[] fill = triangleFill;
        Arrays.fill(fill, 0);
        for (int i = 0; i < n; i++) {
            int t = contactTri[i];
            if (t >= 0) {
                byTri[byTriStart[t] + fill[t]++] = i;
            }
        }
    }

    private void countInvolvement(int begin, int end) {
        for (int p = begin; p < end; p++) {
            int c = contactTri[p] >= 0 ? 1 : 0;
            for (int k = incidentStart[p]; k < incidentStart[p + 1]; k++) {
                int t = incident[k];
                c += byTriStart[t + 1] - byTriStart[t];
            }
            involved[p] = c;
        }
    }

    /** The most contacts a movable particle of vertex i's contact takes part in (at least 1). */
    private int sharing(int i, int ia, int ib, int ic) {
        int m = 1;
        m = w[i] > 0f ? Math.max(m, involved[i]) : m;
        m = w[ia] > 0f ? Math.max(m, involved[ia]) : m;
        m = w[ib] > 0f ? Math.max(m, involved[ib]) : m;
        m = w[ic] > 0f ? Math.max(m, involved[ic]) : m;
        return m;
    }

    /**
     * λ_i = −C / (w_i + Σ b_k² w_k) / sharing for a violated contact, else 0 (all from the same
     * positions).
     */
    private void multipliers(int begin, int end) {
        for (int i = begin; i < end; i++) {
            int t = contactTri[i];
            lambda[i] = 0f;
            if (t < 0) {
                continue;
            }
            int i3 = 3 * i;
            int ia = tri[3 * t];
            int ib = tri[3 * t + 1];
            int ic = tri[3 * t + 2];
            float u = bary[i3];
            float v = bary[i3 + 1];
            float s = bary[i3 + 2];
            int a = 3 * ia;
            int b = 3 * ib;
            int c = 3 * ic;
            float qx = x[i3] - (u * x[a] + v * x[b] + s * x[c]);
            float qy = x[i3 + 1] - (u * x[a + 1] + v * x[b + 1] + s * x[c + 1]);
            float qz = x[i3 + 2] - (u * x[a + 2] + v * x[b + 2] + s * x[c + 2]);
            float constraint = qx * normal[i3] + qy * normal[i3 + 1] + qz * normal[i3 + 2] - thickness;
            if (constraint >= 0f) {
                continue;
            }
            float denom = w[i] + u * u * w[ia] + v * v * w[ib] + s * s * w[ic];
            if (denom > 0f) {
                lambda[i] = -constraint / (denom * sharing(i, ia, ib, ic));
            }
        }
    }

    /** Particle p's corrections as a vertex and as a corner of touched triangles, summed in a fixed order. */
    private void gather(int begin, int end) {
        for (int p = begin; p < end; p++) {
            int p3 = 3 * p;
            float wp = w[p];
            float cx = 0f;
            float cy = 0f;
            float cz = 0f;
            if (lambda[p] != 0f) {
                float s = wp * lambda[p];
                cx += s * normal[p3];
                cy += s * normal[p3 + 1];
                cz += s * normal[p3 + 2];
            }
            for (int k = incidentStart[p]; k < incidentStart[p + 1]; k++) {
                int t = incident[k];
                int corner = tri[3 * t] == p ? 0 : tri[3 * t + 1] == p ? 1 : 2;
                for (int m = byTriStart[t]; m < byTriStart[t + 1]; m++) {
                    int v = byTri[m];
                    if (lambda[v] == 0f) {
                        continue;
                    }
                    int v3 = 3 * v;
                    float s = -bary[v3 + corner] * wp * lambda[v];
                    cx += s * normal[v3];
                    cy += s * normal[v3 + 1];
                    cz += s * normal[v3 + 2];
                }
            }
            correction[p3] = cx;
            correction[p3 + 1] = cy;
            correction[p3 + 2] = cz;
        }
    }

    private void apply(int begin, int end) {
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            x[i3] += correction[i3];
            x[i3 + 1] += correction[i3 + 1];
            x[i3 + 2] += correction[i3 + 2];
        }
    }
}
