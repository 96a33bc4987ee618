package dev.weft.render;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.ModelObject;
import dev.weft.core.scene.Scene;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/** A scene's body textures ({@link Scene#textures()}) read and handed to a renderer. */
public final class SceneTextures {
    private SceneTextures() {
    }

    /**
     * Gives {@code renderer} each textured body's image (needs its context). An image that cannot be read
     * is an {@link InvalidInputException} naming the body and the file; a texture for a body the model does
     * not have is one too.
     */
    public static void apply(SceneRenderer renderer, Scene scene) {
        List<ModelObject> objects = scene.model().objects();
        for (Map.Entry<String, Path> e : scene.textures().entrySet()) {
            int body = -1;
            for (int i = 0; i < objects.size(); i++) {
                if (objects.get(i).name().equals(e.getKey())) {
                    body = i;
                }
            }
            if (body < 0) {
                throw new InvalidInputException(e.getKey() + ".texture", "names no body of scene " + scene.name());
            }
            renderer.setTexture(body, read(e.getKey(), e.getValue()));
        }
    }

    private static BufferedImage read(String body, Path file) {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) { // a shipped scene's are in the jar
            BufferedImage image = ImageIO.read(in);
            if (image == null) {
                throw new InvalidInputException(body + ".texture", file + " is not an image this renderer reads "
                        + "(PNG or JPEG)");
            }
            return image;
        } catch (IOException e) {
            throw new InvalidInputException(body + ".texture", file + " cannot be read: " + e.getMessage());
        }
    }
}
