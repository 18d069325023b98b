package dev.idxkit.cli.commands;

import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.ProgressOptions;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.output.RowFormat;
import dev.idxkit.cli.output.RowWriter;
import dev.idxkit.cli.output.RowWriters;
import dev.idxkit.cli.progress.Progress;
import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseCheck;
import dev.idxkit.core.Durability;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TpchDdl;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.RebuildReport;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.loader.LoadInput;
import dev.idxkit.loader.LoadOptions;
import dev.idxkit.loader.LoadReport;
import dev.idxkit.loader.Loader;
import dev.idxkit.loader.RebuildIndexBuild;
import dev.idxkit.loader.input.TpchOptions;
import dev.idxkit.loader.input.TpchSchema;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code idxkit demo}: the tour a new user starts with. Creates a TPC-H database, loads orders and
 * lineitem from the built-in generator (deferred index build), rebuilds every index with the
 * rebuilder, checks the database, and runs a few lookups and range scans — printing what each step
 * did.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "A tour in one command: a TPC-H database loaded, indexed, checked and queried.",
      "",
      "Creates a TPC-H database, loads orders and lineitem from the built-in generator,"
          + " rebuilds every index, checks everything, and runs a few lookups and range scans,"
          + " printing each step's report. Needs no download and no server.",
      "",
      "The database goes to --dir (default ./idxkit-demo, which git ignores in the checkout);"
          + " its sorts use --memory (default 128m; with ./idxkit's -Xmx640m it fits in 1 GB). A directory"
          + " left by an earlier demo is replaced, any other existing directory is refused."
    },
    footer = {"", "Examples:", "  idxkit demo", "  idxkit demo --sf 1 --dir /data/demo"},
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      "0:the demo ran and the check found nothing wrong",
      "1:a step failed (the message says which)",
      "2:bad usage (--dir is not a demo directory, --sf out of range)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class DemoCommand implements java.util.concurrent.Callable<Integer> {
  /** Marks a directory as the demo's own, safe to replace. */
  static final String MARKER = ".idxkit-demo";

  @Option(names = "--sf", paramLabel = "N", description = "TPC-H scale factor (default 0.1).")
  double scaleFactor = 0.1;

  @Option(names = "--dir", paramLabel = "DIR", description = "Where the database goes.")
  Path dir = Path.of("idxkit-demo");

  /**
   * The demo's sort memory. Not the rebuilder's default (half the heap, which the JVM sizes from
   * the machine's RAM: 3 GB resident on a 24 GB machine): a demo should fit in 1 GB whatever the
   * machine. With the launcher's -Xmx640m (./idxkit sets it for the demo) the default --sf 0.1
   * peaked at 977 MB resident (/usr/bin/time -v, one run; 2.4 GB with 256 MiB and no -Xmx).
   */
  static final long DEFAULT_MEMORY = 128L << 20;

  @Option(
      names = "--memory",
      paramLabel = "SIZE",
      converter = dev.idxkit.cli.ByteSizeConverter.class,
      description = "Memory for the index builds' sorts (default 128m, so the demo fits in 1 GB).")
  long memory = DEFAULT_MEMORY;

  @Mixin dev.idxkit.cli.CommonOptions common;

  @Mixin ProgressOptions progressOptions;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  private final Session session;

  DemoCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    TpchOptions.scale(scaleFactor); // checks the range before anything is touched
    Path db = dir.resolve("db");
    prepare(dir);
    session
        .guard()
        .state("the demo database in " + dir + " is incomplete; run the demo again", false);
    long t0 = System.nanoTime();
    out.printf(Locale.ROOT, "idxkit demo: TPC-H at scale factor %s in %s%n%n", scaleFactor, db);
    Path sort = dir.resolve("sort");
    try {
      Files.createDirectories(sort);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RebuildOptions rebuild = RebuildOptions.defaults(SrtFile.ofDirectory(sort)).withMemory(memory);
    String srtChoice = "sort directory " + sort + " (the demo's own)";
    try (Database d =
            Database.create(
                db, Database.DatabaseOptions.defaults().withDurability(Durability.ASYNC));
        Progress progress = session.progress(progressOptions.mode(), err)) {
      step(out, "1. create the TPC-H schema");
      d.execute(TpchDdl.text(), TpchDdl.SOURCE);
      out.printf(
          Locale.ROOT,
          "   %d tables, %d indexes%n",
          d.schema().tables().size(),
          d.schema().indexes().size());

      List<String> tables = List.of("orders", "lineitem");
      for (int i = 0; i < tables.size(); i++) {
        String table = tables.get(i);
        step(out, (2 + i) + ". load " + table + " from the generator (indexes built at the end)");
        LoadReport r =
            new Loader(
                    d,
                    LoadOptions.of(
                        table,
                        LoadInput.tpch(TpchSchema.of(table), TpchOptions.scale(scaleFactor))),
                    new RebuildIndexBuild(rebuild, srtChoice))
                .run(new LoadCommand.Listener(progress, "rows"));
        r.summaryLines().forEach(l -> out.println("   " + l));
        session.guard().check();
      }

      step(out, "4. rebuild every index (idxkit idxbuild all)");
      IdxbuildOutput report = new IdxbuildOutput(out, db, false);
      RebuildReport rr =
          new IndexRebuild(
                  d,
                  rebuild,
                  srtChoice,
                  new IdxbuildCommand.Listener(progress, report, rebuild, () -> {}))
              .run();
      report.report(rr);
      session.guard().check();

      step(out, "5. check every page, tree and entry (idxkit check)");
      DatabaseCheck.Report check = d.check();
      long entries = check.indexes().values().stream().mapToLong(s -> s.entries()).sum();
      out.printf(
          Locale.ROOT,
          "   %,d rows, %,d index entries, %,d pages verified: %s%n",
          check.tableRows().values().stream().mapToLong(Long::longValue).sum(),
          entries,
          check.pagesVerified(),
          check.clean() ? "ok" : check.problems().size() + " problems");
      check.problems().stream().limit(10).forEach(p -> out.println("   " + p));

      step(out, "6. look things up");
      lookups(out, d);
      out.printf(
          Locale.ROOT,
          "%ndone in %.1f s. Try: idxkit info %s   idxkit analyze %s%n",
          (System.nanoTime() - t0) / 1e9,
          db,
          db);
      out.flush();
      return check.clean() ? ExitCodes.OK : ExitCodes.FAILED;
    }
  }

  private void lookups(PrintWriter out, Database d) {
    // TPC-H order keys are sparse (8 of every 32): this one exists, half way through the table.
    long key = (long) (3_000_000 * scaleFactor) / 32 * 32 + 1;
    timed(
        out,
        "lineitem_pk point lookup, l_orderkey=" + key,
        d,
        "lineitem",
        () -> d.index("lineitem_pk").get(key));
    timed(
        out,
        "orders_pk point lookup, o_orderkey=" + key,
        d,
        "orders",
        () -> d.index("orders_pk").get(key));
    LocalDate from = LocalDate.of(1995, 3, 15);
    timed(
        out,
        "orders_orderdate_ix range " + from + " .. " + from.plusDays(1) + " (first 5)",
        d,
        "orders",
        () -> scan(d, "orders_orderdate_ix", from, from.plusDays(1), false, 5));
    timed(
        out,
        "lineitem_shipdate_ix, the 5 latest shipments (reverse scan)",
        d,
        "lineitem",
        () -> scan(d, "lineitem_shipdate_ix", null, null, true, 5));
  }

  private static List<Row> scan(
      Database d, String index, Object from, Object to, boolean reverse, int limit) {
    KeyRange range =
        new KeyRange(
            from == null ? null : new Object[] {from}, true,
            to == null ? null : new Object[] {to}, true);
    try (RowCursor c = d.index(index).scan(range, reverse, limit)) {
      return c.take(limit);
    }
  }

  private static void timed(
      PrintWriter out,
      String what,
      Database d,
      String table,
      java.util.function.Supplier<List<Row>> query) {
    long t = System.nanoTime();
    List<Row> rows = query.get();
    double ms = (System.nanoTime() - t) / 1e6;
    out.printf(
        Locale.ROOT,
        "   %s: %d row%s in %.2f ms%n",
        what,
        rows.size(),
        rows.size() == 1 ? "" : "s",
        ms);
    TableDef def = d.schema().requireTable(table);
    int[] cols = IntStream.range(0, Math.min(6, def.columns().size())).toArray();
    PrintWriter indented =
        new PrintWriter(
            new java.io.Writer() {
              private boolean lineStart = true;

              @Override
              public void write(char[] b, int off, int len) {
                for (int i = off; i < off + len; i++) {
                  if (lineStart) {
                    out.print("     ");
                  }
                  out.print(b[i]);
                  lineStart = b[i] == '\n';
                }
              }

              @Override
              public void flush() {
                out.flush();
              }

              @Override
              public void close() {}
            });
    RowWriter w = RowWriters.create(RowFormat.TABLE, def.columns(), cols, indented);
    rows.forEach(r -> w.row(r.values()));
    w.finish();
    indented.flush();
  }

  private static void step(PrintWriter out, String title) {
    out.println();
    out.println(title);
    out.flush();
  }

  /** Replaces a directory an earlier demo made; refuses anything else. */
  private static void prepare(Path dir) {
    try {
      if (Files.exists(dir)) {
        if (!Files.exists(dir.resolve(MARKER))) {
          throw new InvalidInputException(
              "--dir : "
                  + dir
                  + " exists and is not a demo directory (no "
                  + MARKER
                  + " file); choose another --dir");
        }
        try (Stream<Path> walk = Files.walk(dir)) {
          for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(MARKER), "made by idxkit demo; safe to delete\n");
    } catch (IOException e) {
      throw new dev.idxkit.core.IdxkitIOException("cannot prepare " + dir, e);
    }
  }
}
