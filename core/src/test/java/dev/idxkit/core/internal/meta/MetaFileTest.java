package dev.idxkit.core.internal.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.TableState;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetaFileTest {
  @TempDir Path dir;

  private static byte[] payload(long gen) {
    MetaState.Builder b = MetaState.builder(new UUID(1, 2), 8192).generation(gen);
    b.area(0, "data").hwm(0, 10 + gen);
    b.table(3, new TableState(PageRuns.EMPTY.addRun(5, 4), gen * 100));
    b.index(4, new IndexState(9, IndexStatus.ACTIVE));
    b.resume("load:t", new byte[] {1, 2, 3});
    FreeList f = new FreeList();
    f.addRun(2, 3);
    return MetaCodec.encode(b.build(), List.of(f));
  }

  private static MetaState decode(MetaFile f) {
    return MetaCodec.decode(f.readCurrent()).state();
  }

  @Test
  void newestValidGenerationWins() {
    Path p = dir.resolve("meta");
    try (MetaFile f = MetaFile.create(p, 1, payload(1))) {
      f.write(2, payload(2));
      f.write(3, payload(3));
    }
    try (MetaFile f = MetaFile.open(p, true)) {
      assertThat(f.generation()).isEqualTo(3);
      MetaState s = decode(f);
      assertThat(s.table(3).rows()).isEqualTo(300);
      assertThat(s.hwm(0)).isEqualTo(13);
      assertThat(s.resumePoint("load:t")).containsExactly(1, 2, 3);
      assertThat(MetaCodec.decode(f.readCurrent()).free().get(0).pageCount()).isEqualTo(3);
    }
  }

  @Test
  void zeroedCurrentSlotFallsBackToTheOther() throws Exception {
    Path p = dir.resolve("meta");
    int slot;
    try (MetaFile f = MetaFile.create(p, 1, payload(1))) {
      f.write(2, payload(2));
      slot = f.currentSlot();
    }
    try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
      raf.seek((long) slot * MetaFile.SLOT_STRIDE);
      raf.write(new byte[MetaFile.ANCHOR_SIZE]);
    }
    try (MetaFile f = MetaFile.open(p, false)) {
      assertThat(f.generation()).isEqualTo(1);
      assertThat(decode(f).table(3).rows()).isEqualTo(100);
      assertThat(f.otherSlotProblem()).isEqualTo("bad magic");
      // The next write replaces the damaged slot, never the good one.
      f.write(2, payload(2));
    }
    try (MetaFile f = MetaFile.open(p, true)) {
      assertThat(f.generation()).isEqualTo(2);
    }
  }

  @Test
  void garbageInThePayloadOfTheCurrentSlotFallsBack() throws Exception {
    Path p = dir.resolve("meta");
    try (MetaFile f = MetaFile.create(p, 1, payload(1))) {
      f.write(2, payload(2));
    }
    // Generation 2 went to slot 0 with its payload after generation 1's: damage its payload.
    long len = p.toFile().length();
    try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
      raf.seek(len - 5);
      raf.write(new byte[] {9, 9, 9, 9});
    }
    try (MetaFile f = MetaFile.open(p, true)) {
      assertThat(f.generation()).isEqualTo(1);
      assertThat(f.otherSlotProblem()).contains("payload checksum mismatch");
    }
  }

  @Test
  void bothSlotsBadIsAClearError() throws Exception {
    Path p = dir.resolve("meta");
    MetaFile.create(p, 1, payload(1)).close();
    try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
      raf.seek(0);
      raf.write(new byte[1024]);
    }
    assertThatThrownBy(() -> MetaFile.open(p, true))
        .isInstanceOf(CorruptDatabaseException.class)
        .hasMessageContaining("no valid meta slot")
        .hasMessageContaining(p.toString());
  }

  @Test
  void truncatedPayloadDecodesToAMessageNotAnException() {
    byte[] full = payload(1);
    for (int cut = 0; cut < full.length; cut++) {
      byte[] part = java.util.Arrays.copyOf(full, cut);
      assertThatThrownBy(() -> MetaCodec.decode(part)).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
