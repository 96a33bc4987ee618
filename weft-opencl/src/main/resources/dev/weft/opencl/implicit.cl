// Baraff and Witkin's implicit Euler (seed 000) as ImplicitSolver runs it, in its float and double
// operations and order: the filter S and z per particle (pins, still planes through S), each spring's
// force and Jacobians, the gather of A's diagonal blocks, b and the block inverses per row, then (after
// implicit_linear.cl's solve) the velocity and position update with the planes' release test and
// friction, the tethers and the other colliders by projection. real_t is double where the device has
// fp64 (the CPU's doubles), else float. Each work-item writes only what it owns. What both files share
// (the filter, the row product, the preconditioner, the scalars' layout) is here, built first.

typedef accum_t real_t;

// RowChunks.SIZE
#define CHUNK 64
// ParticleFilter's kinds (no user planes or lines on the device: FREE, PLANE, FIXED)
#define FILTER_FREE 0
#define FILTER_PLANE 1
#define FILTER_FIXED 3
// ImplicitContacts.CONTACT_SLOP
#define CONTACT_SLOP 1e-5f

// The solver's scalars (OpenClImplicitSolver's indices)
#define S_B_NORM2 0
#define S_DELTA 1
#define S_R_NORM2 2
#define S_TARGET2 3
#define S_ALPHA 4
#define S_BETA 5
#define S_ITERATIONS 6
#define S_ACTIVE 7
#define S_FAILURE 8
#define S_FAILURE_ROW 9
#define S_CQ 10
#define S_MAX_ITERATIONS 11
// S_FAILURE's values
#define FAIL_BLOCK 1
#define FAIL_BREAKDOWN 2
#define FAIL_NONFINITE 3

// ---- the filter S (ParticleFilter) ------------------------------------------------------------------

// v <- S_i v (ParticleFilter.apply)
static void filter_apply(int kind, __global const real_t* p, int i3, real_t* v) {
    if (kind == FILTER_FREE) {
        return;
    }
    if (kind == FILTER_FIXED) {
        v[0] = 0.0;
        v[1] = 0.0;
        v[2] = 0.0;
        return;
    }
    real_t d = v[0] * p[i3] + v[1] * p[i3 + 1] + v[2] * p[i3 + 2];
    v[0] -= d * p[i3];
    v[1] -= d * p[i3 + 1];
    v[2] -= d * p[i3 + 2];
}

// Row i of A x (BlockSparseMatrix.multiplyRow): the float blocks times the real vector, summed in real_t
static void multiply_row(__global const int* rowStart, __global const int* col, __global const float* a,
                         __global const real_t* x, int i, real_t* out) {
    real_t sx = 0.0;
    real_t sy = 0.0;
    real_t sz = 0.0;
    for (int k = rowStart[i], end = rowStart[i + 1]; k < end; k++) {
        int j3 = 3 * col[k];
        int o = 6 * k;
        real_t xj = x[j3];
        real_t yj = x[j3 + 1];
        real_t zj = x[j3 + 2];
        real_t axy = a[o + 1];
        real_t axz = a[o + 2];
        real_t ayz = a[o + 4];
        sx += (real_t) a[o] * xj + axy * yj + axz * zj;
        sy += axy * xj + (real_t) a[o + 3] * yj + ayz * zj;
        sz += axz * xj + ayz * yj + (real_t) a[o + 5] * zj;
    }
    out[0] = sx;
    out[1] = sy;
    out[2] = sz;
}

// out = P_i^-1 in (FilteredSystem.precondition)
static void precondition(__global const real_t* inv, int i, const real_t* in, real_t* out) {
    int o = 9 * i;
    real_t x = in[0];
    real_t y = in[1];
    real_t w = in[2];
    out[0] = inv[o] * x + inv[o + 1] * y + inv[o + 2] * w;
    out[1] = inv[o + 3] * x + inv[o + 4] * y + inv[o + 5] * w;
    out[2] = inv[o + 6] * x + inv[o + 7] * y + inv[o + 8] * w;
}

// ---- assembly (ImplicitSolver.buildConstraints, evaluateSprings, assembleRows) --------------------------

