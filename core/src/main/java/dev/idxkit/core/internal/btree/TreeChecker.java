package dev.idxkit.core.internal.btree;

import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.ProblemText;
import dev.idxkit.core.TreeStats;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.ObjIntConsumer;

/**
 * Walks a whole tree and reports what is wrong with it, without throwing, for {@code idxkit check};
 * measures it on the way for {@code idxkit analyze}.
 *
 * <p>Call order: {@code new TreeChecker(pages, problems, leafEntries, entrySink).run(root)}
 * (through {@link BTree#check}).
 *
 * <p>Steps: a depth-first walk from the root, left to right, carrying each child's key bounds from
 * its parent's separators ({@code [separator before it, separator after it)}). At every page it
 * checks, and reports with the page number and how it was reached:
 *
 * <ul>
 *   <li>the page can be read (a {@link CorruptPageException}, a failed checksum, is a problem) and
 *       is reached once;
 *   <li>its header: type, node format (1 or 2: a tree may hold both), level one below its parent's,
 *       page number, prefix length, slot/cell bounds, key lengths, in format 2 each slot's head
 *       against the key bytes it stands for, and space accounting (if those are broken its contents
 *       are not examined);
 *   <li>keys strictly increasing within the page and within the bounds from the parent; a root
 *       branch has two children or more; only a root leaf may be empty;
 *   <li>leaves, met in key order, form the sibling chain: each leaf's left link is the previous
 *       leaf, the previous leaf's right link is this one, the first and last leaves link to 0, and
 *       entries keep increasing across leaves.
 * </ul>
 *
 * <p>Memory: the set of page numbers seen, the separators of the pages on the current path and the
 * last entry of the previous leaf.
 */
final class TreeChecker {
  private final PageAccess pages;
  private final Consumer<String> out;
  private final int body;
  private final int maxEntry;
  private final Set<Long> seen = new HashSet<>();
  private int problems;
  private long rootNo;
  private long[] pagesPerLevel = new long[0];

  // The leaf chain so far; UNKNOWN after a page that was not examined (unreadable, broken
  // header, reached twice), whose leaves are not known: one problem is reported, not its echoes.
  private static final long UNKNOWN = -1;
  private long prevLeaf;
  private long prevLeafRight;
  private byte[] prevLast;

  // Told each leaf's entry count as it is checked: a long check's progress.
  private final LongConsumer leafEntries;
  // Given each entry's bytes (and length) in tree order, or null: a check's digest of the index
  // without a second walk. The array is reused for the next entry.
  private final ObjIntConsumer<byte[]> entrySink;
  private byte[] entry = new byte[64];

  // Measurements.
  private long entries;
  private long entryBytes;
  private long distinctPrefixes;
  private long prevPrefix;
  private int prevPrefixLen = -1;
  private double fillSum;
  private long leaves;

  TreeChecker(
      PageAccess pages,
      Consumer<String> problems,
      LongConsumer leafEntries,
      ObjIntConsumer<byte[]> entrySink) {
    this.pages = pages;
    this.out = problems;
    this.leafEntries = leafEntries;
    this.entrySink = entrySink;
    this.body = Node.bodySize(pages.pageSize());
    this.maxEntry = Node.maxEntryLength(pages.pageSize());
  }

  TreeStats run(long root) {
    rootNo = root;
    Page p = read(root, "root");
    int height = 0;
    if (p != null) {
      int level = Node.level(p);
      height = level + 1;
      pagesPerLevel = new long[height];
      visit(root, p, level, null, null, "root");
      if (prevLeaf != 0 && prevLeaf != UNKNOWN && prevLeafRight != 0) {
        report(prevLeaf, "last leaf", "right sibling " + prevLeafRight + " (expected: 0)");
      }
    }
    List<Long> perLevel = new ArrayList<>();
    for (long n : pagesPerLevel) {
      perLevel.add(n);
    }
    return new TreeStats(
        entries,
        height,
        perLevel,
        leaves == 0 ? 0 : fillSum / leaves,
        entries == 0 ? 0 : (double) entryBytes / entries,
        entries == 0 ? 0 : (double) distinctPrefixes / entries,
        problems);
  }

