package dev.weft.render;

import static org.lwjgl.opengl.GL33.*;

import dev.weft.core.geom.SmoothNormals;
import dev.weft.core.model.Model;
import org.lwjgl.system.MemoryUtil;

/**
 * The simulated bodies on the GPU, regenerated every frame from the particle positions: one vertex
 * per particle (position + smooth normal + texture coordinates, interleaved) in a buffer written once per frame through
 * a mapping, so the mesh is copied exactly once per frame, from the state into the driver's memory.
 * The triangles are the model's; they are uploaded again only when the model's triangle array
 * changes (a topology change such as tearing replaces it).
 *
 * <p>Or drawn from the device ({@link #updateFromDevice}): positions straight from a solver's storage
 * buffer (xyz packed, bound as the vertex array), normals from {@link DeviceSurface}, texture coordinates
 * from a buffer of their own; nothing of the positions crosses to the host. Vertex arrays of their own
 * for that, the element buffers shared.
 */
final class ClothMesh implements AutoCloseable {
    private static final int STRIDE_FLOATS = 8;

    private int particleCount;
    private SmoothNormals normals;
    private final int vao;
    private final int vbo;
    private final int ebo;
    private int[] uploadedTriangles;
    /** The same vertices with a list of particle pairs (ropes' segments) as their elements. */
    private final int lineVao;
    private final int lineEbo;
    private int[] uploadedLines;
    /** The device-drawn vertex arrays (0 until the first {@link #updateFromDevice}) and their uv buffer. */
    private int deviceVao;
    private int deviceLineVao;
    private int uvVbo;
    private float[] uploadedUvs;
    private int uvCount = -1;
    /** Whether the last update was from the device: the draws use the device-drawn vertex arrays. */
    private boolean fromDevice;

