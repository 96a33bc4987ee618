package dev.weft.render;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.RigidCollider;

/**
 * Where {@link SceneRenderer} reads the poses of the bodies that move: by default the bodies themselves
 * ({@link #LIVE}, right for a renderer that draws between steps on the simulating thread), or a snapshot
 * taken with the particle positions of the frame it draws (the viewer, whose simulation runs on beside the
 * drawing: its live bodies are up to a few frames ahead of the cloth it draws, and written while read).
 */
public interface BodyPoses {
    /** A rigid body's pose: the origin (3), then the rotation (9, row-major), into {@code out[0..12)}. */
    void rigid(RigidCollider body, float[] out);

    /** A ball's centre into {@code out[0..3)}. */
    void ball(Projectile ball, float[] out);

    /** An animated mesh's vertex positions (xyz each) into {@code out}. */
    void animated(AnimatedMeshCollider body, float[] out);

    /** The bodies as they are now. */
    BodyPoses LIVE = new BodyPoses() {
        @Override
        public void rigid(RigidCollider body, float[] out) {
            body.writePose(out, 0);
        }

        @Override
        public void ball(Projectile ball, float[] out) {
            System.arraycopy(ball.center(), 0, out, 0, 3);
        }

        @Override
        public void animated(AnimatedMeshCollider body, float[] out) {
            body.currentPositions(out);
        }
    };
}
