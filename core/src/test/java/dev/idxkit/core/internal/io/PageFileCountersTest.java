package dev.idxkit.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The monitoring counters: every page written and every page read, including repeated reads. */
class PageFileCountersTest {
  @TempDir Path dir;

  @Test
  void countsPagesWrittenInMultiPageWritesAndEveryRead() {
    int size = 4096;
    try (PageFile f = PageFile.open(dir.resolve("a"), size, true, false)) {
      assertThat(f.pagesRead()).isZero();
      assertThat(f.pagesWritten()).isZero();
      ByteBuffer three = ByteBuffer.allocateDirect(3 * size);
      for (int n = 0; n < 3; n++) {
        Page p = new Page(BytesStore.wrap(three), (long) n * size, size);
        p.format(PageType.HEAP, n, 0);
        p.seal(1);
      }
      f.write(0, three);
      assertThat(f.pagesWritten()).isEqualTo(3);
      f.read(0);
      f.read(2);
      f.read(2); // verified once, counted twice: the counter is of reads, not of verifications
      assertThat(f.pagesRead()).isEqualTo(3);
      assertThat(f.pagesWritten()).isEqualTo(3);
    }
  }
}
