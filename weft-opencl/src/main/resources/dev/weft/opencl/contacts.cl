// Particle contacts (ParticleContacts, ParticleGrid) on the device, in the CPU's float operations and order,
// and the end of a position-based step around them (PositionStep.finish with contacts: settle, contacts,
// colliders, velocities).
//
// The grid (ParticleGrid.build): contact_cells gives each particle its cell and bucket (the CPU's hash);
// the buckets' counts (atomic increments), an exclusive prefix sum in blocks (contact_scan_blocks,
// contact_scan_sums, contact_offset_blocks), an atomic scatter and an insertion sort of each bucket list the
// particles of each bucket by ascending index: the CPU's `sorted` and `start`, whatever order the atomics
// were won in. contact_search then lists each particle's candidates in the CPU's order (the 27 cells in
// z, y, x order, each bucket by index), MAX_NEIGHBOURS at most, excluded partners left out.
//
// Support levels (with friction): contact_hold runs the colliders once and gives held and pinned particles
// level 0; CONTACT_MAX_LEVEL Jacobi passes of contact_levels follow. The CPU stops as soon as a pass changes
// nothing; a pass on levels that no longer change gives them back unchanged, so running all the passes
// gives the same levels without reading anything back.
//
// Sweeps: contact_gather computes each particle's correction from the same positions (written only to its
// own slots), contact_apply adds them.

#define CONTACT_MAX_NEIGHBOURS 32
#define CONTACT_MAX_LEVEL 8
#define CONTACT_UNSUPPORTED 0x7fffffff

// ParticleGrid.bucket: Java's int products wrap, so the hash is taken on unsigned ints (the same bits)
inline int contact_bucket(int cx, int cy, int cz, int mask) {
    uint h = ((uint) cx * 73856093u) ^ ((uint) cy * 19349663u) ^ ((uint) cz * 83492791u);
    return (int) (h & (uint) mask);
}

// (int) Math.floor(c * inv): Java's cast saturates and takes NaN to 0, as convert_int_sat does
inline int contact_cell(float c, float inv) {
    return convert_int_sat(floor(c * inv));
}

// ParticleGrid.assignCells
__kernel void contact_cells(const int n, const float invCell, const int mask, __global const float* x,
                            __global int* cell, __global int* bucketOf) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int cx = contact_cell(x[3 * i], invCell);
    int cy = contact_cell(x[3 * i + 1], invCell);
    int cz = contact_cell(x[3 * i + 2], invCell);
    cell[3 * i] = cx;
    cell[3 * i + 1] = cy;
    cell[3 * i + 2] = cz;
    bucketOf[i] = contact_bucket(cx, cy, cz, mask);
}

// ParticleGrid.count: bucket b's count into start[b + 1] (start cleared before)
__kernel void contact_count(const int n, __global const int* bucketOf, __global int* start) {
    int i = get_global_id(0);
    if (i < n) {
        atomic_inc(&start[bucketOf[i] + 1]);
    }
}

// ParticleGrid.scanBlocks: block k's counts into block-local inclusive sums, its total into blockSum[k]
__kernel void contact_scan_blocks(const int blockSize, __global int* start, __global int* blockSum) {
    int k = get_global_id(0);
    int run = 0;
    for (int b = k * blockSize; b < (k + 1) * blockSize; b++) {
        run += start[b + 1];
        start[b + 1] = run;
    }
    blockSum[k] = run;
}

// The block totals' exclusive prefix sum, by one work-item (a few dozen blocks)
__kernel void contact_scan_sums(const int blocks, __global int* blockSum) {
    if (get_global_id(0) != 0) {
        return;
    }
    int run = 0;
    for (int k = 0; k < blocks; k++) {
        int s = blockSum[k];
        blockSum[k] = run;
        run += s;
    }
}

// ParticleGrid.offsetBlocks, one work-item per bucket: start[b + 1] becomes bucket b's end
__kernel void contact_offset_blocks(const int blockSize, __global int* start, __global const int* blockSum) {
    int b = get_global_id(0);
    start[b + 1] += blockSum[b / blockSize];
}

