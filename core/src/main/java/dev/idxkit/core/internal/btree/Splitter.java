package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import java.util.Arrays;

/**
 * Splits full pages on the path of an insert, bottom-up.
 *
 * <p>Call order: {@link BTree#insert} descends (recording the path) and tries to add the entry to
 * its leaf; only when the leaf has no room does it call {@link #insertSplitting}.
 *
 * <p>Steps, per level, starting at the leaf:
 *
 * <ol>
 *   <li>Copy the full page to scratch and consider its cells plus the new one as one sorted
 *       sequence of {@code n} cells.
 *   <li>Choose the split point: the one that balances the bytes of both halves; except at the right
 *       edge of the tree when the new cell is the last one (ascending inserts), where the old page
 *       stays as it is and the new page starts with the new cell alone, so appends pack pages full
 *       like the bulk builder instead of leaving them half empty.
 *   <li>Rebuild the old page in place from scratch with the left part, fill a newly allocated right
 *       page. A leaf split links the new leaf between the old one and its right sibling and makes
 *       the separator the shortest prefix of the right page's first entry above the left page's
 *       last entry. A branch split moves the middle cell up: its separator becomes the separator in
 *       the parent and its child the new page's leftmost child.
 *   <li>Insert (separator, new page) into the parent right after the old page. If the parent is
 *       full, repeat one level up; if the root split, a new root with the two halves is added.
 * </ol>
 *
 * <p>Memory: the tree's scratch page; one separator array per split (splits are rare: once per
 * page's worth of inserts).
 */
final class Splitter {
  private final BTree tree;
  private final PageAccess pages;

  // Result of the last split: the separator to insert into the parent and the new right page.
  private byte[] sep;
  private long right;

  Splitter(BTree tree) {
    this.tree = tree;
    this.pages = tree.pages;
  }

  /** Inserts {@code entry} at slot {@code pos} of the full leaf at the end of the tree's path. */
  void insertSplitting(Page leaf, int pos, byte[] entry, int off, int len) {
    splitLeaf(tree.pathPage[0], leaf, pos, entry, off, len);
    for (int level = 1; level < tree.height; level++) {
      Page parent = pages.write(tree.pathPage[level]);
      int at = tree.pathIndex[level];
      byte[] key = sep;
      if (Node.insert(parent, at, key, 0, key.length, right, tree.scratch())) {
        return;
      }
      splitBranch(parent, level, at, key, right);
    }
    growRoot();
  }

  private void splitLeaf(long no, Page left, int pos, byte[] key, int kOff, int kLen) {
    Page old = tree.scratch();
    old.copyFrom(left);
    int n = Node.count(old) + 1;
    long oldRight = Node.rightSibling(old);
    int m = pos == n - 1 && oldRight == 0 ? n - 1 : balancedLeafSplit(old, pos, kLen, n);

    Page r = pages.allocate(PageType.LEAF);
    Node.init(r, 0);
    long rightNo = r.pageNo();
    Node.clear(left);
    for (int v = 0; v < n; v++) {
      Page dst = v < m ? left : r;
      if (v == pos) {
        Node.append(dst, key, kOff, kLen, 0);
      } else {
        Node.appendFrom(dst, old, v < pos ? v : v - 1);
      }
    }
    Node.setLeftSibling(r, no);
    Node.setRightSibling(r, oldRight);
    Node.setRightSibling(left, rightNo);
    if (oldRight != 0) {
      Node.setLeftSibling(pages.write(oldRight), rightNo);
    }
    assert Node.assertWellFormed(left) && Node.assertWellFormed(r);

    int last = Node.count(left) - 1;
    int aOff = Node.keyOffset(left, last);
    int bOff = Node.keyOffset(r, 0);
    int bLen = Node.keyLength(r, 0);
    int sepLen = Keys.separatorLength(left, aOff, Node.keyLength(left, last), r, bOff, bLen);
    sep = r.getBytes(bOff, sepLen);
    right = rightNo;
  }

  /** Leaf split point m in [1, n-1]: cells [0, m) stay, [m, n) move; minimizes the larger half. */
  private static int balancedLeafSplit(Page old, int pos, int kLen, int n) {
    int total = 0;
    for (int v = 0; v < n; v++) {
      total += cellBytes(old, pos, kLen, 0, v);
    }
    int left = 0;
    int best = 1;
    int bestMax = Integer.MAX_VALUE;
    for (int m = 1; m < n; m++) {
      left += cellBytes(old, pos, kLen, 0, m - 1);
      int max = Math.max(left, total - left);
      if (max < bestMax) {
        bestMax = max;
        best = m;
      } else {
        break; // max(left, right) falls then rises
      }
    }
    return best;
  }

  private void splitBranch(Page left, int level, int pos, byte[] key, long child) {
    Page old = tree.scratch();
    old.copyFrom(left);
    int n = Node.count(old) + 1;
    int m =
        pos == n - 1 && tree.pathRightEdge[level]
            ? n - 1
            : balancedBranchSplit(old, pos, key.length, n);

    Page r = pages.allocate(PageType.BRANCH);
    Node.init(r, level);
    Node.clear(left);
    byte[] up = null;
    for (int v = 0; v < n; v++) {
      int i = v < pos ? v : v - 1;
      if (v == m) {
        // The middle cell moves up: its key separates the halves, its child leads the right one.
        if (v == pos) {
          up = Arrays.copyOf(key, key.length);
          Node.setFirstChild(r, child);
        } else {
          up = old.getBytes(Node.keyOffset(old, i), Node.keyLength(old, i));
          Node.setFirstChild(r, Node.child(old, i + 1));
        }
      } else {
        Page dst = v < m ? left : r;
        if (v == pos) {
          Node.append(dst, key, 0, key.length, child);
        } else {
          Node.appendFrom(dst, old, i);
        }
      }
    }
    assert Node.assertWellFormed(left) && Node.assertWellFormed(r);
    sep = up;
    right = r.pageNo();
  }

  /**
   * Branch split point m: cells [0, m) stay, cell m moves up, (m, n) move right. m in [1, n-2] (n
   * >= 4 whenever a branch overflows, see {@link Node}); minimizes the larger half.
   */
  private static int balancedBranchSplit(Page old, int pos, int kLen, int n) {
    int total = 0;
    for (int v = 0; v < n; v++) {
      total += cellBytes(old, pos, kLen, Node.CHILD_SIZE, v);
    }
    int left = 0;
    int best = 1;
    int bestMax = Integer.MAX_VALUE;
    for (int m = 1; m <= n - 2; m++) {
      left += cellBytes(old, pos, kLen, Node.CHILD_SIZE, m - 1);
      int max = Math.max(left, total - left - cellBytes(old, pos, kLen, Node.CHILD_SIZE, m));
      if (max < bestMax) {
        bestMax = max;
        best = m;
      }
    }
    return best;
  }

  /** Bytes (slot included) of virtual cell v: the new cell at pos, old cells around it. */
  private static int cellBytes(Page old, int pos, int kLen, int shift, int v) {
    int len = v == pos ? kLen : Node.keyLength(old, v < pos ? v : v - 1);
    return len + shift + Node.SLOT_SIZE;
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
