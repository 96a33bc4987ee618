package dev.weft.probe;

import static org.lwjgl.egl.EGL10.*;
import static org.lwjgl.system.MemoryUtil.NULL;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import org.lwjgl.PointerBuffer;
import org.lwjgl.egl.EGL;
import org.lwjgl.egl.EGL12;
import org.lwjgl.egl.EGL14;
import org.lwjgl.egl.EGL15;
import org.lwjgl.egl.EXTDeviceEnumeration;
import org.lwjgl.egl.EXTDeviceQuery;
import org.lwjgl.egl.EXTPlatformDevice;
import org.lwjgl.opengl.GL;
import org.lwjgl.opengl.GL11;
import org.lwjgl.opengl.GL15;
import org.lwjgl.opengl.GL20;
import org.lwjgl.opengl.GL43;
import org.lwjgl.opengl.GLCapabilities;
import org.lwjgl.system.Configuration;
import org.lwjgl.system.FunctionProvider;
import org.lwjgl.system.JNI;
import org.lwjgl.system.Library;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.SharedLibrary;

/**
 * Device probe (issue #16, NVIDIA's "every EGL context after a process's first is broken"): raw LWJGL, no Weft code.
 * Args: PROVIDER (egl: GL entry points from eglGetProcAddress, what EglHeadlessContext does; libopengl: dlsym in
 * glvnd's libOpenGL.so.0) SCENARIO (seq: first context checked and destroyed, then a second; both: a second made
 * while the first lives, then both checked again; share: the second in the first's share group; thread: the second
 * on a new thread after the first is destroyed; pbuffer: seq with 1x1 pbuffers instead of surfaceless) END (clean:
 * contexts destroyed, eglTerminate and eglReleaseThread before exit; none). Prints one line per check.
 * Build: javac -d .devbundle/probe -cp weft-app/target/weft.jar scripts/device/EglContextsProbe.java
 */
public final class EglContextsProbe {
    static long display;
    static long config;
    static boolean pbuffer;

    public static void main(String[] a) throws Exception {
        String provider = a[0];
        if (provider.equals("weft")) {
            // Weft's own path (EglHeadlessContext + ComputeContext's self-check), reuse off: two in turn, then two at once
            for (String label : new String[] {"weft ctx1", "weft ctx2"}) {
                try (dev.weft.render.compute.ComputeContext c = dev.weft.render.compute.ComputeContext.open()) {
                    System.out.println(label + ": OK " + c.description());
                } catch (RuntimeException e) {
                    System.out.println(label + ": " + e.getMessage());
                }
            }
            System.out.println("END weft");
            return;
        }
        String scenario = a[1];
        boolean clean = a[2].equals("clean");
        pbuffer = scenario.equals("pbuffer");
        EGL.getCapabilities();
        long device = firstGpu();
        display = JNI.callPPP(EXTPlatformDevice.EGL_PLATFORM_DEVICE_EXT, device, 0L,
                EGL.getCapabilities().eglGetPlatformDisplayEXT);
        int[] ma = new int[1];
        int[] mi = new int[1];
        if (!eglInitialize(display, ma, mi)) {
            throw new IllegalStateException("eglInitialize 0x" + Integer.toHexString(eglGetError()));
        }
        System.out.println("EGL " + ma[0] + "." + mi[0] + " " + eglQueryString(display, EGL_VENDOR));
        Configuration.OPENGL_EXPLICIT_INIT.set(true);
        GL.create(provider(provider));
        EGL12.eglBindAPI(EGL14.EGL_OPENGL_API);
        try (MemoryStack s = MemoryStack.stackPush()) {
            PointerBuffer configs = s.mallocPointer(1);
            int[] n = new int[1];
            eglChooseConfig(display, new int[] {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_SURFACE_TYPE,
                EGL_PBUFFER_BIT, EGL12.EGL_RENDERABLE_TYPE, EGL14.EGL_OPENGL_BIT, EGL_NONE}, configs, n);
            config = configs.get(0);
        }
        long[] c1 = make(EGL_NO_CONTEXT);
        check("ctx1", c1);
        long[] c2;
        switch (scenario) {
            case "seq", "pbuffer" -> {
                destroy(c1);
                c2 = make(EGL_NO_CONTEXT);
                check("ctx2", c2);
                destroy(c2);
                long[] c3 = make(EGL_NO_CONTEXT);
                check("ctx3", c3);
                if (clean) destroy(c3);
            }
            case "both", "share" -> {
                c2 = make(scenario.equals("share") ? c1[0] : EGL_NO_CONTEXT);
                check("ctx2", c2);
                check("ctx1 again", c1);
                check("ctx2 again", c2);
                if (clean) {
                    destroy(c2);
                    destroy(c1);
                }
            }
            case "thread" -> {
                destroy(c1);
                Thread t = new Thread(() -> {
                    long[] c = make(EGL_NO_CONTEXT);
                    check("ctx2 on a new thread", c);
                    if (clean) {
                        destroy(c);
                        EGL12.eglReleaseThread();
                    }
                });
                t.start();
                t.join();
            }
            default -> throw new IllegalArgumentException(scenario);
        }
        if (clean) {
            eglTerminate(display);
            EGL12.eglReleaseThread();
        }
        System.out.println("END " + provider + " " + scenario + " " + a[2]);
    }

