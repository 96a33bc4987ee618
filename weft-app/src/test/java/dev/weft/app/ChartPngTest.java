package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Graphics2D;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

/**
 * A plot is a view of a CSV already written: where AWT cannot draw (a GPU node without fontconfig threw
 * "Fontconfig head is null" from the chart's title layout and took `weft bench --table gpu` down after its
 * table), the PNG is skipped with one warning line naming what to install, and an older PNG is left whole.
 */
class ChartPngTest {
    @Test
    void aChartAwtCannotDrawIsAWarningAndLeavesTheOldFileWhole(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("gpu.png");
        Files.writeString(png, "the previous plot");
        XYChart broken = new XYChart(200, 100) {
            @Override
            public void paint(Graphics2D g, int width, int height) {
                throw new RuntimeException("Fontconfig head is null, check your fonts or fonts configuration");
            }
        };
        broken.addSeries("rate", List.of(1.0, 2.0), List.of(3.0, 4.0));
        StringWriter text = new StringWriter();
        boolean drawn = ChartPng.write(broken, png, new PrintWriter(text));
        assertThat(drawn).isFalse();
        assertThat(text.toString()).startsWith("weft: warning: " + png).contains("Fontconfig head is null")
                .contains("apt-get install fontconfig").doesNotContain("\tat ");
        assertThat(text.toString().lines()).hasSize(1);
        assertThat(Files.readString(png, StandardCharsets.UTF_8)).isEqualTo("the previous plot");
    }

    @Test
    void aChartThatDrawsIsWrittenAsAPng(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("rates.png");
        XYChart chart = new XYChart(200, 100);
        chart.addSeries("rate", List.of(1.0, 2.0), List.of(3.0, 4.0));
        StringWriter text = new StringWriter();
        assertThat(ChartPng.write(chart, png, new PrintWriter(text))).isTrue();
        assertThat(text.toString()).isEmpty();
        byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 8);
        assertThat(head).containsExactly(0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a);
    }
}
