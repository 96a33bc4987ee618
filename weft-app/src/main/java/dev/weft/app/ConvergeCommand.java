package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.lab.ConvergenceExperiment;
import dev.weft.core.lab.LabSolver;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.opencl.OpenClPdSolver;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weft converge}: seed 001's convergence experiments (§6.1) on its 4-neighbour lattice. For each
 * solver: the residual (eq. 4.1) after every iteration, the time one iteration takes, how many
 * iterations fit in each time budget per step, and the residual against solver time when each step
 * runs that many. Writes CSV files and one PNG plot per figure of the seed, and prints the iteration
 * counts next to the seed's (GTX 970). With {@code --backend opencl} the PD solvers a device runs are
 * {@code OpenClPdSolver}s taken apart the same way (docs/opencl-pd.md).
 */
@Command(name = "converge", mixinStandardHelpOptions = true,
        description = "Seed 001's convergence experiments: residual vs iterations and vs time per solver.")
final class ConvergeCommand implements Callable<Integer> {
    /** Seed 001 figures A.3-A.6 and A.10-A.13: iterations in 1, 2, 4, 8 ms on a GTX 970. */
    private static final double[] SEED_BUDGETS = {1, 2, 4, 8};
    private static final Map<String, int[]> SEED_COUNTS = Map.of(
            "rbgs", new int[] {5, 11, 22, 45},
            "gs", new int[] {1, 2, 4, 9},
            "jacobi", new int[] {9, 19, 32, 70},
            "jacobi-seed", new int[] {9, 19, 32, 70});
    /** The flags only some solvers use; one given without them is an error, not ignored. */
    private static final SolverFlags SOLVER_FLAGS = new SolverFlags("--solvers")
            .flag("--omega", "rbgs+sor")
            .flag("--chebyshev-rho", "jacobi+chebyshev")
            // pbd-jacobi projects rigidly: no stiffness
            .flag("--stiffness", "gs", "jacobi", "rbgs", "rbgs+sor", "jacobi+chebyshev", "xpbd-colored", "jacobi-seed",
                    LabSolver.CHOLESKY);
    /** The flags of figure 6.8's still frames, which only the hanging experiment draws. */
    private static final List<String> STILL_FLAGS = List.of("--still-budget", "--still-iterations", "--still-frames",
            "--still-size");
    /** The solvers an OpenCL device runs (OpenClPdSolver's inner solvers: all but sequential gs). */
    static final List<String> DEVICE_SOLVERS = List.of("rbgs", "rbgs+sor", "jacobi", "jacobi+chebyshev",
            LabSolver.SEED_JACOBI);
    /** PdSettings names its parameters as fields; the user typed these flags. */
    private static final Map<String, String> PD_SETTING_FLAGS = Map.of("omega", "--omega",
            "chebyshevRho", "--chebyshev-rho");

    @Option(names = "--experiment", paramLabel = "NAME",
            description = "enlarged or hanging (default: ${DEFAULT-VALUE}).")
    String experiment = "enlarged";

    @Option(names = "--size", paramLabel = "N", description = "Lattice of N x N particles (default: ${DEFAULT-VALUE}).")
    int size = 100;

    @Option(names = "--solvers", split = ",", paramLabel = "NAME",
            description = "Solvers (default: gs,jacobi,rbgs,rbgs+sor,jacobi+chebyshev,xpbd-colored; "
                    + "also pbd-jacobi, jacobi-seed, cholesky: the global step solved exactly).")
    List<String> solvers = new ArrayList<>(LabSolver.NAMES);

    @Option(names = "--budgets", split = ",", paramLabel = "MS",
            description = "Solver time budgets per step in ms (default: 1,2,4,8).")
    double[] budgets = SEED_BUDGETS.clone();

    @Option(names = "--frames", paramLabel = "F",
            description = "Frames of 8 steps to run (default: 10 enlarged, 120 hanging).")
    Integer frames;

    @Option(names = "--iterations", paramLabel = "K",
            description = "Iterations per step for the residual-vs-iteration curves (default: ${DEFAULT-VALUE}).")
    int iterations = 20;

    @Option(names = "--threads", paramLabel = "T", description = "Worker threads (default: ${DEFAULT-VALUE}).")
    int threads = 2;