// The filter block and z of particle i: pinned fixed with z = -v; a free particle touching a still plane
// (within the slop, not moving away, not released last step) constrained to it with no normal velocity,
// put back onto its surface first when inside it (ImplicitContacts.constrainToPlanes)
__kernel void implicit_constraints(const int n, __global const float* invMass, __global const float* offset,
                                   const int colliderCount, __global const int* colliderType,
                                   __global const float* colliders, __global const int* released,
                                   const real_t h, __global float* x, __global const float* v,
                                   __global int* filterKind, __global real_t* filterP, __global real_t* z,
                                   __global int* contact, __global int* contactPlane,
                                   __global float* contactInvMass) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    real_t vx = v[i3];
    real_t vy = v[i3 + 1];
    real_t vz = v[i3 + 2];
    contact[i] = 0;
    // the inverse mass the cloth contacts see: 0 for a particle a pin or a plane holds (set below)
    contactInvMass[i] = invMass[i];
    if (invMass[i] == 0.0f) {
        filterKind[i] = FILTER_FIXED;
        z[i3] = -vx;
        z[i3 + 1] = -vy;
        z[i3 + 2] = -vz;
        return;
    }
    filterKind[i] = FILTER_FREE;
    // only (I - S) z is read: 0 for a free particle whatever z holds, so it holds 0
    z[i3] = 0.0;
    z[i3 + 1] = 0.0;
    z[i3 + 2] = 0.0;
    for (int k = 0; k < colliderCount; k++) {
        if (colliderType[k] != COLLIDER_PLANE) {
            continue;
        }
        __global const float* c = colliders + COLLIDER_STRIDE * k;
        float d = (c[0] * x[i3] + c[1] * x[i3 + 1] + c[2] * x[i3 + 2] - c[3]) - (c[4] + offset[i]);
        if (d > CONTACT_SLOP || (released[i] != 0 && d > -CONTACT_SLOP)) {
            continue;
        }
        real_t nx = c[0];
        real_t ny = c[1];
        real_t nz = c[2];
        real_t vn = vx * nx + vy * ny + vz * nz;
        if (vn > (real_t) CONTACT_SLOP / h) {
            continue; // leaving the plane
        }
        if (d < 0.0f) {
            x[i3] -= (float) (d * nx);
            x[i3 + 1] -= (float) (d * ny);
            x[i3 + 2] -= (float) (d * nz);
        }
        real_t len = sqrt(nx * nx + ny * ny + nz * nz);
        filterKind[i] = FILTER_PLANE;
        filterP[i3] = nx / len;
        filterP[i3 + 1] = ny / len;
        filterP[i3 + 2] = nz / len;
        real_t dvn = -vn;
        z[i3] = dvn * nx;
        z[i3 + 1] = dvn * ny;
        z[i3 + 2] = dvn * nz;
        contact[i] = 1;
        contactPlane[i] = k;
        contactInvMass[i] = 0.0f;
        break;
    }
}

