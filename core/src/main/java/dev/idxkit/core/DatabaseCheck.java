package dev.idxkit.core;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.internal.Internals;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.txn.Store;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The full consistency check behind {@code idxkit check}: it reads everything and trusts nothing.
 *
 * <p>Steps, with the writer held so the state cannot change: (1) every heap page of each table is
 * read, its slots checked and every record decoded, overflow chains followed; the live count must
 * equal the table's row count. On the way, each row's key for every index to be checked goes into
 * that index's digest of rows ({@link EntryDigest}: a count and a sum of hashes of key and RID).
 * (2) every active index is walked by {@link BTree#check} for its invariants, its entries going
 * into a digest of entries on the way (or, when its change buffer holds entries, in a walk after
 * it, with the buffer laid over the tree), which must equal the digest of its table's rows: one
 * entry per row, with the row's key and RID. Only when they differ is the index walked again,
 * looking up the row of every entry (a random read each), to say which entries are wrong. (3) page
 * accounting per area: no page is used twice, free pages are below the high-water mark and unused,
 * and every page below it is either used or free (a page in neither leaked). (4) every used page is
 * re-read and its checksum verified against the bytes on disk now.
 *
 * <p>Steps 1, 2 and 4 run on {@link Options#threadCount()} threads ({@link CheckRun}). Problems are
 * collected, not thrown, up to {@code maxProblems}; a report is clean when there are none. A {@link
 * Listener} hears each step begin and advance. Memory: one bit per page below each area's
 * high-water mark, and the owner of each used page.
 */
public final class DatabaseCheck {
  private DatabaseCheck() {}

  /**
   * What to check: all tables and indexes, or the named ones (and their tables' indexes); on how
   * many threads (0: one per processor, at most {@value #MAX_AUTO_THREADS}).
   */
  public record Options(Set<String> tables, Set<String> indexes, int maxProblems, int threads) {
    public Options {
      if (threads < 0) {
        throw new IllegalArgumentException("threads : " + threads + " (expected: >= 0)");
      }
    }

    /** Threads as the machine has processors. */
    public Options(Set<String> tables, Set<String> indexes, int maxProblems) {
      this(tables, indexes, maxProblems, 0);
    }

    public static Options all() {
      return new Options(Set.of(), Set.of(), 100);
    }

    /** The threads the check reads on. */
    public int threadCount() {
      return threads > 0
          ? threads
          : Math.min(MAX_AUTO_THREADS, Runtime.getRuntime().availableProcessors());
    }

    /** Whether the table is checked itself (every table when nothing is named). */
    boolean wantsTable(String name) {
      return tables.isEmpty() && indexes.isEmpty() || tables.contains(name);
    }

    boolean wantsIndex(IndexInfo ix) {
      return tables.isEmpty() && indexes.isEmpty()
          || indexes.contains(ix.name())
          || tables.contains(ix.table().name());
    }

    boolean everything() {
      return tables.isEmpty() && indexes.isEmpty();
    }
  }

  /** Threads of a check that was not told how many: beyond this the disk, not the CPU, limits. */
  public static final int MAX_AUTO_THREADS = 8;

  /** The outcome: problems found (empty when clean) and what was checked. */
  public record Report(
      List<String> problems,
      Map<String, Long> tableRows,
      Map<String, TreeStats> indexes,
      long pagesVerified) {
    public boolean clean() {
      return problems.isEmpty();
    }
  }

  /**
   * What a check reports as it goes, on the thread that called it: each step as it begins (checking
   * the tables, the indexes, the pages' checksums) and its units as they are done. A listener that
   * throws stops the check.
   */
  public interface Listener {
    /** A step begins: {@code total} {@code unit}s to do ("pages", "entries"). */
    void step(String name, long total, String unit);

    /** {@code n} more units of the current step done. */
    void advanced(long n);

    /** Hears nothing. */
    Listener NONE =
        new Listener() {
          @Override
          public void step(String name, long total, String unit) {}

          @Override
          public void advanced(long n) {}
        };
  }

  static Report run(Database db, Options options, Listener listener) {
    Store store = Internals.store(db);
    Catalog cat = db.catalog();
    for (String t : options.tables()) {
      cat.table(t);
    }
    for (String i : options.indexes()) {
      cat.index(i);
    }
    return store.inspect(free -> new CheckRun(store, cat, options, free, listener).run());
  }
}
