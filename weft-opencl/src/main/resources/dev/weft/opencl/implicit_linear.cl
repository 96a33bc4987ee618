// The linear solve of implicit.cl's system A dv = b under the filter S (FilteredSystem): the filtered PCG
// (FilteredPcg) and the filtered block Jacobi method (JacobiMethod), their dot products reduced in
// RowChunks' order (each row's term into a row array, 64-row chunk sums in row order, one work-item adding
// the chunks in order and running the convergence test). Every kernel of an iteration returns at once
// when the scalars say stop, so the host may enqueue several iterations between reads. Built after
// implicit.cl.

// ---- reductions (RowChunks) --------------------------------------------------------------------------

// Chunk c's sums of the rows' terms, in row order (RowChunks: each chunk's partial); both: also rowB
__kernel void chunk_sums(const int n, const int both, __global const real_t* rowA, __global const real_t* rowB,
                         __global real_t* partialA, __global real_t* partialB, __global const real_t* scalars,
                         const int guarded) {
    if (guarded && scalars[S_ACTIVE] == 0.0) {
        return;
    }
    int c = get_global_id(0);
    int begin = c * CHUNK;
    if (begin >= n) {
        return;
    }
    int end = min(begin + CHUNK, n);
    real_t sa = 0.0;
    for (int i = begin; i < end; i++) {
        sa += rowA[i];
    }
    partialA[c] = sa;
    if (both) {
        real_t sb = 0.0;
        for (int i = begin; i < end; i++) {
            sb += rowB[i];
        }
        partialB[c] = sb;
    }
}

// Chunk c's first row whose diagonal block is bad, or -1
__kernel void chunk_first_bad(const int n, __global const int* bad, __global int* partialBad) {
    int c = get_global_id(0);
    int begin = c * CHUNK;
    if (begin >= n) {
        return;
    }
    int end = min(begin + CHUNK, n);
    int first = -1;
    for (int i = begin; i < end && first < 0; i++) {
        if (bad[i] != 0) {
            first = i;
        }
    }
    partialBad[c] = first;
}

// RowChunks.sum
static real_t sum_chunks(__global const real_t* partial, int chunks) {
    real_t s = 0.0;
    for (int c = 0; c < chunks; c++) {
        s += partial[c];
    }
    return s;
}

// ---- the filtered PCG (FilteredPcg.solve) -------------------------------------------------------------

// init: rowA = |S_i b_i|^2; dv = (I - S) z
__kernel void pcg_init(const int n, __global const int* filterKind, __global const real_t* filterP,
                       __global const real_t* b, __global const real_t* z, __global real_t* dv,
                       __global real_t* rowA) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    int kind = filterKind[i];
    real_t s[3] = {b[i3], b[i3 + 1], b[i3 + 2]};
    filter_apply(kind, filterP, i3, s);
    rowA[i] = s[0] * s[0] + s[1] * s[1] + s[2] * s[2];
    // applyComplement: z - S z
    real_t t[3] = {z[i3], z[i3 + 1], z[i3 + 2]};
    filter_apply(kind, filterP, i3, t);
    dv[i3] = z[i3] - t[0];
    dv[i3 + 1] = z[i3 + 1] - t[1];
    dv[i3 + 2] = z[i3 + 2] - t[2];
}

// |S b|^2, the target, the first bad diagonal block (one work-item)
__kernel void pcg_start(const int chunks, __global const real_t* partialA, __global const int* partialBad,
                        const real_t tolerance, const int maxIterations, __global real_t* scalars) {
    real_t bNorm2 = sum_chunks(partialA, chunks);
    scalars[S_B_NORM2] = bNorm2;
    scalars[S_TARGET2] = tolerance * tolerance * bNorm2;
    scalars[S_MAX_ITERATIONS] = maxIterations;
    scalars[S_FAILURE] = 0.0;
    scalars[S_FAILURE_ROW] = -1.0;
    scalars[S_ITERATIONS] = 0.0;
    for (int c = 0; c < chunks; c++) {
        if (partialBad[c] >= 0) {
            scalars[S_FAILURE] = FAIL_BLOCK;
            scalars[S_FAILURE_ROW] = partialBad[c];
            break;
        }
    }
}

