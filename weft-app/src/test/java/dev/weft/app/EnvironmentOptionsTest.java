package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.scene.Scene;
import dev.weft.scene.SceneLibrary;
import org.junit.jupiter.api.Test;

/** --gravity changes everything that falls in the scene: the cloth's environment and a projectile's flight. */
class EnvironmentOptionsTest {
    private static Projectile ball(Scene s) {
        for (Collider c : s.environment().colliders()) {
            if (c instanceof Projectile p) {
                return p;
            }
        }
        throw new AssertionError("no projectile in " + s.name());
    }

    @Test
    void aProjectileFallsUnderTheGravityGivenOnTheCommandLine() {
        EnvironmentOptions options = new EnvironmentOptions();
        options.gravity = new float[] {0f, -1.62f, 0f}; // the Moon
        Scene s = options.apply(SceneLibrary.load("cannonball"));
        assertThat(s.environment().gravity()).containsExactly(0f, -1.62f, 0f);
        Projectile p = ball(s);
        float[] v0 = p.velocity();
        // 0.1 s of free flight (the ball starts away from the cloth and the floor): v = v0 + g t
        for (int k = 0; k < 10; k++) {
            p.advance(0.01 * k, 0.01f);
        }
        assertThat(p.velocity()[1]).isCloseTo(v0[1] - 0.162f, within(1e-5f));
        assertThat(p.velocity()[0]).isCloseTo(v0[0], within(1e-6f));
    }
}
