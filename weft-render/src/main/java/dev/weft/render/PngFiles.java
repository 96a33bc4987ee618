package dev.weft.render;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/** Writes PNG files atomically: under a temporary name, renamed into place when complete. */
public final class PngFiles {
    /**
     * ImageIO's PNG writer maps quality q to deflate level round(9 (1 − q)); 0.75 gives level 2, most
     * of the size saving of level 9 at a fraction of its time on renders with large flat areas.
     */
    private static final float QUALITY = 0.75f;

    private PngFiles() {
    }

    public static void write(BufferedImage image, Path target) throws IOException {
        Path partial = target.resolveSibling(target.getFileName() + ".part");
        Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("png");
        if (!writers.hasNext()) {
            throw new IOException("this Java has no PNG writer");
        }
        ImageWriter writer = writers.next();
        try {
            ImageWriteParam param = writer.getDefaultWriteParam();
            if (param.canWriteCompressed()) {
                param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
                param.setCompressionQuality(QUALITY);
            }
            Files.deleteIfExists(partial);
            try (ImageOutputStream out = ImageIO.createImageOutputStream(partial.toFile())) {
                if (out == null) {
                    throw new IOException("cannot open " + partial + " for writing");
                }
                writer.setOutput(out);
                writer.write(null, new IIOImage(image, null, null), param);
            }
        } finally {
            writer.dispose();
        }
        try {
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
