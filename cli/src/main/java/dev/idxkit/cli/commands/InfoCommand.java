package dev.idxkit.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.output.Json;
import dev.idxkit.cli.output.Sizes;
import dev.idxkit.cli.output.TextTable;
import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseStats;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code idxkit info}: what a database holds, from its meta alone (no page is read beyond what
 * opening does): page size, checkpoint, log, areas with file sizes, tables with row counts, index
 * states, and the schema as DDL.
 */
@Command(
    name = "info",
    mixinStandardHelpOptions = true,
    description = {
      "Show a database at a glance (read-only): page size, last checkpoint, write-ahead log,"
          + " areas with file sizes, tables with row counts, indexes with their state, and the"
          + " schema as DDL.",
      "",
      "An index is 'active' when it is maintained and usable, 'inactive' when it waits for a"
          + " rebuild (idxkit idxbuild). Transactions in the log and not yet checkpointed are"
          + " counted (they are applied when the database next opens for writing).",
      "",
      "'read-ahead' says whether the kernel is told that the area files are read at random"
          + " (madvise), so that a cold lookup reads one page rather than the device's read-ahead;"
          + " where it cannot be told, everything works and cold random reads cost more."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit info shop.db",
      "  idxkit info shop.db --json | jq .tables"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      ExitCodes.OK_LINE,
      "1:failed (damaged meta or log, database locked by a writer)",
      "2:bad usage (no database at DB)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class InfoCommand extends DbCommand {
  @Option(names = "--json", description = "Print one JSON document instead of text.")
  boolean json;

  InfoCommand(Session session) {
    super(session);
  }

  /** The figures, gathered once for both outputs. */
  record Figures(
      Path dir,
      int pageSize,
      long generation,
      long checkpointLsn,
      long walBytes,
      long walTransactions,
      long bufferedChanges,
      List<Area> areas,
      List<TableLine> tables,
      List<IndexLine> indexes,
      DatabaseStats.ReadAhead readAhead,
      String ddl) {}

  record Area(String name, Path file, long fileBytes, long pages, long freePages) {}

  record TableLine(String name, String area, long rows, long heapPages) {}

  record IndexLine(
      String name, String table, List<String> columns, boolean unique, String area, String state) {}

  @Override
  public Integer call() {
    try (Database db = openReadOnly()) {
      DatabaseStats st = db.stats();
      List<Area> areas = new ArrayList<>();
      for (DatabaseStats.AreaStats a : st.areas()) {
        areas.add(new Area(a.name(), a.file(), a.fileBytes(), a.pages(), a.freePages()));
      }
      List<TableLine> tables = new ArrayList<>();
      for (DatabaseStats.TableStats t : st.tables()) {
        tables.add(new TableLine(t.name(), t.area(), t.rows(), t.heapPages()));
      }
      List<IndexLine> indexes = new ArrayList<>();
      for (DatabaseStats.IndexStats ix : st.indexes()) {
        indexes.add(
            new IndexLine(
                ix.name(), ix.table(), ix.columns(), ix.unique(), ix.area(), ix.state().word()));
      }
      Figures f =
          new Figures(
              st.dir(),
              st.pageSize(),
              st.generation(),
              st.checkpointLsn(),
              st.logBytes(),
              st.logTransactions(),
              st.bufferedChanges(),
              areas,
              tables,
              indexes,
              st.readAhead(),
              db.schema().toDdl());
      if (json) {
        printJson(f);
      } else {
        printText(f);
      }
    }
    return ExitCodes.OK;
  }

  private void printText(Figures f) {
    PrintWriter out = out();
    out.println("database    " + f.dir);
    out.println("page size   " + f.pageSize + " bytes");
    out.println("checkpoint  generation " + f.generation + " (LSN " + f.checkpointLsn + ")");
    out.println(
        "log         "
            + Sizes.bytes(f.walBytes)
            + ", "
            + f.walTransactions
            + " committed transaction"
            + (f.walTransactions == 1 ? "" : "s")
            + " not yet checkpointed");
    if (f.bufferedChanges > 0) {
      out.println(
          "buffers     "
              + f.bufferedChanges
              + " index entry change"
              + (f.bufferedChanges == 1 ? "" : "s")
              + " not in the trees yet (readers see them; a read-write close merges them)");
    }
    out.println("read-ahead  " + f.readAhead.describe());
    out.println();
    out.println("areas");
    TextTable at = new TextTable("area", "file", "size", "pages", "free pages").right(2, 3, 4);
    for (Area a : f.areas) {
      at.add(a.name, a.file.getFileName(), Sizes.bytes(a.fileBytes), a.pages, a.freePages);
    }
    at.print(out, "  ");
    out.println();
    out.println("tables");
    if (f.tables.isEmpty()) {
      out.println("  (none)");
    } else {
      TextTable tt = new TextTable("table", "rows", "heap pages", "area").right(1, 2);
      for (TableLine t : f.tables) {
        tt.add(t.name, t.rows, t.heapPages, t.area);
      }
      tt.print(out, "  ");
    }
    out.println();
    out.println("indexes");
    if (f.indexes.isEmpty()) {
      out.println("  (none)");
    } else {
      TextTable it = new TextTable("index", "table", "columns", "unique", "area", "state");
      for (IndexLine i : f.indexes) {
        it.add(
            i.name,
            i.table,
            String.join(", ", i.columns),
            i.unique ? "yes" : "no",
            i.area,
            i.state);
      }
      it.print(out, "  ");
    }
    out.println();
    out.println("schema");
    for (String line : f.ddl.split("\\R")) {
      out.println(line.isEmpty() ? "" : "  " + line);
    }
  }

  private void printJson(Figures f) {
    ObjectNode o = Json.object();
    o.put("database", f.dir.toString());
    o.put("pageSize", f.pageSize);
    o.put("generation", f.generation);
    o.put("checkpointLsn", f.checkpointLsn);
    ObjectNode w = o.putObject("wal");
    w.put("bytes", f.walBytes);
    w.put("transactionsNotCheckpointed", f.walTransactions);
    o.put("bufferedChanges", f.bufferedChanges);
    ObjectNode ra = o.putObject("readAhead");
    ra.put("controlled", f.readAhead.controlled());
    ra.put("detail", f.readAhead.detail());
    ArrayNode aa = o.putArray("areas");
    for (Area a : f.areas) {
      ObjectNode n = aa.addObject();
      n.put("name", a.name);
      n.put("file", a.file.toAbsolutePath().normalize().toString());
      n.put("bytes", a.fileBytes);
      n.put("pages", a.pages);
      n.put("freePages", a.freePages);
    }
    ArrayNode ta = o.putArray("tables");
    for (TableLine t : f.tables) {
      ObjectNode n = ta.addObject();
      n.put("name", t.name);
      n.put("rows", t.rows);
      n.put("heapPages", t.heapPages);
      n.put("area", t.area);
    }
    ArrayNode ia = o.putArray("indexes");
    for (IndexLine i : f.indexes) {
      ObjectNode n = ia.addObject();
      n.put("name", i.name);
      n.put("table", i.table);
      ArrayNode cols = n.putArray("columns");
      i.columns.forEach(cols::add);
      n.put("unique", i.unique);
      n.put("area", i.area);
      n.put("state", i.state);
    }
    o.put("ddl", f.ddl);
    Json.printPretty(out(), o);
  }
}