// r = S(b - A dv), c = S(P^-1 r); rowA: r.c, rowB: r.r
__kernel void pcg_residual(const int n, __global const int* rowStart, __global const int* col,
                           __global const float* a, __global const int* filterKind, __global const real_t* filterP,
                           __global const real_t* blockInverse, __global const real_t* b, __global const real_t* dv,
                           __global real_t* r, __global real_t* c, __global real_t* rowA, __global real_t* rowB) {
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    int kind = filterKind[i];
    real_t ri[3];
    multiply_row(rowStart, col, a, dv, i, ri);
    ri[0] = b[i3] - ri[0];
    ri[1] = b[i3 + 1] - ri[1];
    ri[2] = b[i3 + 2] - ri[2];
    filter_apply(kind, filterP, i3, ri);
    real_t ci[3];
    precondition(blockInverse, i, ri, ci);
    filter_apply(kind, filterP, i3, ci);
    r[i3] = ri[0];
    r[i3 + 1] = ri[1];
    r[i3 + 2] = ri[2];
    c[i3] = ci[0];
    c[i3 + 1] = ci[1];
    c[i3 + 2] = ci[2];
    rowA[i] = ri[0] * ci[0] + ri[1] * ci[1] + ri[2] * ci[2];
    rowB[i] = ri[0] * ri[0] + ri[1] * ri[1] + ri[2] * ri[2];
}

// delta and |r|^2; whether the loop starts (one work-item)
__kernel void pcg_residual_scalars(const int chunks, __global const real_t* partialA,
                                   __global const real_t* partialB, __global real_t* scalars) {
    real_t delta = sum_chunks(partialA, chunks);
    real_t rNorm2 = sum_chunks(partialB, chunks);
    scalars[S_DELTA] = delta;
    scalars[S_R_NORM2] = rNorm2;
    bool go = scalars[S_FAILURE] == 0.0 && scalars[S_B_NORM2] != 0.0 && 0.0 < scalars[S_MAX_ITERATIONS]
            && rNorm2 > scalars[S_TARGET2] && delta > 0.0;
    scalars[S_ACTIVE] = go ? 1.0 : 0.0;
}

// q = S(A c); rowA: c.q
__kernel void pcg_product(const int n, __global const int* rowStart, __global const int* col,
                          __global const float* a, __global const int* filterKind, __global const real_t* filterP,
                          __global const real_t* c, __global real_t* q, __global real_t* rowA,
                          __global const real_t* scalars) {
    if (scalars[S_ACTIVE] == 0.0) {
        return;
    }
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    real_t qi[3];
    multiply_row(rowStart, col, a, c, i, qi);
    filter_apply(filterKind[i], filterP, i3, qi);
    q[i3] = qi[0];
    q[i3 + 1] = qi[1];
    q[i3 + 2] = qi[2];
    rowA[i] = c[i3] * qi[0] + c[i3 + 1] * qi[1] + c[i3 + 2] * qi[2];
}

// alpha = delta / c.q, or the breakdown where c.q is not positive (one work-item)
__kernel void pcg_alpha(const int chunks, __global const real_t* partialA, __global real_t* scalars) {
    if (scalars[S_ACTIVE] == 0.0) {
        return;
    }
    real_t cq = sum_chunks(partialA, chunks);
    if (!(cq > 0.0)) {
        scalars[S_CQ] = cq;
        scalars[S_FAILURE] = FAIL_BREAKDOWN;
        scalars[S_ACTIVE] = 0.0;
        return;
    }
    scalars[S_ALPHA] = scalars[S_DELTA] / cq;
}

// dv += alpha c; r -= alpha q; s = P^-1 r; rowA: r.s, rowB: r.r
__kernel void pcg_update(const int n, __global const real_t* blockInverse, __global const real_t* c,
                         __global const real_t* q, __global real_t* dv, __global real_t* r, __global real_t* s,
                         __global real_t* rowA, __global real_t* rowB, __global const real_t* scalars) {
    if (scalars[S_ACTIVE] == 0.0) {
        return;
    }
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    real_t al = scalars[S_ALPHA];
    real_t ri[3];
    for (int k = 0; k < 3; k++) {
        dv[i3 + k] += al * c[i3 + k];
        ri[k] = r[i3 + k] - al * q[i3 + k];
        r[i3 + k] = ri[k];
    }
    real_t si[3];
    precondition(blockInverse, i, ri, si);
    s[i3] = si[0];
    s[i3 + 1] = si[1];
    s[i3 + 2] = si[2];
    rowA[i] = ri[0] * si[0] + ri[1] * si[1] + ri[2] * si[2];
    rowB[i] = ri[0] * ri[0] + ri[1] * ri[1] + ri[2] * ri[2];
}

