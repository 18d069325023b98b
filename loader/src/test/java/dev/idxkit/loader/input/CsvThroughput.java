package dev.idxkit.loader.input;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.Values;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Measures CSV parse throughput on TPC-H lineitem-shaped data (16 columns: 4 BIGINT/INT keys, 4
 * DECIMAL(15,2), 2 one-char strings, 3 dates, 3 strings). Not a test: run it by hand, with {@code
 * -da} so assertions do not count, e.g.
 *
 * <pre>
 * ./mvnw -q -pl loader dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -da -Xmx2g -cp loader/target/test-classes:loader/target/classes:core/target/classes:$(cat /tmp/cp.txt) \
 *     dev.idxkit.loader.input.CsvThroughput 0.1 /tmp/lineitem-0.1.csv
 * </pre>
 *
 * It writes the file once (from the TPC-H generator, through {@link Values#format}), then reads it
 * several times each way: cutting only (read + record scan: the sequential part), one thread
 * cutting and parsing, and cutting on the main thread while 1 or 2 worker threads parse.
 */
public final class CsvThroughput {
  private CsvThroughput() {}

  public static void main(String[] args) throws Exception {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.1;
    Path file = Path.of(args.length > 1 ? args[1] : "/tmp/idxkit-lineitem-" + sf + ".csv");
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    TableDef lineitem = TpchSchema.LINEITEM.tableDef(1, 0);
    if (!Files.exists(file)) {
      write(file, lineitem, sf);
    }
    long bytes = Files.size(file);
    CsvOptions options = CsvOptions.defaults();
    System.out.printf(
        "file %s: %.1f MB, %d cores available%n",
        file, bytes / 1e6, Runtime.getRuntime().availableProcessors());
    for (int r = 0; r < rounds; r++) {
      long cpu = cpuNanos();
      report("cut only", bytes, cutOnly(file, lineitem, options), cpu);
      cpu = cpuNanos();
      report("1 thread", bytes, sequential(file, lineitem, options), cpu);
      cpu = cpuNanos();
      report("cut + 1 worker", bytes, parallel(file, lineitem, options, 1), cpu);
      cpu = cpuNanos();
      report("cut + 2 workers", bytes, parallel(file, lineitem, options, 2), cpu);
    }
  }

  /** The lineitem table as CSV, quoted where needed (comments hold commas), LF line ends. */
  private static void write(Path file, TableDef table, double sf) throws IOException {
    List<ColumnDef> columns = table.columns();
    String[] fields = new String[columns.size()];
    try (CsvWriter w = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(file);
        TpchSource source = TpchSource.open(TpchSchema.LINEITEM, TpchOptions.scale(sf), table)) {
      w.writeRecord(columns.stream().map(ColumnDef::name).toList());
      RowReader reader = new RowReader(source);
      while (reader.hasNext()) {
        Object[] v = ((InputRow) reader.next()).values();
        for (int i = 0; i < v.length; i++) {
          fields[i] = Values.format(columns.get(i).type(), v[i]);
        }
        w.writeRecord(fields);
      }
    }
  }

  /** {rows, nanos} */
  private static long[] cutOnly(Path file, TableDef t, CsvOptions options) {
    long start = System.nanoTime();
    long chunks = 0;
    try (CsvSource source = CsvSource.open(file, t, options)) {
      while (source.nextChunk() != null) {
        chunks++;
      }
    }
    return new long[] {-chunks, System.nanoTime() - start};
  }

  private static long[] sequential(Path file, TableDef t, CsvOptions options) {
    long start = System.nanoTime();
    long rows = 0;
    try (CsvSource source = CsvSource.open(file, t, options)) {
      Chunk c;
      while ((c = source.nextChunk()) != null) {
        rows += c.parse().rows();
      }
    }
    return new long[] {rows, System.nanoTime() - start};
  }

  private static long[] parallel(Path file, TableDef t, CsvOptions options, int threads)
      throws InterruptedException {
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads, r -> new Thread(r, "csv-throughput-parse-" + n.getAndIncrement()));
    try {
      long start = System.nanoTime();
      long rows = 0;
      try (CsvSource source = CsvSource.open(file, t, options);
          ParallelRowReader reader = new ParallelRowReader(source, pool, threads * 2)) {
        Batch b;
        while ((b = reader.nextBatch()) != null) {
          rows += b.rows();
        }
      }
      return new long[] {rows, System.nanoTime() - start};
    } finally {
      pool.shutdownNow();
    }
  }

  /** CPU time of the whole process (all threads, GC and JIT included). */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * Wall time and throughput, and the process CPU time spent: on a shared machine the CPU figure
   * (rows per CPU second) says more than the wall clock about what free cores would do.
   */
  private static void report(String what, long bytes, long[] rowsNanos, long cpuBefore) {
    double cpu = (cpuNanos() - cpuBefore) / 1e9;
    double seconds = rowsNanos[1] / 1e9;
    String rows =
        rowsNanos[0] < 0
            ? (-rowsNanos[0]) + " chunks"
            : String.format(
                "%,10.0f rows/s  %,10.0f rows/cpu-s", rowsNanos[0] / seconds, rowsNanos[0] / cpu);
    System.out.printf(
        "%-16s %6.3f s wall %6.3f s cpu %7.1f MB/s  %s%n",
        what, seconds, cpu, bytes / 1e6 / seconds, rows);
  }
}
