package dev.weft.core.geom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class DihedralAngleTest {
    @Test
    void flatStencilHasAngleZero() {
        float[] x = {0, 0, 0, 1, 0, 0, 0.5f, 0, 1, 0.5f, 0, -1};
        assertThat(DihedralAngle.compute(x, 0, 1, 2, 3, null)).isCloseTo(0f, within(1e-6f));
    }

    @Test
    void rightAngleFoldMeasuresHalfPi() {
        // o0 in the plane z = 0 side, o1 folded up to y = 1: a 90 degree fold along the x axis.
        float[] x = {0, 0, 0, 1, 0, 0, 0.5f, 0, 1, 0.5f, 1, 0};
        assertThat(Math.abs(DihedralAngle.compute(x, 0, 1, 2, 3, null))).isCloseTo((float) (Math.PI / 2),
                within(1e-5f));
    }

    @Test
    void gradientMatchesCentralDifferences() {
        Random rnd = new Random(3);
        float[] base = {0, 0, 0, 1, 0, 0, 0.4f, 0.9f, 0.1f, 0.6f, -1, 0.5f};
        for (int trial = 0; trial < 50; trial++) {
            float[] x = base.clone();
            for (int i = 0; i < 12; i++) {
                x[i] += (float) (rnd.nextGaussian() * 0.2);
            }
            float[] grad = new float[12];
            float angle = DihedralAngle.compute(x, 0, 1, 2, 3, grad);
            if (Math.abs(angle) > 3.0f) {
                continue; // near ±π the angle wraps and differences are meaningless
            }
            for (int i = 0; i < 12; i++) {
                float[] p = x.clone();
                float[] m = x.clone();
                float eps = 1e-3f;
                p[i] += eps;
                m[i] -= eps;
                double fd = (DihedralAngle.compute(p, 0, 1, 2, 3, null) - DihedralAngle.compute(m, 0, 1, 2, 3, null))
                        / (2.0 * eps);
                // float central differences at eps = 1e-3: truncation ~eps² plus rounding ~1e-7/eps
                assertThat(grad[i]).as("component %d of trial %d", i, trial)
                        .isCloseTo((float) fd, within(2e-3f + 2e-3f * Math.abs(grad[i])));
            }
        }
    }

    @Test
    void gradientIsTranslationInvariant() {
        float[] x = {0, 0, 0, 1, 0, 0, 0.4f, 0.9f, 0.1f, 0.6f, -1, 0.5f};
        float[] g = new float[12];
        DihedralAngle.compute(x, 0, 1, 2, 3, g);
        for (int axis = 0; axis < 3; axis++) {
            float sum = g[axis] + g[3 + axis] + g[6 + axis] + g[9 + axis];
            assertThat(sum).isCloseTo(0f, within(1e-5f));
        }
    }
}
