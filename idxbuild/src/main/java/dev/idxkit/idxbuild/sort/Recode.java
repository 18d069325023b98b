package dev.idxkit.idxbuild.sort;

import java.util.Arrays;

/**
 * Rewrites longs of {@code from} into {@code to}, a layout {@link PackedEntries#common} made for
 * {@code from} among others: the same entry, so the order of a buffer's longs is kept. {@link
 * PackedMerge} recodes each long as it loads it when only the RID moves ({@link #onlyRidMoves}); a
 * buffer whose varying bytes differ is rewritten into the common layout first ({@link
 * PackedEntries#recodeInto}).
 */
final class Recode {
  private final boolean sameBytes;
  private final int fromBits;
  private final int fromSlot;
  private final long slotMask;
  private final long pageDelta;
  private final int toBits;
  private final int toSlot;
  // The general case: for each varying byte of the target, the shift of ours it is, or -1 and
  // the constant byte our template has there.
  private final int[] shift;
  private final int[] constant;

  Recode(PackedEntries.Layout from, PackedEntries.Layout to) {
    this.fromBits = from.ridBits();
    this.fromSlot = from.slotBits();
    this.slotMask = (1L << fromSlot) - 1;
    this.pageDelta = from.firstPage() - to.firstPage();
    this.toBits = to.ridBits();
    this.toSlot = to.slotBits();
    this.sameBytes = onlyRidMoves(from, to);
    int tv = to.at().length;
    this.shift = new int[tv];
    this.constant = new int[tv];
    int[] ours = from.at();
    for (int g = 0, v = 0; g < tv; g++) {
      int pos = to.at()[g];
      while (v < ours.length && ours[v] < pos) {
        v++;
      }
      if (v < ours.length && ours[v] == pos) {
        shift[g] = 8 * (ours.length - 1 - v);
        constant[g] = -1;
      } else {
        constant[g] = from.template()[pos] & 0xFF;
      }
    }
  }

  /**
   * Whether a long of {@code from} goes into {@code to} by {@link #moveRid} alone: the two layouts
   * vary in the same key bytes (and leave room to shift the RID).
   */
  static boolean onlyRidMoves(PackedEntries.Layout from, PackedEntries.Layout to) {
    return Arrays.equals(from.at(), to.at()) && from.ridBits() < 64 && to.ridBits() < 64;
  }

  /**
   * Whether {@link #moveRid} gives every long back as it is: the same key bytes, RID width, slot
   * width and first page (a group {@link GroupSort} sorted into its own layout).
   */
  boolean isIdentity() {
    return sameBytes && fromBits == toBits && fromSlot == toSlot && pageDelta == 0;
  }

  /**
   * {@link #apply} when {@link #onlyRidMoves}: the key bits shifted as they are, the RID moved to
   * the target's first page and slot width. What the merge loop calls ({@link PackedMerge}).
   */
  long moveRid(long k) {
    return (k >>> fromBits) << toBits | rid(k & ((1L << fromBits) - 1));
  }

  /** RID {@code r} of ours (page delta and slot) as the target's: re-based, slot bits widened. */
  private long rid(long r) {
    return ((r >>> fromSlot) + pageDelta) << toSlot | (r & slotMask);
  }

  long apply(long k) {
    if (sameBytes) {
      return moveRid(k);
    }
    long key = fromBits == 64 ? 0 : k >>> fromBits;
    long g = 0;
    for (int j = 0; j < shift.length; j++) {
      g = (g << 8) | (constant[j] >= 0 ? constant[j] : (key >>> shift[j]) & 0xFF);
    }
    long rid = rid(fromBits == 64 ? k : k & ((1L << fromBits) - 1));
    return toBits == 64 ? rid : (g << toBits) | rid;
  }
}
