package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;

/**
 * A position on one entry of a {@link BTree}, moved along the leaf chain in either direction.
 *
 * <p>Call order: position with {@link #seek}, {@link #seekBefore}, {@link #first} or {@link #last};
 * then read the entry ({@link #entry}, {@link #copyEntry}, {@link #rid}, {@link #compareTo}, {@link
 * #startsWith}) and move with {@link #next} / {@link #prev}. Every positioning method returns
 * whether the cursor is on an entry ({@link #valid}). A cursor that ran off either end stays
 * invalid until it is positioned again.
 *
 * <p>A cursor is invalidated by any insert or delete through its tree object (pages it points at
 * may have been split, merged or freed): {@link #valid} then answers false and every other method
 * except the positioning ones throws {@link IllegalStateException}; the caller seeks again (for
 * example to the entry it last saw).
 *
 * <p>Cost: positioning descends from the root (one binary search per level); {@code next} and
 * {@code prev} move a slot index and follow a sibling link at page ends. Nothing is allocated per
 * entry except by {@link #entry()}, which returns a copy.
 */
public final class TreeCursor {
  private final BTree tree;
  private Page leaf;
  private int count;
  private int slot;
  // The leaf's layout ({@link Node}): prefix length, first slot, log2 of the slot size.
  private int pfx;
  private int slotBase;
  private int slotShift;
  // Cached position of the current entry's suffix in the leaf (the whole entry in format 1).
  private int off;
  private int len;
  private boolean valid;
  private int modCount;

  TreeCursor(BTree tree) {
    this.tree = tree;
    this.modCount = tree.modCount;
  }

  /** To the first entry {@code >= key}. */
  public boolean seek(byte[] key) {
    enter(tree.leafFor(key, 0, key.length));
    int i = Node.lowerBound(leaf, key, 0, key.length);
    // Past this leaf's end the answer is the next leaf's first entry: it is at or above the
    // separator that routed the key here, which is above the key.
    return i < count ? at(i) : toRight();
  }

  /** To the last entry {@code < key}. */
  public boolean seekBefore(byte[] key) {
    enter(tree.leafFor(key, 0, key.length));
    int i = Node.lowerBound(leaf, key, 0, key.length);
    return i > 0 ? at(i - 1) : toLeft();
  }

  public boolean first() {
    enter(tree.edgeLeaf(false));
    return count > 0 ? at(0) : invalid();
  }

  public boolean last() {
    enter(tree.edgeLeaf(true));
    return count > 0 ? at(count - 1) : invalid();
  }

  public boolean next() {
    checkFresh();
    if (!valid) {
      return false;
    }
    return slot + 1 < count ? at(slot + 1) : toRight();
  }

  public boolean prev() {
    checkFresh();
    if (!valid) {
      return false;
    }
    return slot > 0 ? at(slot - 1) : toLeft();
  }

  /** Whether the cursor is on an entry; false once the tree was modified. */
  public boolean valid() {
    return valid && modCount == tree.modCount;
  }

  public int entryLength() {
    checkOn();
    return pfx + len;
  }

  /** A copy of the current entry. */
  public byte[] entry() {
    checkOn();
    byte[] e = new byte[pfx + len];
    Keys.copyKey(leaf, pfx, off, len, e, 0);
    return e;
  }

  /**
   * Copies the current entry to {@code dst[dstOff, dstOff + entryLength())}; returns the length.
   */
  public int copyEntry(byte[] dst, int dstOff) {
    checkOn();
    Keys.copyKey(leaf, pfx, off, len, dst, dstOff);
    return pfx + len;
  }

  /** The RID in the last 8 bytes of the current entry (big-endian, as {@code Rid.read}). */
  public long rid() {
    checkOn();
    if (len >= 8) {
      return Long.reverseBytes(leaf.getLong(off + len - 8));
    }
    int total = pfx + len;
    if (total < 8) {
      throw new IllegalStateException(
          "entry of "
              + total
              + " bytes in index "
              + tree.indexName
              + " has no rid (expected: >= 8)");
    }
    // The RID reaches into the page prefix: read it byte by byte from both.
    long rid = 0;
    for (int k = total - 8; k < total; k++) {
      int b = k < pfx ? leaf.getU8(Node.HEADER_SIZE + k) : leaf.getU8(off + k - pfx);
      rid = (rid << 8) | b;
    }
    return rid;
  }

  /** Unsigned comparison of the current entry with {@code key}. */
  public int compareTo(byte[] key) {
    checkOn();
    return Keys.compareKey(leaf, pfx, off, len, key, 0, key.length);
  }

  public boolean startsWith(byte[] prefix) {
    checkOn();
    return Keys.startsWith(leaf, pfx, off, len, prefix);
  }

  // ---- moves ----

  private void enter(Page p) {
    modCount = tree.modCount;
    leaf = p;
    count = Node.count(p);
    pfx = Node.prefixLength(p);
    slotBase = Node.slotBase(p);
    slotShift = Node.format(p) == Node.FORMAT_2 ? 3 : 2;
  }

  private boolean at(int i) {
    slot = i;
    int s = leaf.getInt(slotBase + (i << slotShift));
    off = s & 0xFFFF;
    len = s >>> 16;
    valid = true;
    return true;
  }

  private boolean toRight() {
    long right = Node.rightSibling(leaf);
    while (right != 0) {
      enter(tree.readNode(right, 0));
      if (count > 0) {
        return at(0);
      }
      right = Node.rightSibling(leaf);
    }
    return invalid();
  }

  private boolean toLeft() {
    long left = Node.leftSibling(leaf);
    while (left != 0) {
      enter(tree.readNode(left, 0));
      if (count > 0) {
        return at(count - 1);
      }
      left = Node.leftSibling(leaf);
    }
    return invalid();
  }

  private boolean invalid() {
    valid = false;
    return false;
  }

  private void checkFresh() {
    if (modCount != tree.modCount) {
      throw new IllegalStateException(
          "cursor on index " + tree.indexName + " used after the tree was modified; seek again");
    }
  }

  private void checkOn() {
    checkFresh();
    if (!valid) {
      throw new IllegalStateException("cursor on index " + tree.indexName + " is not on an entry");
    }
  }
}