// Cloth contact through S for particle i where the plane pass left it free, not released last step
// (ImplicitContacts.constrainToCloth with ParticleContacts.normalConstraint): its candidate partners closer
// than reach contact distances, their unit normals averaged into n (none where they lie on opposite sides:
// |sum| below half their count), the target normal velocity the mean of the pairs' centre-of-mass normal
// velocities, unless i already moves away faster than separating. Reads the partners' positions,
// velocities and contactInvMass (0: held by a pin or a plane, a wall), writes only particle i's filter
// block, z, contact state, its partners' mean velocity and the pair's grip (for friction after the solve).
__kernel void implicit_cloth_constraints(const int n, const int maxNeighbours, const float distance,
                                         const float reach, const float separating,
                                         __global const float* offset, __global const float* grip,
                                         __global const float* contactInvMass, __global const int* released,
                                         __global const int* neighbourCount, __global const int* neighbours,
                                         __global const float* x, __global const float* v,
                                         __global int* filterKind, __global real_t* filterP, __global real_t* z,
                                         __global int* contact, __global float* partnerVelocity,
                                         __global float* partnerGrip) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    float wiFloat = contactInvMass[i];
    if (contact[i] != 0 || released[i] != 0 || wiFloat == 0.0f) {
        return; // pinned, on a plane, or released by last step's pull test
    }
    int i3 = 3 * i;
    real_t rr = (real_t) reach;
    real_t sx = 0.0;
    real_t sy = 0.0;
    real_t sz = 0.0;
    int contacts = 0;
    int from = i * maxNeighbours;
    int to = from + neighbourCount[i];
    for (int k = from; k < to; k++) {
        int j = neighbours[k];
        int j3 = 3 * j;
        real_t ex = x[i3] - x[j3]; // in float, as the CPU's (double ex = positions[i3] - positions[j3])
        real_t ey = x[i3 + 1] - x[j3 + 1];
        real_t ez = x[i3 + 2] - x[j3 + 2];
        real_t r2 = ex * ex + ey * ey + ez * ez;
        real_t dij = java_max(distance, offset[i] + offset[j]);
        if (r2 >= rr * dij * rr * dij || r2 < 1e-20) {
            continue;
        }
        real_t r = sqrt(r2);
        sx += ex / r;
        sy += ey / r;
        sz += ez / r;
        contacts++;
    }
    real_t len = sqrt(sx * sx + sy * sy + sz * sz);
    if (contacts == 0 || len < 0.5 * contacts) {
        return;
    }
    real_t nx = sx / len;
    real_t ny = sy / len;
    real_t nz = sz / len;
    real_t wi = wiFloat;
    real_t vin = (real_t) v[i3] * nx + (real_t) v[i3 + 1] * ny + (real_t) v[i3 + 2] * nz;
    real_t target = 0.0;
    real_t relative = 0.0;
    real_t pvx = 0.0;
    real_t pvy = 0.0;
    real_t pvz = 0.0;
    real_t partners = 0.0;
    for (int k = from; k < to; k++) {
        int j = neighbours[k];
        int j3 = 3 * j;
        real_t ex = x[i3] - x[j3]; // in float, as the CPU's (double ex = positions[i3] - positions[j3])
        real_t ey = x[i3 + 1] - x[j3 + 1];
        real_t ez = x[i3 + 2] - x[j3 + 2];
        real_t r2 = ex * ex + ey * ey + ez * ez;
        real_t dij = java_max(distance, offset[i] + offset[j]);
        if (r2 >= rr * dij * rr * dij || r2 < 1e-20) {
            continue;
        }
        real_t vjn = (real_t) v[j3] * nx + (real_t) v[j3 + 1] * ny + (real_t) v[j3 + 2] * nz;
        real_t wj = contactInvMass[j];
        target += (wj * vin + wi * vjn) / (wi + wj);
        relative += vin - vjn;
        pvx += v[j3];
        pvy += v[j3 + 1];
        pvz += v[j3 + 2];
        partners += grip[j];
    }
    real_t count = contacts;
    if (relative / count > (real_t) separating) {
        return; // moving away from its partners
    }
    target /= count;
    // ImplicitContacts.constrainToCloth: z from i's normal velocity, S from n (normalised again, as
    // ParticleFilter.constrainToPlane does)
    real_t dvn = target - vin;
    real_t nlen = sqrt(nx * nx + ny * ny + nz * nz);
    filterKind[i] = FILTER_PLANE;
    filterP[i3] = nx / nlen;
    filterP[i3 + 1] = ny / nlen;
    filterP[i3 + 2] = nz / nlen;
    z[i3] = dvn * nx;
    z[i3 + 1] = dvn * ny;
    z[i3 + 2] = dvn * nz;
    contact[i] = 2;
    partnerVelocity[i3] = (float) (pvx / count);
    partnerVelocity[i3 + 1] = (float) (pvy / count);
    partnerVelocity[i3 + 2] = (float) (pvz / count);
    partnerGrip[i] = (float) ((real_t) grip[i] * partners / count);
}

