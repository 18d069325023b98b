package dev.idxkit.core.internal.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idxkit.core.Durability;
import dev.idxkit.core.internal.io.Madvise;
import dev.idxkit.core.internal.io.WriteBehind;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint large enough for write-behind to start several times writes every page home. */
class CheckpointTest {
  @TempDir Path tmp;

  @Test
  void aCheckpointWithWriteBehindWritesEveryPageHome() {
    assumeTrue(
        Madvise.unavailable() == null
            && System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux"),
        "sync_file_range is Linux's");
    Path dir = tmp.resolve("db");
    int pageSize = 4096;
    long pages = 3 * WriteBehind.STEP / pageSize + 17;
    StoreOptions opts =
        StoreOptions.defaults()
            .withPageSize(pageSize)
            .withCheckpointBytes(1L << 40)
            .withDirtyPageBytes(1L << 40);
    long[] pageNos = new long[(int) pages];
    try (Store s = Store.create(dir, opts, Map.of(0, "data"), new byte[0])) {
      for (int done = 0; done < pages; ) {
        try (StoreTxn t = s.begin(Durability.OFF)) {
          for (int i = 0; i < 1024 && done < pages; i++, done++) {
            Page p = t.pages(0).allocate(PageType.HEAP);
            p.putLong(Page.HEADER_SIZE, done * 31L);
            pageNos[done] = p.pageNo();
          }
          t.commit();
        }
      }
      s.checkpoint();
      CheckpointStats c = s.lastCheckpoint();
      assertThat(c.pages()).isEqualTo(pages);
      assertThat(c.writeBehindProblem()).isNull();
      // Over 48 MiB of one file in writes of at most 1 MiB: each request covers at least 16 MiB
      // and less than 17, so at least two were made (three when the pages are consecutive).
      assertThat(c.writeBehindRequests()).isGreaterThanOrEqualTo(2);
      assertThat(c.writeNanos()).isPositive().isLessThanOrEqualTo(c.flushNanos());
    }
    // Reopened, the pages come from the area file alone: the checkpoint reset the log.
    try (Store s = Store.open(dir, StoreOptions.defaults())) {
      Lock l = s.readLock();
      l.lock();
      try {
        for (int i = 0; i < pages; i++) {
          assertThat(s.committedPages(0).read(pageNos[i]).getLong(Page.HEADER_SIZE))
              .as("page %d", pageNos[i])
              .isEqualTo(i * 31L);
        }
      } finally {
        l.unlock();
      }
    }
  }
}
