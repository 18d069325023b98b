package dev.idxkit.jmh.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultWriterTest {
  @TempDir Path dir;

  private static Results sample() {
    return Results.of("io", "method", "chunk_bytes", "mib_per_s", "ok")
        .parameter("file_bytes", 1L << 30)
        .parameter("label", "quote \" and, comma")
        .note("first line\nsecond line")
        .row("mmap", 4096, 812.5, true)
        .row("a, \"b\"", 8L << 20, 1.0e7, null)
        .row("multi\nline", 1024, 0.000125, false);
  }

  @Test
  void csvRoundTripsThroughAnRfc4180Reader() throws Exception {
    ResultWriter w = ResultWriter.open("io", dir.resolve("out"));
    w.write(sample());
    Path csv = dir.resolve("out/io.csv");
    List<List<String>> read = new ArrayList<>();
    try (CsvReader<CsvRecord> r = CsvReader.builder().ofCsvRecord(csv)) {
      r.forEach(rec -> read.add(rec.getFields()));
    }
    assertThat(read)
        .containsExactly(
            List.of("method", "chunk_bytes", "mib_per_s", "ok"),
            List.of("mmap", "4096", "812.5", "true"),
            List.of("a, \"b\"", "8388608", "10000000", ""),
            List.of("multi\nline", "1024", "0.000125", "false"));
  }

  @Test
  void jsonHoldsMachineParametersNotesAndRowsByColumnName() throws Exception {
    ResultWriter w = ResultWriter.open("io", dir);
    w.write(sample());
    Map<String, Object> top = parse(Files.readString(dir.resolve("io.json")));
    assertThat(top)
        .containsEntry("format", "1")
        .containsEntry("experiment", "io")
        .containsEntry("results", "io")
        .containsKeys("started", "written", "machine_at_start", "machine_at_end");
    @SuppressWarnings("unchecked")
    Map<String, Object> machine = (Map<String, Object>) top.get("machine_at_start");
    assertThat(machine).containsKeys("cpu_model", "cpus", "load_average_1m", "jdk");
    assertThat(machine.get("cpus"))
        .isEqualTo(Integer.toString(Runtime.getRuntime().availableProcessors()));
    assertThat(top.get("parameters"))
        .isEqualTo(Map.of("file_bytes", "1073741824", "label", "quote \" and, comma"));
    assertThat(top.get("notes")).isEqualTo(List.of("first line\nsecond line"));
    assertThat(top.get("rows"))
        .isEqualTo(
            List.of(
                Map.of("method", "mmap", "chunk_bytes", "4096", "mib_per_s", "812.5", "ok", "true"),
                mapWithNull("a, \"b\"", "8388608", "10000000"),
                Map.of(
                    "method",
                    "multi\nline",
                    "chunk_bytes",
                    "1024",
                    "mib_per_s",
                    "0.000125",
                    "ok",
                    "false")));
  }

  private static Map<String, Object> mapWithNull(String method, String chunk, String mib) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("method", method);
    m.put("chunk_bytes", chunk);
    m.put("mib_per_s", mib);
    m.put("ok", null);
    return m;
  }

  @Test
  void chartIsAPngOfTheDocumentedSize() throws Exception {
    ResultWriter w = ResultWriter.open("io", dir);
    Results r = sample();
    w.chart(
        Chart.line("t", "chunk", "MiB/s")
            .logX()
            .logY()
            .series(r, "all", "chunk_bytes", "mib_per_s", row -> true)
            .series("none", new double[0], new double[0]),
        "io");
    BufferedImage img = ImageIO.read(dir.resolve("io.png").toFile());
    assertThat(img).isNotNull();
    assertThat(img.getWidth()).isEqualTo(Chart.WIDTH);
    assertThat(img.getHeight()).isEqualTo(Chart.HEIGHT);

    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    w.write(r);
    w.printFiles(new PrintStream(buf, true, StandardCharsets.UTF_8));
    assertThat(buf.toString(StandardCharsets.UTF_8).lines().toList())
        .containsExactly(
            "io: results in " + dir.toAbsolutePath().normalize(),
            "  " + dir.resolve("io.png"),
            "  " + dir.resolve("io.csv"),
            "  " + dir.resolve("io.json"));
  }

  @Test
  void aChartWithNoPointsIsRefused() {
    Chart c = Chart.line("empty", "x", "y").series("a", new double[0], new double[0]);
    assertThatThrownBy(() -> c.save(dir.resolve("e.png")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no points");
    assertThat(dir.resolve("e.png")).doesNotExist();
  }

  @Test
  void badRowsAndValuesAreRefusedWithTheColumnNamed() {
    Results r = Results.of("x", "a", "b");
    assertThatThrownBy(() -> r.row(1)).hasMessageContaining("1 values (expected: 2");
    assertThatThrownBy(() -> r.row(1, Double.NaN))
        .hasMessage("b : NaN (expected: a finite number)");
    assertThatThrownBy(() -> r.row(1, new Object()))
        .hasMessageStartingWith("b : a java.lang.Object");
    assertThatThrownBy(() -> Results.of("a/b", "c")).hasMessageContaining("results name : a/b");
    assertThatThrownBy(() -> Results.of("x", "c", "c")).hasMessageContaining("duplicates");
    assertThatThrownBy(() -> r.column("z")).hasMessageContaining("expected one of [a, b]");
  }

  /** Parses JSON into maps, lists and strings (numbers and booleans as their text). */
  private static Map<String, Object> parse(String json) throws Exception {
    try (JsonParser p = new JsonFactory().createParser(json)) {
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      @SuppressWarnings("unchecked")
      Map<String, Object> m = (Map<String, Object>) value(p);
      assertThat(p.nextToken()).as("nothing after the object").isNull();
      return m;
    }
  }

  private static Object value(JsonParser p) throws Exception {
    switch (p.currentToken()) {
      case START_OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() != JsonToken.END_OBJECT) {
          String k = p.currentName();
          p.nextToken();
          m.put(k, value(p));
        }
        return m;
      }
      case START_ARRAY -> {
        List<Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(value(p));
        }
        return l;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> {
        return p.getText();
      }
    }
  }
}
