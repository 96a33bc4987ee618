// The still colliders as the CPU computes them (PlaneCollider; RigidCollider's convex solids
// SphereCollider, BoxCollider, CapsuleCollider, CylinderCollider; Collider.respond, CoulombFriction), in the
// same float operations and order, for every solver's kernels: collide_all runs a particle against the
// environment's colliders in their order.

// collider records: COLLIDER_STRIDE floats each, the layout OpenClColliders writes
#define COLLIDER_STRIDE 24
#define COLLIDER_PLANE 0
#define COLLIDER_SPHERE 1
#define COLLIDER_BOX 2
#define COLLIDER_CAPSULE 3
#define COLLIDER_CYLINDER 4
// RigidCollider.MAX_SWEEP_STEPS
#define MAX_SWEEP_STEPS 32
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

// Java's Math.max and Math.min on floats: NaN in, NaN out (OpenCL's fmax and fmin drop a NaN), and of
// two zeros max gives +0, min -0 (OpenCL's may give either)
inline float java_max(float a, float b) {
    if (isnan(a) || isnan(b)) {
        return isnan(a) ? a : b;
    }
    if (a == 0.0f && b == 0.0f) {
        return signbit(a) ? b : a;
    }
    return a >= b ? a : b;
}

inline float java_min(float a, float b) {
    if (isnan(a) || isnan(b)) {
        return isnan(a) ? a : b;
    }
    if (a == 0.0f && b == 0.0f) {
        return signbit(b) ? b : a;
    }
    return a <= b ? a : b;
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

// BoxCollider.localDistance (half extents h)
static float box_distance(float x, float y, float z, float hx, float hy, float hz, float3* n) {
    float qx = fabs(x) - hx;
    float qy = fabs(y) - hy;
    float qz = fabs(z) - hz;
    if (qx > 0.0f || qy > 0.0f || qz > 0.0f) {
        float dx = x - java_max(-hx, java_min(hx, x));
        float dy = y - java_max(-hy, java_min(hy, y));
        float dz = z - java_max(-hz, java_min(hz, z));
        float d = sqrt(dx * dx + dy * dy + dz * dz);
        *n = (float3) (dx / d, dy / d, dz / d);
        return d;
    }
    if (qx >= qy && qx >= qz) {
        *n = (float3) (x >= 0.0f ? 1.0f : -1.0f, 0.0f, 0.0f);
        return qx;
    }
    if (qy >= qz) {
        *n = (float3) (0.0f, y >= 0.0f ? 1.0f : -1.0f, 0.0f);
        return qy;
    }
    *n = (float3) (0.0f, 0.0f, z >= 0.0f ? 1.0f : -1.0f);
    return qz;
}

// CapsuleCollider.localDistance (axis segment along y, half length l)
static float capsule_distance(float x, float y, float z, float radius, float l, float3* n) {
    float dy = y - java_max(-l, java_min(l, y));
    float d = sqrt(x * x + dy * dy + z * z);
    if (d < 1e-12f) {
        *n = (float3) (1.0f, 0.0f, 0.0f);
    } else {
        *n = (float3) (x / d, dy / d, z / d);
    }
    return d - radius;
}

// CylinderCollider.localDistance (axis along y, half height l)
static float cylinder_distance(float x, float y, float z, float radius, float l, float3* n) {
    float rho = sqrt(x * x + z * z);
    float ux = 1.0f;
    float uz = 0.0f;
    if (rho > 1e-12f) {
        ux = x / rho;
        uz = z / rho;
    }
    float qr = rho - radius;
    float qy = fabs(y) - l;
    if (qr > 0.0f || qy > 0.0f) {
        float dr = java_max(qr, 0.0f);
        float dy = y - java_max(-l, java_min(l, y));
        float d = sqrt(dr * dr + dy * dy);
        *n = (float3) (ux * dr / d, dy / d, uz * dr / d);
        return d;
    }
    if (qr >= qy) {
        *n = (float3) (ux, 0.0f, uz);
        return qr;
    }
    *n = (float3) (0.0f, y >= 0.0f ? 1.0f : -1.0f, 0.0f);
    return qy;
}

// The solid's localDistance by its type; its dimensions in the record (sphere, capsule, cylinder: radius
// at 12; box: half extents at 19-21; capsule and cylinder: half length at 19)
static float solid_distance(int type, __global const float* c, float x, float y, float z, float3* n) {
    if (type == COLLIDER_BOX) {
        return box_distance(x, y, z, c[19], c[20], c[21], n);
    }
    if (type == COLLIDER_CAPSULE) {
        return capsule_distance(x, y, z, c[12], c[19], n);
    }
    if (type == COLLIDER_CYLINDER) {
        return cylinder_distance(x, y, z, c[12], c[19], n);
    }
    return sphere_distance(x, y, z, c[12], n);
}

// RigidCollider.bisect for a solid (side +1)
static float solid_bisect(int type, __global const float* c, float ax, float ay, float az, float ux, float uy,
                          float uz, float lo, float hi, float3* n, float* side) {
    for (int k = 0; k < 30 && hi - lo > 1e-7f; k++) {
        float mid = 0.5f * (lo + hi);
        if (solid_distance(type, c, ax + mid * ux, ay + mid * uy, az + mid * uz, n) >= 0.0f) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    *side = 1.0f;
    return lo;
}

// RigidCollider.touch for a convex solid: conservative advancement along a + t u; the first t within
// eps of the surface going in, or -1; *side is the side the path came from
static float solid_touch(int type, __global const float* c, float ax, float ay, float az, float ux, float uy,
                         float uz, float len, float sdA, float eps, float3* n, float* side_out) {
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
        float sd = solid_distance(type, c, ax + t * ux, ay + t * uy, az + t * uz, n);
        if (sd < -eps) {
            return solid_bisect(type, c, ax, ay, az, ux, uy, uz, lastT, t, n, side_out);
        }
        lastT = t;
        d = fabs(sd);
        if (d > eps) {
            side = sd >= 0.0f ? 1.0f : -1.0f;
        }
    }
    float sdEnd = solid_distance(type, c, ax + ux, ay + uy, az + uz, n);
    if ((sdEnd >= 0.0f ? 1.0f : -1.0f) == side) {
        return -1.0f;
    }
    float lo = t;
    float hi = 1.0f;
    for (int k = 0; k < 40 && hi - lo > 1e-7f; k++) {
        float mid = 0.5f * (lo + hi);
        float sd = solid_distance(type, c, ax + mid * ux, ay + mid * uy, az + mid * uz, n);
        if ((sd >= 0.0f ? 1.0f : -1.0f) == side) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    float sd = solid_distance(type, c, ax + lo * ux, ay + lo * uy, az + lo * uz, n);
    *side_out = side;
    return fabs(sd) <= 4.0f * eps ? lo : -1.0f;
}

// The world normal R n of a body-frame normal (RigidCollider.respondLocal, still body)
static float3 to_world(__global const float* r, float nx, float ny, float nz) {
    return (float3) (r[0] * nx + r[1] * ny + r[2] * nz, r[3] * nx + r[4] * ny + r[5] * nz,
                     r[6] * nx + r[7] * ny + r[8] * nz);
}

// RigidCollider.collide for a still convex solid: record = t(3) R(9) radius thickness muS muK eps reach2 wide2
// and the box's half extents or the capsule's or cylinder's half length at 19-21
static float3 collide_solid(int type, __global const float* c, float3 p, float3 p0, float offset, float grip) {
    float tx = c[0];
    float ty = c[1];
    float tz = c[2];
    __global const float* r = c + 3;
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
    float sdA = solid_distance(type, c, ax, ay, az, &n);
    float len = sqrt(len2);
    float hit = sdA >= 0.0f ? solid_touch(type, c, ax, ay, az, ux, uy, uz, len, sdA, eps, &n, &side) : -1.0f;
    if (hit >= 0.0f) {
        // touched at h = a + t u: respond against the tangent plane at its closest point (the solid is convex)
        float hx = ax + hit * ux;
        float hy = ay + hit * uy;
        float hz = az + hit * uz;
        float sdH = solid_distance(type, c, hx, hy, hz, &n);
        float px = hx - sdH * n.x;
        float py = hy - sdH * n.y;
        float pz = hz - sdH * n.z;
        float depth = th - ((bx - px) * n.x + (by - py) * n.y + (bz - pz) * n.z);
        if (depth > 0.0f) {
            return respond(p, p0, to_world(r, n.x, n.y, n.z), depth, grip, muS, muK);
        }
        return p;
    }
    float sdB = solid_distance(type, c, bx, by, bz, &n);
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

// The environment's colliders in order on one particle at p whose step started at p0 (PositionStep's
// collider pass after the settle; pinned particles never come here)
static float3 collide_all(int count, __global const int* types, __global const float* colliders, float3 p,
                          float3 p0, float offset, float grip) {
    for (int c = 0; c < count; c++) {
        __global const float* record = colliders + COLLIDER_STRIDE * c;
        if (types[c] == COLLIDER_PLANE) {
            p = collide_plane(record, p, p0, offset, grip);
        } else {
            p = collide_solid(types[c], record, p, p0, offset, grip);
        }
    }
    return p;
}
