package dev.weft.bench;

/**
 * Where a {@link DroopStrip} came to rest.
 *
 * @param tipDrop  the tip row's mean depth below the pinned plane y = 0, m
 * @param tipSpeed the fastest tip vertex over the last frame, m/s
 */
public record DroopResult(double tipDrop, double tipSpeed) {
    public boolean settled() {
        return tipSpeed < DroopStrip.SETTLED_TIP_SPEED;
    }
}
