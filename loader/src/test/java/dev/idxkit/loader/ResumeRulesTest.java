package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.testing.Seeds;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.ResumePoint;
import dev.idxkit.loader.input.RowSource;
import dev.idxkit.loader.internal.ResumeState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the resume point allows and refuses - each refusal an {@link InvalidInputException} (exit
 * code 2) that says what to do - and its stored format.
 */
class ResumeRulesTest {
  @TempDir Path tmp;
  Path csv;
  Path dir;

  @BeforeEach
  void setUp() throws IOException {
    csv = tmp.resolve("in.csv");
    RandomLoadInput.write(csv, 42, 2000);
    dir = tmp.resolve("db");
    try (Database db = Database.create(dir)) {
      db.execute(RandomLoadInput.DDL);
    }
  }

  LoadOptions options(IndexMode mode, StartMode start) {
    return LoadOptions.of("t", LoadInput.csv(csv, CsvOptions.defaults().withChunkBytes(4096)))
        .withIndexMode(mode)
        .withStartMode(start)
        .withCheckpointRows(200);
  }

  /** Runs a load that cancels itself at its {@code at}-th checkpoint. */
  static LoadReport cancelled(Database db, LoadOptions options, int at) {
    Loader[] loader = {new Loader(db, options, new TestIndexBuild())};
    LoadReport r =
        loader[0].run(
            new LoadListener() {
              int n;

              @Override
              public void checkpoint(LoadProgress p) {
                if (++n == at) {
                  loader[0].cancel();
                }
              }
            });
    assertThat(r.outcome()).isEqualTo(LoadOutcome.CANCELLED);
    return r;
  }

  static LoadReport run(Database db, LoadOptions options) {
    return new Loader(db, options, new TestIndexBuild()).run(LoadListener.NONE);
  }

  @Test
  void inputRefusedAtOpenLeavesTheDatabaseUntouched() throws IOException {
    // Found by src-test's CliFuzzIT: a CSV header that did not match was refused (exit 2) only
    // after the first checkpoint, leaving the indexes inactive and an unfinished load.
    Path bad = tmp.resolve("bad.csv");
    Files.writeString(bad, "a,b,c\n1,2,3\n");
    for (IndexMode mode : IndexMode.values()) {
      try (Database db = Database.create(tmp.resolve("db-" + mode))) {
        db.execute(RandomLoadInput.DDL);
        LoadOptions o =
            LoadOptions.of("t", LoadInput.csv(bad, CsvOptions.defaults())).withIndexMode(mode);
        assertThatThrownBy(() -> run(db, o))
            .as("%s", mode)
            .isInstanceOf(InvalidInputException.class)
            .hasMessageContaining("header does not match table t");
        LoadOptions missing =
            LoadOptions.of("t", LoadInput.csv(tmp.resolve("nope.csv"), CsvOptions.defaults()))
                .withIndexMode(mode);
        assertThatThrownBy(() -> run(db, missing)).isInstanceOf(IdxkitException.class);
        assertThat(Loader.unfinishedLoad(db, "t")).as("%s", mode).isEmpty();
        assertThat(db.index("t_grp").isActive()).as("%s", mode).isTrue();
        assertThat(db.index("t_pk").isActive()).as("%s", mode).isTrue();
        // and a good load runs without --restart
        assertThat(run(db, options(mode, StartMode.NEW)).outcome())
            .isEqualTo(LoadOutcome.COMPLETED);
      }
    }
  }

  @Test
  void theInputIsOpenedOnceARun() {
    LoadInput csvInput = LoadInput.csv(csv, CsvOptions.defaults().withChunkBytes(4096));
    int[] opens = {0};
    LoadInput counted =
        new LoadInput() {
          @Override
          public String name() {
            return csvInput.name();
          }

          @Override
          public String identity() {
            return csvInput.identity();
          }

          @Override
          public boolean positionsAreBytes() {
            return true;
          }

          @Override
          public long size() {
            return csvInput.size();
          }

          @Override
          public RowSource open(TableDef table, ResumePoint from) {
            opens[0]++;
            return csvInput.open(table, from);
          }
        };
    LoadOptions o = LoadOptions.of("t", counted).withCheckpointRows(200);
    try (Database db = Database.open(dir)) {
      cancelled(db, o, 3);
      assertThat(opens[0]).as("opens of a new load").isEqualTo(1);
      opens[0] = 0;
      LoadReport r = run(db, o.withStartMode(StartMode.RESUME));
      assertThat(r.outcome()).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(opens[0]).as("opens of a resume").isEqualTo(1);
    }
  }

