package dev.idxkit.core.internal.btree;

import dev.idxkit.core.KeyTooLongException;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import java.util.Arrays;

/**
 * Applies changes in entry order to a tree a leaf at a time: the merge of a change buffer.
 *
 * <p>Inserting sorted entries one by one descends from the root for each, and a leaf that is full
 * splits on its first new entry and then takes the others one by one. Here one descent finds the
 * leaf of the next insert and the key range the leaf covers (up to the separator that bounds it
 * above); every following insert in that range goes to the same leaf. When they fit, each goes in
 * place; when the leaf refuses one, its entries and the rest of the range's new ones are laid out
 * together once, over as few leaves as halving gives (each part is cut where the larger half is
 * smallest, until every part fits a page): the first part stays in the leaf, the others go to new
 * leaves linked after it, and their separators go to the parent, splitting upwards as an insert
 * does. At the right edge of the tree, new entries above every old one fill leaves full instead
 * (appends, as the bottom-up builder packs them).
 *
 * <p>Overflow into the next leaf (a B*-tree's shift to a sibling, over a run of leaves): when a
 * leaf that refuses an insert is followed, under the same parent, by a leaf the next insert goes
 * to, the two are laid out together, and so on while the entries gathered need more leaves than
 * they came from (at most {@value #MAX_GROUP} leaves). The run is then spread evenly over as few
 * leaves as hold it: its own leaves keep their page numbers and links, any more go after its last,
 * and the parent's separators between them are taken out and the new ones inserted as a split's
 * are. A merge of inserts spread over a tree built 100 % full (every leaf gets a few) so rewrites
 * each leaf once and adds a few per cent of leaves, where splitting each leaf in two would double
 * the tree's pages, and the pages the merge writes and logs with it.
 *
 * <p>Deletes go through {@link BTree#delete} one at a time (and rebalance as it does); a merge of a
 * change buffer holds deletes only when rows were deleted.
 *
 * <p>Memory: two {@link Cells} (a leaf's entries and the laid-out ones: a page or two, up to
 * {@value #MAX_GROUP} pages for a run of leaves, more when many new entries fall in one leaf) and
 * the upper bound of the current leaf.
 */
final class LeafMerge {
  /** The changes to apply, in ascending entry order, each entry at most once. */
  interface Changes {
    /** Moves to the next change; false when there is none. */
    boolean next();

    byte[] array();

    int offset();

    int length();

    /** Insert, or delete. */
    boolean insert();
  }

  /** The most leaves laid out together: bounds the memory a run takes (64 pages' worth). */
  static final int MAX_GROUP = 64;