  private void visit(long no, Page p, int level, byte[] lo, byte[] hi, String from) {
    if (!checkHeader(no, p, level, from)) {
      prevLeaf = UNKNOWN;
      return;
    }
    pagesPerLevel[level]++;
    if (level == 0) {
      checkLeaf(no, p, lo, hi, from);
    } else {
      checkBranch(no, p, level, lo, hi, from);
    }
  }

  private Page read(long no, String from) {
    if (!seen.add(no)) {
      report(no, from, "reached twice (expected: every page has one parent)");
      prevLeaf = UNKNOWN;
      return null;
    }
    try {
      return pages.read(no);
    } catch (CorruptPageException e) {
      report(no, from, e.getMessage());
    } catch (RuntimeException e) {
      report(no, from, "cannot be read: " + ProblemText.of(e));
    }
    // Leaves under it are missing from the chain: the next leaf's links cannot be judged.
    prevLeaf = UNKNOWN;
    return null;
  }

  private boolean checkHeader(long no, Page p, int level, String from) {
    PageType expected = level == 0 ? PageType.LEAF : PageType.BRANCH;
    int format = Node.format(p);
    if (p.type() != expected || Node.level(p) != level || !Node.knownFormat(format)) {
      report(
          no,
          from,
          "type "
              + p.type()
              + ", level "
              + Node.level(p)
              + ", node format "
              + format
              + " (expected: "
              + expected
              + ", level "
              + level
              + ", node format "
              + Node.FORMAT_1
              + " or "
              + Node.FORMAT_2
              + ")");
      return false;
    }
    if (p.pageNo() != no) {
      report(no, from, "header says page " + p.pageNo() + " (expected: " + no + ")");
    }
    int n = Node.count(p);
    int heap = Node.heapStart(p);
    int size = p.size();
    int garbage = Node.garbage(p);
    int pfx = Node.prefixLength(p);
    if (pfx > maxEntry) {
      report(no, from, "prefix of " + pfx + " bytes (expected: at most " + maxEntry + ")");
      return false;
    }
    int slotsEnd = Node.slotPos(p, n);
    if (heap < slotsEnd || heap > size) {
      report(
          no,
          from,
          "heap start "
              + heap
              + " with "
              + n
              + " slots ending at "
              + slotsEnd
              + " in a "
              + size
              + "-byte page");
      return false;
    }
    int shift = Node.keyShift(p);
    int cells = 0;
    for (int i = 0; i < n; i++) {
      int s = Node.slot(p, i);
      int off = s & 0xFFFF;
      int cell = (s >>> 16) + shift;
      if (off < heap || off + cell > size) {
        report(
            no, from, "slot " + i + " cell [" + off + ", " + (off + cell) + ") outside the heap");
        return false;
      }
      if (pfx + (s >>> 16) > maxEntry) {
        report(
            no,
            from,
            "slot "
                + i
                + " key of "
                + (pfx + (s >>> 16))
                + " bytes (expected: at most "
                + maxEntry
                + ")");
        return false;
      }
      if (format == Node.FORMAT_2) {
        int head = Keys.head(p, off + shift, s >>> 16);
        int stored = Node.storedHead(p, i);
        if (head != stored) {
          report(
              no,
              from,
              "slot "
                  + i
                  + " head "
                  + Integer.toHexString(stored)
                  + " (expected: "
                  + Integer.toHexString(head)
                  + ", the first bytes of its key after the prefix)");
          return false;
        }
      }
      cells += cell;
    }
    if (cells != size - heap - garbage) {
      report(
          no,
          from,
          "cells take " + cells + " bytes (expected: " + (size - heap - garbage) + " by header)");
    }
    return true;
  }

