package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.CL_DEVICE_SINGLE_FP_CONFIG;
import static org.lwjgl.opencl.CL10.CL_MEM_ALLOC_HOST_PTR;
import static org.lwjgl.opencl.CL10.CL_MEM_COPY_HOST_PTR;
import static org.lwjgl.opencl.CL10.CL_MEM_READ_ONLY;
import static org.lwjgl.opencl.CL10.CL_MEM_READ_WRITE;
import static org.lwjgl.opencl.CL10.clCreateBuffer;
import static org.lwjgl.opencl.CL10.clReleaseMemObject;
import static org.lwjgl.opencl.CL10.CL_PROGRAM_BUILD_LOG;
import static org.lwjgl.opencl.CL10.CL_SUCCESS;
import static org.lwjgl.opencl.CL10.clBuildProgram;
import static org.lwjgl.opencl.CL10.clCreateCommandQueue;
import static org.lwjgl.opencl.CL10.clCreateContext;
import static org.lwjgl.opencl.CL10.clCreateKernel;
import static org.lwjgl.opencl.CL10.clCreateProgramWithSource;
import static org.lwjgl.opencl.CL10.clGetProgramBuildInfo;
import static org.lwjgl.opencl.CL10.clReleaseCommandQueue;
import static org.lwjgl.opencl.CL10.clReleaseContext;
import static org.lwjgl.opencl.CL10.clReleaseKernel;
import static org.lwjgl.opencl.CL10.clReleaseProgram;
import static org.lwjgl.opencl.CL10.CL_CONTEXT_PLATFORM;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * A context and an in-order command queue on one device, and the programs built for it from the
 * {@code .cl} resources beside this class. Releases everything it made when closed.
 */
public final class OpenClContext implements AutoCloseable {
    /** CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT (OpenCL 1.2) in CL_DEVICE_SINGLE_FP_CONFIG. */
    private static final long CORRECTLY_ROUNDED_DIVIDE_SQRT = 1L << 7;

    /** The sources {@link #buildSolver} puts before a solver's kernels. */
    private static final String SHARED_SOURCES = "cpu_rounding.cl+colliders.cl+position_step.cl+";

    private final OpenClDevice device;
    private final long context;
    private final long queue;
    private final List<Long> programs = new ArrayList<>();
    private final List<Long> kernels = new ArrayList<>();
    /** Bytes written from the host into this context's buffers so far (what an edit's upload costs is measured so). */
    private long bytesWritten;

