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
        glBindVertexArray(lineVao);
        glDrawElements(mode, 2 * pairCount, GL_UNSIGNED_INT, 2L * Integer.BYTES * firstPair);
        glBindVertexArray(0);
    }

    /**
     * Computes normals over {@code triangles} and uploads positions + normals (xyz per particle) and the
     * texture coordinates (uv per particle; zeros past the end of {@code uvs}).
     */
    void update(float[] positions, float[] uvs, int[] triangles) {
        if (triangles != uploadedTriangles) {
            glBindVertexArray(vao);
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, triangles, GL_STATIC_DRAW);
            glBindVertexArray(0);
            uploadedTriangles = triangles;
        }
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

    /** Draws triangles [first, first + count) of the uploaded triangle list. */
    void drawTriangles(int firstTriangle, int triangleCount) {
        if (triangleCount == 0) {
            return;
        }
        glBindVertexArray(vao);
        glDrawElements(GL_TRIANGLES, 3 * triangleCount, GL_UNSIGNED_INT, 3L * Integer.BYTES * firstTriangle);
        glBindVertexArray(0);
    }

    /** Draws particles [first, first + count) as {@code mode} (GL_POINTS, GL_LINE_STRIP). */
    void drawParticles(int mode, int firstParticle, int count) {
        if (count == 0) {
            return;
        }
        glBindVertexArray(vao);
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
    }
}
