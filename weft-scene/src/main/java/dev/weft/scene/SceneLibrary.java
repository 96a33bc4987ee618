package dev.weft.scene;

import dev.weft.core.InvalidInputException;
import dev.weft.core.scene.Scene;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The scene files shipped with Weft ({@code scenes/} of the repository, in the jar under the same name),
 * by name: the one source of the built-in scenes for the command line. Read through the class path as
 * paths, so a scene's OBJ meshes resolve beside it inside the jar as they do in the repository.
 */
public final class SceneLibrary {
    /** The scene {@code weft run} runs without a name. */
    public static final String DEFAULT = "drape";

    private SceneLibrary() {
    }

    /** The shipped scenes' names, in {@code scenes/index.txt}'s order. */
    public static List<String> names() {
        InputStream in = SceneLibrary.class.getResourceAsStream("/scenes/index.txt");
        if (in == null) {
            throw new IllegalStateException("scenes/index.txt is missing from the class path");
        }
        List<String> names = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String name = line.strip();
                if (!name.isEmpty() && !name.startsWith("#")) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /** True when a scene of this name ships. */
    public static boolean has(String name) {
        return names().contains(name);
    }

    /** The shipped scene {@code name}. */
    public static Scene load(String name) {
        if (!has(name)) {
            throw new InvalidInputException("scene", "unknown scene '" + name + "'; built in: "
                    + String.join(", ", names()) + "; or give a scene file (.json)");
        }
        return SceneFile.read(path("/scenes/" + name + ".json"));
    }

    /** A class-path resource as a path (in the jar's file system when the classes are in a jar). */
    private static Path path(String resource) {
        URL url = SceneLibrary.class.getResource(resource);
        if (url == null) {
            throw new IllegalStateException(resource + " is missing from the class path");
        }
        try {
            URI uri = url.toURI();
            if ("jar".equals(uri.getScheme())) {
                FileSystem fs;
                try {
                    fs = FileSystems.newFileSystem(uri, Map.of());
                } catch (FileSystemAlreadyExistsException e) {
                    fs = FileSystems.getFileSystem(uri);
                }
                return fs.provider().getPath(uri);
            }
            return Path.of(uri);
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("cannot open " + url + ": " + e.getMessage(), e);
        }
    }
}
