package dev.weft.core.interact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.Model;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What tetrahedral tearing costs on a 40 × 6 × 6 bar (2009 nodes, 8640 tetrahedra), printed (the best of 10
 * batches each, threads 1, 2, 1, 2: the first rounds warm the JIT), and what a scan of the bar stretched 30 %
 * along its length finds: one crack across its middle, the 49 nodes of one layer, not a shattered bar. Run it
 * with {@code -Dtest=TetTearCostTest -DexcludedTestGroups=none}.
 */
@Tag("slow")
class TetTearCostTest {
    interface Work { void run(); }

    static double best(int batches, int reps, Work w) {
        double best = Double.MAX_VALUE;
        for (int b = 0; b < batches; b++) {
            long t0 = System.nanoTime();
            for (int r = 0; r < reps; r++) w.run();
            best = Math.min(best, (System.nanoTime() - t0) / 1e6 / reps);
        }
        return best;
    }

    @Test
    void cost() {
        Model m = TetTearingTest.bar(40, 6, 0.2f, true, 0.5f);
        System.out.println("bar: " + m.particleCount() + " nodes, " + m.tets().count() + " tets");
        List<ModelEdit> layer = new ArrayList<>();
        float[] r = m.restPositions();
        for (int i = 0; i < m.particleCount(); i++) {
            if (r[3 * i] == 0f) layer.add(new ModelEdit.Split(i, 1f, 0f, 0f));
        }
        List<ModelEdit> one = List.of(layer.get(layer.size() / 2));
        float[] x = m.restPositions().clone();
        for (int i = 0; i < x.length; i += 3) x[i] *= 1.3f;
        assertThat(Tearing.find(m, m.restPositions())).isEmpty();
        List<ModelEdit> found = Tearing.find(m, x);
        assertThat(found).hasSize(layer.size());
        float plane = r[3 * ((ModelEdit.Split) found.get(0)).particle()];
        for (ModelEdit s : found) {
            assertThat(r[3 * ((ModelEdit.Split) s).particle()]).as("one layer").isEqualTo(plane);
        }
        Model cracked = m.edit(found);
        assertThat(TetTearingTest.count(TetTearingTest.pieces(cracked))).isEqualTo(2);
        assertThat(cracked.triangleCount() - m.triangleCount()).as("both faces of a 6 x 6 section").isEqualTo(144);
        Environment env = new Environment(new float[3], List.of());
        for (int threads : new int[] {1, 2, 1, 2}) {
            try (WorkerPool pool = new WorkerPool(threads)) {
                Solver solver = Solvers.create("xpbd", pool);
                Model e = m.edit(layer, pool);
                State s = State.atRest(m);
                State se = s.resizedFor(e);
                double scanRest = best(10, 50, () -> Tearing.find(m, m.restPositions(), pool));
                double scanOver = best(10, 5, () -> Tearing.find(m, x, pool));
                double editLayer = best(10, 5, () -> m.edit(layer, pool));
                double editOne = best(10, 5, () -> m.edit(one, pool));
                double step = best(10, 5, () -> solver.step(m, s, env, 1f / 600f));
                double stepAndRebind = best(10, 1, () -> { solver.step(e, se, env, 1f / 600f); solver.step(m, s, env, 1f / 600f); });
                System.out.printf("threads %d: scan at rest %.3f ms, scan stretched 30%% (finds the layer) %.3f ms, edit of one split %.3f ms, edit of the layer (49 splits) %.3f ms, xpbd substep %.3f ms, rebind (2 substeps alternating models minus 2 substeps) %.3f ms%n",
                        threads, scanRest, scanOver, editOne, editLayer, step, stepAndRebind - 2 * step);
            }
        }
    }
}
