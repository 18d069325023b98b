package dev.idxkit.idxbuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.testing.ForwardingPageAccess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scan lists a page's records from native memory when the page is there (a mapped area file,
 * every page a rebuild reads today) and through the page's accessors otherwise: both ways find the
 * same rows, and a slot array past the page's end is refused, naming the page.
 */
class ScanPhaseArrayPagesTest {
  @TempDir Path tmp;

  @Test
  void pagesInArraysAndInNativeMemoryAreListedAlike() throws Exception {
    try (Database db = table(4_000)) {
      TableInfo info = db.catalog().table("t");
      try (BulkWrite b = Engine.of(db).beginBulk()) {
        PageRuns heap = b.published().table(info.id()).pages();
        AtomicLong copied = new AtomicLong();
        ScanPhase scan = scan(info, heap, b, p -> p % 2 == 1, copied, null);
        scan.work();
        assertThat(scan.rows.get()).isEqualTo(4_000);
        assertThat(copied.get()).as("pages read from arrays").isGreaterThan(10);
        assertThat(scan.pagesDone.get()).isGreaterThan(2 * copied.get() - 2);
      }
    }
  }

  @Test
  void aSlotArrayPastThePageIsRefusedWhereverThePageIs() throws Exception {
    try (Database db = table(400)) {
      TableInfo info = db.catalog().table("t");
      for (boolean inArray : new boolean[] {false, true}) {
        try (BulkWrite b = Engine.of(db).beginBulk()) {
          PageRuns heap = b.published().table(info.id()).pages();
          List<BytesStore<?, ?>> natives = new ArrayList<>();
          ScanPhase scan = scan(info, heap, b, p -> inArray, new AtomicLong(), natives);
          try {
            assertThatThrownBy(scan::work)
                .as("page in an array: %s", inArray)
                .isInstanceOf(CorruptPageException.class)
                .hasMessageContaining("corrupt page " + heap.runStart(0) + " in ")
                .hasMessageContaining("data.area: ")
                .hasMessageContaining("60000 slots end at byte 240040, past the page's");
            assertThat(natives).hasSize(inArray ? 0 : 1);
          } finally {
            natives.forEach(BytesStore::releaseLast);
          }
        }
      }
    }
  }

  private Database table(int rows) {
    Database db =
        Database.create(
            tmp.resolve("db" + rows),
            Database.DatabaseOptions.defaults().withDurability(Durability.OFF));
    db.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(200));");
    Table t = db.table("t");
    try (Transaction tx = db.begin()) {
      for (int i = 0; i < rows; i++) {
        tx.insert(t, new Object[] {(long) i, "v".repeat(i % 150) + i});
      }
      tx.commit();
    }
    return db;
  }

  /**
   * A one-worker scan of {@code info}'s heap with no index selected: the pages {@code inArray}
   * picks are read as copies in a byte array; with {@code natives} (null: none), the heap's first
   * page has a slot count past its end, and when not in an array is a copy in native memory added
   * to {@code natives}.
   */
  private static ScanPhase scan(
      TableInfo info,
      PageRuns heap,
      BulkWrite b,
      LongPredicate inArray,
      AtomicLong copied,
      List<BytesStore<?, ?>> natives) {
    boolean badFirst = natives != null;
    long first = heap.runStart(0);
    return new ScanPhase(
        List.of(info),
        Map.of(info.id(), heap),
        area ->
            new ForwardingPageAccess(b.publishedPages(area)) {
              @Override
              public Page read(long pageNo) {
                Page p = in.read(pageNo);
                if (!inArray.test(pageNo) && !(badFirst && pageNo == first)) {
                  return p;
                }
                Page copy = new Page(BytesStore.wrap(p.getBytes(0, p.size())), 0, p.size());
                if (badFirst && pageNo == first) {
                  copy.putU16(24, 60_000); // the slot count (HeapPage's header)
                  if (!inArray.test(pageNo)) {
                    BytesStore<?, ?> store = inNativeMemory(copy);
                    natives.add(store);
                    return new Page(store, 0, copy.size());
                  }
                }
                copied.incrementAndGet();
                return copy;
              }
            },
        List.of(),
        b.pageSize(),
        new Cancel());
  }

  /** A copy of {@code p} in native memory, as a mapped page is; the caller releases it. */
  private static BytesStore<?, ?> inNativeMemory(Page p) {
    BytesStore<?, ?> store = BytesStore.nativeStoreWithFixedCapacity(p.size());
    store.write(0, p.getBytes(0, p.size()), 0, p.size());
    assertThat(store.isDirectMemory()).isTrue();
    assertThat(HeapPage.slotCount(p)).isEqualTo(60_000);
    return store;
  }
}
