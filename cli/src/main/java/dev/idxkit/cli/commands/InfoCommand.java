package dev.idxkit.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.output.Json;
import dev.idxkit.cli.output.Sizes;
import dev.idxkit.cli.output.TextTable;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.meta.IndexState;
import dev.idxkit.core.meta.MetaState;
import dev.idxkit.core.schema.Schema;
import dev.idxkit.core.txn.Store;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
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
          + " counted (they are applied when the database next opens for writing)."
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
      List<Area> areas,
      List<TableLine> tables,
      List<IndexLine> indexes,
      String ddl) {}

  record Area(String name, Path file, long fileBytes, long pages, long freePages) {}

  record TableLine(String name, String area, long rows, long heapPages) {}

  record IndexLine(
      String name, String table, List<String> columns, boolean unique, String area, String state) {}

  @Override
  public Integer call() {
    try (Database db = openReadOnly()) {
      Store store = db.store();
      MetaState meta = store.meta();
      Schema schema = db.schema();
      List<Area> areas = new ArrayList<>();
      for (int a = 0; a < meta.areaSlots(); a++) {
        String name = meta.areaName(a);
        if (name != null) {
          Path f = db.dir().resolve(name + ".area");
          areas.add(new Area(name, f, size(f), meta.hwm(a), store.freePages(a)));
        }
      }
      List<TableLine> tables = new ArrayList<>();
      for (TableInfo t : db.catalog().tables()) {
        var ts = meta.table(t.id());
        tables.add(
            new TableLine(
                t.name(), schema.area(t.area()).name(), ts.rows(), ts.pages().pageCount()));
      }
      List<IndexLine> indexes = new ArrayList<>();
      for (IndexInfo ix : db.catalog().indexes()) {
        List<String> cols = new ArrayList<>();
        for (int i = 0; i < ix.columns().length; i++) {
          var c = ix.table().columns().get(ix.columns()[i]);
          boolean desc = ix.def().columns().get(i).descending();
          cols.add(c.name() + (desc ? " DESC" : ""));
        }
        IndexState s = meta.index(ix.id());
        String state = s == null || s.root() == 0 ? "none" : s.active() ? "active" : "inactive";
        indexes.add(
            new IndexLine(
                ix.name(),
                ix.table().name(),
                cols,
                ix.unique(),
                schema.area(ix.area()).name(),
                state));
      }
      Figures f =
          new Figures(
              db.dir().toAbsolutePath().normalize(),
              meta.pageSize(),
              meta.generation(),
              meta.checkpointLsn(),
              size(db.dir().resolve("wal")),
              store.recovery().transactions(),
              areas,
              tables,
              indexes,
              schema.toDdl());
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

  private static long size(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read the size of " + f, e);
    }
  }
}
