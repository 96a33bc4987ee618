// Projective Dynamics' elastic tetrahedra (PdElasticTets, Bouaziz et al. 2014's strain and volume constraints):
// pd_tets_project, one work-item per tetrahedron, is the local step (F from the iterate, its target P by
// ElasticTarget in double, the four corners' right-hand sides W ((P - F) + F_d) g_j into the tetrahedron's own
// 12 floats), and pd_tets_gather, one work-item per particle, sums a particle's corners in the CPU's incidence
// order (no scatter, no atomics). The sweeps (pd.cl's pd_relax) read the sums and the constant rows.
//
// Built as a program of its own, only for a model with elastic tetrahedra, on a device with double precision:
// the CPU computes the nearest rotation (Newton's polar iteration, or the rotation-variant SVD) in double, and so
// does this, in the same double operations and order (OpenCL's double +, -, *, / and sqrt are correctly rounded,
// as Java's; FP_CONTRACT OFF, cpu_rounding.cl, keeps them unfused), so PoCL gives the CPU's bits.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// RotationSvd.tangent: tan of the Jacobi angle that zeroes apq between app and aqq (the smaller root)
inline double svd_tangent(double app, double aqq, double apq) {
    double theta = (aqq - app) / (2.0 * apq);
    if (theta == 0.0) {
        return 1.0;
    }
    // Math.signum: theta is not 0 here, and NaN stays NaN (OpenCL's sign(NaN) is 0)
    double signum = theta > 0.0 ? 1.0 : (theta < 0.0 ? -1.0 : theta);
    return signum / (fabs(theta) + sqrt(theta * theta + 1.0));
}

