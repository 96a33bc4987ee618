package dev.weft.app;

import dev.weft.core.metrics.BodyVolume;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.step.Environment;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code weft bench --table softbody}: soft bodies' cost per frame and how well they keep their volume.
 * First a block of 22³ = 10,648 nodes and 55,566 elastic tetrahedra (rubber: E = 0.5 MPa, ν = 0.45,
 * 1100 kg/m³) dropped 0.1 m onto the floor under XPBD at 2, 3, 4, 5, 6 and 8 substeps of one iteration
 * (issue #18: a 10,000-particle tetrahedral body at 60 frames/s on 2 threads; 5 and 6 are where the volume
 * error reaches 10 % at the landing and 5 % after it) and under PD's strain and volume constraints
 * ({@link #PD_SUBSTEPS} substeps of {@link #PD_OUTER} local steps × {@link #PD_INNER} sweeps); then the
 * {@code jelly} scene (a voxel
 * body, 1000 particles) under every solver at the scene's substeps. Each row: the median frame of
 * {@code samples} frames after {@code warmup} untimed ones, and the largest volume error |V/V₀ − 1| over
 * all of them (the surface's enclosed volume, {@link BodyVolume}).
 */
final class SoftBodyBench {
    /** Nodes per side of the block. */
    static final int BLOCK = 22;
    static final int[] BLOCK_SUBSTEPS = {2, 3, 4, 5, 6, 8};
    static final List<String> SOLVERS = List.of("xpbd", "pbd", "pd", "implicit", "mass-spring", "relaxation");

    private SoftBodyBench() {
    }

    /** PD on the same block: substeps, local/global alternations, sweeps per alternation. */
    static final int PD_SUBSTEPS = 4;
    static final int PD_OUTER = 4;
    static final int PD_INNER = 4;

    /**
     * PD with its global step solved by the prefactored Cholesky factor: substeps and local steps per substep
     * (one solve each). Measured on the block: 4 × 1 loses less volume than the sweeps' 4 × 4 × 4 in a third of
     * their time.
     */
    static final int PD_CHOLESKY_SUBSTEPS = 4;
    static final int PD_CHOLESKY_OUTER = 1;

    static int rows(int threadCount) {
        return threadCount * (BLOCK_SUBSTEPS.length + 2 + SOLVERS.size());
    }

    static int run(PrintWriter out, Path dir, int[] threads, int warmup, int samples, ProgressBar progress)
            throws IOException {
        out.printf(Locale.ROOT, "weft bench --table softbody: median frame of %d after %d warm-up frames; volume "
                + "error the largest |V/V0 - 1| over them%n", samples, warmup);
        out.printf(Locale.ROOT, "%-22s %-11s %7s %8s %10s %9s %10s %9s %9s %9s%n", "body", "solver", "threads",
                "substeps", "iterations", "particles", "ms/frame", "frames/s", "volume %", "timed %");
        List<String> csv = new ArrayList<>();
        csv.add("body,solver,threads,substeps,iterations,particles,ms_per_frame,frames_per_s,volume_error,"
                + "volume_error_timed");
        for (int substeps : BLOCK_SUBSTEPS) {
            for (int t : threads) {
                Model model = block();
                try (WorkerPool pool = new WorkerPool(t)) {
                    Solver solver = new XpbdSolver(XpbdSettings.defaults().withIterations(1), pool);
                    Environment env = new Environment(new float[] {0f, -9.81f, 0f},
                            List.of(PlaneCollider.floor(0f, 0.005f, 0.6f)));
                    double[] r = measure(model, State.atRest(model), solver, env, substeps, 60f, warmup, samples);
                    row(out, csv, "tet block 22^3", "xpbd", t, substeps, 1, model.particleCount(), r);
                }
                progress.advance("block, " + substeps + " substeps, " + t + " thread(s)");
            }
        }
        for (int t : threads) {
            Model model = block();
            try (WorkerPool pool = new WorkerPool(t)) {
                Solver solver = new PdSolver(PdSettings.defaults().withIterations(PD_OUTER, PD_INNER), pool);
                Environment env = new Environment(new float[] {0f, -9.81f, 0f},
                        List.of(PlaneCollider.floor(0f, 0.005f, 0.6f)));
                double[] r = measure(model, State.atRest(model), solver, env, PD_SUBSTEPS, 60f, warmup, samples);
                row(out, csv, "tet block 22^3", "pd", t, PD_SUBSTEPS, PD_OUTER, model.particleCount(), r);
            }
            progress.advance("block, pd, " + t + " thread(s)");
        }
        for (int t : threads) {
            Model model = block();
            try (WorkerPool pool = new WorkerPool(t)) {
                Solver solver = new PdSolver(PdSettings.defaults().withInner(InnerSolver.CHOLESKY)
                        .withIterations(PD_CHOLESKY_OUTER, 1), pool);
                Environment env = new Environment(new float[] {0f, -9.81f, 0f},
                        List.of(PlaneCollider.floor(0f, 0.005f, 0.6f)));
                double[] r = measure(model, State.atRest(model), solver, env, PD_CHOLESKY_SUBSTEPS, 60f, warmup,
                        samples);
                row(out, csv, "tet block 22^3", "pd cholesky", t, PD_CHOLESKY_SUBSTEPS, PD_CHOLESKY_OUTER,
                        model.particleCount(), r);
            }
            progress.advance("block, pd cholesky, " + t + " thread(s)");
        }
        Scene jelly = SceneArgument.load("jelly");
        for (String name : SOLVERS) {
            for (int t : threads) {
                try (WorkerPool pool = new WorkerPool(t)) {
                    Solver solver = jelly.solver(name, pool);
                    Integer iterations = jelly.iterations(name);
                    double[] r = measure(jelly.model(), jelly.initialState(), solver, jelly.environment(),
                            jelly.substeps(name), jelly.fps(), warmup, samples);
                    row(out, csv, "jelly (voxel scene)", name, t, jelly.substeps(name),
                            iterations == null ? 0 : iterations, jelly.model().particleCount(), r);
                }
                progress.advance("jelly, " + name + ", " + t + " thread(s)");
            }
        }
        Files.createDirectories(dir);
        Path file = dir.resolve("softbody.csv");
        AtomicTextFile.write(file, csv);
        out.printf(Locale.ROOT, "wrote %s%n", file);
        return 0;
    }

    /** The rubber block of {@link #BLOCK}³ nodes, 0.63 m a side, its base 0.1 m above the floor. */
    static Model block() {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(1f).withFriction(1f));
        float side = 0.03f * (BLOCK - 1);
        b.addTetBody(TetBodySpec.box("block", new float[] {-side / 2, 0.1f, -side / 2},
                new float[] {side / 2, 0.1f + side, side / 2}, BLOCK - 1, BLOCK - 1, BLOCK - 1, 1100f,
                new Elasticity(5e5f, 0.45f)));
        return b.build();
    }

    /**
     * {median ms per frame over the timed frames, largest volume error over all frames (the landing included),
     * largest over the timed frames (the body resting or rocking)}.
     */
    private static double[] measure(Model model, State start, Solver solver, Environment env, int substeps,
                                    float fps, int warmup, int samples) {
        ModelObject body = model.objects().get(0);
        double rest = BodyVolume.of(model, body, model.restPositions());
        double worst = 0;
        double worstTimed = 0;
        double[] ms = new double[samples];
        try (Simulation sim = new Simulation(model, start, solver, env, substeps)) {
            for (int f = 0; f < warmup + samples; f++) {
                long t0 = System.nanoTime();
                sim.advance(1f / fps);
                long t1 = System.nanoTime();
                if (f >= warmup) {
                    ms[f - warmup] = (t1 - t0) / 1e6;
                }
                double error = Math.abs(BodyVolume.of(model, body, sim.state().positions()) / rest - 1);
                worst = Math.max(worst, error);
                if (f >= warmup) {
                    worstTimed = Math.max(worstTimed, error);
                }
            }
        }
        Arrays.sort(ms);
        return new double[] {ms[samples / 2], worst, worstTimed};
    }

    private static void row(PrintWriter out, List<String> csv, String body, String solver, int threads,
                            int substeps, int iterations, int particles, double[] r) {
        String its = iterations == 0 ? "-" : Integer.toString(iterations);
        out.printf(Locale.ROOT, "%-22s %-11s %7d %8d %10s %9d %10.2f %9.1f %9.2f %9.2f%n", body, solver, threads,
                substeps, its, particles, r[0], 1000 / r[0], 100 * r[1], 100 * r[2]);
        out.flush();
        csv.add(String.format(Locale.ROOT, "%s,%s,%d,%d,%s,%d,%.4f,%.2f,%.6f,%.6f", body, solver, threads, substeps,
                its, particles, r[0], 1000 / r[0], r[1], r[2]));
    }
}
