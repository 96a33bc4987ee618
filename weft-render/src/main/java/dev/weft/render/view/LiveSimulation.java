package dev.weft.render.view;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.DragHandle;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.TriangleHit;
import dev.weft.core.interact.Cutting;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.State;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Solver;
import dev.weft.core.step.Environment;
import java.util.function.UnaryOperator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The simulation as the viewer runs it: on its own thread in real time (or, in lock-step, one frame
 * per drawn frame on the caller's thread), with the window's requests (grab, drag, cut, shoot, reset,
 * tearing) queued and applied between frames on the thread that owns the simulation. Each completed
 * frame is published through a triple buffer of {@link SimFrame}s: the positions are copied once, and
 * the window takes the newest without waiting.
 *
 * <p>Real time: simulated time follows wall time times the speed (slow motion below 1), paced by a
 * {@link FramePacer}: a late frame is caught up by the next ones, while time a simulation that cannot
 * keep up would owe beyond a few frames is dropped, and {@link SimFrame#slowdown()} says by how much it
 * runs slower than asked.
 */
public final class LiveSimulation implements AutoCloseable {
    private static final java.lang.management.ThreadMXBean THREAD_CPU = java.lang.management.ManagementFactory.getThreadMXBean();
    /** The hand's compliance (m/N): 0 puts the picked point on the cursor's target each step. */
    static final float HAND_COMPLIANCE = 0f;
    /** Seed 001 §6.2's cannonball, as the scene 'tear' throws it: 0.1 m, 1 kg, thrown at 14 m/s. */
    static final float BALL_RADIUS = 0.1f;
    static final float BALL_MASS = 1f;
    static final float BALL_SPEED = 14f;
    static final float BALL_THICKNESS = 0.005f;
    static final float BALL_FRICTION = 0.3f;
    /** Slowdown is measured over windows of this much wall time. */
    private static final double SLOWDOWN_WINDOW_S = 0.5;

    private final ViewedScene world;
    private final ConcurrentLinkedQueue<Consumer<LiveSimulation>> requests = new ConcurrentLinkedQueue<>();
    private final AtomicReference<SimFrame> ready = new AtomicReference<>(new SimFrame());
    private final AtomicInteger singleSteps = new AtomicInteger();
    private SimFrame back = new SimFrame();
    private volatile boolean paused;
    private volatile double speed = 1.0;
    private volatile boolean running = true;
    private volatile RuntimeException failure;
    private volatile Thread thread;
    private long sequence;

    // owned by the simulating thread
    private volatile Scene scene;
    private Simulation sim;
    private DragHandle hand;
    private final List<Projectile> balls = new ArrayList<>();
    private int generation;
    private float dt;
    private volatile String solverName;
    private volatile Integer iterations;
    private volatile int substeps;
    private volatile boolean selfCollision;
    private volatile SolverTuning tuning = SolverTuning.SCENE;
    /** Why the last panel change was refused (shown in the panel), or null. */
    private volatile String refusal;
    private double stepMs;
    private double slowdown = 1.0;
    private volatile long steppedFrames;
    private volatile double steppingMs;
    /** CPU time of the thread that stepped (the caller's share; a pool's other workers are not in it). */
    private volatile double steppingCpuMs;

    public LiveSimulation(ViewedScene world) {
        this.world = world;
        open();
        publish();
    }

    private void open() {
        if (sim != null) {
            sim.close();
        }
        scene = world.load();
        hand = new DragHandle("hand", HAND_COMPLIANCE);
        balls.clear();
        if (solverName == null) {
            solverName = world.solverName();
            iterations = world.iterations(scene, solverName);
            substeps = world.substeps(scene, solverName);
            selfCollision = world.selfCollisionAtStart(scene);
            tuning = world.tuningAtStart();
        }
        sim = new Simulation(scene.model(), scene.initialState(),
                world.solver(scene, solverName, iterations, selfCollision, tuning), scene.environment(), substeps);
        sim.setTearing(world.tearingAtStart());
        dt = 1f / scene.fps();
        generation++;
    }

    /**
     * Goes on from the current model and state (positions, velocities, time) with another solver, iteration
     * count, substeps or model (materials): the simulation is rebuilt around them, the environment (hand,
     * cannonballs) and the tearing switch kept. A setting the solver refuses leaves everything as it was
     * and is reported by {@link SimFrame#refusal()}.
     */
    private void rebuild(String name, Integer k, int steps, Model model) {
        rebuild(name, k, steps, model, selfCollision, tuning);
    }

    private void rebuild(String name, Integer k, int steps, Model model, boolean contacts, SolverTuning t) {
        Simulation old = sim;
        Solver solver;
        try {
            // the hand held or a cannonball in flight: the new solver must run them too
            world.requireSupported(scene, name, old.environment());
            solver = world.solver(scene, name, k, contacts, t);
        } catch (RuntimeException e) {
            refusal = e.getMessage();
            return;
        }
        sim = new Simulation(model, old.state(), solver, old.environment(), steps);
        sim.setTearing(old.tearing());
        old.close();
        solverName = name;
        iterations = k;
        substeps = steps;
        selfCollision = contacts;
        tuning = t;
        refusal = null;
    }

    /** The scene as loaded at the start or the last reset (its camera, its colliders). Simulating thread or before start. */
    public Scene scene() {
        return scene;
    }

    /** Runs the simulation on its own thread in real time from now on. */
    public void start() {
        thread = new Thread(this::runRealTime, "weft-simulation");
        thread.setDaemon(true);
        thread.start();
    }

    /** Lock-step (scripts, recordings): applies the requests and simulates one frame now, on this thread. */
    public void stepLockstep() {
        long t0 = System.nanoTime();
        boolean stepped = applyAndStep();
        if (stepped) {
            stepMs = (System.nanoTime() - t0) / 1e6;
            slowdown = 1.0; // lock-step: simulated time follows drawn frames, not the clock
        }
        publish();
    }

    /** Queues a request for the thread that owns the simulation (applied before its next frame). */
    void request(Consumer<LiveSimulation> r) {
        requests.add(r);
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t); // a waiting simulation applies it now, not when its frame falls due
        }
    }

    /** Applies pending requests, then simulates one frame unless paused (a single-step request still steps). */
    private boolean applyAndStep() {
        applyRequests();
        return stepUnlessPaused();
    }

    private int applyRequests() {
        int n = 0;
        for (Consumer<LiveSimulation> r; (r = requests.poll()) != null; n++) {
            try {
                r.accept(this);
            } catch (InvalidInputException e) {
                // a request the model refuses (a cut across nothing it can split, a value out of range): said
                // in the panel, and the simulation goes on as it was
                refusal = e.getMessage();
            }
        }
        return n;
    }

    private boolean stepUnlessPaused() {
        if (paused && singleSteps.get() == 0) {
            return false;
        }
        if (paused) {
            singleSteps.decrementAndGet();
        }
        long t0 = System.nanoTime();
        long cpu0 = THREAD_CPU.getCurrentThreadCpuTime();
        sim.advance(dt);
        steppingMs += (System.nanoTime() - t0) / 1e6;
        steppingCpuMs += (THREAD_CPU.getCurrentThreadCpuTime() - cpu0) / 1e6;
        steppedFrames++;
        return true;
    }

    private void runRealTime() {
        try {
            long last = System.nanoTime();
            FramePacer pacer = new FramePacer(SLOWDOWN_WINDOW_S, last / 1e9);
            while (running) {
                long now = System.nanoTime();
                double wall = (now - last) / 1e9;
                last = now;
                if (paused) {
                    pacer.restart(now / 1e9);
                    int applied = applyRequests();
                    if (stepUnlessPaused()) {
                        stepMs = (System.nanoTime() - now) / 1e6;
                        publish();
                    } else if (applied > 0) {
                        publish();
                    } else {
                        LockSupport.parkNanos(2_000_000L);
                    }
                    continue;
                }
                pacer.elapse(wall, speed, dt);
                if (!pacer.due(dt)) {
                    if (applyRequests() > 0) {
                        publish();
                    }
                    // until the next frame falls due or a request comes (request() wakes the thread)
                    LockSupport.parkNanos((long) (pacer.secondsUntilDue(dt, speed) * 1e9));
                    continue;
                }
                long t0 = System.nanoTime();
                boolean held = hand.held();
                Model before = sim.model();
                int ballsBefore = balls.size();
                int generationBefore = generation;
                if (applyRequests() > 0 && (hand.held() != held || sim.model() != before || balls.size() != ballsBefore
                        || generation != generationBefore)) {
                    // the window shows what the input did (a grab held or let go, a cut made, a ball thrown, a reset)
                    // without waiting for the step; a drag's move shows only after the step, so it waits for it
                    publish();
                }
                stepUnlessPaused();
                long t1 = System.nanoTime();
                stepMs = (t1 - t0) / 1e6;
                pacer.stepped(dt, t1 / 1e9);
                slowdown = pacer.slowdown();
                publish();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    /** Copies the finished frame into the back buffer and swaps it with the ready one. */
    private void publish() {
        SimFrame f = back;
        State s = sim.state();
        float[] x = s.positions();
        if (f.positions.length != x.length) { // exact: the renderer draws the whole array
            f.positions = new float[x.length];
        }
        System.arraycopy(x, 0, f.positions, 0, x.length);
        f.floats = x.length;
        f.model = sim.model();
        f.time = s.time();
        f.frames = s.steps() / sim.substeps();
        f.generation = generation;
        f.stepMs = stepMs;
        f.slowdown = slowdown;
        f.projectiles.clear();
        f.projectiles.addAll(balls);
        if (f.ballCenters.length < 3 * balls.size()) {
            f.ballCenters = new float[3 * balls.size() + 12];
            f.ballVelocities = new float[3 * balls.size() + 12];
        }
        for (int i = 0; i < balls.size(); i++) {
            System.arraycopy(balls.get(i).center(), 0, f.ballCenters, 3 * i, 3);
            System.arraycopy(balls.get(i).velocity(), 0, f.ballVelocities, 3 * i, 3);
        }
        f.capturePoses(sim.environment().colliders());
        f.held = hand.held();
        System.arraycopy(hand.particles(), 0, f.heldParticles, 0, 3);
        System.arraycopy(hand.target(), 0, f.handTarget, 0, 3);
        f.tearing = sim.tearing();
        f.solver = solverName;
        f.iterations = iterations;
        f.substeps = substeps;
        f.selfCollision = selfCollision;
        f.tuning = tuning;
        f.refusal = refusal;
        f.gravity = sim.environment().gravity();
        f.wind[0] = sim.environment().windX();
        f.wind[1] = sim.environment().windY();
        f.wind[2] = sim.environment().windZ();
        f.material = f.model.material(0);
        f.edited = f.model.base() != f.model;
        // seed 001 eq. 4.1 and the largest strain: one pass over the constraints per published frame
        f.residual = ClothMetrics.residual(f.model, x);
        f.maxStrain = ClothMetrics.maxStrain(f.model, x);
        f.paused = paused;
        f.speed = speed;
        f.sequence = ++sequence;
        back = ready.getAndSet(f);
    }

    /** The newest published frame if newer than {@code current}, else {@code current} (given back for reuse). */
    SimFrame newest(SimFrame current) {
        SimFrame r = ready.get();
        if (r.sequence > current.sequence) {
            return ready.getAndSet(current);
        }
        return current;
    }

    /** Frames simulated since the start (resets included). */
    public long steppedFrames() {
        return steppedFrames;
    }

    /** Wall milliseconds spent simulating them. */
    public double steppingMs() {
        return steppingMs;
    }

    /** CPU milliseconds the stepping thread spent in the solver so far (wall time less what it waited for cores). */
    public double steppingCpuMs() {
        return steppingCpuMs;
    }

    /** The failure that stopped the simulating thread (a blow-up), or null. */
    public RuntimeException failure() {
        return failure;
    }

    // ---- requests from the window (each applied on the simulating thread) ----

    void grab(int generationSeen, TriangleHit hit) {
        request(l -> {
            if (l.generation == generationSeen && 3 * hit.triangle() + 2 < l.sim.model().triangles().length) {
                l.addCollider(l.hand);
                l.hand.grab(l.sim.model(), l.sim.state().positions(), hit);
            }
        });
    }

    /**
     * Puts {@code c} among the simulation's colliders (once), after the solver said it runs it: the hand is
     * a collider only while it holds the cloth, so a solver that cannot run it (a device backend's) refuses a
     * grab, not the scene, and an idle hand costs nothing.
     */
    private void addCollider(Collider c) {
        Collider[] now = sim.environment().colliders();
        for (Collider k : now) {
            if (k == c) {
                return;
            }
        }
        Collider[] with = Arrays.copyOf(now, now.length + 1);
        with[now.length] = c;
        Environment env = sim.environment().withColliders(with);
        world.requireSupported(scene, solverName, env);
        sim.setEnvironment(env);
    }

    private void removeCollider(Collider c) {
        Collider[] now = sim.environment().colliders();
        List<Collider> kept = new ArrayList<>(now.length);
        for (Collider k : now) {
            if (k != c) {
                kept.add(k);
            }
        }
        if (kept.size() != now.length) {
            sim.setEnvironment(sim.environment().withColliders(kept.toArray(new Collider[0])));
        }
    }

    void dragTo(float x, float y, float z) {
        request(l -> l.hand.moveTo(x, y, z));
    }

    void release() {
        request(l -> {
            l.hand.release();
            l.removeCollider(l.hand);
        });
    }

    /** Cuts along the segment a–b swept {@code depth} to either side along {@code sweep} (the view direction). */
    void cut(float[] a, float[] b, float[] sweep, float depth) {
        request(l -> {
            float[] line = {a[0], a[1], a[2], b[0], b[1], b[2]};
            List<ModelEdit> cuts = Cutting.along(l.sim.model(), l.sim.state().positions(), line, sweep, depth);
            if (!cuts.isEmpty()) {
                l.sim.edit(cuts);
            }
        });
    }

    /** Throws a cannonball from {@code from} along {@code direction} (two-way coupled with the cloth). */
    void shoot(float[] from, float[] direction) {
        request(l -> l.throwBall(from, direction));
    }

    private void throwBall(float[] from, float[] direction) {
        float[] d = OrbitCamera.normalize(direction);
        float[] v = {BALL_SPEED * d[0], BALL_SPEED * d[1], BALL_SPEED * d[2]};
        Projectile ball = new Projectile("cannonball-" + (balls.size() + 1), from, BALL_RADIUS, BALL_MASS, v,
                sim.environment().gravity(), BALL_THICKNESS, BALL_FRICTION);
        // it bounces off the scene's own fixed colliders (floor, sphere), not off moving ones or the hand
        List<Collider> obstacles = new ArrayList<>();
        for (Collider c : scene.environment().colliders()) {
            if (!c.moving()) {
                obstacles.add(c);
            }
        }
        ball.withObstacles(obstacles.toArray(new Collider[0]));
        addCollider(ball);
        balls.add(ball);
    }

    /** Goes on with solver {@code name} from the state now, at the scene's iterations and substeps for it. */
    void switchSolver(String name) {
        request(l -> {
            if (!name.equals(l.solverName)) {
                l.rebuild(name, l.world.iterations(l.scene, name), l.world.substeps(l.scene, name), l.sim.model());
            }
        });
    }

    /** Cloth-cloth contact on or off from the next frame (the solver rebuilt with or without it). */
    void setSelfCollision(boolean on) {
        request(l -> {
            if (on != l.selfCollision) {
                l.rebuild(l.solverName, l.iterations, l.substeps, l.sim.model(), on, l.tuning);
            }
        });
    }

    /** XPBD's mode, PD's inner solver or ω changed: the solver rebuilt with them from the state now. */
    void tune(UnaryOperator<SolverTuning> change) {
        request(l -> l.rebuild(l.solverName, l.iterations, l.substeps, l.sim.model(), l.selfCollision,
                change.apply(l.tuning)));
    }

    void setIterations(int k) {
        request(l -> l.rebuild(l.solverName, k, l.substeps, l.sim.model()));
    }

    void setSubsteps(int n) {
        request(l -> l.rebuild(l.solverName, l.iterations, n, l.sim.model()));
    }

    /**
     * Every body's material changed by {@code change} (stiffness, damping, friction): possible on the model
     * as built, not after a cut or a tear (its edits were made on the materials it had).
     */
    void changeMaterial(UnaryOperator<Material> change) {
        request(l -> {
            Model m = l.sim.model();
            if (m.base() != m) {
                l.refusal = "the material can change only before the cloth is cut or torn: reset (R) first";
                return;
            }
            Model changed;
            try {
                changed = m.withMaterial(change);
            } catch (RuntimeException e) {
                l.refusal = e.getMessage();
                return;
            }
            l.rebuild(l.solverName, l.iterations, l.substeps, changed);
        });
    }

    /** Wind velocity (m/s, through sea-level air) and gravity (m/s²) from the next step on. */
    void setAir(float[] wind, float[] gravity) {
        request(l -> {
            var env = l.sim.environment().withGravity(gravity);
            boolean calm = wind[0] == 0f && wind[1] == 0f && wind[2] == 0f;
            env = env.withWind(wind);
            if (!calm && !env.hasAir()) {
                env = env.withAir(1.2f, 1f, 0.02f);
            }
            l.world.requireSupported(l.scene, l.solverName, env); // a device backend without air says so
            l.sim.setEnvironment(env);
            for (Projectile b : l.balls) {
                b.withGravity(gravity);
            }
        });
    }

    java.util.List<String> solverNames() {
        return world.solverNames();
    }

    void reset() {
        request(LiveSimulation::open);
    }

    void toggleTearing() {
        request(l -> l.sim.setTearing(!l.sim.tearing()));
    }

    void setTearing(boolean on) {
        request(l -> l.sim.setTearing(on));
    }

    public void setPaused(boolean p) {
        paused = p;
    }

    public boolean paused() {
        return paused;
    }

    /** While paused: simulate one more frame. */
    public void singleStep() {
        singleSteps.incrementAndGet();
    }

    /** Simulated seconds per wall second (1 real time, below 1 slow motion). */
    public void setSpeed(double s) {
        speed = s;
    }

    public double speed() {
        return speed;
    }

    @Override
    public void close() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sim.close();
    }
}
