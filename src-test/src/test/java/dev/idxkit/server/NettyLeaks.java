package dev.idxkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Netty's leak detector at its strictest, with every report collected so a test can fail on it.
 *
 * <p>{@link #install()} must run before any Netty buffer class is loaded (each test class calls it
 * from a static initializer), since the buffers' detector is created once when their class loads.
 * The {@code PARANOID} level tracks every buffer; a buffer collected without {@code release()} is
 * reported the next time a buffer is allocated after the collection. Netty normally only logs
 * leaks, and here logging goes to slf4j-nop, so the detector below keeps the reports instead.
 */
final class NettyLeaks {
  private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
  private static boolean installed;

  private NettyLeaks() {}

  static synchronized void install() {
    if (installed) {
      return;
    }
    installed = true;
    System.setProperty("io.netty.leakDetection.level", "paranoid");
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(
        new ResourceLeakDetectorFactory() {
          @Override
          public <T> ResourceLeakDetector<T> newResourceLeakDetector(
              Class<T> resource, int samplingInterval, long maxActive) {
            return new ResourceLeakDetector<T>(resource, samplingInterval) {
              @Override
              protected boolean needReport() {
                return true;
              }

              @Override
              protected void reportTracedLeak(String resourceType, String records) {
                LEAKS.add(resourceType + " leaked:" + records);
              }

              @Override
              protected void reportUntracedLeak(String resourceType) {
                LEAKS.add(resourceType + " leaked (untraced)");
              }
            };
          }
        });
  }

  /**
   * Collects garbage and allocates until every leaked buffer the collector found has been reported,
   * then fails if any was. Call after the server under test is closed.
   */
  static void assertNone() {
    collect();
    assertThat(LEAKS).as("Netty buffers never released").isEmpty();
  }

  /** The reports so far, cleared: for the test that proves a leak is caught. */
  static List<String> drain() {
    List<String> out = List.copyOf(LEAKS);
    LEAKS.clear();
    return out;
  }

  /**
   * Collects garbage and allocates so that pending reports are made: each allocation lets the
   * detector poll its queue of collected, unreleased buffers.
   */
  static void collect() {
    for (int i = 0; i < 8; i++) {
      System.gc();
      for (int j = 0; j < 64; j++) {
        ByteBufAllocator.DEFAULT.buffer(16).release();
        ByteBufAllocator.DEFAULT.heapBuffer(16).release();
      }
    }
  }

  /** True when the detector is the collecting one (no Netty buffer class loaded before). */
  static boolean active() {
    return ResourceLeakDetector.getLevel() == ResourceLeakDetector.Level.PARANOID;
  }
}
