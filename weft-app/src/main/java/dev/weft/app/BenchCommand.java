package dev.weft.app;

import dev.weft.bench.ClothScene;
import dev.weft.bench.DroopBench;
import dev.weft.bench.DroopStrip;
import dev.weft.bench.JoltRuntime;
import dev.weft.bench.PeersBench;
import dev.weft.bench.PeersSweep;
import dev.weft.bench.WeftSetting;
import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.opencl.OpenClDevices;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code weft bench}: constraint-projection throughput of XPBD on seed 001's 100 × 100 cloth for each
 * iteration mode and thread count. Each sample restores the same deformed state (the hanging cloth
 * after half a second of falling) and times a batch of iterations; the median over samples after a
 * warm-up is reported.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmark XPBD constraint projection per iteration mode and thread count, and "
                + "Projective Dynamics per inner solver; --peers: the same cloth on Jolt Physics and Weft.")
final class BenchCommand implements Callable<Integer> {
    /** The flags only one of the timed solvers uses; one given without that solver is an error, not ignored. */
    private static final SolverFlags SOLVER_FLAGS = new SolverFlags("--solvers")
            .flag("--modes", "xpbd")
            .flag("--contacts", "xpbd")
            .flag("--pd-inner", "pd");
    /** The flags of the xpbd/pd benchmark, which --table replaces. */
    private static final List<String> NOT_WITH_TABLE = List.of("--size", "--solvers", "--modes", "--iterations",
            "--pd-inner", "--contacts");

    @Option(names = "--size", split = ",", paramLabel = "N",
            description = "Cloth of N x N particles (default: 100; with --peers a list, default: 64,100).")
    int[] sizes = {100};

    @Option(names = "--threads", split = ",", paramLabel = "T",
            description = "Thread counts to compare (default: 1,2).")
    int[] threads = {1, 2};

    @Option(names = "--modes", split = ",", paramLabel = "MODE",
            description = "xpbd: iteration modes (default: colored,jacobi,gauss-seidel).")
    String[] modes = {"colored", "jacobi", "gauss-seidel"};

    @Option(names = "--iterations", paramLabel = "K", description = "Iterations per timed sample (default: ${DEFAULT-VALUE}).")
    int iterations = 20;

    @Option(names = "--samples", paramLabel = "R", description = "Timed samples per measurement (default: ${DEFAULT-VALUE}).")
    int samples = 25;

    @Option(names = "--warmup", paramLabel = "R", description = "Untimed samples first (default: ${DEFAULT-VALUE}).")
    int warmup = 40;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path outDir = Path.of("out");

    @Option(names = "--contacts", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "xpbd: also time self-collision and the spatial hash (default: on; --no-contacts skips it).")
    boolean contacts = true;

    @Option(names = "--solvers", split = ",", paramLabel = "NAME",
            description = "What to time: xpbd, pd (Projective Dynamics on seed 001's lattice) (default: xpbd,pd).")
    List<String> benchSolvers = new ArrayList<>(List.of("xpbd", "pd"));

    @Option(names = "--pd-inner", split = ",", paramLabel = "NAME",
            description = "pd: Projective Dynamics inner solvers to time (default: rbgs,jacobi,gs).")
    List<String> pdInner = new ArrayList<>(List.of("rbgs", "jacobi", "gs"));

    @Option(names = "--table", paramLabel = "NAME",
            description = "Reproduce a seed's benchmark table instead: seed000 (implicit Euler, appendix C.1); "
                    + "seed004 (explicit mass-spring cloth on the CPU, OpenCL and GLSL, Verlet steps per second); gpu "
                    + "(XPBD colored and Jacobi, relaxation and PD, 10 iterations per step, 256^2 to 1024^2 particles, "
                    + "on the CPU and on OpenCL); "
                    + "tear: the cost of tearing 100 edges in one frame of the 100 x 100 cloth; softbody: a "
                    + "10,648-node tetrahedral block under XPBD and the jelly scene under every solver (ms per frame, "
                    + "volume error).")
    String table;

