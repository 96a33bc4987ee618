package dev.weft.app;

import java.io.PrintWriter;

/** A one-line progress bar redrawn in place with carriage returns (terminal only). */
final class ProgressBar {
    private static final int WIDTH = 30;
    private final PrintWriter out;
    private final int total;
    private final boolean enabled;
    private int lastDrawn = -1;

    ProgressBar(PrintWriter out, int total, boolean enabled) {
        this.out = out;
        this.total = total;
        this.enabled = enabled;
    }

    void update(int done, String detail) {
        if (!enabled) {
            return;
        }
        int filled = total == 0 ? WIDTH : done * WIDTH / total;
        int percent = total == 0 ? 100 : done * 100 / total;
        if (percent == lastDrawn && done != total) {
            return;
        }
        lastDrawn = percent;
        StringBuilder sb = new StringBuilder(80);
        sb.append('\r').append('[');
        for (int i = 0; i < WIDTH; i++) {
            sb.append(i < filled ? '#' : '.');
        }
        sb.append("] ").append(percent).append("% ").append(done).append('/').append(total).append(' ').append(detail);
        out.print(sb);
        out.flush();
    }

    void finish() {
        if (enabled) {
            out.println();
        }
    }
}
