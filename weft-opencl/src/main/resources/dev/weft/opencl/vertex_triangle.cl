// Vertex–triangle contacts (weft-core's VertexTriangleContacts) on the device, in the CPU's float operations
// and order, after the particle contacts' sweeps (DeviceContacts.project).
//
// vt_bin is the CPU's triangle hash grid, sequential as the CPU's is (one work-item: the counting sort in
// triangle order gives every bucket its triangles in the CPU's order, which the nearest-face search keeps
// the first of among equally near faces). It writes the entry count first and bins only when the entries fit
// the buffers; the host reads the count and grows the buffers and bins again when they did not.
// vt_detect finds each particle's nearest face (per particle), vt_list lists the particles in contact with
// each triangle in ascending order (one work-item, the CPU's counting sort), vt_involved counts each
// particle's contacts, then each Jacobi sweep is vt_multipliers, vt_gather (each particle's corrections as
// a vertex and as a corner, in the CPU's order, written only to its own slots) and vt_apply.

// ParticleContacts.MAX_TRIANGLE_CELLS and MAX_GRID_ENTRIES (DeviceVertexTrianglesLimitsTest holds them equal)
#define VT_MAX_TRIANGLE_CELLS 65536
#define VT_MAX_GRID_ENTRIES 16777216

// VertexTriangleContacts.hash & (buckets − 1): Java's int products wrap, as unsigned ints do
inline int vt_bucket(int cx, int cy, int cz, int mask) {
    uint h = ((uint) cx * 73856093u) ^ ((uint) cy * 19349663u) ^ ((uint) cz * 83492791u);
    return (int) (h & (uint) mask);
}

// (int) Math.floor(c / cellSize): a correctly rounded division (the host's build flag); Java's cast
// saturates and takes NaN to 0, as convert_int_sat does
inline int vt_cell(float c, float cellSize) {
    return convert_int_sat(floor(c / cellSize));
}

// VertexTriangleContacts.binTriangles by one work-item. total[0]: the entries this step needs; the grid is
// built only when they fit `capacity`.
__kernel void vt_bin(const int triangleCount, const float thickness, const float cellSize, const int buckets,
                     const int capacity, __global const int* tri, __global const float* x, __global int* triCells,
                     __global int* bucketStart, __global int* bucketFill, __global int* sortedTri,
                     __global int* sortedCell, __global int* total) {
    if (get_global_id(0) != 0) {
        return;
    }
    int mask = buckets - 1;
    long count = 0;
    for (int t = 0; t < triangleCount; t++) {
        int a = 3 * tri[3 * t];
        int b = 3 * tri[3 * t + 1];
        int c = 3 * tri[3 * t + 2];
        int o = 6 * t;
        for (int k = 0; k < 3; k++) {
            float lo = fmin(x[a + k], fmin(x[b + k], x[c + k])) - thickness;
            float hi = fmax(x[a + k], fmax(x[b + k], x[c + k])) + thickness;
            triCells[o + k] = vt_cell(lo, cellSize);
            triCells[o + 3 + k] = vt_cell(hi, cellSize);
        }
        long cells = ((long) triCells[o + 3] - triCells[o] + 1) * ((long) triCells[o + 4] - triCells[o + 1] + 1)
                * ((long) triCells[o + 5] - triCells[o + 2] + 1);
        // ParticleContacts.MAX_TRIANGLE_CELLS: a blown-up triangle (or a saturated upper cell, which would never
        // end `c <= hi`) is left out of this step's grid, as on the CPU
        if (cells > VT_MAX_TRIANGLE_CELLS || triCells[o + 3] == INT_MAX || triCells[o + 4] == INT_MAX
                || triCells[o + 5] == INT_MAX) {
            for (int k = 0; k < 3; k++) {
                triCells[o + k] = 0;
                triCells[o + 3 + k] = -1;
            }
            cells = 0;
        }
        count += cells;
    }
    // more than ParticleContacts.MAX_GRID_ENTRIES: the host reports the blow-up
    total[0] = (int) min(count, (long) VT_MAX_GRID_ENTRIES + 1);
    if (count > capacity) {
        return;
    }
    for (int k = 0; k <= buckets; k++) {
        bucketStart[k] = 0;
    }
    for (int t = 0; t < triangleCount; t++) {
        int o = 6 * t;
        for (int cz = triCells[o + 2]; cz <= triCells[o + 5]; cz++) {
            for (int cy = triCells[o + 1]; cy <= triCells[o + 4]; cy++) {
                for (int cx = triCells[o]; cx <= triCells[o + 3]; cx++) {
                    bucketStart[vt_bucket(cx, cy, cz, mask) + 1]++;
                }
            }
        }
    }
    for (int k = 0; k < buckets; k++) {
        bucketStart[k + 1] += bucketStart[k];
        bucketFill[k] = 0;
    }
    // the CPU's stable scatter: within a bucket, entries in triangle order (then z, y, x)
    for (int t = 0; t < triangleCount; t++) {
        int o = 6 * t;
        for (int cz = triCells[o + 2]; cz <= triCells[o + 5]; cz++) {
            for (int cy = triCells[o + 1]; cy <= triCells[o + 4]; cy++) {
                for (int cx = triCells[o]; cx <= triCells[o + 3]; cx++) {
                    int bk = vt_bucket(cx, cy, cz, mask);
                    int slot = bucketStart[bk] + bucketFill[bk]++;
                    sortedTri[slot] = t;
                    sortedCell[3 * slot] = cx;
                    sortedCell[3 * slot + 1] = cy;
                    sortedCell[3 * slot + 2] = cz;
                }
            }
        }
    }
}