    @Option(names = "--peers", description = "Run issue #17's cloth (N x N, one edge pinned, 600 frames at 60 Hz, "
            + "inextensible) on Jolt Physics (jolt-jni) and on Weft's XPBD in this process, interleaved; writes "
            + "OUT/bench/peers.csv and peers.md. --size N,N; --threads; --samples R: repetitions (default 3); "
            + "--warmup F: frames of each run left out of its median frame time (default 60).")
    boolean peers;

    @Option(names = "--setting", split = ",", paramLabel = "SxK[:BENDING[:P]][:limits][:smooth]",
            description = "With --peers: Weft's rows instead of the default ones, e.g. 5x1:distance,6x1:isometric,"
                    + "8x1:distance:limits (S substeps of K iterations; bending dihedral, distance or isometric; P "
                    + "stretch passes, default 1; limits: XPBD's stretch limits on; smooth: its stretch smoothing "
                    + "on). With --peers --droop: the Weft settings whose strips droop, instead of 10x1 with each "
                    + "bending model.")
    String[] settings;

    @Option(names = "--sweep", description = "With --peers: first find, per size and bending model (distance, "
            + "isometric, dihedral), the fewest substeps of one iteration (up to " + PeersSweep.DEFAULT_MAX_SUBSTEPS
            + ") at which Weft's final and peak strain are at or below Jolt's (OUT/bench/peers-sweep.csv), then time "
            + "those settings against Jolt.")
    boolean sweep;

    // a modifier of --peers rather than a --table: it runs Jolt as --peers does (the same native library, the same
    // exit when it is missing), and --peers already refuses --table
    @Option(names = "--droop", description = "With --peers: how far a pinned cantilever strip droops under gravity "
            + "on Jolt (distance and dihedral bending over a sweep of compliances) and on Weft (distance, isometric "
            + "and dihedral bending over a sweep of bending rigidities B), and the stiffness of each engine that "
            + "droops as the other's peers-bench setting; writes OUT/bench/droop.csv. --size L: the strip's "
            + "overhanging rows (default 5).")
    boolean droop;

    @Option(names = "--big", description = "With --table seed000: also 10k, 40k and 250k particles (minutes).")
    boolean big;

    @Option(names = "--particles", split = ",", paramLabel = "N",
            description = "With --table seed000, seed004 or gpu: the cloth sizes in particles, each made a square "
                    + "of round(sqrt(N))^2 (default: seed000 100,400,900,1600,2500,3600, the seed's; seed004 "
                    + "1024,4096,16384,65536, 32^2 to 256^2; gpu 65536,262144,1048576).")
    int[] tableParticles;

    @Option(names = "--device", paramLabel = "N",
            description = "With --table seed000, seed004 or gpu: the OpenCL device to time, by its index in "
                    + "`weft devices` (default: the first GPU, else device 0).")
    int device = OpenClDevices.PREFERRED;

