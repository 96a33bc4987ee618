package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.model.Model;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.step.Environment;
import dev.weft.render.PngFrameRecorder;
import dev.weft.render.RenderStyle;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.render.view.InputScript;
import dev.weft.render.view.SolverTuning;
import dev.weft.render.view.Viewer;
import dev.weft.render.view.ViewedScene;
import dev.weft.scene.SceneLibrary;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code weft view}: the scene in a window, simulated in real time, to pull, cut, tear and shoot at. */
@Command(name = "view", mixinStandardHelpOptions = true,
        description = {"Open a scene in a window and simulate it in real time (OpenGL 3.3 through GLFW; needs a "
                + "display, e.g. xvfb-run -a weft view on a machine without one).",
            "Mouse: left drag on the cloth drags it, on empty space orbits; shift + left drag cuts along the stroke; "
                + "right/middle drag pans; wheel zooms.",
            "Keys: space pause, N single step, R reset, M slow motion (1, 1/4, 1/16), B cannonball towards the "
                + "cursor, T tearing on/off, F frame the scene, C the scene's camera, H the panel, V record frames, "
                + "Esc/Q quit.",
            "The panel (Dear ImGui) switches the solver live and sets iterations, substeps, material, wind, gravity, "
                + "self-collision and tearing; it shows ms per frame, the slowdown, residual and strain."})
