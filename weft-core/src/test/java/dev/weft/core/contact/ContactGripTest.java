package dev.weft.core.contact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import org.junit.jupiter.api.Test;

/**
 * A cloth–cloth contact's friction factor is both bodies' grips (the product rule), in the
 * velocity-level form the implicit solver takes as in the position-based projection.
 */
class ContactGripTest {
    @Test
    void theVelocityLevelContactCarriesBothBodiesGrips() {
        ModelBuilder b = new ModelBuilder().tethers(false);
        ModelObject low = b.addGridCloth(GridClothSpec.of("low", 5, 5, 0.2f, 0.2f));
        ModelObject high = b.addGridCloth(GridClothSpec.of("high", 5, 5, 0.2f, 0.2f).withOrigin(0f, 0.02f, 0f));
        b.material(low, Material.cloth().withFriction(0.5f));
        b.material(high, Material.cloth().withFriction(0.4f));
        Model m = b.build();
        State s = State.atRest(m);
        ParticleContacts contacts = new ParticleContacts(m, ParticleContactSettings.defaults());
        double[] out = new double[8];
        try (WorkerPool pool = new WorkerPool(1)) {
            contacts.findCandidates(s.positions(), pool);
        }
        int middle = high.gridParticle(2, 2); // 2 cm above the low cloth's middle, within one spacing (5 cm)
        assertThat(contacts.normalConstraint(middle, s.positions(), s.velocities(), m.invMass(), 1f, 1f, out))
                .isTrue();
        assertThat(out[1]).as("normal from the low cloth up").isCloseTo(1.0, within(1e-6));
        assertThat(out[7]).as("grip of the pair").isCloseTo(0.4 * 0.5, within(1e-6));
    }
}
