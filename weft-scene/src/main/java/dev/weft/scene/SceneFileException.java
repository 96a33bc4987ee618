package dev.weft.scene;

import dev.weft.core.InvalidInputException;

/**
 * A problem in a scene file, where a person can find it: the file, line and column (from 1), the key path
 * ({@code bodies[2].material.stretch}), what is wrong and what is allowed. The message reads
 * {@code scenes/x.json:12:18: bodies[2].material.stretch: must be a number > 0 in N/m, got -5}.
 */
public final class SceneFileException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    private final int column;
    private final String keyPath;

    public SceneFileException(String file, int line, int column, String keyPath, String problem) {
        super(file + ":" + line + ":" + column, keyPath.isEmpty() ? problem : keyPath + ": " + problem);
        this.column = column;
        this.keyPath = keyPath;
    }

    /** The column (from 1) of the value or key the problem is at. */
    public int column() {
        return column;
    }

    /** Where in the document: {@code bodies[2].material.stretch}; empty for the document itself. */
    public String keyPath() {
        return keyPath;
    }
}
