package dev.weft.opencl;

/**
 * OpenCL cannot be used here: no ICD loader ({@code libOpenCL.so.1}), no platform (driver) behind it, no
 * device, or no device of the index asked for. The message says what to install; the command line shows
 * it as it is, without a stack trace.
 */
public final class OpenClUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What to install on Debian / Ubuntu to run OpenCL on the CPU, or where a GPU's runtime comes from. */
    public static final String INSTALL_HINT = "to run OpenCL on the CPU install PoCL and the ICD loader "
            + "(Debian/Ubuntu: apt-get install pocl-opencl-icd ocl-icd-libopencl1); on an NVIDIA, AMD or Intel GPU "
            + "install its vendor's OpenCL driver";

    public OpenClUnavailableException(String message) {
        super(message + "; " + INSTALL_HINT);
    }

    public OpenClUnavailableException(String message, Throwable cause) {
        super(message + "; " + INSTALL_HINT, cause);
    }
}
