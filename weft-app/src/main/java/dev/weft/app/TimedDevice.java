package dev.weft.app;

import dev.weft.opencl.OpenClDevice;
import dev.weft.opencl.OpenClDevices;
import dev.weft.opencl.OpenClUnavailableException;

/**
 * The OpenCL device a device table times, or why there is none: a table without OpenCL still has its
 * CPU rows and says in its header what is missing.
 *
 * @param device  the device, or null
 * @param missing why there is none, or null
 */
record TimedDevice(OpenClDevice device, String missing) {
    /** Device {@code index} ({@link OpenClDevices#PREFERRED}: the first GPU, else device 0), or the reason. */
    static TimedDevice pick(int index) {
        try {
            return new TimedDevice(OpenClDevices.pick(index), null);
        } catch (OpenClUnavailableException e) {
            return new TimedDevice(null, e.getMessage());
        }
    }

    /** The header's line: the device, or "not measured: why". */
    String describe() {
        return device != null ? device.describe() : "not measured: " + missing;
    }
}
