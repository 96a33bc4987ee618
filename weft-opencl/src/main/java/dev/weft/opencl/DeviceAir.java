package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.clSetKernelArg1d;
import static org.lwjgl.opencl.CL10.clSetKernelArg1f;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;

import dev.weft.core.model.Incidence;
import dev.weft.core.model.Model;
import dev.weft.core.step.AeroForces;
import dev.weft.core.step.Environment;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * Wind and air drag ({@link AeroForces}) on the device for every OpenCL solver: {@code air.cl}'s two passes
 * (per triangle into its own slot, then per particle over the model's triangle incidence in its fixed order)
 * on the positions and velocities a step starts from, into a force buffer the solver's prediction reads.
 * With fp64 the kernels do AeroForces's double operations, so PoCL gives the CPU's bits; without, the same
 * in float.
 *
 * <p>As on the CPU, nothing is made until a step has air: the program is built and the model's triangles
 * uploaded on the first such step (a scene in still air pays neither), and the environment's wind, density
 * and drag are read at every step (wind may change between steps).
 */
final class DeviceAir {
    private final OpenClContext cl;
    private final boolean cpuRounding;
    private final boolean fp64;
    /** Forces as float (PositionStep's rounded force) or as the kernels' real (the implicit solver's F). */
    private final boolean floatForces;
    private long trianglesKernel;
    private long particlesKernel;
    private final PointerBuffer triangleWork = MemoryUtil.memAllocPointer(1);
    private final PointerBuffer particleWork = MemoryUtil.memAllocPointer(1);

    private Model model;
    /** Whether the device buffers hold {@link #model}'s triangles. */
    private boolean uploaded;
    private long trianglesMem;
    private long incidenceStartMem;
    private long incidenceTriangleMem;
    private long triangleForceMem;
    private long forceMem;

    /**
     * For a solver built with {@code cpuRounding} (else relaxed, as its own kernels), in double where
     * {@code fp64}, the forces as floats where {@code floatForces} (else in the precision of the kernels).
     */
    DeviceAir(OpenClContext cl, boolean cpuRounding, boolean fp64, boolean floatForces) {
        this.cl = cl;
        this.cpuRounding = cpuRounding;
        this.fp64 = fp64;
        this.floatForces = floatForces;
    }

    /** Forgets the bound model's buffers; {@code m}'s are made when a step of it first has air. */
    void bind(Model m) {
        release();
        model = m;
    }

    /**
     * The air's force on each particle (3 per particle: floats, or the kernels' reals) from the device's
     * positions {@code xMem} and velocities {@code vMem}, enqueued; returns the force buffer, or 0 (a null
     * buffer argument: the kernels add nothing) when {@code env} has no air.
     */
    long compute(Environment env, long xMem, long vMem) {
        if (!env.hasAir()) {
            return 0L;
        }
        if (!uploaded) {
            upload();
        }
        // AeroForces.compute's scalars, in double on the host: ½ ρ C and the area ½ |cross| give ¼ ρ C
        setReal(4, env.windX());
        setReal(5, env.windY());
        setReal(6, env.windZ());
        setReal(7, 0.25 * env.airDensity() * env.pressureDrag());
        setReal(8, 0.25 * env.airDensity() * env.frictionDrag());
        ClCheck.ok(clSetKernelArg1p(trianglesKernel, 2, xMem), "air_triangles argument 2");
        ClCheck.ok(clSetKernelArg1p(trianglesKernel, 3, vMem), "air_triangles argument 3");
        if (triangleWork.get(0) > 0) {
            ClCheck.ok(clEnqueueNDRangeKernel(cl.queue(), trianglesKernel, 1, null, triangleWork, null, null, null),
                    "air_triangles");
        }
        ClCheck.ok(clEnqueueNDRangeKernel(cl.queue(), particlesKernel, 1, null, particleWork, null, null, null),
                "air_particles");
        return forceMem;
    }

    /** The program (once) and the bound model's triangles, incidence and force buffers. */
    private void upload() {
        if (trianglesKernel == 0L) {
            String defines = (fp64 ? "-D WEFT_FP64" : "-cl-single-precision-constant")
                    + (floatForces ? " -D AIR_FLOAT_FORCES" : "");
            String sources = "cpu_rounding.cl+air.cl";
            long program = cpuRounding ? cl.build(sources, defines)
                    : cl.buildRelaxed(sources, OpenClSolver.RELAXED + " " + defines);
            trianglesKernel = cl.kernel(program, "air_triangles");
            particlesKernel = cl.kernel(program, "air_particles");
        }
        int n = model.particleCount();
        int t = model.triangleCount();
        Incidence incidence = model.triangleIncidence();
        long real = fp64 ? 8L : 4L;
        trianglesMem = cl.upload(model.triangles());
        incidenceStartMem = cl.upload(incidence.start());
        incidenceTriangleMem = cl.upload(incidence.items());
        triangleForceMem = cl.buffer(real * 3L * Math.max(1, t));
        forceMem = cl.buffer((floatForces ? 4L : real) * 3L * Math.max(1, n));
        ClCheck.ok(clSetKernelArg1i(trianglesKernel, 0, t), "air_triangles argument 0");
        OpenClSolver.bufferArgs(trianglesKernel, "air_triangles", 1, trianglesMem);
        OpenClSolver.bufferArgs(trianglesKernel, "air_triangles", 9, triangleForceMem);
        ClCheck.ok(clSetKernelArg1i(particlesKernel, 0, n), "air_particles argument 0");
        OpenClSolver.bufferArgs(particlesKernel, "air_particles", 1, incidenceStartMem, incidenceTriangleMem,
                triangleForceMem, forceMem);
        triangleWork.put(0, t);
        particleWork.put(0, n);
        uploaded = true;
    }

    /** Argument {@code index} of air_triangles, a real (accum_t). */
    private void setReal(int index, double value) {
        int status = fp64 ? clSetKernelArg1d(trianglesKernel, index, value)
                : clSetKernelArg1f(trianglesKernel, index, (float) value);
        if (status != 0) {
            ClCheck.ok(status, "air_triangles argument " + index);
        }
    }

    /** The bound model's device buffers let go (the next step with air makes them again). */
    void release() {
        OpenClContext.releaseAll(trianglesMem, incidenceStartMem, incidenceTriangleMem, triangleForceMem, forceMem);
        trianglesMem = incidenceStartMem = incidenceTriangleMem = triangleForceMem = forceMem = 0L;
        uploaded = false;
    }

    /** {@link #release}, and the launch sizes freed (the kernels go with the context). */
    void close() {
        release();
        model = null;
        MemoryUtil.memFree(triangleWork);
        MemoryUtil.memFree(particleWork);
    }
}
