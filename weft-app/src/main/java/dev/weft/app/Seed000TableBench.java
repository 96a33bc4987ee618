package dev.weft.app;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.SimulationDivergedException;
import dev.weft.core.solver.implicit.FilteredPcg;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.implicit.LinearMethod;
import dev.weft.core.step.Environment;
import dev.weft.opencl.OpenClDevice;
import dev.weft.opencl.OpenClImplicitSolver;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * {@code weft bench --table seed000}: seed 000's appendix table C.1 on this machine. Square cloths of
 * 100 … 3600 particles (and 10k, 40k, 250k with {@code --big}), 1 m, pinned at two corners and falling,
 * implicit Euler at h = 0.01 s (the step seed 000 §6.1 runs Jacobi at) with seed 000's 24-neighbour
 * springs, the linear solver always running exactly 10, 30, 50 or 70 iterations (as the seed's fixed
 * counts), CG and Jacobi, for each thread count. Each cell: the median wall time of single steps after
 * a warm-up, as steps per second (also from the calling thread's CPU time, which a shared machine's
 * other load does not inflate), beside the seed's 2006 CPU and GPU frame rates; and where the time
 * goes (assembly of forces, Jacobians and A; the CG matrix-vector products; the vector updates and
 * reductions). A run that blows up (the seed's "X": Jacobi at 10 iterations) is reported as failed.
 *
 * <p>The OpenCL column: the same cell on the OpenCL implicit solver ({@link OpenClImplicitSolver}, CG or
 * Jacobi, the device {@code --device} picks), the median of single steps after the warm-up as for the CPU,
 * each step reading the positions and velocities back (as the CPU's are on the host); measured once per
 * size, method and iteration count and written on each of that cell's thread rows; "failed" (0 in the CSV)
 * where the run diverged. Empty where there is no OpenCL device (the header says why).
 */
final class Seed000TableBench {
    static final int[] DEFAULT_SIZES = {100, 400, 900, 1600, 2500, 3600};
    static final int[] BIG_SIZES = {10_000, 40_000, 250_000};
    static final int[] ITERATIONS = {10, 30, 50, 70};
    private static final float STEP = 0.01f;

    /** Seed 000 appendix C.1, CPU (Pentium-M 2.0 GHz) without rendering, 30 and 70 iterations; −1 = not given. */
    private static final int[] SEED_SIZES = {100, 400, 900, 1600, 2500, 3600};
    private static final int[][] CPU_JACOBI_NO_RENDER = {{-1, 272, -1, 218}, {-1, 51, -1, 37}, {-1, 17, -1, 13},
            {-1, 7, -1, 4}, {-1, 4, -1, 2}, {-1, 2, -1, 1}};
    private static final int[][] CPU_CG_NO_RENDER = {{-1, 257, -1, 141}, {-1, 42, -1, 27}, {-1, 14, -1, 9},
            {-1, 6, -1, 3}, {-1, 3, -1, 2}, {-1, 2, -1, 1}};
    /** CPU with rendering, all four counts (0 = the seed's "X", failed); used where no-render is not given. */
    private static final int[][] CPU_JACOBI_RENDER = {{230, 170, 155, 130}, {50, 42, 35, 32}, {0, 16, 13, 11},
            {0, 6, 5, 4}, {0, 4, 3, 2}, {0, 2, 2, 1}};
    private static final int[][] CPU_CG_RENDER = {{230, 160, 120, 110}, {45, 35, 29, 24}, {17, 12, 10, 8},
            {8, 6, 4, 3}, {5, 3, 2, 2}, {4, 2, 2, 1}};
    /** GPU (GeForce 6800 Go), wireframe drawing, which the seed measured as no slower than none. */
    private static final int[][] GPU_JACOBI = {{142, 63, 40, 30}, {100, 48, 31, 23}, {67, 34, 23, 17},
            {46, 22, 15, 11}, {28, 13, 9, 7}, {20, 10, 6, 5}};
    private static final int[][] GPU_CG = {{75, 32, 20, 15}, {59, 26, 16, 12}, {43, 20, 13, 10}, {32, 14, 9, 7},
            {22, 10, 6, 5}, {15, 7, 4, 3}};

    /** One measured cell. */
    record Cell(int particles, LinearMethod method, int iterations, int threads, boolean failed, double stepsPerSecond,
                double cpuStepsPerSecond, double assemblyMs, double solveMs, double productMs, double vectorMs,
                double relativeResidual) {
    }

    private Seed000TableBench() {
    }

    /** The rows {@link #run} measures, and its OpenCL cells (counted even where there turns out to be no device). */
    static int rows(int[] sizes, int[] threadCounts) {
        return sizes.length * LinearMethod.values().length * ITERATIONS.length * (threadCounts.length + 1);
    }

    static int run(PrintWriter out, PrintWriter err, Path dir, int[] sizes, int[] threadCounts, int deviceIndex, int warmup,
                   int samples, ProgressBar progress) throws IOException {
        String jdk = SystemInfo.jdk();
        String cpu = SystemInfo.cpu();
        TimedDevice timed = TimedDevice.pick(deviceIndex);
        OpenClDevice device = timed.device();
        out.printf(Locale.ROOT, "weft bench --table seed000: implicit Euler, h = %.3f s, 24-neighbour springs, "
                + "fixed linear iterations%n", STEP);
        out.printf(Locale.ROOT, "  JDK: %s%n  CPU: %s%n  OpenCL: %s%n  median of %d steps after %d warm-up steps%n%n",
                jdk, cpu, timed.describe(), samples, warmup);
        out.printf(Locale.ROOT, "%9s %-6s %4s %3s %10s %10s %9s %9s %8s %8s %8s %8s %8s %10s%n", "particles", "solver",
                "iter", "thr", "steps/s", "cpu st/s", "seed CPU", "seed GPU", "xCPU", "asm ms", "solve ms", "matvec",
                "vec+red", "ocl st/s");
        List<Cell> cells = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        rows.add("particles,solver,iterations,threads,failed,steps_per_s,cpu_steps_per_s,seed_cpu_fps,seed_cpu_rendering,seed_gpu_fps,"
                + "ratio_to_seed_cpu,ratio_to_seed_gpu,assembly_ms,solve_ms,matvec_ms,vector_reduction_ms,"
                + "relative_residual,opencl_steps_per_s,opencl_ratio_to_seed_gpu,opencl_device,jdk,cpu");
        String deviceName = device == null ? "" : device.deviceName();
        for (int particles : sizes) {
            int side = (int) Math.round(Math.sqrt(particles));
            for (LinearMethod method : LinearMethod.values()) {
                for (int iterations : ITERATIONS) {
                    // the device's cell, once for all thread rows: NaN where not measured, 0 where it failed
                    double openCl = Double.NaN;
                    if (device != null) {
                        openCl = measureOpenCl(side, method, iterations, device, warmup, samples);
                        progress.clear();
                    }
                    progress.advance(side * side + " particles, " + method.label() + " " + iterations
                            + " iterations, opencl");
                    for (int threads : threadCounts) {
                        Cell c = measure(side, method, iterations, threads, warmup, samples);
                        progress.clear();
                        cells.add(c);
                        int seedRow = seedRow(side * side);
                        int col = Arrays.binarySearch(ITERATIONS, iterations);
                        int cpuFps = seedCpu(method, seedRow, col);
                        boolean cpuRendering = seedRow >= 0 && noRender(method)[seedRow][col] < 0;
                        int gpuFps = seedRow < 0 ? -1 : (method == LinearMethod.CG ? GPU_CG : GPU_JACOBI)[seedRow][col];
                        String cpuText = cpuFps < 0 ? "-" : cpuFps == 0 ? "X" : cpuFps + (cpuRendering ? "r" : "");
                        String gpuText = gpuFps < 0 ? "-" : Integer.toString(gpuFps);
                        String ratio = c.failed || cpuFps <= 0 ? "-" : String.format(Locale.ROOT, "%.0f", c.stepsPerSecond / cpuFps);
                        String openClText = Double.isNaN(openCl) ? "-" : openCl == 0.0 ? "failed"
                                : String.format(Locale.ROOT, "%.1f", openCl);
                        out.printf(Locale.ROOT, "%9d %-6s %4d %3d %10s %10s %9s %9s %8s %8.3f %8.3f %8.3f %8.3f %10s%n",
                                side * side, method.label(), iterations, threads,
                                c.failed ? "failed" : String.format(Locale.ROOT, "%.1f", c.stepsPerSecond),
                                c.failed ? "-" : String.format(Locale.ROOT, "%.1f", c.cpuStepsPerSecond), cpuText,
                                gpuText, ratio, c.assemblyMs, c.solveMs, c.productMs, c.vectorMs, openClText);
                        out.flush();
                        progress.advance(side * side + " particles, " + method.label() + " " + iterations
                                + " iterations, " + threads + " thread(s)");
                        boolean measured = !Double.isNaN(openCl);
                        rows.add(String.format(Locale.ROOT, "%d,%s,%d,%d,%b,%.3f,%.3f,%s,%b,%s,%s,%s,%.4f,%.4f,%.4f,%.4f,%.3e,%s,%s,\"%s\",\"%s\",\"%s\"",
                                side * side, method.label(), iterations, threads, c.failed, c.failed ? 0.0 : c.stepsPerSecond,
                                c.failed ? 0.0 : c.cpuStepsPerSecond,
                                cpuFps < 0 ? "" : Integer.toString(cpuFps), cpuRendering,
                                gpuFps < 0 ? "" : Integer.toString(gpuFps),
                                c.failed || cpuFps <= 0 ? "" : String.format(Locale.ROOT, "%.2f", c.stepsPerSecond / cpuFps),
                                c.failed || gpuFps <= 0 ? "" : String.format(Locale.ROOT, "%.2f", c.stepsPerSecond / gpuFps),
                                c.assemblyMs, c.solveMs, c.productMs, c.vectorMs, c.relativeResidual,
                                measured ? String.format(Locale.ROOT, "%.3f", openCl) : "",
                                measured && openCl > 0.0 && gpuFps > 0
                                        ? String.format(Locale.ROOT, "%.2f", openCl / gpuFps) : "",
                                measured ? deviceName : "", jdk, cpu));
                    }
                }
            }
        }
        Files.createDirectories(dir);
        Path csv = dir.resolve("seed000.csv");
        try (AtomicTextFile file = new AtomicTextFile(csv)) {
            for (String r : rows) {
                file.line(r);
            }
        }
        Path png = dir.resolve("seed000.png");
        boolean drawn = writePlot(cells, threadCounts, png, err);
        out.printf(Locale.ROOT, "%n  steps/s: 1000 / median wall ms per step; cpu st/s: 1000 / median CPU ms of the "
                + "calling thread per step (excludes time it was descheduled on a shared machine; with 2 threads it "
                + "includes its wait for the other)%n");
        out.printf(Locale.ROOT, "  seed CPU: frames/s without rendering where the seed gives them (30, 70 "
                + "iterations), else with rendering (marked r); X: the seed's run failed%n");
        if (drawn) {
            out.printf(Locale.ROOT, "wrote %s and %s%n", csv, png);
        } else {
            out.printf(Locale.ROOT, "wrote %s%n", csv);
        }
        return 0;
    }

    private static int[][] noRender(LinearMethod m) {
        return m == LinearMethod.CG ? CPU_CG_NO_RENDER : CPU_JACOBI_NO_RENDER;
    }

    private static int seedRow(int particles) {
        return Arrays.binarySearch(SEED_SIZES, particles);
    }

    /** The seed's CPU frame rate: without rendering where given, else with; −1 outside its table, 0 for "X". */
    private static int seedCpu(LinearMethod m, int row, int col) {
        if (row < 0) {
            return -1;
        }
        int plain = noRender(m)[row][col];
        return plain >= 0 ? plain : (m == LinearMethod.CG ? CPU_CG_RENDER : CPU_JACOBI_RENDER)[row][col];
    }

    static Model squareCloth(int side) {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", side, side, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        return b.tethers(false).bending(false).build();
    }

    private static Cell measure(int side, LinearMethod method, int iterations, int threads, int warmup, int samples) {
        Model model = squareCloth(side);
        ImplicitSettings settings = ImplicitSettings.defaults().withMethod(method).withIterations(iterations, 0f);
        Environment env = Environment.earth();
        try (WorkerPool pool = new WorkerPool(threads)) {
            ImplicitSolver solver = new ImplicitSolver(settings, pool);
            State state = State.atRest(model);
            double[] ms = new double[samples];
            double[] cpuMs = new double[samples];
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            double[] asm = new double[samples];
            double[] solve = new double[samples];
            double[] product = new double[samples];
            double[] vector = new double[samples];
            try {
                for (int i = 0; i < warmup; i++) {
                    solver.step(model, state, env, STEP);
                }
                for (int i = 0; i < samples; i++) {
                    long c0 = mx.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    solver.step(model, state, env, STEP);
                    ms[i] = (System.nanoTime() - t0) / 1e6;
                    cpuMs[i] = (mx.getCurrentThreadCpuTime() - c0) / 1e6;
                    asm[i] = solver.lastAssemblyNanos() / 1e6;
                    solve[i] = solver.lastSolveNanos() / 1e6;
                    if (solver.linearSolver() instanceof FilteredPcg) {
                        FilteredPcg pcg = (FilteredPcg) solver.linearSolver();
                        product[i] = pcg.productNanos() / 1e6;
                        vector[i] = pcg.vectorNanos() / 1e6;
                    } else {
                        product[i] = solve[i]; // Jacobi: one fused product-and-update pass per iteration
                    }
                    checkFinite(state);
                }
            } catch (SimulationDivergedException e) {
                return new Cell(side * side, method, iterations, threads, true, 0, 0, 0, 0, 0, 0, Double.NaN);
            }
            double median = median(ms);
            return new Cell(side * side, method, iterations, threads, false, 1e3 / median, 1e3 / median(cpuMs), median(asm),
                    median(solve), median(product), median(vector), solver.lastRelativeResidual());
        }
    }

    /**
     * Steps per second of the OpenCL implicit solver on the cell: the median of {@code samples} single
     * steps (each reading the state back) after {@code warmup}; 0 where the run diverged or ran away.
     */
    private static double measureOpenCl(int side, LinearMethod method, int iterations, OpenClDevice device,
                                        int warmup, int samples) {
        Model model = squareCloth(side);
        ImplicitSettings settings = ImplicitSettings.defaults().withMethod(method).withIterations(iterations, 0f);
        Environment env = Environment.earth();
        State state = State.atRest(model);
        try (OpenClImplicitSolver solver = new OpenClImplicitSolver(settings, device)) {
            double rate = StepRate.median(() -> solver.step(model, state, env, STEP), 1, warmup, 0, 0, 0, samples);
            checkFinite(state);
            return rate;
        } catch (SimulationDivergedException e) {
            return 0.0;
        }
    }

    /** The same runaway test as {@code Simulation}: a blown-up cloth is a failed cell, not a fast one. */
    private static void checkFinite(State state) {
        float[] x = state.positions();
        for (int i = 0; i < x.length; i++) {
            if (!(Math.abs(x[i]) < 1e4f)) {
                throw new SimulationDivergedException(state.steps(), state.time(), i / 3, "ran away");
            }
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static boolean writePlot(List<Cell> cells, int[] threadCounts, Path png, PrintWriter err)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(1000).height(650)
                .title("Seed 000 table C.1: implicit cloth at 30 linear iterations")
                .xAxisTitle("particles").yAxisTitle("steps (frames) per second").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        for (LinearMethod m : LinearMethod.values()) {
            for (int t : threadCounts) {
                List<Double> xs = new ArrayList<>();
                List<Double> ys = new ArrayList<>();
                for (Cell c : cells) {
                    if (c.method == m && c.threads == t && c.iterations == 30 && !c.failed) {
                        xs.add((double) c.particles);
                        ys.add(c.stepsPerSecond);
                    }
                }
                if (!xs.isEmpty()) {
                    chart.addSeries("weft " + m.label() + ", " + t + " thread" + (t > 1 ? "s" : ""), xs, ys)
                            .setMarker(SeriesMarkers.CIRCLE);
                }
            }
            List<Double> sx = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            List<Double> gpu = new ArrayList<>();
            for (int r = 0; r < SEED_SIZES.length; r++) {
                sx.add((double) SEED_SIZES[r]);
                cpu.add((double) seedCpu(m, r, 1));
                gpu.add((double) (m == LinearMethod.CG ? GPU_CG : GPU_JACOBI)[r][1]);
            }
            XYSeries c = chart.addSeries("seed 000 CPU " + m.label() + " (2006)", sx, cpu);
            c.setMarker(SeriesMarkers.DIAMOND);
            XYSeries g = chart.addSeries("seed 000 GPU " + m.label() + " (2006)", sx, gpu);
            g.setMarker(SeriesMarkers.SQUARE);
        }
        return ChartPng.write(chart, png, err);
    }
}