  private final BTree tree;
  private final Splitter splitter;
  private final int body;
  // A merge of every buffer makes a tree, and so a LeafMerge, per transaction: regrowing the
  // laid-out keys each time to a run's 64 pages was 7 % of its wall time. One pair per thread is
  // enough: both are filled and used up within one relayout, which nothing re-enters.
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);
  // Laid-out keys bigger than this (many new entries in one leaf) are not kept for the next merge.
  private static final int KEEP_BYTES = 2 * MAX_GROUP * Page.DEFAULT_SIZE;

  /** What one thread's merges share (see SCRATCH). */
  private static final class Scratch {
    Cells old;
    Cells laid;
    long[] sums;
  }

  private final Scratch scratch;
  private final Cells old;
  private final Cells laid;
  private byte[] upper = new byte[64];
  private int upperLen;
  // Where the laid-out entries are cut into leaves: part j is [cuts[j], cuts[j + 1]).
  private int[] cuts = new int[16];
  private int parts;
  // Key bytes of the laid-out keys before each: keys [a, b) hold sums[b] - sums[a].
  private long[] sums;
  private int applied;
  private int max;
  // The leaf whose entries are being gathered (for messages) and the run's leaves, in key order.
  private long leafNo;
  private final long[] group = new long[MAX_GROUP];
  // Whether the next leaf of a run has an upper bound (nextLeaf).
  private boolean nextBounded;
  // Whether every new entry of the last gathered leaf sorts above its old ones (appends).
  private boolean above;
  // Leaves the laid-out keys [0, packEnd) need, packed full in order: closed leaves (where each
  // ends in packCuts[1..packClosed]), and the open one from packStart, with the prefix its keys
  // share and their bytes (kept up to date as keys are gathered; cutPacked reads the cuts).
  private int[] packCuts = new int[MAX_GROUP * 2];
  private int packClosed;
  private int packStart;
  private int packEnd;
  private int packShared;
  private long packKeyBytes;

  LeafMerge(BTree tree, Splitter splitter) {
    this.tree = tree;
    this.splitter = splitter;
    this.body = Node.bodySize(tree.pages.pageSize());
    Scratch kept = SCRATCH.get();
    if (kept.laid == null || kept.laid.capacityBytes() > KEEP_BYTES) {
      kept.old = new Cells(tree.pages.pageSize());
      kept.laid = new Cells(tree.pages.pageSize() * 2);
      kept.sums = new long[1024];
    }
    this.scratch = kept;
    this.old = kept.old;
    this.laid = kept.laid;
    this.sums = kept.sums;
  }

  /** Applies up to {@code max} changes of {@code c}; returns how many it applied. */
  int apply(Changes c, int max) {
    this.applied = 0;
    this.max = max;
    boolean has = max > 0 && c.next();
    while (has) {
      has = c.insert() ? insertRange(c) : delete(c);
    }
    return applied;
  }

  /** Counts the current change applied; true when {@code c} moved to one more to apply. */
  private boolean advance(Changes c) {
    applied++;
    return applied < max && c.next();
  }

  private boolean delete(Changes c) {
    byte[] e = Arrays.copyOfRange(c.array(), c.offset(), c.offset() + c.length());
    if (!tree.delete(e)) {
      throw new IllegalStateException(
          "buffered delete of an entry index "
              + tree.indexName
              + " does not hold: "
              + Keys.hex(e, 0, e.length));
    }
    return advance(c);
  }

  /**
   * Applies the current insert and the following ones in the range of its leaf; true when {@code c}
   * is at a change still to apply.
   */
  private boolean insertRange(Changes c) {
    checkLength(c);
    int r = tree.descend(c.array(), c.offset(), c.length());
    if (r >= 0) {
      throw duplicate(c, r);
    }
    tree.modCount++;
    boolean bounded = upperBoundFrom(1);
    leafNo = tree.pathPage[0];
    Page leaf = tree.pages.write(leafNo);
    int pos = -(r + 1);
    while (Node.insert(leaf, pos, c.array(), c.offset(), c.length(), 0, tree.scratch())) {
      if (!advance(c)) {
        return false;
      }
      if (!inRange(c, bounded)) {
        return true;
      }
      checkLength(c);
      int s = Node.search(leaf, c.array(), c.offset(), c.length());
      if (s >= 0) {
        throw duplicate(c, s);
      }
      pos = -(s + 1);
    }
    return relayout(leaf, c, bounded);
  }

  /**
   * Lays the leaf's entries out again with the current insert and every following one in the leaf's
   * range, together with the next leaves while they take the overflow ({@link #writeGroup}) or
   * alone ({@link #write}); true when {@code c} is at a change still to apply.
   */
  private boolean relayout(Page leaf, Changes c, boolean bounded) {
    laid.clear();
    packClosed = 0;
    packStart = 0;
    packEnd = 0;
    int oldCount = Node.count(leaf);
    boolean more = gather(leaf, c, bounded);
    if (above && oldCount > 0 && Node.rightSibling(leaf) == 0) {
      write(leaf, true);
      return more;
    }
    int leaves = 1;
    group[0] = tree.pathPage[0];
    long next;
    while (more
        && leaves < MAX_GROUP
        && packedLeaves() > leaves
        && (next = nextLeaf(c, leaves)) != 0) {
      checkLength(c);
      group[leaves++] = next;
      more = gather(tree.pages.write(next), c, nextBounded);
    }
    if (leaves == 1) {
      // Asked for again: the parent has been read since (a page read may not outlive the next).
      write(tree.pages.write(group[0]), false);
    } else {
      writeGroup(leaves);
    }
    return more;
  }

  /**
   * Adds the leaf's entries and the current insert and every following one in the range {@link
   * #upper} bounds (when {@code bounded}) to the laid-out keys; true when {@code c} is at a change
   * still to apply.
   */
  private boolean gather(Page leaf, Changes c, boolean bounded) {
    leafNo = leaf.pageNo();
    old.clear();
    old.addAll(leaf);
    int oldCount = old.size();
    int i = 0;
    boolean allAbove = true;
    boolean more;
    while (true) {
      int at = lowerBound(i, oldCount, c);
      if (at < oldCount && compare(old, at, c) == 0) {
        throw duplicate(c, at);
      }
      laid.addRange(old, i, at);
      i = at;
      allAbove &= i == oldCount;
      laid.add(c.array(), c.offset(), c.length(), 0);
      if (!advance(c)) {
        more = false;
        break;
      }
      if (!inRange(c, bounded)) {
        more = true;
        break;
      }
      checkLength(c);
    }
    laid.addRange(old, i, oldCount);
    above = allAbove;
    return more;
  }

  /**
   * The leaf {@code leaves} places after the one on the tree's path when it has the same parent and
   * the current change is an insert into it, else 0; when it is one, {@link #upper} holds that
   * leaf's bound and {@link #nextBounded} says whether it has one.
   */
  private long nextLeaf(Changes c, int leaves) {
    if (tree.height < 2 || !c.insert()) {
      return 0;
    }
    Page parent = tree.pages.read(tree.pathPage[1]);
    int child = tree.pathIndex[1] + leaves;
    int n = Node.count(parent);
    if (child > n) {
      return 0;
    }
    long no = Node.child(parent, child);
    nextBounded = child < n ? copyBound(parent, child) : upperBoundFrom(2);
    return inRange(c, nextBounded) ? no : 0;
  }

  /**
   * How many leaves the laid-out keys need packed full in order, each as full as it goes (the
   * fewest: a part of a range that fits a leaf fits too), brought up to date over the keys added
   * since the last call.
   */
  private int packedLeaves() {
    int n = laid.size();
    while (packEnd < n) {
      if (packEnd == packStart) {
        packShared = laid.length(packEnd);
        packKeyBytes = laid.length(packEnd);
        packEnd++;
        continue;
      }
      int sh = Math.min(packShared, laid.commonPrefix(packEnd - 1, packEnd));
      long kb = packKeyBytes + laid.length(packEnd);
      int count = packEnd + 1 - packStart;
      if (Node.bytesFor(Node.CURRENT_FORMAT, true, count, kb, Node.bestPrefix(sh, count)) > body) {
        if (packClosed + 2 >= packCuts.length) {
          packCuts = Arrays.copyOf(packCuts, packCuts.length * 2);
        }
        packCuts[++packClosed] = packEnd;
        packStart = packEnd;
      } else {
        packShared = sh;
        packKeyBytes = kb;
        packEnd++;
      }
    }
    return packClosed + (packEnd > packStart ? 1 : 0);
  }

  /** The first of the leaf's entries {@code [from, to)} at or above the current change. */
  private int lowerBound(int from, int to, Changes c) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compare(old, mid, c) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Writes the laid-out entries over the leaf on the tree's path and as many new leaves after it as
   * they need, and their separators into the parent.
   */
  private void write(Page leaf, boolean append) {
    int fmt = Node.CURRENT_FORMAT;
    int n = laid.size();
    sumLengths(n);
    if (append) {
      cutPacked(n);
    } else {
      halve(0, n);
    }
    long oldRight = Node.rightSibling(leaf);
    laid.writeTo(leaf, fmt, cuts[0], cuts[1]);
    assert Node.assertWellFormed(leaf);
    if (parts == 1) {
      return;
    }
    long[] pages = new long[parts];
    Page prev = leaf;
    long prevNo = leaf.pageNo();
    for (int j = 1; j < parts; j++) {
      Page r = tree.pages.allocate(PageType.LEAF);
      Node.init(r, 0);
      laid.writeTo(r, fmt, cuts[j], cuts[j + 1]);
      assert Node.assertWellFormed(r);
      Node.setLeftSibling(r, prevNo);
      Node.setRightSibling(prev, r.pageNo());
      prev = r;
      prevNo = r.pageNo();
      pages[j] = prevNo;
    }
    Node.setRightSibling(prev, oldRight);
    if (oldRight != 0) {
      Node.setLeftSibling(tree.pages.write(oldRight), prevNo);
    }
    insertSeparators(pages);
  }

  /**
   * Writes the laid-out keys over the run's {@code leaves} (which keep their page numbers and
   * links) and as many new leaves after the last as they need, evened out ({@link #balance}); takes
   * the parent's separators between the run's leaves out and inserts the new ones.
   */
  private void writeGroup(int leaves) {
    int fmt = Node.CURRENT_FORMAT;
    int n = laid.size();
    sumLengths(n);
    cutPacked(n);
    if (parts < leaves) {
      throw new IllegalStateException(
          "a run of " + leaves + " leaves packs into " + parts + " in index " + tree.indexName);
    }
    balance(n);
    long[] pages = new long[parts];
    for (int j = 0; j < leaves; j++) {
      Page p = tree.pages.write(group[j]);
      laid.writeTo(p, fmt, cuts[j], cuts[j + 1]);
      assert Node.assertWellFormed(p);
      pages[j] = group[j];
    }
    if (parts > leaves) {
      long prevNo = group[leaves - 1];
      long oldRight = Node.rightSibling(tree.pages.read(prevNo));
      for (int j = leaves; j < parts; j++) {
        Page r = tree.pages.allocate(PageType.LEAF);
        Node.init(r, 0);
        laid.writeTo(r, fmt, cuts[j], cuts[j + 1]);
        assert Node.assertWellFormed(r);
        Node.setLeftSibling(r, prevNo);
        Node.setRightSibling(tree.pages.write(prevNo), r.pageNo());
        prevNo = r.pageNo();
        pages[j] = prevNo;
      }
      Node.setRightSibling(tree.pages.write(prevNo), oldRight);
      if (oldRight != 0) {
        Node.setLeftSibling(tree.pages.write(oldRight), prevNo);
      }
    }
    // The separators of leaves 2..k of the run come out (the parent shrinks: nothing splits), and
    // the path is left leading to the run's first leaf, where the new ones go in as a split's do.
    Page parent = tree.pages.write(tree.pathPage[1]);
    for (int j = 1; j < leaves; j++) {
      Node.remove(parent, tree.pathIndex[1]);
    }
    insertSeparators(pages);
  }

  /**
   * Inserts the separators in front of parts 1 and up (page numbers {@code pages}) into the
   * parents, the path leading to the leaf of part 0.
   */
  private void insertSeparators(long[] pages) {
    // The last part's separator first: the path still leads to the leaf. Each earlier one goes
    // in front of it in the same parent; a descent finds where (a branch split moves things).
    for (int j = parts - 1; j >= 1; j--) {
      int at = cuts[j];
      int sepLen =
          Keys.separatorLength(
              laid.array(),
              laid.offset(at - 1),
              laid.length(at - 1),
              laid.array(),
              laid.offset(at),
              laid.length(at));
      byte[] sep = Arrays.copyOfRange(laid.array(), laid.offset(at), laid.offset(at) + sepLen);
      if (j < parts - 1) {
        tree.descend(sep, 0, sep.length);
      }
      splitter.insertAbove(sep, pages[j]);
    }
  }

  private void sumLengths(int n) {
    parts = 0;
    cuts[0] = 0;
    if (sums.length < n + 1) {
      sums = new long[Math.max(n + 1, sums.length * 2)];
      scratch.sums = sums;
    }
    for (int j = 0; j < n; j++) {
      sums[j + 1] = sums[j] + laid.length(j);
    }
  }

  /**
   * Evens out {@link #cutPacked}'s cuts of the {@code n} laid-out keys (every leaf full but the
   * last) so that the leaves share the free room: from the last leaf back, each takes keys from the
   * end of the one before while it holds fewer key bytes than the average and they fit. Every move
   * keeps both leaves within a page (the giver only shrinks), so the cuts stay valid whatever the
   * keys' prefixes make a leaf hold.
   */
  private void balance(int n) {
    long target = sums[n] / parts;
    for (int j = parts - 1; j >= 1; j--) {
      while (cuts[j] - cuts[j - 1] > 1
          && sums[cuts[j + 1]] - sums[cuts[j]] < target
          && bytes(cuts[j] - 1, cuts[j + 1]) <= body) {
        cuts[j]--;
      }
    }
  }

  /**
   * Cuts {@code [from, to)} where the larger half is smallest until every part fits a leaf. The cut
   * is tried first at the middle of the key bytes and one key either side of it (what the halves
   * share is what their first and last keys share); only when none of those leaves two halves that
   * fit is every cut weighed ({@link Splitter#balancedSplit}).
   */
  private void halve(int from, int to) {
    long all = bytes(from, to);
    if (all <= body) {
      cut(to);
      return;
    }
    int mid = Arrays.binarySearch(sums, from, to + 1, (sums[from] + sums[to]) / 2);
    mid = Math.min(to - 1, Math.max(from + 1, mid >= 0 ? mid : -(mid + 1)));
    int m = -1;
    long best = Long.MAX_VALUE;
    for (int k = Math.max(from + 1, mid - 1); k <= Math.min(to - 1, mid + 1); k++) {
      long larger = Math.max(bytes(from, k), bytes(k, to));
      if (larger < best) {
        best = larger;
        m = k;
      }
    }
    if (best > body && all <= 2L * body) {
      m = splitter.balancedSplit(laid, true, from, to, tree.pathPage[0], false);
    }
    halve(from, m);
    halve(m, to);
  }

  /** Body bytes laid-out keys {@code [from, to)} take as one leaf ({@link Cells#pageBytes}). */
  private long bytes(int from, int to) {
    int count = to - from;
    int shared = laid.commonPrefix(from, to - 1);
    return Node.bytesFor(
        Node.CURRENT_FORMAT, true, count, sums[to] - sums[from], Node.bestPrefix(shared, count));
  }

  /**
   * Cuts the {@code n} laid-out keys into leaves each as full as it goes, in order (appends, and a
   * run before {@link #balance}): where {@link #packedLeaves} closes each leaf.
   */
  private void cutPacked(int n) {
    int packed = packedLeaves();
    for (int j = 1; j < packed; j++) {
      cut(packCuts[j]);
    }
    cut(n);
  }

  private void cut(int end) {
    if (parts + 2 > cuts.length) {
      cuts = Arrays.copyOf(cuts, cuts.length * 2);
    }
    cuts[++parts] = end;
  }

  /**
   * Copies the separator above the path's node at level {@code from - 1} (the lowest branch on the
   * path from level {@code from} up whose taken child is not its last; from 1, the bound of the
   * path's leaf); false at the right edge of the tree, which nothing bounds.
   */
  private boolean upperBoundFrom(int from) {
    for (int level = from; level < tree.height; level++) {
      Page p = tree.pages.read(tree.pathPage[level]);
      int idx = tree.pathIndex[level];
      if (idx < Node.count(p)) {
        return copyBound(p, idx);
      }
    }
    return false;
  }

  /** Copies branch {@code p}'s key {@code idx} into {@link #upper}; true. */
  private boolean copyBound(Page p, int idx) {
    int len = Node.keyLength(p, idx);
    if (upper.length < len) {
      upper = new byte[Math.max(len, upper.length * 2)];
    }
    Keys.copyKey(p, idx, upper, 0);
    upperLen = len;
    return true;
  }

  /** Whether the current change is an insert below {@link #upper} (when {@code bounded}). */
  private boolean inRange(Changes c, boolean bounded) {
    return c.insert()
        && (!bounded
            || Arrays.compareUnsigned(
                    c.array(), c.offset(), c.offset() + c.length(), upper, 0, upperLen)
                < 0);
  }

  private static int compare(Cells a, int i, Changes c) {
    return Arrays.compareUnsigned(
        a.array(),
        a.offset(i),
        a.offset(i) + a.length(i),
        c.array(),
        c.offset(),
        c.offset() + c.length());
  }

  private void checkLength(Changes c) {
    if (c.length() > tree.maxEntry) {
      throw new KeyTooLongException(tree.indexName, c.length(), tree.maxEntry);
    }
    if (c.length() < 1) {
      throw new IllegalArgumentException(
          "entry length : " + c.length() + " (expected: 1.." + tree.maxEntry + ")");
    }
  }

  private IllegalStateException duplicate(Changes c, int slot) {
    return new IllegalStateException(
        "entry already in index "
            + tree.indexName
            + " (page "
            + leafNo
            + ", slot "
            + slot
            + "): "
            + Keys.hex(c.array(), c.offset(), c.length()));
  }
}
