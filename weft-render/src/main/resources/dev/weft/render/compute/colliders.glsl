// The still colliders as the CPU computes them (PlaneCollider, RigidCollider + SphereCollider,
// Collider.respond, CoulombFriction), in the same float operations and order, for every solver's
// shaders: collideAll runs a particle against the environment's colliders in their order. A port of
// weft-opencl's colliders.cl; records as GlslColliders writes them.

#define COLLIDER_STRIDE 24
#define COLLIDER_PLANE 0
#define COLLIDER_SPHERE 1
// DragHandle: held (1/0), alpha/h^2, three particle indices (int bits), each particle's target point (3 each)
#define COLLIDER_HAND 9
// RigidCollider.MAX_SWEEP_STEPS
#define MAX_SWEEP_STEPS 32

layout(std430, binding = 5) readonly buffer ColliderTypes { int colliderType[]; };
layout(std430, binding = 6) readonly buffer ColliderRecords { float colliders[]; };
uniform int colliderCount;

// CoulombFriction.removedShare against an immovable surface (share 1)
float removedShare(float slip, float push, float staticCoefficient, float kineticCoefficient) {
    precise float holds = staticCoefficient * push;
    if (slip <= holds) {
        return 1.0f;
    }
    precise float share = DIV(kineticCoefficient * push, slip);
    return min(1.0f, share);
}

// Collider.respond on a still surface: out along n by depth, then Coulomb friction on the motion since p0
vec3 respond(vec3 p, vec3 p0, vec3 n, float depth, float g, float muS, float muK) {
    precise float px = p.x + depth * n.x;
    precise float py = p.y + depth * n.y;
    precise float pz = p.z + depth * n.z;
    if (muS > 0.0f && g > 0.0f && depth > 0.0f) {
        precise float dx = px - p0.x;
        precise float dy = py - p0.y;
        precise float dz = pz - p0.z;
        precise float dn = dx * n.x + dy * n.y + dz * n.z;
        precise float tx = dx - dn * n.x;
        precise float ty = dy - dn * n.y;
        precise float tz = dz - dn * n.z;
        precise float t2 = tx * tx + ty * ty + tz * tz;
        if (t2 > 0.0f) {
            precise float gs = g * muS;
            precise float gk = g * muK;
            precise float scale = removedShare(SQRT(t2), depth, gs, gk);
            px -= scale * tx;
            py -= scale * ty;
            pz -= scale * tz;
        }
    }
    return vec3(px, py, pz);
}

// SphereCollider.localDistance: signed distance in the body frame, outward normal into n
float sphereDistance(float x, float y, float z, float radius, out vec3 n) {
    precise float d2 = x * x + y * y + z * z;
    precise float d = SQRT(d2);
    if (d < 1e-12f) {
        n = vec3(0.0f, 1.0f, 0.0f);
    } else {
        precise float nx = DIV(x, d);
        precise float ny = DIV(y, d);
        precise float nz = DIV(z, d);
        n = vec3(nx, ny, nz);
    }
    precise float sd = d - radius;
    return sd;
}

// a + t u, one coordinate as the CPU rounds it
float along(float a, float t, float u) {
    precise float r = a + t * u;
    return r;
}

// RigidCollider.bisect for a solid (side +1)
float sphereBisect(float ax, float ay, float az, float ux, float uy, float uz, float lo, float hi, float radius,
                   inout vec3 n, out float side) {
    precise float l = lo;
    precise float h = hi;
    for (int k = 0; k < 30; k++) {
        precise float gap = h - l;
        if (!(gap > 1e-7f)) {
            break;
        }
        precise float sum = l + h;
        precise float mid = 0.5f * sum;
        if (sphereDistance(along(ax, mid, ux), along(ay, mid, uy), along(az, mid, uz), radius, n) >= 0.0f) {
            l = mid;
        } else {
            h = mid;
        }
    }
    side = 1.0f;
    return l;
}

