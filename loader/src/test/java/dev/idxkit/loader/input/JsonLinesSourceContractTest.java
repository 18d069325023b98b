package dev.idxkit.loader.input;

import dev.idxkit.core.schema.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;

/** The {@link RowSource} contract on 3,000 JSON lines with blank and bad lines, in small chunks. */
class JsonLinesSourceContractTest extends RowSourceContract {
  @TempDir static Path dir;
  private static Path file;

  @Override
  RowSource open(ResumePoint from) {
    if (file == null) {
      file = dir.resolve("contract.jsonl");
      InputTesting.write(file, lines(42, 3000).getBytes(StandardCharsets.UTF_8));
    }
    return JsonLinesSource.open(
        file, RandomCsv.TABLE, JsonLinesOptions.defaults().withChunkBytes(2048), from);
  }

  @Override
  int minChunks() {
    return 20;
  }

  /** Random rows of {@link RandomCsv#TABLE} as JSON, some blank lines and some broken ones. */
  static String lines(long seed, int n) {
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      switch (random.nextInt(20)) {
        case 0:
          sb.append("\n");
          continue;
        case 1:
          sb.append("{\"id\": ").append(i).append(", \"price\": \"x\"}\n");
          continue;
        case 2:
          sb.append("{\"id\": ").append(i).append(", \"name\": \n");
          continue;
        default:
          break;
      }
      sb.append("{\"id\": ").append(i);
      sb.append(", \"name\": \"n\\\"").append(random.nextInt(1000)).append("\\u00e9\"");
      sb.append(", \"price\": ")
          .append(
              Values.format(
                  RandomCsv.TABLE.columns().get(3).type(),
                  java.math.BigDecimal.valueOf(random.nextLong(-999_999_999L, 999_999_999L), 3)));
      sb.append(", \"ratio\": \"").append(Double.longBitsToDouble(random.nextLong())).append('"');
      sb.append(", \"flag\": ").append(random.nextBoolean());
      sb.append(random.nextBoolean() ? "}\n" : "}\r\n");
    }
    return sb.toString();
  }
}