    @Option(names = "--stiffness", paramLabel = "K",
            description = "Spring stiffness in N/m, every solver but pbd-jacobi (default: ${DEFAULT-VALUE}).")
    float stiffness = 1000f;

    @Option(names = "--omega", paramLabel = "W", description = "SOR factor of rbgs+sor (default: ${DEFAULT-VALUE}).")
    float omega = 1.7f;

    @Option(names = "--chebyshev-rho", paramLabel = "RHO",
            description = "Spectral radius estimate of jacobi+chebyshev, 0 = automatic (default: ${DEFAULT-VALUE}).")
    float chebyshevRho = 0f;

    @Option(names = "--samples", paramLabel = "R",
            description = "Timed samples for the time per iteration (fastest after as many warm-up ones; "
                    + "default: ${DEFAULT-VALUE}).")
    int samples = 15;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path outDir = Path.of("out");

    @Option(names = "--no-plots", description = "Write the CSV files only (no PNG; needs no java.desktop).")
    boolean noPlots;

    @Option(names = "--quiet", description = "No progress bar (it goes to standard error: a bar on a terminal, a "
            + "line every tenth of the work elsewhere).")
    boolean quiet;

    @Option(names = "--no-frames", description = "Hanging experiment: skip figure 6.8's still frames (they need "
            + "OpenGL through EGL).")
    boolean noFrames;

    @Option(names = "--still-budget", paramLabel = "MS",
            description = "Figure 6.8: solver time budget per step whose iteration count each row runs "
                    + "(default: ${DEFAULT-VALUE}, the seed's).")
    double stillBudget = 2;

    @Option(names = "--still-iterations", split = ",", paramLabel = "SOLVER=N",
            description = "Figure 6.8: fixed iterations per step instead of the budget's, e.g. rbgs=11,gs=2,jacobi=19.")
    Map<String, Integer> stillIterations = new LinkedHashMap<>();

    @Option(names = "--still-frames", split = ",", paramLabel = "F",
            description = "Figure 6.8: the frames (1/60 s each) shown as columns (default: 5%%, 12.5%%, 25%%, 50%% and "
                    + "100%% of --frames: t = 0.1, 0.25, 0.5, 1, 2 s of the hanging run).")
    int[] stillFrames;

    @Option(names = "--still-size", paramLabel = "WxH",
            description = "Figure 6.8: pixels of one still frame (default: ${DEFAULT-VALUE}).")
    String stillSize = "400x300";