// ParticleGrid.scatter: each particle claims a slot of its bucket (cursor: a copy of start)
__kernel void contact_scatter(const int n, __global const int* bucketOf, __global int* cursor,
                              __global int* sorted) {
    int i = get_global_id(0);
    if (i < n) {
        sorted[atomic_inc(&cursor[bucketOf[i]])] = i;
    }
}

// ParticleGrid.sortBuckets: one work-item per bucket, its few particles by ascending index
__kernel void contact_sort_buckets(__global const int* start, __global int* sorted) {
    int b = get_global_id(0);
    int from = start[b];
    int to = start[b + 1];
    for (int k = from + 1; k < to; k++) {
        int v = sorted[k];
        int m = k - 1;
        while (m >= from && sorted[m] > v) {
            sorted[m + 1] = sorted[m];
            m--;
        }
        sorted[m + 1] = v;
    }
}

// ParticleContacts.isExcluded: the ascending list excluded[from..to) holds j
inline bool contact_excluded(__global const int* excluded, int from, int to, int j) {
    for (int k = from; k < to; k++) {
        int e = excluded[k];
        if (e >= j) {
            return e == j;
        }
    }
    return false;
}

// ParticleContacts.search for particle i: candidates within the search radius, not excluded, in the CPU's
// order, MAX_NEIGHBOURS at most; overflow[i] says whether there were more
__kernel void contact_search(const int n, const float radius, const float invCell, const int mask,
                             __global const float* x, __global const int* cell, __global const int* start,
                             __global const int* sorted, __global const int* excludedStart,
                             __global const int* excluded, __global int* neighbourCount, __global int* neighbours,
                             __global int* overflow) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    float r2max = radius * radius;
    int i3 = 3 * i;
    float xi = x[i3];
    float yi = x[i3 + 1];
    float zi = x[i3 + 2];
    // unsigned: a blown-up particle's saturated cell wraps here as Java's int does (signed overflow is undefined
    // in C, and the compiler made `c <= l + 2` a loop without end)
    int lx = (int) ((uint) contact_cell(xi, invCell) - 1u);
    int ly = (int) ((uint) contact_cell(yi, invCell) - 1u);
    int lz = (int) ((uint) contact_cell(zi, invCell) - 1u);
    int exFrom = excludedStart[i];
    int exTo = excludedStart[i + 1];
    int base = i * CONTACT_MAX_NEIGHBOURS;
    int count = 0;
    for (int dz = 0; dz < 3; dz++) {
        int cz = (int) ((uint) lz + (uint) dz);
        for (int dy = 0; dy < 3; dy++) {
            int cy = (int) ((uint) ly + (uint) dy);
            for (int dx = 0; dx < 3; dx++) {
                int cx = (int) ((uint) lx + (uint) dx);
                int bk = contact_bucket(cx, cy, cz, mask);
                int kEnd = start[bk + 1];
                for (int k = start[bk]; k < kEnd; k++) {
                    int j = sorted[k];
                    if (j == i) {
                        continue;
                    }
                    int j3 = 3 * j;
                    float ex = xi - x[j3];
                    float ey = yi - x[j3 + 1];
                    float ez = zi - x[j3 + 2];
                    if (ex * ex + ey * ey + ez * ez >= r2max || cell[j3] != cx || cell[j3 + 1] != cy
                            || cell[j3 + 2] != cz || contact_excluded(excluded, exFrom, exTo, j)) {
                        continue;
                    }
                    if (count < CONTACT_MAX_NEIGHBOURS) {
                        neighbours[base + count] = j;
                    }
                    count++;
                }
            }
        }
    }
    neighbourCount[i] = min(count, CONTACT_MAX_NEIGHBOURS);
    overflow[i] = count > CONTACT_MAX_NEIGHBOURS ? 1 : 0;
}

