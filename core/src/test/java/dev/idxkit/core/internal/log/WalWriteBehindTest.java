package dev.idxkit.core.internal.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.idxkit.core.internal.io.Madvise;
import dev.idxkit.core.internal.io.PageBuffer;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log asks the kernel to start writing it out every 16 MiB appended (so a checkpoint's fsync of
 * the log waits for the tail only), forgets those requests at a reset, and reads back the same.
 */
class WalWriteBehindTest {
  @TempDir Path dir;

  @Test
  void everySixteenMibAppendedStartsWritebackAndAResetStartsAgain() throws Exception {
    assumeThat(Madvise.unavailable()).as("why sync_file_range cannot be called here").isNull();
    assumeThat(System.getProperty("os.name", "").toLowerCase(Locale.ROOT))
        .as("sync_file_range is Linux's")
        .contains("linux");
    int pageSize = 8192;
    List<Page> pages = new ArrayList<>();
    List<Page> bases = new ArrayList<>();
    for (int i = 0; i < 128; i++) {
      Page p = new PageBuffer(pageSize).page;
      p.format(PageType.LEAF, i + 1, 0);
      // Formatted by the transaction (a FRESH record), and no word left zero: logged whole.
      for (int off = Page.HEADER_SIZE; off < pageSize; off += 8) {
        p.putLong(off, 0x5DEECE66DL * (off + 1) * (i + 1) | 1);
      }
      pages.add(p);
      bases.add(null);
    }
    try (Wal wal = Wal.open(dir.resolve("wal"), pageSize, false)) {
      wal.reset();
      long lsn = 0;
      // 40 transactions of 128 whole pages: about 41 MiB, two steps of 16 MiB passed.
      for (int t = 0; t < 40; t++) {
        lsn++;
        for (Page p : pages) {
          p.setLsn(lsn);
        }
        wal.append(
            lsn, pages, bases, java.util.Collections.nCopies(pages.size(), null), new byte[0]);
      }
      assertThat(wal.size()).isGreaterThan(40L << 20);
      assertThat(wal.writeBehindRequests()).isEqualTo(2);
      wal.reset();
      assertThat(wal.writeBehindRequests()).isZero();
      assertThat(Files.size(dir.resolve("wal"))).isEqualTo(WalFormat.HEADER_SIZE);
    }
    try (Wal again = Wal.open(dir.resolve("wal"), pageSize, true)) {
      assertThat(again.size()).isEqualTo(WalFormat.HEADER_SIZE);
    }
  }
}
