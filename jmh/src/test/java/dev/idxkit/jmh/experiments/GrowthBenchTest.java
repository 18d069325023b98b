package dev.idxkit.jmh.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GrowthBenchTest {
  @TempDir Path tmp;

  @Test
  void tinyRunsLandInBothStoresWithTheirKeysIndexed() throws Exception {
    Path out = tmp.resolve("out");
    long seed = 42;
    GrowthBench.run(
        GrowthBench.command()
            .parse(
                "--runs",
                "4",
                "--per-run",
                "300",
                "--batch",
                "64",
                "--seed",
                Long.toString(seed),
                "--dir",
                tmp.toString(),
                "--out",
                out.toString(),
                "--keep"));
    List<String> csv = Files.readAllLines(out.resolve("growth.csv"));
    assertThat(csv.get(0))
        .isEqualTo(
            "store,run,rows_total,seconds,user_seconds,system_seconds,file_bytes,data_bytes,inserts_per_s");
    assertThat(csv).hasSize(1 + 8);
    for (int run = 1; run <= 4; run++) {
      assertThat(csv.get(2 * run - 1)).startsWith("idxkit," + run + "," + run * 300 + ",");
      assertThat(csv.get(2 * run)).startsWith("sqlite," + run + "," + run * 300 + ",");
    }
    assertThat(Files.readString(out.resolve("growth.json")))
        .contains("goal: idxkit run 4 took", "\"batch_rows\": 64");
    assertThat(out.resolve("growth.png")).isNotEmptyFile();
    assertThat(out.resolve("growth-size.png")).isNotEmptyFile();

    Path kept;
    try (Stream<Path> s = Files.list(tmp)) {
      kept =
          s.filter(p -> p.getFileName().toString().startsWith("idxkit-growth-"))
              .findFirst()
              .orElseThrow();
    }
    // Run 3's rows, regenerated from the same seed, are where each of the nine indexes says.
    SplittableRandom seeds = new SplittableRandom(seed);
    seeds.nextLong();
    seeds.nextLong();
    long[][] keys = new long[300][GrowthStore.KEYS];
    String[] pads = new String[300];
    GrowthBench.generate(new SplittableRandom(seeds.nextLong()), keys, pads);
    try (Database db = Database.open(kept.resolve("idxkit"))) {
      assertThat(db.table("growth").rowCount()).isEqualTo(1200);
      for (int k = 1; k <= GrowthStore.KEYS; k++) {
        List<Row> hit = db.index("growth_k" + k).get(keys[123][k - 1]);
        assertThat(hit).as("growth_k" + k).hasSize(1);
        assertThat(hit.get(0).get(0)).isEqualTo(600L + 123);
        assertThat(hit.get(0).get(GrowthStore.KEYS + 1)).isEqualTo(pads[123]);
      }
    }
    try (Connection c =
            DriverManager.getConnection("jdbc:sqlite:" + kept.resolve("growth.sqlite"));
        Statement st = c.createStatement()) {
      try (ResultSet r = st.executeQuery("SELECT count(*) FROM growth")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getLong(1)).isEqualTo(1200);
      }
      try (ResultSet r = st.executeQuery("SELECT id FROM growth WHERE k7 = " + keys[123][6])) {
        assertThat(r.next()).isTrue();
        assertThat(r.getLong(1)).isEqualTo(600L + 123);
      }
      try (ResultSet r =
          st.executeQuery("SELECT count(*) FROM sqlite_master WHERE type = 'index'")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getInt(1)).isEqualTo(GrowthStore.KEYS);
      }
    }
  }

  @Test
  void withoutKeepNothingIsLeftBehind() throws Exception {
    GrowthBench.run(
        GrowthBench.command()
            .parse(
                "--runs",
                "2",
                "--per-run",
                "50",
                "--no-sqlite",
                "--dir",
                tmp.toString(),
                "--out",
                tmp.resolve("out").toString()));
    assertThat(Files.readAllLines(tmp.resolve("out/growth.csv"))).hasSize(3);
    assertThat(Files.readString(tmp.resolve("out/growth.json")))
        .contains("not evaluated: fewer than 4 runs");
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("out");
    }
  }
}