// RotationSvd.decompose of f (row by row) into u (9, row by row), sigma (3) and v (9, row by row): Jacobi's
// eigenvalue method on F^T F (at most 12 cyclic sweeps), V's columns sorted, det V = +1, U's columns from F V
inline void rotation_svd(const double* f, double* u, double* sigma, double* v) {
    double f00 = f[0];
    double f01 = f[1];
    double f02 = f[2];
    double f10 = f[3];
    double f11 = f[4];
    double f12 = f[5];
    double f20 = f[6];
    double f21 = f[7];
    double f22 = f[8];
    double a00 = f00 * f00 + f10 * f10 + f20 * f20;
    double a01 = f00 * f01 + f10 * f11 + f20 * f21;
    double a02 = f00 * f02 + f10 * f12 + f20 * f22;
    double a11 = f01 * f01 + f11 * f11 + f21 * f21;
    double a12 = f01 * f02 + f11 * f12 + f21 * f22;
    double a22 = f02 * f02 + f12 * f12 + f22 * f22;
    double v00 = 1.0;
    double v01 = 0.0;
    double v02 = 0.0;
    double v10 = 0.0;
    double v11 = 1.0;
    double v12 = 0.0;
    double v20 = 0.0;
    double v21 = 0.0;
    double v22 = 1.0;
    for (int sweep = 0; sweep < 12; sweep++) {
        double off = a01 * a01 + a02 * a02 + a12 * a12;
        if (!(off > 1e-16 * (a00 * a00 + a11 * a11 + a22 * a22))) {
            break;
        }
        if (a01 != 0.0) {
            double t = svd_tangent(a00, a11, a01);
            double c = 1.0 / sqrt(t * t + 1.0);
            double s = t * c;
            a00 -= t * a01;
            a11 += t * a01;
            a01 = 0.0;
            double x = a02;
            a02 = c * x - s * a12;
            a12 = s * x + c * a12;
            x = v00;
            v00 = c * x - s * v01;
            v01 = s * x + c * v01;
            x = v10;
            v10 = c * x - s * v11;
            v11 = s * x + c * v11;
            x = v20;
            v20 = c * x - s * v21;
            v21 = s * x + c * v21;
        }
        if (a02 != 0.0) {
            double t = svd_tangent(a00, a22, a02);
            double c = 1.0 / sqrt(t * t + 1.0);
            double s = t * c;
            a00 -= t * a02;
            a22 += t * a02;
            a02 = 0.0;
            double x = a01;
            a01 = c * x - s * a12;
            a12 = s * x + c * a12;
            x = v00;
            v00 = c * x - s * v02;
            v02 = s * x + c * v02;
            x = v10;
            v10 = c * x - s * v12;
            v12 = s * x + c * v12;
            x = v20;
            v20 = c * x - s * v22;
            v22 = s * x + c * v22;
        }
        if (a12 != 0.0) {
            double t = svd_tangent(a11, a22, a12);
            double c = 1.0 / sqrt(t * t + 1.0);
            double s = t * c;
            a11 -= t * a12;
            a22 += t * a12;
            a12 = 0.0;
            double x = a01;
            a01 = c * x - s * a02;
            a02 = s * x + c * a02;
            x = v01;
            v01 = c * x - s * v02;
            v02 = s * x + c * v02;
            x = v11;
            v11 = c * x - s * v12;
            v12 = s * x + c * v12;
            x = v21;
            v21 = c * x - s * v22;
            v22 = s * x + c * v22;
        }
    }
    if (a00 < a11) {
        double x = a00;
        a00 = a11;
        a11 = x;
        x = v00;
        v00 = v01;
        v01 = x;
        x = v10;
        v10 = v11;
        v11 = x;
        x = v20;
        v20 = v21;
        v21 = x;
    }
    if (a11 < a22) {
        double x = a11;
        a11 = a22;
        a22 = x;
        x = v01;
        v01 = v02;
        v02 = x;
        x = v11;
        v11 = v12;
        v12 = x;
        x = v21;
        v21 = v22;
        v22 = x;
    }
    if (a00 < a11) {
        double x = v00;
        v00 = v01;
        v01 = x;
        x = v10;
        v10 = v11;
        v11 = x;
        x = v20;
        v20 = v21;
        v21 = x;
    }
    double detV = v00 * (v11 * v22 - v12 * v21) - v01 * (v10 * v22 - v12 * v20) + v02 * (v10 * v21 - v11 * v20);
    if (detV < 0.0) {
        v02 = -v02;
        v12 = -v12;
        v22 = -v22;
    }
    double b00 = f00 * v00 + f01 * v10 + f02 * v20;
    double b10 = f10 * v00 + f11 * v10 + f12 * v20;
    double b20 = f20 * v00 + f21 * v10 + f22 * v20;
    double b01 = f00 * v01 + f01 * v11 + f02 * v21;
    double b11 = f10 * v01 + f11 * v11 + f12 * v21;
    double b21 = f20 * v01 + f21 * v11 + f22 * v21;
    double b02 = f00 * v02 + f01 * v12 + f02 * v22;
    double b12 = f10 * v02 + f11 * v12 + f12 * v22;
    double b22 = f20 * v02 + f21 * v12 + f22 * v22;
    double n1 = sqrt(b00 * b00 + b10 * b10 + b20 * b20);
    double u00;
    double u10;
    double u20;
    if (n1 > 1e-30) {
        u00 = b00 / n1;
        u10 = b10 / n1;
        u20 = b20 / n1;
    } else {
        u00 = 1.0;
        u10 = 0.0;
        u20 = 0.0;
    }
    double along = u00 * b01 + u10 * b11 + u20 * b21;
    double u01 = b01 - along * u00;
    double u11 = b11 - along * u10;
    double u21 = b21 - along * u20;
    double n2 = sqrt(u01 * u01 + u11 * u11 + u21 * u21);
    // Math.max(n1, 1e-30): NaN stays NaN
    double floor1 = (isnan(n1) || n1 > 1e-30) ? n1 : 1e-30;
    if (n2 > 1e-12 * floor1) {
        u01 /= n2;
        u11 /= n2;
        u21 /= n2;
    } else {
        double ax = fabs(u00) < 0.6 ? 1.0 : 0.0;
        double ay = 1.0 - ax;
        double a = u00 * ax + u10 * ay;
        u01 = ax - a * u00;
        u11 = ay - a * u10;
        u21 = -a * u20;
        double n = sqrt(u01 * u01 + u11 * u11 + u21 * u21);
        u01 /= n;
        u11 /= n;
        u21 /= n;
    }
    double u02 = u10 * u21 - u20 * u11;
    double u12 = u20 * u01 - u00 * u21;
    double u22 = u00 * u11 - u10 * u01;
    u[0] = u00;
    u[1] = u01;
    u[2] = u02;
    u[3] = u10;
    u[4] = u11;
    u[5] = u12;
    u[6] = u20;
    u[7] = u21;
    u[8] = u22;
    sigma[0] = u00 * b00 + u10 * b10 + u20 * b20;
    sigma[1] = u01 * b01 + u11 * b11 + u21 * b21;
    sigma[2] = u02 * b02 + u12 * b12 + u22 * b22;
    v[0] = v00;
    v[1] = v01;
    v[2] = v02;
    v[3] = v10;
    v[4] = v11;
    v[5] = v12;
    v[6] = v20;
    v[7] = v21;
    v[8] = v22;
}

