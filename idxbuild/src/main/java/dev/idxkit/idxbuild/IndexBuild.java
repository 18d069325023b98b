package dev.idxkit.idxbuild;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.DuplicateEntryException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.spi.TreeBuilder;

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

  /** {@code first} repeats the key of {@code last} (the ends of two ranges): as within a range. */
  void duplicateOf(byte[] last, byte[] first) {
    prevRid = Rid.read(last, last.length - Rid.BYTES);
    duplicate(first, 0, first.length);
  }

  private void duplicate(byte[] a, int off, int len) {
    int keyLen = len - Rid.BYTES;
    Object[] key = index.encoder().decode(a, off, keyLen);
    for (Object v : key) {
      if (v == null) {
        return; // NULLs are distinct: a unique index may hold several
      }
    }
    long rid = Rid.read(a, off + keyLen);
    throw new DuplicateEntryException(index.name(), describe(key), prevRid, rid);
  }

  private String describe(Object[] key) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < key.length; i++) {
      String col = index.table().columns().get(index.columns()[i]).name();
      b.append(i == 0 ? "" : ", ").append(col).append('=');
      b.append(key[i] instanceof String ? "'" + key[i] + "'" : key[i]);
    }
    return b.append(')').toString();
  }
}
