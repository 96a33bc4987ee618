// Seed 004's explicit mass-spring cloth, one Verlet step as two kernels: the springs' forces (one
// work-item per spring), then each particle's step (one work-item per particle: gather its springs'
// forces in the incidence's fixed order, the damped Verlet prediction, the colliders, the velocity).
// Each work-item writes only what it owns, so no atomics and the same result for any work-group split.
//
// The float operations are the CPU solver's (MassSpringSolver, PositionStep, StepPositions,
// CorrectedVelocity, PlaneCollider, RigidCollider + SphereCollider, Collider.respond,
// CoulombFriction) in the same order. FP_CONTRACT OFF keeps a*b+c from becoming one fused
// multiply-add, which Java never does; the host adds -cl-fp32-correctly-rounded-divide-sqrt where the
// device has it (Java's float division and (float) Math.sqrt are correctly rounded). With
// WEFT_FP64 the gather sums in double, as the CPU does; without it, in float. WEFT_RELAXED (the tests'
// measure of what a device without these guarantees gives) lets the compiler fuse.

#ifndef WEFT_RELAXED
#pragma OPENCL FP_CONTRACT OFF
#endif

#ifdef WEFT_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double accum_t;
#else
typedef float accum_t;
#endif

// collider records: COLLIDER_STRIDE floats each, the layout OpenClColliders writes
#define COLLIDER_STRIDE 24
#define COLLIDER_PLANE 0
#define COLLIDER_SPHERE 1
// RigidCollider.MAX_SWEEP_STEPS
#define MAX_SWEEP_STEPS 32

// F_a = -(k_s (l - L) + k_d dC/dt) n on each spring's first particle (seed 004's F_spring, eq. 2.13)
__kernel void spring_forces(const int count, __global const int* pairs, __global const float* rest,
                            __global const float* ks, __global const float* kd, __global const float* x,
                            __global const float* v, __global float* force) {
    int s = get_global_id(0);
    if (s >= count) {
        return;
    }
    int a = 3 * pairs[2 * s];
    int b = 3 * pairs[2 * s + 1];
    float lx = x[a] - x[b];
    float ly = x[a + 1] - x[b + 1];
    float lz = x[a + 2] - x[b + 2];
    float l2 = lx * lx + ly * ly + lz * lz;
    int o = 3 * s;
    if (!(l2 > 1e-24f)) { // coincident: no direction, no force
        force[o] = 0.0f;
        force[o + 1] = 0.0f;
        force[o + 2] = 0.0f;
        return;
    }
    float l = sqrt(l2);
    float inv = 1.0f / l;
    float cDot = (lx * (v[a] - v[b]) + ly * (v[a + 1] - v[b + 1]) + lz * (v[a + 2] - v[b + 2])) * inv;
    float scalar = (ks[s] * (l - rest[s]) + kd[s] * cDot) * inv;
    force[o] = -scalar * lx;
    force[o + 1] = -scalar * ly;
    force[o + 2] = -scalar * lz;
}

// CoulombFriction.removedShare against an immovable surface (share 1)
static float removed_share(float slip, float push, float staticCoefficient, float kineticCoefficient) {
    return slip <= staticCoefficient * push ? 1.0f : fmin(1.0f, kineticCoefficient * push / slip);
}

// Collider.respond on a still surface: out along n by depth, then Coulomb friction on the motion since p0
static float3 respond(float3 p, float3 p0, float3 n, float depth, float grip, float muS, float muK) {
    float px = p.x + depth * n.x;
    float py = p.y + depth * n.y;
    float pz = p.z + depth * n.z;
    if (muS > 0.0f && grip > 0.0f && depth > 0.0f) {
        float dx = px - p0.x;
        float dy = py - p0.y;
        float dz = pz - p0.z;
        float dn = dx * n.x + dy * n.y + dz * n.z;
        float tx = dx - dn * n.x;
        float ty = dy - dn * n.y;
        float tz = dz - dn * n.z;
        float t2 = tx * tx + ty * ty + tz * tz;
        if (t2 > 0.0f) {
            float scale = removed_share(sqrt(t2), depth, grip * muS, grip * muK);
            px -= scale * tx;
            py -= scale * ty;
            pz -= scale * tz;
        }
    }
    return (float3) (px, py, pz);
}

// SphereCollider.localDistance: signed distance in the body frame, outward normal into *n
static float sphere_distance(float x, float y, float z, float radius, float3* n) {
    float d = sqrt(x * x + y * y + z * z);
    if (d < 1e-12f) {
        *n = (float3) (0.0f, 1.0f, 0.0f);
    } else {
        *n = (float3) (x / d, y / d, z / d);
    }
    return d - radius;
}

