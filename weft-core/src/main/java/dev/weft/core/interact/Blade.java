package dev.weft.core.interact;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.Motion;
import dev.weft.core.collide.MotionFrame;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.util.Check;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A blade (seed 002's cutting, issue #13 item 6): a segment that follows a {@link Motion} and, after
 * every frame, cuts the cloth where the segment swept since the last frame ({@link Cutting#across}: the
 * parallelogram from its old position spanned by its length and its travel). It pushes nothing: the
 * cloth does not collide with it, it only comes apart where it passed.
 */
public final class Blade extends Collider {
    private final float[] localA;
    private final float[] localB;
    private final MotionFrame frame;
    /** The segment's ends in the world now, and where the last cut left them. */
    private final float[] a = new float[3];
    private final float[] b = new float[3];
    private final float[] lastA = new float[3];
    private final float[] lastB = new float[3];

    /** A blade from {@code a} to {@code b} in the motion's frame (the world at the motion's pose). */
    public Blade(String name, float[] a, float[] b, Motion motion) {
        super(name, 0f, 0f);
        this.localA = Check.vector3(name + ".a", a).clone();
        this.localB = Check.vector3(name + ".b", b).clone();
        this.frame = new MotionFrame(motion);
        place(0.0);
        System.arraycopy(this.a, 0, lastA, 0, 3);
        System.arraycopy(this.b, 0, lastB, 0, 3);
    }

    private void place(double time) {
        frame.at(time);
        frame.toWorld(localA, 0, a, 0);
        frame.toWorld(localB, 0, b, 0);
    }

    @Override
    public void advance(double time, float dt) {
        place(time + dt);
    }

    @Override
    public boolean moving() {
        return true;
    }

    @Override
    public void collide(float[] x, float[] prev, float[] invMass, ParticleSurface surface, int begin, int end) {
        // a blade cuts between frames (topologyEdits); it does not push particles
    }

    @Override
    public float signedDistance(float x, float y, float z) {
        return Float.POSITIVE_INFINITY;
    }

    @Override
    public List<ModelEdit> topologyEdits(Model model, float[] x) {
        float[] u = {lastB[0] - lastA[0], lastB[1] - lastA[1], lastB[2] - lastA[2]};
        float[] v = {a[0] - lastA[0], a[1] - lastA[1], a[2] - lastA[2]};
        float travel = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        float cx = u[1] * v[2] - u[2] * v[1];
        float cy = u[2] * v[0] - u[0] * v[2];
        float cz = u[0] * v[1] - u[1] * v[0];
        List<ModelEdit> cuts = travel > 0f && cx * cx + cy * cy + cz * cz > 1e-12f * travel
                ? Cutting.across(model, x, lastA.clone(), u, v) : List.of();
        System.arraycopy(a, 0, lastA, 0, 3);
        System.arraycopy(b, 0, lastB, 0, 3);
        return cuts;
    }

    /** Where the last cut left the segment: a resumed run cuts from there. */
    @Override
    public byte[] saveState() {
        ByteBuffer out = ByteBuffer.allocate(6 * Float.BYTES);
        for (int k = 0; k < 3; k++) {
            out.putFloat(lastA[k]);
        }
        for (int k = 0; k < 3; k++) {
            out.putFloat(lastB[k]);
        }
        return out.array();
    }

    @Override
    public void loadState(byte[] state) {
        if (state == null || state.length != 6 * Float.BYTES) {
            throw new dev.weft.core.InvalidInputException(name() + ".state", "a blade's state is 6 floats");
        }
        ByteBuffer in = ByteBuffer.wrap(state);
        for (int k = 0; k < 3; k++) {
            lastA[k] = in.getFloat();
        }
        for (int k = 0; k < 3; k++) {
            lastB[k] = in.getFloat();
        }
    }
}