    static FunctionProvider provider(String name) {
        if (name.equals("egl")) {
            return new FunctionProvider() {
                @Override public long getFunctionAddress(ByteBuffer f) { return eglGetProcAddress(f); }
                @Override public long getFunctionAddress(CharSequence f) { return eglGetProcAddress(f); }
            };
        }
        SharedLibrary lib = Library.loadNative(EglContextsProbe.class, "org.lwjgl.opengl", "libOpenGL.so.0");
        return new FunctionProvider() {
            @Override public long getFunctionAddress(ByteBuffer f) {
                long p = lib.getFunctionAddress(f);
                return p != NULL ? p : eglGetProcAddress(f);
            }
            @Override public long getFunctionAddress(CharSequence f) {
                long p = lib.getFunctionAddress(f);
                return p != NULL ? p : eglGetProcAddress(f);
            }
        };
    }

    static long firstGpu() {
        try (MemoryStack s = MemoryStack.stackPush()) {
            IntBuffer count = s.mallocInt(1);
            EXTDeviceEnumeration.eglQueryDevicesEXT(null, count);
            PointerBuffer devices = s.mallocPointer(count.get(0));
            EXTDeviceEnumeration.eglQueryDevicesEXT(devices, count);
            for (int i = 0; i < count.get(0); i++) {
                String ext = EXTDeviceQuery.eglQueryDeviceStringEXT(devices.get(i), EGL_EXTENSIONS);
                if (ext == null || !ext.contains("EGL_MESA_device_software")) {
                    return devices.get(i);
                }
            }
            return devices.get(0);
        }
    }

    /** {context, surface, capabilities handle index}: made and current, with its own GLCapabilities. */
    static final java.util.Map<Long, GLCapabilities> caps = new java.util.HashMap<>();

    static long[] make(long share) {
        EGL12.eglBindAPI(EGL14.EGL_OPENGL_API); // per thread
        long ctx = eglCreateContext(display, config, share, new int[] {EGL15.EGL_CONTEXT_MAJOR_VERSION, 4,
            EGL15.EGL_CONTEXT_MINOR_VERSION, 3, EGL15.EGL_CONTEXT_OPENGL_PROFILE_MASK,
            EGL15.EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE});
        if (ctx == EGL_NO_CONTEXT) {
            throw new IllegalStateException("eglCreateContext 0x" + Integer.toHexString(eglGetError()));
        }
        long surface = pbuffer ? eglCreatePbufferSurface(display, config, new int[] {EGL_WIDTH, 1, EGL_HEIGHT, 1,
            EGL_NONE}) : EGL_NO_SURFACE;
        if (!eglMakeCurrent(display, surface, surface, ctx)) {
            throw new IllegalStateException("eglMakeCurrent 0x" + Integer.toHexString(eglGetError()));
        }
        caps.put(ctx, GL.createCapabilities());
        return new long[] {ctx, surface};
    }