// ParticleContacts.pairDistance: the contact distance, or the pair's offsets' sum where larger
inline float contact_pair_distance(float distance, __global const float* offset, int i, int j) {
    return java_max(distance, offset[i] + offset[j]);
}

// Collider.signedDistance of a collider record at its pose now (PlaneCollider; RigidCollider: sideDistance, its
// magnitude for a shell: the funnel, the rectangle, a triangle mesh; AnimatedMeshCollider: the unsigned distance
// to its current mesh; Projectile: to its ball about its centre now)
static float contact_collider_distance(int type, __global const float* c, float x, float y, float z) {
    if (type == COLLIDER_PLANE) {
        return c[0] * x + c[1] * y + c[2] * z - c[3];
    }
    if (type == COLLIDER_BALL) {
        float dx = x - c[0];
        float dy = y - c[1];
        float dz = z - c[2];
        return sqrt(dx * dx + dy * dy + dz * dz) - c[6];
    }
    if (type == COLLIDER_HAND || type == COLLIDER_GRIP) {
        return INFINITY; // DragHandle, Grip: not surfaces
    }
    if (type == COLLIDER_ANIMATED) {
        int t;
        float3 q;
        if (!animated_closest(animated_current(c), x, y, z, INFINITY, &t, &q)) {
            return INFINITY;
        }
        float qx = q.x - x;
        float qy = q.y - y;
        float qz = q.z - z;
        return sqrt(qx * qx + qy * qy + qz * qz);
    }
    float dx = x - c[0];
    float dy = y - c[1];
    float dz = z - c[2];
    __global const float* r = c + 3;
    float3 n;
    float d = rigid_distance(type, c, r[0] * dx + r[3] * dy + r[6] * dz, r[1] * dx + r[4] * dy + r[7] * dz,
                             r[2] * dx + r[5] * dy + r[8] * dz, &n);
    return type == COLLIDER_FUNNEL || type == COLLIDER_RECTANGLE || type == COLLIDER_MESH ? fabs(d) : d;
}

// ParticleContacts.collide for particle i: the colliders once (on a pinned particle only a projectile acts: it
// takes the whole push), then level 0 for a pinned particle and for one with candidates that the pass moved or
// that lies within slack of a collider's thickness; the rest unsupported
__kernel void contact_hold(const int n, __global const float* invMass, __global const float* grip,
                           __global const float* offset, const int colliderCount, __global const int* colliderType,
                           __global const float* colliders, const float slack, __global const float* prev,
                           __global const int* neighbourCount, __global float* x, __global int* level) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    bool h = invMass[i] == 0.0f;
    if (colliderCount > 0 && h) {
        collide_pinned(colliderCount, colliderType, colliders, (float3) (x[i3], x[i3 + 1], x[i3 + 2]),
                       (float3) (prev[i3], prev[i3 + 1], prev[i3 + 2]), offset[i], i);
    }
    if (colliderCount > 0 && !h) {
        float3 before = (float3) (x[i3], x[i3 + 1], x[i3 + 2]);
        float3 p = collide_all(colliderCount, colliderType, colliders, before,
                               (float3) (prev[i3], prev[i3 + 1], prev[i3 + 2]), offset[i], grip[i], i, invMass[i]);
        x[i3] = p.x;
        x[i3 + 1] = p.y;
        x[i3 + 2] = p.z;
        if (neighbourCount[i] > 0) {
            h = p.x != before.x || p.y != before.y || p.z != before.z;
            for (int c = 0; !h && c < colliderCount; c++) {
                __global const float* record = colliders + COLLIDER_STRIDE * c;
                // a plane's thickness at 4, an animated mesh's at 0, a ball's at 7, a rigid body's at 13
                float thickness = colliderType[c] == COLLIDER_PLANE ? record[4]
                        : colliderType[c] == COLLIDER_ANIMATED ? record[0]
                        : colliderType[c] == COLLIDER_BALL ? record[7] : record[13];
                h = contact_collider_distance(colliderType[c], record, p.x, p.y, p.z)
                        <= thickness + offset[i] + slack;
            }
        }
    }
    level[i] = h ? 0 : CONTACT_UNSUPPORTED;
}

