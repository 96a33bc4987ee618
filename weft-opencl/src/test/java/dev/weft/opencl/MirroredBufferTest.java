package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link MirroredBuffer}: whatever the host array becomes (elements changed, inserted, removed, the array grown
 * past the buffer's capacity or shrunk), the device holds exactly it after a sync, read back bit for bit; and
 * what the sync writes from the host is what changed, not the array.
 */
class MirroredBufferTest {
    /** Changes per round: a value changed, inserted or removed. */
    private static final int CHANGES = 8;

    @Test
    void afterRandomEditsTheDeviceHoldsTheHostArrayAndOnlyTheChangesWereWritten() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Random random = new Random(7);
        try (OpenClContext cl = new OpenClContext(device);
             MirroredBuffer shifting = new MirroredBuffer(cl, "test", true);
             MirroredBuffer inPlace = new MirroredBuffer(cl, "test in place", false)) {
            float[] a = new float[20_000];
            for (int k = 0; k < a.length; k++) {
                a[k] = random.nextFloat();
            }
            shifting.sync(a);
            inPlace.sync(a);
            assertThat(readBack(shifting, a.length)).isEqualTo(a);
            for (int round = 0; round < 12; round++) {
                // a few inserts and removals (shifting the rest), a few changed values, every third round 3000
                // values appended (past the first capacity, 1.5 × 20000, by the ninth round)
                int appended = round % 3 == 0 ? 3000 : 0;
                float[] b = edit(a, random, CHANGES, appended);
                long before = cl.bytesWritten();
                shifting.sync(b);
                long shiftingBytes = cl.bytesWritten() - before;
                inPlace.sync(b);
                assertThat(readBack(shifting, b.length)).as("round " + round).isEqualTo(b);
                assertThat(readBack(inPlace, b.length)).as("round " + round).isEqualTo(b);
                // each change costs at most a coalescing gap and a run too short to move on either side of it
                long bound = appended + CHANGES * (MirroredBuffer.GAP + 2L * MirroredBuffer.MIN_MOVE + 1);
                assertThat(shiftingBytes).as("round " + round + ": the changes, not the array")
                        .isLessThanOrEqualTo(4L * bound)
                        .isLessThan(4L * b.length / 2);
                a = b;
            }
        }
    }

    /** {@code a} with {@code changes} random edits (a value changed, inserted or removed), then appended values. */
    private static float[] edit(float[] a, Random random, int changes, int appended) {
        float[] b = a.clone();
        int length = a.length;
        for (int c = 0; c < changes; c++) {
            int at = random.nextInt(length);
            switch (random.nextInt(3)) {
                case 0 -> b[at] = random.nextFloat();
                case 1 -> {
                    if (length == b.length) {
                        b = java.util.Arrays.copyOf(b, b.length + 64);
                    }
                    System.arraycopy(b, at, b, at + 1, length - at);
                    b[at] = random.nextFloat();
                    length++;
                }
                default -> {
                    System.arraycopy(b, at + 1, b, at, length - at - 1);
                    length--;
                }
            }
        }
        float[] out = java.util.Arrays.copyOf(b, length + appended);
        for (int k = length; k < out.length; k++) {
            out[k] = random.nextFloat();
        }
        return out;
    }

    private static float[] readBack(MirroredBuffer m, int length) {
        float[] out = new float[length];
        m.read(out);
        return out;
    }
}
