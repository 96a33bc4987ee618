package dev.weft.render.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.SphereCollider;
import dev.weft.render.BodyPoses;
import org.junit.jupiter.api.Test;

/**
 * A published frame keeps its moving bodies where they were when it was published: the simulation runs on beside
 * the window, and the picture must show the bodies with the cloth of the same frame.
 */
class SimFramePosesTest {
    @Test
    void aFrameKeepsAKinematicBodyWhereItWasWhenPublished() {
        SphereCollider still = new SphereCollider("still", new float[] {0f, 2f, 0f}, 0.1f, 0f, 0f);
        SphereCollider moving = new SphereCollider("moving", new float[] {0f, 0f, 0f}, 0.1f, 0f, 0f);
        moving.withVelocity(new float[] {1f, 0f, 0f}, new float[] {0f, 0f, 0f});
        moving.advance(0.0, 0.1f); // at x = 0.1 when the frame is published
        SimFrame f = new SimFrame();
        f.capturePoses(new Collider[] {still, moving});

        moving.advance(0.1, 0.1f); // the simulation runs on: x = 0.2
        float[] published = new float[12];
        f.rigid(moving, published);
        float[] live = new float[12];
        BodyPoses.LIVE.rigid(moving, live);
        assertThat(published[0]).isCloseTo(0.1f, within(1e-6f));
        assertThat(live[0]).isCloseTo(0.2f, within(1e-6f));
        // the rotation stays the identity
        assertThat(published[3]).isEqualTo(1f);
        assertThat(published[7]).isEqualTo(1f);
        assertThat(published[11]).isEqualTo(1f);

        // a body that does not move reads its (constant) pose
        float[] s = new float[12];
        f.rigid(still, s);
        assertThat(s[1]).isEqualTo(2f);

        // the frame published next (a frame buffer reused) holds the new pose, and no other body
        f.capturePoses(new Collider[] {moving});
        f.rigid(moving, published);
        assertThat(published[0]).isCloseTo(0.2f, within(1e-6f));
        assertThat(f.posedBodies).containsExactly(moving);
    }

    @Test
    void aFrameGivesEachCannonballTheCentreItWasPublishedWith() {
        Projectile a = new Projectile("a", new float[] {0f, 1f, 0f}, 0.1f, 1f, new float[] {14f, 0f, 0f},
                new float[] {0f, -9.81f, 0f}, 0.005f, 0.3f);
        Projectile b = new Projectile("b", new float[] {0f, 1f, 1f}, 0.1f, 1f, new float[] {0f, 0f, 0f},
                new float[] {0f, -9.81f, 0f}, 0.005f, 0.3f);
        SimFrame f = new SimFrame();
        f.projectiles.add(a);
        f.projectiles.add(b);
        f.ballCenters = new float[] {0.5f, 1f, 0f, 0f, 0.9f, 1f};
        float[] c = new float[3];
        f.ball(b, c);
        assertThat(c).containsExactly(0f, 0.9f, 1f);
        f.ball(a, c);
        assertThat(c).containsExactly(0.5f, 1f, 0f);
    }
}
