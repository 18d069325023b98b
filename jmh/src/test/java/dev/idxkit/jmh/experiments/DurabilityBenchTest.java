package dev.idxkit.jmh.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurabilityBenchTest {
  @TempDir Path tmp;

  @Test
  void writesBothTablesAndCleansUp() throws Exception {
    Path out = tmp.resolve("out");
    DurabilityBench.run(tmp, 1, 4, 2, false, out);
    List<String> commits = Files.readAllLines(out.resolve("durability-commits.csv"));
    assertThat(commits).hasSize(5).first().isEqualTo("durability,writers,seconds,commits_per_s");
    assertThat(commits.subList(1, 5).stream().map(l -> l.substring(0, l.lastIndexOf(','))))
        .containsExactly("sync,1,1", "sync,2,1", "async,1,1", "async,2,1");
    for (String l : commits.subList(1, 5)) {
      assertThat(Long.parseLong(l.substring(l.lastIndexOf(',') + 1))).as(l).isPositive();
    }
    List<String> ckpt = Files.readAllLines(out.resolve("durability-checkpoint.csv"));
    assertThat(ckpt).hasSize(3);
    // Columns by name: the indices moved once when a column was added, and the test went on
    // comparing the double write with the flush under the names of the flush and its writes.
    List<String> columns = List.of(ckpt.get(0).split(","));
    for (int round = 1; round <= 2; round++) {
      String[] f = ckpt.get(round).split(",");
      assertThat(f).as("round %d", round).hasSameSizeAs(columns.toArray());
      assertThat(f[columns.indexOf("round")]).isEqualTo(Integer.toString(round));
      assertThat(f[columns.indexOf("mib")]).isEqualTo("4");
      double flush = Double.parseDouble(f[columns.indexOf("flush_seconds")]);
      double write = Double.parseDouble(f[columns.indexOf("write_seconds")]);
      assertThat(write).as("writes within the flush").isBetween(0.0, flush);
      assertThat(Double.parseDouble(f[columns.indexOf("double_write_seconds")]))
          .as("double write")
          .isPositive();
      assertThat(Double.parseDouble(f[columns.indexOf("flush_mib_per_s")]))
          .as("flush MiB/s")
          .isPositive();
      assertThat(Double.parseDouble(f[columns.indexOf("ratio")])).as("ratio").isPositive();
    }
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("out");
    }
  }
}
