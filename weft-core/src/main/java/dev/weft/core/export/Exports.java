package dev.weft.core.export;

import dev.weft.core.InvalidInputException;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens exporters by format name (the {@code --export} values) with the file layout of a run's output
 * directory, and fans one frame out to several:
 * <ul>
 * <li>{@code obj}: {@code outDir/frames/frame_NNNNN.obj}, one OBJ per frame;</li>
 * <li>{@code pc2}: {@code outDir/<scene>.pc2}, a point cache, and {@code outDir/<scene>_base.obj}, its mesh;</li>
 * <li>{@code gltf}: {@code outDir/<scene>.glb}, binary glTF with morph-target animation;</li>
 * <li>{@code usd}: {@code outDir/<scene>.usda}, USD ASCII with time-sampled points.</li>
 * </ul>
 * Files appear when the exporter is closed, not before ({@link FrameExporter}).
 */
public final class Exports {
    /** The format names {@link #open} takes. */
    public static final List<String> KINDS = List.of("obj", "pc2", "gltf", "usd");

    private Exports() {
    }

    /**
     * An exporter of {@code kind} writing into {@code outDir} (created when the first frame comes).
     *
     * @param sceneName names the files (characters other than letters, digits, '.', '-' and '_' become '_')
     *                  and the scene inside them
     * @param fps       output frames per second (USD's time codes per second)
     * @throws InvalidInputException for an unknown kind ({@code --export}) or a non-positive fps ({@code --fps})
     */
    public static FrameExporter open(String kind, Path outDir, String sceneName, float fps) {
        if (!(fps > 0f) || !Float.isFinite(fps)) {
            throw new InvalidInputException("--fps", "must be a positive number of frames per second, got " + fps);
        }
        String file = fileName(sceneName);
        switch (kind == null ? "" : kind) {
            case "obj":
                return new ObjSequenceExporter(outDir.resolve("frames"));
            case "pc2":
                return new Pc2Exporter(outDir.resolve(file + ".pc2"), outDir.resolve(file + "_base.obj"), sceneName);
            case "gltf":
                return new GltfExporter(outDir.resolve(file + ".glb"), sceneName);
            case "usd":
                return new UsdaExporter(outDir.resolve(file + ".usda"), sceneName, fps);
            default:
                throw new InvalidInputException("--export", "unknown format '" + kind + "'; allowed: "
                        + String.join(", ", KINDS));
        }
    }

    /** One exporter per kind (each kind once, in the order given), fanned out. */
    public static FrameExporter open(List<String> kinds, Path outDir, String sceneName, float fps) {
        List<String> distinct = kinds.stream().distinct().toList();
        List<FrameExporter> exporters = new java.util.ArrayList<>();
        for (String kind : distinct) {
            exporters.add(open(kind, outDir, sceneName, fps));
        }
        return fanOut(exporters);
    }

    /**
     * An exporter that gives each frame to all of {@code exporters}, and closes or aborts them all. A
     * failure of one is thrown once all got the frame (later failures attached as suppressed).
     */
    public static FrameExporter fanOut(List<FrameExporter> exporters) {
        return exporters.size() == 1 ? exporters.get(0) : new FanOutExporter(exporters);
    }

    /** The scene name as a file name: no separators or characters a shell or file system would trip on. */
    static String fileName(String sceneName) {
        StringBuilder b = new StringBuilder(sceneName.length());
        for (int i = 0; i < sceneName.length(); i++) {
            char c = sceneName.charAt(i);
            b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_') ? c : '_');
        }
        String s = b.toString();
        return s.isEmpty() || s.startsWith(".") ? "_" + s : s;
    }
}
