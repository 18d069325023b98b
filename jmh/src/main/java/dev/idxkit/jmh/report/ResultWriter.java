package dev.idxkit.jmh.report;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes an experiment's figures into its output directory: for each {@link Results} a CSV file and
 * a JSON file, for each {@link Chart} a PNG, and at the end one line per file written.
 *
 * <p>Call order: {@link #open} when the experiment starts (reads the {@link Machine} and the start
 * time), {@link #write} and {@link #chart} as figures are ready (a long experiment writes after
 * each step, so an interrupted run keeps what it measured), {@link #printFiles} at the end.
 *
 * <h2>CSV layout (format {@value #FORMAT_VERSION})</h2>
 *
 * <pre>
 * method,pattern,chunk_bytes,mib_per_s     header: the column names, in order
 * mmap,sequential,4096,812.5               one line per row, RFC 4180: a field holding a comma, a
 * "a, b",random,8192,                      quote or a line break is quoted ("" for a quote); null
 *                                          is an empty field; numbers in plain notation (1000000,
 *                                          not 1.0E6); UTF-8, LF line ends
 * </pre>
 *
 * <h2>JSON layout (format {@value #FORMAT_VERSION})</h2>
 *
 * <pre>
 * {
 *   "format": 1,                          this constant; bumped when a field changes meaning
 *   "experiment": "io",                   the experiment, as on the command line
 *   "results": "io",                      the Results name (also the file's base name)
 *   "started": "2026-11-21T04:40:00Z",    when open() ran (UTC, seconds)
 *   "written": "2026-11-21T04:43:10Z",    when this file was written
 *   "machine_at_start": { ... },          Machine.toMap() at open()
 *   "machine_at_end": { ... },            Machine.toMap() when this file was written
 *   "parameters": { "file_bytes": 1073741824, ... },
 *   "notes": [ "page cache dropped with ...", ... ],
 *   "columns": [ "method", "pattern", ... ],
 *   "rows": [ { "method": "mmap", "pattern": "sequential", ... }, ... ]
 * }
 * </pre>
 */
public final class ResultWriter {
  /** The version of both file layouts above. */
  public static final int FORMAT_VERSION = 1;

  private final String experiment;
  private final Path dir;
  private final Instant started;
  private final Machine atStart;
  private final List<Path> written = new ArrayList<>();

  private ResultWriter(String experiment, Path dir, Instant started, Machine atStart) {
    this.experiment = experiment;
    this.dir = dir;
    this.started = started;
    this.atStart = atStart;
  }

  /** Creates {@code dir} if needed and reads the machine. */
  public static ResultWriter open(String experiment, Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the output directory " + dir, e);
    }
    return new ResultWriter(
        experiment, dir, Instant.now().truncatedTo(ChronoUnit.SECONDS), Machine.now());
  }

  /** The machine as it was when the experiment started. */
  public Machine machineAtStart() {
    return atStart;
  }

  /** Writes {@code <name>.csv} and {@code <name>.json}, replacing earlier versions. */
  public void write(Results results) {
    writeFile(dir.resolve(results.name() + ".csv"), csv(results));
    writeFile(dir.resolve(results.name() + ".json"), Json.write(jsonTree(results, Machine.now())));
  }

  /** Renders {@code chart} to {@code <baseName>.png}. */
  public void chart(Chart chart, String baseName) {
    Path png = dir.resolve(baseName + ".png");
    chart.save(png);
    remember(png);
  }

  /** Prints where the files are: one line each, after a heading. */
  public void printFiles(PrintStream out) {
    out.println(experiment + ": results in " + dir.toAbsolutePath().normalize());
    for (Path p : written) {
      out.println("  " + p);
    }
  }

  /** The CSV text of {@code results} (layout in the class comment). */
  static String csv(Results results) {
    StringBuilder sb = new StringBuilder();
    line(sb, new ArrayList<>(results.columns()));
    for (List<Object> row : results.rows()) {
      line(sb, row);
    }
    return sb.toString();
  }

  Map<String, Object> jsonTree(Results results, Machine atEnd) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", FORMAT_VERSION);
    m.put("experiment", experiment);
    m.put("results", results.name());
    m.put("started", started.toString());
    m.put("written", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    m.put("machine_at_start", atStart.toMap());
    m.put("machine_at_end", atEnd.toMap());
    m.put("parameters", results.parameters());
    m.put("notes", results.notes());
    m.put("columns", results.columns());
    List<Object> rows = new ArrayList<>();
    for (List<Object> row : results.rows()) {
      Map<String, Object> r = new LinkedHashMap<>();
      for (int i = 0; i < row.size(); i++) {
        r.put(results.columns().get(i), row.get(i));
      }
      rows.add(r);
    }
    m.put("rows", rows);
    return m;
  }

  private static void line(StringBuilder sb, List<?> fields) {
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      Object v = fields.get(i);
      if (v == null) {
        continue;
      }
      String s = v instanceof Number n ? Json.number(n) : v.toString();
      if (s.indexOf(',') >= 0
          || s.indexOf('"') >= 0
          || s.indexOf('\n') >= 0
          || s.indexOf('\r') >= 0) {
        sb.append('"').append(s.replace("\"", "\"\"")).append('"');
      } else {
        sb.append(s);
      }
    }
    sb.append('\n');
  }

  private void writeFile(Path p, String text) {
    try {
      Files.writeString(p, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + p, e);
    }
    remember(p);
  }

  private void remember(Path p) {
    if (!written.contains(p)) {
      written.add(p);
    }
  }
}
