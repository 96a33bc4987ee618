// Projective Dynamics (PdSolver's general slot-list path) on distance constraints (and, with pd_tets.cl's
// local step, elastic tetrahedra's rows): one step is
// pd_predict (one work-item per particle), per local/global alternation pd_project (one work-item per
// spring: its projection, written into its two particles' slots) and the inner solver's sweeps, and
// pd_finish (per particle: settle, colliders, velocity).
//
// The global step gathers, never scatters: a work-item updates one particle from its own slots (the
// incidence in CSR form, slots in the model's distance-incidence order, PdSolver.buildSlots) and its
// neighbours' corrections, in the CPU's summation order. Red-black / colored Gauss-Seidel launches one
// color at a time (a color's particles share no spring, so a work-item reads no value another one of
// the launch writes); Jacobi writes the next iterate into a buffer of its own and then moves it over.
// No atomics anywhere, so the result does not depend on the work-group split or the run.
//
// Positions are StepPositions' y (prediction) + d (corrections); the float operations are PdSolver's,
// PositionStep's, StepPositions' and CorrectedVelocity's in the same order, under cpu_rounding.cl's rules.

// PositionStep.predict with Damping.DRAG (keep 1, the body's damping rate as the drag c) and
// StepPositions.predict: v' = 1 v + h (g - c v + F_air / m), y = x + h v', d = 0 (air: DeviceAir's float
// forces, or null in still air); a pinned particle gets v = 0 and y = x + 0 as the CPU rounds it
__kernel void pd_predict(const int n, __global const float* invMass, __global const float* drag, const float h,
                         const float gx, const float gy, const float gz, __global const float* x,
                         __global float* v, __global float* y, __global float* d, __global const float* air) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    if (position_step_predict_pinned(i, invMass, x, v, y, d)) {
        return;
    }
    int i3 = 3 * i;
    float c = drag[i];
    float ax = gx - c * v[i3];
    float ay = gy - c * v[i3 + 1];
    float az = gz - c * v[i3 + 2];
    if (air) {
        position_step_add_air(i, invMass, air, &ax, &ay, &az);
    }
    // keep 1 written out: 1 v is what the CPU computes
    float vx = 1.0f * v[i3] + h * ax;
    float vy = 1.0f * v[i3 + 1] + h * ay;
    float vz = 1.0f * v[i3 + 2] + h * az;
    v[i3] = vx;
    v[i3 + 1] = vy;
    v[i3 + 2] = vz;
    y[i3] = x[i3] + h * vx;
    y[i3 + 1] = x[i3 + 1] + h * vy;
    y[i3 + 2] = x[i3 + 2] + h * vz;
}

// PdSolver.projectSprings for spring e: p_ab = L (q_a - q_b) / |q_a - q_b| (nothing for coincident ends),
// and into a's slot k ((y_b - y_a) + p_ab), into b's its negative. Slots hold 4 floats; the fourth, k,
// was uploaded with the model and is not written here. Each slot belongs to one spring: no two
// work-items write the same place.
__kernel void pd_project(const int count, __global const int* pairs, __global const float* rest,
                         __global const float* springK, __global const int* slotA, __global const int* slotB,
                         __global const float* y, __global const float* d, __global float* projection) {
    int e = get_global_id(0);
    if (e >= count) {
        return;
    }
    int a = 3 * pairs[2 * e];
    int b = 3 * pairs[2 * e + 1];
    float dx = (y[a] - y[b]) + (d[a] - d[b]);
    float dy = (y[a + 1] - y[b + 1]) + (d[a + 1] - d[b + 1]);
    float dz = (y[a + 2] - y[b + 2]) + (d[a + 2] - d[b + 2]);
    float d2 = dx * dx + dy * dy + dz * dz;
    float s = d2 > 1e-24f ? rest[e] / sqrt(d2) : 0.0f;
    float ke = springK[e];
    float qx = ke * ((y[b] - y[a]) + dx * s);
    float qy = ke * ((y[b + 1] - y[a + 1]) + dy * s);
    float qz = ke * ((y[b + 2] - y[a + 2]) + dz * s);
    int sa = slotA[e];
    projection[sa] = qx;
    projection[sa + 1] = qy;
    projection[sa + 2] = qz;
    int sb = slotB[e];
    projection[sb] = -qx;
    projection[sb + 1] = -qy;
    projection[sb + 2] = -qz;
}

