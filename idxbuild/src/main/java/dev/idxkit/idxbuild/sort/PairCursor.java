package dev.idxkit.idxbuild.sort;

/**
 * Entries {@code [lo, hi)} of an {@link EntryBuffer}'s arena in the order of its pairs, or, after a
 * compact of entries of one length ({@code stride > 0}), in the order they lie.
 */
final class PairCursor implements EntrySource {
  private final byte[] data;
  private final int base;
  private final int step;
  private final int end;
  private int i;
  private int off;
  private int len;

  /** The arena, where its pairs start, and the compacted entries' length (0: read the pairs). */
  PairCursor(byte[] data, int base, int stride, int lo, int hi) {
    this.data = data;
    this.base = base;
    this.step = stride;
    this.i = lo - 1;
    this.end = hi;
  }

  @Override
  public boolean next() {
    if (i + 1 >= end) {
      i = end;
      return false;
    }
    i++;
    if (step > 0) {
      off = i * step;
      len = step;
    } else {
      long r = PrefixSort.refAt(data, base, i);
      off = PrefixSort.offsetOf(r);
      len = PrefixSort.lengthOf(r);
    }
    return true;
  }

  @Override
  public byte[] array() {
    return data;
  }

  @Override
  public int offset() {
    return off;
  }

  @Override
  public int length() {
    return len;
  }

  @Override
  public void close() {
    i = end;
  }
}
