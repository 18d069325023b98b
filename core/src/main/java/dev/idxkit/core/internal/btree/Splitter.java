package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import java.util.Arrays;

/**
 * Rebuilds, and if need be splits, the pages on the path of an insert that {@link Node#insert}
 * refused, bottom-up.
 *
 * <p>Call order: {@link BTree#insert} descends (recording the path) and tries to add the entry to
 * its leaf; only when the leaf refuses it (no room, or a format 2 leaf whose prefix the entry does
 * not start with) does it call {@link #insert}.
 *
 * <p>Steps, per level, starting at the leaf:
 *
 * <ol>
 *   <li>Take the page's keys out as whole keys ({@link Cells}), with the new one in its place: a
 *       sequence of {@code n} keys.
 *   <li>If the {@code n} keys fit one page of the current format with the prefix they share, write
 *       the page again with them and stop: the page was refused only for its prefix, or it was a
 *       format 1 page whose keys take less room in format 2.
 *   <li>Otherwise choose the split point: the one that makes the larger half smallest, each half
 *       counted with its own prefix; except at the right edge of the tree when the new key is the
 *       last one (ascending inserts), where the old keys stay together and the new page starts with
 *       the new key alone, so appends pack pages full like the bulk builder instead of leaving them
 *       half empty.
 *   <li>Write the old page again in place with the left part, fill a newly allocated right page;
 *       both in the current format, each with its own prefix. A leaf split links the new leaf
 *       between the old one and its right sibling and makes the separator the shortest prefix of
 *       the right page's first key above the left page's last key. A branch split moves the middle
 *       key up: it becomes the separator in the parent and its child the new page's leftmost child.
 *   <li>Insert (separator, new page) into the parent right after the old page. If the parent
 *       refuses it, repeat one level up; if the root split, a new root with the two halves is
 *       added.
 * </ol>
 *
 * <p>Why a split always fits (keys are at most a quarter of the body, {@link Node}): if the new key
 * starts with the page's prefix, every half can keep that prefix, and cutting the full page's bytes
 * at the balance point leaves each half well under a page ({@link Node#bestPrefix} never does worse
 * than a shorter shared prefix). If it does not, it sorts below or above every old key, and putting
 * it alone on one side leaves the old keys as they were. Pages written in format 1 take 4 bytes
 * more per key in format 2, which the balance point also absorbs for keys of a few bytes and more.
 *
 * <p>Memory: the tree's {@link Cells} (a page or two of keys) and arrays of {@code n} ints; one
 * separator array per split (splits are rare: once per page's worth of inserts).
 */
final class Splitter {
  private final BTree tree;
  private final PageAccess pages;
  private final int body;
  // Made on the first split: a BTree is made per lookup by some callers, and most never split.
  private Cells cells;
  // lcpToFirst[j]: what keys 0..j share; lcpToLast[j]: what keys j..n-1 share.
  private int[] lcpToFirst = new int[0];
  private int[] lcpToLast = new int[0];
  private long[] sums = new long[0];

  // Result of the last split: the separator to insert into the parent and the new right page.
  private byte[] sep;
  private long right;

  Splitter(BTree tree) {
    this.tree = tree;
    this.pages = tree.pages;
    this.body = Node.bodySize(pages.pageSize());
  }

  /** Inserts {@code entry} at slot {@code pos} of the leaf at the end of the tree's path. */
  void insert(Page leaf, int pos, byte[] entry, int off, int len) {
    if (rebuildLeaf(tree.pathPage[0], leaf, pos, entry, off, len)) {
      insertAbove(sep, right);
    }
  }

  /**
   * Inserts separator {@code key} with the new page {@code rightPage} after it into the parent of
   * the leaf on the tree's path, right after the child the path took, splitting upwards as needed.
   */
  void insertAbove(byte[] key, long rightPage) {
    sep = key;
    right = rightPage;
    for (int level = 1; level < tree.height; level++) {
      Page parent = pages.write(tree.pathPage[level]);
      int at = tree.pathIndex[level];
      byte[] k = sep;
      if (Node.insert(parent, at, k, 0, k.length, right, tree.scratch())) {
        return;
      }
      if (!rebuildBranch(parent, level, at, k, right)) {
        return;
      }
    }
    growRoot();
  }

  /** Takes the page's keys out with the new key at {@code pos}; returns their number. */
  private int collect(Page page, int pos, byte[] key, int kOff, int kLen, long child) {
    if (cells == null) {
      cells = new Cells(pages.pageSize() * 2);
    }
    Cells c = cells;
    c.clear();
    int n = Node.count(page);
    c.addRange(page, 0, pos);
    c.add(key, kOff, kLen, child);
    c.addRange(page, pos, n);
    return n + 1;
  }

