package dev.weft.render;

import static org.lwjgl.opengl.GL43.*;

import org.lwjgl.opengl.GL;
import org.lwjgl.opengl.GLCapabilities;

/**
 * What the renderer computes on the device for a cloth drawn straight from a device position buffer
 * ({@link DevicePositions}): the smooth normals ({@code smooth_normals.comp}, {@code SmoothNormals}' per
 * vertex, its bits where the driver rounds correctly) and the particles' bounding box for the frame
 * ({@code particle_bounds.comp}, exact). The normals stay on the device as a vertex attribute source;
 * the box (six floats) is the only thing read back. Needs a current OpenGL 4.3 context, the one the
 * positions belong to.
 */
final class DeviceSurface implements AutoCloseable {
    // storage binding points, above the GLSL solvers' 0-18, which stay bound in the shared context
    static final int POSITIONS = 24;
    static final int TRIANGLES = 25;
    static final int INCIDENCE_START = 26;
    static final int INCIDENCE = 27;
    static final int NORMALS = 28;
    static final int BOUNDS = 29;
    private static final int BINDINGS_NEEDED = 30;
    /** The bounds' keys before a pass: min at the top of the order, max at the bottom. */
    private static final int[] EMPTY_BOUNDS = {-1, -1, -1, 0, 0, 0};

    private final ComputeProgram normalsProgram;
    private final ComputeProgram boundsProgram;
    private final int trianglesBuffer;
    private final int startBuffer;
    private final int incidenceBuffer;
    private final int normalsBuffer;
    private final int boundsBuffer;
    private int[] boundTriangles;
    private int vertexCount = -1;
    private final int[] keys = new int[6];

    /** Whether the current context can compute these: OpenGL 4.3 and storage binding points up to 29. */
    static boolean supported() {
        GLCapabilities caps = GL.getCapabilities();
        return caps.OpenGL43 && glGetInteger(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS) >= BINDINGS_NEEDED
                && glGetInteger(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS) >= 5;
    }

    DeviceSurface() {
        normalsProgram = new ComputeProgram("smooth_normals.comp");
        boundsProgram = new ComputeProgram("particle_bounds.comp");
        trianglesBuffer = glGenBuffers();
        startBuffer = glGenBuffers();
        incidenceBuffer = glGenBuffers();
        normalsBuffer = glGenBuffers();
        boundsBuffer = glGenBuffers();
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, boundsBuffer);
        glBufferData(GL_SHADER_STORAGE_BUFFER, 6L * Integer.BYTES, GL_DYNAMIC_READ);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    }

    /** The normals of the last {@link #computeNormals}, xyz per vertex packed. */
    int normalsBuffer() {
        return normalsBuffer;
    }

    /**
     * The smooth normals of {@code triangles} over the first {@code n} vertices of {@code positions} (a
     * buffer of xyz per vertex), into {@link #normalsBuffer}, ready to be drawn from.
     */
    void computeNormals(int positions, int n, int[] triangles) {
        if (triangles != boundTriangles || n != vertexCount) {
            bindMesh(n, triangles);
        }
        // the solver's last dispatch wrote the positions: visible to these shaders and as vertices
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, POSITIONS, positions);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, TRIANGLES, trianglesBuffer);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, INCIDENCE_START, startBuffer);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, INCIDENCE, incidenceBuffer);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NORMALS, normalsBuffer);
        normalsProgram.set("vertexCount", n);
        normalsProgram.dispatch(n);
        glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }

    /**
     * The least (into {@code min}) and greatest (into {@code max}) coordinate per axis of the first
     * {@code n} vertices of {@code positions}; left as they are when n is 0.
     */
    void bounds(int positions, int n, float[] min, float[] max) {
        if (n == 0) {
            return;
        }
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, boundsBuffer);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0L, EMPTY_BOUNDS);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, POSITIONS, positions);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOUNDS, boundsBuffer);
        boundsProgram.set("vertexCount", n);
        boundsProgram.dispatch(n);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, boundsBuffer);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0L, keys);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
        for (int d = 0; d < 3; d++) {
            min[d] = fromKey(keys[d]);
            max[d] = fromKey(keys[3 + d]);
        }
    }

    /** The float whose ordered key (particle_bounds.comp) is {@code key}. */
    private static float fromKey(int key) {
        return Float.intBitsToFloat(key < 0 ? key & 0x7fffffff : ~key);
    }

    /** Reads the normals back (tests: they must be the host's). */
    void readNormals(float[] out) {
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, normalsBuffer);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0L, out);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    }

    /** The triangles and, per vertex, its triangles in ascending order (the host's order of adding them). */
    private void bindMesh(int n, int[] triangles) {
        int[] start = new int[n + 1];
        for (int corner : triangles) {
            start[corner + 1]++;
        }
        for (int v = 0; v < n; v++) {
            start[v + 1] += start[v];
        }
        int[] incidence = new int[triangles.length];
        int[] next = java.util.Arrays.copyOf(start, n);
        for (int k = 0; k < triangles.length; k++) {
            incidence[next[triangles[k]]++] = k / 3;
        }
        upload(trianglesBuffer, triangles);
        upload(startBuffer, start);
        upload(incidenceBuffer, incidence);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, normalsBuffer);
        glBufferData(GL_SHADER_STORAGE_BUFFER, Math.max(4L, 12L * n), GL_DYNAMIC_COPY);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
        boundTriangles = triangles;
        vertexCount = n;
    }

    private static void upload(int buffer, int[] data) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
        if (data.length == 0) {
            glBufferData(GL_SHADER_STORAGE_BUFFER, 4L, GL_STATIC_DRAW);
        } else {
            glBufferData(GL_SHADER_STORAGE_BUFFER, data, GL_STATIC_DRAW);
        }
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    }

    @Override
    public void close() {
        normalsProgram.close();
        boundsProgram.close();
        glDeleteBuffers(new int[] {trianglesBuffer, startBuffer, incidenceBuffer, normalsBuffer, boundsBuffer});
    }
}
