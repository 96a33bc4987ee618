package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clSetKernelArg1f;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;

import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Incidence;
import dev.weft.core.model.Model;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * Vertex–triangle contacts (weft-core's {@code VertexTriangleContacts}, on with {@code
 * ParticleContactSettings.vertexTriangle()}) on the device, in {@code vertex_triangle.cl}'s kernels, which do the
 * CPU's float operations in its order: {@link DeviceContacts} runs {@link #project} after its own sweeps, as
 * {@code ParticleContacts.project} does.
 *
 * <p>The triangle grid is binned by one work-item in the CPU's order (its counting sort is sequential too), and
 * the particles of each triangle are listed the same way; detection, the multipliers, the gathers and the
 * updates run per particle. The grid's entry count changes with the positions: each step reads it back (4 bytes,
 * one wait) and, where the entries outgrew their buffers, grows them and bins again. Everything else stays on
 * the device.
 */
final class DeviceVertexTriangles {
    private final OpenClContext cl;
    private final long binKernel;
    private final long detectKernel;
    private final long listKernel;
    private final long involvedKernel;
    private final long multipliersKernel;
    private final long gatherKernel;
    private final long applyKernel;
    private final PointerBuffer particleWork = MemoryUtil.memAllocPointer(1);
    private final PointerBuffer oneWork = MemoryUtil.memAllocPointer(1).put(0, 1);
    private final int[] entries = new int[1];

    private int n;
    private int triangleCount;
    private int capacity;
    private long triMem;
    private long incidentStartMem;
    private long incidentMem;
    private long triCellsMem;
    private long bucketStartMem;
    private long bucketFillMem;
    private long sortedTriMem;
    private long sortedCellMem;
    private long totalMem;
    private long contactTriMem;
    private long baryMem;
    private long normalMem;
    private long byTriStartMem;
    private long triangleFillMem;
    private long byTriMem;
    private long involvedMem;
    private long lambdaMem;
    private long correctionMem;

    /** The kernels of {@code program} (vertex_triangle.cl built after the shared sources). */
    DeviceVertexTriangles(OpenClContext cl, long program) {
        this.cl = cl;
        binKernel = cl.kernel(program, "vt_bin");
        detectKernel = cl.kernel(program, "vt_detect");
        listKernel = cl.kernel(program, "vt_list");
        involvedKernel = cl.kernel(program, "vt_involved");
        multipliersKernel = cl.kernel(program, "vt_multipliers");
        gatherKernel = cl.kernel(program, "vt_gather");
        applyKernel = cl.kernel(program, "vt_apply");
    }

    /**
     * The faces of {@code m} ({@code m} has triangles) for the contacts {@code host} (its contact distance: the
     * thickness is half of it, as on the CPU; its excluded pairs, already on the device in {@code
     * excludedStartMem} and {@code excludedMem}), on the positions {@code xMem}, the step's start in {@code
     * startMem}.
     */
    void bind(Model m, ParticleContacts host, long invMassMem, long xMem, long startMem, long excludedStartMem,
              long excludedMem) {
        release();
        n = m.particleCount();
        int[] tri = m.triangles();
        triangleCount = tri.length / 3;
        particleWork.put(0, n);
        // VertexTriangleContacts: half the contact distance, cells of three thicknesses, ≥ 4 buckets a triangle
        float thickness = 0.5f * host.contactDistance();
        float cellSize = 3f * thickness;
        int buckets = 1024;
        while (buckets < 4 * triangleCount) {
            buckets <<= 1;
        }
        Incidence incidence = m.triangleIncidence();
        triMem = cl.upload(tri);
        incidentStartMem = cl.upload(incidence.start());
        incidentMem = cl.upload(incidence.items());
        triCellsMem = cl.buffer(24L * triangleCount);
        bucketStartMem = cl.buffer(4L * (buckets + 1));
        bucketFillMem = cl.buffer(4L * buckets);
        totalMem = cl.buffer(4L);
        contactTriMem = cl.buffer(4L * n);
        baryMem = cl.buffer(12L * n);
        normalMem = cl.buffer(12L * n);
        byTriStartMem = cl.buffer(4L * (triangleCount + 1));
        triangleFillMem = cl.buffer(4L * triangleCount);
        byTriMem = cl.buffer(4L * n);
        involvedMem = cl.buffer(4L * n);
        lambdaMem = cl.buffer(4L * n);
        correctionMem = cl.buffer(12L * n);

        clSetKernelArg1i(binKernel, 0, triangleCount);
        clSetKernelArg1f(binKernel, 1, thickness);
        clSetKernelArg1f(binKernel, 2, cellSize);
        clSetKernelArg1i(binKernel, 3, buckets);
        OpenClSolver.bufferArgs(binKernel, "vt_bin", 5, triMem, xMem, triCellsMem, bucketStartMem, bucketFillMem);
        OpenClSolver.bufferArgs(binKernel, "vt_bin", 12, totalMem);
        // a first guess: a few cells a triangle (grown when a step needs more)
        growEntries(8 * Math.max(1, triangleCount));

        clSetKernelArg1i(detectKernel, 0, n);
        clSetKernelArg1f(detectKernel, 1, thickness);
        clSetKernelArg1f(detectKernel, 2, cellSize);
        clSetKernelArg1i(detectKernel, 3, buckets);
        OpenClSolver.bufferArgs(detectKernel, "vt_detect", 4, triMem, xMem, startMem, bucketStartMem);
        OpenClSolver.bufferArgs(detectKernel, "vt_detect", 10, excludedStartMem, excludedMem, contactTriMem, baryMem,
                normalMem);

        clSetKernelArg1i(listKernel, 0, n);
        clSetKernelArg1i(listKernel, 1, triangleCount);
        OpenClSolver.bufferArgs(listKernel, "vt_list", 2, contactTriMem, byTriStartMem, triangleFillMem, byTriMem);

        clSetKernelArg1i(involvedKernel, 0, n);
        OpenClSolver.bufferArgs(involvedKernel, "vt_involved", 1, incidentStartMem, incidentMem, contactTriMem,
                byTriStartMem, involvedMem);

        clSetKernelArg1i(multipliersKernel, 0, n);
        clSetKernelArg1f(multipliersKernel, 1, thickness);
        OpenClSolver.bufferArgs(multipliersKernel, "vt_multipliers", 2, triMem, xMem, invMassMem, contactTriMem,
                baryMem, normalMem, involvedMem, lambdaMem);

        clSetKernelArg1i(gatherKernel, 0, n);
        OpenClSolver.bufferArgs(gatherKernel, "vt_gather", 1, incidentStartMem, incidentMem, triMem, byTriStartMem,
                byTriMem, invMassMem, lambdaMem, baryMem, normalMem, correctionMem);

        clSetKernelArg1i(applyKernel, 0, n);
        OpenClSolver.bufferArgs(applyKernel, "vt_apply", 1, correctionMem, xMem);
    }

