package dev.idxkit.idxbuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.Database;
import dev.idxkit.core.DuplicateEntryException;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.Durability;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.internal.Internals;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.BufferedCursor;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.HeapAppender;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.Keys;
import dev.idxkit.core.testing.Seeds;
import dev.idxkit.idxbuild.sort.EntryBuffer;
import dev.idxkit.idxbuild.sort.Splitters;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.idxbuild.temp.TempSpaceExhaustedException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IndexRebuildTest {
  @TempDir Path tmp;

  static final String DDL =
      """
      CREATE TABLE r (id BIGINT PRIMARY KEY, a INT, b VARCHAR(600), c DOUBLE, d DATE,
                      e DECIMAL(12,2));
      CREATE INDEX r_a_b ON r (a, b DESC);
      CREATE INDEX r_b ON r (b);
      CREATE INDEX r_c_d ON r (c DESC, d);
      CREATE UNIQUE INDEX r_e ON r (e);
      CREATE TABLE z (k INT, v VARCHAR(10));
      CREATE INDEX z_k ON z (k);
      CREATE TABLE o (k BIGINT PRIMARY KEY, v VARCHAR(10));
      CREATE INDEX o_v ON o (v DESC);
      """;

  /** An empty database with durability OFF: nothing here needs commits to survive a crash. */
  private static Database newDatabase(Path dir) {
    return Database.create(dir, Database.DatabaseOptions.defaults().withDurability(Durability.OFF));
  }

  private Database fill(Path dir, long seed, int rows) {
    SplittableRandom r = Seeds.random(seed);
    Database db = newDatabase(dir);
    db.execute(DDL);
    Table t = db.table("r");
    List<Long> rids = new ArrayList<>();
    try (Transaction tx = db.begin()) {
      for (int i = 0; i < rows; i++) {
        rids.add(tx.insert(t, row(r, i)));
      }
      tx.commit();
    }
    try (Transaction tx = db.begin()) { // holes and moved rows
      for (int i = 0; i < rows / 10; i++) {
        long rid = rids.get(r.nextInt(rids.size()));
        if (tx.get(t, rid) != null) {
          if (r.nextBoolean()) {
            tx.delete(t, rid);
          } else {
            Row old = tx.get(t, rid);
            Object[] v = row(r, (int) (long) (Long) old.values()[0]);
            tx.update(t, rid, v);
          }
        }
      }
      tx.commit();
    }
    db.table("o").insert(1L, "only");
    return db;
  }

  /** A row with duplicates, NULLs, long strings and a unique-but-nullable decimal. */
  private static Object[] row(SplittableRandom r, int id) {
    Integer a = r.nextInt(10) == 0 ? null : r.nextInt(30);
    String b =
        switch (r.nextInt(6)) {
          case 0 -> null;
          case 1 -> "long-" + "x".repeat(300 + r.nextInt(250)) + r.nextInt(20);
          default -> "b" + r.nextInt(200);
        };
    Double c = r.nextInt(15) == 0 ? null : (double) r.nextInt(500) / 4;
    LocalDate d = r.nextInt(15) == 0 ? null : LocalDate.of(1990, 1, 1).plusDays(r.nextInt(5000));
    BigDecimal e = r.nextInt(5) == 0 ? null : BigDecimal.valueOf(id * 100L + r.nextInt(100), 2);
    return new Object[] {(long) id, a, b, c, d, e};
  }

  /**
   * Every entry of every index as readers see it, in key order: the tree's, with what its change
   * buffer holds laid over them (the rows inserted by transactions are buffered until a merge).
   */
  private static Map<String, List<byte[]>> entries(Database db) {
    Map<String, List<byte[]>> out = new LinkedHashMap<>();
    Lock l = Engine.of(db).readLock();
    l.lock();
    try {
      for (IndexInfo ix : db.catalog().indexes()) {
        IndexState s = Engine.of(db).meta().index(ix.id());
        List<byte[]> list = new ArrayList<>();
        BufferedCursor c =
            new BufferedCursor(
                new BTree(Engine.of(db).committedPages(ix.area()), s.root(), ix.name()),
                Internals.store(db).committedView().buffered(ix.id()),
                false);
        for (boolean on = c.first(); on; on = c.next()) {
          list.add(c.entry());
        }
        out.put(ix.name(), list);
      }
    } finally {
      l.unlock();
    }
    return out;
  }

  /** The model: key || rid of every row, sorted as bytes. */
  private static Map<String, List<byte[]>> model(Database db) {
    Map<String, List<byte[]>> out = new LinkedHashMap<>();
    for (IndexInfo ix : db.catalog().indexes()) {
      List<byte[]> list = new ArrayList<>();
      try (RowCursor c = db.table(ix.table().name()).scan()) {
        while (c.hasNext()) {
          Row row = c.next();
          list.add(ix.encoder().encodeEntry(ix.keyOf(row.values()), row.rid()));
        }
      }
      list.sort(Keys::compare);
      out.put(ix.name(), list);
    }
    return out;
  }

  private static void assertSameEntries(Map<String, List<byte[]>> a, Map<String, List<byte[]>> b) {
    assertThat(a.keySet()).isEqualTo(b.keySet());
    for (String name : a.keySet()) {
      List<byte[]> x = a.get(name);
      List<byte[]> y = b.get(name);
      assertThat(x.size()).as(name).isEqualTo(y.size());
      for (int i = 0; i < x.size(); i++) {
        assertThat(x.get(i)).as(name + " entry " + i).isEqualTo(y.get(i));
      }
    }
  }

  private RebuildOptions options(Path srtDir, int threads, long memory, int fanIn) {
    return RebuildOptions.defaults(SrtFile.ofDirectory(srtDir))
        .withThreads(threads, threads, threads)
        .withMemory(memory)
        .withMerge(8, 8, fanIn, 8);
  }

  /** The build phase's progress count (what a progress bar shows) reached every key once. */
  private static void assertBuildCountedEveryKey(RebuildReport report) {
    assertThat(report.phases())
        .filteredOn(ph -> ph.name().equals("build"))
        .singleElement()
        .extracting(RebuildReport.Phase::units)
        .as("the build's progress counted every entry once")
        .isEqualTo(report.keys());
  }

  private static void assertNoTempFiles(Path... dirs) throws IOException {
    for (Path d : dirs) {
      try (var s = Files.list(d)) {
        assertThat(s.toList()).as("files left in " + d).isEmpty();
      }
    }
  }

  /**
   * Rows too long for a heap page (kept in overflow pages) among short ones: the scan lists a
   * page's records, an overflow one among them, before it writes any entry, and each index's
   * entries must still reach its buffer in RID order - a run a page for the in-place keys (one with
   * NULLs, whose entries are shorter), record by record for the string key.
   */
  @Test
  void rowsInOverflowPagesAmongShortOnesAreRebuilt() throws IOException {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    try (Database db = newDatabase(tmp.resolve("db"))) {
      db.execute(
          """
          CREATE TABLE w (id BIGINT PRIMARY KEY, k INT, s VARCHAR(5000), t VARCHAR(10));
          CREATE INDEX w_k ON w (k);
          CREATE INDEX w_t ON w (t);
          """);
      int longRow = 2100;
      assertThat(HeapPage.maxInlineLength(Engine.of(db).pageSize()))
          .as("a row of " + longRow + " bytes goes to overflow pages")
          .isLessThan(longRow);
      Table w = db.table("w");
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < 3000; i++) {
          String s = r.nextInt(8) == 0 ? "x".repeat(longRow + r.nextInt(2500)) : "s" + i;
          Integer k = r.nextInt(20) == 0 ? null : r.nextInt(50);
          tx.insert(w, new Object[] {(long) i, k, s, "t" + r.nextInt(30)});
        }
        tx.commit();
      }
      Map<String, List<byte[]>> before = entries(db);
      assertSameEntries(before, model(db));
      Path temp = Files.createDirectories(tmp.resolve("sort"));
      RebuildReport report =
          new IndexRebuild(db, options(temp, 2, 1L << 26, 8), "test", RebuildListener.NONE).run();
      assertThat(report.rows()).isEqualTo(3000);
      assertSameEntries(entries(db), before);
      assertThat(db.check().problems()).as(Seeds.reproduce(seed, getClass())).isEmpty();
    }
  }

  @ParameterizedTest(name = "threads={0} memory={1} fanIn={2}")
  @CsvSource({
    "1, 268435456, 32",
    "2, 268435456, 32",
    "8, 268435456, 32",
    "1, 131072, 2",
    "2, 131072, 3",
    "8, 131072, 2"
  })
  void rebuiltIndexesEqualRowByRowIndexes(int threads, long memory, int fanIn) throws IOException {
    long seed = Seeds.seed();
    Path temp = Files.createDirectories(tmp.resolve("sort"));
    try (Database db = fill(tmp.resolve("db"), seed, 6000)) {
      Map<String, List<byte[]>> before = entries(db);
      assertSameEntries(before, model(db));
      IndexRebuild rebuild =
          new IndexRebuild(db, options(temp, threads, memory, fanIn), "test", RebuildListener.NONE);
      RebuildPlan plan = rebuild.plan();
      RebuildReport report = rebuild.run();
      Map<String, List<byte[]>> after = entries(db);
      assertSameEntries(after, before);
      assertThat(db.check().problems()).as(Seeds.reproduce(seed, getClass())).isEmpty();
      assertThat(report.indexes()).hasSize(8);
      assertThat(report.rows()).isEqualTo(db.table("r").rowCount() + 1);
      assertThat(report.keys())
          .as("every key scanned reached a tree")
          .isEqualTo(report.indexes().stream().mapToLong(RebuildReport.IndexResult::entries).sum())
          .isEqualTo(after.values().stream().mapToLong(List::size).sum());
      assertBuildCountedEveryKey(report);
      if (memory < (1 << 20)) {
        assertThat(report.runs()).as("tiny memory spills runs").isGreaterThan(fanIn);
        assertThat(report.mergePasses()).as("more runs than fan-in").isGreaterThan(0);
        assertThat(plan.groups()).as("the plan expected runs").anyMatch(g -> !g.fitsInMemory());
        assertThat(plan.estimatedTempBytes()).as("the plan expected temp space").isPositive();
      } else {
        assertThat(report.runs()).as("everything fits in memory").isZero();
        assertThat(rebuild.groupsSortedAsOne).as("groups sorted as one, not merged").isPositive();
        assertThat(plan.groups())
            .as("the plan expected it")
            .allMatch(RebuildPlan.Group::fitsInMemory);
        assertThat(plan.estimatedTempBytes()).isZero();
      }
      assertNoTempFiles(temp);
      // The rebuilt trees serve reads and writes like any other.
      db.table("r").insert(1_000_000L, 1, "new", 1.0, null, null);
      assertThat(db.index("r_pk").get(1_000_000L)).hasSize(1);
      assertSameEntries(entries(db), model(db));
    }
    try (Database db = Database.open(tmp.resolve("db"))) {
      assertThat(db.check().problems()).isEmpty();
    }
  }

  @ParameterizedTest(name = "memory={0}")
  @CsvSource({"268435456", "131072"})
  void aGroupHoldingMostKeysIsMergedInKeyRangesOnSeveralThreads(long memory) throws IOException {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    Path temp = Files.createDirectories(tmp.resolve("sort"));
    try (Database db = newDatabase(tmp.resolve("db"))) {
      db.execute(
          "CREATE TABLE big (id BIGINT PRIMARY KEY, s VARCHAR(40), k INT NOT NULL);"
              + "CREATE INDEX big_s ON big (s DESC);"
              + "CREATE INDEX big_k ON big (k)");
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < 20_000; i++) {
          tx.insert(
              db.table("big"),
              (long) r.nextInt(1 << 30) * 20_000 + i,
              r.nextInt(8) == 0 ? null : "s" + r.nextInt(3000),
              r.nextInt(1 << 20));
        }
        tx.commit();
      }
      Map<String, List<byte[]>> before = entries(db);
      for (String index : List.of("big_pk", "big_s", "big_k")) {
        RebuildOptions o =
            options(temp, 4, memory, 4)
                .withSelection(new Selection(Set.of(), Set.of(), Set.of(index), false));
        IndexRebuild rebuild = new IndexRebuild(db, o, "test", RebuildListener.NONE);
        rebuild.minParallelEntries = 1000;
        RebuildReport report = rebuild.run();
        assertThat(report.indexes().get(0).ranges()).as(index).isGreaterThan(1);
        // In memory the INT key (20 bits) is sorted as one and cut at equal counts; the BIGINT
        // one (45 bits: more than GroupSort's four digits), the VARCHAR one (entries of
        // differing lengths) and any spilled group are merged.
        boolean asOne = index.equals("big_k") && memory > 1 << 20;
        assertThat(rebuild.groupsSortedAsOne).as(index).isEqualTo(asOne ? 1 : 0);
        assertBuildCountedEveryKey(report);
      }
      assertSameEntries(entries(db), before);
      assertThat(db.check().problems()).as(Seeds.reproduce(seed, getClass())).isEmpty();
      assertNoTempFiles(temp);
    }
  }

  /**
   * Ten indexes in eight sort groups: some group merges several indexes' entries, a batch at a time
   * through the builders (not the one-index fill); the trees and the build's progress count are
   * still exact.
   */
  @Test
  void aGroupOfSeveralIndexesIsBuiltInBatches() throws IOException {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    Path temp = Files.createDirectories(tmp.resolve("sort"));
    try (Database db = newDatabase(tmp.resolve("db"))) {
      StringBuilder ddl = new StringBuilder("CREATE TABLE many (id BIGINT PRIMARY KEY");
      for (char c = 'a'; c <= 'i'; c++) {
        ddl.append(", ").append(c).append(" INT");
      }
      ddl.append(");");
      for (char c = 'a'; c <= 'i'; c++) {
        ddl.append("CREATE INDEX many_").append(c).append(" ON many (").append(c).append(");");
      }
      db.execute(ddl.toString());
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < 9_000; i++) {
          Object[] row = new Object[10];
          row[0] = (long) i * 7919 % 1_000_003;
          for (int c = 1; c < 10; c++) {
            row[c] = r.nextInt(1 << (2 * c));
          }
          tx.insert(db.table("many"), row);
        }
        tx.commit();
      }
      Map<String, List<byte[]>> before = entries(db);
      IndexRebuild rebuild =
          new IndexRebuild(db, options(temp, 2, 256 << 20, 32), "test", RebuildListener.NONE);
      assertThat(rebuild.plan().groups())
          .as("some group holds several indexes")
          .anyMatch(g -> g.indexes().size() > 1);
      RebuildReport report = rebuild.run();
      assertSameEntries(entries(db), before);
      assertThat(db.check().problems()).as(Seeds.reproduce(seed, getClass())).isEmpty();
      assertThat(report.keys()).isEqualTo(10L * 9_000);
      assertBuildCountedEveryKey(report);
    }
  }

  @Test
  void inactiveIndexesAreBuiltFromTheHeap() throws IOException {
    Path temp = Files.createDirectories(tmp.resolve("sort"));
    try (Database db = fill(tmp.resolve("db"), Seeds.seed(), 2000)) {
      setStatus(db, "r_b", IndexStatus.INACTIVE);
      setStatus(db, "r_a_b", IndexStatus.INACTIVE);
      Table t = db.table("r");
      for (int i = 0; i < 100; i++) {
        t.insert(500_000L + i, i, "late" + i, null, null, null); // not in the inactive trees
      }
      assertThat(db.index("r_b").isActive()).isFalse();
      RebuildOptions o =
          options(temp, 2, 64 << 20, 32)
              .withSelection(new Selection(Set.of(), Set.of(), Set.of(), true));
      RebuildReport report = new IndexRebuild(db, o, "test", RebuildListener.NONE).run();
      assertThat(report.indexes())
          .extracting(RebuildReport.IndexResult::name)
          .containsExactly("r_a_b", "r_b");
      assertThat(db.index("r_b").isActive()).isTrue();
      assertSameEntries(entries(db), model(db));
      assertThat(db.check().problems()).isEmpty();
    }
  }

  @Test
  void duplicateKeysInAUniqueIndexStopTheRebuildAndChangeNothing() throws IOException {
    Path temp = Files.createDirectories(tmp.resolve("sort"));
    try (Database db = fill(tmp.resolve("db"), Seeds.seed(), 500)) {
      setStatus(db, "r_e", IndexStatus.INACTIVE);
      db.table("r").insert(900_001L, 1, "x", 1.0, null, new BigDecimal("7.77"));
      db.table("r").insert(900_002L, 2, "y", 2.0, null, new BigDecimal("7.77"));
      Map<String, List<byte[]>> before = entries(db);
      RebuildOptions o = options(temp, 2, 64 << 20, 32);
      assertThatThrownBy(() -> new IndexRebuild(db, o, "test", RebuildListener.NONE).run())
          .isInstanceOf(DuplicateKeyException.class)
          .hasMessageContaining("r_e")
          .hasMessageContaining("e=7.77")
          .hasMessageContaining(" and ");
      assertSameEntries(entries(db), before);
      assertThat(db.index("r_e").isActive()).isFalse();
      assertNoTempFiles(temp);
    }
  }

  /**
   * With no rows before it the plan's key-length sample meets the damaged record; after 2,000 rows
   * (past the sample) the scan does.
   */
  @ParameterizedTest
  @ValueSource(ints = {0, 2_000})
  void aDamagedRecordStopsTheRebuildNamingItsPageAndSlotAndChangesNothing(int rowsBefore)
      throws IOException {
    Path temp = Files.createDirectories(tmp.resolve("sort"));
    try (Database db = fill(tmp.resolve("db"), Seeds.seed(), 300)) {
      try (Transaction tx = db.begin()) {
        for (int k = 0; k < rowsBefore; k++) {
          tx.insert(db.table("z"), k, "v" + k);
        }
        tx.commit();
      }
      // A record whose flags byte names no format version, on a page whose checksum is right:
      // only the record check can find it (z_k's key is an INT, written in place by the scan).
      byte[] bad = db.catalog().table("z").layout().encode(new Object[] {7, "bad"});
      bad[0] = 0x7E;
      try (BulkWrite bulk = Engine.of(db).beginBulk();
          HeapAppender heap = new HeapAppender(bulk, db.catalog().table("z"))) {
        heap.appendRecord(bad, 0, bad.length);
        heap.flush();
        bulk.publish();
      }
      db.bulkPublished();
      Map<String, List<byte[]>> before = entries(db);
      RebuildOptions o =
          options(temp, 2, 64 << 20, 8)
              .withSelection(new Selection(Set.of(), Set.of(), Set.of("z_k"), false));
      assertThatThrownBy(() -> new IndexRebuild(db, o, "test", RebuildListener.NONE).run())
          .isInstanceOf(CorruptPageException.class)
          .hasMessageContaining("corrupt page ")
          .hasMessageContaining("record in slot ")
          .hasMessageContaining("of table z")
          .hasMessageContaining("flags 0x7e");
      assertSameEntries(entries(db), before);
      assertThat(db.index("z_k").isActive()).isTrue();
      assertNoTempFiles(temp);
    }
  }

  /** Table u(id, k) with a unique index u_k, row i holding k = i; returns the rows' RIDs. */
  private static long[] uniqueKeys(Database db, int n) {
    db.execute("CREATE TABLE u (id BIGINT PRIMARY KEY, k INT); CREATE UNIQUE INDEX u_k ON u (k)");
    Table t = db.table("u");
    long[] rids = new long[n];
    try (Transaction tx = db.begin()) {
      for (int i = 0; i < n; i++) {
        rids[i] = tx.insert(t, (long) i, i);
      }
      tx.commit();
    }
    return rids;
  }

  /**
   * A rebuild of u_k alone: one scan worker (one sorted buffer), two threads for its merge, which
   * take {@link SortGroup#RANGES_PER_THREAD} key ranges each.
   */
  private static RebuildOptions uniqueKeyInTwoRanges(Path temp) {
    return RebuildOptions.defaults(SrtFile.ofDirectory(temp))
        .withThreads(1, 1, 2)
        .withMemory(64 << 20)
        .withSelection(new Selection(Set.of(), Set.of(), Set.of("u_k"), false));
  }

  /**
   * A range that finds a duplicate stops the other ranges at once (they check the cancel as they
   * merge, and a queued range does not start), and the rebuild reports the duplicate, not the
   * cancellations it caused: here the range that starts at the middle key meets the duplicate 500
   * entries in, while the range beside it on the other thread is cancelled in the middle of its
   * entries and the ranges after them never start. What this asserts is the report, whichever range
   * ends first; that the others stop early is timing and is not asserted (reporting the ranges'
   * failures in list order instead fails here, with an earlier range's cancellation, in every run
   * tried with one range per thread).
   */
  @Test
  void aDuplicateInOneRangeIsReportedWhileTheOtherRangeIsCancelled() throws IOException {
    int n = 200_000;
    int dup = n / 2 + 500; // a bound is within a sample step of n / 2
    Path temp = Files.createDirectories(tmp.resolve("sort"));
    try (Database db = newDatabase(tmp.resolve("db"))) {
      long[] rids = uniqueKeys(db, n);
      Table t = db.table("u");
      setStatus(db, "u_k", IndexStatus.INACTIVE);
      t.update(rids[dup], (long) dup, dup - 1);
      assertDuplicateOfUk(db, uniqueKeyInTwoRanges(temp), temp, dup - 1);
    }
  }

  /**
   * One merge builds a packed group of one index a batch of 64 entries at a time (after its first
   * entry, {@link SortGroup}'s fillAll): a duplicate is found wherever it falls in a batch, and
   * reported with the rows of both entries. Keys {@code 0..n-1}, row {@code dup} given key {@code
   * dup - 1}: the second of the two equal entries is at sorted position {@code dup}, inside a batch
   * (1000), the last of one (768 = 12 x 64) and the first of the next (769).
   */
  @ParameterizedTest
  @ValueSource(ints = {1000, 768, 769})
  void aDuplicateAnywhereInABatchIsReportedWithBothRows(int dup) throws IOException {
    Path temp = Files.createDirectories(tmp.resolve("sort"));
    try (Database db = newDatabase(tmp.resolve("db"))) {
      long[] rids = uniqueKeys(db, 5_000);
      setStatus(db, "u_k", IndexStatus.INACTIVE);
      db.table("u").update(rids[dup], (long) dup, dup - 1);
      Map<String, List<byte[]>> before = entries(db);
      RebuildOptions o =
          RebuildOptions.defaults(SrtFile.ofDirectory(temp))
              .withThreads(1, 1, 1)
              .withMemory(64 << 20)
              .withSelection(new Selection(Set.of(), Set.of(), Set.of("u_k"), false));
      DuplicateEntryException e =
          catchThrowableOfType(
              new IndexRebuild(db, o, "test", RebuildListener.NONE)::run,
              DuplicateEntryException.class);
      assertThat(e).as("the rebuild stopped on a duplicate").isNotNull();
      assertThat(e.key()).isEqualTo("(k=" + (dup - 1) + ")");
      assertThat(e.firstRid()).isEqualTo(rids[dup - 1]);
      assertThat(e.secondRid()).isEqualTo(rids[dup]);
      assertSameEntries(entries(db), before);
      assertThat(db.index("u_k").isActive()).isFalse();
    }
  }

  /**
   * A rebuild of u_k in key ranges with {@code o} stops on the duplicate key {@code k} and leaves
   * the entries, the index's status and the temp directory as they were; returns the exception.
   */
  private static DuplicateEntryException assertDuplicateOfUk(
      Database db, RebuildOptions o, Path temp, int k) throws IOException {
    Map<String, List<byte[]>> before = entries(db);
    IndexRebuild rebuild = new IndexRebuild(db, o, "test", RebuildListener.NONE);
    rebuild.minParallelEntries = 1;
    DuplicateEntryException e = catchThrowableOfType(rebuild::run, DuplicateEntryException.class);
    assertThat(e).as("the rebuild stopped on a duplicate").isNotNull();
    assertThat(e.index()).isEqualTo("u_k");
    assertThat(e.key()).isEqualTo("(k=" + k + ")");
    assertSameEntries(entries(db), before);
    assertThat(db.index("u_k").isActive()).isFalse();
    assertNoTempFiles(temp);
    return e;
  }

  /**
   * Each key range checks the entries that meet inside it; the two that meet at a boundary (the
   * last of one range, the first of the next) are compared only when the ranges' segments are
   * joined. Here the only two equal keys sit exactly on either side of the middle boundary, so
   * nothing but that comparison can find them.
   *
   * <p>How the boundary is pinned: with one scan thread and ample memory the group reaches the
   * merge as one sorted buffer of distinct entries (equal keys still differ in their RIDs), every
   * one of them a splitter sample of weight 1, so {@link Splitters} cuts ranges of {@code n / 8}
   * entries (two threads, four ranges each), the middle boundary at sorted position {@code n / 2}.
   * Keys are {@code 0..n-1} except that row {@code n / 2} takes the key of row {@code n / 2 - 1}:
   * the two equal entries sort to positions {@code n / 2 - 1} and {@code n / 2}, and the second is
   * the boundary. The test asserts that premise (the same buffer given to the splitter, and a clean
   * rebuild of the data before the duplicate split in as many ranges), so a change of the splitter
   * or of when a group is split fails here instead of letting the duplicate fall inside one range,
   * where the in-range check would find it and this test would pass without testing the boundary.
   */
  @Test
  void duplicateKeysOnEitherSideOfARangeBoundaryStopTheRebuild() throws IOException {
    int n = 2000;
    int dup = n / 2; // the row whose key becomes its predecessor's
    Path temp = Files.createDirectories(tmp.resolve("sort"));
    try (Database db = newDatabase(tmp.resolve("db"))) {
      long[] rids = uniqueKeys(db, n);
      Table t = db.table("u");
      RebuildOptions o = uniqueKeyInTwoRanges(temp);

      // Control: the rows before the duplicate, in the same sorted positions, build in ranges.
      int ranges = 2 * SortGroup.RANGES_PER_THREAD;
      IndexRebuild clean = new IndexRebuild(db, o, "test", RebuildListener.NONE);
      clean.minParallelEntries = 1;
      assertThat(clean.run().indexes().get(0).ranges()).as("ranges of u_k").isEqualTo(ranges);

      // Writes do not maintain an inactive index, so the heap may take the duplicate.
      setStatus(db, "u_k", IndexStatus.INACTIVE);
      rids[dup] = t.update(rids[dup], (long) dup, dup - 1);

      IndexInfo ix = db.catalog().index("u_k");
      EntryBuffer scanned = new EntryBuffer(1 << 20);
      for (int i = 0; i < n; i++) {
        scanned.add(scanEntry(ix, i == dup ? dup - 1 : i, rids[i]));
      }
      scanned.sort();
      long firstRid = Math.min(rids[dup - 1], rids[dup]); // equal keys sort by RID
      long secondRid = Math.max(rids[dup - 1], rids[dup]);
      List<byte[]> bounds = Splitters.split(List.of(), List.of(scanned), ranges);
      assertThat(bounds).hasSize(ranges - 1);
      assertThat(bounds.get(ranges / 2 - 1))
          .as("the middle boundary is the second of the two equal entries")
          .isEqualTo(scanEntry(ix, dup - 1, secondRid));

      DuplicateEntryException e = assertDuplicateOfUk(db, o, temp, dup - 1);
      assertThat(e.firstRid()).as("the last row of the range before").isEqualTo(firstRid);
      assertThat(e.secondRid()).as("the first row of the range after").isEqualTo(secondRid);
    }
  }

  /** An entry as the scan makes it for {@code ix}: {@code u16 indexId || key || rid}. */
  private static byte[] scanEntry(IndexInfo ix, int key, long rid) {
    byte[] e = ix.encoder().encodeEntry(new Object[] {key}, rid);
    byte[] out = new byte[2 + e.length];
    out[0] = (byte) (ix.id() >>> 8);
    out[1] = (byte) ix.id();
    System.arraycopy(e, 0, out, 2, e.length);
    return out;
  }

  @Test
  void tempFilesRollOverAcrossSrtDirectoriesAndAreRemoved() throws IOException {
    Path[] dirs = new Path[3];
    StringBuilder srt = new StringBuilder("# three small sort areas\n");
    for (int i = 0; i < 3; i++) {
      dirs[i] = Files.createDirectories(tmp.resolve("sort" + i));
      srt.append(i == 2 ? "0" : "256").append(' ').append(dirs[i]).append("/\n");
    }
    Path srtFile = Files.writeString(tmp.resolve("db.srt"), srt);
    try (Database db = fill(tmp.resolve("db"), Seeds.seed(), 6000)) {
      Map<String, List<byte[]>> before = entries(db);
      RebuildOptions o = options(dirs[0], 1, 1 << 20, 4).withSrt(SrtFile.parse(srtFile));
      RebuildReport report = new IndexRebuild(db, o, "test", RebuildListener.NONE).run();
      Map<Path, Long> used = report.tempBytesPerDirectory();
      for (Path d : dirs) {
        assertThat(used.getOrDefault(d, 0L)).as("bytes written to " + d).isGreaterThan(0);
      }
      assertThat(used.get(dirs[0])).isLessThanOrEqualTo(256 * 1024);
      assertSameEntries(entries(db), before);
      assertNoTempFiles(dirs);
    }
  }

  @Test
  void exhaustedTempSpaceFailsCleanlyNamingTheDirectories() throws IOException {
    Path a = Files.createDirectories(tmp.resolve("small-a"));
    Path b = Files.createDirectories(tmp.resolve("small-b"));
    Path srtFile = Files.writeString(tmp.resolve("db.srt"), "64 " + a + "\n64 " + b + "\n");
    try (Database db = fill(tmp.resolve("db"), Seeds.seed(), 6000)) {
      Map<String, List<byte[]>> before = entries(db);
      RebuildOptions o = options(a, 2, 1 << 20, 4).withSrt(SrtFile.parse(srtFile));
      assertThatThrownBy(() -> new IndexRebuild(db, o, "test", RebuildListener.NONE).run())
          .isInstanceOf(TempSpaceExhaustedException.class)
          .hasMessageContaining(a.toString())
          .hasMessageContaining(b.toString());
      assertSameEntries(entries(db), before);
      assertThat(db.check().problems()).isEmpty();
      assertNoTempFiles(a, b);
    }
  }

  @Test
  void cancelLeavesTheDatabaseAsItWas() throws IOException {
    Path temp = Files.createDirectories(tmp.resolve("sort"));
    try (Database db = fill(tmp.resolve("db"), Seeds.seed(), 3000)) {
      Map<String, List<byte[]>> before = entries(db);
      IndexRebuild[] self = new IndexRebuild[1];
      RebuildListener cancelOnBuild =
          new RebuildListener() {
            @Override
            public void phaseStarted(String phase, long total, String unit) {
              if (phase.equals("build")) {
                self[0].cancel("test");
              }
            }
          };
      self[0] = new IndexRebuild(db, options(temp, 2, 1 << 20, 4), "test", cancelOnBuild);
      assertThatThrownBy(self[0]::run).hasMessageContaining("database is unchanged");
      assertSameEntries(entries(db), before);
      assertThat(db.check().problems()).isEmpty();
      assertNoTempFiles(temp);
    }
  }

  static void setStatus(Database db, String index, IndexStatus status) {
    IndexInfo ix = db.catalog().index(index);
    try (BulkWrite b = Engine.of(db).beginBulk()) {
      IndexState s = b.published().index(ix.id());
      b.meta().index(ix.id(), new IndexState(s.root(), status));
      b.publish();
    }
  }

  static String hex(byte[] b) {
    return Arrays.toString(b);
  }
}
