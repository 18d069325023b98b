package dev.idxkit.core.internal.txn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Durability;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.core.testing.Seeds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checkpoints that run beside the commits: the active page index is frozen, the commits move to the
 * other log segment, and a thread of the checkpoint's own writes the frozen pages out (double
 * write, home, meta) while commits go on.
 *
 * <p>The crash tests hold the checkpoint thread inside one of its writes (the file I/O seam blocks
 * it there), commit more transactions into the other segment meanwhile, and take a crash copy of
 * the directory while nothing moves: what a crash at that instant leaves. Recovery from each must
 * give back every committed value: from the two segments over untouched home copies (held in the
 * double write), from the double write's images and the second segment (held in a home write or the
 * meta write).
 */
class BackgroundCheckpointTest {
  static final int PAGE = 4096;

  @TempDir Path tmp;

  /** The database: heap pages of area 0, each holding a value at its body start. */
  private static final class Model {
    final int pages;
    final long[] pageNos;
    final long[] values;

    Model(int pages) {
      this.pages = pages;
      this.pageNos = new long[pages];
      this.values = new long[pages];
    }

    void allocate(Store s) {
      try (StoreTxn t = s.begin(Durability.OFF)) {
        for (int i = 0; i < pages; i++) {
          Page p = t.pages(0).allocate(PageType.HEAP);
          p.putLong(Page.HEADER_SIZE, 0);
          pageNos[i] = p.pageNo();
        }
        t.commit();
      }
    }

    /** One transaction: {@code value} into {@code count} pages from {@code first} on. */
    void commit(Store s, long value, int first, int count) {
      try (StoreTxn t = s.begin(Durability.OFF)) {
        for (int k = 0; k < count; k++) {
          int i = (first + k) % pages;
          Page p = t.pages(0).write(pageNos[i]);
          p.putLong(Page.HEADER_SIZE, value);
          // Some bytes further in too, so records are not all one word.
          p.putLong(Page.HEADER_SIZE + 8 + (int) (value % 400) * 8, value);
          values[i] = value;
        }
        t.commit();
      }
    }

    void assertMatches(Store s, String when) {
      Lock l = s.readLock();
      l.lock();
      try {
        for (int i = 0; i < pages; i++) {
          assertThat(s.committedPages(0).read(pageNos[i]).getLong(Page.HEADER_SIZE))
              .as("page %d, %s", pageNos[i], when)
              .isEqualTo(values[i]);
        }
      } finally {
        l.unlock();
      }
    }
  }

  /**
   * Dirty pages bounded at 1 MiB, 256 pages: a checkpoint beside the commits starts past 128
   * changed pages, and a commit waits for it only past 256 in both indexes.
   */
  static StoreOptions options(FileIo io) {
    return StoreOptions.defaults()
        .withPageSize(PAGE)
        .withDurability(Durability.OFF)
        .withCheckpointBytes(1L << 40)
        .withDirtyPageBytes(256L * PAGE)
        .withFileIo(io);
  }

  @ParameterizedTest(name = "held in {0}")
  @ValueSource(strings = {"the double write", "a home write", "the meta write"})
  void aCrashWhileTheCheckpointBesideTheCommitsWritesRecoversEveryCommit(String where)
      throws Exception {
    HoldingIo io = new HoldingIo();
    Path dir = tmp.resolve("db");
    Model m = new Model(400);
    try (Store s = Store.create(dir, options(io), Map.of(0, "data"), new byte[0]);
        HoldingIo released = io) {
      m.allocate(s);
      s.checkpoint();
      // A hundred pages: under half the bound, no checkpoint yet.
      m.commit(s, 1, 0, 100);
      assertThat(Files.exists(dir.resolve("wal2"))).as("no checkpoint started").isFalse();
      io.holdNextWrite(HoldingIo.filesOf(where));
      // 140 changed pages: this commit starts a checkpoint beside the commits.
      m.commit(s, 2, 100, 40);
      assertThat(io.held.await(30, TimeUnit.SECONDS))
          .as("the checkpoint reached " + where)
          .isTrue();
      // Into the other segment while the checkpoint is held: 80 pages, 220 in both indexes.
      m.commit(s, 3, 200, 40);
      m.commit(s, 4, 20, 40);
      m.assertMatches(s, "while the checkpoint is held in " + where);
      Path crash = CrashCopy.of(dir, tmp.resolve("crash"));
      assertThat(Files.exists(crash.resolve("wal2")))
          .as("commits went to the second segment")
          .isTrue();
      io.release();
      // Read-only first: both segments and the double write replayed in memory, nothing written.
      try (Store copy = Store.open(crash, options(FileIo.DEFAULT).withReadOnly(true))) {
        m.assertMatches(copy, "opened read-only after a crash held in " + where);
      }
      assertThat(Files.exists(crash.resolve("wal2"))).as("read-only leaves the segments").isTrue();
      try (Store copy = Store.open(crash, options(FileIo.DEFAULT))) {
        m.assertMatches(copy, "recovered from a crash held in " + where);
      }
      assertThat(doubleWrites(crash))
          .as("the recovery checkpoint removed the double write")
          .isEmpty();
      m.commit(s, 5, 300, 60);
      m.assertMatches(s, "after the checkpoint went on");
    }
    try (Store again = Store.open(dir, options(FileIo.DEFAULT))) {
      m.assertMatches(again, "reopened after close");
    }
    assertThat(Files.exists(dir.resolve("wal2"))).as("close leaves one segment").isFalse();
  }

