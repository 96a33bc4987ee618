package dev.weft.render.view;

import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import dev.weft.core.step.Environment;

/**
 * What the viewer shows, supplied by the application: the scene as at its start (loaded afresh for
 * every reset, so its colliders start over too) and the simulation the user asked for (solver, backend,
 * substeps) on a given environment (the scene's, with the viewer's hand added).
 */
public interface ViewedScene {
    Scene load();

    Simulation simulate(Scene scene, Environment environment);

    /** The solver's name and settings, for the window's title and the report. */
    String solverLabel();

    /**
     * Whether tearing is on when the viewer starts (and after a reset); the viewer's key turns it on and
     * off. Bodies tear only where their material has a tear strain.
     */
    default boolean tearingAtStart() {
        return true;
    }
}
