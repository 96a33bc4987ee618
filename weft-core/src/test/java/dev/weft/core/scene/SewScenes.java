package dev.weft.core.scene;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.util.List;

/** Scenes with seams (issue #13; seed 002's seams). */
final class SewScenes {
    static final int COLS = 40;

    private SewScenes() {
    }

    /**
     * A poncho: two flat panels, front and back, side by side 6 cm apart, sewn along their near edges
     * except the middle third (the head hole), fall onto a ball; the seams pull shut while they fall and
     * the poncho drapes over the ball with the ball in its head hole.
     */
    static Scene sew() {
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE);
        ModelObject front = b.addGridCloth(GridClothSpec.of("front", COLS, 28, 1.0f, 0.7f)
                .withOrigin(-0.5f, 1.35f, 0.03f));
        ModelObject back = b.addGridCloth(GridClothSpec.of("back", COLS, 28, 1.0f, 0.7f)
                .withOrigin(-0.5f, 1.35f, -0.73f));
        // front's first row faces back's last row across the gap: the shoulders, left and right thirds
        b.sew(front, "top", back, "bottom", 0, COLS / 3);
        b.sew(front, "top", back, "bottom", COLS - COLS / 3, COLS);
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(
                new SphereCollider("head", new float[] {0f, 1.0f, 0f}, 0.2f, 0.005f, 0.5f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
        return new Scene("sew", "two panels sewn at the shoulders into a poncho drape over a ball (seed 002's seams)",
                b.build(), env, 60f, 180, 16, XpbdSettings.defaults());
    }
}
