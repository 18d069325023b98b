package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code idxbuild} experiment end to end on 6,000 rows: a 1 MiB budget with 8 KB blocks forces
 * the external sort (runs in the .srt directory), every configuration and peer is recorded, the
 * cross-check and idxkit's check ran.
 */
class IdxbuildBenchTest {
  @TempDir Path work;
  @TempDir Path out;

  @Test
  void rebuildsInEveryConfigurationAndComparesWithThePeers() throws Exception {
    IdxbuildBench.Config c =
        IdxbuildBench.Config.parse(
            "--tpch-sf",
            "0.001",
            "--threads",
            "1,2",
            "--memory",
            "64m,1m",
            "--warmup",
            "1",
            "--tb",
            "8",
            "--tm",
            "4",
            "--probes",
            "30",
            "--pairs",
            "1",
            "--peers",
            "sqlite,h2,duckdb",
            "--out",
            out.toString(),
            "--work",
            work.toString());
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ResultSheet s = IdxbuildBench.run(c, new PrintStream(printed, true, StandardCharsets.UTF_8));
    String text = printed.toString(StandardCharsets.UTF_8);

    for (String cfg : new String[] {"six t1 64m", "six t2 64m", "six t1 1m", "six t2 1m"}) {
      assertThat(text).as("warmed up first").contains("  warm-up rebuild (" + cfg + "): ");
      assertThat(s.value("idxkit", cfg, "total")).as(cfg).isPositive();
      assertThat(s.value("idxkit", cfg, "scan")).as(cfg).isPositive();
    }
    assertThat(s.value("idxkit", "six t1 64m", "runs")).as("fits in memory").isZero();
    assertThat(s.value("idxkit", "six t1 1m", "runs")).as("external sort").isPositive();
    assertThat(s.value("idxkit", "six t1 1m", "temp")).isPositive();
    assertThat(s.value("idxkit", "pk t2 64m", "total")).isPositive();
    assertThat(text).contains("  warm-up rebuild (pk t1 64m): ", "  warm-up rebuild (pk t2 64m): ");
    for (String p : new String[] {"sqlite", "h2", "duckdb"}) {
      assertThat(s.value(p, "six 64m", "total")).as(p).isPositive();
      assertThat(s.value(p, "six 64m", "index lineitem_pk")).as(p).isPositive();
    }
    for (String part : new String[] {"read", "sort", "write", "sum"}) {
      assertThat(s.value("floor", part, "total")).as("floor " + part).isPositive();
    }
    // The floor after every round (one here), beside that round's rebuild: the goal's ratio.
    assertThat(text)
        .contains("  warm-up floor: ", "floor: read ", "; idxkit six t2 64m this round ");
    assertThat(s.value("floor", "rounds", "count")).isEqualTo(1);
    // One round: its ratio is that round's rebuild of the compared configuration over its floor.
    assertThat(s.value("floor", "rounds", "ratio"))
        .isCloseTo(
            s.value("idxkit", "six t2 64m", "total") / s.value("floor", "sum", "total"),
            within(1e-9));
    // The write's rate beside it, and the ratio with the run's fastest write in every floor: with
    // one round the fastest is its own, so the two ratios agree.
    assertThat(text).contains(" MB/s) = ", "floor's write+fsync ", "with the fastest write (");
    assertThat(s.value("floor", "write rate", "min")).isPositive();
    assertThat(s.value("floor", "write rate", "max"))
        .isEqualTo(s.value("floor", "write rate", "min"));
    assertThat(s.value("floor", "fastest write", "ratio"))
        .isCloseTo(s.value("floor", "rounds", "ratio"), within(1e-9));
    // The floor's sort on one thread too: the machine's own speed-up, beside the big index's goal.
    assertThat(text)
        .contains("the floor's sort on 2 threads against 1, the machine's own speed-up");
    double machine = s.value("floor", "sort speed-up", "ratio");
    assertThat(machine).isPositive();
    assertThat(s.goals())
        .anySatisfy(
            g -> {
              assertThat(g.goal()).startsWith("2 threads >= 1.8x 1 thread on a single big index");
              assertThat(g.measured())
                  .endsWith(
                      String.format(
                          Locale.ROOT,
                          " (the floor's sort: 2 threads %.2fx 1 on this machine)",
                          machine));
            });
    assertThat(s.goals())
        .anySatisfy(
            g -> {
              assertThat(g.goal()).isEqualTo("within 2x of the floor line (six t2 64m, per round)");
              assertThat(g.measured()).startsWith("1 rounds, idxkit / the floor after it: median ");
            });
    assertThat(s.goals()).hasSize(6);
    assertThat(text).contains("cross-check: 180 index lookups agree across 4 stores");
    assertThat(text).contains("idxkit check: clean");
    // Pairs are PostgreSQL's (IdxbuildPairsTest runs them): without it they are skipped, and said
    // so.
    assertThat(text).contains("--pairs: skipped, PostgreSQL did not run");
    for (String ext : new String[] {"csv", "json", "png"}) {
      assertThat(out.resolve("idxbuild." + ext)).isNotEmptyFile();
    }
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .as("only the reusable CSV stays in --work")
          .containsExactlyInAnyOrder("lineitem-sf0.001.csv", "lineitem-sf0.001.csv.rows");
    }
  }

  @Test
  void warmsUpEveryConfigurationItMeasures() {
    IdxbuildBench.Config c =
        IdxbuildBench.Config.parse("--threads", "1,2", "--memory", "2g,64m", "--pk-alone", "true");
    List<IdxbuildBench.Run> runs = IdxbuildBench.runs(c);
    assertThat(runs)
        .extracting(IdxbuildBench.Run::label)
        .containsExactly(
            "six t1 2g", "six t2 2g", "six t1 64m", "six t2 64m", "pk t1 2047m", "pk t2 2047m");
    assertThat(IdxbuildBench.warmUps(runs, 0)).isEmpty();
    assertThat(IdxbuildBench.warmUps(runs, 1)).containsExactlyElementsOf(runs);
    assertThat(IdxbuildBench.warmUps(runs, 2))
        .containsExactlyElementsOf(Stream.concat(runs.stream(), runs.stream()).toList());
  }
}