    static void destroy(long[] c) {
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        GL.setCapabilities(null);
        if (c[1] != EGL_NO_SURFACE) {
            eglDestroySurface(display, c[1]);
        }
        eglDestroyContext(display, c[0]);
    }

    static void check(String label, long[] c) {
        eglMakeCurrent(display, c[1], c[1], c[0]);
        GL.setCapabilities(caps.get(c[0]));
        while (GL11.glGetError() != 0) { }
        String src = "#version 430\nlayout(local_size_x = 64) in;\n"
                + "layout(std430, binding = 0) buffer Out { float o[]; };\n"
                + "layout(std430, binding = 2) readonly buffer In { float inp[]; };\nuniform int n;\n"
                + "void main() { int i = int(gl_GlobalInvocationID.x); if (i < n) o[i] = inp[i] * 2.0f + 1.0f; }\n";
        int sh = GL20.glCreateShader(GL43.GL_COMPUTE_SHADER);
        GL20.glShaderSource(sh, src);
        GL20.glCompileShader(sh);
        int p = GL20.glCreateProgram();
        GL20.glAttachShader(p, sh);
        GL20.glLinkProgram(p);
        int linked = GL20.glGetProgrami(p, GL20.GL_LINK_STATUS);
        int e1 = GL11.glGetError();
        float[] in = new float[256];
        for (int i = 0; i < 256; i++) in[i] = i;
        int bin = GL15.glGenBuffers();
        GL15.glBindBuffer(GL43.GL_SHADER_STORAGE_BUFFER, bin);
        GL15.glBufferData(GL43.GL_SHADER_STORAGE_BUFFER, in, GL15.GL_DYNAMIC_DRAW);
        GL43.glBindBufferBase(GL43.GL_SHADER_STORAGE_BUFFER, 2, bin);
        int bout = GL15.glGenBuffers();
        GL15.glBindBuffer(GL43.GL_SHADER_STORAGE_BUFFER, bout);
        GL15.glBufferData(GL43.GL_SHADER_STORAGE_BUFFER, 4L * 256, GL15.GL_DYNAMIC_DRAW);
        GL43.glBindBufferBase(GL43.GL_SHADER_STORAGE_BUFFER, 0, bout);
        int e2 = GL11.glGetError();
        GL20.glUseProgram(p);
        GL20.glUniform1i(GL20.glGetUniformLocation(p, "n"), 256);
        GL43.glDispatchCompute(4, 1, 1);
        GL43.glMemoryBarrier(GL43.GL_ALL_BARRIER_BITS);
        float[] out = new float[256];
        GL15.glBindBuffer(GL43.GL_SHADER_STORAGE_BUFFER, bout);
        GL15.glGetBufferSubData(GL43.GL_SHADER_STORAGE_BUFFER, 0L, out);
        int e3 = GL11.glGetError();
        int bad = -1;
        for (int i = 0; i < 256; i++) {
            if (out[i] != 2f * i + 1f) { bad = i; break; }
        }
        System.out.println(label + ": " + (bad < 0 ? "OK" : "BAD at " + bad + " got " + out[bad]) + " linked " + linked
                + " names p" + p + " b" + bin + "," + bout + " errors 0x" + Integer.toHexString(e1) + " 0x"
                + Integer.toHexString(e2) + " 0x" + Integer.toHexString(e3) + " glGenBuffers@"
                + Long.toHexString(caps.get(c[0]).glGenBuffers) + " " + GL11.glGetString(GL11.GL_RENDERER));
        GL15.glDeleteBuffers(bin);
        GL15.glDeleteBuffers(bout);
        GL20.glDeleteProgram(p);
        GL20.glDeleteShader(sh);
    }
}
