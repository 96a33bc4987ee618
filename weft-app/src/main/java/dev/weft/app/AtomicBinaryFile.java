package dev.weft.app;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes a whole file under a temporary name and moves it into place: never a half-written file. */
final class AtomicBinaryFile {
    private AtomicBinaryFile() {
    }

    static void write(Path target, byte[] bytes) throws IOException {
        Path partial = target.resolveSibling(target.getFileName() + ".part");
        Files.write(partial, bytes);
        try {
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
