package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.CL_DEVICE_EXTENSIONS;
import static org.lwjgl.opencl.CL10.CL_DEVICE_GLOBAL_MEM_SIZE;
import static org.lwjgl.opencl.CL10.CL_DEVICE_MAX_COMPUTE_UNITS;
import static org.lwjgl.opencl.CL10.CL_DEVICE_NAME;
import static org.lwjgl.opencl.CL10.CL_DEVICE_NOT_FOUND;
import static org.lwjgl.opencl.CL10.CL_DEVICE_TYPE;
import static org.lwjgl.opencl.CL10.CL_DEVICE_TYPE_ACCELERATOR;
import static org.lwjgl.opencl.CL10.CL_DEVICE_TYPE_ALL;
import static org.lwjgl.opencl.CL10.CL_DEVICE_TYPE_CPU;
import static org.lwjgl.opencl.CL10.CL_DEVICE_TYPE_GPU;
import static org.lwjgl.opencl.CL10.CL_DEVICE_VERSION;
import static org.lwjgl.opencl.CL10.CL_PLATFORM_NAME;
import static org.lwjgl.opencl.CL10.CL_SUCCESS;
import static org.lwjgl.opencl.CL10.clGetDeviceIDs;
import static org.lwjgl.opencl.CL10.clGetDeviceInfo;
import static org.lwjgl.opencl.CL10.clGetPlatformIDs;
import static org.lwjgl.opencl.CL10.clGetPlatformInfo;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import org.lwjgl.PointerBuffer;
import org.lwjgl.opencl.CL;
import org.lwjgl.system.Configuration;
import org.lwjgl.system.Platform;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * The OpenCL platforms and devices of this machine. Every way OpenCL can be missing (no ICD loader
 * library, no platform registered with it, no device) is an {@link OpenClUnavailableException} that says
 * what to install, never a linkage error.
 */
public final class OpenClDevices {
    /** clGetPlatformIDs' answer when the ICD loader finds no platform (cl_khr_icd). */
    private static final int CL_PLATFORM_NOT_FOUND_KHR = -1001;

    private static boolean runtimeLoaded;
    private static Throwable runtimeFailure;

    private OpenClDevices() {
    }

