package dev.idxkit.idxbuild.temp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.testing.Seeds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Placement, rollover, exhaustion, accounting and cleanup of {@link TempSpace}. */
class TempSpaceTest {
  private static final int KB = 1024;

  @TempDir Path tmp;
  private Path a;
  private Path b;
  private Path c;

  @BeforeEach
  void setUp() throws IOException {
    a = Files.createDirectory(tmp.resolve("a"));
    b = Files.createDirectory(tmp.resolve("b"));
    c = Files.createDirectory(tmp.resolve("c"));
  }

  @Test
  void groupsStartRoundRobinOverTheDirectories() throws IOException {
    try (TempSpace space = new TempSpace(srt("0 " + a, "0 " + b, "0 " + c), "idxbuild-tpch")) {
      for (int g = 0; g < 7; g++) {
        Segment s = space.newSegment(g);
        assertThat(s.path().getParent()).isEqualTo(List.of(a, b, c).get(g % 3));
        assertThat(s.path().getFileName().toString())
            .isEqualTo("idxbuild-tpch-g" + g + "-0.srt.tmp");
        assertThat(s.path()).exists();
        assertThat(s.group()).isEqualTo(g);
      }
      assertThat(space.newSegment(4).path().getFileName().toString())
          .isEqualTo("idxbuild-tpch-g4-1.srt.tmp");
    }
  }

  @Test
  void rollsOverAtTheLimitThenExhaustsNamingEveryDirectory() throws IOException {
    Path srtFile = tmp.resolve("idx.srt");
    Files.writeString(srtFile, "64 " + a + "\n64 " + b + "/\n# third\n64 " + c + "\n");
    SrtFile srt = SrtFile.parse(srtFile);
    srt.validate();
    TempSpace space = new TempSpace(srt, "rb");
    try {
      Segment seg = space.newSegment(1); // group 1 starts in b
      List<Path> order = new ArrayList<>();
      order.add(seg.path().getParent());
      for (int i = 0; i < 12; i++) {
        Segment next = space.reserve(seg, 16 * KB);
        if (next != seg) {
          order.add(next.path().getParent());
          // a writer that rolled over continues in the new segment; the old one is full
          assertThat(seg.size()).isEqualTo(64 * KB);
          seg = next;
        }
        write(seg, 16 * KB);
      }
      assertThat(order).containsExactly(b, c, a);
      for (Path d : List.of(a, b, c)) {
        assertThat(files(d)).hasSize(1);
        assertThat(Files.size(files(d).get(0))).isEqualTo(64 * KB);
      }
      assertThat(space.bytesPerDirectory())
          .containsExactly(Map.entry(a, 64L * KB), Map.entry(b, 64L * KB), Map.entry(c, 64L * KB));
      Segment full = seg;
      assertThatThrownBy(() -> space.reserve(full, 16 * KB))
          .isInstanceOf(TempSpaceExhaustedException.class)
          .hasMessage(
              "sort space exhausted: no sort directory has room for 16384 more bytes of sort"
                  + " group 1:\n"
                  + "  "
                  + srtFile
                  + ":1: "
                  + a
                  + " limit 64 KB, used 65536 bytes\n"
                  + "  "
                  + srtFile
                  + ":2: "
                  + b
                  + " limit 64 KB, used 65536 bytes\n"
                  + "  "
                  + srtFile
                  + ":4: "
                  + c
                  + " limit 64 KB, used 65536 bytes\n"
                  + "(raise the limits or add directories in "
                  + srtFile
                  + ")")
          .satisfies(e -> assertThat(((TempSpaceExhaustedException) e).isBadInput()).isFalse());
      // a new segment can be created, but it cannot get any bytes either
      Segment more = space.newSegment(5);
      assertThatThrownBy(() -> space.reserve(more, 1))
          .isInstanceOf(TempSpaceExhaustedException.class);
    } finally {
      space.close();
    }
    for (Path d : List.of(a, b, c)) {
      assertThat(files(d)).as("files left in " + d + " after close").isEmpty();
    }
    space.close(); // idempotent
  }

  @Test
  void releaseGivesTheBytesBackAndTracksPeakAndCurrent() throws IOException {
    try (TempSpace space = new TempSpace(srt("32 " + a, "32 " + b), "p")) {
      Segment s0 = space.newSegment(0);
      assertThat(space.reserve(s0, 32 * KB)).isSameAs(s0);
      Segment s1 = space.newSegment(0);
      Segment s1b = space.reserve(s1, 8 * KB);
      assertThat(s1b.path().getParent()).isEqualTo(b);
      assertThat(space.peakBytes()).isEqualTo(40 * KB);
      space.release(s0);
      space.release(s0); // idempotent
      assertThat(s0.path()).doesNotExist();
      assertThat(space.currentBytes()).isEqualTo(8 * KB);
      assertThat(space.currentBytesPerDirectory()).containsEntry(a, 0L).containsEntry(b, 8L * KB);
      assertThat(space.peakBytesPerDirectory()).containsEntry(a, 32L * KB);
      assertThat(space.bytesPerDirectory()).containsEntry(a, 32L * KB);
      // the group moved to b; when b is full it comes back to a, which has room again
      Segment s2 = space.reserve(s1b, 24 * KB);
      assertThat(s2).isSameAs(s1b);
      Segment s3 = space.reserve(s2, 16 * KB);
      assertThat(s3.path().getParent()).isEqualTo(a);
      assertThat(space.peakBytes()).isEqualTo(48 * KB);
      assertThat(space.liveSegments()).containsExactly(s1, s1b, s3);
    }
  }

