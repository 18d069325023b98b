package dev.idxkit.jmh.report;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A line chart saved as PNG (XChart 4, headless): one line per series, optional logarithmic axes.
 * Experiments describe what to draw; this class owns the look, so every chart of {@code idxkit
 * bench} reads alike (white background, legend outside the plot, markers on every point).
 *
 * <pre>{@code
 * Chart.line("Sequential reads", "chunk (KiB)", "MiB/s")
 *     .logX()
 *     .series("mmap", xs, ys)
 *     .series(results, "FileChannel", "chunk_kib", "mib_per_s", r -> r.get(0).equals("channel"))
 *     .save(dir.resolve("io.png"));
 * }</pre>
 *
 * <p>Rendering needs no display: {@link #save} sets {@code java.awt.headless=true} unless the
 * program chose otherwise before AWT started. A series with no points is left out (XChart refuses
 * them); a chart with no series at all is refused, since an empty PNG hides a broken experiment.
 */
public final class Chart {
  /** Size of every chart, in pixels: readable in a README, small as a file (~40-80 KB). */
  public static final int WIDTH = 960;

  public static final int HEIGHT = 560;

  private final String title;
  private final String xTitle;
  private final String yTitle;
  private boolean logX;
  private boolean logY;
  private final List<Series> series = new ArrayList<>();

  private record Series(String name, double[] x, double[] y) {}

  private Chart(String title, String xTitle, String yTitle) {
    this.title = title;
    this.xTitle = xTitle;
    this.yTitle = yTitle;
  }

  /** A line chart with these titles. */
  public static Chart line(String title, String xTitle, String yTitle) {
    return new Chart(title, xTitle, yTitle);
  }

  /** Logarithmic x axis (all x values must then be positive). */
  public Chart logX() {
    logX = true;
    return this;
  }

  /** Logarithmic y axis (all y values must then be positive). */
  public Chart logY() {
    logY = true;
    return this;
  }

  /** Adds a line through the points {@code (x[i], y[i])}. */
  public Chart series(String name, double[] x, double[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException(
          "series " + name + " : " + x.length + " x values, " + y.length + " y values");
    }
    for (Series s : series) {
      if (s.name().equals(name)) {
        throw new IllegalArgumentException("series " + name + " : added twice");
      }
    }
    series.add(new Series(name, x.clone(), y.clone()));
    return this;
  }

  /**
   * Adds a line from two numeric columns of {@code results}, taking the rows {@code filter} accepts
   * (in row order).
   */
  public Chart series(
      Results results,
      String name,
      String xColumn,
      String yColumn,
      Predicate<List<Object>> filter) {
    int xi = results.column(xColumn);
    int yi = results.column(yColumn);
    List<double[]> points = new ArrayList<>();
    for (List<Object> row : results.rows()) {
      if (filter.test(row) && row.get(xi) instanceof Number x && row.get(yi) instanceof Number y) {
        points.add(new double[] {x.doubleValue(), y.doubleValue()});
      }
    }
    double[] xs = new double[points.size()];
    double[] ys = new double[points.size()];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = points.get(i)[0];
      ys[i] = points.get(i)[1];
    }
    return series(name, xs, ys);
  }

  /** Names of the series added, in order. */
  public List<String> seriesNames() {
    return series.stream().map(Series::name).toList();
  }

  /** Renders the chart to {@code png} (created or replaced). */
  public void save(Path png) {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    XYChart chart = build();
    try (OutputStream out = Files.newOutputStream(png)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write chart " + png, e);
    }
  }

  private XYChart build() {
    List<Series> drawn = series.stream().filter(s -> s.x().length > 0).toList();
    if (drawn.isEmpty()) {
      throw new IllegalStateException(
          "chart '" + title + "' has no points in any series " + seriesNames());
    }
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title)
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    var st = chart.getStyler();
    st.setChartBackgroundColor(Color.WHITE);
    st.setPlotBackgroundColor(Color.WHITE);
    st.setPlotGridLinesColor(new Color(220, 220, 220));
    st.setLegendPosition(LegendPosition.OutsideE);
    st.setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Line);
    st.setXAxisLogarithmic(logX);
    st.setYAxisLogarithmic(logY);
    st.setAntiAlias(true);
    for (Series s : drawn) {
      chart.addSeries(s.name(), s.x(), s.y()).setMarker(SeriesMarkers.CIRCLE);
    }
    return chart;
  }
}
