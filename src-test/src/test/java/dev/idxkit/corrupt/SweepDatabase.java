package dev.idxkit.corrupt;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.Row;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.internal.Internals;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.Selection;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.loader.IndexMode;
import dev.idxkit.loader.LoadInput;
import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadOptions;
import dev.idxkit.loader.LoadOutcome;
import dev.idxkit.loader.Loader;
import dev.idxkit.loader.RebuildIndexBuild;
import dev.idxkit.loader.input.CsvOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The healthy databases the corruption sweep damages, and their golden answers.
 *
 * <p>Two bases, 4 KiB pages so that small tables still have branch pages, each holding table {@code
 * s} (rows with NULLs, long names, a few notes long enough for overflow pages) with a primary key,
 * a composite index with a DESC column and a string index:
 *
 * <ul>
 *   <li>{@code loaded}: the loader appends the rows from a CSV file and builds the indexes with the
 *       rebuilder (deferred mode);
 *   <li>{@code rebuilt}: the rows are inserted by transactions (trees grown by splits), then {@code
 *       s_name} is rebuilt with a 70% leaf fill.
 * </ul>
 *
 * Then both get {@link #WAL_TXNS} transactions (inserts, updates, deletes) that stay in the log:
 * the base is a copy taken while the database is open, as a crash would leave it, so every damage
 * target exists - meta slots, area headers, heap, overflow, leaf and branch pages, the log's header
 * and its transaction frames. State k (0..{@value #WAL_TXNS}) is the database after the first k of
 * those transactions; the golden answers of each state come from a copy taken after its commit.
 * Damage to the log may legitimately lose its later transactions (a damaged frame ends recovery,
 * the torn-tail rule), so answers of any state are right there; elsewhere only the last state's.
 */
final class SweepDatabase {
  static final int WAL_TXNS = 4;
  static final long MAX_ID = 4_000;
  static final String DDL =
      "CREATE TABLE s (id BIGINT NOT NULL PRIMARY KEY, grp INT NOT NULL, name VARCHAR(200),"
          + " amount DECIMAL(12,2), note TEXT);"
          + " CREATE INDEX s_grp ON s (grp, name DESC); CREATE INDEX s_name ON s (name);";

  /** A base: the directory to damage copies of, and the golden digests of each state. */
  record Base(String name, Path dir, List<Map<String, String>> states) {}

  static DatabaseOptions options() {
    return DatabaseOptions.defaults().withPageSize(4096).withCheckpointBytes(64L << 20);
  }

  static Object[] row(long seed, long id) {
    SplittableRandom r = new SplittableRandom(seed * 31 + id);
    String name =
        r.nextInt(15) == 0
            ? null
            : r.nextInt(20) == 0
                ? "long-" + "m".repeat(100 + r.nextInt(90))
                : "n" + r.nextInt(500) + "-" + (char) ('a' + r.nextInt(26));
    BigDecimal amount =
        r.nextInt(8) == 0 ? null : BigDecimal.valueOf(r.nextLong(-99_999, 99_999), 2);
    String note = r.nextInt(120) == 0 ? "big:" + "q".repeat(5000 + r.nextInt(6000)) : "note" + id;
    return new Object[] {id, r.nextInt(20), name, amount, note};
  }

  /** Ids of the base rows: every other id below {@link #MAX_ID}, so lookups also miss. */
  static List<Long> baseIds() {
    List<Long> ids = new ArrayList<>();
    for (long id = 1; id < MAX_ID - 400; id += 2) {
      ids.add(id);
    }
    return ids;
  }

  static Base loaded(Path work, long seed) {
    Path dir = work.resolve("loaded");
    Path csv = work.resolve("loaded.csv");
    StringBuilder sb = new StringBuilder("id,grp,name,amount,note\n");
    for (long id : baseIds()) {
      Object[] v = row(seed, id);
      sb.append(id).append(',').append(v[1]).append(',');
      sb.append(v[2] == null ? "" : v[2]).append(',');
      sb.append(v[3] == null ? "" : ((BigDecimal) v[3]).toPlainString()).append(',');
      sb.append(v[4]).append('\n');
    }
    try {
      Files.writeString(csv, sb, StandardCharsets.UTF_8);
      Path sort = Files.createDirectories(work.resolve("sort"));
      try (Database db = Database.create(dir, options())) {
        db.execute(DDL);
        LoadOutcome o =
            new Loader(
                    db,
                    LoadOptions.of("s", LoadInput.csv(csv, CsvOptions.defaults()))
                        .withIndexMode(IndexMode.DEFERRED)
                        .withCheckpointRows(700),
                    new RebuildIndexBuild(
                        RebuildOptions.defaults(SrtFile.ofDirectory(sort)).withMemory(128 << 10),
                        "sweep"))
                .run(LoadListener.NONE)
                .outcome();
        if (o != LoadOutcome.COMPLETED) {
          throw new IllegalStateException("the sweep's base load ended " + o);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return withLogTail("loaded", dir, work, seed);
  }

  static Base rebuilt(Path work, long seed) {
    Path dir = work.resolve("rebuilt");
    try (Database db = Database.create(dir, options())) {
      db.execute(DDL);
      Table s = db.table("s");
      List<Long> ids = baseIds();
      for (int from = 0; from < ids.size(); from += 500) {
        try (Transaction tx = db.begin()) {
          for (long id : ids.subList(from, Math.min(ids.size(), from + 500))) {
            tx.insert(s, row(seed, id));
          }
          tx.commit();
        }
      }
      Path sort = Files.createDirectories(work.resolve("sort"));
      new IndexRebuild(
              db,
              RebuildOptions.defaults(SrtFile.ofDirectory(sort))
                  .withSelection(new Selection(Set.of(), Set.of(), Set.of("s_name"), false))
                  .withMemory(64 << 10)
                  .withLeafFill(70),
              "sweep",
              RebuildListener.NONE)
          .run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return withLogTail("rebuilt", dir, work, seed);
  }

  /**
   * Reopens {@code dir}, commits {@link #WAL_TXNS} transactions, copying the directory after each
   * (state k), and returns the last copy as the base with the golden answers of every state.
   */
  private static Base withLogTail(String name, Path dir, Path work, long seed) {
    List<Map<String, String>> states = new ArrayList<>();
    try (Database db = Database.open(dir, options())) {
      SplittableRandom r = new SplittableRandom(seed ^ name.hashCode());
      Table s = db.table("s");
      long nextId = MAX_ID - 399;
      // Rows that reach the files through the last checkpoint: the meta slot before it does not
      // know them, so a reader that fell back to that slot would miss them.
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < 30; i++) {
          tx.insert(s, row(seed ^ 99, nextId += 2));
        }
        tx.commit();
      }
      db.checkpoint();
      states.add(goldenOf(copy(dir, work.resolve(name + "-state0"))));
      for (int k = 1; k <= WAL_TXNS; k++) {
        try (Transaction tx = db.begin()) {
          for (int i = 0; i < 20; i++) {
            tx.insert(s, row(seed ^ k, nextId += 2));
          }
          for (int i = 0; i < 8; i++) {
            long id = 1 + 2L * r.nextInt(1_700);
            List<Row> found = tx.lookup(db.index("s_pk"), id);
            if (found.isEmpty()) {
              continue;
            }
            if (i < 3) {
              tx.delete(s, found.get(0).rid());
            } else {
              Object[] v = row(seed ^ (k * 7L), id);
              tx.update(s, found.get(0).rid(), v);
            }
          }
          tx.commit();
        }
        states.add(goldenOf(copy(dir, work.resolve(name + "-state" + k))));
      }
    }
    // The base is the crash copy of the last state, never opened: its log holds every transaction.
    Path pristine = work.resolve(name + "-base");
    copyTree(work.resolve(name + "-state" + WAL_TXNS + "-raw"), pristine);
    return new Base(name, pristine, List.copyOf(states));
  }

  /** A crash copy of the open database: a raw copy kept, and its golden answers from a reopen. */
  private static Path copy(Path dir, Path to) {
    try {
      Path raw = to.resolveSibling(to.getFileName() + "-raw");
      CrashCopy.of(dir, raw);
      copyTree(raw, to);
      return to;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> goldenOf(Path copy) {
    try (Database db = Database.open(copy, options())) {
      if (!db.check().clean()) {
        throw new IllegalStateException("the sweep's base " + copy + " fails its check");
      }
      return Answers.digests(db);
    }
  }

  /**
   * Pages of the base that no answer reads: free pages (an old tree the rebuilder replaced keeps
   * its bytes and type until reused) and pages whose newest image is in the log. Keys are {@code
   * file#page}. Damage there must change nothing; the sweep damages them as their own kind of
   * target ("unused page") so the other kinds are live pages.
   */
  static java.util.Set<String> unusedPages(Path base, Path scratch) {
    java.util.Set<String> out = new java.util.HashSet<>();
    copyTree(base, scratch);
    try (Database db = Database.open(scratch, options().readOnly())) {
      var meta = Engine.of(db).meta();
      Internals.store(db)
          .inspect(
              free -> {
                for (int a = 0; a < free.size() && a < meta.areaSlots(); a++) {
                  String name = meta.areaName(a);
                  if (name == null) {
                    continue;
                  }
                  for (long p = 1; p < meta.hwm(a); p++) {
                    if (free.get(a).contains(p)) {
                      out.add(name + ".area#" + p);
                    }
                  }
                }
                return null;
              });
      int pageSize = Engine.of(db).pageSize();
      try (java.nio.channels.FileChannel ch =
          java.nio.channels.FileChannel.open(base.resolve("wal"))) {
        long pos = dev.idxkit.core.internal.log.WalFormat.HEADER_SIZE;
        java.nio.ByteBuffer h =
            java.nio.ByteBuffer.allocate(dev.idxkit.core.internal.log.WalFormat.FRAME_HEADER)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        while (pos + h.capacity() <= ch.size()) {
          h.clear();
          ch.read(h, pos);
          int kind = h.get(4);
          if (kind == 1) {
            out.add(meta.areaName(h.get(5) & 0xFF) + ".area#" + h.getLong(24));
            pos += h.capacity() + pageSize;
          } else if (kind == 2) {
            pos += h.capacity() + h.getInt(24);
          } else {
            break;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  static void copyTree(Path from, Path to) {
    try {
      Files.createDirectories(to);
      try (var files = Files.list(from)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.copy(f, to.resolve(f.getFileName()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
