package dev.idxkit.loader;

import dev.idxkit.core.Database;
import dev.idxkit.core.schema.TpchDdl;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.TpchOptions;
import dev.idxkit.loader.input.TpchSchema;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Measures loading TPC-H lineitem: from the generator, and from a CSV file (exported from the
 * generated table with {@link CsvExport}). Not a test: run it by hand with {@code -da}, e.g.
 *
 * <pre>
 * ./mvnw -q -pl loader dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 * java -da -Xmx2g --add-exports=java.base/sun.nio.ch=ALL-UNNAMED \
 *     --add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
 *     --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
 *     -Dchronicle.analytics.disable=true \
 *     -cp loader/target/test-classes:loader/target/classes:$(cat /tmp/cp.txt) \
 *     dev.idxkit.loader.LoadThroughput 1 /tmp/idxkit-load 3 none
 * </pre>
 *
 * Arguments: scale factor (default 0.1), a work directory (the CSV is kept there between runs),
 * rounds (default 3), index mode ({@code none} - the load alone - or {@code deferred}, which builds
 * the six lineitem indexes with the in-memory test build, not the rebuilder), parse threads
 * (default: cores). Prints each run's summary: rows/s, MB/s, and where the time went.
 */
public final class LoadThroughput {
  private LoadThroughput() {}

  public static void main(String[] args) throws Exception {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.1;
    Path work = Path.of(args.length > 1 ? args[1] : "/tmp/idxkit-load");
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    IndexMode mode = IndexMode.valueOf((args.length > 3 ? args[3] : "none").toUpperCase());
    int threads =
        args.length > 4 ? Integer.parseInt(args[4]) : Runtime.getRuntime().availableProcessors();
    Files.createDirectories(work);
    Path csv = work.resolve("lineitem-" + sf + ".csv");
    System.out.printf(
        "lineitem sf %s, %d cores, parse threads %d, mode %s, max heap %d MB%n",
        sf,
        Runtime.getRuntime().availableProcessors(),
        threads,
        mode,
        Runtime.getRuntime().maxMemory() >> 20);
    for (int round = 0; round < rounds; round++) {
      Path dir = work.resolve("db");
      delete(dir);
      try (Database db = Database.create(dir)) {
        db.execute(TpchDdl.text(), TpchDdl.SOURCE);
        LoadReport g =
            measure(
                db,
                LoadOptions.of(
                        "lineitem", LoadInput.tpch(TpchSchema.LINEITEM, TpchOptions.scale(sf)))
                    .withIndexMode(mode)
                    .withParseThreads(threads));
        print("generator", g);
        if (!Files.exists(csv)) {
          long t0 = System.nanoTime();
          long rows = CsvExport.write(db, "lineitem", csv, CsvOptions.defaults());
          System.out.printf(
              "exported %,d rows to %s (%.1f MB) in %.2f s%n",
              rows, csv, Files.size(csv) / 1e6, (System.nanoTime() - t0) / 1e9);
        }
      }
      delete(dir);
      try (Database db = Database.create(dir)) {
        db.execute(TpchDdl.text(), TpchDdl.SOURCE);
        LoadReport c =
            measure(
                db,
                LoadOptions.of("lineitem", LoadInput.csv(csv, CsvOptions.defaults()))
                    .withIndexMode(mode)
                    .withParseThreads(threads));
        print("csv", c);
      }
    }
    delete(work.resolve("db"));
  }

  private static LoadReport measure(Database db, LoadOptions options) {
    long cpu0 = processCpuNanos();
    long gc0 = gcMillis();
    LoadReport r = new Loader(db, options, new TestIndexBuild()).run(LoadListener.NONE);
    System.out.printf(
        "  process CPU %.2f s, GC %.2f s%n",
        (processCpuNanos() - cpu0) / 1e9, (gcMillis() - gc0) / 1e3);
    return r;
  }

  private static void print(String what, LoadReport r) {
    System.out.println(what + ":");
    for (String line : r.summaryLines()) {
      System.out.println("  " + line);
    }
  }

  private static long processCpuNanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean o ? o.getProcessCpuTime() : -1;
  }

  private static long gcMillis() {
    long t = 0;
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      t += Math.max(0, gc.getCollectionTime());
    }
    return t;
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