// delta', |r|^2, beta, the iteration count and whether to go on (one work-item)
__kernel void pcg_beta(const int chunks, __global const real_t* partialA, __global const real_t* partialB,
                       __global real_t* scalars) {
    if (scalars[S_ACTIVE] == 0.0) {
        return;
    }
    real_t deltaNew = sum_chunks(partialA, chunks);
    real_t rNorm2 = sum_chunks(partialB, chunks);
    real_t iterations = scalars[S_ITERATIONS];
    if (!isfinite(deltaNew) || !isfinite(rNorm2)) {
        scalars[S_FAILURE] = FAIL_NONFINITE;
        scalars[S_ACTIVE] = 0.0;
        return;
    }
    scalars[S_BETA] = deltaNew / scalars[S_DELTA];
    scalars[S_DELTA] = deltaNew;
    scalars[S_R_NORM2] = rNorm2;
    iterations += 1.0;
    scalars[S_ITERATIONS] = iterations;
    bool go = iterations < scalars[S_MAX_ITERATIONS] && rNorm2 > scalars[S_TARGET2] && deltaNew > 0.0;
    scalars[S_ACTIVE] = go ? 1.0 : 0.0;
}

// c = S(s + beta c)
__kernel void pcg_direction(const int n, __global const int* filterKind, __global const real_t* filterP,
                            __global const real_t* s, __global real_t* c, __global const real_t* scalars) {
    if (scalars[S_ACTIVE] == 0.0) {
        return;
    }
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    real_t be = scalars[S_BETA];
    real_t ci[3];
    ci[0] = s[i3] + be * c[i3];
    ci[1] = s[i3 + 1] + be * c[i3 + 1];
    ci[2] = s[i3 + 2] + be * c[i3 + 2];
    filter_apply(filterKind[i], filterP, i3, ci);
    c[i3] = ci[0];
    c[i3 + 1] = ci[1];
    c[i3 + 2] = ci[2];
}

// ---- the filtered block Jacobi method (JacobiMethod.solve) ----------------------------------------------

// JacobiMethod.DIVERGENCE_FACTOR
#define DIVERGENCE_FACTOR 1e6
// S_FAILURE's value for a diverging Jacobi iteration, and the scalars only Jacobi uses
#define FAIL_DIVERGED 4
#define S_LIMIT2 12
#define S_WRITE_NEXT 13

