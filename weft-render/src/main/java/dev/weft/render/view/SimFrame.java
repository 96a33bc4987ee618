package dev.weft.render.view;

import dev.weft.core.collide.Projectile;
import dev.weft.core.model.Model;
import java.util.ArrayList;
import java.util.List;

/**
 * One completed simulation frame as the window draws it: the model (edits replace it), the particle
 * positions copied once from the state, and what the title and tests read. Three of these circulate
 * between the simulation thread and the window (a triple buffer), so neither waits for the other.
 */
public final class SimFrame {
    Model model;
    float[] positions = new float[0];
    int floats;
    double time;
    long frames;
    /** Increases with every reset: a new scene, new colliders. */
    int generation;
    /** Wall milliseconds the last simulated frame took. */
    double stepMs;
    /** Wall time per simulated time over the last half second at the chosen speed; 1 = real time. */
    double slowdown = 1.0;
    final List<Projectile> projectiles = new ArrayList<>();
    /** Each cannonball's centre and velocity at the end of the frame, xyz each (copied, unlike the objects). */
    float[] ballCenters = new float[0];
    float[] ballVelocities = new float[0];
    boolean held;
    final int[] heldParticles = {-1, -1, -1};
    final float[] handTarget = new float[3];
    boolean tearing;
    boolean paused;
    double speed = 1.0;
    String solver;
    Integer iterations;
    int substeps;
    boolean selfCollision;
    SolverTuning tuning = SolverTuning.SCENE;
    String refusal;
    float[] gravity = new float[3];
    final float[] wind = new float[3];
    dev.weft.core.model.Material material;
    boolean edited;
    double residual;
    double maxStrain;
    long sequence = -1;

    public Model model() {
        return model;
    }

    /** The particle positions (xyz each); the array may be longer than {@link #floatCount()}. */
    public float[] positions() {
        return positions;
    }

    public int floatCount() {
        return floats;
    }

    public double time() {
        return time;
    }

    public long simulatedFrames() {
        return frames;
    }

    public int generation() {
        return generation;
    }

    public double stepMs() {
        return stepMs;
    }

    public double slowdown() {
        return slowdown;
    }

    /** The cannonballs thrown so far (their live objects: read their centres on the window's thread only for drawing). */
    public List<Projectile> projectiles() {
        return projectiles;
    }

    public float[] ballCenters() {
        return java.util.Arrays.copyOf(ballCenters, 3 * projectiles.size());
    }

    public float[] ballVelocities() {
        return java.util.Arrays.copyOf(ballVelocities, 3 * projectiles.size());
    }

    public boolean held() {
        return held;
    }

    public int[] heldParticles() {
        return heldParticles.clone();
    }

    public float[] handTarget() {
        return handTarget.clone();
    }

    public boolean tearing() {
        return tearing;
    }

    /** The solver simulating now. */
    public String solver() {
        return solver;
    }

    /** The panel's mode, inner solver and ω (null fields: the scene's). */
    public SolverTuning tuning() {
        return tuning;
    }

    public boolean selfCollision() {
        return selfCollision;
    }

    public int substeps() {
        return substeps;
    }

    /** Seed 001 eq. 4.1: sum over distance constraints of (|xa − xb| − L)², m². */
    public double residual() {
        return residual;
    }

    public double maxStrain() {
        return maxStrain;
    }

    /** Why the last panel change was refused, or null. */
    public String refusal() {
        return refusal;
    }

    public boolean paused() {
        return paused;
    }
}