// Spring s's force on its first particle and K = dF_a/dx_a (SpringForce.evaluate), and A's two
// off-diagonal blocks h D + h^2 K, (a, b) and (b, a)
__kernel void implicit_springs(const int count, __global const int* pairs, __global const float* rest,
                               __global const float* ks, __global const float* kd, const int definite,
                               const real_t h, __global const float* x, __global const float* v,
                               __global const int* springEntry, __global real_t* springForce,
                               __global float* springK, __global float* values) {
    int s = get_global_id(0);
    if (s >= count) {
        return;
    }
    int a = 3 * pairs[2 * s];
    int b = 3 * pairs[2 * s + 1];
    real_t k_s = ks[s];
    real_t k_d = kd[s];
    real_t lx = (real_t) x[a] - (real_t) x[b];
    real_t ly = (real_t) x[a + 1] - (real_t) x[b + 1];
    real_t lz = (real_t) x[a + 2] - (real_t) x[b + 2];
    real_t l = sqrt(lx * lx + ly * ly + lz * lz);
    real_t f[3];
    real_t kk[6];
    real_t dd[6];
    if (l < 1e-12) { // coincident: no direction, isotropic Jacobians
        f[0] = 0.0;
        f[1] = 0.0;
        f[2] = 0.0;
        kk[0] = -k_s; kk[1] = 0.0; kk[2] = 0.0; kk[3] = -k_s; kk[4] = 0.0; kk[5] = -k_s;
        dd[0] = -k_d; dd[1] = 0.0; dd[2] = 0.0; dd[3] = -k_d; dd[4] = 0.0; dd[5] = -k_d;
    } else {
        real_t inv = 1.0 / l;
        real_t nx = lx * inv;
        real_t ny = ly * inv;
        real_t nz = lz * inv;
        real_t cDot = nx * ((real_t) v[a] - (real_t) v[b]) + ny * ((real_t) v[a + 1] - (real_t) v[b + 1])
                + nz * ((real_t) v[a + 2] - (real_t) v[b + 2]);
        real_t scalar = k_s * (l - (real_t) rest[s]) + k_d * cDot;
        f[0] = -scalar * nx;
        f[1] = -scalar * ny;
        f[2] = -scalar * nz;
        real_t t = scalar * inv;
        if (definite && t < 0.0) {
            t = 0.0;
        }
        real_t c = t - k_s;
        kk[0] = c * nx * nx - t;
        kk[1] = c * nx * ny;
        kk[2] = c * nx * nz;
        kk[3] = c * ny * ny - t;
        kk[4] = c * ny * nz;
        kk[5] = c * nz * nz - t;
        dd[0] = -k_d * nx * nx;
        dd[1] = -k_d * nx * ny;
        dd[2] = -k_d * nx * nz;
        dd[3] = -k_d * ny * ny;
        dd[4] = -k_d * ny * nz;
        dd[5] = -k_d * nz * nz;
    }
    springForce[3 * s] = f[0];
    springForce[3 * s + 1] = f[1];
    springForce[3 * s + 2] = f[2];
    real_t h2 = h * h;
    int q = 6 * springEntry[2 * s];
    int r = 6 * springEntry[2 * s + 1];
    for (int c = 0; c < 6; c++) {
        real_t k = kk[c];
        springK[6 * s + c] = (float) k;
        float value = (float) (h * dd[c] + h2 * k);
        values[q + c] = value;
        values[r + c] = value;
    }
}

