package dev.weft.core.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The material lives in the model, so every solver simulates the same cloth: a soft sheet hanging from
 * its top edge stretches under its own weight to the same static equilibrium whichever solver runs it,
 * converged (many iterations, damped until at rest). Before issue #13 each solver had its own stiffness
 * (XPBD inextensible, PD 1000 N/m, the spring solvers 2000 N/m) and the sags differed by orders of
 * magnitude.
 */
class SameClothEverySolverTest {
    private static final float K = 5f;
    private static final float HEIGHT = 0.4f;
    private static final float DENSITY = Material.COTTON_DENSITY;

    private static Model sheet() {
        ModelBuilder b = new ModelBuilder().tethers(false) // tethers would hold it at its rest length
                .material(new Material(K, K, 0f, 2f, 2.5e-5f, Float.POSITIVE_INFINITY));
        ModelObject c = b.addGridCloth(GridClothSpec.of("sheet", 9, 9, 0.4f, HEIGHT)
                .withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]).withOrigin(-0.2f, 1f, 0f));
        b.pinEdge(c, "top");
        return b.build();
    }

    /** How far the bottom row's middle particle has dropped below its rest height after 5 s, in m. */
    private static double sag(Function<WorkerPool, Solver> make, int substeps) {
        Model m = sheet();
        int bottom = m.objects().get(0).gridParticle(8, 4);
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), make.apply(pool), Environment.earth(), substeps)) {
            for (int f = 0; f < 300; f++) {
                sim.advance(1f / 60f);
            }
            return m.restPositions()[3 * bottom + 1] - sim.state().positions()[3 * bottom + 1];
        }
    }

    @Test
    void aSoftSheetSagsAsFarUnderEverySolver() {
        Map<String, Double> sag = new LinkedHashMap<>();
        sag.put("xpbd", sag(p -> new XpbdSolver(XpbdSettings.defaults().withIterations(40), p), 4));
        sag.put("pd", sag(p -> new PdSolver(PdSettings.defaults().withIterations(20, 5), p), 4));
        sag.put("implicit", sag(p -> new ImplicitSolver(ImplicitSettings.defaults().withIterations(200, 1e-6f), p), 4));
        sag.put("mass-spring", sag(p -> new MassSpringSolver(MassSpringSettings.defaults(), p), 4));
        // the lattice's two limits: the diagonal (shear) springs carrying no vertical load, ρgH²/(2k), or
        // all they can at 45° (k/2 each, two per cell: the vertical stiffness doubled), ρgH²/(4k)
        double loose = DENSITY * 9.81 * HEIGHT * HEIGHT / (2 * K);
        double xpbd = sag.get("xpbd");
        assertThat(xpbd).as("xpbd sag, m").isBetween(loose / 2, loose);
        for (Map.Entry<String, Double> e : sag.entrySet()) {
            // converged solvers of the same springs: to a few percent (the iterations' remainder)
            assertThat(e.getValue()).as("%s sag against xpbd's %.5f m (all: %s)", e.getKey(), xpbd, sag)
                    .isCloseTo(xpbd, within(0.03 * xpbd));
        }
    }
}
