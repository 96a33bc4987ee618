package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.export.Exports;
import dev.weft.core.export.FrameExporter;
import dev.weft.core.mesh.ObjWriter;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.DrawnSurface;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Checkpoint;
import dev.weft.core.sim.Simulation;
import dev.weft.core.sim.SimulationDivergedException;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.opencl.OpenClImplicitSolver;
import dev.weft.opencl.OpenClMassSpringSolver;
import dev.weft.render.DevicePositions;
import dev.weft.render.PngFrameRecorder;
import dev.weft.render.compute.GlslMassSpringSolver;
import dev.weft.render.compute.GlslSolver;
import dev.weft.scene.SceneLibrary;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code weft run}: simulates a scene and writes metrics and meshes. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Simulate a scene; write metrics.csv and OBJ frames into OUT/<scene>/.")
class RunCommand implements Callable<Integer> {
    /**
     * How {@code weft render} draws the frames (camera, size, style) and reports them; null for run's own
     * {@code --render} (the scene's camera at {@code --render-size}).
     */
    interface Pictures {
        /** {@code source}: the solver's device positions to draw from (the glsl backend), else null. */
        PngFrameRecorder open(Scene s, Path frameDir, DevicePositions source);

        /** After the last frame, before the recorder closes: what it drew. */
        void finished(PngFrameRecorder recorder, PrintWriter out, double wallSeconds);
    }

    /** Set by {@code weft render}. */
    Pictures pictures;

