package dev.weft.core.solver.implicit;

/**
 * Baraff–Witkin's constraint filter S (seed 000 eq. 4.9), one 3 × 3 block per particle:
 * {@code S_i = I}, {@code I − p pᵀ} (moves in the plane ⊥ p), {@code I − p pᵀ − q qᵀ} (moves along the
 * line ⊥ p, q) or {@code 0} (fixed), with p, q orthonormal. Stored as the constrained direction count
 * and the directions; {@link #apply} is S times a vector.
 */
public final class ParticleFilter {
    public static final byte FREE = 0;
    public static final byte PLANE = 1;
    public static final byte LINE = 2;
    public static final byte FIXED = 3;

    private final byte[] constrained;
    private final double[] p;
    private final double[] q;

    public ParticleFilter(int particles) {
        constrained = new byte[particles];
        p = new double[3 * particles];
        q = new double[3 * particles];
    }

    public int particleCount() {
        return constrained.length;
    }

    /** Constrained directions of particle i: {@link #FREE}, {@link #PLANE}, {@link #LINE} or {@link #FIXED}. */
    public byte constrainedDirections(int i) {
        return constrained[i];
    }

    public void free(int i) {
        constrained[i] = FREE;
    }

    public void fix(int i) {
        constrained[i] = FIXED;
    }

    /** Particle i may move only in the plane with normal (nx, ny, nz) (normalised here). */
    public void constrainToPlane(int i, double nx, double ny, double nz) {
        double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(len > 0.0)) {
            throw new IllegalArgumentException("plane normal of particle " + i + " is zero");
        }
        constrained[i] = PLANE;
        p[3 * i] = nx / len;
        p[3 * i + 1] = ny / len;
        p[3 * i + 2] = nz / len;
    }

    /** Particle i may move only along direction (dx, dy, dz). */
    public void constrainToLine(int i, double dx, double dy, double dz) {
        double len = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (!(len > 0.0)) {
            throw new IllegalArgumentException("line direction of particle " + i + " is zero");
        }
        dx /= len;
        dy /= len;
        dz /= len;
        // p: unit vector ⊥ d, from the axis d is least aligned with; q = d × p.
        double ax = 0;
        double ay = 0;
        double az = 0;
        if (Math.abs(dx) <= Math.abs(dy) && Math.abs(dx) <= Math.abs(dz)) {
            ax = 1;
        } else if (Math.abs(dy) <= Math.abs(dz)) {
            ay = 1;
        } else {
            az = 1;
        }
        double px = dy * az - dz * ay;
        double py = dz * ax - dx * az;
        double pz = dx * ay - dy * ax;
        double pl = Math.sqrt(px * px + py * py + pz * pz);
        px /= pl;
        py /= pl;
        pz /= pl;
        constrained[i] = LINE;
        p[3 * i] = px;
        p[3 * i + 1] = py;
        p[3 * i + 2] = pz;
        q[3 * i] = dy * pz - dz * py;
        q[3 * i + 1] = dz * px - dx * pz;
        q[3 * i + 2] = dx * py - dy * px;
    }

    /** First constrained direction (PLANE and LINE). */
    public double px(int i) {
        return p[3 * i];
    }

    public double py(int i) {
        return p[3 * i + 1];
    }

    public double pz(int i) {
        return p[3 * i + 2];
    }

    /** S_i as a row-major 3 × 3 matrix into out[o .. o+8]. */
    public void matrix(int i, double[] out, int o) {
        for (int k = 0; k < 9; k++) {
            out[o + k] = k % 4 == 0 ? 1.0 : 0.0;
        }
        byte kind = constrained[i];
        if (kind == FREE) {
            return;
        }
        if (kind == FIXED) {
            java.util.Arrays.fill(out, o, o + 9, 0.0);
            return;
        }
        int i3 = 3 * i;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                double v = p[i3 + r] * p[i3 + c];
                if (kind == LINE) {
                    v += q[i3 + r] * q[i3 + c];
                }
                out[o + 3 * r + c] -= v;
            }
        }
    }

    /** v[3i..3i+2] ← S_i v[3i..3i+2]. */
    public void apply(double[] v, int i) {
        byte k = constrained[i];
        if (k == FREE) {
            return;
        }
        int i3 = 3 * i;
        if (k == FIXED) {
            v[i3] = 0.0;
            v[i3 + 1] = 0.0;
            v[i3 + 2] = 0.0;
            return;
        }
        double d = v[i3] * p[i3] + v[i3 + 1] * p[i3 + 1] + v[i3 + 2] * p[i3 + 2];
        v[i3] -= d * p[i3];
        v[i3 + 1] -= d * p[i3 + 1];
        v[i3 + 2] -= d * p[i3 + 2];
        if (k == LINE) {
            double e = v[i3] * q[i3] + v[i3 + 1] * q[i3 + 1] + v[i3 + 2] * q[i3 + 2];
            v[i3] -= e * q[i3];
            v[i3 + 1] -= e * q[i3 + 1];
            v[i3 + 2] -= e * q[i3 + 2];
        }
    }

    /**
     * x[3i..] ← base[3i..] + S_i (x − base)[3i..]: keeps only the free part of a displacement, so a
     * projection after the solve (tethers) cannot move a particle where its constraint forbids.
     */
    public void filterDisplacement(float[] x, float[] base, int i) {
        byte k = constrained[i];
        if (k == FREE) {
            return;
        }
        int i3 = 3 * i;
        if (k == FIXED) {
            x[i3] = base[i3];
            x[i3 + 1] = base[i3 + 1];
            x[i3 + 2] = base[i3 + 2];
            return;
        }
        double dx = x[i3] - base[i3];
        double dy = x[i3 + 1] - base[i3 + 1];
        double dz = x[i3 + 2] - base[i3 + 2];
        double d = dx * p[i3] + dy * p[i3 + 1] + dz * p[i3 + 2];
        dx -= d * p[i3];
        dy -= d * p[i3 + 1];
        dz -= d * p[i3 + 2];
        if (k == LINE) {
            double e = dx * q[i3] + dy * q[i3 + 1] + dz * q[i3 + 2];
            dx -= e * q[i3];
            dy -= e * q[i3 + 1];
            dz -= e * q[i3 + 2];
        }
        x[i3] = (float) (base[i3] + dx);
        x[i3 + 1] = (float) (base[i3 + 1] + dy);
        x[i3 + 2] = (float) (base[i3 + 2] + dz);
    }

    /** out[3i..] ← (I − S_i) in[3i..]: the constrained part of a vector. */
    public void applyComplement(double[] in, double[] out, int i) {
        int i3 = 3 * i;
        double x = in[i3];
        double y = in[i3 + 1];
        double z = in[i3 + 2];
        out[i3] = x;
        out[i3 + 1] = y;
        out[i3 + 2] = z;
        apply(out, i);
        out[i3] = x - out[i3];
        out[i3 + 1] = y - out[i3 + 1];
        out[i3 + 2] = z - out[i3 + 2];
    }
}
