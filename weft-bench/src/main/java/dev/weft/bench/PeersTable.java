package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The side-by-side rows as console lines, CSV lines and a Markdown table. */
public final class PeersTable {
    public static final String CSV_HEADER = "n,threads,particles,engine,setting,ms_per_frame,mean_ms_per_frame,"
            + "ratio_to_jolt,final_strain,peak_strain_last_second,repetitions,jdk,cpu";

    private PeersTable() {
    }

    public static String consoleHeader() {
        return String.format(Locale.ROOT, "%5s %7s %-6s %-32s %9s %9s %10s %10s", "N", "threads", "engine", "setting",
                "ms/frame", "vs Jolt", "final %", "peak 1s %");
    }

    public static String consoleLine(PeersRow r) {
        return String.format(Locale.ROOT, "%5d %7d %-6s %-32s %9.2f %9s %10.2f %10.2f", r.n(), r.threads(), r.engine(),
                r.setting(), r.msPerFrame(), ratio(r), 100 * r.finalStrain(), 100 * r.peakStrain());
    }

    public static List<String> csv(List<PeersRow> rows, String jdk, String cpu) {
        List<String> lines = new ArrayList<>();
        lines.add(CSV_HEADER);
        for (PeersRow r : rows) {
            lines.add(String.format(Locale.ROOT, "%d,%d,%d,%s,\"%s\",%.4f,%.4f,%.4f,%.6f,%.6f,%d,\"%s\",\"%s\"", r.n(),
                    r.threads(), r.n() * r.n(), r.engine(), r.setting(), r.msPerFrame(), r.meanMsPerFrame(),
                    r.ratioToJolt(), r.finalStrain(), r.peakStrain(), r.repetitions(), jdk, cpu));
        }
        return lines;
    }

    /** A Markdown document: what ran, where, and the table. */
    public static List<String> markdown(List<PeersRow> rows, PeersBench bench, String jdk, String cpu) {
        List<String> lines = new ArrayList<>();
        lines.add("# weft bench --peers");
        lines.add("");
        lines.add("N x N cloth, 1 m, edge z = 0 pinned, gravity, " + ClothScene.FRAMES + " frames at "
                + Math.round(ClothScene.FPS) + " Hz, inextensible stretch and shear, damping " + ClothScene.DAMPING
                + " /s, equal vertex masses. ms/frame: the median frame after " + bench.warmupFrames()
                + " warm-up frames; strain: the largest |len/rest - 1| over the structural edges, at the last frame "
                + "and the peak over the last second; every number the median of " + bench.repetitions()
                + " interleaved repetitions.");
        lines.add("");
        lines.add("JDK: " + jdk + "; CPU: " + cpu);
        lines.add("");
        lines.add("| N | threads | engine | setting | ms/frame | Weft / Jolt | final strain | peak strain (last 1 s) |");
        lines.add("| --- | --- | --- | --- | --- | --- | --- | --- |");
        for (PeersRow r : rows) {
            lines.add(String.format(Locale.ROOT, "| %d | %d | %s | %s | %.2f | %s | %.2f %% | %.2f %% |", r.n(),
                    r.threads(), r.engine().equals("jolt") ? "Jolt" : "Weft", r.setting(), r.msPerFrame(), ratio(r),
                    100 * r.finalStrain(), 100 * r.peakStrain()));
        }
        return lines;
    }

    private static String ratio(PeersRow r) {
        return r.engine().equals("jolt") ? "-" : String.format(Locale.ROOT, "%.2f", r.ratioToJolt());
    }
}
