package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.testing.JavaCommand;
import dev.idxkit.core.testing.Seeds;
import dev.idxkit.loader.input.CsvOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The loader's resume after a real {@code kill -9}: {@link LoadMain} loads in a child JVM and is
 * killed at a random moment (after a random number of its progress lines: the kill lands wherever
 * the child has got to by then - mid-batch, mid-publish, mid-commit), twice, then the load is
 * resumed here to the end and must equal a clean load. A smoke test of the resume logic across
 * processes; the crash harness in {@code src-test} runs the long campaign.
 */
class LoadKillTest {
  static final int ROWS = Integer.getInteger("loader.kill.rows", 10_000);

  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(IndexMode.class)
  void killedLoadsResumeToTheCleanResult(IndexMode mode) throws Exception {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    String why = Seeds.reproduce(seed, getClass());
    Path csv = tmp.resolve("in.csv");
    RandomLoadInput.write(csv, seed, ROWS);
    Path refRejects = tmp.resolve("ref.rejects");
    Snapshot expected;
    try (Database ref = Database.create(tmp.resolve("ref"))) {
      ref.execute(RandomLoadInput.DDL);
      new Loader(
              ref,
              LoadOptions.of("t", LoadInput.csv(csv, CsvOptions.defaults()))
                  .withIndexMode(mode)
                  .withRejectFile(refRejects),
              new TestIndexBuild())
          .run(LoadListener.NONE);
      expected = Snapshot.of(ref, "t");
    }
    Path dir = tmp.resolve("db");
    Path rejects = tmp.resolve("db.rejects");
    try (Database db = Database.create(dir)) {
      db.execute(RandomLoadInput.DDL);
    }
    String start = "new";
    boolean completed = false;
    for (int kill = 0; kill < 2 && !completed; kill++) {
      List<String> seen = runAndKill(dir, csv, mode, start, rejects, 1 + r.nextInt(30));
      assertThat(seen).as(why).isNotEmpty();
      completed = seen.stream().anyMatch(l -> l.startsWith("outcome"));
      if (!completed) {
        // Killed before the end: its first checkpoint (published before any output) is there.
        try (Database db = Database.open(dir)) {
          assertThat(Loader.unfinishedLoad(db, "t")).as("after kill %d; %s", kill, why).isPresent();
          assertThat(db.check().problems()).as("after kill %d; %s", kill, why).isEmpty();
        }
      }
      start = "resume";
    }
    try (Database db = Database.open(dir)) {
      if (!completed) {
        LoadReport done =
            new Loader(
                    db,
                    LoadOptions.of("t", LoadInput.csv(csv, CsvOptions.defaults()))
                        .withIndexMode(mode)
                        .withStartMode(StartMode.RESUME)
                        .withRejectFile(rejects),
                    new TestIndexBuild())
                .run(LoadListener.NONE);
        assertThat(done.outcome()).as(why).isEqualTo(LoadOutcome.COMPLETED);
      }
      assertThat(db.check().problems()).as(why).isEmpty();
      Snapshot s = Snapshot.of(db, "t");
      assertThat(s.rows()).as(why).isEqualTo(expected.rows());
      assertThat(s.indexes()).as(why).isEqualTo(expected.indexes());
    }
    assertThat(LoadTesting.rejectLines(rejects))
        .as(why)
        .isEqualTo(LoadTesting.rejectLines(refRejects));
  }

  /** Starts LoadMain, reads {@code after} lines of its output, kills it; returns the lines. */
  private List<String> runAndKill(
      Path dir, Path csv, IndexMode mode, String start, Path rejects, int after)
      throws IOException, InterruptedException {
    List<String> command =
        JavaCommand.running(
            LoadMain.class,
            List.of(
                dir.toString(),
                csv.toString(),
                "t",
                mode.name(),
                start,
                "300",
                "4096",
                rejects.toString()));
    command.add(1, "-ea");
    Path err = Files.createTempFile(tmp, "child", ".err");
    Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (lines.size() < after && (line = out.readLine()) != null) {
        lines.add(line);
      }
      p.destroyForcibly(); // SIGKILL: no shutdown hooks, no close
      p.waitFor();
    }
    assertThat(Files.readString(err))
        .as("child stderr")
        .doesNotContain("Exception")
        .doesNotContain("usage");
    return lines;
  }
}
