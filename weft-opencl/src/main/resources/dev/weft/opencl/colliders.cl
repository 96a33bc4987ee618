// The still colliders as the CPU computes them (PlaneCollider, RigidCollider + SphereCollider,
// Collider.respond, CoulombFriction), in the same float operations and order, for every solver's
// kernels: collide_all runs a particle against the environment's colliders in their order.

// collider records: COLLIDER_STRIDE floats each, the layout OpenClColliders writes
#define COLLIDER_STRIDE 24
#define COLLIDER_PLANE 0
#define COLLIDER_SPHERE 1
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

// The environment's colliders in order on one particle at p whose step started at p0 (PositionStep's
// collider pass after the settle; pinned particles never come here)
static float3 collide_all(int count, __global const int* types, __global const float* colliders, float3 p,
                          float3 p0, float offset, float grip) {
    for (int c = 0; c < count; c++) {
        __global const float* record = colliders + COLLIDER_STRIDE * c;
        if (types[c] == COLLIDER_PLANE) {
            p = collide_plane(record, p, p0, offset, grip);
        } else {
            p = collide_sphere(record, p, p0, offset, grip);
        }
    }
    return p;
}
