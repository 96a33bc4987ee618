// XPBD's colored mode, one color of the bending stencils (one invocation per stencil; a color's stencils
// share no particle, so each writes only its multiplier and its four particles' corrections), after the
// iteration's distance passes as XpbdSolver.sweep. Two programs from this source (GlslXpbdSolver):
//   (plain)    XpbdSolver.projectStencil: dihedral (DihedralAngle, FastAtan), or isometric
//              (isometricMultiplierStep) where the model has both kinds and the stencil is one;
//   ISOMETRIC  XpbdSolver.projectIsometricRange: a model whose stencils are all isometric, the CPU's
//              inlined pass with its own sum orders.
// The float operations of the CPU in its order, every result 'precise' (a port of weft-opencl's
// xpbd.cl: bending_multiplier_step, isometric_multiplier_step, xpbd_bending, xpbd_isometric).
// Stencils: e0, e1, o0, o1 per stencil, then (for the plain program) one model per stencil at 4 * total.
layout(std430, binding = 19) readonly buffer Stencils { int stencils[]; };
layout(std430, binding = 20) readonly buffer IsometricWeights { float kw[]; };
layout(std430, binding = 21) readonly buffer RestAngles { float restAngle[]; };
layout(std430, binding = 22) readonly buffer BendCompliances { float bendAlpha[]; };
layout(std430, binding = 23) buffer BendMultipliers { float bendLambda[]; };
uniform int first;
uniform int count;
#ifndef ISOMETRIC
uniform int total;        // stencils in the model: where the models start in Stencils
uniform int anyIsometric; // 1 where some stencil is isometric (BendingConstraints.ISOMETRIC = 1)
#endif

#ifndef ISOMETRIC
// Java's Math.max and Math.min on floats (GLSL's may drop a NaN); their arguments here are absolute values,
// never -0
float javaMax(float a, float b) {
    if (isnan(a) || isnan(b)) {
        return isnan(a) ? a : b;
    }
    return a >= b ? a : b;
}

float javaMin(float a, float b) {
    if (isnan(a) || isnan(b)) {
        return isnan(a) ? a : b;
    }
    return a <= b ? a : b;
}

// FastAtan.atan2: the octants folded onto [0, 1], the same 11th-order odd polynomial and constants;
// Math.copySign as the bits
float fastAtan2(float y, float x) {
    float ax = abs(x);
    float ay = abs(y);
    float m = javaMax(ax, ay);
    if (m == 0.0f) {
        return 0.0f;
    }
    precise float a = DIV(javaMin(ax, ay), m);
    precise float s = a * a;
    precise float r = (((((-0.0117212f * s + 0.05265332f) * s - 0.11643287f) * s + 0.19354346f) * s
            - 0.33262347f) * s + 0.99997726f) * a;
    if (ay > ax) {
        r = uintBitsToFloat(0x3fc90fdbu) - r; // 1.5707964f
    }
    if (x < 0.0f) {
        r = uintBitsToFloat(0x40490fdbu) - r; // 3.1415927f
    }
    return uintBitsToFloat((floatBitsToUint(r) & 0x7fffffffu) | (floatBitsToUint(y) & 0x80000000u));
}

// (y_j - y_i) + (d_j - d_i) of coordinate k
float diff(int j, int i) {
    precise float r = (y[j] - y[i]) + (d[j] - d[i]);
    return r;
}

