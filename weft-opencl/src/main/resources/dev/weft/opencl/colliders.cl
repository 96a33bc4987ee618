// The colliders as the CPU computes them (PlaneCollider; RigidCollider, still or moved by a Motion, with its shapes
// SphereCollider, BoxCollider, CapsuleCollider, CylinderCollider, EllipsoidCollider (with EllipsoidDistance),
// FunnelCollider, RectangleCollider, SdfCollider (SignedDistanceField.sample), MeshCollider (TriangleBvh.closest,
// TriangleClosestPoint); AnimatedMeshCollider (its carry, TriangleBvh.firstHit); Collider.respond, CoulombFriction),
// in the same float and double operations and order, for every solver's kernels: collide_all runs a particle
// against the environment's colliders in their order. The ellipsoid and the funnel compute in double as the CPU
// does, so they exist where the device has cl_khr_fp64 (the host refuses them elsewhere, DeviceColliders).

// The largest functions are compiled once, called where used (noinline): inlined into every kernel that runs the
// colliders, NVIDIA's compiler took 30-40 s per such kernel with its cache off (an H100: XPBD's program 32 s,
// contacts.cl's 73 s; kept out of line, contacts.cl's 5 s). The float operations are the same either way.
#define COLLIDER_OUT_OF_LINE __attribute__((noinline))

// collider records: COLLIDER_STRIDE floats each, the layout DeviceColliderRecords writes
#define COLLIDER_STRIDE 40
#define COLLIDER_PLANE 0
#define COLLIDER_SPHERE 1
#define COLLIDER_BOX 2
#define COLLIDER_CAPSULE 3
#define COLLIDER_CYLINDER 4
#define COLLIDER_ELLIPSOID 5
#define COLLIDER_FUNNEL 6
#define COLLIDER_RECTANGLE 7
#define COLLIDER_SDF 8
// DragHandle: held (1/0), alpha/h^2, three particle indices (int bits), each particle's target point (3 each)
#define COLLIDER_HAND 9
// MeshCollider: its flattened TriangleBvh after the records (TriangleBvh.writeFlat)
#define COLLIDER_MESH 10
// AnimatedMeshCollider: its hierarchy's topology after the records, its two meshes of the step after the fields
#define COLLIDER_ANIMATED 11
// Grip (holding free particles): count (int bits), where its held particles start counted from the record (int
// bits); there, per held particle, its index (int bits) and its target point (3)
#define COLLIDER_GRIP 12
// Projectile: centre now (0-2) and at the step's start (3-5), radius (6), thickness (7), friction (8, 9), the
// ball's inverse mass (10), where its reaction slots (3 a particle) start counted from the record (11, int bits)
#define COLLIDER_BALL 13
// TriangleBvh.FLAT_NODE, FLAT_TRIANGLE; DeviceColliderRecords.MESH_STACK (the host refuses deeper hierarchies)
#define MESH_NODE 9
#define MESH_TRIANGLE 12
#define MESH_STACK 64
// DeviceColliderRecords.START_POSE and MOVING
#define COLLIDER_START_POSE 26
#define COLLIDER_MOVING 38
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define WEFT_COLLIDER_FP64
#endif
// RigidCollider.MAX_SWEEP_STEPS
#define MAX_SWEEP_STEPS 32
// CoulombFriction.removedShare against an immovable surface (share 1)
static float removed_share(float slip, float push, float staticCoefficient, float kineticCoefficient) {
    return slip <= staticCoefficient * push ? 1.0f : fmin(1.0f, kineticCoefficient * push / slip);
}

