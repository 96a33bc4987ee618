// Seed 002's Jakobsen relaxation (RelaxationSolver): one step is relax_predict (one work-item per
// particle: the damped Verlet prediction), per relaxation step one relax_distances launch per color of the
// distance constraints, one relax_tethers launch per tether color and, where the environment has
// colliders, relax_collide (per particle: the colliders on y + d, their change added to d); then
// relax_finish (settle and velocity, PositionStep.finish without colliders: they ran in every relaxation
// step). A color's constraints (and tethers) share no particle, so each work-item writes only its own
// particles' corrections: no atomics, and the CPU's order (colors in sequence) is kept.
//
// Positions are StepPositions' y (prediction) + d (corrections); the float operations are
// RelaxationSolver's, PositionStep's, StepPositions', TetherProjection's and CorrectedVelocity's in the
// same order, under cpu_rounding.cl's rules (tethers.cl holds the tether projection).

// PositionStep.predict with Damping.VERLET (keep k per particle, no drag, no force) and
// StepPositions.predict: v' = k v + h (g + F_air / m), y = x + h v', d = 0 (air: DeviceAir's float forces,
// or null in still air); a pinned particle gets v = 0 and y = x + 0
__kernel void relax_predict(const int n, __global const float* invMass, __global const float* keep,
                            const float h, const float gx, const float gy, const float gz,
                            __global const float* x, __global float* v, __global float* y, __global float* d,
                            __global const float* air) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    if (position_step_predict_pinned(i, invMass, x, v, y, d)) {
        return;
    }
    int i3 = 3 * i;
    // drag 0 written out: g - 0 v is what the CPU computes (signed zeros included)
    float ax = gx - 0.0f * v[i3];
    float ay = gy - 0.0f * v[i3 + 1];
    float az = gz - 0.0f * v[i3 + 2];
    if (air) {
        position_step_add_air(i, invMass, air, &ax, &ay, &az);
    }
    float k = keep[i];
    float vx = k * v[i3] + h * ax;
    float vy = k * v[i3 + 1] + h * ay;
    float vz = k * v[i3 + 2] + h * az;
    v[i3] = vx;
    v[i3 + 1] = vy;
    v[i3 + 2] = vz;
    y[i3] = x[i3] + h * vx;
    y[i3 + 1] = x[i3 + 1] + h * vy;
    y[i3 + 2] = x[i3 + 2] + h * vz;
}

// RelaxationSolver.relaxPair for constraint c, the work-item's global id (the launch's offset is the
// color's first constraint): seed 002's rigid spring, mass-weighted; BEND constraints are not relaxed
__kernel void relax_distances(__global const int* pairs, __global const float* rest,
                              __global const int* relaxed, __global const float* w, __global const float* y,
                              __global float* d) {
    int c = get_global_id(0);
    if (relaxed[c] == 0) {
        return;
    }
    int ia = pairs[2 * c];
    int ib = pairs[2 * c + 1];
    float wa = w[ia];
    float wb = w[ib];
    float wsum = wa + wb;
    if (wsum == 0.0f) {
        return;
    }
    int a = 3 * ia;
    int b = 3 * ib;
    float dx = (y[b] - y[a]) + (d[b] - d[a]);
    float dy = (y[b + 1] - y[a + 1]) + (d[b + 1] - d[a + 1]);
    float dz = (y[b + 2] - y[a + 2]) + (d[b + 2] - d[a + 2]);
    float d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < 1e-24f) {
        return;
    }
    float len = sqrt(d2);
    float s = (len - rest[c]) / (len * wsum);
    float sa = wa * s;
    float sb = wb * s;
    d[a] += sa * dx;
    d[a + 1] += sa * dy;
    d[a + 2] += sa * dz;
    d[b] -= sb * dx;
    d[b + 1] -= sb * dy;
    d[b + 2] -= sb * dz;
}

// TetherProjection.projectRange for tether c, the global id (the launch's offset is the color's first tether)
__kernel void relax_tethers(__global const int* pairs, __global const float* maxLength, __global const float* y,
                            __global float* d) {
    tether_project(get_global_id(0), pairs, maxLength, y, d);
}

// StepPositions.collideRange for particle i (PositionStep.collideInside): the colliders in order on the
// free particle's y + d, the step's start x as where it came from, and d gains the exact change
__kernel void relax_collide(const int n, __global const float* invMass, __global const float* grip,
                            __global const float* offset, const int colliderCount,
                            __global const int* colliderType, __global const float* colliders,
                            __global const float* x, __global const float* y, __global float* d) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    float3 start = (float3) (x[i3], x[i3 + 1], x[i3 + 2]);
    if (invMass[i] == 0.0f) {
        collide_pinned(colliderCount, colliderType, colliders, start, start, offset[i], i);
        return;
    }
    float3 p = (float3) (y[i3] + d[i3], y[i3 + 1] + d[i3 + 1], y[i3 + 2] + d[i3 + 2]);
    float3 q = collide_all(colliderCount, colliderType, colliders, p, start, offset[i], grip[i], i, invMass[i]);
    d[i3] += q.x - (y[i3] + d[i3]);
    d[i3 + 1] += q.y - (y[i3 + 1] + d[i3 + 1]);
    d[i3 + 2] += q.z - (y[i3 + 2] + d[i3 + 2]);
}

// PositionStep.finish without colliders or contacts (position_step.cl with no collider): the settle,
// v = v' + d/h, x = y + d, then CorrectedVelocity with scale 1 (relaxation damps in the prediction)
__kernel void relax_finish(const int n, __global const float* invMass, __global const float* grip,
                           __global const float* offset, const float invH, __global float* x, __global float* v,
                           __global const float* y, __global const float* d) {
    int i = get_global_id(0);
    if (i < n) {
        position_step_finish(i, invMass, grip, offset, 0, 0, 0, invH, 1.0f, x, v, y, d);
    }
}
