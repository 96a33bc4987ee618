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
import static org.lwjgl.egl.EXTPlatformDevice.EGL_PLATFORM_DEVICE_EXT;

import dev.weft.core.InvalidInputException;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import org.lwjgl.PointerBuffer;
import org.lwjgl.egl.EGL;
import org.lwjgl.egl.EGL10;
import org.lwjgl.egl.EGL12;
import org.lwjgl.egl.EGL14;
import org.lwjgl.egl.EGL15;
import org.lwjgl.egl.EGLCapabilities;
import org.lwjgl.egl.EXTDeviceEnumeration;
import org.lwjgl.egl.EXTDeviceQuery;
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
 * window and no display server, through EGL. It prefers a GPU through the EGL device platform
 * (EGL_EXT_platform_device: NVIDIA's recommended headless path), else Mesa's surfaceless platform
 * (EGL_MESA_platform_surfaceless), which needs neither X11 nor a GPU: with llvmpipe it renders on the CPU
 * ({@link #PLATFORM_PROPERTY} picks one). The context has no default framebuffer; draw into an
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
    /**
     * Which EGL platform to open: {@code auto} (the default: a GPU through the device platform, else Mesa's
     * surfaceless platform, else the default display), or one of {@code device}, {@code surfaceless},
     * {@code default} alone. For a machine where the automatic choice is wrong, and to compare drivers' paths.
     */
    public static final String PLATFORM_PROPERTY = "weft.egl.platform";
    /**
     * Whether a closed context is kept and handed to the next {@link #create} asking for the same version instead
     * of being destroyed (and a reusable one is made at OpenGL 4.3, serving every version up to it): {@code auto}
     * (the default: on NVIDIA's driver only), {@code true} or {@code false}.
     * NVIDIA's 580 driver gives every context a process creates after its first a broken state (buffer calls
     * fail with GL_INVALID_OPERATION, shaders read zeros; on the EGL device and surfaceless platforms alike,
     * whether or not the display is terminated between them: H200 and H100 runs, docs/opencl.md), so there a
     * process keeps reusing the contexts it made. A reused context holds no objects of its last user (who
     * deletes them) but may hold its bindings and settings, which every user of this class sets before use.
     */
    public static final String REUSE_PROPERTY = "weft.egl.reuse";
    /**
     * Whether a new context is made in the share group of the process's live contexts ({@code auto}, the default: on
     * NVIDIA's driver only; {@code true}; {@code false}). On NVIDIA's 580 driver a context made on a thread that had
     * another context current, outside that context's share group, is broken (see {@link #REUSE_PROPERTY}); inside
     * it, it works, beside the other or after it (an H100 probe, scripts/device/EglContextsProbe.java). Objects
     * (buffers, programs, textures) are then shared: every user of this class deletes the names it made, and names
     * are unique within a group, so no user meets another's.
     */
    public static final String SHARE_PROPERTY = "weft.egl.share";
    /** The version a reusable context is made at (where the driver has it): the GLSL compute solvers'. */
    private static final int REUSED_MAJOR = 4;
    private static final int REUSED_MINOR = 3;

    private static final Object LOCK = new Object();
    private static boolean glLoaded;
    private static long sharedDisplay;
    private static int displayUsers;
    /** Whether this process has made a context (NVIDIA's driver: only the first works outside a share group). */
    private static boolean madeOne;
    /** The contexts made on the shared display and not destroyed (kept ones included): a new one may share with them. */
    private static final List<Long> live = new ArrayList<>();

    /** Closed contexts kept for reuse ({@link #REUSE_PROPERTY}), each still counted among the display's users. */
    private static final List<EglHeadlessContext> kept = new ArrayList<>();

    private final long display;
    private final long context;
    private final long surface;
    private final String description;
    private final GLCapabilities capabilities;
    /** The version it was made for (a kept context serves requests up to it). */
    private final int major;
    private final int minor;
    /** Whether close keeps the context for the next create. */
    private final boolean reusable;
    private boolean closed;

    private EglHeadlessContext(long display, long context, long surface, String description,
                               GLCapabilities capabilities, int major, int minor, boolean reusable) {
        this.display = display;
        this.context = context;
        this.surface = surface;
        this.description = description;
        this.capabilities = capabilities;
        this.major = major;
        this.minor = minor;
        this.reusable = reusable;
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
            for (int i = 0; i < kept.size(); i++) {
                EglHeadlessContext k = kept.get(i);
                if (10 * k.major + k.minor >= 10 * major + minor) {
                    kept.remove(i);
                    EglHeadlessContext again = new EglHeadlessContext(k.display, k.context, k.surface, k.description,
                            k.capabilities, k.major, k.minor, true);
                    again.makeCurrent();
                    return again;
                }
            }
            String platform;
            if (sharedDisplay == 0L) {
                String clientExtensions = EGL10.eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
                String wanted = System.getProperty(PLATFORM_PROPERTY, "auto");
                if (!List.of("auto", "device", "surfaceless", "default").contains(wanted)) {
                    throw new InvalidInputException("-D" + PLATFORM_PROPERTY, "'" + wanted
                            + "' is not an EGL platform weft knows: auto, device, surfaceless or default");
                }
                boolean auto = wanted.equals("auto");
                boolean platforms = clientExtensions != null && client.eglGetPlatformDisplayEXT != 0L;
                long display = EGL_NO_DISPLAY;
                platform = wanted;
                if ((auto || wanted.equals("device")) && platforms && clientExtensions.contains("EGL_EXT_platform_device")
                        && client.eglQueryDevicesEXT != 0L && client.eglQueryDeviceStringEXT != 0L) {
                    long device = device(!auto);
                    if (device != 0L) {
                        display = JNI.callPPP(EGL_PLATFORM_DEVICE_EXT, device, 0L, client.eglGetPlatformDisplayEXT);
                        platform = "device";
                    }
                }
                if (display == EGL_NO_DISPLAY && (auto || wanted.equals("surfaceless")) && platforms
                        && clientExtensions.contains("EGL_MESA_platform_surfaceless")) {
                    display = JNI.callPPP(EGL_PLATFORM_SURFACELESS_MESA, 0L, 0L, client.eglGetPlatformDisplayEXT);
                    platform = "surfaceless";
                }
                if (display == EGL_NO_DISPLAY && (auto || wanted.equals("default"))) {
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

    /**
     * The device the device platform opens: the first that is not Mesa's software rasteriser (a GPU: NVIDIA's
     * driver, or a Mesa DRM device), or with {@code any} the first at all; 0 where there is none.
     */
    private static long device(boolean any) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer count = stack.mallocInt(1);
            if (!EXTDeviceEnumeration.eglQueryDevicesEXT(null, count) || count.get(0) < 1) {
                return 0L;
            }
            PointerBuffer devices = stack.mallocPointer(count.get(0));
            if (!EXTDeviceEnumeration.eglQueryDevicesEXT(devices, count)) {
                return 0L;
            }
            for (int i = 0; i < count.get(0); i++) {
                String extensions = EXTDeviceQuery.eglQueryDeviceStringEXT(devices.get(i), EGL_EXTENSIONS);
                if (any || extensions == null || !extensions.contains("EGL_MESA_device_software")) {
                    return devices.get(i);
                }
            }
            return 0L;
        }
    }

    private static EglHeadlessContext createOn(long display, String platform, int major, int minor) {
        String extensions = EGL10.eglQueryString(display, EGL_EXTENSIONS);
        String vendor = EGL10.eglQueryString(display, EGL10.EGL_VENDOR);
        String reuse = System.getProperty(REUSE_PROPERTY, "auto");
        if (!List.of("auto", "true", "false").contains(reuse)) {
            throw new InvalidInputException("-D" + REUSE_PROPERTY, "'" + reuse + "' must be auto, true or false");
        }
        String share = System.getProperty(SHARE_PROPERTY, "auto");
        if (!List.of("auto", "true", "false").contains(share)) {
            throw new InvalidInputException("-D" + SHARE_PROPERTY, "'" + share + "' must be auto, true or false");
        }
        boolean nvidia = vendor != null && vendor.contains("NVIDIA");
        // NVIDIA: the process's first context is kept (a context made after it outside its share group is broken; a
        // later one, in the group, is destroyed when closed)
        boolean reusable = reuse.equals("true") || reuse.equals("auto") && nvidia && !madeOne;
        madeOne = true;
        boolean shared = share.equals("true") || share.equals("auto") && nvidia;
        if (reusable && 10 * major + minor < 10 * REUSED_MAJOR + REUSED_MINOR) {
            // a kept context serves any request up to its version: made at the compute shaders' version, the one
            // context a process on NVIDIA's driver can use serves the renderer and the GLSL solvers alike
            try {
                return createOn(display, platform, REUSED_MAJOR, REUSED_MINOR, vendor, extensions, true, shared);
            } catch (RenderUnavailableException older) {
                // a driver without 4.3: the version asked for
            }
        }
        return createOn(display, platform, major, minor, vendor, extensions, reusable, shared);
    }

    private static EglHeadlessContext createOn(long display, String platform, int major, int minor, String vendor,
                                               String extensions, boolean reusable, boolean shared) {
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
            long group = shared && !live.isEmpty() ? live.get(0) : EGL_NO_CONTEXT;
            long context = EGL10.eglCreateContext(display, config, group, attributes);
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
            live.add(context);
            GLCapabilities gl = loadGl();
            int version = 10 * GL11.glGetInteger(GL30.GL_MAJOR_VERSION) + GL11.glGetInteger(GL30.GL_MINOR_VERSION);
            if (version < 10 * major + minor) {
                String offered = GL11.glGetString(GL11.GL_VERSION);
                EGL10.eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
                EGL10.eglDestroyContext(display, context);
                live.remove(Long.valueOf(context));
                throw new RenderUnavailableException("OpenGL " + major + "." + minor + " is needed, the driver offers "
                        + offered);
            }
            String description = "EGL " + platform + " (" + vendor + "), OpenGL " + GL11.glGetString(GL11.GL_VERSION)
                    + ", " + GL11.glGetString(GL11.GL_RENDERER);
            return new EglHeadlessContext(display, context, surface, description, gl, major, minor, reusable);
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
        close(reusable);
    }

    /** Closes this context for good, never keeping it for reuse (one that failed a check of its results). */
    public void discard() {
        close(false);
    }

    private void close(boolean keep) {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (LOCK) {
            EGL10.eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            GL.setCapabilities(null);
            if (keep) {
                kept.add(this);
                return;
            }
            if (surface != EGL_NO_SURFACE) {
                EGL10.eglDestroySurface(display, surface);
            }
            EGL10.eglDestroyContext(display, context);
            live.remove(Long.valueOf(context));
            release();
        }
    }

    /** The EGL context handle (two objects share one where a kept context was reused). */
    long handle() {
        return context;
    }

    /** Whether a display is open (contexts, kept ones included, still on it): its platform is the one in use. */
    static boolean displayOpen() {
        synchronized (LOCK) {
            return sharedDisplay != 0L;
        }
    }

    /**
     * Destroys the kept contexts, and with them the display if no other context is open: a test that turned
     * reuse on leaves none behind. At a program's end use {@link #shutdown} (this from a shutdown hook did not stop
     * NVIDIA's EGL crashing at exit: an H100 run, docs/glsl-compute.md).
     */
    static void destroyKept() {
        synchronized (LOCK) {
            for (EglHeadlessContext k : kept) {
                if (k.surface != EGL_NO_SURFACE) {
                    EGL10.eglDestroySurface(k.display, k.surface);
                }
                EGL10.eglDestroyContext(k.display, k.context);
                live.remove(Long.valueOf(k.context));
                release();
            }
            kept.clear();
        }
    }

    /**
     * Ends this process's use of EGL on the calling thread, as a program's last step: the kept contexts destroyed,
     * the display terminated where no context is open, the thread's EGL state released. NVIDIA's driver crashes in
     * a thread of its own as a process ends while a context or its display lives (SIGSEGV in libEGL_nvidia.so; a
     * shutdown hook doing this from another thread did not stop it), and exits cleanly when the thread that used
     * them does this before {@code main} returns (scripts/device/EglContextsProbe.java on an H100). No context may be
     * made after it on that driver (only a process's first works outside a share group), so {@code weft}'s
     * {@code main} calls it, not a library. Does nothing where EGL was never used.
     */
    public static void shutdown() {
        synchronized (LOCK) {
            if (!madeOne) {
                return;
            }
            destroyKept();
            if (sharedDisplay == 0L) {
                EGL12.eglReleaseThread();
            }
        }
    }

    /** The display is shared by all contexts (kept ones too) and terminated with the last one. */
    private static void release() {
        if (--displayUsers == 0) {
            EGL10.eglTerminate(sharedDisplay);
            sharedDisplay = 0L;
        }
    }
}
