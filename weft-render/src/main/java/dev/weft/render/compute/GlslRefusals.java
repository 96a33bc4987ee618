package dev.weft.render.compute;

import dev.weft.core.collide.Collider;
import dev.weft.core.model.Model;
import dev.weft.core.solver.DeviceColliderRecords;
import dev.weft.core.solver.DeviceFeature;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.step.Environment;

/**
 * The refusals both GLSL compute solvers share, worded with the solver's name ({@code solver}, e.g.
 * "the GLSL XPBD solver") and the {@link DeviceFeature} vocabulary of the OpenCL backend, so that a
 * caller words them alike for both backends.
 */
final class GlslRefusals {
    private GlslRefusals() {
    }

    /** Tethers while the settings project them ({@code settingsClass}: where to turn them off). */
    static void requireNoTethers(String solver, String settingsClass, boolean tethersOn, Model m) {
        if (tethersOn && m.tethers().count() > 0) {
            throw new UnsupportedOnDeviceException(DeviceFeature.TETHERS, "the model has " + m.tethers().count()
                    + " tethers (long-range attachments), which " + solver + " does not project yet; build "
                    + "the model without them (ModelBuilder.tethers(false)), turn them off "
                    + "(" + settingsClass + ".withTethers(false)) or use the cpu backend");
        }
    }

    /** Wind and air drag. */
    static void requireNoAir(String solver, Environment env) {
        if (env.hasAir()) {
            throw new UnsupportedOnDeviceException(DeviceFeature.AIR, "air", solver + " does not "
                    + "compute wind and air drag yet; run without them or use the cpu backend");
        }
    }

    /** Colliders other than still planes and spheres. */
    static void requireSupportedColliders(Environment env) {
        for (Collider c : env.colliders()) {
            DeviceColliderRecords.requireSupported(GlslColliders.SOLVERS, c);
        }
    }

    /** The refusal of particle contacts (self- and inter-cloth). */
    static UnsupportedOnDeviceException particleContacts(String solver) {
        return new UnsupportedOnDeviceException(DeviceFeature.PARTICLE_CONTACTS, solver + " does "
                + "not run self- or inter-cloth contact yet; turn it off or use the cpu backend");
    }
}
