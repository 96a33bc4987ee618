package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft validate} and scene files given to {@code weft run}. */
class SceneFileCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void validateSaysOkOrWhereEachProblemIsAndExitsTwo(@TempDir Path tmp) throws Exception {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\n \"bodies\": [{\"type\": \"grid\", \"name\": \"c\", \"cols\": 4, \"rows\": 4,\n"
                + "   \"width\": 1, \"height\": -1}]\n}\n");
        int code = weft("validate", "../scenes/drape.json", bad.toString());
        assertThat(code).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(out.toString()).contains("../scenes/drape.json: ok: scene drape, 1 body, 4096 particles, 2 colliders");
        assertThat(err.toString().strip()).isEqualTo(bad + ":3:26: bodies[0].height: must be a number > 0 and <= 1000000 m, got -1");
        assertThat(err.toString()).doesNotContain("Exception", "\tat ");
    }

    @Test
    void runTakesASceneFileAndNamesItsOutputAfterTheScene(@TempDir Path tmp) throws Exception {
        Path scene = tmp.resolve("tiny.json");
        Files.writeString(scene, "{\"name\": \"tiny\", \"frames\": 4, \"substeps\": 2, \"bodies\": [{\"type\": \"grid\", "
                + "\"name\": \"c\", \"cols\": 4, \"rows\": 4, \"width\": 0.3, \"height\": 0.3, \"origin\": [0, 1, 0]}],"
                + " \"colliders\": [{\"type\": \"floor\"}]}");
        int code = weft("run", scene.toString(), "--out", tmp.resolve("out").toString(), "--quiet");
        assertThat(code).as(err.toString()).isZero();
        assertThat(Files.readAllLines(tmp.resolve("out/tiny/metrics.csv"))).hasSize(1 + 4); // a header and frames 1 to 4
    }

    @Test
    void aSceneRunsWithItsOwnSolverUnlessAnotherIsAsked(@TempDir Path tmp) throws Exception {
        Path scene = tmp.resolve("own.json");
        Files.writeString(scene, "{\"solver\": \"implicit\", \"frames\": 2, \"bodies\": [{\"type\": \"grid\", "
                + "\"name\": \"c\", \"cols\": 4, \"rows\": 4, \"width\": 0.3, \"height\": 0.3}]}");
        assertThat(weft("run", scene.toString(), "--out", tmp.toString(), "--quiet")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("solver implicit,");
        // --solver still picks another
        assertThat(weft("run", scene.toString(), "--solver", "pd", "--out", tmp.toString(), "--quiet"))
                .as(err.toString()).isZero();
        assertThat(out.toString()).contains("solver pd (");
    }

    @Test
    void gravityAndMaterialFieldsApplyToAnyScene(@TempDir Path tmp) throws Exception {
        // no gravity: the pinned cloth starts at rest and stays there (kinetic energy 0 in every frame)
        int code = weft("run", "hanging", "--frames", "3", "--gravity", "0,0,0", "--material", "density=0.4",
                "--material", "stretch=800", "--out", tmp.toString(), "--obj-every", "0");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("cloth: stretch 800 N/m, shear 500 N/m").contains("0.4 kg/m²");
        for (String row : Files.readAllLines(tmp.resolve("hanging/metrics.csv")).subList(1, 4)) {
            assertThat(Double.parseDouble(row.split(",")[5])).as(row).isZero();
        }
        assertThat(weft("run", "--material", "strech=800", "--out", tmp.toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--material: unknown field 'strech'; allowed: stretch, shear, bend, density");
        assertThat(weft("run", "--material", "stretch=800", "--stretch", "5", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--material stretch: and --stretch set the same field; give one");
    }
}