    /** Every device of every platform, numbered in that order; throws when there is no runtime or no device. */
    public static List<OpenClDevice> list() {
        loadRuntime();
        List<OpenClDevice> devices = new ArrayList<>();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer count = stack.mallocInt(1);
            int status = clGetPlatformIDs(null, count);
            if (status == CL_PLATFORM_NOT_FOUND_KHR || (status == CL_SUCCESS && count.get(0) == 0)) {
                throw new OpenClUnavailableException("no OpenCL platform is installed (the ICD loader found no "
                        + "driver in /etc/OpenCL/vendors)");
            }
            ClCheck.ok(status, "clGetPlatformIDs");
            PointerBuffer platforms = stack.mallocPointer(count.get(0));
            ClCheck.ok(clGetPlatformIDs(platforms, (IntBuffer) null), "clGetPlatformIDs");
            for (int p = 0; p < platforms.capacity(); p++) {
                long platform = platforms.get(p);
                String platformName = platformString(platform, CL_PLATFORM_NAME);
                IntBuffer deviceCount = stack.mallocInt(1);
                status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, null, deviceCount);
                if (status == CL_DEVICE_NOT_FOUND) {
                    continue;
                }
                ClCheck.ok(status, "clGetDeviceIDs");
                PointerBuffer ids = stack.mallocPointer(deviceCount.get(0));
                ClCheck.ok(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, ids, (IntBuffer) null), "clGetDeviceIDs");
                for (int d = 0; d < ids.capacity(); d++) {
                    long device = ids.get(d);
                    devices.add(new OpenClDevice(devices.size(), platformName, deviceString(device, CL_DEVICE_NAME),
                            typeName(deviceLong(device, CL_DEVICE_TYPE)), deviceString(device, CL_DEVICE_VERSION),
                            deviceLong(device, CL_DEVICE_GLOBAL_MEM_SIZE), deviceInt(device, CL_DEVICE_MAX_COMPUTE_UNITS),
                            (" " + deviceString(device, CL_DEVICE_EXTENSIONS) + " ").contains(" cl_khr_fp64 "),
                            platform, device));
                }
            }
        }
        if (devices.isEmpty()) {
            throw new OpenClUnavailableException("OpenCL platforms are installed but none has a device");
        }
        return devices;
    }

    /**
     * What {@code opencl} without a number means to {@link #pick}: the first GPU or accelerator, else the
     * first device. A machine with a GPU often has PoCL too, listed first; its user means the GPU.
     */
    public static final int PREFERRED = -2;

    /**
     * Device {@code index} of {@link #list()}, or the {@link #PREFERRED} one; an index beyond the list is an
     * error listing what there is.
     */
    public static OpenClDevice pick(int index) {
        List<OpenClDevice> devices = list();
        if (index == PREFERRED) {
            for (OpenClDevice d : devices) {
                if (d.type().equals("GPU") || d.type().equals("ACCELERATOR")) {
                    return d;
                }
            }
            return devices.get(0);
        }
        if (index < 0 || index >= devices.size()) {
            StringBuilder names = new StringBuilder();
            for (OpenClDevice d : devices) {
                names.append(names.length() == 0 ? "" : "; ").append(d.index()).append(": ").append(d.deviceName());
            }
            throw new dev.weft.core.InvalidInputException("OpenCL device", "there is no device " + index + "; this "
                    + "machine has " + devices.size() + " (" + names + "; `weft devices` lists them)");
        }
        return devices.get(index);
    }

    /** Null when OpenCL is usable here, else why not (for tests that skip and for messages). */
    public static String unavailableReason() {
        try {
            list();
            return null;
        } catch (OpenClUnavailableException e) {
            return e.getMessage();
        }
    }

    /**
     * Loads the ICD loader through LWJGL, turning its absence into an error that says what to install.
     * LWJGL looks for {@code libOpenCL.so}, which only the loader's development package provides; on Linux
     * the runtime package's {@code libOpenCL.so.1} (every ICD loader's soname) is tried first.
     */
    private static synchronized void loadRuntime() {
        if (runtimeLoaded) {
            return;
        }
        if (runtimeFailure != null) {
            throw unavailable(runtimeFailure);
        }
        SignalChaining.warnIfMissing();
        Configuration.OPENCL_EXPLICIT_INIT.set(true);
        try {
            if (Platform.get() == Platform.LINUX) {
                try {
                    CL.create("libOpenCL.so.1");
                } catch (LinkageError | IllegalStateException first) {
                    CL.create();
                }
            } else {
                CL.create();
            }
            runtimeLoaded = true;
        } catch (LinkageError | IllegalStateException e) {
            runtimeFailure = e;
            throw unavailable(e);
        }
    }

    private static OpenClUnavailableException unavailable(Throwable e) {
        return new OpenClUnavailableException("no OpenCL runtime: the ICD loader libOpenCL.so.1 could not be loaded ("
                + e.getClass().getSimpleName() + (e.getMessage() != null ? ": " + e.getMessage() : "") + ")", e);
    }

    private static String typeName(long type) {
        if ((type & CL_DEVICE_TYPE_GPU) != 0) {
            return "GPU";
        }
        if ((type & CL_DEVICE_TYPE_CPU) != 0) {
            return "CPU";
        }
        if ((type & CL_DEVICE_TYPE_ACCELERATOR) != 0) {
            return "ACCELERATOR";
        }
        return "DEFAULT";
    }

    private static String platformString(long platform, int param) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            PointerBuffer size = stack.mallocPointer(1);
            ClCheck.ok(clGetPlatformInfo(platform, param, (ByteBuffer) null, size), "clGetPlatformInfo");
            ByteBuffer bytes = MemoryUtil.memAlloc((int) size.get(0));
            try {
                ClCheck.ok(clGetPlatformInfo(platform, param, bytes, null), "clGetPlatformInfo");
                return MemoryUtil.memASCII(bytes, bytes.capacity() - 1).trim();
            } finally {
                MemoryUtil.memFree(bytes);
            }
        }
    }

    static String deviceString(long device, int param) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            PointerBuffer size = stack.mallocPointer(1);
            ClCheck.ok(clGetDeviceInfo(device, param, (ByteBuffer) null, size), "clGetDeviceInfo");
            ByteBuffer bytes = MemoryUtil.memAlloc((int) size.get(0));
            try {
                ClCheck.ok(clGetDeviceInfo(device, param, bytes, null), "clGetDeviceInfo");
                return MemoryUtil.memASCII(bytes, bytes.capacity() - 1).trim();
            } finally {
                MemoryUtil.memFree(bytes);
            }
        }
    }

    static long deviceLong(long device, int param) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer value = stack.mallocLong(1);
            ClCheck.ok(clGetDeviceInfo(device, param, value, null), "clGetDeviceInfo");
            return value.get(0);
        }
    }

    static int deviceInt(long device, int param) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer value = stack.mallocInt(1);
            ClCheck.ok(clGetDeviceInfo(device, param, value, null), "clGetDeviceInfo");
            return value.get(0);
        }
    }
}
