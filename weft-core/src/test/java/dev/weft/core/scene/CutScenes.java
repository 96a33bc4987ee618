package dev.weft.core.scene;

import dev.weft.core.collide.ConstantVelocityMotion;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.interact.Blade;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.util.List;

/** Scenes where cloth is cut (issue #13; seed 002's cutting). */
final class CutScenes {
    private CutScenes() {
    }

    /**
     * A cloth hangs from its two top corners; a blade comes down through its middle at 1 m/s and cuts it
     * in two, and each half swings away from the cut on its own corner.
     */
    static Scene cut() {
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE);
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 41, 41, 1.0f, 1.0f).withOrigin(-0.5f, 1.8f, 0f)
                .withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
        b.pinCorners(cloth, "top-left", "top-right");
        float[] still = {0f, 0f, 0f};
        // a knife across the cloth's plane (along z) above it, moving straight down the middle
        Blade blade = new Blade("blade", new float[] {0.013f, 2.0f, -0.3f}, new float[] {0.013f, 2.0f, 0.3f},
                new ConstantVelocityMotion(still, new float[] {1f, 0f, 0f, 0f}, new float[] {0f, -1f, 0f}, still));
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(blade,
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
        return new Scene("cut", "a blade cuts a cloth hanging from two corners in two; the halves swing apart "
                + "(seed 002's cutting)", b.build(), env, 60f, 180, 16, XpbdSettings.defaults());
    }
}
