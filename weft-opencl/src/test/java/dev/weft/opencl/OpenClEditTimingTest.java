package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.solver.xpbd.XpbdDeviceLayout;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What an edit costs the OpenCL XPBD solver (colored, the defaults) on {@code weft bench --table tear}'s setup:
 * the hanging scene's 100 × 100 cloth (pinned at two corners, 16 substeps at 60 fps), 100 particles of its
 * middle row split in one edit. Per trial, on one solver: a fresh cloth stepped 20 times, the median of 5
 * plain steps, the edit, the first step after it (the solver taking the new model) and the step after that;
 * the medians over {@link #TRIALS} trials are printed, with the bytes the host wrote into the device's buffers
 * in the first step after the edit and in a fresh solver's first step of the edited model (a full bind).
 * Slow (10⁴ particles, a shared machine): run with {@code -DexcludedTestGroups=none}.
 */
@Tag("slow")
class OpenClEditTimingTest {
    private static final int SIZE = 100;
    private static final int TRIALS = 15;
    private static final float DT = 1f / (60f * 16f);

    @Test
    void theStepAfterTearingARowOfTheHundredByHundredCloth() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Environment env = Environment.earth();
        double[] plain = new double[TRIALS];
        double[] afterEdit = new double[TRIALS];
        double[] next = new double[TRIALS];
        double[] layout = new double[TRIALS];
        long editBytes = 0;
        try (OpenClXpbdSolver solver = new OpenClXpbdSolver(XpbdSettings.defaults(), device)) {
            for (int trial = 0; trial < TRIALS; trial++) {
                Model model = tearableCloth();
                State state = State.atRest(model);
                for (int k = 0; k < 20; k++) {
                    solver.step(model, state, env, DT);
                }
                double[] steps = new double[5];
                for (int k = 0; k < steps.length; k++) {
                    long t0 = System.nanoTime();
                    solver.step(model, state, env, DT);
                    steps[k] = (System.nanoTime() - t0) / 1e6;
                }
                plain[trial] = median(steps);
                Model edited = model.edit(OpenClEditTest.rowSplits(model, SIZE / 2));
                assertThat(edited.particleCount()).isEqualTo(SIZE * SIZE + SIZE);
                state = state.resizedFor(edited);
                long t0 = System.nanoTime();
                new XpbdDeviceLayout(edited, XpbdSettings.defaults());
                layout[trial] = (System.nanoTime() - t0) / 1e6;
                long bytes0 = solver.cl.bytesWritten();
                long t1 = System.nanoTime();
                solver.step(edited, state, env, DT);
                long t2 = System.nanoTime();
                editBytes = solver.cl.bytesWritten() - bytes0;
                solver.step(edited, state, env, DT);
                long t3 = System.nanoTime();
                afterEdit[trial] = (t2 - t1) / 1e6;
                next[trial] = (t3 - t2) / 1e6;
            }
        }
        long fullBytes;
        Model edited = tearableCloth();
        edited = edited.edit(OpenClEditTest.rowSplits(edited, SIZE / 2));
        try (OpenClXpbdSolver fresh = new OpenClXpbdSolver(XpbdSettings.defaults(), device)) {
            long b0 = fresh.cl.bytesWritten();
            fresh.step(edited, State.atRest(edited), env, DT);
            fullBytes = fresh.cl.bytesWritten() - b0;
        }
        System.out.printf(Locale.ROOT, "OpenCL XPBD on %s, %d x %d cloth, 100 splits: plain step %.3f ms, first step "
                        + "after the edit %.3f ms, the step after it %.3f ms; the host's XpbdDeviceLayout of the "
                        + "edited "
                        + "model alone %.3f ms (medians of %d); bytes written: edit "
                        + "step %d, full bind %d (%.1f %%)%n", device.deviceName(), SIZE, SIZE, median(plain),
                median(afterEdit), median(next), median(layout), TRIALS, editBytes, fullBytes,
                100.0 * editBytes / fullBytes);
        assertThat(editBytes).isPositive();
    }

    /** {@code weft bench --table tear}'s cloth: the hanging scene's, made to tear at 100 % strain. */
    private static Model tearableCloth() {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", SIZE, SIZE, 1f, 1f)
                .withOrigin(-0.5f, 1.0f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        b.tearStrain(cloth, 1f);
        return b.build();
    }

    private static double median(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
