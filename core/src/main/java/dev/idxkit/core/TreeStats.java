package dev.idxkit.core;

import dev.idxkit.core.internal.btree.BTree;
import java.util.List;

/**
 * What {@link BTree#check} measured while walking a tree, for the {@code check} and {@code analyze}
 * commands. Figures cover the pages that could be read; {@code problems} counts what was reported.
 *
 * @param entries entries in all leaves
 * @param height levels, 1 for a single leaf
 * @param pagesPerLevel pages per level, index 0 the leaves, the last the root
 * @param leafFillPercent average over leaves of used bytes (slots and cells) / body bytes, in %
 * @param averageEntrySize average entry length in bytes (0 for an empty tree)
 * @param distinctPrefixRatio distinct leading 8-byte prefixes / entries (0 for an empty tree): how
 *     well a normalized 8-byte prefix separates the keys
 * @param problems broken invariants reported
 */
public record TreeStats(
    long entries,
    int height,
    List<Long> pagesPerLevel,
    double leafFillPercent,
    double averageEntrySize,
    double distinctPrefixRatio,
    int problems) {

  public TreeStats {
    pagesPerLevel = List.copyOf(pagesPerLevel);
  }

  /** Pages on all levels. */
  public long pages() {
    long n = 0;
    for (long p : pagesPerLevel) {
      n += p;
    }
    return n;
  }
}
