package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.Model;
import dev.weft.scene.SceneLibrary;
import org.junit.jupiter.api.Test;

/** The benches' cloth at n = 100 is the shipped scene 'hanging'. */
class HangingClothTest {
    @Test
    void atOneHundredItIsTheShippedHangingScene() {
        Model file = SceneLibrary.load("hanging").model();
        Model bench = HangingCloth.of(100).model();
        assertThat(bench.restPositions()).containsExactly(file.restPositions());
        assertThat(bench.invMass()).containsExactly(file.invMass());
        assertThat(bench.distances().particles()).containsExactly(file.distances().particles());
        assertThat(bench.bending().count()).isEqualTo(file.bending().count());
        assertThat(bench.tethers().count()).isEqualTo(file.tethers().count());
        assertThat(bench.material(0)).isEqualTo(file.material(0));
        assertThat(HangingCloth.of(100).substeps()).isEqualTo(SceneLibrary.load("hanging").substeps());
    }
}
