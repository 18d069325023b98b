package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;

/**
 * Gives pages back after deletes, bottom-up along the path of the delete.
 *
 * <p>Call order: {@link BTree#delete} removes the entry from its leaf, then calls {@link
 * #afterRemove} with the leaf.
 *
 * <p>Policy, per level starting at the leaf (the root is never merged or freed here):
 *
 * <ul>
 *   <li>A page with nothing left (a leaf without entries, a branch whose only child was just
 *       dropped) is unlinked from its siblings (leaves), removed from its parent and freed; the
 *       parent is examined next.
 *   <li>A page whose used bytes (prefix, slots and live cells) fell below {@link #underfull} (a
 *       quarter of the body) is merged with the neighbour under the same parent, left one first,
 *       when both together (plus, for branches, the separator pulled down from the parent) use at
 *       most {@link #mergeLimit} (three quarters of the body) as one page of the current format,
 *       with the prefix all their keys share. The left page of the pair is written again in place
 *       with the keys of both, the right one is freed; the parent loses one cell and is examined
 *       next.
 *   <li>Otherwise the walk stops. An underfull page whose neighbours are too full stays as it is:
 *       the tree stays correct, and neither borrowing nor redistribution is attempted.
 *   <li>At the root, a branch left with a single child is replaced by that child, repeatedly; the
 *       tree loses a level each time.
 * </ul>
 *
 * <p>The quarter/three-quarter pair is hysteresis: a split leaves two halves near one half full
 * (above the underfull mark), and a merge leaves a page at most three quarters full (a quarter of a
 * page away from splitting), so alternating inserts and deletes at one spot cannot make the tree
 * split and merge the same pages back and forth. Together with dropping empty pages this keeps two
 * invariants the cursor and {@link TreeChecker} rely on: every leaf but a root leaf holds an entry,
 * and a root branch has at least two children. After deleting everything exactly one page, the root
 * leaf, remains.
 */
final class Rebalancer {
  private final BTree tree;
  private final PageAccess pages;
  private final int underfull;
  private final int mergeLimit;
  private Cells cells;

  Rebalancer(BTree tree) {
    this.tree = tree;
    this.pages = tree.pages;
    int body = Node.bodySize(pages.pageSize());
    this.underfull = body / 4;
    this.mergeLimit = body * 3 / 4;
  }

  void afterRemove(Page leaf) {
    Page node = leaf;
    long no = tree.pathPage[0];
    boolean empty = Node.count(leaf) == 0;
    for (int level = 0; level < tree.height - 1; level++) {
      long parentNo = tree.pathPage[level + 1];
      int idx = tree.pathIndex[level + 1];
      if (empty) {
        if (level == 0) {
          unlinkLeaf(node);
        }
        pages.free(no);
        Page parent = pages.write(parentNo);
        empty = removeChild(parent, idx);
        node = parent;
      } else if (Node.usedBytes(node) >= underfull || !mergeWithNeighbour(node, no, level)) {
        return;
      } else {
        node = pages.write(parentNo);
      }
      no = parentNo;
    }
    assert !empty || Node.isLeaf(node)
        : "root " + tree.root + " of index " + tree.indexName + " lost its last child";
    collapseRoot();
  }

  /**
   * Merges {@code node} (child {@code idx} of the parent on the path) with its left or right
   * neighbour if they fit together; false when neither does.
   */
  private boolean mergeWithNeighbour(Page node, long no, int level) {
    Page parent = pages.read(tree.pathPage[level + 1]);
    int idx = tree.pathIndex[level + 1];
    if (idx > 0) {
      long leftNo = Node.child(parent, idx - 1);
      Page left = pages.read(leftNo);
      if (mergedBytes(left, node, parent, idx, level) <= mergeLimit) {
        merge(pages.write(leftNo), leftNo, node, no, idx, level);
        return true;
      }
    }
    if (idx < Node.count(parent)) {
      long rightNo = Node.child(parent, idx + 1);
      Page right = pages.read(rightNo);
      if (mergedBytes(node, right, parent, idx + 1, level) <= mergeLimit) {
        merge(node, no, right, rightNo, idx + 1, level);
        return true;
      }
    }
    return false;
  }

