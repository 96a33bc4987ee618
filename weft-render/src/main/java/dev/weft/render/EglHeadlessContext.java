package dev.weft.render;

import static org.lwjgl.egl.EGL10.EGL_BLUE_SIZE;
import static org.lwjgl.egl.EGL10.EGL_EXTENSIONS;
import static org.lwjgl.egl.EGL10.EGL_GREEN_SIZE;
import static org.lwjgl.egl.EGL10.EGL_HEIGHT;
import static org.lwjgl.egl.EGL10.EGL_NONE;
import static org.lwjgl.egl.EGL10.EGL_NO_CONTEXT;
import static org.lwjgl.egl.EGL10.EGL_NO_DISPLAY;
import static org.lwjgl.egl.EGL10.EGL_NO_SURFACE;
import static org.lwjgl.egl.EGL10.EGL_PBUFFER_BIT;
import static org.lwjgl.egl.EGL10.EGL_RED_SIZE;
import static org.lwjgl.egl.EGL10.EGL_SURFACE_TYPE;
import static org.lwjgl.egl.EGL10.EGL_WIDTH;

import java.nio.ByteBuffer;
import org.lwjgl.PointerBuffer;
import org.lwjgl.egl.EGL;
import org.lwjgl.egl.EGL10;
import org.lwjgl.egl.EGL12;
import org.lwjgl.egl.EGL14;
import org.lwjgl.egl.EGL15;
import org.lwjgl.egl.EGLCapabilities;
import org.lwjgl.opengl.GL;
import org.lwjgl.opengl.GL11;
import org.lwjgl.opengl.GL30;
import org.lwjgl.opengl.GLCapabilities;
import org.lwjgl.system.Configuration;
import org.lwjgl.system.FunctionProvider;
import org.lwjgl.system.JNI;
import org.lwjgl.system.MemoryStack;

/**
 * An OpenGL core context (3.3 for drawing, 4.3 for compute shaders: {@link #create(int, int)}) with no
 * window and no display server, through EGL. It prefers Mesa's
 * surfaceless platform (EGL_MESA_platform_surfaceless), which needs neither X11 nor a GPU: with
 * llvmpipe it renders on the CPU. The context has no default framebuffer; draw into an
 * {@link OffscreenTarget}. It is current on the thread that created it, and only there.
 *
 * <p>LWJGL work-arounds: its {@code eglGetPlatformDisplayEXT} rejects the NULL native display the
 * surfaceless platform requires (and reports the client extension as missing), so the entry point is
 * called directly through {@link JNI}; and OpenGL's functions are resolved through
 * {@code eglGetProcAddress} instead of libGL/GLX, which a machine without X11 need not have.
 */
public final class EglHeadlessContext implements AutoCloseable {
    /** From EGL_MESA_platform_surfaceless. */
    static final int EGL_PLATFORM_SURFACELESS_MESA = 0x31DD;

    private static final Object LOCK = new Object();
    private static boolean glLoaded;
    private static long sharedDisplay;
    private static int displayUsers;

    private final long display;
    private final long context;
    private final long surface;
    private final String description;
    private final GLCapabilities capabilities;
    private boolean closed;

    private EglHeadlessContext(long display, long context, long surface, String description,
                               GLCapabilities capabilities) {
        this.display = display;
        this.context = context;
        this.surface = surface;
        this.description = description;
        this.capabilities = capabilities;
    }

    /** An OpenGL 3.3 core context (what the renderer needs), current on this thread; see {@link #create(int, int)}. */
    public static EglHeadlessContext create() {
        return create(3, 3);
    }

    /**
     * Creates an OpenGL {@code major.minor} core context (or a later version the driver gives) and makes it
     * current on this thread; throws {@link RenderUnavailableException} naming the version when the driver
     * cannot make one.
     */
    public static EglHeadlessContext create(int major, int minor) {
        synchronized (LOCK) {
            EGLCapabilities client;
            try {
                client = EGL.getCapabilities();
            } catch (LinkageError | RuntimeException e) {
                throw new RenderUnavailableException("cannot load libEGL (" + e + ")", e);
            }
            String platform;
            if (sharedDisplay == 0L) {
                String clientExtensions = EGL10.eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
                long display;
                if (clientExtensions != null && clientExtensions.contains("EGL_MESA_platform_surfaceless")
                        && client.eglGetPlatformDisplayEXT != 0L) {
                    display = JNI.callPPP(EGL_PLATFORM_SURFACELESS_MESA, 0L, 0L, client.eglGetPlatformDisplayEXT);
                    platform = "surfaceless";
                } else {
                    // Older Mesa or another vendor: the default display (EGL_PLATFORM=surfaceless selects it too).
                    display = EGL10.eglGetDisplay(0L);
                    platform = "default";
                }
                if (display == EGL_NO_DISPLAY) {
                    throw new RenderUnavailableException("EGL has no " + platform + " display (client extensions: "
                            + clientExtensions + ")");
                }
                int[] eglMajor = new int[1];
                int[] eglMinor = new int[1];
                if (!EGL10.eglInitialize(display, eglMajor, eglMinor)) {
                    throw new RenderUnavailableException("eglInitialize failed on the " + platform
                            + " display (EGL error 0x" + Integer.toHexString(EGL10.eglGetError()) + ")");
                }
                sharedDisplay = display;
            } else {
                platform = "shared";
            }
            long display = sharedDisplay;
            displayUsers++;
            try {
                return createOn(display, platform, major, minor);
            } catch (RuntimeException e) {
                release();
                throw e;
            }
        }
    }

