package dev.idxkit.cli.commands;

import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.PathChecks;
import dev.idxkit.cli.ProgressOptions;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.output.RowWriter;
import dev.idxkit.cli.output.RowWriters;
import dev.idxkit.cli.progress.Progress;
import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import dev.idxkit.core.schema.TableDef;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code idxkit dump}: a table as CSV the loader reads back.
 *
 * <p>A file is written under a temporary name in the same directory ({@code .NAME.idxkit-tmp-*},
 * deleted on any failure, on Ctrl-C, and by the JVM at exit if it is still there) and renamed into
 * place only when every row is written and flushed, so a FILE that exists is a complete dump: an
 * interrupted dump at 3 a.m. can never be mistaken for a whole one.
 */
@Command(
    name = "dump",
    mixinStandardHelpOptions = true,
    description = {
      "Write every row of a table as CSV (read-only on the database).",
      "",
      "RFC 4180: a header row with the column names, CRLF line ends, fields quoted when needed."
          + " NULL is an empty unquoted field and the empty string is \"\", the convention"
          + " 'idxkit load' reads back. Values are written as 'idxkit scan' prints them (DATE"
          + " 1995-03-15, DECIMAL 12.50, VARBINARY \\x0a0b). Rows come in storage order. FILE"
          + " appears only once complete; an existing FILE is replaced only with --force."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit dump shop.db --table orders --csv orders.csv",
      "  idxkit dump shop.db --table lineitem --csv - | gzip > lineitem.csv.gz"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      ExitCodes.OK_LINE,
      "1:failed (I/O error, disk full, database locked by a writer); FILE is not created",
      "2:bad usage (no database at DB, unknown table, FILE exists without --force)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class DumpCommand extends DbCommand {
  @Option(names = "--table", required = true, paramLabel = "TABLE", description = "The table.")
  String table;

  @Option(
      names = "--csv",
      required = true,
      paramLabel = "FILE",
      description = "The CSV file to write, or - for standard output.")
  String csv;

  @Option(names = "--force", description = "Replace FILE if it exists.")
  boolean force;

  @Mixin ProgressOptions progressOptions;

  DumpCommand(Session session) {
    super(session);
  }

  @Override
  public Integer call() {
    boolean toStdout = csv.equals("-");
    Path target = toStdout ? null : Path.of(csv);
    if (target != null) {
      PathChecks.outputFile(target, "--csv");
      if (Files.exists(target) && !force) {
        throw new InvalidInputException(
            "--csv : " + csv + " exists (expected: a new file, or --force to replace it)");
      }
    }
    long rows;
    try (Database db = openReadOnly()) {
      Table t = db.table(table(db, table).name());
      if (toStdout) {
        PrintWriter out = out();
        rows = dump(t, out, false, () -> checkWritable(out, "standard output"));
        checkWritable(out, "standard output");
      } else {
        rows = dumpToFile(t, target);
      }
      PrintWriter report = toStdout ? err() : out();
      report.println(
          "dumped "
              + CheckCommand.plural(rows, "row")
              + " of "
              + t.name()
              + " to "
              + (toStdout ? "standard output" : target));
    }
    return ExitCodes.OK;
  }

  private long dumpToFile(Table t, Path target) {
    Path dir = target.toAbsolutePath().getParent();
    // Not Files.createTempFile: that makes the file private (0600); a dump gets the umask's mode.
    Path tmp =
        dir.resolve(
            "."
                + target.getFileName()
                + ".idxkit-tmp-"
                + ProcessHandle.current().pid()
                + "-"
                + Long.toHexString(System.nanoTime()));
    tmp.toFile().deleteOnExit(); // the last resort if Ctrl-C's grace period runs out
    session
        .guard()
        .state(
            "database " + db + " unchanged (opened read-only); " + target + " not written", true);
    boolean moved = false;
    try {
      long rows;
      try (Writer w =
          new BufferedWriter(
              new OutputStreamWriter(
                  Files.newOutputStream(
                      tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                  StandardCharsets.UTF_8),
              1 << 16)) {
        rows = dump(t, w, true, () -> {});
      } catch (IOException e) {
        throw new IdxkitIOException("cannot write " + tmp, e);
      } catch (UncheckedIOException e) {
        throw IdxkitIOException.of("cannot write " + tmp, e);
      }
      session
          .guard()
          .commitPoint(
              "database " + db + " unchanged (opened read-only); " + target + " written",
              () -> {
                try {
                  Files.move(
                      tmp,
                      target,
                      StandardCopyOption.REPLACE_EXISTING,
                      StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException e) {
                  throw new IdxkitIOException("cannot rename " + tmp + " to " + target, e);
                }
              });
      moved = true;
      return rows;
    } finally {
      if (!moved) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException e) {
          // deleteOnExit tries again; the error being reported matters more.
        }
      }
    }
  }

  /**
   * Writes header and rows; {@code owns}: close {@code w} at the end (a file). {@code writable}
   * runs every 256 rows and throws when the output is gone (a print stream does not).
   */
  private long dump(Table t, Writer w, boolean owns, Runnable writable) {
    TableDef def = t.def();
    int[] all = new int[def.columns().size()];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    RowWriter csvOut = RowWriters.csv(def.columns(), all, w, owns);
    long n = 0;
    try (Progress p = session.progress(progressOptions.mode(), err());
        RowCursor c = t.scan()) {
      p.start("dump " + t.name(), t.rowCount(), "rows");
      while (c.hasNext()) {
        Row r = c.next();
        csvOut.row(r.values());
        n++;
        if ((n & 255) == 0) {
          session.guard().check();
          writable.run();
          p.step(256);
        }
      }
      csvOut.finish();
      p.step(n & 255);
      p.done();
    }
    return n;
  }
}
