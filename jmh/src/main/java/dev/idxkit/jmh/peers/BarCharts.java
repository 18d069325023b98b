package dev.idxkit.jmh.peers;

import dev.idxkit.core.IdxkitIOException;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * Grouped bar charts as one PNG (XChart, headless): one panel per measured operation, panels side
 * by side, each with its own axis so that builds in seconds and lookups per second can share an
 * image. Kept minimal on purpose; the shared report package may replace it.
 *
 * <p>Why bars with idxkit first: every chart here compares stores on the same data, so idxkit is
 * always the first series and drawn in the same colour.
 */
final class BarCharts {
  static final int PANEL_WIDTH = 620;
  static final int PANEL_HEIGHT = 400;

  /** The same colours for the same stores in every chart (idxkit first). */
  private static final Color[] COLOURS = {
    new Color(0x1f77b4),
    new Color(0xff7f0e),
    new Color(0x2ca02c),
    new Color(0xd62728),
    new Color(0x9467bd),
    new Color(0x8c564b),
    new Color(0xe377c2),
    new Color(0x7f7f7f)
  };

  /**
   * One panel: bars for each category (x axis), one series per store.
   *
   * @param series store name to one value per category (NaN where a store has none: drawn as 0)
   * @param stacked true to stack the series (parts of one whole, e.g. phases of a run)
   */
  record Panel(
      String title,
      String yTitle,
      List<String> categories,
      Map<String, List<Double>> series,
      boolean stacked) {
    Panel(String title, String yTitle, List<String> categories, Map<String, List<Double>> series) {
      this(title, yTitle, categories, series, false);
    }

    Panel {
      categories = List.copyOf(categories);
      series = new LinkedHashMap<>(series);
      for (Map.Entry<String, List<Double>> e : series.entrySet()) {
        if (e.getValue().size() != categories.size()) {
          throw new IllegalArgumentException(
              "series "
                  + e.getKey()
                  + " : "
                  + e.getValue().size()
                  + " values (expected: "
                  + categories.size()
                  + ", one per category)");
        }
      }
    }
  }

  private BarCharts() {}

  /** Writes the panels side by side into {@code png}. */
  static void write(Path png, List<Panel> panels) {
    if (panels.isEmpty()) {
      throw new IllegalArgumentException("panels : empty (expected: at least one)");
    }
    List<CategoryChart> charts = new ArrayList<>();
    for (Panel p : panels) {
      charts.add(chart(p));
    }
    try {
      Files.createDirectories(png.toAbsolutePath().getParent());
      try (var out = Files.newOutputStream(png)) {
        BitmapEncoder.saveBitmap(charts, 1, charts.size(), out, BitmapFormat.PNG);
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot write the chart " + png, e);
    }
  }

  private static CategoryChart chart(Panel p) {
    CategoryChart c =
        new CategoryChartBuilder()
            .width(PANEL_WIDTH)
            .height(PANEL_HEIGHT)
            .title(p.title())
            .yAxisTitle(p.yTitle())
            .build();
    c.getStyler().setLegendPosition(LegendPosition.OutsideE);
    c.getStyler().setLegendLayout(LegendLayout.Vertical);
    c.getStyler().setLegendVisible(p.series().size() > 1);
    c.getStyler().setSeriesColors(colours(p.series().size()));
    c.getStyler().setYAxisDecimalPattern("#,##0.###");
    c.getStyler().setXAxisLabelRotation(p.categories().size() > 2 ? 40 : 0);
    c.getStyler().setChartBackgroundColor(Color.WHITE);
    c.getStyler().setStacked(p.stacked());
    for (Map.Entry<String, List<Double>> e : p.series().entrySet()) {
      List<Double> ys = new ArrayList<>();
      for (Double v : e.getValue()) {
        ys.add(v == null || v.isNaN() ? 0.0 : v);
      }
      c.addSeries(e.getKey(), p.categories(), ys);
    }
    return c;
  }

  private static Color[] colours(int n) {
    Color[] out = new Color[n];
    for (int i = 0; i < n; i++) {
      out[i] = COLOURS[i % COLOURS.length];
    }
    return out;
  }
}
