package dev.weft.core.contact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.CapsuleCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A body's material thickness t is a contact property of the sheet: its particles (on its mid-surface)
 * keep t/2 more than a collider's own thickness off the collider, and two thick bodies keep their
 * half-thicknesses' sum apart. The same for every collider and every solver.
 */
class ContactThicknessTest {
    private static final float COLLIDER_THICKNESS = 0.005f;

    @Test
    void everyColliderKeepsAParticleItsOffsetFurtherOff() {
        float offset = 0.03f;
        Collider[] shapes = {
            new PlaneCollider("plane", new float[] {0f, 0.2f, 0f}, new float[] {0f, 1f, 0f}, COLLIDER_THICKNESS, 0f),
            new SphereCollider("sphere", new float[] {0f, 0f, 0f}, 0.2f, COLLIDER_THICKNESS, 0f),
            new BoxCollider("box", new float[] {0f, 0f, 0f}, new float[] {0.3f, 0.2f, 0.3f}, COLLIDER_THICKNESS, 0f),
            new CapsuleCollider("capsule", new float[] {0f, 0f, 0f}, 0.2f, 0.2f, COLLIDER_THICKNESS, 0f),
        };
        for (Collider c : shapes) {
            // a particle 1 cm inside the surface, straight below the top, resting (no motion in the step)
            float[] plain = {0.01f, 0.19f, 0.02f};
            float[] thick = plain.clone();
            c.collide(plain, plain.clone(), new float[] {1f}, ParticleSurface.PLAIN, 0, 1);
            c.collide(thick, thick.clone(), new float[] {1f}, new ParticleSurface(null, new float[] {offset}), 0, 1);
            assertThat(c.signedDistance(plain[0], plain[1], plain[2])).as(c.name())
                    .isCloseTo(COLLIDER_THICKNESS, within(1e-6f));
            assertThat(c.signedDistance(thick[0], thick[1], thick[2])).as(c.name())
                    .isCloseTo(COLLIDER_THICKNESS + offset, within(1e-6f));
        }
    }

    /** A 0.2 m cloth of thickness {@code t} dropped 4 cm onto the floor under {@code solver}, after 1.5 s. */
    private static float[] restOnFloor(String solver, float t) {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 6, 6, 0.2f, 0.2f).withOrigin(-0.1f, 0.04f + t, -0.1f));
        Model m = b.build().withMaterial(mat -> mat.withThickness(t).withDamping(4f));
        Environment env = new Environment(new float[] {0f, -9.81f, 0f},
                List.of(PlaneCollider.floor(0f, COLLIDER_THICKNESS, 0.5f)));
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, SolverSettings.defaults(), pool),
                     env, "mass-spring".equals(solver) ? 32 : 8)) {
            for (int f = 0; f < 90; f++) {
                sim.advance(1f / 60f);
            }
            return sim.state().positions().clone();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"xpbd", "pbd", "pd", "relaxation", "mass-spring", "implicit"})
    void aThickSheetRestsHalfItsThicknessAboveTheCollidersShell(String solver) {
        float t = 0.02f;
        float[] x = restOnFloor(solver, t);
        // every particle lies on the floor's thickness plus half the sheet's: 1.5 cm, to 0.2 mm (a resting
        // contact's step of sag, g h², is 0.04 mm at 8 substeps)
        for (int i = 1; i < x.length; i += 3) {
            assertThat(x[i]).as("particle %d", i / 3).isCloseTo(COLLIDER_THICKNESS + 0.5f * t, within(2e-4f));
        }
        // and a sheet of no thickness on the shell itself: the offset is the material's, nothing else
        float[] thin = restOnFloor(solver, 0f);
        for (int i = 1; i < thin.length; i += 3) {
            assertThat(thin[i]).isCloseTo(COLLIDER_THICKNESS, within(2e-4f));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"xpbd", "pd", "relaxation"})
    void twoThickSheetsStackTheirThicknessApart(String solver) {
        // 5 cm particle spacing; 8 cm thick sheets: the pair distance (8 cm) is their thickness, above the
        // contact distance (one spacing)
        float t = 0.08f;
        ModelBuilder b = new ModelBuilder();
        ModelObject lower = b.addGridCloth(GridClothSpec.of("lower", 5, 5, 0.2f, 0.2f).withOrigin(-0.1f, 0.05f, -0.1f));
        // the upper sheet's lattice shifted by half a spacing, so its particles sit over the lower's squares
        b.addGridCloth(GridClothSpec.of("upper", 5, 5, 0.2f, 0.2f).withOrigin(-0.075f, 0.2f, -0.075f));
        Model m = b.build().withMaterial(mat -> mat.withThickness(t).withDamping(4f));
        Environment env = new Environment(new float[] {0f, -9.81f, 0f},
                List.of(PlaneCollider.floor(0f, COLLIDER_THICKNESS, 0.8f)));
        try (WorkerPool pool = new WorkerPool(1)) {
            ParticleContactSolver s = (ParticleContactSolver) Solvers.create(solver, SolverSettings.defaults(), pool);
            s.withParticleContacts(ParticleContactSettings.defaults());
            try (Simulation sim = new Simulation(m, State.atRest(m), s, env, 8)) {
                for (int f = 0; f < 120; f++) {
                    sim.advance(1f / 60f);
                }
                float[] x = sim.state().positions();
                int n = lower.particleCount();
                double lowerY = 0;
                double upperY = 0;
                for (int i = 0; i < n; i++) {
                    lowerY += x[3 * (lower.firstParticle() + i) + 1];
                    upperY += x[3 * (lower.firstParticle() + n + i) + 1];
                }
                lowerY /= n;
                upperY /= n;
                assertThat(lowerY).isCloseTo(COLLIDER_THICKNESS + 0.5f * t, within(1e-3));
                // a particle over a square's centre touches its four corners 3.54 cm off sideways, so it sits
                // √(8² − 3.54²) = 7.2 cm above them
                double gap = Math.sqrt(t * t - 2 * 0.025 * 0.025);
                assertThat(upperY - lowerY).isCloseTo(gap, within(0.1 * gap));
            }
        }
    }

    @Test
    void aThinMaterialChangesNothing() {
        // thickness 0 is the plain surface: the same bits as a model with no thickness field set at all
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 6, 6, 0.2f, 0.2f).withOrigin(-0.1f, 0.3f, -0.1f));
        Model m = b.build();
        assertThat(ParticleSurface.of(m)).isSameAs(ParticleSurface.PLAIN);
        assertThat(ParticleSurface.of(m.withMaterial(mat -> mat.withThickness(0.01f))).offset(3)).isEqualTo(0.005f);
    }
}
