// XPBD's colored mode, the finish (one invocation per particle): PositionStep.finish (position_step.glsl)
// with Damping.AFTER's factor. A port of weft-opencl's xpbd.cl.
layout(std430, binding = 12) readonly buffer Dampings { float damp[]; };
uniform int n;
uniform float invH;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    if (i < n) {
        positionStepFinish(i, invH, damp[i]);
    }
}