// Row i's (S A_ii S + I - S)^-1 where a plane constrains it (JacobiMethod.reduceDiagonal)
__kernel void jacobi_reduce(const int n, __global const int* filterKind, __global const real_t* filterP,
                            __global const int* diagonal, __global const float* a,
                            __global real_t* reducedInverse) {
    int i = get_global_id(0);
    if (i >= n || filterKind[i] != FILTER_PLANE) {
        return;
    }
    int i3 = 3 * i;
    int d = 6 * diagonal[i];
    real_t t[36];
    for (int k = 0; k < 9; k++) { // S = I - p p^T (ParticleFilter.matrix)
        t[k] = k % 4 == 0 ? 1.0 : 0.0;
    }
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            real_t v = filterP[i3 + r] * filterP[i3 + c];
            t[3 * r + c] -= v;
        }
    }
    t[27] = a[d];
    t[28] = a[d + 1];
    t[29] = a[d + 2];
    t[30] = a[d + 1];
    t[31] = a[d + 3];
    t[32] = a[d + 4];
    t[33] = a[d + 2];
    t[34] = a[d + 4];
    t[35] = a[d + 5];
    for (int r = 0; r < 3; r++) { // A S
        for (int c = 0; c < 3; c++) {
            t[9 + 3 * r + c] = t[27 + 3 * r] * t[c] + t[28 + 3 * r] * t[3 + c] + t[29 + 3 * r] * t[6 + c];
        }
    }
    for (int r = 0; r < 3; r++) { // S A S + I - S
        for (int c = 0; c < 3; c++) {
            t[18 + 3 * r + c] = t[3 * r] * t[9 + c] + t[3 * r + 1] * t[12 + c] + t[3 * r + 2] * t[15 + c]
                    + (r == c ? 1.0 : 0.0) - t[3 * r + c];
        }
    }
    real_t c00 = t[22] * t[26] - t[23] * t[25];
    real_t c01 = t[23] * t[24] - t[21] * t[26];
    real_t c02 = t[21] * t[25] - t[22] * t[24];
    real_t det = t[18] * c00 + t[19] * c01 + t[20] * c02;
    real_t inv = 1.0 / det;
    int p = 9 * i;
    reducedInverse[p] = c00 * inv;
    reducedInverse[p + 1] = (t[20] * t[25] - t[19] * t[26]) * inv;
    reducedInverse[p + 2] = (t[19] * t[23] - t[20] * t[22]) * inv;
    reducedInverse[p + 3] = c01 * inv;
    reducedInverse[p + 4] = (t[18] * t[26] - t[20] * t[24]) * inv;
    reducedInverse[p + 5] = (t[20] * t[21] - t[18] * t[23]) * inv;
    reducedInverse[p + 6] = c02 * inv;
    reducedInverse[p + 7] = (t[19] * t[24] - t[18] * t[25]) * inv;
    reducedInverse[p + 8] = (t[18] * t[22] - t[19] * t[21]) * inv;
}

// |S b|^2, the target and the divergence limit, the first bad diagonal block; whether to sweep (one work-item)
__kernel void jacobi_start(const int chunks, __global const real_t* partialA, __global const int* partialBad,
                           const real_t tolerance, const int maxIterations, __global real_t* scalars) {
    real_t bNorm2 = sum_chunks(partialA, chunks);
    scalars[S_B_NORM2] = bNorm2;
    scalars[S_TARGET2] = tolerance * tolerance * bNorm2;
    scalars[S_LIMIT2] = DIVERGENCE_FACTOR * DIVERGENCE_FACTOR * bNorm2;
    scalars[S_MAX_ITERATIONS] = maxIterations;
    scalars[S_FAILURE] = 0.0;
    scalars[S_FAILURE_ROW] = -1.0;
    scalars[S_ITERATIONS] = 0.0;
    scalars[S_R_NORM2] = 0.0;
    scalars[S_WRITE_NEXT] = 0 < maxIterations ? 1.0 : 0.0;
    for (int c = 0; c < chunks; c++) {
        if (partialBad[c] >= 0) {
            scalars[S_FAILURE] = FAIL_BLOCK;
            scalars[S_FAILURE_ROW] = partialBad[c];
            break;
        }
    }
    scalars[S_ACTIVE] = scalars[S_FAILURE] == 0.0 && bNorm2 != 0.0 ? 1.0 : 0.0;
}

