package dev.weft.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.stephengold.joltjni.enumerate.EBendType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The droop strip on Jolt (skipped, with the reason, where Jolt's native library does not load): the tip drop
 * falls as the bend compliance falls, for distance and dihedral bending at the peers bench's iterations.
 */
class JoltDroopTest {
    private static final DroopStrip STRIP = DroopStrip.defaults();
    private static final float[] RIGIDITIES = {1e-5f, 1e-4f, 1e-3f, 1e-2f, 1e-1f};

    @BeforeAll
    static void joltLoads() {
        try {
            JoltRuntime.ensureStarted();
        } catch (PeerUnavailableException e) {
            Assumptions.abort("Jolt Physics is not available here: " + e.getMessage());
        }
    }

    @Test
    void dropFallsMonotonicallyAsTheBendComplianceFalls() {
        for (EBendType type : DroopBench.JOLT_BENDING) {
            List<DroopRow> rows = new ArrayList<>();
            for (float b : RIGIDITIES) {
                rows.add(DroopBench.joltRow(STRIP, type, b, PeersBench.DEFAULT_JOLT_ITERATIONS));
            }
            for (int i = 0; i < rows.size(); i++) {
                DroopRow r = rows.get(i);
                assertThat(r.result().settled()).as(r.setting() + ": tip speed " + r.result().tipSpeed()).isTrue();
                assertThat(r.result().tipDrop()).as(r.setting()).isBetween(0.0, 1.01 * STRIP.overhang());
                if (i > 0) {
                    // 2·10⁻⁵ m: what a settled tip may still move in a frame (WeftDroopTest)
                    assertThat(r.result().tipDrop()).as(r.setting()).isLessThanOrEqualTo(
                            rows.get(i - 1).result().tipDrop() + 2e-5);
                }
            }
            assertThat(rows.get(rows.size() - 1).result().tipDrop()).as(type + ": stiffest against limpest")
                    .isLessThan(rows.get(0).result().tipDrop() - 0.005);
        }
    }
}
