package dev.weft.bench;

/**
 * One strip of the droop sweep.
 *
 * @param engine      "jolt" or "weft"
 * @param bending     distance, dihedral or isometric
 * @param setting     the run's setting in words (substeps, B or compliance)
 * @param stiffness   Weft: the material's bending rigidity B, N·m; Jolt: 1/compliance of each bend
 *                    constraint, N/m (distance) or N·m/rad² (dihedral)
 * @param peers       whether this is the setting {@code weft bench --peers} runs (cotton's B)
 * @param result      where the tip came to rest
 */
public record DroopRow(String engine, String bending, String setting, double stiffness, boolean peers,
                       DroopResult result) {
}
