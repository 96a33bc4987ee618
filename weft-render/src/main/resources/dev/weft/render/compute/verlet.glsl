// A free particle's Verlet velocity, which both forms of a mass-spring Verlet step compute
// (mass_spring_step.comp fused; mass_spring_predict.comp before the tethers): PositionStep.predict with
// the springs' force and Damping.VERLET, v' = keep v + h (g + F / m), F gathered from its springs in the
// incidence's fixed order (in double, as the CPU sums them). A port of weft-opencl's verlet_velocity.
layout(std430, binding = 12) readonly buffer IncidenceStarts { int incidenceStart[]; };
layout(std430, binding = 13) readonly buffer IncidenceSprings { int incidenceSpring[]; };
layout(std430, binding = 14) readonly buffer Keeps { float keep[]; };
uniform float h;
uniform vec3 gravity;

vec3 verletVelocity(int i, float w) {
    int i3 = 3 * i;
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
    precise float ax = gravity.x + float(fx) * w;
    precise float ay = gravity.y + float(fy) * w;
    precise float az = gravity.z + float(fz) * w;
    float k = keep[i];
    precise float vx = k * v[i3] + h * ax;
    precise float vy = k * v[i3 + 1] + h * ay;
    precise float vz = k * v[i3 + 2] + h * az;
    return vec3(vx, vy, vz);
}
