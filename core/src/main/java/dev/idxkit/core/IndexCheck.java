package dev.idxkit.core;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.BufferedCursor;
import dev.idxkit.core.internal.btree.ChangeBuffer;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.KeyExtractor;
import dev.idxkit.core.spi.Overflow;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongConsumer;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * One task of {@link DatabaseCheck}'s second step: an index. One to walk ({@code rows} is its
 * table's row digest) has its tree checked ({@link BTree#check}) and its pages claimed, and its
 * entries as readers see them go into a digest that must equal the rows': the tree's, digested by
 * its check on the way, or, when its change buffer holds entries, the tree's with the buffer laid
 * over them, walked after the check. Only when the digests differ is it walked again with a row
 * lookup per entry, to name the wrong entries. Any other tree (inactive, or not asked for) only has
 * its pages claimed.
 */
final class IndexCheck implements Callable<IndexCheck.Result> {
  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /** What the index's check found: its tree's figures (null when only claimed), its problems. */
  record Result(TreeStats stats, List<String> problems) {}

  private final CheckRun run;
  private final IndexInfo ix;
  private final IndexState state;
  private final EntryDigest rows;
  private final List<String> found = new ArrayList<>();
  // Units told to the run so far: each entry counts twice (the tree's check, the walk).
  private long reported;

  IndexCheck(CheckRun run, IndexInfo ix, IndexState state, EntryDigest rows) {
    this.run = run;
    this.ix = ix;
    this.state = state;
    this.rows = rows;
  }

  IndexInfo index() {
    return ix;
  }

  @Override
  public Result call() {
    String owner = "index " + ix.name();
    BTree tree = new BTree(run.store.committedPages(ix.area()), state.root(), ix.name());
    if (rows == null) {
      claimPages(tree, owner);
      return new Result(null, found);
    }
    TableInfo t = run.cat.table(ix.def().tableId());
    // With nothing in its change buffer, the tree's entries are the entries readers see: the
    // tree's check digests them on its way, and no walk follows.
    boolean buffered = hasBufferedChanges();
    EntryDigest checked = new EntryDigest();
    TreeStats stats =
        tree.check(
            p -> run.add(found, owner + ": " + p),
            new LeafReports(buffered ? 1 : 2),
            buffered ? null : (e, len) -> digest(checked, e, len));
    claimPages(tree, owner);
    if (found.isEmpty()) { // the entries of a broken tree cannot be walked reliably
      if (buffered) {
        walk(tree, t);
      } else if (!checked.matches(rows)) {
        findMismatches(tree, t);
      }
    }
    // Entries held in the change buffer are not in the tree's check, and a broken tree is not
    // walked: the step still ends at its total.
    advance(Math.max(0, 2 * run.meta.table(t.id()).rows() - reported));
    return new Result(stats, found);
  }

  private void claimPages(BTree tree, String owner) {
    try {
      tree.forEachPage(p -> run.claim(ix.area(), p, owner, found));
    } catch (IdxkitException e) {
      run.add(found, owner + ": " + e.getMessage());
    }
  }

  private void walk(BTree tree, TableInfo t) {
    EntryDigest entries = new EntryDigest();
    BufferedCursor c = cursor(tree);
    int sinceReport = 0;
    for (boolean on = c.first(); on; on = c.next()) {
      byte[] e = c.entry();
      entries.add(e, 0, e.length - Rid.BYTES, c.rid());
      if (++sinceReport == CheckRun.ENTRIES_PER_REPORT) {
        advance(sinceReport);
        sinceReport = 0;
      }
    }
    advance(sinceReport);
    if (!entries.matches(rows)) {
      findMismatches(tree, t);
    }
  }

  private boolean hasBufferedChanges() {
    for (ChangeBuffer b : run.store.committedView().buffered(ix.id())) {
      if (!b.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Adds an entry of the tree's check to {@code digest}: its key, and its last 8 bytes as RID. */
  private void digest(EntryDigest digest, byte[] e, int len) {
    if (len < Rid.BYTES) { // a damaged page: the check stops at this tree's problems
      run.add(found, "index " + ix.name() + ": an entry of " + len + " bytes, shorter than a RID");
      return;
    }
    digest.add(e, 0, len - Rid.BYTES, (long) BE_LONG.get(e, len - Rid.BYTES));
  }

  private BufferedCursor cursor(BTree tree) {
    return new BufferedCursor(tree, run.store.committedView().buffered(ix.id()), false);
  }

  /**
   * The index's entries differ from its table's rows: walks the entries again, looking up the row
   * of each, to say which are wrong.
   */
  private void findMismatches(BTree tree, TableInfo t) {
    int max = run.options.maxProblems();
    KeyExtractor extractor = ix.extractor(t.layout());
    GrowableBytes key = new GrowableBytes();
    PageAccess heap = run.store.committedPages(t.area());
    long entries = 0;
    long unreadable = 0;
    BufferedCursor c = cursor(tree);
    for (boolean on = c.first(); on && found.size() < max; on = c.next()) {
      entries++;
      byte[] e = c.entry();
      long rid = c.rid();
      byte[] rec = record(t, heap, rid);
      if (rec == null) {
        run.add(found, "index " + ix.name() + ": entry points at missing row " + Rid.toString(rid));
        continue;
      }
      key.reset();
      try {
        extractor.extract(BytesStore.wrap(rec), 0, rec.length, key);
      } catch (RuntimeException x) {
        unreadable++; // the table's scan reported the record
        continue;
      }
      if (!Arrays.equals(key.array(), 0, key.length(), e, 0, e.length - Rid.BYTES)) {
        run.add(
            found,
            "index "
                + ix.name()
                + ": entry for row "
                + Rid.toString(rid)
                + " does not match the row's key");
      }
    }
    long expected = run.meta.table(t.id()).rows();
    if (entries != expected && found.size() < max) {
      run.add(
          found, "index " + ix.name() + " has " + entries + " entries for " + expected + " rows");
    }
    if (found.isEmpty() && unreadable == 0) {
      // Every entry names a live row with its key and the counts agree, yet the digests differ:
      // a row with two entries and another with none.
      run.add(
          found,
          "index "
              + ix.name()
              + ": its entries are not one per row of table "
              + t.name()
              + " (some row has none, another more than one)");
    }
  }

  private byte[] record(TableInfo t, PageAccess heap, long rid) {
    long p = Rid.page(rid);
    int slot = Rid.slot(rid);
    if (!run.meta.table(t.id()).pages().contains(p)) {
      return null;
    }
    try {
      Page page = heap.read(p);
      if (slot >= HeapPage.slotCount(page) || !HeapPage.isLive(page, slot)) {
        return null;
      }
      return HeapPage.isOverflow(page, slot)
          ? Overflow.readRecord(heap, page, slot)
          : HeapPage.read(page, slot);
    } catch (IdxkitException e) {
      return null;
    }
  }

  private void advance(long n) {
    reported += n;
    run.advance(n);
  }

  /**
   * Leaves' entry counts from the tree's check, passed on a batch at a time: {@code units} an entry
   * (2 when the check digests the entries too, and no walk follows).
   */
  private final class LeafReports implements LongConsumer {
    private final int units;
    private long pending;

    LeafReports(int units) {
      this.units = units;
    }

    @Override
    public void accept(long entries) {
      pending += units * entries;
      if (pending >= CheckRun.ENTRIES_PER_REPORT) {
        advance(pending);
        pending = 0;
      }
    }
  }
}
