package dev.idxkit.cli.server;

import dev.idxkit.cli.output.Sizes;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildPlan;
import dev.idxkit.idxbuild.RebuildReport;
import dev.idxkit.idxbuild.temp.SrtFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Feeds a rebuild's events to a {@link JobProgress} for the progress page, and passes every event
 * on to {@code next} (the command's own progress bar), so one listener serves both.
 *
 * <p>The rebuild reports {@code scan} (pages) and {@code build} (entries: the merge and the tree
 * build together) with start, progress and finish, and {@code publish} (indexes) only when it has
 * finished; this adapter declares all three when the plan is known, so the page shows what is still
 * to come, and marks publish running once the build is done. The job is finished when publish is. A
 * rebuild that throws tells no listener: the caller reports it with {@link
 * JobProgress#failed(String)}.
 */
public final class RebuildProgress implements RebuildListener {
  /** The phases of {@code IndexRebuild.run()}, in order. */
  public static final List<String> PHASES = List.of("scan", "build", "publish");

  private final JobProgress job;
  private final RebuildListener next;
  private volatile int indexes;

  public RebuildProgress(JobProgress job, RebuildListener next) {
    this.job = job;
    this.next = next == null ? RebuildListener.NONE : next;
  }

  @Override
  public void planned(RebuildPlan plan, String srtChoice) {
    indexes = plan.groups().stream().mapToInt(g -> g.indexes().size()).sum();
    job.plan(PHASES);
    job.planText(planLines(plan, srtChoice));
    next.planned(plan, srtChoice);
  }

  /** The plan for the page: where the sort directories came from, memory, and each sort group. */
  static List<String> planLines(RebuildPlan plan, String srtChoice) {
    List<String> out = new ArrayList<>();
    out.add(srtChoice);
    out.add(
        String.format(
            Locale.ROOT,
            "memory %s for %d sort group%s; %d scan thread%s",
            Sizes.bytes(plan.memoryBytes()),
            plan.groups().size(),
            plan.groups().size() == 1 ? "" : "s",
            plan.scanThreads(),
            plan.scanThreads() == 1 ? "" : "s"));
    out.addAll(groupTable(plan));
    return out;
  }

  /**
   * The plan's sort groups as a table (header, one line per group, the temp space estimate): shared
   * with the {@code idxbuild} printout so the page and the terminal show the same table.
   */
  public static List<String> groupTable(RebuildPlan plan) {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            Locale.ROOT,
            "%-5s %-36s %14s %11s %11s %-9s %s",
            "group",
            "indexes",
            "est. entries",
            "est. size",
            "memory",
            "sorts",
            "temp directory"));
    for (RebuildPlan.Group g : plan.groups()) {
      out.add(
          String.format(
              Locale.ROOT,
              "%-5d %-36s %,14d %11s %11s %-9s %s",
              g.number(),
              String.join(", ", g.indexNames()),
              g.estimatedEntries(),
              Sizes.bytes(g.estimatedBytes()),
              Sizes.bytes(g.memoryBytes()),
              g.fitsInMemory() ? "in memory" : "in runs",
              g.firstDirectory()));
    }
    out.add(
        "estimated temp space: "
            + (plan.estimatedTempBytes() == 0
                ? "none (every group fits in memory)"
                : Sizes.bytes(plan.estimatedTempBytes())));
    return out;
  }

  /**
   * Bytes in rebuild temp files ({@code *.srt.tmp}) now, per sort directory of {@code srt}, in its
   * order: what {@link JobProgress#tempBytes} shows as the runs grow and are merged away. A
   * directory that cannot be listed counts 0.
   */
  public static Map<String, Long> tempBytes(SrtFile srt) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (SrtFile.Entry e : srt.entries()) {
      out.merge(e.dir().toString(), bytesIn(e.dir()), Long::sum);
    }
    return out;
  }

  private static long bytesIn(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".srt.tmp"))
          .mapToLong(
              f -> {
                try {
                  return Files.size(f);
                } catch (IOException gone) {
                  return 0; // merged and deleted between the listing and now
                }
              })
          .sum();
    } catch (IOException | UncheckedIOException e) {
      return 0;
    }
  }

  @Override
  public void phaseStarted(String phase, long totalUnits, String unit) {
    job.phaseStarted(phase, totalUnits, unit);
    next.phaseStarted(phase, totalUnits, unit);
  }

  @Override
  public void progress(String phase, long doneUnits) {
    job.progress(phase, doneUnits);
    next.progress(phase, doneUnits);
  }

  @Override
  public void phaseFinished(RebuildReport.Phase phase) {
    job.phaseFinished(phase.name(), phase.units(), phase.unit());
    if (phase.name().equals("build")) {
      job.phaseStarted("publish", indexes, "indexes");
    } else if (phase.name().equals("publish")) {
      job.finished();
    }
    next.phaseFinished(phase);
  }

  @Override
  public void warning(String message) {
    job.warning(message);
    next.warning(message);
  }
}
