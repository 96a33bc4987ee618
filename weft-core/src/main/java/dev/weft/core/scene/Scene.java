package dev.weft.core.scene;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.model.State;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Model;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.util.Map;

/**
 * A runnable setup: bodies, surroundings and the settings it is meant to be run with.
 *
 * @param fps         frames per second of the output
 * @param frames      frames a default run simulates
 * @param substeps    solver steps per frame (XPBD's, and every solver's without an entry of its own)
 * @param solverSteps steps per frame and iterations for particular solvers by name ({@link Solvers#names()}):
 *                    solvers converge at different rates per step and cost differently per step, so the
 *                    setting that keeps a scene's cloth within its strain at the least cost is the
 *                    solver's own (README, "The default scene's strain")
 * @param settings    every solver's settings the scene is meant to be run with (XPBD's compliances, PD's
 *                    iterations and ω, ...); a {@code solverSteps} entry's iterations replace the solver's
 * @param contacts    cloth–cloth contact the scene is meant to run with (self-collision), or null for none
 * @param velocities  each particle's velocity at the start (xyz, m/s), or null: everything starts at rest
 * @param camera      where the scene is meant to be seen from, or null for a renderer's own framing
 * @param defaultSolver the solver ({@link Solvers#names()}) the scene runs with unless another is asked for
 * @param textures    per body name, the image (PNG or JPEG) its surface is drawn with over its texture
 *                    coordinates (a renderer's business; the simulation does not read it); empty for none
 */
public record Scene(String name, String description, Model model, Environment environment, float fps,
                    int frames, int substeps, SolverSettings settings, Map<String, SolverSteps> solverSteps,
                    ParticleContactSettings contacts, float[] velocities, SceneCamera camera, String defaultSolver,
                    Map<String, java.nio.file.Path> textures) {
    public Scene {
        java.util.Objects.requireNonNull(settings, "settings");
        textures = Map.copyOf(textures);
        if (!Solvers.names().contains(defaultSolver)) {
            throw new InvalidInputException("solver", "unknown solver '" + defaultSolver + "'; available: "
                    + String.join(", ", Solvers.names()));
        }
        if (velocities != null && velocities.length != 3 * model.particleCount()) {
            throw new IllegalArgumentException(velocities.length + " velocity components for "
                    + model.particleCount() + " particles");
        }
        for (Map.Entry<String, SolverSteps> e : solverSteps.entrySet()) {
            if (!Solvers.names().contains(e.getKey())) {
                throw new InvalidInputException("solverSteps", "unknown solver '" + e.getKey() + "'; available: "
                        + String.join(", ", Solvers.names()));
            }
        }
        solverSteps = Map.copyOf(solverSteps);
    }

    /** A scene whose bodies have no textures of their own. */
    public Scene(String name, String description, Model model, Environment environment, float fps, int frames,
                 int substeps, SolverSettings settings, Map<String, SolverSteps> solverSteps,
                 ParticleContactSettings contacts, float[] velocities, SceneCamera camera, String defaultSolver) {
        this(name, description, model, environment, fps, frames, substeps, settings, solverSteps, contacts, velocities,
                camera, defaultSolver, Map.of());
    }

    /** A scene run with xpbd unless another solver is asked for. */
    public Scene(String name, String description, Model model, Environment environment, float fps, int frames,
                 int substeps, SolverSettings settings, Map<String, SolverSteps> solverSteps,
                 ParticleContactSettings contacts, float[] velocities, SceneCamera camera) {
        this(name, description, model, environment, fps, frames, substeps, settings, solverSteps, contacts, velocities,
                camera, "xpbd");
    }

    /** A scene that starts at rest, without cloth–cloth contact. */
    public Scene(String name, String description, Model model, Environment environment, float fps, int frames,
                 int substeps, SolverSettings settings, Map<String, SolverSteps> solverSteps) {
        this(name, description, model, environment, fps, frames, substeps, settings, solverSteps, null, null, null);
    }

    /** The state the scene starts from: the model at rest, moving with {@link #velocities()} where given. */
    public State initialState() {
        State s = State.atRest(model);
        if (velocities != null) {
            System.arraycopy(velocities, 0, s.velocities(), 0, velocities.length);
        }
        return s;
    }

    /** These XPBD settings and every other solver's defaults, the same steps per frame for every solver. */
    public Scene(String name, String description, Model model, Environment environment, float fps, int frames,
                 int substeps, XpbdSettings xpbd) {
        this(name, description, model, environment, fps, frames, substeps, SolverSettings.defaults().withXpbd(xpbd),
                Map.of());
    }

    /** This scene with {@code m} as its model (the same bodies, e.g. of other materials). */
    public Scene withModel(Model m) {
        return new Scene(name, description, m, environment, fps, frames, substeps, settings, solverSteps, contacts,
                velocities, camera, defaultSolver, textures);
    }

    /** This scene in {@code e}: other gravity, colliders or air, the same bodies and settings. */
    public Scene withEnvironment(Environment e) {
        return new Scene(name, description, model, e, fps, frames, substeps, settings, solverSteps, contacts,
                velocities, camera, defaultSolver, textures);
    }

    /** The XPBD settings of {@link #settings()} (xpbd and pbd). */
    public XpbdSettings xpbd() {
        return settings.xpbd();
    }

    /** The Projective Dynamics settings of {@link #settings()}. */
    public PdSettings pd() {
        return settings.pd();
    }

    /** Steps per frame for {@code solver}: its own entry's, else {@link #substeps()}. */
    public int substeps(String solver) {
        SolverSteps s = solverSteps.get(solver);
        return s == null ? substeps : s.substeps();
    }

    /**
     * Solver {@code name} ({@link Solvers#names()}) with the scene's settings: its XPBD settings for xpbd
     * and pbd, the iterations the scene asks of that solver ({@link #iterations}), every other setting
     * the solver's default. Run it with {@link #substeps(String)} steps per frame.
     */
    public Solver solver(String name, WorkerPool pool) {
        Integer it = iterations(name);
        return Solvers.create(name, it == null ? settings : settings.withIterations(name, it), pool);
    }

    /** Iterations per step the scene asks of {@code solver}, or null for the solver's default. */
    public Integer iterations(String solver) {
        SolverSteps s = solverSteps.get(solver);
        return s == null || s.iterations() == 0 ? null : s.iterations();
    }
}