    public OpenClContext(OpenClDevice device) {
        this.device = device;
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer status = stack.mallocInt(1);
            PointerBuffer properties = stack.mallocPointer(3).put(CL_CONTEXT_PLATFORM).put(device.platformId()).put(0)
                    .flip();
            context = clCreateContext(properties, device.deviceId(), null, 0L, status);
            ClCheck.ok(status.get(0), "clCreateContext on " + device.deviceName());
            queue = clCreateCommandQueue(context, device.deviceId(), 0L, status);
            if (status.get(0) != CL_SUCCESS) {
                clReleaseContext(context);
                ClCheck.ok(status.get(0), "clCreateCommandQueue on " + device.deviceName());
            }
        }
    }

    public OpenClDevice device() {
        return device;
    }

    /** The cl_context handle. */
    public long context() {
        return context;
    }

    /** The cl_command_queue handle (in order: each command sees the previous ones' writes). */
    public long queue() {
        return queue;
    }

    /**
     * Builds the resource {@code dev/weft/opencl/<name>} with these preprocessor definitions (e.g.
     * "-D WEFT_FP64") plus, where the device has it, correctly rounded single-precision division and square
     * root (OpenCL's default allows 2.5 and 3 ulp; the CPU solver's are correctly rounded). Returns the
     * cl_program; a compile error is an exception holding the build log.
     */
    public long build(String name, String defines) {
        String options = defines;
        if ((OpenClDevices.deviceLong(device.deviceId(), CL_DEVICE_SINGLE_FP_CONFIG) & CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0) {
            options += " -cl-fp32-correctly-rounded-divide-sqrt";
        }
        return buildRelaxed(name, options);
    }

    /**
     * As {@link #build}, with {@code name} preceded by the sources every solver's kernels share: {@code
     * cpu_rounding.cl} (the float rules), {@code colliders.cl} and {@code position_step.cl} (the finish).
     */
    public long buildSolver(String name, String defines) {
        return build(SHARED_SOURCES + name, defines);
    }

    /** As {@link #buildSolver} with exactly these options (see {@link #buildRelaxed}). */
    long buildSolverRelaxed(String name, String options) {
        return buildRelaxed(SHARED_SOURCES + name, options);
    }

    /**
     * As {@link #build} with exactly these options: OpenCL's default rounding of division and square root.
     * {@code names}: one resource, or several joined by {@code +}, compiled as one source in that order.
     */
    long buildRelaxed(String name, String options) {
        StringBuilder joined = new StringBuilder();
        for (String part : name.split("\\+")) {
            joined.append(resource(part)).append('\n');
        }
        return buildSource(name, joined.toString(), options);
    }

    /** Builds {@code source} (named {@code name} in errors) with exactly these options; see {@link #buildRelaxed}. */
    long buildSource(String name, String source, String options) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer status = stack.mallocInt(1);
            long program = clCreateProgramWithSource(context, source, status);
            ClCheck.ok(status.get(0), "clCreateProgramWithSource(" + name + ")");
            programs.add(program);
            int built = clBuildProgram(program, device.deviceId(), options, null, 0L);
            if (built != CL_SUCCESS) {
                throw new IllegalStateException("OpenCL could not build " + name + " on " + device.deviceName() + " ("
                        + ClStatus.name(built) + "):\n" + buildLog(program));
            }
            return program;
        }
    }

    /** The kernel {@code name} of a program {@link #build} made; released with this context. */
    public long kernel(long program, String name) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer status = stack.mallocInt(1);
            long kernel = clCreateKernel(program, name, status);
            ClCheck.ok(status.get(0), "clCreateKernel(" + name + ")");
            kernels.add(kernel);
            return kernel;
        }
    }

    /** Bytes written from the host into this context's buffers since it was made (uploads and writes). */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** Counts {@code bytes} written from the host (each write into this context's buffers says so). */
    void countWritten(long bytes) {
        bytesWritten += bytes;
    }

    /** A read-only device buffer holding {@code data} (one element where it is empty: OpenCL has no empty buffer). */
    public long upload(int[] data) {
        countWritten(4L * data.length);
        int[] status = new int[1];
        long mem = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.length == 0 ? new int[1] : data,
                status);
        ClCheck.ok(status[0], "clCreateBuffer (" + 4L * data.length + " bytes)");
        return mem;
    }

    /** A read-only device buffer holding {@code data} (one element where it is empty). */
    public long upload(float[] data) {
        countWritten(4L * data.length);
        int[] status = new int[1];
        long mem = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                data.length == 0 ? new float[1] : data, status);
        ClCheck.ok(status[0], "clCreateBuffer (" + 4L * data.length + " bytes)");
        return mem;
    }

    /** A read-write device buffer of {@code bytes}, uninitialised. */
    public long buffer(long bytes) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer status = stack.mallocInt(1);
            long mem = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, status);
            ClCheck.ok(status.get(0), "clCreateBuffer (" + bytes + " bytes)");
            return mem;
        }
    }

    /**
     * A read-write buffer of {@code bytes} in host memory the driver allocates and page-locks
     * ({@code CL_MEM_ALLOC_HOST_PTR}): mapped, it is where large read-backs land (see {@link MirroredBuffer}).
     */
    long hostBuffer(long bytes) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer status = stack.mallocInt(1);
            long mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, status);
            ClCheck.ok(status.get(0), "clCreateBuffer, host memory (" + bytes + " bytes)");
            return mem;
        }
    }

    /** Releases a buffer {@link #upload} or {@link #buffer} made; 0 (none) is ignored. */
    public static void release(long mem) {
        if (mem != 0L) {
            clReleaseMemObject(mem);
        }
    }

    /** {@link #release} of each (when a model's buffers go: not in a step). */
    static void releaseAll(long... mems) {
        for (long mem : mems) {
            release(mem);
        }
    }

    private String buildLog(long program) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            PointerBuffer size = stack.mallocPointer(1);
            clGetProgramBuildInfo(program, device.deviceId(), CL_PROGRAM_BUILD_LOG, (ByteBuffer) null, size);
            ByteBuffer log = MemoryUtil.memAlloc((int) Math.max(1, size.get(0)));
            try {
                clGetProgramBuildInfo(program, device.deviceId(), CL_PROGRAM_BUILD_LOG, log, null);
                return MemoryUtil.memASCII(log, Math.max(0, log.capacity() - 1));
            } finally {
                MemoryUtil.memFree(log);
            }
        }
    }

    static String resource(String name) {
        try (InputStream in = OpenClContext.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("kernel source dev/weft/opencl/" + name + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read kernel source " + name, e);
        }
    }

    @Override
    public void close() {
        for (long k : kernels) {
            clReleaseKernel(k);
        }
        kernels.clear();
        for (long p : programs) {
            clReleaseProgram(p);
        }
        programs.clear();
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
}
