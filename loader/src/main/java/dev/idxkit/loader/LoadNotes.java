package dev.idxkit.loader;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.IndexStatus;
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
      Map<String, IndexStatus> indexes,
      boolean keptIndexed,
      LoadLoop.Stop stop) {
    List<String> notes = new ArrayList<>();
    ResumeState d = loop.durable();
    String at =
        d.resume() == null
            ? "the start of the input"
            : String.format(Locale.ROOT, "line %,d", d.resume().line());
    String rows = String.format(Locale.ROOT, "%,d rows", d.rowsLoaded());
    String indexed =
        keptIndexed
            ? String.format(
                Locale.ROOT,
                "; the %s kept are indexed (every index of %s active); --restart removes them",
                rows,
                table.name())
            : "";
    if (outcome == LoadOutcome.TOO_MANY_ERRORS && stop == LoadLoop.Stop.END) {
      // Every row was read and the build ran; the duplicates it found pushed the rejects over.
      notes.add(
          String.format(
              Locale.ROOT,
              "%,d rows rejected, more than --max-errors %d (duplicate keys found by the index"
                  + " build count too); every other row is loaded and indexed",
              loop.rejects(),
              options.maxErrors()));
      outcome = LoadOutcome.COMPLETED; // no other note applies
    }
    switch (outcome) {
      case CANCELLED ->
          notes.add(
              "cancelled: the load is checkpointed at "
                  + at
                  + " ("
                  + rows
                  + " of it in the table); continue it with --resume"
                  + indexed);
      case TOO_MANY_ERRORS ->
          notes.add(
              String.format(
                  Locale.ROOT,
                  "stopped: %,d rows rejected, more than --max-errors %d; the table keeps the %s"
                      + " of the last checkpoint (at %s). Continue with --resume and a higher"
                      + " --max-errors, or fix the input and start over with --restart%s",
                  loop.rejects(),
                  options.maxErrors(),
                  rows,
                  at,
                  indexed));
      case DUPLICATE_KEYS ->
          notes.add(
              "every row is loaded, but the indexes of "
                  + table.name()
                  + " stay inactive: the index build found a key twice without naming the rows;"
                  + " delete one (idxkit scan finds them by the key), then build them with: idxkit"
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