  @Test
  void resumeWithNothingToResumeIsRefused() {
    try (Database db = Database.open(dir)) {
      assertThatThrownBy(() -> run(db, options(IndexMode.DEFERRED, StartMode.RESUME)))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("no unfinished load of table t")
          .hasMessageContaining("run without --resume")
          .matches(e -> ((IdxkitException) e).isBadInput());
      // A finished load leaves nothing to resume either: a retry cannot load the rows twice.
      assertThat(run(db, options(IndexMode.DEFERRED, StartMode.NEW)).outcome())
          .isEqualTo(LoadOutcome.COMPLETED);
      assertThatThrownBy(() -> run(db, options(IndexMode.DEFERRED, StartMode.RESUME)))
          .isInstanceOf(InvalidInputException.class);
    }
  }

  @Test
  void newLoadWhileOneIsUnfinishedIsRefusedAndSaysHowFarItGot() {
    try (Database db = Database.open(dir)) {
      LoadReport first = cancelled(db, options(IndexMode.NONE, StartMode.NEW), 2);
      assertThat(Loader.unfinishedLoad(db, "t")).get().asString().contains("none load");
      assertThatThrownBy(() -> run(db, options(IndexMode.NONE, StartMode.NEW)))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("table t has an unfinished load")
          .hasMessageContaining(String.format("%,d rows loaded", first.rowsLoaded()))
          .hasMessageContaining("--resume")
          .hasMessageContaining("--restart");
    }
  }

  @Test
  void resumeWithAChangedInputOrAnotherModeIsRefused() throws IOException {
    try (Database db = Database.open(dir)) {
      LoadReport first = cancelled(db, options(IndexMode.DEFERRED, StartMode.NEW), 1);
      assertThatThrownBy(() -> run(db, options(IndexMode.LIVE, StartMode.RESUME)))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("index mode deferred, not live")
          .hasMessageContaining("--index-build deferred");
      byte[] original = Files.readAllBytes(csv);
      FileTime modified = Files.getLastModifiedTime(csv);
      Files.writeString(csv, "999999,1,late,1.00,2024-01-01,x\n", StandardOpenOption.APPEND);
      assertThatThrownBy(() -> run(db, options(IndexMode.DEFERRED, StartMode.RESUME)))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("read a different input")
          .hasMessageContaining("size=" + original.length)
          .hasMessageContaining("size=" + Files.size(csv))
          .hasMessageContaining("--restart");
      // The same bytes and modification time again: the same input, the resume goes on.
      Files.write(csv, original);
      Files.setLastModifiedTime(csv, modified);
      LoadReport resumed = run(db, options(IndexMode.DEFERRED, StartMode.RESUME));
      assertThat(resumed.outcome()).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(resumed.resumed()).isTrue();
      assertThat(resumed.startedAt()).isEqualTo(first.lastCheckpoint());
      assertThat(resumed.runRows()).isEqualTo(resumed.rowsLoaded() - first.rowsLoaded());
      assertThat(db.table("t").rowCount()).isEqualTo(resumed.rowsLoaded());
    }
  }