    /** The grid's entry buffers for {@code size} entries (the bin and detect kernels' arguments set again). */
    private void growEntries(int size) {
        OpenClContext.releaseAll(sortedTriMem, sortedCellMem);
        capacity = size;
        sortedTriMem = cl.buffer(4L * size);
        sortedCellMem = cl.buffer(12L * size);
        clSetKernelArg1i(binKernel, 4, capacity);
        OpenClSolver.bufferArgs(binKernel, "vt_bin", 10, sortedTriMem, sortedCellMem);
        OpenClSolver.bufferArgs(detectKernel, "vt_detect", 8, sortedTriMem, sortedCellMem);
    }

    /** VertexTriangleContacts.project on the positions: the grid, the contacts found, {@code sweeps} sweeps. */
    void project(int sweeps) {
        launch(binKernel, oneWork, "vt_bin");
        ClCheck.ok(clEnqueueReadBuffer(cl.queue(), totalMem, true, 0L, entries, null, null), "read vt grid size");
        if (entries[0] > ParticleContacts.MAX_GRID_ENTRIES) {
            // the CPU's VertexTriangleContacts says the same (the kernel stops counting just past the limit)
            throw new IllegalStateException("vertex-triangle contacts: the triangles' bounds cover more than "
                    + ParticleContacts.MAX_GRID_ENTRIES + " grid cells: the cloth has blown up or is far larger "
                    + "than its contact thickness");
        }
        if (entries[0] > capacity) {
            // the CPU grows its arrays by half at least; the device likewise, then bins again
            growEntries(Math.max(entries[0], capacity + capacity / 2));
            launch(binKernel, oneWork, "vt_bin");
        }
        launch(detectKernel, particleWork, "vt_detect");
        launch(listKernel, oneWork, "vt_list");
        launch(involvedKernel, particleWork, "vt_involved");
        for (int s = 0; s < sweeps; s++) {
            launch(multipliersKernel, particleWork, "vt_multipliers");
            launch(gatherKernel, particleWork, "vt_gather");
            launch(applyKernel, particleWork, "vt_apply");
        }
    }

    /** Particles held off a triangle face in the last step (as ParticleContacts.lastVertexTriangleCount; reads back). */
    int lastContactCount() {
        if (contactTriMem == 0L) {
            return 0;
        }
        int[] t = new int[n];
        ClCheck.ok(clEnqueueReadBuffer(cl.queue(), contactTriMem, true, 0L, t, null, null), "read vt contacts");
        int c = 0;
        for (int v : t) {
            c += v >= 0 ? 1 : 0;
        }
        return c;
    }

    /** Entries the triangle grid's buffers hold now (grown when a step needed more; for tests). */
    int entryCapacity() {
        return capacity;
    }

    private void launch(long kernel, PointerBuffer size, String name) {
        ClCheck.ok(clEnqueueNDRangeKernel(cl.queue(), kernel, 1, null, size, null, null, null), name);
    }

    /** The model's buffers let go (bind makes them again). */
    void release() {
        OpenClContext.releaseAll(triMem, incidentStartMem, incidentMem, triCellsMem, bucketStartMem, bucketFillMem,
                sortedTriMem, sortedCellMem, totalMem, contactTriMem, baryMem, normalMem, byTriStartMem,
                triangleFillMem, byTriMem, involvedMem, lambdaMem, correctionMem);
        triMem = incidentStartMem = incidentMem = triCellsMem = bucketStartMem = bucketFillMem = 0L;
        sortedTriMem = sortedCellMem = totalMem = contactTriMem = baryMem = normalMem = 0L;
        byTriStartMem = triangleFillMem = byTriMem = involvedMem = lambdaMem = correctionMem = 0L;
        capacity = 0;
    }

    /** Everything let go, the off-heap memory freed (the kernels go with the context). */
    void close() {
        release();
        MemoryUtil.memFree(particleWork);
        MemoryUtil.memFree(oneWork);
    }
}
