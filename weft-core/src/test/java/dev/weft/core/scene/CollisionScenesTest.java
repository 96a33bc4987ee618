package dev.weft.core.scene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.model.ModelObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seed 001's collision showcases (§6.2), each run (XPBD with particle contacts, as {@code weft run SCENE
 * --self-collision}) until the contact it shows has happened, then checked for what it claims. Every
 * frame on the way keeps every particle finite and off every collider ({@link ShowcaseRun}). The
 * scenes are the built-in ones with coarser cloths (about 40 % of the particles, so that each test takes
 * a few seconds on two shared cores); the same colliders, drops and timings.
 */
class CollisionScenesTest {
    /**
     * Figure 6.11: five cloths dropped onto a box. The lowest lands on the box after 0.18 s, the highest
     * on the stack after about 0.35 s; by 0.4 s all five lie on one another, in their order,
     * each touching the one below and none through it.
     */
    @Test
    void stackLaysFiveClothsOnTheBoxOneOnAnotherInTheirOrder() {
        try (ShowcaseRun run = new ShowcaseRun(CollisionScenes.stack(20))) {
            List<ModelObject> cloths = run.model.objects();
            Collider box = run.collider("box");
            while (run.frame() < 24) {
                run.advance();
            }
            float contact = run.contacts().contactDistance();
            assertThat(run.closest(cloths.get(0), box)).as("the lowest cloth lies on the box")
                    .isLessThanOrEqualTo(ShowcaseRun.TOUCHING * box.thickness());
            float[] x = run.positions();
            float below = Float.NEGATIVE_INFINITY;
            for (int k = 0; k < cloths.size(); k++) {
                ModelObject cloth = cloths.get(k);
                if (k > 0) {
                    assertThat(run.closest(cloth, cloths.get(k - 1))).as("cloth %d rests on cloth %d", k, k - 1)
                            .isLessThanOrEqualTo(ShowcaseRun.TOUCHING * contact);
                }
                // over the middle of the box, each cloth lies above the one dropped before it
                int middle = cloth.gridParticle(cloth.gridRows() / 2, cloth.gridCols() / 2);
                float y = x[3 * middle + 1];
                assertThat(y).as("height of cloth %d over the box's middle", k)
                        .isGreaterThan(below + 0.5f * contact)
                        .isLessThan(0.3f + box.thickness() + (k + 1) * 1.5f * contact);
                below = y;
            }
            // the seed's criterion (fig. 6.11): no two cloths closer than half the contact distance anywhere
            assertThat(run.closestBetweenObjects()).isGreaterThanOrEqualTo(0.5f * contact);
            assertThat(run.contacts().lastContactCount()).as("contacts in the last step").isPositive();
        }
    }

    /**
     * Figure 6.12: a sphere at 10 m/s through four cloths hanging 0.4 m apart. It touches the first at
     * frame 5 and pushes it, wrapped around its front, into the next: by frame 14 it has reached all four
     * (directly, or through the cloths already on it), in order; each is carried forward (+z) nearly at
     * the ball's speed, and none lets it through.
     */
    @Test
    void spheresBallReachesEachOfTheFourClothsAndCarriesThemForward() {
        try (ShowcaseRun run = new ShowcaseRun(CollisionScenes.spheres(20))) {
            List<ModelObject> cloths = run.model.objects();
            Collider ball = run.collider("ball");
            float ballSpeed = 10f;
            int firstTouch = 0;
            int[] reachedAt = new int[cloths.size()];
            double[] mostMomentum = new double[cloths.size()];
            float[] furthest = new float[cloths.size()];
            float[] rest = run.model.restPositions();
            while (run.frame() < 14) {
                run.advance();
                // on the ball, or on a cloth that lies on it
                float reach = ball.thickness() + ShowcaseRun.TOUCHING * run.contacts().contactDistance();
                float[] x = run.positions();
                if (firstTouch == 0 && run.closest(cloths.get(0), ball) <= ShowcaseRun.TOUCHING * ball.thickness()) {
                    firstTouch = run.frame();
                }
                for (int k = 0; k < cloths.size(); k++) {
                    ModelObject cloth = cloths.get(k);
                    if (reachedAt[k] == 0 && run.closest(cloth, ball) <= reach) {
                        reachedAt[k] = run.frame();
                    }
                    mostMomentum[k] = Math.max(mostMomentum[k], run.momentum(cloth, 2));
                    for (int i = cloth.firstParticle(); i < cloth.firstParticle() + cloth.particleCount(); i++) {
                        furthest[k] = Math.max(furthest[k], x[3 * i + 2] - rest[3 * i + 2]);
                    }
                }
            }
            assertThat(firstTouch).as("frame at which the ball itself touches the first cloth").isBetween(4, 6);
            for (int k = 0; k < cloths.size(); k++) {
                assertThat(reachedAt[k]).as("frame at which the ball reaches cloth %d", k).isPositive();
                if (k > 0) {
                    assertThat(reachedAt[k]).as("the ball reaches the cloths in order")
                            .isGreaterThanOrEqualTo(reachedAt[k - 1]);
                }
                // carried forward: at some frame the cloth moves along the ball's path at half its speed or more
                assertThat(mostMomentum[k]).as("largest z momentum of cloth %d", k)
                        .isGreaterThan(0.5 * freeMass(run, cloths.get(k)) * ballSpeed);
                assertThat(furthest[k]).as("furthest a particle of cloth %d was carried in z", k).isGreaterThan(0.1f);
            }
            assertThat(run.contacts().lastContactCount()).as("cloths pushed into one another").isPositive();
        }
    }