// ElasticTarget.targetSingularValues: sigma replaced by Sigma_target - sigma (strain target 1, volume target the
// nearest singular values of product 1 by Gauss-Newton steps), mixed by the strain's share
inline void target_singular_values(double* sigma, float strainShare) {
    double s0 = sigma[0];
    double s1 = sigma[1];
    double s2 = sigma[2];
    double v0 = s0;
    double v1 = s1;
    double v2 = s2;
    for (int it = 0; it < 20; it++) {
        double c = v0 * v1 * v2 - 1.0;
        if (fabs(c) < 1e-12) {
            break;
        }
        double g0 = v1 * v2;
        double g1 = v0 * v2;
        double g2 = v0 * v1;
        double gg = g0 * g0 + g1 * g1 + g2 * g2;
        if (!(gg > 1e-30)) {
            break;
        }
        double step = c / gg;
        v0 -= step * g0;
        v1 -= step * g1;
        v2 -= step * g2;
    }
    double ws = strainShare;
    double wv = 1.0 - ws;
    sigma[0] = ws * (1.0 - s0) + wv * (v0 - s0);
    sigma[1] = ws * (1.0 - s1) + wv * (v1 - s1);
    sigma[2] = ws * (1.0 - s2) + wv * (v2 - s2);
}

// ElasticTarget.bySvd: P - F = U (Sigma_target - Sigma) V^T
inline void target_by_svd(const double* f, float strainShare, double* out) {
    double u[9];
    double s[3];
    double v[9];
    rotation_svd(f, u, s, v);
    target_singular_values(s, strainShare);
    double d0 = s[0];
    double d1 = s[1];
    double d2 = s[2];
    for (int r = 0; r < 3; r++) {
        double u0 = u[3 * r] * d0;
        double u1 = u[3 * r + 1] * d1;
        double u2 = u[3 * r + 2] * d2;
        out[3 * r] = u0 * v[0] + u1 * v[1] + u2 * v[2];
        out[3 * r + 1] = u0 * v[3] + u1 * v[4] + u2 * v[5];
        out[3 * r + 2] = u0 * v[6] + u1 * v[7] + u2 * v[8];
    }
}

inline double pd_sq(double x) {
    return x * x;
}

