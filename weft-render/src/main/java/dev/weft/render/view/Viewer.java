package dev.weft.render.view;

import static org.lwjgl.glfw.GLFW.*;
import static org.lwjgl.opengl.GL11.GL_RENDERER;
import static org.lwjgl.opengl.GL11.GL_VERSION;
import static org.lwjgl.opengl.GL11.glGetString;

import dev.weft.core.scene.Scene;
import dev.weft.render.CameraFraming;
import dev.weft.render.PngFiles;
import dev.weft.render.RenderStyle;
import dev.weft.render.SceneRenderer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.lwjgl.glfw.GLFWErrorCallback;
import org.lwjgl.opengl.GL;
import org.lwjgl.opengl.GLCapabilities;
import org.lwjgl.system.Configuration;

/**
 * {@code weft view}: a window (GLFW) that draws the simulation with the {@link SceneRenderer} while it
 * runs on its own thread ({@link LiveSimulation}), and takes the mouse and keys ({@link ViewerInput}).
 * Each drawn frame shows the newest completed simulation frame; the title shows the simulated time,
 * the cost of a simulated frame, the slowdown when the solver cannot keep up, and the drawn frames/s.
 */
public final class Viewer {
    /** Called after each drawn frame with what it showed (tests read the simulation through it). */
    public interface FrameListener {
        void drawn(int frame, SimFrame shown, ViewerInput input);
    }

    /**
     * @param frames     close after this many drawn frames; 0: run until the window is closed
     * @param screenshot save the last drawn frame here (PNG), or null
     * @param script     replay this input, in lock-step (one simulated frame per drawn frame), or null
     * @param lockstep   one simulated frame per drawn frame (scripts, unless replayed in real time)
     * @param panel      show the parameter panel (H toggles it)
     * @param out        the V key records into {@code out/<scene>/view/take_NN/}
     * @param record     start recording with the first frame
     */
    public record Options(int width, int height, int samples, int frames, Path screenshot, InputScript script,
                          boolean lockstep, RenderStyle style, boolean panel, Path out, boolean record) {
        public boolean stepsWithFrames() {
            return lockstep;
        }
    }

    /** What a run measured. */
    /**
     * @param grabLatencyFrames for each grab: drawn frames from the one whose input pressed on the cloth to the
     *                          first that shows it held, that one included (1: the very next picture)
     */
    /**
     * @param drawCpuMsPerFrame CPU time of the drawing thread per drawn frame (llvmpipe's rasteriser threads not in it)
     * @param simCpuMsPerFrame  CPU time of the simulating thread per simulated frame
     * @param processCores      the whole process's CPU time over the wall time: cores kept busy (all threads)
     * @param slowdown          wall time over simulated time, the whole run (the JIT's warm-up included)
     * @param steadySlowdown    the same after the first {@link #WARM_UP_SECONDS} s of drawing (NaN for a run
     *                          shorter than twice that, or in lock-step)
     * @param steadyFramesPerSecond drawn frames per wall second over the same part of the run (NaN likewise)
     */
    public record Report(int drawnFrames, double wallSeconds, double drawMsPerFrame, double drawCpuMsPerFrame,
                         long simulatedFrames, double simulatedSeconds, double simMsPerFrame, double simCpuMsPerFrame,
                         double processCores, double slowdown, double steadySlowdown, double steadyFramesPerSecond,
                         String gl,
                         List<Integer> grabLatencyFrames, List<Path> takes, List<Integer> takeFrames,
                         float takeFps) {
        /** Drawn frames per wall second. */
        public double framesPerSecond() {
            return drawnFrames / wallSeconds;
        }
    }

    private static final java.lang.management.ThreadMXBean THREAD_CPU =
            java.lang.management.ManagementFactory.getThreadMXBean();
    /**
     * Wall seconds the steady slowdown leaves out: the JIT compiles the solver's loops in the first seconds
     * (the default scene's first 300 frames average 12.3 ms against ~10 after), which costs a run of
     * 15 s about 0.04 of slowdown that a user sees only at the start.
     */
    public static final double WARM_UP_SECONDS = 5;

    private Viewer() {
    }

