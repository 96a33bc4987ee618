// Seed 004's explicit mass-spring cloth, first half of a Verlet step: one invocation per spring writes
// F_a = -(k_s (l - L) + k_d dC/dt) n on the spring's first particle (seed 004's F_spring) into its slot.
// The float operations of MassSpringSolver in its order (a port of weft-opencl's mass_spring.cl).
layout(std430, binding = 8) readonly buffer RestLengths { float rest[]; };
layout(std430, binding = 9) readonly buffer Stiffnesses { float ks[]; };
layout(std430, binding = 10) readonly buffer Dampings { float kd[]; };
uniform int springCount;

void main() {
    int s = int(gl_GlobalInvocationID.x);
    if (s >= springCount) {
        return;
    }
    int a = 3 * pairs[2 * s];
    int b = 3 * pairs[2 * s + 1];
    precise float lx = x[a] - x[b];
    precise float ly = x[a + 1] - x[b + 1];
    precise float lz = x[a + 2] - x[b + 2];
    precise float l2 = lx * lx + ly * ly + lz * lz;
    int o = 3 * s;
    if (!(l2 > 1e-24f)) { // coincident: no direction, no force
        springForce[o] = 0.0f;
        springForce[o + 1] = 0.0f;
        springForce[o + 2] = 0.0f;
        return;
    }
    precise float l = SQRT(l2);
    precise float inv = DIV(1.0f, l);
    precise float dvx = v[a] - v[b];
    precise float dvy = v[a + 1] - v[b + 1];
    precise float dvz = v[a + 2] - v[b + 2];
    precise float cDot = (lx * dvx + ly * dvy + lz * dvz) * inv;
    precise float stretch = l - rest[s];
    precise float scalar = (ks[s] * stretch + kd[s] * cDot) * inv;
    precise float fx = -scalar * lx;
    precise float fy = -scalar * ly;
    precise float fz = -scalar * lz;
    springForce[o] = fx;
    springForce[o + 1] = fy;
    springForce[o + 2] = fz;
}
