package dev.weft.app;

import dev.weft.bench.JoltRuntime;
import dev.weft.bench.PeersBench;
import dev.weft.bench.PeersRow;
import dev.weft.bench.PeersTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code weft bench --peers}: runs {@link PeersBench} (issue #17's cloth on Jolt and on Weft, interleaved),
 * prints each size and thread count's rows as they finish and writes {@code peers.csv} and {@code peers.md}
 * atomically.
 */
final class PeersBenchReport {
    private PeersBenchReport() {
    }

    static int run(PrintWriter out, Path dir, PeersBench bench, ProgressBar progress) throws IOException {
        JoltRuntime.ensureStarted(); // a missing native library is an error before anything is printed
        String jdk = SystemInfo.jdk();
        String cpu = SystemInfo.cpu();
        out.printf(Locale.ROOT, "weft bench --peers: the same cloth on Jolt Physics (jolt-jni) and Weft XPBD; "
                + "median frame after %d warm-up frames, median of %d interleaved repetitions%n",
                bench.warmupFrames(), bench.repetitions());
        out.printf(Locale.ROOT, "  JDK: %s%n  CPU: %s%n%n", jdk, cpu);
        out.println(PeersTable.consoleHeader());
        out.flush();
        List<PeersRow> rows = bench.run(new PeersBench.Listener() {
            @Override
            public void runFinished(String what) {
                progress.advance(what);
            }

            @Override
            public void rowsFinished(List<PeersRow> finished) {
                progress.clear();
                for (PeersRow r : finished) {
                    out.println(PeersTable.consoleLine(r));
                }
                out.flush();
            }
        });
        progress.clear();
        Files.createDirectories(dir);
        Path csv = dir.resolve("peers.csv");
        AtomicTextFile.write(csv, PeersTable.csv(rows, jdk, cpu));
        Path md = dir.resolve("peers.md");
        AtomicTextFile.write(md, PeersTable.markdown(rows, bench, jdk, cpu));
        out.printf(Locale.ROOT, "%nwrote %s and %s%n", csv, md);
        return 0;
    }
}
