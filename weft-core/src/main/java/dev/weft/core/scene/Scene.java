package dev.weft.core.scene;

import dev.weft.core.model.Model;
import dev.weft.core.solver.Environment;
import dev.weft.core.solver.xpbd.XpbdSettings;

/**
 * A runnable setup: bodies, surroundings and the settings it is meant to be run with.
 *
 * @param fps       frames per second of the output
 * @param frames    frames a default run simulates
 * @param substeps  solver steps per frame
 */
public record Scene(String name, String description, Model model, Environment environment, float fps,
                    int frames, int substeps, XpbdSettings xpbd) {
}
