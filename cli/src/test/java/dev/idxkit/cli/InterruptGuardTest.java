package dev.idxkit.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class InterruptGuardTest {
  final StringWriter text = new StringWriter();
  final InterruptGuard guard = InterruptGuard.detached(new PrintWriter(text, true));

  @Test
  void checkPassesUntilInterruptedThenThrowsAndClearsTheFlag() {
    guard.check();
    guard.interrupt();
    assertThat(Thread.currentThread().isInterrupted()).isTrue();
    assertThatThrownBy(guard::check).isInstanceOf(CommandInterruptedException.class);
    // Unwinding (closing the database) must not trip over the flag again.
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
    assertThat(guard.interrupted()).isTrue();
  }

  @Test
  void reportSaysTheLatestStateOnce() {
    guard.state("nothing was created", false);
    guard.state("database db was created", false);
    guard.report();
    guard.report();
    assertThat(text.toString())
        .isEqualTo("idxkit: interrupted; database db was created" + System.lineSeparator());
  }

  @Test
  void commitPointRunsTheStepAndMovesTheStateOrNeither() {
    guard.state("file not written", true);
    int[] runs = new int[1];
    guard.commitPoint("file written", () -> runs[0]++);
    assertThat(runs[0]).isEqualTo(1);
    assertThat(guard.state()).isEqualTo("file written");

    guard.state("second file not written", true);
    guard.interrupt();
    assertThatThrownBy(() -> guard.commitPoint("second file written", () -> runs[0]++))
        .isInstanceOf(CommandInterruptedException.class);
    assertThat(runs[0]).isEqualTo(1);
    guard.report();
    assertThat(text.toString()).contains("interrupted; second file not written");
  }

  @Test
  void interruptReachesTheWorkerThread() throws InterruptedException {
    Thread worker =
        new Thread(
            () -> {
              try {
                new CountDownLatch(1).await(); // any interruptible wait; only the interrupt ends it
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "test-worker");
    worker.start();
    InterruptGuard g = new InterruptGuard(worker, new PrintWriter(text, true));
    g.interrupt();
    worker.join();
    assertThat(g.interrupted()).isTrue();
  }
}
