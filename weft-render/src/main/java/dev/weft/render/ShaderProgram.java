package dev.weft.render;

import static org.lwjgl.opengl.GL33.*;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** A linked vertex + fragment shader pair from the {@code shaders/} resources, with uniform lookup. */
final class ShaderProgram implements AutoCloseable {
    private final String name;
    private final int program;
    private final Map<String, Integer> uniforms = new HashMap<>();

    /** Loads {@code shaders/<name>.vert} and {@code shaders/<name>.frag}; needs a current context. */
    ShaderProgram(String name) {
        this(name, null);
    }

    /**
     * As {@link #ShaderProgram(String)}, the fragment shader compiled with {@code #define <define>} (a variant
     * without the code its surfaces never take), or none when null.
     */
    ShaderProgram(String name, String define) {
        this.name = define == null ? name : name + " (" + define + ")";
        int vs = compile(GL_VERTEX_SHADER, name + ".vert", null);
        int fs = compile(GL_FRAGMENT_SHADER, name + ".frag", define);
        program = glCreateProgram();
        glAttachShader(program, vs);
        glAttachShader(program, fs);
        glLinkProgram(program);
        glDeleteShader(vs);
        glDeleteShader(fs);
        if (glGetProgrami(program, GL_LINK_STATUS) != GL_TRUE) {
            String log = glGetProgramInfoLog(program);
            glDeleteProgram(program);
            throw new IllegalStateException("shader program " + name + " does not link: " + log);
        }
    }

    private static int compile(int type, String file, String define) {
        String source;
        try (InputStream in = ShaderProgram.class.getResourceAsStream("shaders/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing shader resource shaders/" + file);
            }
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read shader " + file, e);
        }
        if (define != null) { // after the #version line, which must come first
            int eol = source.indexOf('\n');
            source = source.substring(0, eol + 1) + "#define " + define + "\n" + source.substring(eol + 1);
        }
        int shader = glCreateShader(type);
        glShaderSource(shader, source);
        glCompileShader(shader);
        if (glGetShaderi(shader, GL_COMPILE_STATUS) != GL_TRUE) {
            String log = glGetShaderInfoLog(shader);
            glDeleteShader(shader);
            throw new IllegalStateException("shader " + file + " does not compile: " + log);
        }
        return shader;
    }

    void use() {
        glUseProgram(program);
    }

    /** Location of a uniform; -1 (ignored by glUniform*) when the compiler removed an unused one. */
    int uniform(String uniform) {
        Integer location = uniforms.get(uniform);
        if (location == null) {
            location = glGetUniformLocation(program, uniform);
            uniforms.put(uniform, location);
        }
        return location;
    }

    void set(String uniform, float value) {
        glUniform1f(uniform(uniform), value);
    }

    void set(String uniform, int value) {
        glUniform1i(uniform(uniform), value);
    }

    void set(String uniform, float x, float y, float z) {
        glUniform3f(uniform(uniform), x, y, z);
    }

    void set(String uniform, float[] xyz) {
        glUniform3f(uniform(uniform), xyz[0], xyz[1], xyz[2]);
    }

    void setMatrix(String uniform, float[] columnMajor) {
        glUniformMatrix4fv(uniform(uniform), false, columnMajor);
    }

    @Override
    public String toString() {
        return "shader " + name;
    }

    @Override
    public void close() {
        glDeleteProgram(program);
    }
}
