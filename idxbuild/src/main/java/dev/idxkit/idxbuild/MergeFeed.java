package dev.idxkit.idxbuild;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.idxbuild.sort.EntrySource;
import dev.idxkit.idxbuild.sort.LoserTree;
import dev.idxkit.idxbuild.sort.PackedMerge;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The final merge of a sort group's sources, fed to one {@link IndexBuild} per index as the entries
 * come (grouped by index id, in key order): entry by entry, or, when the merge's length is known,
 * in batches of {@value #BATCH} ({@link PackedMerge#fill} and {@link IndexBuild#addAll} for a
 * packed merge of one index). Why batches, and why the first entry of each index is added outside
 * the loop: the JIT compiles the loop once for every group, and a branch it never took for the
 * group it was compiled for sends every later group back to the interpreter (see {@link
 * SortGroup}).
 */
final class MergeFeed {
  // Entries per call of the merge loop when the merge's length is known. Small enough that HotSpot
  // compiles each batch loop (fill, addNextAll, addAll) whole once it has been called 600 times,
  // mostly before the loop has run the 40,000 iterations that compile it on the stack: with 256,
  // C2 compiled each of them on the stack first and again whole, late in a cold command's build
  // (cold SF 0.5 six-index rebuild, build phase 0.88x per pair; warm builds no slower).
  static final int BATCH = 64;
  // Entries between two reports to the rebuild's shared progress count (an atomic add that the
  // build threads would otherwise contend for after every batch) and two checks for a cancel.
  private static final int PROGRESS_STEP = 4096;

  private MergeFeed() {}

  /** Merges {@code sources} and feeds each entry to its index's builder. */
  static Map<Integer, IndexBuild> merge(
      Catalog catalog,
      List<EntrySource> sources,
      Function<IndexInfo, IndexBuild> newBuild,
      Cancel cancel,
      AtomicLong built) {
    Map<Integer, IndexBuild> builders = new HashMap<>();
    try (EntrySource merged = sources.size() == 1 ? sources.get(0) : new LoserTree(sources)) {
      if (!merged.next()) {
        return builders;
      }
      // The first entry of each index starts its builder outside the loop: the loop is compiled
      // once for all groups, and a branch it never took for the group it was compiled for (a new
      // index, a builder's first leaf) would send every later group's first entry back to the
      // interpreter and the loop to the compiler again.
      IndexBuild current = start(catalog, merged, newBuild, builders);
      long unreported = 1; // the first entry
      // With a known length, batches of next() calls that never return false, for the same reason
      // (the loop's end would be such a branch); each batch is a call, so the loop compiles as a
      // method, early, not as a replacement on the stack. Without one, entry by entry.
      long left = merged.remaining();
      if (left < 0) {
        while (merged.next()) {
          current = addCurrent(catalog, merged, current, newBuild, builders);
          unreported = report(unreported + 1, built, cancel);
        }
      } else if (merged instanceof PackedMerge packed && packed.fillsWithout(2)) {
        unreported = fillAll(packed, left, current, unreported, cancel, built);
      } else {
        while (left > 0) {
          int batch = (int) Math.min(left, BATCH);
          current = addBatch(catalog, merged, batch, current, newBuild, builders);
          left -= batch;
          unreported = report(unreported + batch, built, cancel);
        }
      }
      built.addAndGet(unreported);
    }
    return builders;
  }

  /**
   * Entries built but not yet in the rebuild's shared count: added to it, with a check for a
   * cancel, once there are {@link #PROGRESS_STEP}; returns what is still unreported.
   */
  private static long report(long unreported, AtomicLong built, Cancel cancel) {
    if (unreported < PROGRESS_STEP) {
      return unreported;
    }
    built.addAndGet(unreported);
    cancel.check();
    return 0;
  }

  /**
   * The {@code left} entries after the first of a packed merge of one index, a batch at a time:
   * written into one array less their index id and given to the builder together. Returns the
   * entries not yet reported to {@code built}, starting from {@code unreported}.
   */
  private static long fillAll(
      PackedMerge packed,
      long left,
      IndexBuild current,
      long unreported,
      Cancel cancel,
      AtomicLong built) {
    int len = packed.length() - 2;
    byte[] batch = packed.fillArray(BATCH, 2);
    int[] shared = new int[BATCH];
    while (left > 0) {
      int count = (int) Math.min(left, BATCH);
      packed.fill(batch, 2, shared, count);
      current.addAll(batch, count, len, shared);
      left -= count;
      unreported = report(unreported + count, built, cancel);
    }
    return unreported;
  }

  /** The next {@code count} entries of {@code merged}, which has at least that many left. */
  private static IndexBuild addBatch(
      Catalog catalog,
      EntrySource merged,
      int count,
      IndexBuild current,
      Function<IndexInfo, IndexBuild> newBuild,
      Map<Integer, IndexBuild> builders) {
    for (int i = 0; i < count; i++) {
      if (!merged.next()) {
        throw new IllegalStateException("the merge ended before the entries it announced");
      }
      current = addCurrent(catalog, merged, current, newBuild, builders);
    }
    return current;
  }

  /** Adds {@code merged}'s current entry, after the first, to its index's builder; returns it. */
  private static IndexBuild addCurrent(
      Catalog catalog,
      EntrySource merged,
      IndexBuild current,
      Function<IndexInfo, IndexBuild> newBuild,
      Map<Integer, IndexBuild> builders) {
    byte[] a = merged.array();
    int off = merged.offset();
    int len = merged.length();
    if (indexId(a, off) != current.index.id()) {
      return start(catalog, merged, newBuild, builders);
    }
    // What the entry shares with the one before, less the index id (the same, both bytes).
    int shared = merged.shared();
    current.add(a, off + 2, len - 2, shared < 0 ? -1 : shared - 2);
    return current;
  }

  /** A builder for the index of {@code merged}'s current entry, given that entry. */
  private static IndexBuild start(
      Catalog catalog,
      EntrySource merged,
      Function<IndexInfo, IndexBuild> newBuild,
      Map<Integer, IndexBuild> builders) {
    byte[] a = merged.array();
    int off = merged.offset();
    int id = indexId(a, off);
    IndexBuild b = newBuild.apply(catalog.index(id));
    builders.put(id, b);
    b.first(a, off + 2, merged.length() - 2);
    return b;
  }

  /** The index id an entry starts with (two bytes, big-endian). */
  private static int indexId(byte[] a, int off) {
    return ((a[off] & 0xFF) << 8) | (a[off + 1] & 0xFF);
  }
}
