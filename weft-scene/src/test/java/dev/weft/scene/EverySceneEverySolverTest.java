package dev.weft.scene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.Solver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every shipped scene file runs 30 frames under xpbd and under every solver it gives steps for, as
 * {@code weft run} would set it up (its starting velocities, its self-collision), without a NaN and
 * without anything thrown out of the scene.
 */
@Tag("slow")
class EverySceneEverySolverTest {
    @Test
    void everySceneRunsThirtyFramesUnderEverySolverItNames() throws Exception {
        List<Path> files = new ArrayList<>();
        try (var list = Files.list(SceneFileTest.SCENES)) {
            list.filter(f -> f.toString().endsWith(".json") && !f.toString().endsWith(".schema.json")).sorted()
                    .forEach(files::add);
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(15);
        int runs = 0;
        try (WorkerPool pool = new WorkerPool(2)) {
            for (Path file : files) {
                Scene s = SceneFile.read(file);
                TreeSet<String> solvers = new TreeSet<>(s.solverSteps().keySet());
                solvers.add("xpbd");
                for (String name : solvers) {
                    Solver solver = s.solver(name, pool);
                    if (s.contacts() != null) {
                        // weft run refuses a solver without cloth-cloth contact for such a scene
                        if (!(solver instanceof ParticleContactSolver contacts)) {
                            continue;
                        }
                        contacts.withParticleContacts(s.contacts());
                    }
                    try (Simulation sim = new Simulation(s.model(), s.initialState(), solver, s.environment(),
                            s.substeps(name))) {
                        for (int f = 0; f < 30; f++) {
                            sim.advance(1f / s.fps());
                        }
                        float[] x = sim.state().positions();
                        for (int i = 0; i < x.length; i++) {
                            // finite, and within 100 m of the origin: every scene is a few metres across
                            assertThat(Math.abs(x[i])).as("%s under %s, coordinate %d", file.getFileName(), name, i)
                                    .isLessThan(100f);
                        }
                    }
                    runs++;
                }
            }
        }
        assertThat(runs).isGreaterThan(files.size());
    }
}
