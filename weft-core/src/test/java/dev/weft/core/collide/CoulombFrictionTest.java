package dev.weft.core.collide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Coulomb's law as one rule: the tangential correction is at most μ times the normal one. */
class CoulombFrictionTest {
    @Test
    void slipInsideTheStaticConeIsRemovedEntirely() {
        // push 2 mm, μ_s = 0.5: up to 1 mm of slip sticks
        assertThat(CoulombFriction.removedShare(0.0009f, 0.002f, 0.5f, 0.3f, 1f)).isEqualTo(1f);
        assertThat(CoulombFriction.removedShare(0.001f, 0.002f, 0.5f, 0.3f, 1f)).isEqualTo(1f);
        assertThat(CoulombFriction.removedShare(9e-4, 2e-3, 0.5, 0.3)).isEqualTo(1.0);
    }

    @Test
    void slipBeyondItIsShortenedByTheKineticCoefficientTimesThePush() {
        float slip = 0.004f;
        float push = 0.002f;
        float removed = slip * CoulombFriction.removedShare(slip, push, 0.5f, 0.3f, 1f);
        assertThat(removed).isCloseTo(0.3f * push, within(1e-9f)); // μ_k · push of length, 0.6 mm
        double removedD = 4e-3 * CoulombFriction.removedShare(4e-3, 2e-3, 0.5, 0.3);
        assertThat(removedD).isCloseTo(0.3 * 2e-3, within(1e-15));
        // frictionless removes nothing
        assertThat(CoulombFriction.removedShare(slip, push, 0f, 0f, 1f)).isZero();
    }

    @Test
    void aParticleTakingAShareOfThePairsCorrectionRemovesAtMostItsShare() {
        // half of a pair's correction: static up to its share of the slip, and never more than half
        assertThat(CoulombFriction.removedShare(0.001f, 0.002f, 0.5f, 0.3f, 0.5f)).isEqualTo(0.5f);
        float kinetic = CoulombFriction.removedShare(0.01f, 0.002f, 0.5f, 0.3f, 0.5f);
        assertThat(kinetic * 0.01f).isCloseTo(0.3f * 0.002f, within(1e-9f));
        assertThat(kinetic).isLessThanOrEqualTo(0.5f);
        // just past the static cone the kinetic share is still capped at the particle's share
        assertThat(CoulombFriction.removedShare(0.0041f, 0.002f, 0.5f, 0.5f, 0.5f)).isLessThanOrEqualTo(0.5f);
    }
}
