package dev.idxkit.cli.commands;

import dev.idxkit.cli.CommonOptions;
import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.InterruptGuard;
import dev.idxkit.cli.PathChecks;
import dev.idxkit.cli.Session;
import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.DdlParser;
import dev.idxkit.core.schema.Schema;
import dev.idxkit.core.schema.TpchDdl;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code idxkit create}: a new database with a schema.
 *
 * <p>Steps: read the DDL and apply it to an empty schema in memory first, so a DDL mistake is
 * reported (file:line:column, exit 2) before anything touches the disk; refuse a directory that is
 * not empty; create the database and apply the DDL in one transaction. If anything fails after
 * files were written, the files this command created are removed again (the directory too, if it
 * did not exist before), so the same command can simply be run again.
 */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description = {
      "Create a new, empty database with the tables and indexes of a SQL DDL script.",
      "",
      "The script holds CREATE TABLE and CREATE [UNIQUE] INDEX statements (a TABLESPACE clause"
          + " puts a table or index in its own area file). DB must not exist or be an empty"
          + " directory. Nothing is written unless the whole script is valid; a mistake is"
          + " reported as FILE:LINE:COLUMN."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit create shop.db --ddl schema.sql",
      "  idxkit create tpch.db --tpch --page-size 16384",
      "",
      "schema.sql:",
      "  CREATE TABLE customer (",
      "    id BIGINT NOT NULL,",
      "    name VARCHAR(40),",
      "    PRIMARY KEY (id));",
      "  CREATE INDEX customer_name_ix ON customer (name);"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      ExitCodes.OK_LINE,
      "1:failed (I/O error); files this command created are removed",
      "2:bad usage or input (DDL error at FILE:LINE:COLUMN, DB not empty, bad --page-size)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class CreateCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "DB",
      description = "The database directory to create.",
      converter = DbCommand.DbPath.class)
  Path db;

  @ArgGroup(exclusive = true, multiplicity = "1")
  SchemaSource schema;

  static final class SchemaSource {
    @Option(
        names = "--ddl",
        paramLabel = "FILE",
        required = true,
        description = "The DDL script (UTF-8).")
    Path ddl;

    @Option(
        names = "--tpch",
        required = true,
        description = "Use the TPC-H schema: 8 tables with primary keys and 7 secondary indexes.")
    boolean tpch;
  }

  @Option(
      names = "--page-size",
      paramLabel = "BYTES",
      defaultValue = "8192",
      description =
          "Page size in bytes, a power of two from 4096 to 65536 (default: ${DEFAULT-VALUE})."
              + " Fixed for the life of the database.")
  int pageSize;

  @Mixin CommonOptions common;

  @Spec CommandSpec spec;

  private final InterruptGuard guard;

  CreateCommand(Session session) {
    this.guard = session.guard();
  }

  @Override
  public Integer call() {
    guard.state("nothing was created", false);
    try {
      Database.DatabaseOptions.checkPageSize(pageSize);
    } catch (InvalidInputException e) {
      throw new InvalidInputException(
          "--page-size : "
              + pageSize
              + " (expected: a power of two in "
              + Database.DatabaseOptions.MIN_PAGE_SIZE
              + ".."
              + Database.DatabaseOptions.MAX_PAGE_SIZE
              + ")");
    }
    String source = schema.tpch ? TpchDdl.SOURCE : schema.ddl.toString();
    String ddl = schema.tpch ? TpchDdl.text() : readDdl(schema.ddl);
    Schema parsed = DdlParser.apply(Schema.empty(), ddl, source); // errors name file:line:col
    checkTarget();

    boolean existed = Files.exists(db);
    List<Path> before = existed ? list(db) : List.of();
    Database d;
    try {
      d = Database.create(db, Database.DatabaseOptions.defaults().withPageSize(pageSize));
    } catch (InvalidInputException e) {
      throw e; // refused before writing anything (the directory is no longer empty)
    } catch (RuntimeException e) {
      removeCreated(existed, before);
      throw e;
    }
    boolean done = false;
    try (d) {
      guard.state("database " + db + " was not created (its files are removed)", false);
      guard.commitPoint("database " + db + " was created", () -> d.execute(ddl, source));
      done = true;
    } finally {
      if (!done) {
        removeCreated(existed, before);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "created database "
            + db
            + ": "
            + count(parsed.tables().size(), "table")
            + ", "
            + count(parsed.indexes().size(), "index")
            + ", areas "
            + String.join(", ", parsed.areas().stream().map(a -> a.name()).toList())
            + ", page size "
            + pageSize);
    out.println("next: idxkit info " + db);
    return ExitCodes.OK;
  }

  private static String count(int n, String noun) {
    return n + " " + (n == 1 ? noun : noun.endsWith("x") ? noun + "es" : noun + "s");
  }

  private static String readDdl(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new InvalidInputException("--ddl : " + file + " (no such file)");
    } catch (CharacterCodingException e) {
      throw new InvalidInputException("--ddl : " + file + " is not UTF-8 text");
    } catch (IOException e) {
      throw new InvalidInputException("--ddl : cannot read " + file + ": " + e, e);
    }
  }

  private void checkTarget() {
    if (Files.exists(db) && !Files.isDirectory(db)) {
      throw new InvalidInputException(
          "cannot create database " + db + ": it exists and is not a directory");
    }
    if (Files.isDirectory(db) && !list(db).isEmpty()) {
      throw new InvalidInputException("cannot create database " + db + ": directory is not empty");
    }
    // Where the directory or its files cannot be created (a read-only parent, /proc): bad input,
    // said before anything is created, as for every output path. Missing parents are created.
    PathChecks.creatableDirectory(db, "DB");
  }

  private static List<Path> list(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    } catch (IOException e) {
      throw new IdxkitIOException("cannot list " + dir, e);
    }
  }

  /** Deletes what this command created: the directory if it was new, else its new entries. */
  private void removeCreated(boolean existed, List<Path> before) {
    if (!Files.exists(db)) {
      return;
    }
    List<Path> created = new ArrayList<>();
    try (Stream<Path> s = Files.walk(db)) {
      s.sorted(Comparator.reverseOrder())
          .filter(p -> !existed || !p.equals(db))
          .filter(p -> before.stream().noneMatch(p::startsWith))
          .forEach(created::add);
    } catch (IOException e) {
      return; // the failure being reported matters more than the cleanup
    }
    for (Path p : created) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        // Best effort: the error line already says what failed; a leftover file is visible.
      }
    }
  }
}
