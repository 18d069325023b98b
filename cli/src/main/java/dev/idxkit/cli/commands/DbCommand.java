package dev.idxkit.cli.commands;

import dev.idxkit.cli.CommonOptions;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.server.IdxkitServer;
import dev.idxkit.cli.server.JobProgress;
import dev.idxkit.cli.server.ProgressServer;
import dev.idxkit.cli.server.ServerLog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.IndexDef;
import dev.idxkit.core.schema.TableDef;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * A command on an existing database: the {@code DB} argument, {@code --verbose}, and opening the
 * database read-only (a shared lock: other readers may run, a writer may not) for commands that
 * only read. A missing directory is bad input (exit 2), a database held by a writer a failure (1).
 */
abstract class DbCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "DB",
      description = "The database directory.",
      converter = DbPath.class)
  Path db;

  @Mixin CommonOptions common;

  @Spec CommandSpec spec;

  final Session session;

  DbCommand(Session session) {
    this.session = session;
  }

  /** Opens the database for reading; on Ctrl-C the user hears it was left unchanged. */
  Database openReadOnly() {
    session.guard().state("database " + db + " unchanged (opened read-only)", true);
    return Database.open(db, Database.DatabaseOptions.defaults().readOnly());
  }

  /** The named index, or bad input naming the indexes there are. */
  IndexInfo index(Database d, String name) {
    if (d.schema().findIndex(name).isEmpty()) {
      throw new InvalidInputException(
          "--index : no index "
              + name
              + " in "
              + db
              + " ("
              + names(d.schema().indexes().stream().map(IndexDef::name).toList(), "indexes")
              + ")");
    }
    return d.catalog().index(name);
  }

  /** The named table, or bad input naming the tables there are. */
  TableInfo table(Database d, String name) {
    if (d.schema().findTable(name).isEmpty()) {
      throw new InvalidInputException(
          "--table : no table "
              + name
              + " in "
              + db
              + " ("
              + names(d.schema().tables().stream().map(TableDef::name).toList(), "tables")
              + ")");
    }
    return d.catalog().table(name);
  }

  /** {@code --table} values as the catalog spells them; an unknown one as in {@link #table}. */
  Set<String> tableNames(Database d, List<String> names) {
    Set<String> out = new LinkedHashSet<>();
    names.forEach(n -> out.add(table(d, n.strip()).name()));
    return out;
  }

  /** {@code --index} values as the catalog spells them; an unknown one as in {@link #index}. */
  Set<String> indexNames(Database d, List<String> names) {
    Set<String> out = new LinkedHashSet<>();
    names.forEach(n -> out.add(index(d, n.strip()).name()));
    return out;
  }

  private static String names(List<String> all, String what) {
    if (all.isEmpty()) {
      return "it has no " + what;
    }
    int shown = Math.min(all.size(), 30);
    return what
        + ": "
        + String.join(", ", all.subList(0, shown))
        + (all.size() > shown ? ", ... " + (all.size() - shown) + " more" : "");
  }

  /**
   * The {@code DB} argument as a path; an empty one is refused while parsing (exit 2), before a
   * command derives names from it (idxbuild and load look for {@code <name>.srt}).
   */
  static final class DbPath implements ITypeConverter<Path> {
    @Override
    public Path convert(String value) {
      if (value.isBlank()) {
        throw new TypeConversionException("'" + value + "' (expected: a database directory)");
      }
      return Path.of(value);
    }
  }

  /**
   * The progress server {@code --http} asks for beside a long job, its address printed on stderr;
   * null when the option is absent.
   */
  /**
   * The {@code --http} progress server beside a job, or null without {@code --http}; closing it
   * first lingers for {@code linger} (the page keeps the final report).
   */
  JobServer progressServer(String http, java.time.Duration linger, JobProgress job, Database d) {
    if (http == null) {
      return null;
    }
    IdxkitServer server =
        ProgressServer.start(
            ProgressServer.parseListen(http), job, d, ServerLog.to(err(), common.verbose()));
    err().println("idxkit: progress at " + server.url());
    err().flush();
    return new JobServer(server, linger, err());
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** A print stream swallows write errors; a closed pipe must still stop a long output. */
  static void checkWritable(PrintWriter out, String where) {
    if (out.checkError()) {
      throw new IdxkitIOException(
          "cannot write to " + where, new IOException("output closed (the reader went away?)"));
    }
  }
}
