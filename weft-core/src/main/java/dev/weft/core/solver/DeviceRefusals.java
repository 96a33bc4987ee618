package dev.weft.core.solver;

import dev.weft.core.collide.Collider;
import dev.weft.core.model.Model;
import dev.weft.core.step.Environment;

/**
 * The refusals every device solver (OpenCL, GLSL compute) shares, worded with the solver's name ({@code
 * solver}, e.g. "the OpenCL XPBD solver") or its backend's ({@code solvers}, e.g. "the GLSL compute
 * solvers"), so the command line's messages stay one per feature for every backend.
 */
public final class DeviceRefusals {
    private DeviceRefusals() {
    }

    /** Tethers while the settings project them ({@code settingsClass}: where to turn them off). */
    public static void requireNoTethers(String solver, String settingsClass, boolean tethersOn, Model m) {
        if (tethersOn && m.tethers().count() > 0) {
            throw new UnsupportedOnDeviceException(DeviceFeature.TETHERS, "the model has " + m.tethers().count()
                    + " tethers (long-range attachments), which " + solver + " does not project yet; build "
                    + "the model without them (ModelBuilder.tethers(false)), turn them off "
                    + "(" + settingsClass + ".withTethers(false)) or use the cpu backend");
        }
    }

    /** Wind and air drag. */
    public static void requireNoAir(String solver, Environment env) {
        if (env.hasAir()) {
            throw new UnsupportedOnDeviceException(DeviceFeature.AIR, "air", solver + " does not "
                    + "compute wind and air drag yet; run without them or use the cpu backend");
        }
    }

    /** Colliders other than still planes and spheres ({@link DeviceColliderRecords#requireSupported}). */
    public static void requireSupportedColliders(String solvers, Environment env) {
        for (Collider c : env.colliders()) {
            DeviceColliderRecords.requireSupported(solvers, c);
        }
    }

    /** The refusal of particle contacts (self- and inter-cloth). */
    public static UnsupportedOnDeviceException particleContacts(String solver) {
        return new UnsupportedOnDeviceException(DeviceFeature.PARTICLE_CONTACTS, solver + " does "
                + "not run self- or inter-cloth contact yet; turn it off or use the cpu backend");
    }
}
