// XPBD (XpbdSolver) in its colored and Jacobi modes on distance constraints, dihedral and isometric
// bending and tethers, and in its colored mode on soft bodies' tetrahedra (TetProjection):
// one step is xpbd_predict (one work-item per particle), per iteration the distance passes, the bending
// pass (with the tetrahedra after the stencils, as XpbdSolver.sweep) and the tethers, and xpbd_finish
// (per particle: settle, colliders, velocity, damping).
//
// Colored: one launch per color of the distance constraints (then, for the extra stretch passes, one per
// color of the stretch constraints alone), one per color of the bending stencils, one per color of the
// tetrahedra. A color's constraints
// share no particle, so each work-item of a color launch writes only its constraint's multiplier and its
// particles' corrections; no atomics, and the CPU's order (colors in sequence) is kept.
//
// Jacobi (XpbdSolver.distanceCorrections / bendingCorrections, JacobiGather.apply): one launch computes
// every constraint's corrections from the same positions into the constraint's own slots (3 floats per
// particle it touches, scaled by the weight its particles share); then xpbd_jacobi_gather, per particle,
// sums its slots in the incidence's order (the CPU's) in float and adds the sum to its correction.
//
// Positions are StepPositions' y (prediction) + d (corrections); the float operations are
// XpbdSolver's, PositionStep's, StepPositions' and CorrectedVelocity's in the same order, under
// cpu_rounding.cl's rules.

