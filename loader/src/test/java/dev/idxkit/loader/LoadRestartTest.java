package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Database;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.core.testing.Seeds;
import dev.idxkit.loader.input.CsvOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Restartability: a load interrupted at random checkpoints - cancelled, or "crashed" by copying its
 * database directory right after a checkpoint or in the middle of a batch ({@link CrashCopy}) and
 * going on from the copy - and then resumed until it completes, ends exactly as one clean load of
 * the same input: same rows, same index contents, same reject file, a clean {@code check}. For
 * every index mode; the table already holds rows before the load. A restart of an interrupted bulk
 * load also ends as the clean load, the rows it had loaded removed first.
 *
 * <p>Sizes: {@code -Dloader.restart.rows=N} (default 3000) input records.
 */
class LoadRestartTest {
  static final int ROWS = Integer.getInteger("loader.restart.rows", 3000);
  static final int PRELOADED = 200;

  @TempDir Path tmp;

  long seed;
  SplittableRandom random;
  Path csv;

  void setUp() throws IOException {
    seed = Seeds.seed();
    random = Seeds.random(seed);
    csv = tmp.resolve("in.csv");
    RandomLoadInput.write(csv, seed, ROWS);
  }

  String why() {
    return Seeds.reproduce(seed, getClass());
  }

  /** What one uninterrupted load gives: the table and the reject file. */
  record Expected(Snapshot snapshot, List<String> rejects, long rows) {}