// Collider.respond: out along n by depth, then Coulomb friction on the motion since p0 relative to the
// surface, which moved by s at the contact (0 for a still surface, as the CPU passes)
static float3 respond(float3 p, float3 p0, float3 n, float depth, float3 s, float grip, float muS, float muK) {
    float px = p.x + depth * n.x;
    float py = p.y + depth * n.y;
    float pz = p.z + depth * n.z;
    if (muS > 0.0f && grip > 0.0f && depth > 0.0f) {
        float dx = px - p0.x - s.x;
        float dy = py - p0.y - s.y;
        float dz = pz - p0.z - s.z;
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

// RectangleCollider.localDistance (|x| <= half width w, |z| <= half depth d of the y = 0 plane; a shell)
static float rectangle_distance(float x, float y, float z, float w, float dd, float3* n) {
    float dx = x - java_max(-w, java_min(w, x));
    float dz = z - java_max(-dd, java_min(dd, z));
    if (dx == 0.0f && dz == 0.0f) {
        *n = (float3) (0.0f, 1.0f, 0.0f);
        return y;
    }
    float d = sqrt(dx * dx + y * y + dz * dz);
    float s = y >= 0.0f ? 1.0f : -1.0f;
    *n = (float3) (s * dx / d, s * y / d, s * dz / d);
    return s * d;
}

#ifdef WEFT_COLLIDER_FP64
// The high and low words of a double, and a double with its high word replaced (fdlibm's __HI, __LO)
inline int hi_word(double x) {
    return (int) (as_long(x) >> 32);
}

inline int lo_word(double x) {
    return (int) as_long(x);
}

inline double with_hi_word(double x, int high) {
    return as_double((as_long(x) & 0xFFFFFFFFL) | (long) ((ulong) (uint) high << 32));
}

// StrictMath.exp: fdlibm's e_exp.c (Java's FdLibm.Exp), the same double operations in the same order
static double fdlibm_exp(double x) {
    const double huge = 1.0e+300;
    const double twom1000 = 0x1.0p-1000;
    const double o_threshold = 0x1.62e42fefa39efp9;
    const double u_threshold = -0x1.74910d52d3051p9;
    const double ln2HI0 = 0x1.62e42feep-1;
    const double ln2LO0 = 0x1.a39ef35793c76p-33;
    const double invln2 = 0x1.71547652b82fep0;
    const double P1 = 0x1.555555555553ep-3;
    const double P2 = -0x1.6c16c16bebd93p-9;
    const double P3 = 0x1.1566aaf25de2cp-14;
    const double P4 = -0x1.bbd41c5d26bf1p-20;
    const double P5 = 0x1.6376972bea4d0p-25;
    double y;
    double hi = 0.0;
    double lo = 0.0;
    double c;
    double t;
    int k = 0;
    int hx = hi_word(x);
    int xsb = (hx >> 31) & 1;
    hx &= 0x7fffffff;
    if (hx >= 0x40862E42) {
        if (hx >= 0x7ff00000) {
            if (((hx & 0xfffff) | lo_word(x)) != 0) {
                return x + x;
            }
            return (xsb == 0) ? x : 0.0;
        }
        if (x > o_threshold) {
            return huge * huge;
        }
        if (x < u_threshold) {
            return twom1000 * twom1000;
        }
    }
    if (hx > 0x3fd62e42) {
        if (hx < 0x3FF0A2B2) {
            hi = x - (xsb == 0 ? ln2HI0 : -ln2HI0);
            lo = xsb == 0 ? ln2LO0 : -ln2LO0;
            k = 1 - xsb - xsb;
        } else {
            k = (int) (invln2 * x + (xsb == 0 ? 0.5 : -0.5));
            t = k;
            hi = x - t * ln2HI0;
            lo = t * ln2LO0;
        }
        x = hi - lo;
    } else if (hx < 0x3e300000) {
        if (huge + x > 1.0) {
            return 1.0 + x;
        }
    } else {
        k = 0;
    }
    t = x * x;
    c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if (k == 0) {
        return 1.0 - ((x * c) / (c - 2.0) - x);
    }
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if (k >= -1021) {
        return with_hi_word(y, hi_word(y) + (int) ((uint) k << 20));
    }
    y = with_hi_word(y, hi_word(y) + ((k + 1000) << 20));
    return y * twom1000;
}

// Math.hypot (StrictMath's, fdlibm's e_hypot.c as Java's FdLibm.Hypot) for finite arguments
static double fdlibm_hypot(double x, double y) {
    double a = fabs(x);
    double b = fabs(y);
    if (b > a) {
        double tmp = a;
        a = b;
        b = tmp;
    }
    int ha = hi_word(a);
    int hb = hi_word(b);
    if ((ha - hb) > 0x3c00000) {
        return a + b;
    }
    int k = 0;
    if (a > 0x1.00000ffffffffp500) {
        ha -= 0x25800000;
        hb -= 0x25800000;
        a = a * 0x1.0p-600;
        b = b * 0x1.0p-600;
        k += 600;
    }
    double t1;
    double t2;
    if (b < 0x1.0p-500) {
        if (b < DBL_MIN) {
            if (b == 0.0) {
                return a;
            }
            t1 = 0x1.0p1022;
            b *= t1;
            a *= t1;
            k -= 1022;
        } else {
            ha += 0x25800000;
            hb += 0x25800000;
            a = a * 0x1.0p600;
            b = b * 0x1.0p600;
            k -= 600;
        }
    }
    double w = a - b;
    if (w > b) {
        t1 = with_hi_word(0.0, ha);
        t2 = a - t1;
        w = sqrt(t1 * t1 - (b * (-b) - t2 * (a + t1)));
    } else {
        a = a + a;
        double y1 = with_hi_word(0.0, hb);
        double y2 = b - y1;
        t1 = with_hi_word(0.0, ha + 0x00100000);
        t2 = a - t1;
        w = sqrt(t1 * y1 - (w * (-w) - (t1 * y2 + t2 * b)));
    }
    if (k != 0) {
        // 2^k exactly (k within a double's normal exponents here), as Math.powerOfTwoD
        return as_double((long) (k + 1023) << 52) * w;
    }
    return w;
}

// Java's Math.max and Math.min on doubles (NaN in, NaN out; max(-0, +0) = +0, min = -0)
inline double java_max_d(double a, double b) {
    if (isnan(a) || isnan(b)) {
        return isnan(a) ? a : b;
    }
    if (a == 0.0 && b == 0.0) {
        return signbit(a) ? b : a;
    }
    return a >= b ? a : b;
}

inline double java_min_d(double a, double b) {
    if (isnan(a) || isnan(b)) {
        return isnan(a) ? a : b;
    }
    if (a == 0.0 && b == 0.0) {
        return signbit(b) ? b : a;
    }
    return a <= b ? a : b;
}

// EllipsoidDistance.MAX_STEPS
#define ELLIPSOID_MAX_STEPS 100

// EllipsoidDistance.root2
static double ellipse_root(double r0, double z0, double z1, double g) {
    double n0 = r0 * z0;
    double s0 = z1 - 1;
    double s1 = g < 0 ? 0.0 : fdlibm_hypot(n0, z1) - 1;
    double s = 0;
    for (int i = 0; i < ELLIPSOID_MAX_STEPS; i++) {
        s = 0.5 * (s0 + s1);
        if (s == s0 || s == s1) {
            break;
        }
        double a = n0 / (s + r0);
        double b = z1 / (s + 1);
        double f = a * a + b * b - 1;
        if (f > 0) {
            s0 = s;
        } else if (f < 0) {
            s1 = s;
        } else {
            break;
        }
    }
    return s;
}

// EllipsoidDistance.root3
static double ellipsoid_root(double r0, double r1, double z0, double z1, double z2, double g) {
    double n0 = r0 * z0;
    double n1 = r1 * z1;
    double s0 = z2 - 1;
    double s1 = g < 0 ? 0.0 : sqrt(n0 * n0 + n1 * n1 + z2 * z2) - 1;
    double s = 0;
    for (int i = 0; i < ELLIPSOID_MAX_STEPS; i++) {
        s = 0.5 * (s0 + s1);
        if (s == s0 || s == s1) {
            break;
        }
        double a = n0 / (s + r0);
        double b = n1 / (s + r1);
        double c = z2 / (s + 1);
        double f = a * a + b * b + c * c - 1;
        if (f > 0) {
            s0 = s;
        } else if (f < 0) {
            s1 = s;
        } else {
            break;
        }
    }
    return s;
}

// EllipsoidDistance.closest2: the ellipse e0 >= e1, first-quadrant point (y0, y1), closest point into out[o], out[p]
static void ellipse_closest(double e0, double e1, double y0, double y1, double* out, int o, int p) {
    if (y1 > 0) {
        if (y0 > 0) {
            double z0 = y0 / e0;
            double z1 = y1 / e1;
            double g = z0 * z0 + z1 * z1 - 1;
            if (g != 0) {
                double r0 = (e0 / e1) * (e0 / e1);
                double sbar = ellipse_root(r0, z0, z1, g);
                out[o] = r0 * y0 / (sbar + r0);
                out[p] = y1 / (sbar + 1);
            } else {
                out[o] = y0;
                out[p] = y1;
            }
        } else {
            out[o] = 0;
            out[p] = e1;
        }
        return;
    }
    double numer0 = e0 * y0;
    double denom0 = e0 * e0 - e1 * e1;
    if (numer0 < denom0) {
        double xde0 = numer0 / denom0;
        out[o] = e0 * xde0;
        out[p] = e1 * sqrt(java_max_d(0, 1 - xde0 * xde0));
    } else {
        out[o] = e0;
        out[p] = 0;
    }
}

// EllipsoidDistance.closest: the sorted ellipsoid e0 >= e1 >= e2, first-octant point y, closest point into out
static void ellipsoid_closest(double e0, double e1, double e2, double y0, double y1, double y2, double* out) {
    if (y2 > 0) {
        if (y1 > 0) {
            if (y0 > 0) {
                double z0 = y0 / e0;
                double z1 = y1 / e1;
                double z2 = y2 / e2;
                double g = z0 * z0 + z1 * z1 + z2 * z2 - 1;
                if (g != 0) {
                    double r0 = (e0 / e2) * (e0 / e2);
                    double r1 = (e1 / e2) * (e1 / e2);
                    double sbar = ellipsoid_root(r0, r1, z0, z1, z2, g);
                    out[0] = r0 * y0 / (sbar + r0);
                    out[1] = r1 * y1 / (sbar + r1);
                    out[2] = y2 / (sbar + 1);
                } else {
                    out[0] = y0;
                    out[1] = y1;
                    out[2] = y2;
                }
            } else {
                out[0] = 0;
                ellipse_closest(e1, e2, y1, y2, out, 1, 2);
            }
        } else if (y0 > 0) {
            out[1] = 0;
            ellipse_closest(e0, e2, y0, y2, out, 0, 2);
        } else {
            out[0] = 0;
            out[1] = 0;
            out[2] = e2;
        }
        return;
    }
    double denom0 = e0 * e0 - e2 * e2;
    double denom1 = e1 * e1 - e2 * e2;
    double numer0 = e0 * y0;
    double numer1 = e1 * y1;
    if (numer0 < denom0 && numer1 < denom1) {
        double xde0 = numer0 / denom0;
        double xde1 = numer1 / denom1;
        double discr = 1 - xde0 * xde0 - xde1 * xde1;
        if (discr > 0) {
            out[0] = e0 * xde0;
            out[1] = e1 * xde1;
            out[2] = e2 * sqrt(discr);
            return;
        }
    }
    out[2] = 0;
    ellipse_closest(e0, e1, y0, y1, out, 0, 1);
}

// EllipsoidCollider.localDistance: record 19-21 the semi-axes sorted descending, 22-24 their local axes
static float ellipsoid_distance(__global const float* c, float x, float y, float z, float3* n) {
    double e0 = c[19];
    double e1 = c[20];
    double e2 = c[21];
    int axis0 = (int) c[22];
    int axis1 = (int) c[23];
    int axis2 = (int) c[24];
    double px = x;
    double py = y;
    double pz = z;
    double y0 = axis0 == 0 ? px : axis0 == 1 ? py : pz;
    double y1 = axis1 == 0 ? px : axis1 == 1 ? py : pz;
    double y2 = axis2 == 0 ? px : axis2 == 1 ? py : pz;
    double cl[3];
    ellipsoid_closest(e0, e1, e2, fabs(y0), fabs(y1), fabs(y2), cl);
    double c0 = copysign(cl[0], y0);
    double c1 = copysign(cl[1], y1);
    double c2 = copysign(cl[2], y2);
    double d0 = y0 - c0;
    double d1 = y1 - c1;
    double d2 = y2 - c2;
    double dist = sqrt(d0 * d0 + d1 * d1 + d2 * d2);
    double q0 = y0 / e0;
    double q1 = y1 / e1;
    double q2 = y2 / e2;
    bool inside = q0 * q0 + q1 * q1 + q2 * q2 < 1;
    double g0 = c0 / (e0 * e0);
    double g1 = c1 / (e1 * e1);
    double g2 = c2 / (e2 * e2);
    double gl = sqrt(g0 * g0 + g1 * g1 + g2 * g2);
    float nn[3];
    nn[axis0] = (float) (g0 / gl);
    nn[axis1] = (float) (g1 / gl);
    nn[axis2] = (float) (g2 / gl);
    *n = (float3) (nn[0], nn[1], nn[2]);
    return (float) (inside ? -dist : dist);
}

// FunnelCollider.SAMPLES and NEWTON_STEPS
#define FUNNEL_SAMPLES 12
#define FUNNEL_NEWTON_STEPS 30

// FunnelCollider.slope
inline double funnel_slope(double s, double rho, double py, double inv) {
    double es = fdlibm_exp(s * inv);
    return (es - rho) * es * inv + (s - py);
}

// FunnelCollider.localDistance: record 19 a, 20 yMin, 21 yMax; distance signed by side (a shell)
static float funnel_distance(__global const float* c, float x, float y, float z, float3* n) {
    double fa = c[19];
    double yMin = c[20];
    double yMax = c[21];
    double rho = sqrt((double) x * x + (double) z * z);
    double ux = 1;
    double uz = 0;
    if (rho > 1e-12) {
        ux = x / rho;
        uz = z / rho;
    }
    double py = y;
    double inv = 1.0 / fa;
    double s0 = java_max_d(yMin, java_min_d(yMax, py));
    double e = fdlibm_exp(s0 * inv);
    double reach = sqrt((e - rho) * (e - rho) + (s0 - py) * (s0 - py));
    double lo = java_max_d(yMin, py - reach);
    double hi = java_min_d(yMax, py + reach);
    double best = s0;
    double bestF = reach * reach;
    double step = (hi - lo) / (FUNNEL_SAMPLES - 1);
    int bestK = -1;
    for (int k = 0; k < FUNNEL_SAMPLES; k++) {
        double s = k == FUNNEL_SAMPLES - 1 ? hi : lo + k * step;
        double es = fdlibm_exp(s * inv);
        double f = (es - rho) * (es - rho) + (s - py) * (s - py);
        if (f < bestF) {
            bestF = f;
            best = s;
            bestK = k;
        }
    }
    if (step > 0) {
        double bl = bestK > 0 ? best - step : java_max_d(lo, best - step);
        double bh = bestK >= 0 && bestK < FUNNEL_SAMPLES - 1 ? best + step : java_min_d(hi, best + step);
        double gl = funnel_slope(bl, rho, py, inv);
        double gh = funnel_slope(bh, rho, py, inv);
        if (gl < 0 && gh > 0) {
            double s = best;
            for (int k = 0; k < FUNNEL_NEWTON_STEPS; k++) {
                double es = fdlibm_exp(s * inv);
                double g = (es - rho) * es * inv + (s - py);
                if (g < 0) {
                    bl = s;
                } else {
                    bh = s;
                }
                double gp = es * es * inv * inv + (es - rho) * es * inv * inv + 1;
                // gp > 0 ? s - g / gp : NaN, and a NaN fails the bracket test
                bool inBracket = false;
                double next = 0.0;
                if (gp > 0) {
                    next = s - g / gp;
                    inBracket = next > bl && next < bh;
                }
                if (!inBracket) {
                    next = 0.5 * (bl + bh);
                }
                if (fabs(next - s) < 1e-12) {
                    s = next;
                    break;
                }
                s = next;
            }
            double es = fdlibm_exp(s * inv);
            double f = (es - rho) * (es - rho) + (s - py) * (s - py);
            if (f < bestF) {
                best = s;
            }
        }
    }
    double ec = fdlibm_exp(best * inv);
    double dr = rho - ec;
    double dy = py - best;
    double dist = sqrt(dr * dr + dy * dy);
    double slope = ec * inv;
    double nl = sqrt(1 + slope * slope);
    double nr = 1 / nl;
    double ny = -slope / nl;
    double side = dr * nr + dy * ny >= 0 ? 1.0 : -1.0;
    if (dist > 1e-9) {
        nr = side * dr / dist;
        ny = side * dy / dist;
    }
    *n = (float3) ((float) (nr * ux), (float) ny, (float) (nr * uz));
    return (float) (side * dist);
}
#endif

// SdfCollider.localDistance: SignedDistanceField.sample (trilinear in the grid, the distance to the grid added
// outside it) and its gradient made a unit normal. Record: 12 where the nodes start counted from the record
// and 19-21 the grid's size (int bits), 22-24 its origin, 25 its cell
static float sdf_distance(__global const float* c, float x, float y, float z, float3* n) {
    __global const float* phi = c + as_int(c[12]);
    int nx = as_int(c[19]);
    int ny = as_int(c[20]);
    int nz = as_int(c[21]);
    float ox = c[22];
    float oy = c[23];
    float oz = c[24];
    float cell = c[25];
    float gx = (x - ox) / cell;
    float gy = (y - oy) / cell;
    float gz = (z - oz) / cell;
    float cx = java_max(0.0f, java_min((float) (nx - 1), gx));
    float cy = java_max(0.0f, java_min((float) (ny - 1), gy));
    float cz = java_max(0.0f, java_min((float) (nz - 1), gz));
    // Java's (int) of a float: NaN gives 0 (here a NaN position, which the CPU would not survive either)
    int i = min(isnan(cx) ? 0 : (int) cx, nx - 2);
    int j = min(isnan(cy) ? 0 : (int) cy, ny - 2);
    int k = min(isnan(cz) ? 0 : (int) cz, nz - 2);
    float fx = cx - i;
    float fy = cy - j;
    float fz = cz - k;
    int base = (k * ny + j) * nx + i;
    int sy = nx;
    int sz = nx * ny;
    float c000 = phi[base];
    float c100 = phi[base + 1];
    float c010 = phi[base + sy];
    float c110 = phi[base + sy + 1];
    float c001 = phi[base + sz];
    float c101 = phi[base + sz + 1];
    float c011 = phi[base + sz + sy];
    float c111 = phi[base + sz + sy + 1];
    float c00 = c000 + fx * (c100 - c000);
    float c10 = c010 + fx * (c110 - c010);
    float c01 = c001 + fx * (c101 - c001);
    float c11 = c011 + fx * (c111 - c011);
    float c0 = c00 + fy * (c10 - c00);
    float c1 = c01 + fy * (c11 - c01);
    float value = c0 + fz * (c1 - c0);
    float ex = (gx - cx) * cell;
    float ey = (gy - cy) * cell;
    float ez = (gz - cz) * cell;
    float outside2 = ex * ex + ey * ey + ez * ez;
    float d;
    float g0;
    float g1;
    float g2;
    if (outside2 > 0.0f) {
        float outside = sqrt(outside2);
        g0 = ex / outside;
        g1 = ey / outside;
        g2 = ez / outside;
        d = value + outside;
    } else {
        float dx0 = (c100 - c000) + fy * ((c110 - c010) - (c100 - c000));
        float dx1 = (c101 - c001) + fy * ((c111 - c011) - (c101 - c001));
        g0 = (dx0 + fz * (dx1 - dx0)) / cell;
        g1 = (c10 - c00 + fz * ((c11 - c01) - (c10 - c00))) / cell;
        g2 = (c1 - c0) / cell;
        d = value;
    }
    float len = sqrt(g0 * g0 + g1 * g1 + g2 * g2);
    if (len < 1e-6f) {
        *n = (float3) (0.0f, 1.0f, 0.0f);
    } else {
        *n = (float3) (g0 / len, g1 / len, g2 / len);
    }
    return d;
}

// TriangleBvh.boxDistanceSquared of the node's bounds b (min xyz, max xyz)
static float mesh_box_distance2(__global const float* b, float px, float py, float pz) {
    float dx = java_max(0.0f, java_max(b[0] - px, px - b[3]));
    float dy = java_max(0.0f, java_max(b[1] - py, py - b[4]));
    float dz = java_max(0.0f, java_max(b[2] - pz, pz - b[5]));
    return dx * dx + dy * dy + dz * dz;
}

// TriangleClosestPoint.closest (Ericson 5.1.5) of the triangle of corners a, b, c to p: the closest point into
// *out, its region returned (0 face, 1-3 edges ab, bc, ca, 4-6 corners a, b, c)
static int triangle_closest(__global const float* a, __global const float* b, __global const float* c, float px,
                            float py, float pz, float3* out) {
    float ax = a[0];
    float ay = a[1];
    float az = a[2];
    float abx = b[0] - ax;
    float aby = b[1] - ay;
    float abz = b[2] - az;
    float acx = c[0] - ax;
    float acy = c[1] - ay;
    float acz = c[2] - az;
    float apx = px - ax;
    float apy = py - ay;
    float apz = pz - az;
    float d1 = abx * apx + aby * apy + abz * apz;
    float d2 = acx * apx + acy * apy + acz * apz;
    if (d1 <= 0.0f && d2 <= 0.0f) {
        *out = (float3) (ax, ay, az);
        return 4;
    }
    float bpx = px - b[0];
    float bpy = py - b[1];
    float bpz = pz - b[2];
    float d3 = abx * bpx + aby * bpy + abz * bpz;
    float d4 = acx * bpx + acy * bpy + acz * bpz;
    if (d3 >= 0.0f && d4 <= d3) {
        *out = (float3) (b[0], b[1], b[2]);
        return 5;
    }
    float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
        float s = d1 / (d1 - d3);
        *out = (float3) (ax + s * abx, ay + s * aby, az + s * abz);
        return 1;
    }
    float cpx = px - c[0];
    float cpy = py - c[1];
    float cpz = pz - c[2];
    float d5 = abx * cpx + aby * cpy + abz * cpz;
    float d6 = acx * cpx + acy * cpy + acz * cpz;
    if (d6 >= 0.0f && d5 <= d6) {
        *out = (float3) (c[0], c[1], c[2]);
        return 6;
    }
    float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
        float s = d2 / (d2 - d6);
        *out = (float3) (ax + s * acx, ay + s * acy, az + s * acz);
        return 3;
    }
    float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
        float s = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        *out = (float3) (b[0] + s * (c[0] - b[0]), b[1] + s * (c[1] - b[1]), b[2] + s * (c[2] - b[2]));
        return 2;
    }
    float denom = 1.0f / (va + vb + vc);
    float s = vb * denom;
    float w = vc * denom;
    *out = (float3) (ax + s * abx + w * acx, ay + s * aby + w * acy, az + s * abz + w * acz);
    return 0;
}