  /**
   * Body bytes that {@code left}'s keys, for branches the parent's separator before child {@code
   * rightIdx} (pulled down between them), and {@code right}'s keys take in one page of the current
   * format, with the prefix they all share.
   */
  private long mergedBytes(Page left, Page right, Page parent, int rightIdx, int level) {
    boolean leaf = level == 0;
    int nl = Node.count(left);
    int nr = Node.count(right);
    int n = nl + nr + (leaf ? 0 : 1);
    long keyBytes = Node.keyBytesTotal(left) + Node.keyBytesTotal(right);
    if (!leaf) {
      keyBytes += Node.keyLength(parent, rightIdx - 1);
    }
    int format = Node.CURRENT_FORMAT;
    int pfx = 0;
    if (format == Node.FORMAT_2 && n > 0) {
      // The keys are in order: what the first and the last share, they all share.
      byte[] first =
          nl > 0
              ? Keys.keyBytes(left, 0)
              : leaf ? Keys.keyBytes(right, 0) : Keys.keyBytes(parent, rightIdx - 1);
      byte[] last =
          nr > 0
              ? Keys.keyBytes(right, nr - 1)
              : leaf ? Keys.keyBytes(left, nl - 1) : Keys.keyBytes(parent, rightIdx - 1);
      int shared = Keys.commonPrefix(first, 0, first.length, last, 0, last.length);
      pfx = Node.bestPrefix(shared, n);
    }
    return Node.bytesFor(format, leaf, n, keyBytes, pfx);
  }

  /** Moves everything of {@code right} (child {@code rightIdx}) into {@code left} and frees it. */
  private void merge(Page left, long leftNo, Page right, long rightNo, int rightIdx, int level) {
    Page parent = pages.write(tree.pathPage[level + 1]);
    Cells c = cells();
    c.clear();
    c.addAll(left);
    if (level > 0) {
      // The separator between the two pages bounds right's leftmost child from below.
      c.addFrom(parent, rightIdx - 1, Node.firstChild(right));
    }
    c.addAll(right);
    // Written again in the current format; a branch keeps its leftmost child, a leaf its links.
    c.writeTo(left, Node.CURRENT_FORMAT, 0, c.size());
    if (level == 0) {
      long next = Node.rightSibling(right);
      Node.setRightSibling(left, next);
      if (next != 0) {
        Node.setLeftSibling(pages.write(next), leftNo);
      }
    }
    assert Node.assertWellFormed(left);
    pages.free(rightNo);
    Node.remove(parent, rightIdx - 1);
  }

  private Cells cells() {
    if (cells == null) {
      cells = new Cells(pages.pageSize() * 2);
    }
    return cells;
  }

  /**
   * Removes child {@code idx} from a branch. Returns true when it was the only child, leaving the
   * branch with nothing (its caller then drops the branch too).
   */
  private static boolean removeChild(Page parent, int idx) {
    if (idx > 0) {
      Node.remove(parent, idx - 1);
      return false;
    }
    if (Node.count(parent) == 0) {
      return true;
    }
    // Child 1 becomes the leftmost child; its lower bound widens to the parent's, which is safe.
    Node.setFirstChild(parent, Node.child(parent, 1));
    Node.remove(parent, 0);
    return false;
  }

  private void unlinkLeaf(Page leaf) {
    long left = Node.leftSibling(leaf);
    long right = Node.rightSibling(leaf);
    if (left != 0) {
      Node.setRightSibling(pages.write(left), right);
    }
    if (right != 0) {
      Node.setLeftSibling(pages.write(right), left);
    }
  }

  private void collapseRoot() {
    while (tree.height > 1) {
      Page r = pages.read(tree.root);
      if (Node.count(r) > 0) {
        return;
      }
      long child = Node.firstChild(r);
      pages.free(tree.root);
      tree.root = child;
      tree.height--;
    }
  }
}
