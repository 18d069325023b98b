package dev.idxkit.core.internal.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idxkit.core.Durability;
import dev.idxkit.core.internal.io.Madvise;
import dev.idxkit.core.internal.io.RecordingKernel;
import dev.idxkit.core.internal.io.WriteBehind;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A checkpoint large enough for write-behind to start several times writes every page home; so does
 * one whose write-behind the kernel refuses, and says why.
 */
class CheckpointTest {
  private static final int PAGE_SIZE = 4096;

  @TempDir Path tmp;

  @Test
  void aCheckpointWithWriteBehindWritesEveryPageHome() {
    assumeTrue(
        Madvise.unavailable() == null
            && System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux"),
        "sync_file_range is Linux's");
    Path dir = tmp.resolve("db");
    long[] pageNos = new long[(int) (3 * WriteBehind.STEP / PAGE_SIZE + 17)];
    try (Store s = Store.create(dir, options(), Map.of(0, "data"), new byte[0])) {
      fill(s, pageNos, 0);
      s.checkpoint();
      CheckpointStats c = s.lastCheckpoint();
      assertThat(c.pages()).isEqualTo(pageNos.length);
      assertThat(c.writeBehindProblem()).isNull();
      // Over 48 MiB of one file in writes of at most 1 MiB: each request covers at least 16 MiB
      // and less than 17, so at least two were made (three when the pages are consecutive).
      assertThat(c.writeBehindRequests()).isGreaterThanOrEqualTo(2);
      assertThat(c.writeNanos()).isPositive().isLessThanOrEqualTo(c.flushNanos());
    }
    assertPagesHome(dir, pageNos, 0);
  }

  /**
   * Write-behind is speed only: when the kernel refuses it (the call does not exist here, its
   * native binding is missing, or the kernel turns the request down), the checkpoint still writes
   * every page home and fsyncs, the stats say why it ran without, every descriptor it opened is
   * closed, and the next checkpoint tries again.
   */
  @ParameterizedTest(name = "refused at {0}")
  @ValueSource(strings = {"open", "start", "link"})
  void aCheckpointWhoseWriteBehindIsRefusedStillWritesEveryPageHome(String refusedAt) {
    boolean unlinked = refusedAt.equals("link");
    boolean atOpen = unlinked || refusedAt.equals("open");
    RecordingKernel kernel = new RecordingKernel(atOpen, !atOpen, unlinked);
    Path dir = tmp.resolve("db");
    // Past one step, so that a kernel which opens the file is asked to start writing.
    long[] pageNos = new long[(int) (WriteBehind.STEP / PAGE_SIZE + 17)];
    try (Store s =
        Store.create(dir, options().withWriteBehind(kernel), Map.of(0, "data"), new byte[0])) {
      long emptyLog = s.walBytes();
      fill(s, pageNos, 0);
      for (int round = 1; round <= 2; round++) {
        fill(s, pageNos, round);
        s.checkpoint();
        CheckpointStats c = s.lastCheckpoint();
        assertThat(c.pages()).as("round %d", round).isEqualTo(pageNos.length);
        assertThat(c.writeBehindProblem())
            .as("round %d", round)
            .isEqualTo(
                unlinked
                    ? RecordingKernel.UNLINKED
                    : atOpen ? RecordingKernel.OPEN_REFUSED : RecordingKernel.START_REFUSED);
        assertThat(c.writeBehindRequests()).as("round %d", round).isEqualTo(atOpen ? 0 : 1);
        assertThat(s.walBytes()).as("the log was reset").isEqualTo(emptyLog);
      }
    }
    if (atOpen) {
      assertThat(kernel.calls).isEmpty();
    } else {
      // In each round the log (past 16 MiB before the checkpoint) and the checkpoint's area file
      // were each opened once and refused once, and each closed what it opened (the log's at the
      // reset).
      assertThat(kernel.calls).hasSize(12).filteredOn(call -> call.startsWith("start ")).hasSize(4);
      assertThat(kernel.calls).filteredOn(call -> call.matches("open .*/wal \\d+")).hasSize(2);
      assertThat(kernel.calls.stream().filter(call -> call.startsWith("open ")).count())
          .isEqualTo(kernel.calls.stream().filter(call -> call.startsWith("close ")).count());
    }
    assertPagesHome(dir, pageNos, 2);
  }

  private static StoreOptions options() {
    return StoreOptions.defaults()
        .withPageSize(PAGE_SIZE)
        .withCheckpointBytes(1L << 40)
        .withDirtyPageBytes(1L << 40);
  }

  /**
   * Writes {@code value(round, i)} into page {@code pageNos[i]}: allocates the pages in round 0,
   * changes the same pages in later rounds.
   */
  private static void fill(Store s, long[] pageNos, int round) {
    for (int done = 0; done < pageNos.length; ) {
      try (StoreTxn t = s.begin(Durability.OFF)) {
        for (int i = 0; i < 1024 && done < pageNos.length; i++, done++) {
          Page p =
              round == 0 ? t.pages(0).allocate(PageType.HEAP) : t.pages(0).write(pageNos[done]);
          p.putLong(Page.HEADER_SIZE, value(round, done));
          // Every word changed each round, so each page's record is its whole image and the log
          // passes a write-behind step before the checkpoint.
          for (int off = Page.HEADER_SIZE + 8; off < p.size(); off += 8) {
            p.putLong(off, value(round, done) * 31 + off);
          }
          pageNos[done] = p.pageNo();
        }
        t.commit();
      }
    }
  }

  private static long value(int round, int i) {
    return i * 31L + round * 1_000_003L;
  }

  /** Reopened, the pages come from the area file alone: the checkpoint reset the log. */
  private static void assertPagesHome(Path dir, long[] pageNos, int round) {
    try (Store s = Store.open(dir, StoreOptions.defaults())) {
      Lock l = s.readLock();
      l.lock();
      try {
        for (int i = 0; i < pageNos.length; i++) {
          assertThat(s.committedPages(0).read(pageNos[i]).getLong(Page.HEADER_SIZE))
              .as("page %d", pageNos[i])
              .isEqualTo(value(round, i));
        }
      } finally {
        l.unlock();
      }
    }
  }
}
