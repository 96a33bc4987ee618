// XPBD's colored mode, one color of the soft bodies' tetrahedra (one invocation per tetrahedron; a color's
// tetrahedra share no particle, so each writes only its two multipliers and its four corners' corrections),
// after the iteration's bending colors as XpbdSolver.sweep (TetProjection.sweep, in the bending pass).
// TetProjection.projectInPlace: volume C_v = 6 (V - V0) and shape C_s = |E| (Green's strain less its rest
// value) solved together by Macklin & Müller's 2 x 2 step from one F = D_s D_m^-1, one move
// w (dv grad C_v + du u) written at once. tetPacked holds TetProjection's PACKED (18) floats per tetrahedron as
// the CPU computed them (XpbdDeviceLayout.tetPacked): D_m^-1 (9), the rest strain (6), 6 V0, alpha~ of volume
// and shape (Float.MAX_VALUE: absent). Every float operation is the CPU's, in its order, every result
// 'precise', including the zeros of an absent constraint's gradients (their negated sums are -0): a port of
// weft-opencl's xpbd_tets.
layout(std430, binding = 30) readonly buffer Tetrahedra { int tets[]; };
layout(std430, binding = 31) readonly buffer TetPacked { float tetPacked[]; };
layout(std430, binding = 32) buffer TetMultipliers { float tetLambda[]; };
uniform int first;
uniform int count;

