package dev.idxkit.jmh.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.jmh.experiments.IoReader.Method;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoBenchTest {
  @TempDir Path tmp;

  @Test
  void chunkSizesArePowersOfTwoAndTheFineSweepInRange() {
    List<Integer> c = IoBench.chunkSizes(1024, 8 << 20);
    assertThat(c).startsWith(1024, 2048, 4096, 8192, 12288).endsWith(4 << 20, 8 << 20);
    assertThat(c).isSorted().doesNotHaveDuplicates().hasSize(24);
    assertThat(IoBench.chunkSizes(4096, 16384)).containsExactly(4096, 8192, 12288, 16384);
  }

  @Test
  void everyReaderFindsAWrongWord() throws Exception {
    Path f = tmp.resolve("f");
    IoReader.fill(f, 1 << 20);
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(8).putLong(0, 12345), 8192 * 3);
    }
    for (Method m : List.of(Method.MMAP, Method.CHANNEL)) {
      try (IoReader r = IoReader.open(m, f, 64 << 10)) {
        r.read(0, 16384); // before the damage: fine
        assertThatThrownBy(() -> r.read(8192 * 2, 16384))
            .as(m.label)
            .hasMessageContaining("at offset " + 8192 * 3)
            .hasMessageContaining("(expected: 6000");
      }
    }
  }

  @Test
  void ddSummaryLineIsParsed() throws Exception {
    PageCache.DdRun r =
        PageCache.parseDd(
            "16+0 records in\n16+0 records out\n16777216 bytes (17 MB, 16 MiB) copied, 0.0191868 s,"
                + " 874 MB/s\n");
    assertThat(r.bytes()).isEqualTo(16777216);
    assertThat(r.seconds()).isEqualTo(0.0191868);
    assertThatThrownBy(() -> PageCache.parseDd("dd: nothing")).hasMessageContaining("no summary");
  }

  @Test
  void aTinyRunWritesEveryPointAndItsChartsAndRemovesTheFile() throws Exception {
    Path out = tmp.resolve("out");
    IoBench.run(
        IoBench.command()
            .parse(
                "1m",
                "--dir",
                tmp.toString(),
                "--millis",
                "2",
                "--min-chunk",
                "4k",
                "--max-chunk",
                "16k",
                "--methods",
                "mmap,store,channel,o_direct",
                "--rounds",
                "1",
                "--seed",
                "7",
                "--out",
                out.toString()));
    List<String> csv = Files.readAllLines(out.resolve("io.csv"));
    assertThat(csv.get(0))
        .isEqualTo(
            "method,pattern,chunk_bytes,reads,bytes,seconds,mib_per_s,reads_per_s,resident_before_bytes,"
                + "device_bytes_per_read");
    // 4 chunk sizes (4, 8, 12, 16 KiB) x the methods that work here x 2 patterns
    int methods = (int) csv.stream().skip(1).map(l -> l.split(",")[0]).distinct().count();
    assertThat(methods).isBetween(3, 4); // o_direct is left out on file systems without it
    assertThat(csv).hasSize(1 + 4 * methods * 2);
    for (String line : csv.subList(1, csv.size())) {
      String[] f = line.split(",");
      assertThat(Long.parseLong(f[3])).as(line).isPositive();
      assertThat(Long.parseLong(f[4]))
          .as(line)
          .isEqualTo(Long.parseLong(f[3]) * Long.parseLong(f[2]));
      assertThat(Double.parseDouble(f[6])).as(line).isPositive();
      assertThat(Long.parseLong(f[9])).as(line).isGreaterThanOrEqualTo(-1);
    }
    assertThat(Files.readString(out.resolve("io.json"))).contains("goal store random");
    List<String> dd = Files.readAllLines(out.resolve("io-vs-dd.csv"));
    assertThat(dd.get(1)).startsWith("1,dd,1048576,1048576,");
    assertThat(dd).hasSize(2 + methods);
    assertThat(out.resolve("io.png")).isNotEmptyFile();
    assertThat(out.resolve("io-fine.png")).isNotEmptyFile();
    assertThat(Files.readString(out.resolve("io.json"))).contains("\"seed\": 7");
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("out");
    }
  }
}
