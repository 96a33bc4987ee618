// Test only (OpenClColliderKernelTest): collide_all on n independent particles, each from prev to x, with no
// offset and full grip, as Collider.collide on plain particles of inverse mass 1.
__kernel void probe_collide(const int n, const int count, __global const int* types,
                            __global const float* colliders, __global const float* prev, __global float* x) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    float3 p = (float3) (x[i3], x[i3 + 1], x[i3 + 2]);
    float3 p0 = (float3) (prev[i3], prev[i3 + 1], prev[i3 + 2]);
    p = collide_all(count, types, colliders, p, p0, 0.0f, 1.0f, i, 1.0f);
    x[i3] = p.x;
    x[i3 + 1] = p.y;
    x[i3 + 2] = p.z;
}
