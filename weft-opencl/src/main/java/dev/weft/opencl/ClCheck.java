package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.CL_SUCCESS;

/** Turns OpenCL's status codes into exceptions that say which call failed and with what code. */
final class ClCheck {
    private ClCheck() {
    }

    /** Throws when {@code status} is not CL_SUCCESS. */
    static void ok(int status, String call) {
        if (status != CL_SUCCESS) {
            throw new IllegalStateException("OpenCL " + call + " failed: " + ClStatus.name(status) + " (" + status + ")");
        }
    }
}
