// PositionStep.finish for one particle, after a solver's phase on y + d (y and d declared before this):
// the settle (v' = v + d/h, x = y + d), the colliders on x with the step's start (x before this writes
// it) as prev, then CorrectedVelocity with its factor, v = (v' + (x_c - x)/h) scale (XPBD: Damping.AFTER's
// damping; mass-spring damps in its prediction, scale 1). Pinned particles keep x and get v = 0. A port
// of weft-opencl's position_step.cl.
void positionStepFinish(int i, float invH, float scale) {
    int i3 = 3 * i;
    if (invMass[i] == 0.0f) {
        v[i3] = 0.0f;
        v[i3 + 1] = 0.0f;
        v[i3 + 2] = 0.0f;
        return;
    }
    vec3 start = vec3(x[i3], x[i3 + 1], x[i3 + 2]);
    precise float vx = v[i3] + d[i3] * invH;
    precise float vy = v[i3 + 1] + d[i3 + 1] * invH;
    precise float vz = v[i3 + 2] + d[i3 + 2] * invH;
    precise float sx = y[i3] + d[i3];
    precise float sy = y[i3 + 1] + d[i3 + 1];
    precise float sz = y[i3 + 2] + d[i3 + 2];
    vec3 settled = vec3(sx, sy, sz);
    precise vec3 p = collideAll(settled, start, offsetOf[i], grip[i], i, invMass[i]);
    precise float nvx = (vx + (p.x - settled.x) * invH) * scale;
    precise float nvy = (vy + (p.y - settled.y) * invH) * scale;
    precise float nvz = (vz + (p.z - settled.z) * invH) * scale;
    x[i3] = p.x;
    x[i3 + 1] = p.y;
    x[i3 + 2] = p.z;
    v[i3] = nvx;
    v[i3 + 1] = nvy;
    v[i3 + 2] = nvz;
}
