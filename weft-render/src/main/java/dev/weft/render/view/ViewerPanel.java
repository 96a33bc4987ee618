package dev.weft.render.view;

import dev.weft.core.model.Material;
import imgui.ImGui;
import imgui.ImGuiIO;
import imgui.ImVec4;
import imgui.flag.ImGuiCol;
import imgui.flag.ImGuiCond;
import imgui.gl3.ImGuiImplGl3;
import imgui.glfw.ImGuiImplGlfw;
import imgui.type.ImInt;
import java.util.List;
import java.util.Locale;

/**
 * The parameter panel (Dear ImGui through imgui-java, drawn into the viewer's window over the scene):
 * solver (switched live from the state it has), iterations, substeps, the material's stiffnesses and
 * damping, wind, gravity, tearing, speed; readouts of the cost of a frame, the residual (seed 001
 * eq. 4.1), the largest strain, the counts, and a plot of residual and frame cost. Every change goes
 * through {@link ViewerInput#set}, where a script's panel values go too.
 */
final class ViewerPanel implements AutoCloseable {
    private static final int HISTORY = 120;

    private final ViewerInput input;
    private final List<String> solvers;
    /** Where the solvers step ({@link ViewedScene#backend()}), shown beside the counts. */
    private final String backend;
    private final ImGuiImplGlfw glfw = new ImGuiImplGlfw();
    private final ImGuiImplGl3 gl3 = new ImGuiImplGl3();
    private final float[] residuals = new float[HISTORY];
    private final float[] stepMs = new float[HISTORY];
    private int samples;
    private long lastSequence = -1;
    private final ImInt solver = new ImInt();
    private final ImInt mode = new ImInt();
    private final ImInt inner = new ImInt();
    private final float[] omega = new float[1];
    private static final String[] MODES = modes();
    private static final String[] INNERS = inners();
    private final int[] iterations = new int[1];
    private final int[] substeps = new int[1];
    private final float[] stretch = new float[1];
    private final float[] bend = new float[1];
    private final float[] damping = new float[1];
    private final float[] shear = new float[1];
    private final float[] friction = new float[1];
    private final float[] tearStrain = new float[1];
    private final float[] wind = new float[3];
    private final float[] gravityY = new float[1];
    private final float[] speed = new float[1];
    private boolean visible = true;
    /** The panel's window in framebuffer pixels as last laid out (x, y from the top-left, width, height); 0 wide when hidden. */
    private final int[] opaque = new int[4];
    /** Windows narrower than this start with the panel collapsed to its title bar, so the scene shows. */
    private static final int COLLAPSED_BELOW_WIDTH = 800;
    private final boolean startCollapsed;

    private final boolean lockstep;

    ViewerPanel(long window, int windowWidth, ViewerInput input, List<String> solvers, String backend, boolean lockstep) {
        this.backend = backend;
        this.input = input;
        this.lockstep = lockstep;
        this.startCollapsed = windowWidth < COLLAPSED_BELOW_WIDTH;
        this.solvers = solvers;
        ImGui.createContext();
        ImGuiIO io = ImGui.getIO();
        io.setIniFilename(null); // no imgui.ini written into the working directory
        glfw.init(window, true); // after the viewer's callbacks, which it calls in turn
        gl3.init("#version 330 core");
        // an opaque background and collapsed title bar (the dark style's are 94 % and 51 % opaque): the scene under
        // the panel is then never seen, and the window skips shading it (WindowTarget.cleared)
        for (int part : new int[] {ImGuiCol.WindowBg, ImGuiCol.TitleBgCollapsed}) {
            ImVec4 c = ImGui.getStyle().getColor(part);
            ImGui.getStyle().setColor(part, c.x, c.y, c.z, 1f);
        }
    }

    /**
     * The panel's window as last laid out, in framebuffer pixels, shrunk to the pixels its opaque background fills
     * whole (inside its rounded corners): x, y from the top-left, width, height; width 0 while hidden.
     */
    int[] opaqueRect() {
        return opaque;
    }

    /** True while the cursor is over the panel: the scene below does not take the mouse then. */
    boolean wantsMouse() {
        return visible && ImGui.getIO().getWantCaptureMouse();
    }

    boolean wantsKeyboard() {
        return visible && ImGui.getIO().getWantCaptureKeyboard();
    }

    void toggle() {
        visible = !visible;
    }