    /** The process's CPU time so far (all its threads, llvmpipe's included), or 0 where the JVM cannot say. */
    private static long processCpuNanos() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }

    /** Opens the window and runs until it is closed, Escape, or {@code options.frames()} frames. */
    public static Report run(ViewedScene world, Options options, FrameListener listener) {
        List<String> glfwErrors = new ArrayList<>();
        GLFWErrorCallback errors = GLFWErrorCallback.create((code, description) ->
                glfwErrors.add(GLFWErrorCallback.getDescription(description)));
        glfwSetErrorCallback(errors);
        try {
            String display = System.getenv("DISPLAY");
            String wayland = System.getenv("WAYLAND_DISPLAY");
            if ((display == null || display.isBlank()) && (wayland == null || wayland.isBlank())) {
                throw new DisplayUnavailableException("no display to open the window on (DISPLAY is not set)");
            }
            if (!glfwInit()) {
                throw new DisplayUnavailableException("cannot open a window on display " + display + " ("
                        + String.join("; ", glfwErrors) + ")");
            }
            try {
                return open(world, options, listener, glfwErrors);
            } finally {
                glfwTerminate();
            }
        } finally {
            glfwSetErrorCallback(null);
            errors.free();
        }
    }

    private static Report open(ViewedScene world, Options o, FrameListener listener, List<String> glfwErrors) {
        glfwDefaultWindowHints();
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_SAMPLES, o.samples() > 1 ? o.samples() : 0);
        // a scripted run keeps its size: its events are at window pixels
        glfwWindowHint(GLFW_RESIZABLE, o.script() == null ? GLFW_TRUE : GLFW_FALSE);
        LiveSimulation live = new LiveSimulation(world);
        long window = 0L;
        GLCapabilities caps = null;
        SceneRenderer renderer = null;
        ViewerPanel panel = null;
        WindowRecorder recorder = null;
        try {
            Scene scene = live.scene();
            window = glfwCreateWindow(o.width(), o.height(), "weft view: " + scene.name(), 0L, 0L);
            if (window == 0L) {
                throw new DisplayUnavailableException("cannot create an OpenGL 3.3 core window ("
                        + String.join("; ", glfwErrors) + ")");
            }
            glfwMakeContextCurrent(window);
            loadGl();
            caps = GL.createCapabilities();
            if (!caps.OpenGL33) {
                throw new DisplayUnavailableException("the display's OpenGL is " + glGetString(GL_VERSION)
                        + "; the viewer needs 3.3");
            }
            String gl = "OpenGL " + glGetString(GL_VERSION) + ", " + glGetString(GL_RENDERER);
            // scripted and counted runs draw as fast as they can; a person's window waits for the screen
            glfwSwapInterval(o.frames() > 0 || o.stepsWithFrames() ? 0 : 1);
            int[] fw = new int[1];
            int[] fh = new int[1];
            glfwGetFramebufferSize(window, fw, fh);
            WindowTarget target = new WindowTarget(window, fw[0], fh[0]);
            int[] ww = new int[1];
            int[] wh = new int[1];
            glfwGetWindowSize(window, ww, wh);
            OrbitCamera camera = new OrbitCamera(CameraFraming.forScene(scene, (float) fw[0] / fh[0]));
            ViewerInput input = new ViewerInput(live, camera, ww[0], wh[0]);
            recorder = new WindowRecorder(o.out().resolve(scene.name()).resolve("view"));
            WindowRecorder rec = recorder;
            input.onToggleRecording(rec::toggle);
            if (o.record()) {
                recorder.toggle();
            }
            ViewerPanel[] panelRef = new ViewerPanel[1];
            installCallbacks(window, input, target, panelRef);
            if (o.panel()) {
                panel = new ViewerPanel(window, ww[0], input, world.solverNames(), world.backend(), o.stepsWithFrames());
                panelRef[0] = panel;
                ViewerPanel p = panel;
                target.overlay(p::draw);
                input.onTogglePanel(p::toggle);
            }

            renderer = new SceneRenderer(scene.model(), scene.environment().colliders(), o.style());
            dev.weft.render.SceneTextures.apply(renderer, scene);
            int rendererGeneration = 1;
            int ballsDrawn = 0;
            SimFrame shown = new SimFrame();
            shown = live.newest(shown);
            input.showing(shown); // before the first events: a click picks from the first frame
            if (!o.stepsWithFrames()) {
                live.start();
            }
            long start = System.nanoTime();
            long processCpuStart = processCpuNanos();
            long lastTitle = start;
            double drawMs = 0;
            double drawCpuMs = 0;
            int drawn = 0;
            List<Integer> latencies = new ArrayList<>();
            long drawnSequence = -1;
            long drawnEvents = -1;
            long warmWall = -1; // when the warm-up ended, and the frames simulated by then
            long warmSimFrames = 0;
            int warmDrawn = 0;
            while (!glfwWindowShouldClose(window) && !input.quitRequested()
                    && (o.frames() == 0 || drawn < o.frames())) {
                glfwPollEvents();
                int frame = drawn + 1;
                input.frame(frame);
                if (o.script() != null) {
                    o.script().replayUpTo(frame, input);
                }
                if (o.stepsWithFrames() && !world.solversOwnAGlContext()) {
                    live.stepLockstep();
                } else if (o.stepsWithFrames()) {
                    // a GLSL compute solver makes its own EGL context current while it steps (or is rebuilt), and
                    // libglvnd refuses that on a thread with the window's GLX context current (EGL_BAD_ACCESS):
                    // the window's context is let go for the step and taken back after it
                    glfwMakeContextCurrent(0L);
                    try {
                        live.stepLockstep();
                    } finally {
                        glfwMakeContextCurrent(window);
                        GL.setCapabilities(caps); // a solver rebuilt in the step closed its old context
                    }
                }
                if (live.failure() != null) {
                    throw live.failure();
                }
                shown = live.newest(shown);
                if (shown.sequence == drawnSequence && input.events() == drawnEvents && !recorder.recording()) {
                    // nothing new to show (the simulation is between frames, no input): drawing the same picture
                    // again would only take llvmpipe's cores from the simulation; wait for input a moment
                    glfwWaitEventsTimeout(0.004);
                    continue;
                }
                drawnSequence = shown.sequence;
                drawnEvents = input.events();
                if (shown.generation != rendererGeneration) {
                    // a reset: a fresh scene with fresh colliders
                    renderer.close();
                    renderer = null;
                    Scene fresh = live.scene();
                    renderer = new SceneRenderer(fresh.model(), fresh.environment().colliders(), o.style());
                    dev.weft.render.SceneTextures.apply(renderer, fresh);
                    rendererGeneration = shown.generation;
                    ballsDrawn = 0;
                }
                if (input.grabbedAt() > 0 && shown.held) {
                    latencies.add(frame - input.grabbedAt() + 1);
                    input.grabShown();
                }
                renderer.setModel(shown.model);
                renderer.setPoses(shown); // the moving bodies where they were with this frame's cloth
                while (ballsDrawn < shown.projectiles.size()) {
                    renderer.addProjectile(shown.projectiles.get(ballsDrawn++));
                }
                input.showing(shown);
                if (recorder.recording() || (o.screenshot() != null && o.frames() > 0 && frame == o.frames())) {
                    target.captureNext();
                }
                long t0 = System.nanoTime();
                long cpu0 = THREAD_CPU.getCurrentThreadCpuTime();
                if (panel != null) {
                    double seconds = (t0 - start) / 1e9;
                    panel.build(shown, drawn == 0 ? 0 : drawn / seconds, drawn == 0 ? 0 : drawMs / drawn);
                    int[] r = panel.opaqueRect();
                    target.covered(r[0], r[1], r[2], r[3]);
                }
                renderer.draw(target, shown.positions, camera.camera());
                drawMs += (System.nanoTime() - t0) / 1e6;
                drawCpuMs += (THREAD_CPU.getCurrentThreadCpuTime() - cpu0) / 1e6;
                drawn = frame;
                if (recorder.recording()) {
                    try {
                        recorder.frame(target.captured());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                if (listener != null) {
                    listener.drawn(frame, shown, input);
                }
                long now = System.nanoTime();
                if (warmWall < 0 && now - start >= (long) (WARM_UP_SECONDS * 1e9)) {
                    warmWall = now;
                    warmSimFrames = live.steppedFrames();
                    warmDrawn = drawn;
                }
                if (now - lastTitle > 250_000_000L) {
                    lastTitle = now;
                    glfwSetWindowTitle(window, title(scene.name(), shown.solver + ", " + shown.substeps + " substeps", shown,
                            drawn / ((now - start) / 1e9), drawMs / drawn) + (recorder.recording() ? " | recording (V)"
                            : ""));
                }
            }
            long end = System.nanoTime();
            double wall = (end - start) / 1e9;
            double cores = (processCpuNanos() - processCpuStart) / 1e9 / wall;
            if (o.screenshot() != null) {
                if (target.captured() == null) {
                    throw new IllegalStateException("no frame was captured for the screenshot (closed before frame "
                            + o.frames() + ")");
                }
                try {
                    PngFiles.write(target.captured(), o.screenshot());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write the screenshot " + o.screenshot(), e);
                }
            }
            recorder.close();
            long simFrames = live.steppedFrames();
            double simSeconds = simFrames / scene.fps();
            double warmSimSeconds = (simFrames - warmSimFrames) / scene.fps();
            double steady = !o.stepsWithFrames() && warmWall >= 0 && end - warmWall >= (long) (WARM_UP_SECONDS * 1e9)
                    && warmSimSeconds > 0 ? Math.max(1.0, (end - warmWall) / 1e9 / warmSimSeconds) : Double.NaN;
            double steadyFps = Double.isNaN(steady) ? Double.NaN : (drawn - warmDrawn) / ((end - warmWall) / 1e9);
            return new Report(drawn, wall, drawn == 0 ? 0 : drawMs / drawn, drawn == 0 ? 0 : drawCpuMs / drawn,
                    simFrames, simSeconds, simFrames == 0 ? 0 : live.steppingMs() / simFrames,
                    simFrames == 0 ? 0 : live.steppingCpuMs() / simFrames, cores,
                    simSeconds > 0 ? Math.max(1.0, wall / simSeconds) : Double.NaN, steady, steadyFps, gl, latencies,
                    recorder.takes(), recorder.frameCounts(), o.stepsWithFrames() ? scene.fps() : (float) Math.max(1, drawn / wall));
        } finally {
            glfwMakeContextCurrent(0L); // the solver's own context (GLSL) is made current to be closed
            live.close();
            if (window != 0L) {
                glfwMakeContextCurrent(window); // the renderer and the panel let go of theirs
                GL.setCapabilities(caps); // closing the solver's context cleared this thread's
            }
            if (recorder != null) {
                recorder.close(); // idempotent: frames queued so far are written either way
            }
            if (panel != null) {
                panel.close();
            }
            if (renderer != null) {
                renderer.close();
            }
            if (window != 0L) {
                org.lwjgl.glfw.Callbacks.glfwFreeCallbacks(window);
                glfwDestroyWindow(window);
            }
            GL.setCapabilities(null);
        }
    }

    /** OpenGL's entry points, unless another part of the program (the EGL renderer) loaded them first. */
    private static void loadGl() {
        Configuration.OPENGL_EXPLICIT_INIT.set(true);
        try {
            GL.create();
        } catch (IllegalStateException alreadyLoaded) {
            // loaded before: the same functions serve this context
        }
    }

    /** A person's input to {@code input}, except presses, wheel and keys the panel (when shown) takes. */
    private static void installCallbacks(long window, ViewerInput input, WindowTarget target, ViewerPanel[] panel) {
        glfwSetCursorPosCallback(window, (w, x, y) -> input.cursorMoved(x, y));
        glfwSetMouseButtonCallback(window, (w, button, action, mods) -> {
            if (action != GLFW_PRESS || panel[0] == null || !panel[0].wantsMouse()) {
                input.mouseButton(button, action == GLFW_PRESS, mods);
            }
        });
        glfwSetScrollCallback(window, (w, dx, dy) -> {
            if (panel[0] == null || !panel[0].wantsMouse()) {
                input.scrolled(dy);
            }
        });
        glfwSetKeyCallback(window, (w, key, scancode, action, mods) -> {
            if (panel[0] != null && panel[0].wantsKeyboard()) {
                return;
            }
            if (action == GLFW_PRESS || (action == GLFW_REPEAT && (key == GLFW_KEY_N || key == GLFW_KEY_PERIOD))) {
                input.key(key, mods);
            }
        });
        glfwSetWindowSizeCallback(window, (w, width, height) -> input.resized(width, height));
        glfwSetFramebufferSizeCallback(window, (w, width, height) -> target.resized(width, height));
    }

    private static String title(String scene, String solver, SimFrame f, double fps, double drawMs) {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT,
                "weft view: %s | %s | t %.2f s | sim %.1f ms/frame", scene, solver, f.time, f.stepMs));
        if (f.slowdown > 1.05) {
            t.append(String.format(Locale.ROOT, ", %.1fx slower than real time", f.slowdown));
        }
        t.append(String.format(Locale.ROOT, " | %.0f frames/s, draw %.1f ms", fps, drawMs));
        if (f.speed != 1.0) {
            t.append(String.format(Locale.ROOT, " | slow motion %.3gx", f.speed));
        }
        t.append(f.tearing ? " | tearing on" : " | tearing off");
        if (f.paused) {
            t.append(" | paused");
        }
        return t.toString();
    }
}
