// Seed 004's explicit mass-spring cloth, second half of a Verlet step for a model without tethers: one
// invocation per particle (PositionStep.predict with the springs' force and Damping.VERLET, the settle,
// the colliders, CorrectedVelocity): its Verlet velocity v' (verlet.glsl), y = x + h v'; the colliders
// move y to p, and v' gains what they moved over h. Pinned particles (inverse mass 0) keep x and get
// v = 0. Each invocation writes only its own particle. A port of weft-opencl's verlet_step.
uniform int n;
uniform float invH;

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
    vec3 start = vec3(x[i3], x[i3 + 1], x[i3 + 2]);
    precise vec3 vel = verletVelocity(i, w);
    precise float vx = vel.x;
    precise float vy = vel.y;
    precise float vz = vel.z;
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
    precise vec3 p = collideAll(y, start, offsetOf[i], grip[i], i, w);
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
