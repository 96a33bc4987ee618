package dev.weft.bench;

/**
 * One line of the side-by-side table: an engine's setting at one size and thread count, each number the
 * median over the repetitions.
 *
 * @param engine      "jolt" or "weft"
 * @param setting     the engine's setting in words ("10 iterations", "6x1 dihedral")
 * @param ratioToJolt this row's ms per frame over Jolt's at the same size and thread count (1 for Jolt)
 */
public record PeersRow(int n, int threads, String engine, String setting, double msPerFrame, double meanMsPerFrame,
                       double finalStrain, double peakStrain, double ratioToJolt, int repetitions) {
}