    private static double freeMass(ShowcaseRun run, ModelObject cloth) {
        float[] w = run.model.invMass();
        double m = 0;
        for (int i = cloth.firstParticle(); i < cloth.firstParticle() + cloth.particleCount(); i++) {
            m += w[i] > 0f ? 1.0 / w[i] : 0.0;
        }
        return m;
    }

    /**
     * Figure 6.14: three cloths fall into seed 001's funnel. They reach its wall one after another at
     * frames 19 to 25 and slide inside it: every particle stays inside the funnel's surface.
     */
    @Test
    void funnelCatchesTheThreeClothsOnItsInsideWall() {
        try (ShowcaseRun run = new ShowcaseRun(CollisionScenes.funnel(16))) {
            List<ModelObject> cloths = run.model.objects();
            Collider funnel = run.collider("funnel");
            int[] touchedAt = new int[cloths.size()];
            while (run.frame() < 27) {
                run.advance();
                for (int k = 0; k < cloths.size(); k++) {
                    if (touchedAt[k] == 0
                            && run.closest(cloths.get(k), funnel) <= ShowcaseRun.TOUCHING * funnel.thickness()) {
                        touchedAt[k] = run.frame();
                    }
                }
            }
            assertThat(touchedAt).as("frame at which each cloth touches the funnel").doesNotContain(0);
            assertThat(touchedAt).as("the lowest first").isSorted();
            // inside: within the funnel's radius e^(y/0.5) (its axis is x = z = 0, its rim 1.5 m up)
            float[] x = run.positions();
            for (int i = 0; i < x.length; i += 3) {
                float y = x[i + 1] - 1.5f;
                if (y < 0f && y > -0.8f) {
                    float radius = (float) Math.exp(y / 0.5f);
                    assertThat((float) Math.hypot(x[i], x[i + 2])).as("particle %d's distance from the axis", i / 3)
                            .isLessThan(radius);
                }
            }
        }
    }

    /**
     * Figure 6.16: a 0.5 kg cannonball at 12 m/s into a hanging cloth. It hits at frame 5; by frame 10
     * it has given the cloth a large part of its momentum (two-way coupling) and has not gone through.
     */
    @Test
    void cannonballHitsTheClothAndGivesItMomentum() {
        try (ShowcaseRun run = new ShowcaseRun(CollisionScenes.cannonball(32))) {
            ModelObject cloth = run.model.objects().get(0);
            Projectile ball = (Projectile) run.collider("cannonball");
            float ballMomentumBefore = ball.mass() * ball.velocity()[2];
            int hitAt = 0;
            while (run.frame() < 10) {
                run.advance();
                if (hitAt == 0 && run.closest(cloth, ball) <= ShowcaseRun.TOUCHING * ball.thickness()) {
                    hitAt = run.frame();
                }
            }
            assertThat(hitAt).as("frame of the hit").isBetween(4, 6);
            float ballLost = ballMomentumBefore - ball.mass() * ball.velocity()[2];
            double clothGained = run.momentum(cloth, 2);
            assertThat(ballLost).as("z momentum the ball lost (of %s)", ballMomentumBefore)
                    .isGreaterThan(0.3f * ballMomentumBefore);
            // the pinned top edge holds the cloth back: it keeps at most what the ball gave
            assertThat(clothGained).as("z momentum of the cloth").isPositive().isLessThanOrEqualTo(1.02 * ballLost);
            // not through: the cloth still lies across the ball's path, ahead of it
            float[] x = run.positions();
            float[] c = ball.center();
            int ahead = 0;
            for (int i = 0; i < x.length; i += 3) {
                if (Math.hypot(x[i] - c[0], x[i + 1] - c[1]) < ball.radius() && x[i + 2] > c[2]) {
                    ahead++;
                }
            }
            assertThat(ahead).as("particles across the ball's path, ahead of it").isPositive();
        }
    }
}