  @Test
  void restartOfALiveLoadOrOfAChangedTableIsRefused() {
    try (Database db = Database.open(dir)) {
      cancelled(db, options(IndexMode.LIVE, StartMode.NEW), 2);
      assertThatThrownBy(() -> run(db, options(IndexMode.LIVE, StartMode.RESTART)))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("is a live load")
          .hasMessageContaining("--resume");
      assertThat(run(db, options(IndexMode.LIVE, StartMode.RESUME)).outcome())
          .isEqualTo(LoadOutcome.COMPLETED);
    }
    try (Database db = Database.create(tmp.resolve("db2"))) {
      db.execute(RandomLoadInput.DDL);
      cancelled(db, options(IndexMode.DEFERRED, StartMode.NEW), 2);
      db.table("t").insert(-1L, 1, "inserted after the crash", null, null, null);
      assertThatThrownBy(() -> run(db, options(IndexMode.DEFERRED, StartMode.RESTART)))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("the table changed since the interrupted load's last checkpoint")
          .hasMessageContaining("--resume");
      // Resuming is still exact: the extra row stays, the load goes on from its checkpoint.
      LoadReport r = run(db, options(IndexMode.DEFERRED, StartMode.RESUME));
      assertThat(r.outcome()).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(db.table("t").rowCount()).isEqualTo(r.rowsLoaded() + 1);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  @Test
  void aFailedIndexBuildIsResumedWithoutReadingTheInputAgain() {
    try (Database db = Database.open(dir)) {
      IndexBuild failing =
          (d, names, l) -> {
            throw new IdxkitException("temp space exhausted (simulated)");
          };
      assertThatThrownBy(
              () ->
                  new Loader(db, options(IndexMode.DEFERRED, StartMode.NEW), failing)
                      .run(LoadListener.NONE))
          .hasMessageContaining("simulated");
      assertThat(Loader.unfinishedLoad(db, "t")).get().asString().contains("index build pending");
      assertThat(db.index("t_pk").isActive()).isFalse();
      long rows = db.table("t").rowCount();
      TestIndexBuild build = new TestIndexBuild();
      LoadReport r =
          new Loader(db, options(IndexMode.DEFERRED, StartMode.RESUME), build)
              .run(LoadListener.NONE);
      assertThat(r.outcome()).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(r.runRows()).isZero();
      assertThat(r.rowsLoaded()).isEqualTo(rows);
      assertThat(build.calls).isEqualTo(1);
      assertThat(r.indexes())
          .containsValues(IndexStatus.ACTIVE)
          .doesNotContainValue(IndexStatus.INACTIVE);
      assertThat(db.table("t").rowCount()).isEqualTo(rows);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  @Test
  void anInterruptStopsLikeCancelAndIsPassedOn() {
    try (Database db = Database.open(dir)) {
      LoadReport r;
      try {
        r =
            new Loader(db, options(IndexMode.NONE, StartMode.NEW), null)
                .run(
                    new LoadListener() {
                      int batches;

                      @Override
                      public void progress(LoadProgress p) {
                        if (++batches == 3) {
                          Thread.currentThread().interrupt();
                        }
                      }
                    });
      } finally {
        assertThat(Thread.interrupted()).as("interrupt flag set again").isTrue();
      }
      assertThat(r.outcome()).isEqualTo(LoadOutcome.CANCELLED);
      assertThat(r.rowsLoaded()).isPositive();
      assertThat(db.table("t").rowCount()).isEqualTo(r.rowsLoaded());
      assertThat(String.join("\n", r.summaryLines())).contains("cancelled", "--resume");
      assertThat(run(db, options(IndexMode.NONE, StartMode.RESUME)).outcome())
          .isEqualTo(LoadOutcome.COMPLETED);
    }
  }

  @Test
  void resumeStateRoundTripsAndDamageIsReported() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    for (int i = 0; i < 200; i++) {
      PageRuns pages = PageRuns.EMPTY;
      long next = 1 + r.nextInt(100);
      for (int k = r.nextInt(5); k > 0; k--) {
        long len = 1 + r.nextInt(300);
        pages = pages.addRun(next, len);
        next += len + 1 + r.nextInt(50);
      }
      ResumeState s =
          new ResumeState(
              1 + r.nextInt(2),
              IndexMode.values()[r.nextInt(3)],
              r.nextInt(1000),
              r.nextLong(1L << 42),
              r.nextBoolean()
                  ? null
                  : new ResumePoint(r.nextLong(1L << 40), 1 + r.nextLong(1L << 30)),
              r.nextLong(1L << 40),
              r.nextLong(1L << 40),
              r.nextLong(1L << 20),
              r.nextLong(1000),
              r.nextLong(1L << 40),
              r.nextLong(1L << 40),
              r.nextBoolean() ? -1 : r.nextLong(1L << 30),
              "csv file=/data/ä" + r.nextInt() + ".csv size=12",
              r.nextBoolean() ? null : Path.of("/tmp/rejects-" + r.nextInt()),
              pages);
      byte[] b = s.encode();
      assertThat(ResumeState.decode(b, "load:t", dir))
          .as(Seeds.reproduce(seed, getClass()))
          .isEqualTo(s);
      byte[] cut = java.util.Arrays.copyOf(b, r.nextInt(b.length));
      assertThatThrownBy(() -> ResumeState.decode(cut, "load:t", dir))
          .isInstanceOf(CorruptDatabaseException.class)
          .hasMessageContaining("resume point load:t");
    }
    byte[] newer =
        new ResumeState(
                1, IndexMode.NONE, 1, 0, null, 0, 0, 0, 0, 0, 0, -1, "x", null, PageRuns.EMPTY)
            .encode();
    newer[0] = 2;
    assertThatThrownBy(() -> ResumeState.decode(newer, "load:t", dir))
        .isInstanceOf(CorruptDatabaseException.class)
        .hasMessageContaining("format version 2 (expected: 1");
  }
}