  /**
   * A reader thread checks, over and over, that every page holds the value of the same transaction
   * (each transaction writes its number into all of them) and that the number never goes back,
   * while the writer commits through many checkpoints beside it.
   */
  @Test
  void readersSeeEveryCommitWholeWhileCheckpointsRunBesideTheCommits() throws Exception {
    long seed = Seeds.seed();
    String why = Seeds.reproduce(seed, getClass());
    SplittableRandom r = Seeds.random(seed);
    Path dir = tmp.resolve("db");
    // Every transaction writes all 200 pages: each commit starts a checkpoint beside it, or waits
    // for the one running (200 + 200 pages are past the bound).
    Model m = new Model(200);
    AtomicReference<String> problem = new AtomicReference<>();
    try (Store s = Store.create(dir, options(FileIo.DEFAULT), Map.of(0, "data"), new byte[0])) {
      m.allocate(s);
      CountDownLatch stop = new CountDownLatch(1);
      Thread reader =
          new Thread(
              () -> {
                long seen = 0;
                while (stop.getCount() > 0 && problem.get() == null) {
                  Lock l = s.readLock();
                  l.lock();
                  try {
                    long v = s.committedPages(0).read(m.pageNos[0]).getLong(Page.HEADER_SIZE);
                    for (int i = 1; i < m.pages; i++) {
                      long w = s.committedPages(0).read(m.pageNos[i]).getLong(Page.HEADER_SIZE);
                      if (w != v) {
                        problem.set("page " + i + " holds " + w + ", page 0 holds " + v);
                      }
                    }
                    if (v < seen) {
                      problem.set("went back from " + seen + " to " + v);
                    }
                    seen = v;
                  } finally {
                    l.unlock();
                  }
                }
              },
              "test-reader");
      reader.start();
      try {
        for (long v = 1; v <= 80 && problem.get() == null; v++) {
          m.commit(s, v, 0, m.pages);
          if (r.nextInt(50) == 0) {
            s.checkpoint();
          }
        }
      } finally {
        stop.countDown();
        reader.join();
      }
      assertThat(problem.get()).as(why).isNull();
      m.assertMatches(s, "after the commits, " + why);
    }
    try (Store again = Store.open(dir, options(FileIo.DEFAULT))) {
      m.assertMatches(again, "reopened, " + why);
    }
  }

  /**
   * A checkpoint beside the commits that fails (its home write refused) leaves its pages to the
   * next one; everything committed stays readable, before and after a reopen.
   */
  @Test
  void aFailedCheckpointBesideTheCommitsLeavesItsPagesToTheNextOne() throws Exception {
    HoldingIo io = new HoldingIo();
    Path dir = tmp.resolve("db");
    Model m = new Model(400);
    try (Store s = Store.create(dir, options(io), Map.of(0, "data"), new byte[0])) {
      m.allocate(s);
      s.checkpoint();
      io.failNextWrite(p -> p.getFileName().toString().equals("data.area"));
      m.commit(s, 1, 0, 140);
      assertThat(io.failed.await(30, TimeUnit.SECONDS)).isTrue();
      m.commit(s, 2, 200, 20);
      m.assertMatches(s, "after the failed checkpoint");
      // Waits for the failed one, takes its pages back, and writes them with the rest.
      s.checkpoint();
      assertThat(s.lastCheckpoint().pages()).as("the failed checkpoint's pages too").isEqualTo(160);
      m.assertMatches(s, "after the checkpoint that followed");
      Path crash = CrashCopy.of(dir, tmp.resolve("crash"));
      try (Store copy = Store.open(crash, options(FileIo.DEFAULT))) {
        m.assertMatches(copy, "recovered");
      }
    }
    try (Store again = Store.open(dir, options(FileIo.DEFAULT))) {
      m.assertMatches(again, "reopened");
    }
  }

  private static List<Path> doubleWrites(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith("dwb.")).toList();
    }
  }
}
