package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code compare} experiment end to end on a tiny map: every store built, checked, reported.
 */
class CompareBenchTest {
  @TempDir Path work;
  @TempDir Path out;

  @Test
  void runsEveryStoreAndWritesCsvJsonAndPng() throws Exception {
    CompareBench.Config c =
        CompareBench.Config.parse(
            "--keys",
            "3000",
            "--lookups",
            "500",
            "--scans",
            "50",
            "--rounds",
            "2",
            "--warmup",
            "1",
            "--inserts",
            "2500",
            "--batch",
            "1000",
            "--cache",
            "4m",
            "--out",
            out.toString(),
            "--work",
            work.toString());
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ResultSheet sheet = CompareBench.run(c, new PrintStream(printed, true, StandardCharsets.UTF_8));

    for (String s : CompareBench.STORES) {
      assertThat(sheet.value(s, "", "build")).as(s).isPositive();
      assertThat(sheet.value(s, "", "lookup")).as(s).isPositive();
      assertThat(sheet.value(s, "", "scan")).as(s).isPositive();
      assertThat(sheet.value(s, "", "disk")).as(s).isPositive();
      assertThat(sheet.value(s, "round 2", "lookup")).as(s).isPositive();
      assertThat(sheet.value(s, "", "insert")).as(s).isPositive();
      assertThat(sheet.value(s, "round 2", "insert")).as(s).isPositive();
      assertThat(sheet.value(s, "", CompareInserts.DURABLE)).as(s).isPositive();
      assertThat(sheet.value(s, "", CompareInserts.MERGED))
          .as(s)
          .isPositive()
          .isLessThanOrEqualTo(sheet.value(s, "", CompareInserts.DURABLE));
      assertThat(sheet.value(s, "", "persist")).as(s).isGreaterThanOrEqualTo(0);
      assertThat(sheet.value(s, "", "merge")).as(s).isGreaterThanOrEqualTo(0);
      assertThat(sheet.settings()).containsKey(s);
    }
    // Per peer: build, lookups, lookup CPU, scans, inserts, inserts made durable, and inserts
    // durable and merged.
    assertThat(sheet.ratios()).hasSize(7 * (CompareBench.STORES.size() - 1));
    assertThat(sheet.goals())
        .extracting(ResultSheet.Goal::goal)
        .containsExactly(
            "random point lookups within 1.1x of LMDB's CPU per lookup",
            "random point lookups ahead of every other peer",
            "random inserts at or above RocksDB's rate, made durable",
            "random inserts at or above RocksDB's rate, durable and merged",
            "random inserts ahead of every B-tree peer (durable and merged)");

    List<String> csv = Files.readAllLines(out.resolve("compare.csv"));
    assertThat(csv.get(0)).isEqualTo("experiment,store,config,metric,value,unit");
    assertThat(csv).anyMatch(l -> l.startsWith("compare,lmdb,,lookup,"));
    assertThat(csv)
        .anyMatch(l -> l.startsWith("compare,rocksdb,,insert,") && l.endsWith(",inserts/s"));
    String json = Files.readString(out.resolve("compare.json"));
    assertThat(json)
        .contains("\"experiment\": \"compare\"", "\"keys\": \"3000\"", "\"goals\"", "inserts/s");
    assertThat(Files.readAllBytes(out.resolve("compare.png"))).startsWith(0x89, 'P', 'N', 'G');
    assertThat(printed.toString(StandardCharsets.UTF_8)).contains("goal ", "lookups/s: idxkit /");
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).as("the experiment's directory is deleted").isEmpty();
    }
  }

  @Test
  void aSubsetOfStoresMustIncludeIdxkit() {
    assertThatThrownBy(() -> CompareBench.Config.parse("--stores", "lmdb,sqlite"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("--stores : lmdb,sqlite (expected: a list that includes idxkit)");
    assertThatThrownBy(() -> CompareBench.Config.parse("--stores", "idxkit,berkeley"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("--stores : 'berkeley' (expected: one of idxkit, sqlite");
  }
}
