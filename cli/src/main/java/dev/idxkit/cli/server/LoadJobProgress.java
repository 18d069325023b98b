package dev.idxkit.cli.server;

import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadPhase;
import dev.idxkit.loader.LoadProgress;
import java.util.ArrayList;
import java.util.List;

/**
 * Feeds a load's events to a {@link JobProgress} for the progress page, passing each one on to
 * {@code next} (the command's own progress). The load shows as phase {@code load} (input bytes, or
 * rows for the generator), then one phase per step of the deferred index build ({@code index scan},
 * {@code index build}, ...) as they start. A load that throws tells no listener: the caller reports
 * it with {@link JobProgress#failed(String)}.
 */
public final class LoadJobProgress implements LoadListener {
  private final JobProgress job;
  private final LoadListener next;
  private final String unit;
  private final List<String> phases = new ArrayList<>(List.of("load"));
  private boolean loadStarted;
  private String buildStep;

  public LoadJobProgress(JobProgress job, LoadListener next, String unit) {
    this.job = job;
    this.next = next == null ? LoadListener.NONE : next;
    this.unit = unit;
    job.plan(phases);
  }

  @Override
  public void phase(LoadPhase phase) {
    if (phase == LoadPhase.DONE) {
      if (buildStep != null) {
        job.phaseFinished("index " + buildStep, -1, "");
      }
      job.finished();
    }
    next.phase(phase);
  }

  @Override
  public void progress(LoadProgress p) {
    if (!loadStarted) {
      job.phaseStarted("load", p.size(), unit);
      loadStarted = true;
    }
    job.progress("load", p.position());
    next.progress(p);
  }

  @Override
  public void checkpoint(LoadProgress p) {
    next.checkpoint(p);
  }

  @Override
  public void indexBuild(String step, long done, long total) {
    if (!step.equals(buildStep)) {
      if (buildStep == null) {
        job.phaseFinished("load", -1, unit);
      } else {
        job.phaseFinished("index " + buildStep, -1, "");
      }
      buildStep = step;
      phases.add("index " + step);
      job.plan(phases);
      job.phaseStarted("index " + step, total, step.equals("scan") ? "pages" : "entries");
    }
    job.progress("index " + step, done);
    next.indexBuild(step, done, total);
  }

  @Override
  public void note(String message) {
    job.warning(message);
    next.note(message);
  }
}
