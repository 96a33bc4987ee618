package dev.weft.opencl;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The tests' way to a device: the one the system property {@code weft.opencl.device} numbers (as
 * {@code weft devices} does), else the preferred one (the first GPU, else the first device), or the test
 * is skipped saying why there is none.
 */
final class OpenClAvailable {
    private OpenClAvailable() {
    }

    static OpenClDevice firstDevice() {
        String reason = OpenClDevices.unavailableReason();
        assumeTrue(reason == null, () -> "skipped: no OpenCL device here (" + reason + ")");
        String index = System.getProperty("weft.opencl.device");
        return OpenClDevices.pick(index == null ? OpenClDevices.PREFERRED : Integer.parseInt(index.trim()));
    }

    /** PoCL (OpenCL on the CPU), where the kernels must give the CPU's bits. */
    static boolean isPocl(OpenClDevice device) {
        return device.platformName().contains("Portable Computing Language");
    }
}