  Expected cleanLoad(IndexMode mode) {
    Path dir = tmp.resolve("ref-" + mode);
    Path rejects = tmp.resolve("ref-" + mode + ".rejects");
    try (Database db = create(dir)) {
      LoadReport report =
          new Loader(db, options(mode, StartMode.NEW, rejects), new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(report.outcome()).as(why()).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(report.rejected()).as(why()).isPositive();
      return new Expected(
          Snapshot.of(db, "t"), LoadTesting.rejectLines(rejects), report.rowsLoaded());
    }
  }

  Database create(Path dir) {
    Database db = Database.create(dir);
    db.execute(RandomLoadInput.DDL);
    Table t = db.table("t");
    try (Transaction txn = db.begin()) {
      for (int i = 1; i <= PRELOADED; i++) {
        txn.insert(
            t, (long) -i, i % 7, "pre" + i, null, null, i % 50 == 0 ? "y".repeat(10_000) : "p");
      }
      txn.commit();
    }
    return db;
  }

  LoadOptions options(IndexMode mode, StartMode start, Path rejects) {
    int[] chunks = {256, 4096, 1 << 16};
    return LoadOptions.of(
            "t",
            LoadInput.csv(csv, CsvOptions.defaults().withChunkBytes(chunks[random.nextInt(3)])))
        .withIndexMode(mode)
        .withStartMode(start)
        .withRejectFile(rejects)
        .withCheckpointRows(50 + random.nextInt(400))
        .withParseThreads(1 + random.nextInt(3));
  }

  /** A crash copy: the database directory and the reject file as they were at one instant. */
  record Crash(Path dir, Path rejects) {}

  /**
   * Runs the load in {@code dir} until it completes, cancelling each run at a random early
   * checkpoint, and taking crash copies (into {@code copies}) at random checkpoints and batches.
   */
  void loadWithInterruptions(
      Path dir, IndexMode mode, StartMode first, Path rejects, List<Crash> copies, int maxCopies) {
    StartMode start = first;
    for (int run = 0; ; run++) {
      assertThat(run).as("runs; %s", why()).isLessThan(100);
      try (Database db = Database.open(dir)) {
        int cancelAt = 1 + random.nextInt(4);
        Loader[] loader = new Loader[1];
        LoadListener listener =
            new LoadListener() {
              int checkpoints;

              @Override
              public void checkpoint(LoadProgress p) {
                if (copies.size() < maxCopies && random.nextInt(3) == 0) {
                  copies.add(copy(dir, rejects));
                }
                if (++checkpoints == cancelAt) {
                  loader[0].cancel();
                }
              }

              @Override
              public void progress(LoadProgress p) {
                if (copies.size() < maxCopies && random.nextInt(8) == 0) {
                  // Between checkpoints: unpublished pages, rows committed without a sync.
                  copies.add(copy(dir, rejects));
                }
              }
            };
        loader[0] = new Loader(db, options(mode, start, rejects), new TestIndexBuild());
        LoadReport report = loader[0].run(listener);
        if (report.outcome() == LoadOutcome.COMPLETED) {
          assertThat(report.lastCheckpoint()).isNull();
          return;
        }
        assertThat(report.outcome()).as(why()).isEqualTo(LoadOutcome.CANCELLED);
        assertThat(report.lastCheckpoint()).isNotNull();
        assertThat(Loader.unfinishedLoad(db, "t")).isPresent();
        // Readers see exactly the checkpointed rows meanwhile.
        assertThat(db.table("t").rowCount()).isEqualTo(PRELOADED + report.rowsLoaded());
        start = StartMode.RESUME;
      }
    }
  }

  Crash copy(Path dir, Path rejects) {
    try {
      Path to = tmp.resolve("copy-" + System.nanoTime());
      CrashCopy.of(dir, to);
      // What the reject file held on disk at that instant (what it buffered, a kill loses).
      Path r = to.resolveSibling(to.getFileName() + ".rejects");
      Files.copy(rejects, r);
      return new Crash(to, r);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void assertLike(Path dir, Expected expected, Path rejects, String what) {
    try (Database db = Database.open(dir)) {
      assertThat(db.check().problems()).as("check of %s; %s", what, why()).isEmpty();
      assertThat(Loader.unfinishedLoad(db, "t")).as(what).isEmpty();
      Snapshot s = Snapshot.of(db, "t");
      assertThat(s.rows()).as("rows of %s; %s", what, why()).isEqualTo(expected.snapshot().rows());
      assertThat(s.indexes())
          .as("indexes of %s; %s", what, why())
          .isEqualTo(expected.snapshot().indexes());
    }
    assertThat(LoadTesting.rejectLines(rejects))
        .as("rejects of %s; %s", what, why())
        .isEqualTo(expected.rejects());
  }

  @ParameterizedTest
  @EnumSource(IndexMode.class)
  void interruptedLoadsResumeToTheCleanResult(IndexMode mode) throws IOException {
    setUp();
    Expected expected = cleanLoad(mode);
    Path dir = tmp.resolve("db-" + mode);
    Path rejects = tmp.resolve("db-" + mode + ".rejects");
    create(dir).close();
    List<Crash> copies = new ArrayList<>();
    loadWithInterruptions(dir, mode, StartMode.NEW, rejects, copies, 3);
    assertLike(dir, expected, rejects, mode + " load resumed after cancels");
    assertThat(copies).as(why()).isNotEmpty();
    for (Crash copy : copies) {
      // The copy is what a crash would have left: the database, and the reject file at its
      // path (the checkpoint names it). Resume from its last checkpoint.
      Files.copy(copy.rejects(), rejects, StandardCopyOption.REPLACE_EXISTING);
      loadWithInterruptions(copy.dir(), mode, StartMode.RESUME, rejects, new ArrayList<>(), 0);
      assertLike(copy.dir(), expected, rejects, mode + " load resumed from " + copy.dir());
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = IndexMode.class,
      names = {"DEFERRED", "NONE"})
  void restartRemovesTheInterruptedRowsAndLoadsAgain(IndexMode mode) throws IOException {
    setUp();
    Expected expected = cleanLoad(mode);
    Path dir = tmp.resolve("db-" + mode);
    Path rejects = tmp.resolve("db-" + mode + ".rejects");
    create(dir).close();
    try (Database db = Database.open(dir)) {
      Loader[] loader = new Loader[1];
      int cancelAt = 1 + random.nextInt(3);
      loader[0] = new Loader(db, options(mode, StartMode.NEW, rejects), new TestIndexBuild());
      LoadReport report =
          loader[0].run(
              new LoadListener() {
                int n;

                @Override
                public void checkpoint(LoadProgress p) {
                  if (++n == cancelAt) {
                    loader[0].cancel();
                  }
                }
              });
      assertThat(report.outcome()).as(why()).isEqualTo(LoadOutcome.CANCELLED);
      assertThat(db.table("t").rowCount()).isGreaterThan(PRELOADED);
      // A new load is refused while this one is unfinished, and says what to do.
      assertThatThrownBy(
              () ->
                  new Loader(db, options(mode, StartMode.NEW, rejects), new TestIndexBuild())
                      .run(LoadListener.NONE))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("unfinished load")
          .hasMessageContaining("--resume")
          .hasMessageContaining("--restart");
      LoadReport again =
          new Loader(db, options(mode, StartMode.RESTART, rejects), new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(again.outcome()).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(again.rowsLoaded()).isEqualTo(expected.rows());
    }
    assertLike(dir, expected, rejects, mode + " load restarted");
  }
}
