package dev.idxkit.jmh.key;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Catalog;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyBenchTest {
  /** Key lengths: markers plus value bytes; the wide key's strings vary. */
  @ParameterizedTest
  @CsvSource({
    "lineitem_pk, 14, 14",
    "lineitem_part_supp_ix, 18, 18",
    "lineitem_shipdate_ix, 5, 5",
    // marker + mode (3..7) + terminator 2; marker + date 4; marker + comment (10..43) + 2
    LineitemRows.WIDE_INDEX + ", 24, 61"
  })
  void kernelsEncodeKeysOfTheIndexShape(String index, int minLength, int maxLength) {
    KeyEncodeBench enc = new KeyEncodeBench();
    enc.index = index;
    enc.setup();
    KeyExtractBench ext = new KeyExtractBench();
    ext.index = index;
    ext.setup();
    try {
      for (int i = 0; i < 2 * KeyEncodeBench.ROWS; i++) {
        assertThat(enc.encodeInto()).isBetween(minLength, maxLength);
        assertThat(enc.encodeToArray()).hasSizeBetween(minLength, maxLength);
        int extracted = ext.extract();
        assertThat(extracted).isBetween(minLength, maxLength);
        byte[] key = ext.scratchKey.toByteArray();
        ext.next--; // the naive route on the same record gives a key of the same length
        assertThat(ext.decodeThenEncode()).isEqualTo(extracted);
        if (!index.equals(LineitemRows.WIDE_INDEX)) {
          // The scan's two in-place routes on the same record: the same key's bytes.
          ext.next--;
          assertThat(ext.scanThroughStore()).isEqualTo(extracted);
          assertThat(Arrays.copyOf(ext.inPlace, extracted)).isEqualTo(key);
          Arrays.fill(ext.inPlace, (byte) 0);
          ext.next--;
          assertThat(ext.scanAtAddress()).isEqualTo(extracted);
          assertThat(Arrays.copyOf(ext.inPlace, extracted)).isEqualTo(key);
        }
      }
    } finally {
      ext.tearDown();
    }
    assertThat(ext.records).isNull();
  }

  @ParameterizedTest
  @CsvSource({"1", "2"})
  void rowsAreTheSameForTheSameSeedAndFitTheTable(long seed) {
    Catalog cat = LineitemRows.catalog();
    var table = cat.table("lineitem");
    Object[][] a = LineitemRows.rows(table.def(), 500, seed);
    Object[][] b = LineitemRows.rows(table.def(), 500, seed);
    assertThat(a).isDeepEqualTo(b);
    for (Object[] row : a) {
      // Encodes without complaint and decodes to the same values.
      byte[] rec = table.layout().encode(row);
      assertThat(
              table
                  .layout()
                  .decode(net.openhft.chronicle.bytes.BytesStore.wrap(rec), 0, rec.length))
          .isEqualTo(row);
    }
  }
}
