package dev.weft.render.compute;

import dev.weft.core.InvalidInputException;
import dev.weft.render.EglHeadlessContext;
import dev.weft.render.RenderUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.lwjgl.egl.EGL10;
import org.lwjgl.egl.EGL14;
import org.lwjgl.opengl.GL;
import org.lwjgl.opengl.GL11;
import org.lwjgl.opengl.GL15;
import org.lwjgl.opengl.GL20;
import org.lwjgl.opengl.GL30;
import org.lwjgl.opengl.GL32;
import org.lwjgl.opengl.GL41;
import org.lwjgl.opengl.GL43;
import org.lwjgl.opengl.GLCapabilities;

/**
 * An OpenGL 4.3 core context of its own for compute shaders (through {@link EglHeadlessContext}, so
 * Mesa's llvmpipe runs them on a machine without a GPU), and the programs and shader storage buffers
 * made in it.
 *
 * <p>The context is current only between {@link #enter} and {@link #exit}: whatever context the thread
 * had current before (a renderer's) is current again afterwards, so a solver and a renderer can take
 * turns on one thread, and a solver may step on any thread.
 */
public final class ComputeContext implements AutoCloseable {
    static final int MAJOR = 4;
    static final int MINOR = 3;
    /** The invocations of one work group (every shader's local_size_x, set in {@code common.glsl}). */
    static final int GROUP = 64;
    /** The most storage blocks one of the backend's shaders uses (mass_spring_step.comp). */
    private static final int BLOCKS_NEEDED = 12;
    /** The highest binding point the backend's shaders use, plus one. */
    private static final int BINDINGS_NEEDED = 33;

    private final EglHeadlessContext egl;
    /** GL_MAX_SHADER_STORAGE_BLOCK_SIZE: the largest buffer a shader may see whole (the spec's floor is 16 MiB). */
    private long maxBufferBytes;
    private final List<Integer> programs = new ArrayList<>();
    private final List<Integer> buffers = new ArrayList<>();
    // what enter() found current, for exit()
    private long savedDisplay;
    private long savedDraw;
    private long savedRead;
    private long savedContext;
    private GLCapabilities savedCapabilities;
    private boolean entered;
    private boolean closed;
    /** Whether the context failed its self-check (then destroyed, never kept for reuse). */
    private boolean discarded;

    private ComputeContext(EglHeadlessContext egl) {
        this.egl = egl;
    }

    /**
     * A context for the GLSL compute solvers, not current when this returns; {@link
     * RenderUnavailableException} when the driver has no OpenGL 4.3 (compute shaders) or too few storage
     * buffers, saying so.
     */
    public static ComputeContext open() {
        return open(MAJOR, MINOR);
    }

    /** As {@link #open()} asking for OpenGL {@code major.minor}: how a test meets a version the driver lacks. */
    static ComputeContext open(int major, int minor) {
        ComputeContext c = null;
        Saved before = Saved.now();
        try {
            EglHeadlessContext egl;
            try {
                egl = EglHeadlessContext.create(major, minor);
            } catch (RenderUnavailableException e) {
                throw new RenderUnavailableException("the GLSL compute backend needs OpenGL " + major + "." + minor
                        + " (compute shaders), and " + withoutHint(e.getMessage()), e);
            }
            c = new ComputeContext(egl);
            c.maxBufferBytes = GL32.glGetInteger64(GL43.GL_MAX_SHADER_STORAGE_BLOCK_SIZE);
            int blocks = GL11.glGetInteger(GL43.GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS);
            int bindings = GL11.glGetInteger(GL43.GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS);
            if (blocks < BLOCKS_NEEDED || bindings < BINDINGS_NEEDED) {
                String offered = egl.description();
                c.close();
                throw new RenderUnavailableException("the GLSL compute backend needs " + BLOCKS_NEEDED + " shader "
                        + "storage blocks per compute shader and " + BINDINGS_NEEDED + " binding points; " + offered
                        + " has " + blocks + " and " + bindings);
            }
            c.selfCheck();
            firstDescription.compareAndSet(null, c.description());
            return c;
        } finally {
            before.restore();
        }
    }