void main() {
    int k = int(gl_GlobalInvocationID.x);
    if (k >= count) {
        return;
    }
    int c = first + k;
    int t = 4 * c;
    int i0 = tets[t];
    int i1 = tets[t + 1];
    int i2 = tets[t + 2];
    int i3 = tets[t + 3];
    int a = 3 * i0;
    int b1 = 3 * i1;
    int b2 = 3 * i2;
    int b3 = 3 * i3;
    precise float e1x = (y[b1] - y[a]) + (d[b1] - d[a]);
    precise float e1y = (y[b1 + 1] - y[a + 1]) + (d[b1 + 1] - d[a + 1]);
    precise float e1z = (y[b1 + 2] - y[a + 2]) + (d[b1 + 2] - d[a + 2]);
    precise float e2x = (y[b2] - y[a]) + (d[b2] - d[a]);
    precise float e2y = (y[b2 + 1] - y[a + 1]) + (d[b2 + 1] - d[a + 1]);
    precise float e2z = (y[b2 + 2] - y[a + 2]) + (d[b2 + 2] - d[a + 2]);
    precise float e3x = (y[b3] - y[a]) + (d[b3] - d[a]);
    precise float e3y = (y[b3 + 1] - y[a + 1]) + (d[b3 + 1] - d[a + 1]);
    precise float e3z = (y[b3 + 2] - y[a + 2]) + (d[b3 + 2] - d[a + 2]);
    int q = 18 * c;
    precise float alphaV = tetPacked[q + 16];
    precise float alphaS = tetPacked[q + 17];
    bool volume = alphaV < uintBitsToFloat(0x7f7fffffu);
    // the volume's constraint and gradients e2 x e3, e3 x e1, e1 x e2 at corners 1-3
    precise float v1x = 0.0f, v1y = 0.0f, v1z = 0.0f, v2x = 0.0f, v2y = 0.0f, v2z = 0.0f, v3x = 0.0f, v3y = 0.0f,
          v3z = 0.0f;
    precise float cv = 0.0f;
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
        cv = (e1x * v1x + e1y * v1y + e1z * v1z) - tetPacked[q + 15];
    }
    bool shape = alphaS < uintBitsToFloat(0x7f7fffffu);
    // the shape's unnormalized gradients u at corners 1-3, its |E|^2 and |E|
    precise float u1x = 0.0f, u1y = 0.0f, u1z = 0.0f, u2x = 0.0f, u2y = 0.0f, u2z = 0.0f, u3x = 0.0f, u3y = 0.0f,
          u3z = 0.0f;
    precise float norm2 = 0.0f;
    precise float cs = 0.0f;
    if (shape) {
        precise float r00 = tetPacked[q + 0];
        precise float r01 = tetPacked[q + 1];
        precise float r02 = tetPacked[q + 2];
        precise float r10 = tetPacked[q + 3];
        precise float r11 = tetPacked[q + 4];
        precise float r12 = tetPacked[q + 5];
        precise float r20 = tetPacked[q + 6];
        precise float r21 = tetPacked[q + 7];
        precise float r22 = tetPacked[q + 8];
        // F = D_s D_m^-1, row by row
        precise float f00 = e1x * r00 + e2x * r10 + e3x * r20;
        precise float f01 = e1x * r01 + e2x * r11 + e3x * r21;
        precise float f02 = e1x * r02 + e2x * r12 + e3x * r22;
        precise float f10 = e1y * r00 + e2y * r10 + e3y * r20;
        precise float f11 = e1y * r01 + e2y * r11 + e3y * r21;
        precise float f12 = e1y * r02 + e2y * r12 + e3y * r22;
        precise float f20 = e1z * r00 + e2z * r10 + e3z * r20;
        precise float f21 = e1z * r01 + e2z * r11 + e3z * r21;
        precise float f22 = e1z * r02 + e2z * r12 + e3z * r22;
        // Green's strain less its rest value
        precise float exx = 0.5f * (f00 * f00 + f10 * f10 + f20 * f20 - 1.0f) - tetPacked[q + 9];
        precise float eyy = 0.5f * (f01 * f01 + f11 * f11 + f21 * f21 - 1.0f) - tetPacked[q + 10];
        precise float ezz = 0.5f * (f02 * f02 + f12 * f12 + f22 * f22 - 1.0f) - tetPacked[q + 11];
        precise float exy = 0.5f * (f00 * f01 + f10 * f11 + f20 * f21) - tetPacked[q + 12];
        precise float eyz = 0.5f * (f01 * f02 + f11 * f12 + f21 * f22) - tetPacked[q + 13];
        precise float ezx = 0.5f * (f02 * f00 + f12 * f10 + f22 * f20) - tetPacked[q + 14];
        norm2 = exx * exx + eyy * eyy + ezz * ezz + 2.0f * (exy * exy + eyz * eyz + ezx * ezx);
        // |E| <= 1e-10 is below what float F resolves: left out, as on the CPU
        shape = norm2 > 1e-20f;
        if (shape) {
            cs = SQRT(norm2);
            // P = F E row by row; corner i's u is P times row i of D_m^-1
            precise float p00 = f00 * exx + f01 * exy + f02 * ezx;
            precise float p01 = f00 * exy + f01 * eyy + f02 * eyz;
            precise float p02 = f00 * ezx + f01 * eyz + f02 * ezz;
            precise float p10 = f10 * exx + f11 * exy + f12 * ezx;
            precise float p11 = f10 * exy + f11 * eyy + f12 * eyz;
            precise float p12 = f10 * ezx + f11 * eyz + f12 * ezz;
            precise float p20 = f20 * exx + f21 * exy + f22 * ezx;
            precise float p21 = f20 * exy + f21 * eyy + f22 * eyz;
            precise float p22 = f20 * ezx + f21 * eyz + f22 * ezz;
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
    precise float w0 = invMass[i0];
    precise float w1 = invMass[i1];
    precise float w2 = invMass[i2];
    precise float w3 = invMass[i3];
    // corner 0's gradients: the negated sums
    precise float v0x = -(v1x + v2x + v3x);
    precise float v0y = -(v1y + v2y + v3y);
    precise float v0z = -(v1z + v2z + v3z);
    precise float u0x = -(u1x + u2x + u3x);
    precise float u0y = -(u1y + u2y + u3y);
    precise float u0z = -(u1z + u2z + u3z);
    // the system's entries sum w grad . grad
    precise float avv = w0 * (v0x * v0x + v0y * v0y + v0z * v0z) + w1 * (v1x * v1x + v1y * v1y + v1z * v1z)
            + w2 * (v2x * v2x + v2y * v2y + v2z * v2z) + w3 * (v3x * v3x + v3y * v3y + v3z * v3z);
    precise float auu = w0 * (u0x * u0x + u0y * u0y + u0z * u0z) + w1 * (u1x * u1x + u1y * u1y + u1z * u1z)
            + w2 * (u2x * u2x + u2y * u2y + u2z * u2z) + w3 * (u3x * u3x + u3y * u3y + u3z * u3z);
    precise float avu = w0 * (v0x * u0x + v0y * u0y + v0z * u0z) + w1 * (v1x * u1x + v1y * u1y + v1z * u1z)
            + w2 * (v2x * u2x + v2y * u2y + v2z * u2z) + w3 * (v3x * u3x + v3y * u3y + v3z * u3z);
    int l = 2 * c;
    // dv = delta lambda_v; du = delta lambda_s / |E| (the move along u)
    precise float dv = 0.0f;
    precise float du = 0.0f;
    if (volume && shape) {
        precise float kvv = avv + alphaV;
        precise float kuu = auu + alphaS * norm2;
        precise float rv = -cv - alphaV * tetLambda[l];
        precise float ru = (-cs - alphaS * tetLambda[l + 1]) * cs;
        precise float det = kvv * kuu - avu * avu;
        precise float least = 1e-6f * kvv * kuu;
        if (det > least) {
            precise float inv = DIV(1.0f, det);
            dv = (kuu * rv - avu * ru) * inv;
            du = (kvv * ru - avu * rv) * inv;
        } else if (kvv > 1e-30f) {
            dv = DIV(rv, kvv);
        }
    } else if (volume) {
        precise float kvv = avv + alphaV;
        if (kvv > 1e-30f) {
            dv = DIV(-cv - alphaV * tetLambda[l], kvv);
        }
    } else {
        precise float kuu = auu + alphaS * norm2;
        if (kuu > 1e-30f) {
            du = DIV((-cs - alphaS * tetLambda[l + 1]) * cs, kuu);
        }
    }
    if (dv == 0.0f && du == 0.0f) {
        return;
    }
    precise float lv = tetLambda[l] + dv;
    precise float ls = tetLambda[l + 1] + du * cs;
    tetLambda[l] = lv;
    tetLambda[l + 1] = ls;
    // each corner's coordinate d + f (dv grad C_v + du u), through precise variables before it is stored
    precise float f = w0;
    {
        precise float move = dv * v0x + du * u0x;
        precise float r = d[a] + f * move;
        d[a] = r;
    }
    {
        precise float move = dv * v0y + du * u0y;
        precise float r = d[a + 1] + f * move;
        d[a + 1] = r;
    }
    {
        precise float move = dv * v0z + du * u0z;
        precise float r = d[a + 2] + f * move;
        d[a + 2] = r;
    }
    f = w1;
    {
        precise float move = dv * v1x + du * u1x;
        precise float r = d[b1] + f * move;
        d[b1] = r;
    }
    {
        precise float move = dv * v1y + du * u1y;
        precise float r = d[b1 + 1] + f * move;
        d[b1 + 1] = r;
    }
    {
        precise float move = dv * v1z + du * u1z;
        precise float r = d[b1 + 2] + f * move;
        d[b1 + 2] = r;
    }
    f = w2;
    {
        precise float move = dv * v2x + du * u2x;
        precise float r = d[b2] + f * move;
        d[b2] = r;
    }
    {
        precise float move = dv * v2y + du * u2y;
        precise float r = d[b2 + 1] + f * move;
        d[b2 + 1] = r;
    }
    {
        precise float move = dv * v2z + du * u2z;
        precise float r = d[b2 + 2] + f * move;
        d[b2 + 2] = r;
    }
    f = w3;
    {
        precise float move = dv * v3x + du * u3x;
        precise float r = d[b3] + f * move;
        d[b3] = r;
    }
    {
        precise float move = dv * v3y + du * u3y;
        precise float r = d[b3 + 1] + f * move;
        d[b3 + 1] = r;
    }
    {
        precise float move = dv * v3z + du * u3z;
        precise float r = d[b3 + 2] + f * move;
        d[b3 + 2] = r;
    }
}
