package dev.weft.render.view;

import dev.weft.core.scene.Scene;
import dev.weft.core.solver.Solver;
import dev.weft.core.step.Environment;

/**
 * What the viewer shows, supplied by the application: the scene as at its start (loaded afresh for
 * every reset, so its colliders start over too) and the solvers the user may switch between while it
 * runs, made with the application's settings for them.
 */
public interface ViewedScene {
    Scene load();

    /** The solver at the start. */
    String solverName();

    /** Where the solvers step, as the panel names it ("cpu", "opencl", "glsl"). */
    default String backend() {
        return "cpu";
    }

    /**
     * Whether the solvers make an OpenGL context of their own current while they step or are built (the GLSL
     * compute backend), so that the window must let go of its context around a step on its thread.
     */
    default boolean solversOwnAGlContext() {
        return false;
    }

    /** The solvers the panel offers. */
    java.util.List<String> solverNames();

    /**
     * A new solver {@code name} for {@code scene} with {@code iterations} per substep (null: the scene's or
     * the solver's own), with cloth-cloth contact when {@code selfCollision}, and the panel's {@code tuning}
     * where it applies to the solver; a name or setting it cannot take is an {@code InvalidInputException}.
     */
    Solver solver(Scene scene, String name, Integer iterations, boolean selfCollision, SolverTuning tuning);

    /**
     * Throws an {@code InvalidInputException} naming what solver {@code name} cannot run in {@code env}: the
     * viewer asks before it adds a collider of its own (the hand while it holds the cloth, a cannonball) or
     * switches solver, so a backend that refuses one (a device solver) says so in the panel and the
     * simulation goes on as it was. By default every environment runs (the cpu solvers run every collider).
     */
    default void requireSupported(Scene scene, String name, Environment env) {
    }

    /** Whether cloth-cloth contact is on at the start (the command's flag or the scene's own contacts). */
    boolean selfCollisionAtStart(Scene scene);

    /** The panel's solver choices when the viewer starts (the command's flags); by default all the scene's. */
    default SolverTuning tuningAtStart() {
        return SolverTuning.SCENE;
    }

    /** The substeps per frame the scene or the command gives solver {@code name}. */
    int substeps(Scene scene, String name);

    /** The iterations per substep the scene or the command gives solver {@code name}, or null for the solver's default. */
    Integer iterations(Scene scene, String name);

    /**
     * Whether tearing is on when the viewer starts (and after a reset); the viewer's key turns it on and
     * off. Bodies tear only where their material has a tear strain.
     */
    default boolean tearingAtStart() {
        return true;
    }
}
