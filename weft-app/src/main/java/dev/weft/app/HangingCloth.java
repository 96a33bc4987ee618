package dev.weft.app;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.scene.Scene;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;

/**
 * The benches' cloth: seed 001's hanging cloth (scene {@code hanging}, whose file is the n = 100 one) at
 * any size: n × n particles, 1 m, pinned at the two top corners, dropped from horizontal, cotton, no
 * colliders, 60 fps with 16 XPBD substeps.
 */
final class HangingCloth {
    private HangingCloth() {
    }

    static Scene of(int n) {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", n, n, 1f, 1f).withOrigin(-0.5f, 1.0f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        return new Scene("hanging", n + "x" + n + " cloth pinned at two corners, dropped from horizontal",
                b.build(), Environment.earth(), 60f, 300, 16, XpbdSettings.defaults());
    }
}
