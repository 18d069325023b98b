package dev.idxkit.idxbuild;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The scan buffer size the plan counts runs in is the one {@link SortGroup} allocates: the share
 * per thread, capped, so that a group that spills is planned with as many runs as it will write.
 */
class RebuildPlanTest {
  @Test
  void bufferPerThreadIsTheShareCappedAndFloored() {
    assertThat(RebuildPlan.bufferPerThread(2L << 30, 2)).isEqualTo(RebuildPlan.MAX_BUFFER_BYTES);
    assertThat(RebuildPlan.bufferPerThread(10L << 20, 2)).isEqualTo(5L << 20);
    assertThat(RebuildPlan.bufferPerThread(64L << 10, 4)).isEqualTo(64L << 10);
  }
}
