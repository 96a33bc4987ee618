package dev.weft.core.export;

import static dev.weft.core.export.ExportFixtures.assertSameFloats;
import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.export.ExportFixtures.Frame;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Pc2ExporterTest {
    @TempDir
    Path dir;

    /** A PC2 file as read back: header fields and samples. */
    record Pc2(String magic, int version, int points, float startFrame, float sampleRate, int samples, float[][] data) {
        static Pc2 read(Path file) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            byte[] magic = new byte[12];
            b.get(magic);
            int version = b.getInt();
            int points = b.getInt();
            float start = b.getFloat();
            float rate = b.getFloat();
            int samples = b.getInt();
            assertThat(b.remaining()).as("file size after the header").isEqualTo(samples * points * 12);
            float[][] data = new float[samples][3 * points];
            for (float[] s : data) {
                b.asFloatBuffer().get(s);
                b.position(b.position() + 12 * points);
            }
            return new Pc2(new String(magic, StandardCharsets.US_ASCII), version, points, start, rate, samples, data);
        }
    }

    @Test
    void theCacheHoldsEverySimulatedFrameExactlyAndItsHeaderIsPatched() throws IOException {
        List<Frame> run = ExportFixtures.simulate(ExportFixtures.scene(), 5);
        Path cache = dir.resolve("scene.pc2");
        Path base = dir.resolve("scene_base.obj");
        try (Pc2Exporter out = new Pc2Exporter(cache, base, "scene")) {
            ExportFixtures.export(out, run);
            assertThat(cache).doesNotExist();
            assertThat(base).doesNotExist();
        }
        Pc2 pc2 = Pc2.read(cache);
        int n = run.get(0).model().particleCount();
        assertThat(pc2.magic()).isEqualTo("POINTCACHE2\0");
        assertThat(pc2.version()).isEqualTo(1);
        assertThat(pc2.points()).isEqualTo(n);
        assertThat(pc2.startFrame()).isEqualTo(0f);
        assertThat(pc2.sampleRate()).isEqualTo(1f);
        assertThat(pc2.samples()).isEqualTo(5);
        for (int k = 0; k < 5; k++) {
            assertSameFloats(pc2.data()[k], run.get(k).positions(), "sample " + k);
        }
        // The base mesh: every particle, in cache order, at frame 0; one object, a group per body.
        List<String> lines = Files.readAllLines(base);
        float[] v = new float[3 * n];
        int at = 0;
        for (String l : lines) {
            if (l.startsWith("v ")) {
                for (String token : l.substring(2).split(" ")) {
                    v[at++] = Float.parseFloat(token);
                }
            }
        }
        assertThat(at).isEqualTo(3 * n);
        assertSameFloats(v, run.get(0).positions(), "base mesh");
        assertThat(lines.stream().filter(l -> l.startsWith("o "))).containsExactly("o scene");
        assertThat(lines).contains("g cloth", "g flag", "g rope");
    }

    @Test
    void startFrameIsTheFirstFramesIndex() throws IOException {
        List<Frame> run = ExportFixtures.simulate(ExportFixtures.scene(), 3);
        Path cache = dir.resolve("late.pc2");
        try (Pc2Exporter out = new Pc2Exporter(cache, dir.resolve("late_base.obj"), "late")) {
            for (Frame f : run) {
                out.frame(f.model(), f.positions(), 10 + f.index(), 1 + f.time());
            }
        }
        Pc2 pc2 = Pc2.read(cache);
        assertThat(pc2.startFrame()).isEqualTo(10f);
        assertThat(pc2.samples()).isEqualTo(3);
        assertSameFloats(pc2.data()[2], run.get(2).positions(), "last sample");
    }
}