// MeshCollider.localDistance: TriangleBvh.closest (depth first from the root, a node's nearer child searched
// first, a triangle at no greater squared distance than the best so far taking its place, as the CPU visits
// them), then the distance signed by the closest triangle's face and the normal: the face's over its inside, the
// direction from the closest point beyond an edge or corner. Record: 12 where the hierarchy starts counted from
// the record, 19 where its triangle slots start counted from the hierarchy (int bits)
static float mesh_distance(__global const float* c, float x, float y, float z, float3* n) {
    __global const float* nodes = c + as_int(c[12]);
    __global const float* slots = nodes + as_int(c[19]);
    int stack[MESH_STACK];
    int top = 0;
    stack[top++] = 0;
    float best = INFINITY;
    int bestSlot = -1;
    int bestRegion = 0;
    float3 q = (float3) (0.0f, 0.0f, 0.0f);
    while (top > 0) {
        int node = stack[--top];
        __global const float* b = nodes + MESH_NODE * node;
        if (mesh_box_distance2(b, x, y, z) > best) {
            continue;
        }
        int child = as_int(b[6]);
        if (child == 0) {
            int end = as_int(b[7]) + as_int(b[8]);
            for (int i = as_int(b[7]); i < end; i++) {
                float3 cp;
                __global const float* t = slots + MESH_TRIANGLE * i;
                int region = triangle_closest(t, t + 3, t + 6, x, y, z, &cp);
                float dx = cp.x - x;
                float dy = cp.y - y;
                float dz = cp.z - z;
                float d2 = dx * dx + dy * dy + dz * dz;
                if (d2 <= best) {
                    best = d2;
                    bestSlot = i;
                    bestRegion = region;
                    q = cp;
                }
            }
        } else {
            float d0 = mesh_box_distance2(nodes + MESH_NODE * child, x, y, z);
            float d1 = mesh_box_distance2(nodes + MESH_NODE * (child + 1), x, y, z);
            if (d0 < d1) {
                stack[top++] = child + 1;
                stack[top++] = child;
            } else {
                stack[top++] = child;
                stack[top++] = child + 1;
            }
        }
    }
    if (bestSlot < 0) {
        // only a NaN point finds no triangle (the CPU would fail on it); a NaN distance, no read out of bounds
        *n = (float3) (0.0f, 1.0f, 0.0f);
        return NAN;
    }
    __global const float* fn = slots + MESH_TRIANGLE * bestSlot + 9;
    float dx = x - q.x;
    float dy = y - q.y;
    float dz = z - q.z;
    float d = sqrt(dx * dx + dy * dy + dz * dz);
    float s = dx * fn[0] + dy * fn[1] + dz * fn[2] >= 0.0f ? 1.0f : -1.0f;
    if (bestRegion != 0 && d > 1e-7f) {
        *n = (float3) (s * dx / d, s * dy / d, s * dz / d);
    } else {
        *n = (float3) (fn[0], fn[1], fn[2]);
    }
    return s * d;
}