// RigidCollider.touch for a solid sphere: conservative advancement along a + t u; the first t within eps
// of the surface going in, or -1; sideOut is the side the path came from
float sphereTouch(float ax, float ay, float az, float ux, float uy, float uz, float len, float sdA, float eps,
                  float radius, inout vec3 n, out float sideOut) {
    float side = sdA >= 0.0f ? 1.0f : -1.0f;
    precise float d = abs(sdA);
    sideOut = side;
    if (d >= len) {
        precise float un = ux * n.x + uy * n.y + uz * n.z;
        precise float s = side * un;
        return d <= eps && s < 0.0f ? 0.0f : -1.0f;
    }
    precise float t = 0.0f;
    precise float lastT = 0.0f;
    for (int k = 0; k < MAX_SWEEP_STEPS; k++) {
        if (d <= eps) {
            precise float un = ux * n.x + uy * n.y + uz * n.z;
            precise float s = side * un;
            if (s < 0.0f) {
                sideOut = side;
                return t;
            }
            precise float step = DIV(eps, len); // grazing or leaving: step past
            t += step;
        } else {
            precise float step = DIV(d, len);
            t += step;
        }
        if (t >= 1.0f) {
            return -1.0f;
        }
        precise float sd = sphereDistance(along(ax, t, ux), along(ay, t, uy), along(az, t, uz), radius, n);
        if (sd < -eps) {
            return sphereBisect(ax, ay, az, ux, uy, uz, lastT, t, radius, n, sideOut);
        }
        lastT = t;
        d = abs(sd);
        if (d > eps) {
            side = sd >= 0.0f ? 1.0f : -1.0f;
        }
    }
    precise float sdEnd = sphereDistance(ax + ux, ay + uy, az + uz, radius, n);
    if ((sdEnd >= 0.0f ? 1.0f : -1.0f) == side) {
        return -1.0f;
    }
    precise float lo = t;
    precise float hi = 1.0f;
    for (int k = 0; k < 40; k++) {
        precise float gap = hi - lo;
        if (!(gap > 1e-7f)) {
            break;
        }
        precise float sum = lo + hi;
        precise float mid = 0.5f * sum;
        precise float sd = sphereDistance(along(ax, mid, ux), along(ay, mid, uy), along(az, mid, uz), radius, n);
        if ((sd >= 0.0f ? 1.0f : -1.0f) == side) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    precise float sd = sphereDistance(along(ax, lo, ux), along(ay, lo, uy), along(az, lo, uz), radius, n);
    sideOut = side;
    precise float limit = 4.0f * eps;
    return abs(sd) <= limit ? lo : -1.0f;
}

// The world normal R n of a body-frame normal (RigidCollider.respondLocal, still body); r: R's first float
vec3 toWorld(int r, vec3 n) {
    precise float wx = colliders[r] * n.x + colliders[r + 1] * n.y + colliders[r + 2] * n.z;
    precise float wy = colliders[r + 3] * n.x + colliders[r + 4] * n.y + colliders[r + 5] * n.z;
    precise float wz = colliders[r + 6] * n.x + colliders[r + 7] * n.y + colliders[r + 8] * n.z;
    return vec3(wx, wy, wz);
}

// R^T (x, y, z): a world offset into the body frame; r: R's first float
vec3 toBody(int r, float x, float y, float z) {
    precise float bx = colliders[r] * x + colliders[r + 3] * y + colliders[r + 6] * z;
    precise float by = colliders[r + 1] * x + colliders[r + 4] * y + colliders[r + 7] * z;
    precise float bz = colliders[r + 2] * x + colliders[r + 5] * y + colliders[r + 8] * z;
    return vec3(bx, by, bz);
}

// RigidCollider.collide for a still solid sphere at record o: t(3) R(9) radius thickness muS muK eps reach2 wide2
vec3 collideSphere(int o, vec3 p, vec3 p0, float off, float g) {
    float tx = colliders[o];
    float ty = colliders[o + 1];
    float tz = colliders[o + 2];
    int r = o + 3;
    float radius = colliders[o + 12];
    float thickness = colliders[o + 13];
    float muS = colliders[o + 14];
    float muK = colliders[o + 15];
    float eps = colliders[o + 16];
    float reach2 = colliders[o + 17];
    float wide2 = colliders[o + 18];
    // broad phase in the world frame (a still body)
    precise float qx = p0.x - tx;
    precise float qy = p0.y - ty;
    precise float qz = p0.z - tz;
    precise float vx = (p.x - tx) - qx;
    precise float vy = (p.y - ty) - qy;
    precise float vz = (p.z - tz) - qz;
    precise float v2 = vx * vx + vy * vy + vz * vz;
    precise float t = 0.0f;
    if (v2 > 0.0f) {
        precise float qv = qx * vx + qy * vy + qz * vz;
        precise float f = DIV(-qv, v2);
        t = max(0.0f, min(1.0f, f));
    }
    precise float kx = qx + t * vx;
    precise float ky = qy + t * vy;
    precise float kz = qz + t * vz;
    precise float q2 = qx * qx + qy * qy + qz * qz;
    precise float slack = 1e-12f * (q2 + v2);
    precise float k2 = kx * kx + ky * ky + kz * kz;
    precise float wideSlack = wide2 + slack;
    if (k2 >= wideSlack) {
        return p;
    }
    precise float th = thickness + off;
    precise float dx = p.x - tx;
    precise float dy = p.y - ty;
    precise float dz = p.z - tz;
    precise vec3 b = toBody(r, dx, dy, dz);
    dx = p0.x - tx;
    dy = p0.y - ty;
    dz = p0.z - tz;
    precise vec3 a = toBody(r, dx, dy, dz);
    precise float ux = b.x - a.x;
    precise float uy = b.y - a.y;
    precise float uz = b.z - a.z;
    precise float len2 = ux * ux + uy * uy + uz * uz;
    precise float s = 0.0f;
    if (len2 > 0.0f) {
        precise float au = a.x * ux + a.y * uy + a.z * uz;
        precise float f = DIV(-au, len2);
        s = max(0.0f, min(1.0f, f));
    }
    precise float cx = a.x + s * ux;
    precise float cy = a.y + s * uy;
    precise float cz = a.z + s * uz;
    precise float c2 = cx * cx + cy * cy + cz * cz;
    if (c2 >= reach2) {
        return p;
    }
    vec3 n;
    float side;
    precise float sdA = sphereDistance(a.x, a.y, a.z, radius, n);
    precise float len = SQRT(len2);
    precise float hit = sdA >= 0.0f ? sphereTouch(a.x, a.y, a.z, ux, uy, uz, len, sdA, eps, radius, n, side) : -1.0f;
    if (hit >= 0.0f) {
        // touched at h = a + t u: respond against the tangent plane at its closest point (a sphere is convex)
        precise float hx = along(a.x, hit, ux);
        precise float hy = along(a.y, hit, uy);
        precise float hz = along(a.z, hit, uz);
        precise float sdH = sphereDistance(hx, hy, hz, radius, n);
        precise float px = hx - sdH * n.x;
        precise float py = hy - sdH * n.y;
        precise float pz = hz - sdH * n.z;
        precise float gap = (b.x - px) * n.x + (b.y - py) * n.y + (b.z - pz) * n.z;
        precise float depth = th - gap;
        if (depth > 0.0f) {
            return respond(p, p0, toWorld(r, n), depth, g, muS, muK);
        }
        return p;
    }
    precise float sdB = sphereDistance(b.x, b.y, b.z, radius, n);
    precise float depth = th - sdB;
    if (depth > 0.0f) {
        return respond(p, p0, toWorld(r, n), depth, g, muS, muK);
    }
    return p;
}

// PlaneCollider.collide at record o: n(3) offset thickness muS muK
vec3 collidePlane(int o, vec3 p, vec3 p0, float off, float g) {
    vec3 n = vec3(colliders[o], colliders[o + 1], colliders[o + 2]);
    precise float reach = colliders[o + 4] + off;
    precise float height = n.x * p.x + n.y * p.y + n.z * p.z - colliders[o + 3];
    precise float depth = reach - height;
    if (depth > 0.0f) {
        return respond(p, p0, n, depth, g, colliders[o + 5], colliders[o + 6]);
    }
    return p;
}

// DragHandle.collide for particle i of inverse mass w: pulled w / (w + alpha/h^2) of the way (all the way at
// compliance 0) to its target point while the hand holds it
vec3 collideHand(int o, vec3 p, int i, float w) {
    precise vec3 q = p;
    if (colliders[o] == 0.0f || w == 0.0f) {
        return q;
    }
    float alphaTilde = colliders[o + 1];
    for (int k = 0; k < 3; k++) {
        if (floatBitsToInt(colliders[o + 2 + k]) == i) {
            precise float f = alphaTilde == 0.0f ? 1.0f : DIV(w, w + alphaTilde);
            int t = o + 5 + 3 * k;
            precise float dx = colliders[t] - q.x;
            precise float dy = colliders[t + 1] - q.y;
            precise float dz = colliders[t + 2] - q.z;
            q = vec3(q.x + f * dx, q.y + f * dy, q.z + f * dz);
        }
    }
    return q;
}

// The environment's colliders in order on particle i (inverse mass w) at p whose step started at p0
// (PositionStep's collider pass after the settle; pinned particles never come here)
vec3 collideAll(vec3 p, vec3 p0, float off, float g, int i, float w) {
    precise vec3 q = p;
    for (int c = 0; c < colliderCount; c++) {
        int o = COLLIDER_STRIDE * c;
        if (colliderType[c] == COLLIDER_PLANE) {
            q = collidePlane(o, q, p0, off, g);
        } else if (colliderType[c] == COLLIDER_HAND) {
            q = collideHand(o, q, i, w);
        } else {
            q = collideSphere(o, q, p0, off, g);
        }
    }
    return q;
}
