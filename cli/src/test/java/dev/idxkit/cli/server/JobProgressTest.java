package dev.idxkit.cli.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.idxkit.cli.server.JobProgress.PhaseView;
import dev.idxkit.cli.server.JobProgress.State;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildPlan;
import dev.idxkit.idxbuild.RebuildReport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress model on a clock the test moves: states, rates, ETAs, and the rebuild adapter. */
class JobProgressTest {
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final JobProgress job = new JobProgress("idxbuild shop.db", nanos::get);

  private void advance(double seconds) {
    nanos.addAndGet((long) (seconds * 1e9));
  }

  private PhaseView phase(String name) {
    return job.snapshot().phases().stream()
        .filter(p -> p.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void plannedPhasesArePendingInOrderUntilTheyStart() {
    job.plan(List.of("scan", "build", "publish"));
    JobProgress.Snapshot s = job.snapshot();
    assertThat(s.state()).isEqualTo(State.RUNNING);
    assertThat(s.phases()).extracting(PhaseView::name).containsExactly("scan", "build", "publish");
    assertThat(s.phases()).extracting(PhaseView::state).containsOnly(State.PENDING);
    assertThat(s.phases().get(0).etaSeconds()).isNull();
    assertThat(s.phases().get(0).fraction()).isZero();
  }

  @Test
  void rateIsOverTheRecentWindowAndEtaIsWhatIsLeftAtThatRate() {
    job.phaseStarted("scan", 10_000, "pages");
    // 100 pages/s for 20 s, then 1000 pages/s for 5 s: the window shows the new speed.
    for (int i = 1; i <= 20; i++) {
      advance(1);
      job.progress("scan", 100L * i);
    }
    assertThat(phase("scan").ratePerSecond()).isCloseTo(100, within(0.001));
    assertThat(phase("scan").etaSeconds()).isCloseTo((10_000 - 2_000) / 100.0, within(0.001));
    for (int i = 1; i <= 5; i++) {
      advance(1);
      job.progress("scan", 2_000 + 1_000L * i);
    }
    // The window holds the last 10 s: 5 s at 100/s and 5 s at 1000/s.
    PhaseView p = phase("scan");
    assertThat(p.ratePerSecond()).isCloseTo((7_000 - 1_500) / 10.0, within(0.001));
    assertThat(p.done()).isEqualTo(7_000);
    assertThat(p.fraction()).isCloseTo(0.7, within(1e-9));
    assertThat(p.etaSeconds()).isCloseTo(3_000 / 550.0, within(0.001));
    assertThat(p.elapsedSeconds()).isCloseTo(25, within(1e-6));
  }

  @Test
  void beforeHalfASecondOfSamplesTheRateIsTheWholePhaseAverage() {
    job.phaseStarted("build", 1_000, "entries");
    advance(0.2);
    job.progress("build", 100);
    assertThat(phase("build").ratePerSecond()).isCloseTo(500, within(1e-6));
    assertThat(phase("build").etaSeconds()).isCloseTo(900 / 500.0, within(1e-6));
  }

  @Test
  void aPhaseWithoutTotalHasNoEtaAndAStalledOneNeither() {
    job.phaseStarted("merge", 0, "entries");
    advance(2);
    job.progress("merge", 500);
    assertThat(phase("merge").etaSeconds()).isNull();
    assertThat(phase("merge").fraction()).isZero();
    job.phaseStarted("scan", 100, "pages");
    advance(2);
    job.progress("scan", 0);
    assertThat(phase("scan").ratePerSecond()).isZero();
    assertThat(phase("scan").etaSeconds()).isNull();
  }

  @Test
  void finishedPhaseShowsItsAverageRateAndTheJobEnds() {
    job.plan(List.of("scan", "publish"));
    job.phaseStarted("scan", 400, "pages");
    advance(4);
    job.progress("scan", 300);
    job.phaseFinished("scan", 400, "pages");
    job.progress("scan", 999); // late report: ignored
    advance(1);
    job.phaseFinished("publish", 3, "indexes"); // reported only at its end
    PhaseView scan = phase("scan");
    assertThat(scan.state()).isEqualTo(State.DONE);
    assertThat(scan.done()).isEqualTo(400);
    assertThat(scan.ratePerSecond()).isCloseTo(100, within(1e-6));
    assertThat(scan.etaSeconds()).isNull();
    PhaseView publish = phase("publish");
    assertThat(publish.state()).isEqualTo(State.DONE);
    assertThat(publish.total()).isEqualTo(3);
    assertThat(publish.fraction()).isEqualTo(1.0);
    job.finished();
    advance(100);
    JobProgress.Snapshot s = job.snapshot();
    assertThat(s.state()).isEqualTo(State.DONE);
    assertThat(s.elapsedSeconds()).as("the clock stops at the end").isCloseTo(5, within(1e-6));
  }

  @Test
  void failureMarksTheRunningPhaseAndKeepsTheMessage() {
    job.plan(List.of("scan", "build"));
    job.phaseStarted("scan", 10, "pages");
    job.failed("duplicate key 5 in unique index t_pk");
    job.finished(); // too late: the first ending wins
    JobProgress.Snapshot s = job.snapshot();
    assertThat(s.state()).isEqualTo(State.FAILED);
    assertThat(s.message()).isEqualTo("duplicate key 5 in unique index t_pk");
    assertThat(s.phases())
        .extracting(PhaseView::state)
        .containsExactly(State.FAILED, State.PENDING);
  }

  @Test
  void keepsTheLastTwentyWarnings() {
    for (int i = 0; i < 25; i++) {
      job.warning("w" + i);
    }
    assertThat(job.snapshot().warnings())
        .hasSize(JobProgress.MAX_WARNINGS)
        .startsWith("w5")
        .endsWith("w24");
  }

  @Test
  void rebuildAdapterFeedsTheModelAndPassesEveryEventOn() {
    List<String> seen = new ArrayList<>();
    RebuildListener next =
        new RebuildListener() {
          @Override
          public void planned(RebuildPlan plan, String srtChoice) {
            seen.add("planned " + srtChoice);
          }

          @Override
          public void phaseStarted(String phase, long totalUnits, String unit) {
            seen.add("start " + phase + " " + totalUnits + " " + unit);
          }

          @Override
          public void progress(String phase, long doneUnits) {
            seen.add("progress " + phase + " " + doneUnits);
          }

          @Override
          public void phaseFinished(RebuildReport.Phase phase) {
            seen.add("finished " + phase.name());
          }

          @Override
          public void warning(String message) {
            seen.add("warning " + message);
          }
        };
    RebuildProgress a = new RebuildProgress(job, next);
    a.planned(new RebuildPlan(List.of(), 1 << 20, 1, 0, 0, 0), "-T /tmp");
    assertThat(job.snapshot().phases())
        .extracting(PhaseView::name)
        .containsExactlyElementsOf(RebuildProgress.PHASES);
    a.phaseStarted("scan", 50, "pages");
    advance(1);
    a.progress("scan", 50);
    a.phaseFinished(new RebuildReport.Phase("scan", 1_000_000_000L, 0, 50, "pages"));
    assertThat(phase("scan").state()).isEqualTo(State.DONE);
    a.phaseStarted("build", 1_000, "entries");
    a.warning("old tree of t_ix damaged; 3 pages not freed");
    a.phaseFinished(new RebuildReport.Phase("build", 1, 0, 1_000, "entries"));
    assertThat(phase("publish").state())
        .as("publish runs once the build is done")
        .isEqualTo(State.RUNNING);
    a.phaseFinished(new RebuildReport.Phase("publish", 1, 0, 0, "indexes"));
    assertThat(job.snapshot().state()).isEqualTo(State.DONE);
    assertThat(job.snapshot().warnings())
        .containsExactly("old tree of t_ix damaged; 3 pages not freed");
    assertThat(seen)
        .containsExactly(
            "planned -T /tmp",
            "start scan 50 pages",
            "progress scan 50",
            "finished scan",
            "start build 1000 entries",
            "warning old tree of t_ix damaged; 3 pages not freed",
            "finished build",
            "finished publish");
  }
}
