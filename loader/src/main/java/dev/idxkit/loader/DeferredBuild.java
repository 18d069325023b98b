package dev.idxkit.loader;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.DuplicateEntryException;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Row;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.loader.input.RejectedRow;
import dev.idxkit.loader.internal.DuplicateText;
import dev.idxkit.loader.internal.LoadLoop;
import dev.idxkit.loader.internal.ResumeState;
import dev.idxkit.loader.internal.RowLines;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The deferred index build of a load, with a duplicate unique key treated as a rejected row: the
 * row loaded later (by input line) is deleted from the table and written to the reject file with
 * its line, the key, and the line of the row kept; then the build goes on. It ends with every index
 * of the table active, or throws.
 *
 * <h2>Algorithm</h2>
 *
 * <ol>
 *   <li>Build every index of the table in one {@link IndexBuild} call (the common case: no
 *       duplicate, one sort of the table).
 *   <li>On a duplicate in unique index X (the build published nothing): reject one of the two rows
 *       (below), then build X alone, again and again until it goes through without a duplicate. X
 *       is then active, so the deletions of later rejects keep it in step.
 *   <li>Build the indexes still inactive; a duplicate there goes back to step 2 for its index.
 * </ol>
 *
 * Which row goes: of the two rows the build names by RID, the one from the later input line ({@link
 * RowLines}); a row this run did not load (in the table before it, or loaded before a resume) is
 * kept. The row's deletion and the load's adjusted counts are one transaction, so a resume or a
 * restart sees the table as it is.
 *
 * <p>Cost: each duplicate costs one build of its index (a sort of the table's keys for it): a load
 * with a handful of duplicates pays a few builds; one with thousands is better loaded with {@code
 * --mode live}, where an insert finds each duplicate by one lookup.
 */
final class DeferredBuild {
  /**
   * What the build did.
   *
   * @param built the indexes built, entries, summary; null if the build stopped on a duplicate it
   *     could not resolve (see {@code unnamed})
   * @param unnamed a duplicate the build did not name by RID (a plain {@link
   *     DuplicateKeyException}): the indexes stay inactive; else null
   */
  record Outcome(IndexBuild.Result built, DuplicateKeys unnamed) {}

  private final Database db;
  private final TableInfo table;
  private final LoadInput input;
  private final IndexBuild indexBuild;
  private final RowLines lines;
  private final LoadLoop loop;
  private final String resumeKey;
  private final boolean keepResumePoint;

  /**
   * @param keepResumePoint whether the load's resume point stays after the build (a stopped load,
   *     to be resumed), so that each deletion stores the adjusted counts with it
   */
  DeferredBuild(
      Database db,
      TableInfo table,
      LoadInput input,
      IndexBuild indexBuild,
      RowLines lines,
      LoadLoop loop,
      String resumeKey,
      boolean keepResumePoint) {
    this.db = db;
    this.table = table;
    this.input = input;
    this.indexBuild = indexBuild;
    this.lines = lines;
    this.loop = loop;
    this.resumeKey = resumeKey;
    this.keepResumePoint = keepResumePoint;
  }

  Outcome run(IndexBuild.Listener listener) {
    Set<String> pending = new LinkedHashSet<>();
    for (IndexInfo ix : table.indexes()) {
      pending.add(ix.name());
    }
    List<String> built = new ArrayList<>();
    StringBuilder summary = new StringBuilder();
    long entries = 0;
    String focus = null;
    while (!pending.isEmpty()) {
      List<String> now = focus != null ? List.of(focus) : List.copyOf(pending);
      try {
        IndexBuild.Result r = indexBuild.build(db, now, listener);
        built.addAll(r.indexes());
        entries += r.entries();
        if (!r.summary().isEmpty()) {
          summary.append(summary.length() == 0 ? "" : "; ").append(r.summary());
        }
        now.forEach(pending::remove);
        focus = null;
      } catch (DuplicateEntryException e) {
        reject(e);
        focus = e.index();
      } catch (DuplicateKeyException e) {
        return new Outcome(
            null, new DuplicateKeys(e.index(), e.key(), -1, null, null, -1, null, null));
      }
    }
    return new Outcome(new IndexBuild.Result(built, entries, summary.toString()), null);
  }

  /** Deletes the later of the two rows and writes it to the reject file. */
  private void reject(DuplicateEntryException e) {
    long first = lines.line(e.firstRid());
    long second = lines.line(e.secondRid());
    boolean dropSecond;
    if (first >= 0 && second >= 0) {
      dropSecond = second > first;
    } else if (first >= 0 || second >= 0) {
      dropSecond = second >= 0; // keep the row this run did not load
    } else {
      dropSecond = e.secondRid() > e.firstRid();
    }
    long drop = dropSecond ? e.secondRid() : e.firstRid();
    long dropLine = dropSecond ? second : first;
    long keptLine = dropSecond ? first : second;
    Table t = db.table(table.name());
    Row row = t.get(drop);
    String reason = DuplicateText.reason(e.index(), e.key(), keptLine);
    if (dropLine < 0) {
      reason += " (this row was loaded before the load was resumed)";
    }
    ResumeState adjusted =
        loop.rejectLoaded(new RejectedRow(Math.max(0, dropLine), null, rowText(row), reason, 0, 0));
    try (Transaction txn = db.begin(Durability.SYNC)) {
      txn.delete(t, drop);
      if (keepResumePoint) {
        txn.setResumePoint(resumeKey, adjusted.encode());
      }
      txn.commit();
    }
  }

  /**
   * The row as a record of the load's input ({@link LoadInput#recordText}: for CSV, quoted and with
   * the NULL marker as the input's options read them), so the reject file's line can be fixed and
   * loaded again.
   */
  private String rowText(Row row) {
    return row == null ? null : input.recordText(table.def().columns(), row.values());
  }
}