    @Option(names = Backend.FLAG, paramLabel = "cpu|opencl|opencl:N",
            description = "Where the solvers run: cpu (default), opencl (the first GPU, else device 0) or opencl:N "
                    + "(device N of 'weft devices'); opencl runs rbgs, rbgs+sor, jacobi, jacobi+chebyshev and "
                    + "jacobi-seed, and without --solvers the first four. Figure 6.8's still frames run on the cpu.")
    String backendName = "cpu";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Parsed from {@link #backendName} in {@link #call}. */
    private Backend backend = Backend.CPU;

    /** What one solver produced. */
    private static final class Result {
        String name;
        double msPerIteration;
        double msPerStepOverhead;
        int[] counts;
        double[] residualPerIteration;
        /** Per budget: cumulative solver ms and residual after each step. */
        double[][] timeMs;
        double[][] timeResidual;
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        ConvergenceExperiment exp = ConvergenceExperiment.parse("--experiment", experiment);
        backend = Backend.parse(backendName);
        if (backend.openCl() && !GivenFlags.of(spec).has("--solvers")) {
            solvers = new ArrayList<>(solvers);
            solvers.retainAll(DEVICE_SOLVERS);
        }
        validate();
        requireOnDevice();
        checkFlagsApply(exp);
        int frameCount = frames != null ? frames : exp == ConvergenceExperiment.ENLARGED ? 10 : 120;
        boolean stills = exp == ConvergenceExperiment.HANGING && !noFrames;
        int[] stillColumns = stills ? stillColumns(frameCount) : null;
        int[] stillPixels = stills ? stillPixels() : null;
        int steps = frameCount * ConvergenceExperiment.STEPS_PER_FRAME;
        PdSettings base = PdSettings.defaults().withOmega(omega).withChebyshev(false, chebyshevRho);
        Model model = exp.model(size, stiffness);
        Path dir = outDir.resolve("converge").resolve(exp.label());
        Files.createDirectories(dir);
        String cpu = SystemInfo.cpu();
        out.printf(Locale.ROOT, "weft converge: %s cloth, %d x %d lattice: %d particles, %d springs (k = %g N/m)%n",
                exp.label(), size, size, model.particleCount(), model.distances().count(), stiffness);
        out.printf(Locale.ROOT, "  %d frames x %d steps of %.3f ms; %d iterations per step for the iteration curves;"
                + " %d thread(s); CPU: %s%n", frameCount, ConvergenceExperiment.STEPS_PER_FRAME,
                ConvergenceExperiment.STEP * 1e3, iterations, threads, cpu);
        if (backend.openCl()) {
            out.printf(Locale.ROOT, "  backend %s: %s%n", backend.text(), backend.pickDevice().describe());
        }
        List<Result> results = new ArrayList<>();
        List<HangingStillFrames.Row> stillRows = null;
        // each solver runs its steps once for the iteration curve and once per time budget
        ProgressBar progress = new ProgressBar(spec.commandLine().getErr(),
                solvers.size() * steps * (1 + budgets.length), !quiet);
        try (WorkerPool pool = new WorkerPool(threads)) {
            for (String name : solvers) {
                results.add(run(name, exp, base, model, steps, pool, progress));
            }
            progress.clear();
            if (stills) {
                Map<String, Integer> counts = stillCounts(exp, base, model, results, pool);
                out.printf(Locale.ROOT, "  figure 6.8: simulating %s with %s iterations per step%s ...%n",
                        String.join(", ", HangingStillFrames.SOLVERS), counts.values(),
                        backend.openCl() ? " (on the cpu: the device does not run gs)" : "");
                out.flush();
                stillRows = HangingStillFrames.simulate(model, stillColumns, counts, base, pool);
            }
        }
        writeCsv(dir, results);
        List<Path> plots = noPlots ? List.of() : writePlots(dir, exp, results);
        printTable(out, results);
        out.printf(Locale.ROOT, "%nwrote %s: residual_vs_iteration.csv, residual_vs_time.csv, budgets.csv and "
                + "%d plots%n", dir, plots.size());
        for (Path p : plots) {
            out.printf(Locale.ROOT, "  %s%n", p.getFileName());
        }
        if (stills) {
            return writeStills(out, dir, model, stillRows, stillColumns, stillPixels);
        }
        return 0;
    }

    /** Renders figure 6.8; a missing OpenGL is said plainly, after everything else has been written. */
    private int writeStills(PrintWriter out, Path dir, Model model, List<HangingStillFrames.Row> rows, int[] columns,
                            int[] pixels) throws IOException {
        String counts = stillIterations.isEmpty() ? "iterations per step that " + fmt(stillBudget) + " ms fit"
                : stillIterations.size() == HangingStillFrames.SOLVERS.size()
                ? "iterations per step from --still-iterations"
                : "--still-iterations, else what " + fmt(stillBudget) + " ms fit";
        out.printf(Locale.ROOT, "%nfigure 6.8 (still frames; %s), max strain per frame:%n", counts);
        for (HangingStillFrames.Row row : rows) {
            out.printf(Locale.ROOT, "  %-7s %3d it/step:", row.solver, row.iterationsPerStep);
            for (int c = 0; c < columns.length; c++) {
                out.printf(Locale.ROOT, Double.isNaN(row.maxStrain[c]) ? "  t=%.2fs    -   " : "  t=%.2fs %5.1f %%",
                        columns[c] / 60.0, 100 * row.maxStrain[c]);
            }
            out.println(Double.isNaN(row.blownUpAt) ? ""
                    : String.format(Locale.ROOT, "  (blew up at t = %.2f s)", row.blownUpAt));
        }
        HangingStillFrames.Written w;
        try {
            w = HangingStillFrames.write(dir, model, rows, columns, pixels[0], pixels[1]);
        } catch (dev.weft.render.RenderUnavailableException e) {
            spec.commandLine().getErr().println("weft: error: cannot render figure 6.8's still frames: "
                    + e.getMessage() + ". The CSV files and plots above are written; --no-frames skips the frames.");
            return RenderCommand.EXIT_MISSING_DEPENDENCY;
        }
        out.printf(Locale.ROOT, "wrote %s (%d frames in %s, strains in %s)%n", w.composite(), w.frames().size(),
                dir.relativize(w.frames().isEmpty() ? dir : w.frames().get(0).getParent()), w.csv().getFileName());
        return 0;
    }

    /** Iterations per step of each figure 6.8 row: given, else what the budget fits (calibrated as the curves). */
    private Map<String, Integer> stillCounts(ConvergenceExperiment exp, PdSettings base, Model model,
                                             List<Result> results, WorkerPool pool) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String name : HangingStillFrames.SOLVERS) {
            Integer given = stillIterations.get(name);
            if (given != null) {
                counts.put(name, given);
                continue;
            }
            Result r = null;
            for (Result done : results) {
                // the still frames run on the cpu: a device's timing would give them another row's budget
                if (done.name.equals(name) && !backend.openCl()) {
                    r = done;
                }
            }
            if (r == null) {
                r = new Result();
                try (LabSolver lab = LabSolver.create(name, exp, base, pool)) {
                    calibrate(lab, exp, model, r);
                }
            }
            counts.put(name, fit(stillBudget, r));
        }
        return counts;
    }

    private int[] stillColumns(int frameCount) {
        if (stillFrames == null) {
            return HangingStillFrames.defaultColumns(frameCount);
        }
        if (stillFrames.length == 0 || stillFrames.length > 20) {
            throw new InvalidInputException("--still-frames", "give 1 to 20 frame numbers, got " + stillFrames.length);
        }
        int[] c = stillFrames.clone();
        for (int i = 0; i < c.length; i++) {
            if (c[i] < 1 || c[i] > frameCount) {
                throw new InvalidInputException("--still-frames", "each frame must be between 1 and --frames ("
                        + frameCount + "), got " + c[i]);
            }
            if (i > 0 && c[i] <= c[i - 1]) {
                throw new InvalidInputException("--still-frames", "frames must increase, got " + c[i - 1] + " then "
                        + c[i]);
            }
        }
        return c;
    }

    private int[] stillPixels() {
        String[] wh = stillSize.toLowerCase(Locale.ROOT).split("x");
        try {
            if (wh.length != 2) {
                throw new NumberFormatException();
            }
            int w = Integer.parseInt(wh[0].trim());
            int h = Integer.parseInt(wh[1].trim());
            if (w < 16 || h < 16 || w > 4096 || h > 4096) {
                throw new InvalidInputException("--still-size", "each side must be between 16 and 4096 pixels, got '"
                        + stillSize + "'");
            }
            return new int[] {w, h};
        } catch (NumberFormatException e) {
            throw new InvalidInputException("--still-size", "must be WIDTHxHEIGHT in pixels such as 400x300, got '"
                    + stillSize + "'");
        }
    }

    /** Iterations a step fits in {@code budget} ms: at least 1. */
    private static int fit(double budget, Result r) {
        double n = Math.floor((budget - r.msPerStepOverhead) / r.msPerIteration);
        return (int) Math.max(1, Math.min(MAX_ITERATIONS_PER_STEP, n));
    }

    private void validate() {
        if (size < 4 || size > 1000) {
            throw new InvalidInputException("--size", "must be between 4 and 1000, got " + size);
        }
        if (solvers.isEmpty()) {
            throw new InvalidInputException("--solvers", "name at least one solver");
        }
        for (String s : solvers) {
            if (!LabSolver.ALL_NAMES.contains(s)) {
                throw new InvalidInputException("--solvers", "unknown solver '" + s + "'; allowed: "
                        + String.join(", ", LabSolver.ALL_NAMES));
            }
        }
        for (double b : budgets) {
            if (!(b > 0) || !Double.isFinite(b) || b > 10_000) {
                throw new InvalidInputException("--budgets", "each budget must be a number of ms in (0, 10000], got "
                        + b);
            }
        }
        if (frames != null && (frames < 1 || frames > 100_000)) {
            throw new InvalidInputException("--frames", "must be between 1 and 100000, got " + frames);
        }
        if (iterations < 1 || iterations > 100_000) {
            throw new InvalidInputException("--iterations", "must be between 1 and 100000, got " + iterations);
        }
        if (threads < 1 || threads > 256) {
            throw new InvalidInputException("--threads", "must be between 1 and 256, got " + threads);
        }
        if (!(stillBudget > 0) || !Double.isFinite(stillBudget) || stillBudget > 10_000) {
            throw new InvalidInputException("--still-budget", "must be a number of ms in (0, 10000], got "
                    + stillBudget);
        }
        for (Map.Entry<String, Integer> e : stillIterations.entrySet()) {
            if (!HangingStillFrames.SOLVERS.contains(e.getKey())) {
                throw new InvalidInputException("--still-iterations", "unknown row '" + e.getKey() + "'; allowed: "
                        + String.join(", ", HangingStillFrames.SOLVERS));
            }
            if (e.getValue() == null || e.getValue() < 1 || e.getValue() > MAX_ITERATIONS_PER_STEP) {
                throw new InvalidInputException("--still-iterations", "iterations of " + e.getKey()
                        + " must be between 1 and " + MAX_ITERATIONS_PER_STEP + ", got " + e.getValue());
            }
        }
        if (samples < 1) {
            throw new InvalidInputException("--samples", "must be >= 1, got " + samples);
        }
        if (!(stiffness > 0f) || !Float.isFinite(stiffness)) {
            throw new InvalidInputException("--stiffness", "must be a finite number > 0 (N/m), got " + stiffness);
        }
        // omega and rho are checked by PdSettings; the message names the flag
        try {
            new PdSettings(1, 1, dev.weft.core.solver.pd.InnerSolver.JACOBI, omega, false, chebyshevRho,
                    PdSettings.WANG_CHEBYSHEV_DELAY);
        } catch (InvalidInputException e) {
            String flag = PD_SETTING_FLAGS.get(e.source());
            if (flag == null) {
                throw e;
            }
            throw new InvalidInputException(flag, e.getMessage().substring(e.source().length() + 2));
        }
    }

    /** Flags given for solvers or figures this run does not have are errors, not ignored. */
    private void checkFlagsApply(ConvergenceExperiment exp) {
        GivenFlags given = GivenFlags.of(spec);
        boolean hanging = exp == ConvergenceExperiment.HANGING;
        // figure 6.8's rows (hanging, with frames) run gs, jacobi and rbgs with --stiffness, whatever --solvers says
        SOLVER_FLAGS.check(solvers, hanging && !noFrames ? given.without("--stiffness") : given);
        if (!hanging && given.has("--no-frames")) {
            throw new InvalidInputException("--no-frames", "does not apply to --experiment " + exp.label()
                    + " (only --experiment hanging draws still frames)");
        }
        for (String flag : STILL_FLAGS) {
            if (given.has(flag) && (!hanging || noFrames)) {
                throw new InvalidInputException(flag, "sets figure 6.8's still frames, which "
                        + (hanging ? "--no-frames skips" : "only --experiment hanging draws, not " + exp.label()));
            }
        }
        if (given.has("--still-budget") && stillIterations.keySet().containsAll(HangingStillFrames.SOLVERS)) {
            throw new InvalidInputException("--still-budget", "does not apply when --still-iterations sets every row ("
                    + String.join(", ", HangingStillFrames.SOLVERS) + ")");
        }
    }

    private Result run(String name, ConvergenceExperiment exp, PdSettings base, Model model, int steps,
                       WorkerPool pool, ProgressBar progress) {
        try (LabSolver lab = labSolver(name, exp, base, pool)) {
            return run(lab, exp, model, steps, progress);
        }
    }

    /** Solver {@code name} of the laboratory on the backend: the CPU's on {@code pool}, or OpenClPdSolver. */
    private LabSolver labSolver(String name, ConvergenceExperiment exp, PdSettings base, WorkerPool pool) {
        if (!backend.openCl()) {
            return LabSolver.create(name, exp, base, pool);
        }
        return LabSolver.of(name, new OpenClPdSolver(LabSolver.pdSettings(name, base), backend.pickDevice()), exp);
    }

    /** Refuses, before anything runs, --solvers the device does not run and a GLSL backend. */
    private void requireOnDevice() {
        if (backend.glsl()) {
            throw new InvalidInputException(Backend.FLAG, "weft converge runs on cpu, opencl or opencl:N, not "
                    + backend.text() + " (the GLSL solvers are not taken apart into iterations)");
        }
        if (!backend.openCl()) {
            return;
        }
        List<String> refused = new ArrayList<>(solvers);
        refused.removeAll(DEVICE_SOLVERS);
        if (!refused.isEmpty()) {
            throw new InvalidInputException(Backend.FLAG, backend.text() + " runs --solvers "
                    + String.join(", ", DEVICE_SOLVERS) + ", not " + String.join(", ", refused)
                    + "; use --backend cpu for those");
        }
        backend.pickDevice(); // a device number beyond the list is bad input too, before anything is written
    }

    private Result run(LabSolver lab, ConvergenceExperiment exp, Model model, int steps, ProgressBar progress) {
        String name = lab.name();
        Result r = new Result();
        r.name = name;
        calibrate(lab, exp, model, r);
        r.counts = new int[budgets.length];
        for (int b = 0; b < budgets.length; b++) {
            r.counts[b] = fit(budgets[b], r);
        }
        // residual after every iteration
        State s = exp.initialState(model);
        r.residualPerIteration = new double[steps * iterations];
        for (int st = 0; st < steps; st++) {
            lab.begin(model, s);
            for (int it = 0; it < iterations; it++) {
                lab.iterate();
                r.residualPerIteration[st * iterations + it] = ClothMetrics.residual(model, lab.positions());
            }
            lab.end();
            progress.advance(name + ": residual per iteration");
        }
        // residual against solver time, each step running the iterations that fit its budget
        r.timeMs = new double[budgets.length][steps + 1];
        r.timeResidual = new double[budgets.length][steps + 1];
        for (int b = 0; b < budgets.length; b++) {
            s = exp.initialState(model);
            r.timeResidual[b][0] = ClothMetrics.residual(model, s.positions());
            double elapsed = 0;
            for (int st = 0; st < steps; st++) {
                long t0 = System.nanoTime();
                lab.step(model, s, r.counts[b]);
                elapsed += (System.nanoTime() - t0) / 1e6;
                r.timeMs[b][st + 1] = elapsed;
                r.timeResidual[b][st + 1] = ClothMetrics.residual(model, s.positions());
                progress.advance(name + ": " + fmt(budgets[b]) + " ms per step");
            }
        }
        return r;
    }

    /** Least warm-up time per timed sample of the calibration. */
    private static final int WARMUP_MS_PER_SAMPLE = 100;

    /** Iterations per step never exceed this, however fast one iteration is. */
    private static final int MAX_ITERATIONS_PER_STEP = 100_000;

    /**
     * Time of a step with 1 and with 1 + n iterations, n doubled until that step takes at least 2 ms
     * so that timer resolution does not decide: the difference over n is the time per iteration, the
     * rest of the 1-iteration step the per-step overhead (prediction, velocities). Each is the fastest
     * of {@code samples} after a warm-up of as many: other processes and the JIT only ever add time, and
     * on a shared machine a median measures them as much as the solver.
     */
    private void calibrate(LabSolver lab, ConvergenceExperiment exp, Model model, Result r) {
        State start = exp.initialState(model);
        State work = start.copy();
        int n = 4;
        while (n < 4096 && timeStep(lab, model, start, work, 1 + n) < 2.0) {
            n *= 2;
        }
        // Warm up for as many samples and at least WARMUP_MS_PER_SAMPLE ms each: on two cores with both
        // busy stepping, the JIT's compiler thread gets little time, and a count alone once timed RBGS
        // before its sweep was compiled (0.43 ms per iteration instead of 0.081, in 1 run of 4).
        long warmUntil = System.nanoTime() + samples * WARMUP_MS_PER_SAMPLE * 1_000_000L;
        for (int i = 0; i < samples || System.nanoTime() < warmUntil; i++) {
            timeStep(lab, model, start, work, 1);
            timeStep(lab, model, start, work, 1 + n);
        }
        double single = Double.MAX_VALUE;
        double many = Double.MAX_VALUE;
        for (int i = 0; i < samples; i++) {
            single = Math.min(single, timeStep(lab, model, start, work, 1));
            many = Math.min(many, timeStep(lab, model, start, work, 1 + n));
        }
        r.msPerIteration = Math.max(many / (1 + n) * 0.5, (many - single) / n);
        r.msPerStepOverhead = Math.max(0, single - r.msPerIteration);
    }

    private static double timeStep(LabSolver lab, Model model, State start, State work, int iterations) {
        work.copyFrom(start);
        long t0 = System.nanoTime();
        lab.step(model, work, iterations);
        return (System.nanoTime() - t0) / 1e6;
    }

    private void writeCsv(Path dir, List<Result> results) throws IOException {
        try (AtomicTextFile f = new AtomicTextFile(dir.resolve("residual_vs_iteration.csv"))) {
            f.line("solver,iteration,residual_m2");
            for (Result r : results) {
                for (int i = 0; i < r.residualPerIteration.length; i++) {
                    f.line(String.format(Locale.ROOT, "%s,%d,%.6e", r.name, i + 1, r.residualPerIteration[i]));
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        try (AtomicTextFile f = new AtomicTextFile(dir.resolve("residual_vs_time.csv"))) {
            f.line("budget_ms,solver,iterations_per_step,step,solver_time_ms,residual_m2");
            for (Result r : results) {
                for (int b = 0; b < budgets.length; b++) {
                    for (int st = 0; st < r.timeMs[b].length; st++) {
                        f.line(String.format(Locale.ROOT, "%s,%s,%d,%d,%.4f,%.6e", fmt(budgets[b]), r.name,
                                r.counts[b], st, r.timeMs[b][st], r.timeResidual[b][st]));
                    }
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        try (AtomicTextFile f = new AtomicTextFile(dir.resolve("budgets.csv"))) {
            f.line("solver,ms_per_iteration,ms_per_step_overhead,budget_ms,iterations,seed_gtx970_iterations,"
                    + "final_residual_m2");
            for (Result r : results) {
                for (int b = 0; b < budgets.length; b++) {
                    int seed = seedCount(r.name, budgets[b]);
                    double[] res = r.timeResidual[b];
                    f.line(String.format(Locale.ROOT, "%s,%.5f,%.5f,%s,%d,%s,%.6e", r.name, r.msPerIteration,
                            r.msPerStepOverhead, fmt(budgets[b]), r.counts[b], seed < 0 ? "" : Integer.toString(seed),
                            res[res.length - 1]));
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** One plot per figure of seed 001 (those whose solvers and budgets were run), and overviews. */
    private List<Path> writePlots(Path dir, ConvergenceExperiment exp, List<Result> results) throws IOException {
        System.setProperty("java.awt.headless", "true");
        boolean enlarged = exp == ConvergenceExperiment.ENLARGED;
        List<String> seedThree = List.of("rbgs", "gs", "jacobi");
        List<String> sor = List.of("rbgs", "rbgs+sor");
        String what = enlarged ? "enlarged cloth" : "hanging cloth";
        List<Path> written = new ArrayList<>();
        String iterFig = enlarged ? "fig6_3" : "fig6_6";
        String timeFig = enlarged ? "fig6_4" : "fig6_7";
        String sorFig = enlarged ? "fig6_5" : "fig6_9";
        double[] timeBudgets = enlarged ? new double[] {1, 8} : new double[] {2, 8};
        iterationPlot(dir.resolve(iterFig + "_residual_vs_iteration.png"),
                "Seed 001 fig. " + iterFig.substring(3).replace('_', '.') + ": " + what + ", residual vs iterations",
                results, seedThree, written);
        for (double b : timeBudgets) {
            timePlot(dir.resolve(String.format(Locale.ROOT, "%s_residual_vs_time_%sms.png", timeFig, fmt(b))),
                    "Seed 001 fig. " + timeFig.substring(3).replace('_', '.') + ": " + what + ", residual vs time, "
                            + fmt(b) + " ms per step", results, seedThree, b, written);
        }
        iterationPlot(dir.resolve(sorFig + "_sor_residual_vs_iteration.png"),
                "Seed 001 fig. " + sorFig.substring(3).replace('_', '.') + ": " + what + ", RBGS with and without SOR",
                results, sor, written);
        timePlot(dir.resolve(sorFig + "_sor_residual_vs_time_8ms.png"),
                "Seed 001 fig. " + sorFig.substring(3).replace('_', '.') + ": " + what
                        + ", RBGS with and without SOR, 8 ms per step", results, sor, 8, written);
        List<String> all = new ArrayList<>();
        for (Result r : results) {
            all.add(r.name);
        }
        iterationPlot(dir.resolve("all_residual_vs_iteration.png"), what + ": every solver, residual vs iterations",
                results, all, written);
        for (double b : budgets) {
            timePlot(dir.resolve(String.format(Locale.ROOT, "all_residual_vs_time_%sms.png", fmt(b))),
                    what + ": every solver, residual vs time, " + fmt(b) + " ms per step", results, all, b, written);
        }
        return written;
    }

    private void iterationPlot(Path png, String title, List<Result> results, List<String> names, List<Path> written)
            throws IOException {
        ResidualPlot plot = new ResidualPlot(title, "iteration");
        for (Result r : results) {
            if (names.contains(r.name)) {
                double[] x = new double[r.residualPerIteration.length];
                for (int i = 0; i < x.length; i++) {
                    x[i] = i + 1;
                }
                plot.add(r.name, x, r.residualPerIteration);
            }
        }
        if (!plot.isEmpty() && plot.write(png, spec.commandLine().getErr())) {
            written.add(png);
        }
    }

    private void timePlot(Path png, String title, List<Result> results, List<String> names, double budget,
                          List<Path> written) throws IOException {
        int b = indexOf(budget);
        if (b < 0) {
            return;
        }
        ResidualPlot plot = new ResidualPlot(title, "solver time [ms]");
        for (Result r : results) {
            if (names.contains(r.name)) {
                plot.add(r.name + " (" + r.counts[b] + " iterations/step)", r.timeMs[b], r.timeResidual[b]);
            }
        }
        if (!plot.isEmpty() && plot.write(png, spec.commandLine().getErr())) {
            written.add(png);
        }
    }

    private void printTable(PrintWriter out, List<Result> results) {
        out.printf(Locale.ROOT, "%n%-18s %12s %12s", "solver", "ms/iteration", "ms/step+");
        for (double b : budgets) {
            out.printf(Locale.ROOT, " %9s", "it/" + fmt(b) + "ms");
        }
        out.printf(Locale.ROOT, "   %s%n", "seed 001, GTX 970 (1/2/4/8 ms)");
        for (Result r : results) {
            out.printf(Locale.ROOT, "%-18s %12.4f %12.4f", r.name, r.msPerIteration, r.msPerStepOverhead);
            for (int c : r.counts) {
                out.printf(Locale.ROOT, " %9d", c);
            }
            int[] seed = SEED_COUNTS.get(r.name);
            out.printf(Locale.ROOT, "   %s%n",
                    seed == null ? "-" : seed[0] + "/" + seed[1] + "/" + seed[2] + "/" + seed[3]);
        }
        out.printf(Locale.ROOT, "%nfinal residual [m^2] after each budget's run:%n%-18s", "solver");
        for (double b : budgets) {
            out.printf(Locale.ROOT, " %12s", fmt(b) + " ms");
        }
        out.println();
        for (Result r : results) {
            out.printf(Locale.ROOT, "%-18s", r.name);
            for (int b = 0; b < budgets.length; b++) {
                double[] res = r.timeResidual[b];
                out.printf(Locale.ROOT, " %12.4e", res[res.length - 1]);
            }
            out.println();
        }
    }

    private int seedCount(String name, double budget) {
        int[] seed = SEED_COUNTS.get(name);
        for (int i = 0; seed != null && i < SEED_BUDGETS.length; i++) {
            if (SEED_BUDGETS[i] == budget) {
                return seed[i];
            }
        }
        return -1;
    }

    private int indexOf(double budget) {
        for (int i = 0; i < budgets.length; i++) {
            if (budgets[i] == budget) {
                return i;
            }
        }
        return -1;
    }

    private static String fmt(double ms) {
        return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
    }
}
