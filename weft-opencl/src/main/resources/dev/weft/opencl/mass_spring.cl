// Seed 004's explicit mass-spring cloth, one Verlet step as two kernels: the springs' forces (one
// work-item per spring), then each particle's step (one work-item per particle: gather its springs'
// forces in the incidence's fixed order, the damped Verlet prediction, the colliders, the velocity).
// Each work-item writes only what it owns, so no atomics and the same result for any work-group split.
// The float operations are the CPU solver's (MassSpringSolver, PositionStep, StepPositions,
// CorrectedVelocity) in the same order, under cpu_rounding.cl's rules; colliders.cl holds the colliders.

// F_a = -(k_s (l - L) + k_d dC/dt) n on each spring's first particle (seed 004's F_spring, eq. 2.13)
__kernel void spring_forces(const int count, __global const int* pairs, __global const float* rest,
                            __global const float* ks, __global const float* kd, __global const float* x,
                            __global const float* v, __global float* force) {
    int s = get_global_id(0);
    if (s >= count) {
        return;
    }
    int a = 3 * pairs[2 * s];
    int b = 3 * pairs[2 * s + 1];
    float lx = x[a] - x[b];
    float ly = x[a + 1] - x[b + 1];
    float lz = x[a + 2] - x[b + 2];
    float l2 = lx * lx + ly * ly + lz * lz;
    int o = 3 * s;
    if (!(l2 > 1e-24f)) { // coincident: no direction, no force
        force[o] = 0.0f;
        force[o + 1] = 0.0f;
        force[o + 2] = 0.0f;
        return;
    }
    float l = sqrt(l2);
    float inv = 1.0f / l;
    float cDot = (lx * (v[a] - v[b]) + ly * (v[a + 1] - v[b + 1]) + lz * (v[a + 2] - v[b + 2])) * inv;
    float scalar = (ks[s] * (l - rest[s]) + kd[s] * cDot) * inv;
    force[o] = -scalar * lx;
    force[o + 1] = -scalar * ly;
    force[o + 2] = -scalar * lz;
}

// A free particle's Verlet velocity (PositionStep.predict with the springs' force and Damping.VERLET):
// v' = keep v + h (g + F_air / m + F / m), F gathered from its springs in the incidence order, F_air
// DeviceAir's float force (air null: still air).
static float3 verlet_velocity(int i, __global const int* incidenceStart, __global const int* incidenceSpring,
                              __global const int* pairs, __global const float* springForce, float w, float k,
                              float h, float gx, float gy, float gz, __global const float* v,
                              __global const float* air) {
    int i3 = 3 * i;
    accum_t fx = 0;
    accum_t fy = 0;
    accum_t fz = 0;
    for (int e = incidenceStart[i]; e < incidenceStart[i + 1]; e++) {
        int s = incidenceSpring[e];
        accum_t sign = pairs[2 * s] == i ? (accum_t) 1 : (accum_t) -1;
        fx += sign * (accum_t) springForce[3 * s];
        fy += sign * (accum_t) springForce[3 * s + 1];
        fz += sign * (accum_t) springForce[3 * s + 2];
    }
    float ax = gx;
    float ay = gy;
    float az = gz;
    if (air) {
        ax += air[i3] * w;
        ay += air[i3 + 1] * w;
        az += air[i3 + 2] * w;
    }
    ax = ax + (float) fx * w;
    ay = ay + (float) fy * w;
    az = az + (float) fz * w;
    return (float3) (k * v[i3] + h * ax, k * v[i3 + 1] + h * ay, k * v[i3 + 2] + h * az);
}

