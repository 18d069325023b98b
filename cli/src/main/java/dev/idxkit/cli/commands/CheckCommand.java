package dev.idxkit.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.ProgressOptions;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.output.Json;
import dev.idxkit.cli.progress.Progress;
import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseCheck;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.TreeStats;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code idxkit check}: the full consistency check ({@link DatabaseCheck}) with a verdict a DBA can
 * act on: "ok" and exit 0, or the first problems and exit 1.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Check a database for damage (read-only): every heap page and record, every index tree"
          + " and entry against its row, page accounting (no page used twice or leaked), and"
          + " every page checksum.",
      "",
      "Prints what was checked and 'ok', or the first "
          + CheckCommand.SHOWN
          + " problems."
          + " With --table or --index only those (and the named tables' indexes) are checked,"
          + " and page accounting is skipped. The database must not be open for writing by"
          + " another process."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit check shop.db",
      "  idxkit check shop.db --table lineitem --index orders_pk",
      "  idxkit check shop.db --json > check.json || echo 'damage found'"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      "0:no problem found",
      "1:problems found (listed), or the check could not run (database locked, I/O error)",
      "2:bad usage (no database at DB, unknown table or index)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class CheckCommand extends DbCommand {
  /** Problems printed as text; --json lists every problem collected. */
  static final int SHOWN = 20;

  /** Problems collected before the check stops looking at entries. */
  static final int COLLECTED = 1000;

  @Option(
      names = "--table",
      paramLabel = "TABLE",
      split = ",",
      description = "Check only these tables and their indexes (repeat or separate by commas).")
  List<String> tables = List.of();

  @Option(
      names = "--index",
      paramLabel = "INDEX",
      split = ",",
      description = "Check only these indexes (repeat or separate by commas).")
  List<String> indexes = List.of();

  @Option(names = "--json", description = "Print one JSON document instead of text.")
  boolean json;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Threads reading pages at once, 1..256 (default: CPUs, at most 8).")
  Integer threads;

  @Mixin ProgressOptions progressOptions;

  CheckCommand(Session session) {
    super(session);
  }

  @Override
  public Integer call() {
    if (threads != null && (threads < 1 || threads > 256)) {
      throw new InvalidInputException("--threads : " + threads + " (expected: 1..256)");
    }
    DatabaseCheck.Report r;
    try (Database db = openReadOnly()) {
      // The check takes names as the catalog spells them (lower case).
      Set<String> t = tableNames(db, tables);
      Set<String> i = indexNames(db, indexes);
      try (Progress p = session.progress(progressOptions.mode(), err())) {
        StepProgress steps = new StepProgress(p);
        int n = threads == null ? 0 : threads;
        r = db.check(new DatabaseCheck.Options(t, i, COLLECTED, n), steps);
        session.guard().check();
        steps.end();
      }
    }
    if (json) {
      printJson(r);
    } else {
      printText(r);
    }
    if (!r.clean()) {
      err()
          .println(
              "idxkit: check found "
                  + problemCount(r)
                  + " problem"
                  + (r.problems().size() == 1 ? "" : "s")
                  + " in "
                  + db);
      return ExitCodes.FAILED;
    }
    return ExitCodes.OK;
  }

  private static String problemCount(DatabaseCheck.Report r) {
    return r.problems().size() >= COLLECTED ? "at least " + COLLECTED : "" + r.problems().size();
  }

  private void printText(DatabaseCheck.Report r) {
    PrintWriter out = out();
    long rows = r.tableRows().values().stream().mapToLong(Long::longValue).sum();
    long entries = r.indexes().values().stream().mapToLong(TreeStats::entries).sum();
    out.println(
        "checked "
            + db
            + ": "
            + plural(r.tableRows().size(), "table")
            + " ("
            + plural(rows, "row")
            + "), "
            + plural(r.indexes().size(), "index", "indexes")
            + " ("
            + plural(entries, "entry", "entries")
            + "), "
            + plural(r.pagesVerified(), "page")
            + " verified");
    if (r.clean()) {
      out.println("ok");
      return;
    }
    out.println(problemCount(r) + " problem" + (r.problems().size() == 1 ? ":" : "s:"));
    for (String p : r.problems().subList(0, Math.min(SHOWN, r.problems().size()))) {
      out.println("  " + p);
    }
    if (r.problems().size() > SHOWN) {
      out.println("  ... " + (r.problems().size() - SHOWN) + " more (--json lists them all)");
    }
  }

  private void printJson(DatabaseCheck.Report r) {
    ObjectNode o = Json.object();
    o.put("database", db.toAbsolutePath().normalize().toString());
    o.put("ok", r.clean());
    o.put("pagesVerified", r.pagesVerified());
    ObjectNode tables = o.putObject("tables");
    for (Map.Entry<String, Long> e : r.tableRows().entrySet()) {
      tables.putObject(e.getKey()).put("rows", e.getValue());
    }
    ObjectNode idx = o.putObject("indexes");
    for (Map.Entry<String, TreeStats> e : r.indexes().entrySet()) {
      ObjectNode n = idx.putObject(e.getKey());
      n.put("entries", e.getValue().entries());
      n.put("height", e.getValue().height());
      n.put("pages", e.getValue().pages());
    }
    ArrayNode problems = o.putArray("problems");
    r.problems().forEach(problems::add);
    o.put("problemsTruncated", r.problems().size() >= COLLECTED);
    Json.printPretty(out(), o);
  }

  /**
   * The check's steps (tables, indexes, page checksums) as the phases of a progress display, and
   * Ctrl-C heard between two of its reports.
   */
  private final class StepProgress implements DatabaseCheck.Listener {
    private final Progress progress;
    private boolean open;

    StepProgress(Progress progress) {
      this.progress = progress;
    }

    @Override
    public void step(String name, long total, String unit) {
      end();
      progress.start(name, total, unit);
      open = true;
    }

    @Override
    public void advanced(long n) {
      progress.step(n);
      session.guard().check();
    }

    void end() {
      if (open) {
        progress.done();
        open = false;
      }
    }
  }

  static String plural(long n, String one) {
    return plural(n, one, one + "s");
  }

  static String plural(long n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }
}
