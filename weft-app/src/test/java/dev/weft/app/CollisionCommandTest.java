package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import dev.weft.scene.SceneLibrary;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The command line of issue #5: {@code weft run stack --self-collision} keeps the cloths apart, with the
 * solvers that take contacts in three different ways (a projection pass in XPBD, the same after PD's
 * iterations with the optional vertex–triangle contacts, Baraff–Witkin's filter in the implicit solver).
 * The run lasts until the first cloth lies on the box and the second has landed on it.
 */
class CollisionCommandTest {
    /** The lowest cloth lands on the box at frame 11 (0.15 m of free fall), the second on it at frame 14. */
    private static final int FRAMES = 16;
    /** The stack's collider thickness (box and floor). */
    private static final float THICKNESS = 0.005f;

    // implicit Euler at 4 substeps rather than the scene's 8: stable at any step, and half the time (its step
    // costs four XPBD ones here)
    @ParameterizedTest(name = "--solver {0}")
    @ValueSource(strings = {"xpbd", "pd --vertex-triangle", "implicit --substeps 4"})
    void stackWithSelfCollisionLandsTheSecondClothOnTheFirstWithoutPassingThrough(String solver, @TempDir Path tmp)
            throws IOException {
        StringWriter err = new StringWriter();
        List<String> args = new ArrayList<>(List.of("run", "stack", "--frames", Integer.toString(FRAMES),
                "--self-collision", "--threads", "1", "--quiet", "--obj-every", Integer.toString(FRAMES), "--out",
                tmp.toString(), "--solver"));
        args.addAll(List.of(solver.split(" ")));
        int code = WeftMain.execute(args.toArray(new String[0]), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        Path dir = tmp.resolve("stack");

        List<String> rows = Files.readAllLines(dir.resolve("metrics.csv"));
        assertThat(rows).hasSize(FRAMES + 1);
        for (int f = 1; f <= FRAMES; f++) {
            double clearance = Double.parseDouble(rows.get(f).split(",")[6]);
            // never inside the box or the floor
            assertThat(clearance).as("%s: least collider clearance at frame %d", solver, f)
                    .isGreaterThanOrEqualTo(0.99 * THICKNESS);
            if (f >= 13) {
                assertThat(clearance).as("%s: the lowest cloth lies on the box at frame %d", solver, f)
                        .isLessThanOrEqualTo(1.05 * THICKNESS);
            }
        }

        Model model = SceneLibrary.load("stack").model();
        float contact = new ParticleContacts(model, ParticleContactSettings.defaults()).contactDistance();
        float[] x = objPositions(dir.resolve(String.format("frame_%05d.obj", FRAMES)), model.particleCount());
        ModelObject first = model.objects().get(0);
        ModelObject second = model.objects().get(1);
        assertThat(closest(x, first, second)).as("%s: the second cloth rests on the first", solver)
                .isLessThanOrEqualTo(1.05f * contact);
        int middleOfFirst = first.gridParticle(first.gridRows() / 2, first.gridCols() / 2);
        int middleOfSecond = second.gridParticle(second.gridRows() / 2, second.gridCols() / 2);
        assertThat(x[3 * middleOfSecond + 1] - x[3 * middleOfFirst + 1]).as("%s: the second cloth above the first, "
                + "over the box's middle", solver).isGreaterThan(0.5f * contact);
        // the seed's criterion (fig. 6.11): no two cloths closer than half the contact distance anywhere
        for (int a = 0; a < model.objects().size(); a++) {
            for (int b = a + 1; b < model.objects().size(); b++) {
                assertThat(closest(x, model.objects().get(a), model.objects().get(b)))
                        .as("%s: closest particles of cloths %d and %d", solver, a, b)
                        .isGreaterThanOrEqualTo(0.5f * contact);
            }
        }
    }

    @Test
    void vertexTriangleContactsNeedSelfCollisionAndScenesListTheShowcases(@TempDir Path tmp) {
        StringWriter refused = new StringWriter();
        assertThat(WeftMain.execute(new String[] {"run", "stack", "--frames", "1", "--vertex-triangle", "--quiet",
            "--out", tmp.toString()}, new PrintWriter(new StringWriter(), true), new PrintWriter(refused, true)))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(refused.toString()).contains("--vertex-triangle", "--self-collision");
        StringWriter list = new StringWriter();
        assertThat(WeftMain.execute(new String[] {"scenes"}, new PrintWriter(list, true),
                new PrintWriter(new StringWriter(), true))).isZero();
        assertThat(list.toString()).contains("stack", "spheres", "funnel", "cannonball");
    }

    /** The "v x y z" lines of an OBJ frame, in order: the particle positions. */
    private static float[] objPositions(Path obj, int particles) throws IOException {
        float[] x = new float[3 * particles];
        int n = 0;
        for (String line : Files.readAllLines(obj)) {
            if (line.startsWith("v ")) {
                String[] c = line.trim().split("\\s+");
                for (int k = 0; k < 3; k++) {
                    x[3 * n + k] = Float.parseFloat(c[k + 1]);
                    assertThat(Float.isFinite(x[3 * n + k])).as("particle %d", n).isTrue();
                }
                n++;
            }
        }
        assertThat(n).as("vertices in " + obj.getFileName()).isEqualTo(particles);
        return x;
    }

    private static float closest(float[] x, ModelObject a, ModelObject b) {
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
}
