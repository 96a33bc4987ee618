package dev.weft.render;

import static org.lwjgl.opengl.GL43.*;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A compute shader from the {@code shaders/} resources, for the renderer's work on device positions
 * ({@link DeviceSurface}); needs a current OpenGL 4.3 context.
 */
final class ComputeProgram implements AutoCloseable {
    /** Every such shader's local_size_x. */
    static final int GROUP = 64;

    private final int program;

    ComputeProgram(String file) {
        String source;
        try (InputStream in = ComputeProgram.class.getResourceAsStream("shaders/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing shader resource shaders/" + file);
            }
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read shader " + file, e);
        }
        int shader = glCreateShader(GL_COMPUTE_SHADER);
        glShaderSource(shader, source);
        glCompileShader(shader);
        if (glGetShaderi(shader, GL_COMPILE_STATUS) != GL_TRUE) {
            String log = glGetShaderInfoLog(shader);
            glDeleteShader(shader);
            throw new IllegalStateException("compute shader " + file + " does not compile: " + log);
        }
        program = glCreateProgram();
        glAttachShader(program, shader);
        glLinkProgram(program);
        glDeleteShader(shader);
        if (glGetProgrami(program, GL_LINK_STATUS) != GL_TRUE) {
            String log = glGetProgramInfoLog(program);
            glDeleteProgram(program);
            throw new IllegalStateException("compute shader " + file + " does not link: " + log);
        }
    }

    /** Sets int uniform {@code name}. */
    void set(String name, int value) {
        int location = glGetUniformLocation(program, name);
        if (location < 0) {
            throw new IllegalStateException("the compute shader has no uniform " + name);
        }
        glProgramUniform1i(program, location, value);
    }

    /** Runs over {@code invocations} in groups of {@link #GROUP}. */
    void dispatch(int invocations) {
        if (invocations <= 0) {
            return;
        }
        glUseProgram(program);
        glDispatchCompute((invocations + GROUP - 1) / GROUP, 1, 1);
    }

    @Override
    public void close() {
        glDeleteProgram(program);
    }
}
