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

    /**
     * The solvers' steady state: positions read back after a step and synced before the next upload nothing; a
     * host edit after the read (a drag, a reset; here one value, and a 0 made −0, a different float) uploads
     * that span and the device holds it; then an int sync and a float sync again keep the contents true.
     */
    @Test
    void aReadBackStateSyncsForFreeAndAHostEditAfterItIsUploaded() {
        readBackThenEdit(30_000);
    }

    /** The same through the page-locked read-back buffer, which a state this large is read through. */
    @Test
    void aLargeStateReadThroughPageLockedMemoryIsTheDevicesToo() {
        assertThat(MirroredBuffer.PINNED_MIN).isLessThan(200_000);
        readBackThenEdit(200_000);
    }

    private static void readBackThenEdit(int length) {
        OpenClDevice device = OpenClAvailable.firstDevice();
        try (OpenClContext cl = new OpenClContext(device);
             MirroredBuffer x = new MirroredBuffer(cl, "positions", false)) {
            float[] state = new float[length];
            for (int k = 0; k < state.length; k++) {
                state[k] = 0.001f * k;
            }
            float[] original = state.clone();
            x.sync(state);
            for (int step = 0; step < 3; step++) {
                x.read(state);
                assertThat(state).as("step %d: read back as written", step).isEqualTo(original);
                long before = cl.bytesWritten();
                x.sync(state);
                assertThat(cl.bytesWritten() - before).as("step %d: nothing changed, nothing written", step).isZero();
            }
            x.read(state);
            state[12_345] = 42f;
            state[0] = -0f;
            long before = cl.bytesWritten();
            x.sync(state);
            long written = cl.bytesWritten() - before;
            assertThat(written).as("the two edits' spans").isPositive().isLessThanOrEqualTo(4L * 2 * (MirroredBuffer.GAP + 1));
            float[] held = readBack(x, state.length);
            assertThat(Float.floatToRawIntBits(held[0])).isEqualTo(Float.floatToRawIntBits(-0f));
            assertThat(held).isEqualTo(state);
            int[] bits = new int[state.length];
            for (int k = 0; k < bits.length; k++) {
                bits[k] = Float.floatToRawIntBits(state[k]) ^ (k == 7 ? 1 : 0);
            }
            x.sync(bits);
            float[] afterInts = readBack(x, state.length);
            assertThat(Float.floatToRawIntBits(afterInts[7])).isEqualTo(bits[7]);
            state[7] = afterInts[7];
            assertThat(afterInts).isEqualTo(state);
            state[length - 1] = -1f;
            x.sync(state);
            assertThat(readBack(x, state.length)).isEqualTo(state);
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
