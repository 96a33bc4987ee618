package dev.weft.app;

import java.util.Arrays;

/**
 * The device tables' timing loop: a call that advances some steps is repeated untimed until the code is
 * compiled and the cloth is moving, then timed in samples long enough that a fast call is not timed one
 * at a time; the rate is the samples' median (this machine is shared and noisy).
 */
final class StepRate {
    /** Calls capped per sample, so that a call of a few microseconds still ends. */
    private static final int MAX_CALLS = 100_000;

    private StepRate() {
    }

    /**
     * Median steps per second of {@code call}, which advances {@code stepsPerCall} steps: first at least
     * {@code settleCalls} calls and {@code settleSeconds} untimed, then {@code warmup} untimed and
     * {@code samples} timed batches of as many calls as fill {@code sampleSeconds} (at least one).
     */
    static double median(Runnable call, int stepsPerCall, int settleCalls, double settleSeconds, double sampleSeconds,
                         int warmup, int samples) {
        long t0 = System.nanoTime();
        int settled = 0;
        do {
            call.run();
            settled++;
        } while (settled < settleCalls || System.nanoTime() - t0 < settleSeconds * 1e9);
        double perCall = (System.nanoTime() - t0) / 1e9 / settled;
        int calls = (int) Math.max(1, Math.min(MAX_CALLS, Math.ceil(sampleSeconds / perCall)));
        double[] rates = new double[samples];
        for (int s = 0; s < warmup + samples; s++) {
            long start = System.nanoTime();
            for (int c = 0; c < calls; c++) {
                call.run();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (s >= warmup) {
                rates[s - warmup] = (double) calls * stepsPerCall / seconds;
            }
        }
        Arrays.sort(rates);
        return rates[samples / 2];
    }
}
