package dev.idxkit.corrupt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.testing.Seeds;
import dev.idxkit.fault.Fault;
import dev.idxkit.fault.FaultyFileIo;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.sort.CorruptRunException;
import dev.idxkit.idxbuild.temp.SrtFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The corruption sweep: damage databases built by the loader and by transactions and the rebuilder,
 * at many places covering every kind of page and file (see {@link Targets}), and check that every
 * open, check, scan and lookup either answers right or fails with an idxkit exception naming the
 * damaged database - never a wrong answer, a hang, an {@code OutOfMemoryError}, a JVM crash or an
 * unexplained exception. Victims run in child JVMs ({@link VictimProcess}, {@link Victim}); their
 * outcomes are counted here.
 *
 * <p>Run files are damaged during a rebuild instead, through the fault-injection seam: a bit
 * flipped in what a run reader reads ({@link Fault#bitFlipOnRead}) or a read that fails. The
 * rebuild must then fail with {@link CorruptRunException} (or an I/O error) naming the file,
 * leaving the database unchanged and no sort file behind, or - when the damaged bytes were never
 * read - succeed with correct indexes.
 *
 * <p>Prints {@code corruption: N mutations, 0 wrong answers, 0 hangs, ...} with the outcomes per
 * kind of target. Default 300 mutations; {@code -Dcorruption.mutations=N} for the long run; {@code
 * -Dtests.seed=S} replays the plan.
 */
class CorruptionSweepIT {
  static final long SEED = Seeds.seed();
  static final String[] FAILURES = {"WRONG", "HANG", "CRASH", "OOM", "UNCLEAR"};

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path tmp;

  /** Where a human can read every mutation and its outcome: {@code -Dcorruption.keep=DIR}. */
  private Path work() throws IOException {
    String keep = System.getProperty("corruption.keep");
    return Files.createDirectories(keep != null ? Path.of(keep) : tmp.resolve("work"));
  }

  @Test
  void sweep() throws Exception {
    int n = Integer.getInteger("corruption.mutations", 300);
    String why = Seeds.reproduce(SEED, getClass(), "-Dcorruption.mutations=" + n);
    long t0 = System.nanoTime();
    Path work = work();
    List<SweepDatabase.Base> bases =
        List.of(SweepDatabase.loaded(work, SEED), SweepDatabase.rebuilt(work, SEED));
    List<Targets> targets = new ArrayList<>();
    for (SweepDatabase.Base b : bases) {
      targets.add(
          Targets.of(
              b.name(),
              b.dir(),
              4096,
              SweepDatabase.unusedPages(b.dir(), work.resolve(b.name() + "-inspect"))));
    }
    SplittableRandom r = Seeds.random(SEED);
    List<Mutation> plan = new ArrayList<>();
    int runFileMutations = Math.max(6, n / 20);
    for (int i = 0; i < n - runFileMutations; i++) {
      plan.add(targets.get(i % targets.size()).draw(i, r));
    }
    Path job = writeJob(work, bases, plan);
    Map<Integer, String> results =
        VictimProcess.runAll(job, plan.stream().map(Mutation::id).toList(), work, 120);

    List<String> report = new ArrayList<>();
    for (Mutation m : plan) {
      report.add(m + "\t" + results.get(m.id()));
    }
    Files.write(work.resolve("results.txt"), report, StandardCharsets.UTF_8);
    Map<String, Integer> outcomes = new TreeMap<>();
    Map<String, Map<String, Integer>> byTarget = new TreeMap<>();
    List<String> failures = new ArrayList<>();
    for (Mutation m : plan) {
      String res = results.get(m.id());
      String outcome = res.split("[ :]", 2)[0];
      outcomes.merge(outcome, 1, Integer::sum);
      byTarget.computeIfAbsent(m.target(), k -> new TreeMap<>()).merge(outcome, 1, Integer::sum);
      if (List.of(FAILURES).contains(outcome)) {
        failures.add(m + ": " + res);
      }
    }
    runFiles(runFileMutations, plan.size(), r, outcomes, byTarget, failures);

    int total = plan.size() + runFileMutations;
    String line =
        String.format(
            "corruption: %,d mutations, %d wrong answers, %d hangs, %d JVM crashes, %d out of"
                + " memory, %d unclear errors; outcomes %s; by target %s; %.1f s; seed %d",
            total,
            outcomes.getOrDefault("WRONG", 0),
            outcomes.getOrDefault("HANG", 0),
            outcomes.getOrDefault("CRASH", 0),
            outcomes.getOrDefault("OOM", 0),
            outcomes.getOrDefault("UNCLEAR", 0),
            outcomes,
            byTarget,
            (System.nanoTime() - t0) / 1e9,
            SEED);
    System.out.println(line);
    assertThat(failures).as("%s%n%s%nthe damaged bases are in %s", line, why, work).isEmpty();
    assertThat(byTarget.keySet())
        .as("every kind of target was damaged")
        .contains(
            "meta anchor",
            "meta payload",
            "area header",
            "heap",
            "overflow",
            "leaf",
            "branch",
            "wal header",
            "wal transaction frame",
            "run file");
  }

  private static Path writeJob(Path work, List<SweepDatabase.Base> bases, List<Mutation> plan)
      throws IOException {
    List<String> lines = new ArrayList<>();
    for (SweepDatabase.Base b : bases) {
      lines.add("BASE\t" + b.name() + "\t" + b.dir());
      for (int k = 0; k < b.states().size(); k++) {
        for (var e : b.states().get(k).entrySet()) {
          lines.add("GOLDEN\t" + b.name() + "\t" + k + "\t" + e.getKey() + "\t" + e.getValue());
        }
      }
    }
    lines.add("SCRATCH\t" + Files.createDirectories(work.resolve("scratch")));
    for (Mutation m : plan) {
      lines.add("MUT\t" + m.line());
    }
    return Files.write(work.resolve("job.txt"), lines, StandardCharsets.UTF_8);
  }

  /**
   * Run-file damage during rebuilds, in this JVM (run files are read with positional reads, not
   * mapped): a bit flipped at a random offset of the sort files, or a failing read.
   */
  private void runFiles(
      int count,
      int firstId,
      SplittableRandom r,
      Map<String, Integer> outcomes,
      Map<String, Map<String, Integer>> byTarget,
      List<String> failures)
      throws IOException {
    Path dir = tmp.resolve("runs-db");
    Path sort = Files.createDirectories(tmp.resolve("runs-sort"));
    FaultyFileIo io = new FaultyFileIo();
    try (Database db = Database.create(dir, SweepDatabase.options().withFileIo(io))) {
      db.execute(SweepDatabase.DDL);
      var s = db.table("s");
      try (var tx = db.begin()) {
        for (long id : SweepDatabase.baseIds()) {
          tx.insert(s, SweepDatabase.row(SEED, id));
        }
        tx.commit();
      }
      db.checkpoint();
      Map<String, String> golden = Answers.digests(db);
      for (int i = 0; i < count; i++) {
        boolean flip = i % 4 != 3;
        Fault f =
            io.add(
                flip
                    ? Fault.bitFlipOnRead(
                        Fault.endingWith(".srt.tmp"), r.nextLong(0, 48 << 10), r.nextInt(8))
                    : Fault.failingReads(Fault.endingWith(".srt.tmp")));
        String what = "#" + (firstId + i) + " run file: " + f;
        String outcome;
        try {
          new IndexRebuild(
                  db,
                  RebuildOptions.defaults(SrtFile.ofDirectory(sort))
                      .withThreads(1 + r.nextInt(2), 1 + r.nextInt(2), 1)
                      .withMemory(64 << 10)
                      .withMerge(8, 8, 2 + r.nextInt(6), 8),
                  "sweep",
                  RebuildListener.NONE)
              .run();
          outcome = f.hits() == 0 ? "CORRECT" : "UNNOTICED";
          if (f.hits() > 0) {
            failures.add(what + ": damaged run bytes were read and the rebuild did not notice");
          }
        } catch (IdxkitException e) {
          boolean named = e.getMessage().contains(sort.toString());
          outcome = named && f.hits() > 0 ? "DETECTED" : "UNCLEAR";
          if (!named) {
            failures.add(what + ": error without the sort file: " + e);
          }
        } catch (RuntimeException e) {
          outcome = "UNCLEAR";
          failures.add(what + ": " + e);
        }
        io.clear();
        try (Stream<Path> left = Files.list(sort)) {
          List<Path> files = left.toList();
          if (!files.isEmpty()) {
            failures.add(what + ": sort files left: " + files);
          }
        }
        if (!Answers.digests(db).equals(golden) || !db.check().clean()) {
          outcome = "WRONG";
          failures.add(what + ": the database differs after the rebuild");
        }
        outcomes.merge(outcome, 1, Integer::sum);
        byTarget.computeIfAbsent("run file", k -> new TreeMap<>()).merge(outcome, 1, Integer::sum);
      }
    }
  }
}
