// XPBD's colored mode, the prediction (one invocation per particle): PositionStep.predict with
// Damping.AFTER (keep 1, no drag, no air, no force) and StepPositions.predict: v' = v + h g,
// y = x + h v', d = 0; a pinned particle gets v = 0 and y = x + 0 as the CPU rounds it. A port of
// weft-opencl's xpbd.cl.
uniform int n;
uniform float h;
uniform vec3 gravity;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    d[i3] = 0.0f;
    d[i3 + 1] = 0.0f;
    d[i3 + 2] = 0.0f;
    if (invMass[i] == 0.0f) {
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        precise float px = x[i3] + 0.0f;
        precise float py = x[i3 + 1] + 0.0f;
        precise float pz = x[i3 + 2] + 0.0f;
        y[i3] = px;
        y[i3 + 1] = py;
        y[i3 + 2] = pz;
        return;
    }
    // drag 0 and keep 1 written out: 0 v and 1 v are what the CPU computes (signed zeros included)
    precise float ax = gravity.x - 0.0f * v[i3];
    precise float ay = gravity.y - 0.0f * v[i3 + 1];
    precise float az = gravity.z - 0.0f * v[i3 + 2];
    precise float vx = 1.0f * v[i3] + h * ax;
    precise float vy = 1.0f * v[i3 + 1] + h * ay;
    precise float vz = 1.0f * v[i3 + 2] + h * az;
    precise float px = x[i3] + h * vx;
    precise float py = x[i3 + 1] + h * vy;
    precise float pz = x[i3 + 2] + h * vz;
    v[i3] = vx;
    v[i3 + 1] = vy;
    v[i3 + 2] = vz;
    y[i3] = px;
    y[i3 + 1] = py;
    y[i3 + 2] = pz;
}
