// TetherProjection.projectRange for tether c (the position-based solvers' tethers, on positions y + d), in
// the CPU's float operations and order: a free particle further than its rest geodesic distance from its
// pinned anchor is put back onto that sphere; only d of the particle is written. A color's tethers share no
// particle, so one launch per color writes what its work-items own.
static void tether_project(int c, __global const int* pairs, __global const float* maxLength,
                           __global const float* y, __global float* d) {
    int p = 3 * pairs[2 * c];
    int a = 3 * pairs[2 * c + 1];
    float dx = (y[p] - y[a]) + (d[p] - d[a]);
    float dy = (y[p + 1] - y[a + 1]) + (d[p + 1] - d[a + 1]);
    float dz = (y[p + 2] - y[a + 2]) + (d[p + 2] - d[a + 2]);
    float d2 = dx * dx + dy * dy + dz * dz;
    float m = maxLength[c];
    if (d2 > m * m) {
        float s = m / sqrt(d2) - 1.0f;
        d[p] += dx * s;
        d[p + 1] += dy * s;
        d[p + 2] += dz * s;
    }
}
