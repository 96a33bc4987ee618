package dev.weft.core.solver;

import dev.weft.core.collide.Collider;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.step.Environment;

/**
 * The refusals every device solver (OpenCL, GLSL compute) shares, worded with the solver's name ({@code
 * solver}, e.g. "the OpenCL XPBD solver") or its backend's ({@code solvers}, e.g. "the GLSL compute
 * solvers"), so the command line's messages stay one per feature for every backend.
 */
public final class DeviceRefusals {
    private DeviceRefusals() {
    }

    /** An XPBD iteration mode other than colored. */
    public static void requireColoredMode(String solver, IterationMode mode) {
        requireMode(solver, mode, IterationMode.COLORED);
    }

    /** An XPBD iteration mode other than {@code runs} (the modes the solver runs, in the message's order). */
    public static void requireMode(String solver, IterationMode mode, IterationMode... runs) {
        for (IterationMode r : runs) {
            if (mode == r) {
                return;
            }
        }
        String[] labels = new String[runs.length];
        for (int k = 0; k < runs.length; k++) {
            labels[k] = runs[k].label();
        }
        String list = String.join(" and ", labels);
        throw new UnsupportedOnDeviceException(DeviceFeature.ITERATION_MODE, "mode", solver + " runs the " + list
                + " mode" + (runs.length > 1 ? "s" : "") + " only so far, not " + mode.label() + "; use "
                + String.join(", ", labels) + " or the cpu backend");
    }

    /** XPBD's hierarchical stretch limits and stretch smoothing (the cpu solver's passes only so far). */
    public static void requireNoHostOnlyStretchPasses(String solver, dev.weft.core.solver.xpbd.XpbdSettings settings) {
        if (settings.stretchLimits()) {
            throw new UnsupportedOnDeviceException(DeviceFeature.STRETCH_LIMITS, "stretchLimits", solver
                    + " does not run the stretch limits yet; turn them off or use the cpu backend");
        }
        if (settings.stretchSmoothing()) {
            throw new UnsupportedOnDeviceException(DeviceFeature.STRETCH_SMOOTHING, "stretchSmoothing", solver
                    + " does not run the stretch smoothing yet; turn it off or use the cpu backend");
        }
    }

    /** Wind and air drag. */
    public static void requireNoAir(String solver, Environment env) {
        if (env.hasAir()) {
            throw new UnsupportedOnDeviceException(DeviceFeature.AIR, "air", solver + " does not "
                    + "compute wind and air drag yet; run without them or use the cpu backend");
        }
    }

    /**
     * Colliders other than still planes, spheres and drag handles ({@link DeviceColliderRecords#requireSupported}):
     * the GLSL compute solvers'. (The OpenCL solvers run every rigid shape and animated meshes, and refuse the rest
     * in their own {@code DeviceColliders}.)
     */
    public static void requireSupportedColliders(String solvers, Environment env) {
        for (Collider c : env.colliders()) {
            DeviceColliderRecords.requireSupported(solvers, c, false);
        }
    }

    /** The refusal of particle contacts (self- and inter-cloth). */
    public static UnsupportedOnDeviceException particleContacts(String solver) {
        return new UnsupportedOnDeviceException(DeviceFeature.PARTICLE_CONTACTS, solver + " does "
                + "not run self- or inter-cloth contact yet; turn it off or use the cpu backend");
    }
}
