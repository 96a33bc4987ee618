package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueWriteBuffer;
import static org.lwjgl.opencl.CL10.clSetKernelArg1d;
import static org.lwjgl.opencl.CL10.clSetKernelArg1f;

/**
 * Device buffers and kernel arguments of the kernels' {@code real_t}: double where the device has fp64 and
 * the program was built with {@code WEFT_FP64} (the CPU solver's doubles), else float. The host side is
 * always double; values are rounded to float on the way in where the device holds floats.
 */
final class RealBuffers {
    private final OpenClContext cl;
    private final boolean fp64;
    /** The scratch of {@link #readInto} without fp64 (sized on first use; reads of one size, no allocation). */
    private float[] scratch = new float[0];

    RealBuffers(OpenClContext cl, boolean fp64) {
        this.cl = cl;
        this.fp64 = fp64;
    }

    /** A read-write buffer of {@code count} reals (at least one). */
    long buffer(long count) {
        return cl.buffer((fp64 ? 8L : 4L) * Math.max(1L, count));
    }

    /** Blocking write of {@code data} into {@code mem}. */
    void write(long mem, double[] data) {
        if (fp64) {
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), mem, true, 0L, data, null, null), "write doubles");
            return;
        }
        float[] f = new float[data.length];
        for (int k = 0; k < f.length; k++) {
            f[k] = (float) data[k];
        }
        ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), mem, true, 0L, f, null, null), "write floats");
    }

    /** Blocking read of {@code out.length} reals into {@code out}. */
    void readInto(long mem, double[] out) {
        if (fp64) {
            ClCheck.ok(clEnqueueReadBuffer(cl.queue(), mem, true, 0L, out, null, null), "read doubles");
            return;
        }
        if (scratch.length != out.length) {
            scratch = new float[out.length];
        }
        ClCheck.ok(clEnqueueReadBuffer(cl.queue(), mem, true, 0L, scratch, null, null), "read floats");
        for (int k = 0; k < out.length; k++) {
            out[k] = scratch[k];
        }
    }

    /** {@code count} reals of {@code mem}, in a new array (failure paths and state saves, not steps). */
    double[] read(long mem, int count) {
        double[] out = new double[count];
        if (fp64) {
            ClCheck.ok(clEnqueueReadBuffer(cl.queue(), mem, true, 0L, out, null, null), "read doubles");
        } else {
            float[] f = new float[count];
            ClCheck.ok(clEnqueueReadBuffer(cl.queue(), mem, true, 0L, f, null, null), "read floats");
            for (int k = 0; k < count; k++) {
                out[k] = f[k];
            }
        }
        return out;
    }

    /** Kernel argument {@code index} of {@code kernel}, a real. */
    void setArg(long kernel, int index, double value) {
        int status = fp64 ? clSetKernelArg1d(kernel, index, value) : clSetKernelArg1f(kernel, index, (float) value);
        ClCheck.ok(status, "real argument " + index);
    }
}
