// The context's self-check (ComputeContext.open): o = 2 in + 1 over n values, which a driver that
// hands a context's buffers to another one (seen: NVIDIA 580 with a process's second EGL context)
// gets wrong without an error the solvers would see.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { float o[]; };
layout(std430, binding = 2) readonly buffer In { float inp[]; };
uniform int n;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    if (i < n) {
        o[i] = inp[i] * 2.0f + 1.0f;
    }
}
