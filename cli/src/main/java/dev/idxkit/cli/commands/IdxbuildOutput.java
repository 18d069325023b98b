package dev.idxkit.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.cli.output.Json;
import dev.idxkit.cli.output.Sizes;
import dev.idxkit.cli.server.RebuildProgress;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.RebuildPlan;
import dev.idxkit.idxbuild.RebuildReport;
import dev.idxkit.idxbuild.ResourceUsage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** How {@code idxkit idxbuild} prints its plan and report, as text and as JSON. */
final class IdxbuildOutput {
  private final PrintWriter out;
  private final Path db;
  private final boolean rusage;

  IdxbuildOutput(PrintWriter out, Path db, boolean rusage) {
    this.out = out;
    this.db = db;
    this.rusage = rusage;
  }

  /** What {@code print} writes through an output of its own, as lines (for the progress page). */
  java.util.List<String> lines(java.util.function.Consumer<IdxbuildOutput> print) {
    java.io.StringWriter text = new java.io.StringWriter();
    try (PrintWriter w = new PrintWriter(text)) {
      print.accept(new IdxbuildOutput(w, db, rusage));
    }
    return java.util.List.of(text.toString().split("\\R"));
  }

  void plan(RebuildPlan plan, String srtChoice, RebuildOptions o) {
    int indexes = plan.groups().stream().mapToInt(g -> g.indexes().size()).sum();
    out.println("idxbuild " + db + ": " + CheckCommand.plural(indexes, "index", "indexes"));
    out.println("  " + srtChoice);
    out.printf(
        Locale.ROOT,
        "  memory %s for %d sort group%s (-SG %d); %d scan, %d merge thread%s; -TB %d KB,"
            + " -TM %d, -TMB %d KB, leaf fill %d%%%n",
        Sizes.bytes(plan.memoryBytes()),
        plan.groups().size(),
        plan.groups().size() == 1 ? "" : "s",
        o.sortGroups(),
        o.scanThreads(),
        o.threads(),
        o.threads() == 1 ? "" : "s",
        o.sortBlockKb(),
        o.mergeFanIn(),
        o.mergeBlockKb(),
        o.leafFill());
    for (String line : RebuildProgress.groupTable(plan)) {
      out.println("  " + line);
    }
    out.flush();
  }

  void warning(String message) {
    out.println("warning: " + message);
    out.flush();
  }

  void report(RebuildReport r) {
    out.printf(Locale.ROOT, "  %-8s %10s %10s %16s %18s%n", "phase", "wall", "cpu", "done", "rate");
    for (RebuildReport.Phase p : r.phases()) {
      out.printf(
          Locale.ROOT,
          "  %-8s %10s %10s %,16d %18s%n",
          p.name(),
          seconds(p.wallNanos()),
          seconds(p.cpuNanos()),
          p.units(),
          String.format(Locale.ROOT, "%,.0f %s/s", p.unitsPerSecond(), p.unit()));
    }
    out.printf(
        Locale.ROOT,
        "rebuilt %d index%s in %s: %,d rows, %,d keys (%,.0f keys/s), %,d runs, %d merge"
            + " pass%s, %,d pages written%n",
        r.indexes().size(),
        r.indexes().size() == 1 ? "" : "es",
        seconds(r.totalNanos()),
        r.rows(),
        r.keys(),
        r.keysPerSecond(),
        r.runs(),
        r.mergePasses(),
        r.mergePasses() == 1 ? "" : "es",
        r.pagesWritten());
    for (Map.Entry<Path, Long> e : r.tempBytesPerDirectory().entrySet()) {
      out.println("  temp " + e.getKey() + ": " + Sizes.bytes(e.getValue()) + " written");
    }
    for (RebuildReport.IndexResult i : r.indexes()) {
      out.printf(
          Locale.ROOT,
          "  %-36s group %2d  %,14d entries  height %d  %,10d pages%s%n",
          i.name(),
          i.group(),
          i.entries(),
          i.height(),
          i.pages(),
          // How the merge threads shared one big group (see --merge-threads).
          i.ranges() > 1 ? "  built in " + i.ranges() + " key ranges" : "");
    }
    if (rusage) {
      ResourceUsage u = r.usage();
      out.printf(
          Locale.ROOT,
          "  rusage: user %s, system %s, read %s, written %s%n",
          seconds(u.userNanos()),
          seconds(u.systemNanos()),
          Sizes.bytes(u.bytesRead()),
          Sizes.bytes(u.bytesWritten()));
    }
    out.flush();
  }

  void writeJson(Path file, RebuildReport r, RebuildOptions o) {
    ObjectNode doc = Json.object();
    doc.put("database", db.toAbsolutePath().normalize().toString());
    doc.put("srt", r.srtChoice());
    ObjectNode opts = doc.putObject("options");
    opts.put("scanThreads", o.scanThreads());
    opts.put("threads", o.threads());
    opts.put("mergeThreads", o.mergeThreads());
    opts.put("sortGroups", o.sortGroups());
    opts.put("memoryBytes", o.memoryBytes());
    opts.put("sortBlockKb", o.sortBlockKb());
    opts.put("mergeFanIn", o.mergeFanIn());
    opts.put("mergeBlockKb", o.mergeBlockKb());
    opts.put("leafFill", o.leafFill());
    ArrayNode groups = doc.putArray("groups");
    for (RebuildPlan.Group g : r.plan().groups()) {
      ObjectNode n = groups.addObject();
      n.put("group", g.number());
      g.indexNames().forEach(n.putArray("indexes")::add);
      n.put("estimatedEntries", g.estimatedEntries());
      n.put("estimatedBytes", g.estimatedBytes());
      n.put("memoryBytes", g.memoryBytes());
      n.put("fitsInMemory", g.fitsInMemory());
      n.put("firstDirectory", g.firstDirectory());
    }
    doc.put("estimatedTempBytes", r.plan().estimatedTempBytes());
    ArrayNode phases = doc.putArray("phases");
    for (RebuildReport.Phase p : r.phases()) {
      ObjectNode n = phases.addObject();
      n.put("name", p.name());
      n.put("wallNanos", p.wallNanos());
      n.put("cpuNanos", p.cpuNanos());
      n.put("units", p.units());
      n.put("unit", p.unit());
    }
    ArrayNode indexes = doc.putArray("indexes");
    for (RebuildReport.IndexResult i : r.indexes()) {
      ObjectNode n = indexes.addObject();
      n.put("name", i.name());
      n.put("group", i.group());
      n.put("entries", i.entries());
      n.put("height", i.height());
      n.put("pages", i.pages());
      n.put("ranges", i.ranges());
    }
    ObjectNode temp = doc.putObject("tempBytesPerDirectory");
    r.tempBytesPerDirectory().forEach((k, v) -> temp.put(k.toString(), v));
    doc.put("rows", r.rows());
    doc.put("keys", r.keys());
    doc.put("runs", r.runs());
    doc.put("mergePasses", r.mergePasses());
    doc.put("pagesWritten", r.pagesWritten());
    doc.put("totalNanos", r.totalNanos());
    doc.put("keysPerSecond", r.keysPerSecond());
    ObjectNode u = doc.putObject("rusage");
    u.put("userNanos", r.usage().userNanos());
    u.put("systemNanos", r.usage().systemNanos());
    u.put("bytesRead", r.usage().bytesRead());
    u.put("bytesWritten", r.usage().bytesWritten());
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
      Json.printPretty(w, doc);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot write the report to " + file, e);
    }
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
  }
}