    /** Lays out this frame's panel for the frame {@code f} the window shows (before the scene is drawn). */
    void build(SimFrame f, double drawnFps, double drawMs) {
        if (f.sequence != lastSequence) {
            lastSequence = f.sequence;
            System.arraycopy(residuals, 1, residuals, 0, HISTORY - 1);
            System.arraycopy(stepMs, 1, stepMs, 0, HISTORY - 1);
            residuals[HISTORY - 1] = (float) f.residual;
            stepMs[HISTORY - 1] = (float) f.stepMs;
            samples = Math.min(HISTORY, samples + 1);
        }
        gl3.newFrame();
        glfw.newFrame();
        ImGui.newFrame();
        if (!visible) {
            opaque[2] = 0;
            ImGui.render();
            return;
        }
        ImGui.setNextWindowPos(8, 8, ImGuiCond.FirstUseEver);
        ImGui.setNextWindowSize(360, 0, ImGuiCond.FirstUseEver);
        ImGui.setNextWindowCollapsed(startCollapsed, ImGuiCond.FirstUseEver);
        ImGui.begin("weft (H hides)");
        coverWindow();
        ImGui.text(String.format(Locale.ROOT, "t %.2f s   %.1f ms per simulated frame", f.time, f.stepMs));
        ImGui.text(lockstep ? "lock-step: one simulated frame per drawn frame"
                : f.slowdown > 1.05 ? String.format(Locale.ROOT, "%.1fx slower than real time", f.slowdown)
                : "real time");
        ImGui.text(String.format(Locale.ROOT, "drawn %.0f frames/s, draw %.1f ms", drawnFps, drawMs));
        // (no percent signs: ImGui formats the text once more)
        ImGui.text(String.format(Locale.ROOT, "residual %.3e m^2, max strain %.4f", f.residual, f.maxStrain));
        ImGui.text(String.format(Locale.ROOT, "%d particles, %d constraints, %d balls",
                f.model.particleCount(), f.model.distances().count() + f.model.bending().count(),
                f.projectiles.size()));
        ImGui.text("backend " + backend);
        ImGui.plotLines("residual", residuals, samples, HISTORY - samples);
        ImGui.plotLines("ms/frame", stepMs, samples, HISTORY - samples);
        ImGui.separator();

        solver.set(Math.max(0, solvers.indexOf(f.solver)));
        if (ImGui.combo("solver", solver, solvers.toArray(new String[0]))) {
            input.set("solver", solvers.get(solver.get()));
        }
        if ("xpbd".equals(f.solver) || "pbd".equals(f.solver)) {
            mode.set(f.tuning.mode() == null ? 0 : f.tuning.mode().ordinal() + 1);
            if (ImGui.combo("mode", mode, MODES) && mode.get() > 0) {
                input.set("mode", MODES[mode.get()]);
            }
        } else if ("pd".equals(f.solver)) {
            inner.set(f.tuning.inner() == null ? 0 : f.tuning.inner().ordinal() + 1);
            if (ImGui.combo("inner solver", inner, INNERS) && inner.get() > 0) {
                input.set("inner", INNERS[inner.get()]);
            }
            omega[0] = f.tuning.omega() == null ? 1f : f.tuning.omega();
            ImGui.sliderFloat(f.tuning.omega() == null ? "omega (scene's)" : "omega", omega, 0.1f, 1.95f, "%.2f");
            if (ImGui.isItemDeactivatedAfterEdit()) {
                input.set("omega", omega[0]);
            }
        }
        if (f.iterations != null) {
            iterations[0] = f.iterations;
            ImGui.sliderInt("iterations", iterations, 1, 100);
            if (ImGui.isItemDeactivatedAfterEdit()) {
                input.set("iterations", iterations[0]);
            }
        } else {
            ImGui.text("iterations: the solver's own");
        }
        substeps[0] = f.substeps;
        ImGui.sliderInt("substeps", substeps, 1, 100);
        if (ImGui.isItemDeactivatedAfterEdit()) {
            input.set("substeps", substeps[0]);
        }
        Material m = f.material;
        stretch[0] = m.stretchStiffness();
        bend[0] = m.bendStiffness();
        damping[0] = m.damping();
        ImGui.sliderFloat("stretch", stretch, 0f, Math.max(1f, 2f * m.stretchStiffness()), "%.4g");
        if (ImGui.isItemDeactivatedAfterEdit()) {
            input.set("stretch", stretch[0]);
        }
        ImGui.sliderFloat("bend", bend, 0f, Math.max(1f, 2f * m.bendStiffness()), "%.4g");
        if (ImGui.isItemDeactivatedAfterEdit()) {
            input.set("bend", bend[0]);
        }
        ImGui.sliderFloat("damping", damping, 0f, Math.max(1f, 2f * m.damping()), "%.4g");
        if (ImGui.isItemDeactivatedAfterEdit()) {
            input.set("damping", damping[0]);
        }
        shear[0] = m.shearStiffness();
        ImGui.sliderFloat("shear", shear, 0f, Math.max(1f, 2f * m.shearStiffness()), "%.4g");
        if (ImGui.isItemDeactivatedAfterEdit()) {
            input.set("shear", shear[0]);
        }
        friction[0] = m.friction();
        ImGui.sliderFloat("friction", friction, 0f, 2f, "%.2f");
        if (ImGui.isItemDeactivatedAfterEdit()) {
            input.set("friction", friction[0]);
        }
        tearStrain[0] = Float.isFinite(m.tearStrain()) ? m.tearStrain() : 1f;
        ImGui.sliderFloat("tear strain", tearStrain, 0.01f, 1f, "%.2f");
        if (ImGui.isItemDeactivatedAfterEdit()) {
            input.set("tearStrain", tearStrain[0]);
        }
        if (f.edited) {
            ImGui.textWrapped("cut or torn: material changes need a reset (R)");
        }
        System.arraycopy(f.wind, 0, wind, 0, 3);
        if (ImGui.sliderFloat3("wind m/s", wind, -20f, 20f, "%.1f")) {
            if (wind[0] != f.wind[0]) {
                input.set("windX", wind[0]);
            }
            if (wind[1] != f.wind[1]) {
                input.set("windY", wind[1]);
            }
            if (wind[2] != f.wind[2]) {
                input.set("windZ", wind[2]);
            }
        }
        gravityY[0] = f.gravity[1];
        if (ImGui.sliderFloat("gravity y", gravityY, -20f, 5f, "%.2f")) {
            input.set("gravityY", gravityY[0]);
        }
        if (ImGui.checkbox("tearing (T)", f.tearing)) {
            input.set("tearing", f.tearing ? 0 : 1);
        }
        ImGui.sameLine();
        if (ImGui.checkbox("paused (space)", f.paused)) {
            input.set("paused", f.paused ? 0 : 1);
        }
        if (ImGui.checkbox("self-collision", f.selfCollision)) {
            input.set("selfCollision", f.selfCollision ? 0 : 1);
        }
        speed[0] = (float) f.speed;
        if (ImGui.sliderFloat("speed", speed, 0.05f, 1f, "%.2f")) {
            input.set("speed", speed[0]);
        }
        if (f.refusal != null) {
            ImGui.textWrapped("refused: " + f.refusal);
        }
        ImGui.end();
        ImGui.render();
    }