    /** The flags only some solvers use; one given to another solver is an error, not ignored. */
    private static final SolverFlags SOLVER_FLAGS = new SolverFlags("--solver")
            .flag("--mode", "xpbd", "pbd")
            .flag("--stretch-passes", "xpbd", "pbd")
            .flag("--stretch-limits", "xpbd", "pbd")
            .flag("--stretch-smoothing", "xpbd", "pbd")
            .flag("--iterations", "xpbd", "pbd", "pd", "implicit", "relaxation")
            .flag("--inner-solver", "pd")
            .flag("--omega", "pd")
            .flag("--chebyshev", "pd")
            .flag("--inner-iterations", "pd")
            .flag("--linear", "implicit")
            .flag("--tolerance", "implicit")
            .flag("--springs", "implicit", "mass-spring")
            .flag("--fixed-steps", "mass-spring");

    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENE",
            description = SceneArgument.DESCRIPTION)
    String scene = SceneLibrary.DEFAULT;

    @Option(names = "--frames", paramLabel = "N", description = "Frames to simulate (default: the scene's, 300 = 5 s).")
    Integer frames;

    @Option(names = "--fps", paramLabel = "F", description = "Frames per second (default: the scene's, 60).")
    Float fps;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path outDir = Path.of("out");

    @Option(names = "--solver", paramLabel = "NAME",
            description = "Solver: xpbd, pd (Projective Dynamics), pbd, implicit, mass-spring, relaxation (default: the "
                    + "scene's 'solver', else xpbd).")
    String solver;

    @Option(names = "--inner-solver", paramLabel = "NAME",
            description = "pd: inner solver gs, jacobi, rbgs, jacobi-seed or cholesky (the global step solved "
                    + "exactly by a prefactored sparse Cholesky factor; one solve per local step) (default: rbgs).")
    String innerSolver;

    @Option(names = "--omega", paramLabel = "W",
            description = "pd: relaxation factor in (0, 2), SOR for gs/rbgs (seed: 1.7) (default: 1).")
    Float omega;

    @Option(names = "--chebyshev", description = "pd: Chebyshev acceleration of the jacobi inner solver.")
    boolean chebyshev;

    @Option(names = "--inner-iterations", paramLabel = "J",
            description = "pd: inner sweeps per local step; --iterations sets the local/global alternations "
                    + "(default: 4 x 4).")
    Integer innerIterations;

    @Option(names = "--mode", paramLabel = "MODE",
            description = "xpbd, pbd: iteration mode colored, jacobi or gauss-seidel (default: the scene's, colored; "
                    + "pbd --mode jacobi --stretch-passes 1 is seed 001's Jacobi PBD).")
    String mode;

    @Option(names = "--stretch-passes", paramLabel = "P",
            description = "xpbd, pbd: sweeps over the stretch constraints per iteration, the first with all constraints "
                    + "(default: 2; 1 is plain XPBD).")
    Integer stretchPasses;

    @Option(names = "--stretch-limits",
            description = "xpbd, pbd: in each iteration, after its first distance pass, hold every grid cloth's chords "
                    + "2, 4, 8, ... particles apart on a row or column no longer than their paths' rest length, coarse "
                    + "first (one-sided: no stiffness where it bends); a large cloth stretches less for the same "
                    + "substeps.")
    boolean stretchLimits;

    @Option(names = "--stretch-smoothing",
            description = "xpbd, pbd (colored mode): after the stretch passes, one more at half strength over every "
                    + "stretch color but the last, which evens out the stretch a colored sweep leaves on its first "
                    + "colors (the largest strain about halved for about three quarters of a stretch pass).")
    boolean stretchSmoothing;

    @Option(names = "--iterations", paramLabel = "K",
            description = "Iterations per substep: xpbd, pbd: constraint iterations; pd: local/global alternations; "
                    + "implicit: most linear-solver iterations; relaxation: relaxation passes (not mass-spring).")
    Integer iterations;

    @Option(names = "--substeps", paramLabel = "S",
            description = "Solver steps per frame (default: the scene's for the solver, see 'weft scenes').")
    Integer substeps;

    @Option(names = "--backend", paramLabel = "cpu|opencl|opencl:N|glsl",
            description = "Where the solver steps: cpu (Java, --threads), opencl (the first OpenCL GPU, else device 0), "
                    + "opencl:N (device N of 'weft devices') or glsl (OpenGL 4.3 compute shaders); opencl runs --solver "
                    + "mass-spring, xpbd (colored, jacobi), pbd, pd (rbgs, jacobi) and relaxation, glsl mass-spring "
                    + "and xpbd (colored) so far "
                    + "(default: ${DEFAULT-VALUE}).")
    String backendName = "cpu";

    @Option(names = "--threads", paramLabel = "T",
            description = "Worker threads (default: available processors, ${DEFAULT-VALUE}).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--checkpoint-every", paramLabel = "K",
            description = "Write OUT/<scene>/checkpoint_NNNNN.weft every K frames (everything that evolves; "
                    + "--resume continues from one bitwise as if never stopped). 0: none (default).")
    int checkpointEvery;

    @Option(names = "--resume", paramLabel = "FILE",
            description = "Continue from a checkpoint written by --checkpoint-every, with the same scene, solver and "
                    + "substeps; runs the frames after it up to --frames.")
    Path resume;

    @Option(names = "--export", paramLabel = "FORMAT[,FORMAT...]", split = ",",
            description = "Also write the animation for other tools, every frame: obj (OUT/<scene>/frames/"
                    + "frame_NNNNN.obj with normals, UVs, a group per body, ropes as lines), pc2 (a point cache and its "
                    + "base OBJ: Blender's Mesh Cache, Maya, 3ds Max), gltf (<scene>.glb, morph-target animation), usd "
                    + "(<scene>.usda, time-sampled points). Streamed to disk; each appears whole when the run ends.")
    List<String> export;

    @Option(names = "--obj-every", paramLabel = "K",
            description = "Write an OBJ every K frames, 0 for none (default: ${DEFAULT-VALUE}).")
    int objEvery = 30;

    @Option(names = "--quiet", description = "No progress bar.")
    boolean quiet;

    @Option(names = "--render", description = "Also render every frame offscreen into OUT/<scene>/render/frame_NNNNN.png "
            + "(the scene's camera; see 'weft render' for more choices).")
    boolean render;

    @Option(names = "--render-size", paramLabel = "WxH", description = "Picture size for --render (default: ${DEFAULT-VALUE}).")
    String renderSize = "1280x720";

    @Option(names = "--self-collision",
            description = "Particle contact within and between cloths, with friction (every solver; off by default).")
    boolean selfCollision;

    @Option(names = "--vertex-triangle",
            description = "With --self-collision: also keep particles half a contact distance off other cloth triangles' "
                    + "faces (off by default).")
    boolean vertexTriangle;

    @CommandLine.Mixin
    SpringSolverOptions springSolver = new SpringSolverOptions();

    @CommandLine.Mixin
    MaterialOptions material = new MaterialOptions();

    @CommandLine.Mixin
    EnvironmentOptions environment = new EnvironmentOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec == null ? new PrintWriter(System.out, true) : spec.commandLine().getOut();
        PrintWriter err = spec == null ? new PrintWriter(System.err, true) : spec.commandLine().getErr();
        Scene s = environment.apply(material.apply(SceneArgument.load(scene)));
        if (solver == null) {
            solver = s.defaultSolver();
        }
        if (!Solvers.names().contains(solver)) {
            throw new InvalidInputException("--solver", "unknown solver '" + solver + "'; available: "
                    + String.join(", ", Solvers.names()));
        }
        GivenFlags given = GivenFlags.of(spec);
        SOLVER_FLAGS.check(List.of(solver), given);
        material.checkSolver(s.model(), solver);
        s = springSolver.springs(s);
        if (iterations == null) {
            iterations = s.iterations(solver); // the scene's for this solver, or null for the solver's default
        }
        if (given.has("--render-size") && !render) {
            throw new InvalidInputException("--render-size", "sets the picture size of --render; give --render too");
        }
        int frameCount = frames == null ? s.frames() : frames;
        float frameRate = fps == null ? s.fps() : fps;
        if (frameCount < 1) {
            throw new InvalidInputException("--frames", "must be an integer >= 1, got " + frameCount);
        }
        if (!(frameRate > 0f) || !Float.isFinite(frameRate)) {
            throw new InvalidInputException("--fps", "must be a finite number > 0, got " + frameRate);
        }
        if (threads < 1 || threads > 256) {
            throw new InvalidInputException("--threads", "must be between 1 and 256, got " + threads);
        }
        if (checkpointEvery < 0) {
            throw new InvalidInputException("--checkpoint-every", "must be >= 0 (0 writes none), got " + checkpointEvery);
        }
        if (resume != null && !Files.isRegularFile(resume)) {
            throw new InvalidInputException("--resume", "no such file: " + resume);
        }
        if (objEvery < 0) {
            throw new InvalidInputException("--obj-every", "must be >= 0 (0 writes no OBJ), got " + objEvery);
        }
        XpbdSettings settings = s.xpbd();
        if (mode != null) {
            settings = settings.withMode(IterationMode.parse("--mode", mode));
        }
        if (stretchPasses != null) {
            if (stretchPasses < 1) {
                throw new InvalidInputException("--stretch-passes", "must be an integer >= 1, got " + stretchPasses);
            }
            settings = settings.withStretchPasses(stretchPasses);
        }
        if (stretchLimits) {
            settings = settings.withStretchLimits(true);
        }
        if (stretchSmoothing) {
            if (settings.mode() != IterationMode.COLORED) {
                throw new InvalidInputException("--stretch-smoothing", "needs --mode colored (it evens out what a "
                        + "colored sweep leaves on its first colors), got --mode " + settings.mode().label());
            }
            settings = settings.withStretchSmoothing(true);
        }
        if (iterations != null) {
            if (iterations < 1) {
                throw new InvalidInputException("--iterations", "must be an integer >= 1, got " + iterations);
            }
            settings = settings.withIterations(iterations);
        }
        PdSettings pd = pdSettings(s.pd());
        int steps = substeps == null ? s.substeps(solver) : substeps;
        if (steps < 1) {
            throw new InvalidInputException("--substeps", "must be an integer >= 1, got " + steps);
        }
        SolverSettings all = springSolver.apply(s.settings().withXpbd(settings).withPd(pd),
                Solvers.springBased(solver) ? iterations : null);
        Backend backend = Backend.parse(backendName);
        backend.requireSupported(solver, all, s.model(), springSolver.environment(s.environment()),
                contactSettings(s), s.name());
        Path dir = outDir.resolve(s.name());
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new InvalidInputException("--out", "cannot create folder " + dir + ": " + e.getMessage());
        }
        Model model = s.model();
        float dt = 1f / frameRate;
        int distanceBending = model.distances().countOf(DistanceKind.BEND);
        out.printf(Locale.ROOT, "weft run: scene %s (%d particles, %d distance%s, %d dihedral bending, %d tether "
                + "constraints%s)%n", s.name(), model.particleCount(), model.distances().count(),
                distanceBending > 0 ? " (" + distanceBending + " of them bending)" : "", model.bending().count(),
                model.tethers().count(), model.tets().count() > 0 ? ", " + model.tets().count() + " tetrahedra" : "");
        for (int o = 0; o < model.objects().size(); o++) {
            out.println("  " + model.objects().get(o).name() + ": " + MaterialOptions.describe(model, o));
        }
        if (Solvers.springBased(solver)) {
            String method = "relaxation".equals(solver) ? all.relaxation().iterations() + " passes x "
                    : "implicit".equals(solver) ? "at most " + all.implicit().maxIterations() + " "
                            + all.implicit().method().label() + " iterations, " : "";
            out.printf(Locale.ROOT, "  solver %s, %s%d substeps, %d thread(s), %d frames at %.4g fps%n", solver, method,
                    steps, threads, frameCount, frameRate);
        } else if ("pd".equals(solver)) {
            String iterations = pd.inner().isDirect() ? pd.outerIterations() + " local steps of 1 exact solve"
                    : pd.outerIterations() + " x " + pd.innerIterations() + " iterations";
            out.printf(Locale.ROOT, "  solver pd (%s), %s x %d substeps, %d thread(s), "
                    + "%d frames at %.4g fps%n", pd.label(), iterations, steps, threads, frameCount, frameRate);
        } else {
            int passes = settings.stretchPasses();
            out.printf(Locale.ROOT, "  solver %s, mode %s, %d iterations%s x %d substeps, %d thread(s), "
                    + "%d frames at %.4g fps%n", solver, settings.mode().label(), settings.iterations(),
                    (passes > 1 ? " (" + passes + " stretch passes each)" : "")
                            + (settings.stretchLimits() ? " with stretch limits" : "")
                            + (settings.stretchSmoothing() ? (settings.stretchLimits() ? " and" : " with")
                                    + " stretch smoothing" : ""), steps, threads, frameCount,
                    frameRate);
        }
        ProgressBar bar = new ProgressBar(err, frameCount, !quiet);
        long startNanos = System.nanoTime();
        double totalStepMs = 0;
        double lastResidual = 0;
        double maxStrainSeen = 0;
        SoftBodyVolumes volumes = new SoftBodyVolumes(model);
        String linearSummary = null;
        int objWritten = 0;
        FrameExporter exporter = null;
        List<Path> exported = new java.util.ArrayList<>();
        int first = 1;
        int rows = 0;
        try (WorkerPool pool = new WorkerPool(threads);
             Simulation sim = new Simulation(model, s.initialState(), createSolver(backend, all, pool, s),
                     springSolver.environment(s.environment()), steps);
             // a GLSL solver's pictures are drawn in its context from its storage buffer, not uploaded again
             PngFrameRecorder frames = pictures != null ? pictures.open(s, dir.resolve("render"), drawSource(sim))
                     : render ? RenderCommand.recorder(s, dir.resolve("render"), renderSize, drawSource(sim))
                     : null) {
            if (pictures != null) {
                out.println("  " + frames.description());
            }
            if (backend.onDevice()) {
                out.println("  backend " + backend.text() + ": " + backend.describeDevice(sim.solver()));
            }
            if (sim.solver() instanceof MassSpringSolver || sim.solver() instanceof OpenClMassSpringSolver
                    || sim.solver() instanceof GlslMassSpringSolver) {
                double stable = sim.solver() instanceof MassSpringSolver ms ? ms.stableStep(model)
                        : sim.solver() instanceof GlslMassSpringSolver gs ? gs.stableStep(model)
                        : ((OpenClMassSpringSolver) sim.solver()).stableStep(model);
                int verlet = sim.solver() instanceof MassSpringSolver ms ? ms.verletStepsPer(model, dt / steps)
                        : sim.solver() instanceof GlslMassSpringSolver gs ? gs.verletStepsPer(model, dt / steps)
                        : ((OpenClMassSpringSolver) sim.solver()).verletStepsPer(model, dt / steps);
                out.printf(Locale.ROOT, "  %d Verlet step(s) per substep; the springs' stable step is %.4f ms%s%n",
                        verlet, 1e3 * stable, dt / steps > stable * verlet
                                ? ", shorter than these: expect the run to blow up (drop --fixed-steps)" : "");
            }
            if (resume != null) {
                Checkpoint.read(resume, sim);
            }
            State state = sim.state(); // the checkpoint's, after a resume (its model may carry edits)
            if (resume != null) {
                if (state.steps() % steps != 0) {
                    throw new InvalidInputException("--resume", resume + " was written at step " + state.steps()
                            + ", not at the end of a frame of " + steps + " substeps: resume with the run's --substeps");
                }
                first = (int) (state.steps() / steps) + 1;
                if (first > frameCount) {
                    throw new InvalidInputException("--resume", resume + " is at frame " + (first - 1)
                            + "; give --frames beyond it (got " + frameCount + ")");
                }
                out.printf(Locale.ROOT, "  resumed from %s at frame %d (t = %.4f s)%n", resume, first - 1, state.time());
            }
            if (frames != null) {
                frames.record(first - 1, sim.model(), state.positions());
            }
            exporter = export == null ? null : Exports.open(export, dir, s.name(), frameRate);
            if (exporter != null) {
                exporter.frame(sim.model(), state.positions(), first - 1, state.time());
            }
            Path metrics = dir.resolve("metrics.csv");
            // on a resume the earlier frames' rows of the run that wrote the checkpoint stay (a
            // metrics.csv from another run, or none, keeps nothing); opened only now, so a refused
            // checkpoint leaves the existing file untouched
            List<String> earlier = resume == null ? List.of() : earlierRows(metrics, first);
            try (AtomicTextFile csv = new AtomicTextFile(metrics)) {
                csv.line(METRICS_HEADER);
                for (String row : earlier) {
                    csv.line(row);
                }
                rows = earlier.size();
                for (int f = first; f <= frameCount; f++) {
                    long t0 = System.nanoTime();
                    try {
                        sim.advance(dt);
                    } catch (SimulationDivergedException e) {
                        csv.flush();
                        bar.finish();
                        throw e;
                    }
                    double stepMs = (System.nanoTime() - t0) / 1e6;
                    totalStepMs += stepMs;
                    // tearing replaces the model, and the state when particles were added
                    Model now = sim.model();
                    state = sim.state();
                    float[] x = state.positions();
                    lastResidual = ClothMetrics.residual(now, x);
                    double strain = ClothMetrics.maxStrain(now, x);
                    maxStrainSeen = Math.max(maxStrainSeen, strain);
                    volumes.record(now, x);
                    csv.line(String.format(Locale.ROOT, "%d,%.6f,%.4f,%.6e,%.6e,%.6e,%.6e", f, state.time(), stepMs,
                            lastResidual, strain, ClothMetrics.kineticEnergy(now, state.velocities()),
                            minClearance(sim.environment().colliders(), x)));
                    rows++;
                    csv.flush();
                    if (objEvery > 0 && (f % objEvery == 0 || f == frameCount)) {
                        DrawnSurface drawn = now.drawnSurface();
                        ObjWriter.write(dir.resolve(String.format(Locale.ROOT, "frame_%05d.obj", f)),
                                drawn.positions(x), drawn.uvs(), drawn.triangles(), "weft " + s.name() + " frame " + f);
                        objWritten++;
                    }
                    if (frames != null) {
                        frames.record(f, now, x);
                    }
                    if (exporter != null) {
                        exporter.frame(now, x, f, state.time());
                    }
                    if (checkpointEvery > 0 && f % checkpointEvery == 0) {
                        Checkpoint.write(dir.resolve(String.format(Locale.ROOT, "checkpoint_%05d.weft", f)), sim);
                    }
                    bar.update(f, String.format(Locale.ROOT, "t=%.2fs", state.time()));
                }
                bar.finish();
            }
            if (pictures != null) {
                frames.flush();
                pictures.finished(frames, out, (System.nanoTime() - startNanos) / 1e9);
            }
            if (frames != null && sim.solver() instanceof GlslSolver<?> glsl) {
                out.printf(Locale.ROOT, "  glsl: %d of %d pictures drawn from the solver's storage buffer; the state "
                        + "read back %d time(s) (once a frame, for the metrics; not between substeps)%n",
                        frames.framesFromDevice(), frames.framesWritten(), glsl.readBacks());
            }
            if (exporter != null) {
                FrameExporter done = exporter;
                exporter = null;
                done.close();
                for (Path written : done.outputs()) {
                    exported.add(written);
                }
            }
            if (sim.solver() instanceof ImplicitSolver) {
                ImplicitSolver implicit = (ImplicitSolver) sim.solver();
                linearSummary = String.format(Locale.ROOT, "  last step: %d %s iterations, relative residual %.2e%n",
                        implicit.lastIterations(), implicit.settings().method().label(),
                        implicit.lastRelativeResidual());
            } else if (sim.solver() instanceof OpenClImplicitSolver) {
                OpenClImplicitSolver implicit = (OpenClImplicitSolver) sim.solver();
                linearSummary = String.format(Locale.ROOT, "  last step: %d %s iterations, relative residual %.2e%n",
                        implicit.lastIterations(), implicit.settings().method().label(),
                        implicit.lastRelativeResidual());
            }
        } catch (IOException e) {
            abort(exporter);
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            // a run that failed leaves no partial export (the files of an earlier run stay as they were)
            abort(exporter);
            throw e;
        }
        double wallS = (System.nanoTime() - startNanos) / 1e9;
        out.printf(Locale.ROOT, "  done: %d frames (%.2f s simulated) in %.2f s wall, %.3f ms per frame in the solver%n",
                frameCount - first + 1, (frameCount - first + 1) * dt, wallS, totalStepMs / (frameCount - first + 1));
        if (model.distances().count() > 0) {
            out.printf(Locale.ROOT, "  final residual %.3e m^2, largest strain seen %.2f %%%n", lastResidual,
                    100 * maxStrainSeen);
        }
        volumes.report(out);
        if (linearSummary != null) {
            out.print(linearSummary);
        }
        out.printf(Locale.ROOT, "  wrote %s (%d rows) and %d OBJ file(s)%n", dir.resolve("metrics.csv"), rows,
                objWritten);
        if (render || pictures != null) {
            out.printf(Locale.ROOT, "  rendered %d PNG frames into %s%n", frameCount + 1, dir.resolve("render"));
        }
        if (!exported.isEmpty()) {
            out.printf(Locale.ROOT, "  exported %s%n", exported.size() <= 4 ? exported
                    : exported.size() + " files into " + dir);
        }
        return 0;
    }

    /** The solver's positions on the device for the pictures to be drawn from (a GLSL solver), else null. */
    private static DevicePositions drawSource(Simulation sim) {
        return sim.solver() instanceof GlslSolver<?> glsl ? glsl : null;
    }

    private static void abort(FrameExporter exporter) {
        if (exporter != null) {
            exporter.abort();
        }
    }

    private static final String METRICS_HEADER =
            "frame,time_s,step_ms,residual,max_strain,kinetic_energy,min_collider_clearance_m";

    /**
     * The rows of frames before {@code first} in an existing metrics.csv of the same columns, in order;
     * none when there is no such file or it has other columns.
     */
    private static List<String> earlierRows(Path metrics, int first) throws IOException {
        if (!Files.isRegularFile(metrics)) {
            return List.of();
        }
        List<String> lines = Files.readAllLines(metrics);
        if (lines.isEmpty() || !lines.get(0).equals(METRICS_HEADER)) {
            return List.of();
        }
        List<String> kept = new java.util.ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            int comma = line.indexOf(',');
            try {
                if (comma > 0 && Integer.parseInt(line.substring(0, comma)) < first) {
                    kept.add(line);
                }
            } catch (NumberFormatException e) {
                return List.of(); // not a metrics file of ours after all
            }
        }
        return kept;
    }

    /** Projective Dynamics settings from the pd flags (which {@link #SOLVER_FLAGS} keeps from other solvers). */
    private PdSettings pdSettings(PdSettings scene) {
        if (!"pd".equals(solver)) {
            return scene;
        }
        // the scene's own pd settings, or the defaults when another inner solver is asked for (the
        // scene's ω was chosen for its inner solver)
        PdSettings pd = innerSolver == null ? scene : PdSettings.defaults();
        if (innerSolver != null) {
            pd = pd.withInner(InnerSolver.parse("--inner-solver", innerSolver));
        }
        if (iterations != null || innerIterations != null) {
            int outer = iterations == null ? pd.outerIterations() : iterations;
            int inner = innerIterations == null ? pd.innerIterations() : innerIterations;
            if (outer < 1) {
                throw new InvalidInputException("--iterations", "must be an integer >= 1, got " + outer);
            }
            if (inner < 1) {
                throw new InvalidInputException("--inner-iterations", "must be an integer >= 1, got " + inner);
            }
            pd = pd.withIterations(outer, inner);
        }
        if (omega != null) {
            if (!(omega > 0f && omega < 2f)) {
                throw new InvalidInputException("--omega", "must be a number in (0, 2) (1 = no relaxation), got "
                        + omega);
            }
            if (pd.inner().isDirect() && omega != 1f) {
                throw new InvalidInputException("--omega", "relaxes the sweeps of gs, jacobi, rbgs and jacobi-seed; "
                        + "cholesky solves the global step exactly and takes no omega");
            }
            pd = pd.withOmega(omega);
        }
        if (chebyshev) {
            if (!pd.inner().isJacobi()) {
                throw new InvalidInputException("--chebyshev", "accelerates --inner-solver jacobi only, not "
                        + pd.inner().label());
            }
            pd = pd.withChebyshev(true, pd.chebyshevRho());
        }
        return pd;
    }

    /** Smallest signed distance of any particle to any collider (negative = inside). */
    private static double minClearance(Collider[] colliders, float[] x) {
        double min = Double.POSITIVE_INFINITY;
        for (Collider c : colliders) {
            for (int i = 0; i < x.length; i += 3) {
                min = Math.min(min, c.signedDistance(x[i], x[i + 1], x[i + 2]));
            }
        }
        return colliders.length == 0 ? Double.NaN : min;
    }

    /**
     * The particle contacts this run asks for, or null for none: the flag's defaults, or the scene's own
     * settings (the flag's --vertex-triangle on top).
     */
    private ParticleContactSettings contactSettings(Scene scene) {
        if (!selfCollision && scene.contacts() == null) {
            return null;
        }
        ParticleContactSettings contacts = scene.contacts() == null ? ParticleContactSettings.defaults()
                : scene.contacts();
        return vertexTriangle ? contacts.withVertexTriangle(true) : contacts;
    }

    private Solver createSolver(Backend backend, SolverSettings all, WorkerPool pool, Scene scene) {
        Solver created = backend.create(solver, all, pool);
        if (selfCollision || scene.contacts() != null) {
            if (!(created instanceof ParticleContactSolver)) {
                throw new InvalidInputException(selfCollision ? "--self-collision" : "--solver", selfCollision
                        ? "is not supported by the " + solver + " solver"
                        : solver + " has no cloth-cloth contact, which scene " + scene.name() + " asks for");
            }
            ((ParticleContactSolver) created).withParticleContacts(contactSettings(scene));
        } else if (vertexTriangle) {
            throw new InvalidInputException("--vertex-triangle", "needs --self-collision");
        }
        return created;
    }
}