// ElasticTarget.targetMinusF: P - F for F = f (row by row). det F > 0.05 (ElasticTarget.NEWTON_MIN_DET): R by
// Newton's polar iteration X <- (X + X^-T) / 2 (at most 30 steps), P_v by Gauss-Newton steps onto det = 1 (at
// most 10); else the rotation-variant SVD
inline void elastic_target_minus_f(const double* f, float strainShare, double* out) {
    double f00 = f[0];
    double f01 = f[1];
    double f02 = f[2];
    double f10 = f[3];
    double f11 = f[4];
    double f12 = f[5];
    double f20 = f[6];
    double f21 = f[7];
    double f22 = f[8];
    double det = f00 * (f11 * f22 - f12 * f21) - f01 * (f10 * f22 - f12 * f20) + f02 * (f10 * f21 - f11 * f20);
    if (!(det > 0.05)) {
        target_by_svd(f, strainShare, out);
        return;
    }
    double x00 = f00;
    double x01 = f01;
    double x02 = f02;
    double x10 = f10;
    double x11 = f11;
    double x12 = f12;
    double x20 = f20;
    double x21 = f21;
    double x22 = f22;
    for (int it = 0; it < 30; it++) {
        double c00 = x11 * x22 - x12 * x21;
        double c01 = x12 * x20 - x10 * x22;
        double c02 = x10 * x21 - x11 * x20;
        double c10 = x02 * x21 - x01 * x22;
        double c11 = x00 * x22 - x02 * x20;
        double c12 = x01 * x20 - x00 * x21;
        double c20 = x01 * x12 - x02 * x11;
        double c21 = x02 * x10 - x00 * x12;
        double c22 = x00 * x11 - x01 * x10;
        double inv = 1.0 / (x00 * c00 + x01 * c01 + x02 * c02);
        double y00 = 0.5 * (x00 + c00 * inv);
        double y01 = 0.5 * (x01 + c01 * inv);
        double y02 = 0.5 * (x02 + c02 * inv);
        double y10 = 0.5 * (x10 + c10 * inv);
        double y11 = 0.5 * (x11 + c11 * inv);
        double y12 = 0.5 * (x12 + c12 * inv);
        double y20 = 0.5 * (x20 + c20 * inv);
        double y21 = 0.5 * (x21 + c21 * inv);
        double y22 = 0.5 * (x22 + c22 * inv);
        double change = pd_sq(y00 - x00) + pd_sq(y01 - x01) + pd_sq(y02 - x02) + pd_sq(y10 - x10) + pd_sq(y11 - x11)
                + pd_sq(y12 - x12) + pd_sq(y20 - x20) + pd_sq(y21 - x21) + pd_sq(y22 - x22);
        x00 = y00;
        x01 = y01;
        x02 = y02;
        x10 = y10;
        x11 = y11;
        x12 = y12;
        x20 = y20;
        x21 = y21;
        x22 = y22;
        if (!(change > 1e-18)) {
            break;
        }
    }
    double p00 = f00;
    double p01 = f01;
    double p02 = f02;
    double p10 = f10;
    double p11 = f11;
    double p12 = f12;
    double p20 = f20;
    double p21 = f21;
    double p22 = f22;
    for (int it = 0; it < 10; it++) {
        double c00 = p11 * p22 - p12 * p21;
        double c01 = p12 * p20 - p10 * p22;
        double c02 = p10 * p21 - p11 * p20;
        double c10 = p02 * p21 - p01 * p22;
        double c11 = p00 * p22 - p02 * p20;
        double c12 = p01 * p20 - p00 * p21;
        double c20 = p01 * p12 - p02 * p11;
        double c21 = p02 * p10 - p00 * p12;
        double c22 = p00 * p11 - p01 * p10;
        double c = p00 * c00 + p01 * c01 + p02 * c02 - 1.0;
        if (!(fabs(c) > 1e-12)) {
            break;
        }
        double step = c / (c00 * c00 + c01 * c01 + c02 * c02 + c10 * c10 + c11 * c11 + c12 * c12 + c20 * c20
                + c21 * c21 + c22 * c22);
        p00 -= step * c00;
        p01 -= step * c01;
        p02 -= step * c02;
        p10 -= step * c10;
        p11 -= step * c11;
        p12 -= step * c12;
        p20 -= step * c20;
        p21 -= step * c21;
        p22 -= step * c22;
    }
    double a = strainShare;
    double b = 1.0 - a;
    out[0] = a * (x00 - f00) + b * (p00 - f00);
    out[1] = a * (x01 - f01) + b * (p01 - f01);
    out[2] = a * (x02 - f02) + b * (p02 - f02);
    out[3] = a * (x10 - f10) + b * (p10 - f10);
    out[4] = a * (x11 - f11) + b * (p11 - f11);
    out[5] = a * (x12 - f12) + b * (p12 - f12);
    out[6] = a * (x20 - f20) + b * (p20 - f20);
    out[7] = a * (x21 - f21) + b * (p21 - f21);
    out[8] = a * (x22 - f22) + b * (p22 - f22);
}