// One sweep (JacobiMethod.sweep): rowA = |S(b - A cur)_i|^2, the residual of cur; where writeNext, next_i =
// A_ii^-1 (b_i - sum_{j != i} A_ij cur_j) on a free row, z_i on a fixed one, the update within the plane on a
// plane-constrained one
__kernel void jacobi_sweep(const int n, __global const int* rowStart, __global const int* col,
                           __global const float* a, __global const int* diagonal, __global const int* filterKind,
                           __global const real_t* filterP, __global const real_t* blockInverse,
                           __global const real_t* reducedInverse, __global const real_t* b,
                           __global const real_t* z, __global const real_t* cur, __global real_t* next,
                           __global real_t* rowA, __global const real_t* scalars) {
    if (scalars[S_ACTIVE] == 0.0) {
        return;
    }
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int i3 = 3 * i;
    int kind = filterKind[i];
    real_t ac[3];
    multiply_row(rowStart, col, a, cur, i, ac);
    int d = 6 * diagonal[i];
    real_t xi = cur[i3];
    real_t yi = cur[i3 + 1];
    real_t zi = cur[i3 + 2];
    real_t dx = (real_t) a[d] * xi + (real_t) a[d + 1] * yi + (real_t) a[d + 2] * zi;
    real_t dy = (real_t) a[d + 1] * xi + (real_t) a[d + 3] * yi + (real_t) a[d + 4] * zi;
    real_t dz = (real_t) a[d + 2] * xi + (real_t) a[d + 4] * yi + (real_t) a[d + 5] * zi;
    real_t ux = b[i3] - ac[0] + dx;
    real_t uy = b[i3 + 1] - ac[1] + dy;
    real_t uz = b[i3 + 2] - ac[2] + dz;
    real_t res[3] = {ux - dx, uy - dy, uz - dz};
    filter_apply(kind, filterP, i3, res);
    rowA[i] = res[0] * res[0] + res[1] * res[1] + res[2] * res[2];
    if (scalars[S_WRITE_NEXT] == 0.0) {
        return;
    }
    if (kind == FILTER_FREE) {
        int p = 9 * i;
        next[i3] = blockInverse[p] * ux + blockInverse[p + 1] * uy + blockInverse[p + 2] * uz;
        next[i3 + 1] = blockInverse[p + 3] * ux + blockInverse[p + 4] * uy + blockInverse[p + 5] * uz;
        next[i3 + 2] = blockInverse[p + 6] * ux + blockInverse[p + 7] * uy + blockInverse[p + 8] * uz;
        return;
    }
    if (kind == FILTER_FIXED) {
        next[i3] = z[i3];
        next[i3 + 1] = z[i3 + 1];
        next[i3 + 2] = z[i3 + 2];
        return;
    }
    // (S A_ii S + I - S)^-1 S (u - A_ii (I - S) z) + (I - S) z
    real_t t[3] = {z[i3], z[i3 + 1], z[i3 + 2]};
    filter_apply(kind, filterP, i3, t);
    real_t cx = z[i3] - t[0];
    real_t cy = z[i3 + 1] - t[1];
    real_t cz = z[i3 + 2] - t[2];
    real_t w[3];
    w[0] = ux - ((real_t) a[d] * cx + (real_t) a[d + 1] * cy + (real_t) a[d + 2] * cz);
    w[1] = uy - ((real_t) a[d + 1] * cx + (real_t) a[d + 3] * cy + (real_t) a[d + 4] * cz);
    w[2] = uz - ((real_t) a[d + 2] * cx + (real_t) a[d + 4] * cy + (real_t) a[d + 5] * cz);
    filter_apply(kind, filterP, i3, w);
    int p = 9 * i;
    next[i3] = reducedInverse[p] * w[0] + reducedInverse[p + 1] * w[1] + reducedInverse[p + 2] * w[2] + cx;
    next[i3 + 1] = reducedInverse[p + 3] * w[0] + reducedInverse[p + 4] * w[1] + reducedInverse[p + 5] * w[2] + cy;
    next[i3 + 2] = reducedInverse[p + 6] * w[0] + reducedInverse[p + 7] * w[1] + reducedInverse[p + 8] * w[2] + cz;
}

// After a sweep (one work-item): the divergence test; stop where the residual is small enough or the
// iterations are spent, else count the iteration (cur and next swap: the host alternates two launches)
__kernel void jacobi_check(const int chunks, __global const real_t* partialA, __global real_t* scalars) {
    if (scalars[S_ACTIVE] == 0.0) {
        return;
    }
    real_t rNorm2 = sum_chunks(partialA, chunks);
    scalars[S_R_NORM2] = rNorm2;
    if (!(rNorm2 <= scalars[S_LIMIT2])) {
        scalars[S_FAILURE] = FAIL_DIVERGED;
        scalars[S_ACTIVE] = 0.0;
        return;
    }
    if (scalars[S_WRITE_NEXT] == 0.0 || rNorm2 <= scalars[S_TARGET2]) {
        scalars[S_ACTIVE] = 0.0;
        return;
    }
    real_t iterations = scalars[S_ITERATIONS] + 1.0;
    scalars[S_ITERATIONS] = iterations;
    scalars[S_WRITE_NEXT] = iterations < scalars[S_MAX_ITERATIONS] ? 1.0 : 0.0;
}
