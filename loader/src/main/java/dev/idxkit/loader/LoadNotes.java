package dev.idxkit.loader;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.DuplicateEntryException;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.Row;
import dev.idxkit.core.Table;
import dev.idxkit.core.schema.Values;
import dev.idxkit.loader.internal.LoadLoop;
import dev.idxkit.loader.internal.ResumeState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The parts of a {@link LoadReport} that take words: notes, the duplicate-key rows, key text. */
final class LoadNotes {
  private LoadNotes() {}

  /** What the user should read after the run: how to go on, how to build inactive indexes. */
  static List<String> notes(
      Database db,
      LoadOptions options,
      TableInfo table,
      LoadOutcome outcome,
      LoadLoop loop,
      Map<String, IndexStatus> indexes) {
    List<String> notes = new ArrayList<>();
    ResumeState d = loop.durable();
    String at =
        d.resume() == null
            ? "the start of the input"
            : String.format(Locale.ROOT, "line %,d", d.resume().line());
    String rows = String.format(Locale.ROOT, "%,d rows", d.rowsLoaded());
    switch (outcome) {
      case CANCELLED ->
          notes.add(
              "cancelled: the load is checkpointed at "
                  + at
                  + " ("
                  + rows
                  + " of it in the table); continue it with --resume");
      case TOO_MANY_ERRORS ->
          notes.add(
              String.format(
                  Locale.ROOT,
                  "stopped: %,d rows rejected, more than --max-errors %d; the table keeps the %s"
                      + " of the last checkpoint (at %s). Continue with --resume and a higher"
                      + " --max-errors, or fix the input and start over with --restart",
                  loop.rejects(),
                  options.maxErrors(),
                  rows,
                  at));
      case DUPLICATE_KEYS ->
          notes.add(
              "every row is loaded, but the indexes of "
                  + table.name()
                  + " stay inactive: remove one of the two rows, then build them with: idxkit"
                  + " idxbuild "
                  + db.dir()
                  + " --inactive");
      case COMPLETED -> {}
    }
    List<String> inactive =
        indexes.entrySet().stream()
            .filter(e -> e.getValue() == IndexStatus.INACTIVE)
            .map(Map.Entry::getKey)
            .toList();
    if (!inactive.isEmpty() && outcome != LoadOutcome.DUPLICATE_KEYS) {
      notes.add(
          "inactive indexes (neither maintained nor usable): "
              + String.join(", ", inactive)
              + (outcome == LoadOutcome.COMPLETED
                  ? "; build them with: idxkit idxbuild " + db.dir() + " --inactive"
                  : "; the load builds them when it completes"));
    }
    return notes;
  }

  /** The two rows of a duplicate key, fetched by RID when the build named them. */
  static DuplicateKeys duplicateOf(Database db, TableInfo table, DuplicateKeyException e) {
    if (!(e instanceof DuplicateEntryException d)) {
      return new DuplicateKeys(e.index(), e.key(), -1, null, null, -1, null, null);
    }
    IndexInfo ix = db.catalog().index(e.index());
    Table t = db.table(table.name());
    Row a = t.get(d.firstRid());
    Row b = t.get(d.secondRid());
    return new DuplicateKeys(
        e.index(),
        e.key(),
        d.firstRid(),
        a == null ? null : a.values(),
        a == null ? null : keyText(ix, a.values()),
        d.secondRid(),
        b == null ? null : b.values(),
        b == null ? null : keyText(ix, b.values()));
  }

  /** The key columns of a row as {@code (a=1, b='x')}. */
  static String keyText(IndexInfo ix, Object[] row) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < ix.columns().length; i++) {
      int c = ix.columns()[i];
      var col = ix.table().columns().get(c);
      Object v = row[c];
      String text = v == null ? "NULL" : Values.format(col.type(), v);
      sb.append(i == 0 ? "" : ", ").append(col.name()).append('=');
      sb.append(v instanceof String ? "'" + text + "'" : text);
    }
    return sb.append(')').toString();
  }
}
