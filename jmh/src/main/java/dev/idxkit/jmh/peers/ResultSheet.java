package dev.idxkit.jmh.peers;

import dev.idxkit.core.IdxkitIOException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of one peer experiment and what they were measured under, written as CSV (one line
 * per figure, for spreadsheets and the lead's report package) and JSON (everything: parameters,
 * machine, each store's settings, figures, ratios and goals).
 *
 * <p>CSV layout, format {@value #FORMAT_VERSION}:
 *
 * <pre>
 * experiment,store,config,metric,value,unit
 * compare,lmdb,,lookup,1234567.8,ops/s
 * </pre>
 *
 * Ratios and goals are CSV lines too, with store {@code ratio} / {@code goal} and the ratio's label
 * as metric, so that one file holds every number printed.
 *
 * <p>JSON layout: {@code {"format": 1, "experiment", "started", "parameters": {..}, "machine":
 * {..}, "settings": {store: text}, "figures": [{store, config, metric, value, unit}], "ratios":
 * [{label, value, meaning}], "goals": [{goal, measured, met}], "notes": [..]}}.
 */
final class ResultSheet {
  static final int FORMAT_VERSION = 1;

  record Figure(String store, String config, String metric, double value, String unit) {}

  /** {@code value} = how many times {@code meaning} says; e.g. idxkit is 3.1 x faster. */
  record Ratio(String label, double value, String meaning) {}

  record Goal(String goal, String measured, boolean met) {}

  final String experiment;
  final Instant started = Instant.now();
  final Machine machine;
  private final Map<String, String> parameters = new LinkedHashMap<>();
  private final Map<String, String> settings = new LinkedHashMap<>();
  private final List<Figure> figures = new ArrayList<>();
  private final List<Ratio> ratios = new ArrayList<>();
  private final List<Goal> goals = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  ResultSheet(String experiment, Machine machine) {
    this.experiment = experiment;
    this.machine = machine;
  }

  synchronized void parameter(String name, Object value) {
    parameters.put(name, String.valueOf(value));
  }

  /** What a store was configured with: durability, cache, threads (printed and kept in JSON). */
  synchronized void setting(String store, String text) {
    settings.put(store, text);
  }

  synchronized void add(String store, String config, String metric, double value, String unit) {
    figures.add(new Figure(store, config, metric, value, unit));
  }

  synchronized Ratio ratio(String label, double value, String meaning) {
    Ratio r = new Ratio(label, value, meaning);
    ratios.add(r);
    return r;
  }

  synchronized void goal(String goal, String measured, boolean met) {
    goals.add(new Goal(goal, measured, met));
  }

  synchronized void note(String text) {
    notes.add(text);
  }

  synchronized List<Ratio> ratios() {
    return List.copyOf(ratios);
  }

  synchronized List<Goal> goals() {
    return List.copyOf(goals);
  }

  synchronized Map<String, String> settings() {
    return Map.copyOf(settings);
  }

  /** The figure of {@code store}/{@code config}/{@code metric}, or NaN if there is none. */
  synchronized double value(String store, String config, String metric) {
    for (Figure f : figures) {
      if (f.store.equals(store) && f.config.equals(config) && f.metric.equals(metric)) {
        return f.value;
      }
    }
    return Double.NaN;
  }

  /** Writes {@code <name>.csv} and {@code <name>.json} into {@code dir}; returns the two paths. */
  synchronized List<Path> write(Path dir, String name) {
    Path csv = dir.resolve(name + ".csv");
    Path json = dir.resolve(name + ".json");
    try {
      Files.createDirectories(dir);
      Files.writeString(csv, csv(), StandardCharsets.UTF_8);
      Files.writeString(json, json(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot write the results to " + dir, e);
    }
    return List.of(csv, json);
  }

  synchronized String csv() {
    StringBuilder b = new StringBuilder("experiment,store,config,metric,value,unit\n");
    for (Figure f : figures) {
      line(b, experiment, f.store, f.config, f.metric, num(f.value), f.unit);
    }
    for (Ratio r : ratios) {
      line(b, experiment, "ratio", "", r.label, num(r.value), r.meaning);
    }
    for (Goal g : goals) {
      line(b, experiment, "goal", g.met ? "met" : "not met", g.goal, "", g.measured);
    }
    return b.toString();
  }

  private static void line(StringBuilder b, String... fields) {
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      String f = fields[i];
      if (f.indexOf(',') >= 0 || f.indexOf('"') >= 0 || f.indexOf('\n') >= 0) {
        b.append('"').append(f.replace("\"", "\"\"")).append('"');
      } else {
        b.append(f);
      }
    }
    b.append('\n');
  }

  synchronized String json() {
    StringBuilder b = new StringBuilder(4096);
    b.append("{\n  \"format\": ").append(FORMAT_VERSION);
    b.append(",\n  \"experiment\": ").append(str(experiment));
    b.append(",\n  \"started\": ").append(str(started.toString()));
    b.append(",\n  \"parameters\": ").append(object(parameters));
    b.append(",\n  \"machine\": {");
    b.append("\"cpus\": ").append(machine.cpus);
    b.append(", \"cpuModel\": ").append(str(machine.cpuModel));
    b.append(", \"memTotalBytes\": ").append(machine.memTotalBytes);
    b.append(", \"memAvailableBytesAtStart\": ").append(machine.memAvailableBytes);
    b.append(", \"jdk\": ").append(str(machine.jdk));
    b.append(", \"os\": ").append(str(machine.os));
    b.append(", \"loadAverageMin\": ").append(num(machine.loadMin()));
    b.append(", \"loadAverageMax\": ").append(num(machine.loadMax()));
    b.append("}");
    b.append(",\n  \"settings\": ").append(object(settings));
    b.append(",\n  \"figures\": [");
    for (int i = 0; i < figures.size(); i++) {
      Figure f = figures.get(i);
      b.append(i == 0 ? "\n    " : ",\n    ");
      b.append("{\"store\": ").append(str(f.store));
      b.append(", \"config\": ").append(str(f.config));
      b.append(", \"metric\": ").append(str(f.metric));
      b.append(", \"value\": ").append(num(f.value));
      b.append(", \"unit\": ").append(str(f.unit)).append('}');
    }
    b.append("\n  ],\n  \"ratios\": [");
    for (int i = 0; i < ratios.size(); i++) {
      Ratio r = ratios.get(i);
      b.append(i == 0 ? "\n    " : ",\n    ");
      b.append("{\"label\": ").append(str(r.label));
      b.append(", \"value\": ").append(num(r.value));
      b.append(", \"meaning\": ").append(str(r.meaning)).append('}');
    }
    b.append("\n  ],\n  \"goals\": [");
    for (int i = 0; i < goals.size(); i++) {
      Goal g = goals.get(i);
      b.append(i == 0 ? "\n    " : ",\n    ");
      b.append("{\"goal\": ").append(str(g.goal));
      b.append(", \"measured\": ").append(str(g.measured));
      b.append(", \"met\": ").append(g.met).append('}');
    }
    b.append("\n  ],\n  \"notes\": [");
    for (int i = 0; i < notes.size(); i++) {
      b.append(i == 0 ? "\n    " : ",\n    ").append(str(notes.get(i)));
    }
    b.append("\n  ]\n}\n");
    return b.toString();
  }

  /**
   * The end of every peer experiment: prints the summary, writes {@code <experiment>.csv} and
   * {@code .json} ({@link #write}) and the chart {@code <experiment>.png} into {@code dir}, and
   * prints the files written.
   */
  void finish(Path dir, List<BarCharts.Panel> panels, PrintStream out) {
    printSummary(out);
    List<Path> files = new ArrayList<>(write(dir, experiment));
    Path png = dir.resolve(experiment + ".png");
    BarCharts.write(png, panels);
    files.add(png);
    out.println("wrote " + files);
  }

  /** Prints the settings, the ratios and the goals: the end of every experiment's output. */
  synchronized void printSummary(PrintStream out) {
    out.println();
    out.println("settings:");
    settings.forEach((k, v) -> out.printf(Locale.ROOT, "  %-10s %s%n", k, v));
    if (!ratios.isEmpty()) {
      out.println();
      out.printf(Locale.ROOT, "%-46s %8s  %s%n", "ratio", "x", "meaning");
      for (Ratio r : ratios) {
        out.printf(Locale.ROOT, "%-46s %8.2f  %s%n", r.label, r.value, r.meaning);
      }
    }
    if (!goals.isEmpty()) {
      out.println();
      for (Goal g : goals) {
        out.printf(
            Locale.ROOT, "goal %-8s %s: %s%n", g.met ? "MET" : "NOT MET", g.goal, g.measured);
      }
    }
    out.println();
    out.println("machine: " + machine.summary());
    for (String n : notes) {
      out.println("note: " + n);
    }
  }

  private static String object(Map<String, String> m) {
    StringBuilder b = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, String> e : m.entrySet()) {
      b.append(first ? "" : ", ").append(str(e.getKey())).append(": ").append(str(e.getValue()));
      first = false;
    }
    return b.append('}').toString();
  }

  static String num(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "null";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.6g", v);
  }

  static String str(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
