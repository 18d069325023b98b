package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Whole keys in key order, each with the child pointer of its cell when they come from a branch:
 * what a node page is written from when it is written as a whole. The bottom-up builder collects a
 * page's keys here before it knows the page's prefix; a split or a merge takes the keys out of
 * their pages (prefix and suffix joined again) and writes them back into pages with new prefixes,
 * possibly in the other {@link Node} format.
 *
 * <pre>
 *  array   | key 0 | key 1 | key 2 | ...          (whole keys, back to back)
 *  offset  0       o1      o2
 *  length  l0      l1      l2
 *  child   c0      c1      c2                     (a branch cell's child; 0 for a leaf's)
 * </pre>
 *
 * <p>Memory: the arrays grow to the largest number of keys and bytes held at once (a page or two)
 * and are reused after {@link #clear}; one page-sized image per thread to write pages from. Not
 * thread-safe.
 */
public final class Cells {
  private byte[] bytes;
  private int used;
  // One per thread: a page is laid out in it and copied out before anything else uses it.
  private static final ThreadLocal<byte[][]> IMAGE = ThreadLocal.withInitial(() -> new byte[1][]);

  // Page fields are in the platform's order (Node).
  private static final VarHandle NATIVE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final VarHandle NATIVE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());

  // A copy of the page keys are taken from in bulk (addRange).
  private byte[] pageCopy;

  private int[] offsets;
  private int[] lengths;
  private long[] children;
  private int count;
  // Every key's length while all are as long (0 while there is none), else -1: such keys lie back
  // to back from 0, so a leaf is written from them without their offsets (NodeImage#appendFixed).
  private int stride;

  /** Room for a page of {@code pageSize} bytes' worth of short keys before anything grows. */
  public Cells(int pageSize) {
    bytes = new byte[pageSize];
    int keys = Math.max(64, pageSize / 16);
    offsets = new int[keys];
    lengths = new int[keys];
    children = new long[keys];
  }

  public int size() {
    return count;
  }

  /** Bytes of key room held (what the keys grew it to). */
  int capacityBytes() {
    return bytes.length;
  }

  public void clear() {
    count = 0;
    used = 0;
    stride = 0;
  }

  /** Adds key {@code k[off, off + len)} with {@code child} (0 for a leaf entry). */
  public void add(byte[] k, int off, int len, long child) {
    int at = reserve(len);
    System.arraycopy(k, off, bytes, at, len);
    children[count - 1] = child;
  }

  /**
   * Adds {@code n} leaf entries of {@code len} bytes each, one after another at {@code src[off]}:
   * as {@code n} calls of {@link #add(byte[], int, int, long)}, in one copy.
   */
  public void addFixed(byte[] src, int off, int n, int len) {
    if (n <= 0) {
      return;
    }
    int bytesLen = n * len;
    ensureRoom(n, bytesLen);
    noteLength(len);
    System.arraycopy(src, off, bytes, used, bytesLen);
    for (int j = 0; j < n; j++) {
      offsets[count + j] = used + j * len;
      lengths[count + j] = len;
      children[count + j] = 0;
    }
    count += n;
    used += bytesLen;
  }

  /** Adds the leaf entry at {@code src[off, off + len)}. */
  public void add(BytesStore<?, ?> src, long off, int len) {
    int at = reserve(len);
    src.read(off, bytes, at, len);
    children[count - 1] = 0;
  }

  /** Adds key {@code i} of node page {@code p}, with its child pointer if {@code p} is a branch. */
  void addFrom(Page p, int i) {
    addFrom(p, i, Node.isLeaf(p) ? 0 : Node.child(p, i + 1));
  }

  /** Adds key {@code i} of node page {@code p} with {@code child} instead of its own. */
  void addFrom(Page p, int i, long child) {
    int at = reserve(Node.keyLength(p, i));
    Keys.copyKey(p, i, bytes, at);
    children[count - 1] = child;
  }

  /**
   * Adds keys {@code [from, to)} of node page {@code p}, each with its child pointer if {@code p}
   * is a branch, as {@link #addFrom(Page, int)} would one by one; but from one copy of the page
   * into an array, not two or three page reads per key (each a bounds-checked native copy that
   * costs more than the few bytes it moves).
   */
  void addRange(Page p, int from, int to) {
    if (from >= to) {
      return;
    }
    int size = p.size();
    if (pageCopy == null || pageCopy.length < size) {
      pageCopy = new byte[size];
    }
    byte[] img = pageCopy;
    p.getBytes(0, img, 0, size);
    int pfx = Node.prefixLength(p);
    boolean wide = Node.format(p) == Node.FORMAT_2;
    boolean leaf = Node.isLeaf(p);
    int shift = leaf ? 0 : Node.CHILD_SIZE;
    int base = Node.slotBase(p);
    for (int i = from; i < to; i++) {
      int s =
          wide
              ? (int) (long) NATIVE_LONG.get(img, base + (i << 3))
              : (int) NATIVE_INT.get(img, base + (i << 2));
      int cell = s & 0xFFFF;
      int sLen = s >>> 16;
      if (cell + shift + sLen > size) {
        throw new IllegalStateException(
            "page " + p.pageNo() + ": cell " + i + " ends past the page (" + (cell + sLen) + ")");
      }
      int at = reserve(pfx + sLen);
      System.arraycopy(img, Node.HEADER_SIZE, bytes, at, pfx);
      System.arraycopy(img, cell + shift, bytes, at + pfx, sLen);
      children[count - 1] = leaf ? 0 : (long) NATIVE_LONG.get(img, cell);
    }
  }

  /** Adds keys {@code [from, to)} of {@code other}, with their children, in one copy. */
  void addRange(Cells other, int from, int to) {
    if (from >= to) {
      return;
    }
    int src = other.offsets[from];
    int len = other.offsets[to - 1] + other.lengths[to - 1] - src;
    int n = to - from;
    ensureRoom(n, len);
    System.arraycopy(other.bytes, src, bytes, used, len);
    int shift = used - src;
    for (int j = 0; j < n; j++) {
      offsets[count + j] = other.offsets[from + j] + shift;
    }
    System.arraycopy(other.lengths, from, lengths, count, n);
    System.arraycopy(other.children, from, children, count, n);
    noteLength(other.stride > 0 ? other.stride : -1);
    count += n;
    used += len;
  }

  /** Adds key {@code i} of {@code other}, with its child. */
  void addFrom(Cells other, int i) {
    add(other.bytes, other.offsets[i], other.lengths[i], other.children[i]);
  }

  /** Adds every key of node page {@code p}. */
  void addAll(Page p) {
    addRange(p, 0, Node.count(p));
  }

  /** Keeps the first {@code n} keys. */
  public void truncate(int n) {
    count = n;
    used = n == 0 ? 0 : offsets[n - 1] + lengths[n - 1];
    if (n == 0) {
      stride = 0;
    }
  }

  /** Keeps only the last key, which becomes key 0. */
  public void keepLast() {
    int i = count - 1;
    int len = lengths[i];
    long child = children[i];
    System.arraycopy(bytes, offsets[i], bytes, 0, len);
    offsets[0] = 0;
    lengths[0] = len;
    children[0] = child;
    count = 1;
    used = len;
    stride = len;
  }

  /** Room for {@code n} more keys of {@code bytesLen} bytes in all, growing by doubling. */
  private void ensureRoom(int n, int bytesLen) {
    if (count + n > offsets.length) {
      int cap = Math.max(offsets.length * 2, count + n);
      offsets = Arrays.copyOf(offsets, cap);
      lengths = Arrays.copyOf(lengths, cap);
      children = Arrays.copyOf(children, cap);
    }
    if (used + bytesLen > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, used + bytesLen));
    }
  }

  /** Every key's length while all share one (0 with no key), else -1: what writeTo goes by. */
  int stride() {
    return stride;
  }

  /** Keeps {@link #stride} for keys of {@code len} bytes added after the others (-1: mixed). */
  private void noteLength(int len) {
    stride = len > 0 && (stride == 0 || stride == len) ? len : -1;
  }

  private int reserve(int len) {
    ensureRoom(1, len);
    noteLength(len);
    int at = used;
    offsets[count] = at;
    lengths[count] = len;
    count++;
    used += len;
    return at;
  }

  /**
   * This thread's scratch array of at least {@code size} bytes to lay a page out in ({@link
   * NodeImage#appendAll}).
   */
  static byte[] image(int size) {
    byte[][] holder = IMAGE.get();
    if (holder[0] == null || holder[0].length < size) {
      holder[0] = new byte[Math.max(size, Page.DEFAULT_SIZE)];
    }
    return holder[0];
  }

  /** The array the keys are in; key {@code i} is at {@link #offset}{@code (i)}. */
  public byte[] array() {
    return bytes;
  }

  public int offset(int i) {
    return offsets[i];
  }

  public int length(int i) {
    return lengths[i];
  }

  public long child(int i) {
    return children[i];
  }

  /** Key {@code i} as a new array. */
  byte[] key(int i) {
    return Arrays.copyOfRange(bytes, offsets[i], offsets[i] + lengths[i]);
  }

  /** Unsigned comparison of key {@code i} with key {@code j}. */
  int compare(int i, int j) {
    return Arrays.compareUnsigned(
        bytes, offsets[i], offsets[i] + lengths[i], bytes, offsets[j], offsets[j] + lengths[j]);
  }

  /** Length of the longest common prefix of keys {@code i} and {@code j}. */
  int commonPrefix(int i, int j) {
    return Keys.commonPrefix(bytes, offsets[i], lengths[i], bytes, offsets[j], lengths[j]);
  }

  /**
   * Length of what keys {@code [from, to)} all start with (they are in order, so it is what the
   * first and the last share).
   */
  int sharedPrefix(int from, int to) {
    return commonPrefix(from, to - 1);
  }

  /** Sum of the lengths of keys {@code [from, to)}. */
  long keyBytes(int from, int to) {
    long sum = 0;
    for (int i = from; i < to; i++) {
      sum += lengths[i];
    }
    return sum;
  }

  /**
   * The prefix length keys {@code [from, to)} get when written as one page of {@code format}: what
   * they share, cut back when that takes fewer bytes ({@link Node#bestPrefix}); 0 in format 1.
   */
  int prefixFor(int format, int from, int to) {
    if (format != Node.FORMAT_2 || to - from < 1) {
      return 0;
    }
    return Node.bestPrefix(sharedPrefix(from, to), to - from);
  }

  /** Body bytes keys {@code [from, to)} take in one page of {@code format} ({@link #prefixFor}). */
  long pageBytes(int format, boolean leaf, int from, int to) {
    return Node.bytesFor(format, leaf, to - from, keyBytes(from, to), prefixFor(format, from, to));
  }

  /**
   * Rewrites node page {@code dst} (keeping its level and links) to hold keys {@code [from, to)} in
   * {@code format}, with the prefix {@link #prefixFor} gives. The caller has checked that they fit
   * ({@link #pageBytes}).
   */
  public void writeTo(Page dst, int format, int from, int to) {
    int pfx = prefixFor(format, from, to);
    Node.reset(dst, format, bytes, from < to ? offsets[from] : 0, pfx);
    if (stride >= Long.BYTES && stride > pfx && Node.isLeaf(dst)) {
      NodeImage.appendFixed(dst, bytes, from * stride, to - from, stride);
    } else {
      NodeImage.appendAll(dst, this, from, to);
    }
  }
}
