package dev.weft.render;

import static org.lwjgl.opengl.GL33.*;

import java.nio.FloatBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * A collider's mesh: interleaved position + normal, and indices, uploaded once. A rigid one is placed
 * by its pose; an animated body's vertices are replaced every frame ({@link #update}, same count).
 */
final class StaticMesh implements AutoCloseable {
    private final int vao;
    private final int vbo;
    private final int ebo;
    private final int indexCount;
    private final int vertexCount;

    StaticMesh(Tessellation t) {
        int n = t.positions().length / 3;
        vertexCount = n;
        FloatBuffer data = MemoryUtil.memAllocFloat(6 * n);
        try {
            for (int i = 0; i < n; i++) {
                data.put(t.positions(), 3 * i, 3).put(t.normals(), 3 * i, 3);
            }
            data.flip();
            vao = glGenVertexArrays();
            glBindVertexArray(vao);
            vbo = glGenBuffers();
            glBindBuffer(GL_ARRAY_BUFFER, vbo);
            glBufferData(GL_ARRAY_BUFFER, data, GL_STATIC_DRAW);
        } finally {
            MemoryUtil.memFree(data);
        }
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, false, 24, 0L);
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, false, 24, 12L);
        ebo = glGenBuffers();
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, t.triangles(), GL_STATIC_DRAW);
        indexCount = t.triangles().length;
        glBindVertexArray(0);
    }

    /** Replaces the vertices by {@code t}'s (the same vertex count and triangles as at construction). */
    void update(Tessellation t) {
        int n = t.positions().length / 3;
        if (n != vertexCount) {
            throw new IllegalArgumentException("a mesh of " + vertexCount + " vertices got " + n);
        }
        FloatBuffer data = MemoryUtil.memAllocFloat(6 * n);
        try {
            for (int i = 0; i < n; i++) {
                data.put(t.positions(), 3 * i, 3).put(t.normals(), 3 * i, 3);
            }
            data.flip();
            glBindBuffer(GL_ARRAY_BUFFER, vbo);
            glBufferSubData(GL_ARRAY_BUFFER, 0L, data);
            glBindBuffer(GL_ARRAY_BUFFER, 0);
        } finally {
            MemoryUtil.memFree(data);
        }
    }

    void draw() {
        glBindVertexArray(vao);
        glDrawElements(GL_TRIANGLES, indexCount, GL_UNSIGNED_INT, 0L);
        glBindVertexArray(0);
    }

    @Override
    public void close() {
        glDeleteVertexArrays(vao);
        glDeleteBuffers(vbo);
        glDeleteBuffers(ebo);
    }
}