// PdSolver.relaxRange for particle p = order[i], i the work-item's global id (a color launch's offset is
// the color's first place in the order): d_p + w_p/a_p (sum_s (proj_s + k_s d_c) - a_p d_p), a_p = m_p/h^2
// + sum k, written into out (d itself for Gauss-Seidel, the next iterate for Jacobi). A pinned particle
// (1/a_p = 0) copies its correction. A particle of elastic tetrahedra (a non-empty row in tetRowStart) adds
// their corners' right-hand side (pd_tets_gather's tetRhs) and its row's sum_c W_pc d_c, as the CPU does after
// the springs; a model without tetrahedra has empty rows.
__kernel void pd_relax(__global const int* order, __global const int* slotStart,
                       __global const int* slotNeighbour, __global const float* projection,
                       __global const float* invDiagonal, __global const float* massOverH2,
                       __global const float* omegaOf, __global const float* springWeight,
                       __global const int* tetRowStart, __global const int* tetRowNeighbour,
                       __global const float* tetRowWeight, __global const float* tetRhs,
                       __global const float* d, __global float* out) {
    int p = order[get_global_id(0)];
    int p3 = 3 * p;
    float ip = invDiagonal[p];
    float dx = d[p3];
    float dy = d[p3 + 1];
    float dz = d[p3 + 2];
    if (ip == 0.0f) {
        out[p3] = dx;
        out[p3 + 1] = dy;
        out[p3 + 2] = dz;
        return;
    }
    float sx = 0.0f;
    float sy = 0.0f;
    float sz = 0.0f;
    for (int s = slotStart[p], e = slotStart[p + 1]; s < e; s++) {
        int c3 = 3 * slotNeighbour[s];
        int s4 = 4 * s;
        float ks = projection[s4 + 3];
        sx += projection[s4] + ks * d[c3];
        sy += projection[s4 + 1] + ks * d[c3 + 1];
        sz += projection[s4 + 2] + ks * d[c3 + 2];
    }
    int t0 = tetRowStart[p];
    int t1 = tetRowStart[p + 1];
    if (t0 < t1) {
        sx += tetRhs[p3];
        sy += tetRhs[p3 + 1];
        sz += tetRhs[p3 + 2];
        for (int s = t0; s < t1; s++) {
            int c3 = 3 * tetRowNeighbour[s];
            float ws = tetRowWeight[s];
            sx += ws * d[c3];
            sy += ws * d[c3 + 1];
            sz += ws * d[c3 + 2];
        }
    }
    float a = massOverH2[p] + springWeight[p];
    float sw = omegaOf[p] * ip;
    out[p3] = dx + sw * (sx - a * dx);
    out[p3 + 1] = dy + sw * (sy - a * dy);
    out[p3 + 2] = dz + sw * (sz - a * dz);
}

// PdSolver.jacobiApply with Chebyshev acceleration for one coordinate k < 3n: the Jacobi value next,
// extrapolated by the weight wc from the previous iterate (older; the current one at the step's first
// sweep), and the current iterate kept as the next sweep's previous one. (Without Chebyshev the host
// copies next into d.)
__kernel void pd_chebyshev(const int length, const float wc, const int first, __global const float* next,
                           __global float* older, __global float* d) {
    int k = get_global_id(0);
    if (k >= length) {
        return;
    }
    float x = d[k];
    float previous = first ? x : older[k];
    float q = wc == 1.0f ? next[k] : wc * (next[k] - previous) + previous;
    older[k] = x;
    d[k] = q;
}

// PositionStep.finish per particle (position_step.cl), CorrectedVelocity without damping (Damping.DRAG
// damped in the prediction: the factor 1 the CPU multiplies by)
__kernel void pd_finish(const int n, __global const float* invMass, __global const float* grip,
                        __global const float* offset, const int colliderCount, __global const int* colliderType,
                        __global const float* colliders, const float invH, __global float* x, __global float* v,
                        __global const float* y, __global const float* d) {
    int i = get_global_id(0);
    if (i < n) {
        position_step_finish(i, invMass, grip, offset, colliderCount, colliderType, colliders, invH, 1.0f, x, v, y, d);
    }
}

// ---- seed 001's 4-neighbour lattice: PdSolver's LatticeRedBlack kernels ------------------------------
// Where PdSolver takes them (rbgs, one k, springs exactly one row-major lattice), the device does too, in
// their float operations and order: the projections of a particle's right and lower spring sit at its own
// index, a particle's neighbours are p +- 1 and p +- columns.

