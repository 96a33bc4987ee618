package dev.weft.app;

import dev.weft.bench.DroopBench;
import dev.weft.bench.DroopMatch;
import dev.weft.bench.DroopReport;
import dev.weft.bench.DroopRow;
import dev.weft.bench.DroopStrip;
import dev.weft.bench.DroopTable;
import dev.weft.bench.JoltRuntime;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code weft bench --peers --droop}: runs {@link DroopBench} (a pinned cantilever strip on Jolt and on Weft
 * over sweeps of bending stiffness), prints the rows and the matched stiffnesses and writes {@code droop.csv}
 * atomically.
 */
final class PeersDroopReport {
    private PeersDroopReport() {
    }

    static int run(PrintWriter out, Path dir, DroopBench bench, ProgressBar progress) throws IOException {
        JoltRuntime.ensureStarted(); // a missing native library is an error before anything is printed
        DroopStrip strip = bench.strip();
        out.printf(Locale.ROOT, "weft bench --peers --droop: a strip %d vertices wide, %d rows pinned flat and %d "
                + "overhanging (%.4f m) at %.4f m spacing, %d frames at 60 Hz with damping %.1f /s; tip drop below the "
                + "pinned plane, settled when no tip vertex moved faster than %.0e m/s over the last frame. "
                + "'*': the setting weft bench --peers runs.%n%n", strip.width(), DroopStrip.PINNED_ROWS,
                strip.overhangRows(), strip.overhang(), DroopStrip.SPACING, DroopStrip.FRAMES, DroopStrip.DAMPING,
                DroopStrip.SETTLED_TIP_SPEED);
        out.flush();
        DroopReport report = bench.run(progress::advance);
        progress.clear();
        out.println(DroopTable.consoleHeader());
        for (DroopRow r : report.rows()) {
            out.println(DroopTable.consoleLine(r));
        }
        out.println();
        out.println("matched (log-log interpolation in each sweep):");
        for (DroopMatch m : report.matches()) {
            out.println("  " + DroopTable.matchLine(m));
        }
        Files.createDirectories(dir);
        Path csv = dir.resolve("droop.csv");
        AtomicTextFile.write(csv, DroopTable.csv(report.rows()));
        out.printf(Locale.ROOT, "%nwrote %s%n", csv);
        return 0;
    }
}
