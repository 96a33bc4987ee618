package dev.weft.opencl;

/** Names of OpenCL's status codes (cl.h), for messages. */
final class ClStatus {
    private static final String[] NAMES = {
        "CL_SUCCESS", "CL_DEVICE_NOT_FOUND", "CL_DEVICE_NOT_AVAILABLE", "CL_COMPILER_NOT_AVAILABLE",
        "CL_MEM_OBJECT_ALLOCATION_FAILURE", "CL_OUT_OF_RESOURCES", "CL_OUT_OF_HOST_MEMORY",
        "CL_PROFILING_INFO_NOT_AVAILABLE", "CL_MEM_COPY_OVERLAP", "CL_IMAGE_FORMAT_MISMATCH",
        "CL_IMAGE_FORMAT_NOT_SUPPORTED", "CL_BUILD_PROGRAM_FAILURE", "CL_MAP_FAILURE",
    };

    private ClStatus() {
    }

    static String name(int status) {
        if (status <= 0 && -status < NAMES.length) {
            return NAMES[-status];
        }
        switch (status) {
            case -30: return "CL_INVALID_VALUE";
            case -33: return "CL_INVALID_DEVICE";
            case -34: return "CL_INVALID_CONTEXT";
            case -36: return "CL_INVALID_COMMAND_QUEUE";
            case -38: return "CL_INVALID_MEM_OBJECT";
            case -44: return "CL_INVALID_PROGRAM";
            case -45: return "CL_INVALID_PROGRAM_EXECUTABLE";
            case -46: return "CL_INVALID_KERNEL_NAME";
            case -48: return "CL_INVALID_KERNEL";
            case -49: return "CL_INVALID_ARG_INDEX";
            case -50: return "CL_INVALID_ARG_VALUE";
            case -51: return "CL_INVALID_ARG_SIZE";
            case -52: return "CL_INVALID_KERNEL_ARGS";
            case -54: return "CL_INVALID_WORK_GROUP_SIZE";
            case -61: return "CL_INVALID_BUFFER_SIZE";
            case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
            default: return "status";
        }
    }
}
