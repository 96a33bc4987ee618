#version 430 core
// The box around positions in a device buffer, for the renderer's frame bounds (shadow frustum, far
// plane): per axis the least and greatest coordinate through atomicMin/atomicMax on keys that order as
// the floats do (the sign bit flipped for positives, all bits for negatives), so the result is exact
// and the same in any order (but that -0 sorts below +0).
layout(local_size_x = 64) in;

layout(std430, binding = 24) readonly buffer Positions { float x[]; };
// keys of min x, y, z, then of max x, y, z; DeviceSurface starts them at 0xffffffff and 0
layout(std430, binding = 29) buffer Bounds { uint bounds[6]; };

uniform int vertexCount;

uint orderedKey(float f) {
    uint u = floatBitsToUint(f);
    return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}

void main() {
    int v = int(gl_GlobalInvocationID.x);
    if (v >= vertexCount) {
        return;
    }
    for (int d = 0; d < 3; d++) {
        uint key = orderedKey(x[3 * v + d]);
        atomicMin(bounds[d], key);
        atomicMax(bounds[3 + d], key);
    }
}
