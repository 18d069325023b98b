package dev.idxkit.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriteBehindTest {
  private static final Path A = Path.of("a.area");
  private static final Path B = Path.of("b.area");

  /** Records what it was asked; refuses {@code open} or {@code start} when told to. */
  private static final class Recording implements WriteBehind.Kernel {
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    final boolean refuseOpen;
    final boolean refuseStart;
    int nextFd = 10;

    Recording(boolean refuseOpen, boolean refuseStart) {
      this.refuseOpen = refuseOpen;
      this.refuseStart = refuseStart;
    }

    @Override
    public int open(Path file) throws IOException {
      if (refuseOpen) {
        throw new IOException("open " + file + ": Permission denied");
      }
      calls.add("open " + file + " " + nextFd);
      return nextFd++;
    }

    @Override
    public void start(int fd, long offset, long length) throws IOException {
      calls.add("start " + fd + " " + offset + " " + length);
      if (refuseStart) {
        throw new IOException("sync_file_range refused: Operation not supported");
      }
    }

    @Override
    public void close(int fd) {
      calls.add("close " + fd);
    }
  }

  @Test
  void asksForWritebackOfEachStepWrittenPerFile() {
    Recording k = new Recording(false, false);
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
    Recording k = new Recording(false, true);
    WriteBehind w = new WriteBehind(k, 10);
    w.written(A, 0, 10);
    w.close(); // waits for the request, which is refused
    assertThat(w.problem()).isEqualTo("sync_file_range refused: Operation not supported");
    assertThat(k.calls).containsExactly("open a.area 10", "start 10 0 10", "close 10");
  }

  @Test
  void aFileThatCannotBeOpenedTurnsItOffAtOnce() {
    Recording k = new Recording(true, false);
    try (WriteBehind w = new WriteBehind(k, 10)) {
      w.written(A, 0, 10);
      w.written(A, 10, 10);
      assertThat(w.problem()).isEqualTo("open a.area: Permission denied");
      assertThat(w.requests()).isZero();
    }
    assertThat(k.calls).isEmpty();
  }
}