// ParticleContacts.excluded: the ascending list excluded[from..to) holds j
inline bool vt_excluded(__global const int* excluded, int from, int to, int j) {
    int lo = from;
    int hi = to - 1;
    while (lo <= hi) {
        int mid = (lo + hi) >> 1;
        int e = excluded[mid];
        if (e < j) {
            lo = mid + 1;
        } else if (e > j) {
            hi = mid - 1;
        } else {
            return true;
        }
    }
    return false;
}

// VertexTriangleContacts.startSide: +1 or −1, the side of the triangle's plane i was on at the step's start
inline float vt_start_side(__global const float* prev, int i, int ia, int ib, int ic, float currentDistance) {
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
    if (sd == 0.0f || !isfinite(sd)) {
        return currentDistance >= 0.0f ? 1.0f : -1.0f;
    }
    return sd > 0.0f ? 1.0f : -1.0f;
}

// VertexTriangleContacts.detect: particle i's nearest face within the thickness, the bucket walked in the
// CPU's order (a nearer face replaces, an equally near one does not)
__kernel void vt_detect(const int n, const float thickness, const float cellSize, const int buckets,
                        __global const int* tri, __global const float* x, __global const float* prev,
                        __global const int* bucketStart, __global const int* sortedTri,
                        __global const int* sortedCell, __global const int* excludedStart,
                        __global const int* excluded, __global int* contactTri, __global float* bary,
                        __global float* normal) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    const float t2max = thickness * thickness;
    int i3 = 3 * i;
    contactTri[i] = -1;
    float px = x[i3];
    float py = x[i3 + 1];
    float pz = x[i3 + 2];
    int cx = vt_cell(px, cellSize);
    int cy = vt_cell(py, cellSize);
    int cz = vt_cell(pz, cellSize);
    int bk = vt_bucket(cx, cy, cz, buckets - 1);
    int exFrom = excludedStart[i];
    int exTo = excludedStart[i + 1];
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
        float len = sqrt(nx * nx + ny * ny + nz * nz);
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
        float d00 = abx * abx + aby * aby + abz * abz;
        float d01 = abx * acx + aby * acy + abz * acz;
        float d11 = acx * acx + acy * acy + acz * acz;
        float d20 = apx * abx + apy * aby + apz * abz;
        float d21 = apx * acx + apy * acy + apz * acz;
        float den = d00 * d11 - d01 * d01;
        float bv = (d11 * d20 - d01 * d21) / den;
        float bw = (d00 * d21 - d01 * d20) / den;
        float bu = 1.0f - bv - bw;
        if (!(bu >= 0.0f && bv >= 0.0f && bw >= 0.0f) || vt_excluded(excluded, exFrom, exTo, ia)
                || vt_excluded(excluded, exFrom, exTo, ib) || vt_excluded(excluded, exFrom, exTo, ic)) {
            continue;
        }
        float side = vt_start_side(prev, i, ia, ib, ic, sd);
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

