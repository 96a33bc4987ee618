package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.mesh.ObjReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft run --export}: the animation for other tools, one file per format, every frame. */
class ExportCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void everyFormatIsWrittenWithEveryFrame(@TempDir Path tmp) throws Exception {
        int code = weft("run", "stack", "--frames", "3", "--obj-every", "0", "--quiet", "--export", "obj,pc2,gltf,usd",
                "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        Path dir = tmp.resolve("stack");
        // frames 0..3 as OBJ, each with the model's 5 cloths of 32 x 32 particles
        for (int f = 0; f <= 3; f++) {
            Path obj = dir.resolve(String.format("frames/frame_%05d.obj", f));
            assertThat(ObjReader.read(obj).vertexCount()).isEqualTo(5 * 32 * 32);
        }
        // the point cache: 4 samples of 5120 points
        ByteBuffer pc2 = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("stack.pc2"))).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(pc2.getInt(12)).isEqualTo(1); // version
        assertThat(pc2.getInt(16)).isEqualTo(5 * 32 * 32);
        assertThat(pc2.getInt(28)).isEqualTo(4);
        assertThat(Files.size(dir.resolve("stack.pc2"))).isEqualTo(32 + 4L * 5 * 32 * 32 * 12);
        assertThat(Files.exists(dir.resolve("stack_base.obj"))).isTrue();
        // glTF binary: magic "glTF", version 2
        ByteBuffer glb = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("stack.glb"))).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(glb.getInt(0)).isEqualTo(0x46546C67);
        assertThat(glb.getInt(4)).isEqualTo(2);
        assertThat(Files.readString(dir.resolve("stack.usda"))).startsWith("#usda 1.0").contains("endTimeCode = 3");
        assertThat(out.toString()).contains("exported");
    }

    @Test
    void anUnknownFormatIsNamed(@TempDir Path tmp) {
        assertThat(weft("run", "--frames", "1", "--export", "fbx", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--export: unknown format 'fbx'; allowed: obj, pc2, gltf, usd");
    }
}