// One particle's Verlet step (PositionStep.predict with the springs' force and Damping.VERLET, settle,
// colliders, CorrectedVelocity): x(t+h) = x + h v', v' = keep v + h (g + F / m); then the colliders move x,
// and v' gains what they moved over h. Pinned particles (inverse mass 0) keep x and get v = 0.
__kernel void verlet_step(const int n, __global const int* incidenceStart, __global const int* incidenceSpring,
                          __global const int* pairs, __global const float* springForce,
                          __global const float* invMass, __global const float* keep,
                          __global const float* grip, __global const float* offset,
                          const int colliderCount, __global const int* colliderType,
                          __global const float* colliders, const float h, const float invH,
                          const float gx, const float gy, const float gz,
                          __global float* x, __global float* v, __global const float* air) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    float w = invMass[i];
    if (w == 0.0f) {
        float3 still = (float3) (x[i3], x[i3 + 1], x[i3 + 2]);
        collide_pinned(colliderCount, colliderType, colliders, still, still, offset[i], i);
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        return;
    }
    float3 start = (float3) (x[i3], x[i3 + 1], x[i3 + 2]);
    float3 vel = verlet_velocity(i, incidenceStart, incidenceSpring, pairs, springForce, w, keep[i], h, gx, gy, gz,
                                 v, air);
    float vx = vel.x;
    float vy = vel.y;
    float vz = vel.z;
    // y = x + h v; the settle of a prediction no constraint corrected (d = 0) as the CPU rounds it
    float3 y = (float3) (start.x + h * vx, start.y + h * vy, start.z + h * vz);
    vx = vx + 0.0f * invH;
    vy = vy + 0.0f * invH;
    vz = vz + 0.0f * invH;
    y = (float3) (y.x + 0.0f, y.y + 0.0f, y.z + 0.0f);
    float3 p = collide_all(colliderCount, colliderType, colliders, y, start, offset[i], grip[i], i, w);
    x[i3] = p.x;
    x[i3 + 1] = p.y;
    x[i3 + 2] = p.z;
    v[i3] = vx + (p.x - y.x) * invH;
    v[i3 + 1] = vy + (p.y - y.y) * invH;
    v[i3 + 2] = vz + (p.z - y.z) * invH;
}

// With tethers the Verlet step is three launches, as MassSpringSolver's frame: this prediction (v' into v,
// y = x + h v', d = 0; a pinned particle v = 0, y = x + 0), the tethers on y + d (spring_tethers), then
// verlet_finish.
__kernel void verlet_predict(const int n, __global const int* incidenceStart, __global const int* incidenceSpring,
                             __global const int* pairs, __global const float* springForce,
                             __global const float* invMass, __global const float* keep, const float h,
                             const float gx, const float gy, const float gz, __global const float* x,
                             __global float* v, __global float* y, __global float* d, __global const float* air) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    if (position_step_predict_pinned(i, invMass, x, v, y, d)) {
        return;
    }
    int i3 = 3 * i;
    float3 vel = verlet_velocity(i, incidenceStart, incidenceSpring, pairs, springForce, invMass[i], keep[i], h, gx,
                                 gy, gz, v, air);
    v[i3] = vel.x;
    v[i3 + 1] = vel.y;
    v[i3 + 2] = vel.z;
    y[i3] = x[i3] + h * vel.x;
    y[i3 + 1] = x[i3 + 1] + h * vel.y;
    y[i3 + 2] = x[i3 + 2] + h * vel.z;
}

// MassSpringSolver: the model's tethers after each Verlet step's prediction, one launch per tether color
__kernel void spring_tethers(__global const int* pairs, __global const float* maxLength, __global const float* y,
                             __global float* d) {
    tether_project(get_global_id(0), pairs, maxLength, y, d);
}

// PositionStep.finish after the tethers: settle, colliders, the velocity from what they moved (no damping
// after: the Verlet step damped in the prediction)
__kernel void verlet_finish(const int n, __global const float* invMass, __global const float* grip,
                            __global const float* offset, const int colliderCount,
                            __global const int* colliderType, __global const float* colliders, const float invH,
                            __global float* x, __global float* v, __global const float* y,
                            __global const float* d) {
    int i = get_global_id(0);
    if (i < n) {
        position_step_finish(i, invMass, grip, offset, colliderCount, colliderType, colliders, invH, 1.0f, x, v, y,
                             d);
    }
}
