package dev.idxkit.loader.input;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The {@link RowSource} contract on a random awkward CSV file with rejects, in small chunks. */
class CsvSourceContractTest extends RowSourceContract {
  @TempDir static Path dir;
  private static Path file;

  @Override
  RowSource open(ResumePoint from) {
    if (file == null) {
      file = new RandomCsv(42, 3000).writeTo(dir); // fixed: the contract is not a fuzz test
    }
    return CsvSource.open(file, RandomCsv.TABLE, CsvOptions.defaults().withChunkBytes(4096), from);
  }

  @Override
  int minChunks() {
    return 20;
  }
}
