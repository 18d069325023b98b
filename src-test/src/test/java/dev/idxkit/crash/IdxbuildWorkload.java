package dev.idxkit.crash;

import dev.idxkit.core.Database;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.Selection;
import dev.idxkit.idxbuild.temp.SrtFile;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The data and the rebuilds of the {@code idxbuild} campaign, as pure functions of the seed.
 *
 * <p>Data, written once when the campaign creates its database and never changed: table {@code
 * item} ({@link #itemRows} rows) with a unique BIGINT primary key, a composite index with a DESC
 * DECIMAL column ({@code item_grp_amount}), a string index with a DESC date ({@code item_name},
 * long names and NULLs included) and a unique string index with NULLs ({@code item_code}); table
 * {@code big} ({@link #bigRows} rows, more than the rebuilder's 100,000-entry threshold for merging
 * one group on several threads by key range) with its primary key.
 *
 * <p>Unit n is rebuild n, planned by {@link #plan}: about one in four rebuilds {@code big_pk} alone
 * on two threads (the range-parallel merge); the others rebuild all or some of the {@code item}
 * indexes, now and then with {@code big_pk}. Memory budgets from 64 KiB (many runs, several merge
 * passes with a small fan-in) to 64 MiB (no temp file), block sizes, fan-ins, thread counts and
 * leaf fill vary. The rebuilt indexes hold the same entries whatever the plan, so what a rebuild
 * changes is only the roots - which is what the model watches.
 */
final class IdxbuildWorkload {
  static final String DDL =
      """
      CREATE TABLE item (
        id BIGINT NOT NULL PRIMARY KEY,
        grp INT NOT NULL,
        amount DECIMAL(12,2),
        name VARCHAR(200),
        code VARCHAR(24),
        day DATE);
      CREATE INDEX item_grp_amount ON item (grp, amount DESC);
      CREATE INDEX item_name ON item (name, day DESC);
      CREATE UNIQUE INDEX item_code ON item (code);
      CREATE TABLE big (k BIGINT NOT NULL PRIMARY KEY, v INT NOT NULL);
      """;

  static final List<String> ITEM_INDEXES =
      List.of("item_pk", "item_grp_amount", "item_name", "item_code");
  static final String BIG_INDEX = "big_pk";
  static final List<String> ALL_INDEXES =
      List.of("item_pk", "item_grp_amount", "item_name", "item_code", BIG_INDEX);

  /** Rows of {@code item}; {@code -Dcrash.idxbuild.items} changes it. */
  static int itemRows() {
    return Integer.getInteger("crash.idxbuild.items", 20_000);
  }

  /** Rows of {@code big}; above 100,000 so the range-parallel merge runs. */
  static int bigRows() {
    return Integer.getInteger("crash.idxbuild.big", 110_000);
  }

  /**
   * What rebuild n does.
   *
   * @param unit n
   * @param indexes the indexes it rebuilds
   */
  record Plan(
      long unit,
      Set<String> indexes,
      int scanThreads,
      int threads,
      int mergeThreads,
      long memoryBytes,
      int blockKb,
      int fanIn,
      int leafFill) {
    RebuildOptions options(Path sortDir) {
      return RebuildOptions.defaults(SrtFile.ofDirectory(sortDir))
          .withSelection(new Selection(Set.of(), Set.of(), indexes, false))
          .withThreads(scanThreads, threads, mergeThreads)
          .withMemory(memoryBytes)
          .withMerge(8, blockKb, fanIn, blockKb)
          .withLeafFill(leafFill);
    }

    boolean rangeParallel() {
      return indexes.equals(Set.of(BIG_INDEX)) && mergeThreads > 1;
    }
  }

  private final long seed;

  IdxbuildWorkload(long seed) {
    this.seed = seed;
  }

  Plan plan(long n) {
    SplittableRandom r = new SplittableRandom(TxnWorkload.mix(seed, n));
    Set<String> indexes = new LinkedHashSet<>();
    boolean bigAlone = r.nextInt(4) == 0;
    if (bigAlone) {
      indexes.add(BIG_INDEX);
    } else {
      if (r.nextBoolean()) {
        indexes.addAll(ITEM_INDEXES);
      } else {
        for (String ix : ITEM_INDEXES) {
          if (r.nextInt(3) == 0) {
            indexes.add(ix);
          }
        }
        if (indexes.isEmpty()) {
          indexes.add(ITEM_INDEXES.get(r.nextInt(ITEM_INDEXES.size())));
        }
      }
      if (r.nextInt(5) == 0) {
        indexes.add(BIG_INDEX);
      }
    }
    long[] memories = {64L << 10, 128L << 10, 512L << 10, 4L << 20, 64L << 20};
    int[] blocks = {8, 16, 64};
    int[] fanIns = {2, 3, 4, 8, 32};
    int[] fills = {100, 90, 70, 50};
    int threads = 1 + r.nextInt(2);
    return new Plan(
        n,
        Set.copyOf(indexes),
        bigAlone ? 2 : 1 + r.nextInt(2),
        bigAlone ? 2 : threads,
        bigAlone ? 2 : 1 + r.nextInt(2),
        bigAlone ? memories[r.nextInt(3)] : memories[r.nextInt(memories.length)],
        blocks[r.nextInt(blocks.length)],
        fanIns[r.nextInt(fanIns.length)],
        fills[r.nextInt(fills.length)]);
  }

  /** Row i of {@code item}, in column order. */
  Object[] item(int i) {
    SplittableRandom r = new SplittableRandom(TxnWorkload.mix(seed ^ 0x17E4L, i));
    long id = i * 0x9E3779B97F4A7C15L; // a bijection: unique, both signs, no order
    int grp = r.nextInt(50);
    BigDecimal amount =
        r.nextInt(10) == 0 ? null : BigDecimal.valueOf(r.nextLong(-100_000_000L, 100_000_000L), 2);
    String name;
    int kind = r.nextInt(50);
    if (kind == 0) {
      name = null;
    } else if (kind == 1) {
      name = "";
    } else if (kind < 4) {
      name = "long-" + "n".repeat(120 + r.nextInt(70)) + r.nextInt(1000);
    } else {
      name = "name-" + (char) ('a' + r.nextInt(26)) + r.nextInt(3000);
    }
    String code = r.nextInt(8) == 0 ? null : (r.nextInt(5) == 0 ? "ü-" : "c-") + i;
    LocalDate day = r.nextInt(8) == 0 ? null : LocalDate.ofEpochDay(r.nextInt(20_000));
    return new Object[] {id, grp, amount, name, code, day};
  }

  /** Row j of {@code big}. */
  Object[] big(int j) {
    SplittableRandom r = new SplittableRandom(TxnWorkload.mix(seed ^ 0xB16L, j));
    return new Object[] {j * 0xC2B2AE3D27D4EB4FL, r.nextInt()};
  }

  /** Creates the tables and inserts every row, a few thousand per transaction. */
  void populate(Database db) {
    db.execute(DDL, "IdxbuildWorkload.DDL");
    insert(db, db.table("item"), itemRows(), this::item);
    insert(db, db.table("big"), bigRows(), this::big);
  }

  private static void insert(
      Database db, Table t, int rows, java.util.function.IntFunction<Object[]> row) {
    for (int from = 0; from < rows; from += 5_000) {
      try (Transaction tx = db.begin()) {
        for (int i = from; i < Math.min(rows, from + 5_000); i++) {
          tx.insert(t, row.apply(i));
        }
        tx.commit();
      }
    }
  }

  /** Every row of {@code item} as {@link IdxbuildModel#text} text, sorted. */
  List<String> itemTexts() {
    List<String> out = new ArrayList<>(itemRows());
    for (int i = 0; i < itemRows(); i++) {
      out.add(IdxbuildModel.text(item(i)));
    }
    out.sort(null);
    return out;
  }

  /** Every row of {@code big} as text, sorted. */
  List<String> bigTexts() {
    List<String> out = new ArrayList<>(bigRows());
    for (int j = 0; j < bigRows(); j++) {
      out.add(IdxbuildModel.text(big(j)));
    }
    out.sort(null);
    return out;
  }
}
