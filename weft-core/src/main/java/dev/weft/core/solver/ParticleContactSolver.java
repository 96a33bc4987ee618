package dev.weft.core.solver;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;

/**
 * A solver that can run particle–particle contact (self- and inter-cloth collision, {@link ParticleContacts})
 * inside its step. Every solver of the engine is one; how each takes the contacts in (a projection among
 * its iterations, after its integration, or through a constraint filter) is its own business and is said
 * in its documentation.
 */
public interface ParticleContactSolver extends Solver {
    /** Turns particle contact on with these settings (null turns it off). Returns this solver. */
    ParticleContactSolver withParticleContacts(ParticleContactSettings settings);

    /** The contacts of the bound model, or null when off or before the first step. */
    ParticleContacts particleContacts();
}
