package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The droop sweep as console lines and CSV lines, and its matches as console lines. */
public final class DroopTable {
    public static final String CSV_HEADER = "engine,bending,setting,stiffness,tip_drop_m,settled,tip_speed_m_s";

    private DroopTable() {
    }

    public static String consoleHeader() {
        return String.format(Locale.ROOT, "%-6s %-10s %-62s %11s %10s %8s %12s", "engine", "bending", "setting",
                "stiffness", "drop (m)", "settled", "tip m/s");
    }

    /** A row; the peers bench's own settings are marked with '*'. */
    public static String consoleLine(DroopRow r) {
        return String.format(Locale.ROOT, "%-6s %-10s %-62s %11.4g %10.5f %8s %12.2e", r.engine(), r.bending(),
                (r.peers() ? "* " : "") + r.setting(), r.stiffness(), r.result().tipDrop(),
                r.result().settled() ? "yes" : "NO", r.result().tipSpeed());
    }

    public static String matchLine(DroopMatch m) {
        return String.format(Locale.ROOT, "%s: drop %.5f m -> %s", m.question(), m.drop(),
                Double.isNaN(m.value()) ? "outside the sweep" : String.format(Locale.ROOT, "%.3g %s", m.value(), m.unit()));
    }

    public static List<String> csv(List<DroopRow> rows) {
        List<String> lines = new ArrayList<>();
        lines.add(CSV_HEADER);
        for (DroopRow r : rows) {
            lines.add(String.format(Locale.ROOT, "%s,%s,\"%s\",%.6g,%.6f,%b,%.3e", r.engine(), r.bending(), r.setting(),
                    r.stiffness(), r.result().tipDrop(), r.result().settled(), r.result().tipSpeed()));
        }
        return lines;
    }
}
