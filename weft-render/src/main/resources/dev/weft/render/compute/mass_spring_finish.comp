// A mass-spring Verlet step with tethers, third dispatch (one invocation per particle): PositionStep.finish
// (position_step.glsl) after the tethers, scale 1 (the Verlet step damped in its prediction). A port of
// weft-opencl's verlet_finish.
uniform int n;
uniform float invH;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    if (i < n) {
        positionStepFinish(i, invH, 1.0f);
    }
}