// DihedralAngle.compute(y, d, e0, e1, o0, o1, grad) (its fromDifferences): the signed dihedral angle of the
// stencil and its gradient (e0, e1, o0, o1, 3 floats each) in the CPU's operations; false where a triangle
// is degenerate (the CPU's NaN; grad then unwritten)
bool dihedralAngle(int e0, int e1, int o0, int o1, out float angle, inout float grad[12]) {
    int a = 3 * e0;
    int b = 3 * e1;
    int c = 3 * o0;
    int q = 3 * o1;
    precise float ex = diff(b, a);
    precise float ey = diff(b + 1, a + 1);
    precise float ez = diff(b + 2, a + 2);
    precise float p0x = diff(c, a);
    precise float p0y = diff(c + 1, a + 1);
    precise float p0z = diff(c + 2, a + 2);
    precise float p1x = diff(c, b);
    precise float p1y = diff(c + 1, b + 1);
    precise float p1z = diff(c + 2, b + 2);
    precise float q0x = diff(q, b);
    precise float q0y = diff(q + 1, b + 1);
    precise float q0z = diff(q + 2, b + 2);
    precise float q1x = diff(q, a);
    precise float q1y = diff(q + 1, a + 1);
    precise float q1z = diff(q + 2, a + 2);
    precise float n1x = p0y * p1z - p0z * p1y;
    precise float n1y = p0z * p1x - p0x * p1z;
    precise float n1z = p0x * p1y - p0y * p1x;
    precise float n2x = q0y * q1z - q0z * q1y;
    precise float n2y = q0z * q1x - q0x * q1z;
    precise float n2z = q0x * q1y - q0y * q1x;
    precise float e2 = ex * ex + ey * ey + ez * ez;
    precise float n1sq = n1x * n1x + n1y * n1y + n1z * n1z;
    precise float n2sq = n2x * n2x + n2y * n2y + n2z * n2z;
    if (e2 < 1e-20f || n1sq < 1e-30f || n2sq < 1e-30f) {
        return false;
    }
    precise float elen = SQRT(e2);
    precise float cosScaled = (n1x * n2x + n1y * n2y + n1z * n2z) * elen;
    precise float cx = n1y * n2z - n1z * n2y;
    precise float cy = n1z * n2x - n1x * n2z;
    precise float cz = n1x * n2y - n1y * n2x;
    precise float sinScaled = cx * ex + cy * ey + cz * ez;
    angle = fastAtan2(sinScaled, cosScaled);
    precise float invElen = DIV(1.0f, elen);
    precise float s1 = DIV(1.0f, n1sq);
    precise float s2 = DIV(1.0f, n2sq);
    precise float g0 = -elen * s1;
    precise float g1 = -elen * s2;
    precise float g6 = g0 * n1x;
    precise float g7 = g0 * n1y;
    precise float g8 = g0 * n1z;
    precise float g9 = g1 * n2x;
    precise float g10 = g1 * n2y;
    precise float g11 = g1 * n2z;
    precise float t0 = (p1x * ex + p1y * ey + p1z * ez) * invElen;
    precise float t1 = (q0x * ex + q0y * ey + q0z * ez) * invElen;
    precise float u0 = (p0x * ex + p0y * ey + p0z * ez) * invElen;
    precise float u1 = (q1x * ex + q1y * ey + q1z * ez) * invElen;
    precise float ae1 = t0 * s1;
    precise float ae2 = t1 * s2;
    precise float g0x = -(ae1 * n1x + ae2 * n2x);
    precise float g0y = -(ae1 * n1y + ae2 * n2y);
    precise float g0z = -(ae1 * n1z + ae2 * n2z);
    precise float be1 = u0 * s1;
    precise float be2 = u1 * s2;
    precise float g3 = be1 * n1x + be2 * n2x;
    precise float g4 = be1 * n1y + be2 * n2y;
    precise float g5 = be1 * n1z + be2 * n2z;
    grad[0] = g0x;
    grad[1] = g0y;
    grad[2] = g0z;
    grad[3] = g3;
    grad[4] = g4;
    grad[5] = g5;
    grad[6] = g6;
    grad[7] = g7;
    grad[8] = g8;
    grad[9] = g9;
    grad[10] = g10;
    grad[11] = g11;
    return true;
}

