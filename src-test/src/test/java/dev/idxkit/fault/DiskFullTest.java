package dev.idxkit.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.testing.Seeds;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.idxbuild.temp.TempSpaceExhaustedException;
import dev.idxkit.loader.IndexMode;
import dev.idxkit.loader.LoadInput;
import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadOptions;
import dev.idxkit.loader.LoadOutcome;
import dev.idxkit.loader.Loader;
import dev.idxkit.loader.RebuildIndexBuild;
import dev.idxkit.loader.StartMode;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.internal.ResumeState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk ({@code No space left on device}) and write errors during a bulk load, during a
 * rebuild's tree writes, and in the rebuild's sort directory; and the {@code .srt} limits running
 * out. Each must end with an {@link IdxkitException} that says what happened and where, leave the
 * database exactly as at its last publish (a rebuild: unchanged; a load: its last checkpoint),
 * leave no sort file behind, and let the same work complete once there is room again.
 */
class DiskFullTest {
  static final long SEED = Seeds.seed();
  static final String LOAD_DDL =
      "CREATE TABLE l (id BIGINT NOT NULL PRIMARY KEY, grp INT NOT NULL, name VARCHAR(80));"
          + " CREATE INDEX l_grp ON l (grp, name); CREATE INDEX l_name ON l (name DESC);";

  @TempDir Path tmp;

  private final FaultyFileIo io = new FaultyFileIo();

  @Test
  void aBulkLoadThatFillsTheDiskStopsAtItsLastCheckpointAndResumes() throws IOException {
    SplittableRandom r = Seeds.random(SEED);
    String why = Seeds.reproduce(SEED, getClass());
    int rows = 6_000;
    Path csv = tmp.resolve("in.csv");
    List<String> expected = writeCsv(csv, rows, SEED);
    int resumed = 0;
    for (int trial = 0; trial < 4; trial++) {
      // The first trial leaves room for a checkpoint or more, so that a resume is always tried.
      long budget = r.nextLong(trial == 0 ? 450 << 10 : 16 << 10, 900 << 10);
      String when = "trial " + trial + ", disk full after " + budget + " bytes; " + why;
      Path dir = tmp.resolve("load" + trial);
      Path sort = Files.createDirectories(tmp.resolve("sort" + trial));
      try (Database db = Database.create(dir, DatabaseOptions.defaults().withFileIo(io))) {
        db.execute(LOAD_DDL);
        Fault f = io.add(Fault.diskFull(Fault.endingWith(".area"), budget));
        Throwable t = catchThrowable(() -> load(db, csv, sort, StartMode.NEW));
        assertThat(t)
            .as(when)
            .isInstanceOf(IdxkitException.class)
            .hasMessageContaining(Fault.ENOSPC)
            .hasMessageContaining(dir.toString());
        assertThat(f.hits()).as(when).isGreaterThan(0);
        assertEmpty(sort, when);
        io.clear(); // room again
      }
      try (Database db = Database.open(dir)) {
        assertThat(db.check().problems()).as(when).isEmpty();
        // A disk that fills before the load's first checkpoint leaves nothing of it and nothing
        // to resume (a resume is refused then): the table is as before, and the load starts over.
        byte[] b = db.resumePoint(ResumeState.key("l"));
        long kept = 0;
        if (b != null) {
          kept = ResumeState.decode(b, ResumeState.key("l"), dir).recordsRead();
          resumed++;
        }
        List<String> prefix = new ArrayList<>(expected.subList(0, (int) kept));
        prefix.sort(null);
        assertThat(rows(db.table("l").scan()))
            .as("rows at the last checkpoint; " + when)
            .isEqualTo(prefix);
        StartMode mode = b != null ? StartMode.RESUME : StartMode.NEW;
        Loader rerun = new Loader(db, options(csv, mode), build(sort));
        assertThat(rerun.run(LoadListener.NONE).outcome())
            .as(when)
            .isEqualTo(LoadOutcome.COMPLETED);
        List<String> all = new ArrayList<>(expected);
        all.sort(null);
        assertThat(rows(db.table("l").scan())).as(when).isEqualTo(all);
        for (String ix : List.of("l_pk", "l_grp", "l_name")) {
          assertThat(rows(db.index(ix).scan())).as(ix + "; " + when).isEqualTo(all);
        }
        assertThat(db.check().problems()).as(when).isEmpty();
      }
    }
    assertThat(resumed).as("trials that resumed from a checkpoint; " + why).isPositive();
  }