  /** Returns true when the leaf was split ({@link #sep} and {@link #right} are set). */
  private boolean rebuildLeaf(long no, Page left, int pos, byte[] key, int kOff, int kLen) {
    int format = Node.CURRENT_FORMAT;
    int n = collect(left, pos, key, kOff, kLen, 0);
    Cells c = cells;
    if (c.pageBytes(format, true, 0, n) <= body) {
      c.writeTo(left, format, 0, n);
      assert Node.assertWellFormed(left);
      return false;
    }
    long oldRight = Node.rightSibling(left);
    int m =
        pos == n - 1 && oldRight == 0 && c.pageBytes(format, true, 0, n - 1) <= body
            ? n - 1
            : balancedSplit(c, true, 0, n, left.pageNo());

    Page r = pages.allocate(PageType.LEAF);
    Node.init(r, 0);
    long rightNo = r.pageNo();
    c.writeTo(left, format, 0, m);
    c.writeTo(r, format, m, n);
    Node.setLeftSibling(r, no);
    Node.setRightSibling(r, oldRight);
    Node.setRightSibling(left, rightNo);
    if (oldRight != 0) {
      Node.setLeftSibling(pages.write(oldRight), rightNo);
    }
    assert Node.assertWellFormed(left) && Node.assertWellFormed(r);

    int sepLen =
        Keys.separatorLength(
            c.array(), c.offset(m - 1), c.length(m - 1), c.array(), c.offset(m), c.length(m));
    sep = Arrays.copyOfRange(c.array(), c.offset(m), c.offset(m) + sepLen);
    right = rightNo;
    return true;
  }

  /** As {@link #rebuildLeaf} for a branch at {@code level} taking (key, child) at {@code pos}. */
  private boolean rebuildBranch(Page left, int level, int pos, byte[] key, long child) {
    int format = Node.CURRENT_FORMAT;
    int n = collect(left, pos, key, 0, key.length, child);
    Cells c = cells;
    if (c.pageBytes(format, false, 0, n) <= body) {
      c.writeTo(left, format, 0, n);
      assert Node.assertWellFormed(left);
      return false;
    }
    int m =
        pos == n - 1 && tree.pathRightEdge[level] && c.pageBytes(format, false, 0, n - 1) <= body
            ? n - 1
            : balancedSplit(c, false, 0, n, left.pageNo());

    Page r = pages.allocate(PageType.BRANCH);
    Node.init(r, level);
    // The middle key moves up: it separates the halves, its child leads the right one.
    byte[] up = c.key(m);
    Node.setFirstChild(r, c.child(m));
    c.writeTo(left, format, 0, m);
    c.writeTo(r, format, m + 1, n);
    assert Node.assertWellFormed(left) && Node.assertWellFormed(r);
    sep = up;
    right = r.pageNo();
    return true;
  }

  /**
   * Split point m of keys {@code [from, to)} of {@code c}: a leaf keeps [from, m) and moves [m,
   * to); a branch keeps [from, m), moves key m up and (m, to) right. Minimizes the larger half,
   * each half with the prefix its keys share; both must fit a page.
   */
  int balancedSplit(Cells c, boolean leaf, int from, int to, long pageNo) {
    return balancedSplit(c, leaf, from, to, pageNo, true);
  }

  /**
   * As {@link #balancedSplit(Cells, boolean, int, int, long)}; with {@code mustFit} false, keys
   * worth more than two pages are cut where the larger half is smallest although it does not fit a
   * page (a merge's leaf with many new entries, cut again until every part fits).
   */
  int balancedSplit(Cells c, boolean leaf, int from, int to, long pageNo, boolean mustFit) {
    int format = Node.CURRENT_FORMAT;
    int n = to - from;
    if (lcpToFirst.length < n) {
      lcpToFirst = new int[n * 2];
      lcpToLast = new int[n * 2];
      sums = new long[n * 2 + 1];
    }
    // In sorted keys, what keys i..j share is the least of what neighbours in between share.
    // Indexes into the arrays are relative to from.
    lcpToFirst[0] = c.length(from);
    for (int j = 1; j < n; j++) {
      lcpToFirst[j] = Math.min(lcpToFirst[j - 1], c.commonPrefix(from + j - 1, from + j));
    }
    lcpToLast[n - 1] = c.length(to - 1);
    for (int j = n - 2; j >= 0; j--) {
      lcpToLast[j] = Math.min(lcpToLast[j + 1], c.commonPrefix(from + j, from + j + 1));
    }
    sums[0] = 0;
    for (int j = 0; j < n; j++) {
      sums[j + 1] = sums[j] + c.length(from + j);
    }
    int best = -1;
    long bestMax = Long.MAX_VALUE;
    int lastM = leaf ? n - 1 : n - 2;
    for (int m = 1; m <= lastM; m++) {
      int rightFrom = leaf ? m : m + 1;
      long l = half(format, leaf, m, sums[m], lcpToFirst[m - 1]);
      long r =
          rightFrom == n
              ? 0
              : half(format, leaf, n - rightFrom, sums[n] - sums[rightFrom], lcpToLast[rightFrom]);
      long max = Math.max(l, r);
      if ((max <= body || !mustFit) && max < bestMax) {
        bestMax = max;
        best = m;
      }
    }
    if (best < 0) {
      throw new IllegalStateException(
          "index "
              + tree.indexName
              + ": no split of page "
              + pageNo
              + " with "
              + n
              + " keys fits two pages (expected: keys of at most "
              + tree.maxEntry
              + " bytes always do)");
    }
    return from + best;
  }

  private static long half(int format, boolean leaf, int count, long keyBytes, int shared) {
    int pfx = format == Node.FORMAT_2 ? Node.bestPrefix(shared, count) : 0;
    return Node.bytesFor(format, leaf, count, keyBytes, pfx);
  }

  private void growRoot() {
    Page r = pages.allocate(PageType.BRANCH);
    Node.init(r, tree.height);
    Node.setFirstChild(r, tree.root);
    Node.append(r, sep, 0, sep.length, right);
    tree.root = r.pageNo();
    tree.height++;
  }
}
