package dev.idxkit.cli.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Drives the plain renderer with a hand-moved clock: no thread, no waiting. */
class PlainProgressTest {
  final AtomicLong now = new AtomicLong(1_000_000_000L);
  final StringWriter text = new StringWriter();
  final PlainProgress p = new PlainProgress(new PrintWriter(text), now::get, 5_000, null);

  private void advanceSeconds(double s) {
    now.addAndGet((long) (s * TimeUnit.SECONDS.toNanos(1)));
  }

  private List<String> lines() {
    String t = text.toString();
    return t.isEmpty() ? List.of() : List.of(t.split("\\R"));
  }

  @Test
  void shortPhaseStaysQuiet() {
    p.start("dump t", 1000, "rows");
    advanceSeconds(1);
    p.step(1000);
    p.done();
    p.close();
    assertThat(lines()).isEmpty();
  }

  @Test
  void longPhasePrintsEveryIntervalWithRateAndEtaThenDone() {
    p.start("dump t", 60_000, "rows");
    advanceSeconds(4.9);
    p.step(20_000);
    assertThat(lines()).isEmpty();
    advanceSeconds(1.1); // 6 s, 27,000 rows
    p.step(7_000);
    assertThat(lines()).containsExactly("dump t: 45% 27000/60000 rows, 4500 rows/s, ETA 7.3s");
    advanceSeconds(1);
    p.step(1_000); // within the interval: nothing
    advanceSeconds(4); // 11 s, 60,000 rows
    p.step(32_000);
    p.done();
    assertThat(lines())
        .containsExactly(
            "dump t: 45% 27000/60000 rows, 4500 rows/s, ETA 7.3s",
            "dump t: 100% 60000/60000 rows, 5455 rows/s, 11s elapsed",
            "dump t: done, 60000 rows in 11s (5455 rows/s)");
  }

  @Test
  void phaseWithoutStepsShowsItIsAliveOnTicks() {
    p.start("check", -1, "pages");
    p.tick();
    advanceSeconds(5);
    p.tick();
    advanceSeconds(2);
    p.tick(); // within the interval
    advanceSeconds(63);
    p.tick();
    p.close();
    p.tick(); // after close: nothing
    assertThat(lines())
        .containsExactly("check: running, 5.0s elapsed", "check: running, 1m10s elapsed");
  }

  @Test
  void eachPhaseStartsAfresh() {
    p.start("tables", 10, "pages");
    advanceSeconds(6);
    p.step(5);
    p.done();
    p.start("indexes", 3, "indexes");
    advanceSeconds(1);
    p.step(3);
    p.done();
    assertThat(lines())
        .containsExactly(
            "tables: 50% 5/10 pages, 1 pages/s, ETA 6.0s",
            "tables: done, 5 pages in 6.0s (1 pages/s)");
  }

  @Test
  void aPhaseWithoutStepsClosesWithItsTimeNotAZeroCount() {
    p.start("check", -1, "pages");
    advanceSeconds(10);
    p.tick();
    p.done();
    assertThat(lines()).containsExactly("check: running, 10s elapsed", "check: done after 10s");
  }

  @Test
  void aPhaseStoppedByCtrlCSaysStoppedNotDone() {
    boolean[] stopped = {false};
    p.stoppedWhen(() -> stopped[0]);
    p.start("scan", 10, "pages");
    advanceSeconds(6);
    p.step(5);
    stopped[0] = true;
    p.done();
    assertThat(lines())
        .containsExactly(
            "scan: 50% 5/10 pages, 1 pages/s, ETA 6.0s",
            "scan: stopped, 5 pages in 6.0s (1 pages/s)");
  }

  @Test
  void durationsReadWell() {
    assertThat(Durations.seconds(0.44)).isEqualTo("0.4s");
    assertThat(Durations.seconds(59.6)).isEqualTo("1m00s");
    assertThat(Durations.seconds(3 * 3600 + 125)).isEqualTo("3h02m");
  }
}
