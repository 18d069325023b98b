package dev.idxkit.jmh.peers;

import dev.idxkit.core.InvalidInputException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The random-insert workload of {@link CompareBench} and its goals (issue 18): after the reads, new
 * keys uniform over the map ({@link KvWorkload#newKeys}, the same for every store) inserted in
 * transactions or write batches with no fsync per commit, rounds interleaved across the stores;
 * then each store makes them durable with one sync ({@link KvStore#persistInserts}: RocksDB's
 * memtable flush, idxkit's checkpoint that keeps its change buffer), and does the merge work it
 * deferred ({@link KvStore#mergeInserts}: RocksDB's compaction of the whole range, idxkit's merge
 * of its change buffer and a checkpoint), each timed; the goals use the rates over every round with
 * the first, and with both. Then every inserted key is read back.
 */
final class CompareInserts {
  /** Inserts/s over every round and one sync after them. */
  static final String DURABLE = "insert, durable";

  /** Inserts/s over every round, the sync, and the merge work deferred past them. */
  static final String MERGED = "insert, durable and merged";

  private CompareInserts() {}

  /** The random-insert workload: interleaved rounds of {@code c.inserts()} inserts per store. */
  static void run(
      Map<String, KvStore> stores, CompareBench.Config c, ResultSheet sheet, PrintStream out)
      throws Exception {
    int total = c.warmup() + c.rounds();
    long count = (long) total * c.inserts();
    if (count > Integer.MAX_VALUE) {
      throw new InvalidInputException(
          "--inserts : " + c.inserts() + " (expected: (warmup + rounds) x inserts < 2^31)");
    }
    long[] keys =
        KvWorkload.newKeys(new SplittableRandom(c.seed() ^ 0x1A5E27L), (int) count, c.keys());
    long[] values = new long[keys.length];
    for (int j = 0; j < values.length; j++) {
      values[j] = c.keys() + j;
    }
    out.printf(
        Locale.ROOT,
        "random inserts: %,d new keys per round in transactions of %,d, no fsync per commit%n",
        c.inserts(),
        c.batch());
    Map<String, List<KvWorkload.Timing>> timings = new LinkedHashMap<>();
    Map<String, Double> warmupWall = new LinkedHashMap<>();
    for (KvStore s : stores.values()) {
      s.prepareInserts();
      timings.put(s.name(), new ArrayList<>());
    }
    for (int round = 0; round < total; round++) {
      boolean measured = round >= c.warmup();
      String label = measured ? "round " + (round - c.warmup() + 1) : "warmup " + (round + 1);
      double load = sheet.machine.sampleLoad();
      StringBuilder line =
          new StringBuilder(String.format(Locale.ROOT, "  %-9s (load %5.2f)", label, load));
      int from = round * c.inserts();
      for (KvStore s : stores.values()) {
        KvWorkload.Timing t =
            KvWorkload.inserts(s, keys, values, from, from + c.inserts(), c.batch());
        line.append(String.format(Locale.ROOT, "  %s %,.0f/s", s.name(), t.opsPerSecond()));
        if (measured) {
          timings.get(s.name()).add(t);
          sheet.add(s.name(), label, "insert", t.opsPerSecond(), "inserts/s");
        } else {
          warmupWall.merge(s.name(), t.wallNanos() / 1e9, Double::sum);
        }
      }
      out.println(line);
    }
    // After the last round, each store makes the inserts durable, leaving the work it deferred
    // (RocksDB's compaction, idxkit's merge); then it does that work too. Both timed, and a rate
    // over every round (warm-up included) with the first, and with both: the figures the goals use.
    out.printf(
        Locale.ROOT,
        "%n%-10s %10s %10s %20s %20s%n",
        "store",
        "persist s",
        "merge s",
        "inserts/s durable",
        "durable+merged");
    for (KvStore s : stores.values()) {
      long t0 = System.nanoTime();
      s.persistInserts();
      long t1 = System.nanoTime();
      s.mergeInserts();
      long t2 = System.nanoTime();
      double persist = (t1 - t0) / 1e9;
      double merge = (t2 - t1) / 1e9;
      double wall = warmupWall.getOrDefault(s.name(), 0.0);
      for (KvWorkload.Timing t : timings.get(s.name())) {
        wall += t.wallNanos() / 1e9;
      }
      double durable = count / (wall + persist);
      double merged = count / (wall + persist + merge);
      sheet.add(s.name(), "", "persist", persist, "s");
      sheet.add(s.name(), "", "merge", merge, "s");
      sheet.add(s.name(), "", DURABLE, durable, "inserts/s");
      sheet.add(s.name(), "", MERGED, merged, "inserts/s");
      out.printf(
          Locale.ROOT,
          "%-10s %10.2f %10.2f %,20.0f %,20.0f%n",
          s.name(),
          persist,
          merge,
          durable,
          merged);
    }
    out.printf(
        Locale.ROOT, "%n%-10s %13s %19s %11s%n", "store", "inserts/s", "(min..max)", "CPU ns/ins");
    for (KvStore s : stores.values()) {
      KvWorkload.verifyInserts(s, keys, values, keys.length, c.keys(), c.seed() ^ 0x7E57);
      double[] r = CompareBench.rates(timings.get(s.name()));
      double cpu =
          CompareBench.median(
              timings.get(s.name()).stream().mapToDouble(KvWorkload.Timing::cpuNanosPerOp));
      sheet.add(s.name(), "", "insert", CompareBench.median(Arrays.stream(r)), "inserts/s");
      sheet.add(s.name(), "", "insert min", Arrays.stream(r).min().orElse(Double.NaN), "inserts/s");
      sheet.add(s.name(), "", "insert max", Arrays.stream(r).max().orElse(Double.NaN), "inserts/s");
      sheet.add(s.name(), "", "insert cpu", cpu, "ns/insert (calling thread)");
      out.printf(
          Locale.ROOT,
          "%-10s %,13.0f %,9.0f..%,-9.0f %,11.0f  verified%n",
          s.name(),
          CompareBench.median(Arrays.stream(r)),
          Arrays.stream(r).min().orElse(Double.NaN),
          Arrays.stream(r).max().orElse(Double.NaN),
          cpu);
    }
  }

  /** Insert ratios, and the goals of issue 18: at or above RocksDB, ahead of every B-tree. */
  static void summarize(CompareBench.Config c, ResultSheet sheet) {
    String me = "idxkit";
    double mine = sheet.value(me, "", "insert");
    for (String p : c.stores()) {
      if (!p.equals(me)) {
        sheet.ratio(
            "inserts/s: idxkit / " + p,
            mine / sheet.value(p, "", "insert"),
            "idxkit inserts this many times faster (wall, median round)");
      }
    }
    // The goals count the rounds with each store's sync (durable), and with its deferred merge too.
    for (String metric : List.of(DURABLE, MERGED)) {
      double withIt = sheet.value(me, "", metric);
      for (String p : c.stores()) {
        if (!p.equals(me)) {
          sheet.ratio(
              metric + ": idxkit / " + p,
              withIt / sheet.value(p, "", metric),
              "over every round, "
                  + (metric.equals(DURABLE)
                      ? "then one sync (RocksDB's flush, idxkit's checkpoint keeping its buffer)"
                      : "the sync and the deferred merge (RocksDB's compaction, idxkit's merge)"));
        }
      }
      if (c.stores().contains("rocksdb")) {
        double rocks = sheet.value("rocksdb", "", metric);
        sheet.goal(
            "random inserts at or above RocksDB's rate, "
                + (metric.equals(DURABLE) ? "made durable" : "durable and merged"),
            String.format(
                Locale.ROOT,
                "idxkit / RocksDB = %.2f (%,.0f vs %,.0f inserts/s)",
                withIt / rocks,
                withIt,
                rocks),
            withIt >= rocks);
      }
    }
    // B-tree peers have no merge left: the strictest figure for idxkit is with its merge.
    mine = sheet.value(me, "", MERGED);
    String best = CompareBench.fastestOther(c, sheet, MERGED, "rocksdb");
    if (best != null) {
      double b = sheet.value(best, "", MERGED);
      sheet.goal(
          "random inserts ahead of every B-tree peer (durable and merged)",
          String.format(
              Locale.ROOT,
              "idxkit / best B-tree (%s) = %.2f (%,.0f vs %,.0f inserts/s)",
              best,
              mine / b,
              mine,
              b),
          mine > b);
    }
  }
}