final class ViewCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENE", description = SceneArgument.DESCRIPTION)
    String scene = SceneLibrary.DEFAULT;

    @Option(names = "--width", paramLabel = "W", description = "Window width in pixels (default: ${DEFAULT-VALUE}).")
    int width = 960;

    @Option(names = "--height", paramLabel = "H", description = "Window height in pixels (default: ${DEFAULT-VALUE}).")
    int height = 540;

    @Option(names = "--samples", paramLabel = "S",
            description = "Multisample anti-aliasing samples per pixel, 1 = off (default: ${DEFAULT-VALUE}).")
    int samples = 1;

    @Option(names = "--frames", paramLabel = "N", description = "Close after N drawn frames (default: run until closed).")
    Integer frames;

    @Option(names = "--screenshot", paramLabel = "FILE.png", description = "Save the last drawn frame (needs --frames).")
    Path screenshot;

    @Option(names = "--script", paramLabel = "FILE.json",
            description = "Replay timed input (mouse, keys, panel values at drawn frames; see docs/viewer.md) through "
                    + "the handlers a person's input takes; the simulation then runs in lock-step, one frame per "
                    + "drawn frame.")
    Path script;

    @Option(names = "--lockstep", description = "One simulated frame per drawn frame instead of real time.")
    boolean lockstep;

    @Option(names = "--realtime", description = "With --script: simulate in real time while the script's events "
            + "come at their drawn frames (a replay then depends on the machine's speed).")
    boolean realtime;

    @Option(names = "--solver", paramLabel = "NAME",
            description = "Solver: xpbd, pd, pbd, implicit, mass-spring, relaxation (default: the scene's, else xpbd).")
    String solver;

    @Option(names = "--iterations", paramLabel = "K",
            description = "Iterations per substep: xpbd, pbd constraint iterations; pd local/global alternations; "
                    + "implicit most linear iterations; relaxation passes (default: the scene's).")
    Integer iterations;

    @Option(names = "--substeps", paramLabel = "S", description = "Solver steps per frame (default: the scene's).")
    Integer substeps;

    @Option(names = "--mode", paramLabel = "MODE",
            description = "xpbd, pbd: iteration mode colored, jacobi or gauss-seidel, as for 'weft run' (the panel's "
                    + "mode starts here; default: the scene's).")
    String mode;

    @Option(names = "--inner-solver", paramLabel = "NAME",
            description = "pd: inner solver gs, jacobi, rbgs, jacobi-seed or cholesky, as for 'weft run' (the panel's "
                    + "inner solver starts here; default: the scene's).")
    String innerSolver;

    @Option(names = "--omega", paramLabel = "W",
            description = "pd: relaxation factor in (0, 2) of the inner sweeps, as for 'weft run' (the panel's omega "
                    + "starts here; default: the scene's).")
    Float omega;

    /** The flags only some solvers use: one given for a starting solver that does not is an error, as for 'weft run'. */
    private static final SolverFlags SOLVER_FLAGS = new SolverFlags("--solver")
            .flag("--mode", "xpbd", "pbd")
            .flag("--inner-solver", "pd")
            .flag("--omega", "pd");

    @Option(names = "--backend", paramLabel = "cpu|opencl|opencl:N|glsl",
            description = "Where the solver steps, as for 'weft run': cpu (Java, --threads), opencl, opencl:N or glsl; "
                    + "the panel then offers the solvers that backend runs, and a grab or a cannonball it cannot run "
                    + "is refused in the panel (default: ${DEFAULT-VALUE}).")
    String backendName = "cpu";

    /**
     * One core is left to drawing: with Mesa's llvmpipe the window's rasteriser threads and the solver's workers
     * share the cores, and on this 2-core machine two workers waiting for each other behind the rasteriser took
     * 96–118 ms per frame of the default scene where one worker took 34 (docs/viewer.md).
     */
    @Option(names = "--threads", paramLabel = "T",
            description = "Simulation worker threads (default: available processors less one for drawing, "
                    + "${DEFAULT-VALUE}).")
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);

    @Option(names = "--self-collision", description = "Particle contact within and between cloths (off by default).")
    boolean selfCollision;

    /**
     * The strain at which the T key's tearing breaks bodies whose material does not tear by itself (woven
     * cloth tears near 30 % stretch); --tear-strain (the material option) makes them tear from the start.
     */
    static final float KEY_TEAR_STRAIN = 0.3f;

    @Option(names = "--wireframe", description = "Draw the cloth's triangle edges over it.")
    boolean wireframe;

    /**
     * 1024 by default, a quarter of weft render's texels to clear and fill every frame; on this loaded 2-core
     * machine A/B runs of 2048, 1024 and 512 differed by less than the run-to-run noise (38–76 ms per frame).
     */
    @Option(names = "--out", paramLabel = "DIR",
            description = "The V key records PNG frames into DIR/<scene>/view/take_NN/ (and an MP4 beside them "
                    + "when ffmpeg is on the PATH) (default: ${DEFAULT-VALUE}).")
    Path outDir = Path.of("out");

    @Option(names = "--record", description = "Start recording with the first frame (V stops and starts it).")
    boolean record;

    @Option(names = "--shadow-map", paramLabel = "N",
            description = "Shadow map size in texels, a power of two from 64 to 8192 (default: ${DEFAULT-VALUE}; "
                    + "weft render draws with 2048).")
    int shadowMap = 1024;

    @Option(names = "--no-checker", negatable = false,
            description = "Plain cloth instead of the checker pattern over its texture coordinates.")
    boolean noChecker;

    @Option(names = "--no-panel", negatable = false,
            description = "Start without the parameter panel (H shows and hides it).")
    boolean noPanel;

    @CommandLine.Mixin
    MaterialOptions material = new MaterialOptions();

    @CommandLine.Mixin
    EnvironmentOptions environment = new EnvironmentOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec == null ? new PrintWriter(System.out, true) : spec.commandLine().getOut();
        Viewer.Options options = options();
        Viewer.Report r;
        try (World world = world()) {
            Scene first = world.load();
            out.printf(Locale.ROOT, "weft view: scene %s (%d particles), %s, %d x %d%s%n", first.name(),
                    first.model().particleCount(), world.label(), width, height, (script != null ? ", script "
                            + script : "") + (options.stepsWithFrames() ? ", lock-step" : ", real time"));
            r = Viewer.run(world, options, null);
            report(out, r, options);
        }
        encode(out, r);
        return 0;
    }

    static void report(PrintWriter out, Viewer.Report r, Viewer.Options o) {
        out.printf(Locale.ROOT, "  %s%n", r.gl());
        out.printf(Locale.ROOT, "  drawn: %d frames in %.2f s = %.1f frames/s, draw + present %.2f ms per frame%n",
                r.drawnFrames(), r.wallSeconds(), r.framesPerSecond(), r.drawMsPerFrame());
        out.printf(Locale.ROOT, "  simulated: %d frames = %.2f s, %.2f ms per frame in the solver%s%n",
                r.simulatedFrames(), r.simulatedSeconds(), r.simMsPerFrame(),
                o.stepsWithFrames() ? " (lock-step)" : r.simulatedFrames() == 0 ? ""
                        : String.format(Locale.ROOT, "; slowdown %.2fx (wall time / simulated time)", r.slowdown()));
        if (!Double.isNaN(r.steadyFramesPerSecond())) {
            out.printf(Locale.ROOT, "  after the first %.0f s (the JIT's warm-up): %.1f drawn frames/s, slowdown %.2fx%n",
                    Viewer.WARM_UP_SECONDS, r.steadyFramesPerSecond(), r.steadySlowdown());
        }
        out.printf(Locale.ROOT, "  CPU: drawing thread %.2f ms per drawn frame, simulating thread %.2f ms per simulated "
                + "frame, the process %.2f cores (llvmpipe's rasteriser threads included)%n", r.drawCpuMsPerFrame(),
                r.simCpuMsPerFrame(), r.processCores());
        if (!r.grabLatencyFrames().isEmpty()) {
            out.printf(Locale.ROOT, "  input latency: a grab showed %s drawn frame(s) after its input (1 = the next "
                    + "picture)%n", r.grabLatencyFrames());
        }
        if (o.screenshot() != null) {
            out.printf(Locale.ROOT, "  wrote %s%n", o.screenshot());
        }
    }

    /** Each recorded take as an MP4 beside its frames, with ffmpeg; without it, the command that would. */
    private void encode(PrintWriter out, Viewer.Report r) {
        java.util.Optional<Path> ffmpeg = r.takes().isEmpty() ? java.util.Optional.empty() : VideoEncoder.find();
        for (int i = 0; i < r.takes().size(); i++) {
            Path take = r.takes().get(i);
            Path mp4 = take.resolveSibling(take.getFileName() + ".mp4");
            out.printf(Locale.ROOT, "  recorded %d frames into %s%n", r.takeFrames().get(i), take);
            if (r.takeFrames().get(i) == 0) {
                continue;
            }
            if (ffmpeg.isPresent()) {
                new VideoEncoder(ffmpeg.get(), take.resolve("ffmpeg.log")).mp4(take, PngFrameRecorder.FFMPEG_PATTERN,
                        r.takeFps(), mp4);
                out.printf(Locale.ROOT, "  wrote %s%n", mp4);
            } else {
                out.printf(Locale.ROOT, "  no ffmpeg on the PATH for the MP4 (%s); this encodes it: %s%n",
                        VideoEncoder.INSTALL_HINT, VideoEncoder.manualCommand(take, PngFrameRecorder.FFMPEG_PATTERN,
                                r.takeFps(), mp4));
            }
        }
    }

    Viewer.Options options() {
        if (width < 64 || width > 8192) {
            throw new InvalidInputException("--width", "must be between 64 and 8192 pixels, got " + width);
        }
        if (height < 64 || height > 8192) {
            throw new InvalidInputException("--height", "must be between 64 and 8192 pixels, got " + height);
        }
        if (samples < 1 || samples > 16) {
            throw new InvalidInputException("--samples", "must be between 1 (no anti-aliasing) and 16, got " + samples);
        }
        if (frames != null && frames < 1) {
            throw new InvalidInputException("--frames", "must be an integer >= 1, got " + frames);
        }
        if (screenshot != null && frames == null) {
            throw new InvalidInputException("--screenshot", "saves the last of --frames N frames; give --frames too");
        }
        InputScript input = script == null ? null : InputScript.read(script);
        int n = frames == null ? 0 : frames;
        if (realtime && script == null) {
            throw new InvalidInputException("--realtime", "replays a --script in real time; without one the "
                    + "viewer runs in real time anyway");
        }
        if (realtime && lockstep) {
            throw new InvalidInputException("--realtime", "and --lockstep exclude each other");
        }
        boolean steps = lockstep || (script != null && !realtime);
        return new Viewer.Options(width, height, samples, n, screenshot, input, steps,
                RenderStyle.defaults().withWireframe(wireframe).withChecker(!noChecker)
                        .withShadowMapSize(shadowMapSize()),
                !noPanel, outDir, record);
    }

    private int shadowMapSize() {
        if (shadowMap < 64 || shadowMap > 8192 || Integer.bitCount(shadowMap) != 1) {
            throw new InvalidInputException("--shadow-map", "must be a power of two from 64 to 8192, got " + shadowMap);
        }
        return shadowMap;
    }

    /** The scene as this command's flags make it, loaded afresh for every reset, and its solver. */
    World world() {
        if (threads < 1 || threads > 256) {
            throw new InvalidInputException("--threads", "must be between 1 and 256, got " + threads);
        }
        Scene s = asGiven();
        String name = solver == null ? s.defaultSolver() : solver;
        if (!Solvers.names().contains(name)) {
            throw new InvalidInputException("--solver", "unknown solver '" + name + "'; available: "
                    + String.join(", ", Solvers.names()));
        }
        material.checkSolver(s.model(), name);
        if (iterations != null && "mass-spring".equals(name)) {
            throw new InvalidInputException("--iterations", "mass-spring has no iterations (its springs take "
                    + "explicit steps)");
        }
        if (iterations != null && iterations < 1) {
            throw new InvalidInputException("--iterations", "must be an integer >= 1, got " + iterations);
        }
        int steps = substeps == null ? s.substeps(name) : substeps;
        if (steps < 1) {
            throw new InvalidInputException("--substeps", "must be an integer >= 1, got " + steps);
        }
        SOLVER_FLAGS.check(List.of(name), GivenFlags.of(spec));
        SolverTuning tuning = tuning();
        Backend backend = Backend.parse(backendName);
        if (backend.onDevice() && !backend.solvers().contains(name)) {
            throw new InvalidInputException(Backend.FLAG, backend.text() + " runs --solver " + String.join(", ",
                    backend.solvers()) + " so far, not " + name + "; use --backend cpu");
        }
        boolean tears = s.model().tears();
        World w = new World(name, steps, tears, new WorkerPool(threads), backend, tuning);
        // the start's solver made once here, so a setting it refuses is said before a window opens
        try {
            w.solver(s, name, w.iterations(s, name), w.selfCollisionAtStart(s), tuning).close();
        } catch (RuntimeException e) {
            w.pool.close();
            throw e;
        }
        return w;
    }

    /** --mode, --inner-solver and --omega as the panel's choices at the start (null: the scene's). */
    private SolverTuning tuning() {
        SolverTuning t = SolverTuning.SCENE;
        if (mode != null) {
            t = t.withMode(IterationMode.parse("--mode", mode));
        }
        if (innerSolver != null) {
            t = t.withInner(InnerSolver.parse("--inner-solver", innerSolver));
        }
        if (omega != null) {
            if (!(omega > 0f && omega < 2f)) {
                throw new InvalidInputException("--omega", "must be a number in (0, 2) (1 = no relaxation), got "
                        + omega);
            }
            if (t.inner() != null && t.inner().isDirect() && omega != 1f) {
                throw new InvalidInputException("--omega", "relaxes the sweeps of gs, jacobi, rbgs and jacobi-seed; "
                        + "cholesky solves the global step exactly and takes no omega");
            }
            t = t.withOmega(omega);
        }
        return t;
    }

    /** The scene with the flags' material and surroundings. */
    private Scene asGiven() {
        return environment.apply(material.apply(SceneArgument.load(scene)));
    }

    /** {@link #asGiven()}; bodies that do not tear get KEY_TEAR_STRAIN for the T key. */
    private Scene load() {
        Scene s = asGiven();
        Model m = s.model();
        if (!m.tears()) {
            m = m.withMaterial(mat -> mat.tearStrain() < Float.POSITIVE_INFINITY ? mat : mat.withTearStrain(KEY_TEAR_STRAIN));
            s = s.withModel(m);
        }
        return s;
    }

    /** {@link ViewedScene} for this command: its flags' solver, substeps and iterations at the start. */
    final class World implements ViewedScene, AutoCloseable {
        final String solverName;
        final int steps;
        final boolean tearsByItself;
        final WorkerPool pool;
        final Backend backend;
        final SolverTuning tuningAtStart;

        World(String solverName, int steps, boolean tearsByItself, WorkerPool pool, Backend backend,
              SolverTuning tuningAtStart) {
            this.solverName = solverName;
            this.steps = steps;
            this.tearsByItself = tearsByItself;
            this.pool = pool;
            this.backend = backend;
            this.tuningAtStart = tuningAtStart;
        }

        @Override
        public SolverTuning tuningAtStart() {
            return tuningAtStart;
        }

        @Override
        public Scene load() {
            return ViewCommand.this.load();
        }

        @Override
        public String solverName() {
            return solverName;
        }

        @Override
        public String backend() {
            return backend.text();
        }

        @Override
        public boolean solversOwnAGlContext() {
            return backend.glsl();
        }

        @Override
        public List<String> solverNames() {
            return backend.onDevice() ? backend.solvers() : Solvers.names();
        }

        @Override
        public void requireSupported(Scene s, String name, Environment env) {
            backend.requireSupported(name, settings(s, name, null, SolverTuning.SCENE), s.model(), env, null, s.name());
        }

        @Override
        public Solver solver(Scene s, String name, Integer k, boolean contacts, SolverTuning tuning) {
            material.checkSolver(s.model(), name);
            SolverSettings all = settings(s, name, k, tuning);
            ParticleContactSettings contactSettings = !contacts ? null
                    : s.contacts() == null ? ParticleContactSettings.defaults() : s.contacts();
            backend.requireSupported(name, all, s.model(), s.environment(), contactSettings, s.name());
            Solver created = backend.create(name, all, pool);
            if (contacts) {
                if (!(created instanceof ParticleContactSolver c)) {
                    created.close();
                    throw new InvalidInputException("self-collision", name + " has no cloth-cloth contact"
                            + (s.contacts() != null ? " (scene " + s.name() + " asks for it)" : ""));
                }
                c.withParticleContacts(contactSettings);
            }
            return created;
        }

        /** The scene's settings for solver {@code name} with the panel's {@code tuning} and iterations {@code k} (null: the scene's). */
        private SolverSettings settings(Scene s, String name, Integer k, SolverTuning tuning) {
            SolverSettings all = s.settings();
            if (tuning.mode() != null && ("xpbd".equals(name) || "pbd".equals(name))) {
                all = all.withXpbd(all.xpbd().withMode(tuning.mode()));
            }
            if ("pd".equals(name) && (tuning.inner() != null || tuning.omega() != null)) {
                PdSettings pd = all.pd();
                if (tuning.inner() != null) {
                    pd = pd.withInner(tuning.inner());
                }
                if (tuning.omega() != null && !pd.inner().isDirect()) { // ω relaxes sweeps; cholesky has none
                    pd = pd.withOmega(tuning.omega());
                }
                all = all.withPd(pd);
            }
            if (k != null) {
                if ("xpbd".equals(name) || "pbd".equals(name)) {
                    all = all.withXpbd(all.xpbd().withIterations(k));
                } else if ("pd".equals(name)) {
                    all = all.withPd(all.pd().withIterations(k, all.pd().innerIterations()));
                } else if ("relaxation".equals(name)) {
                    all = all.withRelaxation(new RelaxationSettings(k, all.relaxation().tethers()));
                } else if ("implicit".equals(name)) {
                    all = all.withImplicit(all.implicit().withIterations(k, all.implicit().tolerance()));
                } else {
                    throw new InvalidInputException("iterations", name + " has no iterations (its springs take "
                            + "explicit steps)");
                }
            }
            return all;
        }

        @Override
        public boolean selfCollisionAtStart(Scene s) {
            return selfCollision || s.contacts() != null;
        }

        @Override
        public int substeps(Scene s, String name) {
            return name.equals(solverName) ? steps : s.substeps(name);
        }

        @Override
        public Integer iterations(Scene s, String name) {
            if (iterations != null && name.equals(solverName)) {
                return iterations;
            }
            Integer k = s.iterations(name);
            if (k != null) {
                return k;
            }
            switch (name) {
                case "xpbd":
                case "pbd":
                    return s.xpbd().iterations();
                case "pd":
                    return s.pd().outerIterations();
                case "relaxation":
                    return s.settings().relaxation().iterations();
                case "implicit":
                    return s.settings().implicit().maxIterations();
                default:
                    return null;
            }
        }

        @Override
        public boolean tearingAtStart() {
            return tearsByItself;
        }

        /** Closes the worker pool the solvers ran on. */
        @Override
        public void close() {
            pool.close();
        }

        String label() {
            return solverName + ", " + steps + " substeps, " + (backend.onDevice() ? "backend " + backend.text()
                    : pool.threads() + " thread(s)");
        }
    }
}
