package dev.idxkit.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worked example of {@link InputReadAhead}'s header, run, and what a refusal does. */
class InputReadAheadTest {
  private static final long MIB = 1 << 20;

  private final List<long[]> hints = new ArrayList<>();
  private final AtomicInteger closed = new AtomicInteger();

  private InputReadAhead recording() {
    return new InputReadAhead(
        (offset, length) -> hints.add(new long[] {offset, offset + length}),
        64 * MIB,
        closed::incrementAndGet);
  }

  @Test
  void eachByteIsHintedOnceAboutHalfAWindowBeforeItIsRead() {
    InputReadAhead ahead = recording();
    for (long at = 0; at < 200 * MIB; at += MIB) {
      ahead.before(at);
    }
    assertThat(hints)
        .containsExactly(
            new long[] {0, 64 * MIB},
            new long[] {64 * MIB, 96 * MIB},
            new long[] {96 * MIB, 128 * MIB},
            new long[] {128 * MIB, 160 * MIB},
            new long[] {160 * MIB, 192 * MIB},
            new long[] {192 * MIB, 224 * MIB},
            new long[] {224 * MIB, 256 * MIB});
  }

  @Test
  void aReaderThatStartsPastTheStartHintsFromWhereItIs() {
    InputReadAhead ahead = recording();
    ahead.before(300 * MIB); // a resumed load
    ahead.before(301 * MIB);
    assertThat(hints).containsExactly(new long[] {300 * MIB, 364 * MIB});
  }

  @Test
  void aRefusedHintTurnsHintsOffAndReadsGoOn() {
    AtomicInteger calls = new AtomicInteger();
    InputReadAhead ahead =
        new InputReadAhead(
            (offset, length) -> {
              calls.incrementAndGet();
              throw new IOException("refused");
            },
            64 * MIB,
            () -> {});
    ahead.before(0);
    ahead.before(100 * MIB);
    assertThat(calls).hasValue(1);
    assertThat(ahead.active()).isFalse();
  }

  @Test
  void closeClosesOnceAndStopsHints() {
    InputReadAhead ahead = recording();
    ahead.close();
    ahead.close();
    ahead.before(0);
    assertThat(closed).hasValue(1);
    assertThat(hints).isEmpty();
  }

  /** Through the C library here (Linux, the build's JVM flags): hints are accepted. */
  @Test
  void aRealFileTakesItsHints(@TempDir Path dir) throws IOException {
    Path f = Files.write(dir.resolve("input.csv"), new byte[3 << 20]);
    try (InputReadAhead ahead = InputReadAhead.of(f)) {
      ahead.before(0);
      ahead.before(2 << 20);
      assertThat(ahead.active()).as("posix_fadvise(WILLNEED) accepted").isTrue();
    }
  }
}
