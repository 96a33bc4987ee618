package dev.weft.core.solver;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Model;

/**
 * A solver's particle contacts: the settings it was given and the {@link ParticleContacts} built for the
 * model it steps, rebuilt when the model changes (the exclusions and contact distance depend on it).
 */
public final class ParticleContactSlot {
    private ParticleContactSettings settings;
    private Model model;
    private ParticleContacts contacts;

    /** New settings (null: off); the contacts are built again at the next {@link #bind}. */
    public void configure(ParticleContactSettings s) {
        settings = s;
        model = null;
        contacts = null;
    }

    /** The contacts for {@code m} (built on the first call with it), or null when off. */
    public ParticleContacts bind(Model m) {
        if (settings != null && m != model) {
            model = m;
            contacts = new ParticleContacts(m, settings);
        }
        return contacts;
    }

    /** The contacts of the last bound model, or null. */
    public ParticleContacts current() {
        return contacts;
    }
}
