package dev.idxkit.loader.input;

import dev.idxkit.core.InvalidInputException;

/**
 * How to generate TPC-H rows.
 *
 * @param scaleFactor the TPC-H scale factor: 1 is about 1 GB of dbgen text, lineitem 6,001,215
 *     rows; fractions such as 0.01 are fine for tests
 * @param rowsPerChunk the rows one chunk (one generator part) should hold, about; the unit of
 *     parallel generation (default 16,384)
 */
public record TpchOptions(double scaleFactor, int rowsPerChunk) {
  public static final int DEFAULT_ROWS_PER_CHUNK = 16_384;

  public TpchOptions {
    if (!(scaleFactor > 0) || scaleFactor > 100_000) {
      throw new InvalidInputException(
          "scaleFactor (--sf) : " + scaleFactor + " (expected: > 0, <= 100000)");
    }
    if (rowsPerChunk < 1) {
      throw new InvalidInputException("rowsPerChunk : " + rowsPerChunk + " (expected: >= 1)");
    }
  }

  public static TpchOptions scale(double scaleFactor) {
    return new TpchOptions(scaleFactor, DEFAULT_ROWS_PER_CHUNK);
  }

  public TpchOptions withRowsPerChunk(int rowsPerChunk) {
    return new TpchOptions(scaleFactor, rowsPerChunk);
  }
}
