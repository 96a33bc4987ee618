package dev.weft.render.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * Real-time pacing on a simulated clock: the loop below is the viewer's simulating loop (elapse, step while
 * due, else sleep until due), with each frame's wall cost given by the test instead of measured.
 */
class FramePacerTest {
    private static final double DT = 1.0 / 60;
    private static final double WINDOW = 0.5;

    /** What a run of the loop did. */
    private record Run(double wall, double simulated, double slowdown, double mostOwed) {
    }

    /** Runs the loop for {@code wallSeconds} of clock at {@code speed}; frame i costs {@code cost(i)} wall seconds. */
    private static Run run(double wallSeconds, double speed, IntToDoubleFunction cost) {
        double now = 0;
        double last = 0;
        FramePacer pacer = new FramePacer(WINDOW, now);
        int frames = 0;
        double mostOwed = 0;
        while (now < wallSeconds) {
            pacer.elapse(now - last, speed, DT);
            last = now;
            mostOwed = Math.max(mostOwed, pacer.owed());
            if (!pacer.due(DT)) {
                now += pacer.secondsUntilDue(DT, speed) + 1e-6; // a sleep wakes a little late, never early
                continue;
            }
            now += cost.applyAsDouble(frames++);
            pacer.stepped(DT, now);
        }
        return new Run(now, frames * DT, pacer.slowdown(), mostOwed);
    }

    @Test
    void aSolverThatKeepsUpOnAverageLosesNoTimeToItsLateFrames() {
        // 12 ms a frame, and every 40th frame 45 ms (a collection, the other thread's busy moment): 2.7 frames late
        Run r = run(20, 1, i -> i % 40 == 39 ? 0.045 : 0.012);
        // all the time the clock asked for was simulated, but for at most the frame still owed at the end
        assertThat(r.simulated()).isCloseTo(r.wall(), within(2 * DT));
        assertThat(r.slowdown()).isEqualTo(1.0);
    }

    @Test
    void aSolverTwiceTooSlowRunsAtHalfSpeedAndOwesNoMoreThanTheBacklog() {
        Run r = run(20, 1, i -> 2 * DT);
        assertThat(r.wall() / r.simulated()).isCloseTo(2.0, within(0.01));
        assertThat(r.slowdown()).isCloseTo(2.0, within(0.01));
        // the debt stays bounded: a picture lags the clock by a few frames at most, not by a growing time
        assertThat(r.mostOwed()).isLessThanOrEqualTo(FramePacer.MAX_BACKLOG_FRAMES * DT + 1e-12);
    }

    @Test
    void slowMotionSimulatesTheAskedShareOfTheClock() {
        Run r = run(10, 0.25, i -> 0.004);
        assertThat(r.simulated()).isCloseTo(0.25 * r.wall(), within(2 * DT));
        assertThat(r.slowdown()).isEqualTo(1.0);
    }

    @Test
    void aFrameLateByMoreThanTheBacklogDropsOnlyTheExcess() {
        // one frame of 200 ms among 5 ms ones: 12 frames' worth asked, the backlog's 3 kept, the rest dropped
        Run r = run(5, 1, i -> i == 30 ? 0.2 : 0.005);
        double dropped = r.wall() - r.simulated();
        assertThat(dropped).isCloseTo(0.2 - FramePacer.MAX_BACKLOG_FRAMES * DT, within(2 * DT));
    }

    @Test
    void aRestartOwesNothing() {
        FramePacer pacer = new FramePacer(WINDOW, 0);
        pacer.elapse(0.04, 1, DT);
        assertThat(pacer.due(DT)).isTrue();
        pacer.restart(0.04);
        assertThat(pacer.owed()).isZero();
        assertThat(pacer.due(DT)).isFalse();
        assertThat(pacer.secondsUntilDue(DT, 1)).isCloseTo(DT, within(1e-12));
    }
}
