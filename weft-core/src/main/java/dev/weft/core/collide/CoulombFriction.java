package dev.weft.core.collide;

/**
 * Coulomb's friction law in the one form every contact in Weft uses (colliders, projectiles, particle
 * contacts, the implicit solver's filtered contacts): over a step, a contact's normal correction
 * {@code push} (a length for position-based contacts, a velocity change per unit mass for the implicit
 * solver) allows a tangential correction of at most μ·push. A slip (the tangential motion relative to
 * the surface, the same units as push) within the static cone, |slip| ≤ μ_s·push, is removed entirely
 * (the particle sticks); a longer one is shortened by μ_k·push (it slides). Returns the share of the
 * slip to remove; the caller subtracts that share of the tangential vector.
 */
public final class CoulombFriction {
    private CoulombFriction() {
    }

    /**
     * Share of a slip of length {@code slip} to remove, for a particle that takes {@code share} of the
     * pair's correction (1 against an immovable surface): {@code share} when {@code share·slip ≤ μ_s·push}
     * (static), else {@code min(share, μ_k·push / slip)} (kinetic: μ_k·push of length, never more than
     * its share).
     */
    public static float removedShare(float slip, float push, float staticCoefficient, float kineticCoefficient,
                                     float share) {
        return share * slip <= staticCoefficient * push ? share
                : Math.min(share, kineticCoefficient * push / slip);
    }

    /** As {@link #removedShare(float, float, float, float, float)} against an immovable surface, in double. */
    public static double removedShare(double slip, double push, double staticCoefficient, double kineticCoefficient) {
        return slip <= staticCoefficient * push ? 1.0 : Math.min(1.0, kineticCoefficient * push / slip);
    }
}