// RigidCollider.bisect for a solid (side +1)
static float sphere_bisect(float ax, float ay, float az, float ux, float uy, float uz, float lo, float hi,
                           float radius, float3* n, float* side) {
    for (int k = 0; k < 30 && hi - lo > 1e-7f; k++) {
        float mid = 0.5f * (lo + hi);
        if (sphere_distance(ax + mid * ux, ay + mid * uy, az + mid * uz, radius, n) >= 0.0f) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    *side = 1.0f;
    return lo;
}

// RigidCollider.touch for a solid sphere: conservative advancement along a + t u; the first t within
// eps of the surface going in, or -1; *side is the side the path came from
static float sphere_touch(float ax, float ay, float az, float ux, float uy, float uz, float len, float sdA,
                          float eps, float radius, float3* n, float* side_out) {
    float side = sdA >= 0.0f ? 1.0f : -1.0f;
    float d = fabs(sdA);
    *side_out = side;
    if (d >= len) {
        return d <= eps && side * (ux * (*n).x + uy * (*n).y + uz * (*n).z) < 0.0f ? 0.0f : -1.0f;
    }
    float t = 0.0f;
    float lastT = 0.0f;
    for (int k = 0; k < MAX_SWEEP_STEPS; k++) {
        if (d <= eps) {
            if (side * (ux * (*n).x + uy * (*n).y + uz * (*n).z) < 0.0f) {
                *side_out = side;
                return t;
            }
            t += eps / len; // grazing or leaving: step past
        } else {
            t += d / len;
        }
        if (t >= 1.0f) {
            return -1.0f;
        }
        float sd = sphere_distance(ax + t * ux, ay + t * uy, az + t * uz, radius, n);
        if (sd < -eps) {
            return sphere_bisect(ax, ay, az, ux, uy, uz, lastT, t, radius, n, side_out);
        }
        lastT = t;
        d = fabs(sd);
        if (d > eps) {
            side = sd >= 0.0f ? 1.0f : -1.0f;
        }
    }
    float sdEnd = sphere_distance(ax + ux, ay + uy, az + uz, radius, n);
    if ((sdEnd >= 0.0f ? 1.0f : -1.0f) == side) {
        return -1.0f;
    }
    float lo = t;
    float hi = 1.0f;
    for (int k = 0; k < 40 && hi - lo > 1e-7f; k++) {
        float mid = 0.5f * (lo + hi);
        float sd = sphere_distance(ax + mid * ux, ay + mid * uy, az + mid * uz, radius, n);
        if ((sd >= 0.0f ? 1.0f : -1.0f) == side) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    float sd = sphere_distance(ax + lo * ux, ay + lo * uy, az + lo * uz, radius, n);
    *side_out = side;
    return fabs(sd) <= 4.0f * eps ? lo : -1.0f;
}

// The world normal R n of a body-frame normal (RigidCollider.respondLocal, still body)
static float3 to_world(__global const float* r, float nx, float ny, float nz) {
    return (float3) (r[0] * nx + r[1] * ny + r[2] * nz, r[3] * nx + r[4] * ny + r[5] * nz,
                     r[6] * nx + r[7] * ny + r[8] * nz);
}

// RigidCollider.collide for a still solid sphere: record = t(3) R(9) radius thickness muS muK eps reach2 wide2
static float3 collide_sphere(__global const float* c, float3 p, float3 p0, float offset, float grip) {
    float tx = c[0];
    float ty = c[1];
    float tz = c[2];
    __global const float* r = c + 3;
    float radius = c[12];
    float thickness = c[13];
    float muS = c[14];
    float muK = c[15];
    float eps = c[16];
    float reach2 = c[17];
    float wide2 = c[18];
    // broad phase in the world frame (a still body)
    float qx = p0.x - tx;
    float qy = p0.y - ty;
    float qz = p0.z - tz;
    float vx = (p.x - tx) - qx;
    float vy = (p.y - ty) - qy;
    float vz = (p.z - tz) - qz;
    float v2 = vx * vx + vy * vy + vz * vz;
    float t = v2 > 0.0f ? fmax(0.0f, fmin(1.0f, -(qx * vx + qy * vy + qz * vz) / v2)) : 0.0f;
    float kx = qx + t * vx;
    float ky = qy + t * vy;
    float kz = qz + t * vz;
    float slack = 1e-12f * (qx * qx + qy * qy + qz * qz + v2);
    if (kx * kx + ky * ky + kz * kz >= wide2 + slack) {
        return p;
    }
    float th = thickness + offset;
    float dx = p.x - tx;
    float dy = p.y - ty;
    float dz = p.z - tz;
    float bx = r[0] * dx + r[3] * dy + r[6] * dz;
    float by = r[1] * dx + r[4] * dy + r[7] * dz;
    float bz = r[2] * dx + r[5] * dy + r[8] * dz;
    dx = p0.x - tx;
    dy = p0.y - ty;
    dz = p0.z - tz;
    float ax = r[0] * dx + r[3] * dy + r[6] * dz;
    float ay = r[1] * dx + r[4] * dy + r[7] * dz;
    float az = r[2] * dx + r[5] * dy + r[8] * dz;
    float ux = bx - ax;
    float uy = by - ay;
    float uz = bz - az;
    float len2 = ux * ux + uy * uy + uz * uz;
    float s = len2 > 0.0f ? fmax(0.0f, fmin(1.0f, -(ax * ux + ay * uy + az * uz) / len2)) : 0.0f;
    float cx = ax + s * ux;
    float cy = ay + s * uy;
    float cz = az + s * uz;
    if (cx * cx + cy * cy + cz * cz >= reach2) {
        return p;
    }
    float3 n;
    float side;
    float sdA = sphere_distance(ax, ay, az, radius, &n);
    float len = sqrt(len2);
    float hit = sdA >= 0.0f ? sphere_touch(ax, ay, az, ux, uy, uz, len, sdA, eps, radius, &n, &side) : -1.0f;
    if (hit >= 0.0f) {
        // touched at h = a + t u: respond against the tangent plane at its closest point (a sphere is convex)
        float hx = ax + hit * ux;
        float hy = ay + hit * uy;
        float hz = az + hit * uz;
        float sdH = sphere_distance(hx, hy, hz, radius, &n);
        float px = hx - sdH * n.x;
        float py = hy - sdH * n.y;
        float pz = hz - sdH * n.z;
        float depth = th - ((bx - px) * n.x + (by - py) * n.y + (bz - pz) * n.z);
        if (depth > 0.0f) {
            return respond(p, p0, to_world(r, n.x, n.y, n.z), depth, grip, muS, muK);
        }
        return p;
    }
    float sdB = sphere_distance(bx, by, bz, radius, &n);
    float depth = th - sdB;
    if (depth > 0.0f) {
        return respond(p, p0, to_world(r, n.x, n.y, n.z), depth, grip, muS, muK);
    }
    return p;
}

// PlaneCollider.collide: record = n(3) offset thickness muS muK
static float3 collide_plane(__global const float* c, float3 p, float3 p0, float offset, float grip) {
    float3 n = (float3) (c[0], c[1], c[2]);
    float depth = c[4] + offset - (n.x * p.x + n.y * p.y + n.z * p.z - c[3]);
    if (depth > 0.0f) {
        return respond(p, p0, n, depth, grip, c[5], c[6]);
    }
    return p;
}

// One particle's Verlet step (PositionStep.predict with the springs' force and Damping.VERLET, settle,
// colliders, CorrectedVelocity): x(t+h) = x + h v', v' = keep v + h (g + F / m); then the colliders move x,
// and v' gains what they moved over h. Pinned particles (inverse mass 0) keep x and get v = 0.
__kernel void verlet_step(const int n, __global const int* incidenceStart, __global const int* incidenceSpring,
                          __global const int* pairs, __global const float* springForce,
                          __global const float* invMass, __global const float* keep,
                          __global const float* grip, __global const float* offset,
                          const int colliderCount, __global const int* colliderType,
                          __global const float* colliders, const float h, const float invH,
                          const float gx, const float gy, const float gz,
                          __global float* x, __global float* v) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    float w = invMass[i];
    if (w == 0.0f) {
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        return;
    }
    accum_t fx = 0;
    accum_t fy = 0;
    accum_t fz = 0;
    for (int e = incidenceStart[i]; e < incidenceStart[i + 1]; e++) {
        int s = incidenceSpring[e];
        accum_t sign = pairs[2 * s] == i ? (accum_t) 1 : (accum_t) -1;
        fx += sign * (accum_t) springForce[3 * s];
        fy += sign * (accum_t) springForce[3 * s + 1];
        fz += sign * (accum_t) springForce[3 * s + 2];
    }
    float3 start = (float3) (x[i3], x[i3 + 1], x[i3 + 2]);
    float ax = gx + (float) fx * w;
    float ay = gy + (float) fy * w;
    float az = gz + (float) fz * w;
    float k = keep[i];
    float vx = k * v[i3] + h * ax;
    float vy = k * v[i3 + 1] + h * ay;
    float vz = k * v[i3 + 2] + h * az;
    // y = x + h v; the settle of a prediction no constraint corrected (d = 0) as the CPU rounds it
    float3 y = (float3) (start.x + h * vx, start.y + h * vy, start.z + h * vz);
    vx = vx + 0.0f * invH;
    vy = vy + 0.0f * invH;
    vz = vz + 0.0f * invH;
    y = (float3) (y.x + 0.0f, y.y + 0.0f, y.z + 0.0f);
    float3 p = y;
    float o = offset[i];
    float g = grip[i];
    for (int c = 0; c < colliderCount; c++) {
        __global const float* record = colliders + COLLIDER_STRIDE * c;
        if (colliderType[c] == COLLIDER_PLANE) {
            p = collide_plane(record, p, start, o, g);
        } else {
            p = collide_sphere(record, p, start, o, g);
        }
    }
    x[i3] = p.x;
    x[i3 + 1] = p.y;
    x[i3 + 2] = p.z;
    v[i3] = vx + (p.x - y.x) * invH;
    v[i3 + 1] = vy + (p.y - y.y) * invH;
    v[i3 + 2] = vz + (p.z - y.z) * invH;
}
