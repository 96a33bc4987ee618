package dev.weft.core.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.QuadLatticeSpec;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The {@code pbd} solver in its Jacobi mode with one pass ({@link Solvers#jacobiPbd}) is seed 001's position-based
 * dynamics with its Jacobi solver (algorithm 3, momentum-conserving weights).
 */
class PbdBaselineTest {
    @Test
    void pbdSweepsAreSeedAlgorithmThree() {
        ModelBuilder b = new ModelBuilder().tethers(false);
        ModelObject cloth = b.addQuadLattice(QuadLatticeSpec.of("cloth", 12, 9, 1f));
        b.pinCorners(cloth, "top-left");
        Model m = b.build();
        State s = State.atRest(m);
        float[] x = s.positions();
        Random random = new Random(1);
        for (int i = 3; i < x.length; i++) { // particle 0 is pinned
            x[i] += 0.03f * (float) random.nextGaussian();
        }
        double[] reference = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            reference[i] = x[i];
        }
        double before = ClothMetrics.residual(m, x);
        try (WorkerPool pool = new WorkerPool(2)) {
            XpbdSolver pbd = (XpbdSolver) Solvers.create("pbd", XpbdSettings.defaults()
                    .withMode(dev.weft.core.solver.xpbd.IterationMode.JACOBI).withStretchPasses(1), pool);
            for (int it = 0; it < 5; it++) {
                pbd.relax(m, s, 1f / 480f, 1, XpbdSolver.DISTANCES);
                algorithmThree(m, reference);
                // float against double arithmetic: 1e-6 m on displacements of centimetres
                for (int i = 0; i < x.length; i++) {
                    assertThat((double) x[i]).as("coordinate %d after %d sweeps", i, it + 1)
                            .isCloseTo(reference[i], within(1e-6));
                }
            }
        }
        assertThat(x[0]).isEqualTo(m.restPositions()[0]);
        assertThat(ClothMetrics.residual(m, x)).isLessThan(0.5 * before);
    }

    /**
     * Seed 001 algorithm 3, in double precision: for every constraint Δ = (|d| − L)·d̂ with d = q_b − q_a,
     * a moves by +Δ/2 and b by −Δ/2 (towards each other when stretched; the seed prints the opposite
     * signs, which would push a stretched pair apart), then each particle moves by the sum of its
     * deltas, each delta divided by max(n_a, n_b), the larger constraint count of its two particles. The
     * seed divides by the particle's own n_p; that breaks Newton's third law at the border (see
     * JacobiGather), so both ends of a constraint share one weight here. A pinned particle does not move.
     */
    private static void algorithmThree(Model m, double[] q) {
        int[] p = m.distances().particles();
        float[] rest = m.distances().restLength();
        double[] delta = new double[q.length];
        int[] count = new int[m.particleCount()];
        for (int c = 0; c < rest.length; c++) {
            count[p[2 * c]]++;
            count[p[2 * c + 1]]++;
        }
        for (int c = 0; c < rest.length; c++) {
            int a = p[2 * c];
            int bb = p[2 * c + 1];
            double dx = q[3 * bb] - q[3 * a];
            double dy = q[3 * bb + 1] - q[3 * a + 1];
            double dz = q[3 * bb + 2] - q[3 * a + 2];
            double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
            double s = (d - rest[c]) / d / Math.max(count[a], count[bb]);
            // equal masses, or one end pinned: the free end takes the whole correction
            double wa = m.invMass()[a];
            double wb = m.invMass()[bb];
            double fa = wa / (wa + wb);
            double fb = wb / (wa + wb);
            delta[3 * a] += fa * s * dx;
            delta[3 * a + 1] += fa * s * dy;
            delta[3 * a + 2] += fa * s * dz;
            delta[3 * bb] -= fb * s * dx;
            delta[3 * bb + 1] -= fb * s * dy;
            delta[3 * bb + 2] -= fb * s * dz;
        }
        for (int i = 0; i < count.length; i++) {
            if (m.isPinned(i)) {
                continue;
            }
            for (int k = 0; k < 3; k++) {
                q[3 * i + k] += delta[3 * i + k];
            }
        }
    }
}
