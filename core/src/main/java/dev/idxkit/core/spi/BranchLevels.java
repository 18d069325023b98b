package dev.idxkit.core.spi;

import dev.idxkit.core.internal.btree.Cells;
import dev.idxkit.core.internal.btree.Keys;
import dev.idxkit.core.internal.btree.Node;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The branch levels of a bottom-up build ({@link TreeBuilder}), above its leaves. Each level has
 * one open page, filled to {@code max(leafFillPercent, 70)} % (PostgreSQL's 70 % for upper pages:
 * below that fan-out and height suffer). When a branch page is full it is given a number, written,
 * and added to the level above under the separator that preceded its first child, and the next page
 * of its level starts with the child that did not fit. {@link #close} writes the open pages
 * bottom-up; the top level's page is the root, unless it has a single child, which is then the
 * root.
 *
 * <p>Memory: one page of separators per level, one page buffer to write them into.
 */
final class BranchLevels {
  private static final int MIN_BRANCH_FILL = 70;

  private final PageSink sink;
  private final int pageSize;
  private final int areaId;
  private final int format;
  private final int maxEntry;
  private final int branchLimit;
  private final Page out;
  private final List<Level> levels = new ArrayList<>(); // index 0 is level 1
  private long pagesWritten;

  /** The open page of one branch level and the separator that will precede it in its parent. */
  private static final class Level {
    final int level;
    final Cells separators;
    long firstChild;
    long keyBytes;
    int shared;
    final byte[] sepBefore;
    int sepLen;
    boolean hasSep;
    boolean hasChild;

    Level(int pageSize, int level, int maxEntry) {
      this.level = level;
      separators = new Cells(pageSize);
      sepBefore = new byte[maxEntry];
    }
  }

  BranchLevels(PageSink sink, int pageSize, int areaId, int leafFillPercent, int format) {
    this.sink = sink;
    this.pageSize = pageSize;
    this.areaId = areaId;
    this.format = format;
    this.maxEntry = Node.maxEntryLength(pageSize);
    this.branchLimit = Node.bodySize(pageSize) * Math.max(leafFillPercent, MIN_BRANCH_FILL) / 100;
    this.out = new Page(BytesStore.wrap(new byte[pageSize]), 0, pageSize);
  }

  /**
   * The branch levels over level-1 children {@code all} (leaves already written, {@code pages} of
   * them and {@code entries} entries in all), for {@link TreeSegment#join}.
   */
  static BuildResult over(
      PageSink sink,
      int pageSize,
      int areaId,
      int leafFillPercent,
      List<TreeBuilder.Child> all,
      long pages,
      long entries) {
    BranchLevels upper =
        new BranchLevels(sink, pageSize, areaId, leafFillPercent, Node.CURRENT_FORMAT);
    for (TreeBuilder.Child c : all) {
      byte[] sep = c.separator();
      upper.addChild(
          1, c.page(), sep == null ? new byte[0] : sep, sep == null ? 0 : sep.length, sep != null);
    }
    return upper.close(pages, entries);
  }

  /** Whether no child was added yet. */
  boolean isEmpty() {
    return levels.isEmpty();
  }

  /** Adds {@code child} to the open page of {@code level}, after separator {@code sep}. */
  void addChild(int level, long child, byte[] sep, int sepLen, boolean hasSep) {
    if (levels.size() < level) {
      levels.add(new Level(pageSize, level, maxEntry));
    }
    Level lv = levels.get(level - 1);
    if (!lv.hasChild) {
      startBranch(lv, child, sep, sepLen, hasSep);
      return;
    }
    assert hasSep : "only a level's first child has no separator before it";
    Cells seps = lv.separators;
    int n = seps.size() + 1;
    int shared =
        n == 1
            ? sepLen
            : Math.min(
                lv.shared,
                Keys.commonPrefix(
                    seps.array(), seps.offset(n - 2), seps.length(n - 2), sep, 0, sepLen));
    int pfx = TreeBuilder.prefixFor(format, shared, n);
    if (Node.bytesFor(format, false, n, lv.keyBytes + sepLen, pfx) > branchLimit) {
      long no = writeBranch(lv);
      addChild(level + 1, no, lv.sepBefore, lv.sepLen, lv.hasSep);
      startBranch(lv, child, sep, sepLen, true);
      return;
    }
    seps.add(sep, 0, sepLen, child);
    lv.keyBytes += sepLen;
    lv.shared = shared;
  }

  /**
   * Writes the open branch pages bottom-up and returns the tree, counting {@code leafPages} and
   * {@code entries} with the branch pages written (there is at least one level).
   */
  BuildResult close(long leafPages, long entries) {
    for (int level = 1; ; level++) {
      Level lv = levels.get(level - 1);
      boolean top = level == levels.size();
      if (top && lv.separators.size() == 0) {
        return new BuildResult(lv.firstChild, level, leafPages + pagesWritten, entries);
      }
      long no = writeBranch(lv);
      if (top) {
        return new BuildResult(no, level + 1, leafPages + pagesWritten, entries);
      }
      addChild(level + 1, no, lv.sepBefore, lv.sepLen, lv.hasSep);
    }
  }

  /** Starts a level's open page with {@code child}; {@code sep} will precede it in the parent. */
  private static void startBranch(Level lv, long child, byte[] sep, int sepLen, boolean hasSep) {
    lv.firstChild = child;
    lv.hasChild = true;
    lv.separators.clear();
    lv.keyBytes = 0;
    lv.shared = 0;
    System.arraycopy(sep, 0, lv.sepBefore, 0, sepLen);
    lv.sepLen = sepLen;
    lv.hasSep = hasSep;
  }

  /** Numbers and writes a complete branch page. */
  private long writeBranch(Level lv) {
    // A branch's number is only needed once it is complete; asking for it then keeps branch
    // pages from interleaving with the leaves that are written before them.
    long no = sink.allocate();
    out.format(PageType.BRANCH, no, areaId);
    Node.init(out, lv.level, format);
    Node.setFirstChild(out, lv.firstChild);
    lv.separators.writeTo(out, format, 0, lv.separators.size());
    assert Node.assertWellFormed(out);
    sink.write(no, out);
    pagesWritten++;
    return no;
  }
}
