package dev.idxkit.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchDirTest {
  @TempDir Path parent;

  @Test
  void closeDeletesTheDirectoryAndEverythingInItOnce() throws Exception {
    BenchDir d = BenchDir.create(parent, "t");
    assertThat(d.path().getParent()).isEqualTo(parent);
    assertThat(d.path().getFileName().toString()).startsWith("idxkit-t-");
    Files.createDirectories(d.resolve("a/b"));
    Files.writeString(d.resolve("a/b/f"), "x");
    Files.writeString(d.resolve("g"), "y");

    d.close();
    assertThat(d.path()).doesNotExist();
    d.close();
    assertThat(parent).isEmptyDirectory();
  }

  @Test
  void directoriesAreDistinct() {
    try (BenchDir a = BenchDir.create(parent, "t");
        BenchDir b = BenchDir.create(parent, "t")) {
      assertThat(a.path()).isNotEqualTo(b.path()).isDirectory();
      assertThat(b.path()).isDirectory();
    }
    assertThat(parent).isEmptyDirectory();
  }
}
