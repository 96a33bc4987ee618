package dev.weft.core.scene;

import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.FunnelCollider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.util.List;

/** Seed 001's collision showcases (§6.2), built in. */
public final class CollisionScenes {
    private static final float[] GRAVITY = {0f, -9.81f, 0f};

    private CollisionScenes() {
    }

    /** Figure 6.11: five cloths dropped onto a box (run with --self-collision for cloth–cloth contact). */
    public static Scene stack() {
        return stack(32);
    }

    /** {@link #stack()} with cloths of {@code side} × {@code side} particles (32 built in; tests take fewer). */
    public static Scene stack(int side) {
        ModelBuilder b = new ModelBuilder();
        for (int k = 0; k < 5; k++) {
            double a = Math.toRadians(11 * k);
            float c = (float) Math.cos(a);
            float s = (float) Math.sin(a);
            b.addGridCloth(GridClothSpec.of("cloth" + k, side, side, 0.6f, 0.6f)
                    .withOrigin(-0.3f * c - 0.3f * s, 0.45f + 0.1f * k, 0.3f * s - 0.3f * c)
                    .withAxes(new float[] {c, 0f, -s}, new float[] {s, 0f, c}));
        }
        Environment env = new Environment(GRAVITY, List.<Collider>of(
                new BoxCollider("box", new float[] {0f, 0.15f, 0f}, new float[] {0.25f, 0.15f, 0.25f}, 0.005f, 0.5f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
        return new Scene("stack", "five cloths dropped onto a box (seed 001 fig. 6.11); add --self-collision",
                b.build(), env, 60f, 240, 8, XpbdSettings.defaults());
    }

    /**
     * Figure 6.12: a sphere at 10 m/s through four cloths hanging from two corners each. 32 substeps:
     * with 8 the impact stretches the cloth by several hundred percent before one iteration per
     * substep pulls it back (32: about 30 %).
     */
    public static Scene spheres() {
        return spheres(32);
    }

    /** {@link #spheres()} with cloths of {@code side} × {@code side} particles (32 built in; tests take fewer). */
    public static Scene spheres(int side) {
        ModelBuilder b = new ModelBuilder();
        for (int k = 0; k < 4; k++) {
            ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth" + k, side, side, 0.8f, 0.8f)
                    .withOrigin(-0.4f, 1.4f, 0.4f * k).withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
            b.pinCorners(cloth, "top-left", "top-right");
        }
        SphereCollider ball = new SphereCollider("ball", new float[] {0f, 1f, -1f}, 0.2f, 0.005f, 0.2f);
        ball.withVelocity(new float[] {0f, 0f, 10f}, new float[3]);
        return new Scene("spheres", "a sphere at 10 m/s through four hanging cloths (seed 001 fig. 6.12)", b.build(),
                new Environment(GRAVITY, List.<Collider>of(ball)), 60f, 120, 32, XpbdSettings.defaults());
    }

    /** Figure 6.14: three cloths fall through seed 001's funnel onto a box. */
    public static Scene funnel() {
        return funnel(24);
    }

    /** {@link #funnel()} with cloths of {@code side} × {@code side} particles (24 built in; tests take fewer). */
    public static Scene funnel(int side) {
        ModelBuilder b = new ModelBuilder();
        for (int k = 0; k < 3; k++) {
            double a = Math.toRadians(30 * k);
            float c = (float) Math.cos(a);
            float s = (float) Math.sin(a);
            b.addGridCloth(GridClothSpec.of("cloth" + k, side, side, 0.7f, 0.7f)
                    .withOrigin(-0.35f * c - 0.35f * s, 1.6f + 0.15f * k, 0.35f * s - 0.35f * c)
                    .withAxes(new float[] {c, 0f, -s}, new float[] {s, 0f, c}));
        }
        // r(y) = e^(y / 0.5) from y = -0.8 (r = 0.2 m) to the rim at 0 (r = 1 m), rim 1.5 m up; a slippery
        // wall (μ = 0.05): with 0.3 the cloths jam in the neck
        Environment env = new Environment(GRAVITY, List.<Collider>of(
                new FunnelCollider("funnel", new float[] {0f, 1.5f, 0f}, 0.5f, -0.8f, 0f, 0.005f, 0.05f),
                new BoxCollider("box", new float[] {0f, 0.1f, 0f}, new float[] {0.3f, 0.1f, 0.3f}, 0.005f, 0.5f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
        return new Scene("funnel", "three cloths fall through a funnel onto a box (seed 001 fig. 6.14)", b.build(),
                env, 60f, 240, 16, XpbdSettings.defaults());
    }

    /**
     * Figure 6.16: a 0.5 kg cannonball at 12 m/s into a cloth hanging from its top edge. (Seed 001 lets
     * the cloth tear; without tearing a heavier, faster ball stretches it by several hundred percent.)
     */
    public static Scene cannonball() {
        return cannonball(48);
    }

    /** {@link #cannonball()} with a cloth of {@code side} × {@code side} particles (48 built in; tests take fewer). */
    public static Scene cannonball(int side) {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", side, side, 1.2f, 1.2f).withOrigin(-0.6f, 1.8f, 0f)
                .withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
        b.pinEdge(cloth, "top");
        PlaneCollider floor = PlaneCollider.floor(0f, 0.005f, 0.5f);
        Projectile ball = new Projectile("cannonball", new float[] {0f, 1.2f, -1f}, 0.12f, 0.5f,
                new float[] {0f, 0f, 12f}, GRAVITY, 0.005f, 0.3f).withObstacles(floor);
        return new Scene("cannonball", "a cannonball at 12 m/s into a hanging cloth (seed 001 fig. 6.16)", b.build(),
                new Environment(GRAVITY, List.<Collider>of(ball, floor)), 60f, 120, 32,
                XpbdSettings.defaults());
    }
}
