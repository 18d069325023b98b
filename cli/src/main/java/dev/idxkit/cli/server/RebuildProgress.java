package dev.idxkit.cli.server;

import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildPlan;
import dev.idxkit.idxbuild.RebuildReport;
import java.util.List;

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
    next.planned(plan, srtChoice);
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
