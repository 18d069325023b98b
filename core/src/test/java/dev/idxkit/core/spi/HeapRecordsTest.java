package dev.idxkit.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Rid;
import dev.idxkit.core.internal.key.KeyLayout;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TypeKind;
import dev.idxkit.core.testing.MemoryPageAccess;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/**
 * The pieces together, as the loader and the rebuilder use them: rows are encoded, stored inline in
 * heap pages or on overflow pages behind a stub, then read back by RID; keys are extracted in place
 * from the page memory (inline) or from the overflow bytes, and equal the encoder's keys.
 */
class HeapRecordsTest {

  @Test
  void rowsThroughHeapPagesAndOverflow() {
    long seed = Seeds.seed();
    try {
      run(Seeds.random(seed));
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(Seeds.reproduce(seed, getClass()) + ": " + e.getMessage(), e);
    }
  }

  private static void run(SplittableRandom rnd) {
    RandomValues values = new RandomValues(rnd);
    List<ColumnType> types =
        List.of(
            ColumnType.of(TypeKind.BIGINT),
            ColumnType.of(TypeKind.TEXT),
            ColumnType.decimal(30, 4),
            ColumnType.of(TypeKind.DOUBLE),
            ColumnType.varbinary(0),
            ColumnType.of(TypeKind.DATE));
    RecordLayout layout = new RecordLayout(types);
    KeyLayout keyLayout =
        KeyLayout.of(
            List.of(
                new KeyLayout.Column(types.get(1), true),
                new KeyLayout.Column(types.get(0), false),
                new KeyLayout.Column(types.get(2), false)));
    int[] keyColumns = {1, 0, 2};
    KeyExtractor extractor = new KeyExtractor(layout, keyLayout, keyColumns);
    KeyEncoder encoder = new KeyEncoder(keyLayout);

    MemoryPageAccess access = new MemoryPageAccess(8192);
    int maxInline = HeapPage.maxInlineLength(access.pageSize());
    Page heap = null;
    TreeMap<Long, Object[]> rows = new TreeMap<>();
    GrowableBytes buf = new GrowableBytes(256);
    for (int i = 0; i < 600; i++) {
      Object[] row = new Object[types.size()];
      for (int c = 0; c < row.length; c++) {
        row[c] = values.value(types.get(c), 0.1);
      }
      if (rnd.nextInt(10) == 0) {
        row[1] = values.longString(maxInline + rnd.nextInt(20_000));
      }
      layout.encode(row, buf);
      byte[] rec = buf.array();
      int len = buf.length();
      boolean overflow = len > maxInline;
      if (overflow) {
        long first = Overflow.write(access, rec, 0, len);
        rec = Overflow.stub(first, len);
        len = rec.length;
      }
      int slot = heap == null ? -1 : HeapPage.insert(heap, rec, 0, len, overflow);
      if (slot < 0) {
        heap = access.allocate(PageType.HEAP);
        HeapPage.init(heap);
        slot = HeapPage.insert(heap, rec, 0, len, overflow);
      }
      rows.put(Rid.of(heap.pageNo(), slot), row);
    }

    GrowableBytes key = new GrowableBytes();
    for (var e : rows.entrySet()) {
      long rid = e.getKey();
      Page page = access.read(Rid.page(rid));
      int slot = Rid.slot(rid);
      BytesStore<?, ?> store;
      long off;
      int len;
      if (HeapPage.isOverflow(page, slot)) {
        byte[] whole = Overflow.readRecord(access, page, slot);
        store = BytesStore.wrap(whole);
        off = 0;
        len = whole.length;
      } else {
        store = page.store(); // read in place, as from a mapped page
        off = page.base() + HeapPage.recordOffset(page, slot);
        len = HeapPage.recordLength(page, slot);
      }
      assertThat(Arrays.deepEquals(layout.decode(store, off, len), e.getValue()))
          .as("row at %s", Rid.toString(rid))
          .isTrue();
      key.reset();
      extractor.extract(store, off, len, key);
      key.appendRid(rid);
      Object[] keyValues = new Object[keyColumns.length];
      for (int k = 0; k < keyColumns.length; k++) {
        keyValues[k] = e.getValue()[keyColumns[k]];
      }
      assertThat(key.toByteArray()).isEqualTo(encoder.encodeEntry(keyValues, rid));
    }
    // Free every overflow chain and heap page: nothing may be left behind.
    List<Long> heapPages = new ArrayList<>();
    for (long rid : rows.keySet()) {
      Page page = access.read(Rid.page(rid));
      int slot = Rid.slot(rid);
      if (HeapPage.isOverflow(page, slot)) {
        Overflow.free(access, Overflow.stubFirstPage(page, slot));
      }
      HeapPage.delete(page, slot);
      if (HeapPage.isEmpty(page)) {
        heapPages.add(page.pageNo());
      }
    }
    heapPages.forEach(access::free);
    assertThat(access.livePages()).isZero();
  }
}
