package dev.weft.app;

import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.opencl.OpenClDevice;
import dev.weft.opencl.OpenClDevices;
import dev.weft.opencl.OpenClUnavailableException;
import dev.weft.opencl.OpenClXpbdSolver;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code weft bench --table gpu}: issue #16's device numbers. XPBD, colored, 10 iterations per step (one
 * pass each), on square 1 m cloths of 256² … 1024² particles (stretch, shear and distance bending, no
 * tethers, one edge pinned, swinging down under gravity), on the CPU solver for each thread count and on
 * the OpenCL solver with the state back on the host after every step and after every tenth (the device
 * keeps it between: {@link Solver#steps}). A row is steps per second, the median of timed samples after
 * untimed ones.
 *
 * <p>The step is 1/600 s, a 60 frames/s frame in ten substeps: at 1/60 s, ten iterations leave the
 * hanging 64² cloth 51 % longer than its rest length (and 1000 % at two pinned corners), where 1/600 s
 * leaves it within 2 % after 1 s — a rate of a setting nobody would use is not worth a row. Which
 * backend ran does not change the physics: the tests hold the device to the CPU's result.
 */
final class GpuTableBench {
    /** 256², 512², 1024² particles: the sizes issue #16 asks for. */
    static final int[] DEFAULT_PARTICLES = {256 * 256, 512 * 512, 1024 * 1024};
    /** Steps per read-back of the device rows. */
    static final int[] DEVICE_READBACKS = {1, 10};
    /** Constraint iterations per step, as the target names. */
    static final int ITERATIONS = 10;
    /** One substep of a 60 frames/s frame in ten (the class comment says why not 1/60 s). */
    static final float STEP = 1f / 600f;
    /** A timed sample runs at least this long (s): a fast step is not timed one call at a time. */
    private static final double SAMPLE_SECONDS = 0.1;
    /** Untimed calls run at least this long (s) before the samples: the code compiled, the cloth moving. */
    private static final double SETTLE_SECONDS = 0.5;

    private GpuTableBench() {
    }

    /** The rows {@link #run} measures (device rows counted even where no device turns out to be there). */
    static int rows(int[] particles, int[] threadCounts) {
        return particles.length * (threadCounts.length + DEVICE_READBACKS.length);
    }

    static int run(PrintWriter out, Path dir, int[] particles, int[] threadCounts, int deviceIndex, int warmup,
                   int samples, ProgressBar progress) throws IOException {
        String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        String cpu = SystemInfo.cpuModel() + " (" + Runtime.getRuntime().availableProcessors() + " logical CPUs)";
        OpenClDevice device = null;
        String missing = null;
        try {
            device = OpenClDevices.pick(deviceIndex);
        } catch (OpenClUnavailableException e) {
            missing = e.getMessage();
        }
        XpbdSettings settings = settings();
        out.printf(Locale.ROOT, "weft bench --table gpu: XPBD colored, %d iterations per step of 1/600 s, cloth with "
                + "stretch, shear and distance bending; steps per second, median of %d samples after %d untimed%n",
                ITERATIONS, samples, warmup);
        out.printf(Locale.ROOT, "  JDK: %s%n  CPU: %s%n  OpenCL: %s%n%n", jdk, cpu,
                device != null ? device.describe() : "not measured: " + missing);
        out.printf(Locale.ROOT, "%9s %11s %-8s %7s %9s %11s %10s%n", "particles", "constraints", "backend",
                "threads", "readback", "steps/s", "ms/step");
        List<String> rows = new ArrayList<>();
        rows.add("particles,constraints,solver,iterations,backend,threads,device,steps_per_readback,steps_per_s,"
                + "ms_per_step,jdk,cpu");
        for (int p : particles) {
            int side = (int) Math.round(Math.sqrt(p));
            Model model = cloth(side);
            for (int t : threadCounts) {
                try (WorkerPool pool = new WorkerPool(t)) {
                    double rate = stepsPerSecond(new XpbdSolver(settings, pool), model, 1, warmup, samples);
                    progress.clear();
                    rows.add(row(out, model, "cpu", Integer.toString(t), cpu, 1, rate, jdk, cpu));
                }
                progress.advance("gpu table " + side + "x" + side + ", cpu " + t + " thread(s)");
            }
            for (int readback : DEVICE_READBACKS) {
                if (device != null) {
                    try (OpenClXpbdSolver solver = new OpenClXpbdSolver(settings, device)) {
                        double rate = stepsPerSecond(solver, model, readback, warmup, samples);
                        progress.clear();
                        rows.add(row(out, model, "opencl", "-", device.deviceName(), readback, rate, jdk, cpu));
                    }
                }
                progress.advance("gpu table " + side + "x" + side + ", opencl, read back every " + readback);
            }
        }
        Files.createDirectories(dir);
        Path csv = dir.resolve("gpu.csv");
        AtomicTextFile.write(csv, rows);
        progress.clear();
        out.printf(Locale.ROOT, "%nwrote %s%n", csv);
        return 0;
    }

    /** XPBD colored, {@link #ITERATIONS} iterations of one pass each, no tethers (the model has none). */
    static XpbdSettings settings() {
        return XpbdSettings.defaults().withIterations(ITERATIONS).withStretchPasses(1).withTethers(false);
    }

    /** side × side particles over 1 m, distance bending, no tethers, one edge pinned. */
    static Model cloth(int side) {
        ModelBuilder b = new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE);
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", side, side, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinEdge(cloth, "top");
        return b.build();
    }

    /**
     * Median steps per second over {@code samples}, each at least {@link #SAMPLE_SECONDS} of calls that
     * advance {@code readback} steps (the state on the host after each call), after at least
     * {@link #SETTLE_SECONDS} and {@code warmup} samples of untimed calls.
     */
    static double stepsPerSecond(Solver solver, Model model, int readback, int warmup, int samples) {
        Environment env = Environment.earth();
        State state = State.atRest(model);
        long t0 = System.nanoTime();
        int settle = 0;
        do {
            solver.steps(model, state, env, STEP, readback);
            settle++;
        } while (settle < 3 || System.nanoTime() - t0 < SETTLE_SECONDS * 1e9);
        double perCall = (System.nanoTime() - t0) / 1e9 / settle;
        int calls = (int) Math.max(1, Math.min(100_000, Math.ceil(SAMPLE_SECONDS / perCall)));
        double[] rates = new double[samples];
        for (int s = 0; s < warmup + samples; s++) {
            long start = System.nanoTime();
            for (int c = 0; c < calls; c++) {
                solver.steps(model, state, env, STEP, readback);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (s >= warmup) {
                rates[s - warmup] = (double) calls * readback / seconds;
            }
        }
        int bad = ClothMetrics.firstNonFinite(state.positions());
        if (bad >= 0) {
            throw new IllegalStateException("gpu table: the cloth blew up (particle " + bad / 3 + " is not finite)");
        }
        Arrays.sort(rates);
        return rates[samples / 2];
    }

    private static String row(PrintWriter out, Model model, String backend, String threads, String device, int readback,
                              double rate, String jdk, String cpu) {
        int constraints = model.distances().count();
        out.printf(Locale.ROOT, "%9d %11d %-8s %7s %9d %11.1f %10.3f%n", model.particleCount(), constraints,
                backend, threads, readback, rate, 1e3 / rate);
        out.flush();
        return String.format(Locale.ROOT, "%d,%d,xpbd,%d,%s,%s,\"%s\",%d,%.3f,%.6f,\"%s\",\"%s\"",
                model.particleCount(), constraints, ITERATIONS, backend, threads, device, readback, rate, 1e3 / rate,
                jdk, cpu);
    }
}