// VertexTriangleContacts.listContactsByTriangle by one work-item: the particles of each triangle, ascending
__kernel void vt_list(const int n, const int triangleCount, __global const int* contactTri,
                      __global int* byTriStart, __global int* triangleFill, __global int* byTri) {
    if (get_global_id(0) != 0) {
        return;
    }
    for (int t = 0; t <= triangleCount; t++) {
        byTriStart[t] = 0;
    }
    for (int i = 0; i < n; i++) {
        if (contactTri[i] >= 0) {
            byTriStart[contactTri[i] + 1]++;
        }
    }
    for (int t = 0; t < triangleCount; t++) {
        byTriStart[t + 1] += byTriStart[t];
        triangleFill[t] = 0;
    }
    for (int i = 0; i < n; i++) {
        int t = contactTri[i];
        if (t >= 0) {
            byTri[byTriStart[t] + triangleFill[t]++] = i;
        }
    }
}

// VertexTriangleContacts.countInvolvement
__kernel void vt_involved(const int n, __global const int* incidentStart, __global const int* incident,
                          __global const int* contactTri, __global const int* byTriStart, __global int* involved) {
    int p = get_global_id(0);
    if (p >= n) {
        return;
    }
    int c = contactTri[p] >= 0 ? 1 : 0;
    for (int k = incidentStart[p]; k < incidentStart[p + 1]; k++) {
        int t = incident[k];
        c += byTriStart[t + 1] - byTriStart[t];
    }
    involved[p] = c;
}

// VertexTriangleContacts.sharing
inline int vt_sharing(__global const float* w, __global const int* involved, int i, int ia, int ib, int ic) {
    int m = 1;
    m = w[i] > 0.0f ? max(m, involved[i]) : m;
    m = w[ia] > 0.0f ? max(m, involved[ia]) : m;
    m = w[ib] > 0.0f ? max(m, involved[ib]) : m;
    m = w[ic] > 0.0f ? max(m, involved[ic]) : m;
    return m;
}

// VertexTriangleContacts.multipliers
__kernel void vt_multipliers(const int n, const float thickness, __global const int* tri,
                             __global const float* x, __global const float* w, __global const int* contactTri,
                             __global const float* bary, __global const float* normal,
                             __global const int* involved, __global float* lambda) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int t = contactTri[i];
    lambda[i] = 0.0f;
    if (t < 0) {
        return;
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
    if (constraint >= 0.0f) {
        return;
    }
    float denom = w[i] + u * u * w[ia] + v * v * w[ib] + s * s * w[ic];
    if (denom > 0.0f) {
        lambda[i] = -constraint / (denom * (float) vt_sharing(w, involved, i, ia, ib, ic));
    }
}

// VertexTriangleContacts.gather: particle p's corrections as a vertex, then as a corner of each incident
// triangle in incidence order, its contacts in ascending particle order
__kernel void vt_gather(const int n, __global const int* incidentStart, __global const int* incident,
                        __global const int* tri, __global const int* byTriStart, __global const int* byTri,
                        __global const float* w, __global const float* lambda, __global const float* bary,
                        __global const float* normal, __global float* correction) {
    int p = get_global_id(0);
    if (p >= n) {
        return;
    }
    int p3 = 3 * p;
    float wp = w[p];
    float cx = 0.0f;
    float cy = 0.0f;
    float cz = 0.0f;
    if (lambda[p] != 0.0f) {
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
            if (lambda[v] == 0.0f) {
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

// VertexTriangleContacts.apply
__kernel void vt_apply(const int n, __global const float* correction, __global float* x) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    x[i3] += correction[i3];
    x[i3 + 1] += correction[i3 + 1];
    x[i3 + 2] += correction[i3 + 2];
}
