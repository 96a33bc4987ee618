package dev.weft.core.step;

import dev.weft.core.model.Incidence;
import dev.weft.core.model.Model;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;

/**
 * Wind and air drag on cloth, per triangle (seed 000 §2.2.5: the force depends on the angle between
 * the air's velocity relative to the face and the face normal). With the face's velocity u (mean of
 * its corners), the wind w, v_r = u − w, unit normal n and area A:
 * <pre>
 *   F = −½ ρ A |v_r| ( C_p (v_r · n) n  +  C_f (v_r − (v_r · n) n) )
 * </pre>
 * The pressure term has magnitude ½ ρ C_p A |v_r|² |cos θ|: a face edge-on to the air gets none, a
 * face square to it the most; still air turns it into drag against the face's own motion. The
 * friction term acts in the face's plane. A third of F goes to each corner.
 *
 * <p>Two passes: per triangle into its own slot, then per particle over its triangles in a fixed
 * order, so the forces are the same bits on any number of threads. Solvers treat these forces as
 * explicit (evaluated at the start of the step; the implicit solver leaves them out of its
 * Jacobian): they are small beside the springs' and vary slowly.
 */
public final class AeroForces {
    private static final double THIRD = 1.0 / 3.0;

    private final Model model;
    private final int[] triangles;
    private final int[] incidenceStart;
    private final int[] incidenceTriangle;
    private final double[] triangleForce;
    private final double[] particleForce;

    private float[] x;
    private float[] v;
    private double wx;
    private double wy;
    private double wz;
    private double pressureScale;
    private double frictionScale;

    private final RangeBody triangleBody = this::triangles;
    private final RangeBody particleBody = this::particles;

    public AeroForces(Model model) {
        this.model = model;
        this.triangles = model.triangles();
        int n = model.particleCount();
        int t = triangles.length / 3;
        Incidence incidence = model.triangleIncidence();
        incidenceStart = incidence.start();
        incidenceTriangle = incidence.items();
        triangleForce = new double[3 * t];
        particleForce = new double[3 * n];
    }

    public Model model() {
        return model;
    }

    /** Computes every particle's aerodynamic force from positions and velocities; zero without air. */
    public void compute(WorkerPool pool, float[] positions, float[] velocities, Environment env) {
        if (!env.hasAir()) {
            java.util.Arrays.fill(particleForce, 0.0);
            return;
        }
        x = positions;
        v = velocities;
        wx = env.windX();
        wy = env.windY();
        wz = env.windZ();
        // ½ ρ C, and the area is ½ |cross|: ¼ ρ C |cross|
        pressureScale = 0.25 * env.airDensity() * env.pressureDrag();
        frictionScale = 0.25 * env.airDensity() * env.frictionDrag();
        pool.parallelFor(0, triangles.length / 3, triangleBody);
        pool.parallelFor(0, model.particleCount(), particleBody);
    }

    /** Force on particle i (N), x component; valid after {@link #compute}. */
    public double fx(int i) {
        return particleForce[3 * i];
    }

    public double fy(int i) {
        return particleForce[3 * i + 1];
    }

    public double fz(int i) {
        return particleForce[3 * i + 2];
    }

    /** Per-particle forces, xyz interleaved. Do not modify. */
    public double[] forces() {
        return particleForce;
    }

    private void triangles(int begin, int end) {
        for (int t = begin; t < end; t++) {
            int a = 3 * triangles[3 * t];
            int b = 3 * triangles[3 * t + 1];
            int c = 3 * triangles[3 * t + 2];
            double ux = (double) x[b] - x[a];
            double uy = (double) x[b + 1] - x[a + 1];
            double uz = (double) x[b + 2] - x[a + 2];
            double vx = (double) x[c] - x[a];
            double vy = (double) x[c + 1] - x[a + 1];
            double vz = (double) x[c + 2] - x[a + 2];
            double nx = uy * vz - uz * vy;
            double ny = uz * vx - ux * vz;
            double nz = ux * vy - uy * vx;
            double cross = Math.sqrt(nx * nx + ny * ny + nz * nz);
            int o = 3 * t;
            if (cross == 0.0) {
                triangleForce[o] = 0.0;
                triangleForce[o + 1] = 0.0;
                triangleForce[o + 2] = 0.0;
                continue;
            }
            // one division per triangle: divisions dominate this loop's cost
            double inv = 1.0 / cross;
            nx *= inv;
            ny *= inv;
            nz *= inv;
            double rx = (v[a] + v[b] + v[c]) * THIRD - wx;
            double ry = (v[a + 1] + v[b + 1] + v[c + 1]) * THIRD - wy;
            double rz = (v[a + 2] + v[b + 2] + v[c + 2]) * THIRD - wz;
            double speed = Math.sqrt(rx * rx + ry * ry + rz * rz);
            double rn = rx * nx + ry * ny + rz * nz;
            // a third to each corner
            double p = pressureScale * THIRD * cross * speed * rn;
            double f = frictionScale * THIRD * cross * speed;
            triangleForce[o] = -(p * nx + f * (rx - rn * nx));
            triangleForce[o + 1] = -(p * ny + f * (ry - rn * ny));
            triangleForce[o + 2] = -(p * nz + f * (rz - rn * nz));
        }
    }

    private void particles(int begin, int end) {
        for (int i = begin; i < end; i++) {
            double fx = 0.0;
            double fy = 0.0;
            double fz = 0.0;
            for (int k = incidenceStart[i]; k < incidenceStart[i + 1]; k++) {
                int o = 3 * incidenceTriangle[k];
                fx += triangleForce[o];
                fy += triangleForce[o + 1];
                fz += triangleForce[o + 2];
            }
            particleForce[3 * i] = fx;
            particleForce[3 * i + 1] = fy;
            particleForce[3 * i + 2] = fz;
        }
    }
}