// XpbdSolver.bendingMultiplierStep for stencil c (weight 1): the angle − rest wrapped into (−π, π], the
// multiplier updated by Δλ; returns that (0 where there is nothing to do) and fills grad
float bendingMultiplierStep(int c, inout float grad[12]) {
    int e0 = stencils[4 * c];
    int e1 = stencils[4 * c + 1];
    int o0 = stencils[4 * c + 2];
    int o1 = stencils[4 * c + 3];
    float angle;
    if (!dihedralAngle(e0, e1, o0, o1, angle, grad)) {
        return 0.0f;
    }
    precise float constraint = angle - restAngle[c];
    // (float) Math.PI and (float) (2 * Math.PI), as the CPU rounds them
    if (constraint > uintBitsToFloat(0x40490fdbu)) {
        constraint = constraint - uintBitsToFloat(0x40c90fdbu);
    } else if (constraint < -uintBitsToFloat(0x40490fdbu)) {
        constraint = constraint + uintBitsToFloat(0x40c90fdbu);
    }
    float alpha = bendAlpha[c];
    precise float denom = alpha;
    denom = denom + invMass[e0] * (grad[0] * grad[0] + grad[1] * grad[1] + grad[2] * grad[2]);
    denom = denom + invMass[e1] * (grad[3] * grad[3] + grad[4] * grad[4] + grad[5] * grad[5]);
    denom = denom + invMass[o0] * (grad[6] * grad[6] + grad[7] * grad[7] + grad[8] * grad[8]);
    denom = denom + invMass[o1] * (grad[9] * grad[9] + grad[10] * grad[10] + grad[11] * grad[11]);
    if (!(denom > 1e-20f)) {
        return 0.0f;
    }
    precise float dl = DIV(-constraint - alpha * bendLambda[c], denom);
    precise float updated = bendLambda[c] + dl;
    bendLambda[c] = updated;
    return dl;
}

// XpbdSolver.isometricMultiplierStep for isometric stencil c (weight 1): H = sum_j K_j x_j from differences
// to x_e0 (IsometricBending.curvature), C = |H| - rest, grad_j = K_j H/|H|, the multiplier updated by Δλ;
// returns that (0 where there is nothing to do) and fills grad
float isometricMultiplierStep(int c, inout float grad[12]) {
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
    precise float hx = k1 * ((y[b] - y[a]) + (d[b] - dax)) + k2 * ((y[o] - y[a]) + (d[o] - dax))
            + k3 * ((y[e] - y[a]) + (d[e] - dax));
    precise float hy = k1 * ((y[b + 1] - y[a + 1]) + (d[b + 1] - day))
            + k2 * ((y[o + 1] - y[a + 1]) + (d[o + 1] - day)) + k3 * ((y[e + 1] - y[a + 1]) + (d[e + 1] - day));
    precise float hz = k1 * ((y[b + 2] - y[a + 2]) + (d[b + 2] - daz))
            + k2 * ((y[o + 2] - y[a + 2]) + (d[o + 2] - daz)) + k3 * ((y[e + 2] - y[a + 2]) + (d[e + 2] - daz));
    precise float len = SQRT(hx * hx + hy * hy + hz * hz);
    if (!(len > 0.0f)) {
        return 0.0f;
    }
    precise float nx = DIV(hx, len);
    precise float ny = DIV(hy, len);
    precise float nz = DIV(hz, len);
    precise float denom = bendAlpha[c];
    for (int k = 0; k < 4; k++) {
        float kk = kw[4 * c + k];
        denom = denom + invMass[stencils[4 * c + k]] * kk * kk;
        precise float gx = kk * nx;
        precise float gy = kk * ny;
        precise float gz = kk * nz;
        grad[3 * k] = gx;
        grad[3 * k + 1] = gy;
        grad[3 * k + 2] = gz;
    }
    if (!(denom > 1e-20f)) {
        return 0.0f;
    }
    precise float dl = DIV(restAngle[c] - len - bendAlpha[c] * bendLambda[c], denom);
    precise float updated = bendLambda[c] + dl;
    bendLambda[c] = updated;
    return dl;
}
#endif

