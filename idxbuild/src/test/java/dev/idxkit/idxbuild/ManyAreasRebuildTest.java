package dev.idxkit.idxbuild;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.testing.Within;
import dev.idxkit.idxbuild.temp.SrtFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rebuild whose sort group writes into more areas than the page writer has buffers: each area's
 * output stream keeps a partly filled buffer until the group ends, and the group's last trees used
 * to wait for a buffer for ever (a hang, found with 161 indexes over 20 areas).
 */
class ManyAreasRebuildTest {
  private static final int INDEXES = 144;
  private static final int ROWS = 60;

  @TempDir Path tmp;

  /** Index {@code k}'s area: with the groups dealt round, each group gets 18 areas. */
  private static String area(int k) {
    return "a" + k / 8;
  }

  @Test
  void aGroupSpanningMoreAreasThanWriteBuffersIsRebuilt() throws Exception {
    StringBuilder ddl = new StringBuilder("CREATE TABLE t (id BIGINT PRIMARY KEY");
    for (int c = 0; c < 10; c++) {
      ddl.append(", c").append(c).append(" INT");
    }
    ddl.append(");\n");
    Map<String, String> areaOf = new HashMap<>();
    for (int k = 0; k < INDEXES; k++) {
      String name = "t_" + k;
      areaOf.put(name, area(k));
      ddl.append("CREATE INDEX ")
          .append(name)
          .append(" ON t (c")
          .append(k % 10)
          .append(", id) TABLESPACE ")
          .append(area(k))
          .append(";\n");
    }
    Path srt = Files.createDirectories(tmp.resolve("srt"));
    Database db =
        Database.create(
            tmp.resolve("db"), Database.DatabaseOptions.defaults().withDurability(Durability.OFF));
    // Closed only once the rebuild has ended: closing waits for it, and the old hang never ended.
    RebuildReport report;
    try {
      db.execute(ddl.toString());
      Table t = db.table("t");
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < ROWS; i++) {
          Object[] row = new Object[11];
          row[0] = (long) i;
          for (int c = 0; c < 10; c++) {
            row[c + 1] = (i * 7 + c * 13) % 23;
          }
          tx.insert(t, row);
        }
        tx.commit();
      }
      RebuildOptions o =
          RebuildOptions.defaults(SrtFile.ofDirectory(srt))
              .withThreads(1, 1, 1)
              .withMemory(16 << 20)
              .withMerge(8, 8, RebuildOptions.DEFAULT_FAN_IN, 8);
      report =
          Within.seconds(
              120,
              "the rebuild",
              () -> new IndexRebuild(db, o, "test", RebuildListener.NONE).run());
    } catch (Within.Hung e) {
      throw e; // db left open: closing it would wait for the rebuild that hung
    } catch (Throwable e) {
      db.close();
      throw e;
    }
    try (db) {
      assertThat(report.indexes()).hasSize(INDEXES + 1);
      Map<Integer, Set<String>> areasOfGroup = new HashMap<>();
      for (RebuildReport.IndexResult ix : report.indexes()) {
        assertThat(ix.entries()).as(ix.name()).isEqualTo(ROWS);
        areasOfGroup
            .computeIfAbsent(ix.group(), g -> new HashSet<>())
            .add(areaOf.getOrDefault(ix.name(), "index"));
      }
      // What makes this the case above: some group writes into more areas than the 16 buffers.
      assertThat(areasOfGroup.values().stream().mapToInt(Set::size).max().orElse(0))
          .as("areas of the widest group: %s", areasOfGroup)
          .isGreaterThan(16);
      assertThat(db.check().problems()).isEmpty();
    }
  }
}