    /** The first context this process opened that passed its self-check, described; null before one. */
    private static final java.util.concurrent.atomic.AtomicReference<String> firstDescription =
            new java.util.concurrent.atomic.AtomicReference<>();

    /**
     * What {@link #description()} said of the first context this process opened, or null: lets a caller learn
     * the driver without opening another context, which NVIDIA's 580 driver would fail (see {@link #selfCheck}).
     */
    static String firstDescription() {
        return firstDescription.get();
    }

    /** Values the self-check runs through its shader. */
    private static final int CHECKED = 256;

    /**
     * Runs a tiny shader (o = 2 in + 1) on buffers made the solvers' way and reads it back; a wrong value
     * closes the context and throws. On an H200 with NVIDIA's 580 driver every EGL context after a process's
     * first took its buffer calls into the first one's objects (GL_INVALID_OPERATION, zeros read back), and
     * the solvers then ran with every particle pinned, quietly: the check turns that into this error. A context
     * made in the first one's share group works (an H100 probe), so EglHeadlessContext makes them so there; a
     * context that fails anyway is destroyed, not kept (docs/glsl-compute.md).
     */
    private void selfCheck() {
        egl.makeCurrent();
        int program = program("", "self_check.comp");
        float[] in = new float[CHECKED];
        for (int i = 0; i < CHECKED; i++) {
            in[i] = i;
        }
        int input = upload(in, 2);
        int output = buffer(4L * CHECKED, 0);
        setInt(program, uniform(program, "n"), CHECKED);
        dispatch(program, CHECKED);
        float[] out = new float[CHECKED];
        read(output, out);
        delete(input, output);
        for (int i = 0; i < CHECKED; i++) {
            if (out[i] != 2f * i + 1f) {
                String driver = egl.description();
                int error = GL11.glGetError();
                discarded = true; // not kept for reuse: it would fail whoever got it next
                close();
                throw new RenderUnavailableException("the GLSL compute backend's self-check failed on " + driver
                        + ": a test shader gave " + out[i] + " for " + (2f * i + 1f) + " at " + i + " (GL error 0x"
                        + Integer.toHexString(error) + "); NVIDIA's 580 driver does this on an EGL context "
                        + "made outside the share group of one the process made before (weft shares them there unless "
                        + "-Dweft.egl.share=false). Use --backend opencl");
            }
        }
    }

    private static String withoutHint(String message) {
        return message.replace("; " + RenderUnavailableException.INSTALL_HINT, "");
    }

    /** Which EGL platform, OpenGL version and renderer the shaders run on. */
    public String description() {
        return egl.description();
    }

    /** The EGL context itself: a renderer drawing from this context's buffers draws in it. */
    EglHeadlessContext egl() {
        return egl;
    }

    /** Makes this context current on the calling thread, remembering which one was. */
    void enter() {
        if (entered) {
            throw new IllegalStateException("the compute context is entered already");
        }
        Saved s = Saved.now();
        savedDisplay = s.display;
        savedDraw = s.draw;
        savedRead = s.read;
        savedContext = s.context;
        savedCapabilities = s.capabilities;
        egl.makeCurrent();
        entered = true;
    }

    /** Makes current again what was current before {@link #enter} (or nothing); nothing when not entered. */
    void exit() {
        if (!entered) {
            return;
        }
        entered = false;
        new Saved(savedDisplay, savedDraw, savedRead, savedContext, savedCapabilities).restore();
        savedCapabilities = null;
    }