void main() {
    int k = int(gl_GlobalInvocationID.x);
    if (k >= count) {
        return;
    }
    int c = first + k;
#ifdef ISOMETRIC
    // XpbdSolver.projectIsometricRange's body for stencil c
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
    precise float hx = k1 * ((y[b] - y[a]) + (d[b] - dax)) + k2 * ((y[o] - y[a]) + (d[o] - dax))
            + k3 * ((y[q] - y[a]) + (d[q] - dax));
    precise float hy = k1 * ((y[b + 1] - y[a + 1]) + (d[b + 1] - day))
            + k2 * ((y[o + 1] - y[a + 1]) + (d[o + 1] - day)) + k3 * ((y[q + 1] - y[a + 1]) + (d[q + 1] - day));
    precise float hz = k1 * ((y[b + 2] - y[a + 2]) + (d[b + 2] - daz))
            + k2 * ((y[o + 2] - y[a + 2]) + (d[o + 2] - daz)) + k3 * ((y[q + 2] - y[a + 2]) + (d[q + 2] - daz));
    precise float len2 = hx * hx + hy * hy + hz * hz;
    if (!(len2 > 0.0f)) {
        return; // flat: no direction, and nothing to correct
    }
    float w0 = invMass[i0];
    float w1 = invMass[i1];
    float w2 = invMass[i2];
    float w3 = invMass[i3];
    float alpha = bendAlpha[c];
    precise float denom = w0 * k0 * k0 + w1 * k1 * k1 + w2 * k2 * k2 + w3 * k3 * k3 + alpha;
    if (!(denom > 1e-20f)) {
        return;
    }
    precise float len = SQRT(len2);
    float lambda = bendLambda[c];
    precise float dl = DIV(restAngle[c] - len - alpha * lambda, denom);
    precise float updated = lambda + dl;
    bendLambda[c] = updated;
    precise float s = DIV(dl, len);
    precise float s0 = w0 * k0 * s;
    precise float s1 = w1 * k1 * s;
    precise float s2 = w2 * k2 * s;
    precise float s3 = w3 * k3 * s;
    // every coordinate read before any is written: a stencil's four particles are distinct
    precise float nax = dax + s0 * hx;
    precise float nay = day + s0 * hy;
    precise float naz = daz + s0 * hz;
    precise float nbx = d[b] + s1 * hx;
    precise float nby = d[b + 1] + s1 * hy;
    precise float nbz = d[b + 2] + s1 * hz;
    precise float nox = d[o] + s2 * hx;
    precise float noy = d[o + 1] + s2 * hy;
    precise float noz = d[o + 2] + s2 * hz;
    precise float nqx = d[q] + s3 * hx;
    precise float nqy = d[q + 1] + s3 * hy;
    precise float nqz = d[q + 2] + s3 * hz;
    d[a] = nax;
    d[a + 1] = nay;
    d[a + 2] = naz;
    d[b] = nbx;
    d[b + 1] = nby;
    d[b + 2] = nbz;
    d[o] = nox;
    d[o + 1] = noy;
    d[o + 2] = noz;
    d[q] = nqx;
    d[q + 1] = nqy;
    d[q + 2] = nqz;
#else
    // XpbdSolver.projectStencil: stencil c by its own model, the correction written at once
    float grad[12];
    precise float dl = anyIsometric != 0 && stencils[4 * total + c] == 1
            ? isometricMultiplierStep(c, grad) : bendingMultiplierStep(c, grad);
    if (dl == 0.0f) {
        return;
    }
    for (int j = 0; j < 4; j++) {
        int p = stencils[4 * c + j];
        precise float s = invMass[p] * dl;
        int p3 = 3 * p;
        precise float nx = d[p3] + s * grad[3 * j];
        precise float ny = d[p3 + 1] + s * grad[3 * j + 1];
        precise float nz = d[p3 + 2] + s * grad[3 * j + 2];
        d[p3] = nx;
        d[p3 + 1] = ny;
        d[p3 + 2] = nz;
    }
#endif
}
