package dev.idxkit.core.internal.btree;

import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.KeyTooLongException;
import dev.idxkit.core.TreeStats;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.ObjIntConsumer;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * A B+tree of index entries on the pages of one area. An entry is an opaque byte string ({@code
 * encodedKey || rid}, the RID as the last 8 big-endian bytes); entries are distinct and ordered as
 * unsigned bytes. The tree knows nothing of key types: uniqueness is the caller's check ({@link
 * #hasPrefix}), and inserting an entry already present is a caller bug.
 *
 * <p>Call order: {@link #create} once for a new index (the caller persists {@link #root()}), then
 * {@code new BTree(pages, root, name)} per use; {@link #insert}, {@link #delete}, {@link
 * #contains}, {@link #hasPrefix}, {@link #cursor()}; after modifications the caller persists {@link
 * #root()} again, which changes when the root splits or collapses. {@link #check} and {@link
 * #forEachPage} serve the {@code check}/{@code analyze} commands and the rebuilder.
 *
 * <p>Algorithm. Pages are laid out by {@link Node}, in either of its two formats (a tree may mix
 * them: pages written before format 2 stay in format 1 until a split or a merge writes them again):
 * leaves hold entries and link to both siblings; branches hold prefix-truncated separators ({@link
 * Keys}) and child pointers. A lookup descends from the root by a search on page memory ({@link
 * NodeSearch}). An insert records the path, adds the entry to its leaf and, if the leaf refuses it
 * (full, or the entry does not share its prefix), rebuilds or splits it ({@link Splitter}) and
 * inserts the new separator into the parent, splitting upwards as needed; a root split adds a
 * level. A delete removes the entry and rebalances ({@link Rebalancer}): an emptied leaf is
 * unlinked and freed, an underfull page is merged into a neighbour when both fit, and a root branch
 * left with one child is collapsed.
 *
 * <p>Memory: one scratch page per thread (split and compaction copies) and the descent path
 * (O(height)). Lookups, cursor steps and inserts that do not split allocate nothing.
 *
 * <p>Atomicity comes from the caller's transaction ({@link PageAccess#write} pages are private
 * copies until commit): an insert or delete that fails midway (an I/O error) may leave pages half
 * changed, so the caller rolls the transaction back and opens a new {@code BTree} on the root it
 * had persisted.
 *
 * <p>Concurrency: a {@code BTree} object belongs to one thread; mutations need the database's
 * writer. Any modification invalidates every open {@link TreeCursor} of this object ({@code
 * valid()} turns false and reading or moving one throws {@link IllegalStateException}; the caller
 * seeks again).
 */
public final class BTree {
  final PageAccess pages;
  final String indexName;
  final int maxEntry;
  // A scratch page per thread and page size: trees are created per statement, and a split or a
  // compaction (the only users) never nests inside another on the same thread.
  private static final ThreadLocal<Page[]> SCRATCH = ThreadLocal.withInitial(() -> new Page[17]);

  long root;
  int height;
  int modCount;

  // The path of the last descent for insert/delete, by level (0 = leaf): the page, the child
  // index taken in it (for the leaf: the slot), and whether every page above took its last child.
  long[] pathPage = new long[8];
  int[] pathIndex = new int[8];
  boolean[] pathRightEdge = new boolean[8];

  private final Splitter splitter;
  private final Rebalancer rebalancer;
  // Made on the first merge: most trees never merge.
  private LeafMerge merge;

  public BTree(PageAccess pages, long root, String indexName) {
    if (indexName == null) {
      throw new NullPointerException("indexName");
    }
    this.pages = pages;
    this.indexName = indexName;
    this.maxEntry = Node.maxEntryLength(pages.pageSize());
    this.root = root;
    Page r = pages.read(root);
    PageType type = r.type();
    if ((type != PageType.LEAF && type != PageType.BRANCH)
        || !Node.knownFormat(Node.format(r))
        || (type == PageType.LEAF) != Node.isLeaf(r)) {
      throw corrupt(
          root,
          "root of index "
              + indexName
              + " has type "
              + type
              + ", level "
              + Node.level(r)
              + ", node format "
              + Node.format(r)
              + " (expected: LEAF or BRANCH, format "
              + Node.FORMAT_1
              + " or "
              + Node.FORMAT_2
              + ")");
    }
    this.height = Node.level(r) + 1;
    this.splitter = new Splitter(this);
    this.rebalancer = new Rebalancer(this);
  }

  /** Allocates an empty tree (one empty leaf) and returns its root page number. */
  public static long create(PageAccess pages) {
    Page p = pages.allocate(PageType.LEAF);
    Node.init(p, 0);
    return p.pageNo();
  }

  /** The longest entry a tree on pages of this size holds: a quarter of the page body. */
  public static int maxEntryLength(int pageSize) {
    return Node.maxEntryLength(Page.checkSize(pageSize));
  }

  public int maxEntryLength() {
    return maxEntry;
  }

  public long root() {
    return root;
  }

  /** Levels: 1 for a tree that is a single leaf. */
  public int height() {
    return height;
  }

  public String indexName() {
    return indexName;
  }

  // ---- lookups ----

  public boolean contains(byte[] entry) {
    if (entry.length == 0 || entry.length > maxEntry) {
      return false;
    }
    Page leaf = leafFor(entry, 0, entry.length);
    return Node.search(leaf, entry, 0, entry.length) >= 0;
  }

  /** Whether some entry starts with {@code prefix} (every entry does when it is empty). */
  public boolean hasPrefix(byte[] prefix) {
    Page leaf = leafFor(prefix, 0, prefix.length);
    int i = Node.lowerBound(leaf, prefix, 0, prefix.length);
    if (i == Node.count(leaf)) {
      // Everything here is below the prefix; the next leaf starts at or above the separator
      // that sent us here, which is above the prefix, so its first entry is the candidate.
      long right = Node.rightSibling(leaf);
      if (right == 0) {
        return false;
      }
      leaf = pages.read(right);
      i = 0;
      if (Node.count(leaf) == 0) {
        return false;
      }
    }
    return Keys.startsWith(leaf, i, prefix);
  }

  /** A cursor, unpositioned until {@code seek}, {@code first} or {@code last}. */
  public TreeCursor cursor() {
    return new TreeCursor(this);
  }

  // ---- modifications ----

  public void insert(byte[] entry) {
    insert(entry, 0, entry.length);
  }

  /**
   * Adds {@code entry[off, off + len)}. Throws {@link KeyTooLongException} above {@link
   * #maxEntryLength()} and {@link IllegalStateException} if the entry is already present.
   */
  public void insert(byte[] entry, int off, int len) {
    if (len > maxEntry) {
      throw new KeyTooLongException(indexName, len, maxEntry);
    }
    if (len < 1) {
      throw new IllegalArgumentException(
          "entry length : " + len + " (expected: 1.." + maxEntry + ")");
    }
    int r = descend(entry, off, len);
    if (r >= 0) {
      throw new IllegalStateException(
          "entry already in index "
              + indexName
              + " (page "
              + pathPage[0]
              + ", slot "
              + r
              + "): "
              + Keys.hex(entry, off, len));
    }
    modCount++;
    int pos = -(r + 1);
    Page leaf = pages.write(pathPage[0]);
    if (!Node.insert(leaf, pos, entry, off, len, 0, scratch())) {
      splitter.insert(leaf, pos, entry, off, len);
    }
  }

  /** Removes {@code entry}; false if it was not there. */
  public boolean delete(byte[] entry) {
    if (entry.length == 0 || entry.length > maxEntry) {
      return false;
    }
    int r = descend(entry, 0, entry.length);
    if (r < 0) {
      return false;
    }
    modCount++;
    Page leaf = pages.write(pathPage[0]);
    Node.remove(leaf, r);
    rebalancer.afterRemove(leaf);
    return true;
  }

  /**
   * Applies up to {@code max} changes, in ascending entry order, a leaf at a time ({@link
   * LeafMerge}); returns how many it applied. Throws as {@link #insert} and {@link #delete} would
   * for an entry already present or a delete of one that is not.
   */
  int apply(LeafMerge.Changes changes, int max) {
    if (merge == null) {
      merge = new LeafMerge(this, splitter);
    }
    return merge.apply(changes, max);
  }

  // ---- whole-tree walks ----

  /**
   * Visits every page of the tree, each exactly once and each after all of its children, so the
   * consumer may free pages as it goes. Leaves are visited without being read.
   */
  public void forEachPage(LongConsumer consumer) {
    forEachPage(root, height - 1, consumer);
  }

  private void forEachPage(long no, int level, LongConsumer consumer) {
    if (level > 0) {
      // The children's numbers first, in one read of the node: the page a read returns may not
      // outlive the next read, and the consumer may free and reuse pages (never this one) as it
      // goes. One read per node, not one per child (a level-1 node has hundreds).
      Page p = readNode(no, level);
      long[] children = new long[Node.count(p) + 1];
      for (int i = 0; i < children.length; i++) {
        children[i] = Node.child(p, i);
      }
      for (long child : children) {
        forEachPage(child, level - 1, consumer);
      }
    }
    consumer.accept(no);
  }

  /**
   * Walks the whole tree and reports every broken invariant it finds to {@code problems} (with page
   * numbers) instead of throwing; see {@link TreeChecker}.
   */
  public TreeStats check(Consumer<String> problems) {
    return check(problems, n -> {}, null);
  }

  /**
   * {@link #check(Consumer)}, telling {@code leafEntries} the entry count of each leaf checked and,
   * when not null, {@code entries} each entry's bytes and length in key order (the array is reused
   * for the next entry).
   */
  public TreeStats check(
      Consumer<String> problems, LongConsumer leafEntries, ObjIntConsumer<byte[]> entries) {
    return new TreeChecker(pages, problems, leafEntries, entries).run(root);
  }

  /**
   * {@link #check(Consumer)} for a tree that may not even open: a root that fails its checksum or
   * is not a tree page is reported like any other page.
   */
  public static TreeStats check(PageAccess pages, long root, Consumer<String> problems) {
    return new TreeChecker(pages, problems, n -> {}, null).run(root);
  }

  // ---- descent ----

  /** The leaf that holds {@code key} if present (and its neighbourhood otherwise). */
  Page leafFor(byte[] key, int kOff, int kLen) {
    long no = root;
    Page p = readNode(no, height - 1);
    for (int level = height - 1; level > 0; level--) {
      no = Node.child(p, Node.childIndex(p, key, kOff, kLen));
      p = readNode(no, level - 1);
    }
    return p;
  }

  /** The first (edge 0) or last (edge 1) leaf. */
  Page edgeLeaf(boolean last) {
    long no = root;
    Page p = readNode(no, height - 1);
    for (int level = height - 1; level > 0; level--) {
      no = Node.child(p, last ? Node.count(p) : 0);
      p = readNode(no, level - 1);
    }
    return p;
  }

  /** Descends recording the path; returns the leaf search result for the key. */
  int descend(byte[] key, int kOff, int kLen) {
    if (pathPage.length < height) {
      int n = height + 4;
      pathPage = Arrays.copyOf(pathPage, n);
      pathIndex = Arrays.copyOf(pathIndex, n);
      pathRightEdge = Arrays.copyOf(pathRightEdge, n);
    }
    long no = root;
    Page p = readNode(no, height - 1);
    boolean edge = true;
    for (int level = height - 1; level > 0; level--) {
      int idx = Node.childIndex(p, key, kOff, kLen);
      pathPage[level] = no;
      pathIndex[level] = idx;
      pathRightEdge[level] = edge;
      edge &= idx == Node.count(p);
      no = Node.child(p, idx);
      p = readNode(no, level - 1);
    }
    pathPage[0] = no;
    pathRightEdge[0] = edge;
    int r = Node.search(p, key, kOff, kLen);
    pathIndex[0] = r;
    return r;
  }

  /** Reads a page the descent expects at {@code level}; a wrong level means a damaged tree. */
  Page readNode(long no, int level) {
    Page p = pages.read(no);
    if (Node.level(p) != level) {
      throw corrupt(
          no,
          "index " + indexName + ": node level " + Node.level(p) + " (expected: " + level + ")");
    }
    // The searches index the slot array by the count without further checks: a page whose header
    // puts the slots past the cells or the cells past the page (a page damaged in memory, or
    // written so by a bug, with a valid checksum) is refused here rather than read out of bounds.
    int slotsEnd = Node.slotPos(p, Node.count(p));
    int cells = Node.heapStart(p);
    if (slotsEnd > cells || cells > p.size()) {
      throw corrupt(
          no,
          "index "
              + indexName
              + ": slots end at "
              + slotsEnd
              + ", cells start at "
              + cells
              + " (expected: slots <= cells <= "
              + p.size()
              + ")");
    }
    return p;
  }

  CorruptPageException corrupt(long no, String detail) {
    Path file;
    try {
      file = Path.of(pages.name());
    } catch (RuntimeException e) {
      file = null;
    }
    return new CorruptPageException(file, no, detail);
  }

  /** This thread's scratch page of this tree's page size. */
  Page scratch() {
    int size = pages.pageSize();
    int slot = Integer.numberOfTrailingZeros(size);
    Page[] cache = SCRATCH.get();
    Page p = cache[slot];
    if (p == null) {
      p = cache[slot] = new Page(BytesStore.wrap(new byte[size]), 0, size);
    }
    return p;
  }
}
