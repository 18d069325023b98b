package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Analysis.AreaReport;
import dev.idxkit.core.Analysis.IndexReport;
import dev.idxkit.core.Analysis.Report;
import dev.idxkit.core.Analysis.TableReport;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.testing.Seeds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks {@link Analysis} against what the test put in, and its page counts against the areas' own
 * accounting: with one table per area, heap pages + overflow pages must equal the area's used
 * pages, and tree pages must equal the index area's used pages.
 */
class AnalysisTest {
  @TempDir Path tmp;

  static final String DDL =
      """
      CREATE TABLE t (
        id BIGINT NOT NULL, grp INT, name VARCHAR(20000), PRIMARY KEY (id)) TABLESPACE t_data;
      CREATE INDEX t_grp ON t (grp) TABLESPACE t_ix;
      CREATE TABLE u (k INT NOT NULL, PRIMARY KEY (k));
      """;

  @Test
  void figuresMatchTheRowsAndTheAreaAccounting() {
    long seed = Seeds.seed();
    SplittableRandom rnd = Seeds.random(seed);
    Path dir = tmp.resolve("db");
    TreeMap<Long, String> live = new TreeMap<>();
    Map<Long, Long> rids = new TreeMap<>();
    try (Database db = Database.create(dir, Database.DatabaseOptions.defaults())) {
      db.execute(DDL);
      int maxInline = HeapPage.maxInlineLength(Engine.of(db).pageSize());
      try (Transaction tx = db.begin()) {
        for (long id = 0; id < 3000; id++) {
          // About one record in 20 is longer than a heap page allows inline.
          int len = rnd.nextInt(20) == 0 ? maxInline + rnd.nextInt(12_000) : rnd.nextInt(80);
          String name = "n".repeat(len) + id;
          rids.put(id, tx.insert(db.table("t"), id, (int) (id % 17), name));
          live.put(id, name);
        }
        tx.commit();
      }
      try (Transaction tx = db.begin()) {
        // Deletes free pages (overflow chains, emptied heap pages): the free list gets entries.
        for (long id = 0; id < 3000; id += 3) {
          tx.delete(db.table("t"), rids.get(id));
          live.remove(id);
        }
        tx.commit();
      }
      for (int k = 0; k < 50; k++) {
        db.table("u").insert(k);
      }

      // Pages still in the log are not in the area files yet; the file size checks need them home.
      db.checkpoint();
      List<String> phases = new ArrayList<>();
      long[] advanced = new long[2];
      Report r =
          Analysis.run(
              db,
              Analysis.Options.all(),
              new Analysis.Listener() {
                @Override
                public void phase(String name, long total) {
                  phases.add(name + ":" + total);
                }

                @Override
                public void advance(long n) {
                  advanced[phases.size() - 1] += n;
                }
              });

      String why = Seeds.reproduce(seed, getClass());
      TableReport t = byName(r.tables(), TableReport::name).get("t");
      long longRecords =
          live.values().stream()
              .filter(s -> s.length() > maxInline)
              .count(); // ASCII: chars = bytes
      assertThat(t.rows()).as(why).isEqualTo(live.size());
      assertThat(t.overflowRecords()).as(why).isEqualTo(longRecords);
      assertThat(t.overflowPages()).as(why).isGreaterThanOrEqualTo(longRecords);
      long nameBytes = live.values().stream().mapToLong(String::length).sum();
      // A record is its values plus a small header and offsets; never less than the text.
      assertThat(t.recordBytes()).as(why).isBetween(nameBytes, nameBytes + 40L * live.size());
      assertThat(t.averageRecordBytes()).isEqualTo((double) t.recordBytes() / t.rows());
      assertThat(t.heapFillPercent()).as(why).isBetween(1.0, 100.0);
      assertThat(t.unreadablePages()).isZero();
      assertThat(t.area()).isEqualTo("t_data");

      Map<String, AreaReport> areas = byName(r.areas(), AreaReport::name);
      AreaReport tData = areas.get("t_data");
      assertThat(t.heapPages() + t.overflowPages()).as(why).isEqualTo(tData.usedPages());
      assertThat(tData.freePages()).as(why).isPositive();
      assertThat(tData.fileBytes()).isGreaterThanOrEqualTo(tData.highWaterMark() * 8192);
      assertThat(tData.file()).isEqualTo(dir.resolve("t_data.area"));

      IndexReport ix = byName(r.indexes(), IndexReport::name).get("t_grp");
      assertThat(ix.state()).isEqualTo("active");
      assertThat(ix.columns()).containsExactly("grp");
      assertThat(ix.unique()).isFalse();
      assertThat(ix.problems()).isEmpty();
      assertThat(ix.tree().entries()).isEqualTo(live.size());
      assertThat(ix.tree().height()).isGreaterThanOrEqualTo(2);
      assertThat(ix.tree().pages()).isEqualTo(areas.get("t_ix").usedPages());
      assertThat(ix.averageKeyBytes()).isEqualTo(ix.tree().averageEntrySize() - Rid.BYTES);

      TableReport u = byName(r.tables(), TableReport::name).get("u");
      assertThat(u.rows()).isEqualTo(50);
      assertThat(u.overflowRecords()).isZero();
      assertThat(byName(r.indexes(), IndexReport::name).get("u_pk").tree().entries()).isEqualTo(50);

      assertThat(phases).containsExactly("tables:" + (t.heapPages() + u.heapPages()), "indexes:3");
      assertThat(advanced).containsExactly(t.heapPages() + u.heapPages(), 3);
      assertThat(r.pageSize()).isEqualTo(8192);
      assertThat(areas.keySet()).containsExactlyInAnyOrder("data", "index", "t_data", "t_ix");
    }
  }

