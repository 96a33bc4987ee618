package dev.weft.render.compute;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.SpringLayout;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.step.Environment;
import org.junit.jupiter.api.Test;

class GlslMassSpringSolverTest {
    private static final float DT = 1f / 960f;

    @Test
    void probe() {
        Model model = TestScenes.hangingCloth(new ModelBuilder().tethers(false).springLayout(SpringLayout.PATTERN_12), 32);
        MassSpringSettings s = MassSpringSettings.defaults().withTethers(false);
        StepComparison c = StepComparison.run("GLSL vs CPU", pool -> new MassSpringSolver(s, pool),
                () -> new GlslMassSpringSolver(s), model, Environment.earth(), DT, 100);
        StepComparison f = StepComparison.run("GLSL vs CPU floor", pool -> new MassSpringSolver(s, pool),
                () -> new GlslMassSpringSolver(s), TestScenes.droppedCloth(new ModelBuilder().tethers(false).springLayout(SpringLayout.PATTERN_12), 24, 0.5f), TestScenes.earthWith(TestScenes.ball()), DT, 240);
        assertThat(c.afterAll).isZero();
    }
}
