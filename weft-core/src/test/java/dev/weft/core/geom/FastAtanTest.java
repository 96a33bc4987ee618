package dev.weft.core.geom;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FastAtanTest {
    @Test
    void staysWithinTwoMicroradiansOfMathAtan2InEveryOctant() {
        Random rnd = new Random(11);
        double worst = 0;
        for (int i = 0; i < 200_000; i++) {
            float y = (float) rnd.nextGaussian();
            float x = (float) rnd.nextGaussian();
            worst = Math.max(worst, Math.abs(FastAtan.atan2(y, x) - Math.atan2(y, x)));
        }
        // the polynomial's minimax error is 1.9e-6 rad; float rounding adds well under 1e-6
        assertThat(worst).isLessThan(3e-6);
    }

    @Test
    void isExactWhereBendingRestAnglesLive() {
        assertThat(FastAtan.atan2(0f, 1f)).isZero();
        assertThat(FastAtan.atan2(0f, 0f)).isZero();
        assertThat(FastAtan.atan2(1f, 0f)).isEqualTo((float) (Math.PI / 2));
        assertThat(FastAtan.atan2(-1f, 0f)).isEqualTo((float) (-Math.PI / 2));
        assertThat(FastAtan.atan2(0f, -1f)).isEqualTo((float) Math.PI);
        // odd in y
        assertThat(FastAtan.atan2(-0.3f, 0.7f)).isEqualTo(-FastAtan.atan2(0.3f, 0.7f));
    }
}
