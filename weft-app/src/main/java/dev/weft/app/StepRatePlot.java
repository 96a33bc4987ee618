package dev.weft.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A device table's rates as a PNG (XChart): steps per second against particles, both axes logarithmic,
 * one line per row kind (backend, threads, read-back), so the sizes where a device overtakes the CPU
 * can be read off.
 */
final class StepRatePlot {
    private final String title;
    /** Per series, in the order rows first named it: particles and steps per second. */
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();

    StepRatePlot(String title) {
        this.title = title;
    }

    /** One measured row: {@code rate} steps per second of {@code label} on {@code particles} particles. */
    void add(String label, int particles, double rate) {
        if (rate > 0 && Double.isFinite(rate)) {
            series.computeIfAbsent(label, k -> new ArrayList<>()).add(new double[] {particles, rate});
        }
    }

    /** Writes the plot, replacing {@code png} only once it is whole; false (after a warning) where AWT cannot draw. */
    boolean write(Path png, PrintWriter warn) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(600).title(title).xAxisTitle("particles")
                .yAxisTitle("steps per second").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (double[] point : e.getValue()) {
                xs.add(point[0]);
                ys.add(point[1]);
            }
            XYSeries s = chart.addSeries(e.getKey(), xs, ys);
            s.setMarker(SeriesMarkers.CIRCLE);
        }
        return ChartPng.write(chart, png, warn);
    }
}
