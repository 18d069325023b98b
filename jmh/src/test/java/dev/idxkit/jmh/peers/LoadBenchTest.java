package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.jmh.BenchRoot;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code load} experiment end to end on 6,000 rows, CSV written to and read from a fresh dir.
 */
class LoadBenchTest {
  @TempDir Path out;
  @TempDir Path root;

  @Test
  void loadsFromTheGeneratorAndCsvAndComparesWithThePeers() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ResultSheet s = run(config("1", "25", "sqlite,h2,duckdb", "--cold-input", "false"), printed);
    String text = printed.toString(StandardCharsets.UTF_8);

    for (String[] sc :
        new String[][] {
          {"idxkit", "generator"},
          {"idxkit", "csv"},
          {"sqlite", "csv"},
          {"h2", "csv"},
          {"duckdb", "csv"}
        }) {
      assertThat(s.value(sc[0], sc[1], "load")).as(sc[0] + " " + sc[1]).isPositive();
      assertThat(s.value(sc[0], sc[1], "index")).as(sc[0] + " " + sc[1]).isPositive();
      assertThat(s.value(sc[0], sc[1], "rows/s")).as(sc[0] + " " + sc[1]).isPositive();
    }
    assertThat(s.value("idxkit", "csv", "MB/s")).isPositive();
    assertThat(s.value("idxkit", "generator", "MB/s")).as("no bytes for the generator").isNaN();
    assertThat(s.goals()).as("the four goals and the rounds' spread").hasSize(5);
    assertThat(s.value("idxkit", "csv", "rows/s min"))
        .isPositive()
        .isLessThanOrEqualTo(s.value("idxkit", "csv", "rows/s max"));
    assertThat(text).contains("2 rounds: rows/s min").contains("round 1: CSV load");
    // What a round cost beside CPU, read from /proc on Linux: faults and the bytes read from the
    // disk, the signs of a round that found its CSV out of the page cache, and the host's steal.
    if (Files.exists(Path.of("/proc/self/io"))) {
      assertThat(text)
          .containsPattern(
              "collections, [0-9]+ ms in GC, [0-9,]+ minor faults, [0-9,]+ major, [0-9,.]+ MB read"
                  + " from the disk, [0-9.]+ s of CPU stolen by the host");
    }
    assertThat(text).contains("warm-up CSV load");
    assertThat(text).contains("cross-check: 150 index lookups agree across 5 stores");
    assertThat(text).contains("idxkit check: both databases clean");
    for (String ext : new String[] {"csv", "json", "png"}) {
      assertThat(out.resolve("load." + ext)).isNotEmptyFile();
    }
    try (Stream<Path> left = Files.list(root)) {
      assertThat(left).as("databases, CSV and peers' files are deleted").isEmpty();
    }
  }

  /** --cold-input: each round starts with the CSV out of the page cache, and says so. */
  @Test
  void coldInputRoundsSayWhereTheLoadingThreadsTimeWent() throws Exception {
    LoadBench.Config c = config("0", "0", "none", "--cold-input", "true");
    assertThat(c.coldInput()).isTrue();
    assertThat(LoadBench.Config.parse("--out", out.toString()).coldInput())
        .as("off by default")
        .isFalse();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    run(c, printed);
    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("taken out of the page cache before each round (--cold-input)");
    assertThat(text)
        .containsPattern(
            "round 1: CSV load [0-9.]+ s, [0-9,]+ rows/s \\(loading thread: cut [0-9.]+ s, waiting"
                + " for parsed chunks [0-9.]+ s, appending [0-9.]+ s, checkpoints and their fsyncs"
                + " [0-9.]+ s\\)");
  }

  /** SF 0.001, 16 MiB, two rounds, with the warm-ups, probes and peers given, then {@code more}. */
  private LoadBench.Config config(String warmup, String probes, String peers, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--tpch-sf",
                "0.001",
                "--memory",
                "16m",
                "--warmup",
                warmup,
                "--rounds",
                "2",
                "--probes",
                probes,
                "--peers",
                peers,
                "--out",
                out.toString()));
    args.addAll(List.of(more));
    return LoadBench.Config.parse(args.toArray(String[]::new));
  }

  private ResultSheet run(LoadBench.Config c, ByteArrayOutputStream printed) throws Exception {
    try (BenchRoot r = BenchRoot.at(root)) {
      return LoadBench.run(c, new PrintStream(printed, true, StandardCharsets.UTF_8));
    }
  }
}
