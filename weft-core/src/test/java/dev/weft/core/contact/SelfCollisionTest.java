package dev.weft.core.contact;

import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.PoolChecks;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;


/** Self- and inter-cloth contact through the XPBD solver's contact pass. */
class SelfCollisionTest {
    private static final int CLOTHS = 5;

    private static Model fiveCloths(List<ModelObject> out) {
        return fiveCloths(out, 16);
    }

    /** Five cloths of {@code side} × {@code side} particles at the spacing of the 16 × 16 ones (3.3 cm). */
    private static Model fiveCloths(List<ModelObject> out, int side) {
        ModelBuilder b = new ModelBuilder();
        for (int k = 0; k < CLOTHS; k++) {
            // each turned a little more about y, so the lattices do not line up
            double a = Math.toRadians(11 * k);
            float c = (float) Math.cos(a);
            float s = (float) Math.sin(a);
            float half = 0.25f * (side - 1) / 15;
            float ox = -half * c - half * s;
            float oz = half * s - half * c;
            out.add(b.addGridCloth(GridClothSpec.of("cloth" + k, side, side, 2 * half, 2 * half)
                    .withOrigin(ox, 0.35f + 0.08f * k, oz).withAxes(new float[] {c, 0f, -s}, new float[] {s, 0f, c})));
        }
        return b.build();
    }

    private static Environment boxOnFloor() {
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(
                new BoxCollider("box", new float[] {0f, 0.1f, 0f}, new float[] {0.3f, 0.1f, 0.3f}, 0.005f, 0.5f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
    }

    /**
     * Seed 001 figure 6.11: five cloths dropped onto a box come to rest stacked on it, in the order
     * they fell, and no particle comes closer to a particle of another cloth than half the contact
     * distance at any time.
     */
    @Test
    void fiveClothsDroppedOnABoxComeToRestStacked() {
        List<ModelObject> cloths = new ArrayList<>();
        // XPBD's own cloth before the material moved into the model (stretch rigid, shear 10⁶ N/m, hinges of
        // 0.5 N·m/rad², B = 0.5 N·m: card): cotton (2000/500 N/m, B = 10⁻⁴) at 8 substeps of one iteration
        // stacks as well but keeps twice the jitter (RMS 0.011 m/s, fastest particle 0.31 m/s)
        Model m = fiveCloths(cloths).withMaterial(mat -> mat.withStretch(Float.POSITIVE_INFINITY).withShear(1e6f)
                .withBend(0.5f));
        int n = m.particleCount();
        int[] owner = new int[n];
        for (int k = 0; k < CLOTHS; k++) {
            ModelObject o = cloths.get(k);
            for (int i = o.firstParticle(); i < o.firstParticle() + o.particleCount(); i++) {
                owner[i] = k;
            }
        }
        XpbdSolver solver;
        float closest = Float.MAX_VALUE;
        float contact;
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(m, State.atRest(m),
                     solver = new XpbdSolver(XpbdSettings.defaults(), pool)
                             .withParticleContacts(ParticleContactSettings.defaults()), boxOnFloor(), 8)) {
            float[] x = sim.state().positions();
            float[] v = sim.state().velocities();
            double rmsLastHalfSecond = 0;
            float vmax = 0f;
            for (int f = 0; f < 150; f++) {
                sim.advance(1f / 60f);
                if (f % 5 == 4) {
                    closest = Math.min(closest, closestForeignPair(x, owner));
                }
                if (f >= 120) {
                    double sum = 0;
                    for (int i = 0; i < v.length; i += 3) {
                        float s2 = v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2];
                        sum += s2;
                        vmax = Math.max(vmax, (float) Math.sqrt(s2));
                    }
                    rmsLastHalfSecond = Math.max(rmsLastHalfSecond, Math.sqrt(sum / (v.length / 3)));
                }
            }
            contact = solver.particleContacts().contactDistance();
            closest = Math.min(closest, closestForeignPair(x, owner));
            // At rest: the cloths landed at about 2.4 m/s. A position-based stack keeps a jitter of a few
            // substeps' worth of gravity (g h = 0.02 m/s) in single particles, so a single sample of the
            // fastest particle depends on rounding (measured 0.02-0.11 m/s frame to frame over 2-5 s);
            // the bound is on every frame of the last half second: RMS speed below 1 % of the landing
            // speed (measured at most 0.006) and no particle faster than a tenth of it (measured 0.11).
            assertThat(rmsLastHalfSecond).as("RMS particle speed over the last 0.5 s, m/s").isLessThan(0.024);
            assertThat(vmax).as("fastest particle over the last 0.5 s, m/s").isLessThan(0.24f);
            // stacked on the box in the order they fell: the first on the box top (0.2 m, 5 mm thick), each
            // next one's middle at least half a contact distance above the previous one's
            float below = cloths.isEmpty() ? 0f : x[3 * cloths.get(0).gridParticle(8, 8) + 1];
            assertThat(below).as("cloth 0 middle height").isCloseTo(0.205f, within(0.001f));
            for (int k = 1; k < CLOTHS; k++) {
                float y = x[3 * cloths.get(k).gridParticle(8, 8) + 1];
                assertThat(y).as("cloth %d middle height", k).isGreaterThan(below + 0.5f * contact);
                below = y;
            }
        }
        assertThat(closest).as("closest pair of particles from different cloths")
                .isGreaterThanOrEqualTo(0.5f * contact);
    }

