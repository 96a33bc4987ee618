package dev.weft.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.BuiltInScenes;
import dev.weft.core.scene.Scene;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A run stopped at a checkpoint and resumed ends bitwise where the uninterrupted run ends (issue #13 item 9). */
class CheckpointTest {
    private static Model cloth() {
        ModelBuilder b = new ModelBuilder();
        ModelObject c = b.addGridCloth(GridClothSpec.of("cloth", 20, 20, 0.6f, 0.6f).withOrigin(-0.3f, 0.5f, -0.3f));
        b.pinCorners(c, "top-left", "top-right");
        return b.build();
    }

    /** Fresh colliders each time: a sphere the cloth swings onto, and the floor it reaches. */
    private static Environment surroundings() {
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(
                new SphereCollider("sphere", new float[] {0f, 0.2f, 0.1f}, 0.12f, 0.005f, 0.3f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
    }

    private static State run(Model m, Environment env, String solver, State from, Path checkpoint, int frames,
                             boolean write) throws IOException {
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, pool), env, 4)) {
            if (from != null) {
                Checkpoint.read(checkpoint, sim);
            }
            for (int f = 0; f < frames; f++) {
                sim.advance(1f / 60f);
            }
            if (write) {
                Checkpoint.write(checkpoint, sim);
            }
            return sim.state().copy();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "pbd", "pd", "relaxation", "implicit", "mass-spring"})
    void resumingAtFrame30Of60EndsBitwiseWhereOneRunEnds(String solver, @TempDir Path tmp) throws IOException {
        Model m = cloth();
        Path file = tmp.resolve("checkpoint.weft");
        State whole = run(m, surroundings(), solver, null, file, 60, false);
        State half = run(m, surroundings(), solver, null, file, 30, true);
        State resumed = run(m, surroundings(), solver, half, file, 30, false);
        assertThat(resumed.positions()).isEqualTo(whole.positions());
        assertThat(resumed.velocities()).isEqualTo(whole.velocities());
        assertThat(resumed.steps()).isEqualTo(whole.steps());
        assertThat(resumed.time()).isEqualTo(whole.time());
        // the cloth did reach the sphere: a checkpoint of a run where nothing touched proves less
        assertThat(resumed.positions()[3 * 210 + 1]).isLessThan(0.45f);
    }

    /** A torn cloth (two grips pull it apart) stopped mid-tear and resumed from its edit log. */
    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "pbd", "pd", "relaxation", "implicit", "mass-spring"})
    void resumingATearingClothReplaysItsEditsAndEndsBitwiseWhereOneRunEnds(String solver, @TempDir Path tmp)
            throws IOException {
        Model m = dev.weft.core.interact.TearingTest.pulledCloth(BendingModel.DISTANCE, 0.3f);
        Path file = tmp.resolve("torn.weft");
        float[] half = tear(m, solver, null, file, 90, null);
        tear(m, solver, null, file, 45, file);
        float[] resumed = tear(m, solver, file, file, 45, null);
        assertThat(resumed).isEqualTo(half);
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, pool),
                     dev.weft.core.interact.TearingTest.grips(m, 0.4f), 8)) {
            Checkpoint.read(file, sim);
            assertThat(sim.model().edits()).as("the checkpoint was written after the tear began").isNotEmpty();
            assertThat(sim.state().particleCount()).isGreaterThan(m.particleCount());
        }
    }

    private static float[] tear(Model m, String solver, Path from, Path checkpoint, int frames, Path writeTo)
            throws IOException {
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, pool),
                     dev.weft.core.interact.TearingTest.grips(m, 0.4f), 8)) {
            if (from != null) {
                Checkpoint.read(from, sim);
            }
            for (int f = 0; f < frames; f++) {
                sim.advance(1f / 60f);
            }
            if (writeTo != null) {
                Checkpoint.write(writeTo, sim);
            }
            return sim.state().positions().clone();
        }
    }

    /** Frames of the cannonball scene (a fresh one: its ball carries its flight), resumed from {@code from} if given. */
    private static float[] cannonball(int frames, Path from, Path writeTo) throws IOException {
        Scene s = BuiltInScenes.byName("cannonball");
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(s.model(), State.atRest(s.model()), Solvers.create("xpbd", s.xpbd(), pool),
                     s.environment(), s.substeps())) {
            if (from != null) {
                Checkpoint.read(from, sim);
            }
            for (int f = 0; f < frames; f++) {
                sim.advance(1f / s.fps());
            }
            if (writeTo != null) {
                Checkpoint.write(writeTo, sim);
            }
            return sim.state().positions().clone();
        }
    }

    @Test
    void aProjectilesFlightIsPartOfTheCheckpoint(@TempDir Path tmp) throws IOException {
        // the ball hits the cloth at frame 5 (CollisionScenesTest): stop at 4, in flight, and at 8, in contact
        for (int stop : new int[] {4, 8}) {
            Path file = tmp.resolve("c" + stop + ".weft");
            float[] whole = cannonball(14, null, null);
            cannonball(stop, null, file);
            float[] resumed = cannonball(14 - stop, file, null);
            assertThat(resumed).as("stopped at frame %d", stop).isEqualTo(whole);
        }
    }

    @Test
    void aDamagedOrForeignFileIsRefusedWithItsNameAndTheReason(@TempDir Path tmp) throws IOException {
        Model m = cloth();
        Path file = tmp.resolve("good.weft");
        run(m, surroundings(), "xpbd", null, file, 2, true);
        byte[] good = Files.readAllBytes(file);

        Path flipped = tmp.resolve("flipped.weft");
        byte[] bad = good.clone();
        bad[100] ^= 1;
        Files.write(flipped, bad);
        assertThatThrownBy(() -> run(m, surroundings(), "xpbd", State.atRest(m), flipped, 1, false))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("flipped.weft").hasMessageContaining("corrupted");

        Path cut = tmp.resolve("cut.weft");
        Files.write(cut, java.util.Arrays.copyOf(good, good.length / 2));
        assertThatThrownBy(() -> run(m, surroundings(), "xpbd", State.atRest(m), cut, 1, false))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("cut.weft");

        Path text = tmp.resolve("notes.weft");
        Files.writeString(text, "hello, not a checkpoint");
        assertThatThrownBy(() -> run(m, surroundings(), "xpbd", State.atRest(m), text, 1, false))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("not a Weft checkpoint");

        assertThatThrownBy(() -> run(m, surroundings(), "pd", State.atRest(m), file, 1, false))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("xpbd solver");

        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("other", 8, 8, 0.6f, 0.6f));
        Model other = b.build();
        assertThatThrownBy(() -> run(other, surroundings(), "xpbd", State.atRest(other), file, 1, false))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("400 particles");

        // the same scene of another cloth would not continue the run: refused, naming the body and the field
        Model softer = m.withMaterial(mat -> mat.withStretch(1500f));
        assertThatThrownBy(() -> run(softer, surroundings(), "xpbd", State.atRest(softer), file, 1, false))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("good.weft")
                .hasMessageContaining("stretch stiffness 2000.0 where this run has 1500.0")
                .hasMessageContaining("--stretch");
    }
}
