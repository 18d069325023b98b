package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The floor's write goes over a file it allocated once, as the rebuild's writes do. */
class IdxbuildFloorTest {
  @TempDir Path tmp;

  @Test
  void theWriteOverwritesTheFileAllocatedBeforeIt() throws Exception {
    Path heap = tmp.resolve("heap");
    Files.write(heap, new byte[3 << 20]);
    Path out = tmp.resolve("floor-write.out");

    IdxbuildFloor.allocate(out, 2 << 20);
    assertThat(Files.size(out)).isEqualTo(2 << 20);
    Object file = Files.readAttributes(out, BasicFileAttributes.class).fileKey();
    IdxbuildFloor.allocate(out, 1 << 20); // never shrunk
    assertThat(Files.size(out)).isEqualTo(2 << 20);

    IdxbuildFloor.Result r = IdxbuildFloor.measure(heap, 10_000, 2 << 20, out, 2);
    assertThat(r.bytesRead()).isEqualTo(3 << 20);
    assertThat(r.bytesWritten()).isEqualTo(2 << 20);
    assertThat(r.writeSeconds()).isPositive();
    // On two threads the sort is timed on one too: the machine's own speed-up.
    assertThat(r.sortOneThreadSeconds()).isPositive();
    assertThat(r.sortSpeedup()).isEqualTo(r.sortOneThreadSeconds() / r.sortSeconds());
    IdxbuildFloor.Result one = IdxbuildFloor.measure(heap, 10_000, 2 << 20, out, 1);
    assertThat(one.sortOneThreadSeconds()).isEqualTo(one.sortSeconds());
    // The same file, written over: not a new one per measurement.
    assertThat(Files.readAttributes(out, BasicFileAttributes.class).fileKey()).isEqualTo(file);
    assertThat(Files.size(out)).isEqualTo(2 << 20);

    IdxbuildFloor.allocate(out, 4 << 20); // a bigger rebuild's write: grown before it is timed
    assertThat(Files.size(out)).isEqualTo(4 << 20);
  }
}
