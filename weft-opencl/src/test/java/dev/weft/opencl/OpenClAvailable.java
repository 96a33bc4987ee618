package dev.weft.opencl;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The tests' way to a device: the first one, or the test is skipped saying why there is none. */
final class OpenClAvailable {
    private OpenClAvailable() {
    }

    static OpenClDevice firstDevice() {
        String reason = OpenClDevices.unavailableReason();
        assumeTrue(reason == null, () -> "skipped: no OpenCL device here (" + reason + ")");
        return OpenClDevices.list().get(0);
    }

    /** PoCL (OpenCL on the CPU), where the kernels must give the CPU's bits. */
    static boolean isPocl(OpenClDevice device) {
        return device.platformName().contains("Portable Computing Language");
    }
}