// ParticleContacts.propagateLevels for particle i: one more than its lowest partner in contact
__kernel void contact_levels(const int n, const float distance, __global const float* offset,
                             __global const float* x, __global const int* neighbourCount,
                             __global const int* neighbours, __global const int* level, __global int* nextLevel) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    int best = level[i];
    for (int k = i * CONTACT_MAX_NEIGHBOURS, kEnd = k + neighbourCount[i]; k < kEnd; k++) {
        int j = neighbours[k];
        int lj = level[j];
        if (lj == CONTACT_UNSUPPORTED || lj >= best - 1) {
            continue;
        }
        int j3 = 3 * j;
        float ex = x[i3] - x[j3];
        float ey = x[i3 + 1] - x[j3 + 1];
        float ez = x[i3 + 2] - x[j3 + 2];
        float dij = contact_pair_distance(distance, offset, i, j);
        if (ex * ex + ey * ey + ez * ez < dij * dij) {
            best = lj + 1;
        }
    }
    nextLevel[i] = best;
}

// CoulombFriction.removedShare (float form): share when share·slip is within μs·push, else at most μk·push
inline float contact_removed_share(float slip, float push, float staticCoefficient, float kineticCoefficient,
                                   float share) {
    return share * slip <= staticCoefficient * push ? share
            : java_min(share, kineticCoefficient * push / slip);
}

// ParticleContacts.gather for particle i: its contacts' pushes averaged over its contacts, friction averaged
// over those that give it, into correction[3i..3i+2]; how many contacts it has into contactsOf[i]
__kernel void contact_gather(const int n, const float distance, const float mus, const float muk,
                             __global const float* w, __global const float* grip, __global const float* offset,
                             __global const float* x, __global const float* prev,
                             __global const int* neighbourCount, __global const int* neighbours,
                             __global const int* level, __global float* correction, __global int* contactsOf) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    float wi = w[i];
    int levelI = level[i];
    float cxs = 0.0f;
    float cys = 0.0f;
    float czs = 0.0f;
    float fxs = 0.0f;
    float fys = 0.0f;
    float fzs = 0.0f;
    int contacts = 0;
    int frictional = 0;
    float xi = x[i3];
    float yi = x[i3 + 1];
    float zi = x[i3 + 2];
    for (int k = i * CONTACT_MAX_NEIGHBOURS, kEnd = k + neighbourCount[i]; k < kEnd; k++) {
        int j = neighbours[k];
        int j3 = 3 * j;
        float ex = xi - x[j3];
        float ey = yi - x[j3 + 1];
        float ez = zi - x[j3 + 2];
        float r2 = ex * ex + ey * ey + ez * ez;
        float d = contact_pair_distance(distance, offset, i, j);
        if (r2 >= d * d) {
            continue;
        }
        float wsum = wi + w[j];
        contacts++;
        if (wi == 0.0f || wsum == 0.0f || r2 < 1e-20f) {
            continue;
        }
        float r = sqrt(r2);
        float share = wi / wsum;
        float depth = d - r;
        float nx = ex / r;
        float ny = ey / r;
        float nz = ez / r;
        float push = share * depth;
        float px = push * nx;
        float py = push * ny;
        float pz = push * nz;
        int levelJ = level[j];
        float slipShare = levelI == levelJ ? share : levelI > levelJ ? 1.0f : 0.0f;
        float pairGrip = grip[i] * grip[j];
        if (mus > 0.0f && slipShare > 0.0f && pairGrip > 0.0f) {
            frictional++;
            float rx = (xi - prev[i3]) - (x[j3] - prev[j3]);
            float ry = (yi - prev[i3 + 1]) - (x[j3 + 1] - prev[j3 + 1]);
            float rz = (zi - prev[i3 + 2]) - (x[j3 + 2] - prev[j3 + 2]);
            float rn = rx * nx + ry * ny + rz * nz;
            float tx = rx - rn * nx;
            float ty = ry - rn * ny;
            float tz = rz - rn * nz;
            float t2 = tx * tx + ty * ty + tz * tz;
            if (t2 > 0.0f) {
                float f = contact_removed_share(sqrt(t2), push, pairGrip * mus, pairGrip * muk, slipShare);
                fxs -= f * tx;
                fys -= f * ty;
                fzs -= f * tz;
            }
        }
        cxs += px;
        cys += py;
        czs += pz;
    }
    contactsOf[i] = contacts;
    if (contacts > 1) {
        float scale = 1.0f / (float) contacts;
        cxs *= scale;
        cys *= scale;
        czs *= scale;
    }
    if (frictional > 0) {
        float scale = 1.0f / (float) frictional;
        cxs += fxs * scale;
        cys += fys * scale;
        czs += fzs * scale;
    }
    correction[i3] = cxs;
    correction[i3 + 1] = cys;
    correction[i3 + 2] = czs;
}

