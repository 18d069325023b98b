package dev.idxkit.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.internal.log.DoubleWrite;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.core.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint's home write cut at a random byte of a page (the OS writes a page in parts, and a
 * crash can stop between them): the home copy of that page is then half new, half old, and since
 * the log holds deltas, recovery must not build on it. The log starts every page changed since the
 * last checkpoint with its full image (issue 18), so recovery from a copy taken right after the cut
 * - what a crash there leaves - must give every page back: the table and its indexes equal to the
 * model, {@code check} clean.
 *
 * <p>Each trial: commits, a checkpoint (pages home), more commits that change pages again (a full
 * image for each page's first change, deltas after), then a checkpoint whose write to one area file
 * fails after a random number of bytes below one page, so the first page it writes is torn.
 */
class TornHomeWriteTest {
  static final long SEED = Seeds.seed();

  @TempDir Path tmp;

  private final FaultyFileIo io = new FaultyFileIo();

  @Test
  void aHomeWriteCutAtARandomByteIsRepairedByRecovery() throws Exception {
    SplittableRandom r = Seeds.random(SEED);
    String why = Seeds.reproduce(SEED, getClass());
    for (int trial = 0; trial < 8; trial++) {
      Path dir = tmp.resolve("t" + trial);
      String file = trial % 2 == 0 ? "data.area" : "index.area";
      ModelTable model = new ModelTable(r.nextLong());
      long cut = r.nextLong(1, 8192);
      String when = "trial " + trial + ", " + file + " cut after " + cut + " bytes; " + why;
      Database db = Database.create(dir, DatabaseOptions.defaults().withFileIo(io));
      try {
        tearAHomeWrite(db, model, io, file, cut, 6, when);
        model.assertMatches(db, "after the torn checkpoint, " + when);
        Path crash = CrashCopy.of(dir, tmp.resolve("crash" + trial));
        try (Database copy = Database.open(crash)) {
          model.assertMatches(copy, "recovered from the torn checkpoint, " + when);
          assertThat(copy.check().problems()).as(when).isEmpty();
        }
        try (Database again = Database.open(crash)) {
          model.assertMatches(again, "reopened after the recovery checkpoint, " + when);
        }
      } finally {
        io.clear();
        // Close may report the checkpoint's failure again (see WriteFaultTest); the copy is what
        // this test is about.
        catchThrowable(db::close);
      }
    }
  }

  /**
   * The pages formatted since the last checkpoint are left out of its double write (their log
   * starts from zeros). So a home write that tears one of them must be repaired from the log alone,
   * in a recovery that also installs the double write's images of the other pages and skips their
   * records up to its LSN, which the fresh pages' records are among. Each trial: the model table
   * checkpointed, then changed (its pages go to the double write), then a new table in an area of
   * its own filled (all its pages fresh), then a checkpoint whose write to that area is cut.
   */
  @Test
  void aTornHomeWriteOfAPageFormattedSinceTheCheckpointIsRebuiltFromTheLog() throws Exception {
    SplittableRandom r = Seeds.random(SEED);
    String why = Seeds.reproduce(SEED, getClass());
    for (int trial = 0; trial < 4; trial++) {
      Path dir = tmp.resolve("f" + trial);
      ModelTable model = new ModelTable(r.nextLong());
      long cut = r.nextLong(1, 8192);
      String when = "trial " + trial + ", fresh.area cut after " + cut + " bytes; " + why;
      Database db = Database.create(dir, DatabaseOptions.defaults().withFileIo(io));
      Path crash;
      List<Object[]> freshRows = new ArrayList<>();
      try {
        db.execute(ModelTable.DDL);
        for (int i = 0; i < 3; i++) {
          model.commit(db, 300);
        }
        db.checkpoint();
        model.commit(db, 40);
        db.execute(
            "CREATE TABLE f (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(200)) TABLESPACE fresh");
        for (int i = 0; i < 3; i++) {
          try (Transaction t = db.begin()) {
            for (int k = 0; k < 100; k++) {
              Object[] row = {(long) freshRows.size(), "v" + r.nextLong() + "-".repeat(150)};
              t.insert(db.table("f"), row);
              freshRows.add(row);
            }
            t.commit();
          }
        }
        model.commit(db, 40);
        Fault fault = io.add(Fault.ioErrorAfter(Fault.named("fresh.area"), cut));
        assertThat(catchThrowable(db::checkpoint)).as(when).isInstanceOf(IdxkitIOException.class);
        assertThat(fault.hits()).as("the home write was cut, " + when).isGreaterThanOrEqualTo(1);
        crash = CrashCopy.of(dir, tmp.resolve("fcrash" + trial));
      } finally {
        io.clear();
        catchThrowable(db::close);
      }
      int freshArea = areaId(crash, "fresh");
      DoubleWrite.Found set = DoubleWrite.find(crash, 8192, 0);
      assertThat(set)
          .as("the model table's changed pages were double-written, " + when)
          .isNotNull();
      Set<Integer> areas = new HashSet<>();
      DoubleWrite.forEachImage(set, 8192, (area, pageNo, image) -> areas.add(area));
      assertThat(areas).as(when).isNotEmpty().doesNotContain(freshArea);
      try (Database copy = Database.open(crash)) {
        model.assertMatches(copy, "recovered from the torn checkpoint, " + when);
        List<Object[]> read = new ArrayList<>();
        try (RowCursor c = copy.table("f").scan()) {
          c.forEachRemaining(row -> read.add(row.values()));
        }
        assertThat(read).as(when).containsExactlyElementsOf(freshRows);
        assertThat(copy.check().problems()).as(when).isEmpty();
      }
    }
  }

  private static int areaId(Path db, String area) {
    try (Database d = Database.open(db, DatabaseOptions.defaults().readOnly())) {
      return d.schema().requireArea(area).id();
    }
  }

  /**
   * Fills {@code db} with {@code model}'s rows (three commits of 300, a checkpoint, then {@code
   * smallCommits} commits of 40), then checkpoints with the writes to {@code area} failing after
   * {@code cut} bytes: the checkpoint fails, having torn the first home page it wrote there. The
   * fault stays in {@code io}.
   */
  static void tearAHomeWrite(
      Database db,
      ModelTable model,
      FaultyFileIo io,
      String area,
      long cut,
      int smallCommits,
      String when) {
    db.execute(ModelTable.DDL);
    for (int i = 0; i < 3; i++) {
      model.commit(db, 300);
    }
    db.checkpoint();
    for (int i = 0; i < smallCommits; i++) {
      model.commit(db, 40);
    }
    Fault f = io.add(Fault.ioErrorAfter(Fault.named(area), cut));
    assertThat(catchThrowable(db::checkpoint)).as(when).isInstanceOf(IdxkitIOException.class);
    // At least one: the checkpoint keeps several home writes in flight, and each of them that
    // reaches the file after the budget ran out is refused too (one seed saw two).
    assertThat(f.hits()).as("the home write was cut, " + when).isGreaterThanOrEqualTo(1);
  }
}