// AnimatedMeshCollider's hierarchies (TriangleBvh over vertices that move each step): the topology both share (per
// node its first child, 0 for a leaf, first slot and count; the slots' triangles; the triangles' corners; int
// bits) and one mesh's node bounds and vertex positions
typedef struct {
    __global const float* nodes;
    __global const float* order;
    __global const float* tris;
    __global const float* bounds;
    __global const float* v;
} animated_bvh;

// TriangleBvh.closest within maxDistance: false when no triangle is that close; else the triangle in *tri and the
// closest point in *q
COLLIDER_OUT_OF_LINE
static bool animated_closest(animated_bvh m, float px, float py, float pz, float maxDistance, int* tri, float3* q) {
    float best = maxDistance * maxDistance;
    *tri = -1;
    int stack[MESH_STACK];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        int node = stack[--top];
        if (mesh_box_distance2(m.bounds + 6 * node, px, py, pz) > best) {
            continue;
        }
        int child = as_int(m.nodes[3 * node]);
        if (child == 0) {
            int end = as_int(m.nodes[3 * node + 1]) + as_int(m.nodes[3 * node + 2]);
            for (int i = as_int(m.nodes[3 * node + 1]); i < end; i++) {
                int t = as_int(m.order[i]);
                float3 cp;
                triangle_closest(m.v + 3 * as_int(m.tris[3 * t]), m.v + 3 * as_int(m.tris[3 * t + 1]),
                                 m.v + 3 * as_int(m.tris[3 * t + 2]), px, py, pz, &cp);
                float dx = cp.x - px;
                float dy = cp.y - py;
                float dz = cp.z - pz;
                float d2 = dx * dx + dy * dy + dz * dz;
                if (d2 <= best) {
                    best = d2;
                    *tri = t;
                    *q = cp;
                }
            }
        } else {
            float d0 = mesh_box_distance2(m.bounds + 6 * child, px, py, pz);
            float d1 = mesh_box_distance2(m.bounds + 6 * (child + 1), px, py, pz);
            if (d0 < d1) {
                stack[top++] = child + 1;
                stack[top++] = child;
            } else {
                stack[top++] = child;
                stack[top++] = child + 1;
            }
        }
    }
    return *tri >= 0;
}

