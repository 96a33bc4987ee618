package dev.weft.app;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a long command. On a terminal, a one-line bar redrawn in place with the time left; into a
 * file or a pipe, a plain line every tenth of the work or every 10 seconds, whichever comes first (no
 * carriage returns in a log file).
 */
final class ProgressBar {
    enum Style { BAR, LINES, NONE }

    private static final int WIDTH = 30;
    private static final long LINE_EVERY_NANOS = 10_000_000_000L;
    private final PrintWriter out;
    private final int total;
    private final Style style;
    private final LongSupplier clock;
    private final long start;
    private int lastDrawn = -1;
    private int lastLength;
    /** Units done so far, for callers that count with {@link #advance}. */
    private int done;
    private long lastLine;
    private int lastLinePercent;

    /** {@code enabled} false: silent; else a bar on a terminal, lines elsewhere. */
    ProgressBar(PrintWriter out, int total, boolean enabled) {
        this(out, total, !enabled ? Style.NONE : System.console() != null ? Style.BAR : Style.LINES, System::nanoTime);
    }

    ProgressBar(PrintWriter out, int total, Style style, LongSupplier clock) {
        this.out = out;
        this.total = total;
        this.style = style;
        this.clock = clock;
        this.start = clock.getAsLong();
        this.lastLine = start;
    }

    /** One more unit done ({@code detail} says which). */
    void advance(String detail) {
        update(++done, detail);
    }

    /**
     * Erases the bar from its line before the caller prints a line of its own (a table row), so the row
     * does not start behind the bar; the next update draws it again below. Nothing to do for lines.
     */
    void clear() {
        if (style == Style.BAR && lastDrawn >= 0) {
            out.print("\r" + " ".repeat(lastLength) + "\r");
            out.flush();
            lastDrawn = -1;
        }
    }

    void update(int done, String detail) {
        if (style == Style.NONE) {
            return;
        }
        int percent = total == 0 ? 100 : (int) ((long) done * 100 / total);
        long now = clock.getAsLong();
        String eta = eta(done, now);
        if (style == Style.LINES) {
            if (done == total || percent >= lastLinePercent + 10 || now - lastLine >= LINE_EVERY_NANOS) {
                out.printf(Locale.ROOT, "  %d/%d (%d %%) %s, %.1f s elapsed%s%n", done, total, percent, detail,
                        (now - start) / 1e9, eta);
                out.flush();
                lastLine = now;
                lastLinePercent = percent;
            }
            return;
        }
        if (percent == lastDrawn && done != total) {
            return;
        }
        lastDrawn = percent;
        int filled = total == 0 ? WIDTH : (int) ((long) done * WIDTH / total);
        StringBuilder sb = new StringBuilder(100);
        sb.append('\r').append('[');
        for (int i = 0; i < WIDTH; i++) {
            sb.append(i < filled ? '#' : '.');
        }
        sb.append("] ").append(percent).append("% ").append(done).append('/').append(total).append(' ').append(detail)
                .append(eta).append("   ");
        lastLength = sb.length();
        out.print(sb);
        out.flush();
    }

    /** ", eta 12 s": the time left at the pace so far (none before the first unit is done or after the last). */
    private String eta(int done, long now) {
        if (done <= 0 || done >= total) {
            return "";
        }
        double left = (now - start) / 1e9 / done * (total - done);
        return left < 60 ? String.format(Locale.ROOT, ", eta %.0f s", Math.ceil(left))
                : String.format(Locale.ROOT, ", eta %d min %02d s", (long) left / 60, (long) left % 60);
    }

    void finish() {
        if (style == Style.BAR) {
            out.println();
        }
    }
}