  @Test
  void aRebuildThatFillsTheDiskLeavesTheDatabaseUnchanged() throws IOException {
    SplittableRandom r = Seeds.random(SEED ^ 5);
    String why = Seeds.reproduce(SEED, getClass());
    Path dir = tmp.resolve("rebuild");
    Path sort = Files.createDirectories(tmp.resolve("rebuild-sort"));
    ModelTable model = new ModelTable(SEED);
    try (Database db = Database.create(dir, DatabaseOptions.defaults().withFileIo(io))) {
      db.execute(ModelTable.DDL);
      for (int i = 0; i < 6; i++) {
        model.commit(db, 1_000);
      }
      for (int trial = 0; trial < 4; trial++) {
        // Nothing for the rebuild's opening checkpoint to write: the fault hits the rebuild's
        // own writes (a checkpoint's failure is WriteFaultTest's subject).
        db.checkpoint();
        Map<String, Long> roots = roots(db);
        boolean inSortFiles = trial % 2 == 1;
        long budget = inSortFiles ? r.nextLong(0, 200 << 10) : r.nextLong(0, 300 << 10);
        Fault f =
            io.add(
                inSortFiles
                    ? (trial == 3
                        ? Fault.ioErrorAfter(Fault.endingWith(".srt.tmp"), budget)
                        : Fault.diskFull(Fault.endingWith(".srt.tmp"), budget))
                    : Fault.diskFull(Fault.named("index.area"), budget));
        String when = "trial " + trial + ": " + f + "; " + why;
        Throwable t = catchThrowable(() -> rebuild(db, sort, 64 << 10));
        assertThat(t).as(when).isInstanceOf(IdxkitException.class);
        assertThat(f.hits()).as(when).isGreaterThan(0);
        if (inSortFiles) {
          // The error names the sort directory (the file in it) and the kernel's reason.
          assertThat(t.getMessage()).as(when).contains(sort.toString());
        } else {
          assertThat(t.getMessage()).as(when).contains(dir.resolve("index.area").toString());
        }
        assertThat(t.getMessage()).as(when).contains(trial == 3 ? Fault.EIO : Fault.ENOSPC);
        assertEmpty(sort, when);
        assertThat(roots(db)).as("roots after the failed rebuild; " + when).isEqualTo(roots);
        model.assertMatches(db, "after the failed rebuild, " + when);
        assertThat(db.check().problems()).as(when).isEmpty();
        io.clear();
        assertTimeoutPreemptively(Duration.ofMinutes(2), () -> rebuild(db, sort, 64 << 10));
        assertEmpty(sort, "after the rerun; " + when);
        model.assertMatches(db, "after the rerun, " + when);
        assertThat(db.check().problems()).as(when).isEmpty();
      }
    }
  }