// TriangleBvh.slabEnter and slabExit
static float slab_enter(float lo, float hi, float o, float d) {
    if (d == 0.0f) {
        return o >= lo && o <= hi ? -INFINITY : INFINITY;
    }
    float ta = (lo - o) / d;
    float tb = (hi - o) / d;
    return java_min(ta, tb);
}

static float slab_exit(float lo, float hi, float o, float d) {
    if (d == 0.0f) {
        return o >= lo && o <= hi ? INFINITY : -INFINITY;
    }
    float ta = (lo - o) / d;
    float tb = (hi - o) / d;
    return java_max(ta, tb);
}

// TriangleBvh.segmentHitsBox
static bool segment_hits_box(__global const float* b, float ox, float oy, float oz, float dx, float dy, float dz,
                             float tMax) {
    float t0 = 0.0f;
    float t1 = tMax;
    t0 = java_max(t0, slab_enter(b[0], b[3], ox, dx));
    t1 = java_min(t1, slab_exit(b[0], b[3], ox, dx));
    t0 = java_max(t0, slab_enter(b[1], b[4], oy, dy));
    t1 = java_min(t1, slab_exit(b[1], b[4], oy, dy));
    t0 = java_max(t0, slab_enter(b[2], b[5], oz, dz));
    t1 = java_min(t1, slab_exit(b[2], b[5], oz, dz));
    return t0 <= t1;
}

// TriangleBvh.segmentTriangle (Moeller-Trumbore, both sides): the segment parameter of the crossing, or +inf
static float segment_triangle(animated_bvh m, int t, float ox, float oy, float oz, float dx, float dy, float dz) {
    __global const float* a = m.v + 3 * as_int(m.tris[3 * t]);
    __global const float* b = m.v + 3 * as_int(m.tris[3 * t + 1]);
    __global const float* c = m.v + 3 * as_int(m.tris[3 * t + 2]);
    float e1x = b[0] - a[0];
    float e1y = b[1] - a[1];
    float e1z = b[2] - a[2];
    float e2x = c[0] - a[0];
    float e2y = c[1] - a[1];
    float e2z = c[2] - a[2];
    float px = dy * e2z - dz * e2y;
    float py = dz * e2x - dx * e2z;
    float pz = dx * e2y - dy * e2x;
    float det = e1x * px + e1y * py + e1z * pz;
    if (fabs(det) < 1e-20f) {
        return INFINITY;
    }
    float inv = 1.0f / det;
    float sx = ox - a[0];
    float sy = oy - a[1];
    float sz = oz - a[2];
    float u = (sx * px + sy * py + sz * pz) * inv;
    if (u < 0.0f || u > 1.0f) {
        return INFINITY;
    }
    float qx = sy * e1z - sz * e1y;
    float qy = sz * e1x - sx * e1z;
    float qz = sx * e1y - sy * e1x;
    float w = (dx * qx + dy * qy + dz * qz) * inv;
    if (w < 0.0f || u + w > 1.0f) {
        return INFINITY;
    }
    float s = (e2x * qx + e2y * qy + e2z * qz) * inv;
    return s >= 0.0f && s <= 1.0f ? s : INFINITY;
}

// TriangleBvh.firstHit: the first triangle the segment p0 -> p1 crosses into *tri, the hit point into *q; false
// when it crosses none
static bool animated_first_hit(animated_bvh m, float p0x, float p0y, float p0z, float p1x, float p1y, float p1z,
                               int* tri, float3* q) {
    float dx = p1x - p0x;
    float dy = p1y - p0y;
    float dz = p1z - p0z;
    float bestT = INFINITY;
    *tri = -1;
    int stack[MESH_STACK];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        int node = stack[--top];
        if (!segment_hits_box(m.bounds + 6 * node, p0x, p0y, p0z, dx, dy, dz, java_min(bestT, 1.0f))) {
            continue;
        }
        int child = as_int(m.nodes[3 * node]);
        if (child != 0) {
            stack[top++] = child;
            stack[top++] = child + 1;
            continue;
        }
        int end = as_int(m.nodes[3 * node + 1]) + as_int(m.nodes[3 * node + 2]);
        for (int i = as_int(m.nodes[3 * node + 1]); i < end; i++) {
            int t = as_int(m.order[i]);
            float hit = segment_triangle(m, t, p0x, p0y, p0z, dx, dy, dz);
            if (hit < bestT) {
                bestT = hit;
                *tri = t;
            }
        }
    }
    if (*tri < 0) {
        return false;
    }
    *q = (float3) (p0x + bestT * dx, p0y + bestT * dy, p0z + bestT * dz);
    return true;
}

// TriangleBvh.normal: triangle t's unit normal (counter-clockwise corners)
static float3 animated_normal(animated_bvh m, int t) {
    __global const float* a = m.v + 3 * as_int(m.tris[3 * t]);
    __global const float* b = m.v + 3 * as_int(m.tris[3 * t + 1]);
    __global const float* c = m.v + 3 * as_int(m.tris[3 * t + 2]);
    float e1x = b[0] - a[0];
    float e1y = b[1] - a[1];
    float e1z = b[2] - a[2];
    float e2x = c[0] - a[0];
    float e2y = c[1] - a[1];
    float e2z = c[2] - a[2];
    float nx = e1y * e2z - e1z * e2y;
    float ny = e1z * e2x - e1x * e2z;
    float nz = e1x * e2y - e1y * e2x;
    float inv = 1.0f / sqrt(nx * nx + ny * ny + nz * nz);
    return (float3) (nx * inv, ny * inv, nz * inv);
}

// AnimatedMeshCollider.barycentric of p on or near triangle t
static float3 animated_barycentric(animated_bvh m, int t, float3 p) {
    __global const float* a = m.v + 3 * as_int(m.tris[3 * t]);
    __global const float* b = m.v + 3 * as_int(m.tris[3 * t + 1]);
    __global const float* c = m.v + 3 * as_int(m.tris[3 * t + 2]);
    float e0x = b[0] - a[0];
    float e0y = b[1] - a[1];
    float e0z = b[2] - a[2];
    float e1x = c[0] - a[0];
    float e1y = c[1] - a[1];
    float e1z = c[2] - a[2];
    float e2x = p.x - a[0];
    float e2y = p.y - a[1];
    float e2z = p.z - a[2];
    float d00 = e0x * e0x + e0y * e0y + e0z * e0z;
    float d01 = e0x * e1x + e0y * e1y + e0z * e1z;
    float d11 = e1x * e1x + e1y * e1y + e1z * e1z;
    float d20 = e2x * e0x + e2y * e0y + e2z * e0z;
    float d21 = e2x * e1x + e2y * e1y + e2z * e1z;
    float den = d00 * d11 - d01 * d01;
    if (!(fabs(den) > 1e-30f)) {
        return (float3) (1.0f, 0.0f, 0.0f);
    }
    float v1 = (d11 * d20 - d01 * d21) / den;
    float w1 = (d00 * d21 - d01 * d20) / den;
    return (float3) (1.0f - v1 - w1, v1, w1);
}

