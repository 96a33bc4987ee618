package dev.weft.bench;

import com.github.stephengold.joltjni.enumerate.EBendType;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Material;
import dev.weft.core.model.MaterialParameters;

/**
 * The scene on Jolt Physics' soft body (through jolt-jni), built as Jolt's own {@code
 * SoftBodyCreator::CreateCloth} builds a cloth ({@link JoltGridCloth}: inverse mass 0 on the pinned edge,
 * inextensible stretch and shear, distance bending, Euclidean long-range attachments). Jolt's soft body makes one XPBD pass over every constraint per iteration, each iteration
 * a substep of its own: {@code iterations} is "that many substeps of one pass".
 *
 * <p>Bending: Jolt's distance bend constraints join the far vertices of two triangles that share an
 * edge, √5 spacings apart on this grid; each gets the compliance Weft's material gives a bend spring of
 * that length ({@link MaterialParameters#springStiffness}), with the same vertex masses, so the bending
 * resists about as Weft's distance bending does.
 */
public final class JoltCloth implements ClothEngine {
    private final ClothScene scene;
    private final int iterations;
    private final int threads;
    private final JoltGridCloth cloth;

    /**
     * @param threads    threads stepping the physics: the calling one and {@code threads − 1} workers
     * @param iterations Jolt's soft-body iterations per frame (substeps of one pass)
     */
    public JoltCloth(ClothScene scene, int threads, int iterations) {
        if (threads < 1 || iterations < 1) {
            throw new IllegalArgumentException("threads and iterations must be >= 1, got " + threads + ", "
                    + iterations);
        }
        this.scene = scene;
        this.iterations = iterations;
        this.threads = threads;
        cloth = new JoltGridCloth(scene.restPositions(), scene.n(), scene.n(), scene::pinned, scene.vertexMass(),
                EBendType.Distance, distanceBendCompliance(ClothScene.BEND_RIGIDITY, scene.spacing()), iterations,
                ClothScene.DAMPING, threads, 32 * 1024 * 1024);
    }

    /**
     * The compliance, m/N, this bench gives Jolt's distance bend constraints on a grid of {@code spacing}: that
     * of Weft's bend spring of the same length (√5 spacings, {@link MaterialParameters#springStiffness}) for
     * bending rigidity {@code rigidity} (N·m).
     */
    public static float distanceBendCompliance(float rigidity, float spacing) {
        float bendLength = (float) Math.sqrt(5) * spacing;
        return 1f / MaterialParameters.springStiffness(Material.cloth().withBend(rigidity), DistanceKind.BEND,
                bendLength);
    }

    @Override
    public String label() {
        return "Jolt " + iterations + " iterations";
    }

    public int iterations() {
        return iterations;
    }

    public int threads() {
        return threads;
    }

    public ClothScene scene() {
        return scene;
    }

    @Override
    public void advanceFrame() {
        cloth.advance(scene.frameDt());
    }

    @Override
    public void readPositions(float[] xyz) {
        cloth.readPositions(xyz);
    }

    @Override
    public void close() {
        cloth.close();
    }
}
