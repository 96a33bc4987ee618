package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Progress: a bar with the time left on a terminal, plain periodic lines into a file. */
class ProgressBarTest {
    private long now;

    @Test
    void intoAFileItWritesALineEveryTenthAndNoCarriageReturns() {
        StringWriter text = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(text), 300, ProgressBar.Style.LINES, () -> now);
        for (int f = 1; f <= 300; f++) {
            now += 10_000_000L; // 10 ms a frame
            bar.update(f, "t=" + f);
        }
        bar.finish();
        List<String> lines = text.toString().lines().toList();
        assertThat(text.toString()).doesNotContain("\r");
        assertThat(lines).hasSize(10); // 30, 60, ..., 300
        assertThat(lines.get(0)).isEqualTo("  30/300 (10 %) t=30, 0.3 s elapsed, eta 3 s");
        assertThat(lines.get(9)).isEqualTo("  300/300 (100 %) t=300, 3.0 s elapsed");
    }

    @Test
    void aSlowRunGetsALineEveryTenSecondsToo() {
        StringWriter text = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(text), 1000, ProgressBar.Style.LINES, () -> now);
        for (int f = 1; f <= 50; f++) {
            now += 1_000_000_000L; // a second a frame: 5 % in 50 s
            bar.update(f, "");
        }
        assertThat(text.toString().lines().count()).isEqualTo(5);
        assertThat(text.toString()).contains("eta 16 min 30 s");
    }

    @Test
    void onATerminalItRedrawsOneLineWithTheTimeLeft() {
        StringWriter text = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(text), 4, ProgressBar.Style.BAR, () -> now);
        for (int f = 1; f <= 4; f++) {
            now += 2_000_000_000L;
            bar.update(f, "");
        }
        bar.finish();
        assertThat(text.toString()).startsWith("\r[").contains("1/4", "eta 6 s").endsWith(System.lineSeparator());
        assertThat(text.toString().chars().filter(c -> c == '\n').count()).as("one line, redrawn").isEqualTo(1);
    }

    @Test
    void aTableRowPrintedBetweenUpdatesStartsOnAClearedLine() {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        ProgressBar bar = new ProgressBar(out, 2, ProgressBar.Style.BAR, () -> now);
        now += 1_000_000_000L;
        bar.advance("first row");
        int drawn = text.toString().length() - 1; // the bar without its leading carriage return
        bar.clear();
        out.print("row 1\n");
        out.flush();
        // the bar's characters overwritten with blanks, then the row from the line's start
        assertThat(text.toString()).endsWith("\r" + " ".repeat(drawn + 1) + "\rrow 1\n");
        bar.advance("second row");
        assertThat(text.toString()).endsWith("2/2 second row   ");
    }
}
