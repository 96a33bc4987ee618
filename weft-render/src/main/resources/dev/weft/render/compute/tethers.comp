// TetherProjection.projectRange over one color of the model's tethers (long-range attachments), on
// positions y + d (one invocation per tether): a free particle further than its rest geodesic distance
// from its pinned anchor is put back onto that sphere; only d of the particle is written. A color's
// tethers share no particle, so each invocation writes only what it owns. The float operations of the
// CPU in its order (a port of weft-opencl's tethers.cl). The solver's header before this one declares
// y and d (xpbd.glsl, verlet_split.glsl); GlslTethers binds the tethers here.
layout(std430, binding = 17) readonly buffer TetherPairs { int tetherPairs[]; };
layout(std430, binding = 18) readonly buffer TetherLengths { float maxLength[]; };
uniform int first;
uniform int count;

void main() {
    int k = int(gl_GlobalInvocationID.x);
    if (k >= count) {
        return;
    }
    int c = first + k;
    int p = 3 * tetherPairs[2 * c];
    int a = 3 * tetherPairs[2 * c + 1];
    float dpx = d[p];
    float dpy = d[p + 1];
    float dpz = d[p + 2];
    precise float dx = (y[p] - y[a]) + (dpx - d[a]);
    precise float dy = (y[p + 1] - y[a + 1]) + (dpy - d[a + 1]);
    precise float dz = (y[p + 2] - y[a + 2]) + (dpz - d[a + 2]);
    precise float d2 = dx * dx + dy * dy + dz * dz;
    float m = maxLength[c];
    precise float m2 = m * m;
    if (d2 > m2) {
        // onto the sphere of radius m about the anchor
        precise float s = DIV(m, SQRT(d2)) - 1.0f;
        precise float nx = dpx + dx * s;
        precise float ny = dpy + dy * s;
        precise float nz = dpz + dz * s;
        d[p] = nx;
        d[p + 1] = ny;
        d[p + 2] = nz;
    }
}
