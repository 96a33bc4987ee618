package dev.weft.core.solver.massspring;

import dev.weft.core.solver.ElasticTetForces;
import dev.weft.core.springs.SpringSet;

/**
 * The longest step explicit (Verlet / symplectic Euler) integration of a spring set keeps stable.
 *
 * <p>Linearised, a spring cloth is {@code M ẍ = −K x − D ẋ}. Symplectic Euler on one mode
 * {@code ẍ = −λ x − μ ẋ} stays bounded while {@code h²λ + 2hμ < 4} (the undamped limit is seed 004's
 * h·ω &lt; 2). λ and μ are bounded by Gershgorin's theorem on {@code M^(−1/2) K M^(−1/2)}: a spring s
 * between particles i and j has 3 × 3 blocks of norm at most k_s (its direction's k_s n nᵀ, and the
 * transverse k_s(1 − L/l)(I − n nᵀ) of a stretched spring, at most k_s beside it), so row i is bounded
 * by {@code Σ_s k_s (w_i + √(w_i w_j))} with w the inverse masses (a pinned j adds only the diagonal
 * part). The same sum with k_d bounds μ. The step is that bound times {@link #SAFETY}; it is an upper
 * bound of the spectrum, so the real limit is a little longer. Elastic tetrahedra add their blocks' bounds to
 * the same rows ({@link ElasticTetForces#addStiffnessBounds}).
 */
public final class StableStep {
    /** Margin under the linear bound: large rotations and the air add a little. */
    public static final double SAFETY = 0.9;

    private StableStep() {
    }

    /** The longest stable step for {@code springs} on particles with inverse masses {@code w}; infinite without springs. */
    public static double of(SpringSet springs, float[] w) {
        return of(springs, null, w);
    }

    /** The longest stable step for {@code springs} and the elastic tetrahedra {@code tets} (null: none). */
    public static double of(SpringSet springs, ElasticTetForces tets, float[] w) {
        int n = w.length;
        double[] lambda = new double[n];
        double[] mu = new double[n];
        int[] pairs = springs.pairs();
        float[] ks = springs.stiffness();
        float[] kd = springs.damping();
        for (int s = 0; s < springs.count(); s++) {
            int i = pairs[2 * s];
            int j = pairs[2 * s + 1];
            double cross = Math.sqrt((double) w[i] * w[j]);
            lambda[i] += ks[s] * (w[i] + cross);
            lambda[j] += ks[s] * (w[j] + cross);
            mu[i] += kd[s] * (w[i] + cross);
            mu[j] += kd[s] * (w[j] + cross);
        }
        if (tets != null) {
            tets.addStiffnessBounds(w, lambda, mu);
        }
        double maxLambda = 0.0;
        double maxMu = 0.0;
        for (int i = 0; i < n; i++) {
            maxLambda = Math.max(maxLambda, lambda[i]);
            maxMu = Math.max(maxMu, mu[i]);
        }
        if (maxLambda == 0.0 && maxMu == 0.0) {
            return Double.POSITIVE_INFINITY;
        }
        // the positive root of h²λ + 2hμ = 4
        double h = maxLambda > 0.0
                ? (Math.sqrt(maxMu * maxMu + 4.0 * maxLambda) - maxMu) / maxLambda
                : 2.0 / maxMu;
        return SAFETY * h;
    }

    /** How many equal steps {@code dt} needs so that none is longer than {@code stable}. */
    public static int count(double dt, double stable) {
        if (!(stable < Double.POSITIVE_INFINITY)) {
            return 1;
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1L, (long) Math.ceil(dt / stable - 1e-9)));
    }
}
