package dev.weft.render.view;

import static org.lwjgl.glfw.GLFW.*;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.RayCast;
import dev.weft.core.collide.TriangleHit;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.render.CameraFraming;
import dev.weft.render.SceneBounds;
import java.util.Arrays;
import java.util.Locale;

/**
 * What the mouse and keys do in the viewer. A person's input (GLFW's callbacks) and a script's events
 * ({@link InputScript}) both come here, so a script exercises exactly what a person does.
 *
 * <ul>
 *   <li>left drag on the cloth: grab the point under the cursor and drag it on the plane through it
 *       that faces the camera (the model's {@code DragHandle}); release lets go;
 *   <li>shift + left drag: cut along the stroke, through everything under it ({@code Cutting});
 *   <li>left drag on empty space: orbit; right or middle drag: pan; wheel: zoom;
 *   <li>keys: space pause, N or . single step, R reset, M slow motion (1, 1/4, 1/16), B throw a
 *       cannonball towards the cursor, T tearing on/off, F frame the scene, C the scene's camera,
 *       H hide/show the panel, V start/stop recording PNG frames, Escape or Q quit.
 * </ul>
 * Runs on the window's thread; the simulation's part goes to it as requests.
 */
public final class ViewerInput {
    /** The slow-motion speeds M steps through. */
    static final double[] SPEEDS = {1.0, 0.25, 1.0 / 16};

    private enum Gesture { NONE, ORBIT, PAN, DRAG, CUT }

    private final LiveSimulation live;
    private final OrbitCamera camera;
    private int width;
    private int height;
    private SimFrame frame;
    private Gesture gesture = Gesture.NONE;
    private double cursorX;
    private double cursorY;
    /** Drag: the plane through the picked point facing the camera, as point and normal. */
    private final float[] planePoint = new float[3];
    private final float[] planeNormal = new float[3];
    /** Cut: the last point of the stroke on its plane. */
    private float[] strokeLast;
    private float cutDepth;
    private boolean quit;
    /** The drawn frame whose input grabbed the cloth, until a frame shows it held; 0 when none is pending. */
    private int grabbedAt;
    private int frame0;
    private Runnable togglePanel = () -> { };
    private Runnable toggleRecording = () -> { };
    private long events;

    ViewerInput(LiveSimulation live, OrbitCamera camera, int width, int height) {
        this.live = live;
        this.camera = camera;
        this.width = width;
        this.height = height;
    }

    /** The frame being shown (what the cursor points at). */
    void showing(SimFrame f) {
        frame = f;
    }

    void resized(int w, int h) {
        events++;
        width = Math.max(1, w);
        height = Math.max(1, h);
    }

    /** The drawn frame the coming input belongs to. */
    void frame(int f) {
        frame0 = f;
    }

    int grabbedAt() {
        return grabbedAt;
    }

    void grabShown() {
        grabbedAt = 0;
    }

    void onToggleRecording(Runnable r) {
        toggleRecording = r;
    }

    void onTogglePanel(Runnable r) {
        togglePanel = r;
    }

    boolean quitRequested() {
        return quit;
    }

    /** How many input events were handled (the title shows that a script is running). */
    long events() {
        return events;
    }

    public void cursorMoved(double x, double y) {
        events++;
        double dx = x - cursorX;
        double dy = y - cursorY;
        cursorX = x;
        cursorY = y;
        switch (gesture) {
            case ORBIT:
                camera.orbit(dx, dy, height);
                break;
            case PAN:
                camera.pan(dx, dy, height);
                break;
            case DRAG: {
                float[] p = onPlane(x, y, planePoint, planeNormal);
                if (p != null) {
                    live.dragTo(p[0], p[1], p[2]);
                }
                break;
            }
            case CUT: {
                float[] p = onPlane(x, y, planePoint, planeNormal);
                if (p != null && strokeLast != null && !Arrays.equals(p, strokeLast)) {
                    live.cut(strokeLast, p, camera.forward(), cutDepth);
                }
                strokeLast = p;
                break;
            }
            default:
                break;
        }
    }

