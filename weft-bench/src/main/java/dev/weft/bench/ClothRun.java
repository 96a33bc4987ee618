package dev.weft.bench;

import java.util.Arrays;

/**
 * Runs one engine through the scene's {@link ClothScene#FRAMES} frames, timing each frame alone (reading
 * the positions and measuring the strain are outside the timed part) and measuring the strain at the end
 * and over the last second.
 */
public final class ClothRun {
    private ClothRun() {
    }

    /** @param warmupFrames the first frames, left out of the median frame time (JIT, caches, pool start) */
    public static RunResult run(ClothEngine engine, ClothScene scene, int warmupFrames) {
        if (warmupFrames < 0 || warmupFrames >= ClothScene.FRAMES) {
            throw new IllegalArgumentException("warm-up frames must be 0 to " + (ClothScene.FRAMES - 1) + ", got "
                    + warmupFrames);
        }
        GridStrain strain = new GridStrain(scene.restPositions(), scene.n());
        float[] xyz = new float[3 * scene.vertexCount()];
        double[] ms = new double[ClothScene.FRAMES];
        int lastSecond = ClothScene.FRAMES - scene.lastSecondFrames();
        double peak = 0;
        double last = 0;
        for (int f = 0; f < ClothScene.FRAMES; f++) {
            long t0 = System.nanoTime();
            engine.advanceFrame();
            ms[f] = (System.nanoTime() - t0) / 1e6;
            if (f >= lastSecond) {
                engine.readPositions(xyz);
                last = strain.max(xyz);
                peak = Math.max(peak, last);
            }
        }
        double total = Arrays.stream(ms).sum();
        double[] timed = Arrays.copyOfRange(ms, warmupFrames, ms.length);
        return new RunResult(median(timed), total / ClothScene.FRAMES, last, peak);
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
    }
}
