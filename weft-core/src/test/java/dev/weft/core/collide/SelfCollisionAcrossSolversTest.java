package dev.weft.core.collide;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Environment;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seed 001 figure 6.11 in a small size for every solver family: three cloths dropped onto a box,
 * with particle contacts on, end with no two particles that may touch (different cloths, or one cloth's
 * particles not joined by a constraint) closer than half the contact distance; without contacts the
 * same drop ends with the cloths through each other, so the check can fail.
 */
class SelfCollisionAcrossSolversTest {
    private static final int CLOTHS = 3;
    private static final int SIDE = 12;
    private static final float FRAME = 1f / 60f;
    /** Two thirds of a second: the last cloth lands after 0.23 s and the stack has settled by then. */
    private static final int FRAMES = 40;

    private static Model threeCloths() {
        ModelBuilder b = new ModelBuilder();
        for (int k = 0; k < CLOTHS; k++) {
            // each turned 17° more about y, so the lattices do not line up
            double a = Math.toRadians(17 * k);
            float c = (float) Math.cos(a);
            float s = (float) Math.sin(a);
            float half = 0.2f;
            b.addGridCloth(GridClothSpec.of("cloth" + k, SIDE, SIDE, 2 * half, 2 * half)
                    .withOrigin(-half * c - half * s, 0.3f + 0.08f * k, half * s - half * c)
                    .withAxes(new float[] {c, 0f, -s}, new float[] {s, 0f, c}));
        }
        return b.build();
    }

    private static Environment boxOnFloor() {
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(
                new BoxCollider("box", new float[] {0f, 0.1f, 0f}, new float[] {0.15f, 0.1f, 0.15f}, 0.005f, 0.5f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
    }

    /** The solver family by name (as {@code weft run --solver}), with the substeps it runs the drop at. */
    private static ParticleContactSolver create(String name, WorkerPool pool) {
        switch (name) {
            case "xpbd":
                return new XpbdSolver(XpbdSettings.defaults(), pool);
            case "pbd":
                return (ParticleContactSolver) Solvers.create("pbd", XpbdSettings.defaults(), pool);
            case "pd-rbgs":
                return new PdSolver(PdSettings.defaults(), pool);
            case "pd-jacobi":
                return new PdSolver(PdSettings.defaults().withInner(InnerSolver.JACOBI), pool);
            case "relaxation":
                return new RelaxationSolver(RelaxationSettings.defaults(), pool);
            case "mass-spring":
                return new MassSpringSolver(MassSpringSettings.defaults(), pool);
            case "implicit":
                return new ImplicitSolver(ImplicitSettings.defaults(), pool);
            default:
                throw new AssertionError(name);
        }
    }

    /**
     * Substeps per 60 Hz frame. Mass-spring is explicit: its stiffest springs on these 0.22 g particles
     * need h·√(k/m) below about 2, i.e. h < 1/2000 s (64 substeps: 1/3840 s). The implicit solver is
     * stable at any h; 4 substeps keep the landing speed (≈ 2.3 m/s) times h below a tenth of the
     * contact distance.
     */
    private static int substeps(String name) {
        switch (name) {
            case "mass-spring":
                return 64;
            case "implicit":
                return 4;
            default:
                return 8;
        }
    }

    /** What one drop ended with. */
    private record Drop(float closest, float contactDistance, boolean finite, float[] positions) {
    }

    private static Drop drop(String name, boolean contacts, int threads, int frames) {
        Model m = threeCloths();
        ParticleContacts pairs = new ParticleContacts(m, ParticleContactSettings.defaults());
        try (WorkerPool pool = new WorkerPool(threads)) {
            ParticleContactSolver solver = create(name, pool);
            if (contacts) {
                solver.withParticleContacts(ParticleContactSettings.defaults());
            }
            try (Simulation sim = new Simulation(m, State.atRest(m), solver, boxOnFloor(), substeps(name))) {
                for (int f = 0; f < frames; f++) {
                    sim.advance(FRAME);
                }
                float[] x = sim.state().positions().clone();
                boolean finite = true;
                for (float c : x) {
                    finite &= Float.isFinite(c);
                }
                return new Drop(closestPair(x, pairs), pairs.contactDistance(), finite, x);
            }
        }
    }

    /** The closest pair of particles that are not excluded from contact (brute force: 432 particles). */
    private static float closestPair(float[] x, ParticleContacts pairs) {
        int n = x.length / 3;
        float best = Float.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                float dx = x[3 * i] - x[3 * j];
                float dy = x[3 * i + 1] - x[3 * j + 1];
                float dz = x[3 * i + 2] - x[3 * j + 2];
                float d2 = dx * dx + dy * dy + dz * dz;
                if (d2 < best && !pairs.excluded(i, j)) {
                    best = d2;
                }
            }
        }
        return (float) Math.sqrt(best);
    }

    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "pbd", "pd-rbgs", "pd-jacobi", "relaxation", "mass-spring", "implicit"})
    void threeClothsDroppedOnABoxStayApart(String solver) {
        Drop with = drop(solver, true, 2, FRAMES);
        assertThat(with.finite()).as("every coordinate finite").isTrue();
        // all three cloths have come down onto the box (dropped from at most 0.46 m onto its top at 0.2 m)
        for (int i = 1; i < with.positions().length; i += 3) {
            assertThat(with.positions()[i]).as("height of particle %d", i / 3).isLessThan(0.3f);
        }
        // half the contact distance: the seed's criterion (fig. 6.11) that no pair interpenetrates
        assertThat(with.closest()).as(solver + ": closest pair that may touch, with contacts")
                .isGreaterThanOrEqualTo(0.5f * with.contactDistance());
        Drop without = drop(solver, false, 2, FRAMES);
        assertThat(without.closest()).as(solver + ": closest pair that may touch, without contacts")
                .isLessThan(0.5f * without.contactDistance());
    }

    @ParameterizedTest
    @ValueSource(strings = {"pd-rbgs", "implicit"})
    void contactsAreBitwiseIdenticalForOneAndTwoThreads(String solver) {
        // 20 frames: the cloths have landed on each other and the contacts are working
        float[] one = drop(solver, true, 1, 20).positions();
        float[] two = drop(solver, true, 2, 20).positions();
        assertThat(two).isEqualTo(one);
    }

    /** The contacts go through the implicit solver's filter S (not only the projection after the step). */
    @org.junit.jupiter.api.Test
    void implicitSolverConstrainsClothContactsThroughTheFilter() {
        // (runs the drop once more and watches the solver's count of particles constrained in S)
        Model m = threeCloths();
        int most = 0;
        try (WorkerPool pool = new WorkerPool(1)) {
            ImplicitSolver solver = new ImplicitSolver(ImplicitSettings.defaults(), pool)
                    .withParticleContacts(ParticleContactSettings.defaults());
            try (Simulation sim = new Simulation(m, State.atRest(m), solver, boxOnFloor(), substeps("implicit"))) {
                for (int f = 0; f < FRAMES; f++) {
                    sim.advance(FRAME);
                    most = Math.max(most, solver.lastParticleContactCount());
                }
            }
        }
        // two cloths lying on others: most of their 288 particles rest on a layer below at some point
        assertThat(most).isGreaterThan(100);
    }

}
