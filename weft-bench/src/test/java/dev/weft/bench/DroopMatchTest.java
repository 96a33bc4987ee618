package dev.weft.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The log-log interpolation that reads a droop sweep backwards. */
class DroopMatchTest {
    private static DroopRow row(double stiffness, double drop) {
        return new DroopRow("weft", "dihedral", "test", stiffness, false, new DroopResult(drop, 0));
    }

    @Test
    void recoversAPowerLawExactlyBetweenSweepPoints() {
        // a small-deflection cantilever: drop = c / stiffness, a straight line in log-log
        List<DroopRow> sweep = List.of(row(1e-3, 1e-1), row(1e-2, 1e-2), row(1e-1, 1e-3), row(0, 0.2));
        assertThat(DroopMatch.stiffnessFor(sweep, 3e-2)).isCloseTo(1e-4 / 3e-2, within(1e-12));
        assertThat(DroopMatch.stiffnessFor(sweep, 1e-2)).isCloseTo(1e-2, within(1e-12));
    }

    @Test
    void aDropOutsideTheSweepHasNoMatch() {
        List<DroopRow> sweep = List.of(row(1e-3, 1e-1), row(1e-2, 1e-2));
        assertThat(DroopMatch.stiffnessFor(sweep, 0.5)).isNaN();
        assertThat(DroopMatch.stiffnessFor(sweep, 1e-3)).isNaN();
    }
}
