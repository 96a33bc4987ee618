// What every position-based solver's kernels share after their own phase (PositionStep.finish), in the
// CPU's float operations and order.

// The start of StepPositions.predict for particle i, shared by every solver that predicts y: d = 0, and a
// pinned particle gets v = 0 and y = x + 0 as the CPU rounds it. True when i is pinned (its prediction is
// done).
static bool position_step_predict_pinned(int i, __global const float* invMass, __global const float* x,
                                         __global float* v, __global float* y, __global float* d) {
    int i3 = 3 * i;
    d[i3] = 0.0f;
    d[i3 + 1] = 0.0f;
    d[i3 + 2] = 0.0f;
    if (invMass[i] != 0.0f) {
        return false;
    }
    v[i3] = 0.0f;
    v[i3 + 1] = 0.0f;
    v[i3 + 2] = 0.0f;
    y[i3] = x[i3] + 0.0f;
    y[i3 + 1] = x[i3 + 1] + 0.0f;
    y[i3 + 2] = x[i3 + 2] + 0.0f;
    return true;
}

// PositionStep.predict's air for a free particle i: a += F_air / m as (float) F times the inverse mass,
// F being DeviceAir's force (air.cl, rounded to float once as the CPU's cast does)
static void position_step_add_air(int i, __global const float* invMass, __global const float* air, float* ax,
                                  float* ay, float* az) {
    int i3 = 3 * i;
    float w = invMass[i];
    *ax += air[i3] * w;
    *ay += air[i3 + 1] * w;
    *az += air[i3 + 2] * w;
}

// PositionStep.finish for particle i: the settle (v' = v + d/h, x = y + d), the colliders on x with the
// step's start (x before this writes it) as prev, then CorrectedVelocity with its factor
// v = (v' + (x_c - x)/h)·scale (XPBD: Damping.AFTER's damping; PD damps in the prediction, scale 1).
// Pinned particles keep x and get v = 0.
static void position_step_finish(int i, __global const float* invMass, __global const float* grip,
                                 __global const float* offset, int colliderCount,
                                 __global const int* colliderType, __global const float* colliders, float invH,
                                 float scale, __global float* x, __global float* v, __global const float* y,
                                 __global const float* d) {
    int i3 = 3 * i;
    if (invMass[i] == 0.0f) {
        float3 still = (float3) (x[i3], x[i3 + 1], x[i3 + 2]);
        collide_pinned(colliderCount, colliderType, colliders, still, still, offset[i], i);
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        return;
    }
    float3 start = (float3) (x[i3], x[i3 + 1], x[i3 + 2]);
    float vx = v[i3] + d[i3] * invH;
    float vy = v[i3 + 1] + d[i3 + 1] * invH;
    float vz = v[i3 + 2] + d[i3 + 2] * invH;
    float3 settled = (float3) (y[i3] + d[i3], y[i3 + 1] + d[i3 + 1], y[i3 + 2] + d[i3 + 2]);
    float3 p = collide_all(colliderCount, colliderType, colliders, settled, start, offset[i], grip[i], i,
                           invMass[i]);
    x[i3] = p.x;
    x[i3 + 1] = p.y;
    x[i3 + 2] = p.z;
    v[i3] = (vx + (p.x - settled.x) * invH) * scale;
    v[i3 + 1] = (vy + (p.y - settled.y) * invH) * scale;
    v[i3 + 2] = (vz + (p.z - settled.z) * invH) * scale;
}
