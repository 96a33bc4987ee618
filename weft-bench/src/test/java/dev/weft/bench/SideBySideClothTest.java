package dev.weft.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A 16 × 16 cloth for one second on Jolt and on Weft: both hang under gravity from their pinned edge, stay
 * finite and nearly inextensible. The physics of the comparison, not its timings.
 */
class SideBySideClothTest {
    private static final int FRAMES = 60;
    private final ClothScene scene = new ClothScene(16);

    @Test
    void joltHangsTheClothFromItsPinnedEdge() {
        try (JoltCloth jolt = new JoltCloth(scene, 1, PeersBench.DEFAULT_JOLT_ITERATIONS)) {
            assertHangs(jolt);
        }
    }

    @Test
    void weftHangsTheClothFromItsPinnedEdgeWithEitherBending() {
        for (WeftSetting setting : List.of(WeftSetting.DEFAULTS.get(0), WeftSetting.DEFAULTS.get(2),
                WeftSetting.DEFAULTS.get(4))) {
            try (WeftCloth weft = new WeftCloth(scene, setting, 2)) {
                assertHangs(weft);
            }
        }
    }

    private void assertHangs(ClothEngine engine) {
        int n = scene.n();
        float[] start = new float[3 * scene.vertexCount()];
        engine.readPositions(start);
        assertThat(start).as("starts in the scene's rest shape").containsExactly(scene.restPositions(),
                org.assertj.core.data.Offset.offset(1e-6f));
        GridStrain strain = new GridStrain(start, n);
        float[] x = new float[start.length];
        double worst = 0;
        for (int f = 0; f < FRAMES; f++) {
            engine.advanceFrame();
            engine.readPositions(x);
            worst = Math.max(worst, strain.max(x));
        }
        for (float v : x) {
            assertThat(Float.isFinite(v)).as(engine.label() + ": finite positions").isTrue();
        }
        for (int i = 0; i < 3 * n; i++) {
            assertThat(x[i]).as(engine.label() + ": pinned coordinate " + i).isEqualTo(start[i]);
        }
        assertThat(worst).as(engine.label() + ": largest structural strain over the second").isLessThan(0.10);
        double meanY = 0;
        for (int i = 0; i < scene.vertexCount(); i++) {
            meanY += x[3 * i + 1];
        }
        meanY /= scene.vertexCount();
        // after 1 s the free end has swung down: the mean height is well below the pinned edge's y = 0
        assertThat(meanY).as(engine.label() + ": mean height, m").isLessThan(-0.1);
        // and no vertex is above the pinned edge by more than a sliver (it hangs, it does not fly)
        for (int i = 0; i < scene.vertexCount(); i++) {
            assertThat(x[3 * i + 1]).as(engine.label() + ": height of vertex " + i).isLessThan(0.05f);
        }
    }
}
