package dev.weft.render.compute;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import org.junit.jupiter.api.Test;

class GlslXpbdSolverTest {
    private static final float DT = 1f / 1800f;

    @Test
    void probe() {
        Model model = TestScenes.hangingCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE), 32);
        for (XpbdSettings s : new XpbdSettings[] {XpbdSettings.defaults(), XpbdSettings.defaults().withIterations(10).withStretchPasses(1), XpbdSettings.defaults().withRigid(true).withStretchPasses(3)}) {
            StepComparison c = StepComparison.run("GLSL XPBD vs CPU", pool -> new XpbdSolver(s, pool),
                    () -> new GlslXpbdSolver(s), model, Environment.earth(), DT, 100);
        }
        StepComparison.run("GLSL XPBD vs CPU floor", pool -> new XpbdSolver(XpbdSettings.defaults(), pool),
                () -> new GlslXpbdSolver(XpbdSettings.defaults()), TestScenes.droppedCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE), 24, 0.1f), TestScenes.earthWith(TestScenes.floor()), DT, 360);
    }
}
