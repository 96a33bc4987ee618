package dev.weft.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.scene.BuiltInScenes;
import dev.weft.core.scene.Scene;
import org.junit.jupiter.api.Test;

class CameraFramingTest {
    @Test
    void theAutomaticCameraKeepsEveryCornerOfTheBoundsInThePicture() {
        SceneBounds bounds = SceneBounds.ofBox(-1f, 0f, -2f, 3f, 1.5f, 0.5f);
        for (float aspect : new float[] {16f / 9f, 1f, 0.5f}) {
            Camera c = CameraFraming.automatic(bounds, aspect, 40f);
            float[] vp = Mat4.multiply(c.projection(aspect, 0.01f, 100f, new float[16]), c.view(new float[16]),
                    new float[16]);
            float[] min = bounds.min();
            float[] max = bounds.max();
            float widest = 0f;
            for (int k = 0; k < 8; k++) {
                float[] clip = Mat4.transform(vp, (k & 1) == 0 ? min[0] : max[0], (k & 2) == 0 ? min[1] : max[1],
                        (k & 4) == 0 ? min[2] : max[2], new float[4]);
                assertThat(clip[3]).as("corner %d in front of the camera", k).isPositive();
                float nx = Math.abs(clip[0] / clip[3]);
                float ny = Math.abs(clip[1] / clip[3]);
                assertThat(nx).as("corner %d, aspect %s, x", k, aspect).isLessThanOrEqualTo(1f);
                assertThat(ny).as("corner %d, aspect %s, y", k, aspect).isLessThanOrEqualTo(1f);
                widest = Math.max(widest, Math.max(nx, ny));
            }
            // ... and fills a good part of it (a sphere fit leaves at most this much unused)
            assertThat(widest).as("largest corner extent, aspect %s", aspect).isGreaterThan(0.45f);
        }
    }

    @Test
    void theDefaultScenesBoundsReachFromTheFloorOverTheClothAndSphere() {
        Scene drape = BuiltInScenes.drape();
        SceneBounds b = SceneBounds.of(drape.model(), drape.environment().colliders());
        assertThat((double) b.min()[1]).as("down to the floor").isCloseTo(0.0, within(1e-6));
        assertThat((double) b.max()[1]).as("up to the cloth").isCloseTo(1.0, within(1e-6));
        assertThat(b.min()[0]).isLessThanOrEqualTo(-0.5f);
        assertThat(b.max()[2]).isGreaterThanOrEqualTo(0.5f);
        // a scene without a floor gets room below for the cloth to hang: one cloth size
        Scene hanging = BuiltInScenes.hanging(10);
        SceneBounds h = SceneBounds.of(hanging.model(), hanging.environment().colliders());
        assertThat((double) h.min()[1]).isCloseTo(0.0, within(1e-5));
    }
}
