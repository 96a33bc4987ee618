// Seed 004's explicit mass-spring cloth, second half of a Verlet step: one invocation per particle
// (PositionStep.predict with the springs' force and Damping.VERLET, the settle, the colliders,
// CorrectedVelocity): gather its springs' forces in the incidence's fixed order (in double, as the CPU
// sums them), v' = keep v + h (g + F / m), y = x + h v'; the colliders move y to p, and v' gains what
// they moved over h. Pinned particles (inverse mass 0) keep x and get v = 0. Each invocation writes
// only its own particle. A port of weft-opencl's mass_spring.cl.
layout(std430, binding = 12) readonly buffer IncidenceStarts { int incidenceStart[]; };
layout(std430, binding = 13) readonly buffer IncidenceSprings { int incidenceSpring[]; };
layout(std430, binding = 14) readonly buffer Keeps { float keep[]; };
uniform int n;
uniform float h;
uniform float invH;
uniform vec3 gravity;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    float w = invMass[i];
    if (w == 0.0f) {
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        return;
    }
    precise double fx = 0.0lf;
    precise double fy = 0.0lf;
    precise double fz = 0.0lf;
    for (int e = incidenceStart[i]; e < incidenceStart[i + 1]; e++) {
        int s = incidenceSpring[e];
        double sign = pairs[2 * s] == i ? 1.0lf : -1.0lf;
        precise double sx = sign * double(springForce[3 * s]);
        precise double sy = sign * double(springForce[3 * s + 1]);
        precise double sz = sign * double(springForce[3 * s + 2]);
        fx += sx;
        fy += sy;
        fz += sz;
    }
    vec3 start = vec3(x[i3], x[i3 + 1], x[i3 + 2]);
    precise float ax = gravity.x + float(fx) * w;
    precise float ay = gravity.y + float(fy) * w;
    precise float az = gravity.z + float(fz) * w;
    float k = keep[i];
    precise float vx = k * v[i3] + h * ax;
    precise float vy = k * v[i3 + 1] + h * ay;
    precise float vz = k * v[i3 + 2] + h * az;
    // y = x + h v; the settle of a prediction no constraint corrected (d = 0) as the CPU rounds it
    precise float yx = start.x + h * vx;
    precise float yy = start.y + h * vy;
    precise float yz = start.z + h * vz;
    vx = vx + 0.0f * invH;
    vy = vy + 0.0f * invH;
    vz = vz + 0.0f * invH;
    yx = yx + 0.0f;
    yy = yy + 0.0f;
    yz = yz + 0.0f;
    vec3 y = vec3(yx, yy, yz);
    precise vec3 p = collideAll(y, start, offsetOf[i], grip[i]);
    precise float nvx = vx + (p.x - y.x) * invH;
    precise float nvy = vy + (p.y - y.y) * invH;
    precise float nvz = vz + (p.z - y.z) * invH;
    x[i3] = p.x;
    x[i3 + 1] = p.y;
    x[i3 + 2] = p.z;
    v[i3] = nvx;
    v[i3 + 1] = nvy;
    v[i3 + 2] = nvz;
}
