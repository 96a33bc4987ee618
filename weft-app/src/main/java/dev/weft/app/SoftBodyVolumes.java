package dev.weft.app;

import dev.weft.core.metrics.BodyVolume;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a run says of its soft bodies (voxel and tetrahedral): the least and most volume each held over the
 * frames, as a share of its rest volume. Strain over distance constraints says nothing of a tetrahedral body
 * (it has none), and a soft body's volume is what a person looks at.
 */
final class SoftBodyVolumes {
    private final List<ModelObject> bodies = new ArrayList<>();
    /** Each measured body's index in the model's objects: a torn body's triangles move (its crack faces join them). */
    private final List<Integer> index = new ArrayList<>();
    private final double[] rest;
    private final double[] least;
    private final double[] most;

    SoftBodyVolumes(Model model) {
        for (int i = 0; i < model.objects().size(); i++) {
            ModelObject o = model.objects().get(i);
            if (o.type() == ModelObject.Type.VOXEL_BODY || o.type() == ModelObject.Type.TET_BODY) {
                bodies.add(o);
                index.add(i);
            }
        }
        rest = new double[bodies.size()];
        least = new double[bodies.size()];
        most = new double[bodies.size()];
        for (int k = 0; k < rest.length; k++) {
            rest[k] = BodyVolume.of(model, bodies.get(k), model.restPositions());
            least[k] = Double.POSITIVE_INFINITY;
            most[k] = Double.NEGATIVE_INFINITY;
        }
    }

    /** Measures every soft body at positions {@code x} of (the current) {@code model}. */
    void record(Model model, float[] x) {
        for (int k = 0; k < rest.length; k++) {
            double v = BodyVolume.of(model, model.objects().get(index.get(k)), x) / rest[k];
            least[k] = Math.min(least[k], v);
            most[k] = Math.max(most[k], v);
        }
    }

    /** One line per soft body that was measured; nothing for a model without any. */
    void report(PrintWriter out) {
        for (int k = 0; k < rest.length; k++) {
            if (least[k] <= most[k]) {
                out.printf(Locale.ROOT, "  %s held %.1f–%.1f %% of its rest volume (%.4g m^3)%n", bodies.get(k).name(),
                        100 * least[k], 100 * most[k], rest[k]);
            }
        }
    }
}
