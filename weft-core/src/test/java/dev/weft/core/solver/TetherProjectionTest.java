package dev.weft.core.solver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * One tether's projection ({@link TetherProjection#projectRange}) against its geometry: a particle further from its
 * pinned anchor than the tether's length lands on the sphere of that radius along the same ray; one within it, or on
 * the anchor itself (even with a tether of length 0), does not move.
 */
class TetherProjectionTest {
    private static float[] project(float[] particle, float max) {
        // particle 0 free, particle 1 the anchor at (1, 2, 3); all of the position in y, d zero
        float[] y = {particle[0], particle[1], particle[2], 1f, 2f, 3f};
        float[] d = new float[6];
        TetherProjection.projectRange(new int[] {0, 1}, new float[] {max}, y, d, 0, 1);
        return new float[] {y[0] + d[0], y[1] + d[1], y[2] + d[2]};
    }

    @Test
    void aTautTetherPutsItsParticleOnTheSphereAlongTheSameRay() {
        // 3-4-0 from the anchor: 5 m away, a 2 m tether puts it at 2/5 of the way out
        float[] x = project(new float[] {4f, 6f, 3f}, 2f);
        assertThat(x[0]).isCloseTo(1f + 3f * 0.4f, org.assertj.core.data.Offset.offset(1e-6f));
        assertThat(x[1]).isCloseTo(2f + 4f * 0.4f, org.assertj.core.data.Offset.offset(1e-6f));
        assertThat(x[2]).isEqualTo(3f);
    }

    @Test
    void aSlackTetherOrAParticleOnItsAnchorMovesNothing() {
        assertThat(project(new float[] {2f, 2f, 3f}, 2f)).containsExactly(2f, 2f, 3f);
        assertThat(project(new float[] {3f, 2f, 3f}, 2f)).as("exactly at its length").containsExactly(3f, 2f, 3f);
        assertThat(project(new float[] {1f, 2f, 3f}, 0f)).as("on the anchor, length 0").containsExactly(1f, 2f, 3f);
        // a tether of length 0 pulls all the way onto the anchor (−1), which moves a particle already there by 0
        assertThat(TetherProjection.taut(0f, 0f)).isEqualTo(-1f);
        assertThat(TetherProjection.taut(1e-6f, 0f)).isEqualTo(-1f);
        assertThat(TetherProjection.taut(4f, 3f)).isZero();
        assertThat(TetherProjection.taut(25f, 2f)).isCloseTo(-0.6f, org.assertj.core.data.Offset.offset(1e-7f));
    }
}
