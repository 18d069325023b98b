package dev.idxkit.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class WriteBehindTest {
  private static final Path A = Path.of("a.area");
  private static final Path B = Path.of("b.area");

  @Test
  void asksForWritebackOfEachStepWrittenPerFile() {
    RecordingKernel k = new RecordingKernel(false, false);
    try (WriteBehind w = new WriteBehind(k, 100)) {
      w.written(A, 0, 40);
      w.written(B, 1000, 60);
      w.written(A, 40, 40);
      w.written(A, 200, 40); // 120 bytes of A since the last request, spanning 0..240
      w.written(B, 1060, 60);
      w.written(A, 240, 40); // 40 bytes: below the step, left to the fsync
      assertThat(w.requests()).isEqualTo(2);
    }
    assertThat(k.calls)
        .containsExactly(
            "open a.area 10",
            "open b.area 11",
            "start 10 0 240",
            "start 11 1000 120",
            "close 10",
            "close 11");
  }

  @Test
  void aRefusedRequestTurnsItOffAndSaysWhy() {
    RecordingKernel k = new RecordingKernel(false, true);
    WriteBehind w = new WriteBehind(k, 10);
    w.written(A, 0, 10);
    w.close(); // waits for the request, which is refused
    assertThat(w.problem()).isEqualTo(RecordingKernel.START_REFUSED);
    assertThat(k.calls).containsExactly("open a.area 10", "start 10 0 10", "close 10");
  }

  @Test
  void aFileThatCannotBeOpenedTurnsItOffAtOnce() {
    RecordingKernel k = new RecordingKernel(true, false);
    try (WriteBehind w = new WriteBehind(k, 10)) {
      w.written(A, 0, 10);
      w.written(A, 10, 10);
      assertThat(w.problem()).isEqualTo(RecordingKernel.OPEN_REFUSED);
      assertThat(w.requests()).isZero();
    }
    assertThat(k.calls).isEmpty();
  }
}
