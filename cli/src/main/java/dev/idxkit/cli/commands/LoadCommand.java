package dev.idxkit.cli.commands;

import dev.idxkit.cli.ByteSizeConverter;
import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.PathChecks;
import dev.idxkit.cli.ProgressOptions;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.progress.Progress;
import dev.idxkit.cli.server.JobProgress;
import dev.idxkit.cli.server.LoadJobProgress;
import dev.idxkit.core.Database;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.ProblemText;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.temp.SrtSource;
import dev.idxkit.loader.IndexMode;
import dev.idxkit.loader.LoadInput;
import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadOptions;
import dev.idxkit.loader.LoadPhase;
import dev.idxkit.loader.LoadProgress;
import dev.idxkit.loader.LoadReport;
import dev.idxkit.loader.Loader;
import dev.idxkit.loader.RebuildIndexBuild;
import dev.idxkit.loader.StartMode;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.JsonLinesOptions;
import dev.idxkit.loader.input.TpchOptions;
import dev.idxkit.loader.input.TpchSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code idxkit load}: rows from CSV, JSON Lines or the TPC-H generator into a table, through the
 * loader ({@link Loader}); each option maps onto one {@link LoadOptions} setting. The deferred
 * index build is the rebuilder ({@link RebuildIndexBuild}).
 */
