package dev.weft.core.scene;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ConstantVelocityMotion;
import dev.weft.core.collide.Grip;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.util.List;

/** Scenes where cloth tears (issue #13; seed 001 §5.3.7, fig. 6.15). */
final class TearScenes {
    private static final float[] GRAVITY = {0f, -9.81f, 0f};
    /** Both cloths tear at 20 % stretch: far above what the iterations leave under their own weight (~1 %). */
    static final float TEAR_STRAIN = 0.2f;

    private TearScenes() {
    }

    /**
     * A cannonball at 14 m/s through a curtain hanging from its top edge, which tears a hole (seed 001
     * fig. 6.15's tearing, with fig. 6.16's cannonball); beside it a cloth held by two hands at the ends of
     * its top edge, which pull apart at 0.3 m/s each until it tears in two.
     */
    static Scene tear() {
        // no long-range attachments: they hold each particle within its rest distance of the nearest pin,
        // so pins that move apart (the hands) would drag each half along rigidly and put the whole
        // stretch, and the tear, on the line where the nearest pin changes sides
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE).tethers(false);
        ModelObject curtain = b.addGridCloth(GridClothSpec.of("curtain", 40, 40, 1.0f, 1.0f)
                .withOrigin(-1.3f, 1.8f, 0f).withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
        b.pinEdge(curtain, "top");
        b.tearStrain(curtain, TEAR_STRAIN);
        ModelObject pulled = b.addGridCloth(GridClothSpec.of("pulled", 32, 24, 0.8f, 0.6f)
                .withOrigin(0.3f, 1.6f, 0f).withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
        // two hands, each holding a quarter of the top edge, the middle half free to sag
        int hand = pulled.gridCols() / 4;
        int[] left = new int[hand];
        int[] right = new int[hand];
        for (int c = 0; c < hand; c++) {
            left[c] = pulled.gridParticle(0, c);
            right[c] = pulled.gridParticle(0, pulled.gridCols() - 1 - c);
            b.pin(left[c]);
            b.pin(right[c]);
        }
        b.tearStrain(pulled, TEAR_STRAIN);
        Model model = b.build();
        float[] still = {0f, 0f, 0f};
        float[] identity = {1f, 0f, 0f, 0f};
        PlaneCollider floor = PlaneCollider.floor(0f, 0.005f, 0.5f);
        Projectile ball = new Projectile("cannonball", new float[] {-0.8f, 1.2f, -1f}, 0.1f, 1.0f,
                new float[] {0f, 0f, 14f}, GRAVITY, 0.005f, 0.3f).withObstacles(floor);
        List<Collider> colliders = List.of(ball, floor,
                new Grip("left grip", model, left, new ConstantVelocityMotion(still, identity,
                        new float[] {-0.3f, 0f, 0f}, still)),
                new Grip("right grip", model, right, new ConstantVelocityMotion(still, identity,
                        new float[] {0.3f, 0f, 0f}, still)));
        return new Scene("tear", "a cannonball tears a hole in a curtain; two grips pull a cloth apart "
                + "(seed 001 fig. 6.15)", model, new Environment(GRAVITY, colliders), 60f, 150, 16,
                XpbdSettings.defaults());
    }
}
