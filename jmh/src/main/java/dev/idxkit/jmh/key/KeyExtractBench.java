package dev.idxkit.jmh.key;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.KeyEncoder;
import dev.idxkit.core.spi.KeyExtractor;
import dev.idxkit.core.spi.RecordLayout;
import dev.idxkit.jmh.BenchmarkBase;
import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link KeyExtractor#extract}: an index key straight from lineitem record bytes, the rebuilder's
 * scan kernel; ops/s = keys/s. Beside it, {@code decodeThenEncode} does the same job the naive way
 * (decode the record into Java values, pick the key columns, {@link KeyEncoder#encode}), which is
 * what the extractor exists to avoid.
 *
 * <p>Records: {@value #ROWS} rows of {@link LineitemRows} encoded with the table's {@link
 * RecordLayout} and laid back to back in one block of native memory, as records sit in mapped heap
 * pages; the kernels cycle through them. Set-up checks that the extractor's bytes equal the
 * encoder's for every record. The native block is released in tear-down.
 *
 * <p>Indexes ({@code index} parameter): as {@link KeyEncodeBench}.
 *
 * <p>{@code scanThroughStore} and {@code scanAtAddress} are what the rebuilder's scan does per key:
 * the record's check, then a key of fixed-width columns written in place ({@link
 * KeyExtractor#extractInto} through the store's accessors, or {@link KeyExtractor#extractAt} from
 * the record's native address, the scan's path for mapped pages); a key with a variable-width
 * column has no in-place path, and both take {@code extract}, as the scan does.
 */
@State(Scope.Thread)
public class KeyExtractBench extends BenchmarkBase {
  static final int ROWS = 4096;
  static final long SEED = 20_240_605L;

  @Param({"lineitem_pk", "lineitem_part_supp_ix", "lineitem_shipdate_ix", LineitemRows.WIDE_INDEX})
  public String index;

  BytesStore<?, ?> records;
  long[] offsets;
  int[] lengths;
  RecordLayout layout;
  Catalog.IndexInfo indexInfo;
  KeyExtractor extractor;
  KeyEncoder encoder;
  final GrowableBytes scratchKey = new GrowableBytes(256);
  final byte[] inPlace = new byte[256];
  long[] addresses;
  int next;

  @Setup(Level.Trial)
  public void setup() {
    Catalog cat = LineitemRows.catalog();
    Catalog.TableInfo table = cat.table("lineitem");
    indexInfo = cat.index(index);
    layout = table.layout();
    extractor = indexInfo.extractor(layout);
    encoder = indexInfo.encoder();
    Object[][] rows = LineitemRows.rows(table.def(), ROWS, SEED);
    byte[][] encoded = new byte[ROWS][];
    long total = 0;
    for (int i = 0; i < ROWS; i++) {
      encoded[i] = layout.encode(rows[i]);
      total += encoded[i].length;
    }
    records = BytesStore.nativeStoreWithFixedCapacity(total);
    offsets = new long[ROWS];
    lengths = new int[ROWS];
    long at = 0;
    for (int i = 0; i < ROWS; i++) {
      records.write(at, encoded[i], 0, encoded[i].length);
      offsets[i] = at;
      lengths[i] = encoded[i].length;
      at += encoded[i].length;
    }
    addresses = new long[ROWS];
    for (int i = 0; i < ROWS; i++) {
      addresses[i] = records.addressForRead(offsets[i]);
    }
    for (int i = 0; i < ROWS; i++) {
      scratchKey.reset();
      extractor.extract(records, offsets[i], lengths[i], scratchKey);
      byte[] expected = encoder.encode(indexInfo.keyOf(rows[i]));
      if (!Arrays.equals(scratchKey.toByteArray(), expected)) {
        throw new IllegalStateException("extracted key of row " + i + " differs from encoded key");
      }
    }
  }

  @Benchmark
  public int extract() {
    return extract(next++ & (ROWS - 1));
  }

  @Benchmark
  public int scanThroughStore() {
    return scan(false);
  }

  @Benchmark
  public int scanAtAddress() {
    return scan(true);
  }

  private int extract(int i) {
    scratchKey.reset();
    extractor.extract(records, offsets[i], lengths[i], scratchKey);
    return scratchKey.length();
  }

  /**
   * The scan's work for the next record: its check and the key in place, from the record's address
   * when {@code atAddress} and the key allows it, as the scan chooses.
   */
  private int scan(boolean atAddress) {
    int i = next++ & (ROWS - 1);
    if (extractor.maxFixedLength() < 0) {
      return extract(i);
    }
    extractor.checkRecord(records, offsets[i], lengths[i]);
    return atAddress && extractor.extractsAtAddress()
        ? extractor.extractAt(addresses[i], inPlace, 0)
        : extractor.extractInto(records, offsets[i], inPlace, 0);
  }

  @Benchmark
  public int decodeThenEncode() {
    int i = next++ & (ROWS - 1);
    Object[] row = layout.decode(records, offsets[i], lengths[i]);
    scratchKey.reset();
    encoder.encode(indexInfo.keyOf(row), scratchKey);
    return scratchKey.length();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (records != null) {
      records.releaseLast();
      records = null;
    }
  }
}
