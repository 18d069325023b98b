package dev.idxkit.jmh;

import java.util.List;
import java.util.Optional;

/**
 * The experiments {@code idxkit bench EXPERIMENT} runs: name, main class in this jar, one line of
 * description. The command line cannot import this module (nothing imports {@code cli}'s
 * dependencies the other way either), so {@code dev.idxkit.cli.commands.BenchCommand} keeps the
 * same list; an end-to-end test ({@code BenchCommandIT}) runs {@link #main} from the packaged jar
 * and checks that the two agree.
 *
 * <p>Adding an experiment: one line here, the same line in {@code BenchCommand}'s map. Its class
 * has a {@code public static void main(String[])} that takes its options (at least {@code --out
 * DIR}, default {@code bench-results/<name>}, and {@code --help}), prints where it wrote its files,
 * and exits 0 on success, 1 on failure, 2 on bad usage ({@link ExperimentArgs} does the parsing and
 * the exit codes).
 */
public final class Experiments {
  /** One experiment: what the user types, the class that runs it, what it measures. */
  public record Experiment(String name, String mainClass, String description) {}

  public static final List<Experiment> ALL =
      List.of(
          new Experiment(
              "io",
              "dev.idxkit.jmh.experiments.IoBench",
              "sequential vs random reads by chunk size through mmap, FileChannel and O_DIRECT"),
          new Experiment(
              "growth",
              "dev.idxkit.jmh.experiments.GrowthBench",
              "time per run of random inserts with 9 indexed keys as the file grows, vs SQLite"),
          new Experiment(
              "accounting",
              "dev.idxkit.jmh.experiments.AccountingBench",
              "scan objects, look up each bitfile by UUID, tally usage; resumable; 1/2/4 readers"),
          new Experiment(
              "durability",
              "dev.idxkit.jmh.experiments.DurabilityBench",
              "commits/s under sync and async, and checkpoint flush vs sequential write"),
          new Experiment(
              "compare",
              "dev.idxkit.jmh.peers.CompareBench",
              "bulk build, point lookups and range scans vs SQLite, H2, RocksDB, LMDB, MapDB"),
          new Experiment(
              "idxbuild",
              "dev.idxkit.jmh.peers.IdxbuildBench",
              "rebuild of the six TPC-H lineitem indexes vs CREATE INDEX in SQLite and H2"),
          new Experiment(
              "load",
              "dev.idxkit.jmh.peers.LoadBench",
              "TPC-H lineitem load with deferred index build vs SQLite and H2"));

  private Experiments() {}

  /** The experiment called {@code name}, if there is one. */
  public static Optional<Experiment> named(String name) {
    return ALL.stream().filter(e -> e.name().equals(name)).findFirst();
  }

  /** Prints one line per experiment: name, main class and description, separated by tabs. */
  public static void main(String[] args) {
    for (Experiment e : ALL) {
      System.out.println(e.name() + "\t" + e.mainClass() + "\t" + e.description());
    }
  }
}
