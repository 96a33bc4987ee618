package dev.weft.core.scene;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.util.List;

/** Scenes driven by the air ({@code AeroForces}): every solver reads the wind from the scene's environment. */
final class WindScenes {
    private WindScenes() {
    }

    /** Wind of the flag scene, m/s: mostly away from the pole (+x), partly across the flag (+z). */
    static final float[] FLAG_WIND = {6f, 0f, 3f};

    /**
     * A 1.2 × 0.8 m flag of 36 × 24 particles hanging in the XY plane from a pole along its left edge
     * (pinned), in a 6.7 m/s wind at 27° to its plane and sea-level air (density 1.2 kg/m³, pressure
     * drag 1, friction drag 0.02). It blows out downwind and keeps flapping. The floor 1.2 m below the
     * flag is never reached; it grounds the picture (shadow) when the scene is rendered. 5 s at 60 fps.
     */
    static Scene flag() {
        ModelBuilder b = new ModelBuilder();
        ModelObject flag = b.addGridCloth(new GridClothSpec("flag", 36, 24, 1.2f, 0.8f, new float[] {0f, 2f, 0f},
                GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1], true));
        b.pinEdge(flag, "left");
        Environment env = new Environment(new float[] {0f, -9.81f, 0f},
                List.of(PlaneCollider.floor(0f, 0.01f, 0.5f)))
                .withWind(FLAG_WIND).withAir(1.2f, 1f, 0.02f);
        return new Scene("flag", "36x24 flag on a pole (left edge pinned) blowing in a 6.7 m/s wind",
                b.build(), env, 60f, 300, 16, XpbdSettings.defaults());
    }
}