// ParticleContacts.apply: every particle moves by its own correction
__kernel void contact_apply(const int n, __global const float* correction, __global float* x) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    x[i3] += correction[i3];
    x[i3 + 1] += correction[i3 + 1];
    x[i3 + 2] += correction[i3 + 2];
}

// StepPositions.settle for particle i, the step's start kept first (x holds it until now): free particles
// get v += d/h and x = y = y + d; pinned ones v = 0 and y = x
__kernel void contact_settle(const int n, __global const float* invMass, const float invH, __global float* x,
                             __global float* v, __global float* y, __global const float* d,
                             __global float* start) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    start[i3] = x[i3];
    start[i3 + 1] = x[i3 + 1];
    start[i3 + 2] = x[i3 + 2];
    if (invMass[i] == 0.0f) {
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        y[i3] = x[i3];
        y[i3 + 1] = x[i3 + 1];
        y[i3 + 2] = x[i3 + 2];
        return;
    }
    for (int k = i3; k < i3 + 3; k++) {
        v[k] += d[k] * invH;
        float p = y[k] + d[k];
        x[k] = p;
        y[k] = p;
    }
}

// After the contacts: the colliders on x with the step's start as prev (PositionStep.collide; on a pinned particle
// only a projectile acts), then CorrectedVelocity v = (v + (x - y)/h)·scale (scale[i] where scaled, else 1);
// pinned particles get v = 0
__kernel void contact_finish(const int n, __global const float* invMass, __global const float* grip,
                             __global const float* offset, const int colliderCount,
                             __global const int* colliderType, __global const float* colliders, const float invH,
                             const int scaled, __global const float* scale, __global const float* start,
                             __global float* x, __global float* v, __global const float* y) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    if (invMass[i] == 0.0f) {
        collide_pinned(colliderCount, colliderType, colliders, (float3) (x[i3], x[i3 + 1], x[i3 + 2]),
                       (float3) (start[i3], start[i3 + 1], start[i3 + 2]), offset[i], i);
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        return;
    }
    float3 p = (float3) (x[i3], x[i3 + 1], x[i3 + 2]);
    p = collide_all(colliderCount, colliderType, colliders, p, (float3) (start[i3], start[i3 + 1], start[i3 + 2]),
                    offset[i], grip[i], i, invMass[i]);
    x[i3] = p.x;
    x[i3 + 1] = p.y;
    x[i3 + 2] = p.z;
    float s = scaled != 0 ? scale[i] : 1.0f;
    v[i3] = (v[i3] + (p.x - y[i3]) * invH) * s;
    v[i3 + 1] = (v[i3 + 1] + (p.y - y[i3 + 1]) * invH) * s;
    v[i3 + 2] = (v[i3 + 2] + (p.z - y[i3 + 2]) * invH) * s;
}
