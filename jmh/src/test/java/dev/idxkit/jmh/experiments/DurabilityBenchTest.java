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
    for (int round = 1; round <= 2; round++) {
      String[] f = ckpt.get(round).split(",");
      assertThat(f[0]).as("round").isEqualTo(Integer.toString(round));
      assertThat(f[1]).isEqualTo("4");
      double flush = Double.parseDouble(f[3]);
      double write = Double.parseDouble(f[4]);
      assertThat(write).as("writes within the flush").isBetween(0.0, flush);
      assertThat(Double.parseDouble(f[7])).as("flush MiB/s").isPositive();
      assertThat(Double.parseDouble(f[10])).as("ratio").isPositive();
    }
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("out");
    }
  }
}
