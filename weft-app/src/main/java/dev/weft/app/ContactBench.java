package dev.weft.app;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.contact.ParticleGrid;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.Scene;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The contact part of {@code weft bench}: what self-collision costs in an XPBD step of the hanging
 * cloth at 10 iterations (the contact pass against the whole step), and how long the spatial hash
 * takes to build for 10^5 and 10^6 particles. Medians over samples after warm-up, per thread count.
 */
final class ContactBench {
    private static final int ITERATIONS = 10;
    private static final int[] GRID_SIZES = {100_000, 1_000_000};

    private final int[] threads;
    private final int samples;
    private final int warmup;

    ContactBench(int[] threads, int samples, int warmup) {
        this.threads = threads;
        this.samples = samples;
        this.warmup = warmup;
    }

    /** The rows {@link #run} measures. */
    int rows() {
        return threads.length * (1 + GRID_SIZES.length);
    }

    void run(Scene scene, State start, PrintWriter out, Path dir, ProgressBar progress) throws IOException {
        Model model = scene.model();
        float h = 1f / (scene.fps() * scene.substeps());
        XpbdSettings settings = scene.xpbd().withIterations(ITERATIONS);
        ParticleContactSettings contactSettings = ParticleContactSettings.defaults();
        List<String> rows = new ArrayList<>();
        rows.add("measurement,threads,particles,ms_step_without_contacts,ms_step_with_contacts,ms_contact_pass,"
                + "contact_share_of_step");
        out.printf(Locale.ROOT, "%nself-collision on the %d-particle cloth, XPBD at %d iterations (%d contact sweeps):%n",
                model.particleCount(), ITERATIONS, contactSettings.iterations());
        out.printf(Locale.ROOT, "%7s %18s %15s %16s %14s%n", "threads", "step ms (no cont.)", "step ms (cont.)",
                "contact pass ms", "share of step");
        for (int t : threads) {
            try (WorkerPool pool = new WorkerPool(t)) {
                XpbdSolver plain = new XpbdSolver(settings, pool);
                XpbdSolver withContacts = new XpbdSolver(settings, pool).withParticleContacts(contactSettings);
                double without = msPerStep(plain, scene, start, h);
                double with = msPerStep(withContacts, scene, start, h);
                double pass = msPerContactPass(new ParticleContacts(model, contactSettings), model, start, pool);
                double share = pass / with;
                progress.clear();
                out.printf(Locale.ROOT, "%7d %18.3f %15.3f %16.3f %13.1f%%%n", t, without, with, pass, 100 * share);
                out.flush();
                progress.advance("self-collision, " + t + " thread(s)");
                rows.add(String.format(Locale.ROOT, "self_collision,%d,%d,%.4f,%.4f,%.4f,%.4f", t,
                        model.particleCount(), without, with, pass, share));
            }
        }
        out.printf(Locale.ROOT, "%nspatial hash build (counting sort by cell), uniform particles, ~1 per cell:%n");
        out.printf(Locale.ROOT, "%10s %7s %10s %14s%n", "particles", "threads", "build ms", "particles/s");
        for (int n : GRID_SIZES) {
            float[] x = cloud(n);
            float cell = (float) Math.cbrt(1.0 / n); // unit cube: about one particle per cell
            ParticleGrid grid = new ParticleGrid(n, cell);
            for (int t : threads) {
                try (WorkerPool pool = new WorkerPool(t)) {
                    double ms = msPerBuild(grid, x, pool);
                    progress.clear();
                    out.printf(Locale.ROOT, "%10d %7d %10.3f %14.3e%n", n, t, ms, n / (ms / 1e3));
                    out.flush();
                    progress.advance("hash build of " + n + ", " + t + " thread(s)");
                    rows.add(String.format(Locale.ROOT, "hash_build,%d,%d,,,%.4f,", t, n, ms));
                }
            }
        }
        Path csv = dir.resolve("contacts.csv");
        AtomicTextFile.write(csv, rows);
        out.printf(Locale.ROOT, "%nwrote %s%n", csv);
    }

    private static float[] cloud(int n) {
        Random r = new Random(42);
        float[] x = new float[3 * n];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextFloat();
        }
        return x;
    }

    /** One full solver step (predict, iterations, contacts if on, colliders, velocities) from the same state. */
    private double msPerStep(XpbdSolver solver, Scene scene, State start, float h) {
        State work = start.copy();
        double[] ms = new double[samples];
        for (int i = 0; i < warmup + samples; i++) {
            work.copyFrom(start);
            long t0 = System.nanoTime();
            solver.step(scene.model(), work, scene.environment(), h);
            if (i >= warmup) {
                ms[i - warmup] = (System.nanoTime() - t0) / 1e6;
            }
        }
        Arrays.sort(ms);
        return ms[samples / 2];
    }

    private double msPerContactPass(ParticleContacts contacts, Model model, State start, WorkerPool pool) {
        float[] x = start.positions().clone();
        float[] prev = start.positions().clone();
        double[] ms = new double[samples];
        for (int i = 0; i < warmup + samples; i++) {
            System.arraycopy(start.positions(), 0, x, 0, x.length);
            long t0 = System.nanoTime();
            contacts.project(x, prev, model.invMass(), pool);
            if (i >= warmup) {
                ms[i - warmup] = (System.nanoTime() - t0) / 1e6;
            }
        }
        Arrays.sort(ms);
        return ms[samples / 2];
    }

    private double msPerBuild(ParticleGrid grid, float[] x, WorkerPool pool) {
        int runs = Math.max(3, samples / 2); // the 10^6 build takes tens of milliseconds
        double[] ms = new double[runs];
        for (int i = 0; i < Math.max(2, warmup / 4) + runs; i++) {
            long t0 = System.nanoTime();
            grid.build(x, pool);
            int k = i - Math.max(2, warmup / 4);
            if (k >= 0) {
                ms[k] = (System.nanoTime() - t0) / 1e6;
            }
        }
        Arrays.sort(ms);
        return ms[runs / 2];
    }
}
