package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.internal.KeyLengthGuard;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A row whose key is too long for an index is one reject with its line, in every mode: the bulk
 * modes check keys while loading (the deferred build would otherwise fail on it at the end), live
 * mode through the insert. Indexes whose keys cannot be too long are not checked at all.
 */
class KeyLengthTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(IndexMode.class)
  void aKeyTooLongIsARejectedRow(IndexMode mode) throws Exception {
    int pageSize = 4096;
    int max = BTree.maxEntryLength(pageSize);
    String ok = "k".repeat(max - 8 - 4); // marker, terminator and RID fit
    String tooLong = "k".repeat(max);
    Path csv = tmp.resolve("keys.csv");
    Files.writeString(
        csv, "id,tag\n1,short\n2," + tooLong + "\n3," + ok + "\n4,\n", StandardCharsets.UTF_8);
    Path rejects = tmp.resolve("rejects.txt");
    try (Database db =
        Database.create(tmp.resolve("db"), DatabaseOptions.defaults().withPageSize(pageSize))) {
      db.execute("CREATE TABLE k (id BIGINT NOT NULL, tag TEXT); CREATE INDEX k_tag ON k (tag);");
      LoadReport r =
          new Loader(
                  db,
                  LoadOptions.of("k", LoadInput.csv(csv, CsvOptions.defaults()))
                      .withIndexMode(mode)
                      .withRejectFile(rejects),
                  new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(r.outcome()).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(LoadTesting.rejectLineNumbers(rejects, csv)).containsExactly(3L);
      assertThat(LoadTesting.rejectLines(rejects).get(0)).contains("k_tag", "too long");
      assertThat(LoadTesting.rows(db.table("k")).stream().map(x -> x.values()[0]).toList())
          .containsExactlyInAnyOrder(1L, 3L, 4L);
      if (mode != IndexMode.NONE) {
        assertThat(db.index("k_tag").get(ok)).hasSize(1);
      }
      assertThat(db.check().problems()).isEmpty();
    }
  }

  @Test
  void boundedKeysAreNotChecked() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(
          "CREATE TABLE b (id BIGINT NOT NULL, name VARCHAR(100), day DATE, PRIMARY KEY (id));"
              + "CREATE INDEX b_name ON b (name, day);"
              + "CREATE TABLE w (id BIGINT, note VARCHAR(2000)); CREATE INDEX w_note ON w (note);");
      int pageSize = Engine.of(db).pageSize();
      // VARCHAR(100): at most 4 * 100 + 2 + 1 bytes, far below a quarter of 8 KiB.
      assertThat(new KeyLengthGuard(db.catalog().table("b"), pageSize).nothingToCheck()).isTrue();
      assertThat(new KeyLengthGuard(db.catalog().table("w"), pageSize).nothingToCheck()).isFalse();
    }
  }
}