    @Option(names = "--quiet", description = "No progress bar (it goes to standard error: a bar on a terminal, a "
            + "line every tenth of the measurements elsewhere).")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        GivenFlags given = GivenFlags.of(spec);
        if (droop && !peers) {
            throw new InvalidInputException("--droop", "applies with --peers only (weft bench --peers --droop)");
        }
        if (sweep && (!peers || droop)) {
            throw new InvalidInputException("--sweep", "applies with --peers only (weft bench --peers --sweep)");
        }
        if (sweep && settings != null) {
            throw new InvalidInputException("--sweep", "chooses Weft's settings itself: give --setting or --sweep, "
                    + "not both");
        }
        if (settings != null && !peers) {
            throw new InvalidInputException("--setting", "applies with --peers only (weft bench --peers --setting "
                    + "5x1:distance)");
        }
        if (peers) {
            return droop ? runDroop(out, given) : runPeers(out, given);
        }
        if (table != null) {
            if (!List.of("seed000", "seed004", "gpu", "tear", "softbody").contains(table)) {
                throw new InvalidInputException("--table", "unknown table '" + table + "'; available: seed000, seed004, "
                        + "gpu, tear, softbody");
            }
            for (String flag : NOT_WITH_TABLE) {
                if (given.has(flag)) {
                    throw new InvalidInputException(given.typed(flag), "does not apply to --table " + table
                            + " (it is used by the xpbd and pd benchmark, without --table)");
                }
            }
            if (!List.of("seed000", "seed004", "gpu").contains(table) && given.has("--device")) {
                throw new InvalidInputException("--device", tablesOf("--device"));
            }
            if ("seed004".equals(table) || "gpu".equals(table)) {
                return runDeviceTable(out, given);
            }
            if ("softbody".equals(table)) {
                for (String flag : List.of("--big", "--particles")) {
                    if (given.has(flag)) {
                        throw new InvalidInputException(flag, tablesOf(flag));
                    }
                }
                checkThreads();
                int softSamples = given.has("--samples") ? samples : 30;
                int softWarmup = given.has("--warmup") ? warmup : 30;
                checkSamples(softSamples, softWarmup);
                ProgressBar progress = progress(SoftBodyBench.rows(threads.length));
                int rc = SoftBodyBench.run(out, outDir.resolve("bench"), threads, softWarmup, softSamples, progress);
                progress.clear();
                return rc;
            }
            if ("tear".equals(table)) {
                for (String flag : List.of("--big", "--particles")) {
                    if (given.has(flag)) {
                        throw new InvalidInputException(flag, tablesOf(flag));
                    }
                }
                checkThreads();
                int tearSamples = given.has("--samples") ? samples : 9;
                int tearWarmup = given.has("--warmup") ? warmup : 5;
                checkSamples(tearSamples, tearWarmup);
                ProgressBar progress = progress(threads.length);
                int rc = TearBench.run(out, outDir.resolve("bench"), threads, tearWarmup, tearSamples, progress);
                progress.clear();
                return rc;
            }
            return runTable(out);
        }
        for (String flag : List.of("--big", "--particles", "--device")) {
            if (given.has(flag)) {
                throw new InvalidInputException(flag, tablesOf(flag));
            }
        }
        if (sizes.length != 1) {
            throw new InvalidInputException("--size", "takes one size without --peers, got " + sizes.length);
        }
        int size = sizes[0];
        if (size < 2 || size > 2000) {
            throw new InvalidInputException("--size", "must be between 2 and 2000, got " + size);
        }
        checkThreads();
        if (iterations < 1) {
            throw new InvalidInputException("--iterations", "must be an integer >= 1, got " + iterations);
        }
        checkSamples(samples, warmup);
        for (String s : benchSolvers) {
            if (!s.equals("xpbd") && !s.equals("pd")) {
                throw new InvalidInputException("--solvers", "unknown solver '" + s + "'; allowed: xpbd, pd");
            }
        }
        SOLVER_FLAGS.check(benchSolvers, given);
        List<InnerSolver> innerList = new ArrayList<>();
        for (String m : pdInner) {
            innerList.add(InnerSolver.parse("--pd-inner", m));
        }
        List<IterationMode> modeList = new ArrayList<>();
        for (String m : modes) {
            modeList.add(IterationMode.parse("--modes", m));
        }
        if (!benchSolvers.contains("xpbd")) {
            modeList.clear();
        }
        PdBench pdBench = new PdBench(size, threads, innerList, iterations, samples, warmup);
        ContactBench contactBench = new ContactBench(threads, samples, warmup);
        ProgressBar progress = progress(modeList.size() * threads.length
                + (benchSolvers.contains("pd") ? pdBench.rows() : 0)
                + (contacts && !modeList.isEmpty() ? contactBench.rows() : 0));
        Scene scene = HangingCloth.of(size);
        Model model = scene.model();
        State start = deformedState(scene);
        int distances = model.distances().count();
        int bending = model.bending().count();
        int tethers = model.tethers().count();
        String jdk = SystemInfo.jdk();
        String cpu = SystemInfo.cpu();
        out.printf(Locale.ROOT, "weft bench: XPBD on a %dx%d cloth: %d particles, %d distance (stretch+shear), "
                + "%d bending, %d tether constraints%n", size, size, model.particleCount(), distances, bending, tethers);
        out.printf(Locale.ROOT, "  JDK: %s%n  CPU: %s%n", jdk, cpu);
        out.printf(Locale.ROOT, "  median of %d samples of %d iterations after %d warm-up samples%n%n", samples,
                iterations, warmup);
        out.printf(Locale.ROOT, "%-13s %7s %12s %14s %13s %14s %13s%n", "mode", "threads", "ms/iter(all)",
                "dist ms/iter", "dist proj/s", "bend ms/iter", "bend proj/s");
        Path dir = outDir.resolve("bench");
        Files.createDirectories(dir);
        List<String> rows = new ArrayList<>();
        rows.add("mode,threads,particles,distance_constraints,bending_constraints,ms_per_iteration_all,"
                + "ms_per_iteration_distance,distance_projections_per_s,ms_per_iteration_bending,"
                + "bending_projections_per_s,jdk,cpu");
        for (IterationMode mode : modeList) {
            for (int t : threads) {
                // one pass per iteration: the projection counts below assume each constraint once per sweep
                XpbdSettings settings = scene.xpbd().withMode(mode).withStretchPasses(1);
                try (WorkerPool pool = new WorkerPool(t)) {
                    XpbdSolver solver = new XpbdSolver(settings, pool);
                    float h = 1f / (scene.fps() * scene.substeps()); // the scene's substep sets the compliance scale
                    double all = msPerIteration(solver, model, start, h, XpbdSolver.ALL);
                    double dist = msPerIteration(solver, model, start, h, XpbdSolver.DISTANCES);
                    double bend = msPerIteration(solver, model, start, h, XpbdSolver.BENDING);
                    double distRate = distances / (dist / 1e3);
                    double bendRate = bending / (bend / 1e3);
                    progress.clear();
                    out.printf(Locale.ROOT, "%-13s %7d %12.4f %14.4f %13.3e %14.4f %13.3e%n", mode.label(), t, all,
                            dist, distRate, bend, bendRate);
                    out.flush();
                    progress.advance("xpbd " + mode.label() + ", " + t + " thread(s)");
                    rows.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%.5f,%.5f,%.4e,%.5f,%.4e,\"%s\",\"%s\"",
                            mode.label(), t, model.particleCount(), distances, bending, all, dist, distRate, bend,
                            bendRate, jdk, cpu));
                }
            }
        }
        if (benchSolvers.contains("pd")) {
            pdBench.run(out, dir, jdk, cpu, progress);
        }
        if (modeList.isEmpty()) {
            progress.clear();
            return 0;
        }
        Path csv = dir.resolve("xpbd.csv");
        AtomicTextFile.write(csv, rows);
        out.printf(Locale.ROOT, "%nwrote %s%n", csv);
        if (contacts) {
            contactBench.run(scene, start, out, dir, progress);
        }
        progress.clear();
        return 0;
    }

    /** {@code --peers}: the side-by-side run against Jolt; its own flags only. */
    private int runPeers(PrintWriter out, GivenFlags given) throws IOException {
        if (table != null) {
            throw new InvalidInputException("--peers", "does not apply with --table " + table);
        }
        for (String flag : List.of("--solvers", "--modes", "--iterations", "--pd-inner", "--contacts", "--big",
                "--particles")) {
            if (given.has(flag)) {
                throw new InvalidInputException(given.typed(flag), "does not apply to --peers (it is used by the "
                        + "xpbd and pd benchmark or --table seed000)");
            }
        }
        int[] peerSizes = given.has("--size") ? sizes : PeersBench.DEFAULT_SIZES;
        for (int n : peerSizes) {
            if (n < 3 || n > 1000) {
                throw new InvalidInputException("--size", "each size must be between 3 and 1000, got " + n);
            }
        }
        checkThreads();
        int repetitions = given.has("--samples") ? samples : PeersBench.DEFAULT_REPETITIONS;
        int warmupFrames = given.has("--warmup") ? warmup : PeersBench.DEFAULT_WARMUP_FRAMES;
        checkSamples(repetitions, warmupFrames);
        if (warmupFrames >= ClothScene.FRAMES) {
            throw new InvalidInputException("--warmup", "must be below the run's " + ClothScene.FRAMES
                    + " frames, got " + warmupFrames);
        }
        List<WeftSetting> rows = settings == null ? WeftSetting.DEFAULTS : givenSettings();
        if (sweep) {
            return runSweep(out, peerSizes, repetitions, warmupFrames);
        }
        PeersBench bench = new PeersBench(peerSizes, threads, repetitions, warmupFrames,
                PeersBench.DEFAULT_JOLT_ITERATIONS, rows);
        ProgressBar progress = progress(bench.runs());
        try {
            return PeersBenchReport.run(out, outDir.resolve("bench"), bench, progress);
        } finally {
            progress.clear();
        }
    }

    /** {@code --peers --sweep}: each size's cheapest settings at Jolt's strain, then those timed against Jolt. */
    private int runSweep(PrintWriter out, int[] peerSizes, int repetitions, int warmupFrames) throws IOException {
        JoltRuntime.ensureStarted(); // a missing native library is an error before anything is printed
        out.printf(Locale.ROOT, "weft bench --peers --sweep: per size and bending model, the fewest substeps of one "
                + "iteration (up to %d) at which Weft's final and peak strain are at or below Jolt's (1 thread; strain "
                + "does not depend on the thread count)%n", PeersSweep.DEFAULT_MAX_SUBSTEPS);
        List<PeersSweep.Result> all = new ArrayList<>();
        java.util.Map<Integer, List<WeftSetting>> chosen = new java.util.HashMap<>();
        ProgressBar progress = progress(peerSizes.length
                * PeersSweep.maxRuns(PeersSweep.MODELS.size(), PeersSweep.DEFAULT_MAX_SUBSTEPS));
        try {
            for (int n : peerSizes) {
                List<PeersSweep.Result> results = PeersSweep.run(n, PeersBench.DEFAULT_JOLT_ITERATIONS,
                        PeersSweep.MODELS, PeersSweep.DEFAULT_MAX_SUBSTEPS, progress::advance);
                progress.clear();
                for (PeersSweep.Result r : results) {
                    String model = r.bending().name().toLowerCase(Locale.ROOT);
                    if (r.found() == null) {
                        out.printf(Locale.ROOT, "  N = %d, %s: none up to %d substeps (Jolt %.2f %% final, %.2f %% peak)%n",
                                n, model, PeersSweep.DEFAULT_MAX_SUBSTEPS, 100 * r.joltFinal(), 100 * r.joltPeak());
                    } else {
                        PeersSweep.Tried t = r.tried().get(r.tried().size() - 1);
                        out.printf(Locale.ROOT, "  N = %d, %s: %s (final %.2f %% <= Jolt's %.2f %%, peak %.2f %% <= %.2f %%)%n",
                                n, model, r.found().label(), 100 * t.finalStrain(), 100 * r.joltFinal(),
                                100 * t.peakStrain(), 100 * r.joltPeak());
                    }
                }
                out.flush();
                all.addAll(results);
                chosen.put(n, PeersSweep.found(results));
            }
        } finally {
            progress.clear();
        }
        Path dir = outDir.resolve("bench");
        Files.createDirectories(dir);
        Path csv = dir.resolve("peers-sweep.csv");
        AtomicTextFile.write(csv, PeersSweep.csv(all));
        out.printf(Locale.ROOT, "wrote %s%n%n", csv);
        PeersBench bench = new PeersBench(peerSizes, threads, repetitions, warmupFrames,
                PeersBench.DEFAULT_JOLT_ITERATIONS, chosen);
        ProgressBar timing = progress(bench.runs());
        try {
            return PeersBenchReport.run(out, dir, bench, timing);
        } finally {
            timing.clear();
        }
    }

    /** {@code --peers --droop}: the cantilever strip on both engines; its own flags only. */
    private int runDroop(PrintWriter out, GivenFlags given) throws IOException {
        if (table != null) {
            throw new InvalidInputException("--peers", "does not apply with --table " + table);
        }
        for (String flag : List.of("--solvers", "--modes", "--iterations", "--pd-inner", "--contacts", "--big",
                "--particles", "--threads", "--samples", "--warmup", "--device")) {
            if (given.has(flag)) {
                throw new InvalidInputException(given.typed(flag), "does not apply to --peers --droop (each strip "
                        + "settles once, on one thread, for " + DroopStrip.FRAMES + " frames)");
            }
        }
        int rows = DroopStrip.DEFAULT_OVERHANG_ROWS;
        if (given.has("--size")) {
            if (sizes.length != 1 || sizes[0] < 1 || sizes[0] > 100) {
                throw new InvalidInputException("--size", "with --droop takes one number of overhanging rows, 1 to "
                        + "100, got " + Arrays.toString(sizes));
            }
            rows = sizes[0];
        }
        DroopStrip strip = new DroopStrip(DroopStrip.DEFAULT_WIDTH, rows);
        DroopBench bench = settings == null ? DroopBench.defaults(strip) : new DroopBench(strip,
                DroopBench.RIGIDITIES, PeersBench.DEFAULT_JOLT_ITERATIONS, givenSettings());
        ProgressBar progress = progress(bench.runs());
        try {
            return PeersDroopReport.run(out, outDir.resolve("bench"), bench, progress);
        } finally {
            progress.clear();
        }
    }

    /** The {@code --setting} texts, parsed; a bad one names the flag, the text and what is allowed. */
    private List<WeftSetting> givenSettings() {
        List<WeftSetting> rows = new ArrayList<>();
        for (String text : settings) {
            try {
                rows.add(WeftSetting.parse(text));
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException("--setting", e.getMessage());
            }
        }
        return rows;
    }

    /** Progress over {@code rows} measurements, on standard error (the tables go to standard output). */
    private ProgressBar progress(int rows) {
        return new ProgressBar(spec.commandLine().getErr(), rows, !quiet);
    }

    private void checkThreads() {
        for (int t : threads) {
            if (t < 1 || t > 256) {
                throw new InvalidInputException("--threads", "each count must be between 1 and 256, got " + t);
            }
        }
    }

    private int runTable(PrintWriter out) throws IOException {
        checkThreads();
        int[] sizes = Seed000TableBench.DEFAULT_SIZES;
        if (tableParticles != null) {
            for (int n : tableParticles) {
                if (n < 4 || n > 1_000_000) {
                    throw new InvalidInputException("--particles", "each size must be between 4 and 1000000 particles, "
                            + "got " + n);
                }
            }
            sizes = tableParticles.clone();
        }
        if (big) {
            sizes = java.util.stream.IntStream.concat(Arrays.stream(sizes), Arrays.stream(Seed000TableBench.BIG_SIZES))
                    .toArray();
        }
        // fewer samples than the XPBD bench: every cell is a whole implicit step
        GivenFlags given = GivenFlags.of(spec);
        int tableSamples = given.has("--samples") ? samples : 15;
        int tableWarmup = given.has("--warmup") ? warmup : 10;
        checkSamples(tableSamples, tableWarmup);
        if (device < 0 && device != OpenClDevices.PREFERRED) {
            throw new InvalidInputException("--device", "must be an index >= 0 (`weft devices` lists them), got "
                    + device);
        }
        ProgressBar progress = progress(Seed000TableBench.rows(sizes, threads));
        int rc = Seed000TableBench.run(out, spec.commandLine().getErr(), outDir.resolve("bench"), sizes, threads, device,
                tableWarmup, tableSamples, progress);
        progress.clear();
        return rc;
    }

    /** Which tables a table-only flag applies to, as its error says. */
    private static String tablesOf(String flag) {
        switch (flag) {
            case "--particles": return "applies to --table seed000, seed004 and gpu only";
            case "--device": return "applies to --table seed000, seed004 and gpu only";
            default: return "applies to --table seed000 only";
        }
    }

    /** {@code --table seed004} and {@code gpu}: the CPU against OpenCL ({@link Seed004TableBench}, {@link GpuTableBench}). */
    private int runDeviceTable(PrintWriter out, GivenFlags given) throws IOException {
        boolean gpu = "gpu".equals(table);
        if (given.has("--big")) {
            throw new InvalidInputException("--big", "applies to --table seed000 only");
        }
        checkThreads();
        int[] sizes = gpu ? GpuTableBench.DEFAULT_PARTICLES : Seed004TableBench.DEFAULT_PARTICLES;
        if (tableParticles != null) {
            for (int n : tableParticles) {
                if (n < 4 || n > 4096 * 4096) {
                    throw new InvalidInputException("--particles", "each size must be between 4 and 16777216 (4096^2) "
                            + "particles, got " + n);
                }
            }
            sizes = tableParticles.clone();
        }
        if (device < 0 && device != OpenClDevices.PREFERRED) {
            throw new InvalidInputException("--device", "must be an index >= 0 (`weft devices` lists them), got "
                    + device);
        }
        // the gpu table's samples are 0.1 s or longer (a 1M-particle step on the CPU takes seconds): fewer
        int tableSamples = given.has("--samples") ? samples : gpu ? 5 : 9;
        int tableWarmup = given.has("--warmup") ? warmup : gpu ? 1 : 3;
        checkSamples(tableSamples, tableWarmup);
        if (gpu) {
            ProgressBar progress = progress(GpuTableBench.rows(sizes, threads));
            int rc = GpuTableBench.run(out, spec.commandLine().getErr(), outDir.resolve("bench"), sizes, threads, device,
                    tableWarmup, tableSamples, progress);
            progress.clear();
            return rc;
        }
        ProgressBar progress = progress(Seed004TableBench.rows(sizes, threads));
        int rc = Seed004TableBench.run(out, spec.commandLine().getErr(), outDir.resolve("bench"), sizes, threads, device,
                tableWarmup, tableSamples, progress);
        progress.clear();
        return rc;
    }

    private static void checkSamples(int samples, int warmup) {
        if (samples < 1) {
            throw new InvalidInputException("--samples", "must be an integer >= 1, got " + samples);
        }
        if (warmup < 0) {
            throw new InvalidInputException("--warmup", "must be an integer >= 0, got " + warmup);
        }
    }

    /** The hanging cloth after 30 frames of falling: every constraint type has work to do. */
    private static State deformedState(Scene scene) {
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(scene.model(), State.atRest(scene.model()),
                     new XpbdSolver(scene.xpbd(), pool), scene.environment(), scene.substeps())) {
            for (int f = 0; f < 30; f++) {
                sim.advance(1f / scene.fps());
            }
            return sim.state().copy();
        }
    }

    private double msPerIteration(XpbdSolver solver, Model model, State start, float h, int passes) {
        State work = start.copy();
        for (int i = 0; i < warmup; i++) {
            work.copyFrom(start);
            solver.relax(model, work, h, iterations, passes);
        }
        double[] ms = new double[samples];
        for (int i = 0; i < samples; i++) {
            work.copyFrom(start);
            long t0 = System.nanoTime();
            solver.relax(model, work, h, iterations, passes);
            ms[i] = (System.nanoTime() - t0) / 1e6 / iterations;
        }
        Arrays.sort(ms);
        return ms[samples / 2];
    }
}
