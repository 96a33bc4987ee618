package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.InvalidInputException;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import org.junit.jupiter.api.Test;

/**
 * A material's density changed on a built model ({@link Model#withMaterials}) makes the cloth heavier as
 * if built so: twice the density, twice each particle's mass, and a soft sheet hanging from its top edge
 * sags twice as far (linear springs, small strain); a rope, whose mass is per length, refuses it.
 */
class MaterialDensityTest {
    private static final float K = 20f;

    private static Model sheet(float density) {
        ModelBuilder b = new ModelBuilder().tethers(false)
                .material(new Material(K, K, 0f, 2f, 0f, Float.POSITIVE_INFINITY, 1f, density));
        ModelObject c = b.addGridCloth(GridClothSpec.of("sheet", 9, 9, 0.4f, 0.4f)
                .withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]).withOrigin(-0.2f, 1f, 0f));
        b.pinEdge(c, "top");
        return b.build();
    }

    private static double sag(Model m) {
        int bottom = m.objects().get(0).gridParticle(8, 4);
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), new XpbdSolver(XpbdSettings.defaults()
                     .withIterations(40), pool), Environment.earth(), 4)) {
            for (int f = 0; f < 300; f++) {
                sim.advance(1f / 60f);
            }
            return m.restPositions()[3 * bottom + 1] - sim.state().positions()[3 * bottom + 1];
        }
    }

    @Test
    void twiceTheDensityIsTwiceTheMassAndTwiceTheSag() {
        Model light = sheet(0.2f);
        Model heavy = light.withMaterial(m -> m.withDensity(0.4f));
        Model built = sheet(0.4f);
        for (int i = 0; i < light.particleCount(); i++) {
            // the same masses as a model built at that density, to float rounding
            assertThat(heavy.invMass()[i]).isCloseTo(built.invMass()[i], within(2e-6f * built.invMass()[i]));
            if (light.invMass()[i] == 0f) {
                assertThat(heavy.invMass()[i]).isZero(); // a pin stays a pin
            }
        }
        assertThat(light.invMass()).isNotSameAs(heavy.invMass());
        double ratio = sag(heavy) / sag(light);
        assertThat(ratio).isCloseTo(2.0, within(0.1));
    }

    @Test
    void aRopeRefusesADensity() {
        ModelBuilder b = new ModelBuilder();
        b.addRope(new RopeSpec("rope", new float[] {0f, 1f, 0f, 1f, 1f, 0f}, 10, 0.05f));
        Model m = b.build();
        assertThatThrownBy(() -> m.withMaterial(x -> x.withDensity(1f))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("rope.material.density").hasMessageContaining("mass per length");
    }
}
