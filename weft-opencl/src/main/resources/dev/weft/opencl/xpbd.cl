// XPBD's colored mode (XpbdSolver with IterationMode.COLORED) on distance constraints: one step is
// xpbd_predict (one work-item per particle), per iteration one launch per color of the distance
// constraints (then, for the extra stretch passes, one per color of the stretch constraints alone),
// and xpbd_finish (per particle: settle, colliders, velocity, damping). A color's constraints share no
// particle, so each work-item of a color launch writes only its constraint's multiplier and its two
// particles' corrections; no atomics, and the CPU's order (colors in sequence) is kept.
//
// Positions are StepPositions' y (prediction) + d (corrections); the float operations are
// XpbdSolver's, PositionStep's, StepPositions' and CorrectedVelocity's in the same order, under
// cpu_rounding.cl's rules.

// PositionStep.predict with Damping.AFTER (keep 1, no drag, no air, no force) and StepPositions.predict:
// v' = v + h g, y = x + h v', d = 0; a pinned particle gets v = 0 and y = x + 0 as the CPU rounds it
__kernel void xpbd_predict(const int n, __global const float* invMass, const float h, const float gx,
                           const float gy, const float gz, __global const float* x, __global float* v,
                           __global float* y, __global float* d) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    d[i3] = 0.0f;
    d[i3 + 1] = 0.0f;
    d[i3 + 2] = 0.0f;
    if (invMass[i] == 0.0f) {
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        y[i3] = x[i3] + 0.0f;
        y[i3 + 1] = x[i3 + 1] + 0.0f;
        y[i3 + 2] = x[i3 + 2] + 0.0f;
        return;
    }
    // drag 0 and keep 1 written out: 0 v and 1 v are what the CPU computes (signed zeros included)
    float ax = gx - 0.0f * v[i3];
    float ay = gy - 0.0f * v[i3 + 1];
    float az = gz - 0.0f * v[i3 + 2];
    float vx = 1.0f * v[i3] + h * ax;
    float vy = 1.0f * v[i3 + 1] + h * ay;
    float vz = 1.0f * v[i3 + 2] + h * az;
    v[i3] = vx;
    v[i3 + 1] = vy;
    v[i3 + 2] = vz;
    y[i3] = x[i3] + h * vx;
    y[i3 + 1] = x[i3 + 1] + h * vy;
    y[i3 + 2] = x[i3 + 2] + h * vz;
}

// A distance constraint's particles as XpbdSolver reads them: their inverse masses, the corrections so
// far, and the separation (y_b - y_a) + (d_b - d_a) with its squared length and length, in the CPU's order
typedef struct {
    int ia;
    int ib;
    float wa;
    float wb;
    float wsum;
    float dax, day, daz;
    float dbx, dby, dbz;
    float dx, dy, dz;
    float d2;
    float len;
} distance_pair;

inline distance_pair distance_read(int c, __global const int* pairs, __global const float* w,
                                   __global const float* y, __global const float* d) {
    distance_pair p;
    p.ia = pairs[2 * c];
    p.ib = pairs[2 * c + 1];
    int a = 3 * p.ia;
    int b = 3 * p.ib;
    p.dax = d[a];
    p.day = d[a + 1];
    p.daz = d[a + 2];
    p.dbx = d[b];
    p.dby = d[b + 1];
    p.dbz = d[b + 2];
    p.dx = (y[b] - y[a]) + (p.dbx - p.dax);
    p.dy = (y[b + 1] - y[a + 1]) + (p.dby - p.day);
    p.dz = (y[b + 2] - y[a + 2]) + (p.dbz - p.daz);
    p.wa = w[p.ia];
    p.wb = w[p.ib];
    p.wsum = p.wa + p.wb;
    p.d2 = p.dx * p.dx + p.dy * p.dy + p.dz * p.dz;
    p.len = sqrt(p.d2); // unused where the constraint is skipped
    return p;
}

// XpbdSolver skips a constraint between two pinned particles or two coincident ones
inline bool distance_skipped(distance_pair p) {
    return p.wsum == 0.0f || p.d2 < 1e-24f;
}

// the compliant multiplier step: (L - |C| - alpha lambda) / (w_a + w_b + alpha)
inline float distance_multiplier_step(distance_pair p, float rest, float alpha, float lambda) {
    return (rest - p.len - alpha * lambda) / (p.wsum + alpha);
}