// Row i's diagonal block of A, b_i and the inverse of A_ii (ImplicitSolver.assembleRows,
// BlockSparseMatrix.invertDiagonal); bad[i] = 1 where the block is not positive definite
__kernel void implicit_assemble(const int n, __global const int* rowStart, __global const int* col,
                                __global const int* blockSpring, __global const int* diagonal,
                                __global const int* pairs, __global const real_t* springForce,
                                __global const float* springK, __global const real_t* mass,
                                __global const float* damping, const real_t h, const real_t gx, const real_t gy,
                                const real_t gz, __global const float* v, __global float* a, __global real_t* b,
                                __global real_t* blockInverse, __global int* bad, __global const real_t* air) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    real_t m = mass[i];
    real_t cm = (real_t) damping[i] * m;
    // the CPU's air force (DeviceAir's, from the step's start after the constraint pass); in still air
    // (air null) its zero: + 0.0
    real_t fx;
    real_t fy;
    real_t fz;
    if (air) {
        fx = m * gx + air[i3] - cm * (real_t) v[i3];
        fy = m * gy + air[i3 + 1] - cm * (real_t) v[i3 + 1];
        fz = m * gz + air[i3 + 2] - cm * (real_t) v[i3 + 2];
    } else {
        fx = m * gx + 0.0 - cm * (real_t) v[i3];
        fy = m * gy + 0.0 - cm * (real_t) v[i3 + 1];
        fz = m * gz + 0.0 - cm * (real_t) v[i3 + 2];
    }
    real_t md = m + h * cm;
    real_t kvx = 0.0;
    real_t kvy = 0.0;
    real_t kvz = 0.0;
    real_t sxx = 0.0;
    real_t sxy = 0.0;
    real_t sxz = 0.0;
    real_t syy = 0.0;
    real_t syz = 0.0;
    real_t szz = 0.0;
    real_t vix = v[i3];
    real_t viy = v[i3 + 1];
    real_t viz = v[i3 + 2];
    for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        int s = blockSpring[k];
        if (s < 0) {
            continue;
        }
        real_t sign = pairs[2 * s] == i ? 1.0 : -1.0;
        fx += sign * springForce[3 * s];
        fy += sign * springForce[3 * s + 1];
        fz += sign * springForce[3 * s + 2];
        int kx = 6 * s;
        int q = 6 * k;
        sxx += (real_t) a[q];
        sxy += (real_t) a[q + 1];
        sxz += (real_t) a[q + 2];
        syy += (real_t) a[q + 3];
        syz += (real_t) a[q + 4];
        szz += (real_t) a[q + 5];
        int j3 = 3 * col[k];
        real_t rx = vix - (real_t) v[j3];
        real_t ry = viy - (real_t) v[j3 + 1];
        real_t rz = viz - (real_t) v[j3 + 2];
        kvx += (real_t) springK[kx] * rx + (real_t) springK[kx + 1] * ry + (real_t) springK[kx + 2] * rz;
        kvy += (real_t) springK[kx + 1] * rx + (real_t) springK[kx + 3] * ry + (real_t) springK[kx + 4] * rz;
        kvz += (real_t) springK[kx + 2] * rx + (real_t) springK[kx + 4] * ry + (real_t) springK[kx + 5] * rz;
    }
    int q = 6 * diagonal[i];
    a[q] = (float) (md - sxx);
    a[q + 1] = (float) -sxy;
    a[q + 2] = (float) -sxz;
    a[q + 3] = (float) (md - syy);
    a[q + 4] = (float) -syz;
    a[q + 5] = (float) (md - szz);
    b[i3] = h * (fx + h * kvx);
    b[i3 + 1] = h * (fy + h * kvy);
    b[i3 + 2] = h * (fz + h * kvz);
    // invertDiagonal: positive definite (leading minors above 1e-12 of the block's scale) and finite
    real_t ba = a[q];
    real_t bb = a[q + 1];
    real_t bc = a[q + 2];
    real_t bd = a[q + 3];
    real_t be = a[q + 4];
    real_t bf = a[q + 5];
    real_t scale = fabs(ba) + fabs(bd) + fabs(bf);
    real_t m2 = ba * bd - bb * bb;
    real_t c00 = bd * bf - be * be;
    real_t c01 = bc * be - bb * bf;
    real_t c02 = bb * be - bc * bd;
    real_t det = ba * c00 + bb * c01 + bc * c02;
    real_t eps = 1e-12;
    if (!(ba > eps * scale) || !(m2 > eps * scale * scale) || !(det > eps * scale * scale * scale)
            || !isfinite(det)) {
        bad[i] = 1;
        return;
    }
    bad[i] = 0;
    real_t inv = 1.0 / det;
    int p = 9 * i;
    real_t c11 = (ba * bf - bc * bc) * inv;
    real_t c12 = (bb * bc - ba * be) * inv;
    blockInverse[p] = c00 * inv;
    blockInverse[p + 1] = c01 * inv;
    blockInverse[p + 2] = c02 * inv;
    blockInverse[p + 3] = c01 * inv;
    blockInverse[p + 4] = c11;
    blockInverse[p + 5] = c12;
    blockInverse[p + 6] = c02 * inv;
    blockInverse[p + 7] = c12;
    blockInverse[p + 8] = m2 * inv;
}

// ---- the update (ImplicitSolver.integrate, ImplicitContacts.afterSolve) --------------------------------

// Math.min(1.0, x): NaN stays NaN
static real_t java_min_one(real_t x) {
    return x != x ? x : (1.0 <= x ? 1.0 : x);
}