// LatticeRedBlack.projectOne: out[a] = L (q_a - q_b) / |q_a - q_b| (0 for coincident ends)
inline void lattice_project_one(__global const float* y, __global const float* d, int a, int b, float length,
                                __global float* out) {
    float dx = (y[a] - y[b]) + (d[a] - d[b]);
    float dy = (y[a + 1] - y[b + 1]) + (d[a + 1] - d[b + 1]);
    float dz = (y[a + 2] - y[b + 2]) + (d[a + 2] - d[b + 2]);
    float d2 = dx * dx + dy * dy + dz * dz;
    float s = d2 > 1e-24f ? length / sqrt(d2) : 0.0f;
    out[a] = dx * s;
    out[a + 1] = dy * s;
    out[a + 2] = dz * s;
}

// LatticeRedBlack.project for particle p (one work-item per particle): its right and lower springs
__kernel void pd_lattice_project(const int n, const int columns, __global const float* restRight,
                                 __global const float* restDown, __global const float* y, __global const float* d,
                                 __global float* projRight, __global float* projDown) {
    int p = get_global_id(0);
    if (p >= n) {
        return;
    }
    int p3 = 3 * p;
    if (restRight[p] > 0.0f) {
        lattice_project_one(y, d, p3, p3 + 3, restRight[p], projRight);
    }
    if (restDown[p] > 0.0f) {
        lattice_project_one(y, d, p3, p3 + 3 * columns, restDown[p], projDown);
    }
}

// LatticeRedBlack.sweep for one particle of color (row + column) % 2 == color: work-item i is the
// (i % perRow)-th such particle of row i / perRow, perRow = (columns + 1) / 2. SOR with omega on the
// correction d; pinned particles (1/a_p = 0) keep their position.
__kernel void pd_lattice_sweep(const int rows, const int columns, const int color, const float k,
                               const float omega, __global const float* massOverH2,
                               __global const float* invDiagonal, __global const float* projRight,
                               __global const float* projDown, __global const float* y, __global float* d) {
    int perRow = (columns + 1) / 2;
    int i = get_global_id(0);
    int r = i / perRow;
    if (r >= rows) {
        return;
    }
    int col = 2 * (i % perRow) + ((r + color) & 1);
    if (col >= columns) {
        return;
    }
    int c3 = 3 * columns;
    int p = r * columns + col;
    float ip = invDiagonal[p];
    if (ip == 0.0f) {
        return;
    }
    int p3 = 3 * p;
    float yx = y[p3];
    float yy = y[p3 + 1];
    float yz = y[p3 + 2];
    float dx = d[p3];
    float dy = d[p3 + 1];
    float dz = d[p3 + 2];
    float sx = 0.0f;
    float sy = 0.0f;
    float sz = 0.0f;
    if (col > 0) { // left neighbour: q_p ~ q_left - p_(left->p)
        int o = p3 - 3;
        sx += ((y[o] - yx) + (d[o] - dx)) - projRight[o];
        sy += ((y[o + 1] - yy) + (d[o + 1] - dy)) - projRight[o + 1];
        sz += ((y[o + 2] - yz) + (d[o + 2] - dz)) - projRight[o + 2];
    }
    if (col < columns - 1) { // right neighbour: q_p ~ q_right + p_(p->right)
        int o = p3 + 3;
        sx += ((y[o] - yx) + (d[o] - dx)) + projRight[p3];
        sy += ((y[o + 1] - yy) + (d[o + 1] - dy)) + projRight[p3 + 1];
        sz += ((y[o + 2] - yz) + (d[o + 2] - dz)) + projRight[p3 + 2];
    }
    if (r > 0) {
        int o = p3 - c3;
        sx += ((y[o] - yx) + (d[o] - dx)) - projDown[o];
        sy += ((y[o + 1] - yy) + (d[o + 1] - dy)) - projDown[o + 1];
        sz += ((y[o + 2] - yz) + (d[o + 2] - dz)) - projDown[o + 2];
    }
    if (r < rows - 1) {
        int o = p3 + c3;
        sx += ((y[o] - yx) + (d[o] - dx)) + projDown[p3];
        sy += ((y[o + 1] - yy) + (d[o + 1] - dy)) + projDown[p3 + 1];
        sz += ((y[o + 2] - yz) + (d[o + 2] - dz)) + projDown[p3 + 2];
    }
    float mh = massOverH2[p];
    float sw = omega * ip;
    d[p3] = dx + sw * (k * sx - mh * dx);
    d[p3 + 1] = dy + sw * (k * sy - mh * dy);
    d[p3 + 2] = dz + sw * (k * sz - mh * dz);
}

// PdSolver.projectTethers: the model's tethers on y + d after each local/global alternation of a step, one
// launch per tether color (tethers.cl)
__kernel void pd_tethers(__global const int* pairs, __global const float* maxLength, __global const float* y,
                         __global float* d) {
    tether_project(get_global_id(0), pairs, maxLength, y, d);
}
