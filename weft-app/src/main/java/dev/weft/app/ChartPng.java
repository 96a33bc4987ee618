package dev.weft.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Writes an XChart chart as a PNG, replacing the file only once it is whole. Drawing text needs AWT's fonts:
 * a machine without fontconfig or any font (a bare container, a GPU node) makes AWT throw from deep inside
 * the chart's layout. A plot is a view of numbers already written to a CSV, so that costs the plot, with one
 * warning line naming what to install, never the command's results.
 */
final class ChartPng {
    private ChartPng() {
    }

    /** Writes {@code chart} to {@code png}; false, after a warning line on {@code warn}, where AWT cannot draw. */
    static boolean write(Chart<?, ?> chart, Path png, PrintWriter warn) throws IOException {
        byte[] bytes;
        try {
            bytes = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        } catch (RuntimeException | LinkageError e) {
            warn.println("weft: warning: " + png + " not drawn: Java's AWT cannot draw text here ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + "); install fontconfig and a font "
                    + "(Debian/Ubuntu: apt-get install fontconfig fonts-dejavu-core). The CSV is written.");
            warn.flush();
            return false;
        }
        AtomicBinaryFile.write(png, bytes);
        return true;
    }
}
