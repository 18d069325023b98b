package dev.idxkit.core.spi;

import dev.idxkit.core.KeyTooLongException;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.Cells;
import dev.idxkit.core.internal.btree.Keys;
import dev.idxkit.core.internal.btree.Node;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Builds a B+tree from sorted input by loading leaf pages sequentially (the bottom-up build of
 * PostgreSQL's nbtsort.c), for the rebuilder's last merge pass. The result is an ordinary {@link
 * BTree} in the {@link Node} layout, which can then be modified by inserts and deletes.
 *
 * <p>Call order: {@code new TreeBuilder(sink, pageSize, areaId, leafFillPercent, indexName)},
 * {@link #add} for every entry in strictly increasing unsigned byte order, then {@link #finish}
 * once, which returns the root to publish. A caller that knows how many leading bytes each entry
 * shares with the one before (a merge of packed entries) gives the entries after the first with
 * {@link #addNext}, or a batch of entries of one length at a time with {@link #addNextAll}, which
 * copies each leaf's share of the batch into it at once. The builder is not responsible for where
 * pages go, for sealing them, for freeing an old tree or for publishing the root: that is the
 * {@link PageSink}'s and the rebuilder's work.
 *
 * <p>Steps:
 *
 * <ol>
 *   <li>Entries are collected for the open leaf ({@link Cells}: the page's prefix is only known
 *       when the page is complete) until the next one would take it past {@code leafFillPercent} of
 *       the page body, counted in the node format written (in format 2, with the prefix that all
 *       the leaf's entries share, which a new entry can only shorten). Leaves are packed (100 by
 *       default) because a rebuilt index is mostly read: full leaves mean fewer pages to scan; a
 *       lower fill leaves room for inserts after the rebuild without immediate splits.
 *   <li>When a leaf is full, the next leaf's page number is allocated (it is the full leaf's right
 *       link), the full leaf is written as a page ({@link Node}, format {@link Node#CURRENT_FORMAT}
 *       unless the builder was made for another), and it is added to the open page of level 1 under
 *       the separator computed between it and its left neighbour: the shortest prefix of the first
 *       entry above the previous leaf's last entry (see {@link Keys}).
 *   <li>Each branch level has one open page, filled the same way ({@link BranchLevels}).
 *   <li>{@link #finish} writes the last leaf and closes the levels bottom-up; the top level's page
 *       is the root, unless it has a single child, which is then the root. An empty input gives one
 *       empty leaf.
 * </ol>
 *
 * <p>Write order: leaves are written in allocation order; a branch page is allocated and written
 * when it is complete, which is after the next leaf's number was allocated, so the page numbers
 * written run ascending with one inversion per branch page (about one page in a hundred).
 *
 * <p>Memory: the keys of one open page per level ({@link Cells}), a page buffer for the leaves and
 * one for the branches ({@link BranchLevels}), and one separator buffer per level: O(height) pages.
 * {@link #add} copies the entry into the leaf's keys and allocates nothing.
 *
 * <p>Parallel builds: a key range of one index can be built on its own thread by a builder made
 * with {@link #forSegment}. It writes its leaves but holds back its first and last leaf, whose
 * outer sibling links belong to the neighbouring ranges, and records its level-1 children instead
 * of building branches; {@link #finishSegment} returns them as a {@link TreeSegment}. {@link
 * TreeSegment#join} then links the segments of consecutive ranges, computes the separators between
 * them, writes the held leaves, and builds the branch levels over all children. The tree holds the
 * same entries as one builder fed the whole input would build; each segment's last leaf may be
 * partly filled, so it can have up to one more leaf per boundary.
 */
public final class TreeBuilder {
  private final PageSink sink;
  private final int pageSize;
  private final int areaId;
  private final String indexName;
  private final int format;
  private final int maxEntry;
  private final int leafLimit;

  // The open leaf: its entries, the sum of their lengths and how many leading bytes all share.
  private final Cells leaf;
  private long leafKeyBytes;
  private int leafShared;
  private final Page out;
  private long leafNo;
  private long leafLeft;
  private boolean leafOpen;
  // Bytes the entry added last shares with the one before it when both are as long, else -1.
  private int lastShared = -1;
  // The separator in level 1 before the open leaf; scratchSep receives the next one.
  private byte[] leafSep;
  private int leafSepLen;
  private boolean leafHasSep;
  private byte[] scratchSep;

  private final BranchLevels branches;
  // Segment mode: level-1 children are recorded, not built, and the first leaf is held back.
  private final boolean segment;
  private final List<Child> children = new ArrayList<>();
  private Page heldFirst;
  private long entries;
  private long pagesWritten; // leaves
  private boolean finished;

  public TreeBuilder(
      PageSink sink, int pageSize, int areaId, int leafFillPercent, String indexName) {
    this(sink, pageSize, areaId, leafFillPercent, indexName, false, Node.CURRENT_FORMAT);
  }

  /**
   * A builder writing pages in node format {@code nodeFormat} ({@link Node#FORMAT_1} or {@link
   * Node#FORMAT_2}); for tests of trees as older versions wrote them, and for measurements.
   */
  public TreeBuilder(
      PageSink sink,
      int pageSize,
      int areaId,
      int leafFillPercent,
      String indexName,
      int nodeFormat) {
    this(sink, pageSize, areaId, leafFillPercent, indexName, false, nodeFormat);
  }

  /**
   * A builder for one key range of an index, to be {@link TreeSegment#join}ed with its neighbours.
   */
  public static TreeBuilder forSegment(
      PageSink sink, int pageSize, int areaId, int leafFillPercent, String indexName) {
    return new TreeBuilder(
        sink, pageSize, areaId, leafFillPercent, indexName, true, Node.CURRENT_FORMAT);
  }

  private TreeBuilder(
      PageSink sink,
      int pageSize,
      int areaId,
      int leafFillPercent,
      String indexName,
      boolean segment,
      int nodeFormat) {
    this.segment = segment;
    if (sink == null || indexName == null) {
      throw new NullPointerException(sink == null ? "sink" : "indexName");
    }
    if (leafFillPercent < 10 || leafFillPercent > 100) {
      throw new IllegalArgumentException(
          "leafFillPercent : " + leafFillPercent + " (expected: 10..100)");
    }
    if (areaId < 0 || areaId > 255) {
      throw new IllegalArgumentException("areaId : " + areaId + " (expected: 0..255)");
    }
    if (nodeFormat != Node.FORMAT_1 && nodeFormat != Node.FORMAT_2) {
      throw new IllegalArgumentException(
          String.format(
              "nodeFormat : %d (expected: %d or %d)", nodeFormat, Node.FORMAT_1, Node.FORMAT_2));
    }
    this.sink = sink;
    this.pageSize = Page.checkSize(pageSize);
    this.areaId = areaId;
    this.indexName = indexName;
    this.format = nodeFormat;
    this.maxEntry = Node.maxEntryLength(pageSize);
    int body = Node.bodySize(pageSize);
    this.leafLimit = body * leafFillPercent / 100;
    this.branches = new BranchLevels(sink, pageSize, areaId, leafFillPercent, nodeFormat);
    // Four pages: a leaf of short keys sharing a prefix collects more whole keys than a page holds,
    // and growing would be a branch the merge loop compiled for an earlier tree never took.
    this.leaf = new Cells(4 * pageSize);
    this.out = newPage(pageSize);
    this.leafSep = new byte[maxEntry];
    this.scratchSep = new byte[maxEntry];
  }

  public void add(byte[] entry) {
    add(entry, 0, entry.length);
  }

  /** Adds {@code e[off, off + len)}, which must be above every entry added before. */
  public void add(byte[] e, int off, int len) {
    beginAdd(len);
    leaf.add(e, off, len, 0);
    added(len);
  }

  /**
   * {@link #add(byte[], int, int)} for an entry after the first, given {@code shared}: the exact
   * count of leading bytes it shares with the one before (a packed merge knows it from the longs it
   * compared), or -1 to compute it; the order check reads the byte there, which must be higher in
   * the new entry. Without the first entry's branches: a merge loop compiled for an earlier tree
   * never took them (a trap would discard it).
   */
  public void addNext(byte[] e, int off, int len, int shared) {
    if (leaf.size() == 0) {
      throw new IllegalStateException("addNext before the first entry was added");
    }
    checkEntry(len);
    leaf.add(e, off, len, 0);
    addedAfter(len, shared);
  }

  /**
   * {@link #addNext} for {@code count} entries of {@code len} bytes each, one after another in
   * {@code b} from 0, entry {@code j} sharing exactly {@code shared[j]} leading bytes with the one
   * before it. The same leaves as {@code count} calls of addNext, with the order checked the same
   * way, but each leaf's entries copied in at once. {@link #lastRepeats} answers for the last.
   */
  public void addNextAll(byte[] b, int count, int len, int[] shared) {
    if (leaf.size() == 0) {
      throw new IllegalStateException("addNextAll before the first entry was added");
    }
    checkEntry(len);
    int n = leaf.size();
    byte[] prev = leaf.array();
    int prevOff = leaf.offset(n - 1);
    int prevLen = leaf.length(n - 1);
    if (fitsWhole(prev, prevOff, prevLen, b, count, len, shared)) {
      return;
    }
    int from = 0; // entries [from, j) are in order and not yet in the leaf
    for (int j = 0; j < count; j++) {
      int eOff = j * len;
      int m = shared[j];
      if (!above(prev, prevOff, prevLen, b, eOff, len, m)) {
        leaf.addFixed(b, from * len, j - from, len);
        int last = leaf.size() - 1;
        throw disorder(leaf.offset(last), leaf.length(last), Keys.hex(b, eOff, len));
      }
      lastShared = prevLen == len ? m : -1;
      if (!fitsLeaf(++n, len, m)) {
        leaf.addFixed(b, from * len, j + 1 - from, len);
        from = j + 1;
        startNextLeaf(b, eOff, len, m);
        n = 1;
      }
      entries++;
      prev = b;
      prevOff = eOff;
      prevLen = len;
    }
    leaf.addFixed(b, from * len, count - from, len);
  }

  /**
   * Adds the whole batch of {@link #addNextAll} to the open leaf if every entry is in order and the
   * leaf holds them all: one fit test for the batch, not one per entry (the leaf's bytes only grow
   * with each entry, so if it holds the last, it held each before). Otherwise adds nothing: the
   * caller goes entry by entry, to the leaf's end or to the entry out of order.
   */
  private boolean fitsWhole(
      byte[] prev, int prevOff, int prevLen, byte[] b, int count, int len, int[] shared) {
    int min = leafShared;
    for (int j = 0, eOff = 0; j < count; j++, eOff += len) {
      int m = shared[j];
      if (!above(prev, prevOff, prevLen, b, eOff, len, m)) {
        return false;
      }
      min = Math.min(min, m);
      prev = b;
      prevOff = eOff;
      prevLen = len;
    }
    int n = leaf.size() + count;
    long keyBytes = leafKeyBytes + (long) count * len;
    if (Node.bytesFor(format, true, n, keyBytes, prefixFor(min, n)) > leafLimit) {
      return false;
    }
    leaf.addFixed(b, 0, count, len);
    lastShared = count > 1 || leaf.length(n - count - 1) == len ? shared[count - 1] : -1;
    leafKeyBytes = keyBytes;
    leafShared = min;
    entries += count;
    return true;
  }

  /** Adds the entry at {@code src[off, off + len)}, copying it straight into the leaf's entries. */
  public void add(BytesStore<?, ?> src, long off, int len) {
    beginAdd(len);
    leaf.add(src, off, len);
    added(len);
  }

  private void beginAdd(int len) {
    checkEntry(len);
    if (!leafOpen) {
      openLeaf(sink.allocate(), 0);
    }
  }

  /** Accounts for the entry just added to the open leaf, of {@code len} bytes (see addedAfter). */
  private void added(int len) {
    if (leaf.size() == 1) {
      leafKeyBytes = len;
      leafShared = len;
      lastShared = -1;
      entries++;
      return;
    }
    addedAfter(len, -1);
  }

  /**
   * For an entry of {@code len} bytes after another, sharing {@code known} bytes with it (-1: not
   * known): checks its order; if it overfills the leaf, writes the leaf without it and opens the
   * next with it.
   */
  private void addedAfter(int len, int known) {
    int n = leaf.size();
    byte[] b = leaf.array();
    int lastOff = leaf.offset(n - 2);
    int lastLen = leaf.length(n - 2);
    int eOff = leaf.offset(n - 1);
    int m = known >= 0 ? known : Keys.commonPrefix(b, lastOff, lastLen, b, eOff, len);
    lastShared = lastLen == len ? m : -1;
    if (!above(b, lastOff, lastLen, b, eOff, len, m)) {
      String hex = Keys.hex(b, eOff, len);
      leaf.truncate(n - 1);
      throw disorder(lastOff, lastLen, hex);
    }
    if (!fitsLeaf(n, len, m)) {
      startNextLeaf(b, eOff, len, m);
    }
    entries++;
  }

  /**
   * Whether entry {@code e[eOff, eOff + len)}, sharing {@code m} leading bytes with the entry
   * {@code p[pOff, pOff + pLen)} before it, is above it: at the first difference its byte must be
   * higher; a shared length that reaches the end of the entry (equal bytes there) fails.
   */
  private static boolean above(byte[] p, int pOff, int pLen, byte[] e, int eOff, int len, int m) {
    return m < len && (m >= pLen || (p[pOff + m] & 0xFF) < (e[eOff + m] & 0xFF));
  }

  /**
   * Counts an entry of {@code len} bytes, sharing {@code m} with the one before it, as the {@code
   * n}th of the open leaf; false, counting nothing, when it would take the leaf past its limit (the
   * caller then starts the next leaf with it, {@link #startNextLeaf}).
   */
  private boolean fitsLeaf(int n, int len, int m) {
    // The entries are in order: what the first and the new one share, they all share.
    int shared = Math.min(leafShared, m);
    if (Node.bytesFor(format, true, n, leafKeyBytes + len, prefixFor(shared, n)) > leafLimit) {
      return false;
    }
    leafKeyBytes += len;
    leafShared = shared;
    return true;
  }

  /**
   * Writes the open leaf without its last entry, {@code e[eOff, eOff + len)} (sharing {@code m}
   * bytes with the one before it), which starts the next leaf.
   */
  private void startNextLeaf(byte[] e, int eOff, int len, int m) {
    int sepLen = m + 1; // Keys.separatorLength, from the mismatch found above
    System.arraycopy(e, eOff, scratchSep, 0, sepLen);
    nextLeaf(sepLen);
    leafKeyBytes = len;
    leafShared = len;
  }

  /**
   * Whether the entry added last is as long as the one added before it and equal to it in its first
   * {@code bytes} bytes; false for the first entry. A unique index's build asks with its key's
   * length (the entry less its RID): the order check above has compared the two entries already, so
   * the duplicate check costs no copy and no second comparison.
   */
  public boolean lastRepeats(int bytes) {
    return lastShared >= bytes;
  }

  private int prefixFor(int shared, int count) {
    return prefixFor(format, shared, count);
  }

  /** The prefix a page of {@code format} gives {@code count} keys that share {@code shared}. */
  static int prefixFor(int format, int shared, int count) {
    return format == Node.FORMAT_2 ? Node.bestPrefix(shared, count) : 0;
  }

  /** Writes what is still open and returns the tree; the builder cannot be used afterwards. */
  public BuildResult finish() {
    checkNotFinished();
    if (segment) {
      throw new IllegalStateException("a segment builder ends with finishSegment()");
    }
    finished = true;
    if (!leafOpen) {
      openLeaf(sink.allocate(), 0);
    }
    writeLeaf(0, leaf.size());
    if (branches.isEmpty()) {
      return new BuildResult(leafNo, 1, pagesWritten, entries);
    }
    addChild(leafNo, leafSep, leafSepLen, leafHasSep);
    return branches.close(pagesWritten, entries);
  }

  /** Entries added so far. */
  public long entries() {
    return entries;
  }

  // ---- leaves ----

  /** Writes all entries of the open leaf but the last, which starts the next leaf. */
  private void nextLeaf(int sepLen) {
    long next = sink.allocate();
    writeLeaf(next, leaf.size() - 1);
    addChild(leafNo, leafSep, leafSepLen, leafHasSep);
    byte[] t = leafSep;
    leafSep = scratchSep;
    scratchSep = t;
    leafSepLen = sepLen;
    leafHasSep = true;
    leaf.keepLast();
    leafLeft = leafNo;
    leafNo = next;
  }

  private void openLeaf(long no, long left) {
    leaf.clear();
    leafNo = no;
    leafLeft = left;
    leafOpen = true;
  }

  /** Writes entries {@code [0, to)} of the open leaf as its page, with right link {@code right}. */
  private void writeLeaf(long right, int to) {
    Page p = out;
    if (segment && heldFirst == null) {
      heldFirst = newPage(pageSize);
      p = heldFirst;
    }
    leafPage(p, right, to);
    if (p == out) {
      sink.write(leafNo, out);
      pagesWritten++;
    }
  }

  /** Formats {@code p} as the open leaf holding its entries {@code [0, to)}. */
  private void leafPage(Page p, long right, int to) {
    p.format(PageType.LEAF, leafNo, areaId);
    Node.init(p, 0, format);
    Node.setLeftSibling(p, leafLeft);
    Node.setRightSibling(p, right);
    leaf.writeTo(p, format, 0, to);
    assert Node.assertWellFormed(p);
  }

  // ---- branches ----

  /** Adds leaf {@code child} to level 1 after separator {@code sep} (a segment records it). */
  private void addChild(long child, byte[] sep, int sepLen, boolean hasSep) {
    if (segment) {
      children.add(new Child(child, hasSep ? Arrays.copyOf(sep, sepLen) : null));
      return;
    }
    branches.addChild(1, child, sep, sepLen, hasSep);
  }

  /** A level-1 child: a leaf and the separator before it (null for a segment's first leaf). */
  record Child(long page, byte[] separator) {}

  /** Ends a segment builder: its leaves, with the first and last held back. */
  public TreeSegment finishSegment() {
    checkNotFinished();
    if (!segment) {
      throw new IllegalStateException("only a forSegment() builder ends with finishSegment()");
    }
    finished = true;
    if (!leafOpen) {
      return new TreeSegment(List.of(), null, null, 0, 0);
    }
    addChild(leafNo, leafSep, leafSepLen, leafHasSep);
    Page last = newPage(pageSize);
    leafPage(last, 0, leaf.size());
    Page first = heldFirst == null ? last : heldFirst;
    return new TreeSegment(List.copyOf(children), first, last, entries, pagesWritten);
  }

  private void checkEntry(int len) {
    checkNotFinished();
    if (len > maxEntry) {
      throw new KeyTooLongException(indexName, len, maxEntry);
    }
    if (len < 1) {
      throw new IllegalArgumentException(
          "index " + indexName + ": entry length : " + len + " (expected: 1.." + maxEntry + ")");
    }
  }

  private void checkNotFinished() {
    if (finished) {
      throw new IllegalStateException("tree builder for index " + indexName + " already finished");
    }
  }

  private IllegalArgumentException disorder(int lastOff, int lastLen, String entryHex) {
    String last = Keys.hex(leaf.array(), lastOff, lastLen);
    return new IllegalArgumentException(
        String.format(
            "index %s: entry #%d out of order: %s after %s (expected: strictly increasing unsigned"
                + " byte order)",
            indexName, entries + 1, entryHex, last));
  }

  private static Page newPage(int pageSize) {
    return new Page(BytesStore.wrap(new byte[pageSize]), 0, pageSize);
  }
}
