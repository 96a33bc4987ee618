package dev.weft.core.scene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSolver;

/**
 * A built-in showcase run as {@code weft run SCENE --self-collision} runs it (XPBD, particle contacts on),
 * frame by frame, checking after every frame what must always hold: every position finite, and no
 * particle inside a collider beyond its thickness. What each scene claims to show is up to its test.
 */
final class ShowcaseRun implements AutoCloseable {
    /** A particle this close to a surface (in thicknesses) touches it. */
    static final float TOUCHING = 1.05f;
    /** Allowed shortfall of the thickness (float rounding of the last projection). */
    private static final float KEPT_OFF = 0.99f;
    /**
     * A projectile's contact moves the particle by its share M / (m + M) of the push and the ball by the
     * rest at the next step, so a particle may end a frame inside the thickness by the ball's share.
     */
    private static final float KEPT_OFF_PROJECTILE = 0.9f;

    final Scene scene;
    final Model model;
    private final WorkerPool pool;
    private final Simulation sim;
    private final XpbdSolver solver;
    private int frame;

    ShowcaseRun(Scene scene) {
        this.scene = scene;
        model = scene.model();
        pool = new WorkerPool(2);
        solver = new XpbdSolver(scene.xpbd(), pool).withParticleContacts(ParticleContactSettings.defaults());
        sim = new Simulation(model, State.atRest(model), solver, scene.environment(), scene.substeps());
    }

    /** Simulates one more frame and checks it. */
    void advance() {
        sim.advance(1f / scene.fps());
        frame++;
        float[] x = positions();
        for (int i = 0; i < x.length; i++) {
            assertThat(Float.isFinite(x[i])).as("%s frame %d: coordinate %d of particle %d", scene.name(), frame,
                    i % 3, i / 3).isTrue();
        }
        for (Collider c : colliders()) {
            float least = (c instanceof Projectile ? KEPT_OFF_PROJECTILE : KEPT_OFF) * c.thickness();
            for (int i = 0; i < x.length; i += 3) {
                // |d|: the funnel is a two-sided shell
                assertThat(Math.abs(c.signedDistance(x[i], x[i + 1], x[i + 2])))
                        .as("%s frame %d: particle %d vs %s", scene.name(), frame, i / 3, c.name())
                        .isGreaterThanOrEqualTo(least);
            }
        }
    }

    int frame() {
        return frame;
    }

    float[] positions() {
        return sim.state().positions();
    }

    float[] velocities() {
        return sim.state().velocities();
    }

    Collider[] colliders() {
        return scene.environment().colliders();
    }

    Collider collider(String name) {
        for (Collider c : colliders()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException(scene.name() + " has no collider " + name);
    }

    ParticleContacts contacts() {
        return solver.particleContacts();
    }

    /** The least |signed distance| of the object's particles to the collider. */
    float closest(ModelObject cloth, Collider c) {
        float[] x = positions();
        float least = Float.MAX_VALUE;
        for (int i = cloth.firstParticle(); i < cloth.firstParticle() + cloth.particleCount(); i++) {
            least = Math.min(least, Math.abs(c.signedDistance(x[3 * i], x[3 * i + 1], x[3 * i + 2])));
        }
        return least;
    }

    /** The least distance between a particle of {@code a} and one of {@code b} (brute force). */
    float closest(ModelObject a, ModelObject b) {
        float[] x = positions();
        float least2 = Float.MAX_VALUE;
        for (int i = a.firstParticle(); i < a.firstParticle() + a.particleCount(); i++) {
            for (int j = b.firstParticle(); j < b.firstParticle() + b.particleCount(); j++) {
                float dx = x[3 * i] - x[3 * j];
                float dy = x[3 * i + 1] - x[3 * j + 1];
                float dz = x[3 * i + 2] - x[3 * j + 2];
                least2 = Math.min(least2, dx * dx + dy * dy + dz * dz);
            }
        }
        return (float) Math.sqrt(least2);
    }

    /** The least distance between particles of two different objects. */
    float closestBetweenObjects() {
        float least = Float.MAX_VALUE;
        for (int a = 0; a < model.objects().size(); a++) {
            for (int b = a + 1; b < model.objects().size(); b++) {
                least = Math.min(least, closest(model.objects().get(a), model.objects().get(b)));
            }
        }
        return least;
    }

    /** The object's linear momentum along axis 0 (x), 1 (y) or 2 (z); pinned particles carry none. */
    double momentum(ModelObject cloth, int axis) {
        float[] w = model.invMass();
        float[] v = velocities();
        double p = 0;
        for (int i = cloth.firstParticle(); i < cloth.firstParticle() + cloth.particleCount(); i++) {
            if (w[i] > 0f) {
                p += v[3 * i + axis] / w[i];
            }
        }
        return p;
    }

    @Override
    public void close() {
        sim.close();
        pool.close();
    }
}
