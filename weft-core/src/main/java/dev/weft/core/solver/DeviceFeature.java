package dev.weft.core.solver;

/**
 * What a scene or a solver's settings may ask for that a device solver (OpenCL, GLSL compute) does not
 * run yet, so that a caller (the command line) can say which of its own flags or scene keys turns it
 * off rather than repeat the library's advice.
 */
public enum DeviceFeature {
    /** Wind and aerodynamic drag ({@code Environment.hasAir()}). */
    AIR("air and wind"),
    /** Self- and inter-cloth particle contact. */
    PARTICLE_CONTACTS("particle contacts"),
    /** A collider other than a still plane or sphere. */
    COLLIDER("collider"),
    /** Soft bodies' tetrahedra (volume and elasticity). */
    TETRAHEDRA("tetrahedra"),
    /** An iteration mode other than the one the device runs. */
    ITERATION_MODE("iteration mode"),
    /** An inner solver of Projective Dynamics' global step other than those the device runs. */
    INNER_SOLVER("inner solver"),
    /** XPBD's hierarchical stretch limits ({@code XpbdSettings.stretchLimits}). */
    STRETCH_LIMITS("stretch limits"),
    /** XPBD's half-strength smoothing pass over the stretch colors ({@code XpbdSettings.stretchSmoothing}). */
    STRETCH_SMOOTHING("stretch smoothing");

    private final String label;

    DeviceFeature(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
