#version 430 core
// SmoothNormals.compute (weft-core, dev.weft.core.geom) for positions in a device buffer: one invocation
// per vertex gathers the unit normals of its triangles in ascending triangle order, the order in which
// the host's scatter adds them to the vertex, so with the host's float operations in its order ('precise'
// forbids fused multiply-adds and reassociation; the reciprocal square root in double, as Java's
// (float) (1.0 / Math.sqrt(len2))) a driver that rounds correctly, as llvmpipe does, gives the host's bits.
// Binding points from 24 up: the GLSL solvers sharing the context keep 0-18 bound (DeviceSurface).
layout(local_size_x = 64) in;

layout(std430, binding = 24) readonly buffer Positions { float x[]; };
layout(std430, binding = 25) readonly buffer Triangles { int triangles[]; };
// vertex v's triangles are incidence[incidenceStart[v] .. incidenceStart[v + 1]), ascending
layout(std430, binding = 26) readonly buffer IncidenceStart { int incidenceStart[]; };
layout(std430, binding = 27) readonly buffer Incidence { int incidence[]; };
layout(std430, binding = 28) writeonly buffer Normals { float normals[]; };

uniform int vertexCount;

void main() {
    int v = int(gl_GlobalInvocationID.x);
    if (v >= vertexCount) {
        return;
    }
    precise float sx = 0.0;
    precise float sy = 0.0;
    precise float sz = 0.0;
    for (int k = incidenceStart[v]; k < incidenceStart[v + 1]; k++) {
        int t = 3 * incidence[k];
        int a = 3 * triangles[t];
        int b = 3 * triangles[t + 1];
        int c = 3 * triangles[t + 2];
        precise float e1x = x[b] - x[a];
        precise float e1y = x[b + 1] - x[a + 1];
        precise float e1z = x[b + 2] - x[a + 2];
        precise float e2x = x[c] - x[a];
        precise float e2y = x[c + 1] - x[a + 1];
        precise float e2z = x[c + 2] - x[a + 2];
        precise float nx = e1y * e2z - e1z * e2y;
        precise float ny = e1z * e2x - e1x * e2z;
        precise float nz = e1x * e2y - e1y * e2x;
        precise float len2 = nx * nx + ny * ny + nz * nz;
        if (len2 < 1e-30) {
            continue; // a collapsed triangle has no direction to contribute
        }
        precise double root = sqrt(double(len2));
        precise float inv = float(1.0lf / root);
        precise float ux = nx * inv;
        precise float uy = ny * inv;
        precise float uz = nz * inv;
        sx = sx + ux;
        sy = sy + uy;
        sz = sz + uz;
    }
    precise float len2 = sx * sx + sy * sy + sz * sz;
    if (len2 > 1e-30) {
        precise double root = sqrt(double(len2));
        precise float inv = float(1.0lf / root);
        sx = sx * inv;
        sy = sy * inv;
        sz = sz * inv;
    }
    normals[3 * v] = sx;
    normals[3 * v + 1] = sy;
    normals[3 * v + 2] = sz;
}
