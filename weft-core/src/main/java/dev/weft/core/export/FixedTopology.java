package dev.weft.core.export;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.DrawnSurface;
import dev.weft.core.model.Model;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The guard of formats that store one vertex set for the whole animation (a point cache, morph targets):
 * the first frame's particle count and triangles must hold for every frame, and a frame after tearing or
 * cutting (which adds particles and re-attaches triangles) is refused with an error that says what to
 * use instead.
 */
final class FixedTopology {
    private final String format;
    private final Path file;
    private Model checked;
    private int particles = -1;
    private int[] triangles;

    FixedTopology(String format, Path file) {
        this.format = format;
        this.file = file;
    }

    void check(Model model, int frameIndex) {
        if (model == checked) {
            return; // the same model object: nothing changed
        }
        DrawnSurface drawn = model.drawnSurface();
        if (particles < 0) {
            particles = drawn.vertexCount();
            triangles = drawn.triangles().clone();
        } else if (drawn.vertexCount() != particles || !Arrays.equals(drawn.triangles(), triangles)) {
            throw new InvalidInputException(file.toString(), format + " stores a fixed set of vertices, but at frame "
                    + frameIndex + " the model's topology changed (tearing or cutting: " + particles + " -> "
                    + drawn.vertexCount() + " particles, triangles re-attached); export with 'obj' (a file per "
                    + "frame) or 'usd' (time-sampled topology) instead");
        }
        checked = model;
    }
}
