package dev.idxkit.idxbuild.sort;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * A group's kept buffers sorted as one array instead of merged: for a group of one index whose
 * buffers all stayed in memory and were packed in arrival order ({@link
 * PackedEntries#packInArrivalOrder}), not sorted by the scan. At SF 0.5 (six lineitem groups of 3 M
 * entries, 16 MiB buffers) the scan spent ~270 ms of CPU a round sorting its buffers and the build
 * ~360 ms merging each group's 6-9 sorted buffers (a loser tree, ~20 ns an entry). This sort takes
 * 50-65 ms for such a group of a 17-bit key (~20 ns an entry in all), and the scan sorts nothing.
 *
 * <p>Steps:
 *
 * <ol>
 *   <li>One layout for the buffers ({@link PackedMerge#commonLayout}); each buffer's longs
 *       rewritten into it in place, counting the values of the key's digits ({@value #DIGIT_BITS}
 *       bits each, up to {@value #MAX_DIGITS}; a key of up to {@value #WHOLE_BITS} bits is counted
 *       whole) on the way: one tight loop a buffer, a task each on the group's range threads when
 *       it has them. When every buffer's keys grow already (a primary key in load order), nothing
 *       is counted unless the walk below finds them out of order after all.
 *   <li>The longs are then read <em>in RID order</em> ({@code Walk}): each buffer is in RID order
 *       (a scan worker's entries come page after page), but the workers took chunks of pages in
 *       turn, so the buffers' RID ranges interleave. The walk takes the buffer with the lowest next
 *       RID, finds by galloping where its RID passes the others' lowest next one, and reads that
 *       run: a chunk or more at a time, nothing per entry. If every buffer is in order and each run
 *       starts above the last one's end (a primary key loaded in key order), the walk copies them
 *       and the sort is done.
 *   <li>Stable LSD radix passes on the digits that hold more than one value (partkey at SF 0.5
 *       varies in 17 bits: two passes, where byte digits take three; a key counted whole, on the
 *       bits its values differ in: a date's 12 bits in one pass), the first one scattering straight
 *       from the walk. The passes are stable and their input is in RID order, so equal keys stay in
 *       RID order and the RID bits need no pass: the longs end in the entries' order.
 * </ol>
 *
 * <p>Memory: two arrays of 8 bytes an entry besides the buffers, kept in a {@link Workspace} for
 * the build thread's next group. Keys of more than {@value #MAX_DIGITS} digits, a buffer sorted
 * already, or no common layout: {@link #sort} declines and the caller sorts each buffer and merges
 * them, as before.
 */
public final class GroupSort {
  static final int DIGIT_BITS = 11;
  private static final int MASK = (1 << DIGIT_BITS) - 1;
  // Keys of at most this many varying bits are counted whole, and sorted in one pass when their
  // values differ in at most ONE_PASS_BITS bits.
  static final int WHOLE_BITS = 16;
  static final int ONE_PASS_BITS = 13;
  // Digits a key may have here, counted over its varying bytes: keys that vary in more than five
  // bytes are merged as before (by its value ranges, lineitem_part_supp_ix at SF 10: three bytes
  // each of part and supplier key).
  static final int MAX_DIGITS = 4;

  private GroupSort() {}

  /**
   * The entries of {@code buffers} sorted into one part, for a {@link PackedMerge} that reads it in
   * order, or null when they cannot be sorted this way (a buffer not packed in arrival order, more
   * than {@code freeBytes} for the sort's two arrays of 8 bytes an entry, no common layout, too
   * many entries for one array): the caller then sorts each buffer and merges them. The buffers may
   * have been recoded into the common layout; they keep their entries and order either way.
   */
  public static PackedMerge.Group sort(
      List<EntryBuffer> buffers, long freeBytes, Workspace work, Executor helpers) {
    List<PackedEntries> parts = new java.util.ArrayList<>();
    long total = 0;
    for (EntryBuffer b : buffers) {
      PackedEntries p = b.packed();
      if (p == null || !p.inArrivalOrder()) {
        return null;
      }
      parts.add(p);
      total += p.size();
    }
    if (parts.isEmpty() || 16 * total > freeBytes || total > (Integer.MAX_VALUE - 8) / 8) {
      return null;
    }
    PackedEntries.Layout layout = PackedMerge.commonLayout(parts);
    if (layout == null || 8 * layout.at().length > MAX_DIGITS * DIGIT_BITS) {
      return null;
    }
    return PackedMerge.Group.of(sort(parts, layout, (int) total, work, helpers));
  }

  private static PackedEntries sort(
      List<PackedEntries> parts,
      PackedEntries.Layout layout,
      int n,
      Workspace work,
      Executor helpers) {
    long lastPage = 0;
    boolean ordered = true;
    for (PackedEntries p : parts) {
      lastPage = Math.max(lastPage, p.lastPage());
      ordered &= p.keyOrdered();
    }
    Walk walk = new Walk(parts, layout);
    byte[] a = work.first(8 * n);
    // 1. Every part into the common layout, in place. Parts whose keys each grow (a primary key in
    // load order) are most likely in order once walked: no counts for those until the walk says
    // otherwise. The others count their key digits on the way: one tight loop a part (recoding
    // each long inside the walks doubled their time, a walk of its own to count took as long as a
    // pass).
    if (ordered) {
      eachPart(parts, helpers, 0, (p, c) -> p.recodeCounting(layout, null));
      if (walk.inOrder()) {
        walk.copy(a);
        return new PackedEntries(n, layout, lastPage, a, 0, true, true);
      }
    }
    // (After an ordered pass above the parts are in the layout already: this only counts.)
    // 2. The passes: on the digits that hold more than one value (the others would move nothing),
    // LSD. A key of up to two varying bytes is counted whole (one count a long, not four) and
    // sorted in one pass when its values differ in at most ONE_PASS_BITS bits.
    boolean whole = 8 * layout.at().length <= WHOLE_BITS;
    int[] counts =
        eachPart(
            parts,
            helpers,
            whole ? 1 << WHOLE_BITS : MAX_DIGITS << DIGIT_BITS,
            (p, c) -> p.recodeCounting(layout, c));
    List<Pass> plan = whole ? wholePlan(counts) : digitPlan(counts, layout, n);
    if (plan.isEmpty()) { // one key: RID order is the order
      walk.copy(a);
      return new PackedEntries(n, layout, lastPage, a, 0, true, true);
    }
    int ridBits = layout.ridBits();
    Pass first = plan.get(0);
    walk.scatter(a, ridBits + first.shift(), first.mask(), first.offsets());
    byte[] src = a;
    byte[] dst = plan.size() > 1 ? work.second(8 * n) : null;
    for (Pass pass : plan.subList(1, plan.size())) {
      PackedEntries.radixPass(
          src, 0, dst, 0, n, ridBits + pass.shift(), pass.mask(), pass.offsets());
      byte[] t = src;
      src = dst;
      dst = t;
    }
    return new PackedEntries(n, layout, lastPage, src, 0, true, false);
  }

  /**
   * One radix pass: on the key bits {@code [shift, shift + bitCount(mask))} (from the key's lowest,
   * above the RID), each value's first position in the output.
   */
  private record Pass(int shift, int mask, int[] offsets) {
    /** A pass whose values' counts are {@code counts[from, from + mask + 1)}. */
    static Pass of(int shift, int mask, int[] counts, int from) {
      int[] at = new int[mask + 1];
      int sum = 0;
      for (int v = 0; v <= mask; v++) {
        at[v] = sum;
        sum += counts[from + v];
      }
      return new Pass(shift, mask, at);
    }
  }

  /** Passes on the {@value #DIGIT_BITS}-bit digits that hold more than one value. */
  private static List<Pass> digitPlan(int[] counts, PackedEntries.Layout layout, int n) {
    List<Pass> plan = new java.util.ArrayList<>();
    int digits = (8 * layout.at().length + DIGIT_BITS - 1) / DIGIT_BITS;
    for (int d = 0; d < digits; d++) {
      int c = d << DIGIT_BITS;
      int max = 0;
      for (int v = 0; v < 1 << DIGIT_BITS; v++) {
        max = Math.max(max, counts[c + v]);
      }
      if (max < n) {
        plan.add(Pass.of(d * DIGIT_BITS, MASK, counts, c));
      }
    }
    return plan;
  }

  /**
   * Passes for a key counted whole ({@code counts} of all {@value #WHOLE_BITS} bits): over the bits
   * its values differ in, from the lowest up to the highest. At most {@value #ONE_PASS_BITS} such
   * bits (dates: 12, suppkey at SF 0.5: 13) take one pass, more two of half as many (suppkey at SF
   * 1: 14 bits, two of 7). The counts of a pass's digit are the whole key's folded: the bits above
   * it are the same in every key.
   */
  private static List<Pass> wholePlan(int[] counts) {
    int first = -1;
    int differ = 0;
    for (int v = 0; v < counts.length; v++) {
      if (counts[v] != 0) {
        first = first < 0 ? v : first;
        differ |= v ^ first;
      }
    }
    int bits = 32 - Integer.numberOfLeadingZeros(differ);
    if (bits == 0) {
      return List.of();
    }
    int low = bits <= ONE_PASS_BITS ? bits : bits / 2;
    int lowMask = (1 << low) - 1;
    int highMask = (1 << (bits - low)) - 1;
    int[] lowCounts = new int[lowMask + 1];
    int[] highCounts = new int[highMask + 1];
    for (int v = 0; v < counts.length; v++) {
      lowCounts[v & lowMask] += counts[v];
      highCounts[(v >>> low) & highMask] += counts[v];
    }
    Pass lowPass = Pass.of(0, lowMask, lowCounts, 0);
    return bits == low ? List.of(lowPass) : List.of(lowPass, Pass.of(low, highMask, highCounts, 0));
  }

  /** What {@link #eachPart} does to a part, with counts of its own to fill. */
  private interface PartWork {
    void run(PackedEntries part, int[] counts);
  }

  /**
   * {@code job} for every part, a task each on {@code helpers} (the range threads that build the
   * group next, when it has them: the parts are independent, and this step was one thread's ~15 ms
   * on the primary key at SF 0.5 while the other core waited), each task counting into its own
   * array; returns the counts summed. Waits for every task; the first failure is thrown.
   */
  private static int[] eachPart(
      List<PackedEntries> parts, Executor helpers, int countsLength, PartWork job) {
    List<CompletableFuture<int[]>> tasks = new java.util.ArrayList<>();
    for (PackedEntries p : parts) {
      tasks.add(
          CompletableFuture.supplyAsync(
              () -> {
                int[] c = countsLength == 0 ? null : new int[countsLength];
                job.run(p, c);
                return c;
              },
              helpers));
    }
    int[] sum = new int[countsLength];
    Throwable failure = null;
    for (CompletableFuture<int[]> t : tasks) {
      try {
        int[] c = t.join();
        for (int i = 0; i < countsLength; i++) {
          sum[i] += c[i];
        }
      } catch (CompletionException e) {
        failure = failure == null ? e.getCause() : failure;
      }
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    return sum;
  }

  /**
   * Counts the key digits of {@code v} ({@value #DIGIT_BITS} bits each from the key's lowest, the
   * key above {@code ridBits}), digit {@code d} at {@code counts[d << DIGIT_BITS | value]}. Written
   * out for the {@value #MAX_DIGITS} digits: a loop over them took twice as long.
   */
  static void countDigits(long v, int ridBits, int[] counts) {
    int key = (int) (v >>> ridBits);
    long high = v >>> (ridBits + 2 * DIGIT_BITS);
    counts[key & MASK]++;
    counts[(1 << DIGIT_BITS) | ((key >>> DIGIT_BITS) & MASK)]++;
    counts[(2 << DIGIT_BITS) | ((int) high & MASK)]++;
    counts[(3 << DIGIT_BITS) | ((int) (high >>> DIGIT_BITS) & MASK)]++;
  }

  /**
   * The two arrays a sort works in, kept for the next sort on the same thread: a build thread sorts
   * its groups one after another, and new 24 MB arrays a group were zeroed by the JVM each time
   * (60-78 ms of a round's CPU). The array a sort returned holds its result until the next sort.
   */
  public static final class Workspace {
    private byte[] first = new byte[0];
    private byte[] second = new byte[0];

    byte[] first(int bytes) {
      if (first.length < bytes) {
        first = null; // the old one can go before the new one is made
        first = new byte[bytes];
      }
      return first;
    }

    byte[] second(int bytes) {
      if (second.length < bytes) {
        second = null;
        second = new byte[bytes];
      }
      return second;
    }
  }

  /**
   * The parts' longs (in the common layout) in RID order: the part with the lowest next RID gives
   * its longs until their RID passes the others' lowest next one (no two entries share a RID). Each
   * use walks them all once, a run at a time: a copy or a radix pass of the run.
   */
  private static final class Walk {
    private final List<PackedEntries> parts;
    private final long ridMask;
    private final int ridBits;
    private final int[] pos;

    Walk(List<PackedEntries> parts, PackedEntries.Layout layout) {
      this.parts = parts;
      this.ridBits = layout.ridBits();
      this.ridMask = (1L << ridBits) - 1;
      this.pos = new int[parts.size()];
    }

    /**
     * Whether the longs already come in order in RID order (a primary key loaded in key order):
     * every part in order, and each run's first long above the last of the run before it.
     */
    boolean inOrder() {
      for (PackedEntries p : parts) {
        if (!p.keyOrdered()) {
          return false;
        }
      }
      java.util.Arrays.fill(pos, 0);
      long last = 0;
      for (int i = next(); i >= 0; i = next()) {
        PackedEntries p = parts.get(i);
        int end = runEnd(i);
        if (Long.compareUnsigned(last, p.packedAt(pos[i])) > 0) {
          return false;
        }
        last = p.packedAt(end - 1);
        pos[i] = end;
      }
      return true;
    }

    /** The longs, in RID order, into {@code a}. */
    void copy(byte[] a) {
      java.util.Arrays.fill(pos, 0);
      int o = 0;
      for (int i = next(); i >= 0; i = next()) {
        PackedEntries p = parts.get(i);
        int end = runEnd(i);
        System.arraycopy(p.longs(), p.longsAt() + (pos[i] << 3), a, o << 3, (end - pos[i]) << 3);
        o += end - pos[i];
        pos[i] = end;
      }
    }

    /**
     * The first radix pass: the longs, in RID order, to {@code a} by the digit at {@code shift}.
     */
    void scatter(byte[] a, int shift, int mask, int[] at) {
      java.util.Arrays.fill(pos, 0);
      for (int i = next(); i >= 0; i = next()) {
        PackedEntries p = parts.get(i);
        int end = runEnd(i);
        int from = p.longsAt() + (pos[i] << 3);
        PackedEntries.radixPass(p.longs(), from, a, 0, end - pos[i], shift, mask, at);
        pos[i] = end;
      }
    }

    /** The part with the lowest next RID, or -1 when every part is done. */
    private int next() {
      int best = -1;
      long bestRid = Long.MAX_VALUE;
      for (int i = 0; i < pos.length; i++) {
        long r = ridAt(i);
        if (r < bestRid) {
          bestRid = r;
          best = i;
        }
      }
      return best;
    }

    /** Part {@code i}'s next RID in the common layout, {@code Long.MAX_VALUE} when it is done. */
    private long ridAt(int i) {
      PackedEntries p = parts.get(i);
      return pos[i] < p.size() ? p.packedAt(pos[i]) & ridMask : Long.MAX_VALUE;
    }

    /**
     * The end of part {@code i}'s run from its position: its first long whose RID passes the other
     * parts' next RIDs, found by doubling then halving (a run is a chunk of pages or more).
     */
    private int runEnd(int i) {
      long limit = Long.MAX_VALUE;
      for (int o = 0; o < pos.length; o++) {
        if (o != i) {
          limit = Math.min(limit, ridAt(o));
        }
      }
      PackedEntries p = parts.get(i);
      int lo = pos[i]; // RID below the limit
      int n = p.size();
      int step = 1;
      int hi = lo + step;
      while (hi < n && (p.packedAt(hi) & ridMask) < limit) {
        lo = hi;
        step <<= 1;
        hi = lo + step;
      }
      hi = Math.min(hi, n); // the first position known past the run, or the end
      while (hi - lo > 1) {
        int mid = (lo + hi) >>> 1;
        if ((p.packedAt(mid) & ridMask) < limit) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      return hi;
    }
  }
}
