package dev.weft.bench;

/** Steps an engine through a {@link DroopStrip}'s {@link DroopStrip#FRAMES} frames and measures its tip. */
public final class DroopRun {
    private DroopRun() {
    }

    public static DroopResult run(ClothEngine engine, DroopStrip strip) {
        float[] before = new float[3 * strip.vertexCount()];
        float[] after = new float[before.length];
        for (int f = 0; f < DroopStrip.FRAMES - 1; f++) {
            engine.advanceFrame();
        }
        engine.readPositions(before);
        engine.advanceFrame();
        engine.readPositions(after);
        double depth = 0;
        double fastest = 0;
        int first = strip.firstTipVertex();
        for (int i = first; i < strip.vertexCount(); i++) {
            depth -= after[3 * i + 1];
            double dx = after[3 * i] - before[3 * i];
            double dy = after[3 * i + 1] - before[3 * i + 1];
            double dz = after[3 * i + 2] - before[3 * i + 2];
            fastest = Math.max(fastest, Math.sqrt(dx * dx + dy * dy + dz * dz) / strip.frameDt());
            if (!Float.isFinite(after[3 * i]) || !Float.isFinite(after[3 * i + 1]) || !Float.isFinite(after[3 * i + 2])) {
                throw new IllegalStateException(engine.label() + ": the strip's tip is not finite");
            }
        }
        return new DroopResult(depth / strip.width(), fastest);
    }
}