// An animated mesh's hierarchy of the step's first mesh and of its current one, from its record: where the
// topology and the step state start counted from the record (4, 5), the node, triangle and vertex counts (6-8)
static animated_bvh animated_previous(__global const float* c) {
    int nodes = as_int(c[6]);
    __global const float* topology = c + as_int(c[4]);
    __global const float* step = c + as_int(c[5]);
    animated_bvh m = {topology, topology + 3 * nodes, topology + 3 * nodes + as_int(c[7]), step, step + 12 * nodes};
    return m;
}

static animated_bvh animated_current(__global const float* c) {
    int nodes = as_int(c[6]);
    __global const float* topology = c + as_int(c[4]);
    __global const float* step = c + as_int(c[5]);
    animated_bvh m = {topology, topology + 3 * nodes, topology + 3 * nodes + as_int(c[7]), step + 6 * nodes,
                      step + 12 * nodes + 3 * as_int(c[8])};
    return m;
}

// AnimatedMeshCollider.collide for one particle at p whose step started at p0: the start carried along with the
// nearest point of the step's first mesh, the path from there swept against the current mesh (back to the
// start's side, thickness off, on a crossing), else out of the current mesh's thickness. Record: thickness and
// friction (0-2), the largest vertex step (3), where the topology and the step's meshes start counted from the
// record (4, 5) and the node, triangle and vertex counts (6-8; int bits)
static float3 collide_animated(__global const float* c, float3 p, float3 p0, float offset, float grip) {
    animated_bvh prev = animated_previous(c);
    animated_bvh cur = animated_current(c);
    float maxVertexStep = c[3];
    float px = p.x;
    float py = p.y;
    float pz = p.z;
    float ax = p0.x;
    float ay = p0.y;
    float az = p0.z;
    float mx = px - ax;
    float my = py - ay;
    float mz = pz - az;
    float th = c[0] + offset;
    float reach = th + maxVertexStep + sqrt(mx * mx + my * my + mz * mz);
    float3 s = (float3) (0.0f, 0.0f, 0.0f);
    int t;
    float3 q;
    if (maxVertexStep > 0.0f && animated_closest(prev, ax, ay, az, reach, &t, &q)) {
        float3 w = animated_barycentric(prev, t, q);
        int a = 3 * as_int(cur.tris[3 * t]);
        int b = 3 * as_int(cur.tris[3 * t + 1]);
        int cc = 3 * as_int(cur.tris[3 * t + 2]);
        s.x = w.x * (cur.v[a] - prev.v[a]) + w.y * (cur.v[b] - prev.v[b]) + w.z * (cur.v[cc] - prev.v[cc]);
        s.y = w.x * (cur.v[a + 1] - prev.v[a + 1]) + w.y * (cur.v[b + 1] - prev.v[b + 1])
                + w.z * (cur.v[cc + 1] - prev.v[cc + 1]);
        s.z = w.x * (cur.v[a + 2] - prev.v[a + 2]) + w.y * (cur.v[b + 2] - prev.v[b + 2])
                + w.z * (cur.v[cc + 2] - prev.v[cc + 2]);
        ax += s.x;
        ay += s.y;
        az += s.z;
    }
    if (animated_first_hit(cur, ax, ay, az, px, py, pz, &t, &q)) {
        float3 n = animated_normal(cur, t);
        float side = (ax - q.x) * n.x + (ay - q.y) * n.y + (az - q.z) * n.z;
        float sg = side >= 0.0f ? 1.0f : -1.0f;
        float3 sn = (float3) (sg * n.x, sg * n.y, sg * n.z);
        float depth = th - ((px - q.x) * sn.x + (py - q.y) * sn.y + (pz - q.z) * sn.z);
        return respond(p, p0, sn, depth, s, grip, c[1], c[2]);
    }
    if (!animated_closest(cur, px, py, pz, th, &t, &q)) {
        return p;
    }
    float dx = px - q.x;
    float dy = py - q.y;
    float dz = pz - q.z;
    float d = sqrt(dx * dx + dy * dy + dz * dz);
    float3 n;
    if (d > 1e-7f) {
        n = (float3) (dx / d, dy / d, dz / d);
    } else {
        float3 f = animated_normal(cur, t);
        float side = (ax - px) * f.x + (ay - py) * f.y + (az - pz) * f.z;
        float sg = side >= 0.0f ? 1.0f : -1.0f;
        n = (float3) (sg * f.x, sg * f.y, sg * f.z);
    }
    return respond(p, p0, n, th - d, s, grip, c[1], c[2]);
}

// The rigid shape's localDistance by its type; its dimensions in the record (sphere, capsule, cylinder: radius
// at 12; box: half extents at 19-21; capsule and cylinder: half length at 19; ellipsoid, funnel, rectangle:
// see their functions)
COLLIDER_OUT_OF_LINE
static float rigid_distance(int type, __global const float* c, float x, float y, float z, float3* n) {
    if (type == COLLIDER_BOX) {
        return box_distance(x, y, z, c[19], c[20], c[21], n);
    }
    if (type == COLLIDER_CAPSULE) {
        return capsule_distance(x, y, z, c[12], c[19], n);
    }
    if (type == COLLIDER_CYLINDER) {
        return cylinder_distance(x, y, z, c[12], c[19], n);
    }
    if (type == COLLIDER_RECTANGLE) {
        return rectangle_distance(x, y, z, c[19], c[20], n);
    }
    if (type == COLLIDER_SDF) {
        return sdf_distance(c, x, y, z, n);
    }
    if (type == COLLIDER_MESH) {
        return mesh_distance(c, x, y, z, n);
    }
#ifdef WEFT_COLLIDER_FP64
    if (type == COLLIDER_ELLIPSOID) {
        return ellipsoid_distance(c, x, y, z, n);
    }
    if (type == COLLIDER_FUNNEL) {
        return funnel_distance(c, x, y, z, n);
    }
#endif
    return sphere_distance(x, y, z, c[12], n);
}

