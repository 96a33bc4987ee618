package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueCopyBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clSetKernelArg1f;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL12.clEnqueueFillBuffer;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Model;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * Particle contacts (self- and inter-cloth, {@link ParticleContacts}) on the device, and the end of a
 * position-based step around them: {@link #finish} is {@code PositionStep.finish} with contacts (the settle,
 * the contacts on the world positions with the step's start for friction, the colliders once more, the
 * velocities from what they moved), in {@code contacts.cl}'s kernels, which do the CPU's float operations in
 * its order.
 *
 * <p>Per step, all on the device: the grid (cells, bucket counts, prefix sum, scatter, each bucket sorted by
 * particle index: the CPU's lists), the candidate search, with friction the colliders' pass and the support
 * levels, then the configured Jacobi sweeps. Nothing is read back in a step; {@link #overflowCount()} and
 * {@link #lastContactCount()} read on demand.
 *
 * <p>The implicit solver uses the pieces as ImplicitSolver uses ParticleContacts: {@link #findCandidates} before
 * its solve (the candidate lists its cloth contacts through S read) and {@link #projectFrom} after the step (no
 * colliders' pass before the levels, {@link #withoutColliderPass}).
 *
 * <p>With {@link ParticleContactSettings#vertexTriangle()} the sweeps are followed by as many sweeps of the
 * vertex–triangle contacts ({@link DeviceVertexTriangles}), as on the CPU.
 *
 * <p>What does not change with the positions (the contact distance, the search radius, the excluded pairs:
 * constraint partners and rest-shape neighbours) is the CPU's own {@link ParticleContacts} built for the
 * model, uploaded once per model.
 */
final class DeviceContacts {
    /** Buckets per work-item of the prefix sum's first pass (the bucket count, a power of two ≥ 2048, is a multiple). */
    private static final int SCAN_BLOCK = 256;

    private final OpenClContext cl;
    private ParticleContactSettings settings;
    private final long cellsKernel;
    private final long countKernel;
    private final long scanBlocksKernel;
    private final long scanSumsKernel;
    private final long offsetBlocksKernel;
    private final long scatterKernel;
    private final long sortKernel;
    private final long searchKernel;
    private final long holdKernel;
    /** contact_levels twice: level → next and next → level (an even number of passes ends in level). */
    private final long levelsKernel;
    private final long levelsBackKernel;
    private final long gatherKernel;
    private final long applyKernel;
    private final long settleKernel;
    private final long finishKernel;
    /** Builds vertex_triangle.cl the first time a model with vertex–triangle contacts is bound. */
    private final LongSupplier facesProgram;
    /** The vertex–triangle contacts (made on first use), and whether the bound model runs them. */
    private DeviceVertexTriangles faces;
    private boolean facesOn;
    /**
     * Whether the support levels start from a pass of the step's colliders (PositionStep's contacts); the
     * implicit solver projects without one (ImplicitSolver calls ParticleContacts.project without colliders).
     */
    private boolean colliderPass = true;
    private final ByteBuffer zero = MemoryUtil.memCalloc(4);
    private final ByteBuffer unsupported = MemoryUtil.memAlloc(4).putInt(0, Integer.MAX_VALUE);
    private final PointerBuffer particleWork = MemoryUtil.memAllocPointer(1);
    private final PointerBuffer bucketWork = MemoryUtil.memAllocPointer(1);
    private final PointerBuffer blockWork = MemoryUtil.memAllocPointer(1);
    private final PointerBuffer oneWork = MemoryUtil.memAllocPointer(1).put(0, 1);

    private ParticleContacts host;
    private int n;
    private int buckets;
    private long startMem;
    private long cellMem;
    private long bucketOfMem;
    private long tableMem;
    private long cursorMem;
    private long blockSumMem;
    private long sortedMem;
    private long excludedStartMem;
    private long excludedMem;
    private long neighbourCountMem;
    private long neighboursMem;
    private long overflowMem;
    private long levelMem;
    private long nextLevelMem;
    private long correctionMem;
    private long contactsOfMem;

    /**
     * The kernels of {@code program} (contacts.cl built after the shared sources) for a solver's contacts;
     * {@link #use} gives them their settings. {@code facesProgram} builds vertex_triangle.cl, asked for only
     * when vertex–triangle contacts are on.
     */
    DeviceContacts(OpenClContext cl, long program, LongSupplier facesProgram) {
        this.cl = cl;
        this.facesProgram = facesProgram;
        cellsKernel = cl.kernel(program, "contact_cells");
        countKernel = cl.kernel(program, "contact_count");
        scanBlocksKernel = cl.kernel(program, "contact_scan_blocks");
        scanSumsKernel = cl.kernel(program, "contact_scan_sums");
        offsetBlocksKernel = cl.kernel(program, "contact_offset_blocks");
        scatterKernel = cl.kernel(program, "contact_scatter");
        sortKernel = cl.kernel(program, "contact_sort_buckets");
        searchKernel = cl.kernel(program, "contact_search");
        holdKernel = cl.kernel(program, "contact_hold");
        levelsKernel = cl.kernel(program, "contact_levels");
        levelsBackKernel = cl.kernel(program, "contact_levels");
        gatherKernel = cl.kernel(program, "contact_gather");
        applyKernel = cl.kernel(program, "contact_apply");
        settleKernel = cl.kernel(program, "contact_settle");
        finishKernel = cl.kernel(program, "contact_finish");
    }

    /** Contacts with {@code s} from the next {@link #bind} on (vertex–triangle contacts included). */
    void use(ParticleContactSettings s) {
        settings = s;
    }

    /**
     * The contacts of {@code m}: the CPU's exclusions and distances uploaded, the per-step buffers made and
     * the arguments set, for the solver's step buffers y and d ({@code m} has particles).
     */
    void bind(Model m, DeviceParticles particles, DeviceState state, long yMem, long dMem) {
        release();
        host = new ParticleContacts(m, settings);
        n = m.particleCount();
        buckets = host.grid().bucketCount();
        int blocks = buckets / SCAN_BLOCK;
        particleWork.put(0, n);
        bucketWork.put(0, buckets);
        blockWork.put(0, blocks);
        startMem = cl.buffer(12L * n);
        cellMem = cl.buffer(12L * n);
        bucketOfMem = cl.buffer(4L * n);
        tableMem = cl.buffer(4L * (buckets + 1));
        cursorMem = cl.buffer(4L * buckets);
        blockSumMem = cl.buffer(4L * blocks);
        sortedMem = cl.buffer(4L * n);
        excludedStartMem = cl.upload(host.excludedStart());
        excludedMem = cl.upload(host.excludedPartners());
        neighbourCountMem = cl.buffer(4L * n);
        neighboursMem = cl.buffer(4L * ParticleContacts.MAX_NEIGHBOURS * n);
        overflowMem = cl.buffer(4L * n);
        levelMem = cl.buffer(4L * n);
        nextLevelMem = cl.buffer(4L * n);
        correctionMem = cl.buffer(12L * n);
        contactsOfMem = cl.buffer(4L * n);

        long xMem = state.xMem();
        long invMassMem = particles.invMassMem();
        float radius = host.searchRadius();
        float invCell = 1f / host.grid().cellSize();
        int mask = buckets - 1;
        float distance = host.contactDistance();

        clSetKernelArg1i(cellsKernel, 0, n);
        clSetKernelArg1f(cellsKernel, 1, invCell);
        clSetKernelArg1i(cellsKernel, 2, mask);
        OpenClSolver.bufferArgs(cellsKernel, "contact_cells", 3, xMem, cellMem, bucketOfMem);
        clSetKernelArg1i(countKernel, 0, n);
        OpenClSolver.bufferArgs(countKernel, "contact_count", 1, bucketOfMem, tableMem);
        clSetKernelArg1i(scanBlocksKernel, 0, SCAN_BLOCK);
        OpenClSolver.bufferArgs(scanBlocksKernel, "contact_scan_blocks", 1, tableMem, blockSumMem);
        clSetKernelArg1i(scanSumsKernel, 0, blocks);
        OpenClSolver.bufferArgs(scanSumsKernel, "contact_scan_sums", 1, blockSumMem);
        clSetKernelArg1i(offsetBlocksKernel, 0, SCAN_BLOCK);
        OpenClSolver.bufferArgs(offsetBlocksKernel, "contact_offset_blocks", 1, tableMem, blockSumMem);
        clSetKernelArg1i(scatterKernel, 0, n);
        OpenClSolver.bufferArgs(scatterKernel, "contact_scatter", 1, bucketOfMem, cursorMem, sortedMem);
        OpenClSolver.bufferArgs(sortKernel, "contact_sort_buckets", 0, tableMem, sortedMem);

        clSetKernelArg1i(searchKernel, 0, n);
        clSetKernelArg1f(searchKernel, 1, radius);
        clSetKernelArg1f(searchKernel, 2, invCell);
        clSetKernelArg1i(searchKernel, 3, mask);
        OpenClSolver.bufferArgs(searchKernel, "contact_search", 4, xMem, cellMem, tableMem, sortedMem,
                excludedStartMem, excludedMem, neighbourCountMem, neighboursMem, overflowMem);

        clSetKernelArg1i(holdKernel, 0, n);
        OpenClSolver.bufferArgs(holdKernel, "contact_hold", 1, invMassMem, particles.gripMem(),
                particles.offsetMem());
        clSetKernelArg1f(holdKernel, 7, host.onSurfaceSlack());
        OpenClSolver.bufferArgs(holdKernel, "contact_hold", 8, startMem, neighbourCountMem, xMem, levelMem);

        for (long k : new long[] {levelsKernel, levelsBackKernel}) {
            clSetKernelArg1i(k, 0, n);
            clSetKernelArg1f(k, 1, distance);
            OpenClSolver.bufferArgs(k, "contact_levels", 2, particles.offsetMem(), xMem, neighbourCountMem,
                    neighboursMem);
        }
        OpenClSolver.bufferArgs(levelsKernel, "contact_levels", 6, levelMem, nextLevelMem);
        OpenClSolver.bufferArgs(levelsBackKernel, "contact_levels", 6, nextLevelMem, levelMem);

        clSetKernelArg1i(gatherKernel, 0, n);
        clSetKernelArg1f(gatherKernel, 1, distance);
        clSetKernelArg1f(gatherKernel, 2, settings.staticFriction());
        clSetKernelArg1f(gatherKernel, 3, settings.kineticFriction());
        OpenClSolver.bufferArgs(gatherKernel, "contact_gather", 4, invMassMem, particles.gripMem(),
                particles.offsetMem(), xMem, startMem, neighbourCountMem, neighboursMem, levelMem, correctionMem,
                contactsOfMem);
        clSetKernelArg1i(applyKernel, 0, n);
        OpenClSolver.bufferArgs(applyKernel, "contact_apply", 1, correctionMem, xMem);

        clSetKernelArg1i(settleKernel, 0, n);
        OpenClSolver.bufferArgs(settleKernel, "contact_settle", 1, invMassMem);
        OpenClSolver.bufferArgs(settleKernel, "contact_settle", 3, xMem, state.vMem(), yMem, dMem, startMem);

        clSetKernelArg1i(finishKernel, 0, n);
        OpenClSolver.bufferArgs(finishKernel, "contact_finish", 1, invMassMem, particles.gripMem(),
                particles.offsetMem());
        OpenClSolver.bufferArgs(finishKernel, "contact_finish", 10, startMem, xMem, state.vMem(), yMem);

        // as ParticleContacts: faces only where the model has triangles
        facesOn = settings.vertexTriangle() && m.triangleCount() > 0;
        if (facesOn) {
            if (faces == null) {
                faces = new DeviceVertexTriangles(cl, facesProgram.getAsLong());
            }
            faces.bind(m, host, invMassMem, xMem, startMem, excludedStartMem, excludedMem);
        }
    }

    /** The colliders' buffers (again): the collider pass before the levels and the one after the contacts. */
    void collidersChanged(DeviceColliders c) {
        if (c.typeMem() == 0L) {
            return; // none encoded yet: the step's start sets them
        }
        clSetKernelArg1i(holdKernel, 4, colliderPass ? c.count() : 0);
        OpenClSolver.bufferArgs(holdKernel, "contact_hold", 5, c.typeMem(), c.dataMem());
        clSetKernelArg1i(finishKernel, 4, c.count());
        OpenClSolver.bufferArgs(finishKernel, "contact_finish", 5, c.typeMem(), c.dataMem());
    }

    /**
     * PositionStep.finish with these contacts, on the device: settle y + d into the world positions, the
     * contacts, the colliders, then v = (v + (x − y)/h)·scale, scale the per-particle factors in {@code
     * scaleMem} (XPBD's damping after the step) or 1 where it is 0.
     */
    void finish(float invH, long scaleMem) {
        clSetKernelArg1f(settleKernel, 2, invH);
        launch(settleKernel, particleWork, "contact_settle");
        project();
        clSetKernelArg1f(finishKernel, 7, invH);
        clSetKernelArg1i(finishKernel, 8, scaleMem != 0L ? 1 : 0);
        // an unscaled run still needs a buffer there: any float buffer of n, never read
        OpenClSolver.bufferArgs(finishKernel, "contact_finish", 9, scaleMem != 0L ? scaleMem : correctionMem);
        launch(finishKernel, particleWork, "contact_finish");
    }

    /**
     * Without the colliders' pass before the support levels (from the next {@link #collidersChanged} on): then
     * only pinned particles are level 0, as ParticleContacts.project without colliders gives.
     */
    void withoutColliderPass() {
        colliderPass = false;
    }

    /**
     * ParticleContacts.project as ImplicitSolver calls it, on the world positions after the step with the step's
     * start in {@code prevMem} (for friction; copied into this step's start buffer, which the vertex–triangle
     * contacts read too) and no colliders' pass ({@link #withoutColliderPass}).
     */
    void projectFrom(long prevMem) {
        ClCheck.ok(clEnqueueCopyBuffer(cl.queue(), prevMem, startMem, 0L, 0L, 12L * n, null, null),
                "contacts' step start");
        project();
    }

    /** ParticleContacts.project on the world positions (the state's x buffer), the step's start in startMem. */
    private void project() {
        long queue = cl.queue();
        findCandidates();
        // the support levels (see contacts.cl: all passes give what the CPU's early stop gives)
        if (settings.staticFriction() == 0f) {
            ClCheck.ok(clEnqueueFillBuffer(queue, levelMem, unsupported, 0L, 4L * n, null, null), "levels");
        } else {
            launch(holdKernel, particleWork, "contact_hold");
            for (int pass = 0; pass < MAX_LEVEL_PASSES; pass += 2) {
                launch(levelsKernel, particleWork, "contact_levels");
                launch(levelsBackKernel, particleWork, "contact_levels");
            }
        }
        for (int it = 0; it < settings.iterations(); it++) {
            launch(gatherKernel, particleWork, "contact_gather");
            launch(applyKernel, particleWork, "contact_apply");
        }
        if (facesOn) {
            faces.project(settings.iterations());
        }
    }

    /**
     * ParticleContacts.findCandidates on the world positions: the grid, then every particle's candidate partners
     * ({@link #neighbourCountMem}, {@link #neighboursMem}).
     */
    void findCandidates() {
        long queue = cl.queue();
        launch(cellsKernel, particleWork, "contact_cells");
        ClCheck.ok(clEnqueueFillBuffer(queue, tableMem, zero, 0L, 4L * (buckets + 1), null, null), "clear grid counts");
        launch(countKernel, particleWork, "contact_count");
        launch(scanBlocksKernel, blockWork, "contact_scan_blocks");
        launch(scanSumsKernel, oneWork, "contact_scan_sums");
        launch(offsetBlocksKernel, bucketWork, "contact_offset_blocks");
        ClCheck.ok(clEnqueueCopyBuffer(queue, tableMem, cursorMem, 0L, 0L, 4L * buckets, null, null),
                "grid scatter cursors");
        launch(scatterKernel, particleWork, "contact_scatter");
        launch(sortKernel, bucketWork, "contact_sort_buckets");
        launch(searchKernel, particleWork, "contact_search");
    }

    /** Per particle, how many candidate partners the last search listed (int, n). */
    long neighbourCountMem() {
        return neighbourCountMem;
    }

    /** Per particle, its candidate partners: {@code ParticleContacts.MAX_NEIGHBOURS} ints each. */
    long neighboursMem() {
        return neighboursMem;
    }

    /** The settings of the bound contacts. */
    ParticleContactSettings settings() {
        return settings;
    }

    /** ParticleContacts.MAX_LEVEL (contacts.cl's CONTACT_MAX_LEVEL), even. */
    private static final int MAX_LEVEL_PASSES = 8;

    private void launch(long kernel, PointerBuffer size, String name) {
        ClCheck.ok(clEnqueueNDRangeKernel(cl.queue(), kernel, 1, null, size, null, null, null), name);
    }

    /** The contact distance of the bound model, m (NaN before a model is bound). */
    float contactDistance() {
        return host == null ? Float.NaN : host.contactDistance();
    }

    /** Particles whose candidate list overflowed in the last step (as ParticleContacts.overflowCount; reads back). */
    int overflowCount() {
        return sum(overflowMem);
    }

    /** Contacts found in the last sweep of the last step (as ParticleContacts.lastContactCount; reads back). */
    int lastContactCount() {
        return sum(contactsOfMem) / 2;
    }

    /** Particles held off a triangle face in the last step (as ParticleContacts.lastVertexTriangleCount; reads back). */
    int lastVertexTriangleCount() {
        return host != null && facesOn ? faces.lastContactCount() : 0;
    }

    /** Entries the vertex–triangle grid's buffers hold (0 when off; for tests). */
    int faceGridCapacity() {
        return facesOn ? faces.entryCapacity() : 0;
    }

    private int sum(long mem) {
        if (host == null) {
            return 0;
        }
        int[] values = new int[n];
        ClCheck.ok(clEnqueueReadBuffer(cl.queue(), mem, true, 0L, values, null, null), "read contact counts");
        int total = 0;
        for (int v : values) {
            total += v;
        }
        return total;
    }

    /** The model's buffers let go (bind makes them again). */
    void release() {
        OpenClContext.releaseAll(startMem, cellMem, bucketOfMem, tableMem, cursorMem, blockSumMem, sortedMem,
                excludedStartMem, excludedMem, neighbourCountMem, neighboursMem, overflowMem, levelMem, nextLevelMem,
                correctionMem, contactsOfMem);
        startMem = cellMem = bucketOfMem = tableMem = cursorMem = blockSumMem = sortedMem = 0L;
        excludedStartMem = excludedMem = neighbourCountMem = neighboursMem = overflowMem = 0L;
        levelMem = nextLevelMem = correctionMem = contactsOfMem = 0L;
        host = null;
        facesOn = false;
        if (faces != null) {
            faces.release();
        }
    }

    /** Everything let go, the off-heap memory freed (the kernels go with the context). */
    void close() {
        release();
        if (faces != null) {
            faces.close();
        }
        MemoryUtil.memFree(zero);
        MemoryUtil.memFree(unsupported);
        MemoryUtil.memFree(particleWork);
        MemoryUtil.memFree(bucketWork);
        MemoryUtil.memFree(blockWork);
        MemoryUtil.memFree(oneWork);
    }
}