  @Test
  void sortDirectoriesFullUpToTheirSrtLimitsLeaveTheDatabaseUnchanged() throws IOException {
    String why = Seeds.reproduce(SEED, getClass());
    Path dir = tmp.resolve("srt");
    List<Path> dirs = new ArrayList<>();
    StringBuilder srt = new StringBuilder("# three small sort directories\n");
    for (int i = 0; i < 3; i++) {
      Path d = Files.createDirectories(tmp.resolve("srt-dir-" + i));
      dirs.add(d);
      srt.append("64 ").append(d).append('\n');
    }
    Path srtFile = Files.writeString(tmp.resolve("db.srt"), srt);
    ModelTable model = new ModelTable(SEED ^ 9);
    try (Database db = Database.create(dir)) {
      db.execute(ModelTable.DDL);
      for (int i = 0; i < 6; i++) {
        model.commit(db, 1_000);
      }
      // The rebuild's opening checkpoint merges the change buffers into the trees, which moves
      // their roots: merged here first, the roots are what the failed rebuild must leave.
      db.checkpoint();
      Map<String, Long> roots = roots(db);
      Throwable t =
          catchThrowable(
              () ->
                  new IndexRebuild(
                          db,
                          RebuildOptions.defaults(SrtFile.parse(srtFile))
                              .withThreads(1, 1, 1)
                              .withMemory(64 << 10)
                              .withMerge(8, 8, 4, 8),
                          "test",
                          RebuildListener.NONE)
                      .run());
      assertThat(t).as(why).isInstanceOf(TempSpaceExhaustedException.class);
      for (Path d : dirs) {
        assertThat(t.getMessage()).as(why).contains(d.toString());
        assertEmpty(d, why);
      }
      assertThat(roots(db)).as(why).isEqualTo(roots);
      model.assertMatches(db, "after running out of sort space; " + why);
      assertThat(db.check().problems()).as(why).isEmpty();
    }
  }

  private void load(Database db, Path csv, Path sort, StartMode start) {
    new Loader(db, options(csv, start), build(sort)).run(LoadListener.NONE);
  }

  private static LoadOptions options(Path csv, StartMode start) {
    return LoadOptions.of("l", LoadInput.csv(csv, CsvOptions.defaults().withChunkBytes(8192)))
        .withIndexMode(IndexMode.DEFERRED)
        .withStartMode(start)
        .withCheckpointRows(500)
        .withParseThreads(2);
  }

  private static RebuildIndexBuild build(Path sort) {
    return new RebuildIndexBuild(
        RebuildOptions.defaults(SrtFile.ofDirectory(sort))
            .withThreads(2, 2, 2)
            .withMemory(128 << 10),
        "test sort directory " + sort);
  }

  private static void rebuild(Database db, Path sort, long memory) {
    new IndexRebuild(
            db,
            RebuildOptions.defaults(SrtFile.ofDirectory(sort))
                .withThreads(2, 2, 2)
                .withMemory(memory)
                .withMerge(8, 8, 4, 8),
            "test",
            RebuildListener.NONE)
        .run();
  }

  /** Writes {@code rows} good records; returns each as the row text the table will hold. */
  static List<String> writeCsv(Path csv, int rows, long seed) throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    StringBuilder sb = new StringBuilder("id,grp,name\n");
    List<String> out = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      long id = i * 7919L + 1;
      int grp = r.nextInt(25);
      String name =
          r.nextInt(12) == 0 ? null : "n" + r.nextInt(9999) + "-" + "y".repeat(r.nextInt(40));
      sb.append(id)
          .append(',')
          .append(grp)
          .append(',')
          .append(name == null ? "" : name)
          .append('\n');
      out.add(Arrays.toString(new Object[] {id, grp, name}));
    }
    Files.writeString(csv, sb, StandardCharsets.UTF_8);
    return out;
  }

  static List<String> rows(RowCursor c) {
    List<String> out = new ArrayList<>();
    try (c) {
      while (c.hasNext()) {
        Row row = c.next();
        out.add(Arrays.toString(row.values()));
      }
    }
    out.sort(null);
    return out;
  }

  static Map<String, Long> roots(Database db) {
    Map<String, Long> out = new TreeMap<>();
    for (var ix : db.catalog().indexes()) {
      IndexState s = Engine.of(db).meta().index(ix.id());
      out.put(ix.name(), s == null ? -1 : s.root());
    }
    return out;
  }

  static void assertEmpty(Path dir, String when) {
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.toList()).as("files left in %s; %s", dir, when).isEmpty();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
