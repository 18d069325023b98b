package dev.idxkit.jmh.key;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.KeyEncoder;
import dev.idxkit.jmh.BenchmarkBase;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@link KeyEncoder#encode} of lineitem keys from Java values (what an insert through the API does
 * per index): ops/s = keys encoded/s. The keys cycle through {@value #ROWS} rows of {@link
 * LineitemRows}, so the values vary as in a real load.
 *
 * <p>Indexes ({@code index} parameter): {@code lineitem_pk} (BIGINT, INT: 2 fixed columns, 14
 * bytes), {@code lineitem_part_supp_ix} (BIGINT, BIGINT, 18 bytes), and {@value
 * LineitemRows#WIDE_INDEX} (CHAR(10), DATE DESC, VARCHAR(44): two escaped strings and an inverted
 * date, about 40 bytes).
 *
 * <p>Kernels: {@code encodeInto} appends to a reused {@link GrowableBytes} (the allocation-free
 * path the loader and the rebuilder use); {@code encodeToArray} returns a new {@code byte[]}, as
 * {@code KeyEncoder.encode(Object[])} does for the API's one-off keys.
 */
@State(Scope.Thread)
public class KeyEncodeBench extends BenchmarkBase {
  static final int ROWS = 4096;
  static final long SEED = 20_240_604L;

  @Param({"lineitem_pk", "lineitem_part_supp_ix", LineitemRows.WIDE_INDEX})
  public String index;

  Object[][] keyValues;
  KeyEncoder encoder;
  final GrowableBytes scratchKey = new GrowableBytes(256);
  int next;

  @Setup(Level.Trial)
  public void setup() {
    Catalog cat = LineitemRows.catalog();
    Catalog.IndexInfo ix = cat.index(index);
    Object[][] rows = LineitemRows.rows(cat.table("lineitem").def(), ROWS, SEED);
    keyValues = new Object[ROWS][];
    for (int i = 0; i < ROWS; i++) {
      keyValues[i] = ix.keyOf(rows[i]);
    }
    encoder = ix.encoder();
  }

  @Benchmark
  public int encodeInto() {
    Object[] k = keyValues[next++ & (ROWS - 1)];
    scratchKey.reset();
    encoder.encode(k, scratchKey);
    return scratchKey.length();
  }

  @Benchmark
  public byte[] encodeToArray() {
    return encoder.encode(keyValues[next++ & (ROWS - 1)]);
  }
}
