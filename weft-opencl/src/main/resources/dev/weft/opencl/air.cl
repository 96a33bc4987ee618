// Wind and air drag (AeroForces) in two passes, built after cpu_rounding.cl (DeviceAir): air_triangles,
// one work-item per triangle, writes the force on each of its corners into the triangle's own slot;
// air_particles, one work-item per particle, sums its triangles' slots in the model's triangle-incidence
// order. No atomics: the same bits for any work-group split. With WEFT_FP64 (accum_t double) these are
// AeroForces's double operations in its order, under cpu_rounding.cl's rules (no contraction; double
// division and square root are correctly rounded in OpenCL), so PoCL gives the CPU's bits; without fp64
// they are the same operations in float.
//
// The particle force is what the solver's prediction reads: with AIR_FLOAT_FORCES a float, rounded once
// from the sum as PositionStep's (float) airForce[i] does; else accum_t, as ImplicitSolver adds it to F.

#ifdef AIR_FLOAT_FORCES
typedef float air_force_t;
#else
typedef accum_t air_force_t;
#endif

// F = -1/2 rho A |v_r| (C_p (v_r . n) n + C_f (v_r - (v_r . n) n)), a third to each corner; the scales are
// the host's 1/4 rho C (A = |cross| / 2), the wind the environment's (floats widened on the host)
__kernel void air_triangles(const int count, __global const int* triangles, __global const float* x,
                            __global const float* v, const accum_t wx, const accum_t wy, const accum_t wz,
                            const accum_t pressureScale, const accum_t frictionScale,
                            __global accum_t* triangleForce) {
    int t = get_global_id(0);
    if (t >= count) {
        return;
    }
    const accum_t third = 1.0 / 3.0;
    int a = 3 * triangles[3 * t];
    int b = 3 * triangles[3 * t + 1];
    int c = 3 * triangles[3 * t + 2];
    accum_t ux = (accum_t) x[b] - (accum_t) x[a];
    accum_t uy = (accum_t) x[b + 1] - (accum_t) x[a + 1];
    accum_t uz = (accum_t) x[b + 2] - (accum_t) x[a + 2];
    accum_t vx = (accum_t) x[c] - (accum_t) x[a];
    accum_t vy = (accum_t) x[c + 1] - (accum_t) x[a + 1];
    accum_t vz = (accum_t) x[c + 2] - (accum_t) x[a + 2];
    accum_t nx = uy * vz - uz * vy;
    accum_t ny = uz * vx - ux * vz;
    accum_t nz = ux * vy - uy * vx;
    accum_t cross = sqrt(nx * nx + ny * ny + nz * nz);
    int o = 3 * t;
    if (cross == 0.0) {
        triangleForce[o] = 0.0;
        triangleForce[o + 1] = 0.0;
        triangleForce[o + 2] = 0.0;
        return;
    }
    accum_t inv = 1.0 / cross;
    nx *= inv;
    ny *= inv;
    nz *= inv;
    // the corners' velocities summed in float (Java's float + float), then widened
    accum_t rx = (accum_t) (v[a] + v[b] + v[c]) * third - wx;
    accum_t ry = (accum_t) (v[a + 1] + v[b + 1] + v[c + 1]) * third - wy;
    accum_t rz = (accum_t) (v[a + 2] + v[b + 2] + v[c + 2]) * third - wz;
    accum_t speed = sqrt(rx * rx + ry * ry + rz * rz);
    accum_t rn = rx * nx + ry * ny + rz * nz;
    accum_t p = pressureScale * third * cross * speed * rn;
    accum_t f = frictionScale * third * cross * speed;
    triangleForce[o] = -(p * nx + f * (rx - rn * nx));
    triangleForce[o + 1] = -(p * ny + f * (ry - rn * ny));
    triangleForce[o + 2] = -(p * nz + f * (rz - rn * nz));
}

// Particle i's force: its triangles' slots summed in the incidence's order, from zero
__kernel void air_particles(const int n, __global const int* incidenceStart, __global const int* incidenceTriangle,
                            __global const accum_t* triangleForce, __global air_force_t* force) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    accum_t fx = 0.0;
    accum_t fy = 0.0;
    accum_t fz = 0.0;
    for (int k = incidenceStart[i]; k < incidenceStart[i + 1]; k++) {
        int o = 3 * incidenceTriangle[k];
        fx += triangleForce[o];
        fy += triangleForce[o + 1];
        fz += triangleForce[o + 2];
    }
    force[3 * i] = (air_force_t) fx;
    force[3 * i + 1] = (air_force_t) fy;
    force[3 * i + 2] = (air_force_t) fz;
}
