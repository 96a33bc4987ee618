package dev.weft.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Collider;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.BuiltInScenes;
import dev.weft.core.scene.Scene;
import dev.weft.core.solver.Solvers;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Long runs of the default scene ({@code drape}: a 64 × 64 cloth, 0.2 kg, pinned at two corners 1 m
 * up, falls onto a sphere and drapes towards the floor) under the solvers at their default settings
 * 16 substeps per 60 Hz frame: XPBD for 10⁵ substeps (104 s), pd, pbd and relaxation for 20 s; the
 * implicit solver for 20 s and mass-spring for 14 s with the scene's own steps for them
 * ({@link Scene#solver}, {@link Scene#substeps(String)}: implicit 8 substeps, mass-spring 16, each split
 * into the springs' stable Verlet steps, 26 here). (Before issue #12's stiffer spring material the
 * implicit solver ran here at 2 substeps; with 2000 N/m springs 30 CG iterations no longer converge at
 * h = 1/120 s and the cloth jitters at 3e-5 to 1e-4 J for ever.)
 * Runs of 25 s found every largest energy rise and kinetic energy after settling before 17 s (all
 * but relaxation's, 1e-8 J and 5e-11 J, within 1.1 s of settling), so 20 s loses nothing measured
 * and keeps the group near 6 minutes on 2 cores with mass-spring in it; XPBD's run covers the long
 * horizon. Tagged {@code slow}: {@code mvn verify -Pslow} ({@code ./scripts/test.sh} runs them).
 * Measured values are in the comments (after issue #12's fixes: PD's correction form, Jacobi
 * weights, symmetric Gauss-Seidel, corrected velocity, corrections kept apart from positions).
 *
 * <p>The cloth starts at rest in its rest shape, so its energy is all gravitational, E₀; damping,
 * friction and contacts can only take energy out and the elastic energy is never negative, so
 * kinetic + gravitational energy must never exceed E₀. Every frame: no NaN, no energy above E₀, no
 * particle farther from the pins than the stretched cloth reaches, none inside a collider. After it
 * has settled (10 s): no energy creeping back and no kinetic energy coming back.
 */
@Tag("slow")
class SoakTest {
    private static final float FRAME = 1f / 60f;
    /**
     * Above E₀: float32 positions near 1 m round by 6e-8 m, times the cloth's weight (2 N), ~1e-7 J;
     * this allows 100 times that. Measured: the energy is 1.9e-4 J (pd) to 1.3e-3 J (implicit) below
     * E₀ from the first frame on and never comes back (xpbd, pbd 2.0e-4, relaxation 4.0e-4,
     * mass-spring 1.0e-3).
     */
    private static final double ABOVE_E0_J = 2e-5;
    /**
     * Rise of kinetic + gravitational energy after settling: 1e-3 J is the 0.2 kg cloth's centre of mass
     * rising 0.5 mm. Some rise is honest: XPBD's one iteration per substep keeps relaxing the sag's
     * stretch for a long time, and elastic energy turns into height (measured at most +1.5e-4 J from
     * 10 s to 104 s; implicit +2.5e-5 J and pd +1.6e-6 J from 10 s to 25 s, both within 1.1 s of
     * 10 s; relaxation +1.2e-8 J; pbd and mass-spring never rise). A contact that pumps energy, a pin
     * that drifts or a cloth that starts to flap would exceed it.
     */
    private static final double CREEP_J = 1e-3;
    /**
     * After settling: 1e-4 J is an rms speed of 3 cm/s over the cloth (measured at most 2.1e-5 J,
     * implicit, right after 16 s; the others below 1.5e-6 J).
     */
    private static final double SETTLED_KINETIC_J = 1e-4;

    /**
     * @param settledFrame the frame by which the drape has settled: 10 s; 16 s for the implicit solver,
     *                     whose stiffer cloth (2000 N/m since issue #12) keeps swinging slowly over the
     *                     sphere (measured 3e-3 J at 6 s, 1.5e-4 J at 10 s, 6e-5 J at 15 s). (Before Verlet damping was
     *                     defined per time, mass-spring's k = 0.99 per step was a drag of 96 s⁻¹ at 160
     *                     substeps: the cloth oozed down at 10 cm/s and needed 12 s.)
     * @param maxReach     bound on a particle's distance from its nearest pin over its rest distance:
     *                     the solver's sag under gravity plus margin (measured: xpbd and pbd 1.0006, pd
     *                     1.041 with its default 1000 N/m springs, relaxation 1.013, implicit 1.037,
     *                     mass-spring 1.030 at frame 29, the whip of the free edge, falling freely now
     *                     that its damping is per time (1.012 under the old per-step damping))
     * @param minClearance bound on how far a particle may end inside a collider's thickness shell:
     *                     the position-based solvers and mass-spring project onto the colliders last,
     *                     so only float rounding (measured -6e-8 m); the implicit solver constrains
     *                     velocities through its filter and then projects, and ends particles up to
     *                     0.8 mm inside the 5 mm shell at 2 substeps (measured -7.7e-4 m, before the
     *                     issue #12 fixes -1.94e-3 m): never past half of it
     * @param substeps     substeps per frame; 0 for the scene's own for the solver
     */
    @ParameterizedTest(name = "{0}: {2} frames of {1} substeps")
    @CsvSource({
        "xpbd,         16, 6250, 600, 1.01, -1e-5",
        "pd,           16, 1200, 600, 1.06, -1e-5",
        "pbd,          16, 1200, 600, 1.01, -1e-5",
        "relaxation,   16, 1200, 600, 1.03, -1e-5",
        "implicit,      0, 1200, 960, 1.06, -2.5e-3",
        "mass-spring,   0, 840, 600, 1.05, -1e-5",
    })
    void theDefaultSceneRunsLongWithoutNanEscapeOrEnergyGain(String solver, int substeps, int frames,
                                                             int settledFrame, double maxReach,
                                                             float minClearance) {
        Scene s = BuiltInScenes.drape();
        Model m = s.model();
        int n = m.particleCount();
        float[] g = s.environment().gravity();
        float[] rest = m.restPositions();
        int[] pins = pinned(m);
        double e0 = ClothMetrics.gravitationalEnergy(m, rest, g); // at rest: no kinetic energy
        double settled = Double.NaN;
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(m, State.atRest(m),
                     substeps == 0 ? s.solver(solver, pool) : Solvers.create(solver, s.xpbd(), pool),
                     s.environment(), substeps == 0 ? s.substeps(solver) : substeps)) {
            for (int f = 1; f <= frames; f++) {
                sim.advance(FRAME);
                float[] x = sim.state().positions();
                assertThat(ClothMetrics.firstNonFinite(x)).as("%s: first non-finite particle at frame %d", solver, f)
                        .isEqualTo(-1);
                double kinetic = ClothMetrics.kineticEnergy(m, sim.state().velocities());
                double e = kinetic + ClothMetrics.gravitationalEnergy(m, x, g);
                assertThat(e).as("%s: kinetic + gravitational energy at frame %d, E0 = %.6f J", solver, f, e0)
                        .isLessThanOrEqualTo(e0 + ABOVE_E0_J);
                if (f == settledFrame) {
                    settled = e;
                    // it did fall and drape: on average more than 40 cm down (measured 0.91 to 0.94 J lost)
                    assertThat(settled).as("%s: energy at frame %d", solver, f).isLessThan(0.6 * e0);
                } else if (f > settledFrame) {
                    assertThat(e).as("%s: energy at frame %d over its value at frame %d, %.6f J", solver, f,
                                    settledFrame, settled)
                            .isLessThanOrEqualTo(settled + CREEP_J);
                    assertThat(kinetic).as("%s: kinetic energy at frame %d", solver, f)
                            .isLessThanOrEqualTo(SETTLED_KINETIC_J);
                }
                for (int i = 0; i < n; i++) {
                    double r = reach(x, rest, pins, i);
                    if (r > maxReach) {
                        assertThat(r).as("%s: particle %d's reach from the pins at frame %d", solver, i, f)
                                .isLessThanOrEqualTo(maxReach);
                    }
                }
                for (Collider c : s.environment().colliders()) {
                    for (int i = 0; i < n; i++) {
                        float d = c.signedDistance(x[3 * i], x[3 * i + 1], x[3 * i + 2]) - c.thickness();
                        if (d < minClearance) {
                            assertThat(d).as("%s: particle %d's clearance from %s at frame %d", solver, i, c.name(), f)
                                    .isGreaterThanOrEqualTo(minClearance);
                        }
                    }
                }
            }
        }
        assertThat(settled).as("%s ran past frame %d", solver, settledFrame).isNotNaN();
    }

    /** Indices of the pinned particles. */
    private static int[] pinned(Model m) {
        return IntStream.range(0, m.particleCount()).filter(m::isPinned).toArray();
    }

    /**
     * Distance of particle i from its nearest pin over its distance in the rest shape (pins never
     * move): a connected cloth that stretches little cannot take a particle much farther.
     */
    private static double reach(float[] x, float[] rest, int[] pins, int i) {
        double best = Double.POSITIVE_INFINITY;
        for (int p : pins) {
            double r = distance(rest, rest, i, p);
            if (r > 0) {
                best = Math.min(best, distance(x, rest, i, p) / r);
            }
        }
        return Double.isInfinite(best) ? 0 : best;
    }

    private static double distance(float[] x, float[] pinsAt, int i, int p) {
        double dx = x[3 * i] - pinsAt[3 * p];
        double dy = x[3 * i + 1] - pinsAt[3 * p + 1];
        double dz = x[3 * i + 2] - pinsAt[3 * p + 2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
}
