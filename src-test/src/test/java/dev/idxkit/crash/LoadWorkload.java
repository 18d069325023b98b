package dev.idxkit.crash;

import dev.idxkit.core.Database;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.loader.IndexBuild;
import dev.idxkit.loader.IndexMode;
import dev.idxkit.loader.LoadInput;
import dev.idxkit.loader.LoadOptions;
import dev.idxkit.loader.RebuildIndexBuild;
import dev.idxkit.loader.StartMode;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.InputRecord;
import dev.idxkit.loader.input.RowReader;
import dev.idxkit.loader.input.RowSource;
import dev.idxkit.loader.input.TpchOptions;
import dev.idxkit.loader.input.TpchSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The loads of the {@code load} campaign, as pure functions of the seed: job j loads one input into
 * its own table {@code load_j}, created by DDL when the job starts.
 *
 * <p>Job j's index mode cycles through deferred, none and live, so every mode comes up within three
 * jobs. Inputs: a CSV file written for the job ({@link #writeCsv}: ids in random order, NULLs vs
 * empty strings, quoted commas, quotes and line breaks, a few long notes that overflow a page, and
 * about one bad record in 30 - a bad number or a missing field - which the loader rejects), or, for
 * one bulk job in three, the TPC-H generator's {@code orders} at a small scale factor. Checkpoints
 * every 150 to 700 records, small chunks (4 to 16 KiB, 256 to 1,024 generated rows), so a load has
 * many checkpoints and batches to be killed between and inside.
 *
 * <p>The CSV of a job is written once, by whoever needs it first, through a temp file and a rename,
 * so a killed writer never leaves a short file: a resume checks the input's size and modification
 * time, and the file must never change under it.
 */
final class LoadWorkload {
  static final IndexMode[] MODES = {IndexMode.DEFERRED, IndexMode.NONE, IndexMode.LIVE};

  /** Job j: how its table is loaded. */
  record Job(
      int j,
      IndexMode mode,
      boolean tpch,
      int records,
      long checkpointRows,
      int chunkBytes,
      int tpchRowsPerChunk) {
    String table() {
      return "load_" + j;
    }
  }

  private final long seed;
  private final Path inputs;

  /**
   * @param inputs the directory of the jobs' CSV files (beside the database)
   */
  LoadWorkload(long seed, Path inputs) {
    this.seed = seed;
    this.inputs = inputs;
  }

  Job job(int j) {
    SplittableRandom r = new SplittableRandom(TxnWorkload.mix(seed, 1000 + j));
    IndexMode mode = MODES[(int) Math.floorMod(j + seed, 3L)];
    boolean tpch = mode != IndexMode.LIVE && r.nextInt(3) == 0;
    int records = mode == IndexMode.LIVE ? 1_200 : tpch ? 3_000 : 3_000;
    return new Job(
        j, mode, tpch, records, 150 + r.nextInt(550), 4096 << r.nextInt(3), 256 << r.nextInt(3));
  }

  /** The scale factor of the TPC-H orders input: 1,500,000 orders at 1, so 3,000 rows. */
  static double tpchScale(Job job) {
    return job.records() / 1_500_000.0;
  }

  String ddl(Job job) {
    String t = job.table();
    if (job.tpch()) {
      return "CREATE TABLE "
          + t
          + " (o_orderkey BIGINT NOT NULL, o_custkey BIGINT NOT NULL, o_orderstatus CHAR(1) NOT"
          + " NULL, o_totalprice DECIMAL(15,2) NOT NULL, o_orderdate DATE NOT NULL,"
          + " o_orderpriority CHAR(15) NOT NULL, o_clerk CHAR(15) NOT NULL, o_shippriority INT NOT"
          + " NULL, o_comment VARCHAR(79) NOT NULL, PRIMARY KEY (o_orderkey));"
          + " CREATE INDEX "
          + t
          + "_cust ON "
          + t
          + " (o_custkey, o_orderdate DESC); CREATE INDEX "
          + t
          + "_clerk ON "
          + t
          + " (o_clerk);";
    }
    return "CREATE TABLE "
        + t
        + " (id BIGINT NOT NULL, grp INT NOT NULL, name VARCHAR(30), amount DECIMAL(12,2), day"
        + " DATE, note TEXT, PRIMARY KEY (id)); CREATE INDEX "
        + t
        + "_grp ON "
        + t
        + " (grp, day DESC); CREATE INDEX "
        + t
        + "_name ON "
        + t
        + " (name);";
  }

  Path csv(Job job) {
    return inputs.resolve(job.table() + ".csv");
  }

  LoadInput input(Job job) {
    if (job.tpch()) {
      return LoadInput.tpch(
          TpchSchema.ORDERS,
          TpchOptions.scale(tpchScale(job)).withRowsPerChunk(job.tpchRowsPerChunk()));
    }
    return LoadInput.csv(csv(job), CsvOptions.defaults().withChunkBytes(job.chunkBytes()));
  }

  LoadOptions options(Job job, StartMode start) {
    return LoadOptions.of(job.table(), input(job))
        .withIndexMode(job.mode())
        .withStartMode(start)
        .withCheckpointRows(job.checkpointRows())
        .withParseThreads(2);
  }

  /** The deferred build: the rebuilder with a small budget, sorting in {@code sortDir}. */
  static IndexBuild indexBuild(Path sortDir) {
    return new RebuildIndexBuild(
        RebuildOptions.defaults(SrtFile.ofDirectory(sortDir))
            .withThreads(2, 2, 2)
            .withMemory(256L << 10),
        "crash load sort directory " + sortDir);
  }

  /** Creates the job's input (if it is a CSV file not written yet) and its table. */
  void start(Database db, Job job) {
    if (!job.tpch()) {
      writeCsv(job);
    }
    db.execute(ddl(job), "LoadWorkload.ddl(" + job.j() + ")");
  }

  /** Every record of the job's input, in input order, as the loader's own reader parses it. */
  List<InputRecord> records(Job job, TableDef table) {
    if (!job.tpch()) {
      writeCsv(job);
    }
    List<InputRecord> out = new ArrayList<>();
    try (RowSource s = input(job).open(table, null)) {
      new RowReader(s).forEachRemaining(out::add);
    }
    return out;
  }

  /** Writes the job's CSV unless it exists (through a temp file and a rename). */
  void writeCsv(Job job) {
    Path file = csv(job);
    if (Files.exists(file)) {
      return;
    }
    SplittableRandom r = new SplittableRandom(TxnWorkload.mix(seed, 2000 + job.j()));
    int rows = job.records();
    long[] ids = new long[rows];
    for (int i = 0; i < rows; i++) {
      ids[i] = i + 1 + (long) job.j() * 1_000_000_000L;
    }
    for (int i = rows - 1; i > 0; i--) {
      int k = r.nextInt(i + 1);
      long t = ids[i];
      ids[i] = ids[k];
      ids[k] = t;
    }
    StringBuilder sb = new StringBuilder("id,grp,name,amount,day,note\n");
    for (int i = 0; i < rows; i++) {
      int kind = r.nextInt(60);
      sb.append(ids[i]).append(',').append(r.nextInt(40)).append(',');
      sb.append(name(r)).append(',');
      if (kind == 0) {
        sb.append("12x.5"); // not a number: rejected
      } else if (r.nextInt(10) > 0) {
        sb.append(BigDecimal.valueOf(r.nextLong(-100_000_000L, 100_000_000L), 2).toPlainString());
      }
      sb.append(',');
      if (r.nextInt(8) > 0) {
        sb.append(LocalDate.ofEpochDay(r.nextInt(20_000)));
      }
      if (kind == 1) {
        sb.append('\n'); // 5 fields instead of 6: rejected
        continue;
      }
      sb.append(',').append(note(r)).append('\n');
    }
    try {
      Files.createDirectories(inputs);
      Path tmp = Files.createTempFile(inputs, job.table(), ".tmp");
      Files.writeString(tmp, sb, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String name(SplittableRandom r) {
    return switch (r.nextInt(6)) {
      case 0 -> ""; // NULL
      case 1 -> "\"\""; // the empty string
      case 2 -> "\"n, \"\"" + r.nextInt(1000) + "\"\"\""; // comma and quotes
      default -> "name" + r.nextInt(100_000);
    };
  }

  private static String note(SplittableRandom r) {
    int k = r.nextInt(400);
    if (k == 0) {
      return "long:" + "x".repeat(9000 + r.nextInt(6000)); // an overflow record
    }
    if (k < 10) {
      return "\"two\nlines\"";
    }
    return "note " + r.nextInt();
  }
}