    private static float closestForeignPair(float[] x, int[] owner) {
        int n = owner.length;
        float best = Float.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (owner[i] == owner[j]) {
                    continue;
                }
                float dx = x[3 * i] - x[3 * j];
                float dy = x[3 * i + 1] - x[3 * j + 1];
                float dz = x[3 * i + 2] - x[3 * j + 2];
                best = Math.min(best, dx * dx + dy * dy + dz * dz);
            }
        }
        return (float) Math.sqrt(best);
    }

    /**
     * A strip lying on the floor, folded back over itself (a U with the upper leg 4 spacings up):
     * without bending stiffness the upper leg falls onto the lower. With contacts it comes to lie on top,
     * at least half a contact distance above the lower leg everywhere; without, it falls through.
     */
    @Test
    void aClothFoldedOntoItselfDoesNotPassThroughItself() {
        float gapWith = foldedGap(true);
        float gapWithout = foldedGap(false);
        float spacing = 0.3f / 9;
        assertThat(gapWith).isGreaterThanOrEqualTo(0.5f * spacing);
        // the check can fail: without contacts the upper leg falls through onto the floor beside the lower
        assertThat(gapWithout).isLessThan(0.25f * spacing);
    }

    /** Smallest height of the upper leg over the lower one, where one lies over the other. */
    private static float foldedGap(boolean contacts) {
        int cols = 10;
        int rows = 40;
        float width = 0.3f;
        float spacing = width / (cols - 1);
        // no bending stiffness: the folds would otherwise spring open and lift the upper leg away
        ModelBuilder b = new ModelBuilder().bending(false);
        ModelObject strip = b.addGridCloth(GridClothSpec.of("strip", cols, rows, width, spacing * (rows - 1)));
        Model m = b.build();
        State s = State.atRest(m);
        float[] x = s.positions();
        float floor = 0.005f;
        int lower = 16;
        int rise = 4;
        for (int r = 0; r < rows; r++) {
            float along;
            float height;
            if (r < lower) {
                along = r * spacing;
                height = floor;
            } else if (r < lower + rise) {
                along = (lower - 1) * spacing;
                height = floor + (r - lower + 1) * spacing;
            } else {
                along = (lower - 1 - (r - lower - rise + 1)) * spacing;
                height = floor + rise * spacing;
            }
            for (int c = 0; c < cols; c++) {
                int p = strip.gridParticle(r, c);
                x[3 * p] = c * spacing;
                x[3 * p + 1] = height;
                x[3 * p + 2] = along;
            }
        }
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(PlaneCollider.floor(0f, floor, 0.5f)));
        float gap = Float.MAX_VALUE;
        try (WorkerPool pool = new WorkerPool(1)) {
            XpbdSolver sv = new XpbdSolver(XpbdSettings.defaults(), pool);
            if (contacts) {
                sv.withParticleContacts(ParticleContactSettings.defaults());
            }
            try (Simulation sim = new Simulation(m, s, sv, env, 8)) {
                for (int f = 0; f < 90; f++) {
                    sim.advance(1f / 60f);
                }
                // the upper leg is rows >= lower + rise; compare with the lower-leg particle beneath
                float[] p = sim.state().positions();
                for (int r = lower + rise; r < rows; r++) {
                    for (int c = 0; c < cols; c++) {
                        int up = strip.gridParticle(r, c);
                        int mirror = lower - 1 - (r - lower - rise + 1);
                        if (mirror < 0) {
                            continue;
                        }
                        int down = strip.gridParticle(mirror, c);
                        gap = Math.min(gap, p[3 * up + 1] - p[3 * down + 1]);
                    }
                }
            }
        }
        return gap;
    }

    /**
     * Five cloths of 22 × 22 (2,420 particles, at the same spacing): every color of XPBD's constraints
     * has 256 or more, so on 2 and 3 threads every pass of the solver, the contacts and the colliders
     * really splits (with 16 × 16 cloths a bending color of about 200 stayed on the calling thread).
     */
    @Test
    void contactsAreBitwiseIdenticalForOneTwoAndThreeThreads() {
        float[][] result = new float[3][];
        for (int t = 1; t <= 3; t++) {
            Model m = fiveCloths(new ArrayList<>(), 22);
            try (WorkerPool pool = new WorkerPool(t);
                 Simulation sim = new Simulation(m, State.atRest(m),
                         new XpbdSolver(XpbdSettings.defaults(), pool)
                                 .withParticleContacts(ParticleContactSettings.defaults()), boxOnFloor(), 8)) {
                for (int f = 0; f < 25; f++) {
                    sim.advance(1f / 60f);
                }
                result[t - 1] = sim.state().positions().clone();
                PoolChecks.assertEveryPassSplit(pool, t + " threads");
            }
        }
        assertThat(result[1]).isEqualTo(result[0]);
        assertThat(result[2]).isEqualTo(result[0]);
        // after 25 frames all five, dropped from 0.35 to 0.67 m, lie stacked on the box: its top at
        // 0.2 m plus five layers about a contact distance (3.3 cm) apart is 0.37 m (measured 0.371)
        for (int i = 1; i < result[0].length; i += 3) {
            assertThat(result[0][i]).as("height of particle %d", i / 3).isLessThan(0.39f);
        }
    }

    @Test
    void pairsJoinedByConstraintsOrNearInTheRestShapeAreExcluded() {
        List<ModelObject> cloths = new ArrayList<>();
        Model m = fiveCloths(cloths);
        ParticleContacts c = new ParticleContacts(m, ParticleContactSettings.defaults());
        ModelObject a = cloths.get(0);
        // lattice neighbours and diagonals are constrained; two apart along a row is not, and is
        // exactly two spacings away in the rest shape, farther than the contact distance
        assertThat(c.excluded(a.gridParticle(3, 3), a.gridParticle(3, 4))).isTrue();
        assertThat(c.excluded(a.gridParticle(3, 3), a.gridParticle(4, 4))).isTrue();
        assertThat(c.excluded(a.gridParticle(3, 3), a.gridParticle(7, 7))).isFalse();
        // particles of different cloths never are
        assertThat(c.excluded(a.gridParticle(3, 3), cloths.get(1).gridParticle(3, 3))).isFalse();
        assertThat(c.contactDistance()).isCloseTo(0.5f / 15, within(1e-6f));
    }
}
