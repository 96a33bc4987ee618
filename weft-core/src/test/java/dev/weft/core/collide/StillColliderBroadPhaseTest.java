package dev.weft.core.collide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A still rigid collider rejects far particles in the world frame (no rotation); a collider moving at
 * zero velocity has the same pose but takes the body-frame path for every particle. The cheaper test
 * must never change an outcome: both give the same bits, for particles swarming about the surface at
 * every distance and speed, far from the origin too.
 */
class StillColliderBroadPhaseTest {
    @Test
    void aStillColliderGivesTheSameBitsAsTheSameColliderMovingAtZeroVelocity() {
        float[] q = Quaternions.axisAngle("q", new float[] {0.3f, 1f, -0.2f}, 0.7f);
        for (float far : new float[] {0f, 100f, 1000f}) {
            float[] centre = {far + 0.1f, 0.5f, -0.2f};
            RigidCollider[][] pairs = {
                {new SphereCollider("s", centre, 0.2f, 0.005f, 0.4f),
                    new SphereCollider("s", centre, 0.2f, 0.005f, 0.4f)},
                {new BoxCollider("b", centre, new float[] {0.3f, 0.1f, 0.2f}, 0.005f, 0.4f).withOrientation(q),
                    new BoxCollider("b", centre, new float[] {0.3f, 0.1f, 0.2f}, 0.005f, 0.4f).withOrientation(q)},
            };
            for (RigidCollider[] pair : pairs) {
                pair[1].withVelocity(new float[3], new float[3]);
                pair[1].advance(0.0, 1f / 480f);
                assertThat(pair[1].moving()).isTrue();
                assertThat(pair[0].moving()).isFalse();
                int n = 20000;
                Random random = new Random(11);
                float[] prev = new float[3 * n];
                float[] x = new float[3 * n];
                float[] w = new float[n];
                for (int i = 0; i < n; i++) {
                    w[i] = 1f;
                    double r = 0.5 * random.nextDouble();
                    for (int k = 0; k < 3; k++) {
                        prev[3 * i + k] = centre[k] + (float) (r * random.nextGaussian());
                        x[3 * i + k] = prev[3 * i + k] + (float) (0.05 * random.nextGaussian());
                    }
                }
                float[] still = x.clone();
                float[] moving = x.clone();
                pair[0].collide(still, prev, w, 0, n);
                pair[1].collide(moving, prev, w, 0, n);
                int moved = 0;
                for (int k = 0; k < x.length; k++) {
                    moved += still[k] != x[k] ? 1 : 0;
                }
                assertThat(moved).as("%s at %s m: particles the collider moved", pair[0].name(), far)
                        .isGreaterThan(1000);
                assertThat(still).as("%s at %s m", pair[0].name(), far).isEqualTo(moving);
            }
        }
    }
}