    /**
     * Compiles and links a compute program from resources beside this class, joined in order after
     * {@code #version 430 core} and {@code defines} (lines such as {@code #define RIGID}); a compile or
     * link error is an exception holding the driver's log. Call between enter and exit.
     */
    int program(String defines, String... resources) {
        StringBuilder source = new StringBuilder("#version 430 core\n").append(defines);
        for (String r : resources) {
            source.append("// ").append(r).append('\n').append(resource(r));
        }
        int shader = GL20.glCreateShader(GL43.GL_COMPUTE_SHADER);
        GL20.glShaderSource(shader, source);
        GL20.glCompileShader(shader);
        if (GL20.glGetShaderi(shader, GL20.GL_COMPILE_STATUS) != GL11.GL_TRUE) {
            String log = GL20.glGetShaderInfoLog(shader);
            GL20.glDeleteShader(shader);
            throw new IllegalStateException("compiling " + String.join("+", resources) + " failed: " + log);
        }
        int program = GL20.glCreateProgram();
        GL20.glAttachShader(program, shader);
        GL20.glLinkProgram(program);
        GL20.glDeleteShader(shader);
        if (GL20.glGetProgrami(program, GL20.GL_LINK_STATUS) != GL11.GL_TRUE) {
            String log = GL20.glGetProgramInfoLog(program);
            GL20.glDeleteProgram(program);
            throw new IllegalStateException("linking " + String.join("+", resources) + " failed: " + log);
        }
        programs.add(program);
        return program;
    }

