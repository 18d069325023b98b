package dev.idxkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

/** The leak check the server tests rely on does catch a buffer that is never released. */
class NettyLeaksTest {
  static {
    NettyLeaks.install();
  }

  @Test
  void aBufferDroppedWithoutReleaseIsReported() {
    NettyLeaks.collect();
    assertThat(NettyLeaks.drain()).as("reports left by earlier tests").isEmpty();
    leak();
    NettyLeaks.collect();
    assertThat(NettyLeaks.drain()).isNotEmpty().allMatch(r -> r.contains("ByteBuf"));
  }

  private static void leak() {
    ByteBufAllocator.DEFAULT.directBuffer(64).writeLong(42); // never released
  }
}
