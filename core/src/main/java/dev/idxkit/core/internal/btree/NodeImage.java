package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Many keys written into a {@link Node} page at once: the slots and cells are laid out in a byte
 * array image of the page first ({@link Cells#image}) and copied into the page in two writes, since
 * a page write per key costs more than the key's bytes (Chronicle's bounds and release checks, and
 * for heap pages a native call per write). {@link #appendFixed} is the rebuilder's case, a leaf of
 * keys that are all as long; {@link #appendAll} takes any keys, a branch's too.
 */
final class NodeImage {
  // Page fields are written in the platform's order, as Chronicle Bytes writes them (Page).
  private static final VarHandle NATIVE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final VarHandle NATIVE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());

  private NodeImage() {}

  /** Appends keys {@code [from, to)} of {@code cells}, as {@link Node#append} one by one would. */
  static void appendAll(Page p, Cells cells, int from, int to) {
    int format = Node.format(p);
    int pfx = Node.prefixLength(p);
    int shift = Node.keyShift(p);
    int slotSize = Node.slotSize(format);
    int n = Node.count(p);
    int slotStart = Node.slotPos(p, n);
    int heapEnd = Node.heapStart(p);
    byte[] img = Cells.image(p.size());
    byte[] b = cells.array();
    int slotPos = slotStart;
    int heap = heapEnd;
    for (int i = from; i < to; i++) {
      int kOff = cells.offset(i) + pfx;
      int sLen = cells.length(i) - pfx;
      heap -= sLen + shift;
      if (heap < slotPos + slotSize) {
        throw new IllegalStateException(
            "append of " + (to - from) + " keys overflows page " + p.pageNo());
      }
      if (shift != 0) {
        NATIVE_LONG.set(img, heap, cells.child(i));
      }
      System.arraycopy(b, kOff, img, heap + shift, sLen);
      putSlot(img, format, slotPos, heap, b, kOff, sLen);
      slotPos += slotSize;
    }
    copyOut(p, img, slotStart, slotPos, heap, heapEnd, n + to - from);
  }

  /**
   * {@link #appendAll} for a leaf's keys that are all {@code len} bytes long (8 or more), back to
   * back in {@code b} from {@code at}: the same page, without a key's offset, length and child
   * looked up, and its suffix moved in 8-byte words, not by a call of the array copy stub. The
   * rebuilder's leaves are made of such keys (fixed-length entries); laying them out took about
   * two-fifths of a bottom-up build's CPU ({@code BTreeBuildBench}, memory sink, batch feed). The
   * cells are written first, from the heap's end down, each by words that end at its end: the first
   * word of a suffix under 8 bytes starts before it, on what the next cell down (or the slots,
   * written after the cells) overwrites; nothing is written after a cell's end.
   */
  static void appendFixed(Page p, byte[] b, int at, int count, int len) {
    int format = Node.format(p);
    int pfx = Node.prefixLength(p);
    int sLen = len - pfx;
    if (!Node.isLeaf(p) || len < Long.BYTES || sLen < 1) {
      throw new IllegalArgumentException(
          "appendFixed: page " + p.pageNo() + " is a branch, or keys of " + len + " bytes");
    }
    int slotSize = Node.slotSize(format);
    int n = Node.count(p);
    int slotStart = Node.slotPos(p, n);
    int heapEnd = Node.heapStart(p);
    int heap = heapEnd - count * sLen;
    if (heap < slotStart + count * slotSize) {
      throw new IllegalStateException("append of " + count + " keys overflows page " + p.pageNo());
    }
    byte[] img = Cells.image(p.size());
    // Words end at the key's end and go down; the last word of a key is at or after its start
    // (len >= 8). A suffix not a multiple of 8 ends with a word at its start, over the one before.
    for (int i = 0, keyEnd = at + len, cellEnd = heapEnd;
        i < count;
        i++, keyEnd += len, cellEnd -= sLen) {
      int o = -Long.BYTES;
      do {
        NATIVE_LONG.set(img, cellEnd + o, (long) NATIVE_LONG.get(b, keyEnd + o));
        o -= Long.BYTES;
      } while (o >= -sLen);
      if (o + Long.BYTES > -sLen) {
        NATIVE_LONG.set(img, cellEnd - sLen, (long) NATIVE_LONG.get(b, keyEnd - sLen));
      }
    }
    int slotPos = slotStart;
    for (int i = 0, cell = heapEnd - sLen, key = at + pfx;
        i < count;
        i++, cell -= sLen, key += len, slotPos += slotSize) {
      putSlot(img, format, slotPos, cell, b, key, sLen);
    }
    copyOut(p, img, slotStart, slotPos, heap, heapEnd, n + count);
  }

  /**
   * The image's slot at {@code slotPos} for a cell at {@code cell} of {@code sLen} bytes, whose
   * suffix is at {@code b[key]} (format 2 keeps its first bytes, the head, in the slot).
   */
  private static void putSlot(
      byte[] img, int format, int slotPos, int cell, byte[] b, int key, int sLen) {
    if (format == Node.FORMAT_2) {
      long head = Keys.head(b, key, sLen) & 0xFFFF_FFFFL;
      NATIVE_LONG.set(img, slotPos, cell | ((long) sLen << 16) | (head << 32));
    } else {
      NATIVE_INT.set(img, slotPos, cell | (sLen << 16));
    }
  }

  /**
   * The image's new slots {@code [slotStart, slotEnd)} and cells {@code [heap, heapEnd)} into page
   * {@code p}, which then holds {@code count} keys: two writes.
   */
  private static void copyOut(
      Page p, byte[] img, int slotStart, int slotEnd, int heap, int heapEnd, int count) {
    p.putBytes(slotStart, img, slotStart, slotEnd - slotStart);
    p.putBytes(heap, img, heap, heapEnd - heap);
    p.putInt(Node.OFF_HEAP, heap);
    p.putU16(Node.OFF_COUNT, count);
  }
}