  @Test
  void neverTouchesAFileItDidNotCreate() throws IOException {
    Path foreign = Files.writeString(a.resolve("x-g0-0.srt.tmp"), "left by a crashed rebuild");
    TempSpace space = new TempSpace(SrtFile.ofDirectory(a), "x");
    Segment s = space.newSegment(0);
    assertThat(s.path().getFileName().toString()).isEqualTo("x-g0-1.srt.tmp");
    space.close();
    assertThat(files(a)).containsExactly(foreign);
    assertThat(Files.readString(foreign)).isEqualTo("left by a crashed rebuild");
    assertThatThrownBy(() -> space.newSegment(0)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> space.reserve(s, 1)).isInstanceOf(IllegalStateException.class);
    space.release(s); // harmless after close
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> new TempSpace(SrtFile.ofDirectory(a), "a/b"))
        .hasMessage("prefix : 'a/b' (expected: a non-empty file name prefix without separators)");
    try (TempSpace space = new TempSpace(SrtFile.ofDirectory(a), "p");
        TempSpace other = new TempSpace(SrtFile.ofDirectory(b), "q")) {
      assertThatThrownBy(() -> space.newSegment(-1)).hasMessage("group : -1 (expected: >= 0)");
      Segment s = other.newSegment(0);
      assertThatThrownBy(() -> space.reserve(s, 1))
          .hasMessage("segment " + s.path() + " belongs to another temp space");
      assertThatThrownBy(() -> other.reserve(s, -1)).hasMessage("bytes : -1 (expected: >= 0)");
    }
  }

  @Test
  void concurrentGroupsAccountEveryByte() throws Exception {
    long seed = Seeds.seed();
    String repro = Seeds.reproduce(seed, getClass());
    SplittableRandom rnd = Seeds.random(seed);
    int threads = 4;
    long[][] sizes = new long[threads][500];
    long total = 0;
    for (long[] row : sizes) {
      for (int i = 0; i < row.length; i++) {
        row[i] = 1 + rnd.nextInt(100_000);
        total += row[i];
      }
    }
    try (TempSpace space = new TempSpace(srt("0 " + a, "0 " + b, "0 " + c), "mt")) {
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int group = t;
        Thread w =
            new Thread(
                () -> {
                  try {
                    Segment s = space.newSegment(group);
                    for (int i = 0; i < sizes[group].length; i++) {
                      if (i % 100 == 99) {
                        s = space.newSegment(group);
                      }
                      s = space.reserve(s, sizes[group][i]);
                    }
                  } catch (Throwable e) {
                    failure.set(e);
                  }
                },
                "temp-space-test-" + t);
        workers.add(w);
        w.start();
      }
      for (Thread w : workers) {
        w.join();
      }
      assertThat(failure.get()).as(repro).isNull();
      long sum = space.bytesPerDirectory().values().stream().mapToLong(Long::longValue).sum();
      assertThat(sum).as(repro).isEqualTo(total);
      assertThat(space.currentBytes()).as(repro).isEqualTo(total);
      assertThat(space.liveSegments()).hasSize(threads * 6); // the first and one per 100
      long segSum = space.liveSegments().stream().mapToLong(Segment::size).sum();
      assertThat(segSum).as(repro).isEqualTo(total);
    }
    assertThat(files(a)).isEmpty();
  }

  @Test
  void capacityIsRoomUnderLimitsWithoutCountingADiskTwice() throws IOException {
    long usable = Files.getFileStore(a).getUsableSpace();
    try (TempSpace limited = new TempSpace(srt("100 " + a, "200 " + b), "cap")) {
      if (usable > 10L * 1024 * 1024) {
        assertThat(limited.capacity()).isEqualTo(300L * KB);
        limited.reserve(limited.newSegment(0), 40 * KB);
        assertThat(limited.capacity()).isEqualTo(260L * KB);
      }
    }
    try (TempSpace twice = new TempSpace(srt("0 " + a, "0 " + a, "0 " + b), "cap2")) {
      long cap = twice.capacity();
      long usableNow = Files.getFileStore(a).getUsableSpace();
      // a, a and b are on one file store: its usable space once, not three times
      assertThat(cap).isLessThan(Math.max(usable, usableNow) + usable / 2);
      assertThat(cap).isGreaterThan(0);
    }
  }

  @Test
  void leftoversIncludeTheDirectoryProbesOfProcessesThatAreGone() throws Exception {
    Path a = Files.createDirectories(tmp.resolve("a"));
    SrtFile srt = srt("0 " + a);
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path dead = a.resolve(SrtFile.PROBE_PREFIX + gone.pid() + "-123.tmp");
    Path alive = a.resolve(SrtFile.PROBE_PREFIX + ProcessHandle.current().pid() + "-456.tmp");
    Path other = a.resolve(".idxkit-probe-notapid.tmp");
    for (Path p : List.of(dead, alive, other)) {
      Files.createFile(p);
    }
    try (TempSpace space = new TempSpace(srt, "idxbuild-x")) {
      assertThat(space.deleteLeftovers()).containsExactly(dead);
    }
    assertThat(dead).doesNotExist();
    assertThat(alive).exists();
    assertThat(other).exists();
  }

  private SrtFile srt(String... lines) throws IOException {
    Path f = Files.createTempFile(tmp, "t", ".srt");
    Files.writeString(f, String.join("\n", lines) + "\n");
    SrtFile s = SrtFile.parse(f);
    s.validate();
    return s;
  }

  private static void write(Segment s, int bytes) {
    try (FileChannel ch = FileChannel.open(s.path(), StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.allocate(bytes);
      long at = s.size() - bytes;
      while (buf.hasRemaining()) {
        ch.write(buf, at + buf.position());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }
}
