package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The render command end to end, headless through EGL (the test command installs Mesa). */
class RenderCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    private static long partFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".part")).count();
        }
    }

    @Test
    void renderWritesTheInitialFrameAndOnePerSimulatedFrame(@TempDir Path tmp) throws IOException {
        int code = weft("render", "--frames", "2", "--width", "160", "--height", "90", "--threads", "1", "--quiet",
                "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        Path frames = tmp.resolve("drape").resolve("render");
        for (int f = 0; f <= 2; f++) {
            BufferedImage img = ImageIO.read(frames.resolve(String.format("frame_%05d.png", f)).toFile());
            assertThat(img.getWidth()).isEqualTo(160);
            assertThat(img.getHeight()).isEqualTo(90);
        }
        assertThat(frames.resolve("frame_00003.png")).doesNotExist();
        assertThat(partFiles(tmp)).isZero();
        assertThat(out.toString()).contains("pictures: 3 frames", "frames/s", "EGL");
    }

    @Test
    void theFlagSceneDrawsItsFlagImageUprightOnTheCloth(@TempDir Path tmp) throws IOException {
        // the shipped flag scene's cloth (scenes/flag.json, read from the jar) carries textures/flag.png (blue bottom stripe, red top stripe, a green canton
        // at the pole): the picture shows the image's colours, blue below red, and not the body's own colour
        int code = weft("render", "flag", "--frames", "1", "--width", "320", "--height", "180",
                "--threads", "1", "--quiet", "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        BufferedImage img = ImageIO.read(tmp.resolve("flag").resolve("render").resolve("frame_00001.png").toFile());
        long green = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                green += hue(img.getRGB(x, y)) == 'g' ? 1 : 0;
            }
        }
        assertThat(green).as("the canton's green").isGreaterThan(20);
        // the image is upright: its bottom (blue) stripe lower in the picture than its top (red) one
        assertThat(meanRow(img, true)).isGreaterThan(meanRow(img, false));
    }

    /** The mean picture row (y down) of the blue ({@code blue}) or red pixels. */
    private static double meanRow(BufferedImage img, boolean blue) {
        double sum = 0;
        long n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                if (hue(img.getRGB(x, y)) == (blue ? 'b' : 'r')) {
                    sum += y;
                    n++;
                }
            }
        }
        assertThat(n).as(blue ? "blue pixels" : "red pixels").isGreaterThan(20);
        return sum / n;
    }

    /** 'r', 'g' or 'b' where one of the flag's colours clearly dominates a pixel, else ' '. */
    private static char hue(int rgb) {
        int r = (rgb >> 16) & 0xff;
        int g = (rgb >> 8) & 0xff;
        int b = rgb & 0xff;
        if (b > 90 && b > 2 * r && b > 1.5 * g) {
            return 'b';
        }
        if (r > 90 && r > 2.5 * g && r > 2.5 * b) {
            return 'r';
        }
        return g > 50 && g > 1.4 * r && g > 1.2 * b ? 'g' : ' ';
    }

    @Test
    void renderRunsTheSceneAsRunDoesWithAnySolverAndContacts(@TempDir Path tmp) throws IOException {
        // issue #14: render used to run XPBD without contacts whatever was asked; it is run plus pictures
        int code = weft("render", "stack", "--frames", "2", "--width", "64", "--height", "36", "--threads", "1",
                "--quiet", "--solver", "pd", "--self-collision", "--export", "pc2", "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("solver pd", "pictures: 3 frames");
        Path dir = tmp.resolve("stack");
        assertThat(dir.resolve("render").resolve("frame_00002.png")).exists();
        assertThat(dir.resolve("metrics.csv")).exists();
        assertThat(dir.resolve("stack.pc2")).exists();
        // OBJ frames only when asked, as before
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("frame_"))).isEmpty();
        }
        assertThat(weft("render", "--render", "--out", tmp.toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--render: is weft run's; weft render always renders");
    }

    @Test
    void videoNeedsFfmpegAndSaysHowToGetIt(@TempDir Path tmp) throws IOException {
        int code = weft("render", "--frames", "3", "--width", "96", "--height", "64", "--threads", "1", "--quiet",
                "--video", "--out", tmp.toString());
        Path dir = tmp.resolve("drape");
        if (VideoEncoder.find().isPresent()) {
            assertThat(code).as(err.toString()).isZero();
            assertThat(Files.size(dir.resolve("drape.mp4"))).isPositive();
            assertThat(Files.size(dir.resolve("drape-preview.gif"))).isPositive();
            assertThat(partFiles(tmp)).isZero();
        } else {
            assertThat(code).isEqualTo(RenderCommand.EXIT_MISSING_DEPENDENCY);
            assertThat(err.toString()).contains("ffmpeg", "apt-get install ffmpeg", dir.resolve("render").toString());
            // the frames are there all the same
            assertThat(dir.resolve("render").resolve("frame_00003.png")).exists();
        }
    }

    @Test
    void runRenderWritesFramesWhileSimulating(@TempDir Path tmp) throws IOException {
        int code = weft("run", "--frames", "2", "--render", "--render-size", "128x72", "--obj-every", "0",
                "--threads", "1", "--quiet", "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        Path frames = tmp.resolve("drape").resolve("render");
        assertThat(frames.resolve("frame_00000.png")).exists();
        BufferedImage last = ImageIO.read(frames.resolve("frame_00002.png").toFile());
        assertThat(last.getWidth()).isEqualTo(128);
        assertThat(tmp.resolve("drape").resolve("metrics.csv")).exists();
        assertThat(out.toString()).contains("rendered 3 PNG frames");
    }

    @Test
    void badRenderFlagsExitWithStatus2AndNameTheFlag(@TempDir Path tmp) {
        String dir = tmp.toString();
        assertThat(weft("render", "--width", "0", "--out", dir)).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--width");
        assertThat(weft("render", "--camera", "1,2", "--out", dir)).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--camera", "X,Y,Z");
        assertThat(weft("render", "--fov", "200", "--out", dir)).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--fov");
        assertThat(weft("render", "--samples", "0", "--out", dir)).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--samples");
        assertThat(weft("run", "--render", "--render-size", "big", "--out", dir)).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--render-size", "1280x720");
    }
}