    /** Records the current ImGui window's rectangle in {@link #opaque}. */
    private void coverWindow() {
        ImGuiIO io = ImGui.getIO();
        float sx = io.getDisplayFramebufferScaleX();
        float sy = io.getDisplayFramebufferScaleY();
        float inset = ImGui.getStyle().getWindowRounding();
        float x = ImGui.getWindowPosX() + inset;
        float y = ImGui.getWindowPosY() + inset;
        float w = ImGui.getWindowWidth() - 2 * inset;
        float h = ImGui.getWindowHeight() - 2 * inset;
        int x0 = (int) Math.ceil(x * sx);
        int y0 = (int) Math.ceil(y * sy);
        opaque[0] = x0;
        opaque[1] = y0;
        opaque[2] = Math.max(0, (int) Math.floor((x + w) * sx) - x0);
        opaque[3] = Math.max(0, (int) Math.floor((y + h) * sy) - y0);
    }

    /** "(scene's)" and XPBD's iteration modes by name. */
    private static String[] modes() {
        var values = dev.weft.core.solver.xpbd.IterationMode.values();
        String[] names = new String[values.length + 1];
        names[0] = "(scene's)";
        for (int i = 0; i < values.length; i++) {
            names[i + 1] = values[i].label();
        }
        return names;
    }

    /** "(scene's)" and Projective Dynamics' inner solvers by name. */
    private static String[] inners() {
        var values = dev.weft.core.solver.pd.InnerSolver.values();
        String[] names = new String[values.length + 1];
        names[0] = "(scene's)";
        for (int i = 0; i < values.length; i++) {
            names[i + 1] = values[i].label();
        }
        return names;
    }

    /** Draws the panel laid out by {@link #build} into the window's framebuffer. */
    void draw() {
        gl3.renderDrawData(ImGui.getDrawData());
    }

    @Override
    public void close() {
        gl3.shutdown();
        try {
            glfw.shutdown();
        } catch (NullPointerException noCursor) {
            // imgui-java 1.88 destroys every standard cursor, also those GLFW could not create (Xvfb has no
            // cursor theme): LWJGL's null check refuses; there is nothing to free
        }
        ImGui.destroyContext();
    }
}
