package dev.idxkit.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.InterruptGuard;
import dev.idxkit.cli.ProgressOptions;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.output.Json;
import dev.idxkit.cli.output.Sizes;
import dev.idxkit.cli.output.TextTable;
import dev.idxkit.cli.progress.Progress;
import dev.idxkit.core.Analysis;
import dev.idxkit.core.Analysis.AreaReport;
import dev.idxkit.core.Analysis.IndexReport;
import dev.idxkit.core.Analysis.Report;
import dev.idxkit.core.Analysis.TableReport;
import dev.idxkit.core.Database;
import dev.idxkit.core.TreeStats;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code idxkit analyze}: space and shape per area, table and index ({@link Analysis}). */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
      "Report space and shape per area, table and index (read-only), like OpenEdge"
          + " dbanalys/idxanalys.",
      "",
      "Per index: entries, tree height, pages per level, leaf fill %%, average key size,"
          + " distinct 8-byte prefix ratio (how well the sort's normalized prefix separates"
          + " keys; 1.0 is best). Per table: rows, heap pages, average record size, heap fill %%,"
          + " overflow records and pages. Per area: file size, pages in use (high-water mark),"
          + " free pages.",
      "",
      "With --table or --index only those (and the named tables' indexes) are analyzed; areas"
          + " are always reported. Reads every page of what it analyzes."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit analyze shop.db",
      "  idxkit analyze shop.db --table lineitem",
      "  idxkit analyze shop.db --index lineitem_pk --json"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      ExitCodes.OK_LINE,
      "1:damaged pages met on the way (run idxkit check), or the analysis could not run",
      "2:bad usage (no database at DB, unknown table or index)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class AnalyzeCommand extends DbCommand {
  @Option(
      names = "--table",
      paramLabel = "TABLE",
      split = ",",
      description = "Analyze only these tables and their indexes.")
  List<String> tables = List.of();

  @Option(
      names = "--index",
      paramLabel = "INDEX",
      split = ",",
      description = "Analyze only these indexes.")
  List<String> indexes = List.of();

  @Option(names = "--json", description = "Print one JSON document instead of text.")
  boolean json;

  @Mixin ProgressOptions progressOptions;

  AnalyzeCommand(Session session) {
    super(session);
  }

  @Override
  public Integer call() {
    Report r;
    try (Database db = openReadOnly();
        Progress p = session.progress(progressOptions.mode(), err())) {
      InterruptGuard guard = session.guard();
      r =
          Analysis.run(
              db,
              new Analysis.Options(tableNames(db, tables), indexNames(db, indexes)),
              new Analysis.Listener() {
                private boolean open;

                @Override
                public void phase(String name, long total) {
                  if (open) {
                    p.done();
                  }
                  p.start(name, total, name.equals("tables") ? "pages" : "indexes");
                  open = true;
                }

                @Override
                public void advance(long n) {
                  guard.check();
                  p.step(n);
                }
              });
      p.done();
    }
    if (json) {
      printJson(r);
    } else {
      printText(r);
    }
    List<String> damage = new ArrayList<>();
    for (TableReport t : r.tables()) {
      if (t.unreadablePages() > 0) {
        damage.add("table " + t.name() + ": " + t.unreadablePages() + " unreadable heap pages");
      }
    }
    for (IndexReport i : r.indexes()) {
      if (i.tree() != null && i.tree().problems() > 0) {
        damage.add("index " + i.name() + ": " + i.tree().problems() + " problems in its tree");
      }
    }
    if (!damage.isEmpty()) {
      err()
          .println(
              "idxkit: damage met ("
                  + String.join("; ", damage)
                  + "); figures leave it out; run 'idxkit check "
                  + db
                  + "'");
      return ExitCodes.FAILED;
    }
    return ExitCodes.OK;
  }

  private void printText(Report r) {
    PrintWriter out = out();
    out.println(
        "database "
            + db.toAbsolutePath().normalize()
            + "  page size "
            + r.pageSize()
            + "  generation "
            + r.generation());
    out.println();
    out.println("areas");
    TextTable at =
        new TextTable("area", "file size", "pages (hwm)", "used", "free").right(1, 2, 3, 4);
    for (AreaReport a : r.areas()) {
      at.add(a.name(), Sizes.bytes(a.fileBytes()), a.highWaterMark(), a.usedPages(), a.freePages());
    }
    at.print(out, "  ");
    if (!r.tables().isEmpty()) {
      out.println();
      out.println("tables");
      TextTable tt =
          new TextTable(
                  "table",
                  "rows",
                  "heap pages",
                  "avg record",
                  "heap fill %",
                  "overflow rows",
                  "overflow pages")
              .right(1, 2, 3, 4, 5, 6);
      for (TableReport t : r.tables()) {
        tt.add(
            t.name(),
            t.rows(),
            t.heapPages(),
            Sizes.decimal(t.averageRecordBytes(), 1),
            Sizes.percent(t.heapFillPercent()),
            t.overflowRecords(),
            t.overflowPages());
      }
      tt.print(out, "  ");
    }
    if (!r.indexes().isEmpty()) {
      out.println();
      out.println("indexes");
      TextTable it =
          new TextTable(
                  "index",
                  "state",
                  "entries",
                  "height",
                  "pages (leaf..root)",
                  "leaf fill %",
                  "avg key",
                  "distinct prefix")
              .right(2, 3, 5, 6, 7);
      for (IndexReport i : r.indexes()) {
        TreeStats s = i.tree();
        if (s == null) {
          it.add(i.name(), i.state(), "-", "-", "-", "-", "-", "-");
        } else {
          it.add(
              i.name(),
              i.state(),
              s.entries(),
              s.height(),
              levels(s),
              Sizes.percent(s.leafFillPercent()),
              Sizes.decimal(i.averageKeyBytes(), 1),
              Sizes.decimal(s.distinctPrefixRatio(), 3));
        }
      }
      it.print(out, "  ");
      for (IndexReport i : r.indexes()) {
        for (String p : i.problems()) {
          out.println("  ! index " + i.name() + ": " + p);
        }
      }
    }
  }

  private static String levels(TreeStats s) {
    StringBuilder sb = new StringBuilder();
    for (long n : s.pagesPerLevel()) {
      sb.append(sb.length() == 0 ? "" : " / ").append(n);
    }
    return sb.toString();
  }

  private void printJson(Report r) {
    ObjectNode o = Json.object();
    o.put("database", db.toAbsolutePath().normalize().toString());
    o.put("pageSize", r.pageSize());
    o.put("generation", r.generation());
    ArrayNode aa = o.putArray("areas");
    for (AreaReport a : r.areas()) {
      ObjectNode n = aa.addObject();
      n.put("name", a.name());
      n.put("file", a.file().toAbsolutePath().normalize().toString());
      n.put("fileBytes", a.fileBytes());
      n.put("highWaterMark", a.highWaterMark());
      n.put("usedPages", a.usedPages());
      n.put("freePages", a.freePages());
    }
    ArrayNode ta = o.putArray("tables");
    for (TableReport t : r.tables()) {
      ObjectNode n = ta.addObject();
      n.put("name", t.name());
      n.put("area", t.area());
      n.put("rows", t.rows());
      n.put("heapPages", t.heapPages());
      n.put("recordBytes", t.recordBytes());
      n.put("averageRecordBytes", t.averageRecordBytes());
      n.put("heapFillPercent", t.heapFillPercent());
      n.put("overflowRecords", t.overflowRecords());
      n.put("overflowPages", t.overflowPages());
      n.put("unreadablePages", t.unreadablePages());
    }
    ArrayNode ia = o.putArray("indexes");
    for (IndexReport i : r.indexes()) {
      ObjectNode n = ia.addObject();
      n.put("name", i.name());
      n.put("table", i.table());
      n.put("area", i.area());
      ArrayNode cols = n.putArray("columns");
      i.columns().forEach(cols::add);
      n.put("unique", i.unique());
      n.put("state", i.state());
      TreeStats s = i.tree();
      if (s != null) {
        n.put("entries", s.entries());
        n.put("height", s.height());
        ArrayNode levels = n.putArray("pagesPerLevel");
        s.pagesPerLevel().forEach(levels::add);
        n.put("pages", s.pages());
        n.put("leafFillPercent", s.leafFillPercent());
        n.put("averageEntryBytes", s.averageEntrySize());
        n.put("averageKeyBytes", i.averageKeyBytes());
        n.put("distinctPrefixRatio", s.distinctPrefixRatio());
        n.put("problems", s.problems());
        ArrayNode pa = n.putArray("problemLines");
        i.problems().forEach(pa::add);
      }
    }
    Json.printPretty(out(), o);
  }
}