    private static String resource(String name) {
        try (InputStream in = ComputeContext.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing shader resource dev/weft/render/compute/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The location of uniform {@code name} in {@code program}; an exception if the program has none. */
    static int uniform(int program, String name) {
        int location = GL20.glGetUniformLocation(program, name);
        if (location < 0) {
            throw new IllegalStateException("the compute program has no uniform " + name);
        }
        return location;
    }

    static void setInt(int program, int location, int value) {
        GL41.glProgramUniform1i(program, location, value);
    }

    static void setFloat(int program, int location, float value) {
        GL41.glProgramUniform1f(program, location, value);
    }

    static void setVec3(int program, int location, float x, float y, float z) {
        GL41.glProgramUniform3f(program, location, x, y, z);
    }

    /**
     * A storage buffer of {@code bytes} (at least 4), contents undefined, bound at {@code binding}; a model
     * needing more than the driver lets a shader see is refused, rather than read beyond the end as zeros.
     */
    int buffer(long bytes, int binding) {
        if (bytes > maxBufferBytes) {
            throw new InvalidInputException("model", "needs a shader storage buffer of " + bytes + " bytes, and "
                    + egl.description() + " allows " + maxBufferBytes + " (GL_MAX_SHADER_STORAGE_BLOCK_SIZE); use a "
                    + "smaller model, another driver or another backend");
        }
        int b = GL15.glGenBuffers();
        GL15.glBindBuffer(GL43.GL_SHADER_STORAGE_BUFFER, b);
        GL15.glBufferData(GL43.GL_SHADER_STORAGE_BUFFER, Math.max(4L, bytes), GL15.GL_DYNAMIC_COPY);
        GL30.glBindBufferBase(GL43.GL_SHADER_STORAGE_BUFFER, binding, b);
        buffers.add(b);
        return b;
    }

    /** A storage buffer holding {@code data}, bound at {@code binding}. */
    int upload(float[] data, int binding) {
        int b = buffer(4L * data.length, binding);
        if (data.length > 0) {
            GL15.glBufferSubData(GL43.GL_SHADER_STORAGE_BUFFER, 0L, data);
        }
        return b;
    }

    /** A storage buffer holding {@code data}, bound at {@code binding}. */
    int upload(int[] data, int binding) {
        int b = buffer(4L * data.length, binding);
        if (data.length > 0) {
            GL15.glBufferSubData(GL43.GL_SHADER_STORAGE_BUFFER, 0L, data);
        }
        return b;
    }

    /** Overwrites the start of {@code buffer} with {@code data}. */
    static void write(int buffer, float[] data) {
        GL15.glBindBuffer(GL43.GL_SHADER_STORAGE_BUFFER, buffer);
        GL15.glBufferSubData(GL43.GL_SHADER_STORAGE_BUFFER, 0L, data);
    }

    /** Fills the first {@code floats} of {@code buffer} with zeros. */
    static void clear(int buffer, int floats) {
        GL15.glBindBuffer(GL43.GL_SHADER_STORAGE_BUFFER, buffer);
        GL43.glClearBufferSubData(GL43.GL_SHADER_STORAGE_BUFFER, GL30.GL_R32F, 0L, 4L * floats, GL11.GL_RED,
                GL11.GL_FLOAT, (ByteBuffer) null);
    }

    /** Reads the start of {@code buffer} into {@code data} (waits for the shaders that wrote it). */
    static void read(int buffer, float[] data) {
        Barriers.beforeRead();
        GL15.glBindBuffer(GL43.GL_SHADER_STORAGE_BUFFER, buffer);
        GL15.glGetBufferSubData(GL43.GL_SHADER_STORAGE_BUFFER, 0L, data);
    }

    /** Runs {@code program} over {@code invocations} (in work groups of {@link #GROUP}), after the previous writes. */
    static void dispatch(int program, int invocations) {
        if (invocations <= 0) {
            return;
        }
        GL20.glUseProgram(program);
        GL43.glDispatchCompute((invocations + GROUP - 1) / GROUP, 1, 1);
        Barriers.afterDispatch();
    }

    /** Deletes these buffers (0 is none). */
    void delete(int... buffersToDelete) {
        for (int b : buffersToDelete) {
            if (b != 0) {
                GL15.glDeleteBuffers(b);
                buffers.remove(Integer.valueOf(b));
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        exit();
        // a renderer drawing in this context may have left it current: nothing to put back then
        Saved before = egl.isCurrent() ? new Saved(EGL10.EGL_NO_DISPLAY, EGL10.EGL_NO_SURFACE, EGL10.EGL_NO_SURFACE,
                EGL10.EGL_NO_CONTEXT, null) : Saved.now();
        try {
            egl.makeCurrent();
            for (int p : programs) {
                GL20.glDeleteProgram(p);
            }
            for (int b : buffers) {
                GL15.glDeleteBuffers(b);
            }
            programs.clear();
            buffers.clear();
            if (discarded) {
                egl.discard();
            } else {
                egl.close();
            }
        } finally {
            if (before.context != 0L && before.context != EGL10.EGL_NO_CONTEXT) {
                before.restore();
            }
        }
    }

    /** The memory barriers between dispatches and before a read-back. */
    private static final class Barriers {
        private Barriers() {
        }

        /** The next dispatch sees this one's storage writes. */
        static void afterDispatch() {
            GL43.glMemoryBarrier(GL43.GL_SHADER_STORAGE_BARRIER_BIT);
        }

        /** A glGetBufferSubData sees the shaders' writes. */
        static void beforeRead() {
            GL43.glMemoryBarrier(GL43.GL_BUFFER_UPDATE_BARRIER_BIT);
        }
    }

    /** The calling thread's current EGL context and surfaces, and LWJGL's OpenGL functions for it. */
    private record Saved(long display, long draw, long read, long context, GLCapabilities capabilities) {
        static Saved now() {
            long context = EGL14.eglGetCurrentContext();
            if (context == EGL10.EGL_NO_CONTEXT) {
                return new Saved(EGL10.EGL_NO_DISPLAY, EGL10.EGL_NO_SURFACE, EGL10.EGL_NO_SURFACE, context, null);
            }
            GLCapabilities caps;
            try {
                caps = GL.getCapabilities();
            } catch (IllegalStateException none) {
                caps = null;
            }
            return new Saved(EGL10.eglGetCurrentDisplay(), EGL10.eglGetCurrentSurface(EGL10.EGL_DRAW),
                    EGL10.eglGetCurrentSurface(EGL10.EGL_READ), context, caps);
        }

        void restore() {
            if (context == EGL10.EGL_NO_CONTEXT) {
                long current = EGL10.eglGetCurrentDisplay();
                if (current != EGL10.EGL_NO_DISPLAY) {
                    EGL10.eglMakeCurrent(current, EGL10.EGL_NO_SURFACE, EGL10.EGL_NO_SURFACE, EGL10.EGL_NO_CONTEXT);
                }
                GL.setCapabilities(null);
                return;
            }
            EGL10.eglMakeCurrent(display, draw, read, context);
            GL.setCapabilities(capabilities);
        }
    }
}
