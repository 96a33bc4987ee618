package dev.weft.scene;

import dev.weft.core.InvalidInputException;
import dev.weft.core.mesh.ObjReader;
import dev.weft.core.mesh.TriangleMesh;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An OBJ mesh a scene file names ({@code file}, relative to the scene file) placed by its {@code scale}
 * and {@code translate}: a cloth body's or a mesh collider's. Problems in the OBJ are reported at the
 * scene's {@code file} value, with the OBJ's own file:line.
 */
final class MeshFile {
    private MeshFile() {
    }

    static TriangleMesh read(Fields f, Path directory, String what) {
        JsonValue fileValue = f.required("file", what + ", relative to the scene file");
        return read(fileValue, directory, (float) f.number("scale", 1.0, Double.MIN_VALUE, 1e6, ""),
                f.vec3("translate", new float[3]));
    }

    /** The OBJ {@code fileValue} names, scaled by {@code scale} and moved by {@code move}. */
    static TriangleMesh read(JsonValue fileValue, Path directory, float scale, float[] move) {
        Path file = directory.resolve(Fields.string(fileValue));
        if (!Files.isRegularFile(file)) {
            throw fileValue.error("no such file: " + file);
        }
        TriangleMesh read;
        try {
            read = ObjReader.read(file);
        } catch (InvalidInputException e) {
            throw fileValue.error(e.getMessage());
        }
        float[] x = read.positions().clone();
        for (int i = 0; i < x.length; i++) {
            x[i] = x[i] * scale + move[i % 3];
        }
        return new TriangleMesh(x, read.uvs(), read.triangles());
    }
}
