package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.HeapAppender;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.Overflow;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.core.testing.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapAppenderTest {
  @TempDir Path tmp;

  @Test
  void appendedRowsArePublishedInBatchesAndReadBack() throws IOException {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    Path dir = tmp.resolve("db");
    Map<Long, Object[]> published = new HashMap<>();
    try (Database db = Database.create(dir)) {
      db.execute("CREATE TABLE t (id BIGINT NOT NULL, note TEXT)");
      Catalog.TableInfo t = db.catalog().table("t");
      try (BulkWrite bulk = Engine.of(db).beginBulk();
          HeapAppender out = new HeapAppender(bulk, t)) {
        Map<Long, Object[]> pending = new HashMap<>();
        for (int batch = 0; batch < 5; batch++) {
          for (int i = 0; i < 3000; i++) {
            long id = batch * 10_000L + i;
            String note = r.nextInt(100) == 0 ? "big".repeat(5000 + r.nextInt(5000)) : "n" + id;
            Object[] row = {id, note};
            pending.put(out.append(row), row);
          }
          out.flush();
          bulk.publish();
          published.putAll(pending);
          pending.clear();
          if (batch == 2) {
            CrashCopy.of(dir, tmp.resolve("crash"));
          }
        }
        // Appended but never published: lost, as a crash would lose it.
        out.append(new Object[] {-1L, "unpublished"});
      }
      db.bulkPublished();
      Table table = db.table("t");
      assertThat(table.rowCount()).isEqualTo(15_000);
      for (var e : published.entrySet()) {
        assertThat(table.get(e.getKey()).values()).isEqualTo(e.getValue());
      }
      List<Object> ids = new ArrayList<>();
      try (RowCursor c = table.scan()) {
        c.forEachRemaining(row -> ids.add(row.values()[0]));
      }
      assertThat(ids).hasSize(15_000).doesNotContain(-1L);
      assertThat(db.check().problems()).as(Seeds.reproduce(seed, getClass())).isEmpty();
      // Ordinary inserts go on after a bulk load.
      table.insert(99L, "after");
      assertThat(table.rowCount()).isEqualTo(15_001);
      assertThat(db.check().problems()).isEmpty();
    }
    try (Database db = Database.open(tmp.resolve("crash"))) {
      assertThat(db.table("t").rowCount()).isEqualTo(9000);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  /**
   * The appender's pages hold exactly the bytes {@link HeapPage#insert} gives the same records in
   * RID order on a fresh page, and overflowed records read back whole: its append-only fast path is
   * the page format, not a variant of it.
   */
  @Test
  void pagesAreThoseHeapPageInsertWouldWrite() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    try (Database db = Database.create(tmp.resolve("pages"))) {
      db.execute("CREATE TABLE t (id BIGINT NOT NULL, note TEXT)");
      Catalog.TableInfo t = db.catalog().table("t");
      int pageSize = db.stats().pageSize();
      int maxInline = HeapPage.maxInlineLength(pageSize);
      Map<Long, byte[]> byRid = new TreeMap<>(Long::compareUnsigned);
      try (BulkWrite bulk = Engine.of(db).beginBulk()) {
        try (HeapAppender out = new HeapAppender(bulk, t)) {
          for (int i = 0; i < 20_000; i++) {
            int len =
                switch (r.nextInt(20)) {
                  case 0 -> maxInline + 1 + r.nextInt(3 * pageSize); // overflows
                  case 1 -> maxInline - r.nextInt(3); // fills a quarter page
                  default -> 1 + r.nextInt(200);
                };
            byte[] rec = new byte[len];
            r.nextBytes(rec);
            int pad = r.nextInt(4);
            byte[] padded = new byte[len + 2 * pad];
            System.arraycopy(rec, 0, padded, pad, len);
            byRid.put(out.appendRecord(padded, pad, len), rec);
            if (r.nextInt(5000) == 0) {
              out.flush(); // a fresh page after a flush
            }
          }
        }
        bulk.publish();
        PageAccess pages = bulk.publishedPages(t.area());
        Map<Long, Page> expected = new TreeMap<>();
        for (Map.Entry<Long, byte[]> e : byRid.entrySet()) {
          long pageNo = Rid.page(e.getKey());
          Page want =
              expected.computeIfAbsent(
                  pageNo,
                  no -> {
                    Page p = new Page(BytesStore.wrap(new byte[pageSize]), 0, pageSize);
                    p.format(PageType.HEAP, no, t.area());
                    HeapPage.init(p);
                    return p;
                  });
          Page got = pages.read(pageNo);
          int slot = Rid.slot(e.getKey());
          byte[] rec = e.getValue();
          if (rec.length > maxInline) {
            assertThat(HeapPage.isOverflow(got, slot))
                .as(Seeds.reproduce(seed, getClass()))
                .isTrue();
            assertThat(Overflow.readRecord(pages, got, slot)).isEqualTo(rec);
            rec =
                HeapPage.read(
                    got, slot); // the stub, whose first page the expected page cannot know
            assertThat(HeapPage.insert(want, rec, 0, rec.length, true)).isEqualTo(slot);
          } else {
            assertThat(HeapPage.insert(want, rec, 0, rec.length)).isEqualTo(slot);
          }
        }
        for (Map.Entry<Long, Page> e : expected.entrySet()) {
          Page got = pages.read(e.getKey());
          // Everything but the checksum and the lsn, which the write stamps.
          assertThat(got.getBytes(Page.HEADER_SIZE, pageSize - Page.HEADER_SIZE))
              .as("page %d, %s", e.getKey(), Seeds.reproduce(seed, getClass()))
              .isEqualTo(e.getValue().getBytes(Page.HEADER_SIZE, pageSize - Page.HEADER_SIZE));
          assertThat(got.getBytes(4, 12)).isEqualTo(e.getValue().getBytes(4, 12));
        }
      }
      db.bulkPublished(); // (the records are random bytes, not rows: no check of the table)
    }
  }
}
