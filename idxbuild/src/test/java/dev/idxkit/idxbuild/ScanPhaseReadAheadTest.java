package dev.idxkit.idxbuild;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.testing.ForwardingPageAccess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scan's read-ahead: every heap page asked for once, whatever the number of workers. */
class ScanPhaseReadAheadTest {
  @TempDir Path tmp;

  @Test
  void workersAskForEveryHeapPageExactlyOnceAndForNothingElse() throws Exception {
    try (Database db =
        Database.create(
            tmp.resolve("db"),
            Database.DatabaseOptions.defaults().withDurability(Durability.OFF))) {
      db.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(2000));");
      Table t = db.table("t");
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < 24_000; i++) { // about 4,500 heap pages: 18 chunks
          tx.insert(t, new Object[] {(long) i, "v".repeat(1_400) + i});
        }
        tx.commit();
      }
      TableInfo info = db.catalog().table("t");
      try (BulkWrite b = Engine.of(db).beginBulk()) {
        PageRuns heap = b.published().table(info.id()).pages();
        List<long[]> hints = Collections.synchronizedList(new ArrayList<>());
        ScanPhase scan =
            new ScanPhase(
                List.of(info),
                Map.of(info.id(), heap),
                area -> new Recording(b.publishedPages(area), hints),
                List.of(),
                b.pageSize(),
                new Cancel());
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
          Thread th = new Thread(scan::work, "scan-" + w);
          th.setUncaughtExceptionHandler((x, e) -> failed.set(e));
          workers.add(th);
          th.start();
        }
        for (Thread th : workers) {
          th.join();
        }
        assertThat(failed.get()).isNull();

        TreeMap<Long, Integer> asked = new TreeMap<>();
        for (long[] h : hints) {
          for (long p = h[0]; p < h[0] + h[1]; p++) {
            asked.merge(p, 1, Integer::sum);
          }
        }
        TreeMap<Long, Integer> expected = new TreeMap<>();
        int chunks = 0;
        for (int r = 0; r < heap.runCount(); r++) {
          chunks += (int) ((heap.runLength(r) + ScanPhase.CHUNK_PAGES - 1) / ScanPhase.CHUNK_PAGES);
          for (long p = heap.runStart(r); p < heap.runStart(r) + heap.runLength(r); p++) {
            expected.put(p, 1);
          }
        }
        // More chunks than the read-ahead keeps ahead (4 of 2 MiB), so most are asked for by a
        // worker scanning an earlier one.
        assertThat(chunks).isGreaterThan(8);
        assertThat(scan.pagesDone.get()).isEqualTo(expected.size());
        long again = asked.values().stream().filter(n -> n > 1).count();
        long missed = expected.keySet().stream().filter(p -> !asked.containsKey(p)).count();
        long other = asked.keySet().stream().filter(p -> !expected.containsKey(p)).count();
        assertThat(again).as("heap pages asked for more than once").isZero();
        assertThat(missed).as("heap pages never asked for").isZero();
        assertThat(other).as("pages asked for that are not the heap's").isZero();
        assertThat(hints).hasSize(chunks);
      }
    }
  }

  /** Reads through {@code in}, recording each {@link #willRead} hint. */
  private static final class Recording extends ForwardingPageAccess {
    private final List<long[]> hints;

    Recording(PageAccess in, List<long[]> hints) {
      super(in);
      this.hints = hints;
    }

    @Override
    public void willRead(long firstPage, long pages) {
      hints.add(new long[] {firstPage, pages});
      in.willRead(firstPage, pages);
    }
  }
}
