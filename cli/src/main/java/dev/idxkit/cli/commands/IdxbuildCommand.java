package dev.idxkit.cli.commands;

import dev.idxkit.cli.ByteSizeConverter;
import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.PathChecks;
import dev.idxkit.cli.ProgressOptions;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.progress.Progress;
import dev.idxkit.cli.server.JobProgress;
import dev.idxkit.cli.server.RebuildProgress;
import dev.idxkit.core.Database;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.ProblemText;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.RebuildPlan;
import dev.idxkit.idxbuild.RebuildReport;
import dev.idxkit.idxbuild.Selection;
import dev.idxkit.idxbuild.temp.SrtSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code idxkit idxbuild}: the offline index rebuild, with OpenEdge's {@code proutil -C idxbuild}
 * options and their aliases. Prints where the sort directories come from and the plan before any
 * work, progress per phase, and the report; Ctrl-C stops it before it publishes, leaving the
 * database as it was.
 */
@Command(
    name = "idxbuild",
    mixinStandardHelpOptions = true,
    description = {
      "Rebuild indexes offline with a parallel external sort-merge (like proutil idxbuild).",
      "",
      "Scans the tables once, sorts per group (in memory, or in runs under the .srt"
          + " directories), merges, builds each B+tree bottom-up, and switches to the new"
          + " trees in one meta write. Until then the old indexes stay usable; a failure, a crash or"
          + " Ctrl-C leaves the database exactly as it was and deletes the temp files.",
      "",
      "Sort directories: --srt FILE (-SS), else DB.srt in the current directory, else -T DIR,"
          + " else the current directory. .srt lines are '<limit-KB> <directory>' (0 = no limit)."
          + " Memory: --memory is shared by the sort groups in proportion to their estimated size;"
          + " a group that fits writes no temp file. The plan is printed before any work."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit idxbuild shop.db                    # every index",
      "  idxkit idxbuild shop.db --table lineitem --memory 2g -threadnum 2",
      "  idxkit idxbuild shop.db --inactive         # indexes a load left inactive",
      "  idxkit idxbuild shop.db -SS sort.srt -TB 64 -TM 32 -rusage --json report.json",
      "  idxkit idxbuild shop.db --plan             # show the plan, do nothing"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      "0:indexes rebuilt and published",
      "1:the rebuild failed (duplicate key in a unique index, temp space exhausted, I/O);"
          + " the database is unchanged",
      "2:bad usage or input (unknown index, malformed .srt, option out of range)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class IdxbuildCommand extends DbCommand {
  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "all",
      description = "Rebuild every index (the default when nothing else is selected).")
  String all;

  @Option(
      names = "--table",
      paramLabel = "TABLE",
      split = ",",
      description = "Indexes of these tables.")
  List<String> tables = List.of();

  @Option(
      names = "--area",
      paramLabel = "AREA",
      split = ",",
      description = "Indexes in these areas.")
  List<String> areas = List.of();

  @Option(names = "--index", paramLabel = "INDEX", split = ",", description = "These indexes.")
  List<String> indexes = List.of();

  @Option(names = "--inactive", description = "Indexes that are inactive (e.g. after a load).")
  boolean inactive;

  @Option(
      names = {"--scan-threads", "-datascanthreads"},
      paramLabel = "N",
      description = "Threads reading the tables (default: CPUs).")
  Integer scanThreads;

  @Option(
      names = {"--threads", "-threadnum"},
      paramLabel = "N",
      description = "Sort groups merged and built at once (default: CPUs).")
  Integer threads;

  @Option(
      names = {"--merge-threads", "-mergethreads"},
      paramLabel = "N",
      description = "Threads per merge (default: CPUs).")
  Integer mergeThreads;

  @Option(names = "-SG", paramLabel = "N", description = "Sort groups, 8..64 (default 48).")
  int sortGroups = RebuildOptions.DEFAULT_SORT_GROUPS;

  @Option(
      names = "--memory",
      paramLabel = "SIZE",
      converter = ByteSizeConverter.class,
      description = "Memory for sorting, e.g. 512m, 2g (default: half the JVM heap).")
  Long memory;

  @Option(names = "-TB", paramLabel = "KB", description = "Sort block (run block) size, 8..64 KB.")
  int sortBlockKb = RebuildOptions.DEFAULT_BLOCK_KB;

  @Option(names = "-TM", paramLabel = "N", description = "Merge fan-in: runs merged at once (32).")
  int fanIn = RebuildOptions.DEFAULT_FAN_IN;

  @Option(names = "-TMB", paramLabel = "KB", description = "Read-ahead per run while merging.")
  int mergeBlockKb = RebuildOptions.DEFAULT_BLOCK_KB;

  @Option(
      names = {"--fill", "-pfactor"},
      paramLabel = "PERCENT",
      description = "Leaf fill factor, 10..100 (default 100).")
  int fill = 100;

  @Option(
      names = {"--srt", "-SS"},
      paramLabel = "FILE",
      description = "The .srt file.")
  Path srt;

  @Option(names = "-T", paramLabel = "DIR", description = "Temp directory when there is no .srt.")
  Path tempDir;

  @Option(names = "--plan", description = "Print the plan and stop; nothing is changed.")
  boolean planOnly;

  @Option(names = "-rusage", description = "Also report user/system CPU and bytes read/written.")
  boolean rusage;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the report as JSON.")
  Path json;

  @Option(
      names = "--http",
      paramLabel = "[BIND]:PORT",
      description =
          "Serve a progress page (and read-only lookups) while the rebuild runs, e.g. :7070.")
  String http;

  @Option(
      names = "--http-linger",
      paramLabel = "DURATION",
      converter = ServeCommand.DurationConverter.class,
      description =
          "With --http: keep the page up this long after the job ends (e.g. 10m), showing the"
              + " final report; Ctrl-C ends it sooner. Default 0.")
  Duration httpLinger = Duration.ZERO;

  @Mixin ProgressOptions progressOptions;

  IdxbuildCommand(Session session) {
    super(session);
  }

  @Override
  @SuppressWarnings("try") // the --http server is a resource only to live as long as the job
  public Integer call() throws Exception {
    if (all != null && !all.equalsIgnoreCase("all")) {
      throw new InvalidInputException("unexpected argument '" + all + "' (expected: all)");
    }
    if (json != null) {
      PathChecks.outputFile(json, "--json");
    }
    SrtSource.Choice choice =
        SrtSource.resolve(srt, db.getFileName().toString(), Path.of("").toAbsolutePath(), tempDir);
    int cpus = Runtime.getRuntime().availableProcessors();
    RebuildOptions options =
        RebuildOptions.defaults(choice.srt())
            .withSelection(selection())
            .withThreads(
                scanThreads == null ? cpus : scanThreads,
                threads == null ? cpus : threads,
                mergeThreads == null ? cpus : mergeThreads)
            .withMemory(memory == null ? RebuildOptions.defaultMemory() : memory)
            .withMerge(sortGroups, sortBlockKb, fanIn, mergeBlockKb)
            .withLeafFill(fill);
    session.guard().state("database " + db + " unchanged (nothing rebuilt yet)", false);
    IdxbuildOutput output = new IdxbuildOutput(out(), db, rusage);
    JobProgress job = JobProgress.start("idxbuild " + db);
    job.tempBytes(() -> RebuildProgress.tempBytes(options.srt()));
    try (Database d = Database.open(db);
        JobServer server = progressServer(http, httpLinger, job, d)) {
      // Unknown names are bad input with the choices listed, before any work.
      options.selection().check(d.schema(), db.toString());
      if (planOnly) {
        output.plan(
            new IndexRebuild(d, options, choice.description(), RebuildListener.NONE).plan(),
            choice.description(),
            options);
        return ExitCodes.OK;
      }
      RebuildReport report;
      try (Progress p = session.progress(progressOptions.mode(), err())) {
        Listener listener =
            new Listener(
                p,
                output,
                options,
                () ->
                    session
                        .guard()
                        .state("database " + db + " has the rebuilt indexes (published)", false));
        try {
          report =
              new IndexRebuild(d, options, choice.description(), new RebuildProgress(job, listener))
                  .run();
        } catch (RuntimeException e) {
          job.failed(ProblemText.of(e));
          throw e;
        }
      }
      output.report(report);
      RebuildReport done = report;
      job.report(output.lines(o -> o.report(done)));
      if (json != null) {
        output.writeJson(json, report, options);
      }
    }
    return ExitCodes.OK;
  }

  private Selection selection() {
    return new Selection(
        new LinkedHashSet<>(tables),
        new LinkedHashSet<>(areas),
        new LinkedHashSet<>(indexes),
        inactive);
  }

  /** Turns rebuild events into progress and the plan printout. */
  static final class Listener implements RebuildListener {
    private final Progress progress;
    private final IdxbuildOutput output;
    private final RebuildOptions options;
    private final Runnable published;
    private long last;

    Listener(Progress progress, IdxbuildOutput output, RebuildOptions options, Runnable published) {
      this.progress = progress;
      this.output = output;
      this.options = options;
      this.published = published;
    }

    @Override
    public void planned(RebuildPlan plan, String srtChoice) {
      output.plan(plan, srtChoice, options);
    }

    @Override
    public void phaseStarted(String phase, long total, String unit) {
      last = 0;
      progress.start(phase, total, unit);
    }

    @Override
    public void progress(String phase, long done) {
      if (done > last) {
        progress.step(done - last);
        last = done;
      }
    }

    @Override
    public void phaseFinished(RebuildReport.Phase phase) {
      if (phase.name().equals("publish")) {
        published.run();
      } else {
        progress.done();
      }
    }

    @Override
    public void warning(String message) {
      output.warning(message);
    }
  }
}
