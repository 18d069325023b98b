package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a warm-up counts as busy: its compile time over 5 % of its wall time. */
class JitWarmUpTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void busyOnlyPastTheQuietShare() {
    assertThat(JitWarmUp.busy(51, SECOND)).as("51 ms of a second").isTrue();
    assertThat(JitWarmUp.busy(50, SECOND)).as("exactly 5 %: quiet").isFalse();
    assertThat(JitWarmUp.busy(0, SECOND)).isFalse();
    assertThat(JitWarmUp.busy(200, 2 * SECOND)).as("10 % of two seconds").isTrue();
  }

  @Test
  void aJvmThatDoesNotCountCompilesIsQuiet() {
    assertThat(JitWarmUp.busy(-1, SECOND)).as("-1: not counted").isFalse();
    assertThat(JitWarmUp.busy(-1, 1)).isFalse();
  }
}