// PdElasticTets.project for tetrahedron t: H = (D_s - D_m) D_m^-1 and F_d = sum_k (d_k - d_0) g_k^T in float,
// F = I + H in double, M = (P - F) + F_d, and corner j's right-hand side W M g_j (j = 1..3), corner 0's the
// negated sum of the three; 12 floats at 12 t, the tetrahedron's own
__kernel void pd_tets_project(const int count, __global const int* tets, __global const float* gradient,
                              __global const float* restEdge, __global const float* weight,
                              __global const float* strainShare, __global const float* y,
                              __global const float* d, __global float* corner) {
    int t = get_global_id(0);
    if (t >= count) {
        return;
    }
    __global const float* g = gradient;
    int a = 3 * tets[4 * t];
    int g12 = 12 * t;
    float h00 = 0.0f, h01 = 0.0f, h02 = 0.0f, h10 = 0.0f, h11 = 0.0f, h12 = 0.0f, h20 = 0.0f, h21 = 0.0f, h22 = 0.0f;
    float f00 = 0.0f, f01 = 0.0f, f02 = 0.0f, f10 = 0.0f, f11 = 0.0f, f12 = 0.0f, f20 = 0.0f, f21 = 0.0f, f22 = 0.0f;
    for (int k = 1; k <= 3; k++) {
        int b = 3 * tets[4 * t + k];
        int re = 9 * t + 3 * (k - 1);
        float ddx = d[b] - d[a];
        float ddy = d[b + 1] - d[a + 1];
        float ddz = d[b + 2] - d[a + 2];
        float ex = ((y[b] - y[a]) + ddx) - restEdge[re];
        float ey = ((y[b + 1] - y[a + 1]) + ddy) - restEdge[re + 1];
        float ez = ((y[b + 2] - y[a + 2]) + ddz) - restEdge[re + 2];
        int gk = g12 + 3 * k;
        float gx = g[gk];
        float gy = g[gk + 1];
        float gz = g[gk + 2];
        h00 += ex * gx;
        h01 += ex * gy;
        h02 += ex * gz;
        h10 += ey * gx;
        h11 += ey * gy;
        h12 += ey * gz;
        h20 += ez * gx;
        h21 += ez * gy;
        h22 += ez * gz;
        f00 += ddx * gx;
        f01 += ddx * gy;
        f02 += ddx * gz;
        f10 += ddy * gx;
        f11 += ddy * gy;
        f12 += ddy * gz;
        f20 += ddz * gx;
        f21 += ddz * gy;
        f22 += ddz * gz;
    }
    double f[9];
    f[0] = 1.0 + h00;
    f[1] = h01;
    f[2] = h02;
    f[3] = h10;
    f[4] = 1.0 + h11;
    f[5] = h12;
    f[6] = h20;
    f[7] = h21;
    f[8] = 1.0 + h22;
    double pf[9];
    elastic_target_minus_f(f, strainShare[t], pf);
    float w = weight[t];
    for (int r = 0; r < 3; r++) {
        float m0 = (float) pf[3 * r];
        float m1 = (float) pf[3 * r + 1];
        float m2 = (float) pf[3 * r + 2];
        if (r == 0) {
            m0 += f00;
            m1 += f01;
            m2 += f02;
        } else if (r == 1) {
            m0 += f10;
            m1 += f11;
            m2 += f12;
        } else {
            m0 += f20;
            m1 += f21;
            m2 += f22;
        }
        float sum = 0.0f;
        for (int j = 1; j <= 3; j++) {
            int gj = g12 + 3 * j;
            float cj = w * (m0 * g[gj] + m1 * g[gj + 1] + m2 * g[gj + 2]);
            corner[g12 + 3 * j + r] = cj;
            sum += cj;
        }
        corner[g12 + r] = -sum;
    }
}

// PdElasticTets.gather for particle p: the sum of its corners' right-hand sides in the incidence's order
__kernel void pd_tets_gather(const int n, __global const int* cornerStart, __global const int* cornerSlots,
                             __global const float* corner, __global float* rhs) {
    int p = get_global_id(0);
    if (p >= n) {
        return;
    }
    float x = 0.0f;
    float y = 0.0f;
    float z = 0.0f;
    for (int k = cornerStart[p]; k < cornerStart[p + 1]; k++) {
        int c = 3 * cornerSlots[k];
        x += corner[c];
        y += corner[c + 1];
        z += corner[c + 2];
    }
    rhs[3 * p] = x;
    rhs[3 * p + 1] = y;
    rhs[3 * p + 2] = z;
}