    public void mouseButton(int button, boolean press, int mods) {
        events++;
        if (!press) {
            if (gesture == Gesture.DRAG) {
                live.release();
            }
            gesture = Gesture.NONE;
            strokeLast = null;
            return;
        }
        if (gesture != Gesture.NONE) {
            return; // a second button during a gesture changes nothing
        }
        if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) {
            gesture = Gesture.PAN;
            return;
        }
        if (button != GLFW_MOUSE_BUTTON_LEFT) {
            return;
        }
        float[] eye = camera.eye();
        float[] dir = new float[3];
        camera.ray(cursorX, cursorY, width, height, dir);
        TriangleHit hit = frame == null ? null : RayCast.nearestTriangle(frame.model.triangles(),
                Arrays.copyOf(frame.positions, frame.floats), eye, dir);
        float[] f = camera.forward();
        System.arraycopy(f, 0, planeNormal, 0, 3);
        if ((mods & GLFW_MOD_SHIFT) != 0) {
            // the stroke lies on the plane facing the camera through the cloth under the cursor (else
            // through the scene's centre) and cuts through everything the view ray crosses within reach
            SceneBounds b = bounds();
            float[] through = hit != null ? at(eye, dir, hit.t()) : b.center();
            System.arraycopy(through, 0, planePoint, 0, 3);
            cutDepth = Math.max(0.05f, 2f * b.radius());
            strokeLast = onPlane(cursorX, cursorY, planePoint, planeNormal);
            gesture = Gesture.CUT;
            return;
        }
        if (hit != null) {
            System.arraycopy(at(eye, dir, hit.t()), 0, planePoint, 0, 3);
            live.grab(frame.generation, hit);
            grabbedAt = frame0;
            gesture = Gesture.DRAG;
        } else {
            gesture = Gesture.ORBIT;
        }
    }

    public void scrolled(double notches) {
        events++;
        camera.zoom(notches);
    }

    public void key(int key, int mods) {
        events++;
        switch (key) {
            case GLFW_KEY_SPACE:
                live.setPaused(!live.paused());
                break;
            case GLFW_KEY_N:
            case GLFW_KEY_PERIOD:
                live.setPaused(true);
                live.singleStep();
                break;
            case GLFW_KEY_R:
                gesture = Gesture.NONE;
                live.reset();
                break;
            case GLFW_KEY_M: {
                int i = 0;
                while (i < SPEEDS.length && SPEEDS[i] != live.speed()) {
                    i++;
                }
                live.setSpeed(SPEEDS[(i + 1) % SPEEDS.length]);
                break;
            }
            case GLFW_KEY_B: {
                float[] dir = new float[3];
                camera.ray(cursorX, cursorY, width, height, dir);
                live.shoot(camera.eye(), dir);
                break;
            }
            case GLFW_KEY_T:
                live.toggleTearing();
                break;
            case GLFW_KEY_F:
                camera.set(CameraFraming.automatic(bounds(), (float) width / height,
                        CameraFraming.DEFAULT_FOV_DEGREES));
                break;
            case GLFW_KEY_C:
                camera.set(CameraFraming.forScene(live.scene(), (float) width / height));
                break;
            case GLFW_KEY_V:
                toggleRecording.run();
                break;
            case GLFW_KEY_H:
                togglePanel.run();
                break;
            case GLFW_KEY_ESCAPE:
            case GLFW_KEY_Q:
                quit = true;
                break;
            default:
                break;
        }
    }

    /**
     * A value the panel sets: {@code tearing} (0 off, 1 on), {@code speed} (simulated seconds per wall
     * second), {@code paused} (0 or 1), {@code selfCollision} (0 or 1), {@code iterations}, {@code substeps}, the material's
     * {@code stretch}, {@code shear} and {@code bend} stiffness, {@code damping}, {@code friction} and
     * {@code tearStrain} (every body's),
     * {@code windX}, {@code windY}, {@code windZ} (m/s), {@code gravityY} (m/s²).
     */
    public void set(String name, double value) {
        events++;
        switch (name) {
            case "tearing":
                live.setTearing(value != 0);
                break;
            case "speed":
                if (!(value > 0 && value <= 4)) {
                    throw new InvalidInputException("speed", "must be in (0, 4] (1 = real time), got " + value);
                }
                live.setSpeed(value);
                break;
            case "paused":
                live.setPaused(value != 0);
                break;
            case "selfCollision":
                live.setSelfCollision(value != 0);
                break;
            case "omega": {
                if (!(value > 0 && value < 2)) {
                    throw new InvalidInputException("omega", "must be in (0, 2) (1 = no relaxation), got " + value);
                }
                float w = (float) value;
                live.tune(t -> t.withOmega(w));
                break;
            }
            case "iterations":
                live.setIterations(atLeastOne(name, value, 1000));
                break;
            case "substeps":
                live.setSubsteps(atLeastOne(name, value, 1000));
                break;
            case "stretch":
            case "shear":
            case "bend":
            case "damping":
            case "friction": {
                if (!(value >= 0) || !Double.isFinite(value)) {
                    throw new InvalidInputException(name, "must be a finite number >= 0, got " + value);
                }
                float v = (float) value;
                live.changeMaterial(name.equals("stretch") ? m -> m.withStretch(v) : name.equals("shear")
                        ? m -> m.withShear(v) : name.equals("bend") ? m -> m.withBend(v) : name.equals("damping")
                        ? m -> m.withDamping(v) : m -> m.withFriction(v));
                break;
            }
            case "tearStrain": {
                if (!(value > 0) || Double.isNaN(value)) {
                    throw new InvalidInputException(name, "must be a number > 0 (0.3: tears at 30 % stretch), got "
                            + value);
                }
                float v = (float) value;
                live.changeMaterial(m -> m.withTearStrain(v));
                break;
            }
            case "windX":
            case "windY":
            case "windZ":
            case "gravityY": {
                if (!Double.isFinite(value) || Math.abs(value) > 1000) {
                    throw new InvalidInputException(name, "must be a number within ±1000, got " + value);
                }
                float[] wind = frame.wind.clone();
                float[] gravity = frame.gravity.clone();
                switch (name) {
                    case "windX": wind[0] = (float) value; break;
                    case "windY": wind[1] = (float) value; break;
                    case "windZ": wind[2] = (float) value; break;
                    default: gravity[1] = (float) value; break;
                }
                live.setAir(wind, gravity);
                break;
            }
            default:
                throw new InvalidInputException("panel value '" + name + "'",
                        "is not one the viewer has; available: solver, " + String.join(", ", PANEL_VALUES));
        }
    }

    /**
     * The panel's text values: {@code solver} (switched live, the state kept), {@code mode} (XPBD's iteration
     * mode: colored, jacobi, gauss-seidel), {@code inner} (PD's inner solver: gs, jacobi, rbgs, jacobi-seed).
     */
    public void set(String name, String text) {
        events++;
        if ("mode".equals(name)) {
            IterationMode m = IterationMode.parse("mode", text);
            live.tune(t -> t.withMode(m));
            return;
        }
        if ("inner".equals(name)) {
            InnerSolver s = InnerSolver.parse("inner", text);
            live.tune(t -> t.withInner(s));
            return;
        }
        if (!"solver".equals(name)) {
            throw new InvalidInputException("panel value '" + name + "'", "takes a number, not text");
        }
        if (!live.solverNames().contains(text)) {
            throw new InvalidInputException("solver", "unknown solver '" + text + "'; available: "
                    + String.join(", ", live.solverNames()));
        }
        live.switchSolver(text);
    }

    private static int atLeastOne(String name, double value, int max) {
        if (!(value >= 1 && value <= max) || value != Math.rint(value)) {
            throw new InvalidInputException(name, "must be an integer from 1 to " + max + ", got " + value);
        }
        return (int) value;
    }

    /** The names {@link #set(String, double)} takes. */
    static final String[] PANEL_VALUES = {"tearing", "speed", "paused", "selfCollision", "omega", "iterations", "substeps", "stretch", "shear",
        "bend", "damping", "friction", "tearStrain", "windX", "windY", "windZ", "gravityY"};

    private SceneBounds bounds() {
        Collider[] none = new Collider[0];
        SceneBounds b = SceneBounds.of(frame.model, none);
        return b.union(Arrays.copyOf(frame.positions, frame.floats));
    }

    /** Where the ray through window point (x, y) meets the plane (point p, normal n); null if it runs parallel. */
    private float[] onPlane(double x, double y, float[] p, float[] n) {
        float[] eye = camera.eye();
        float[] dir = new float[3];
        camera.ray(x, y, width, height, dir);
        float denom = dir[0] * n[0] + dir[1] * n[1] + dir[2] * n[2];
        if (Math.abs(denom) < 1e-9f) {
            return null;
        }
        float t = ((p[0] - eye[0]) * n[0] + (p[1] - eye[1]) * n[1] + (p[2] - eye[2]) * n[2]) / denom;
        return t > 0f ? at(eye, dir, t) : null;
    }

    private static float[] at(float[] origin, float[] dir, float t) {
        return new float[] {origin[0] + t * dir[0], origin[1] + t * dir[1], origin[2] + t * dir[2]};
    }

    /** The cursor, window pixels. */
    String cursor() {
        return String.format(Locale.ROOT, "%.0f,%.0f", cursorX, cursorY);
    }
}
