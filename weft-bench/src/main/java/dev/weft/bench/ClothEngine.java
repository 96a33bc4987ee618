package dev.weft.bench;

/** One engine simulating a {@link ClothScene}: frame by frame, its vertices readable in the scene's order. */
public interface ClothEngine extends AutoCloseable {
    /** What runs, for a table: the engine and its setting. */
    String label();

    /** Advances the simulation by one frame of the scene. */
    void advanceFrame();

    /** Copies the vertex positions (xyz per vertex, the scene's numbering) into {@code xyz}. */
    void readPositions(float[] xyz);

    @Override
    void close();
}
