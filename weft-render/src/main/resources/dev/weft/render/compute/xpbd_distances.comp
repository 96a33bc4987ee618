// XPBD's colored mode, one color of distance constraints (one invocation per constraint; a color's
// constraints share no particle, so each writes only its multiplier and its two particles'
// corrections). Three programs from this source (GlslXpbdSolver):
//   (plain)  XpbdSolver.projectDistances: constraint first + k, multiplier step with alpha/h^2;
//   RIGID    XpbdSolver.projectRigidDistances: a color whose constraints all have zero compliance;
//   LISTED   projectDistance + distanceMultiplierStep for constraint order[first + k]: an extra stretch
//            pass over a color whose stretch constraints are not one run of the storage.
// The float operations of XpbdSolver in its order (a port of weft-opencl's xpbd.cl).
layout(std430, binding = 7) readonly buffer Pairs { int pairs[]; };
layout(std430, binding = 8) readonly buffer RestLengths { float rest[]; };
#ifndef RIGID
layout(std430, binding = 9) readonly buffer Compliances { float alphas[]; };
layout(std430, binding = 10) buffer Multipliers { float lambdas[]; };
#endif
#ifdef LISTED
layout(std430, binding = 11) readonly buffer StretchOrder { int order[]; };
#endif
uniform int first;
uniform int count;

void main() {
    int k = int(gl_GlobalInvocationID.x);
    if (k >= count) {
        return;
    }
#ifdef LISTED
    int c = order[first + k];
#else
    int c = first + k;
#endif
    int ia = pairs[2 * c];
    int ib = pairs[2 * c + 1];
    int a = 3 * ia;
    int b = 3 * ib;
    // the separation (y_b - y_a) + (d_b - d_a), its squared length
    float dax = d[a];
    float day = d[a + 1];
    float daz = d[a + 2];
    float dbx = d[b];
    float dby = d[b + 1];
    float dbz = d[b + 2];
    precise float dx = (y[b] - y[a]) + (dbx - dax);
    precise float dy = (y[b + 1] - y[a + 1]) + (dby - day);
    precise float dz = (y[b + 2] - y[a + 2]) + (dbz - daz);
    float wa = invMass[ia];
    float wb = invMass[ib];
    precise float wsum = wa + wb;
    precise float d2 = dx * dx + dy * dy + dz * dz;
    // XpbdSolver skips a constraint between two pinned particles or two coincident ones
    if (wsum == 0.0f || d2 < 1e-24f) {
        return;
    }
    precise float len = SQRT(d2);
#ifdef RIGID
    precise float scale = DIV(rest[c] - len, wsum * len);
#else
    // the compliant multiplier step: (L - |C| - alpha lambda) / (w_a + w_b + alpha)
    float alpha = alphas[c];
    float lambda = lambdas[c];
    precise float dl = DIV(rest[c] - len - alpha * lambda, wsum + alpha);
    precise float updated = lambda + dl;
    lambdas[c] = updated;
    precise float scale = DIV(dl, len);
#ifdef LISTED
    // as projectDistance: no write for a zero step (d - 0·dx can flip a zero's sign)
    if (scale == 0.0f) {
        return;
    }
#endif
#endif
    // d_a -= w_a s (dx, dy, dz), d_b += w_b s (dx, dy, dz)
    precise float sa = wa * scale;
    precise float sb = wb * scale;
    precise float nax = dax - sa * dx;
    precise float nay = day - sa * dy;
    precise float naz = daz - sa * dz;
    precise float nbx = dbx + sb * dx;
    precise float nby = dby + sb * dy;
    precise float nbz = dbz + sb * dz;
    d[a] = nax;
    d[a + 1] = nay;
    d[a + 2] = naz;
    d[b] = nbx;
    d[b + 1] = nby;
    d[b + 2] = nbz;
}
