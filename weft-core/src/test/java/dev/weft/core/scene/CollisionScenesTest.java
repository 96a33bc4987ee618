package dev.weft.core.scene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleContactSettings;
import dev.weft.core.collide.Projectile;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSolver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CollisionScenesTest {
    /** Each showcase runs its first frames and keeps every particle off every rigid collider. */
    @ParameterizedTest
    @ValueSource(strings = {"stack", "spheres", "funnel", "cannonball"})
    void showcaseRunsAndKeepsParticlesOffTheColliders(String name) {
        Scene s = BuiltInScenes.byName(name);
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(s.model(), State.atRest(s.model()),
                     new XpbdSolver(s.xpbd(), pool).withParticleContacts(ParticleContactSettings.defaults()),
                     s.environment(), s.substeps())) {
            for (int f = 0; f < 6; f++) {
                sim.advance(1f / s.fps());
            }
            float[] x = sim.state().positions();
            for (Collider c : s.environment().colliders()) {
                if (c instanceof Projectile) {
                    continue; // two-way: its share of a contact is applied at the next step
                }
                for (int i = 0; i < x.length; i += 3) {
                    // |d|: the funnel is a two-sided shell
                    assertThat(Math.abs(c.signedDistance(x[i], x[i + 1], x[i + 2])))
                            .as("%s: particle %d vs %s", name, i / 3, c.name()).isGreaterThanOrEqualTo(0.99f * c.thickness());
                }
            }
        }
    }
}
