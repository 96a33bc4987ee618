package dev.weft.core.solver;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.model.TetherConstraints;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * The long-range attachment law (Kim, Chentanez and Müller 2012) in every solver: after each step no
 * free particle is further from a pinned anchor than its tether allows, and the same run with the
 * tethers off does break it (so the check can fail). A 20 × 20 cloth hangs by one corner under
 * gravity, swinging down from horizontal, with few iterations: the regime where a cloth stretches
 * most. One anchor, because a particle with two is projected onto one sphere and then the other, and
 * holds both only as the iterations converge (measured after 1 s by two corners: 0.1–2.5 % over, all
 * solvers), as in the peers' single pass. Tolerance: the projection puts a particle on its sphere up
 * to float rounding of |x − anchor| (a few ulp of ~1 m); 1e-5 relative is 100 times that.
 */
class TetherLawTest {
    private static Model hangingCloth() {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 20, 20, 1f, 1f).withOrigin(-0.5f, 1.5f, -0.5f));
        b.pinCorners(cloth, "top-left");
        return b.build();
    }

    private static Solver solver(String name, boolean tethers, WorkerPool pool) {
        SolverSettings s = new SolverSettings(XpbdSettings.defaults().withIterations(1).withTethers(tethers),
                PdSettings.defaults().withIterations(2, 2).withTethers(tethers),
                ImplicitSettings.defaults().withTethers(tethers), MassSpringSettings.defaults().withTethers(tethers),
                RelaxationSettings.defaults().withIterations(2).withTethers(tethers));
        return Solvers.create(name, s, pool);
    }

    /** Largest relative excess |x_p − x_anchor| / L − 1 over the model's tethers (0 when all hold). */
    private static double worstExcess(Model m, float[] x) {
        TetherConstraints t = m.tethers();
        int[] pairs = t.particles();
        float[] max = t.maxLength();
        double worst = 0.0;
        for (int c = 0; c < max.length; c++) {
            int p = 3 * pairs[2 * c];
            int a = 3 * pairs[2 * c + 1];
            double dx = x[p] - x[a];
            double dy = x[p + 1] - x[a + 1];
            double dz = x[p + 2] - x[a + 2];
            worst = Math.max(worst, Math.sqrt(dx * dx + dy * dy + dz * dz) / max[c] - 1.0);
        }
        return worst;
    }

    private static double worstOverRun(String name, boolean tethers) {
        Model m = hangingCloth();
        assertThat(m.tethers().count()).isEqualTo(m.particleCount() - 1);
        double worst = 0.0;
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(m, State.atRest(m), solver(name, tethers, pool), Environment.earth(), 4)) {
            for (int f = 0; f < 60; f++) {
                sim.advance(1f / 60f);
                worst = Math.max(worst, worstExcess(m, sim.state().positions()));
            }
        }
        return worst;
    }

    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "pbd", "pd", "relaxation", "implicit", "mass-spring"})
    void noFreeParticleIsFurtherFromAnAnchorThanItsTether(String name) {
        assertThat(worstOverRun(name, true)).as("%s with tethers", name).isLessThan(1e-5);
        assertThat(worstOverRun(name, false)).as("%s without tethers", name).isGreaterThan(1e-3);
    }
}
