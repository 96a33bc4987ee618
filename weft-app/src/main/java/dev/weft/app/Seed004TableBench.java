package dev.weft.app;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.SpringLayout;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.step.Environment;
import dev.weft.opencl.OpenClDevice;
import dev.weft.opencl.OpenClMassSpringSolver;
import dev.weft.render.RenderUnavailableException;
import dev.weft.render.compute.ComputeContext;
import dev.weft.render.compute.GlslMassSpringSolver;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code weft bench --table seed004}: seed 004's comparison of one mass-spring cloth algorithm on
 * several backends. Square 1 m cloths of 32² … 256² particles with seed 004's 12 springs per particle
 * ({@link SpringLayout#PATTERN_12}), the default material, pinned at two corners and falling, explicit
 * Verlet at each size's longest stable step; timed on the CPU solver for each thread count, on the
 * OpenCL solver and on the GLSL compute solver (OpenGL 4.3 through EGL). A row is Verlet steps per
 * second, the median of timed samples after warm-up ones, with the positions back on the host after
 * every {@code readback} steps: 1 (as a renderer drawing every step from the host would need), and for
 * OpenCL and GLSL also 10 (the device runs ten steps between reads).
 *
 * <p>The seed's text as stored here breaks off before its measurements (section 22.4 onwards), so
 * there are no published numbers to print beside these.
 */
final class Seed004TableBench {
    /** 32², 64², 128², 256² particles. */
    static final int[] DEFAULT_PARTICLES = {32 * 32, 64 * 64, 128 * 128, 256 * 256};
    /** Verlet steps per read-back of the OpenCL and GLSL rows: every step, and ten on the device between reads. */
    static final int[] OPENCL_READBACKS = {1, 10};
    /** A timed sample runs at least this long (s), so that a fast step is not timed one call at a time. */
    private static final double SAMPLE_SECONDS = 0.05;
    /** Calls before timing (at most), so that the springs are stretched and moving and the code is compiled. */
    private static final int SETTLE_CALLS = 50;

    private Seed004TableBench() {
    }

    /** The rows {@link #run} measures (OpenCL and GLSL rows counted even where they turn out to be missing). */
    static int rows(int[] particles, int[] threadCounts) {
        return particles.length * (threadCounts.length + 2 * OPENCL_READBACKS.length);
    }

    static int run(PrintWriter out, PrintWriter err, Path dir, int[] particles, int[] threadCounts, int deviceIndex, int warmup,
                   int samples, ProgressBar progress) throws IOException {
        String jdk = SystemInfo.jdk();
        String cpu = SystemInfo.cpu();
        TimedDevice timed = TimedDevice.pick(deviceIndex);
        OpenClDevice device = timed.device();
        String glsl;
        String glslMissing = null;
        try (ComputeContext probe = ComputeContext.open()) {
            glsl = probe.description();
        } catch (RenderUnavailableException e) {
            glsl = null;
            glslMissing = e.getMessage();
        }
        out.printf(Locale.ROOT, "weft bench --table seed004: explicit mass-spring cloth (seed 004's 12 springs per "
                + "particle), Verlet steps per second; median of %d samples after %d warm-up samples%n", samples, warmup);
        out.printf(Locale.ROOT, "  JDK: %s%n  CPU: %s%n  OpenCL: %s%n  GLSL: %s%n", jdk, cpu,
                timed.describe(),
                glsl != null ? glsl : "not measured: " + glslMissing);
        out.printf(Locale.ROOT, "  (the seed's text stored here ends before its measurements: no published "
                + "numbers to compare)%n%n");
        out.printf(Locale.ROOT, "%9s %8s %-8s %7s %9s %12s %12s%n", "particles", "springs", "backend", "threads",
                "readback", "steps/s", "ms/step");
        StepRatePlot plot = new StepRatePlot("seed 004: explicit mass-spring cloth, Verlet steps per second");
        Files.createDirectories(dir);
        Path csv = dir.resolve("seed004.csv");
        List<String> rows = new ArrayList<>();
        rows.add("particles,springs,backend,threads,device,verlet_steps_per_readback,steps_per_s,ms_per_step,"
                + "stable_step_s,jdk,cpu");
        for (int p : particles) {
            int side = (int) Math.round(Math.sqrt(p));
            Model model = cloth(side);
            for (int t : threadCounts) {
                try (WorkerPool pool = new WorkerPool(t);
                     MassSpringSolver solver = new MassSpringSolver(settings(), pool)) {
                    double stable = solver.stableStep(model);
                    double rate = stepsPerSecond(solver, model, stable, 1, warmup, samples);
                    progress.clear();
                    keep(csv, rows,
                            row(out, plot, model, "cpu", Integer.toString(t), cpu, 1, rate, stable, jdk, cpu));
                }
                progress.advance("seed004 " + side + "x" + side + ", cpu " + t + " thread(s)");
            }
            for (int readback : OPENCL_READBACKS) {
                if (device != null) {
                    try (OpenClMassSpringSolver solver = new OpenClMassSpringSolver(settings(), device)) {
                        double stable = solver.stableStep(model);
                        double rate = stepsPerSecond(solver, model, stable, readback, warmup, samples);
                        progress.clear();
                        keep(csv, rows, row(out, plot, model, "opencl", "-", device.deviceName(), readback, rate,
                                stable, jdk, cpu));
                    }
                }
                progress.advance("seed004 " + side + "x" + side + ", opencl, read back every " + readback);
            }
            for (int readback : OPENCL_READBACKS) {
                if (glsl != null) {
                    try (GlslMassSpringSolver solver = new GlslMassSpringSolver(settings())) {
                        double stable = solver.stableStep(model);
                        double rate = stepsPerSecond(solver, model, stable, readback, warmup, samples);
                        progress.clear();
                        keep(csv, rows, row(out, plot, model, "glsl", "-", glsl, readback, rate, stable, jdk, cpu));
                    } catch (RenderUnavailableException e) {
                        // a driver that fails the context's self-check (NVIDIA 580 after the first context):
                        // the other backends' rows are still worth having
                        progress.clear();
                        out.printf(Locale.ROOT, "  no more GLSL rows: %s%n", e.getMessage());
                        glsl = null;
                    }
                }
                progress.advance("seed004 " + side + "x" + side + ", glsl, read back every " + readback);
            }
        }
        AtomicTextFile.write(csv, rows);
        Path png = dir.resolve("seed004.png");
        progress.clear();
        if (plot.write(png, err)) {
            out.printf(Locale.ROOT, "%nwrote %s and %s%n", csv, png);
        } else {
            out.printf(Locale.ROOT, "%nwrote %s%n", csv);
        }
        return 0;
    }

    /** Adds {@code row} and writes the CSV so far: a driver that crashes later (NVIDIA's EGL did) loses no row. */
    private static void keep(Path csv, List<String> rows, String row) throws IOException {
        rows.add(row);
        AtomicTextFile.write(csv, rows);
    }

    /** Seed 004's cloth: side × side particles over 1 m, its 12 springs each, pinned at two corners. */
    static Model cloth(int side) {
        ModelBuilder b = new ModelBuilder().tethers(false).springLayout(SpringLayout.PATTERN_12);
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", side, side, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        return b.build();
    }

    /** Stable steps (a call of K stable steps' length runs K Verlet steps), no tethers: what the device runs. */
    private static MassSpringSettings settings() {
        return MassSpringSettings.defaults().withTethers(false);
    }

    /**
     * Median Verlet steps per second over {@code samples}, each a batch of calls of {@code readback} steps
     * (the State back on the host after each call), after {@code warmup} untimed batches.
     */
    private static double stepsPerSecond(Solver solver, Model model, double stable, int readback, int warmup,
                                         int samples) {
        // just under readback stable steps: StableStep.count splits it into exactly `readback` Verlet steps
        float dt = (float) (readback * stable * 0.999);
        Environment env = Environment.earth();
        State state = State.atRest(model);
        double rate = StepRate.median(() -> solver.step(model, state, env, dt), readback, SETTLE_CALLS, 0,
                SAMPLE_SECONDS, warmup, samples);
        for (float x : state.positions()) {
            if (!Float.isFinite(x)) {
                throw new IllegalStateException("seed004 bench: the cloth blew up (a non-finite position)");
            }
        }
        return rate;
    }

    private static String row(PrintWriter out, StepRatePlot plot, Model model, String backend, String threads,
                              String device, int readback, double rate, double stable, String jdk, String cpu) {
        int springs = model.springs().pairs().length / 2;
        plot.add(backend + (backend.equals("cpu") ? ", " + threads + " thread(s)" : ", read back every " + readback),
                model.particleCount(), rate);
        out.printf(Locale.ROOT, "%9d %8d %-8s %7s %9d %12.1f %12.4f%n", model.particleCount(), springs, backend,
                threads, readback, rate, 1e3 / rate);
        out.flush();
        return String.format(Locale.ROOT, "%d,%d,%s,%s,\"%s\",%d,%.3f,%.6f,%.4e,\"%s\",\"%s\"", model.particleCount(),
                springs, backend, threads, device, readback, rate, 1e3 / rate, stable, jdk, cpu);
    }
}
