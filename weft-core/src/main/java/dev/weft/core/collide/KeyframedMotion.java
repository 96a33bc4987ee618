package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * A body following keyframed poses: translation interpolated linearly and rotation spherically
 * between consecutive keys; before the first key and after the last it holds that key's pose.
 */
public final class KeyframedMotion implements Motion {
    private final double[] times;
    /** 7 numbers per key: translation, then quaternion (w, x, y, z). */
    private final float[] poses;

    /**
     * @param times        key times in seconds, strictly increasing
     * @param translations 3 numbers per key
     * @param rotations    4 numbers (w, x, y, z) per key, normalised here
     */
    public KeyframedMotion(double[] times, float[] translations, float[] rotations) {
        if (times == null || times.length == 0) {
            throw new InvalidInputException("keyframes.times", "must hold at least one key time");
        }
        int n = times.length;
        if (translations == null || translations.length != 3 * n) {
            throw new InvalidInputException("keyframes.translations", "must hold 3 numbers per key (" + 3 * n + ")");
        }
        if (rotations == null || rotations.length != 4 * n) {
            throw new InvalidInputException("keyframes.rotations", "must hold 4 numbers (w, x, y, z) per key ("
                    + 4 * n + ")");
        }
        this.times = times.clone();
        poses = new float[7 * n];
        for (int k = 0; k < n; k++) {
            if (!Double.isFinite(times[k]) || (k > 0 && !(times[k] > times[k - 1]))) {
                throw new InvalidInputException("keyframes.times[" + k + "]",
                        "must be finite and greater than the previous key time, got " + times[k]);
            }
            for (int c = 0; c < 3; c++) {
                poses[7 * k + c] = Check.finite("keyframes.translations[" + (3 * k + c) + "]", translations[3 * k + c]);
            }
            float[] q = Quaternions.normalized("keyframes.rotations[" + k + "]",
                    new float[] {rotations[4 * k], rotations[4 * k + 1], rotations[4 * k + 2], rotations[4 * k + 3]});
            System.arraycopy(q, 0, poses, 7 * k + 3, 4);
        }
    }

    @Override
    public void poseAt(double time, float[] pose) {
        int n = times.length;
        if (n == 1 || time <= times[0]) {
            System.arraycopy(poses, 0, pose, 0, 7);
            return;
        }
        if (time >= times[n - 1]) {
            System.arraycopy(poses, 7 * (n - 1), pose, 0, 7);
            return;
        }
        int k = 0;
        while (times[k + 1] < time) {
            k++;
        }
        float s = (float) ((time - times[k]) / (times[k + 1] - times[k]));
        int a = 7 * k;
        int b = a + 7;
        for (int c = 0; c < 3; c++) {
            pose[c] = poses[a + c] + s * (poses[b + c] - poses[a + c]);
        }
        Quaternions.slerp(poses, a + 3, poses, b + 3, s, pose, 3);
    }
}