// d_a -= w_a s (dx, dy, dz), d_b += w_b s (dx, dy, dz)
inline void distance_write(distance_pair p, float s, __global float* d) {
    float sa = p.wa * s;
    float sb = p.wb * s;
    int a = 3 * p.ia;
    int b = 3 * p.ib;
    d[a] = p.dax - sa * p.dx;
    d[a + 1] = p.day - sa * p.dy;
    d[a + 2] = p.daz - sa * p.dz;
    d[b] = p.dbx + sb * p.dx;
    d[b + 1] = p.dby + sb * p.dy;
    d[b + 2] = p.dbz + sb * p.dz;
}

// XpbdSolver.projectDistances (compliant: multiplier λ, α/h² per constraint) for constraint c, the
// work-item's global id (the launch's offset is the color's first constraint)
__kernel void xpbd_distances(__global const int* pairs, __global const float* rest,
                             __global const float* alphas, __global float* lambdas,
                             __global const float* w, __global const float* y, __global float* d) {
    int c = get_global_id(0);
    distance_pair p = distance_read(c, pairs, w, y, d);
    if (distance_skipped(p)) {
        return;
    }
    float dl = distance_multiplier_step(p, rest[c], alphas[c], lambdas[c]);
    lambdas[c] += dl;
    distance_write(p, dl / p.len, d);
}

// TetherProjection.projectRange for tether c, the work-item's global id (the launch's offset is the
// color's first tether; a color's tethers share no particle): a free particle further than its rest
// geodesic distance from its pinned anchor is put back onto that sphere; only d of the particle is written
__kernel void xpbd_tethers(__global const int* pairs, __global const float* maxLength,
                           __global const float* y, __global float* d) {
    int c = get_global_id(0);
    int p = 3 * pairs[2 * c];
    int a = 3 * pairs[2 * c + 1];
    float dx = (y[p] - y[a]) + (d[p] - d[a]);
    float dy = (y[p + 1] - y[a + 1]) + (d[p + 1] - d[a + 1]);
    float dz = (y[p + 2] - y[a + 2]) + (d[p + 2] - d[a + 2]);
    float d2 = dx * dx + dy * dy + dz * dz;
    float m = maxLength[c];
    if (d2 > m * m) {
        float s = m / sqrt(d2) - 1.0f;
        d[p] += dx * s;
        d[p + 1] += dy * s;
        d[p + 2] += dz * s;
    }
}

// XpbdSolver.projectRigidDistances: a color whose constraints all have zero compliance, no multiplier
__kernel void xpbd_rigid_distances(__global const int* pairs, __global const float* rest,
                                   __global const float* w, __global const float* y, __global float* d) {
    int c = get_global_id(0);
    distance_pair p = distance_read(c, pairs, w, y, d);
    if (distance_skipped(p)) {
        return;
    }
    distance_write(p, (rest[c] - p.len) / (p.wsum * p.len), d);
}

// XpbdSolver.projectDistance + distanceMultiplierStep (weight 1) for constraint order[k], k the global
// id: an extra stretch pass over a color whose stretch constraints are not one run of the storage
__kernel void xpbd_listed_distances(__global const int* order, __global const int* pairs,
                                    __global const float* rest, __global const float* alphas,
                                    __global float* lambdas, __global const float* w, __global const float* y,
                                    __global float* d) {
    int c = order[get_global_id(0)];
    distance_pair p = distance_read(c, pairs, w, y, d);
    if (distance_skipped(p)) {
        return;
    }
    float dl = distance_multiplier_step(p, rest[c], alphas[c], lambdas[c]);
    dl *= 1.0f;
    lambdas[c] += dl;
    float scale = dl / p.len;
    // as projectDistance: no write for a zero step (d - 0·dx can flip a zero's sign)
    if (scale == 0.0f) {
        return;
    }
    distance_write(p, scale, d);
}

// PositionStep.finish per particle (position_step.cl), CorrectedVelocity with Damping.AFTER's factor damp
__kernel void xpbd_finish(const int n, __global const float* invMass, __global const float* damp,
                          __global const float* grip, __global const float* offset, const int colliderCount,
                          __global const int* colliderType, __global const float* colliders, const float invH,
                          __global float* x, __global float* v, __global const float* y,
                          __global const float* d) {
    int i = get_global_id(0);
    if (i < n) {
        position_step_finish(i, invMass, grip, offset, colliderCount, colliderType, colliders, invH, damp[i], x, v, y,
                             d);
    }
}