    ClothMesh(Model model) {
        particleCount = model.particleCount();
        normals = new SmoothNormals(particleCount);
        vao = glGenVertexArrays();
        glBindVertexArray(vao);
        vbo = glGenBuffers();
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        glBufferData(GL_ARRAY_BUFFER, (long) Float.BYTES * STRIDE_FLOATS * Math.max(1, particleCount), GL_STREAM_DRAW);
        vertexAttributes();
        ebo = glGenBuffers();
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
        lineVao = glGenVertexArrays();
        glBindVertexArray(lineVao);
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        vertexAttributes();
        lineEbo = glGenBuffers();
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, lineEbo);
        glBindVertexArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }

    /** Position (0), normal (1) and uv (2) of the bound vertex array, interleaved in the bound buffer. */
    private static void vertexAttributes() {
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, false, STRIDE_FLOATS * Float.BYTES, 0L);
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, false, STRIDE_FLOATS * Float.BYTES, 3L * Float.BYTES);
        glEnableVertexAttribArray(2);
        glVertexAttribPointer(2, 2, GL_FLOAT, false, STRIDE_FLOATS * Float.BYTES, 6L * Float.BYTES);
    }

    /** Uploads the particle pairs that {@link #drawLines} draws, when they are a new array. */
    void updateLines(int[] pairs) {
        if (pairs != uploadedLines) {
            glBindVertexArray(lineVao);
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, pairs, GL_STATIC_DRAW);
            glBindVertexArray(0);
            uploadedLines = pairs;
        }
    }

    /** Draws pairs [first, first + count) of the uploaded pairs as {@code mode} (GL_LINES, GL_POINTS). */
    void drawLines(int mode, int firstPair, int pairCount) {
        if (pairCount == 0) {
            return;
        }
        glBindVertexArray(lineArray());
        glDrawElements(mode, 2 * pairCount, GL_UNSIGNED_INT, 2L * Integer.BYTES * firstPair);
        glBindVertexArray(0);
    }

    /**
     * Computes normals over {@code triangles} and uploads positions + normals (xyz per particle) and the
     * texture coordinates (uv per particle; zeros past the end of {@code uvs}).
     */
    void update(float[] positions, float[] uvs, int[] triangles) {
        fromDevice = false;
        uploadTriangles(triangles);
        if (positions.length / 3 != particleCount) {
            // a split added particles: a larger vertex buffer (rare, so not worth spare capacity)
            particleCount = positions.length / 3;
            normals = new SmoothNormals(particleCount);
            glBindBuffer(GL_ARRAY_BUFFER, vbo);
            glBufferData(GL_ARRAY_BUFFER, (long) Float.BYTES * STRIDE_FLOATS * Math.max(1, particleCount), GL_STREAM_DRAW);
            glBindBuffer(GL_ARRAY_BUFFER, 0);
        }
        if (particleCount == 0) {
            return;
        }
        float[] n = normals.compute(positions, triangles);
        long bytes = (long) Float.BYTES * STRIDE_FLOATS * particleCount;
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        // invalidating lets the driver hand out fresh memory instead of waiting for the last frame's draws
        long address = nglMapBufferRange(GL_ARRAY_BUFFER, 0L, bytes, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
        if (address == 0L) {
            throw new IllegalStateException("glMapBufferRange failed (GL error 0x" + Integer.toHexString(glGetError())
                    + ")");
        }
        for (int i = 0, src = 0; i < particleCount; i++, src += 3) {
            long at = address + (long) i * STRIDE_FLOATS * Float.BYTES;
            MemoryUtil.memPutFloat(at, positions[src]);
            MemoryUtil.memPutFloat(at + 4, positions[src + 1]);
            MemoryUtil.memPutFloat(at + 8, positions[src + 2]);
            MemoryUtil.memPutFloat(at + 12, n[src]);
            MemoryUtil.memPutFloat(at + 16, n[src + 1]);
            MemoryUtil.memPutFloat(at + 20, n[src + 2]);
            int uv = 2 * i;
            MemoryUtil.memPutFloat(at + 24, uv + 1 < uvs.length ? uvs[uv] : 0f);
            MemoryUtil.memPutFloat(at + 28, uv + 1 < uvs.length ? uvs[uv + 1] : 0f);
        }
        glUnmapBuffer(GL_ARRAY_BUFFER);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }

    private void uploadTriangles(int[] triangles) {
        if (triangles != uploadedTriangles) {
            glBindVertexArray(vao);
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, triangles, GL_STATIC_DRAW);
            glBindVertexArray(0);
            uploadedTriangles = triangles;
        }
    }

    /**
     * Draws from now on {@code vertexCount} vertices whose positions are in buffer {@code positions} (xyz
     * packed, written by a compute shader in this context), their smooth normals over {@code triangles}
     * computed by {@code surface}, texture coordinates {@code uvs} (zeros past its end).
     */
    void updateFromDevice(int positions, int vertexCount, float[] uvs, int[] triangles, DeviceSurface surface) {
        fromDevice = true;
        uploadTriangles(triangles);
        if (deviceVao == 0) {
            deviceVao = glGenVertexArrays();
            deviceLineVao = glGenVertexArrays();
            uvVbo = glGenBuffers();
            glBindVertexArray(deviceVao);
            glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
            glBindVertexArray(deviceLineVao);
            glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, lineEbo);
            glBindVertexArray(0);
        }
        if (uvs != uploadedUvs || vertexCount != uvCount) {
            // as update: a vertex without both coordinates gets zeros
            float[] padded = java.util.Arrays.copyOf(java.util.Arrays.copyOf(uvs, Math.min(uvs.length & ~1,
                    2 * vertexCount)), 2 * Math.max(1, vertexCount));
            glBindBuffer(GL_ARRAY_BUFFER, uvVbo);
            glBufferData(GL_ARRAY_BUFFER, padded, GL_STATIC_DRAW);
            glBindBuffer(GL_ARRAY_BUFFER, 0);
            uploadedUvs = uvs;
            uvCount = vertexCount;
        }
        if (vertexCount == 0) {
            return;
        }
        surface.computeNormals(positions, vertexCount, triangles);
        // specified every frame: the solver's buffer is another one after it binds another model, and
        // binding again is what makes a buffer's new contents count for a vertex array
        pointAtDeviceBuffers(deviceVao, positions, surface.normalsBuffer());
        pointAtDeviceBuffers(deviceLineVao, positions, surface.normalsBuffer());
        glBindVertexArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }

    /** Vertex array {@code array}'s attributes: positions and normals from the device buffers, uvs from ours. */
    private void pointAtDeviceBuffers(int array, int positions, int normals) {
        glBindVertexArray(array);
        glBindBuffer(GL_ARRAY_BUFFER, positions);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, false, 3 * Float.BYTES, 0L);
        glBindBuffer(GL_ARRAY_BUFFER, normals);
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, false, 3 * Float.BYTES, 0L);
        glBindBuffer(GL_ARRAY_BUFFER, uvVbo);
        glEnableVertexAttribArray(2);
        glVertexAttribPointer(2, 2, GL_FLOAT, false, 2 * Float.BYTES, 0L);
    }

    private int triangleArray() {
        return fromDevice ? deviceVao : vao;
    }

    private int lineArray() {
        return fromDevice ? deviceLineVao : lineVao;
    }

    /** Draws triangles [first, first + count) of the uploaded triangle list. */
    void drawTriangles(int firstTriangle, int triangleCount) {
        if (triangleCount == 0) {
            return;
        }
        glBindVertexArray(triangleArray());
        glDrawElements(GL_TRIANGLES, 3 * triangleCount, GL_UNSIGNED_INT, 3L * Integer.BYTES * firstTriangle);
        glBindVertexArray(0);
    }

    /** Draws particles [first, first + count) as {@code mode} (GL_POINTS, GL_LINE_STRIP). */
    void drawParticles(int mode, int firstParticle, int count) {
        if (count == 0) {
            return;
        }
        glBindVertexArray(triangleArray());
        glDrawArrays(mode, firstParticle, count);
        glBindVertexArray(0);
    }

    @Override
    public void close() {
        glDeleteVertexArrays(vao);
        glDeleteVertexArrays(lineVao);
        glDeleteBuffers(vbo);
        glDeleteBuffers(ebo);
        glDeleteBuffers(lineEbo);
        if (deviceVao != 0) {
            glDeleteVertexArrays(deviceVao);
            glDeleteVertexArrays(deviceLineVao);
            glDeleteBuffers(uvVbo);
        }
    }
}