@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    description = {
      "Load rows from CSV, JSON Lines or the TPC-H generator, fast and restartable.",
      "",
      "Rows are appended to the table's pages without the log and published at checkpoints;"
          + " a crash or Ctrl-C keeps what was checkpointed and --resume continues from there (no"
          + " row lost or loaded twice).",
      "",
      "Indexes: deferred (default) marks the table's indexes inactive during the load and"
          + " rebuilds them at the end with the index rebuilder; none leaves them inactive (build"
          + " later with 'idxkit idxbuild DB --inactive'); live inserts into every index row by row"
          + " (for loading into a table that already has many rows).",
      "",
      "Bad rows go to the reject file with their line number and reason; the load goes on"
          + " unless --max-errors is reached. A row whose unique key repeats an earlier row's is a"
          + " reject too (the reject line names the line of the row kept). A load stopped by"
          + " --max-errors or Ctrl-C indexes the rows it keeps: no index is left inactive."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit load shop.db --table lineitem --csv lineitem.csv --reject bad.txt",
      "  idxkit load shop.db --tpch lineitem --sf 0.1",
      "  idxkit load shop.db --table events --jsonl events.jsonl --index-build none",
      "  idxkit load shop.db --table lineitem --csv lineitem.csv --resume   # after a crash"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      "0:every row loaded (rejects, if any, are in the reject file) and indexes built",
      "1:stopped: too many errors, duplicate keys in a unique index, or a failure;"
          + " the database keeps what was checkpointed",
      "2:bad usage or input (unknown table, missing file, a resume that does not match)",
      "3:with --strict: the load completed but rows were rejected (see the reject file)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class LoadCommand extends DbCommand {
  @Option(names = "--table", paramLabel = "TABLE", description = "The table to load into.")
  String table;

  @ArgGroup(multiplicity = "1")
  Input input;

  static final class Input {
    @Option(names = "--csv", paramLabel = "FILE", description = "A CSV file (RFC 4180).")
    Path csv;

    @Option(names = "--jsonl", paramLabel = "FILE", description = "A JSON Lines file.")
    Path jsonl;

    @Option(
        names = "--tpch",
        paramLabel = "TABLE",
        description = "The built-in TPC-H generator: lineitem, orders, customer, part, ...")
    String tpch;
  }

  @Option(names = "--sf", paramLabel = "N", description = "TPC-H scale factor (default 0.1).")
  double scaleFactor = 0.1;

  @Option(names = "--delimiter", paramLabel = "C", description = "CSV field delimiter (,).")
  char delimiter = ',';

  @Option(names = "--quote", paramLabel = "C", description = "CSV quote character (\").")
  char quote = '"';

  @Option(
      names = "--null",
      paramLabel = "TEXT",
      description =
          "CSV text for NULL (default: an empty unquoted field; \"\" is an empty string).")
  String nullMarker;

  @Option(names = "--no-header", description = "The CSV has no header row: columns by position.")
  boolean noHeader;

  @Option(
      names = "--index-build",
      paramLabel = "MODE",
      description = "deferred (default), none or live.")
  IndexMode indexMode = IndexMode.DEFERRED;

  @Option(names = "--resume", description = "Continue an interrupted load from its checkpoint.")
  boolean resume;

  @Option(names = "--restart", description = "Undo an interrupted load's rows and start over.")
  boolean restart;

  @Option(names = "--checkpoint-rows", paramLabel = "N", description = "Checkpoint every N rows.")
  long checkpointRows = LoadOptions.DEFAULT_CHECKPOINT_ROWS;

  @Option(names = "--checkpoint-mb", paramLabel = "MB", description = "...or every MB of input.")
  long checkpointMb = LoadOptions.DEFAULT_CHECKPOINT_BYTES >> 20;

  @Option(names = "--reject", paramLabel = "FILE", description = "Where rejected rows go.")
  Path reject;

  @Option(
      names = "--max-errors",
      paramLabel = "N",
      description = "Stop after N rejects (duplicate unique keys count too).")
  long maxErrors = -1;

  @Option(
      names = "--strict",
      description =
          "Exit 3 instead of 0 when the load completed but rejected rows, so a script can tell.")
  boolean strict;

  @Option(names = "--threads", paramLabel = "N", description = "Parsing threads (CPUs).")
  Integer threads;

  @Option(
      names = "--memory",
      paramLabel = "SIZE",
      converter = ByteSizeConverter.class,
      description = "Memory for the deferred index build's sort (default: half the heap).")
  Long memory;

  @Option(
      names = {"--srt", "-SS"},
      paramLabel = "FILE",
      description = "Sort directories file.")
  Path srt;

  @Option(names = "-T", paramLabel = "DIR", description = "Sort directory when there is no .srt.")
  Path tempDir;

  @Option(
      names = "--http",
      paramLabel = "[BIND]:PORT",
      description =
          "Serve a progress page (and read-only lookups) while the load runs, e.g. :7070.")
  String http;

  @Option(
      names = "--http-linger",
      paramLabel = "DURATION",
      converter = ServeCommand.DurationConverter.class,
      description =
          "With --http: keep the page up this long after the load ends (e.g. 10m), showing the"
              + " final report; Ctrl-C ends it sooner. Default 0.")
  Duration httpLinger = Duration.ZERO;

  @Mixin ProgressOptions progressOptions;

  LoadCommand(Session session) {
    super(session);
  }

  @Override
  @SuppressWarnings("try") // the --http server is a resource only to live as long as the job
  public Integer call() {
    if (resume && restart) {
      throw new InvalidInputException("--resume and --restart : choose one");
    }
    String target = table != null ? table : input.tpch;
    if (target == null) {
      throw new InvalidInputException(
          "--table : which table to load into (required with --csv" + " and --jsonl)");
    }
    if (input.csv != null) {
      PathChecks.inputFile(input.csv, "--csv");
    }
    if (input.jsonl != null) {
      PathChecks.inputFile(input.jsonl, "--jsonl");
    }
    if (reject != null) {
      PathChecks.outputFile(reject, "--reject");
    }
    LoadInput in = input();
    int cpus = Runtime.getRuntime().availableProcessors();
    LoadOptions options =
        LoadOptions.of(target, in)
            .withIndexMode(indexMode)
            .withStartMode(resume ? StartMode.RESUME : restart ? StartMode.RESTART : StartMode.NEW)
            .withCheckpointRows(checkpointRows)
            .withCheckpointMegabytes(checkpointMb)
            .withMaxErrors(maxErrors)
            .withParseThreads(threads == null ? cpus : threads);
    if (reject != null) {
      options = options.withRejectFile(reject);
    }
    SrtSource.Choice choice =
        SrtSource.resolve(srt, db.getFileName().toString(), Path.of("").toAbsolutePath(), tempDir);
    RebuildOptions rebuild =
        RebuildOptions.defaults(choice.srt())
            .withMemory(memory == null ? RebuildOptions.defaultMemory() : memory);
    session
        .guard()
        .state(
            "database " + db + " keeps the rows of the last checkpoint; resume with --resume",
            false);
    LoadReport report;
    String unit = in.positionsAreBytes() ? "bytes" : "rows";
    JobProgress job = JobProgress.start("load " + target + " into " + db);
    try (Database d = Database.open(db);
        JobServer server = progressServer(http, httpLinger, job, d);
        Progress p = session.progress(progressOptions.mode(), err())) {
      table(d, target);
      Loader loader = new Loader(d, options, new RebuildIndexBuild(rebuild, choice.description()));
      try {
        report = loader.run(new LoadJobProgress(job, new Listener(p, unit), unit));
      } catch (RuntimeException e) {
        job.failed(ProblemText.of(e));
        throw e;
      }
      job.report(report.summaryLines());
    }
    List<String> summary = report.summaryLines();
    for (String line : summary) {
      out().println(line);
    }
    out().flush();
    int code = report.outcome().exitCode();
    if (code != 0) {
      // The outcome on standard error too, as check says its problems there: a load whose report
      // went to a file (or a pipe) failed without a word on the terminal.
      err().println("idxkit: " + summary.get(0));
    }
    if (code == 0 && strict && report.rejected() > 0) {
      return ExitCodes.REJECTED_ROWS;
    }
    return code == 0 ? ExitCodes.OK : ExitCodes.FAILED;
  }

  private LoadInput input() {
    if (input.csv != null) {
      CsvOptions o =
          CsvOptions.defaults().withDelimiter(delimiter).withQuote(quote).withHeader(!noHeader);
      if (nullMarker != null) {
        o = o.withNullMarker(nullMarker);
      }
      return LoadInput.csv(input.csv, o);
    }
    if (input.jsonl != null) {
      return LoadInput.jsonLines(input.jsonl, JsonLinesOptions.defaults());
    }
    return LoadInput.tpch(TpchSchema.of(input.tpch), TpchOptions.scale(scaleFactor));
  }

  /** Progress in input units while loading; per step during the index build. */
  static final class Listener implements LoadListener {
    private final Progress progress;
    private final String unit;
    private long shown;
    private String buildStep;

    Listener(Progress progress, String unit) {
      this.progress = progress;
      this.unit = unit;
    }

    @Override
    public void phase(LoadPhase phase) {
      if (phase == LoadPhase.BUILDING_INDEXES || phase == LoadPhase.DONE) {
        progress.done();
      }
    }

    @Override
    public void progress(LoadProgress p) {
      if (shown == 0 && buildStep == null) {
        progress.start("load", p.size(), unit);
        shown = p.startPosition();
        progress.step(shown);
      }
      if (p.position() > shown) {
        progress.step(p.position() - shown);
        shown = p.position();
      }
    }

    @Override
    public void indexBuild(String step, long done, long total) {
      if (!step.equals(buildStep)) {
        if (buildStep != null) {
          progress.done();
        }
        buildStep = step;
        shown = 0;
        progress.start("index " + step, total, step.equals("scan") ? "pages" : "entries");
      }
      if (done > shown) {
        progress.step(done - shown);
        shown = done;
      }
    }
  }
}