// v += dv, x += h v. A contact whose constraint would have to pull (its normal impulse
// (A dv - b)_i . n negative) is released for the next step; a pushing one applies Coulomb friction to
// the new velocity (planes are still), a cloth contact's to the velocity relative to its partners. With project, the positions before and after are kept for the
// projections after the step.
__kernel void implicit_integrate(const int n, __global const float* invMass, __global const float* grip,
                                 __global const float* colliders, __global const int* contact,
                                 __global const int* contactPlane, __global int* released,
                                 __global const real_t* filterP, __global const int* rowStart,
                                 __global const int* col, __global const float* a, __global const real_t* b,
                                 __global const real_t* dv, __global const real_t* mass, const float h,
                                 const int project, __global float* x, __global float* v, __global float* prevX,
                                 __global float* integratedX, __global const float* partnerVelocity,
                                 __global const float* partnerGrip, const float clothStatic,
                                 const float clothKinetic) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    if (invMass[i] == 0.0f) {
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        released[i] = 0;
        if (project) { // the CPU copies every particle's x before and after
            for (int k = i3; k < i3 + 3; k++) {
                prevX[k] = x[k];
                integratedX[k] = x[k];
            }
        }
        return;
    }
    real_t nvx = (real_t) v[i3] + dv[i3];
    real_t nvy = (real_t) v[i3 + 1] + dv[i3 + 1];
    real_t nvz = (real_t) v[i3 + 2] + dv[i3 + 2];
    released[i] = 0;
    if (contact[i] != 0) {
        real_t row[3];
        multiply_row(rowStart, col, a, dv, i, row);
        real_t push = (row[0] - b[i3]) * filterP[i3] + (row[1] - b[i3 + 1]) * filterP[i3 + 1]
                + (row[2] - b[i3 + 2]) * filterP[i3 + 2];
        if (push < 0.0) {
            released[i] = 1;
        } else if (push != 0.0) {
            real_t rx = nvx;
            real_t ry = nvy;
            real_t rz = nvz;
            real_t nx;
            real_t ny;
            real_t nz;
            real_t mu;
            real_t muKinetic;
            if (contact[i] == 1) { // a still plane
                __global const float* c = colliders + COLLIDER_STRIDE * contactPlane[i];
                nx = c[0];
                ny = c[1];
                nz = c[2];
                real_t g = grip[i];
                mu = g * (real_t) c[5];
                muKinetic = g * (real_t) c[6];
            } else { // cloth: relative to the partners' mean velocity at the step's start, along S's direction
                nx = filterP[i3];
                ny = filterP[i3 + 1];
                nz = filterP[i3 + 2];
                rx -= partnerVelocity[i3];
                ry -= partnerVelocity[i3 + 1];
                rz -= partnerVelocity[i3 + 2];
                real_t g = partnerGrip[i];
                mu = g * (real_t) clothStatic;
                muKinetic = g * (real_t) clothKinetic;
            }
            real_t rn = rx * nx + ry * ny + rz * nz;
            real_t tx = rx - rn * nx;
            real_t ty = ry - rn * ny;
            real_t tz = rz - rn * nz;
            real_t vt = sqrt(tx * tx + ty * ty + tz * tz);
            real_t pushPerMass = push / mass[i];
            real_t removed = vt <= mu * pushPerMass ? 1.0 : java_min_one(muKinetic * pushPerMass / vt);
            nvx -= removed * tx;
            nvy -= removed * ty;
            nvz -= removed * tz;
        }
    }
    float fvx = (float) nvx;
    float fvy = (float) nvy;
    float fvz = (float) nvz;
    v[i3] = fvx;
    v[i3 + 1] = fvy;
    v[i3 + 2] = fvz;
    if (project) {
        prevX[i3] = x[i3];
        prevX[i3 + 1] = x[i3 + 1];
        prevX[i3 + 2] = x[i3 + 2];
    }
    float px = x[i3] + h * fvx;
    float py = x[i3 + 1] + h * fvy;
    float pz = x[i3 + 2] + h * fvz;
    x[i3] = px;
    x[i3 + 1] = py;
    x[i3 + 2] = pz;
    if (project) {
        integratedX[i3] = px;
        integratedX[i3 + 1] = py;
        integratedX[i3 + 2] = pz;
    }
}