// RigidCollider.bisect for a solid (side +1)
static float rigid_bisect(int type, __global const float* c, float ax, float ay, float az, float ux, float uy,
                          float uz, float lo, float hi, float3* n, float* side) {
    for (int k = 0; k < 30 && hi - lo > 1e-7f; k++) {
        float mid = 0.5f * (lo + hi);
        if (rigid_distance(type, c, ax + mid * ux, ay + mid * uy, az + mid * uz, n) >= 0.0f) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    *side = 1.0f;
    return lo;
}

// RigidCollider.touch: conservative advancement along a + t u; the first t within eps of the surface going
// in, or -1; *side_out is the side the path came from
static float rigid_touch(int type, __global const float* c, bool shell, float ax, float ay, float az, float ux,
                         float uy, float uz, float len, float sdA, float eps, float3* n, float* side_out) {
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
        float sd = rigid_distance(type, c, ax + t * ux, ay + t * uy, az + t * uz, n);
        if (!shell && sd < -eps) {
            return rigid_bisect(type, c, ax, ay, az, ux, uy, uz, lastT, t, n, side_out);
        }
        lastT = t;
        d = fabs(sd);
        if (d > eps) {
            side = sd >= 0.0f ? 1.0f : -1.0f;
        }
    }
    float sdEnd = rigid_distance(type, c, ax + ux, ay + uy, az + uz, n);
    if ((sdEnd >= 0.0f ? 1.0f : -1.0f) == side) {
        return -1.0f;
    }
    float lo = t;
    float hi = 1.0f;
    for (int k = 0; k < 40 && hi - lo > 1e-7f; k++) {
        float mid = 0.5f * (lo + hi);
        float sd = rigid_distance(type, c, ax + mid * ux, ay + mid * uy, az + mid * uz, n);
        if ((sd >= 0.0f ? 1.0f : -1.0f) == side) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    float sd = rigid_distance(type, c, ax + lo * ux, ay + lo * uy, az + lo * uz, n);
    *side_out = side;
    return fabs(sd) <= 4.0f * eps ? lo : -1.0f;
}

// RigidCollider.respondLocal: the body-frame normal n turned into the world, and for a moving body the
// surface's motion over the step at the body-frame contact point pc (current pose t, r; start pose t0, r0)
static float3 respond_local(__global const float* t, __global const float* r, __global const float* t0,
                            __global const float* r0, bool moving, float3 p, float3 p0, float nx, float ny,
                            float nz, float depth, float pcx, float pcy, float pcz, float grip, float muS,
                            float muK) {
    float3 w = (float3) (r[0] * nx + r[1] * ny + r[2] * nz, r[3] * nx + r[4] * ny + r[5] * nz,
                         r[6] * nx + r[7] * ny + r[8] * nz);
    float3 s = (float3) (0.0f, 0.0f, 0.0f);
    if (moving) {
        s.x = r[0] * pcx + r[1] * pcy + r[2] * pcz + t[0] - (r0[0] * pcx + r0[1] * pcy + r0[2] * pcz + t0[0]);
        s.y = r[3] * pcx + r[4] * pcy + r[5] * pcz + t[1] - (r0[3] * pcx + r0[4] * pcy + r0[5] * pcz + t0[1]);
        s.z = r[6] * pcx + r[7] * pcy + r[8] * pcz + t[2] - (r0[6] * pcx + r0[7] * pcy + r0[8] * pcz + t0[2]);
    }
    return respond(p, p0, w, depth, s, grip, muS, muK);
}

// RigidCollider.setLocal: the body-frame point l in the current pose
static float3 set_local(__global const float* t, __global const float* r, float lx, float ly, float lz) {
    return (float3) (r[0] * lx + r[1] * ly + r[2] * lz + t[0], r[3] * lx + r[4] * ly + r[5] * lz + t[1],
                     r[6] * lx + r[7] * ly + r[8] * lz + t[2]);
}

// RigidCollider.pushOut: straight out to th on side, no friction; false (p unchanged) on the other side
static bool push_out(int type, __global const float* c, float3* p, float side, float th) {
    __global const float* t = c;
    __global const float* r = c + 3;
    float dx = (*p).x - t[0];
    float dy = (*p).y - t[1];
    float dz = (*p).z - t[2];
    float3 n;
    float sd = rigid_distance(type, c, r[0] * dx + r[3] * dy + r[6] * dz, r[1] * dx + r[4] * dy + r[7] * dz,
                              r[2] * dx + r[5] * dy + r[8] * dz, &n);
    if (side * sd < 0.0f) {
        return false;
    }
    float depth = th - side * sd;
    if (depth > 0.0f) {
        float s = side * depth;
        (*p).x += s * (r[0] * n.x + r[1] * n.y + r[2] * n.z);
        (*p).y += s * (r[3] * n.x + r[4] * n.y + r[5] * n.z);
        (*p).z += s * (r[6] * n.x + r[7] * n.y + r[8] * n.z);
    }
    return true;
}

// RigidCollider.collide for one particle: record = t(3) R(9) radius thickness muS muK eps reach2 wide2, the
// dimensions at 19-25, the start pose t0(3) R0(9) at COLLIDER_START_POSE and the moving flag at COLLIDER_MOVING.
// The funnel, the rectangle and a triangle mesh are shells (two-sided); the funnel, a distance field and a mesh
// are not convex.
static float3 collide_rigid(int type, __global const float* c, float3 p, float3 p0, float offset, float grip) {
    __global const float* t = c;
    __global const float* r = c + 3;
    float thickness = c[13];
    float muS = c[14];
    float muK = c[15];
    float eps = c[16];
    float reach2 = c[17];
    float wide2 = c[18];
    bool moving = c[COLLIDER_MOVING] != 0.0f;
    __global const float* t0 = c + COLLIDER_START_POSE;
    __global const float* r0 = c + COLLIDER_START_POSE + 3;
    bool shell = type == COLLIDER_FUNNEL || type == COLLIDER_RECTANGLE || type == COLLIDER_MESH;
    bool convex = type != COLLIDER_FUNNEL && type != COLLIDER_SDF && type != COLLIDER_MESH;
    if (!moving) {
        // broad phase in the world frame (a still body)
        float qx = p0.x - t[0];
        float qy = p0.y - t[1];
        float qz = p0.z - t[2];
        float vx = (p.x - t[0]) - qx;
        float vy = (p.y - t[1]) - qy;
        float vz = (p.z - t[2]) - qz;
        float v2 = vx * vx + vy * vy + vz * vz;
        float k = v2 > 0.0f ? fmax(0.0f, fmin(1.0f, -(qx * vx + qy * vy + qz * vz) / v2)) : 0.0f;
        float kx = qx + k * vx;
        float ky = qy + k * vy;
        float kz = qz + k * vz;
        float slack = 1e-12f * (qx * qx + qy * qy + qz * qz + v2);
        if (kx * kx + ky * ky + kz * kz >= wide2 + slack) {
            return p;
        }
    }
    float th = thickness + offset;
    // end point in the current body frame, start point in the body frame at the step's start
    float dx = p.x - t[0];
    float dy = p.y - t[1];
    float dz = p.z - t[2];
    float bx = r[0] * dx + r[3] * dy + r[6] * dz;
    float by = r[1] * dx + r[4] * dy + r[7] * dz;
    float bz = r[2] * dx + r[5] * dy + r[8] * dz;
    __global const float* ts = moving ? t0 : t;
    __global const float* rs = moving ? r0 : r;
    dx = p0.x - ts[0];
    dy = p0.y - ts[1];
    dz = p0.z - ts[2];
    float ax = rs[0] * dx + rs[3] * dy + rs[6] * dz;
    float ay = rs[1] * dx + rs[4] * dy + rs[7] * dz;
    float az = rs[2] * dx + rs[5] * dy + rs[8] * dz;
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
    float touchSide = 1.0f;
    float sdA = rigid_distance(type, c, ax, ay, az, &n);
    float len = sqrt(len2);
    bool sweep = shell || sdA >= 0.0f;
    float hit = sweep ? rigid_touch(type, c, shell, ax, ay, az, ux, uy, uz, len, sdA, eps, &n, &touchSide) : -1.0f;
    float side;
    if (hit >= 0.0f) {
        // touched at h = a + t u: respond against the tangent plane at its closest point
        float hx = ax + hit * ux;
        float hy = ay + hit * uy;
        float hz = az + hit * uz;
        side = shell ? touchSide : 1.0f;
        float sdH = rigid_distance(type, c, hx, hy, hz, &n);
        float nx = side * n.x;
        float ny = side * n.y;
        float nz = side * n.z;
        float px = hx - sdH * n.x;
        float py = hy - sdH * n.y;
        float pz = hz - sdH * n.z;
        float depth = th - ((bx - px) * nx + (by - py) * ny + (bz - pz) * nz);
        if (depth > 0.0f) {
            p = respond_local(t, r, t0, r0, moving, p, p0, nx, ny, nz, depth, px, py, pz, grip, muS, muK);
            // a curved (non-convex) surface can still be nearer than the tangent plane, or lie across it
            if (!convex && !push_out(type, c, &p, side, th)) {
                p = set_local(t, r, px + th * nx, py + th * ny, pz + th * nz);
            }
            return p;
        }
        if (convex) {
            return p;
        }
    }
    float sdB = rigid_distance(type, c, bx, by, bz, &n);
    side = !shell || sdB >= 0.0f ? 1.0f : -1.0f;
    float depth = th - side * sdB;
    if (depth > 0.0f) {
        float px = bx - sdB * n.x;
        float py = by - sdB * n.y;
        float pz = bz - sdB * n.z;
        float nx = side * n.x;
        float ny = side * n.y;
        float nz = side * n.z;
        p = respond_local(t, r, t0, r0, moving, p, p0, nx, ny, nz, depth, px, py, pz, grip, muS, muK);
        if (!convex && !push_out(type, c, &p, side, th)) {
            p = set_local(t, r, px + th * nx, py + th * ny, pz + th * nz);
        }
    }
    return p;
}

// PlaneCollider.collide: record = n(3) offset thickness muS muK
static float3 collide_plane(__global const float* c, float3 p, float3 p0, float offset, float grip) {
    float3 n = (float3) (c[0], c[1], c[2]);
    float depth = c[4] + offset - (n.x * p.x + n.y * p.y + n.z * p.z - c[3]);
    if (depth > 0.0f) {
        return respond(p, p0, n, depth, (float3) (0.0f, 0.0f, 0.0f), grip, c[5], c[6]);
    }
    return p;
}

// DragHandle.collide for particle i of inverse mass w: pulled w / (w + alpha/h^2) of the way (all the way at
// compliance 0) to its target point while the hand holds it
static float3 collide_hand(__global const float* c, float3 p, int i, float w) {
    if (c[0] == 0.0f || w == 0.0f) {
        return p;
    }
    float alphaTilde = c[1];
    for (int k = 0; k < 3; k++) {
        if (as_int(c[2 + k]) == i) {
            float f = alphaTilde == 0.0f ? 1.0f : w / (w + alphaTilde);
            __global const float* t = c + 5 + 3 * k;
            p.x += f * (t[0] - p.x);
            p.y += f * (t[1] - p.y);
            p.z += f * (t[2] - p.z);
        }
    }
    return p;
}

// Grip.collide for particle i of inverse mass w: put on its target, the last of the grip's entries for it winning
// as on the CPU (pinned particles are the host's, Grip.driveParticles)
static float3 collide_grip(__global const float* c, float3 p, int i, float w) {
    if (w == 0.0f) {
        return p;
    }
    int count = as_int(c[0]);
    __global const float* held = c + as_int(c[1]);
    for (int k = 0; k < count; k++) {
        if (as_int(held[4 * k]) == i) {
            p = (float3) (held[4 * k + 1], held[4 * k + 2], held[4 * k + 3]);
        }
    }
    return p;
}

// Projectile.entry: the first t in [0, 1] with |a + t u|^2 = r2 for a outside, or -1
static float ball_entry(float ax, float ay, float az, float ux, float uy, float uz, float r2) {
    float uu = ux * ux + uy * uy + uz * uz;
    if (uu < 1e-30f) {
        return -1.0f;
    }
    float au = ax * ux + ay * uy + az * uz;
    if (au >= 0.0f) {
        return -1.0f;
    }
    float aa = ax * ax + ay * ay + az * az;
    float disc = au * au - uu * (aa - r2);
    if (disc < 0.0f) {
        return -1.0f;
    }
    float t = (-au - sqrt(disc)) / uu;
    return t >= 0.0f && t <= 1.0f ? t : -1.0f;
}

// Projectile.collide for particle i of inverse mass w (0: pinned, the ball takes the whole push) at p whose step
// started at p0: the particle's share of the push and of its friction, and the ball's reaction into the
// particle's own slots (the host sums them in particle order, Projectile.advance)
static float3 collide_ball(__global const float* c, float3 p, float3 p0, float offset, float grip, int i, float w) {
    // the reaction slots are the device's collider buffer's, written only by particle i's work item
    __global float* react = (__global float*) (c + as_int(c[11])) + 3 * i;
    float radius = c[6];
    float thickness = c[7];
    float muS = c[8];
    float muK = c[9];
    float ballInvMass = c[10];
    float sx = c[0] - c[3];
    float sy = c[1] - c[4];
    float sz = c[2] - c[5];
    float reach = radius + (thickness + offset);
    float reach2 = reach * reach;
    float ax = p0.x - c[3];
    float ay = p0.y - c[4];
    float az = p0.z - c[5];
    float bx = p.x - c[0];
    float by = p.y - c[1];
    float bz = p.z - c[2];
    float nx;
    float ny;
    float nz;
    float depth;
    float a2 = ax * ax + ay * ay + az * az;
    float b2 = bx * bx + by * by + bz * bz;
    float t = a2 >= reach2 ? ball_entry(ax, ay, az, bx - ax, by - ay, bz - az, reach2) : -1.0f;
    if (t >= 0.0f) {
        float hx = ax + t * (bx - ax);
        float hy = ay + t * (by - ay);
        float hz = az + t * (bz - az);
        float inv = 1.0f / sqrt(hx * hx + hy * hy + hz * hz);
        nx = hx * inv;
        ny = hy * inv;
        nz = hz * inv;
        depth = reach - (bx * nx + by * ny + bz * nz);
    } else if (b2 < reach2) {
        float d = sqrt(b2);
        if (d < 1e-12f) {
            nx = 0.0f;
            ny = 1.0f;
            nz = 0.0f;
        } else {
            nx = bx / d;
            ny = by / d;
            nz = bz / d;
        }
        depth = reach - d;
    } else {
        return p;
    }
    if (!(depth > 0.0f)) {
        return p;
    }
    if (w == 0.0f) {
        // set, not added: the same push at every collider pass of the step (Projectile.collide)
        react[0] = 0.0f - depth * nx;
        react[1] = 0.0f - depth * ny;
        react[2] = 0.0f - depth * nz;
        return p;
    }
    float share = w / (w + ballInvMass);
    float push = share * depth;
    float dx = push * nx;
    float dy = push * ny;
    float dz = push * nz;
    if (muS > 0.0f && grip > 0.0f) {
        float rx = p.x + dx - p0.x - sx;
        float ry = p.y + dy - p0.y - sy;
        float rz = p.z + dz - p0.z - sz;
        float rn = rx * nx + ry * ny + rz * nz;
        float tx = rx - rn * nx;
        float ty = ry - rn * ny;
        float tz = rz - rn * nz;
        float t2 = tx * tx + ty * ty + tz * tz;
        if (t2 > 0.0f) {
            float f = removed_share(sqrt(t2), push, grip * muS, grip * muK);
            dx -= share * f * tx;
            dy -= share * f * ty;
            dz -= share * f * tz;
        }
    }
    p.x += dx;
    p.y += dy;
    p.z += dz;
    float ratio = ballInvMass / w;
    react[0] -= ratio * dx;
    react[1] -= ratio * dy;
    react[2] -= ratio * dz;
    return p;
}

// What the CPU's collider pass does with pinned particle i at p (its step's start p0): only a projectile acts
// on it (it takes the whole push); every other collider skips a pinned particle
COLLIDER_OUT_OF_LINE
static void collide_pinned(int count, __global const int* types, __global const float* colliders, float3 p,
                           float3 p0, float offset, int i) {
    for (int c = 0; c < count; c++) {
        if (types[c] == COLLIDER_BALL) {
            collide_ball(colliders + COLLIDER_STRIDE * c, p, p0, offset, 0.0f, i, 0.0f);
        }
    }
}

// The environment's colliders in order on particle i (inverse mass w) at p whose step started at p0
// (PositionStep's collider pass after the settle; pinned particles never come here)
COLLIDER_OUT_OF_LINE
static float3 collide_all(int count, __global const int* types, __global const float* colliders, float3 p,
                          float3 p0, float offset, float grip, int i, float w) {
    for (int c = 0; c < count; c++) {
        __global const float* record = colliders + COLLIDER_STRIDE * c;
        if (types[c] == COLLIDER_PLANE) {
            p = collide_plane(record, p, p0, offset, grip);
        } else if (types[c] == COLLIDER_HAND) {
            p = collide_hand(record, p, i, w);
        } else if (types[c] == COLLIDER_GRIP) {
            p = collide_grip(record, p, i, w);
        } else if (types[c] == COLLIDER_BALL) {
            p = collide_ball(record, p, p0, offset, grip, i, w);
        } else if (types[c] == COLLIDER_ANIMATED) {
            p = collide_animated(record, p, p0, offset, grip);
        } else {
            p = collide_rigid(types[c], record, p, p0, offset, grip);
        }
    }
    return p;
}
