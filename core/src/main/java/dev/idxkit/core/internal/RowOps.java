package dev.idxkit.core.internal;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.KeyTooLongException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.txn.StoreTxn;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.Values;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.IndexState;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Insert, update and delete of rows with every active index kept in step.
 *
 * <p>Each operation first checks everything that can fail on the input — value types, key lengths,
 * unique keys — and only then changes pages, so a failed statement leaves its transaction exactly
 * as it was. Index entries are {@code key || rid}; a unique index refuses a second entry whose key
 * part matches, unless the key holds a NULL (SQL: NULLs are distinct). Inactive indexes are not
 * maintained; a rebuild brings them back.
 */
public final class RowOps {
  private RowOps() {}

  /** Coerces user values to the table's column types, naming the column on a mismatch. */
  public static Object[] coerce(TableInfo t, Object[] values) {
    List<ColumnDef> cols = t.def().columns();
    if (values.length != cols.size()) {
      throw new InvalidInputException(
          "table "
              + t.name()
              + " has "
              + cols.size()
              + " columns, "
              + values.length
              + " values given");
    }
    Object[] out = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Values.coerce(cols.get(i), values[i]);
    }
    return out;
  }

  /** Inserts a row (values already coerced) and returns its RID. */
  public static long insert(StoreTxn txn, TableInfo t, Object[] row, HeapHints hints) {
    byte[][] keys = keysOf(txn, t, row);
    for (int i = 0; i < keys.length; i++) {
      IndexInfo ix = t.indexes().get(i);
      if (keys[i] != null && ix.unique() && !hasNull(ix, row)) {
        checkUnique(txn, ix, row, keys[i]);
      }
    }
    GrowableBytes rec = new GrowableBytes(256);
    t.layout().encode(row, rec);
    long rid = HeapOps.insert(txn, t, rec.array(), rec.length(), hints);
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != null) {
        insertEntry(txn, t.indexes().get(i), entry(keys[i], rid));
      }
    }
    txn.addRows(t.id(), 1);
    return rid;
  }

  /** Deletes the row at {@code rid}; false if there is none. */
  public static boolean delete(StoreTxn txn, TableInfo t, long rid, HeapHints hints) {
    Object[] old = HeapOps.read(txn, t, rid);
    if (old == null) {
      return false;
    }
    byte[][] keys = keysOf(txn, t, old);
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != null) {
        deleteEntry(txn, t.indexes().get(i), entry(keys[i], rid), rid);
      }
    }
    HeapOps.delete(txn, t, rid, hints);
    txn.addRows(t.id(), -1);
    return true;
  }

  /**
   * Replaces the row at {@code rid}; returns its RID afterwards (the same one unless the record had
   * to move), or -1 if there is no such row.
   */
  public static long update(StoreTxn txn, TableInfo t, long rid, Object[] row, HeapHints hints) {
    Object[] old = HeapOps.read(txn, t, rid);
    if (old == null) {
      return -1;
    }
    byte[][] oldKeys = keysOf(txn, t, old);
    byte[][] newKeys = keysOf(txn, t, row);
    for (int i = 0; i < newKeys.length; i++) {
      IndexInfo ix = t.indexes().get(i);
      if (newKeys[i] != null
          && ix.unique()
          && !hasNull(ix, row)
          && !Arrays.equals(oldKeys[i], newKeys[i])) {
        checkUnique(txn, ix, row, newKeys[i]);
      }
    }
    GrowableBytes rec = new GrowableBytes(256);
    t.layout().encode(row, rec);
    if (HeapOps.rewrite(txn, t, rid, rec.array(), rec.length())) {
      for (int i = 0; i < newKeys.length; i++) {
        if (newKeys[i] != null && !Arrays.equals(oldKeys[i], newKeys[i])) {
          IndexInfo ix = t.indexes().get(i);
          deleteEntry(txn, ix, entry(oldKeys[i], rid), rid);
          insertEntry(txn, ix, entry(newKeys[i], rid));
        }
      }
      return rid;
    }
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null) {
        deleteEntry(txn, t.indexes().get(i), entry(oldKeys[i], rid), rid);
      }
    }
    HeapOps.delete(txn, t, rid, hints);
    long moved = HeapOps.insert(txn, t, rec.array(), rec.length(), hints);
    for (int i = 0; i < newKeys.length; i++) {
      if (newKeys[i] != null) {
        insertEntry(txn, t.indexes().get(i), entry(newKeys[i], moved));
      }
    }
    return moved;
  }

  /**
   * Adds one existing row to one index (building an index on a table that has rows): checks the
   * key's length and uniqueness, then inserts {@code key || rid}.
   */
  public static void addToIndex(StoreTxn txn, IndexInfo ix, Object[] row, long rid) {
    byte[] key = ix.encoder().encode(ix.keyOf(row));
    int max = BTree.maxEntryLength(txn.pages(ix.area()).pageSize());
    if (key.length + Rid.BYTES > max) {
      throw new KeyTooLongException(ix.name(), key.length + Rid.BYTES, max);
    }
    if (ix.unique() && !hasNull(ix, row)) {
      checkUnique(txn, ix, row, key);
    }
    insertEntry(txn, ix, entry(key, rid));
  }

  /** A readable rendering of an index key for messages: {@code (a=1, b='x')}. */
  public static String describeKey(IndexInfo ix, Object[] row) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < ix.columns().length; i++) {
      int c = ix.columns()[i];
      Object v = row[c];
      b.append(i == 0 ? "" : ", ").append(ix.table().columns().get(c).name()).append('=');
      b.append(v instanceof String ? "'" + v + "'" : v instanceof byte[] bs ? hex(bs) : v);
    }
    return b.append(')').toString();
  }

  /** Encoded keys of the row for each active index (null for inactive ones), length-checked. */
  private static byte[][] keysOf(StoreTxn txn, TableInfo t, Object[] row) {
    byte[][] keys = new byte[t.indexes().size()][];
    int max = BTree.maxEntryLength(txn.pages(t.area()).pageSize());
    for (int i = 0; i < keys.length; i++) {
      IndexInfo ix = t.indexes().get(i);
      IndexState s = txn.index(ix.id());
      if (s == null || !s.active()) {
        continue;
      }
      byte[] k = ix.encoder().encode(ix.keyOf(row));
      if (k.length + Rid.BYTES > max) {
        throw new KeyTooLongException(ix.name(), k.length + Rid.BYTES, max);
      }
      keys[i] = k;
    }
    return keys;
  }

  private static void checkUnique(StoreTxn txn, IndexInfo ix, Object[] row, byte[] key) {
    BTree tree = new BTree(txn.pages(ix.area()), txn.index(ix.id()).root(), ix.name());
    if (tree.hasPrefix(key)) {
      throw new DuplicateKeyException(ix.name(), describeKey(ix, row));
    }
  }

  /**
   * A non-unique index's entries go to its change buffer ({@code StoreTxn#buffer}) when the store
   * buffers: nothing needs to read its tree to insert one (the RID makes each entry unique). A
   * unique index's insert reads the tree anyway (the key must be absent), so it changes the tree.
   */
  private static void insertEntry(StoreTxn txn, IndexInfo ix, byte[] entry) {
    if (!ix.unique() && txn.buffering()) {
      txn.buffer(ix.id(), ix.area(), ix.name(), entry, true);
      return;
    }
    BTree tree = new BTree(txn.pages(ix.area()), txn.index(ix.id()).root(), ix.name());
    tree.insert(entry);
    txn.setRoot(ix.id(), tree.root());
  }

  /**
   * A delete checks the entry is there first (in the buffer, else the tree: a descent, but no page
   * copy when buffered), so that a missing entry is reported here, not at a later merge.
   */
  private static void deleteEntry(StoreTxn txn, IndexInfo ix, byte[] entry, long rid) {
    BTree tree = new BTree(txn.pages(ix.area()), txn.index(ix.id()).root(), ix.name());
    Boolean buffered = txn.bufferedChange(ix.id(), entry);
    boolean found;
    if (buffered != null || !ix.unique() && txn.buffering()) {
      found = buffered != null ? buffered : tree.contains(entry);
      if (found) {
        txn.buffer(ix.id(), ix.area(), ix.name(), entry, false);
      }
    } else {
      found = tree.delete(entry);
    }
    if (!found) {
      throw new CorruptDatabaseException(
          Path.of(txn.pages(ix.area()).name()),
          "index " + ix.name() + " has no entry for row " + Rid.toString(rid) + " (run check)");
    }
    txn.setRoot(ix.id(), tree.root());
  }

  private static boolean hasNull(IndexInfo ix, Object[] row) {
    for (int c : ix.columns()) {
      if (row[c] == null) {
        return true;
      }
    }
    return false;
  }

  static byte[] entry(byte[] key, long rid) {
    byte[] e = Arrays.copyOf(key, key.length + Rid.BYTES);
    Rid.write(rid, e, key.length);
    return e;
  }

  private static String hex(byte[] b) {
    StringBuilder s = new StringBuilder("x'");
    for (byte x : b) {
      s.append(String.format("%02x", x));
    }
    return s.append('\'').toString();
  }
}