// TetherProjection.projectWorldRange for tether c, the work-item's global id (the launch's offset is the
// color's first tether; a color's tethers share no particle)
__kernel void implicit_tethers(__global const int* pairs, __global const float* maxLength, __global float* x) {
    int c = get_global_id(0);
    int p = 3 * pairs[2 * c];
    int a = 3 * pairs[2 * c + 1];
    float dx = x[p] - x[a];
    float dy = x[p + 1] - x[a + 1];
    float dz = x[p + 2] - x[a + 2];
    float d2 = dx * dx + dy * dy + dz * dz;
    float m = maxLength[c];
    if (d2 > m * m) {
        float s = m / sqrt(d2) - 1.0f;
        x[p] += dx * s;
        x[p + 1] += dy * s;
        x[p + 2] += dz * s;
    }
}

// After the tethers (ParticleFilter.filterDisplacement): a pinned or plane-held particle keeps only the
// part of the tethers' move its constraint allows
__kernel void implicit_filter_tethers(const int n, __global const int* filterKind, __global const real_t* filterP,
                                      __global const float* integratedX, __global float* x) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int kind = filterKind[i];
    if (kind == FILTER_FREE) {
        return;
    }
    int i3 = 3 * i;
    if (kind == FILTER_FIXED) {
        x[i3] = integratedX[i3];
        x[i3 + 1] = integratedX[i3 + 1];
        x[i3 + 2] = integratedX[i3 + 2];
        return;
    }
    // the difference in float, as the CPU's (double dx = x - base on float arrays)
    real_t dx = x[i3] - integratedX[i3];
    real_t dy = x[i3 + 1] - integratedX[i3 + 1];
    real_t dz = x[i3 + 2] - integratedX[i3 + 2];
    real_t d = dx * filterP[i3] + dy * filterP[i3 + 1] + dz * filterP[i3 + 2];
    dx -= d * filterP[i3];
    dy -= d * filterP[i3 + 1];
    dz -= d * filterP[i3 + 2];
    x[i3] = (float) ((real_t) integratedX[i3] + dx);
    x[i3 + 1] = (float) ((real_t) integratedX[i3 + 1] + dy);
    x[i3 + 2] = (float) ((real_t) integratedX[i3 + 2] + dz);
}

// The colliders other than planes by projection after the step (every rigid shape, in the environment's
// order), then CorrectedVelocity: v gains what the tethers and colliders moved over h
__kernel void implicit_collide(const int n, __global const float* invMass, __global const float* grip,
                               __global const float* offset, const int colliderCount,
                               __global const int* colliderType, __global const float* colliders,
                               const float invH, __global const float* prevX, __global const float* integratedX,
                               __global float* x, __global float* v) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    float3 p = (float3) (x[i3], x[i3 + 1], x[i3 + 2]);
    float3 p0 = (float3) (prevX[i3], prevX[i3 + 1], prevX[i3 + 2]);
    if (invMass[i] == 0.0f) {
        collide_pinned(colliderCount, colliderType, colliders, p, p0, offset[i], i);
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        return;
    }
    for (int c = 0; c < colliderCount; c++) {
        if (colliderType[c] == COLLIDER_HAND) {
            p = collide_hand(colliders + COLLIDER_STRIDE * c, p, i, invMass[i]);
        } else if (colliderType[c] == COLLIDER_GRIP) {
            p = collide_grip(colliders + COLLIDER_STRIDE * c, p, i, invMass[i]);
        } else if (colliderType[c] == COLLIDER_BALL) {
            p = collide_ball(colliders + COLLIDER_STRIDE * c, p, p0, offset[i], grip[i], i, invMass[i]);
        } else if (colliderType[c] == COLLIDER_ANIMATED) {
            p = collide_animated(colliders + COLLIDER_STRIDE * c, p, p0, offset[i], grip[i]);
        } else if (colliderType[c] != COLLIDER_PLANE) {
            p = collide_rigid(colliderType[c], colliders + COLLIDER_STRIDE * c, p, p0, offset[i], grip[i]);
        }
    }
    x[i3] = p.x;
    x[i3 + 1] = p.y;
    x[i3 + 2] = p.z;
    v[i3] = v[i3] + (p.x - integratedX[i3]) * invH;
    v[i3 + 1] = v[i3 + 1] + (p.y - integratedX[i3 + 1]) * invH;
    v[i3 + 2] = v[i3 + 2] + (p.z - integratedX[i3 + 2]) * invH;
}