// PositionStep.predict with Damping.AFTER (keep 1, no drag, no force) and StepPositions.predict:
// v' = v + h (g + F_air / m), y = x + h v', d = 0 (air: DeviceAir's float forces, or null in still air);
// a pinned particle gets v = 0 and y = x + 0 as the CPU rounds it
__kernel void xpbd_predict(const int n, __global const float* invMass, const float h, const float gx,
                           const float gy, const float gz, __global const float* x, __global float* v,
                           __global float* y, __global float* d, __global const float* air) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    if (position_step_predict_pinned(i, invMass, x, v, y, d)) {
        return;
    }
    int i3 = 3 * i;
    // drag 0 and keep 1 written out: 0 v and 1 v are what the CPU computes (signed zeros included)
    float ax = gx - 0.0f * v[i3];
    float ay = gy - 0.0f * v[i3 + 1];
    float az = gz - 0.0f * v[i3 + 2];
    if (air) {
        position_step_add_air(i, invMass, air, &ax, &ay, &az);
    }
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
// color's first tether; a color's tethers share no particle): tethers.cl's tether_project
__kernel void xpbd_tethers(__global const int* pairs, __global const float* maxLength,
                           __global const float* y, __global float* d) {
    tether_project(get_global_id(0), pairs, maxLength, y, d);
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

// XpbdSolver.distanceCorrections for constraint c, the global id: its corrections, scaled by its shared
// Jacobi weight, into slots 6c..6c+5 (a then b); with stretchOnly a constraint that is not a stretch one
// writes zeros (Jacobi's extra stretch passes). As distanceMultiplierStep, a skipped constraint has scale 0.
__kernel void xpbd_jacobi_distances(const int count, __global const int* pairs, __global const float* rest,
                                    __global const float* alphas, __global float* lambdas,
                                    __global const float* weights, __global const int* stretchFlags,
                                    const int stretchOnly, __global const float* w, __global const float* y,
                                    __global const float* d, __global float* correction) {
    int c = get_global_id(0);
    if (c >= count) {
        return;
    }
    int o = 6 * c;
    if (stretchOnly != 0 && stretchFlags[c] == 0) {
        for (int k = 0; k < 6; k++) {
            correction[o + k] = 0.0f;
        }
        return;
    }
    int ia = pairs[2 * c];
    int ib = pairs[2 * c + 1];
    int a = 3 * ia;
    int b = 3 * ib;
    float dx = (y[b] - y[a]) + (d[b] - d[a]);
    float dy = (y[b + 1] - y[a + 1]) + (d[b + 1] - d[a + 1]);
    float dz = (y[b + 2] - y[a + 2]) + (d[b + 2] - d[a + 2]);
    float wsum = w[ia] + w[ib];
    float d2 = dx * dx + dy * dy + dz * dz;
    float scale = 0.0f;
    if (!(wsum == 0.0f || d2 < 1e-24f)) {
        float len = sqrt(d2);
        float alpha = alphas[c];
        float dl = (rest[c] - len - alpha * lambdas[c]) / (wsum + alpha);
        dl *= weights[c];
        lambdas[c] += dl;
        scale = dl / len;
    }
    float sa = w[ia] * scale;
    float sb = w[ib] * scale;
    correction[o] = -sa * dx;
    correction[o + 1] = -sa * dy;
    correction[o + 2] = -sa * dz;
    correction[o + 3] = sb * dx;
    correction[o + 4] = sb * dy;
    correction[o + 5] = sb * dz;
}

// JacobiGather.apply for particle p, the global id: its slots (start[p]..start[p+1] of the incidence, in
// that order) summed in float from 0, the sum added to its correction; pinned particles are not written
__kernel void xpbd_jacobi_gather(const int n, __global const int* start, __global const int* slots,
                                 __global const float* correction, __global const float* w, __global float* d) {
    int p = get_global_id(0);
    if (p >= n) {
        return;
    }
    int from = start[p];
    int to = start[p + 1];
    if (to == from || w[p] == 0.0f) {
        return;
    }
    float sx = 0.0f;
    float sy = 0.0f;
    float sz = 0.0f;
    for (int k = from; k < to; k++) {
        int o = 3 * slots[k];
        sx += correction[o];
        sy += correction[o + 1];
        sz += correction[o + 2];
    }
    int p3 = 3 * p;
    d[p3] += sx;
    d[p3 + 1] += sy;
    d[p3 + 2] += sz;
}

// (java_max and java_min, Java's Math.max and Math.min on floats, are colliders.cl's)

// FastAtan.atan2: the octants folded onto [0, 1], the same 11th-order odd polynomial, the same constants
inline float fast_atan2(float y, float x) {
    float ax = fabs(x);
    float ay = fabs(y);
    float max = java_max(ax, ay);
    if (max == 0.0f) {
        return 0.0f;
    }
    float a = java_min(ax, ay) / max;
    float s = a * a;
    float r = (((((-0.0117212f * s + 0.05265332f) * s - 0.11643287f) * s + 0.19354346f) * s - 0.33262347f) * s
            + 0.99997726f) * a;
    if (ay > ax) {
        r = 1.5707964f - r;
    }
    if (x < 0.0f) {
        r = 3.1415927f - r;
    }
    return copysign(r, y);
}

// DihedralAngle.compute(y, d, e0, e1, o0, o1, grad) (its fromDifferences): the signed dihedral angle of
// the stencil and its gradient (e0, e1, o0, o1, 3 floats each) in the CPU's operations; NaN where a
// triangle is degenerate (grad then unwritten)
inline float dihedral_angle(__global const float* y, __global const float* dd, int e0, int e1, int o0, int o1,
                            float* grad) {
    int a = 3 * e0;
    int b = 3 * e1;
    int c = 3 * o0;
    int d = 3 * o1;
    float ex = (y[b] - y[a]) + (dd[b] - dd[a]);
    float ey = (y[b + 1] - y[a + 1]) + (dd[b + 1] - dd[a + 1]);
    float ez = (y[b + 2] - y[a + 2]) + (dd[b + 2] - dd[a + 2]);
    float p0x = (y[c] - y[a]) + (dd[c] - dd[a]);
    float p0y = (y[c + 1] - y[a + 1]) + (dd[c + 1] - dd[a + 1]);
    float p0z = (y[c + 2] - y[a + 2]) + (dd[c + 2] - dd[a + 2]);
    float p1x = (y[c] - y[b]) + (dd[c] - dd[b]);
    float p1y = (y[c + 1] - y[b + 1]) + (dd[c + 1] - dd[b + 1]);
    float p1z = (y[c + 2] - y[b + 2]) + (dd[c + 2] - dd[b + 2]);
    float q0x = (y[d] - y[b]) + (dd[d] - dd[b]);
    float q0y = (y[d + 1] - y[b + 1]) + (dd[d + 1] - dd[b + 1]);
    float q0z = (y[d + 2] - y[b + 2]) + (dd[d + 2] - dd[b + 2]);
    float q1x = (y[d] - y[a]) + (dd[d] - dd[a]);
    float q1y = (y[d + 1] - y[a + 1]) + (dd[d + 1] - dd[a + 1]);
    float q1z = (y[d + 2] - y[a + 2]) + (dd[d + 2] - dd[a + 2]);
    float n1x = p0y * p1z - p0z * p1y;
    float n1y = p0z * p1x - p0x * p1z;
    float n1z = p0x * p1y - p0y * p1x;
    float n2x = q0y * q1z - q0z * q1y;
    float n2y = q0z * q1x - q0x * q1z;
    float n2z = q0x * q1y - q0y * q1x;
    float e2 = ex * ex + ey * ey + ez * ez;
    float n1sq = n1x * n1x + n1y * n1y + n1z * n1z;
    float n2sq = n2x * n2x + n2y * n2y + n2z * n2z;
    if (e2 < 1e-20f || n1sq < 1e-30f || n2sq < 1e-30f) {
        return NAN;
    }
    float elen = sqrt(e2);
    float cosScaled = (n1x * n2x + n1y * n2y + n1z * n2z) * elen;
    float cx = n1y * n2z - n1z * n2y;
    float cy = n1z * n2x - n1x * n2z;
    float cz = n1x * n2y - n1y * n2x;
    float sinScaled = cx * ex + cy * ey + cz * ez;
    float angle = fast_atan2(sinScaled, cosScaled);
    float invElen = 1.0f / elen;
    float s1 = 1.0f / n1sq;
    float s2 = 1.0f / n2sq;
    float g0 = -elen * s1;
    float g1 = -elen * s2;
    grad[6] = g0 * n1x;
    grad[7] = g0 * n1y;
    grad[8] = g0 * n1z;
    grad[9] = g1 * n2x;
    grad[10] = g1 * n2y;
    grad[11] = g1 * n2z;
    float t0 = (p1x * ex + p1y * ey + p1z * ez) * invElen;
    float t1 = (q0x * ex + q0y * ey + q0z * ez) * invElen;
    float u0 = (p0x * ex + p0y * ey + p0z * ez) * invElen;
    float u1 = (q1x * ex + q1y * ey + q1z * ez) * invElen;
    float ae1 = t0 * s1;
    float ae2 = t1 * s2;
    grad[0] = -(ae1 * n1x + ae2 * n2x);
    grad[1] = -(ae1 * n1y + ae2 * n2y);
    grad[2] = -(ae1 * n1z + ae2 * n2z);
    float be1 = u0 * s1;
    float be2 = u1 * s2;
    grad[3] = be1 * n1x + be2 * n2x;
    grad[4] = be1 * n1y + be2 * n2y;
    grad[5] = be1 * n1z + be2 * n2z;
    return angle;
}

// XpbdSolver.bendingMultiplierStep for stencil c: the constraint angle − rest wrapped into (−π, π], the
// multiplier updated by weight·Δλ; returns that (0 where there is nothing to do) and fills grad
inline float bending_multiplier_step(int c, __global const int* stencils, __global const float* rest,
                                     __global const float* alphas, __global float* lambdas,
                                     __global const float* w, __global const float* y, __global const float* d,
                                     float weight, float* grad) {
    int e0 = stencils[4 * c];
    int e1 = stencils[4 * c + 1];
    int o0 = stencils[4 * c + 2];
    int o1 = stencils[4 * c + 3];
    float angle = dihedral_angle(y, d, e0, e1, o0, o1, grad);
    if (isnan(angle)) {
        return 0.0f;
    }
    float constraint = angle - rest[c];
    // (float) Math.PI and (float) (2 * Math.PI), as the CPU rounds them
    if (constraint > 0x1.921fb6p1f) {
        constraint -= 0x1.921fb6p2f;
    } else if (constraint < -0x1.921fb6p1f) {
        constraint += 0x1.921fb6p2f;
    }
    float alpha = alphas[c];
    float denom = alpha;
    denom += w[e0] * (grad[0] * grad[0] + grad[1] * grad[1] + grad[2] * grad[2]);
    denom += w[e1] * (grad[3] * grad[3] + grad[4] * grad[4] + grad[5] * grad[5]);
    denom += w[o0] * (grad[6] * grad[6] + grad[7] * grad[7] + grad[8] * grad[8]);
    denom += w[o1] * (grad[9] * grad[9] + grad[10] * grad[10] + grad[11] * grad[11]);
    if (!(denom > 1e-20f)) {
        return 0.0f;
    }
    float dl = (-constraint - alpha * lambdas[c]) / denom;
    dl *= weight;
    lambdas[c] += dl;
    return dl;
}

// XpbdSolver.isometricMultiplierStep for isometric stencil c: H = sum_j K_j x_j from differences to x_e0
// (IsometricBending.curvature), C = |H| - rest, grad_j = K_j H/|H|, the multiplier updated by weight·Δλ;
// returns that (0 where there is nothing to do) and fills grad
inline float isometric_multiplier_step(int c, __global const int* stencils, __global const float* kw,
                                       __global const float* rest, __global const float* alphas,
                                       __global float* lambdas, __global const float* w, __global const float* y,
                                       __global const float* d, float weight, float* grad) {
    int a = 3 * stencils[4 * c];
    int b = 3 * stencils[4 * c + 1];
    int o = 3 * stencils[4 * c + 2];
    int e = 3 * stencils[4 * c + 3];
    float k1 = kw[4 * c + 1];
    float k2 = kw[4 * c + 2];
    float k3 = kw[4 * c + 3];
    float dax = d[a];
    float day = d[a + 1];
    float daz = d[a + 2];
    float hx = k1 * ((y[b] - y[a]) + (d[b] - dax)) + k2 * ((y[o] - y[a]) + (d[o] - dax))
            + k3 * ((y[e] - y[a]) + (d[e] - dax));
    float hy = k1 * ((y[b + 1] - y[a + 1]) + (d[b + 1] - day)) + k2 * ((y[o + 1] - y[a + 1]) + (d[o + 1] - day))
            + k3 * ((y[e + 1] - y[a + 1]) + (d[e + 1] - day));
    float hz = k1 * ((y[b + 2] - y[a + 2]) + (d[b + 2] - daz)) + k2 * ((y[o + 2] - y[a + 2]) + (d[o + 2] - daz))
            + k3 * ((y[e + 2] - y[a + 2]) + (d[e + 2] - daz));
    grad[0] = hx;
    grad[1] = hy;
    grad[2] = hz;
    float len = sqrt(hx * hx + hy * hy + hz * hz);
    if (!(len > 0.0f)) {
        return 0.0f;
    }
    float nx = grad[0] / len;
    float ny = grad[1] / len;
    float nz = grad[2] / len;
    float denom = alphas[c];
    for (int k = 0; k < 4; k++) {
        float kk = kw[4 * c + k];
        denom += w[stencils[4 * c + k]] * kk * kk;
        grad[3 * k] = kk * nx;
        grad[3 * k + 1] = kk * ny;
        grad[3 * k + 2] = kk * nz;
    }
    if (!(denom > 1e-20f)) {
        return 0.0f;
    }
    float dl = (rest[c] - len - alphas[c] * lambdas[c]) / denom;
    dl *= weight;
    lambdas[c] += dl;
    return dl;
}

// Stencil c by its own model (XpbdSolver.projectStencil's and bendingCorrections' choice): isometric where
// the model has such stencils and c is one, else dihedral
inline float stencil_multiplier_step(int c, __global const int* stencils, __global const int* models,
                                     __global const float* kw, const int anyIsometric, __global const float* rest,
                                     __global const float* alphas, __global float* lambdas,
                                     __global const float* w, __global const float* y, __global const float* d,
                                     float weight, float* grad) {
    if (anyIsometric != 0 && models[c] == 1) {
        return isometric_multiplier_step(c, stencils, kw, rest, alphas, lambdas, w, y, d, weight, grad);
    }
    return bending_multiplier_step(c, stencils, rest, alphas, lambdas, w, y, d, weight, grad);
}

// XpbdSolver.projectIsometricRange for stencil c, the global id: a color of a model whose stencils are all
// isometric, the arithmetic inlined as the CPU's (its own sum orders, not isometricMultiplierStep's)
__kernel void xpbd_isometric(__global const int* stencils, __global const float* kw, __global const float* rest,
                             __global const float* alphas, __global float* lambdas, __global const float* w,
                             __global const float* y, __global float* d) {
    int c = get_global_id(0);
    int i0 = stencils[4 * c];
    int i1 = stencils[4 * c + 1];
    int i2 = stencils[4 * c + 2];
    int i3 = stencils[4 * c + 3];
    int a = 3 * i0;
    int b = 3 * i1;
    int o = 3 * i2;
    int q = 3 * i3;
    float k0 = kw[4 * c];
    float k1 = kw[4 * c + 1];
    float k2 = kw[4 * c + 2];
    float k3 = kw[4 * c + 3];
    float dax = d[a];
    float day = d[a + 1];
    float daz = d[a + 2];
    float hx = k1 * ((y[b] - y[a]) + (d[b] - dax)) + k2 * ((y[o] - y[a]) + (d[o] - dax))
            + k3 * ((y[q] - y[a]) + (d[q] - dax));
    float hy = k1 * ((y[b + 1] - y[a + 1]) + (d[b + 1] - day)) + k2 * ((y[o + 1] - y[a + 1]) + (d[o + 1] - day))
            + k3 * ((y[q + 1] - y[a + 1]) + (d[q + 1] - day));
    float hz = k1 * ((y[b + 2] - y[a + 2]) + (d[b + 2] - daz)) + k2 * ((y[o + 2] - y[a + 2]) + (d[o + 2] - daz))
            + k3 * ((y[q + 2] - y[a + 2]) + (d[q + 2] - daz));
    float len2 = hx * hx + hy * hy + hz * hz;
    if (!(len2 > 0.0f)) {
        return;
    }
    float w0 = w[i0];
    float w1 = w[i1];
    float w2 = w[i2];
    float w3 = w[i3];
    float alpha = alphas[c];
    float denom = w0 * k0 * k0 + w1 * k1 * k1 + w2 * k2 * k2 + w3 * k3 * k3 + alpha;
    if (!(denom > 1e-20f)) {
        return;
    }
    float len = sqrt(len2);
    float dl = (rest[c] - len - alpha * lambdas[c]) / denom;
    lambdas[c] += dl;
    float s = dl / len;
    float s0 = w0 * k0 * s;
    float s1 = w1 * k1 * s;
    float s2 = w2 * k2 * s;
    float s3 = w3 * k3 * s;
    d[a] = dax + s0 * hx;
    d[a + 1] = day + s0 * hy;
    d[a + 2] = daz + s0 * hz;
    d[b] += s1 * hx;
    d[b + 1] += s1 * hy;
    d[b + 2] += s1 * hz;
    d[o] += s2 * hx;
    d[o + 1] += s2 * hy;
    d[o + 2] += s2 * hz;
    d[q] += s3 * hx;
    d[q + 1] += s3 * hy;
    d[q + 2] += s3 * hz;
}

// XpbdSolver.projectStencil for stencil c, the global id (the launch's offset is the color's first stencil;
// a color's stencils share no particle): dihedral, or isometric in a model with both, the correction
// written at once
__kernel void xpbd_bending(__global const int* stencils, __global const int* models, __global const float* kw,
                           const int anyIsometric, __global const float* rest, __global const float* alphas,
                           __global float* lambdas, __global const float* w, __global const float* y,
                           __global float* d) {
    int c = get_global_id(0);
    float grad[12];
    float dl = stencil_multiplier_step(c, stencils, models, kw, anyIsometric, rest, alphas, lambdas, w, y, d, 1.0f,
                                       grad);
    if (dl == 0.0f) {
        return;
    }
    for (int k = 0; k < 4; k++) {
        int p = stencils[4 * c + k];
        float s = w[p] * dl;
        int p3 = 3 * p;
        d[p3] += s * grad[3 * k];
        d[p3 + 1] += s * grad[3 * k + 1];
        d[p3 + 2] += s * grad[3 * k + 2];
    }
}

// XpbdSolver.bendingCorrections for stencil c, the global id: its four particles' corrections (dihedral
// or isometric, by its model), scaled by its shared Jacobi weight, into slots 12c..12c+11. Where the
// stencil has no gradient (dl 0: a degenerate dihedral, a flat isometric one) the CPU multiplies 0 by what
// its thread's gradient scratch last held; here by 0: a zero either way, and a zero slot leaves a gather's
// sum (which starts at +0) as it is, whatever its sign
__kernel void xpbd_jacobi_bending(const int count, __global const int* stencils, __global const int* models,
                                  __global const float* kw, const int anyIsometric, __global const float* rest,
                                  __global const float* alphas, __global float* lambdas,
                                  __global const float* weights, __global const float* w,
                                  __global const float* y, __global const float* d, __global float* correction) {
    int c = get_global_id(0);
    if (c >= count) {
        return;
    }
    float grad[12];
    for (int k = 0; k < 12; k++) {
        grad[k] = 0.0f;
    }
    float dl = stencil_multiplier_step(c, stencils, models, kw, anyIsometric, rest, alphas, lambdas, w, y, d,
                                       weights[c], grad);
    int o = 12 * c;
    for (int k = 0; k < 4; k++) {
        float s = w[stencils[4 * c + k]] * dl;
        correction[o + 3 * k] = s * grad[3 * k];
        correction[o + 3 * k + 1] = s * grad[3 * k + 1];
        correction[o + 3 * k + 2] = s * grad[3 * k + 2];
    }
}

// TetProjection.projectInPlace for tetrahedron c, the global id (the launch's offset is the tetrahedron
// color's first; a color's tetrahedra share no particle): volume C_v = 6 (V - V0) and shape C_s = |E| (Green's
// strain less its rest value) solved together by Macklin & Müller's 2 x 2 step from one F = D_s D_m^-1, one
// move w (dv grad C_v + du u) written at once. packed holds TetProjection's PACKED (18) floats per
// tetrahedron as the CPU computed them: D_m^-1 (9), the rest strain (6), 6 V0, alpha~ of volume and shape
// (FLT_MAX: absent). Every float operation is the CPU's, in its order, including the zeros of an absent
// constraint's gradients (their negated sums are -0), so PoCL gives its bits.
__kernel void xpbd_tets(__global const int* tets, __global const float* packed, __global float* lambdas,
                        __global const float* w, __global const float* y, __global float* d) {
    int c = get_global_id(0);
    int t = 4 * c;
    int i0 = tets[t];
    int i1 = tets[t + 1];
    int i2 = tets[t + 2];
    int i3 = tets[t + 3];
    int a = 3 * i0;
    int b1 = 3 * i1;
    int b2 = 3 * i2;
    int b3 = 3 * i3;
    float e1x = (y[b1] - y[a]) + (d[b1] - d[a]);
    float e1y = (y[b1 + 1] - y[a + 1]) + (d[b1 + 1] - d[a + 1]);
    float e1z = (y[b1 + 2] - y[a + 2]) + (d[b1 + 2] - d[a + 2]);
    float e2x = (y[b2] - y[a]) + (d[b2] - d[a]);
    float e2y = (y[b2 + 1] - y[a + 1]) + (d[b2 + 1] - d[a + 1]);
    float e2z = (y[b2 + 2] - y[a + 2]) + (d[b2 + 2] - d[a + 2]);
    float e3x = (y[b3] - y[a]) + (d[b3] - d[a]);
    float e3y = (y[b3 + 1] - y[a + 1]) + (d[b3 + 1] - d[a + 1]);
    float e3z = (y[b3 + 2] - y[a + 2]) + (d[b3 + 2] - d[a + 2]);
    __global const float* q = packed + 18 * c;
    float alphaV = q[16];
    float alphaS = q[17];
    bool volume = alphaV < FLT_MAX;
    // the volume's constraint and gradients e2 x e3, e3 x e1, e1 x e2 at corners 1-3
    float v1x = 0.0f, v1y = 0.0f, v1z = 0.0f, v2x = 0.0f, v2y = 0.0f, v2z = 0.0f, v3x = 0.0f, v3y = 0.0f,
          v3z = 0.0f;
    float cv = 0.0f;
    if (volume) {
        v1x = e2y * e3z - e2z * e3y;
        v1y = e2z * e3x - e2x * e3z;
        v1z = e2x * e3y - e2y * e3x;
        v2x = e3y * e1z - e3z * e1y;
        v2y = e3z * e1x - e3x * e1z;
        v2z = e3x * e1y - e3y * e1x;
        v3x = e1y * e2z - e1z * e2y;
        v3y = e1z * e2x - e1x * e2z;
        v3z = e1x * e2y - e1y * e2x;
        cv = (e1x * v1x + e1y * v1y + e1z * v1z) - q[15];
    }
    bool shape = alphaS < FLT_MAX;
    // the shape's unnormalized gradients u at corners 1-3, its |E|^2 and |E|
    float u1x = 0.0f, u1y = 0.0f, u1z = 0.0f, u2x = 0.0f, u2y = 0.0f, u2z = 0.0f, u3x = 0.0f, u3y = 0.0f,
          u3z = 0.0f;
    float norm2 = 0.0f;
    float cs = 0.0f;
    if (shape) {
        float r00 = q[0];
        float r01 = q[1];
        float r02 = q[2];
        float r10 = q[3];
        float r11 = q[4];
        float r12 = q[5];
        float r20 = q[6];
        float r21 = q[7];
        float r22 = q[8];
        // F = D_s D_m^-1, row by row
        float f00 = e1x * r00 + e2x * r10 + e3x * r20;
        float f01 = e1x * r01 + e2x * r11 + e3x * r21;
        float f02 = e1x * r02 + e2x * r12 + e3x * r22;
        float f10 = e1y * r00 + e2y * r10 + e3y * r20;
        float f11 = e1y * r01 + e2y * r11 + e3y * r21;
        float f12 = e1y * r02 + e2y * r12 + e3y * r22;
        float f20 = e1z * r00 + e2z * r10 + e3z * r20;
        float f21 = e1z * r01 + e2z * r11 + e3z * r21;
        float f22 = e1z * r02 + e2z * r12 + e3z * r22;
        // Green's strain less its rest value
        float exx = 0.5f * (f00 * f00 + f10 * f10 + f20 * f20 - 1.0f) - q[9];
        float eyy = 0.5f * (f01 * f01 + f11 * f11 + f21 * f21 - 1.0f) - q[10];
        float ezz = 0.5f * (f02 * f02 + f12 * f12 + f22 * f22 - 1.0f) - q[11];
        float exy = 0.5f * (f00 * f01 + f10 * f11 + f20 * f21) - q[12];
        float eyz = 0.5f * (f01 * f02 + f11 * f12 + f21 * f22) - q[13];
        float ezx = 0.5f * (f02 * f00 + f12 * f10 + f22 * f20) - q[14];
        norm2 = exx * exx + eyy * eyy + ezz * ezz + 2.0f * (exy * exy + eyz * eyz + ezx * ezx);
        // |E| <= 1e-10 is below what float F resolves: left out, as on the CPU
        shape = norm2 > 1e-20f;
        if (shape) {
            cs = sqrt(norm2);
            // P = F E row by row; corner i's u is P times row i of D_m^-1
            float p00 = f00 * exx + f01 * exy + f02 * ezx;
            float p01 = f00 * exy + f01 * eyy + f02 * eyz;
            float p02 = f00 * ezx + f01 * eyz + f02 * ezz;
            float p10 = f10 * exx + f11 * exy + f12 * ezx;
            float p11 = f10 * exy + f11 * eyy + f12 * eyz;
            float p12 = f10 * ezx + f11 * eyz + f12 * ezz;
            float p20 = f20 * exx + f21 * exy + f22 * ezx;
            float p21 = f20 * exy + f21 * eyy + f22 * eyz;
            float p22 = f20 * ezx + f21 * eyz + f22 * ezz;
            u1x = p00 * r00 + p01 * r01 + p02 * r02;
            u1y = p10 * r00 + p11 * r01 + p12 * r02;
            u1z = p20 * r00 + p21 * r01 + p22 * r02;
            u2x = p00 * r10 + p01 * r11 + p02 * r12;
            u2y = p10 * r10 + p11 * r11 + p12 * r12;
            u2z = p20 * r10 + p21 * r11 + p22 * r12;
            u3x = p00 * r20 + p01 * r21 + p02 * r22;
            u3y = p10 * r20 + p11 * r21 + p12 * r22;
            u3z = p20 * r20 + p21 * r21 + p22 * r22;
        }
    }
    if (!volume && !shape) {
        return;
    }
    float w0 = w[i0];
    float w1 = w[i1];
    float w2 = w[i2];
    float w3 = w[i3];
    // corner 0's gradients: the negated sums
    float v0x = -(v1x + v2x + v3x);
    float v0y = -(v1y + v2y + v3y);
    float v0z = -(v1z + v2z + v3z);
    float u0x = -(u1x + u2x + u3x);
    float u0y = -(u1y + u2y + u3y);
    float u0z = -(u1z + u2z + u3z);
    // the system's entries sum w grad . grad
    float avv = w0 * (v0x * v0x + v0y * v0y + v0z * v0z) + w1 * (v1x * v1x + v1y * v1y + v1z * v1z)
            + w2 * (v2x * v2x + v2y * v2y + v2z * v2z) + w3 * (v3x * v3x + v3y * v3y + v3z * v3z);
    float auu = w0 * (u0x * u0x + u0y * u0y + u0z * u0z) + w1 * (u1x * u1x + u1y * u1y + u1z * u1z)
            + w2 * (u2x * u2x + u2y * u2y + u2z * u2z) + w3 * (u3x * u3x + u3y * u3y + u3z * u3z);
    float avu = w0 * (v0x * u0x + v0y * u0y + v0z * u0z) + w1 * (v1x * u1x + v1y * u1y + v1z * u1z)
            + w2 * (v2x * u2x + v2y * u2y + v2z * u2z) + w3 * (v3x * u3x + v3y * u3y + v3z * u3z);
    int l = 2 * c;
    // dv = delta lambda_v; du = delta lambda_s / |E| (the move along u)
    float dv = 0.0f;
    float du = 0.0f;
    if (volume && shape) {
        float kvv = avv + alphaV;
        float kuu = auu + alphaS * norm2;
        float rv = -cv - alphaV * lambdas[l];
        float ru = (-cs - alphaS * lambdas[l + 1]) * cs;
        float det = kvv * kuu - avu * avu;
        if (det > 1e-6f * kvv * kuu) {
            float inv = 1.0f / det;
            dv = (kuu * rv - avu * ru) * inv;
            du = (kvv * ru - avu * rv) * inv;
        } else if (kvv > 1e-30f) {
            dv = rv / kvv;
        }
    } else if (volume) {
        float kvv = avv + alphaV;
        if (kvv > 1e-30f) {
            dv = (-cv - alphaV * lambdas[l]) / kvv;
        }
    } else {
        float kuu = auu + alphaS * norm2;
        if (kuu > 1e-30f) {
            du = (-cs - alphaS * lambdas[l + 1]) * cs / kuu;
        }
    }
    if (dv == 0.0f && du == 0.0f) {
        return;
    }
    lambdas[l] += dv;
    lambdas[l + 1] += du * cs;
    float f = w0;
    d[a] += f * (dv * v0x + du * u0x);
    d[a + 1] += f * (dv * v0y + du * u0y);
    d[a + 2] += f * (dv * v0z + du * u0z);
    f = w1;
    d[b1] += f * (dv * v1x + du * u1x);
    d[b1 + 1] += f * (dv * v1y + du * u1y);
    d[b1 + 2] += f * (dv * v1z + du * u1z);
    f = w2;
    d[b2] += f * (dv * v2x + du * u2x);
    d[b2 + 1] += f * (dv * v2y + du * u2y);
    d[b2 + 2] += f * (dv * v2z + du * u2z);
    f = w3;
    d[b3] += f * (dv * v3x + du * u3x);
    d[b3 + 1] += f * (dv * v3y + du * u3y);
    d[b3 + 2] += f * (dv * v3z + du * u3z);
}

// TetProjection.multiplier: XPBD's delta lambda = (-C - alpha lambda) / (sum w |grad C|^2 + alpha) times the
// weight, added to lambdas[at], for gradients g[0..8] at corners 1-3 (corner 0's their negated sum); 0 where the
// denominator is not above 1e-30
inline float tet_multiplier(int c, __global const int* tets, __global const float* w, const float* g,
                            float constraint, float alpha, __global float* lambdas, int at, float weight) {
    float g0x = -(g[0] + g[3] + g[6]);
    float g0y = -(g[1] + g[4] + g[7]);
    float g0z = -(g[2] + g[5] + g[8]);
    float denom = alpha + w[tets[4 * c]] * (g0x * g0x + g0y * g0y + g0z * g0z);
    for (int k = 1; k < 4; k++) {
        float gx = g[3 * k - 3];
        float gy = g[3 * k - 2];
        float gz = g[3 * k - 1];
        denom += w[tets[4 * c + k]] * (gx * gx + gy * gy + gz * gz);
    }
    if (!(denom > 1e-30f)) {
        return 0.0f;
    }
    float dl = (-constraint - alpha * lambdas[at]) / denom * weight;
    lambdas[at] += dl;
    return dl;
}

// TetProjection.moveJacobi: the four corners' moves w dl grad C added into the tetrahedron's slots 12c..12c+11
inline void tet_move_jacobi(int c, __global const int* tets, __global const float* w, const float* g, float dl,
                            __global float* correction) {
    for (int k = 0; k < 4; k++) {
        float gx = k == 0 ? -(g[0] + g[3] + g[6]) : g[3 * k - 3];
        float gy = k == 0 ? -(g[1] + g[4] + g[7]) : g[3 * k - 2];
        float gz = k == 0 ? -(g[2] + g[5] + g[8]) : g[3 * k - 1];
        int at = 12 * c + 3 * k;
        float f = w[tets[4 * c + k]] * dl;
        correction[at] += f * gx;
        correction[at + 1] += f * gy;
        correction[at + 2] += f * gz;
    }
}

// TetProjection.jacobiCorrections / projectJacobi for tetrahedron c, the global id: its 12 slots zeroed, then
// volume, then shape, each from the same positions (TetProjection.edges, sixVolume and strain in their
// operations and order) as its own multiplier step scaled by the tetrahedron's shared Jacobi weight, its
// moves added into the slots; xpbd_jacobi_gather then sums them per particle over the tetrahedron incidence
__kernel void xpbd_jacobi_tets(const int count, __global const int* tets, __global const float* packed,
                               __global float* lambdas, __global const float* weights, __global const float* w,
                               __global const float* y, __global const float* d, __global float* correction) {
    int c = get_global_id(0);
    if (c >= count) {
        return;
    }
    for (int k = 0; k < 12; k++) {
        correction[12 * c + k] = 0.0f;
    }
    float weight = weights[c];
    __global const float* q = packed + 18 * c;
    float alphaV = q[16];
    float alphaS = q[17];
    // TetProjection.edges: e1, e2, e3 into e[0..8]
    float e[9];
    int a = 3 * tets[4 * c];
    for (int k = 1; k < 4; k++) {
        int b = 3 * tets[4 * c + k];
        int o = 3 * (k - 1);
        e[o] = (y[b] - y[a]) + (d[b] - d[a]);
        e[o + 1] = (y[b + 1] - y[a + 1]) + (d[b + 1] - d[a + 1]);
        e[o + 2] = (y[b + 2] - y[a + 2]) + (d[b + 2] - d[a + 2]);
    }
    // gradients at corners 1-3 (TetProjection's s[9..17])
    float g[9];
    if (alphaV < FLT_MAX) {
        // TetProjection.sixVolume
        g[0] = e[4] * e[8] - e[5] * e[7];
        g[1] = e[5] * e[6] - e[3] * e[8];
        g[2] = e[3] * e[7] - e[4] * e[6];
        g[3] = e[7] * e[2] - e[8] * e[1];
        g[4] = e[8] * e[0] - e[6] * e[2];
        g[5] = e[6] * e[1] - e[7] * e[0];
        g[6] = e[1] * e[5] - e[2] * e[4];
        g[7] = e[2] * e[3] - e[0] * e[5];
        g[8] = e[0] * e[4] - e[1] * e[3];
        float constraint = (e[0] * g[0] + e[1] * g[1] + e[2] * g[2]) - q[15];
        float dl = tet_multiplier(c, tets, w, g, constraint, alphaV, lambdas, 2 * c, weight);
        if (dl != 0.0f) {
            tet_move_jacobi(c, tets, w, g, dl, correction);
        }
    }
    if (alphaS < FLT_MAX) {
        // TetProjection.strain: F = D_s D_m^-1 row by row, then Green's strain, less its rest value
        float f[9];
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                f[3 * row + col] = e[row] * q[col] + e[3 + row] * q[3 + col] + e[6 + row] * q[6 + col];
            }
        }
        float strain[6];
        for (int k = 0; k < 3; k++) {
            int l = (k + 1) % 3;
            strain[k] = 0.5f * (f[k] * f[k] + f[3 + k] * f[3 + k] + f[6 + k] * f[6 + k] - 1.0f);
            strain[3 + k] = 0.5f * (f[k] * f[l] + f[3 + k] * f[3 + l] + f[6 + k] * f[6 + l]);
        }
        float exx = strain[0] - q[9];
        float eyy = strain[1] - q[10];
        float ezz = strain[2] - q[11];
        float exy = strain[3] - q[12];
        float eyz = strain[4] - q[13];
        float ezx = strain[5] - q[14];
        float norm2 = exx * exx + eyy * eyy + ezz * ezz + 2.0f * (exy * exy + eyz * eyz + ezx * ezx);
        if (!(norm2 > 0.0f)) {
            return;
        }
        float constraint = sqrt(norm2);
        float inv = 1.0f / constraint;
        // dC/dF = F E / |E|; corner i's gradient is (dC/dF) times row i of D_m^-1
        for (int row = 0; row < 3; row++) {
            float f0 = f[3 * row];
            float f1 = f[3 * row + 1];
            float f2 = f[3 * row + 2];
            float p0 = (f0 * exx + f1 * exy + f2 * ezx) * inv;
            float p1 = (f0 * exy + f1 * eyy + f2 * eyz) * inv;
            float p2 = (f0 * ezx + f1 * eyz + f2 * ezz) * inv;
            for (int i = 0; i < 3; i++) {
                g[3 * i + row] = p0 * q[3 * i] + p1 * q[3 * i + 1] + p2 * q[3 * i + 2];
            }
        }
        float dl = tet_multiplier(c, tets, w, g, constraint, alphaS, lambdas, 2 * c + 1, weight);
        if (dl != 0.0f) {
            tet_move_jacobi(c, tets, w, g, dl, correction);
        }
    }
}
