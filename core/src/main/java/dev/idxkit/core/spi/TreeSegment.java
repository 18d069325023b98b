package dev.idxkit.core.spi;

import dev.idxkit.core.internal.btree.Keys;
import dev.idxkit.core.internal.btree.Node;
import dev.idxkit.core.spi.TreeBuilder.Child;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One key range's leaves: all written except the first and the last, which are held (with their
 * outer sibling links still zero) until {@link #join} knows the neighbours.
 */
public final class TreeSegment {
  private final List<Child> children;
  private final Page first;
  private final Page last;
  private final long entries;
  private final long pagesWritten;

  TreeSegment(List<Child> children, Page first, Page last, long entries, long pagesWritten) {
    this.children = children;
    this.first = first;
    this.last = last;
    this.entries = entries;
    this.pagesWritten = pagesWritten;
  }

  public long entries() {
    return entries;
  }

  public boolean isEmpty() {
    return entries == 0;
  }

  /** The segment's first entry (its smallest). */
  public byte[] firstEntry() {
    return Keys.keyBytes(first, 0);
  }

  /** The segment's last entry (its largest). */
  public byte[] lastEntry() {
    return Keys.keyBytes(last, Node.count(last) - 1);
  }

  /**
   * Joins the segments of consecutive key ranges (in key order; empty ones are skipped) into one
   * tree: links neighbouring leaves, writes the held leaves, and builds the branch levels through
   * {@code sink}. Same entries as one build of the whole input, up to one extra leaf per boundary.
   *
   * <p>Each pair of neighbours is checked (the last entry of one below the first of the next),
   * linked and written, and the separator between them computed as between any two leaves; the
   * branch levels are then built over every segment's level-1 children in order.
   */
  public static BuildResult join(
      PageSink sink,
      int pageSize,
      int areaId,
      int leafFillPercent,
      String indexName,
      List<TreeSegment> segments) {
    long entries = 0;
    long pages = 0;
    List<Child> all = new ArrayList<>();
    Page prevLast = null;
    for (TreeSegment seg : segments) {
      if (seg.isEmpty()) {
        continue;
      }
      entries += seg.entries;
      pages += seg.pagesWritten;
      Page first = seg.first;
      byte[] sep = null;
      if (prevLast != null) {
        byte[] a = Keys.keyBytes(prevLast, Node.count(prevLast) - 1);
        byte[] b = Keys.keyBytes(first, 0);
        if (Arrays.compareUnsigned(a, b) >= 0) {
          throw new IllegalArgumentException(
              "index " + indexName + ": segments overlap or are out of order");
        }
        sep = Arrays.copyOf(b, Keys.separatorLength(a, 0, a.length, b, 0, b.length));
        Node.setRightSibling(prevLast, first.pageNo());
        Node.setLeftSibling(first, prevLast.pageNo());
        sink.write(prevLast.pageNo(), prevLast);
        pages++;
      }
      if (first != seg.last) {
        sink.write(first.pageNo(), first);
        pages++;
      }
      all.add(new Child(seg.children.get(0).page(), sep));
      all.addAll(seg.children.subList(1, seg.children.size()));
      prevLast = seg.last;
    }
    if (prevLast == null) {
      return new TreeBuilder(sink, pageSize, areaId, leafFillPercent, indexName).finish();
    }
    sink.write(prevLast.pageNo(), prevLast);
    pages++;
    if (all.size() == 1) {
      return new BuildResult(all.get(0).page(), 1, pages, entries);
    }
    return BranchLevels.over(sink, pageSize, areaId, leafFillPercent, all, pages, entries);
  }
}
