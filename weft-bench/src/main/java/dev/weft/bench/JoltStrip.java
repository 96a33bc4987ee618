package dev.weft.bench;

import com.github.stephengold.joltjni.enumerate.EBendType;
import java.util.Locale;

/**
 * A {@link DroopStrip} on Jolt Physics' soft body, built as {@link JoltCloth} builds the peers bench's
 * cloth (CreateCloth's triangles, inextensible stretch and shear, Euclidean long-range attachments, equal
 * vertex masses, no sleeping, one thread) with the given bend type and bend compliance and the strip's
 * damping; rows 0 and 1 have inverse mass 0.
 */
public final class JoltStrip implements ClothEngine {
    private final DroopStrip strip;
    private final EBendType bendType;
    private final float bendCompliance;
    private final int iterations;
    private final JoltGridCloth cloth;

    /**
     * @param bendType       Jolt's distance or dihedral bending
     * @param bendCompliance m/N for distance bending, rad²/(N·m) for dihedral bending
     * @param iterations     Jolt's soft-body iterations per frame (substeps of one pass)
     */
    public JoltStrip(DroopStrip strip, EBendType bendType, float bendCompliance, int iterations) {
        if (bendType == EBendType.None || !(bendCompliance >= 0f) || iterations < 1) {
            throw new IllegalArgumentException("a bend type, a compliance >= 0 and iterations >= 1, got " + bendType
                    + ", " + bendCompliance + ", " + iterations);
        }
        this.strip = strip;
        this.bendType = bendType;
        this.bendCompliance = bendCompliance;
        this.iterations = iterations;
        cloth = new JoltGridCloth(strip.restPositions(), strip.width(), strip.rows(), strip::pinned,
                strip.vertexMass(), bendType, bendCompliance, iterations, DroopStrip.DAMPING, 1, 4 * 1024 * 1024);
    }

    @Override
    public String label() {
        return String.format(Locale.ROOT, "Jolt %d iterations, %s bending, compliance %.3g", iterations,
                bendType.name().toLowerCase(Locale.ROOT), bendCompliance);
    }

    @Override
    public void advanceFrame() {
        cloth.advance(strip.frameDt());
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
