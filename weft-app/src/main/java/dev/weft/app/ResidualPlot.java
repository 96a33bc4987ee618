package dev.weft.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** A residual curve plot with a logarithmic residual axis, written as PNG (XChart). */
final class ResidualPlot {
    private final XYChart chart;

    ResidualPlot(String title, String xTitle) {
        chart = new XYChartBuilder().width(900).height(600).title(title).xAxisTitle(xTitle)
                .yAxisTitle("residual Σ(|qa − qb| − L)² [m²]").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setMarkerSize(0);
    }

    /** Adds a curve; points with a non-positive or non-finite residual cannot be drawn on a log axis. */
    void add(String name, double[] x, double[] residual) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            if (residual[i] > 0 && Double.isFinite(residual[i])) {
                xs.add(x[i]);
                ys.add(residual[i]);
            }
        }
        if (xs.isEmpty()) {
            return;
        }
        XYSeries s = chart.addSeries(name, xs, ys);
        s.setMarker(SeriesMarkers.NONE);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    }

    boolean isEmpty() {
        return chart.getSeriesMap().isEmpty();
    }

    /** Writes the plot; false (after a warning) where AWT cannot draw. */
    boolean write(Path png, PrintWriter warn) throws IOException {
        return ChartPng.write(chart, png, warn);
    }
}
