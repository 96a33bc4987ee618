package dev.weft.render.view;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.model.Model;
import dev.weft.render.BodyPoses;
import java.util.ArrayList;
import java.util.List;

/**
 * One completed simulation frame as the window draws it: the model (edits replace it), the particle
 * positions copied once from the state, and what the title and tests read. Three of these circulate
 * between the simulation thread and the window (a triple buffer), so neither waits for the other.
 *
 * <p>It also holds the poses of the scene's moving bodies at the end of the frame ({@link BodyPoses}): the
 * renderer draws a kinematic body, an animated mesh or a cannonball where it was when the cloth was where the
 * frame's positions say, not where the simulation, running on, has taken it since.
 */
public final class SimFrame implements BodyPoses {
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
    /** The moving rigid bodies and animated meshes, and for each its pose (12 floats) or vertices, copied. */
    final List<Collider> posedBodies = new ArrayList<>();
    final List<float[]> bodyPoses = new ArrayList<>();
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

    /**
     * Copies the poses of {@code colliders}' moving rigid bodies and animated meshes (the simulating thread, when it
     * publishes the frame). Arrays are reused from the frame before: no allocation once the scene has run a frame.
     */
    void capturePoses(Collider[] colliders) {
        int k = 0;
        for (Collider c : colliders) {
            int size = c instanceof RigidCollider r && r.moving() ? 12
                    : c instanceof AnimatedMeshCollider a ? 3 * a.vertexCount() : 0;
            if (size == 0) {
                continue;
            }
            if (k == posedBodies.size()) {
                posedBodies.add(c);
                bodyPoses.add(new float[size]);
            } else {
                posedBodies.set(k, c);
                if (bodyPoses.get(k).length != size) {
                    bodyPoses.set(k, new float[size]);
                }
            }
            if (c instanceof RigidCollider r) {
                r.writePose(bodyPoses.get(k), 0);
            } else {
                ((AnimatedMeshCollider) c).currentPositions(bodyPoses.get(k));
            }
            k++;
        }
        while (posedBodies.size() > k) {
            posedBodies.remove(posedBodies.size() - 1);
            bodyPoses.remove(bodyPoses.size() - 1);
        }
    }

    private float[] captured(Collider body) {
        for (int i = 0; i < posedBodies.size(); i++) {
            if (posedBodies.get(i) == body) {
                return bodyPoses.get(i);
            }
        }
        return null;
    }

    /** The body's pose at the end of this frame (a body that does not move: its pose, which stays). */
    @Override
    public void rigid(RigidCollider body, float[] out) {
        float[] p = captured(body);
        if (p == null) {
            BodyPoses.LIVE.rigid(body, out);
        } else {
            System.arraycopy(p, 0, out, 0, 12);
        }
    }

    /** The ball's centre at the end of this frame. */
    @Override
    public void ball(Projectile ball, float[] out) {
        int i = projectiles.size() - 1;
        while (i >= 0 && projectiles.get(i) != ball) {
            i--;
        }
        if (i < 0) {
            // thrown after this frame (the renderer learns of balls from newer frames): not yet where it will fly
            BodyPoses.LIVE.ball(ball, out);
        } else {
            System.arraycopy(ballCenters, 3 * i, out, 0, 3);
        }
    }

    /** The mesh's vertices at the end of this frame. */
    @Override
    public void animated(AnimatedMeshCollider body, float[] out) {
        float[] p = captured(body);
        if (p == null) {
            BodyPoses.LIVE.animated(body, out);
        } else {
            System.arraycopy(p, 0, out, 0, p.length);
        }
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