    private static EglHeadlessContext createOn(long display, String platform, int major, int minor) {
        String extensions = EGL10.eglQueryString(display, EGL_EXTENSIONS);
        String vendor = EGL10.eglQueryString(display, EGL10.EGL_VENDOR);
        if (!EGL12.eglBindAPI(EGL14.EGL_OPENGL_API)) {
            throw new RenderUnavailableException("EGL (" + vendor + ") does not offer desktop OpenGL");
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            PointerBuffer configs = stack.mallocPointer(1);
            int[] count = new int[1];
            int[] wanted = {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                EGL12.EGL_RENDERABLE_TYPE, EGL14.EGL_OPENGL_BIT, EGL_NONE};
            if (!EGL10.eglChooseConfig(display, wanted, configs, count) || count[0] < 1) {
                throw new RenderUnavailableException("EGL (" + vendor + ") has no RGB8 OpenGL configuration");
            }
            long config = configs.get(0);
            int[] attributes = {EGL15.EGL_CONTEXT_MAJOR_VERSION, major, EGL15.EGL_CONTEXT_MINOR_VERSION, minor,
                EGL15.EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL15.EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
            long context = EGL10.eglCreateContext(display, config, EGL_NO_CONTEXT, attributes);
            if (context == EGL_NO_CONTEXT) {
                throw new RenderUnavailableException("EGL (" + vendor + ") cannot create an OpenGL " + major + "."
                        + minor + " core context"
                        + " (EGL error 0x" + Integer.toHexString(EGL10.eglGetError()) + ")");
            }
            long surface = EGL_NO_SURFACE;
            if (extensions == null || !extensions.contains("EGL_KHR_surfaceless_context")) {
                // no surfaceless contexts: a 1 × 1 pbuffer to be current with; drawing still goes to FBOs
                surface = EGL10.eglCreatePbufferSurface(display, config, new int[] {EGL_WIDTH, 1, EGL_HEIGHT, 1,
                    EGL_NONE});
            }
            if (!EGL10.eglMakeCurrent(display, surface, surface, context)) {
                EGL10.eglDestroyContext(display, context);
                throw new RenderUnavailableException("eglMakeCurrent failed (EGL error 0x"
                        + Integer.toHexString(EGL10.eglGetError()) + ")");
            }
            GLCapabilities gl = loadGl();
            int version = 10 * GL11.glGetInteger(GL30.GL_MAJOR_VERSION) + GL11.glGetInteger(GL30.GL_MINOR_VERSION);
            if (version < 10 * major + minor) {
                String offered = GL11.glGetString(GL11.GL_VERSION);
                EGL10.eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
                EGL10.eglDestroyContext(display, context);
                throw new RenderUnavailableException("OpenGL " + major + "." + minor + " is needed, the driver offers "
                        + offered);
            }
            String description = "EGL " + platform + " (" + vendor + "), OpenGL " + GL11.glGetString(GL11.GL_VERSION)
                    + ", " + GL11.glGetString(GL11.GL_RENDERER);
            return new EglHeadlessContext(display, context, surface, description, gl);
        }
    }

    private static GLCapabilities loadGl() {
        if (!glLoaded) {
            // Resolve GL entry points through EGL; must be said before LWJGL's GL class loads libGL by itself.
            Configuration.OPENGL_EXPLICIT_INIT.set(true);
            FunctionProvider viaEgl = new FunctionProvider() {
                @Override
                public long getFunctionAddress(ByteBuffer functionName) {
                    return EGL10.eglGetProcAddress(functionName);
                }

                @Override
                public long getFunctionAddress(CharSequence functionName) {
                    return EGL10.eglGetProcAddress(functionName);
                }
            };
            try {
                GL.create(viaEgl);
            } catch (IllegalStateException alreadyLoaded) {
                // another part of the program (a window) loaded OpenGL first; its entry points serve us too
            }
            glLoaded = true;
        }
        return GL.createCapabilities();
    }

    /** Which EGL platform, vendor, OpenGL version and renderer this context runs on. */
    public String description() {
        return description;
    }

    /** Makes this context current on the calling thread (LWJGL's OpenGL functions with it). */
    public void makeCurrent() {
        if (!EGL10.eglMakeCurrent(display, surface, surface, context)) {
            throw new IllegalStateException("eglMakeCurrent failed (EGL error 0x"
                    + Integer.toHexString(EGL10.eglGetError()) + ")");
        }
        GL.setCapabilities(capabilities);
    }

    /** Makes no context current on the calling thread if this one is (a borrower done with it). */
    public void releaseCurrent() {
        if (isCurrent()) {
            EGL10.eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            GL.setCapabilities(null);
        }
    }

    /** Whether this context is the calling thread's current one. */
    public boolean isCurrent() {
        return EGL14.eglGetCurrentContext() == context;
    }

    /** The OpenGL functions and extensions of this context. */
    public GLCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (LOCK) {
            EGL10.eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            GL.setCapabilities(null);
            if (surface != EGL_NO_SURFACE) {
                EGL10.eglDestroySurface(display, surface);
            }
            EGL10.eglDestroyContext(display, context);
            release();
        }
    }

    /** The display is shared by all contexts and terminated with the last one. */
    private static void release() {
        if (--displayUsers == 0) {
            EGL10.eglTerminate(sharedDisplay);
            sharedDisplay = 0L;
        }
    }
}