  @Test
  void selectsNamedTablesWithTheirIndexesAndNamedIndexes() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      db.table("t").insert(1L, 1, "a");
      db.table("u").insert(1);

      Report byTable = Analysis.run(db, new Analysis.Options(Set.of("T"), Set.of()), null0());
      assertThat(byTable.tables()).extracting(TableReport::name).containsExactly("t");
      assertThat(byTable.indexes())
          .extracting(IndexReport::name)
          .containsExactlyInAnyOrder("t_pk", "t_grp");

      Report byIndex = Analysis.run(db, new Analysis.Options(Set.of(), Set.of("U_PK")), null0());
      assertThat(byIndex.tables()).isEmpty();
      assertThat(byIndex.indexes()).extracting(IndexReport::name).containsExactly("u_pk");
      assertThat(byIndex.areas()).hasSize(4); // areas are always reported

      assertThatThrownBy(
              () -> Analysis.run(db, new Analysis.Options(Set.of("nope"), Set.of()), null0()))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("nope");
    }
  }

  @Test
  void inactiveIndexIsListedWithoutStats() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      db.table("t").insert(1L, 1, "a");
      int id = db.catalog().index("t_grp").id();
      try (BulkWrite bulk = Engine.of(db).beginBulk()) {
        long root = Engine.of(db).meta().index(id).root();
        bulk.meta().index(id, new IndexState(root, IndexStatus.INACTIVE));
        bulk.publish();
      }
      IndexReport ix =
          byName(Analysis.run(db, Analysis.Options.all(), null0()).indexes(), IndexReport::name)
              .get("t_grp");
      assertThat(ix.state()).isEqualTo("inactive");
      assertThat(ix.tree()).isNull();
      assertThat(ix.averageKeyBytes()).isZero();
    }
  }

  @Test
  void damagedHeapPageIsCountedAndSkipped() throws IOException {
    Path dir = tmp.resolve("db");
    long firstPage;
    int pageSize;
    try (Database db = Database.create(dir)) {
      db.execute(DDL);
      for (long i = 0; i < 500; i++) {
        db.table("t").insert(i, (int) i, "row " + i);
      }
      firstPage = Engine.of(db).meta().table(db.catalog().table("t").id()).pages().next(-1);
      pageSize = Engine.of(db).pageSize();
    }
    try (FileChannel ch =
        FileChannel.open(
            dir.resolve("t_data.area"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long at = firstPage * pageSize + pageSize / 2;
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, at);
      b.put(0, (byte) (b.get(0) ^ 0x5A)).rewind();
      ch.write(b, at);
    }
    try (Database db = Database.open(dir, Database.DatabaseOptions.defaults().readOnly())) {
      TableReport t =
          byName(Analysis.run(db, Analysis.Options.all(), null0()).tables(), TableReport::name)
              .get("t");
      assertThat(t.unreadablePages()).isEqualTo(1);
      assertThat(t.rows()).isLessThan(500).isPositive();
    }
    assertThat(Files.exists(dir.resolve("t_data.area"))).isTrue();
  }

  @Test
  void listenerMayStopTheAnalysis() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      db.table("t").insert(1L, 1, "a");
      Analysis.Listener stop =
          new Analysis.Listener() {
            @Override
            public void advance(long n) {
              throw new IllegalStateException("stop");
            }
          };
      assertThatThrownBy(() -> Analysis.run(db, Analysis.Options.all(), stop)).hasMessage("stop");
      // The writer was released: a write goes through.
      db.table("t").insert(2L, 2, "b");
      assertThat(db.table("t").rowCount()).isEqualTo(2);
    }
  }

  private static Analysis.Listener null0() {
    return Analysis.Listener.NONE;
  }

  private static <T> Map<String, T> byName(List<T> list, Function<T, String> name) {
    return list.stream().collect(Collectors.toMap(name, x -> x));
  }
}
