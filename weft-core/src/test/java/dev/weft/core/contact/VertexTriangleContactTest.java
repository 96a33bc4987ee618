package dev.weft.core.contact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.PoolChecks;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.sim.SimulationDivergedException;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Optional vertex–triangle contact ({@link ParticleContactSettings#vertexTriangle()}): particles cannot
 * pass through a cloth triangle between its corners, which particle–particle contact alone (seeing only
 * the corners) lets them do when triangles are larger than the contact distance.
 */
class VertexTriangleContactTest {
    private static final float FRAME = 1f / 60f;

    /** A 1 m square of two triangles pinned at its corners, and a 5 cm square (4 particles) above it. */
    private static Model squareAndPebble(ModelObject[] out) {
        ModelBuilder b = new ModelBuilder();
        ModelObject big = b.addGridCloth(GridClothSpec.of("big", 2, 2, 1f, 1f).withOrigin(0f, 0f, 0f));
        b.pinCorners(big, "top-left", "top-right", "bottom-left", "bottom-right");
        Model probe = b.build();
        // centroid of the first triangle: well inside it, 0.24 m or more from every corner
        int[] t = probe.triangles();
        float[] x = probe.restPositions();
        float cx = (x[3 * t[0]] + x[3 * t[1]] + x[3 * t[2]]) / 3f;
        float cz = (x[3 * t[0] + 2] + x[3 * t[1] + 2] + x[3 * t[2] + 2]) / 3f;
        out[0] = big;
        out[1] = b.addGridCloth(GridClothSpec.of("pebble", 2, 2, 0.05f, 0.05f).withOrigin(cx - 0.025f, 0.2f, cz - 0.025f));
        return b.build();
    }

    /** Contact distance 0.1 × the mean stretch length (0.525 m): 5.25 cm, so faces are held 2.6 cm off. */
    private static ParticleContactSettings settings(boolean faces) {
        return ParticleContactSettings.defaults().withDistanceFactor(0.1f).withVertexTriangle(faces);
    }

    private static ParticleContactSolver solver(String name, WorkerPool pool) {
        return "implicit".equals(name) ? new ImplicitSolver(ImplicitSettings.defaults(), pool)
                : new XpbdSolver(XpbdSettings.defaults(), pool);
    }

    /** The lowest height the pebble reached over 1 s, and its final heights. */
    private static float[] dropPebble(String name, boolean faces) {
        ModelObject[] objects = new ModelObject[2];
        Model m = squareAndPebble(objects);
        ModelObject pebble = objects[1];
        float lowest = Float.MAX_VALUE;
        float highest = -Float.MAX_VALUE;
        float finalLowest = Float.MAX_VALUE;
        int held = 0;
        try (WorkerPool pool = new WorkerPool(1)) {
            ParticleContactSolver s = solver(name, pool).withParticleContacts(settings(faces));
            Environment env = new Environment(new float[] {0f, -9.81f, 0f}, java.util.List.of());
            try (Simulation sim = new Simulation(m, State.atRest(m), s, env, 8)) {
                for (int f = 0; f < 60; f++) {
                    sim.advance(FRAME);
                    float[] x = sim.state().positions();
                    for (int i = pebble.firstParticle(); i < pebble.firstParticle() + pebble.particleCount(); i++) {
                        lowest = Math.min(lowest, x[3 * i + 1]);
                    }
                }
                float[] x = sim.state().positions();
                for (int i = pebble.firstParticle(); i < pebble.firstParticle() + pebble.particleCount(); i++) {
                    finalLowest = Math.min(finalLowest, x[3 * i + 1]);
                    highest = Math.max(highest, x[3 * i + 1]);
                }
                held = s.particleContacts().lastVertexTriangleCount();
            }
        }
        return new float[] {lowest, finalLowest, highest, held};
    }

    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "implicit"})
    void aParticleFallingOntoTheMiddleOfALargeTriangleStaysAboveIt(String name) {
        float thickness = 0.5f * 0.1f * 0.525f;
        float[] with = dropPebble(name, true);
        // never below the face (it lands at 2 m/s, 4 mm per substep, far less than the 2.6 cm thickness)
        assertThat(with[0]).as(name + ": lowest pebble height over the drop").isGreaterThan(0f);
        // at rest on it, all four particles held a thickness off the pinned (flat) square; 2 % slack for
        // the step of gravity each substep adds before the projection
        assertThat(with[1]).as(name + ": final lowest").isCloseTo(thickness, within(0.02f * thickness));
        assertThat(with[2]).as(name + ": final highest").isCloseTo(thickness, within(0.02f * thickness));
        assertThat(with[3]).as(name + ": particles held off the face").isEqualTo(4f);
        // particle–particle contact alone: the square's corners are 24 cm away, the pebble falls through
        float[] without = dropPebble(name, false);
        assertThat(without[1]).as(name + ": final lowest without faces").isLessThan(-0.5f);
    }

    /**
     * A fine cloth (2 cm spacing) dropped onto a coarse one (30 cm triangles, corners pinned, the rest
     * free): the fine cloth ends above the coarse surface everywhere, and without vertex–triangle
     * contact it falls through.
     */
    @Test
    void aFineClothRestsOnACoarseOneThatGivesUnderIt() {
        Run with = fineOnCoarse(true, 1);
        assertThat(with.below).as("fine particles under the coarse surface").isZero();
        assertThat(with.overCoarse).as("fine particles over a coarse triangle").isGreaterThan(32);
        Run without = fineOnCoarse(false, 1);
        assertThat(without.below + (64 - without.overCoarse)).as("fine particles not resting on the coarse cloth")
                .isGreaterThan(32);
    }

    /**
     * The triangle takes the reaction: without gravity, a pebble thrown at 1 m/s onto the middle of a
     * free square (two triangles, 400 times the pebble's mass) does not pass through it but pushes it
     * (and bounces: the hit folds the square, whose bending springs it back): the corrections conserve
     * momentum, so the square carries what the pebble lost, to 1 % (float rounding over 240 steps).
     */
    @Test
    void aThrownPebblePushesTheTriangleItHits() {
        ModelObject[] objects = new ModelObject[2];
        ModelBuilder b = new ModelBuilder();
        ModelObject square = b.addGridCloth(GridClothSpec.of("big", 2, 2, 1f, 1f).withOrigin(0f, 0f, 0f));
        Model probe = b.build();
        int[] t = probe.triangles();
        float[] r = probe.restPositions();
        float cx = (r[3 * t[0]] + r[3 * t[1]] + r[3 * t[2]]) / 3f;
        float cz = (r[3 * t[0] + 2] + r[3 * t[1] + 2] + r[3 * t[2] + 2]) / 3f;
        ModelObject pebble = b.addGridCloth(GridClothSpec.of("pebble", 2, 2, 0.05f, 0.05f)
                .withOrigin(cx - 0.025f, 0.1f, cz - 0.025f));
        Model m = b.build().withMaterial(mat -> mat.withDamping(0f));
        State state = State.atRest(m);
        for (int i = pebble.firstParticle(); i < pebble.firstParticle() + pebble.particleCount(); i++) {
            state.velocities()[3 * i + 1] = -1f;
        }
        float[] before = momentum(m, state, square, pebble);
        try (WorkerPool pool = new WorkerPool(1)) {
            XpbdSolver s = new XpbdSolver(XpbdSettings.defaults(), pool).withParticleContacts(settings(true));
            Environment space = new Environment(new float[3], java.util.List.of());
            try (Simulation sim = new Simulation(m, state, s, space, 8)) {
                for (int f = 0; f < 30; f++) {
                    sim.advance(FRAME);
                }
            }
        }
        float[] after = momentum(m, state, square, pebble);
        float lost = before[1] - after[1];
        assertThat(after[0] + after[1]).as("total momentum, kg m/s").isCloseTo(before[0] + before[1],
                within(0.01f * Math.abs(before[1])));
        assertThat(after[0]).as("square's momentum, pushed down").isCloseTo(lost, within(0.01f * Math.abs(lost)))
                .isLessThan(0f);
        float lowest = Float.MAX_VALUE;
        for (int i = pebble.firstParticle(); i < pebble.firstParticle() + pebble.particleCount(); i++) {
            lowest = Math.min(lowest, state.positions()[3 * i + 1]);
        }
        float squareY = state.positions()[3 * square.gridParticle(0, 0) + 1];
        assertThat(lowest).as("pebble above the square").isGreaterThan(squareY);
    }

    /** Vertical momentum of the two bodies. */
    private static float[] momentum(Model m, State s, ModelObject a, ModelObject b) {
        float[] out = new float[2];
        ModelObject[] bodies = {a, b};
        for (int k = 0; k < 2; k++) {
            for (int i = bodies[k].firstParticle(); i < bodies[k].firstParticle() + bodies[k].particleCount(); i++) {
                out[k] += s.velocities()[3 * i + 1] / m.invMass()[i];
            }
        }
        return out;
    }

    /**
     * The scene above 25 times over, so that the passes are long enough to split: 25 fine 8 × 8 cloths
     * (2 cm spacing) dropped onto a coarse 11 × 11 cloth of 30 cm squares (edges pinned), 1,721
     * particles, no bending. Every XPBD color then has 256 items or more (with bending, its colors
     * of about 240 would not), so on 2 and 3 threads every pass of the solver, the particle contacts
     * and the vertex–triangle contacts really splits (the single 8 × 8 cloth on a 3 × 3 one, 73
     * particles, split none), and 1, 2 and 3 threads give the same bits. The contact distance is twice
     * the mean edge (8 cm): at the default one edge (4 cm here, 4.7 cm in the small scene) 199 of the
     * 1,600 fine particles ended up under the coarse surface after 20 frames (54 at 4.7 cm; measured).
     */
    @Test
    void vertexTriangleContactsAreBitwiseIdenticalForOneTwoAndThreeThreads() {
        // no tethers: they would all hang on the coarse cloth's pinned edges, colors of a few dozen
        ModelBuilder b = new ModelBuilder().tethers(false).bending(false);
        ModelObject coarse = b.addGridCloth(GridClothSpec.of("coarse", 11, 11, 3f, 3f).withOrigin(-1.5f, 0f, -1.5f));
        for (String edge : new String[] {"top", "bottom", "left", "right"}) {
            b.pinEdge(coarse, edge);
        }
        java.util.List<ModelObject> fine = new java.util.ArrayList<>();
        for (int i = 1; i < 10; i += 2) {
            for (int j = 1; j < 10; j += 2) {
                // as in fineOnCoarse, over a free vertex of the coarse cloth and its four squares
                float vx = -1.5f + 0.3f * i;
                float vz = -1.5f + 0.3f * j;
                fine.add(b.addGridCloth(GridClothSpec.of("fine" + i + "-" + j, 8, 8, 0.14f, 0.14f)
                        .withOrigin(vx - 0.12f, 0.1f, vz - 0.1f)));
            }
        }
        Model m = b.build();
        float[][] x = new float[3][];
        int[] held = new int[3];
        for (int t = 1; t <= 3; t++) {
            try (WorkerPool pool = new WorkerPool(t)) {
                XpbdSolver s = new XpbdSolver(XpbdSettings.defaults(), pool).withParticleContacts(
                        ParticleContactSettings.defaults().withDistanceFactor(2f).withVertexTriangle(true));
                Environment env = new Environment(new float[] {0f, -9.81f, 0f}, java.util.List.of());
                try (Simulation sim = new Simulation(m, State.atRest(m), s, env, 8)) {
                    for (int f = 0; f < 14; f++) { // they land after 9 frames (10 cm at g)
                        sim.advance(FRAME);
                    }
                    x[t - 1] = sim.state().positions().clone();
                    held[t - 1] = s.particleContacts().lastVertexTriangleCount();
                    PoolChecks.assertEveryPassSplit(pool, t + " threads");
                }
            }
        }
        int below = 0;
        int over = 0;
        int[] tris = m.triangles();
        int coarseTriangles = 2 * 10 * 10; // the coarse cloth's triangles come first
        for (ModelObject o : fine) {
            for (int i = o.firstParticle(); i < o.firstParticle() + o.particleCount(); i++) {
                for (int k = 0; k < coarseTriangles; k++) {
                    float surface = heightOver(x[0], tris[3 * k], tris[3 * k + 1], tris[3 * k + 2], x[0][3 * i],
                            x[0][3 * i + 2]);
                    if (!Float.isNaN(surface)) {
                        over++;
                        below += x[0][3 * i + 1] < surface ? 1 : 0;
                        break;
                    }
                }
            }
        }
        assertThat(held[0]).as("vertex–triangle contacts at work").isGreaterThan(0);
        assertThat(over).as("fine particles over the coarse cloth").isEqualTo(25 * 64);
        assertThat(below).as("fine particles under the coarse surface").isZero();
        assertThat(x[1]).isEqualTo(x[0]);
        assertThat(x[2]).isEqualTo(x[0]);
    }

    private record Run(int below, int overCoarse, float coarseCentre, int held, float[] positions) {
    }

    private static Run fineOnCoarse(boolean faces, int threads) {
        ModelBuilder b = new ModelBuilder();
        ModelObject coarse = b.addGridCloth(GridClothSpec.of("coarse", 3, 3, 0.6f, 0.6f).withOrigin(-0.3f, 0f, -0.3f));
        b.pinCorners(coarse, "top-left", "top-right", "bottom-left", "bottom-right");
        ModelObject fine = b.addGridCloth(GridClothSpec.of("fine", 8, 8, 0.14f, 0.14f).withOrigin(-0.12f, 0.1f, -0.1f));
        Model m = b.build();
        try (WorkerPool pool = new WorkerPool(threads)) {
            XpbdSolver s = new XpbdSolver(XpbdSettings.defaults(), pool)
                    .withParticleContacts(ParticleContactSettings.defaults().withVertexTriangle(faces));
            Environment env = new Environment(new float[] {0f, -9.81f, 0f}, java.util.List.of());
            try (Simulation sim = new Simulation(m, State.atRest(m), s, env, 8)) {
                for (int f = 0; f < 45; f++) {
                    sim.advance(FRAME);
                }
                float[] x = sim.state().positions();
                int below = 0;
                int over = 0;
                int[] t = m.triangles();
                for (int i = fine.firstParticle(); i < fine.firstParticle() + fine.particleCount(); i++) {
                    for (int k = 0; k < 2 * 2 * 2; k++) { // the coarse cloth's 8 triangles come first
                        float surface = heightOver(x, t[3 * k], t[3 * k + 1], t[3 * k + 2], x[3 * i], x[3 * i + 2]);
                        if (!Float.isNaN(surface)) {
                            over++;
                            below += x[3 * i + 1] < surface ? 1 : 0;
                            break;
                        }
                    }
                }
                return new Run(below, over, x[3 * coarse.gridParticle(1, 1) + 1],
                        s.particleContacts().lastVertexTriangleCount(), x.clone());
            }
        }
    }

    /** Height of triangle (a, b, c) over the point (px, pz) of the XZ plane, NaN when it is not over it. */
    private static float heightOver(float[] x, int a, int b, int c, float px, float pz) {
        float ax = x[3 * a];
        float az = x[3 * a + 2];
        float e1x = x[3 * b] - ax;
        float e1z = x[3 * b + 2] - az;
        float e2x = x[3 * c] - ax;
        float e2z = x[3 * c + 2] - az;
        float det = e1x * e2z - e1z * e2x;
        float u = ((px - ax) * e2z - (pz - az) * e2x) / det;
        float v = (e1x * (pz - az) - e1z * (px - ax)) / det;
        if (u < 0f || v < 0f || u + v > 1f) {
            return Float.NaN;
        }
        return x[3 * a + 1] + u * (x[3 * b + 1] - x[3 * a + 1]) + v * (x[3 * c + 1] - x[3 * a + 1]);
    }

    /**
     * A blown-up triangle (a corner 10¹⁸ m away, finite through the step: its upper grid cell saturates at 2³¹ − 1, where `c <= hi` never
     * ends) is left out of the face grid, so the step returns and the frame's divergence check names the
     * particle; before, the binning ran past its arrays (ArrayIndexOutOfBoundsException here, a hung kernel on a
     * device).
     */
    @Test
    void aBlownUpTriangleEndsInTheDivergenceErrorNotInTheFaceGrid() {
        ModelObject[] objects = new ModelObject[2];
        Model m = squareAndPebble(objects);
        int runaway = objects[1].firstParticle();
        State state = State.atRest(m);
        state.positions()[3 * runaway] = 1e18f;
        try (WorkerPool pool = new WorkerPool(1)) {
            XpbdSolver s = new XpbdSolver(XpbdSettings.defaults(), pool).withParticleContacts(settings(true));
            Environment env = new Environment(new float[] {0f, -9.81f, 0f}, java.util.List.of());
            try (Simulation sim = new Simulation(m, state, s, env, 8)) {
                assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(30), () -> sim.advance(FRAME)))
                        .isInstanceOf(SimulationDivergedException.class).hasMessageContaining("diverged");
            }
        }
    }
}
