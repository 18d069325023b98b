package dev.idxkit.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PageFileTest {
  @TempDir Path dir;

  private static ByteBuffer page(int size, long pageNo, long marker) {
    ByteBuffer b = ByteBuffer.allocateDirect(size);
    Page p = new Page(BytesStore.wrap(b), 0, size);
    p.format(PageType.HEAP, pageNo, 0);
    p.putLong(Page.HEADER_SIZE, marker);
    p.seal(7);
    return b;
  }

  @Test
  void writtenPagesReadBackThroughTheMapping() {
    try (PageFile f = PageFile.open(dir.resolve("a"), 4096, true, false)) {
      for (long n = 0; n < 100; n++) {
        f.write(n, page(4096, n, n * 31));
      }
      for (long n = 0; n < 100; n++) {
        Page p = f.read(n);
        assertThat(p.pageNo()).isEqualTo(n);
        assertThat(p.getLong(Page.HEADER_SIZE)).isEqualTo(n * 31);
        assertThat(p.lsn()).isEqualTo(7);
      }
      assertThat(f.sizeInPages()).isEqualTo(100);
    }
  }

  @Test
  void badChecksumNamesFilePageAndBothChecksums() throws Exception {
    Path file = dir.resolve("a");
    try (PageFile f = PageFile.open(file, 8192, true, false)) {
      f.write(0, page(8192, 0, 1));
      f.write(1, page(8192, 1, 2));
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(8192 + 100);
      int b = raf.read();
      raf.seek(8192 + 100);
      raf.write(b ^ 0x10);
    }
    try (PageFile f = PageFile.open(file, 8192, false, true)) {
      assertThat(f.read(0).getLong(Page.HEADER_SIZE)).isEqualTo(1);
      assertThatThrownBy(() -> f.read(1))
          .isInstanceOf(CorruptPageException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("page 1")
          .hasMessageMatching("(?s).*expected: 0x[0-9a-f]{8}, actual: 0x[0-9a-f]{8}.*");
    }
  }

  @Test
  void misdirectedPageIsCorruptAfterReopen() {
    try (PageFile f = PageFile.open(dir.resolve("a"), 4096, true, false)) {
      f.write(3, page(4096, 5, 0));
    }
    try (PageFile f = PageFile.open(dir.resolve("a"), 4096, false, true)) {
      assertThatThrownBy(() -> f.read(3)).hasMessageContaining("header names page 5");
    }
  }

  @Test
  void readPastEndOfFileIsAnErrorNotACrash() {
    try (PageFile f = PageFile.open(dir.resolve("a"), 4096, true, false)) {
      f.write(0, page(4096, 0, 0));
      assertThatThrownBy(() -> f.read(1))
          .isInstanceOf(CorruptPageException.class)
          .hasMessageContaining("beyond the end of the file");
    }
  }

  @Test
  void sparseFileBeyondTwoGigabytes() throws Exception {
    Path file = dir.resolve("big");
    int size = 65536;
    long far = (5L << 30) / size; // page at 5 GiB
    try (PageFile f = PageFile.open(file, size, true, false)) {
      f.write(0, page(size, 0, 11));
      f.write(far, page(size, far, 42));
      f.write(far - 1, page(size, far - 1, 41));
      assertThat(file.toFile().length()).isGreaterThan(5L << 30);
      assertThat(f.read(far).getLong(Page.HEADER_SIZE)).isEqualTo(42);
      assertThat(f.read(far - 1).getLong(Page.HEADER_SIZE)).isEqualTo(41);
    }
    try (PageFile f = PageFile.open(file, size, false, true)) {
      assertThat(f.read(far).getLong(Page.HEADER_SIZE)).isEqualTo(42);
      assertThat(f.read(0).getLong(Page.HEADER_SIZE)).isEqualTo(11);
      // A hole reads as zeros, which never pass a checksum.
      assertThatThrownBy(() -> f.read(far / 2)).isInstanceOf(CorruptPageException.class);
    }
  }
}
