package dev.idxkit.idxbuild;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.DuplicateEntryException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.spi.TreeBuilder;
import java.util.Arrays;

/** One index's builder and its unique-key check on adjacent entries. */
final class IndexBuild {
  final IndexInfo index;
  final TreeBuilder builder;
  private long prevRid;

  IndexBuild(IndexInfo index, TreeBuilder builder) {
    this.index = index;
    this.builder = builder;
  }

  /** Adds the index's first entry. */
  void first(byte[] a, int off, int len) {
    builder.add(a, off, len);
    checkUnique(a, off, len);
  }

  /**
   * Adds an entry after the first; {@code shared} as {@link TreeBuilder#addNext} takes it. Not
   * through {@link TreeBuilder#add}, whose branches for a builder's first entry the merge loop must
   * not see (see {@link SortGroup}).
   */
  void add(byte[] a, int off, int len, int shared) {
    builder.addNext(a, off, len, shared);
    checkUnique(a, off, len);
  }

  /**
   * Adds {@code count} entries after the first, {@code len} bytes each, one after another in {@code
   * a}; {@code shared} as {@link TreeBuilder#addNextAll} takes it.
   */
  void addAll(byte[] a, int count, int len, int[] shared) {
    builder.addNextAll(a, count, len, shared);
    if (index.unique()) {
      int keyLen = len - Rid.BYTES;
      for (int j = 0; j < count; j++) {
        if (shared[j] >= keyLen) {
          if (j > 0) {
            prevRid = Rid.read(a, (j - 1) * len + keyLen);
          }
          duplicate(a, j * len, len);
        }
      }
      prevRid = Rid.read(a, (count - 1) * len + keyLen);
    }
  }

  private void checkUnique(byte[] a, int off, int len) {
    if (index.unique()) {
      // The builder compared the entry with the one before it to check their order.
      int keyLen = len - Rid.BYTES;
      if (builder.lastRepeats(keyLen)) {
        duplicate(a, off, len);
      }
      prevRid = Rid.read(a, off + keyLen);
    }
  }

  /**
   * Fails when {@code first} repeats the key of {@code last}, the ends of two key ranges built
   * apart, as {@link #add} fails within a range (the range builders never saw the pair).
   */
  static void checkRangeBoundary(IndexInfo index, byte[] last, byte[] first) {
    int keyLen = last.length - Rid.BYTES;
    if (index.unique()
        && first.length - Rid.BYTES == keyLen
        && Arrays.equals(last, 0, keyLen, first, 0, keyLen)) {
      duplicate(index, first, 0, first.length, Rid.read(last, keyLen));
    }
  }

  private void duplicate(byte[] a, int off, int len) {
    duplicate(index, a, off, len, prevRid);
  }

  /**
   * Throws for the entry at {@code a[off, off + len)}, whose key the entry of prevRid holds too.
   */
  private static void duplicate(IndexInfo index, byte[] a, int off, int len, long prevRid) {
    int keyLen = len - Rid.BYTES;
    Object[] key = index.encoder().decode(a, off, keyLen);
    for (Object v : key) {
      if (v == null) {
        return; // NULLs are distinct: a unique index may hold several
      }
    }
    long rid = Rid.read(a, off + keyLen);
    throw new DuplicateEntryException(index.name(), describe(index, key), prevRid, rid);
  }

  private static String describe(IndexInfo index, Object[] key) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < key.length; i++) {
      String col = index.table().columns().get(index.columns()[i]).name();
      b.append(i == 0 ? "" : ", ").append(col).append('=');
      b.append(key[i] instanceof String ? "'" + key[i] + "'" : key[i]);
    }
    return b.append(')').toString();
  }
}