  private void checkLeaf(long no, Page p, byte[] lo, byte[] hi, String from) {
    int n = Node.count(p);
    if (n == 0 && no != rootNo) {
      report(no, from, "empty leaf (expected: only a root leaf may be empty)");
    }
    int pfx = Node.prefixLength(p);
    boolean ordered = true;
    for (int i = 0; i < n; i++) {
      int s = Node.slot(p, i);
      int off = s & 0xFFFF;
      int len = s >>> 16;
      if (i > 0 && ordered) {
        // Keys of one page share its prefix: their order is their suffixes' order.
        int t = Node.slot(p, i - 1);
        if (p.compare(t & 0xFFFF, t >>> 16, p, off, len) >= 0) {
          report(no, from, "entries " + (i - 1) + " and " + i + " out of order");
          ordered = false;
        }
      }
      measure(p, pfx, off, len);
      if (entrySink != null) {
        if (entry.length < pfx + len) {
          entry = new byte[Math.max(pfx + len, 2 * entry.length)];
        }
        Keys.copyKey(p, pfx, off, len, entry, 0);
        entrySink.accept(entry, pfx + len);
      }
    }
    if (n > 0) {
      checkBounds(no, p, 0, lo, hi, from, "entry");
      checkBounds(no, p, n - 1, lo, hi, from, "entry");
    }

    long left = Node.leftSibling(p);
    if (prevLeaf != UNKNOWN && left != prevLeaf) {
      report(no, from, "left sibling " + left + " (expected: " + prevLeaf + ")");
    }
    if (prevLeaf != 0 && prevLeaf != UNKNOWN && prevLeafRight != no) {
      report(
          prevLeaf,
          "leaf before " + no,
          "right sibling " + prevLeafRight + " (expected: " + no + ")");
    }
    if (prevLast != null && n > 0) {
      if (Keys.compareKey(p, 0, prevLast, 0, prevLast.length) <= 0) {
        report(no, from, "first entry not above the last entry of leaf " + prevLeaf);
      }
    }
    prevLeaf = no;
    prevLeafRight = Node.rightSibling(p);
    if (n > 0) {
      prevLast = Keys.keyBytes(p, n - 1);
    }
    fillSum += 100.0 * Node.usedBytes(p) / body;
    leaves++;
    leafEntries.accept(n);
  }

  private void measure(Page p, int pfx, int off, int len) {
    entries++;
    entryBytes += pfx + len;
    int plen = Math.min(8, pfx + len);
    long prefix = Keys.prefix8(p, pfx, off, len);
    if (prefix != prevPrefix || plen != prevPrefixLen) {
      distinctPrefixes++;
      prevPrefix = prefix;
      prevPrefixLen = plen;
    }
  }

  private void checkBranch(long no, Page p, int level, byte[] lo, byte[] hi, String from) {
    int n = Node.count(p);
    if (n == 0 && no == rootNo) {
      report(no, from, "root branch with a single child (expected: collapsed into the child)");
    }
    byte[][] seps = new byte[n][];
    for (int i = 0; i < n; i++) {
      seps[i] = Keys.keyBytes(p, i);
      if (i > 0 && java.util.Arrays.compareUnsigned(seps[i - 1], seps[i]) >= 0) {
        report(no, from, "separators " + (i - 1) + " and " + i + " out of order");
      }
    }
    if (n > 0) {
      checkBounds(no, p, 0, lo, hi, from, "separator");
      checkBounds(no, p, n - 1, lo, hi, from, "separator");
    }
    for (int i = 0; i <= n; i++) {
      long child = Node.child(p, i);
      String via = "child " + i + " of page " + no;
      Page c = read(child, via);
      if (c != null) {
        visit(child, c, level - 1, i == 0 ? lo : seps[i - 1], i == n ? hi : seps[i], via);
      }
    }
  }

  /** Key {@code i} must lie in [lo, hi) (null = unbounded). */
  private void checkBounds(long no, Page p, int i, byte[] lo, byte[] hi, String from, String what) {
    if (lo != null && Keys.compareKey(p, i, lo, 0, lo.length) < 0) {
      report(no, from, what + " " + i + " below the parent's lower bound");
    }
    if (hi != null && Keys.compareKey(p, i, hi, 0, hi.length) >= 0) {
      report(no, from, what + " " + i + " not below the parent's upper bound");
    }
  }

  private void report(long no, String from, String what) {
    problems++;
    out.accept("page " + no + " (" + from + "): " + what);
  }
}
