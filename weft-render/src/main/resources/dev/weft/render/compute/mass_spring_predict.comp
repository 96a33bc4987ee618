// A mass-spring Verlet step with tethers, first dispatch after the springs' forces (one invocation per
// particle), as MassSpringSolver's frame: the Verlet velocity v' (verlet.glsl) into v, y = x + h v',
// d = 0; a pinned particle gets v = 0 and y = x + 0 as the CPU rounds it. The tethers (tethers.comp) and
// mass_spring_finish.comp follow. A port of weft-opencl's verlet_predict.
uniform int n;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    d[i3] = 0.0f;
    d[i3 + 1] = 0.0f;
    d[i3 + 2] = 0.0f;
    float w = invMass[i];
    if (w == 0.0f) {
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
    precise vec3 vel = verletVelocity(i, w);
    precise float px = x[i3] + h * vel.x;
    precise float py = x[i3 + 1] + h * vel.y;
    precise float pz = x[i3 + 2] + h * vel.z;
    v[i3] = vel.x;
    v[i3 + 1] = vel.y;
    v[i3 + 2] = vel.z;
    y[i3] = px;
    y[i3 + 1] = py;
    y[i3 + 2] = pz;
}
