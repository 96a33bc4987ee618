package dev.weft.core.export;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.RopeSpec;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Small models and short simulated runs for the exporter tests. */
final class ExportFixtures {
    static final float FPS = 30f;

    private ExportFixtures() {
    }

    /** One frame as an exporter gets it. */
    record Frame(Model model, float[] positions, int index, double time) {
    }

    /**
     * Two cloths and a rope, in this particle order: "cloth" (horizontal 4 × 3, pinned at its top
     * corners), "flag" (hanging 3 × 3 beside it, pinned at its top corners), "rope" (5 particles,
     * pinned at one end).
     */
    static Model scene() {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 4, 3, 1f, 1f));
        b.pinCorners(cloth, "top-left", "top-right");
        ModelObject flag = b.addGridCloth(GridClothSpec.of("flag", 3, 3, 0.5f, 0.5f)
                .withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]).withOrigin(2f, 0.5f, 0.3f));
        b.pinCorners(flag, "top-left", "top-right");
        ModelObject rope = b.addRope(new RopeSpec("rope", new float[] {-1f, 0.2f, 0.1f, -1f, 0.2f, 1.1f}, 5, 0.05f));
        b.pinIndices(rope, 0);
        return b.build();
    }

    /** {@code frames} frames of {@code model} under gravity: frame 0 is the start state, one 1/30 s apart. */
    static List<Frame> simulate(Model model, int frames) {
        return simulate(model, frames, -1, null);
    }

    /**
     * As {@link #simulate(Model, int)}, with {@code edit} applied after frame {@code editAfter} was taken
     * (tearing); then each split copy is moved 1 cm along x in the frames given out, so that no two
     * vertices share a position (an OBJ reader would weld them).
     */
    static List<Frame> simulate(Model model, int frames, int editAfter, List<ModelEdit> edit) {
        List<Frame> out = new ArrayList<>();
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of());
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(model, State.atRest(model),
                     Solvers.create("xpbd", SolverSettings.defaults(), pool), env, 4)) {
            for (int k = 0; k < frames; k++) {
                if (k > 0) {
                    sim.advance(1f / FPS);
                }
                Model m = sim.model();
                float[] x = sim.state().positions().clone();
                for (int p = 0; p < m.particleCount(); p++) {
                    if (m.sourceOf(p) != p) {
                        x[3 * p] += 0.01f;
                    }
                }
                out.add(new Frame(m, x, k, k / (double) FPS));
                if (k == editAfter) {
                    sim.edit(edit);
                }
            }
        }
        return out;
    }

    /** Gives all {@code frames} to {@code exporter} (not closed). */
    static void export(FrameExporter exporter, List<Frame> frames) throws IOException {
        for (Frame f : frames) {
            exporter.frame(f.model(), f.positions(), f.index(), f.time());
        }
    }

    /** The particles of body {@code o} (split copies included), in particle order. */
    static int[] particlesOf(Model m, int o) {
        return java.util.stream.IntStream.range(0, m.particleCount()).filter(p -> m.objectOf(p) == o).toArray();
    }

    /** Exact float equality, element by element (0.0 == -0.0), with the first difference in the message. */
    static void assertSameFloats(float[] actual, float[] expected, String what) {
        org.assertj.core.api.Assertions.assertThat(actual.length).as(what + ": length").isEqualTo(expected.length);
        for (int i = 0; i < actual.length; i++) {
            if (actual[i] != expected[i]) {
                throw new AssertionError(what + ": element " + i + " is " + actual[i] + ", expected " + expected[i]);
            }
        }
    }
}
